"""Dice drawn with OpenCV for the die-reader tests: exact truth, no data needed.

A top face (ivory square, dark rim, black pips at the standard places) at
any angle on a plain or textured background, optionally with a side face
seen at a slant (its pips squashed) and with a glare spot over one pip place.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.patterns import PIP_CELLS

PIPS = PIP_CELLS


def draw_die(
    value: int,
    angle_deg: float,
    size: int = 60,
    canvas: int = 160,
    background: tuple[int, int, int] = (150, 170, 185),
    side_value: int | None = None,
    glare_cell: tuple[int, int] | None = None,
    seed: int = 0,
) -> NDArray[np.uint8]:
    """A BGR photo of one die seen from above, its top face showing *value*."""
    rng = np.random.default_rng(seed)
    img = np.empty((canvas, canvas, 3), np.float32)
    img[:] = background
    img += rng.normal(0, 6, img.shape)  # a little texture
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    centre = np.array([canvas / 2.0, canvas / 2.0])

    def to_image(u: float, v: float) -> NDArray[np.float64]:
        return centre + size * np.array([c * u - s * v, s * u + c * v])

    if side_value is not None:
        # A side face below the top face, seen at a slant: 0.45 of its height.
        quad = np.array([to_image(-0.5, 0.5), to_image(0.5, 0.5), to_image(0.5, 0.95), to_image(-0.5, 0.95)])
        cv2.fillConvexPoly(img, np.round(quad).astype(np.int32), (170, 180, 185), cv2.LINE_AA)
        for i, j in PIPS[side_value]:
            p = to_image(0.27 * i, 0.725 + 0.12 * j)
            axes = (max(1, int(0.08 * size)), max(1, int(0.035 * size)))
            cv2.ellipse(img, (int(p[0]), int(p[1])), axes, angle_deg, 0, 360, (40, 40, 40), -1, cv2.LINE_AA)
    quad = np.array([to_image(-0.5, -0.5), to_image(0.5, -0.5), to_image(0.5, 0.5), to_image(-0.5, 0.5)])
    cv2.fillConvexPoly(img, np.round(quad).astype(np.int32), (200, 210, 212), cv2.LINE_AA)
    inner = np.array([to_image(-0.45, -0.45), to_image(0.45, -0.45), to_image(0.45, 0.45), to_image(-0.45, 0.45)])
    cv2.fillConvexPoly(img, np.round(inner).astype(np.int32), (232, 240, 242), cv2.LINE_AA)
    for i, j in PIPS[value]:
        p = to_image(0.27 * i, 0.27 * j)
        cv2.circle(img, (int(round(p[0])), int(round(p[1]))), int(round(0.085 * size)), (30, 30, 35), -1, cv2.LINE_AA)
    if glare_cell is not None:
        p = to_image(0.27 * glare_cell[0], 0.27 * glare_cell[1])
        cv2.circle(img, (int(round(p[0])), int(round(p[1]))), int(round(0.12 * size)), (250, 252, 252), -1, cv2.LINE_AA)
    blurred = cv2.GaussianBlur(img, (0, 0), 0.8)
    return np.clip(blurred, 0, 255).astype(np.uint8)
