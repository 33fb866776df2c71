"""The six pip layouts of a standard die, and fitting them to found pips.

A face is a 3 x 3 grid of pip places, cells ``(-1..1, -1..1)``. Pips that
could be neighbours in some layout propose a grid (pairs propose a square
grid; a corner and its two neighbouring corners propose a slanted, affine
one); each proposed grid is then judged by *all* the blobs that fall inside
its face square: every one must sit on a grid cell, the occupied cells must
form one of the six layouts (at any quarter turn), the pips must be alike in
size, darkness and roundness and plausible for the spacing, and the empty
cells and the face between the pips must be bright. Judging the whole face
square and its empty cells is what separates 4, 5 and 6 by geometry rather
than by a count, and what keeps side-face pips (outside the square) out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.pips import Pip

Cell = tuple[int, int]

CELLS: tuple[Cell, ...] = tuple((i, j) for j in (-1, 0, 1) for i in (-1, 0, 1))

#: The standard pip places of each face: (column, row) offsets from the centre.
PIP_CELLS: dict[int, tuple[Cell, ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}

_CANONICAL: dict[int, frozenset[Cell]] = {v: frozenset(cells) for v, cells in PIP_CELLS.items()}


def _quarter_turn(cells: frozenset[Cell]) -> frozenset[Cell]:
    return frozenset((-j, i) for i, j in cells)


def _all_layouts() -> dict[frozenset[Cell], int]:
    layouts: dict[frozenset[Cell], int] = {}
    for value, cells in _CANONICAL.items():
        turned = cells
        for _ in range(4):
            layouts[turned] = value
            turned = _quarter_turn(turned)
    return layouts


#: Every occupied-cell set a face can show, at any quarter turn, with its value.
LAYOUTS: dict[frozenset[Cell], int] = _all_layouts()

#: Grid steps between two pips of one face (up to quarter turns of the grid).
PAIR_STEPS: tuple[Cell, ...] = ((1, 0), (2, 0), (1, 1), (2, 2), (2, 1), (1, 2))

#: Half the side of the face square, in grid units (pips sit at +-1).
FACE_HALF = 1.5
#: Largest distance (in grid units) between a pip and its grid cell.
MAX_CELL_ERROR = 0.32
#: Plausible pip diameter over pip spacing for real and printed dice.
SIZE_TO_SPACING = (0.5, 1.1)
#: Largest ratio between the biggest and smallest pip of one face.
MAX_SIZE_SPREAD = 1.35
#: Smallest roundness of a top-face pip (side-face pips are foreshortened).
MIN_ROUNDNESS = 0.65
#: Faintest pip of a face, as a share of its darkest pip's contrast.
MIN_CONTRAST_SHARE = 0.8
#: The face square checked for brightness (grid units from the centre).
FACE_CHECK_HALF = 1.45
#: ... minus its rounded corners: points with |u| + |v| above this are skipped.
FACE_CHECK_DIAMOND = 2.4
#: Share of the face (between its pips) that must be bright.
MIN_BRIGHT_SHARE = 0.9
#: An empty cell must be at least this bright (pixel / local brightest).
EMPTY_BRIGHT = 0.75
#: A slanted face: its two grid steps may differ by this factor at most ...
MAX_STEP_RATIO = 2.4
#: ... and meet at an angle within this many degrees of a right angle.
MAX_SKEW_DEGREES = 38.0
#: A one's pip may be rounder or less round than others (a slanted view of a big pip).
MIN_ONE_ROUNDNESS = 0.58
#: A one's pip stands alone: no other blob within this many pip diameters.
ONE_CLEAR = 2.8


@dataclass(frozen=True)
class Grid:
    """An affine map from face grid coordinates ``(u, v)`` to image pixels.

    Pips sit at integer ``(u, v)`` in -1..1. Affine, not just a rotation and
    a scale, because a face seen at a slant (a webcam's wide view, a die near
    the frame's edge) is a parallelogram, and because many dice print the 6
    with its two columns closer than a 4's corners.
    """

    cx: float
    cy: float
    ux: float  # image step of one grid unit along u
    uy: float
    vx: float  # image step of one grid unit along v
    vy: float

    @classmethod
    def square(cls, cx: float, cy: float, spacing: float, angle: float) -> Grid:
        c, s = math.cos(angle), math.sin(angle)
        return cls(cx, cy, spacing * c, spacing * s, -spacing * s, spacing * c)

    @property
    def spacing(self) -> float:
        """The geometric mean of the two grid steps, in pixels."""
        return math.sqrt(abs(self.ux * self.vy - self.uy * self.vx))

    def to_image(self, u: float, v: float) -> tuple[float, float]:
        return self.cx + u * self.ux + v * self.vx, self.cy + u * self.uy + v * self.vy

    def to_grid(self, x: float, y: float) -> tuple[float, float]:
        det = self.ux * self.vy - self.uy * self.vx
        dx, dy = x - self.cx, y - self.cy
        return (dx * self.vy - dy * self.vx) / det, (self.ux * dy - self.uy * dx) / det


@dataclass(frozen=True)
class FaceFit:
    """A die face found in the image: its grid, its pips and what it shows."""

    value: int
    grid: Grid
    pips: tuple[Pip, ...]
    error: float  # mean pip-to-cell distance, in grid units
    recovered: bool  # one pip was filled in (lost in glare)

    @property
    def cx(self) -> float:
        return self.grid.cx

    @property
    def cy(self) -> float:
        return self.grid.cy

    @property
    def spacing(self) -> float:
        return self.grid.spacing


def fit_faces(
    pips: Sequence[Pip],
    brightness: NDArray[np.float32],
    spacing: tuple[float, float] | None = None,
) -> list[FaceFit]:
    """Every distinct face layout the pips support, most pips first.

    *brightness* is the local-ratio image (pixel / local brightest) the pips
    were found in; it is sampled at the empty cells of each proposed grid.
    *spacing*, when the die's size in the image is known (the dome crop),
    bounds the pip spacing in pixels: a side face or a mark on the board
    rarely matches the top face's scale.
    """
    fits: dict[tuple[int, int, int], FaceFit] = {}
    for fit in _candidates(pips, brightness):
        if spacing is not None and not spacing[0] <= fit.spacing <= spacing[1]:
            continue
        key = (fit.value, int(fit.cx // 3), int(fit.cy // 3))
        best = fits.get(key)
        if best is None or fit.error < best.error:
            fits[key] = fit
    return sorted(fits.values(), key=lambda f: (-len(f.pips), f.error))


def _candidates(pips: Sequence[Pip], brightness: NDArray[np.float32]) -> Iterable[FaceFit]:
    yield from _triples(pips, brightness)
    for a in range(len(pips)):
        yield from _single(pips, a, brightness)
        for b in range(len(pips)):
            if a != b and _alike(pips[a], pips[b]):
                yield from _pairs(pips, pips[a], pips[b], brightness)


def _alike(p: Pip, q: Pip) -> bool:
    return max(p.diameter, q.diameter) / min(p.diameter, q.diameter) <= MAX_SIZE_SPREAD


def _pairs(
    pips: Sequence[Pip], pa: Pip, pb: Pip, brightness: NDArray[np.float32]
) -> Iterable[FaceFit]:
    """Square grids on which *pa* and *pb* are two pips of one layout."""
    dx, dy = pb.x - pa.x, pb.y - pa.y
    dist = math.hypot(dx, dy)
    for step in PAIR_STEPS:
        spacing = dist / math.hypot(*step)
        size = 0.5 * (pa.diameter + pb.diameter) / spacing
        if not SIZE_TO_SPACING[0] <= size <= SIZE_TO_SPACING[1]:
            continue
        angle = math.atan2(dy, dx) - math.atan2(step[1], step[0])
        c, s = math.cos(angle), math.sin(angle)
        for cell in CELLS:
            if (cell[0] + step[0], cell[1] + step[1]) not in CELLS:
                continue
            cx = pa.x - spacing * (c * cell[0] - s * cell[1])
            cy = pa.y - spacing * (s * cell[0] + c * cell[1])
            fit = _judge(pips, Grid.square(cx, cy, spacing, angle), brightness)
            if fit is not None:
                yield fit


def _triples(pips: Sequence[Pip], brightness: NDArray[np.float32]) -> Iterable[FaceFit]:
    """Affine grids proposed by a corner pip and its two neighbouring corners.

    Every face with four or more pips has three corners of its grid occupied,
    (-1, -1), (1, -1) and (-1, 1), and those three fix the whole affine grid.
    """
    n = len(pips)
    min_sin = math.cos(math.radians(MAX_SKEW_DEGREES))
    for a in range(n):
        pa = pips[a]
        for b in range(n):
            if b == a or not _alike(pa, pips[b]):
                continue
            e1x, e1y = pips[b].x - pa.x, pips[b].y - pa.y
            l1 = math.hypot(e1x, e1y)
            for c in range(b + 1, n):
                if c == a or not _alike(pa, pips[c]):
                    continue
                e2x, e2y = pips[c].x - pa.x, pips[c].y - pa.y
                l2 = math.hypot(e2x, e2y)
                if min(l1, l2) < 2 or max(l1, l2) / min(l1, l2) > MAX_STEP_RATIO:
                    continue
                if abs(e1x * e2y - e1y * e2x) / (l1 * l2) < min_sin:
                    continue
                grid = Grid(
                    pa.x + 0.5 * (e1x + e2x),
                    pa.y + 0.5 * (e1y + e2y),
                    0.5 * e1x,
                    0.5 * e1y,
                    0.5 * e2x,
                    0.5 * e2y,
                )
                fit = _judge(pips, grid, brightness)
                if fit is not None and len(fit.pips) >= 3:
                    yield fit


def _single(pips: Sequence[Pip], a: int, brightness: NDArray[np.float32]) -> Iterable[FaceFit]:
    """The one-pip face: a lone round pip with bright face all around it.

    Its face has no orientation to fit, so the checks are circular: no other
    pip like it within ``ONE_CLEAR`` pip diameters (a side face's pips are
    smaller and squashed), and a bright disc around it.
    """
    pip = pips[a]
    if pip.roundness < MIN_ONE_ROUNDNESS:
        return
    clear = ONE_CLEAR * pip.diameter
    if any(
        o is not pip
        and math.hypot(o.x - pip.x, o.y - pip.y) < clear
        and _alike(o, pip)
        and o.roundness >= MIN_ROUNDNESS
        for o in pips
    ):
        return
    grid = Grid.square(pip.x, pip.y, pip.diameter / 0.7, 0.0)
    if _in_image(grid, brightness.shape) and _disc_bright(pip, clear, brightness):
        yield FaceFit(1, grid, (pip,), 0.0, False)


def _judge(pips: Sequence[Pip], grid: Grid, brightness: NDArray[np.float32]) -> FaceFit | None:
    """The face this grid shows, or ``None`` when the blobs do not fit a layout."""
    occupied: dict[Cell, Pip] = {}
    errors: list[float] = []
    for pip in pips:
        u, v = grid.to_grid(pip.x, pip.y)
        if max(abs(u), abs(v)) > FACE_HALF:
            continue
        cell = (int(round(u)), int(round(v)))
        err = math.hypot(u - cell[0], v - cell[1])
        if err > MAX_CELL_ERROR or cell in occupied:
            return None
        occupied[cell] = pip
        errors.append(err)
    if not occupied or not _pips_alike(list(occupied.values()), grid.spacing):
        return None
    if not _in_image(grid, brightness.shape):
        return None
    cells = frozenset(occupied)
    value = LAYOUTS.get(cells)
    recovered = False
    if value is None:
        value = _recover(cells)
        if value is None:
            return None
        recovered = True
    if not _empty_cells_bright(grid, cells, value, recovered, brightness):
        return None
    if not _face_bright(grid, list(occupied.values()), brightness):
        return None
    return FaceFit(value, grid, tuple(occupied.values()), float(np.mean(errors)), recovered)


def _pips_alike(pips: list[Pip], spacing: float) -> bool:
    """The pips of one face share size, darkness and roundness."""
    sizes = [p.diameter for p in pips]
    if max(sizes) / min(sizes) > MAX_SIZE_SPREAD:
        return False
    if min(p.roundness for p in pips) < MIN_ROUNDNESS:
        return False
    contrasts = [p.contrast for p in pips]
    if min(contrasts) < MIN_CONTRAST_SHARE * max(contrasts):
        return False
    size = float(np.mean(sizes)) / spacing
    return len(pips) == 1 or SIZE_TO_SPACING[0] <= size <= SIZE_TO_SPACING[1]


def _in_image(grid: Grid, shape: tuple[int, ...]) -> bool:
    h, w = shape[:2]
    for u, v in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        x, y = grid.to_image(u, v)
        if not (0 <= x < w and 0 <= y < h):
            return False
    return True


def _sample(brightness: NDArray[np.float32], x: float, y: float, radius: float) -> float:
    h, w = brightness.shape[:2]
    r = max(1, int(round(radius)))
    xi, yi = int(round(x)), int(round(y))
    patch = brightness[max(0, yi - r) : min(h, yi + r + 1), max(0, xi - r) : min(w, xi + r + 1)]
    return float(patch.mean()) if patch.size else 0.0


def _empty_cells_bright(
    grid: Grid,
    cells: frozenset[Cell],
    value: int,
    recovered: bool,
    brightness: NDArray[np.float32],
) -> bool:
    radius = 0.25 * grid.spacing
    for cell in CELLS:
        if cell in cells:
            continue
        if recovered and LAYOUTS.get(cells | {cell}) == value:
            continue
        x, y = grid.to_image(*cell)
        if _sample(brightness, x, y, radius) < EMPTY_BRIGHT:
            return False
    return True


def _face_bright(grid: Grid, pips: list[Pip], brightness: NDArray[np.float32]) -> bool:
    """Most of the face square, away from its pips, must be bright face.

    A grid that pairs a top-face pip with a side-face pip or a mark on the
    table spreads its square over the die's edge and the table: it fails here.
    """
    steps = np.linspace(-FACE_CHECK_HALF, FACE_CHECK_HALF, 9)
    points = [
        grid.to_image(float(u), float(v))
        for v in steps
        for u in steps
        if abs(u) + abs(v) <= FACE_CHECK_DIAMOND
    ]
    points = [
        (x, y)
        for x, y in points
        if all(math.hypot(x - p.x, y - p.y) >= 0.75 * p.diameter + 1.5 for p in pips)
    ]
    return _bright_share(points, brightness) >= MIN_BRIGHT_SHARE


def _disc_bright(pip: Pip, radius: float, brightness: NDArray[np.float32]) -> bool:
    points = [
        (pip.x + r * math.cos(t), pip.y + r * math.sin(t))
        for r in np.linspace(0.75 * pip.diameter + 1.5, radius, 4)
        for t in np.linspace(0, 2 * math.pi, 16, endpoint=False)
    ]
    return _bright_share(points, brightness) >= MIN_BRIGHT_SHARE


def _bright_share(points: list[tuple[float, float]], brightness: NDArray[np.float32]) -> float:
    """Share of *points* inside the image where the face is bright (1.0 if none)."""
    if not points:
        return 1.0
    h, w = brightness.shape[:2]
    bright = 0
    for x, y in points:
        xi, yi = int(round(x)), int(round(y))
        if 0 <= xi < w and 0 <= yi < h and brightness[yi, xi] >= EMPTY_BRIGHT:
            bright += 1
    return bright / len(points)


def _recover(cells: frozenset[Cell]) -> int | None:
    """The value when exactly one missing pip would complete exactly one layout.

    Glare can wash out one pip; the layout makes the missing one certain only
    when the seen pips are no layout themselves and every single added cell
    that makes a layout makes the same one. (A 5 that lost its centre looks
    like a valid 4, and stays a 4.) Two pips are too few to be sure of.
    """
    if len(cells) < 3:
        return None
    completions = {v for cell in CELLS if cell not in cells if (v := LAYOUTS.get(cells | {cell}))}
    if len(completions) != 1:
        return None
    return completions.pop()
