"""Small dice under strong glare (640x480 whole games) and the glare check.

The pip classifier was retrained with 640x480 frames under glare
(``train_facenet --small-settled``), and a face whose read layout has a
saturated pip place is refused (``glare.py``). See docs/vision-dice.md,
"Small dice under glare".
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.bench.vision import render_dome_sample
from companion.vision.dice import read_die_in_dome
from companion.vision.dice.dome import DEFAULT_DIE_FRACTION, DOME_SPAN_RADII
from companion.vision.dice.face_search import search_face
from companion.vision.dice.facenet import pip_net
from companion.vision.dice.glare import SATURATED, palest_pip, pip_lost_in_glare
from companion.vision.dice.photo import to_gray


@pytest.mark.slow
def test_a_settled_six_under_strong_glare_in_a_whole_game_is_read() -> None:
    """Seed 7's whole game (glare 0.99, 640x480, 6 fps): the six that lies in
    frames 284-302 under the dome's glare was read hidden in every one of
    them before the retraining (the classifier's probability 0.975-0.989,
    under its 0.99), and the referee got an unread pop."""
    from companion.bench.referee import _players
    from companion.layout import load_layout
    from companion.live.clips import render_game
    from companion.vision.reader import BoardReader

    frames, _ = render_game(7, _players(7, 0), size=(640, 480), fps=6.0)
    reader = BoardReader(load_layout(), read_die=False)
    readings = []
    for i, (image, truth) in enumerate(frames):
        if i > 302:
            break
        reading = reader.read(image)  # every frame: the pose is tracked as in play
        if i >= 284:
            die = truth.to_json()["die"]
            assert (die["state"], die["value"]) == ("settled", 6)
            assert reading.found
            crop = reader.dome_crop(image)
            fraction = reader.geometry.die_size_mm / (DOME_SPAN_RADII * reader.geometry.dome_radius_mm)
            readings.append(read_die_in_dome(crop, fraction=fraction))
    values = [r.value for r in readings]
    assert all(v in (None, 6) for v in values), values
    assert values.count(6) >= 15, values  # 19 of 19 when written


@pytest.mark.slow
def test_no_wrong_value_on_seeded_development_frames() -> None:
    """Every state, pip dice, development seeds (never trained or tuned on:
    training used 100000-101500, 110000-110400, 120000-125200; the glare
    threshold was set on 700000-704199): no value other than the true one."""
    samples = [render_dome_sample(seed, edition="pips") for seed in range(715000, 715080)]
    readings = [(s, read_die_in_dome(s.crop)) for s in samples]
    wrong = [(s.seed, s.state, s.value, r.value) for s, r in readings
             if r.value is not None and (r.value != s.value or s.state == "cocked")]
    right = sum(s.state == "settled" and r.value == s.value for s, r in readings)
    assert wrong == []
    assert right >= 40, right  # 49 of the 61 settled when written


def _tidy_face() -> tuple[np.ndarray, object]:
    crop = render_dome_sample(7003, state="settled", edition="pips", value=4, tilt_deg=10.0,
                              hand=None, motion_blur_px=0.0, glare=0.2, jpeg_quality=95,
                              noise=2.0, defocus_px=0.6).crop
    gray = to_gray(crop).astype(np.float32)
    return gray, search_face(gray, DEFAULT_DIE_FRACTION, pip_net(), DOME_SPAN_RADII)


@pytest.mark.slow
def test_a_pip_washed_out_by_glare_is_refused() -> None:
    gray, face = _tidy_face()
    die = DEFAULT_DIE_FRACTION * gray.shape[0]
    assert face.value == 4  # type: ignore[attr-defined]
    x, y, a = face.x, face.y, face.angle_deg  # type: ignore[attr-defined]
    assert palest_pip(gray, x, y, a, die, 4) < SATURATED - 40
    assert not pip_lost_in_glare(gray, x, y, a, die, 4)
    # A white glare blob over one corner of the face: that corner's pip is gone.
    glared = gray.copy()
    t = np.radians(a)
    ox, oy = 0.25 * die, 0.25 * die
    cx, cy = x + ox * np.cos(t) - oy * np.sin(t), y + ox * np.sin(t) + oy * np.cos(t)
    yy, xx = np.mgrid[: gray.shape[0], : gray.shape[1]]
    glared[np.hypot(xx - cx, yy - cy) <= 0.15 * die] = 255.0
    assert pip_lost_in_glare(glared, x, y, a, die, 4)


def test_palest_pip_rejects_an_impossible_value() -> None:
    gray = np.full((160, 160), 200.0, np.float32)
    with pytest.raises(ValueError, match="no pip layout"):
        palest_pip(gray, 80.0, 80.0, 0.0, 26.0, 7)
