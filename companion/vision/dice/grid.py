"""A second opinion on a matched pip face: its seven pip places, sampled.

The template match (``matching.py``) finds where the top face is and how it
is turned, and which drawn face resembles it best; its correlation is low
through the dome (haze, glare, the side faces beside the top face). This
module looks only at the face itself: the face is resampled upright and
enlarged (cubic) to a canonical patch, and the darkness of each of the nine
grid places (seven of which hold pips on a standard die) is measured against
the face's own brightness. The dark places must be exactly one of the six
layouts (at a quarter turn), with a clear gap between the darkest empty
place and the faintest pip. Where that gap is clear and the template agrees,
the value is announced even when the correlation alone is too weak.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import upright_warp
from companion.vision.dice.matching import PIP_SPACING, FacePlace
from companion.vision.dice.patterns import CELLS, LAYOUTS

#: The canonical patch's side in pixels (the face fills it).
PATCH = 36
#: Radius (px, in the patch) of the disc sampled at each grid place.
SAMPLE_RADIUS = 2.2
#: The plain face between the places: within this half-side of the centre
#: (face sides), farther than this from every grid place ...
PLAIN_HALF = 0.4
PLAIN_CLEAR = 0.17
#: ... whose darker pixels (this percentile) count as one more empty place:
#: a face edge, a hand or the dome floor inside the patch (a misplaced face)
#: makes the plain face dark, and then no layout splits clearly.
PLAIN_PERCENTILE = 10


@dataclass(frozen=True)
class GridReading:
    """The layout the nine grid places show, and how clearly."""

    value: int  # 0 when no layout fits
    gap: float  # faintest pip's darkness minus the darkest empty place's
    runner_up: float  # the best gap of a layout of another value


def _offsets() -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    r = int(np.ceil(SAMPLE_RADIUS))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    keep = np.hypot(xx, yy) <= SAMPLE_RADIUS
    return xx[keep].astype(np.int32), yy[keep].astype(np.int32)


_DX, _DY = _offsets()


def _plain_mask() -> NDArray[np.bool_]:
    c = (PATCH - 1) / 2.0
    step = PIP_SPACING * PATCH
    yy, xx = np.mgrid[:PATCH, :PATCH]
    keep = (np.abs(xx - c) <= PLAIN_HALF * PATCH) & (np.abs(yy - c) <= PLAIN_HALF * PATCH)
    for i, j in CELLS:
        keep &= np.hypot(xx - (c + i * step), yy - (c + j * step)) > PLAIN_CLEAR * PATCH
    return np.asarray(keep, np.bool_)


_PLAIN = _plain_mask()


def face_patch(image: NDArray[np.float32], place: FacePlace, die_px: float) -> NDArray[np.float32]:
    """The face at *place* (*die_px* wide in *image*), upright, PATCH px square."""
    return upright_warp(image, place.x, place.y, place.angle_deg, die_px / PATCH, PATCH, cv2.INTER_CUBIC)


def cell_darkness(patch: NDArray[np.float32]) -> tuple[dict[tuple[int, int], float], float]:
    """Each grid place's darkness, 1 - (its disc's mean) / (the face's bright level),
    and the darkness of the plain face between the places (see ``PLAIN_PERCENTILE``)."""
    c = (PATCH - 1) / 2.0
    step = PIP_SPACING * PATCH
    lo, hi = int(round(c - 1.35 * step)), int(round(c + 1.35 * step)) + 1
    face = float(np.percentile(patch[lo:hi, lo:hi], 85))
    if face <= 1e-6:
        return {cell: 0.0 for cell in CELLS}, 1.0
    out = {}
    for i, j in CELLS:
        x, y = int(round(c + i * step)), int(round(c + j * step))
        vals = patch[np.clip(y + _DY, 0, PATCH - 1), np.clip(x + _DX, 0, PATCH - 1)]
        out[(i, j)] = 1.0 - float(vals.mean()) / face
    plain = 1.0 - float(np.percentile(patch[_PLAIN], PLAIN_PERCENTILE)) / face
    return out, plain


def read_grid(dark: dict[tuple[int, int], float], plain: float) -> GridReading:
    """The layout that best splits the nine places into dark pips and bright face
    (the plain face, *plain*, counting as one more empty place)."""
    best: dict[int, float] = {}
    for cells, value in LAYOUTS.items():
        pips = min(dark[c] for c in cells)
        empty = max(max(dark[c] for c in CELLS if c not in cells), plain)
        gap = pips - empty
        if gap > best.get(value, -9.0):
            best[value] = gap
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    return GridReading(ranked[0][0], ranked[0][1], ranked[1][1])


#: How far (patch px, about 0.7 fine px each) and how much turned (degrees)
#: ``search_grid`` looks around a match whose own place shows no clear layout:
#: the template's place is often off by a fraction of a pip spacing.
SEARCH_REACH = 7
SEARCH_TURNS = (-4.0, 0.0, 4.0)


@dataclass(frozen=True)
class _Lookup:
    """Flat indices, in a patch with a SEARCH_REACH margin, for every offset."""

    side: int
    cells: NDArray[np.intp]  # (offsets, 9)
    plain: NDArray[np.intp]  # (offsets, plain pixels)
    face: NDArray[np.intp]  # (offsets, face-level pixels)
    disc: NDArray[np.float32]
    layouts: tuple[tuple[NDArray[np.bool_], int], ...]


@lru_cache(maxsize=1)
def _lookup() -> _Lookup:
    m = SEARCH_REACH
    side = PATCH + 2 * m
    c = (PATCH - 1) / 2.0
    step = PIP_SPACING * PATCH
    offsets = [(ox, oy) for oy in range(-m, m + 1) for ox in range(-m, m + 1)]
    cells = np.array(
        [
            [
                int(round(c + m + oy + j * step)) * side + int(round(c + m + ox + i * step))
                for i, j in CELLS
            ]
            for ox, oy in offsets
        ],
        np.intp,
    )
    py, px = np.nonzero(_PLAIN)
    plain = np.array([(py + m + oy) * side + (px + m + ox) for ox, oy in offsets], np.intp)
    lo, hi = int(round(c - 1.35 * step)), int(round(c + 1.35 * step)) + 1
    fy, fx = np.mgrid[lo:hi, lo:hi]
    face = np.array([((fy + m + oy) * side + (fx + m + ox)).ravel() for ox, oy in offsets], np.intp)
    disc = np.zeros((2 * int(np.ceil(SAMPLE_RADIUS)) + 1,) * 2, np.float32)
    disc[_DY + disc.shape[0] // 2, _DX + disc.shape[1] // 2] = 1.0
    disc /= disc.sum()
    layouts = tuple(
        (np.array([cell in cells_ for cell in CELLS], np.bool_), value)
        for cells_, value in LAYOUTS.items()
    )
    return _Lookup(side, cells, plain, face, disc, layouts)


def search_grid(image: NDArray[np.float32], place: FacePlace, die_px: float) -> GridReading:
    """The clearest layout within SEARCH_REACH patch px and SEARCH_TURNS of *place*.

    The same measure as ``read_grid`` at each offset (the plain face counting
    as an empty place), computed for all offsets at once from one larger
    patch per turn. Looking at many places makes a clear split likelier by
    chance: its gap must meet a higher bar (``Acceptance.min_search_gap``).
    """
    look = _lookup()
    best: dict[int, float] = {}
    for turn in SEARCH_TURNS:
        rot = cv2.getRotationMatrix2D((0.0, 0.0), -(place.angle_deg + turn), 1.0)[:, :2]
        a = (die_px / PATCH) * rot
        c = (look.side - 1) / 2.0
        t = np.array([place.x, place.y]) - a @ np.array([c, c])
        m = np.hstack([a, t[:, None]]).astype(np.float64)
        big = np.asarray(
            cv2.warpAffine(
                image,
                m,
                (look.side, look.side),
                flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            ),
            np.float32,
        )
        discs = np.asarray(
            cv2.filter2D(big, -1, look.disc, borderType=cv2.BORDER_REPLICATE), np.float32
        ).ravel()
        flat = big.ravel()
        face = np.maximum(np.percentile(flat[look.face], 85, axis=1), 1e-6)
        dark = 1.0 - discs[look.cells] / face[:, None]
        plain = 1.0 - np.percentile(flat[look.plain], PLAIN_PERCENTILE, axis=1) / face
        for mask, value in look.layouts:
            gap = float(
                (dark[:, mask].min(axis=1) - np.maximum(dark[:, ~mask].max(axis=1), plain)).max()
            )
            if gap > best.get(value, -9.0):
                best[value] = gap
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    return GridReading(ranked[0][0], ranked[0][1], ranked[1][1])
