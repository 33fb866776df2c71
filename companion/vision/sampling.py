"""Where to look for each hole, and reading small patches there.

A peg's top stands ``peg.height_mm`` above its hole: in a tilted view it is
drawn tens of pixels away from the hole. So for each hole we project, with
the camera pose, three points: the peg's *top* (where a peg shows its lit
cap), its *body* (half height) and the hole's *base* (the dark recess an
empty hole shows). Each is read as the mean colour of a few pixels in a
small disc around it: a handful of numpy gathers per frame, no full-frame
filtering, so reading 60 holes costs well under a millisecond.

A :class:`SamplePlan` depends only on the pose; the reader computes it once
per pose and reuses it while the camera stays still.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.geometry import BoardGeometry
from companion.vision.locate import CameraPose

#: Offsets of the sample pixels in a unit disc (centre, ring of 6, ring of 6).
_UNIT = np.array(
    [[0.0, 0.0]]
    + [[0.5 * np.cos(a), 0.5 * np.sin(a)] for a in np.linspace(0, 2 * np.pi, 6, endpoint=False)]
    + [[0.95 * np.cos(a), 0.95 * np.sin(a)] for a in np.linspace(np.pi / 6, 2 * np.pi + np.pi / 6, 6,
                                                                 endpoint=False)]
)
#: A denser disc for the recess (centre and rings of 8, 12 and 16), so that the
#: sliver of an empty hole that a nearer peg leaves visible is still sampled.
_DENSE = np.array(
    [[0.0, 0.0]]
    + [[r * np.cos(a), r * np.sin(a)]
       for r, k in ((0.35, 8), (0.7, 12), (1.0, 16))
       for a in np.linspace(0, 2 * np.pi, k, endpoint=False) + r]
)

#: A ring of 12 points on the unit circle.
_RING = np.array([[np.cos(a), np.sin(a)] for a in np.linspace(0, 2 * np.pi, 12, endpoint=False)])

#: Sample points of a hole, as (height above the board in peg heights, disc radius in mm).
POINTS: dict[str, tuple[float, float]] = {
    "top": (0.97, 0.45),   # a peg's cap (fraction of peg height; radius as a fraction of peg radius)
    "body": (0.5, 0.5),
    # the recess, across most of the hole (radius as a fraction of the hole's):
    # any of it seen means no peg, since a peg's foot covers its whole hole.
    "base": (0.0, 0.85),
    # the board around the hole (a ring at 1.7 hole radii): how light the
    # surface is there, against which a blurred recess is still darker.
    "rim": (0.0, 1.7),
}


@dataclass(frozen=True)
class SamplePlan:
    """Integer pixel coordinates to gather for every hole and sample point."""

    #: point name -> (60, P) flat pixel indices into the frame (row * width + col).
    index: dict[str, np.ndarray]
    #: point name -> (60, 2) centre pixel (float) of the sample disc.
    centre: dict[str, np.ndarray]
    #: point name -> (60, P, 2) every sample pixel (float).
    points: dict[str, np.ndarray]
    #: (60,) the image direction and length (px) from a hole's base to its peg's top.
    lift_px: np.ndarray
    #: (60,) True where every sample pixel of the hole lies inside the frame.
    inside: np.ndarray
    #: (60,) distance from the camera to each hole (mm), to order holes near to far.
    depth_mm: np.ndarray
    shape: tuple[int, int]
    #: marker id -> flat pixel indices on the marker's white paper margin.
    paper_index: dict[int, np.ndarray]
    #: (60, markers) weights interpolating the markers' white across the board.
    paper_weights: np.ndarray
    #: (60,) the radius (px) a peg of this hole has in the image.
    peg_radius_px: np.ndarray
    #: Flat pixel indices on a ring of the dome's floor (white when no marker is seen).
    dome_floor_index: np.ndarray
    #: (60, 12) the rim ring's points a peg standing in the hole would not
    #: hide (outside its own silhouette): where the print around it shows.
    rim_clear: np.ndarray


def plan_samples(geometry: BoardGeometry, camera: CameraPose, shape: tuple[int, int]) -> SamplePlan:
    """Project every hole's sample points for a pose into a frame of *shape* (h, w)."""
    h, w = shape
    holes = geometry.holes_mm
    n = len(holes)
    index: dict[str, np.ndarray] = {}
    centre: dict[str, np.ndarray] = {}
    points: dict[str, np.ndarray] = {}
    inside = np.ones(n, dtype=bool)
    for name, (lift, rad) in POINTS.items():
        z = -lift * geometry.peg_height_mm  # board z points into the table
        on_hole = name in ("base", "rim")
        radius_mm = rad * (geometry.hole_radius_mm if on_hole else geometry.peg_radius_mm)
        # Sample discs lie in the board's plane (the cap of a peg faces up).
        unit = _DENSE if name == "base" else _RING if name == "rim" else _UNIT
        pts = holes[:, None, :] + radius_mm * unit[None, :, :]
        pts3 = np.concatenate([pts, np.full(pts.shape[:2] + (1,), z)], axis=2).reshape(-1, 3)
        px = camera.project(pts3).reshape(n, len(unit), 2)
        centre[name] = px[:, 0, :]
        points[name] = px
        cols = np.rint(px[..., 0]).astype(np.int64)
        rows = np.rint(px[..., 1]).astype(np.int64)
        ok = (cols >= 0) & (cols < w) & (rows >= 0) & (rows < h)
        inside &= ok.all(axis=1)
        index[name] = np.clip(rows, 0, h - 1) * w + np.clip(cols, 0, w - 1)
    lift_px = np.linalg.norm(centre["top"] - centre["base"], axis=1)
    rot = _rotation(camera.rvec)
    cam_pos = -rot.T @ camera.tvec
    pts3 = np.column_stack([holes, np.zeros(n)])
    depth = np.linalg.norm(pts3 - cam_pos[None, :], axis=1)
    # A peg's radius in pixels, measured at its cap.
    edge = camera.project(np.column_stack([holes + [geometry.peg_radius_mm, 0.0],
                                           np.full(n, -geometry.peg_height_mm)]))
    radius_px = np.linalg.norm(edge - centre["top"], axis=1)
    paper_index, paper_weights = _paper(geometry, camera, shape)
    cx, cy = geometry.die_center_mm
    ang = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    ring = np.concatenate([geometry.dome_radius_mm * f * np.column_stack([np.cos(ang), np.sin(ang)])
                           for f in (0.7, 0.85)]) + [cx, cy]
    fpx = camera.project(np.column_stack([ring, np.zeros(len(ring))]))
    floor = (np.clip(np.rint(fpx[:, 1]).astype(np.int64), 0, h - 1) * w
             + np.clip(np.rint(fpx[:, 0]).astype(np.int64), 0, w - 1))
    # A rim point is hidden by the hole's own peg when it lies within the peg's
    # silhouette: the segment from its base to its cap, as wide as the peg.
    a, b = centre["base"][:, None, :], centre["top"][:, None, :]
    ab = b - a
    ap = points["rim"] - a
    t = np.clip((ap * ab).sum(axis=2) / np.maximum((ab * ab).sum(axis=2), 1e-9), 0.0, 1.0)
    rim_clear = np.linalg.norm(ap - t[..., None] * ab, axis=2) > RIM_CLEAR_FACTOR * radius_px[:, None]
    return SamplePlan(index, centre, points, lift_px, inside, depth, shape, paper_index, paper_weights,
                      radius_px, floor, rim_clear)


