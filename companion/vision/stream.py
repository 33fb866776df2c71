"""The time layer: a stream of frame readings becomes a few trustworthy events.

A single frame lies often (a hand, motion blur, a die mid-tumble); a referee
that spoke on every frame would nag and misjudge. So:

* A **position** is reported once it has been read identically, completely
  (every hole known, no hand over the board) for ``position_stable_s``
  seconds, and only when it differs from the last position reported; and
  only on a frame whose board rim shows nothing reaching in over the
  board's edge (:mod:`companion.vision.edge`: a hand carrying a peg may
  cover no hole, and the peg in its fingers be read seated; its frames
  count towards the position's time, so the hand leaving costs a frame). A
  position whose difference rests on a *doubtful* peg (read with confidence
  below ``DOUBTFUL_CONFIDENCE``: a peg seen only by a weak top colour or its
  body, half hidden behind a nearer one) waits until that peg has been seen
  there for ``doubtful_stable_s`` (gaps of a frame or two allowed, frames
  with a hand not counted against it): such readings come and go with a
  hand the reader does not see (a peg carried in the fingers at the board's
  edge made the four-per-colour prior keep a phantom peg for half a second
  at a time, and each was called an illegal move in a whole rendered game).
  Only the doubtful peg is held to the longer time, not the whole position,
  whose other holes may flicker. And it is reported
  once more after each pop, when the position reported is read unchanged
  for that long after it (so the referee knows no peg moved since the pop).
* A position is **unsettled** (``PositionUnsettled``, once) when a complete
  frame reads another position than the one last reported: that one may no
  longer be on the table (a peg carried on to its place, read seated on its
  way for a second while hands kept the next position from standing). The
  next position that stands is then reported even if it is the same one.
* A **pop** is reported when the die has been *disturbed* (its dome
  thumbnail seen changing between two frames under one pose: a hand, a
  tumble) and then the thumbnail stays still for ``settle_s`` seconds while
  the die reader agrees on one value (``hidden`` reads in a still dome are
  failed reads: glare, a dim die; they vote for nothing), *and* it now lies
  differently from the last settle (the averaged dome thumbnail changed).
  That last test is what makes a hand passing over the dome no pop, while
  popping the same number twice in a row is two pops (a popped die never
  lands exactly as it lay). It is reported once per still period.
* A **pop unread** is reported when the die was disturbed, then lay still
  (and lies differently from the last settle) for ``unread_s`` seconds with
  no hand over the board (a hand resting on the dome hides the die as well)
  while the die reader never agreed on a value (every read ``hidden``: glare, a dim
  die, a steep camera). The referee then knows a pop happened whose value it
  must learn another way (the move, or the players' word) instead of falling
  out of step with the turns. It takes the place of the pop, once per still
  period. A frame that reads a value holds it back a little (``settle_s``
  more), so a die that just became readable is read, not reported unread.
* A **pop read late** is reported when the die of the last pop, reported
  unread, is read after all while it has not moved since (the hand that hid
  it moved away, the glare passed): in the same still period, or in a later
  one whose die lies as the unread one did. At most once per unread pop; a
  new pop closes it.
* A **camera nudge** or a **light change** is no pop: a new pose starts a
  new still period and is never motion, and a settle with no disturbance
  takes the dome as the reference again. A disturbance before that compares
  across the two poses with a larger threshold (or a changed value).
* A **cocked** die is reported once per disturbance when it has leaned for
  ``settle_s``; the players tap the dome, and the settle after it is the pop.
* **Board lost** is reported when the board has not been found for
  ``lost_after_s``; **board found** when it is seen again after that. A
  nudge shorter than that is silent: the locator simply re-finds the board.

All timing knobs are in seconds, not frames: the live loop runs at the
camera's rate and replays at the video's.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion.rules import COLORS, PEGS_PER_COLOR
from companion.rules.board import FINISH_SPACES, START, TRACK_SPACES
from companion.vision.dice.reading import DieReading
from companion.vision.edge import EdgeWatch
from companion.vision.readings import FrameReading, HoleState, pegs_of


@dataclass(frozen=True)
class PositionStable:
    """The board has held this position (referee format) steadily."""

    t: float
    pegs: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class PositionUnsettled:
    """A complete frame read another position than the one last reported:
    until a position is reported again (even the same one), the referee must
    not take the last one as still standing."""

    t: float


@dataclass(frozen=True)
class PopSettled:
    """The die was popped and now lies flat showing ``value``."""

    t: float
    value: int
    confidence: float
    #: The longest the die went without a value read, between the pop before
    #: this one and this one's settle (its own tumble counted): where that is
    #: long, a pop may have come and gone unseen in it.
    blind_s: float = 0.0


@dataclass(frozen=True)
class PopUnread:
    """The die was popped and now lies still, but its value could not be read.

    *faceless*: the face reader saw no face it half believed on the rest's
    hand-free frames (:meth:`_Still.faceless`), as a die landed leaning on
    the dome's wall looks, and a flat die unread under glare mostly does not.
    """

    t: float
    faceless: bool = False


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


@dataclass(frozen=True)
class BoardUnclear:
    """The board has been found but no frame read every hole for
    ``unclear_after_s``: something lies over it, or the camera is too far or
    the light too poor to read it. Reported once per such stretch."""

    t: float


@dataclass(frozen=True)
class PopReadLate:
    """The last pop, reported :class:`PopUnread`, reads ``value`` after all.

    The die has not moved since that report (the same rest), so this is that
    pop's value, not a new pop.
    """

    t: float
    value: int
    confidence: float


@dataclass(frozen=True)
class DieResettled:
    """The die was disturbed and settled again on the face it lay on, with a
    hand over the board all the while, then disturbed again: a pop of
    ``value`` made under a hand, or a hand passing beside the dome (the
    camera cannot tell which, so it is no :class:`PopSettled`)."""

    t: float
    value: int


VisionEvent = (
    PositionStable | PositionUnsettled | PopSettled | PopUnread | PopReadLate | DieCocked | BoardLost
    | BoardFound | BoardUnclear | DieResettled
)


def signature_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Mean absolute difference of two normalised dome thumbnails (0 = identical)."""
    return float(np.mean(np.abs(a.astype(np.float32) - b.astype(np.float32))))


