"""One frame in, one :class:`~companion.vision.readings.FrameReading` out.

The stages, each in its own module: locate the board (``locate``), plan where
to look for each hole under this pose (``sampling``, cached while the camera
stays still), gather and classify the holes (``pegs``), turn holes into the
referee's places (``companion.layout``), and read the die on a rectified crop
of the dome (``companion.vision.dice``). No stage keeps the frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

import cv2
import numpy as np

from companion.layout import COLORS, HOLE_NAMES, START_SPACE, Layout, finish_entry_space
from companion.vision.calibration import Calibration, adapt
from companion.vision.dice.reading import DieReading
from companion.vision.edge import edge_clear, edge_maps, sample_edge
from companion.vision.geometry import BoardGeometry
from companion.vision.locate import BoardLocator, BoardPose, CameraPose
from companion.vision.pegs import ColourModel, HoleEvidence, Silhouettes, classify, measure
from companion.vision.readings import FrameReading, HoleReading, HoleState, pegs_of
from companion.vision.sampling import SamplePlan, gather, plan_samples, white_per_hole
from companion.vision.stream import signature_distance

#: The rectified dome crop handed to the die reader: a square of this many
#: pixels spanning ``DOME_SPAN_RADII`` dome radii (the die reader's convention,
#: docs/vision-dice.md), on the plane of the die's top face.
DOME_CROP_PX = 160
DOME_SPAN_RADII = 2.4
#: Side of the dome thumbnail the time layer compares (pixels).
SIGNATURE_SIZE = 32
#: Grey levels: the thumbnail is divided by its spread, but never by less.
SIGNATURE_STD_FLOOR = 24.0
#: Thumbnails closer than this (mean absolute difference of normalised grey)
#: show the same dome: the previous die reading stands.
SAME_DOME = 0.08
#: A reading that found no value (``hidden``, ``cocked``) is reused for at most
#: this many frames before the die is read again: one unlucky read (the frame
#: the die landed in, a glint) must not stand for a whole settle period.
HIDDEN_REUSE = 2

DieReader = Callable[[np.ndarray], DieReading]


class SizedDieReader(Protocol):
    """The default dome reader, which is also told how wide the camera sees
    the die (``seen_px``; see :func:`die_seen_px`)."""

    def __call__(self, crop: np.ndarray, seen_px: float | None = None,
                 away: tuple[float, float] | None = None) -> DieReading: ...

#: Which holes are Home holes (their pegs' tops may show on the board's rim).
HOME_HOLES = np.array([":home:" in name for name in HOLE_NAMES])
#: The colour each hole belongs to (Home and Finish holes) or None (the track).
HOLE_OWNER: tuple[str | None, ...] = tuple(
    n.split(":")[0] if n.split(":")[0] in COLORS else None for n in HOLE_NAMES
)

#: The colour of the print around each hole: its owner's, and on each track
#: space where a Finish line's coloured band begins, that band's colour.
HOLE_PRINT: tuple[str | None, ...] = tuple(
    owner if owner is not None
    else next((c for c in COLORS if name == f"track:{finish_entry_space(c)}"), None)
    or next((c for c in COLORS if name == f"track:{START_SPACE[c]}"), None)
    for name, owner in zip(HOLE_NAMES, HOLE_OWNER, strict=True)
)


def _default_die_reader(geometry: BoardGeometry, calibration: Calibration | None) -> SizedDieReader | None:
    """The die engineer's dome reader for this board's die, when it is part of this build:
    the die faces learned at calibration when there are some (a digit die), else pips."""
    import companion.vision.dice as dice

    try:
        read_die_in_dome = dice.read_die_in_dome
    except AttributeError:
        return None
    fraction = dice_fraction(geometry)
    faces = calibration.die_faces if calibration is not None else None

    def read(crop: np.ndarray, seen_px: float | None = None,
             away: tuple[float, float] | None = None) -> DieReading:
        reading: DieReading = (
            read_die_in_dome(crop, fraction=fraction, seen_px=seen_px, away=away) if faces is None
            else faces.read(crop, fraction)
        )
        return reading

    return read


class Projects(Protocol):
    """A camera that maps board points (mm, z up) to pixels: the board
    reader's fitted :class:`CameraPose`, or the renderer's own camera."""

    def project(self, points_mm: np.ndarray) -> np.ndarray: ...


def die_seen_px(geometry: BoardGeometry, camera: Projects) -> float:
    """How many pixels wide *camera* sees the die's top face (the geometric
    mean of its two sides through the dome's centre): a die seen small is no
    surer than the die reader's second opinion (docs/vision-dice.md, "Session 22")."""
    (cx, cy), s = geometry.die_center_mm, geometry.die_size_mm
    ends = np.array([[cx - s / 2, cy, s], [cx + s / 2, cy, s], [cx, cy - s / 2, s], [cx, cy + s / 2, s]],
                    np.float64)
    p = np.asarray(camera.project(ends), np.float64).reshape(4, 2)
    return float(np.sqrt(np.linalg.norm(p[1] - p[0]) * np.linalg.norm(p[3] - p[2])))


