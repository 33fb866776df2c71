"""The dome reader and learned faces on rendered frames (seeded, tidy to middling scenes)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.bench.vision import learned_digit_faces, render_dome_sample
from companion.vision.dice import DieReading, FaceTemplates, read_die_in_dome

pytestmark = pytest.mark.slow

#: Scenes a family kitchen gives on a good evening: some tilt, some glare, no hand.
TIDY = {"hand": None, "motion_blur_px": 0.0, "glare": 0.3, "jpeg_quality": 95, "noise": 2.0,
        "defocus_px": 0.6}


def _tidy(seed: int, value: int, edition: str, tilt: float) -> np.ndarray:
    return render_dome_sample(seed, state="settled", edition=edition, value=value,
                              tilt_deg=tilt, **TIDY).crop


def test_settled_pip_dice_read_right_or_not_at_all() -> None:
    readings = [(v, read_die_in_dome(_tidy(7000 + i, v, "pips", 5.0 + 2.0 * i)))
                for i, v in enumerate([1, 2, 3, 4, 5, 6] * 2)]
    wrong = [(v, r.value) for v, r in readings if r.value is not None and r.value != v]
    right = sum(r.value == v for v, r in readings)
    assert wrong == []
    assert right >= 6, readings  # 9 of 12 when written
    for _, r in readings:
        assert r.state in ("settled", "hidden") and 0.0 <= r.confidence <= 1.0


def test_a_leaning_die_is_never_given_a_value() -> None:
    readings = [
        read_die_in_dome(render_dome_sample(7400 + i, state="cocked", edition="pips",
                                            value=i % 6 + 1, tilt_deg=5.0 + 3.0 * i, **TIDY).crop)
        for i in range(8)
    ]
    assert all(r.value is None for r in readings)
    assert sum(r.state == "cocked" for r in readings) >= 2  # 4 of 8 when written


def test_a_dome_without_a_die_is_hidden() -> None:
    crop = _tidy(7050, 5, "pips", 10.0)
    # Paint the whole inside of the dome a flat hand colour: nothing to read.
    h, w = crop.shape[:2]
    yy, xx = np.mgrid[:h, :w]
    covered = crop.copy()
    covered[np.hypot(xx - w / 2, yy - h / 2) < w / 2.4] = (120, 160, 215)
    assert read_die_in_dome(covered) == DieReading("hidden", None, read_die_in_dome(covered).confidence)
    assert read_die_in_dome(covered).value is None


@pytest.fixture(scope="module")
def digits() -> FaceTemplates:
    return learned_digit_faces()


def test_learned_digit_faces_read_digit_dice_without_wrong_calls(digits: FaceTemplates) -> None:
    readings = [(v, digits.read(_tidy(7100 + i, v, "digits", 5.0 + 2.0 * i)))
                for i, v in enumerate([1, 2, 3, 4, 5, 6] * 2)]
    # (12 frames: fewer would not show that every digit can be read.)
    wrong = [(v, r.value) for v, r in readings if r.value is not None and r.value != v]
    assert wrong == []
    assert sum(r.value == v for v, r in readings) >= 4, readings  # 7 of 12 when written


def test_learned_faces_survive_json(digits: FaceTemplates) -> None:
    again = FaceTemplates.from_json(json.loads(json.dumps(digits.to_json())))
    assert set(again.patches) == set(range(1, 7))
    crop = _tidy(7101, 2, "digits", 7.0)
    assert again.read(crop) == digits.read(crop)


def test_learned_pip_faces_are_a_second_opinion() -> None:
    faces = FaceTemplates.learn({v: _tidy(7200 + v, v, "pips", 0.0) for v in range(1, 7)})
    crop = _tidy(7300, 6, "pips", 12.0)
    assert faces.read(crop).value in (6, None)
    assert read_die_in_dome(crop).value == 6


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"kind": "pegs"}, "kind"),
        ({"kind": "die-faces", "version": 9, "size": 32, "faces": {}}, "version"),
        ({"kind": "die-faces", "version": 1, "size": 32, "faces": {"x": []}}, "key"),
        ({"kind": "die-faces", "version": 1, "size": 32, "faces": {"1": [[0] * 3]}}, "32x32"),
        ({"kind": "die-faces", "version": 1, "size": 32, "faces": {"7": [[0] * 32] * 32}}, "1..6"),
        ({"kind": "die-faces", "version": 1, "size": 32, "faces": {"1": [[300] * 32] * 32}}, "0..255"),
        ({"kind": "die-faces", "version": 1, "size": 32, "faces": {}}, "no faces"),
        ({"kind": "die-faces", "version": 1, "size": 32, "faces": {"1": [[0] * 32] * 32}}, "face 2 is missing"),
    ],
)
def test_bad_learned_faces_are_refused_naming_the_problem(data: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        FaceTemplates.from_json(data)
