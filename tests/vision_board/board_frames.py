"""Frames for the board-vision tests: marker-only views through a known camera.

The marker frames are drawn here with OpenCV alone (a known pinhole camera
looking at the four printed markers on the table), so the locator is tested
against an exact truth independent of the renderer.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from companion.vision.dice.reading import DieReading
from companion.vision.geometry import BoardGeometry
from companion.vision.locate import CameraPose


def make_camera(
    tilt_deg: float, azimuth_deg: float = 0.0, distance_mm: float = 900.0,
    f: float = 1000.0, size: tuple[int, int] = (1280, 720), shift_mm: tuple[float, float] = (0, 0),
) -> CameraPose:
    """A pinhole camera looking at the board's centre from *tilt_deg* off vertical."""
    w, h = size
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    centre = np.array([133.5 + shift_mm[0], 133.5 + shift_mm[1], 0.0])
    t, a = math.radians(tilt_deg), math.radians(azimuth_deg)
    # Board z points into the table, so the camera sits at negative z.
    pos = centre + distance_mm * np.array([math.sin(t) * math.sin(a), math.sin(t) * math.cos(a),
                                           -math.cos(t)])
    fwd = (centre - pos) / np.linalg.norm(centre - pos)
    right = np.cross(fwd, np.array([0.0, -1.0, 0.0]))
    if np.linalg.norm(right) < 1e-6:
        right = np.array([1.0, 0.0, 0.0])
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    rot = np.vstack([right, down, fwd])
    rvec, _ = cv2.Rodrigues(rot)
    return CameraPose(K=K, rvec=rvec.reshape(3), tvec=-rot @ pos)


def draw_markers(
    geometry: BoardGeometry, camera: CameraPose, size: tuple[int, int] = (1280, 720),
    skip: tuple[int, ...] = (),
) -> np.ndarray:
    """A grey BGR frame showing the layout's markers (on white paper) through *camera*."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    img = np.full((size[1], size[0]), 140, np.uint8)
    z = -geometry.marker_height_mm  # markers lie on the table, below the board
    for marker_id, corners in geometry.markers_mm.items():
        if marker_id in skip:
            continue
        tile = cv2.aruco.generateImageMarker(dictionary, marker_id, 120)
        tile = cv2.copyMakeBorder(tile, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
        src = np.array([[20, 20], [140, 20], [140, 140], [20, 140]], np.float32)
        dst = camera.project(np.column_stack([corners, np.full(4, z)])).astype(np.float32)
        hom = cv2.getPerspectiveTransform(src, dst)
        mask = cv2.warpPerspective(np.full_like(tile, 255), hom, size)
        warped = cv2.warpPerspective(tile, hom, size)
        img[mask > 0] = warped[mask > 0]
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)


def drawn_die_reading(truth: Any) -> DieReading:
    """What a perfect die reader would say of a rendered frame (a stand-in).

    The stream tests check the time layer, not the die reader (which has its
    own benchmark), so they read the die the renderer says it drew.
    """
    state = truth.die_state
    if state in ("hidden", "cocked"):
        return DieReading.unreadable("cocked" if state == "cocked" else "hidden")
    return DieReading("settled", truth.die_value, 0.9)


def stream_rendered_clip(
    layout: Any, scene: Any, actions: list[Any], seed: int,
    die: Callable[[DieReading], DieReading] = lambda drawn: drawn,
) -> tuple[list[Any], list[int]]:
    """Render *actions* (die 2, slightly turned and off-centre, 10 fps) through
    the real board reader and time layer; the die reader is the stand-in
    :func:`drawn_die_reading`, passed through *die* (e.g. to fail some reads).
    Returns the stream's events and the pops the script made."""
    from companion.sim import DieView
    from companion.sim.simulate import simulate_script
    from companion.vision.reader import BoardReader
    from companion.vision.stream import VisionStream

    drawn: list[DieReading] = []
    stream = VisionStream(BoardReader(layout, die_reader=lambda crop: die(drawn[-1])))
    events: list[Any] = []
    owed: list[int] = []
    for image, truth in simulate_script(actions, scene, seed=seed, fps=10,
                                        die=DieView(2, yaw_deg=10.0, offset_mm=(3.0, 2.0))):
        assert image is not None
        drawn.append(drawn_die_reading(truth))
        events += stream.push(image, truth.time)
        owed += [line["pop"] for line in truth.inputs if "pop" in line]
    return events, owed
