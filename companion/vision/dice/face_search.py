"""Find and read a flat die's top face with the learned classifier (pip dice).

The classifier (``facenet.py``) is run on canonical windows (``canonical.py``)
all over the dome's middle, at every few degrees of a quarter turn: where
the die lies flat, one window holds its face upright and centred, and that
window's value is the most certain of all; everywhere else (the floor, a
glare spot, the die's side faces, the face half in view) the classifier
says "no face". Searching by the classifier itself, rather than by a
template and then judging, is what fixes the old reader's main fault: a
face found a pip spacing off, or a glare spot taken for the face, could
never be read right afterwards.

Only the middle is searched: in the Pop-O-Matic a flat die rests within
about 0.35 dome radii of the centre (the renderer models the same; see
``docs/vision-dice.md``, "Cocked"). The coarse pass (every ``COARSE_STRIDE``
patch px, every ``STEP_DEG`` degrees) is refined around its best window
(every patch px, half the angle step), and the decision takes the best
refined window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import (
    CANON_PX,
    CANON_SPAN,
    FloatImage,
    WindowGrid,
    canonical_patch,
    features,
    levelled,
    to_crop_offset,
    upright_region,
    window_grid,
    window_stats,
    windows,
    windows_and_stats,
)
from companion.vision.dice.facenet import (
    NO_FACE,
    FaceNet,
    Matrix,
    column_max,
    row_max,
    scratch,
    single_threaded_blas,
)


class WindowScorer(Protocol):
    """What the search needs of a classifier: a score per class (column 0 is
    "no face", 1..6 the values) for each window's feature row."""

    @property
    def classes(self) -> int: ...

    def probabilities(self, rows: Matrix) -> Matrix: ...

#: The searched middle of the dome, in dome radii from its centre.
SEARCH_ZONE = 0.42
#: The coarse pass: angle step (degrees, over a quarter turn) and stride (patch px).
STEP_DEG = 10.0
COARSE_STRIDE = 2
#: The fine pass around the coarse best: this many patch px either way, every pixel.
FINE_REACH = 2


@dataclass(frozen=True)
class NetFace:
    """The most certain face the classifier found, and how certain."""

    value: int  # 1..6, or NO_FACE when no window held a face
    probability: float  # the classifier's probability of that value there
    rival: float  # the highest probability any *other* value got in any window
    x: float  # the face's centre in the image searched (px)
    y: float
    angle_deg: float
    from_centre: float  # dome radii
    #: The value's lowest probability over the best window's three other
    #: quarter turns (a pip face reads the same at any quarter turn; a
    #: look-alike read at one turn often does not).
    turned: float = 1.0


@dataclass(frozen=True)
class Scan:
    """Every coarse window of one angle: where (crop px), the patches, the probabilities."""

    angle_deg: float
    xy: NDArray[np.float64]  # (N, 2) window centres in the crop
    #: The upright region the windows are cut from, less ``level`` (its mean
    #: grey: ``canonical.levelled``), and where in it they lie.
    region: FloatImage
    grid: WindowGrid
    probs: FloatImage  # (N, 7)
    level: float = 0.0

    @property
    def patches(self) -> FloatImage:
        """(N, CANON_PX, CANON_PX) the windows' grey levels (a new array)."""
        return np.add(self.grid.cut(self.region), np.float32(self.level), dtype=np.float32)


