"""A die leaning on the dome's wall (``cocked``), found by a small classifier.

Why: a cocked die is the one case where the players must tap the
Pop-O-Matic rather than pop again, so the referee must say so; and a flat
die never rests against the wall (in the Pop-O-Matic it lies within about
0.35 dome radii of the centre). The template finder used to decide this by
where it matched a face, which found one leaning die in five and cost about
55 ms a read. This looks for the leaning die itself.

How: windows all round the dome's outer ring (``RING`` dome radii, every
``ANGLE_STEP_DEG``), each cut like a canonical face patch (``canonical.py``:
24 px, minus its mean over its spread) but spanning two die sides and
*turned to the dome's radius*, so a die leaning on the wall looks the same
in its window wherever round the dome it leans. A numpy MLP of the same
kind as the face classifier (``facenet.py``; 576-64-32-2, weights in
``leaning_die.npz``) gives each window the probability that a leaning die
is centred there; the dome's most probable window is the answer. All the
windows are cut by one ``cv2.remap`` with maps made once per crop size.

The training command is ``python -m companion.vision.dice.train_leaning``
(docs/vision-dice.md, "Cocked: a leaning-die classifier").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import CANON_PX, CANON_SPAN, FloatImage, features
from companion.vision.dice.facenet import FaceNet

#: The trained leaning-die classifier shipped with the package.
LEANING_NET_PATH = Path(__file__).with_name("leaning_die.npz")
#: The searched ring, in dome radii from the centre (a leaning die's body is
#: seen at 0.5-0.8; inside 0.5 a flat die's edge would be in the window).
RING = (0.50, 0.575, 0.65, 0.725, 0.80, 0.875, 0.95)
ANGLE_STEP_DEG = 7.5
#: A window's side in die sides is ``CANON_SPAN * WINDOW_DIES`` (two die sides:
#: the leaning die and the wall behind it).
WINDOW_DIES = 1.6


@dataclass(frozen=True)
class Leaning:
    """The dome's most probable leaning-die window."""

    probability: float
    x: float  # the window's centre in the crop (px)
    y: float
    from_centre: float  # dome radii


@lru_cache(maxsize=8)
def ring_places(side: int, span_radii: float) -> NDArray[np.float64]:
    """(N, 3) window centres (x, y in crop px) and angles (degrees) round the
    ring; made once per crop size (read-only)."""
    radius = side / span_radii
    c = (side - 1) / 2.0
    rows = [
        (c + r * radius * math.cos(math.radians(a)), c + r * radius * math.sin(math.radians(a)), a)
        for r in RING
        for a in np.arange(0.0, 360.0, ANGLE_STEP_DEG)
    ]
    places = np.array(rows, np.float64)
    places.setflags(write=False)
    return places


@lru_cache(maxsize=8)
def _maps(side: int, fraction: float, span_radii: float) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Remap maps cutting every ring window at once, stacked (N * CANON_PX, CANON_PX).

    Window k's pixel (u, v) samples the crop where ``canonical.upright_warp``
    would: the window's centre maps to its place and its axes are turned by
    its angle.
    """
    places = ring_places(side, span_radii)
    step = fraction * side * WINDOW_DIES * CANON_SPAN / CANON_PX  # crop px per window px
    c = (CANON_PX - 1) / 2.0
    u = np.arange(CANON_PX, dtype=np.float64) - c
    uu, vv = np.meshgrid(u, u)  # uu varies along a row, vv down the column
    xs, ys = [], []
    for x, y, angle in places:
        a = math.radians(angle)
        cos, sin = math.cos(a), math.sin(a)
        xs.append(x + step * (cos * uu - sin * vv))
        ys.append(y + step * (sin * uu + cos * vv))
    return np.vstack(xs).astype(np.float32), np.vstack(ys).astype(np.float32)


def ring_windows(gray: FloatImage, fraction: float, span_radii: float) -> FloatImage:
    """Every ring window of the square dome crop *gray*: (N, CANON_PX, CANON_PX)."""
    side = int(min(gray.shape[:2]))
    mx, my = _maps(side, round(fraction, 6), span_radii)
    out = cv2.remap(gray, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, np.float32).reshape(-1, CANON_PX, CANON_PX)


def find_leaning(gray: FloatImage, fraction: float, span_radii: float,
                 net: FaceNet | None = None) -> Leaning:
    """The most probable leaning die round the wall of the dome crop *gray* (float, square)."""
    scorer = net or leaning_net()
    probs = scorer.probabilities(features(ring_windows(gray, fraction, span_radii)))[:, 1]
    i = int(np.argmax(probs))
    side = int(min(gray.shape[:2]))
    x, y, _ = ring_places(side, span_radii)[i]
    c = (side - 1) / 2.0
    return Leaning(float(probs[i]), float(x), float(y), math.hypot(x - c, y - c) * span_radii / side)


@lru_cache(maxsize=1)
def leaning_net() -> FaceNet:
    """The shipped leaning-die classifier, loaded once, on first use."""
    net = FaceNet.load(LEANING_NET_PATH)
    if net.classes != 2:
        raise ValueError(f"{LEANING_NET_PATH} gives {net.classes} classes, not 2 (no leaning die, leaning die)")
    return net
