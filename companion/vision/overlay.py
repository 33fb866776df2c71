"""Draw what the reader read onto the frame, to check it by eye.

Each hole gets a circle at its base in the colour read (grey: empty, magenta:
unknown) and a dot where a peg's top would be; the dome is outlined. Used by
``companion read --overlay DIR`` and when debugging the benchmark.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.geometry import BoardGeometry
from companion.vision.readings import FrameReading

_BGR = {
    "red": (0, 0, 255), "blue": (255, 80, 0), "yellow": (0, 230, 255), "green": (0, 200, 0),
    "empty": (170, 170, 170), "unknown": (255, 0, 255),
}


def draw_overlay(frame_bgr: np.ndarray, reading: FrameReading, geometry: BoardGeometry) -> np.ndarray:
    """A copy of *frame_bgr* with the reading drawn on it."""
    out = frame_bgr.copy()
    if not reading.found or reading.pose is None:
        cv2.putText(out, f"board not found: {reading.reason}", (10, 30), cv2.FONT_HERSHEY_SIMPLEX,
                    0.7, (0, 0, 255), 2, cv2.LINE_AA)
        return out
    cam = reading.pose.camera
    n = len(geometry.holes_mm)
    base = cam.project(np.column_stack([geometry.holes_mm, np.zeros(n)]))
    top = cam.project(np.column_stack([geometry.holes_mm, np.full(n, -geometry.peg_height_mm)]))
    edge = cam.project(np.column_stack([geometry.holes_mm + [geometry.hole_radius_mm, 0],
                                        np.zeros(n)]))
    radius = np.maximum(2, np.linalg.norm(edge - base, axis=1)).astype(int)
    for i, hole in enumerate(reading.holes):
        colour = _BGR[hole.state]
        b = tuple(int(v) for v in np.rint(base[i]))
        t = tuple(int(v) for v in np.rint(top[i]))
        cv2.circle(out, b, int(radius[i]) + 2, colour, 1, cv2.LINE_AA)
        if hole.state not in ("empty",):
            cv2.line(out, b, t, colour, 1, cv2.LINE_AA)
            cv2.circle(out, t, 2, colour, -1, cv2.LINE_AA)
    cx, cy = geometry.die_center_mm
    ring = np.array([[cx + geometry.dome_radius_mm * np.cos(a), cy + geometry.dome_radius_mm * np.sin(a), 0.0]
                     for a in np.linspace(0, 2 * np.pi, 48)])
    cv2.polylines(out, [np.rint(cam.project(ring)).astype(np.int32)], True, (255, 255, 255), 1,
                  cv2.LINE_AA)
    die = reading.die
    label = "die: ?" if die is None else f"die: {die.state} {die.value or ''}"
    cv2.putText(out, label, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2, cv2.LINE_AA)
    return out