def scan_middle(gray: FloatImage, fraction: float, net: WindowScorer, span_radii: float) -> list[Scan]:
    """The coarse pass: the classifier on every window of the dome's middle, at each angle."""
    side = float(min(gray.shape[:2]))
    die = fraction * side
    unit = die * CANON_SPAN / CANON_PX  # crop px per patch px
    reach = int(math.ceil(SEARCH_ZONE * (side / span_radii) / unit))
    centre = (side - 1.0) / 2.0
    grid = window_grid(reach, COARSE_STRIDE, float(reach))
    n = grid.count
    angles = [float(a) for a in np.arange(0.0, 90.0, STEP_DEG)]
    offsets = grid.offsets.astype(np.float64)
    linear = isinstance(net, FaceNet)
    rows = scratch("scan_rows", (len(angles) * n, CANON_PX * CANON_PX)) if linear else None
    means, spreads = np.empty(len(angles) * n), np.empty(len(angles) * n)
    # Every angle's window centres in the crop at once (the same products and
    # sums, element by element, as one angle at a time).
    radians = [math.radians(angle) for angle in angles]
    cos = np.array([math.cos(a) for a in radians])[:, None]
    sin = np.array([math.sin(a) for a in radians])[:, None]
    ox, oy = offsets[None, :, 0], offsets[None, :, 1]
    centres = centre + unit * np.stack([ox * cos - oy * sin, ox * sin + oy * cos], axis=2)
    cut = []
    for k, angle in enumerate(angles):
        upright = upright_region(gray, centre, centre, angle, die, reach)
        # Other scorers read the raw windows (through canonical.features), as before.
        region, level = levelled(upright) if linear else (upright, 0.0)
        if rows is not None:
            # The windows straight into one work array (canonical.windows_and_stats).
            grid.cut(region, rows[k * n : (k + 1) * n])
            means[k * n : (k + 1) * n], spreads[k * n : (k + 1) * n] = window_stats(
                region, COARSE_STRIDE, grid.keep)
        cut.append((angle, centres[k], region, level))
    # Every angle's windows through the classifier at once: one call, not nine.
    if rows is not None:
        # A FaceNet's first layer from the raw windows (FaceNet.probabilities_of_windows):
        # no normalised copy is made.
        assert isinstance(net, FaceNet)
        first = scratch("scan_first", (len(rows), net.weights[0].shape[1]))
        with single_threaded_blas():
            net.first_layer_of_windows(rows, means, spreads, out=first)
        probs = net.rest_of(first)
    else:
        probs = net.probabilities(features(np.concatenate([grid.cut(region) for _, _, region, _ in cut])))
    return [Scan(angle, xy, region, grid, probs[k * n : (k + 1) * n], level)
            for k, (angle, xy, region, level) in enumerate(cut)]


def search_face(gray: FloatImage, fraction: float, net: WindowScorer, span_radii: float) -> NetFace:
    """The best face in the middle of a dome crop *gray* (float, any size, square).

    *fraction* is the die's side over the crop's side; *span_radii* how many
    dome radii the crop spans.
    """
    side = float(min(gray.shape[:2]))
    die = fraction * side
    radius_px = side / span_radii  # one dome radius
    centre = (side - 1.0) / 2.0
    rival = np.zeros(net.classes, np.float32)
    best_p, fx, fy, angle = -1.0, centre, centre, 0.0
    for scan in scan_middle(gray, fraction, net, span_radii):
        rival = np.maximum(rival, column_max(scan.probs))
        face = row_max(scan.probs[:, 1:])
        i = int(np.argmax(face))
        if face[i] > best_p:
            best_p, angle = float(face[i]), scan.angle_deg
            fx, fy = float(scan.xy[i, 0]), float(scan.xy[i, 1])
    # The fine pass: around the coarse best, every patch px, half a step either way.
    top_p, top = -1.0, (fx, fy, angle, NO_FACE)
    top_patch: FloatImage | None = None
    for a in (angle - STEP_DEG / 2.0, angle, angle + STEP_DEG / 2.0):
        region = upright_region(gray, fx, fy, a, die, FINE_REACH)
        if isinstance(net, FaceNet):
            wins, offsets, mean, spread, level = windows_and_stats(region, 1)
            probs = net.probabilities_of_windows(wins.reshape(len(wins), -1), mean, spread)
        else:
            wins, offsets = windows(region, 1)
            probs = net.probabilities(features(wins))
            level = 0.0
        rival = np.maximum(rival, probs.max(axis=0))
        face = probs[:, 1:].max(axis=1)
        i = int(np.argmax(face))
        if face[i] > top_p:
            ox, oy = to_crop_offset(float(offsets[i][0]), float(offsets[i][1]), a, die)
            top_p, top = float(face[i]), (fx + ox, fy + oy, a % 90.0, int(np.argmax(probs[i, 1:])) + 1)
            top_patch = np.add(wins[i], np.float32(level), dtype=np.float32)
    x, y, a, value = top
    turned = 0.0
    if top_patch is not None and value != NO_FACE:
        quarter = np.stack([np.rot90(top_patch, k) for k in (1, 2, 3)]).astype(np.float32)
        turned = float(net.probabilities(features(quarter))[:, value].min())
    others = [float(rival[v]) for v in range(1, net.classes) if v != value] or [0.0]
    return NetFace(
        value,
        top_p,
        max(others),
        x,
        y,
        a,
        math.hypot(x - centre, y - centre) / radius_px,
        turned,
    )


def turned_probability(gray: FloatImage, face: NetFace, fraction: float, net: WindowScorer) -> float:
    """*net*'s lowest probability of *face*'s value over the four quarter turns
    of *face*'s window (a second classifier's opinion of the same place)."""
    if face.value == NO_FACE:
        return 0.0
    die = fraction * float(min(gray.shape[:2]))
    patch = canonical_patch(gray, face.x, face.y, face.angle_deg, die)
    quarter = np.stack([np.rot90(patch, k) for k in range(4)]).astype(np.float32)
    return float(net.probabilities(features(quarter))[:, face.value].min())