class VisionStream:
    """Turns ``(reading, t)`` pairs, or frames through a reader, into events."""

    def __init__(
        self,
        reader: object | None = None,
        *,
        position_stable_s: float = 0.3,
        doubtful_stable_s: float = 1.2,
        settle_s: float = 0.25,
        unread_s: float = 0.5,
        lost_after_s: float = 0.5,
        unclear_after_s: float = 15.0,
        unstood_after_s: float = 30.0,
        motion_threshold: float = 0.1,
        moved_threshold: float = 0.054,
        moved_across_poses_threshold: float = 0.15,
        watch_edge: bool = True,
    ) -> None:
        """``reader`` is a :class:`~companion.vision.reader.BoardReader` (needed by
        :meth:`push`; :meth:`push_reading` takes ready readings). Thresholds are
        distances between normalised dome thumbnails: above ``motion_threshold``
        between consecutive frames the die is moving; above ``moved_threshold``
        between the thumbnails averaged over the still period before and after
        a disturbance, it lies differently; above ``moved_across_poses_threshold``
        when the camera moved in between. (Measured on rendered frames:
        sensor noise alone gives up to 0.073 between single frames, and about
        a third of that between averages; a die that moved at least 0.11; a
        camera nudge alone 0.078 between averages. Over 40 kept whole games
        at 640x480, session 56: settles on the face the die lay on with no
        pop, 0.047 at most; pops that landed on that face, 0.060 at least,
        which a bar of 0.06 missed in fresh game 1223.) ``unread_s`` (at least
        ``settle_s``) is how long a disturbed die may lie still, with no hand
        over the board, without a value read before it is reported as
        :class:`PopUnread`. After ``unclear_after_s`` with the board found
        but never read whole, :class:`BoardUnclear` is reported (long enough
        that a hand moving pegs or popping does not set it off); so it is
        after ``unstood_after_s`` with the board found and a position wanted
        (none reported yet, a pop since the last, or another read since) but
        none standing (hands and holes flickering unknown on a board read
        small: a stray complete frame restarts the first clock). With
        ``watch_edge`` no position is reported on a frame whose board rim
        shows something reaching over the board's edge
        (:class:`~companion.vision.edge.EdgeWatch`)."""
        if unread_s < settle_s:
            raise ValueError(f"unread_s ({unread_s}) must be at least settle_s ({settle_s})")
        self.reader = reader
        #: The colours in play, once the game knows them (None: all four).
        #: Readings are narrowed to them (:meth:`FrameReading.in_play`).
        self.colours: frozenset[str] | None = None
        self.position_stable_s = position_stable_s
        self.doubtful_stable_s = max(doubtful_stable_s, position_stable_s)
        self.settle_s = settle_s
        self.unread_s = unread_s
        self.lost_after_s = lost_after_s
        self.unclear_after_s = unclear_after_s
        self.unstood_after_s = unstood_after_s
        self.motion_threshold = motion_threshold
        self.moved_threshold = moved_threshold
        self.moved_across_poses_threshold = moved_across_poses_threshold
        # board
        self._edge = EdgeWatch() if watch_edge else None
        self._candidate: Mapping[str, tuple[str, ...]] | None = None
        self._candidate_held = 0.0  # seconds it was seen whole, before this stretch
        #: Each peg off Home seen in complete frames: (colour, place) -> (first, last) time.
        self._pegs_seen: dict[tuple[str, str], tuple[float, float]] = {}
        #: The pegs of ``_pegs_seen`` read doubtfully on some frame of their run.
        self._doubted: set[tuple[str, str]] = set()
        #: Each peg of ``_pegs_seen`` or ``_rivalled``: its colour's places on its last sighting.
        self._colour_at_sighting: dict[tuple[str, str], tuple[str, ...]] = {}
        #: Each doubted peg whose colour was read with it one hole over: when last.
        self._rivalled: dict[tuple[str, str], float] = {}
        #: Each hole read empty but doubtfully in complete frames: hole -> since when.
        self._doubtful_empty_since: dict[str, float] = {}
        self._stretch_since: float | None = 0.0  # start of this stretch of whole views
        self._last_complete = 0.0
        self._reported: Mapping[str, tuple[str, ...]] | None = None
        #: A complete frame has read another position since the last report
        #: (``PositionUnsettled`` said): the next position standing is reported.
        self._unsettled = False
        self._missing_since: float | None = None
        self._lost_reported = False
        self._unclear_since: float | None = None  # found, never whole since
        self._unclear_reported = False
        #: Since when a position has been wanted and none has stood (see ``unstood_after_s``).
        self._wanted_since: float | None = None
        self._unstood_reported = False
        # die
        self._rest: _Rest | None = None  # how the die lay at the last settle
        self._disturbed = False
        #: The largest change of the dome over ``TUMBLE_SPAN_S`` since the last
        #: rest, and the frames of the last such span (time, thumbnail).
        self._tumble = 0.0
        self._tumble_now = 0.0  # this frame's part of it
        #: The frames of about the last ``TUMBLE_SPAN_S`` under one pose, as
        #: (time, die, thumbnail, hand): a still period starts at the first of
        #: them in which the die lay as it does now (:meth:`_lying_as_now`).
        self._span_frames: deque[_Frame] = deque()
        #: When the die was last read on a value, and the longest stretch
        #: without one since the last pop reported (``PopSettled.blind_s``).
        self._read_at = 0.0
        self._blind_s = 0.0
        #: The dome's change from the frame before, over the last
        #: ``NOISE_FRAMES`` frames under one pose with the one before: the
        #: camera's noise is in it (:meth:`_motion_bar`).
        self._changes: deque[float] = deque(maxlen=NOISE_FRAMES)
        self._recent: deque[tuple[float, np.ndarray]] = deque()
        self._cocked_reported = False
        self._prev_signature: np.ndarray | None = None
        self._prev_homography: np.ndarray | None = None
        self._prev_frame: _Frame | None = None
        self._still: _Still | None = None
        #: The last pop was reported unread and its die has not been read since.
        self._late_open = False
        #: A pop was reported and the board has not been confirmed since; and
        #: since when the reported position has been read unchanged after it.
        self._confirm_pending = False
        self._confirm_since: float | None = None
        #: The unknown holes of each frame the board was found in, over the
        #: last ``GLINT_WINDOW_S``, and how many of those frames each was in.
        self._unknown_history: deque[tuple[float, frozenset[str], tuple[tuple[str, str], ...]]] = deque()
        self._unknown_counts: Counter[str] = Counter()
        #: What each hole was read as, when not unknown, over the same frames.
        self._known_counts: Counter[tuple[str, str]] = Counter()
        #: What each hole was last read as, when it was read at all, and, for
        #: a peg, whether the counts vouched for that read (:meth:`_peg_last_seen`).
        self._last_known: dict[str, str] = {}
        self._last_vouched: dict[str, bool] = {}
        #: This frame's unknown holes that a glint keeps unknown.
        self._glints: frozenset[str] = frozenset()
        #: This frame's unknown holes that have been unknown on nearly every
        #: frame of the window (past ``GLINT_MAX_SHARE``): a blemish or a
        #: resting hand, not one reaching for the dome (see :func:`may_shade_dome`).
        self._steady: frozenset[str] = frozenset()

    def push(self, frame_bgr: np.ndarray, t_seconds: float) -> list[VisionEvent]:
        """Read one frame with the reader and return the events it completes."""
        if self.reader is None:
            raise ValueError("this VisionStream has no reader; use push_reading")
        reading = self.reader.read(frame_bgr)  # type: ignore[attr-defined]
        return self.push_reading(reading, t_seconds)

    def push_reading(self, reading: FrameReading, t: float) -> list[VisionEvent]:
        """Feed one frame's reading taken at time *t* (seconds, increasing)."""
        events: list[VisionEvent] = []
        if self.colours is not None:
            reading = reading.in_play(self.colours)
        reading = self._glints_read_by_count(reading, t)
        at_edge = self._edge is not None and reading.found and self._edge.update(reading.edge, t, reading.hand, reading.edge_clear)
        self._board(reading, t, events, at_edge)
        board_events = len(events)
        self._die(reading, t, events, at_edge)
        if any(isinstance(e, (PopSettled, PopUnread)) for e in events):
            self._confirm_pending = True
            self._confirm_since = None
        if reading.found:
            self._watch_unstood(t, events)
        # A pop completed on the same frame as a position was popped before
        # that position's move: hands over the board hold up the die's clocks
        # as well as the board's, and a move needs its pop first (a whole
        # rendered game at 640x480: Green's pop and Green's move, after a
        # stretch with no board read, reported together board first, and the
        # move called for want of the pop). A late read of a pop reported
        # unread stays after the board, as before: the move was judged on
        # the unread pop, and the read comes to it as a correction.
        pops = [e for e in events[board_events:] if isinstance(e, (PopSettled, PopUnread))]
        return pops + [e for e in events if not any(e is p for p in pops)]

    # -- the board ---------------------------------------------------------

    def _glints_read_by_count(self, reading: FrameReading, t: float) -> FrameReading:
        """*reading* with its unknown holes read empty (or as the one colour
        they read in the window), when a glint keeps them unknown and then
        every colour in play has all its pegs.

        A glint (or a hole too small to read) can leave the same few holes
        unknown for minutes; an unknown hole counts as a hand, so the board
        was never read whole and the game went unrefereed (whole rendered
        games at 640x480: one never started, another went silent for five
        minutes). Pegs are never added or taken away, so when every colour in
        play has all its pegs seen in known holes, the unknown ones are
        empty, by count. Only holes unknown on between ``GLINT_MIN_SHARE``
        and ``GLINT_MAX_SHARE`` of the frames of the last ``GLINT_WINDOW_S``
        are taken so: a hand moves on within seconds, while one resting
        still hides its holes on every frame and a glint flickers. The holes
        are read empty with confidence 0, so a peg the reported position has
        there is taken away only after ``doubtful_stable_s``. A glint hole
        that was read, on the frames of the window it was not unknown, as one
        colour only (``GLINT_KNOWN_MIN`` frames or more) is read as that
        colour's peg instead, also with confidence 0 (a doubtful peg, held
        ``doubtful_stable_s`` before a position rests on it), when the counts
        then come out whole; when they do not (the peg has left the hole
        unseen: its colour one too many), empty as before, unless the hole
        was last read holding a peg (:meth:`_peg_last_seen`); a colour short of
        a peg either way keeps the hole a hand's. (Fresh rendered game 686 at
        640x480: Green's peg on space 27 of a small board read as a weak
        green on one frame in six and unknown on the others; the board stood
        unreported for 26 s and six moves were announced together.) Such holes
        (``_glints``) are no hand over the dome for the die's clocks either,
        even when a peg is not seen (a glint had held up the clocks of a pop
        for long enough that it went unseen).
        """
        self._glints = self._steady = frozenset()
        if not reading.found:
            return reading
        unknown = frozenset(h.hole for h in reading.holes if h.state == "unknown")
        known = tuple((h.hole, h.state) for h in reading.holes if h.state != "unknown")
        history, counts, known_counts = self._unknown_history, self._unknown_counts, self._known_counts
        history.append((t, unknown, known))
        counts.update(unknown)
        known_counts.update(known)
        self._note_vouched(reading, known, whole=not unknown and not reading.misplaced)
        self._last_known.update(known)
        while history and history[0][0] < t - GLINT_WINDOW_S:
            _, gone, gone_known = history.popleft()
            counts.subtract(gone)
            known_counts.subtract(gone_known)
        if not unknown or t - history[0][0] < GLINT_WINDOW_S / 2:
            return reading
        frames = len(history)
        self._glints = frozenset(hole for hole in unknown
                                 if GLINT_MIN_SHARE <= counts[hole] / frames <= GLINT_MAX_SHARE)
        self._steady = frozenset(hole for hole in unknown if counts[hole] / frames > GLINT_MAX_SHARE)
        if self._glints != unknown or reading.misplaced:
            return reading
        colours = self.colours if self.colours is not None else COLORS
        states = {hole: self._glint_state(hole) for hole in unknown}
        last_seen = [hole for hole in unknown if self._peg_last_seen(hole)]
        if any(states[hole] != self._last_known[hole] for hole in last_seen):
            return reading  # last read holding a peg, and read as another colour too
        empty: HoleState = "empty"
        tries = [states] if last_seen else [states, dict.fromkeys(unknown, empty)]
        for by_hole in tries:
            holes = tuple(replace(h, state=by_hole[h.hole], confidence=0.0) if h.state == "unknown" else h
                          for h in reading.holes)
            pegs, misplaced = pegs_of(holes)
            if not misplaced and all(len(pegs.get(c, ())) == PEGS_PER_COLOR for c in colours):
                return replace(reading, holes=holes, pegs=pegs, hand=False)
        return reading

    def _note_vouched(self, reading: FrameReading, known: tuple[tuple[str, str], ...], whole: bool) -> None:
        """Whether the counts vouch for each peg read on this frame: on a
        frame that read every hole, its colour's four pegs and no fifth; on
        one that did not, as they did for the same peg read there before."""
        vouched, last = self._last_vouched, self._last_known
        for hole, state in known:
            if state == "empty":
                continue
            if whole:
                vouched[hole] = len(reading.pegs.get(state, ())) == PEGS_PER_COLOR
            elif last.get(hole) != state:
                vouched[hole] = False

    def _peg_last_seen(self, hole: str) -> bool:
        """Whether glint *hole*, the last time it was read at all, held a peg
        of a colour in play read there on ``GLINT_KNOWN_MIN`` frames of the
        window (a colour nobody plays is a phantom's), vouched for by the
        counts (:meth:`_note_vouched`: a frame that read every hole read that
        colour's four pegs with it; five, and it is a phantom: fresh game
        1014, Blue's Finish 2 read blue now and then beside Blue's real peg
        on Finish 3, which shows there in a tilted view).

        Such a hole is not read empty by count: the colour one too many may
        as well be a phantom in another hole, one the peg in the glint hole
        makes. (Fresh rendered game 1028 at 640x480: Red's peg on space 28,
        in front of Red's Finish line, seen from the Finish's end; the reader
        took its body for a peg on Finish 1, which left space 28 unknown on
        seven frames in eight; read red on the eighth, with Finish 1 empty.
        Read by count, space 28 came out empty and Red's peg on Finish 1, and
        the board was called "does not match one move".) Which peg of the
        colour is the phantom the counts cannot say: the frame that read the
        glint hole may itself have put the peg a hole off (fresh game 1045:
        Blue's peg on space 27 read once on space 28, with 27 empty), so the
        board is not read by count at all; frames that read the hole make the
        position (game 1028: Red's move was announced 35 s late). A peg that
        has left the hole unseen is read gone once the hole is read empty
        again."""
        last = self._last_known.get(hole)
        in_play = self.colours if self.colours is not None else COLORS
        return (last is not None and last in in_play and self._last_vouched.get(hole, False)
                and self._known_counts[(hole, last)] >= GLINT_KNOWN_MIN)

    def _glint_state(self, hole: str) -> HoleState:
        """What a glint keeps unknown in *hole*: the one colour its known reads
        of the window gave (``GLINT_KNOWN_MIN`` or more of them), the peg it
        was last read holding (:meth:`_peg_last_seen`: it was read empty
        before the peg came), or empty."""
        read = [(state, n) for state in KNOWN_STATES if (n := self._known_counts[(hole, state)]) > 0]
        if len(read) == 1 and read[0][0] != "empty" and read[0][1] >= GLINT_KNOWN_MIN:
            return read[0][0]
        if self._peg_last_seen(hole) and all(state in ("empty", self._last_known[hole]) for state, _ in read):
            return next(state for state in KNOWN_STATES if state == self._last_known[hole])
        return "empty"

    def _board(self, reading: FrameReading, t: float, events: list[VisionEvent], at_edge: bool = False) -> None:
        if not reading.found:
            if self._missing_since is None:
                self._missing_since = t
            if not self._lost_reported and t - self._missing_since >= self.lost_after_s:
                self._lost_reported = True
                events.append(BoardLost(t, reading.reason or "board not found"))
                if self._edge is not None:
                    self._edge.reset()
                self._wanted_since = None  # the view regained starts the clock again
            self._candidate = None
            return
        self._missing_since = None
        if self._lost_reported:
            self._lost_reported = False
            events.append(BoardFound(t))
        if not reading.complete:
            self._note_rivals(reading.pegs, t)
            if self._unclear_since is None:
                self._unclear_since = t
            if not self._unclear_reported and t - self._unclear_since >= self.unclear_after_s - 1e-9:
                self._unclear_reported = True
                events.append(BoardUnclear(t))
            # A hand over the board (reaching for the dome, say) pauses the
            # clock of the position being confirmed instead of restarting it:
            # the position counts only if it reads the same when the hand has
            # gone, and any complete frame that differs restarts it.
            if self._candidate is not None and self._stretch_since is not None:
                self._candidate_held += self._last_complete - self._stretch_since
                self._stretch_since = None
            return
        self._unclear_since = None
        self._unclear_reported = False
        pegs = reading.pegs
        self._confirm(pegs, t, events, at_edge)
        if self._reported is not None and not self._unsettled and dict(pegs) != dict(self._reported):
            self._unsettled = True
            events.append(PositionUnsettled(t))
        if self._candidate is None or dict(pegs) != dict(self._candidate):
            self._candidate = pegs
            self._candidate_held = 0.0
            self._stretch_since = t
        elif self._stretch_since is None:
            self._stretch_since = t  # the same position, seen again after a hand
        self._last_complete = t
        self._note_pegs(pegs, t)
        self._doubted.update(new_doubtful_pegs(reading, None))
        self._note_doubtful_empties(reading, t)
        held = self._candidate_held + (t - self._stretch_since)
        if (
            held >= self.position_stable_s - 1e-9
            and not at_edge
            and self._doubt_settled(reading, t)
            and (self._reported is None or dict(pegs) != dict(self._reported) or self._unsettled)
        ):
            self._reported = pegs
            self._unsettled = False
            events.append(PositionStable(t, pegs))

    def _watch_unstood(self, t: float, events: list[VisionEvent]) -> None:
        """:class:`BoardUnclear` once a position has been wanted for
        ``unstood_after_s`` and none has stood, on a board found all along.
        The first clock (no complete frame for ``unclear_after_s``) misses a
        small board read whole now and then between hands and holes read
        unknown: kept fresh game 908 at 640x480 never had its opening stand
        and first heard why at 639 s (now 30 s); in 768 a move waited for
        from 172 s was never seen and nothing was said."""
        stood = any(isinstance(e, PositionStable) for e in events)
        if stood or not (self._reported is None or self._confirm_pending or self._unsettled):
            self._wanted_since = None
            self._unstood_reported = False
            return
        if self._wanted_since is None:
            self._wanted_since = t
        if (not self._unstood_reported and not self._unclear_reported
                and t - self._wanted_since >= self.unstood_after_s - 1e-9):
            self._unstood_reported = True
            events.append(BoardUnclear(t))

    def _note_pegs(self, pegs: Mapping[str, tuple[str, ...]], t: float) -> None:
        """Keep when each peg off Home was first seen in this run of sightings."""
        self._note_rivals(pegs, t)
        for colour, places in pegs.items():
            for place in places:
                if place != "home":
                    first, _ = self._pegs_seen.get((colour, place), (t, t))
                    self._pegs_seen[(colour, place)] = (first, t)
                    self._colour_at_sighting[(colour, place)] = places
        for peg, (_, last) in list(self._pegs_seen.items()):
            if t - last > DOUBT_GAP_S:
                del self._pegs_seen[peg]
                self._doubted.discard(peg)
                if peg not in self._rivalled:
                    self._colour_at_sighting.pop(peg, None)

    def _note_rivals(self, pegs: Mapping[str, tuple[str, ...]], t: float) -> None:
        """Keep when each doubted peg's colour was last read with that peg one
        hole over (its other pegs where they were at its last sighting): the
        reader is placing one peg on two holes by turns, and a position resting
        on the doubtful one waits until the other has not been read for
        ``RIVAL_HOLD_S`` (see :meth:`_doubt_settled`).

        Fresh whole game 1195 at 640x480: a yellow peg on Finish 4, seen past
        the one on Finish 2, was read on Finish 3 at 0.3 (kept by the
        four-per-colour prior) and on Finish 4 at 0.5 by turns for minutes,
        on frames alike but for noise, in runs of up to 3.8 s; both positions
        stood by turns, and three moves were judged on one board and called.
        Frames with a hand somewhere count too when the colour's pegs are all
        read (the peg read on Finish 3 through a move's 2.5 s of hands, on
        Finish 4 only while a hand was in view): a rival sighting only ever
        holds a position back.
        """
        for peg, when in list(self._rivalled.items()):
            if t - when >= RIVAL_HOLD_S and peg not in self._pegs_seen:
                del self._rivalled[peg]
                self._colour_at_sighting.pop(peg, None)
        for peg in (self._doubted & self._pegs_seen.keys()) | self._rivalled.keys():
            colour, place = peg
            if place not in pegs.get(colour, ()) and _one_hole_over(
                    colour, place, self._colour_at_sighting.get(peg, ()), pegs.get(colour, ())):
                self._rivalled[peg] = t

    def _note_doubtful_empties(self, reading: FrameReading, t: float) -> None:
        """Keep since when each hole has been read empty only doubtfully."""
        doubtful = {h.hole for h in reading.holes if h.state == "empty" and h.confidence < DOUBTFUL_CONFIDENCE}
        for hole in list(self._doubtful_empty_since):
            if hole not in doubtful:
                del self._doubtful_empty_since[hole]
        for hole in doubtful:
            self._doubtful_empty_since.setdefault(hole, t)

    def _pegs_doubtfully_gone(self) -> list[str]:
        """Holes now read empty only doubtfully where the position last
        reported has a peg (off its Home)."""
        reported = self._reported or {}
        gone = []
        for hole in self._doubtful_empty_since:
            owner = hole.split(":")[0]
            colours = list(reported) if owner == "track" else [owner] if owner in reported else []
            if any((place := peg_at(hole, c)[1]) != "home" and place in reported[c] for c in colours):
                gone.append(hole)
        return gone

    def _doubt_settled(self, reading: FrameReading, t: float) -> bool:
        """Every doubtful peg this reading adds, and every peg of the reported
        position it takes away from a hole read empty only doubtfully, has
        been so long enough. (The second: a whole rendered game at 640x480,
        a yellow peg in its Finish read empty at confidence 0.3 and as if on
        Yellow's Start for half a second, and the board was called.)"""
        taken = self._pegs_doubtfully_gone()
        return all(
            t - self._pegs_seen.get(peg, (t, t))[0] >= self.doubtful_stable_s - 1e-9
            and t - self._rivalled.get(peg, -math.inf) >= RIVAL_HOLD_S - 1e-9
            for peg in new_doubtful_pegs(reading, self._reported, self._doubted)
        ) and all(t - self._doubtful_empty_since[hole] >= self.doubtful_stable_s - 1e-9 for hole in taken)

    def _confirm(self, pegs: Mapping[str, tuple[str, ...]], t: float, events: list[VisionEvent],
                 at_edge: bool = False) -> None:
        """After a pop, the position reported before it is reported once more
        when it has been read unchanged for ``position_stable_s`` (counted
        over complete frames only): the referee then knows no peg moved
        since that pop, which it cannot tell from silence (the camera may
        simply not have read the board). Not on a frame with something over
        the board's rim (*at_edge*): a peg in the hand may read where it stood."""
        if not self._confirm_pending or self._reported is None:
            return
        if dict(pegs) != dict(self._reported):
            self._confirm_since = None
            return
        if self._confirm_since is None:
            self._confirm_since = t
        if t - self._confirm_since >= self.position_stable_s - 1e-9 and not at_edge:
            self._confirm_pending = False
            self._unsettled = False
            events.append(PositionStable(t, self._reported))

    # -- the die -----------------------------------------------------------

    def _die(self, reading: FrameReading, t: float, events: list[VisionEvent], at_edge: bool) -> None:
        """The die's part of one frame; *at_edge*: the rim watch sees something
        reaching over the board's edge (see :meth:`_hand_over_dome`)."""
        die = reading.die
        sig = reading.dome_signature
        if not reading.found or die is None or sig is None:
            # Nothing can be said about the die; a lost board is not a disturbance.
            self._prev_signature = None
            self._prev_homography = None
            self._prev_frame = None
            self._still = None
            self._recent.clear()
            return
        homography = reading.pose.homography if reading.pose is not None else None
        same_view = self._prev_signature is not None and _same_pose(homography, self._prev_homography)
        moving = False
        # Thumbnails compare only under the same pose: a nudged camera is not a moving die.
        if same_view:
            reference = self._span_reference(t)
            assert reference is not None
            change = signature_distance(sig, reference[2])
            self._changes.append(change)
            moving = change > self._motion_bar()
        else:
            self._recent.clear()
        tumble_before = self._tumble
        self._note_tumble(sig, t)
        self._note_read(die, t)
        previous = self._prev_frame
        self._prev_signature = sig
        self._prev_homography = homography
        hand = self._hand_over_dome(reading, at_edge)
        self._prev_frame = (t, die, sig, hand)
        frames = self._span_frames
        if not same_view:
            frames.clear()
        frames.append((t, die, sig, hand))
        while len(frames) > 1 and frames[1][0] <= t - TUMBLE_SPAN_S + SPAN_SLACK_S:
            frames.popleft()
        if moving:
            # A change in the dome with the die still read flat on the value
            # it rested on (a hand or a shadow passing while a peg is moved
            # beside the dome) disturbs nothing: a real pop hides the die
            # under the hand and blurs it while it tumbles.
            last = self._rest
            same_face = (
                last is not None and last.value is not None
                and die.state == "settled" and die.value == last.value
            )
            if self._still is not None and not self._still.done:
                self._resettled_unsure(self._still, t, events)
                if not same_face:
                    self._settle_cut_short(self._still, tumble_before, t, events)
            if not same_face:
                self._disturbed = True
            self._still = None
            return
        if self._still is None or not same_view:
            # A new still period; a pose change starts one too (its thumbnails
            # are not comparable with those before it). After motion, the
            # frames since the one motion is judged against already showed
            # the die lying as it lies now (they differ from this one by less
            # than the motion bar), so the period starts at the first of them:
            # at 6 fps the frame before, at 30 up to five frames sooner (the
            # sixth of a second it took to tell the die lies still).
            self._still = _Still(t, homography)
            lying = self._lying_as_now(sig, t) if same_view and previous is not None else []
            if lying:
                self._still = _Still(lying[0][0], homography)
                for when, earlier, earlier_sig, earlier_hand in lying:
                    self._still.add(earlier, earlier_sig, when, earlier_hand)
        still = self._still
        still.add(die, sig, t, hand)
        if still.done:
            if still.unread and self._late_open:
                self._read_late(still, t, events)
            return
        if t - still.since < self.settle_s:
            return
        if still.cocked_read():
            self._disturbed = True
            if not self._cocked_reported:
                self._cocked_reported = True
                events.append(DieCocked(t))
            return
        verdict = still.value_read()
        if verdict is None:
            # No value read often enough yet (glare, a dim die). Long enough,
            # and after a disturbance that left the die lying differently,
            # that is a pop whose value the referee must learn another way.
            # The clock runs only while no hand is over the board: a hand
            # resting on the dome hides the die too, and lifting it shows it.
            # A frame that reads a value waits a little longer for the vote
            # (a die that just became readable), but not for ever.
            read_now = die.state == "settled" and die.value is not None
            wait = self.unread_s + (self.settle_s if read_now else 0.0)
            if still.clear_for(t) >= wait - 1e-9:
                self._unread(still, t, events)
            return
        value_now = verdict[0]
        last = self._rest
        new_face = (
            self._disturbed and last is not None and last.value is not None and value_now != last.value
        )
        # Read on a new face, yet lying as it lay (its thumbnail within the
        # "moved" bar of the last rest): a die that changes face moves, so
        # this is likelier the old face misread than a pop. It must show
        # the hand-free frames a settle on the same face needs, and is
        # reported doubtful (``UNMOVED_FACE_CONFIDENCE``). Session 29, 16
        # fresh whole rendered games at 640x480 and 96 kept before them:
        # 3 of the 4 settles read on a new face with the die lying as it lay
        # were no pop (363: a weak 6 read as 4 under a hand's shade, and the
        # turns went one out), and 1 of about 2,500 real pops lay so.
        unmoved_face = (
            new_face and last is not None and not self._thumbnail_moved(still.mean(), still.homography)
        )
        if new_face and still.clear_count == 0 and verdict[1] < SHADED_FACE_CONFIDENCE:
            # A new face read weakly on frames all under a hand over the dome:
            # the hand's shade changes the die's look (and its thumbnail, as
            # a pop does) and can tip the face reader to a wrong face. It
            # waits for a frame with no hand, or a surer read. (Fresh
            # rendered game 1022 at 640x480: Red's 1 lay still while a hand
            # reached over the dome, read 3 at 0.03 on three frames; the 3
            # was reported as a pop, and the 1 as another when the hand had
            # gone: two pops too many, and Red's next move called "Not Red's
            # turn".)
            return
        if still.clear_count < SAME_FACE_CLEAR_FRAMES and (not new_face or unmoved_face):
            # A hand over the board may shade or hide part of the dome: how
            # the die lies is judged only on hand-free frames (two at least),
            # or a hand moving a peg beside a die that never moved would
            # count as a new pop of the same value (seen in whole rendered
            # games). They need not be consecutive: the board's hand flag
            # flickers on a few frames with no hand at all. A die disturbed
            # and read on another face than it rested on needs none: a die
            # changes face only when popped (in whole rendered games, hands
            # busy over the board hid every clear frame of many pops).
            return
        # Settled, still and read for long enough: once per still period.
        still.done = True
        value, confidence = verdict
        if unmoved_face:
            confidence = min(confidence, UNMOVED_FACE_CONFIDENCE)
        rest = still.mean()
        if self._rest is None:
            # The stream opened on a moving die: a pop if it tumbled (a noisy
            # camera's first frames, before its noise is known, are no pop).
            if self._disturbed and self._tumble >= SHORT_REST_MIN_TUMBLE:
                events.append(self._pop_settled(t, value, confidence))
                self._late_open = False
        elif self._disturbed and self._moved(rest, value, still.homography):
            events.append(self._pop_settled(t, value, confidence))
            self._late_open = False
        elif self._late_open and self._rest.value is None:
            # The die of the pop reported unread, lying as it did, read now.
            events.append(PopReadLate(t, value, confidence))
            self._late_open = False
        # Undisturbed settles re-take the reference too: after a camera nudge or
        # a change of light the dome looks different, and the die has not moved.
        self._rest = _Rest(rest, value, still.homography)
        self._disturbed = False
        self._tumble = 0.0
        self._cocked_reported = False

    def _hand_over_dome(self, reading: FrameReading, at_edge: bool) -> bool:
        """Whether a hand may shade the dome on this frame, for the die's clocks.

        Holes covered side by side (:func:`may_shade_dome`) are a hand only
        while the rim watch, where it watches, also sees something reach
        over the board's edge: a hand comes from outside the board, so its
        arm crosses the rim. Holes that read unknown with a bare rim are the
        reader's doubt, not a hand (fresh game 758 at 640x480: Red's four
        Home holes, emptied a few seconds before, read unknown on most
        frames; Blue's 5 lay in plain view for 1.2 s with no hand near, was
        never reported, and Yellow's 5 after it was given to Blue: one pop
        too few, and a right board called "does not match one move").
        """
        covered = may_shade_dome(reading, self._glints | self._steady)
        return covered and (self._edge is None or reading.edge is None or at_edge)

    def _motion_bar(self) -> float:
        """The change between frames above which the die is moving:
        ``motion_threshold``, or ``NOISE_FACTOR`` times the camera's own
        noise where that is higher (the "lies differently" bars of
        :meth:`_moved` rise by the same ratio). The noise is a low percentile
        (``NOISE_PERCENTILE``) of the recent changes: the die lies still most
        of the time, and a tumble, a hand or a cocked die flickering only
        raise the upper ones (a stream that opens on a pop has too few
        changes yet, and keeps the fixed bar). In 2 of 20 fresh
        whole rendered games at 640x480 a noisy sensor changed a still dome
        by 0.10-0.12 on every frame: the die was never still, and a pop read
        on 22 frames was never reported."""
        return self.motion_threshold * self._noise_ratio()

    def _noise_ratio(self) -> float:
        """How many times the fixed bars the camera's noise asks for (1 at the least)."""
        changes = self._changes
        if len(changes) < NOISE_MIN_FRAMES:
            return 1.0
        floor = float(np.percentile(changes, NOISE_PERCENTILE))
        return max(1.0, NOISE_FACTOR * floor / self.motion_threshold)

    def _settle_cut_short(self, still: _Still, tumble: float, t: float, events: list[VisionEvent]) -> None:
        """The die is disturbed again before the still period it lay in was
        reported: report it now if it was a pop's settle by every sign but the
        third hand-free frame. That is: a real tumble before it
        (``SHORT_REST_MIN_TUMBLE``), a value read, two hand-free frames, the die
        lying differently from its last rest, and that rest not read (so "the
        same face" cannot be claimed; a settle on a face read before still
        needs its three frames, see ``SAME_FACE_CLEAR_FRAMES``). In a fresh
        whole rendered game at 640x480 the hand flag stood over most frames;
        Yellow's 5, after Blue's unread pop, lay read for 1.3 s with two
        hand-free frames, then Green popped: the pop went unreported, and
        every turn after it was one out.

        After a pop reported unread whose die has not been read since, a
        value read is a pop of its own only if it lay ``UNREAD_CUT_SHORT_S``
        or more: a hand's shade across the dome changes its thumbnail as a
        tumble does, and the unread die, read at last for a third of a
        second, was reported as the next player's pop (fresh whole game seed
        251 at 640x480: "That peg moved 3 spaces, but the pop was 2").

        A still period that read no value is reported as a pop not read when
        it lasted ``UNREAD_CUT_SHORT_S`` or more, with those two hand-free
        frames, lying differently from the last rest: in a fresh whole
        rendered game at 640x480, Blue's 1, a faint digit, lay unread for
        3.3 s while Blue's hand moved a peg (two hand-free frames), then Red
        popped; neither Blue's pop nor its move fitted the turns after that,
        and a move was called."""
        last = self._rest
        if not self._disturbed or tumble < SHORT_REST_MIN_TUMBLE or still.clear_count < 2 or last is None:
            return
        verdict = still.value_read()
        if verdict is None:
            if t - still.since >= UNREAD_CUT_SHORT_S and not still.cocked_read():
                self._unread(still, t, events)
                self._late_open = False  # the die is moving again: no late read of this rest
                self._tumble = self._tumble_now
            return
        if last.value is not None or t - still.since < self.settle_s:
            return
        if self._late_open and t - still.since < UNREAD_CUT_SHORT_S:
            return
        if not self._moved(still.mean(), verdict[0], still.homography):
            return
        value, confidence = verdict
        events.append(self._pop_settled(t, value, confidence))
        self._late_open = False
        self._rest = _Rest(still.mean(), value, still.homography)
        self._tumble = self._tumble_now  # this frame's change begins the next disturbance
        self._cocked_reported = False

    def _resettled_unsure(self, still: _Still, t: float, events: list[VisionEvent]) -> None:
        """A still period on the face the die rested on, after a disturbance,
        ended by motion before it showed the hand-free frames a pop of the
        same value needs (``SAME_FACE_CLEAR_FRAMES``): a pop of that value
        made under a hand, or a hand passing beside the dome, which the
        camera cannot tell apart. Reported as :class:`DieResettled`, never
        as a pop. (In 64 kept whole rendered games at 640x480: 204 such
        reports, 4 of them a pop the stream missed.)"""
        verdict = still.value_read()
        last = self._rest
        if (self._disturbed and last is not None and verdict is not None and verdict[0] == last.value
                and t - still.since >= self.settle_s and still.clear_count < SAME_FACE_CLEAR_FRAMES):
            events.append(DieResettled(t, verdict[0]))

    def _note_read(self, die: DieReading, t: float) -> None:
        """Keep when the die was last read on a value, and the longest stretch
        without one since the last pop reported."""
        if die.state == "settled" and die.value is not None:
            self._blind_s = max(self._blind_s, t - self._read_at)
            self._read_at = t

    def _pop_settled(self, t: float, value: int, confidence: float) -> PopSettled:
        blind, self._blind_s = max(self._blind_s, t - self._read_at), 0.0
        return PopSettled(t, value, confidence, round(blind, 3))

    def _lying_as_now(self, sig: np.ndarray, t: float) -> list[_Frame]:
        """The frames before this one, back to the one motion is judged
        against (:meth:`_span_reference`), in which the die lay as it does
        now (within the motion bar of *sig*, each and every one since),
        oldest first."""
        reference = self._span_reference(t)
        bar = self._motion_bar()
        lying: list[_Frame] = []
        for frame in reversed(self._span_frames):
            if frame[0] >= t:
                continue  # this frame itself
            if (reference is not None and frame[0] < reference[0]) or signature_distance(sig, frame[2]) > bar:
                break
            lying.append(frame)
        return lying[::-1]

    def _span_reference(self, t: float) -> _Frame | None:
        """The frame motion is judged against: the latest before *t* at least
        ``TUMBLE_SPAN_S`` before it (within ``SPAN_SLACK_S``), under the same
        pose, or the earliest kept. At the 6 fps the bars were measured on
        that is the frame before; at a webcam's 30, the fifth before, so a
        die rolling slowly across several frames still moves by the bar
        (consecutive frames of such a roll can each stay under it)."""
        limit = t - TUMBLE_SPAN_S + SPAN_SLACK_S
        earlier = [frame for frame in self._span_frames if frame[0] < t]
        reference = earlier[0] if earlier else None
        for frame in earlier:
            if frame[0] > limit:
                break
            reference = frame
        return reference

    def _note_tumble(self, sig: np.ndarray, t: float) -> None:
        """Keep the largest change of the dome over ``TUMBLE_SPAN_S`` since the
        die last lay still: frames that far apart, whatever the camera's rate
        (at 6 frames a second, consecutive ones; at 30, every fifth), so the
        bar measured on 6 fps video holds for a webcam's 30."""
        recent = self._recent
        recent.append((t, sig))
        while len(recent) > 1 and recent[1][0] <= t - TUMBLE_SPAN_S + 1e-9:
            recent.popleft()
        self._tumble_now = signature_distance(sig, recent[0][1]) if len(recent) > 1 else 0.0
        self._tumble = max(self._tumble, self._tumble_now)

    def _unread(self, still: _Still, t: float, events: list[VisionEvent]) -> None:
        """Close a still period in which no value could be read."""
        still.done = True
        rest = still.mean()
        if (self._disturbed and self._tumble >= UNREAD_MIN_TUMBLE
                and (self._rest is None or self._moved(rest, None, still.homography))):
            events.append(PopUnread(t, faceless=still.faceless()))
            # A pop seen, if not read: a stretch without a read starts again from it.
            self._read_at, self._blind_s = t, 0.0
            still.unread = True
            self._late_open = True
        # The unread rest is the new reference (value unknown): the next pop
        # must lie differently from *this*, not from the last read one.
        self._rest = _Rest(rest, None, still.homography)
        self._disturbed = False
        self._tumble = 0.0
        self._cocked_reported = False

    def _read_late(self, still: _Still, t: float, events: list[VisionEvent]) -> None:
        """The still period that reported a pop unread reads a value after all."""
        verdict = still.value_read()
        if verdict is None or still.clear_count < 2:
            return
        value, confidence = verdict
        events.append(PopReadLate(t, value, confidence))
        self._late_open = False
        if self._rest is not None:
            self._rest = _Rest(self._rest.signature, value, self._rest.homography)

    def _moved(self, rest: np.ndarray, value: int | None, homography: np.ndarray | None) -> bool:
        """Whether the die now lies differently from the last reference rest."""
        assert self._rest is not None
        if value is not None and self._rest.value is not None and value != self._rest.value:
            # Read on another face: a die changes face only when popped. (A
            # small die that landed where it lay changes the thumbnail less
            # than ``moved_threshold``: in a fresh whole rendered game at
            # 640x480, Green's 1 after a 2, read on six frames, went unreported.)
            return True
        return self._thumbnail_moved(rest, homography)

    def _thumbnail_moved(self, rest: np.ndarray, homography: np.ndarray | None) -> bool:
        """Whether the averaged thumbnail *rest* differs from the last
        reference rest's by the "moved" bar (whatever the value read)."""
        assert self._rest is not None
        # The bars rise with a noisy camera's noise, as the motion bar does.
        distance = signature_distance(rest, self._rest.signature) / self._noise_ratio()
        if _same_pose(homography, self._rest.homography):
            return distance > self.moved_threshold
        # The camera moved since the reference: the thumbnails differ by the
        # re-located pose alone (measured: 0.078 for a nudge), so ask for more.
        return distance > self.moved_across_poses_threshold


