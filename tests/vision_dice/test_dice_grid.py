"""The sampled pip places (grid.py): a drawn face at a known place reads its layout."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.dice.grid import cell_darkness, face_patch, read_grid
from companion.vision.dice.matching import FacePlace, blank_face, pip_face, turned

SIZE = 26


def _scene(value: int | None, angle: float) -> np.ndarray:
    """A grey floor with one face *SIZE* px wide at (60, 60), turned by *angle* degrees."""
    face = pip_face(value, SIZE) if value else blank_face(SIZE)
    t = turned(face, angle)
    img = np.full((120, 120), 0.45, np.float32)
    h = t.shape[0] // 2
    img[60 - h : 60 - h + t.shape[0], 60 - h : 60 - h + t.shape[1]] = t
    blurred = np.asarray(cv2.GaussianBlur(img, (0, 0), 0.7), np.float32)
    return np.asarray(blurred * 200.0, np.float32)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("angle", [0.0, 17.0, 63.0])
def test_a_drawn_face_reads_its_value_clearly(value: int, angle: float) -> None:
    image = _scene(value, angle)
    grid = read_grid(*cell_darkness(face_patch(image, FacePlace(60, 60, angle, 1.0), SIZE)))
    assert grid.value == value
    assert grid.gap > 0.3 > grid.runner_up


def test_a_blank_face_shows_no_layout() -> None:
    image = _scene(None, 20.0)
    grid = read_grid(*cell_darkness(face_patch(image, FacePlace(60, 60, 20.0, 1.0), SIZE)))
    assert grid.gap < 0.1


def test_a_misplaced_face_shows_no_clear_layout() -> None:
    """Half a face off, the floor and the face's edge fall in the patch: no clear split."""
    image = _scene(4, 0.0)
    grid = read_grid(
        *cell_darkness(face_patch(image, FacePlace(60 + SIZE / 2, 60, 0.0, 1.0), SIZE))
    )
    assert grid.gap < 0.15
