"""The camera model: projection conventions, distortion inverse, random cameras."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from companion.layout import load_layout
from companion.sim import Camera, Scene
from companion.sim.camera import strongest_barrel


def test_projection_agrees_with_opencv_and_z_points_up() -> None:
    cam = Camera.look_at((150.0, 400.0, 500.0), (133.5, 133.5, 0.0), (1280, 720), 60, roll_deg=4, dist=(-0.1, 0.01, 0.001, -0.001, 0.0))
    pts = np.array([[0, 0, 0], [267, 0, 0], [100, 200, 17], [133.5, 133.5, 40]], np.float64)
    ours = cam.project(pts)
    flipped = pts * [1, 1, -1]
    cv, _ = cv2.projectPoints(flipped, np.asarray(cam.rvec), np.asarray(cam.tvec), cam.K, np.asarray(cam.dist))
    assert np.allclose(ours, cv.reshape(-1, 2), atol=1e-6)
    # A peg's top (z up) is nearer the camera than its base.
    assert cam.depth(pts[3:4])[0] < cam.depth(np.array([[133.5, 133.5, 0.0]]))[0]
    assert cam.position[2] == pytest.approx(500.0)


def test_straight_down_camera_keeps_the_board_upright() -> None:
    cam = Camera.look_at((133.5, 133.5, 600.0), (133.5, 133.5, 0.0), (1280, 720), 60)
    tl, br = cam.project(np.array([[0.0, 0.0, 0.0], [267.0, 267.0, 0.0]]))
    assert tl[0] < br[0] and tl[1] < br[1]  # x right, y down, not mirrored


def test_homography_and_distortion_inverse() -> None:
    cam = Camera.look_at((100.0, 380.0, 450.0), (133.5, 133.5, 0.0), (960, 540), 65, dist=(-0.18, 0.0, 0.0, 0.0, 0.0))
    pts = np.array([[10.0, 20.0], [250.0, 30.0], [140.0, 260.0]])
    h = cam.homography(0.0)
    via_h = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), h).reshape(-1, 2)
    assert np.allclose(via_h, cam.project_ideal(np.column_stack([pts, np.zeros(3)])), atol=1e-3)
    ideal = np.array([[5.0, 5.0], [480.0, 270.0], [950.0, 530.0]])
    assert np.allclose(cam.undistort_pixels(cam.distort_pixels(ideal)), ideal, atol=1e-5)


def test_random_cameras_see_board_and_markers_within_limits() -> None:
    layout = load_layout()
    for seed in range(12):
        scene = Scene.random(seed, layout)
        cam = scene.camera
        assert (640, 480) <= cam.size <= (1920, 1080)
        assert cam.dist[0] >= strongest_barrel(cam.size, np.degrees(2 * np.arctan(cam.width / 2 / cam.fx))) - 1e-9
        corners = np.array([[x, y, layout.marker_z_mm] for m in layout.markers for x, y in m.corners])
        uv = cam.project(corners)
        assert np.all(uv >= 0) and np.all(uv[:, 0] < cam.width) and np.all(uv[:, 1] < cam.height)
        # Tilt from straight down stays within about 45 degrees.
        down = (np.array([133.5, 133.5, 0.0]) - cam.position) / np.linalg.norm(np.array([133.5, 133.5, 0.0]) - cam.position)
        assert np.degrees(np.arccos(-down[2])) < 50


def test_a_lens_that_folds_over_is_refused() -> None:
    cam = Camera.look_at((133.5, 133.5, 500.0), (133.5, 133.5, 0.0), (640, 480), 80, dist=(-0.6, 0.0, 0.0, 0.0, 0.0))
    with pytest.raises(UserError, match="too strong"):
        cam.canvas()