#: A pop reported unread needs a tumble: two frames of the dome ``TUMBLE_SPAN_S``
#: apart, at least this far apart, since the die last lay still. With no value read, how the die
#: lies is all that tells a pop from a hand shading the dome on its way past
#: (a fresh whole rendered game at 640x480: two such shadows, 0.11 and 0.23,
#: reported as pops nobody made, and the turns went out of step). The real
#: pops of 47 whole rendered games (9,179, at 640x480 and 1280x720) changed
#: the dome by 0.36 at the least, and the bar was 0.3 until session 44. But
#: a die small and dim in the frame changes the dome less: in fresh game 872
#: at 640x480 25 pops left unread in plain view tumbled 0.255-0.298 and went
#: unreported (the turns one out, a bring-out called "Not Yellow's turn"),
#: and 764 lost two so (0.290, 0.294). Over 79 kept games (session 44) the
#: unread rests that tumbled 0.2-0.3 were 28 such pops (0.255 and up) and 106
#: no pops: 104 lying as the die had lain (the "moved" test turns them down,
#: whatever the tumble), a die that landed cocked and was tapped (872, 0.297:
#: a real tumble) and seed 106's hand shadow, at 0.234. The bar lies midway
#: between the shadow and the pops, for a rest that lay hand-free for the
#: whole unread wait; a rest cut short by the next disturbance keeps the old
#: one (``SHORT_REST_MIN_TUMBLE``).
UNREAD_MIN_TUMBLE = 0.245
#: The tumble a settle needs where the rest is judged on less: cut short by
#: the next disturbance with two hand-free frames (:meth:`VisionStream._settle_cut_short`),
#: or the stream's first, before the camera's noise is known. In fresh game
#: 770 a hand's shade over an unread die changed the dome by 0.281 and stayed
#: 1.3 s, with two frames the hand flag missed: a pop nobody made under the lower bar.
SHORT_REST_MIN_TUMBLE = 0.3
#: A still period that read no value and is cut short by the next
#: disturbance is a pop not read if it lasted this long (with two hand-free
#: frames); one that read a value after an unread pop's rest is a pop only if
#: it lasted this long: see :meth:`VisionStream._settle_cut_short`.
UNREAD_CUT_SHORT_S = 1.0
#: The span over which that change is measured: the frame interval of the
#: 6 fps games it was measured on. Motion is judged over it too
#: (:meth:`VisionStream._span_reference`), give or take ``SPAN_SLACK_S`` (frame
#: times are rounded to the millisecond in kept readings, and jitter live).
TUMBLE_SPAN_S = 1 / 6
SPAN_SLACK_S = TUMBLE_SPAN_S / 10

