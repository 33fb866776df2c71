"""Finding the board with no markers and no corners given: by its own print.

The markers are the reliable way to find the board, and ``--corners`` the
manual one; this is the third, for a table where the marker sheets are not
(yet) laid out. A Trouble board says which way round it lies by itself: each
colour's Home is a patch of that colour in its own corner. So:

1. **Colour zones.** In each of red, blue, yellow and green, the most
   *solid* patch of that colour in the frame (the one with the largest
   inscribed disc, after small gaps are closed): a Home's print and its pegs,
   not a Finish line's thin band or a Start space's ring.
2. **A first guess.** The four zones' centres against the four Homes' holes'
   centres (board millimetres) give a homography. It is rough (a zone's
   centre is not its holes' centre), but each colour names its own corner,
   so the board's turn is known, not guessed.
3. **The holes.** Each empty hole is a dark round spot: searched near where
   the guess puts it, widely first, then narrowly, with a RANSAC homography
   after each pass (as :func:`companion.vision.locate.follow_holes` follows
   a board it has lost its markers on). At least ``MIN_PRINT_HOLES`` holes
   must agree, within ``MAX_PRINT_RMS_PX``, or nothing is reported: a
   board the reader cannot place surely is "not found", never guessed.

The pose's ``source`` is ``"print"``. Lens distortion is not estimated (no
off-plane points), so the pose is best near the image centre; once found,
the locator follows the board by its holes from frame to frame.
"""

from __future__ import annotations

from itertools import product

import cv2
import numpy as np

from companion.layout import COLORS, HOLE_NAMES
from companion.vision.geometry import BoardGeometry
from companion.vision.locate import (
    BoardPose,
    board_homography,
    camera_from_points,
    hole_spots,
)

#: Hue ranges (OpenCV's 0-180 scale) of each colour's print, and the least
#: saturation and brightness a pixel of it shows.
HUE_RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    "red": ((0, 8), (168, 180)),
    "yellow": ((18, 38),),
    "green": ((42, 88),),
    "blue": ((96, 130),),
}
MIN_SATURATION = 100
MIN_VALUE = 60

#: Holes that must agree for a pose from the print to count (of 60; the
#: opening position leaves 44 empty), and how closely (RMS, pixels).
MIN_PRINT_HOLES = 20
FIRST_PASS_HOLES = 8
MIN_HOLES_PER_QUARTER = 4

#: A Home's patch must hold a disc at least this wide (pixels, radius); at
#: most this many arrangements of the patches are tried on the holes.
MIN_ZONE_RADIUS_PX = 2.0
MAX_ARRANGEMENTS = 4
MAX_PRINT_RMS_PX = 1.5