#: A camera tilted less than this from straight above the die sees too little
#: of its side faces for them to pass for its top (:func:`die_away`).
SIDE_FACES_MIN_TILT_DEG = 15.0


def die_away(geometry: BoardGeometry, camera: CameraPose) -> tuple[float, float] | None:
    """The direction, in the dome crop (board x right, y down), from the
    camera's foot on the board to the die: a side face the camera sees
    shows in the crop next to the top face on the camera's side, so the top
    face of a die read on a side face lies one die width this way. None for
    a camera nearly straight above the die."""
    rotation, _ = cv2.Rodrigues(np.asarray(camera.rvec, np.float64))
    centre = -rotation.T @ np.asarray(camera.tvec, np.float64).reshape(3)
    offset = np.asarray(geometry.die_center_mm, np.float64) - centre[:2]
    height = abs(float(centre[2]))
    if height <= 0 or math.degrees(math.atan2(float(np.linalg.norm(offset)), height)) < SIDE_FACES_MIN_TILT_DEG:
        return None
    ux, uy = offset / np.linalg.norm(offset)
    return float(ux), float(uy)


def dice_fraction(geometry: BoardGeometry) -> float:
    """The die's side over the side of the dome crop (``BoardReader.dome_crop``)."""
    return geometry.die_size_mm / (DOME_SPAN_RADII * geometry.dome_radius_mm)