#: How many of the dome's frame-to-frame changes the camera's noise is taken
#: from, how many it needs, which percentile of them it is, and how far above
#: that noise a change must be to be motion (:meth:`VisionStream._motion_bar`).
#: Over 20 fresh whole rendered games at 640x480 a still dome's changes lie
#: within 1.15 times their median (99th percentile); every one of 4,060
#: tumbles changed it by 0.36 or more on some frame. Twelve changes (two
#: seconds at 6 fps) are enough: a pop's tumble spans a few frames, and the
#: percentile of twelve is the second quietest. At thirty (session 18) a noisy
#: camera's first five seconds were all "motion", and a fresh game at 640x480
#: (seed 160) lost its first two pops, the turns one out for the rest of it.
NOISE_FRAMES = 60
NOISE_MIN_FRAMES = 12
NOISE_PERCENTILE = 10
NOISE_FACTOR = 1.5

#: The most a settle's value is reported sure when the die went unread in
#: plain view on as many of its frames as it was read (:meth:`_Still.value_read`).
MOSTLY_UNREAD_CONFIDENCE = 0.9

#: An unread rest is *faceless* (:class:`PopUnread`) when the face reader's
#: best probability on its hand-free frames is under this at the median: the
#: face a cocked die shows the camera is a tilted one the reader barely takes
#: for a face, while a flat die left unread under glare or small in the frame
#: is mostly read nearly sure of its value, not sure enough. Session 45, the
#: unread rests reported in 115 kept whole rendered games at 640x480: 115 of
#: 164 cocked dice faceless, 663 of 4,930 flat ones; of those the next pop
#: followed 1.5-1.7 s later (a cocked die's tap, or the next player's pop),
#: all 9 cocked and none of the 41 flat.
FACELESS_BELOW = 0.62

