"""The board's rim: where a hand reaching over the board must cross.

The reader calls a hand over the board only where it covers a hole (the hole
reads ``unknown``). A hand that carries a peg between holes, or whose fingers
reach in at the board's edge, may cover none: in fresh whole rendered game
682 (640x480) Blue's peg, carried from space 2 to 6 in fingers at the
board's corner, was read seated on Blue's Finish 1 for half a second with no
hand seen, and the referee built its game on that board. But an arm comes
from outside the board, so whatever reaches over the board covers its rim
in the image. This module samples a thin band just inside the board's edge
(every ``EDGE_STEP_MM`` along it, ``EDGE_INSET_MM`` in), where nothing of
the game moves but pegs in Home holes near the corners, whose tops a tilted
camera may see there; the time layer (:class:`companion.vision.stream.VisionStream`)
compares each frame's band with how the rim looks when nothing is over it.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.geometry import BoardGeometry
from companion.vision.locate import CameraPose
from companion.vision.pegs import segment_distance

#: How far inside the board's edge the band lies (mm): clear of the edge's
#: blur and of a pose a pixel off, inside the print's outer margin.
EDGE_INSET_MM = 3.0
#: Spacing of the band's samples along the edge (mm): a finger is 15-20 mm wide.
EDGE_STEP_MM = 4.0


def edge_points_mm(geometry: BoardGeometry) -> np.ndarray:
    """(N, 2) board points of the band, in order around the board (clockwise
    from its top-left corner), so that neighbours in the array are
    neighbours on the board, the last beside the first."""
    w, h = geometry.size_mm
    a = EDGE_INSET_MM
    top = [(x, a) for x in np.arange(a, w - a, EDGE_STEP_MM)]
    right = [(w - a, y) for y in np.arange(a, h - a, EDGE_STEP_MM)]
    bottom = [(x, h - a) for x in np.arange(w - a, a, -EDGE_STEP_MM)]
    left = [(a, y) for y in np.arange(h - a, a, -EDGE_STEP_MM)]
    return np.array(top + right + bottom + left, dtype=np.float64)


def edge_maps(geometry: BoardGeometry, camera: CameraPose) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.remap`` maps (1, N) that sample the band through *camera*."""
    pts = edge_points_mm(geometry)
    px = camera.project(np.column_stack([pts, np.zeros(len(pts))])).astype(np.float32)
    return np.ascontiguousarray(px[None, :, 0]), np.ascontiguousarray(px[None, :, 1])


#: A band sample closer than this many peg radii (image px) to where a peg in
#: a Home hole stands in the image (base to top) may show that peg, its blur
#: or its shading: it is not watched. (Rendered at 640x480, a peg brought
#: out of its Home changed 3 samples seen from straight above and 8 at a
#: tilt of 45 degrees; each bring-out would have held the board up.)
HOME_PEG_CLEARANCE = 1.8


def edge_clear(maps: tuple[np.ndarray, np.ndarray], home_base_px: np.ndarray, home_top_px: np.ndarray,
               peg_radius_px: np.ndarray) -> np.ndarray:
    """(N,) True for the band samples no peg standing in a Home hole can cover
    (the Home holes' base and top pixels and peg radii under this pose)."""
    px = np.column_stack([maps[0][0], maps[1][0]]).astype(np.float64)
    d = segment_distance(px, home_base_px, home_top_px)
    clear = np.asarray((d > HOME_PEG_CLEARANCE * peg_radius_px[None, :] + 1.0).all(axis=1))
    clear.setflags(write=False)
    return clear