class BoardReader:
    """Reads frames of one camera; keeps the board's pose between frames."""

    def __init__(
        self,
        layout: Layout,
        calibration: Calibration | None = None,
        corners_px: np.ndarray | None = None,
        die_reader: DieReader | None = None,
        read_die: bool = True,
        adapt: bool = True,
    ) -> None:
        """``calibration`` is a :class:`~companion.vision.calibration.Calibration`
        (None: default colours); ``corners_px`` the four board corners for a
        frame without markers; ``die_reader`` replaces the default dome reader;
        ``adapt`` lets the peg colours follow drifting light (from frames with
        nothing covered, pegs read with high confidence only)."""
        self.adapt = adapt
        self.layout = layout
        self.geometry = BoardGeometry.from_layout(layout)
        self.locator = BoardLocator(self.geometry, corners_px)
        self.model: ColourModel = (
            calibration.colour_model() if calibration is not None else ColourModel.default()
        )
        self.calibration = calibration
        #: The default reader is also told how wide the camera sees the die.
        self._sized_die_reader = (_default_die_reader(self.geometry, calibration)
                                  if read_die and die_reader is None else None)
        self.die_reader: DieReader | None = (die_reader or self._sized_die_reader) if read_die else None
        self._die_seen_px: float | None = None
        self._die_away: tuple[float, float] | None = None
        self._plan_key: tuple[int, tuple[int, int]] | None = None
        self._plan: SamplePlan | None = None
        self._dome_maps: tuple[np.ndarray, np.ndarray] | None = None
        self._edge_maps: tuple[np.ndarray, np.ndarray] | None = None
        self._edge_clear: np.ndarray | None = None
        self._sil: Silhouettes | None = None
        #: The last die read afresh: its dome thumbnail, the reading, and how
        #: many frames it has been reused for since.
        self._last_die: tuple[np.ndarray, DieReading, int] | None = None
        #: Each marker paper's last good white, for frames where it is covered.
        self._paper_memory: dict[int, np.ndarray] = {}

    # -- the pipeline ------------------------------------------------------

    def read(self, frame_bgr: np.ndarray) -> FrameReading:
        """Everything readable in one BGR frame."""
        if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
            raise ValueError(f"expected a BGR frame (h, w, 3), got shape {frame_bgr.shape}")
        pose = self.locator.locate(frame_bgr)
        if not isinstance(pose, BoardPose):
            return FrameReading(found=False, reason=pose.reason)
        plan = self.plan_for(pose, frame_bgr.shape[:2])
        evidence = self.evidence(frame_bgr, pose, plan)
        assert self._sil is not None
        states, conf = classify(evidence, self._sil, self.model, HOLE_OWNER, hole_print=HOLE_PRINT)
        states = [s if plan.inside[i] else "unknown" for i, s in enumerate(states)]
        if self.adapt and "unknown" not in states:
            self.model = adapt(self.model, evidence, states, conf)
        holes = tuple(
            HoleReading(name, _state(s), float(c))
            for name, s, c in zip(HOLE_NAMES, states, conf, strict=True)
        )
        pegs, misplaced = pegs_of(holes)
        die, signature = self._die(frame_bgr)
        assert self._edge_maps is not None
        return FrameReading(
            found=True, pose=pose, holes=holes, pegs=pegs, misplaced=misplaced,
            hand=any(h.state == "unknown" for h in holes), die=die, dome_signature=signature,
            edge=sample_edge(frame_bgr, self._edge_maps), edge_clear=self._edge_clear,
        )

    def evidence(self, frame_bgr: np.ndarray, pose: BoardPose, plan: SamplePlan) -> HoleEvidence:
        """The white-balanced per-hole measurements (used by calibration too)."""
        white = white_per_hole(frame_bgr, plan, pose.markers_seen, self._paper_memory)
        return measure(gather(frame_bgr, plan), white, self.model, plan.rim_clear)

    def plan_for(self, pose: BoardPose, shape: tuple[int, int]) -> SamplePlan:
        """Where to sample under *pose* (cached while the pose object is the same)."""
        key = (id(pose.camera), shape)
        if self._plan is None or self._plan_key != key:
            self._plan = plan_samples(self.geometry, pose.camera, shape)
            self._plan_key = key
            self._sil = Silhouettes.build(
                self._plan.centre["base"], self._plan.centre["top"], self._plan.peg_radius_px,
                self._plan.depth_mm, self._plan.points["base"],
            )
            r = self.geometry.dome_radius_mm
            self._die_seen_px = die_seen_px(self.geometry, pose.camera)
            self._die_away = die_away(self.geometry, pose.camera)
            self._dome_maps = _rectify_maps(self.geometry, pose.camera, DOME_CROP_PX,
                                            DOME_SPAN_RADII * r / 2)
            self._edge_maps = edge_maps(self.geometry, pose.camera)
            self._edge_clear = edge_clear(self._edge_maps, self._plan.centre["base"][HOME_HOLES],
                                          self._plan.centre["top"][HOME_HOLES],
                                          self._plan.peg_radius_px[HOME_HOLES])
        return self._plan

    def dome_crop(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The dome seen from straight above, rectified onto the die's top face.

        A square of ``DOME_CROP_PX`` pixels spanning ``DOME_SPAN_RADII`` dome
        radii, centred on the dome, free of lens distortion (see docs/vision.md
        and docs/vision-dice.md); only valid after a successful :meth:`read`.
        """
        if self._dome_maps is None:
            raise RuntimeError("no board pose yet: read a frame with the board first")
        mx, my = self._dome_maps
        return cv2.remap(frame_bgr, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def _die(self, frame_bgr: np.ndarray) -> tuple[DieReading | None, np.ndarray | None]:
        """The die reading and the dome thumbnail.

        The die reader is the costliest stage (milliseconds); while the dome
        looks the same as when the die was last read, its reading is reused
        instead of being computed again (a reading without a value only for
        ``HIDDEN_REUSE`` frames).

        Also after the camera moved (a nudge: a new pose): the thumbnail is
        rectified onto the board through each frame's own pose, so an
        unchanged dome under a new, right pose gives the same thumbnail, and
        the die's reading does not depend on where the camera stands. A pose
        that is off, or glare that moved with the camera, only makes the
        thumbnails differ more (the die is then read again); the thumbnail is
        always compared with the one of the frame the die was read in, so
        small moves do not add up. On development frames (seeds 5000-5299 and
        720000-720299, each read again after a nudge of 3.6 mm and 1 degree)
        the thumbnail stayed within ``SAME_DOME`` in 462 of 600, and the kept
        reading's state or value differed from a fresh read's in 17, none of
        them a wrong value (docs/vision.md, "Session 13").
        """
        crop = self.dome_crop(frame_bgr)
        # The thumbnail covers the dome's inside only (the crop spans 2.4 radii),
        # so that the die is a good part of it; grey levels are centred (light
        # changes) and scaled by a floor that keeps sensor noise small.
        n = crop.shape[0]
        a = int(round(n * (1 - 1.6 / DOME_SPAN_RADII) / 2))
        inner = cv2.cvtColor(crop[a : n - a, a : n - a], cv2.COLOR_BGR2GRAY)
        g = cv2.resize(inner, (SIGNATURE_SIZE, SIGNATURE_SIZE),
                       interpolation=cv2.INTER_AREA).astype(np.float32)
        signature = (g - g.mean()) / max(float(g.std()), SIGNATURE_STD_FLOOR)
        if self.die_reader is None:
            return None, signature
        last = self._last_die
        if (
            last is not None
            and signature_distance(signature, last[0]) < SAME_DOME
            and (last[1].state == "settled" or last[2] < HIDDEN_REUSE)
        ):
            self._last_die = (last[0], last[1], last[2] + 1)
            return last[1], signature
        sized = self._sized_die_reader
        reading = (sized(crop, seen_px=self._die_seen_px, away=self._die_away) if sized is not None
                   else self.die_reader(crop))
        self._last_die = (signature, reading, 0)
        return reading, signature

    def forget_die(self) -> None:
        """Make the next frame read the die afresh (the benchmark times it so)."""
        self._last_die = None


def _state(s: str) -> HoleState:
    return s  # type: ignore[return-value]


def _rectify_maps(
    geometry: BoardGeometry, camera: CameraPose, size_px: int, half_span_mm: float,
    height_mm: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """remap() maps for a top-down square of *size_px* pixels around the dome.

    The square spans ``2 * half_span_mm`` on the plane of the die's top face
    (``die_size_mm`` above the board) unless *height_mm* is given; projecting
    through the pose includes the lens distortion, so the crop is free of it.
    """
    cx, cy = geometry.die_center_mm
    lin = (np.arange(size_px) + 0.5) * (2 * half_span_mm / size_px) - half_span_mm
    gx, gy = np.meshgrid(cx + lin, cy + lin)
    z = -(geometry.die_size_mm if height_mm is None else height_mm)
    pts = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, z)])
    px = camera.project(pts).reshape(size_px, size_px, 2).astype(np.float32)
    return np.ascontiguousarray(px[..., 0]), np.ascontiguousarray(px[..., 1])