#: Hand-free frames a still die must show before a settle on the face it
#: already lay on counts as a pop: a hand reaching for the dome shades it
#: (the thumbnail changes, the die still reads its old value), and with two
#: such frames, just before the real pop, the shaded die was reported as a
#: pop of the same value in a whole rendered game, putting the turns one out.
SAME_FACE_CLEAR_FRAMES = 3

#: The most a settle is reported sure when it reads a new face with the die
#: lying as it lay (see :meth:`VisionStream._die`): under the loop's
#: ``PHANTOM_READ``, so a move that does not fit it is asked about, not called.
UNMOVED_FACE_CONFIDENCE = 0.5

#: A new face read under this confidence with a hand over the dome on every
#: frame of its rest is not yet a pop (see :meth:`VisionStream._die`).
SHADED_FACE_CONFIDENCE = 0.5

#: Seconds of frames over which a hole's share of unknown reads is counted,
#: and the shares between which an unknown hole is taken for a glint's
#: (:meth:`VisionStream._glints_read_by_count`).
GLINT_WINDOW_S = 10.0
GLINT_MIN_SHARE = 0.5
GLINT_MAX_SHARE = 0.9
#: What a hole can be read as when it is read at all (the colours, in ``COLORS``'s order, and empty).
KNOWN_STATES: tuple[HoleState, ...] = ("red", "blue", "yellow", "green", "empty")
#: A glint hole read as one colour only, on at least this many frames of the
#: window, is read as that colour's peg (:meth:`VisionStream._glint_state`).
GLINT_KNOWN_MIN = 2

