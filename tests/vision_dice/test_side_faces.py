"""A side face read for the top: the face beyond it, away from the camera.

A camera well off the vertical sees a side face of the die next to its top
face. Rectified onto the top face's plane at about 45 degrees, that side
face is as square as the top face, and in two fresh whole rendered games
at 640x480 the classifier read its pips at 0.999 (a 2 and a 1 read as 3;
the top face beside it faint, or washed out by glare) and the moves were
called. With the camera's direction known, such a read is a weak one.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.layout import load_layout
from companion.vision.dice.dome import BEYOND_CONFIDENCE, read_die_in_dome
from companion.vision.geometry import BoardGeometry
from companion.vision.locate import CameraPose
from companion.vision.reader import die_away

DATA = Path(__file__).with_name("data")


@pytest.mark.parametrize(("name", "away", "seen_px"), [
    ("game280-640x480-t40.8-a-two-side-three.png", (0.9934, -0.1143), 10.9),  # the 2 beside it, faint
    ("game274-640x480-t209.3-a-one-side-three.png", (-0.9891, 0.1470), 11.1),  # the 1 beside it, white with glare
])
def test_a_face_read_with_the_top_face_beyond_it_is_a_weak_read(name: str, away: tuple[float, float],
                                                                seen_px: float) -> None:
    crop = np.asarray(cv2.imread(str(DATA / name)), np.uint8)
    assert crop.ndim == 3
    blind = read_die_in_dome(crop, seen_px=seen_px)
    assert blind.value == 3 and blind.confidence >= 0.99  # the side face's three pips, surely
    reading = read_die_in_dome(crop, seen_px=seen_px, away=away)
    assert reading.value == 3 and reading.confidence == BEYOND_CONFIDENCE
    # Seen from the other side, the dome's floor lies beyond the same face: read as before.
    assert read_die_in_dome(crop, seen_px=seen_px, away=(-away[0], -away[1])) == blind


def _camera_at(x: float, y: float, height: float) -> CameraPose:
    """A pinhole camera at board point (x, y), *height* mm above the board,
    its axes the board's (looking straight down: where it looks does not
    matter, only where it stands)."""
    centre = np.array([x, y, -height])
    return CameraPose(K=np.array([[500.0, 0, 320], [0, 500, 240], [0, 0, 1]]), rvec=np.zeros(3),
                      tvec=-centre)


def test_the_direction_away_from_the_camera_is_from_its_foot_to_the_die() -> None:
    geometry = BoardGeometry.from_layout(load_layout())
    dx, dy = geometry.die_center_mm
    assert die_away(geometry, _camera_at(dx, dy, 500.0)) is None  # straight above: no side face to mistake
    assert die_away(geometry, _camera_at(dx + 50.0, dy, 500.0)) is None  # 6 degrees off
    away = die_away(geometry, _camera_at(dx, dy + 500.0, 500.0))  # 45 degrees, from the bottom edge
    assert away is not None and away == pytest.approx((0.0, -1.0))