def sample_edge(frame_bgr: np.ndarray, maps: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The band's colours in *frame_bgr*: (N, 3) uint8 BGR, read-only. A point
    outside the frame (the board cut by the picture's edge) takes the
    frame's nearest edge pixel, where an arm entering the picture shows too."""
    mx, my = maps
    band = cv2.remap(frame_bgr, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[0]
    band = np.ascontiguousarray(band, dtype=np.uint8)
    band.setflags(write=False)
    return band


#: A band sample differs from the rim as it looks bare when a colour channel
#: is off by more than this (0-255, after the frame's overall light is
#: matched): sensor noise and JPEG give up to about 16 at 640x480, a hand or
#: its shadow 50-140 (fresh rendered game 682).
EDGE_DIFF = 30.0
#: So many neighbouring samples must differ for a hand (a finger is 3-5).
EDGE_MIN_RUN = 3
#: A sample that has looked the same (within half of ``EDGE_DIFF``) for this
#: long while differing from the bare rim, on frames whose holes show no
#: hand, becomes the bare rim (seconds): a peg's top seen there after it
#: left its Home, a bumped peg laid on the board's edge, a shadow that stays.
#: (Frames with a hand over the holes do not count: an arm lies still at the
#: edge while its fingers work, and taken for the bare rim it would look like
#: a hand for as long again once it left.) A hand held still that long over
#: no hole is then no longer seen here.
EDGE_ABSORB_S = 1.5
#: Frames further apart than this count as this far apart (seconds), so a
#: stall in the frames does not absorb a hand at once.
EDGE_MAX_STEP_S = 0.5
#: A hand seen at the edge over no hole for this long in all (seconds of
#: frames whose holes show no hand, since the rim last looked bare) is no
#: hand but a flickering light or a noisy camera: the samples that differ
#: then are not watched again (until the board is lost).
EDGE_GIVE_UP_S = 6.0
#: The bare rim follows slow light drift at this rate per frame, where the
#: band does not differ.
EDGE_FOLLOW = 0.2


class EdgeWatch:
    """Whether something reaches over the board's edge, frame by frame.

    Keeps how the rim looks bare (the first band seen, following slow light
    drift; the frame's overall brightness is matched first) and reports a
    hand where a run of neighbouring samples differs from it. A difference
    that stays still for ``EDGE_ABSORB_S`` becomes part of the bare rim, so
    nothing that stays on the board can hold the referee up for good; no
    single frame ever replaces the whole rim (an arm and its shadow over
    more than half of it, taken for a change of light, once made the bare
    rim itself look like a hand when the arm had gone: fresh game 690).
    """

    def __init__(self) -> None:
        self._bare: np.ndarray | None = None
        #: Per sample: the value it has shown while differing, and for how
        #: long (seconds of frames without a hand over the holes).
        self._held: np.ndarray | None = None
        self._still: np.ndarray | None = None
        self._last_t: float | None = None
        #: Samples found flickering (see ``EDGE_GIVE_UP_S``), and how long a
        #: hand has been seen over no hole since the rim last looked bare.
        self._noisy: np.ndarray | None = None
        self._busy_s = 0.0

    def update(self, band: np.ndarray | None, t: float, covered: bool = False,
               clear: np.ndarray | None = None) -> bool:
        """Take one frame's band (None: not read), whether its holes show a
        hand (*covered*) and which samples no Home peg can cover (*clear*,
        :func:`edge_clear`; None: all); True when something reaches over the
        board's edge."""
        if band is None:
            return False
        now = band.astype(np.float32)
        step = 0.0 if self._last_t is None else min(max(t - self._last_t, 0.0), EDGE_MAX_STEP_S)
        self._last_t = t
        if (self._bare is None or self._held is None or self._still is None or self._noisy is None
                or self._bare.shape != now.shape):
            self._take_as_bare(now)
            self._noisy = np.zeros(len(now), bool)
            return False
        # The frame's overall light against the bare rim's, per channel.
        gain = np.clip(np.median((now + 8.0) / (self._bare + 8.0), axis=0), 0.5, 2.0)
        off = np.abs(now - self._bare * gain).max(axis=1) > EDGE_DIFF
        watched = ~self._noisy if clear is None or clear.shape != off.shape else clear & ~self._noisy
        # Where a Home peg may show, the bare rim is whatever is there now.
        self._bare[~watched] = now[~watched]
        off &= watched
        calm = ~off
        self._bare[calm] += EDGE_FOLLOW * (now[calm] - self._bare[calm])
        changed = calm | (np.abs(now - self._held).max(axis=1) > EDGE_DIFF / 2)
        self._held[changed] = now[changed]
        self._still[changed] = 0.0
        if not covered:
            self._still[~changed] += step
        stayed = off & (self._still >= EDGE_ABSORB_S - 1e-9)
        self._bare[stayed] = now[stayed]
        off &= ~stayed
        hand = longest_run(off) >= EDGE_MIN_RUN
        if not off.any():
            self._busy_s = 0.0
        elif hand and not covered:
            self._busy_s += step
            if self._busy_s >= EDGE_GIVE_UP_S:
                self._noisy |= off
                self._busy_s = 0.0
                return False
        return hand

    def reset(self) -> None:
        """Forget the rim (the board was lost: another place, another light)."""
        self._bare = self._held = self._still = self._noisy = None
        self._last_t = None
        self._busy_s = 0.0

    def _take_as_bare(self, now: np.ndarray) -> None:
        self._bare, self._held = now.copy(), now.copy()
        self._still = np.zeros(len(now))


def longest_run(flags: np.ndarray) -> int:
    """The longest run of True in *flags*, read as a ring (the band goes
    round the board, its last sample beside its first).

    >>> longest_run(np.array([True, False, True, True, False, True, True]))  # 5, 6 and 0
    3
    >>> longest_run(np.array([False, False]))
    0
    """
    n = len(flags)
    if n == 0 or not flags.any():
        return 0
    if flags.all():
        return n
    # Start the ring just after a False, so no run is split by the wrap.
    start = int(np.argmin(flags)) + 1
    ring = np.concatenate([flags[start:], flags[:start]]).astype(np.int8)
    edges = np.diff(np.concatenate([[0], ring, [0]]))
    return int((np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)).max())