#: A peg read less surely than this (the pegs reader gives 0.3 to a peg seen
#: only by a weak top colour, 0.2 to one seen only by its body) is doubtful.
DOUBTFUL_CONFIDENCE = 0.35
#: A peg missing from complete frames for longer than this has gone: a later
#: sighting starts its run again (a frame or two of flicker does not).
DOUBT_GAP_S = 0.4
#: A doubtful peg whose colour was read with it one hole over this recently
#: does not stand (``VisionStream._note_rivals``): a peg read on two holes by
#: turns, on frames alike but for noise, in runs of up to 3.8 s (game 1195).
RIVAL_HOLD_S = 5.0


def may_shade_dome(reading: FrameReading, glints: frozenset[str] = frozenset()) -> bool:
    """Whether what covers the board could be a hand over the dome.

    The die's clocks pause under a hand (it may shade or hide the die). One
    unknown hole out on the track or in a Home, with nothing else covered,
    is a blemish (a cap washed out by glare, read neither peg nor empty),
    not a hand reaching for the dome: that crosses the track ring and the
    holes around the dome on its way. In whole rendered game seed 7 such a
    lone glare-washed peg flagged most frames of three pops as "hand", so
    none of them had the hand-free frames a pop needs, and the referee lost
    the turn order. Holes a glint keeps unknown (*glints*, see
    :meth:`VisionStream._glints_read_by_count`) are no hand either, nor
    are holes unknown here and there with none beside another.
    """
    if not reading.hand:
        return False
    unknown = [h.hole for h in reading.holes if h.state == "unknown" and h.hole not in glints]
    if not unknown:
        return not any(h.state == "unknown" for h in reading.holes)
    # A hand covers holes side by side (its path from the board's edge to the
    # dome); holes unknown one here, one there, none beside another and none
    # of the two Finish holes nearest the dome, are blemishes (fresh whole
    # game seed 191 at 640x480: a Home hole of Yellow's, one of Green's and
    # Blue's Finish 2 washed out for seconds, and Yellow's second 6, read on
    # every frame, never had the hand-free frames a same-face pop needs).
    near_dome = any(hole.endswith((":finish:3", ":finish:4")) for hole in unknown)
    return near_dome or not _scattered(unknown)


