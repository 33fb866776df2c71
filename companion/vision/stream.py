"""The time layer: a stream of frame readings becomes a few trustworthy events.

A single frame lies often (a hand, motion blur, a die mid-tumble); a referee
that spoke on every frame would nag and misjudge. So:

* A **position** is reported once it has been read identically, completely
  (every hole known, no hand over the board) for ``position_stable_s``
  seconds, and only when it differs from the last position reported.
* A **pop** is reported when the die has been *disturbed* (hidden by a hand,
  cocked, or seen moving in the dome) and then lies still, flat and read for
  ``settle_s`` seconds, *and* it now lies differently from before the
  disturbance (the dome thumbnail changed). That last test is what makes a
  hand passing over the dome no pop, while popping the same number twice in
  a row is two pops (a popped die never lands exactly as it lay).
* A **cocked** die is reported once per disturbance when it has leaned for
  ``settle_s``; the players tap the dome, and the settle after it is the pop.
* **Board lost** is reported when the board has not been found for
  ``lost_after_s``; **board found** when it is seen again after that. A
  nudge shorter than that is silent: the locator simply re-finds the board.

All timing knobs are in seconds, not frames: the live loop runs at the
camera's rate and replays at the video's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from companion.vision.readings import FrameReading


@dataclass(frozen=True)
class PositionStable:
    """The board has held this position (referee format) steadily."""

    t: float
    pegs: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class PopSettled:
    """The die was popped and now lies flat showing ``value``."""

    t: float
    value: int
    confidence: float


@dataclass(frozen=True)
class DieCocked:
    """The die leans against the dome: the players must tap it, not pop again."""

    t: float


@dataclass(frozen=True)
class BoardLost:
    t: float
    reason: str


@dataclass(frozen=True)
class BoardFound:
    t: float


VisionEvent = PositionStable | PopSettled | DieCocked | BoardLost | BoardFound


def signature_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Mean absolute difference of two normalised dome thumbnails (0 = identical)."""
    return float(np.mean(np.abs(a.astype(np.float32) - b.astype(np.float32))))


