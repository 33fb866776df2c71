"""Canonical face patches: the die's top face cut out upright at a fixed scale.

The learned face classifier (``facenet.py``) sees the top face always the
same way: centred, its edges along the patch's axes, one face side
``CANON_PX / CANON_SPAN`` patch pixels wide, with a thin margin of what lies
around the face (its rim and the side faces or floor beyond). Cutting the
face out this way takes the geometry (where, how turned, how large) out of
the learning problem: the classifier only has to tell six layouts and
"no face here" apart, and the location search only has to try places and
quarter-turn angles.

Many places at one angle are cut at once: the neighbourhood is warped
upright once, then every window of it is a patch (a strided view, no copy
until the features are made).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

#: The canonical patch's side in pixels ...
CANON_PX = 24
#: ... spanning this many face sides (the face plus a margin of 1/8 side each way).
CANON_SPAN = 1.25
#: Grey levels added to each patch's spread before dividing by it (:func:`features`).
SPREAD_FLOOR = 2.0

FloatImage = NDArray[np.float32]


def upright_region(
    gray: FloatImage, x: float, y: float, angle_deg: float, die_px: float, reach: int
) -> FloatImage:
    """The neighbourhood of (*x*, *y*) in *gray*, turned upright by *angle_deg*
    and scaled to canonical patch pixels; ``CANON_PX + 2 * reach`` pixels square.

    Window ``[j:j+CANON_PX, i:i+CANON_PX]`` of the result is the canonical
    patch of a face centred ``(i - reach, j - reach)`` patch pixels (in the
    upright frame) from (*x*, *y*).
    """
    side = CANON_PX + 2 * reach
    return upright_warp(gray, x, y, angle_deg, die_px * CANON_SPAN / CANON_PX, side, cv2.INTER_LINEAR)


def upright_warp(
    image: FloatImage, x: float, y: float, angle_deg: float, src_per_out: float, side: int, interpolation: int
) -> FloatImage:
    """A *side* x *side* patch of *image* centred on (*x*, *y*), turned upright by
    *angle_deg*, each output pixel *src_per_out* source pixels wide.

    The one warp behind every upright face cut (the classifier's canonical
    patches and the pip-place grid's patches): the output's centre maps to
    (*x*, *y*) and its axes to the face's edges.
    """
    rot = cv2.getRotationMatrix2D((0.0, 0.0), -angle_deg, 1.0)[:, :2]
    a = src_per_out * rot
    c = (side - 1) / 2.0
    t = np.array([x, y]) - a @ np.array([c, c])
    m = np.hstack([a, t[:, None]]).astype(np.float64)
    out = cv2.warpAffine(
        image,
        m,
        (side, side),
        flags=interpolation | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(out, np.float32)


def canonical_patch(gray: FloatImage, x: float, y: float, angle_deg: float, die_px: float) -> FloatImage:
    """The face centred at (*x*, *y*), turned by *angle_deg*, *die_px* wide in *gray*."""
    return upright_region(gray, x, y, angle_deg, die_px, 0)


def windows(
    region: FloatImage, stride: int, within: float | None = None
) -> tuple[FloatImage, NDArray[np.int32]]:
    """Every canonical window of *region* at *stride* (only those whose offset
    is at most *within* patch px from the centre, when given): (N, CANON_PX,
    CANON_PX) and their offsets (N, 2) as (dx, dy) in patch pixels from the
    region's centre. One copy: the windows are picked from a strided view."""
    reach = (region.shape[0] - CANON_PX) // 2
    view = np.lib.stride_tricks.sliding_window_view(region, (CANON_PX, CANON_PX))
    picked = view[: 2 * reach + 1 : stride, : 2 * reach + 1 : stride]
    starts = np.arange(0, 2 * reach + 1, stride) - reach
    dy, dx = np.meshgrid(starts, starts, indexing="ij")
    keep = np.ones(dx.shape, np.bool_) if within is None else np.hypot(dx, dy) <= within
    offsets = np.stack([dx[keep], dy[keep]], axis=1).astype(np.int32)
    return np.asarray(picked[keep], np.float32), offsets


@dataclass(frozen=True)
class WindowGrid:
    """Where :func:`windows` cuts its windows in a region ``CANON_PX + 2 * reach``
    pixels square: made once per (reach, stride, within), read-only."""

    stride: int
    keep: NDArray[np.bool_]  # over the grid of window places, those cut
    offsets: NDArray[np.int32]  # (N, 2) as :func:`windows` gives them
    #: Per row of the grid: (grid row, first and end grid column kept, first window's number).
    runs: tuple[tuple[int, int, int, int], ...]

    @property
    def count(self) -> int:
        return len(self.offsets)

    def cut(self, region: FloatImage, out: FloatImage | None = None) -> FloatImage:
        """The windows of *region* (N, CANON_PX, CANON_PX), the same as :func:`windows`
        gives, into *out* when given (any array of N * CANON_PX**2 floats):
        one strided copy per row of the grid."""
        n = 2 * ((region.shape[0] - CANON_PX) // 2) + 1
        view = np.lib.stride_tricks.sliding_window_view(region, (CANON_PX, CANON_PX))
        picked = view[:n:self.stride, :n:self.stride]
        wins = (np.empty((self.count, CANON_PX, CANON_PX), np.float32) if out is None
                else out.reshape(self.count, CANON_PX, CANON_PX))
        for row, lo, hi, first in self.runs:
            wins[first : first + hi - lo] = picked[row, lo:hi]
        return wins


@lru_cache(maxsize=16)
def window_grid(reach: int, stride: int, within: float | None = None) -> WindowGrid:
    """The :class:`WindowGrid` of :func:`windows` for a region of this *reach*."""
    starts = np.arange(0, 2 * reach + 1, stride) - reach
    dy, dx = np.meshgrid(starts, starts, indexing="ij")
    keep = np.ones(dx.shape, np.bool_) if within is None else np.hypot(dx, dy) <= within
    offsets = np.stack([dx[keep], dy[keep]], axis=1).astype(np.int32)
    runs, first = [], 0
    for row in range(keep.shape[0]):
        cols = np.flatnonzero(keep[row])
        if len(cols):
            # The kept places of a row are contiguous (a disc's chord).
            assert cols[-1] - cols[0] + 1 == len(cols)
            runs.append((row, int(cols[0]), int(cols[-1]) + 1, first))
            first += len(cols)
    for a in (keep, offsets):
        a.setflags(write=False)
    return WindowGrid(stride, keep, offsets, tuple(runs))


def window_stats(
    region: FloatImage, stride: int, keep: NDArray[np.bool_] | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The mean and the spread (as :func:`features` takes them, floor included)
    of the windows :func:`windows` cuts from *region* at *stride* (those in
    *keep*, its mask over the grid of windows), from integral images: no
    window is read pixel by pixel."""
    reach = (region.shape[0] - CANON_PX) // 2
    total, squares = cv2.integral2(region, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
    n = 2 * reach + 1

    def boxes(t: NDArray[np.float64]) -> NDArray[np.float64]:
        # Only the boxes at *stride* (the same sums as all of them, then picked).
        lo, hi = t[:n:stride], t[CANON_PX : CANON_PX + n : stride]
        sums = (hi[:, CANON_PX : CANON_PX + n : stride] - lo[:, CANON_PX : CANON_PX + n : stride]
                - hi[:, :n:stride] + lo[:, :n:stride])
        return sums if keep is None else sums[keep]

    area = float(CANON_PX * CANON_PX)
    mean = boxes(np.asarray(total, np.float64)).ravel() / area
    var = np.maximum(boxes(np.asarray(squares, np.float64)).ravel() / area - mean * mean, 0.0)
    return mean, np.sqrt(var) + SPREAD_FLOOR


def levelled(region: FloatImage) -> tuple[FloatImage, float]:
    """*region* less its mean grey, and that mean (float32): the level.

    :func:`features` ignores a constant, and levelled windows' products with
    the classifier's weights are small numbers whose float32 sums stay within
    about 1e-6 of the normalised patches' (of raw grey levels, about 1e-5)."""
    level = float(np.float32(np.mean(region, dtype=np.float64)))
    return np.subtract(region, np.float32(level), dtype=np.float32), level


def windows_and_stats(
    region: FloatImage, stride: int, within: float | None = None
) -> tuple[FloatImage, NDArray[np.int32], NDArray[np.float64], NDArray[np.float64], float]:
    """:func:`windows` and :func:`window_stats` of *region* :func:`levelled`
    (the level returned last): what ``FaceNet.probabilities_of_windows``
    reads instead of :func:`features` (add the level back for the raw patches)."""
    flat, level = levelled(region)
    reach = (region.shape[0] - CANON_PX) // 2
    grid = window_grid(reach, stride, within)
    wins = grid.cut(flat)
    mean, spread = window_stats(flat, stride, grid.keep)
    return wins, grid.offsets, mean, spread, level


def features(patches: FloatImage) -> FloatImage:
    """Patches (N, CANON_PX, CANON_PX) -> rows the classifier reads: each patch
    minus its mean over its spread, so exposure, haze and contrast drop out
    (a small floor under the spread keeps a flat patch's noise from being
    blown up into a pattern)."""
    rows = np.asarray(patches, np.float32).reshape(len(patches), -1)
    flat = rows - rows.mean(axis=1, keepdims=True)  # a new array: *patches* is left as it was
    spread = np.sqrt(np.einsum("ij,ij->i", flat, flat) / flat.shape[1]) + SPREAD_FLOOR
    flat /= spread[:, None]
    return flat


def to_crop_offset(dx: float, dy: float, angle_deg: float, die_px: float) -> tuple[float, float]:
    """An offset in upright patch pixels -> the same offset in the image's pixels."""
    s = die_px * CANON_SPAN / CANON_PX
    a = math.radians(angle_deg)
    return (
        s * (dx * math.cos(a) - dy * math.sin(a)),
        s * (dx * math.sin(a) + dy * math.cos(a)),
    )