def _neighbours(hole: str) -> set[str]:
    """The holes printed beside *hole* (by name: the next and previous on the
    track or in a Finish; the other holes of a Home; a Finish's first hole
    and the track space it is entered from; a Home and its colour's Start)."""
    parts = hole.split(":")
    if parts[0] == "track":
        n = int(parts[1]) - 1  # 0-based, as the rules count the track
        out = {f"track:{(n - 1) % TRACK_SPACES + 1}", f"track:{(n + 1) % TRACK_SPACES + 1}"}
        for colour, start in zip(COLORS, START, strict=True):
            if n == start:
                out |= {f"{colour}:home:{k}" for k in range(1, PEGS_PER_COLOR + 1)}
            if n == (start - 1) % TRACK_SPACES:
                out.add(f"{colour}:finish:1")
        return out
    colour, kind, k = parts[0], parts[1], int(parts[2])
    start = START[COLORS.index(colour)]
    if kind == "home":
        # A Home's holes sit in one small cluster: each is beside the others
        # (a benchmark game at 1280x720: a hand over Red's Home left its
        # holes 2 and 4 unknown, and its shadow on the dome was a pop).
        return {f"{colour}:home:{j}" for j in range(1, PEGS_PER_COLOR + 1) if j != k} | {f"track:{start + 1}"}
    out = {f"{colour}:finish:{j}" for j in (k - 1, k + 1) if 1 <= j <= FINISH_SPACES}
    if k == 1:
        out.add(f"track:{(start - 1) % TRACK_SPACES + 1}")
    return out


def _scattered(holes: list[str]) -> bool:
    """Whether no two of *holes* are printed side by side."""
    chosen = set(holes)
    return all(not (_neighbours(hole) & chosen) for hole in holes)


def peg_at(hole: str, state: str) -> tuple[str, str]:
    """The (colour, place) a peg of colour *state* in layout hole *hole* is,
    in the referee's place names (``green:finish:2`` -> ``("green", "finish:2")``,
    ``red:home:3`` -> ``("red", "home")``, ``track:12`` -> ``(state, "track:12")``).

    >>> peg_at("green:finish:2", "green")
    ('green', 'finish:2')
    >>> peg_at("blue:home:1", "blue")
    ('blue', 'home')
    >>> peg_at("track:12", "red")
    ('red', 'track:12')
    """
    parts = hole.split(":")
    if parts[0] == "track":
        return state, hole
    if parts[1] == "home":
        return state, "home"
    return state, f"{parts[1]}:{parts[2]}"