#: A rim point this many peg radii (px) or nearer to a peg's silhouette counts as hidden by it.
RIM_CLEAR_FACTOR = 1.15


#: How far outside a marker's black square its white paper is sampled (mm).
PAPER_OFFSET_MM = 3.0


def _paper(
    geometry: BoardGeometry, camera: CameraPose, shape: tuple[int, int]
) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """Pixels on each marker's white margin, and per-hole interpolation weights.

    The printed paper is the one surface of known colour (white) under the
    same light as the board; interpolating its brightness from the four
    corners across the board cancels the light's colour and most of an uneven
    falloff.
    """
    h, w = shape
    index: dict[int, np.ndarray] = {}
    centres = []
    z = -geometry.marker_height_mm
    for marker_id, corners in sorted(geometry.markers_mm.items()):
        centre = corners.mean(axis=0)
        side = float(np.linalg.norm(corners[1] - corners[0]))
        scale = 1.0 + 2.0 * PAPER_OFFSET_MM / side
        ring = centre + (corners - centre) * scale
        mids = (ring + np.roll(ring, -1, axis=0)) / 2.0
        pts = np.vstack([ring, mids])
        px = camera.project(np.column_stack([pts, np.full(len(pts), z)]))
        cols = np.clip(np.rint(px[:, 0]).astype(np.int64), 0, w - 1)
        rows = np.clip(np.rint(px[:, 1]).astype(np.int64), 0, h - 1)
        index[marker_id] = rows * w + cols
        centres.append(centre)
    d = np.linalg.norm(geometry.holes_mm[:, None, :] - np.array(centres)[None, :, :], axis=2)
    weights = 1.0 / np.maximum(d, 1.0) ** 2
    return index, weights / weights.sum(axis=1, keepdims=True)