def colour_zones(frame_bgr: np.ndarray, keep: int = 3) -> dict[str, list[tuple[float, float, float]]]:
    """Each colour's most solid patches, most solid first: ``(x, y, inscribed radius)``.

    A patch's solidity is the radius of the largest disc inside it (after
    small gaps are closed): a Home's print with its pegs scores high, a
    Finish line's thin band or a Start ring low. A board whose own face is
    one of the colours (a light blue board) offers its face too, which is
    why several are kept and the arrangement decides (:func:`locate_by_print`).
    """
    hsv = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2HSV)
    h, s, v = cv2.split(hsv)
    bright = (s >= MIN_SATURATION) & (v >= MIN_VALUE)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    zones: dict[str, list[tuple[float, float, float]]] = {}
    for colour, ranges in HUE_RANGES.items():
        hue = np.zeros(h.shape, dtype=bool)
        for lo, hi in ranges:
            hue |= (h >= lo) & (h <= hi)
        mask = cv2.morphologyEx((hue & bright).astype(np.uint8), cv2.MORPH_CLOSE, kernel)
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        found = []
        for k in range(1, count):
            if stats[k, cv2.CC_STAT_AREA] < 20:
                continue
            x, y, bw, bh = (int(stats[k, i]) for i in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP,
                                                        cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
            inside = labels[y : y + bh, x : x + bw] == k
            d = float(depth[y : y + bh, x : x + bw][inside].max())
            if d >= MIN_ZONE_RADIUS_PX:
                found.append((float(centroids[k][0]), float(centroids[k][1]), d))
        if found:
            zones[colour] = sorted(found, key=lambda z: -z[2])[:keep]
    return zones


def _arrangements(zones: dict[str, list[tuple[float, float, float]]],
                  home_mm: np.ndarray) -> list[np.ndarray]:
    """Candidate image centres of the four Homes, in ``COLORS`` order, most
    plausible first: one patch per colour, forming a convex quadrilateral
    turned the same way as the Homes on the board (a camera cannot mirror
    it), whose patches are alike in size (the four Homes are)."""
    order = np.sign(_turn(home_mm))

    def plausible(pts: np.ndarray) -> bool:
        return bool(cv2.isContourConvex(pts.astype(np.float32).reshape(-1, 1, 2))) and (
            np.sign(_turn(pts)) == order)

    scored = []
    if all(c in zones for c in COLORS):
        for combo in product(*(zones[c] for c in COLORS)):
            pts = np.array([(x, y) for x, y, _ in combo], dtype=np.float64)
            if plausible(pts):
                radii = np.array([r for _, _, r in combo])
                scored.append((float(radii.min() / radii.max()), float(radii.sum()), pts))
    scored.sort(key=lambda t: (-t[0], -t[1]))
    out = [pts for _, _, pts in scored[:MAX_ARRANGEMENTS]]
    # Three Homes found are enough for a first guess: the fourth where an
    # affine map of the other three puts it. A colour's Home can be lost in
    # a board face of nearly its colour (a light blue board), or under a hand.
    for missing in range(len(COLORS)):
        others = [k for k in range(len(COLORS)) if k != missing]
        if any(COLORS[k] not in zones for k in others):
            continue
        seen = np.array([zones[COLORS[k]][0][:2] for k in others], dtype=np.float64)
        affine = cv2.getAffineTransform(home_mm[others].astype(np.float32), seen.astype(np.float32))
        pts = np.insert(seen, missing, affine @ np.append(home_mm[missing], 1.0), axis=0)
        if plausible(pts) and not any(np.allclose(pts, o) for o in out):
            out.append(pts)
    return out


def _spread(board_mm: np.ndarray, geometry: BoardGeometry) -> bool:
    """Whether the holes that agree lie all round the board: at least
    ``MIN_HOLES_PER_QUARTER`` in each quarter about the dome. A pose fitted on
    one side only extrapolates to the other, and with a strong lens it was
    out by up to 10 px there (development seed 2099 at 640x480)."""
    centre = np.asarray(geometry.die_center_mm, dtype=np.float64)
    d = board_mm - centre
    quarters = (d[:, 0] >= 0).astype(int) * 2 + (d[:, 1] >= 0).astype(int)
    return all(int(np.count_nonzero(quarters == q)) >= MIN_HOLES_PER_QUARTER for q in range(4))


def _turn(pts: np.ndarray) -> float:
    """Twice the signed area of the polygon *pts* (its sign says which way it turns)."""
    x, y = pts[:, 0], pts[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _home_centres(geometry: BoardGeometry) -> np.ndarray:
    rows = []
    for colour in COLORS:
        idx = [HOLE_NAMES.index(f"{colour}:home:{k}") for k in range(1, 5)]
        rows.append(geometry.holes_mm[idx].mean(axis=0))
    return np.array(rows, dtype=np.float64)


def locate_by_print(frame_bgr: np.ndarray, geometry: BoardGeometry) -> BoardPose | None:
    """The board's pose from its own print (see the module's text), or None."""
    if frame_bgr.ndim != 3:
        return None
    home_mm = _home_centres(geometry)
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    for centres in _arrangements(colour_zones(frame_bgr), home_mm):
        hom = cv2.getPerspectiveTransform(home_mm.astype(np.float32), centres.astype(np.float32))
        pose = _fit_holes(gray, hom, geometry)
        if pose is not None:
            return pose
    return None


def _fit_holes(gray: np.ndarray, hom: np.ndarray, geometry: BoardGeometry) -> BoardPose | None:
    """Refine a first guess *hom* on the holes' dark spots; None unless enough agree."""
    h, w = gray.shape[:2]
    holes = geometry.holes_mm.reshape(-1, 1, 2)
    edge = (geometry.holes_mm + [geometry.hole_radius_mm, 0.0]).reshape(-1, 1, 2)
    found: tuple[np.ndarray, np.ndarray] | None = None
    for reach_factor, tolerance in ((2.0, 4.0), (1.2, 2.0), (1.2, 2.0)):
        pred = cv2.perspectiveTransform(holes, hom).reshape(-1, 2)
        radius = np.linalg.norm(cv2.perspectiveTransform(edge, hom).reshape(-1, 2) - pred, axis=1)
        # The first, wider passes need only enough holes for a better guess.
        found = hole_spots(gray, pred, radius, reach_factor, geometry, min_holes=FIRST_PASS_HOLES)
        if found is None:
            return None
        refit, inliers = cv2.findHomography(found[0], found[1], cv2.RANSAC, tolerance)
        if refit is None or int(inliers.sum()) < FIRST_PASS_HOLES:
            return None
        hom = refit
    assert found is not None
    src, image = found
    err = np.linalg.norm(cv2.perspectiveTransform(src.reshape(-1, 1, 2), hom).reshape(-1, 2) - image, axis=1)
    keep = err <= 2.0
    if int(keep.sum()) < MIN_PRINT_HOLES:
        return None
    rms = float(np.sqrt(np.mean(err[keep] ** 2)))
    if rms > MAX_PRINT_RMS_PX or not _spread(src[keep], geometry):
        return None
    cam = camera_from_points(src[keep], image[keep], hom, (w, h), refine_lens=True)
    return BoardPose(board_homography(cam), hom, cam, "print", (), rms)