def _one_hole_over(colour: str, place: str, before: Sequence[str], now: Sequence[str]) -> bool:
    """Whether *colour*'s pegs read *now* are those read *before* with the one
    on *place* moved to a hole printed beside it.

    >>> _one_hole_over("yellow", "finish:3", ("home", "finish:2", "finish:3"), ("home", "finish:2", "finish:4"))
    True
    >>> _one_hole_over("yellow", "finish:3", ("home", "finish:2", "finish:3"), ("home", "finish:4"))
    False
    >>> _one_hole_over("red", "track:5", ("track:5",), ("track:9",))
    False
    """
    rest = list(before)
    if place not in rest:
        return False
    rest.remove(place)
    added = list(now)
    for other in rest:
        if other not in added:
            return False
        added.remove(other)
    beside = _neighbours(_hole_of(colour, place))
    return len(added) == 1 and _hole_of(colour, added[0]) in beside


def _hole_of(colour: str, place: str) -> str:
    """The layout hole of *colour*'s peg on *place* off its Home
    (the inverse of :func:`peg_at`): ``track:12``, ``green:finish:2``."""
    return place if place.startswith("track:") else f"{colour}:{place}"


def new_doubtful_pegs(reading: FrameReading,
                      reported: Mapping[str, tuple[str, ...]] | None,
                      doubted: Collection[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """The pegs of *reading* read doubtfully that the *reported* position lacks.

    A doubtful peg the referee already has (a peg half hidden behind another
    for a whole game) changes nothing; only a change that rests on one does.
    A peg in *doubted* (read doubtfully on an earlier frame of its run of
    sightings) is doubtful however surely this frame reads it: a peg held in
    a hand just over a Finish hole read there at 0.3 for three frames and at
    0.52 on the fourth, and the position with it was reported, half a second
    before the peg was put in the next hole (whole rendered game 236 at
    640x480: "That peg moved 4 spaces, but the pop was 3").
    """
    had: dict[tuple[str, str], int] = {}
    for colour, places in (reported or {}).items():
        for place in places:
            had[(colour, place)] = had.get((colour, place), 0) + 1
    sure: dict[tuple[str, str], int] = {}
    doubtful: list[tuple[str, str]] = []
    for h in reading.holes:
        if h.state in ("empty", "unknown"):
            continue
        peg = peg_at(h.hole, h.state)
        if h.confidence < DOUBTFUL_CONFIDENCE or peg in doubted:
            doubtful.append(peg)
        else:
            sure[peg] = sure.get(peg, 0) + 1
    new = []
    for peg in doubtful:
        if peg[1] == "home":
            # Pegs in their own Home, on print of their own colour, often read
            # weakly for whole games (yellow on yellow), and a phantom there
            # costs no false call: a peg seen back in Home is asked about.
            continue
        if sure.get(peg, 0) < had.get(peg, 0):
            sure[peg] = sure.get(peg, 0) + 1  # one the referee already had
        else:
            new.append(peg)
    return new


def _same_pose(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a is b or np.array_equal(a, b)


#: A frame as the die's clocks keep it: (time, die reading, dome thumbnail, hand over the dome).
_Frame = tuple[float, DieReading, np.ndarray, bool]


@dataclass
class _Rest:
    """How the die lay at the last settle: averaged thumbnail, value, pose."""

    signature: np.ndarray
    value: int | None  # None: the die could not be read at that settle
    homography: np.ndarray | None


class _Still:
    """A stretch of frames with a still dome thumbnail under one pose."""

    def __init__(self, since: float, homography: np.ndarray | None) -> None:
        self.since = since
        self.homography = homography
        self.done = False
        #: This still period was closed as a pop that could not be read.
        self.unread = False
        self.sum: np.ndarray | None = None
        self.count = 0
        self.cocked = 0
        self.values: dict[int, list[float]] = {}
        #: The face reader's best probability on each hand-free frame on which
        #: the die could not be read (``hidden`` in plain view).
        self.failed_confidence: list[float] = []
        #: Since when no hand has been seen over the board (None: one is now).
        self.clear_since: float | None = None
        #: The first hand-free frame, and the hand frames since it.
        self.first_clear: float | None = None
        self.hand_count = 0
        #: The hand-free frames' thumbnails (a hand may shade the dome).
        self.clear_sum: np.ndarray | None = None
        self.clear_count = 0

    def add(self, die: DieReading, sig: np.ndarray, t: float, hand: bool) -> None:
        sig32 = sig.astype(np.float32)
        if hand:
            self.clear_since = None
            if self.first_clear is not None:
                self.hand_count += 1
        else:
            if self.clear_since is None:
                self.clear_since = t
            if self.first_clear is None:
                self.first_clear = t
            self.clear_sum = sig32 if self.clear_sum is None else self.clear_sum + sig32
            self.clear_count += 1
        self.sum = sig32 if self.sum is None else self.sum + sig32
        self.count += 1
        if die.state == "cocked":
            self.cocked += 1
        elif die.state == "settled" and die.value is not None:
            self.values.setdefault(die.value, []).append(die.confidence)
        elif not hand:
            self.failed_confidence.append(die.confidence)

    def clear_for(self, t: float) -> float:
        """For how long the board has been clear of hands, as far as the unread
        clock is concerned: since the last hand frame, or, when the hand flag
        only flickers (hand-free frames at least three and at least as many as
        hand frames since the first of them: seen in whole rendered games on
        boards with no hand at all), since the first hand-free frame."""
        if self.clear_since is not None and self.hand_count == 0:
            return t - self.clear_since
        steady = self.clear_since is not None
        flicker = self.first_clear is not None and self.clear_count >= 3 and self.clear_count >= self.hand_count
        since = self.first_clear if flicker else self.clear_since
        if since is None or not (steady or flicker):
            return 0.0
        return t - since

    def mean(self) -> np.ndarray:
        """The averaged thumbnail: over the hand-free frames, if any."""
        if self.clear_sum is not None:
            return self.clear_sum / max(self.clear_count, 1)
        assert self.sum is not None
        return self.sum / max(self.count, 1)

    @property
    def failed(self) -> int:
        """Hand-free frames on which the die could not be read."""
        return len(self.failed_confidence)

    def faceless(self) -> bool:
        """Whether the die, unread in plain view on at least two frames, showed
        the face reader no face it half believed (the median of its best
        probabilities under ``FACELESS_BELOW``)."""
        seen = self.failed_confidence
        return len(seen) >= 2 and float(np.median(seen)) < FACELESS_BELOW

    def _best(self) -> tuple[int, list[float]] | None:
        return max(self.values.items(), key=lambda kv: len(kv[1]), default=None)

    def cocked_read(self) -> bool:
        """The die was read leaning at least twice and as often as any value."""
        best = self._best()
        return self.cocked >= 2 and self.cocked >= (len(best[1]) if best is not None else 0)

    def value_read(self) -> tuple[int, float] | None:
        """``(value, confidence)`` once one value was read at least twice and
        at least twice as often as everything else together (other values,
        cocked); None while the reads do not agree. ``hidden`` reads vote for
        nothing: in a still dome they are failed reads (glare, a dim die).

        The confidence is the least of the agreeing reads', but no more than
        ``MOSTLY_UNREAD_CONFIDENCE`` when the die failed to read in plain
        view on as many frames as it read the value: what tipped a marginal
        die into a value may as well have tipped it into the wrong one (fresh
        whole rendered game seed 157 at 640x480: a small 3 read nothing on
        three hand-free frames, then 2 at 1.00 on two, and Blue's right move
        was called "moved 3 spaces, but the pop was 2"). The referee takes
        such a pop for a possible misread (``Loop._weak_read_misread``)."""
        best = self._best()
        if best is None:
            return None
        n_best = len(best[1])
        others = sum(len(v) for v in self.values.values()) - n_best
        if n_best < 2 or n_best < 2 * (others + self.cocked):
            return None
        confidence = min(best[1])
        if self.failed >= n_best:
            confidence = min(confidence, MOSTLY_UNREAD_CONFIDENCE)
        return best[0], confidence
