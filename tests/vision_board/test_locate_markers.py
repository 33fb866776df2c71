"""Board location from the four markers: accuracy, tracking, failure and --corners."""

from __future__ import annotations

import numpy as np
import pytest
from board_frames import draw_markers, make_camera

from companion.vision.geometry import BoardGeometry
from companion.vision.locate import BoardLocator, BoardPose, LocateFailure, parse_corners


def _gray(img: np.ndarray) -> np.ndarray:
    return img[:, :, 0].copy()


def _holes3(geometry: BoardGeometry, z: float = 0.0) -> np.ndarray:
    return np.column_stack([geometry.holes_mm, np.full(len(geometry.holes_mm), z)])


@pytest.mark.parametrize(("tilt", "azimuth"), [(0, 0), (8, 120), (25, 200), (44, 300)])
def test_holes_and_peg_tops_project_within_two_pixels(
    geometry: BoardGeometry, tilt: float, azimuth: float
) -> None:
    camera = make_camera(tilt, azimuth)
    pose = BoardLocator(geometry).locate(_gray(draw_markers(geometry, camera)))
    assert isinstance(pose, BoardPose)
    assert pose.markers_seen == (0, 1, 2, 3)
    for z in (0.0, -geometry.peg_height_mm):
        truth = camera.project(_holes3(geometry, z))
        got = pose.camera.project(_holes3(geometry, z))
        assert np.abs(truth - got).max() < 2.0
    assert abs(pose.camera.tilt_deg - tilt) < 3.0


def test_a_still_camera_keeps_the_same_pose_bit_for_bit(geometry: BoardGeometry) -> None:
    frame = _gray(draw_markers(geometry, make_camera(20, 45)))
    locator = BoardLocator(geometry)
    first = locator.locate(frame)
    second = locator.locate(frame)
    assert isinstance(first, BoardPose) and isinstance(second, BoardPose)
    assert second.source == "tracked"
    assert np.array_equal(first.homography, second.homography)


def test_a_nudged_camera_is_found_again_without_help(geometry: BoardGeometry) -> None:
    locator = BoardLocator(geometry)
    assert isinstance(locator.locate(_gray(draw_markers(geometry, make_camera(15, 0)))), BoardPose)
    nudged = make_camera(18, 10, shift_mm=(25, -15))
    pose = locator.locate(_gray(draw_markers(geometry, nudged)))
    assert isinstance(pose, BoardPose) and pose.source == "markers"
    truth = nudged.project(_holes3(geometry))
    assert np.abs(truth - pose.camera.project(_holes3(geometry))).max() < 2.0


def test_one_hidden_marker_is_fine_two_are_reported(geometry: BoardGeometry) -> None:
    camera = make_camera(20, 90)
    three = BoardLocator(geometry).locate(_gray(draw_markers(geometry, camera, skip=(2,))))
    assert isinstance(three, BoardPose) and three.markers_seen == (0, 1, 3)
    two = BoardLocator(geometry).locate(_gray(draw_markers(geometry, camera, skip=(1, 2))))
    assert isinstance(two, LocateFailure)
    assert "only 2 of 4" in two.reason
    none = BoardLocator(geometry).locate(np.full((720, 1280), 128, np.uint8))
    assert isinstance(none, LocateFailure) and "no board markers" in none.reason


def test_two_markers_suffice_while_the_camera_stays_still(geometry: BoardGeometry) -> None:
    camera = make_camera(20, 90)
    locator = BoardLocator(geometry)
    full = locator.locate(_gray(draw_markers(geometry, camera)))
    covered = locator.locate(_gray(draw_markers(geometry, camera, skip=(1, 2))))
    assert isinstance(full, BoardPose) and isinstance(covered, BoardPose)
    assert covered.source == "tracked"


def test_manual_corners_give_the_board_plane(geometry: BoardGeometry) -> None:
    camera = make_camera(30, 30)
    corners = camera.project(np.column_stack([geometry.board_corners_mm, np.zeros(4)]))
    text = ",".join(f"{v:.2f}" for v in corners.reshape(-1))
    locator = BoardLocator(geometry, corners_px=parse_corners(text))
    pose = locator.locate(np.zeros((720, 1280), np.uint8))
    assert isinstance(pose, BoardPose) and pose.source == "corners"
    assert np.abs(camera.project(_holes3(geometry)) - pose.to_image(geometry.holes_mm)).max() < 0.5


@pytest.mark.parametrize(
    ("text", "problem"),
    [("1,2,3", "needs 8 numbers"), ("1,2,3,4,5,6,7,x", "not a number"),
     ("0,0,0,100,100,100,100,0", "clockwise"), ("nan,0,inf,0,100,100,0,100", "not finite")],
)
def test_bad_corners_are_named(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_corners(text)
