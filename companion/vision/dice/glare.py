"""Is a pip of the classifier's face lost in glare? (a check before announcing it)

The classifier (``facenet.py``) sometimes reads a face whose pips are partly
washed out by the dome's glare, and then it may fill a lost pip in from the
layout it expects, or take a face that lost a pip for another layout (a 3
whose corner vanished in a white blob read as a 2). Looked at on development
frames, the wrong values it announced with probability >= 0.99 had a pip
place of the value they read **saturated**: the camera saw pure white where
the announced layout needs a dark pip. A face seen that way cannot be read
safely, whatever the classifier says; it is called hidden, and the time
layer waits for a frame without the glare there.

The measure is taken on the grey crop itself (not the classifier's
normalised patch, where a saturated blob looks like any bright face): the
face is cut upright at the classifier's place and turn (``upright_warp``,
the same geometry as a canonical patch), each of the nine grid places is
averaged over a pip-sized disc, the read value's layout is put at the
quarter turn whose pips are darkest, and its palest pip is compared with
``SATURATED``.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import CANON_PX, CANON_SPAN, FloatImage, upright_warp
from companion.vision.dice.matching import PIP_RADIUS, PIP_SPACING
from companion.vision.dice.patterns import CELLS, LAYOUTS

#: A pip place whose mean grey is at least this (of 255) is glare, not a pip.
#: Chosen on development frames (see docs/vision-dice.md, "Small dice under
#: glare"): 250 removed the one wrong value of 852 settled pip dice in view
#: on 700000-701199 and cost 12 right reads (771 -> 759); 245 cost 20.
SATURATED = 250.0


@lru_cache(maxsize=1)
def _discs() -> NDArray[np.bool_]:
    """(9, CANON_PX, CANON_PX): a pip-sized disc at each grid place of the canonical patch."""
    c = (CANON_PX - 1) / 2.0
    face = CANON_PX / CANON_SPAN  # one face side in patch pixels
    step, radius = PIP_SPACING * face, max(1.0, PIP_RADIUS * face)
    yy, xx = np.mgrid[:CANON_PX, :CANON_PX]
    return np.stack([np.hypot(xx - (c + i * step), yy - (c + j * step)) <= radius for i, j in CELLS])


def palest_pip(gray: FloatImage, x: float, y: float, angle_deg: float, die_px: float,
               value: int) -> float:
    """The mean grey of the palest pip place of *value*'s layout on the face at
    (*x*, *y*) turned *angle_deg* (*die_px* wide in *gray*), at the layout's
    quarter turn whose pips are darkest."""
    patch = upright_warp(gray, x, y, angle_deg, die_px * CANON_SPAN / CANON_PX, CANON_PX,
                         cv2.INTER_LINEAR)
    discs = _discs()
    means = {cell: float(patch[discs[k]].mean()) for k, cell in enumerate(CELLS)}
    best: tuple[float, float] | None = None
    for cells, v in LAYOUTS.items():
        if v != value:
            continue
        pips = [means[c] for c in cells]
        darkness = sum(pips) / len(pips)
        if best is None or darkness < best[0]:
            best = (darkness, max(pips))
    if best is None:
        raise ValueError(f"no pip layout for value {value!r}")
    return best[1]


def pip_lost_in_glare(gray: FloatImage, x: float, y: float, angle_deg: float, die_px: float,
                      value: int) -> bool:
    """True when a pip place of *value*'s layout on that face is saturated (see the module doc)."""
    return palest_pip(gray, x, y, angle_deg, die_px, value) >= SATURATED