class VisionStream:
    """Turns ``(reading, t)`` pairs, or frames through a reader, into events."""

    def __init__(
        self,
        reader: object | None = None,
        *,
        position_stable_s: float = 0.4,
        settle_s: float = 0.25,
        lost_after_s: float = 0.5,
        motion_threshold: float = 0.1,
        moved_threshold: float = 0.06,
    ) -> None:
        """``reader`` is a :class:`~companion.vision.reader.BoardReader` (needed by
        :meth:`push`; :meth:`push_reading` takes ready readings). Thresholds are
        distances between normalised dome thumbnails: above ``motion_threshold``
        between consecutive frames the die is moving; above ``moved_threshold``
        between the thumbnails averaged over the still period before and after
        a disturbance, it lies differently. (Measured on rendered frames:
        sensor noise alone gives up to 0.073 between single frames, and about
        a third of that between averages; a die that moved at least 0.11.)"""
        self.reader = reader
        self.position_stable_s = position_stable_s
        self.settle_s = settle_s
        self.lost_after_s = lost_after_s
        self.motion_threshold = motion_threshold
        self.moved_threshold = moved_threshold
        # board
        self._candidate: Mapping[str, tuple[str, ...]] | None = None
        self._candidate_since = 0.0
        self._reported: Mapping[str, tuple[str, ...]] | None = None
        self._missing_since: float | None = None
        self._lost_reported = False
        # die
        self._rest_signature: np.ndarray | None = None  # how the die lay at the last settle
        self._disturbed = False
        self._cocked_reported = False
        self._prev_signature: np.ndarray | None = None
        self._prev_homography: np.ndarray | None = None
        self._still_value: int | None = None
        self._still_state: str | None = None
        self._still_since = 0.0
        self._still_conf = 1.0
        self._still_sum: np.ndarray | None = None
        self._still_count = 0

    def push(self, frame_bgr: np.ndarray, t_seconds: float) -> list[VisionEvent]:
        """Read one frame with the reader and return the events it completes."""
        if self.reader is None:
            raise ValueError("this VisionStream has no reader; use push_reading")
        reading = self.reader.read(frame_bgr)  # type: ignore[attr-defined]
        return self.push_reading(reading, t_seconds)

    def push_reading(self, reading: FrameReading, t: float) -> list[VisionEvent]:
        """Feed one frame's reading taken at time *t* (seconds, increasing)."""
        events: list[VisionEvent] = []
        self._board(reading, t, events)
        self._die(reading, t, events)
        return events

    # -- the board ---------------------------------------------------------

    def _board(self, reading: FrameReading, t: float, events: list[VisionEvent]) -> None:
        if not reading.found:
            if self._missing_since is None:
                self._missing_since = t
            if not self._lost_reported and t - self._missing_since >= self.lost_after_s:
                self._lost_reported = True
                events.append(BoardLost(t, reading.reason or "board not found"))
            self._candidate = None
            return
        self._missing_since = None
        if self._lost_reported:
            self._lost_reported = False
            events.append(BoardFound(t))
        if not reading.complete:
            self._candidate = None
            return
        pegs = reading.pegs
        if self._candidate is None or dict(pegs) != dict(self._candidate):
            self._candidate = pegs
            self._candidate_since = t
        if (
            t - self._candidate_since >= self.position_stable_s
            and (self._reported is None or dict(pegs) != dict(self._reported))
        ):
            self._reported = pegs
            events.append(PositionStable(t, pegs))

    # -- the die -----------------------------------------------------------

    def _die(self, reading: FrameReading, t: float, events: list[VisionEvent]) -> None:
        die = reading.die
        sig = reading.dome_signature
        if not reading.found or die is None or sig is None:
            # Nothing can be said about the die; a lost board is not a disturbance.
            self._prev_signature = None
            self._still_state = None
            return
        homography = reading.pose.homography if reading.pose is not None else None
        moving = False
        same_view = (homography is None and self._prev_homography is None) or (
            homography is not None
            and self._prev_homography is not None
            and np.array_equal(homography, self._prev_homography)
        )
        # Thumbnails compare only under the same pose: a nudged camera is not a moving die.
        if self._prev_signature is not None and same_view:
            moving = signature_distance(sig, self._prev_signature) > self.motion_threshold
        self._prev_signature = sig
        self._prev_homography = homography

        if die.state == "hidden" or moving:
            self._disturbed = True
            self._still_state = None
            return
        if die.state != self._still_state or die.value != self._still_value:
            self._still_state, self._still_value = die.state, die.value
            self._still_since = t
            self._still_conf = die.confidence
            self._still_sum, self._still_count = None, 0
            if self._rest_signature is not None and die.state == "cocked":
                self._disturbed = True
        self._still_conf = min(self._still_conf, die.confidence)
        # Average the thumbnail over the still period: noise shrinks, a moved die does not.
        sig32 = sig.astype(np.float32)
        self._still_sum = sig32 if self._still_sum is None else self._still_sum + sig32
        self._still_count += 1
        if t - self._still_since < self.settle_s:
            return
        if die.state == "cocked":
            self._disturbed = True
            if not self._cocked_reported:
                self._cocked_reported = True
                events.append(DieCocked(t))
            return
        # Settled, still and read for long enough.
        assert self._still_sum is not None
        rest = self._still_sum / max(self._still_count, 1)
        if self._rest_signature is None:
            if self._disturbed and die.value is not None:
                events.append(PopSettled(t, die.value, self._still_conf))
            self._rest_signature = rest
        elif self._disturbed:
            if signature_distance(rest, self._rest_signature) > self.moved_threshold and die.value:
                events.append(PopSettled(t, die.value, self._still_conf))
            self._rest_signature = rest
        self._disturbed = False
        self._cocked_reported = False
