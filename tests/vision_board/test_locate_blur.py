"""The pose in motion-blurred frames, and when the markers' focal estimate goes astray.

Motion blur made the markers look about 5% larger to the corner search
OpenCV calls CORNER_REFINE_SUBPIX, which put the focal length and every
hole 5-20 px out; the reader then abstained on (or misread) most of the
board. The locator now takes the corners from the markers' contours, and
retries from typical fields of view when the board's holes do not show
where a pose puts them. Seeds here (9700-9799) are disjoint from the
benchmark's (900,000+).
"""

from __future__ import annotations

import numpy as np
import pytest

import companion.vision.locate as locate
from companion.layout import HOLE_NAMES, load_layout
from companion.sim import DieView, Scene, render
from companion.vision.geometry import BoardGeometry
from companion.vision.locate import CameraPose, hole_fit
from companion.vision.reader import BoardReader

LAYOUT = load_layout()
PEGS = {"red": ["home", "home", "track:3", "finish:2"], "blue": ["home", "track:9", "track:10", "home"]}


def _hole_errors(frame: np.ndarray, truth: object) -> np.ndarray:
    reader = BoardReader(LAYOUT, read_die=False)
    reading = reader.read(frame)
    assert reading.found and reading.pose is not None
    plan = reader.plan_for(reading.pose, frame.shape[:2])
    want = np.array([truth.holes_px[h] for h in HOLE_NAMES])  # type: ignore[attr-defined]
    return np.asarray(np.linalg.norm(want - plan.centre["base"], axis=1))


@pytest.mark.slow
def test_holes_land_within_a_pixel_in_motion_blurred_frames() -> None:
    # 9 px of blur in random directions, random cameras. Before the contour
    # corners these 20 frames put the holes 0.6 px off on average (median
    # per frame), the worst 3.1 px; now 0.3 px and 0.9 px.
    medians = []
    for seed in range(9730, 9750):
        scene = Scene.random(seed, LAYOUT, size=(1280, 720), hand=None, motion_blur_px=9.0)
        frame, truth = render(PEGS, DieView(2), scene, seed=seed)
        reader = BoardReader(LAYOUT, read_die=False)
        if not reader.read(frame).found:
            continue  # too blurred to decode three markers (seed 9741): reported, not guessed
        err = _hole_errors(frame, truth)
        assert float(err.max()) <= 1.5, f"seed {seed}: a hole is {err.max():.1f} px off"
        medians.append(float(np.median(err)))
    assert len(medians) >= 18
    assert float(np.mean(medians)) <= 0.45


def test_a_focal_length_gone_astray_is_put_right_by_the_holes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three markers under a strong barrel lens: their homography can say a
    # focal length far from the truth (1.5 times it, in a rendered frame);
    # here it is forced to 0.6 times the estimate. The holes then lie 50-70 px
    # from where the pose puts them, too far for the refit on the holes, and
    # only the retry from typical fields of view finds the board again.
    import cv2

    real = locate.estimate_focal
    monkeypatch.setattr(locate, "estimate_focal", lambda hom, size: (0.6 * real(hom, size)[0], True))
    for seed in (9710, 9711, 9712):
        scene = Scene.random(seed, LAYOUT, size=(1280, 720), tilt_deg=35.0, distortion=-0.22,
                             hand=None, motion_blur_px=0.0)
        frame, truth = render(PEGS, DieView(2), scene, seed=seed)
        corners = truth.markers_px[0]
        centre = corners.mean(axis=0)
        cv2.fillConvexPoly(frame, (centre + (corners - centre) * 1.25).astype(np.int32), (90, 120, 160))
        err = _hole_errors(frame, truth)
        assert float(err.max()) <= 1.5, f"seed {seed}: a hole is {err.max():.1f} px off"


def test_hole_fit_tells_a_right_pose_from_one_a_few_pixels_out(geometry: BoardGeometry) -> None:
    import cv2

    opening = {c: ["home"] * 4 for c in ("red", "blue", "yellow", "green")}
    scene = Scene.random(9720, LAYOUT, size=(1280, 720), tilt_deg=25.0, hand=None, motion_blur_px=0.0)
    frame, truth = render(opening, DieView(2), scene, seed=9720)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    cam = truth.camera
    right = CameraPose(cam.K, np.asarray(cam.rvec, float), np.asarray(cam.tvec, float),
                       np.asarray(cam.dist, float) if cam.dist is not None else np.zeros(5))
    # 44 of the 60 holes are empty in the opening position.
    assert hole_fit(gray, right, geometry) >= 0.5
    moved = CameraPose(right.K, right.rvec, right.tvec + np.array([6.0, 0.0, 0.0]), right.dist)
    assert hole_fit(gray, moved, geometry) < 0.2
