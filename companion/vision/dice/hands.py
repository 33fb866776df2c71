"""Is a hand reaching into the dome? (a colour test on the dome crop)

Why: the wrong values the readers gave on development frames were, besides
glare and blur, dice partly under a hand reaching into the dome: the
classifiers read a side face showing beside the fingers, or fingers side by
side as a face. The dome's floor, the ivory die and its marks are all near
one colour under any light; a hand or a sleeve is not. So the share of the
dome's inside whose colour lies far from the dome's median colour says
whether a hand is there, whatever the light's colour (the median moves with
it; a 2700 K lamp does not trip it).

The colour test cannot see a hand of about the dome's colour, nor a dark,
greyish one covering most of the dome (the median is then the hand's own
colour): session 14 met such a hand whose fingers side by side read as a 6.
A hand is also much darker than the dome's lit floor, so the share of the
dome's inside much darker than its brightest part (:func:`dark_share`) is
a second sign: a flat die alone darkens a few percent of it (its sides
and shadow; at most a quarter on development frames, under glare at
640x480).

Used by the digit reader (``digitnet.DigitAcceptance.max_foreign``: no value
at all while a hand reaches in; session 13) and by the pip reader
(``dome.NetAcceptance``: a face the classifier is only nearly sure of is
announced only with no hand in the dome by either sign; session 14). See
docs/vision-dice.md.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

#: The hand check looks within this many dome radii of the centre (inside the
#: dome's wall: the board's print beyond it has every colour) ...
HAND_ZONE_RADII = 0.9
#: ... for pixels whose colour (CIELAB a*, b*, 0..255 scale) lies this far
#: from the dome's median colour: a hand or sleeve, not the white floor, the
#: ivory die or its digits (whatever the light's colour: the median moves with it).
HAND_CHROMA = 12.0
#: The hand check's working size (the board reader's and benchmark's crop).
HAND_CROP_PX = 160
#: :func:`dark_share` counts pixels darker (CIELAB L) than this share of the
#: dome inside's 90th percentile of lightness.
DARK_LEVEL = 0.6


@lru_cache(maxsize=4)
def _inside(span_radii: float) -> NDArray[np.bool_]:
    """The dome's inside (``HAND_ZONE_RADII``) in a ``HAND_CROP_PX`` crop spanning *span_radii*."""
    centre = (HAND_CROP_PX - 1) / 2.0
    yy, xx = np.mgrid[:HAND_CROP_PX, :HAND_CROP_PX]
    return np.asarray(np.hypot(xx - centre, yy - centre) < HAND_ZONE_RADII * HAND_CROP_PX / span_radii)


def _lab_inside(crop_bgr: NDArray[np.uint8], span_radii: float) -> NDArray[np.float32] | None:
    """(N, 3) CIELAB of the dome's inside (``HAND_ZONE_RADII``) of a square BGR
    dome crop (any size, spanning *span_radii* dome radii) at ``HAND_CROP_PX``;
    None for a grey crop."""
    if crop_bgr.ndim != 3 or crop_bgr.shape[2] < 3:
        return None
    bgr = np.ascontiguousarray(crop_bgr[:, :, :3])
    if bgr.shape[0] != HAND_CROP_PX or bgr.shape[1] != HAND_CROP_PX:
        bgr = np.asarray(cv2.resize(bgr, (HAND_CROP_PX, HAND_CROP_PX), interpolation=cv2.INTER_AREA), np.uint8)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    return np.asarray(lab[_inside(span_radii)], np.float32)


def foreign_share(crop_bgr: NDArray[np.uint8], span_radii: float) -> float | None:
    """The share of the dome's inside (a square BGR dome crop, any size,
    spanning *span_radii* dome radii) whose colour is not the dome's: a hand
    or arm reaching into it. None for a grey crop, which cannot tell."""
    lab = _lab_inside(crop_bgr, span_radii)
    if lab is None:
        return None
    colours = lab[:, 1:]
    off = np.hypot(*(colours - np.median(colours, axis=0)).T)
    return float((off > HAND_CHROMA).mean())


def dark_share(crop_bgr: NDArray[np.uint8], span_radii: float) -> float | None:
    """The share of the dome's inside (as :func:`foreign_share`) darker than
    ``DARK_LEVEL`` of its 90th percentile of lightness: a hand of any colour
    over the dome's lit floor. None for a grey crop (read as the other
    callers read it: no hand check)."""
    lab = _lab_inside(crop_bgr, span_radii)
    if lab is None:
        return None
    light = lab[:, 0]
    return float((light < DARK_LEVEL * np.percentile(light, 90)).mean())