def white_per_hole(
    frame_bgr: np.ndarray, plan: SamplePlan, seen: tuple[int, ...],
    memory: dict[int, np.ndarray] | None = None,
) -> np.ndarray:
    """The white paper's colour interpolated at every hole (60, 3), from the markers *seen*.

    A marker's paper partly covered (a hand, a shadow) reads darker than the
    others; papers darker than 60% of the brightest are left out. With a
    *memory* (marker id -> its last good white, updated here), a paper that is
    covered now is replaced by its remembered white, scaled by how the
    visible papers changed since, so that uneven light still cancels when
    only one marker is in view.
    """
    flat = frame_bgr.reshape(-1, 3)
    ids = sorted(plan.paper_index)
    whites = np.array([np.median(flat[plan.paper_index[m]].astype(np.float32), axis=0)
                       for m in ids])
    bright = whites.max(axis=1)
    use = np.array([(m in seen) for m in ids]) & (bright >= 0.6 * bright.max())
    if not use.any() and not memory:
        # No marker in view and none remembered (manual corners): the floor of
        # the dome, the one large light surface of the board, stands in.
        floor = np.median(flat[plan.dome_floor_index].astype(np.float32), axis=0)
        return np.asarray(np.tile(np.maximum(floor, 20.0), (len(plan.paper_weights), 1)),
                          dtype=np.float32)
    if memory is not None:
        known = [k for k, m in enumerate(ids) if use[k] and m in memory]
        if known:
            ratio = np.median([whites[k] / np.maximum(memory[ids[k]], 1.0) for k in known], axis=0)
            for k, m in enumerate(ids):
                if not use[k] and m in memory:
                    whites[k] = memory[m] * ratio
                    use[k] = True
        for k, m in enumerate(ids):
            if m in seen and bright[k] >= 0.6 * bright.max():
                memory[m] = whites[k].copy()
    if not use.any():
        use[:] = True
    wts = plan.paper_weights[:, use]
    wts = wts / wts.sum(axis=1, keepdims=True)
    return np.asarray(np.maximum(wts @ whites[use], 20.0), dtype=np.float32)


def _rotation(rvec: np.ndarray) -> np.ndarray:
    rot, _ = cv2.Rodrigues(np.asarray(rvec, dtype=np.float64))
    return np.asarray(rot)


def gather(frame_bgr: np.ndarray, plan: SamplePlan) -> dict[str, np.ndarray]:
    """The BGR pixels (float32, 0..255) of every sample disc: point name -> (60, P, 3)."""
    flat = frame_bgr.reshape(-1, 3)
    return {name: flat[idx].astype(np.float32) for name, idx in plan.index.items()}
