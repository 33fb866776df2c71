"""The leaning-die classifier: a cocked die is found at the wall, a flat one is not cocked."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.bench.vision import (
    _layout,
    cocked_die_xy,
    learned_digit_faces,
    render_dome_sample,
)
from companion.sim import Scene
from companion.vision.dice import read_die_in_dome
from companion.vision.dice.canonical import canonical_patch
from companion.vision.dice.dome import DEFAULT_DIE_FRACTION, DOME_SPAN_RADII
from companion.vision.dice.leaning import (
    WINDOW_DIES,
    find_leaning,
    leaning_net,
    ring_places,
    ring_windows,
)
from companion.vision.dice.photo import to_gray
from companion.vision.dice.train_leaning import main as train_main

pytestmark = pytest.mark.slow


def _gray(crop: np.ndarray) -> np.ndarray:
    return to_gray(crop).astype(np.float32)


def test_ring_windows_are_the_canonical_patches_turned_to_the_radius() -> None:
    rng = np.random.default_rng(3)
    gray = rng.uniform(0, 255, (160, 160)).astype(np.float32)
    windows = ring_windows(gray, DEFAULT_DIE_FRACTION, DOME_SPAN_RADII)
    places = ring_places(160, DOME_SPAN_RADII)
    assert len(windows) == len(places)
    for k in (0, 17, len(places) - 1):
        x, y, angle = places[k]
        want = canonical_patch(gray, x, y, angle, DEFAULT_DIE_FRACTION * 160 * WINDOW_DIES)
        assert np.abs(windows[k] - want).max() < 0.05  # float32 bilinear rounding


def test_the_shipped_net_has_two_classes() -> None:
    assert leaning_net().classes == 2


@pytest.mark.parametrize("seed", [151003, 151011, 151020, 151042])
def test_a_leaning_die_is_found_where_it_leans(seed: int) -> None:
    """Development seeds of the threshold's set; the place is the renderer's own."""
    sample = render_dome_sample(seed, state="cocked", edition="pips")
    camera = Scene.random(seed, _layout(), size=(1280, 720)).camera
    x, y = cocked_die_xy(seed, _layout(), camera)
    lean = find_leaning(_gray(sample.crop), DEFAULT_DIE_FRACTION, DOME_SPAN_RADII)
    die_px = DEFAULT_DIE_FRACTION * 160
    assert lean.probability > 0.99
    assert math.dist((lean.x, lean.y), (x, y)) < 0.6 * die_px
    assert read_die_in_dome(sample.crop).state == "cocked"


def test_leaning_dice_of_both_editions_are_called_cocked_and_never_read() -> None:
    digits = learned_digit_faces()
    pips = [read_die_in_dome(render_dome_sample(7400 + i, state="cocked", edition="pips",
                                                value=i % 6 + 1, tilt_deg=5.0 + 3.0 * i).crop)
            for i in range(8)]
    digit = [digits.read(render_dome_sample(7500 + i, state="cocked", edition="digits",
                                            value=i % 6 + 1, tilt_deg=5.0 + 3.0 * i).crop)
             for i in range(8)]
    assert all(r.value is None for r in pips + digit)
    # 8 of 8 each when written (the template finder alone: 4 of 8 pips).
    assert sum(r.state == "cocked" for r in pips) >= 6
    assert sum(r.state == "cocked" for r in digit) >= 6


def test_flat_dice_are_not_called_cocked() -> None:
    """Flat pip dice with no hand, development seeds: none is called cocked
    (0 of 1,475 on the threshold's set)."""
    called = []
    for seed in range(150000, 150060):
        sample = render_dome_sample(seed, state="settled", edition="pips", hand=None)
        if read_die_in_dome(sample.crop).state == "cocked":
            called.append(seed)
    assert called == []


def test_training_runs_end_to_end_on_a_few_crops(tmp_path: pytest.TempPathFactory) -> None:
    out = tmp_path / "net.npz"  # type: ignore[operator]
    assert train_main(["--set", "settled=150000:150006", "--set", "cocked=151000:151006",
                       "--epochs", "1", "--out", str(out)]) == 0
    from companion.vision.dice.facenet import FaceNet

    assert FaceNet.load(out).classes == 2


@pytest.mark.parametrize(("from_centre", "probability", "cocked"), [
    (0.5, 0.9995, False),   # a flat die's edge at the innermost circle (fresh game 318's frames)
    (0.5, 0.9999, True),
    (0.575, 0.9995, True),  # further out the usual bar holds
    (0.575, 0.997, False),
])
def test_a_die_found_leaning_at_the_innermost_circle_needs_a_surer_window(
        monkeypatch: pytest.MonkeyPatch, from_centre: float, probability: float, cocked: bool) -> None:
    import companion.vision.dice.dome as dome
    from companion.vision.dice import DieReading
    from companion.vision.dice.leaning import Leaning

    monkeypatch.setattr(dome, "find_leaning", lambda *_: Leaning(probability, 0.0, 0.0, from_centre))
    hidden = DieReading.unreadable("hidden")
    got = dome.leaning_or(hidden, np.zeros((160, 160), np.float32), DEFAULT_DIE_FRACTION)
    assert (got.state == "cocked") is cocked
    assert got == hidden or cocked
