"""The live referee loop: observations in, referee inputs and announcements out.

The loop stands between what the camera and microphone report and the
headless referee (issue 2), and adds what a real table needs:

* a move counts only when the board is stable after it (the vision stream
  reports only stable boards); a board equal to the game's position is
  nothing, so lifting a peg and putting it back says nothing;
* a board with pegs missing is never called illegal: a peg bumped and not yet
  back in its Home is counted as Home (the referee has already sent it there)
  and its owner is reminded after a while; any other missing peg is asked for;
* an illegal move is announced once, with its reason, and the loop waits for
  the board to be put back or changed into a legal move; the same wrong board
  seen again is not announced again (no nagging);
* a pop settled while the previous move is still under way is held and
  delivered when the referee is ready for it;
* a pop the camera saw but could not read (``PopUnread``) keeps the loop in
  step: its value is taken from the players' word, or from the move that
  follows when exactly one value explains it, or (no peg moved before the
  next pop) from the only value that gives no move; when several values
  remain, the turn passes with ``skip`` if the value cannot matter, and
  otherwise the loop asks once. While it does not know, it never calls a
  move illegal that a value could explain;
* a move changed after it was accepted (the player let go, then changed their
  mind) is taken back and the final position counts, as long as nobody has
  popped since;
* voice corrections act on the referee (see :mod:`companion.live.corrections`);
* a lost camera or board gets one clear message and is waited for.

Every input fed to the referee is recorded (``Recorder``) before its events
are spoken, so a crash never loses an announced event.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from companion.live import boards
from companion.live.catch_up import (
    HISTORY_POPS,
    HISTORY_UNREAD,
    MAX_POPS,
    MAX_UNREAD,
    Step,
    leftover_fits,
    no_way,
    only_way,
    pegs_misread_home,
    pips_needed,
    several_ways,
    some_history,
    turns_along,
    who_moved,
    whose_turn_then,
)
from companion.live.observations import (
    BoardFound,
    BoardLost,
    BoardStable,
    BoardUnclear,
    BoardUnsettled,
    CameraBack,
    CameraLost,
    DieCocked,
    DieResettled,
    Observation,
    PopReadLate,
    PopSettled,
    PopUnread,
    Spoken,
    Tick,
)
from companion.live.ports import Recorder, RecordItem, Speaker
from companion.live.referee_view import LiveReferee, RefereeView
from companion.referee.board_diff import Reading, Seen, read_board
from companion.referee.inputs import InputError, parse_board
from companion.rules import (
    Move,
    Options,
    Phase,
    RulesError,
    State,
    legal_moves,
    lose_move,
    new_game,
)
from companion.rules import apply as apply_move
from companion.rules import pop as rules_pop
from companion.rules.board import COLORS, HOME

if TYPE_CHECKING:
    from companion.live.corrections import HeldNumber

#: The camera is taken as blind to the die (see ``Loop._die_blind``) when at
#: least ``DIE_BLIND_SHARE`` of the last ``DIE_BLIND_OF`` pops (and at least
#: ``DIE_BLIND_MIN`` of them) were not read.
DIE_BLIND_OF = 8
DIE_BLIND_MIN = 3
DIE_BLIND_SHARE = 0.75
#: Said once when the camera turns blind to the die. The players may keep
#: the referee strict by saying each number (a number said as the die
#: settles is that pop, whatever the camera makes of it); otherwise the
#: pops are worked out from the moves, and a wrong count on one is not seen.
DIE_BLIND_SAID = ("I cannot read the die from here. Say each number as you pop it, "
                  "or I will work the pops out from your moves.")
#: A board needing more pips than this beyond the pops seen is taken as pops
#: the camera never saw (``Loop._pops_missed``), not as a wrong move: more than
#: a whole pop beyond, so a miscount or a peg moved without a 6 is still called.
MISSED_PIPS = 6
#: A board showing the mover's peg more than ``TRANSIT_PIPS`` pips from its
#: place (two pops' worth: no miscount puts it there; a peg still in the hand,
#: read over another hole, does) is judged only after ``TRANSIT_HOLD_S``.
TRANSIT_HOLD_S = 3.0
TRANSIT_PIPS = 12
#: Any other board no move explains is judged once it has stood this long,
#: unless play has gone on (a pop since): a peg carried in a hand the reader
#: does not see is read seated on its way for about a second (fresh whole
#: rendered games at 640x480 and 1280x720: "That peg moved 8 spaces, but the
#: pop was 4" five times in one game while the peg was in the air), and a peg
#: misread for a moment is no move. A wrong count is called this much later.
CALL_HOLD_S = 1.5
#: The same while the mover's pop is unread: more than a 6 counted one too far.
UNREAD_TRANSIT_PIPS = 7
#: A catch-up's board, or a turn passed because no peg moved after an unread
#: pop, that has stood this long is no longer taken back for a move of the
#: player now to pop (their pop unseen). Chosen on seeded truth games 100-299
#: with unread pops (false calls 36 -> 25 and 83 -> 70 at a tenth and three
#: tenths unread; the same at 0-4 s, nothing gained from 5 s).
CAUGHT_UP_OPEN_S = 4.0
#: Slack in comparing game times with the waits above (sums of floating
#: seconds are off in the last digits).
TIME_SLACK_S = 1e-5
#: A catch-up with guessed values stays open to being taken back across the
#: next pop if that pop comes within this many seconds of it: a wrong count
#: is put right within moments, often as the next player pops (and whose pop
#: that is can depend on the values guessed: a guessed 6 gives the mover
#: another). Later, play has gone on and the catch-up stands, so a wrong count
#: on that pop is called. Chosen on seeded truth games 100-299 (false calls
#: 11 -> 2 and 16 -> 8 at a tenth and three tenths unread; 1 s and 2 s the
#: same; 4 s let a later wrong count take the catch-up back instead of being
#: called).
CAUGHT_UP_POP_S = 2.0
#: While lost, a move whose board came this soon after the last pop settled
#: does not say whose turn it was: that pop may be the next player's, popped
#: early, or the mover's extra pop after a 6, and the move the pop's before
#: it. Chosen on seeded truth games 100-299 with unread pops: false calls at
#: a tenth and three tenths unread 18 and 34 before, 11 and 16 after (with
#: session 11's other loop change; seeds 300-899: 27 and 112 before, 20 and
#: 70 after). 0.5 s: 11 and 17, but 94 on 300-899 at three tenths; 2 s: 12,
#: but 1241 illegal moves missed instead of 836 (a move often comes 1-2 s
#: after its pop).
EARLY_POP_S = 1.0
#: Pops seen while the opening position was never read, with two different
#: boards with pegs out described, after which the game is taken as started
#: without the referee and followed from the board.
STARTED_POPS = 3
#: Seconds from the start of looking for the board to its opening position
#: read at last, with pops seen meanwhile, after which how many pops went
#: unseen is unknown: the turn is learnt from the first move the loop can
#: follow, not counted from the pops seen (``Loop._opening``). Session 28:
#: a fresh whole rendered game at 640x480 (seed 353), a small dark board
#: read only after 11 s, four pops made meanwhile and one seen, given to
#: Red; every turn after it was one player out, and Yellow's peg brought
#: out called "Not Yellow's turn". Of 80 fresh games, 7 were read this late
#: with pops held; none had its first events right as counted.
OPENING_BLIND_S = 5.0
#: "I have lost track" is said at most once in this many seconds.
LOST_SAID_QUIET_S = 120.0
#: Referee events spoken ahead of routine ones.
URGENT_EVENTS = frozenset({"illegal", "bump"})
#: Seconds without a board that agrees with the game after which a board no
#: way of playing the pops seen explains is taken as lost track, not called:
#: in a whole rendered game the board went unread for 45 s while most pops
#: went unseen, and the board then differed in nine pegs.
LONG_UNSEEN_S = 30.0
#: A pop read under this confidence, that another value makes the board one
#: legal move for, is taken for a misread, not a miscount (``Loop._weak_read_misread``).
#: 0.997, not 0.99 (session 25): pops read in 84 whole rendered games at
#: 640x480 (64 fresh), against the truth: 0.99-0.997 1,367 right and 3 wrong
#: (at 0.99, 0.992 and 0.995, each a false call), 0.997-0.999 1,055 and 1,
#: over 0.999 7,538 and none. 0.999 left half again as many wrong counts
#: uncalled when nobody answered the question.
WEAK_READ = 0.997
#: A 2 or a 4 is what a 3 or a 5 looks like with its centre pip washed out
#: (the die reader's ``centreless`` values): read under this confidence,
#: with the move one space longer, it is taken for that misread too
#: (``Loop._read_weakly``). Session 28: a fresh whole rendered game at
#: 640x480 (seed 348), Red's 5 read as 4 at 0.998 on every frame of its
#: rest, and "That peg moved 5 spaces, but the pop was 4". Narrower than
#: ``WEAK_READ`` 0.999 for every value, which left half again as many
#: wrong counts uncalled (session 25).
CENTRELESS_READ = 0.999
CENTRELESS_VALUES = frozenset({2, 4})
#: Seconds of following the board (lost track, or an opening read late)
#: after which the loop says once how the players can tell it the turn: a
#: table that plays faster than the camera sees single moves can leave it
#: silent for minutes (fresh seeds 345 and 353 at 640x480, session 28).
FOLLOW_HELP_S = 60.0
#: Seconds after which that is said again while the loop still follows the
#: board and the table has popped meanwhile (`--illegal` game 23 at 640x480,
#: session 46: said once at 75 s, then seven minutes of a game played on
#: with nothing else said of it). Not while nobody pops: no nagging an idle table.
FOLLOW_HELP_AGAIN_S = 180.0
#: Seconds a board lacking a peg of the player to act counts as that peg
#: in the hand, its move on the way (``Loop._peg_in_hand``).
PEG_IN_HAND_S = 5.0
#: Pops held after an unread one, each seen with the board still as the game
#: has it, after which a move is not the unread pop's (``Loop._still_through_later_pops``).
STILL_THROUGH_POPS = 2
#: A pop read under this confidence (the die reader's own doubt, under every
#: cap it puts on a weak read) with a surer pop held after it that the
#: mover's move fits is taken back as no pop (``Loop._echo_pop``).
PHANTOM_READ = 0.9
#: The die's re-settles under a hand the loop remembers (``Loop.resettled``).
MAX_RESETTLED = 8
#: The confidence a pop read only after it was reported unread counts with
#: (``Loop._on_late_read``): a weak read, whatever the die reader said.
LATE_READ_CONFIDENCE = 0.5
#: While the board is still not read whole, "I cannot read every hole" is
#: said again this often (seconds), shorter.
UNCLEAR_AGAIN_S = 120.0
UNCLEAR_AGAIN_SAID = "I still cannot read every hole. Bring the camera closer, or give the board more light."
#: A pop reported unread and then read late (:class:`PopReadLate`) under
#: this confidence stays unread: the move tells its value, or the players
#: do. Over the fresh whole games 776-839 at 640x480 (session 42), 2 of the
#: 6 late reads under it were wrong (a 2 read as a 5 at 0.086, a 4 as a 5
#: at 0.39), each announced ("Blue popped 5, I think.") a moment before the
#: move showed otherwise; 2 of the 250 at it or over. (Pops read under it
#: when they settled, 4 of 25 wrong, are still taken, doubted: the echo of
#: a pop before, read again under a hand, is told apart only so,
#: ``Loop._echo_pop``.)
NO_READ_BELOW = 0.6
#: The confidence of a number said for an unread pop before its move was
#: seen (``Loop.voice_changed_game``): a weak read, as a late one.
SPOKEN_POP_CONFIDENCE = LATE_READ_CONFIDENCE
#: Numbers a count aloud begins with, as the listener hears it: families
#: count the spaces as a peg moves ("one, two, three, ..."), often in the
#: seconds after a pop when a bare number is taken as a correction of it,
#: and the count's first number is acted on (12 of 12 real counts with a
#: quarter second or more between numbers, docs/voice.md, session 41), or
#: its second when the first was lost. Said before its move, such a number
#: is never taken as surely as another (``corrections.HeldNumber``,
#: ``Loop.voice_changed_game``).
COUNT_STARTS = frozenset({1, 2})
#: Seconds within which a pop after an unread one more likely follows a
#: cocked die's tap than the next player's pop (``Loop._unread_no_pop``).
#: Session 29, 48 fresh whole rendered games at 640x480: of the unread
#: pops another pop followed within 1.5 s, 21 were no pop (a cocked die
#: read as no face, then tapped) and 4 real; the simulator's pops come
#: 1.5 s apart at the least, and a truth game's real unread pop followed
#: 1.7 s later was taken back at 2.0 s.
POPPED_AGAIN_S = 1.6
#: The same for an unread pop on which the camera saw no face
#: (``PopUnread.faceless``): a die that landed cocked, whose tap may be read
#: a frame or two late. Session 45, 115 kept whole rendered games at
#: 640x480: of the unread pops another pop followed 1.67 s later, the 8
#: faceless ones were all a cocked die tapped (fresh game 891: the tap's 1
#: went to the next player, whose right move was called), the 33 others
#: real pops; at 1.83 s, 6 faceless and 66 others, all real pops.
FACELESS_AGAIN_S = 1.75
#: Seconds after a pop before which a board seen stable cannot show its
#: move (the simulator's players take 2.5 s from the pop to the move set
#: down): a board changing after such a board may be that move
#: (``Loop._moving_since``). (Named ``MOVE_AFTER_POP_S`` until session 52,
#: when it was found that session 51's ``MOVE_AFTER_POP_S`` of 1 s, defined
#: further down under the same name, had silently replaced it.)
MOVE_SET_DOWN_S = 2.0
#: Seconds within which a pop read after an unread one, with nothing seen
#: between, is taken at once for a cocked die's tap (``Loop._unread_tapped``).
#: Session 33, 144 fresh whole rendered games (seeds 408-567) at 640x480:
#: the camera read the next pop 1.17-1.34 s after reporting an unread one
#: 87 times, 83 of them a cocked die tapped and 4 two real pops; 1.5 s
#: after it 20 times, 6 and 14.
TAPPED_S = 1.4
#: The same for a second pop the camera could not read either: one settle of
#: the die reported twice (a cocked die, or a hand's stir, then the real
#: rest). Session 34, 128 fresh whole rendered games (seeds 488-615) at
#: 640x480: two unread pops 1.33-1.5 s apart 59 times, 51 of them one real
#: pop; 1.67-1.84 s apart 57 times, 13 of them one.
UNREAD_AGAIN_S = 1.55
#: Seconds within which a pop after an unread one may still be a cocked
#: die's tap, when only taking the unread pop out makes the board
#: (``Loop._tap_rather_than_misread``): the simulator's players set a move
#: down 2 s after its pop at the soonest (``MOVE_SET_DOWN_S``), so a pop
#: this soon after another had no move between.
TAPPED_LATE_S = 2.5
#: The same, when the other way has a peg misread in its Home: the unread
#: pop and the pop after it may be one pop read late, after a hand beside
#: the dome (``Loop._tap_rather_than_misread``).
READ_AGAIN_S = 8.0
#: Board sightings the loop keeps the times of (``Loop.stable_times``).
STABLE_TIMES_KEPT = 32
#: Why an unread pop is taken back, said by default: most such pops are a
#: cocked die read as no face, then tapped (``Loop._say_popped_again``).
POPPED_AGAIN = "the die was popped again"
#: Seconds a pop takes at the least (popped, read, passed on): several pops
#: nobody saw are believed only with this long for each since the last board
#: agreeing with the game (``Loop._pops_unseen``).
UNSEEN_POP_S = 2.0

#: No peg is moved on a pop within this long of the pop settling and the
#: board standing after it: the player reads the die, reaches, lifts and
#: sets the peg down, and the board must then lie still before it is
#: reported (``position_stable_s``). A catch-up way that moves such a pop
#: is a guess against the clock, and one that leaves it held is tried
#: before it is taken (``Loop._way_before_recent_pops``).
MOVE_AFTER_POP_S = 1.0
#: Pegs of two players or more advanced on the first board read for this
#: long, which one pop the camera never saw explains, is play the camera
#: missed, not a move to call (``Loop._several_players_advanced``). 20 s: at
#: 10 s the truth benchmark missed a quarter more wrong counts (264 -> 336 of
#: seeds 0-199 at a tenth unread), at 20 s 264 -> 269.
SEVERAL_UNSEEN_S = 20.0
#: A pop read after the die went this long without a value read had room for
#: another pop before it that nobody saw (two pops' worth, ``UNSEEN_POP_S``
#: each: the one missed and this one's own tumble): ``Loop._pop_lost_unseen_before``.
BLIND_BEFORE_S = 2 * UNSEEN_POP_S


def popped_again(unread: _Unread | PopUnread, after: float) -> bool:
    """Whether a pop at *after* came soon enough after *unread* to be likelier
    the same die tapped or popped again than the next player's pop
    (``POPPED_AGAIN_S``; ``FACELESS_AGAIN_S`` when no face was seen on it)."""
    return after - unread.t < (FACELESS_AGAIN_S if unread.faceless else POPPED_AGAIN_S)


def values_of(pops: list[PopSettled | PopUnread]) -> list[int | None]:
    """The values of held pops, ``None`` for one seen but not read."""
    return [p.value if isinstance(p, PopSettled) else None for p in pops]


@dataclass(frozen=True)
class LoopSettings:
    """Timings of the loop's own reminders, in seconds of session time."""

    #: A bumped peg still off the board this long after the bump gets a reminder.
    home_reminder_s: float = 8.0
    #: A peg missing (not bumped) for this long is asked for.
    missing_peg_s: float = 4.0
    #: The board unseen this long gets "I can't see the board".
    board_lost_s: float = 4.0
    #: A pop held this long because the player has not moved gets a reminder.
    held_pop_s: float = 10.0
    #: A pop said by voice (the camera missed it) and then seen this soon is the same pop.
    spoken_pop_s: float = 1.5
    #: A pop the camera could not read is said aloud only if it is still
    #: unknown this long after (the camera often reads it a moment later,
    #: or the move tells it).
    unread_say_s: float = 1.5
    #: Put a pop worked out from the move to the player ("Blue, was your pop
    #: a 4?"): only worth asking where someone can answer (a listener).
    ask_back: bool = True
    #: A board no move explains is judged once it has stood this long
    #: (``CALL_HOLD_S``; judged on the loop's ticks).
    call_hold_s: float = CALL_HOLD_S


@dataclass
class Announcement:
    """Something the loop said, with the referee event behind it (if any)."""

    t: float
    text: str
    urgent: bool = False
    event: dict[str, Any] | None = None
    #: The answer the loop now waits for ("number", "yes-no"), if any: the
    #: listener is told when it is said, so a bare "five" or "no" is heard.
    expects: str | None = None
    #: When the pop the question is about settled (the camera saw it but
    #: could not read it), if it is about one.
    about: float | None = None


def _side_names(players: list[list[str]]) -> list[str | list[str]]:
    """The referee's ``setup.players``: a side of one colour by its name, of two by both."""
    return [p if len(p) > 1 else p[0] for p in players]


def _all_in_finish(places: Sequence[str]) -> bool:
    """Whether every one of *places* is a Finish hole (a side that has won)."""
    return all(p.startswith("finish:") for p in places)


def _read_weakly(pop: PopSettled, others: Sequence[int]) -> bool:
    """Whether the die reading of *pop* is doubtful enough, given the other
    values *others* that explain the board, for a misread to be likelier
    than a miscount: read under ``WEAK_READ``, or a centreless value (2, 4)
    read under ``CENTRELESS_READ`` with the move one space longer.

    >>> _read_weakly(PopSettled(1.0, 4, 0.998), [5])
    True
    >>> _read_weakly(PopSettled(1.0, 4, 0.998), [3])
    False
    >>> _read_weakly(PopSettled(1.0, 5, 0.95), [3])
    True
    """
    if not others:
        return False
    if pop.confidence < WEAK_READ:
        return True
    return pop.value in CENTRELESS_VALUES and pop.confidence < CENTRELESS_READ and pop.value + 1 in others


def _lost_at_once(state: State, value: int) -> State | None:
    """The game after *value* is popped in *state* if no peg can use it (the
    move lost and play passed on, as the referee announces at once), else
    None."""
    popped = rules_pop(state, value)
    return None if legal_moves(popped) else lose_move(popped)


def _reading(state: State | None, whole: boards.Board) -> Reading | None:
    """The referee's reading of *whole* from *state* (None: no game, or a board
    it cannot parse), asked without feeding it."""
    if state is None:
        return None
    try:
        seen = parse_board(whole, state.options.pegs_per_color)
    except InputError:
        return None
    return read_board(state, seen)


@dataclass
class _Unread:
    """A pop the camera saw settle but could not read, not yet resolved."""

    player: str
    t: float
    #: When the referee became ready for it (its turn began): only a board
    #: seen after that tells whether its player moved.
    begun: float = 0.0
    #: The question has been asked aloud (asked once, never repeated).
    asked: bool = False
    #: "I could not read ..." has been said (once, and only if still unknown
    #: after ``unread_say_s``).
    said: bool = False
    #: A move was seen that several values explain (waiting for the number).
    moved: bool = False
    #: Who-goes-first only: play went on without the number; said once.
    lost_track_said: bool = False
    #: Values the players said it was not ("Blue, was your pop a 3?" "No"),
    #: and when: a move is not taken for them while the number is awaited.
    denied: set[int] = field(default_factory=set)
    denied_at: float = 0.0
    #: The last board seen stable while it was pending (completed with the
    #: game's pegs), which left it unresolved: a later board may tell, in
    #: hindsight, which way the turns went then (:meth:`Loop._settled_in_hindsight`).
    board: boards.Board | None = None
    #: Since when no pop was seen and the board stood as the game had it
    #: before this pop (the later of the pop before it and the last board
    #: agreeing with the game; None: neither seen): time in which pops
    #: nobody saw may have come first (:meth:`Loop._unseen_before_unread`).
    quiet_from: float | None = None
    #: The camera saw no face on the die (:attr:`PopUnread.faceless`).
    faceless: bool = False


def _values_of_pop(pop: PopSettled | PopUnread) -> list[int]:
    """The values *pop* may have had: its own, read, or any."""
    return [pop.value] if isinstance(pop, PopSettled) else list(range(1, 7))


@dataclass
class _Inferred:
    """What the loop worked out for an unread pop, still open to a change of mind.

    A value taken from a move can be wrong when the move was a mistake the
    player then puts right before anyone pops; a turn passed because no peg
    moved before the next pop can be wrong when the player was still moving
    while the next player popped (that pop, and no other, was released
    since). Meanwhile, and until another move is accepted, a board that the
    state before the inference explains takes it back: the referee inputs
    fed since are undone, the pops released since are held again, and the
    board is judged afresh.
    """

    state: State  # the referee before the inference
    unread: _Unread
    fed: int = 0  # referee inputs accepted since (undone to take it back)
    pops: list[PopSettled | PopUnread] = field(default_factory=list)  # released since
    own_move: bool = False  # the inference's own move is still to be fed
    from_move: bool = False  # the value was taken from a move (not from no move)
    pops_allowed: int = 1  # pops that may be released before it stands
    t: float = 0.0  # when it was made
    said: int = 0  # how many announcements the loop had made by then
    value: int | None = None  # the value taken from the move (from_move)


@dataclass
class _CaughtUp:
    """A catch-up that fitted unread pops' values to the board, still open to
    a change of mind: the board it explained may have been a mistake (a
    wrong count) that the player then puts right before anyone pops."""

    state: State  # the referee before the catch-up
    held: list[PopSettled | PopUnread]  # the pops held before it
    unread: _Unread | None
    fed: int  # referee inputs that changed the game since (undone to take it back)
    t: float = 0.0  # when the catch-up was made
    said: int = 0  # how many announcements the loop had made by then
    #: Pops released since (held again when it is taken back): the next pop
    #: may come before the board is put right, and whose pop it is depends
    #: on the values guessed (a guessed 6 gives the same player another).
    pops: list[PopSettled | PopUnread] = field(default_factory=list)
    pops_allowed: int = 1  # pops that may be released before it stands
    released: int = 0  # pops released since (those it left over counted, not kept in ``pops``)
    #: The later board it was chosen to lead on to (``Loop._caught_up_to_seen``):
    #: that board is no change of mind to take it back for.
    then: boards.Board | None = None
    #: When the board it explained was first seen (it may have stood, unread
    #: for its pops, before the catch-up): what has "stood" is measured from.
    board_since: float = math.inf


@dataclass
class _Doubt:
    """A game the loop reached by guessing an unread pop (from the move after
    it, from no move, or in a catch-up), kept as the state before the guess
    and every pop seen from there on (``None``: not read).

    A guess can leave the loop one pop out of step with the table without
    any board showing it at once: a read pop given to the wrong player, and
    several turns later a move called wrong that the table made rightly (whole
    rendered games). So before a board is called, a board some history from
    before the guess explains, through every board the game agreed with
    since, is followed instead (see :func:`catch_up.some_history`).
    """

    state: State
    #: Since the guess, in order: pops (``None``: not read) and the boards
    #: the game agreed with (each a change from the one before).
    seen: list[int | None | boards.Board]
    #: When the last board in *seen* was first seen, and when a board
    #: other than it was first seen after it.
    board_at: float = -math.inf
    left_at: float = math.inf
    #: Closed at the first board it sees after the one it began with (the
    #: next move agreed), and with no move on a pop nobody saw at its end.
    until_move: bool = False

    def boards_seen(self) -> int:
        return sum(isinstance(step, dict) for step in self.seen)

    def saw_board(self, board: boards.Board, t: float) -> None:
        self.seen.append(board)
        self.board_at, self.left_at = t, math.inf

    def left(self, board: boards.Board, t: float) -> None:
        """*board*, first seen at *t*, is a change from the last one: a
        board put right, not one with a peg of it lifted (truth seed 7 with
        wrong counts left standing: Blue's guessed move, its peg lifted a
        moment and seen back for seconds, taken for a wrong count put right,
        and Blue's real wrong count later asked about, not called)."""
        last = self.seen[-1] if self.seen else None
        if (isinstance(last, dict) and self.left_at == math.inf
                and all(len(board.get(c, [])) >= len(places) for c, places in last.items())
                and not boards.same(board, last, set(board) | set(last))):
            self.left_at = t

    def pops(self) -> list[int | None]:
        return [step for step in self.seen if not isinstance(step, dict)]

    def reaches(self, board: boards.Board, seen: Sequence[int | None | boards.Board] | None = None) -> bool:
        """Some history from the guess through *seen* (by default all it has
        seen) reaches *board* (:func:`catch_up.some_history`)."""
        return some_history(self.state, self.seen if seen is None else seen, board, brought_out_home=True,
                            unseen_last=not self.until_move)

    def name_pop(self, value: int, later: int) -> None:
        """The players said the value of a pop the camera could not read,
        with *later* pops seen since it: that pop is no longer any value."""
        at = [i for i, step in enumerate(self.seen) if not isinstance(step, dict)]
        if len(at) > later and self.seen[at[-1 - later]] is None:
            self.seen[at[-1 - later]] = value

    def said_for_last_board(self, value: int) -> None:
        """A number said just after the last board, which the camera's read
        pop contradicts, may be the pop of that board's move, which the
        camera never saw: the player moved, then said it. It goes in before
        that board (nothing seen since it)."""
        if self.seen and isinstance(self.seen[-1], dict):
            self.seen.insert(len(self.seen) - 1, value)

    def correct_last_pop(self, value: int) -> None:
        """The players said the last pop was *value*."""
        at = max((i for i, step in enumerate(self.seen) if not isinstance(step, dict)), default=None)
        if at is not None:
            self.seen[at] = value


@dataclass
class _Question:
    """The loop asked the player to confirm a pop it worked out from the move
    ("Blue, was your pop a 3?"). A "no" takes the guess back and asks for the
    number, so a wrong count made on a pop the camera could not read is
    called instead of taken for the pop it fits; silence, or "yes", lets the
    guess stand. The guess is an inference from one move, or a catch-up that
    played the unread pop's move among several seen at once."""

    guess: _Inferred | _CaughtUp
    player: str
    value: int
    #: The pop asked about, when it was held behind others and played by a
    #: catch-up (no :class:`_Unread` of its own).
    held: PopUnread | None = None


@dataclass
class _DoubtQuestion:
    """The loop asked the mover to confirm the pop it read ("Blue, was your
    pop a 6?") before calling *board*, a wrong count of that pop that only a
    doubt (:class:`_Doubt`: an unread pop just before, most likely the die
    landing cocked) also explains. "Yes" has the board called; "no", or no
    answer in ``ANSWER_WAIT_S``, has it followed as before."""

    board: boards.Board
    t: float


@dataclass
class _HeldDenied:
    """"No" to a pop a catch-up guessed for an unread pop held behind others:
    the catch-up is undone and the game waits for that pop's number."""

    pop: PopUnread
    player: str
    at: float


#: Seconds the loop waits for the number after the player said the pop it
#: worked out was wrong ("Then Blue, say the number you popped").
ANSWER_WAIT_S = 10.0
#: Guesses kept open at once (the oldest goes first).
MAX_DOUBTS = 3
#: A board this soon after the last one a doubt saw, no pop between, may
#: be that one put right (``Loop._put_right_since``).
PUT_RIGHT_S = 2.0
#: A number said against the read pop this soon after a board the game
#: agreed with may be that board's move's pop (``Loop.heard_after_board``).
HEARD_AFTER_BOARD_S = 4.0
#: Lost track on a board, then within this many seconds (no pop between)
#: a board the game explains: the first board was passing, not played.
PASSING_LOST_S = 5.0


@dataclass
class _Timers:
    """Pending reminders: each fires once, at its time, if still relevant."""

    awaiting_home: dict[str, float] = field(default_factory=dict)  # colour -> due time
    reminded_home: set[str] = field(default_factory=set)
    missing_since: float | None = None
    missing_said: bool = False
    board_lost_since: float | None = None
    board_lost_said: bool = False
    held_pop_since: float | None = None
    held_pop_said: bool = False


class Loop:
    """The live referee's state machine.

    Build it with a referee factory, a speaker and (optionally) a recorder;
    then either :meth:`start` a new game (the loop checks the opening position
    first) or :meth:`resume` from recorded inputs; then :meth:`handle` every
    observation in time order.
    """

    def __init__(
        self,
        referee_factory: Callable[[], LiveReferee],
        speaker: Speaker,
        recorder: Recorder | None = None,
        settings: LoopSettings | None = None,
        score_sentence: Callable[[], str] | None = None,
    ) -> None:
        self._factory = referee_factory
        self.referee = RefereeView(referee_factory())
        self.speaker = speaker
        self.recorder = recorder
        self.settings = settings or LoopSettings()
        self.score_sentence = score_sentence
        #: Told what answer the loop waits for ("number", "yes-no") when it
        #: asks (the live listener: a bare number or yes/no is then heard).
        self.on_expect: Callable[[str], None] | None = None
        self.said: list[Announcement] = []
        #: Corrections answered with what the camera saw against them ("I saw
        #: a 5 on the die. Say it again if you are sure."), this run.
        self.contradictions = 0
        self.events: list[tuple[float, dict[str, Any]]] = []
        self.stage = "idle"  # idle, opening, check, game, over
        #: When the loop began looking for the opening position (its first
        #: observation after ``start``).
        self.opening_since: float | None = None
        #: The camera lost the board (or itself) since the loop began looking
        #: for the opening position: pops may have gone unseen meanwhile.
        self.opening_blind = False
        #: "You can tell me whose turn it is" said in this stretch of following the board;
        #: when it was last said, and the pops seen since (see ``FOLLOW_HELP_AGAIN_S``).
        self.follow_help_said = False
        self.follow_help_at = 0.0
        self.pops_since_help = 0
        #: What ``_evaluate`` has judged within the current observation (see there).
        self._judging: set[Any] | None = None
        self.paused = False
        #: A board or a pop came while paused (ignored): the board is checked on resume.
        self.missed_while_paused = False
        self.players: list[list[str]] | None = None
        self.rules: dict[str, Any] = {}
        self.first: str | None = None
        self.opening_pegs: dict[str, list[str]] | None = None
        self.t = 0.0
        self._forget_game()  # what the loop knows of the game in play (see there)
        self.board_seen_at: float | None = None  # when a stable board was last reported
        #: Seconds from the stable board before this one to this one.
        self.board_gap_s = 0.0
        #: Indices in :attr:`events` of pops the loop worked out itself (the
        #: camera could not read them): announced with the move, not the settle.
        self.worked_out: list[int] = []
        #: Those of them the players had been asked to say, and when last
        #: asked (their answer may come after the loop settled the pop
        #: itself: see corrections._echo).
        self.worked_out_asked: list[tuple[int, float]] = []
        #: Unread pops settled by passing the turn (no peg moved; value unknown).
        self.unread_passed = 0
        #: Whether the camera read each of the last few pops it saw (False:
        #: seen but not read); see :meth:`_die_blind`.
        self.pops_read: deque[bool] = deque(maxlen=DIE_BLIND_OF)
        #: When "I have lost track" was last said (it is not repeated within
        #: ``LOST_SAID_QUIET_S``).
        self.lost_said_at: float | None = None
        #: "I cannot read the die from here" said; again only after the camera
        #: has read most pops for a while (see :meth:`_die_blind`).
        self.die_blind_said = False
        #: "I cannot read every hole" said; said again only after a board is read whole
        #: (and reminded every ``UNCLEAR_AGAIN_S`` meanwhile, from when it was last said).
        self.unclear_said = False
        self.unclear_said_at: float | None = None
        #: When the table was last told the board cannot be read (either
        #: sentence); kept when a board stands, so stretches a minute apart on
        #: a board read small are told once in ``UNCLEAR_AGAIN_S``, not each.
        self.unclear_told_at: float | None = None
        self.camera_lost = False
        self.pending_confirm: Spoken | None = None
        # What one observation produced, written in one transaction and only
        # then spoken (see _flush): an observation is atomic in the record.
        self._unrecorded: list[RecordItem] = []
        self._unsaid: list[Announcement] = []
        # Fast-forward (a resumed replay): observations up to _ff_until are
        # re-run silently and must reproduce the recorded inputs exactly.
        self._ff_until: float | None = None
        self._ff_expected: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self._ff_got: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self._ff_inputs: list[dict[str, Any]] = []

    # -- starting ------------------------------------------------------------

    def start(
        self,
        players: list[list[str]] | None,
        rules: dict[str, Any] | None = None,
        first: str | None = None,
        pegs: dict[str, list[str]] | None = None,
    ) -> None:
        """Begin a new game: wait for the opening position, then set up.

        With *players* ``None`` the players are the colours whose four pegs
        are all seen in their Homes in the opening position. With *first*,
        that colour starts and the who-goes-first pops are skipped. With
        *pegs* (a game set up part-way, as the referee's ``setup.pegs``), that
        is the opening position to check instead of every peg in its Home.
        """
        self.players = players
        self.rules = dict(rules or {})
        self.first = first
        self.opening_pegs = dict(pegs) if pegs else None
        self.referee = RefereeView(self._factory())
        self._forget_game()
        self.stage = "opening"
        self.opening_since = None
        self.opening_blind = False
        self._say("Put every peg in its Home. I am looking for the board.")
        self._flush()

    def _forget_game(self) -> None:
        """Drop everything the loop knew about the game in play: a new game
        (said by voice after the last one, in the same run) must not inherit
        a guess, held pops, a lost track or a call of the one before (an
        evening of seeded games: a track lost at the end of one game made the
        next one relocate pegs from its first board, and call a move). What
        belongs to the camera and the run (what the die reader manages, the
        events and sentences so far) stays."""
        #: While a guess is taken back and the board judged again: what was
        #: said since the guess, not to be said again word for word.
        self._said_before: list[str] = []
        self.last_board: boards.Board | None = None  # last stable board seen (normalised)
        #: Boards described in the opening check since the first (the table may be playing).
        self.opening_boards = 0
        #: When a board last agreed with the game (after the loop acted on it).
        self.board_agreed_at: float | None = None
        self.board_stale = False  # the last board must change before it is fed again
        #: The camera reads another position than the last one reported, not
        #: yet stable (``BoardUnsettled``): a board held before a call is not
        #: judged on the clock until a position is reported again.
        self.board_unsettled = False
        self.illegal_board: boards.Board | None = None  # a wrong board already announced
        #: While judging again after a voice correction: the board called
        #: before it (not called a second time).
        self._called_before: boards.Board | None = None
        self.unseen_pop_board: boards.Board | None = None  # a move made with no pop seen
        #: The unread pop (its time) whose "no peg moved" a board took back,
        #: and that board: while it is the last board seen, another pop does
        #: not settle that unread pop as lost again; the loop follows the
        #: board instead (:meth:`_unread_without_move`).
        self.taken_back_on: tuple[float, boards.Board] | None = None
        #: A board no move explains, since when, and how long it must stand
        #: before it is judged (see :meth:`_transit_hold`).
        self.transit: tuple[boards.Board, float, float] | None = None
        #: While a held board is judged before its wait is over (:meth:`_brought_out_left`).
        self._judging_held = False
        #: The board :meth:`_still_settling` holds (``transit`` while it is
        #: that very board; see :meth:`_move_held_settling`).
        self.settling: boards.Board | None = None
        #: Since when the last board seen has been seen (unchanged).
        self.board_since = 0.0
        #: When the last boards were seen stable in the game (``Loop._tap_rather_than_misread``).
        self.stable_times: deque[float] = deque(maxlen=STABLE_TIMES_KEPT)
        #: Pegs the loop placed where a board showed them when it got back in
        #: step (``_follow``), not where a move it saw took them.
        self.adopted: set[tuple[str, str]] = set()
        self.spoken_pop: tuple[int, float] | None = None  # a pop given by voice, not yet seen
        self.check_said: boards.Board | None = None  # a mismatch already described
        self.held_pops_since_check = False  # a pop seen since it was described
        self.held_pops: list[PopSettled | PopUnread] = []
        self.unread: _Unread | None = None  # a pop seen but not read, not yet resolved
        self.inferred: _Inferred | None = None  # a worked-out value, open to a change of mind
        self.question: _Question | None = None  # "was your pop a 3?", not yet answered
        self.doubt_question: _DoubtQuestion | None = None  # "was your pop a 6?" before a call, not yet answered
        self._questioned: set[float] = set()  # pops (by time) asked about, once each
        #: Pops (by time) read under ``WEAK_READ`` and taken back for the move
        #: that contradicted them: asked about even when the die is blind.
        self._weak_taken_back: set[float] = set()
        self.held_denied: _HeldDenied | None = None  # "no" to a held pop's guess: its number awaited
        #: Lost track of the game: the last board seen, from which the next
        #: plain move (with a pop seen since) puts the loop back in step.
        self.lost: boards.Board | None = None
        self.lost_pops = 0  # pops seen since that board
        #: When the loop began to follow from the board then in hand, the
        #: pops held at that moment are counted as seen since it, though
        #: their moves may be on it: ``_follow_turns`` leaves out those
        #: settled before this time (None: nothing left out).
        self.lost_from_t: float | None = None
        self.lost_board_at = -math.inf  # when the board followed was first seen (if known)
        #: While lost, the board went unseen (``BoardLost``) since that board:
        #: the next change may be several moves, not one to follow.
        self.lost_gap = False
        #: When track was lost, the pops then held, and the game then.
        self.lost_at: tuple[float, int, State | None] = (0.0, 0, None)
        self.before_move: State | None = None  # the referee before the last move
        self.before_pop: State | None = None  # the referee before the last pop the camera read
        #: The camera's pop last fed to the referee from the held pops, and its state before it.
        self.pop_fed: tuple[PopSettled, State] | None = None
        self.caught_up: _CaughtUp | None = None  # a catch-up with guessed values, open to a change of mind
        #: Inputs that changed the referee's game, less the undos (what an
        #: undo of everything since a count was taken must take back).
        self.changes_fed = 0
        #: A catch-up that stood when the next pop was released, open only to
        #: a board that puts its guess right (``_guess_put_right_later``).
        self.caught_stood: _CaughtUp | None = None
        #: Games reached by guessing unread pops, still searchable (see _Doubt).
        self.doubts: list[_Doubt] = []
        self.lost_said = False  # "I have lost track" said for the present loss ("Back in step" then too)
        #: The turn passed on a guess (an unread pop no peg used) and no move
        #: on a pop the camera read has been seen since.
        self.turn_guessed = False
        self.cocked_said = False
        self.timers = _Timers()
        self.places: list[str] = []
        #: The last correction answered with what the camera saw, with
        #: ``len(events)`` and the time then: said again before anything else
        #: happens in the game (no event, no pop settled), it overrules the
        #: camera (``corrections._take``).
        self.last_contradiction: tuple[dict[str, Any], int, float] | None = None
        #: A spoken number other than the pop read, perhaps a count aloud,
        #: waiting for the move (see ``corrections.HeldNumber``).
        self.held_number: HeldNumber | None = None
        self.last_pop_seen: int | None = None  # the die's last settled value, as seen
        #: That value was doubted (read under ``PHANTOM_READ``, or read late)
        #: and said with a doubt: the players' word for it is not contradicted.
        self.last_pop_doubted = False
        #: That value, a 6, went to the next player only on a guess: it was
        #: held behind a move made on a pop the camera did not read, and that
        #: pop could as well have been a 6 no peg could use, the 6 read its
        #: player's extra pop, and the move's pop and the next player's both
        #: unseen (see ``corrections._contradiction``).
        self.last_pop_owner_doubted = False
        #: How the last pop fed reached the game ("camera", "voice", "loop"),
        #: and whether the last move accepted was made on a pop the camera
        #: did not read, and when.
        self.last_pop_origin = ""
        self.move_on_unread_at: float | None = None
        self.pop_seen_at: float | None = None  # when the camera last saw a pop settle
        #: Each pop of this game the camera saw (read or not), in order.
        self.seen_pops: list[PopSettled | PopUnread] = []
        #: When the die settled again on its face under a hand (``DieResettled``), with the value.
        self.resettled: list[DieResettled] = []
        #: ``pop_seen_at`` of a pop the camera could not read and the players
        #: numbered aloud (a number said is as good as a pop read).
        self.pop_said_at: float | None = None
        #: The worked-out pop (index in ``events``) a spoken number already confirmed.
        self.echo_heard: int | None = None
        self._finished_places: list[str] | None = None

    def resume(self, players: list[list[str]], inputs: list[dict[str, Any]]) -> None:
        """Continue a recorded game: replay its inputs silently, then check the board."""
        self.players = players
        self.referee = RefereeView(self._factory())
        setups = [line["setup"] for line in inputs if isinstance(line.get("setup"), dict)]
        self.rules = dict(setups[-1].get("rules") or {}) if setups else {}
        self.first = setups[-1].get("turn") if setups else None
        self.opening_pegs = setups[-1].get("pegs") if setups else None
        for line in inputs:
            for event in self.referee.feed(line):
                self._track_places(event)
        self.stage = "over" if self.referee.over else "check"
        turn = self.referee.player
        self._say(
            "Resuming the game."
            + (f" It is {turn.capitalize()}'s turn." if turn else "")
            + " Let me check the board."
        )
        self._flush()

    # -- the one entry point -------------------------------------------------

    def fast_forward(
        self, until: float, recorded: list[tuple[dict[str, Any], list[dict[str, Any]]]]
    ) -> None:
        """Re-run observations up to *until* silently (a resumed replay).

        Call after :meth:`start`. The loop is deterministic, so re-running
        the same observations rebuilds everything the record cannot hold
        (a held pop, a wrong board already announced, a pending reminder);
        the inputs it makes are checked against *recorded* (the record's
        ``(line, events)`` pairs) and nothing is recorded or said twice.
        """
        self._ff_until = until
        self._ff_expected = [(dict(line), list(events)) for line, events in recorded]
        self._ff_got = []
        self._ff_inputs = [line for line, _ in recorded]

    def end_fast_forward(self) -> None:
        """Leave fast-forward: continue live if the re-run matched the record,
        else fall back to resuming from the record alone (and say so)."""
        if self._ff_until is None:
            return
        self._ff_until = None
        self._unsaid.clear()
        if self._ff_got == self._ff_expected:
            self._say("Resuming the game where the record stops.")
        else:
            n = next(
                (i for i, (a, b) in enumerate(zip(self._ff_got, self._ff_expected, strict=False)) if a != b),
                min(len(self._ff_got), len(self._ff_expected)),
            )
            players = self.players or []
            self._say(f"The video does not replay the record from input {n}; resuming from the record.")
            self.resume(players, self._ff_inputs)
        self._flush()

    def handle(self, obs: Observation) -> None:
        """Take one observation (in time order) and act on it."""
        if self._ff_until is not None and obs.t > self._ff_until:
            self.end_fast_forward()
        self.t = obs.t
        if self.stage == "opening" and self.opening_since is None:
            self.opening_since = obs.t
        if isinstance(obs, Spoken):
            from companion.live.corrections import handle_spoken

            handle_spoken(self, obs)
        elif self.paused:
            if isinstance(obs, (BoardStable, PopSettled, PopUnread, PopReadLate)):
                self.missed_while_paused = True  # resume must check the board
        elif isinstance(obs, BoardStable):
            self.board_unsettled = False
            self._on_board(obs)
        elif isinstance(obs, BoardUnsettled):
            self._brought_out_left()
            self.board_unsettled = True
        elif isinstance(obs, (PopSettled, PopUnread)):
            self._on_pop(obs)
        elif isinstance(obs, PopReadLate):
            self._on_late_read(obs)
        elif isinstance(obs, DieResettled):
            self.resettled = [*self.resettled[-(MAX_RESETTLED - 1):], obs]
            self._doubt_resettled(obs)
        elif isinstance(obs, DieCocked):
            if not self.cocked_said and self.stage in ("game", "check"):
                self.cocked_said = True
                self._say("The die is not flat. Tap the Pop-O-Matic; do not pop it again.", urgent=True)
        elif isinstance(obs, BoardLost):
            if self.stage == "opening":
                self.opening_blind = True
            if self.timers.board_lost_since is None:
                self.timers.board_lost_since = obs.t
            if self.lost is not None:
                self.lost_gap = True
        elif isinstance(obs, BoardFound):
            self.timers.board_lost_since = None
            if self.timers.board_lost_said:
                self.timers.board_lost_said = False
                self._say("I can see the board again.")
        elif isinstance(obs, BoardUnclear):
            if not self.unclear_said:
                self.unclear_said = True
                told = self.unclear_told_at
                # Told within UNCLEAR_AGAIN_S: the reminder follows that telling.
                self.unclear_said_at = told
                if told is None or obs.t - told >= UNCLEAR_AGAIN_S:
                    self.unclear_said_at = self.unclear_told_at = obs.t
                    self._say(
                        "I can see the board but cannot read every hole. If nothing is over it, "
                        "bring the camera closer or give it more light."
                    )
        elif isinstance(obs, CameraLost):
            if self.stage == "opening":
                self.opening_blind = True
            if not self.camera_lost:
                self.camera_lost = True
                self._say(
                    "I have lost the camera. The game is saved; I will carry on when it is back.",
                    urgent=True,
                )
        elif isinstance(obs, CameraBack):
            if self.camera_lost:
                self.camera_lost = False
                self._say("The camera is back.")
                if self.stage == "game":
                    self.stage = "check"
                    self.check_said = None
        elif isinstance(obs, Tick):
            pass
        self._timers()
        self._flush()

    def _flush(self) -> None:
        """Record what this observation fed the referee, then speak.

        One transaction per observation: a crash leaves the record at an
        observation boundary, so a resumed replay continues exactly, and
        nothing is ever said that the record does not hold.
        """
        if self._ff_until is not None:
            self._ff_got.extend((item.line, item.events) for item in self._unrecorded)
            self._unrecorded.clear()
            self._unsaid.clear()
            self._finished_places = None
            return
        if self.recorder is not None:
            if self._unrecorded:
                self.recorder.record(list(self._unrecorded))
            if self._finished_places is not None:
                self.recorder.finished(self._finished_places)
        self._unrecorded.clear()
        self._finished_places = None
        for item in self._unsaid:
            self.speaker.say(item.text, urgent=item.urgent)
            if item.expects is not None and self.on_expect is not None:
                self.on_expect(item.expects)
        self._unsaid.clear()

    # -- boards --------------------------------------------------------------

    def colours_in_play(self) -> frozenset[str] | None:
        """The colours of this game's players, or None before the opening has
        settled who plays (then every colour may matter)."""
        return None if self.players is None else frozenset(c for p in self.players for c in p)

    def _colours(self) -> list[str]:
        if self.players is None:
            return list(("red", "blue", "yellow", "green"))
        return [c for p in self.players for c in p]

    def _on_board(self, obs: BoardStable) -> None:
        seen = boards.normalise(obs.pegs, self._colours())
        self.board_gap_s = obs.t - self.board_seen_at if self.board_seen_at is not None else 0.0
        self.board_seen_at = obs.t
        self.unclear_said = False
        self.unclear_said_at = None
        if self.stage == "opening":
            self._opening(obs)
            return
        if self.stage in ("idle", "over"):
            self.last_board = seen
            return
        if self.board_stale and self.last_board is not None and boards.same(seen, self.last_board, seen):
            return
        self.board_stale = False
        if self.last_board is None or not boards.same(seen, self.last_board, seen):
            self.board_since = obs.t
            for doubt in self.doubts:
                doubt.left(seen, obs.t)
        self.last_board = seen
        self.stable_times.append(obs.t)
        if self.transit is not None and not boards.same(seen, self.transit[0], seen):
            self.transit = None  # the peg in transit has come down elsewhere
        unread = self.unread
        self._evaluate(seen)
        if unread is not None and self.unread is unread and self.stage == "game":
            unread.board = boards.complete(seen, self.referee.position)
        if boards.same(seen, self.referee.position, list(self.referee.position)):
            self.board_agreed_at = obs.t
            self._doubts_saw(dict(seen))

    def _opening(self, obs: BoardStable) -> None:
        """Check the opening position: every playing peg in its Home."""
        if self.players is None:
            colours = [c for c in ("red", "blue", "yellow", "green") if obs.pegs.get(c)]
            if len(colours) < 2:
                if self.check_said is None:
                    self.check_said = {}
                    self._say("I see fewer than two colours of pegs. Put each player's pegs in their Home.")
                return
            players = [[c] for c in colours]
        else:
            players = self.players
        colours = [c for p in players for c in p]
        pegs = 1 if self.rules.get("basic") else 4
        start_place = "track:{}" if self.rules.get("basic") else "home"
        seen = boards.normalise(obs.pegs, colours)
        if self.opening_pegs:
            given = self.opening_pegs
            expected = {c: sorted(list(given.get(c, [])) + ["home"] * (pegs - len(given.get(c, [])))) for c in colours}
        elif start_place == "home":
            expected = {c: ["home"] * pegs for c in colours}
        else:
            starts = {"red": 1, "blue": 8, "yellow": 15, "green": 22}
            expected = {c: [f"track:{starts[c]}"] for c in colours}
        if not boards.same(seen, expected, colours):
            if self._caught_up_at_opening(players, seen):
                return
            if self._started_without_me(seen, colours):
                self._say("The game has started without me. I will follow it from the board.")
                self._begin(players, started=True)
                self.held_pops.clear()
                self._lose_track(seen, seen, said=True)
                return
            if self.check_said != seen:
                if self.check_said:
                    self.opening_boards += 1
                self.check_said = seen
                wrong = boards.differences(seen, expected)
                tail = " Every peg starts in its Home." if not self.opening_pegs else ""
                self._say(" ".join(wrong[:3]) + tail)
            return
        self.last_board = seen
        since = self.opening_since if self.opening_since is not None else obs.t
        if self.held_pops and obs.t - since >= OPENING_BLIND_S and not self._opening_pops_all_seen():
            self._begin(players, started=True)
            self._say("The board is ready. Pops were made before I could see it, so I will learn "
                      "whose turn it is from the next move.")
            self.held_pops.clear()
            self._lose_track(seen, seen, said=True)
            # The board is the opening position still: no "passing" loss to
            # come back from (``_passing_loss``) until a move tells the turn.
            self.lost_at = (self.t, -1, self.lost_at[2])
            return
        self._begin(players)
        # The board agrees with the game from its first moment: the stream
        # reports a board again only when it changes, so without this a die
        # too small to see tumble left no time for unseen pops to have
        # passed (a fresh whole game at 640x480: Red, Blue and Yellow lost
        # pops nobody saw, Green's 6 seen unread and given to Red, and
        # Green's peg out called "not Green's turn").
        self.board_agreed_at = obs.t
        self._release_pops()

    def _opening_pops_all_seen(self) -> bool:
        """The pops held while the opening position was read late are all
        there were, and none moved a peg: the camera had the board (and so
        the dome) in view all along, each pop was read surely with the die
        read on its frames up to it (``blind_s`` under ``BLIND_BEFORE_S``,
        and no longer since the last), and none was a 6 (a peg out, or
        still to come out, on a 6). They are then played
        as lost pops, from the first player, as for a board read at once.
        (Fresh whole game 839 at 640x480, session 42: the board first read
        whole 6.3 s in, after two pops both seen and read; the loop said it
        would learn the turn from the next move, and the game's first events
        were peg corrections, not the pops. 799 of session 41 is the same but
        for an unread pop among them, so it still waits for a move.)"""
        pops = self.held_pops
        return (not self.opening_blind and self.t - pops[-1].t < BLIND_BEFORE_S
                and all(isinstance(p, PopSettled) and p.value != 6 and p.confidence >= PHANTOM_READ
                        and p.blind_s < BLIND_BEFORE_S for p in pops))

    def _caught_up_at_opening(self, players: list[list[str]], seen: boards.Board) -> bool:
        """The first player is known (no who-goes-first pops), pops were seen
        before the board was first read whole, and exactly one way of playing
        them from the opening position leads to *seen*: the table began while
        hands kept the camera from reading the board. The game is set up and
        that way played (each move announced), not described as pegs out of
        their Homes and then followed from the board unrefereed (fresh whole
        game 607 at 640x480: Red's 6 and 2 and Blue's 6 seen before the first
        board, "I see a red peg on space 3, but the game has it in Home", and
        half a minute later "The game has started without me")."""
        if not self.first or not self.held_pops or self.check_said is not None:
            return False
        try:
            state = new_game(_side_names(players), Options.from_mapping(self.rules), self.opening_pegs, self.first)
        except (RulesError, ValueError):
            return False
        if only_way(state, values_of(self.held_pops), seen, min_steps=1) is None:
            return False
        self._begin(players)
        self._evaluate(seen)
        return True

    def _started_without_me(self, seen: boards.Board, colours: list[str]) -> bool:
        """The table is playing already: the opening position was never seen
        (the players did not wait, or the camera could not read the board
        whole until then): two boards with pegs out described, and now a
        third, different, with ``STARTED_POPS`` pops seen meanwhile
        (a whole rendered game at 640x480: "Every peg starts in its Home"
        said for twenty minutes of play, nothing refereed)."""
        return (not self.opening_pegs and self.opening_boards >= 1 and len(self.held_pops) >= STARTED_POPS
                and self.check_said is not None and not boards.same(seen, self.check_said, colours)
                and any(place != "home" for c in colours for place in seen.get(c, [])))

    def _begin(self, players: list[list[str]], started: bool = False) -> None:
        """Set the game up for *players* from the opening position; *started*:
        the table is already playing, so no who-goes-first pops and nothing
        said (the turn is learnt from the first move the loop can follow)."""
        self.players = players
        self.check_said = None
        setup: dict[str, Any] = {"players": _side_names(players)}
        if self.rules:
            setup["rules"] = self.rules
        if self.first or started:
            setup["turn"] = self.first or players[0][0]
        if self.opening_pegs:
            setup["pegs"] = {c: list(p) for c, p in self.opening_pegs.items()}
        if not started:
            names = ", ".join(p[0].capitalize() if len(p) == 1 else " and ".join(x.capitalize() for x in p)
                              for p in players)
            self._say(f"The board is ready. Playing: {names}.")
            if not self.first:
                self._say("Everyone pops once; the highest number goes first.")
        self.stage = "game"
        self._feed({"setup": setup}, origin="setup", quiet=("turn",) if started else ())

    def _evaluate(self, seen: boards.Board) -> None:
        """Act on a stable board that may differ from the game's position.

        Judging a board may settle a pop and judge it again, or take an
        inference back and judge it again; should that come back to the
        very same game, pops and board, nothing more is done until the next
        observation (a truth game at three tenths unread, seed 147: a pop
        settled as lost, then taken back, without end)."""
        key = (self.referee.state, None if self.unread is None else self.unread.t,
               tuple(p.t for p in self.held_pops), tuple(sorted((c, tuple(p)) for c, p in seen.items())),
               self.inferred is None, self.caught_up is None)
        top = self._judging is None
        judging = self._judging if self._judging is not None else set()
        if key in judging:
            return
        judging.add(key)
        self._judging = judging
        try:
            self._evaluate_once(seen)
        finally:
            if top:
                self._judging = None

    def _evaluate_once(self, seen: boards.Board) -> None:
        if self.held_denied is not None:
            return  # waiting for the number of a held pop the players denied (or the timeout)
        expected = self.referee.position
        colours = list(expected)
        miss = boards.missing(seen, expected)
        whole = boards.complete(seen, expected)
        if self.lost is not None and self.stage == "game":
            if miss or not self._passing_loss(whole, expected):
                self._follow(whole)
                return
            # Moments later, nothing seen or said since, and the board is the
            # game as the loop has it, or one move from it: the board that lost it was
            # passing (a peg read where a hand carried it; a whole rendered
            # game at 640x480 relocated pegs at the next move instead).
            # Judged as usual from here.
            self._back_in_step()
        if boards.same(whole, expected, colours):
            if self.illegal_board is not None:
                self.illegal_board = None
                self._say("Thank you, the board is back as it was.")
            if self.stage == "check":
                self.stage = "game"
                self.check_said = None
                self._say("The board matches the game.")
            self._note_missing(miss)
            self._release_pops()
            return
        if self.stage == "check":
            # After a resume or a camera reconnect: accept a legal move made
            # meanwhile, otherwise say what differs and wait.
            if (not miss or self._explained(seen, expected, miss)) and self._legal_on(self.referee.state, whole):
                self.stage = "game"
                self._feed_board(whole, miss)
                return
            if not miss and self.unread is None and self._catch_up(whole):
                # Several moves, made with the pops seen since (a pause of a
                # moment, then play went on: the check described them as
                # differences and waited for ever, in seeded games).
                self.stage = "game"
                return
            if not miss and self.unread is not None and self._move_after_unread(whole):
                self.stage = "game"  # the move on the pop the camera saw but could not read
                return
            if self.check_said is not None and self.check_said != whole and self.held_pops_since_check:
                # Described, and the table played on (pops since) instead of
                # putting it right: follow the board, as after an ignored
                # call, never describe every later board (a seeded game after
                # a reconnect on an unread pop: 140 s of differences).
                self.stage = "game"
                self._lose_track(self.check_said, whole)
                return
            if self.check_said != whole:
                self.check_said = whole
                self.held_pops_since_check = False
                self._say(" ".join(boards.differences(seen, expected)[:3]), urgent=True)
            return
        if miss and not self._explained(seen, expected, miss):
            self._note_missing(miss)
            return
        gone = boards.gone_home(whole, expected)
        if gone:
            # Only pegs "back in Home" with nothing else changed: no move does
            # that. A peg lifted and misread in Home is asked for after a
            # while, never called an illegal move.
            self._note_missing(gone)
            return
        if self._legal_on(self.referee.state, whole):
            self._feed_board(whole, miss)
            return
        if self._held_number_moved(whole):
            self._feed_board(whole, miss)
            return
        if self.before_move is not None and self._legal_on(self.before_move, whole):
            # The player let go, then changed their mind before anyone popped:
            # the final position counts.
            self._feed({"command": "undo"}, origin="loop")
            self._feed_board(whole, miss)
            return
        if self.inferred is not None and self._unread_no_pop(whole):
            return
        if self.inferred is not None and self._take_back_inference(whole):
            return
        if self.caught_up is not None and self._take_back_catch_up(whole):
            return
        if self.caught_stood is not None and self._guess_put_right_later(whole):
            return
        if self.unread is not None and self._move_after_unread(whole):
            return
        if self._weak_read_misread(whole):
            return
        if self._echo_pop(whole):
            return
        if self.unread is None and self._catch_up(whole):
            return
        if self.referee.phase == "pop" and self._pops_explaining(whole):
            if self._won_on_a_pop_unseen(whole):
                return
            # A move made while the camera saw no pop: the pop was missed (a
            # hand hid the die, a glare) or not made. Ask for the number
            # instead of calling the move illegal; a pop seen or said later
            # settles it (see _after_pop).
            if self.unseen_pop_board is None or not boards.same(whole, self.unseen_pop_board, colours):
                self.unseen_pop_board = whole
                name = (self.referee.player or "").capitalize()
                self._say(f"I did not see {name}'s pop. {name}, say the number you popped, or pop now.", expects="number")
            return
        carried = self._victim_in_hand(whole, expected)
        if carried is not None:
            # A bump whose victim is on its way Home in a hand, seen over
            # another hole: the peg is in transit, not placed (seen in a whole
            # rendered game: a yellow peg read on Yellow's Finish 3 as it was
            # carried Home). Judged as a bump with the victim not yet Home.
            self._evaluate(carried)
            return
        back = boards.nudged_back(whole, expected)
        if back and not (self.referee.phase == "move" and self.referee.pending_pop in back.values()):
            # One peg a hole or two behind its place, nothing else changed,
            # and no guessed value to take back: knocked or misread, asked
            # for like a missing peg. Moved back by exactly the pop, it is a
            # move the wrong way, and called.
            self._note_missing({c: 1 for c in back})
            return
        if self.illegal_board is None and (in_hand := self._mid_move(whole, expected)):
            # The player to move has a peg in hand (read in its Home: the hand
            # went unseen) and another colour's peg reads a hole or two off
            # (seen in a whole rendered game: Red's peg lifted, Green's Finish
            # peg read one hole on, called "put the pegs back"). No move makes
            # that; the finished move will show on the next board.
            self._note_missing(in_hand)
            return
        if self.illegal_board is None and (misread := self._misread_home(whole)):
            # Some way of playing the pops seen leads here but for pegs seen in
            # their Home (lifted, or misread there), and the unread pop or two
            # such ways leave it open which: ask for the pegs, call nothing;
            # the next board read right settles it.
            self._note_missing(misread)
            return
        if self.illegal_board is not None and boards.same(whole, self.illegal_board, colours):
            return
        if self.illegal_board is not None and self._played_on(whole):
            return
        if self.illegal_board is not None and not miss:
            # Called, and the table has moved on to another board no move
            # explains, without putting the board right (with pops seen since,
            # or none: in a dim whole rendered game the camera saw no pops
            # at all while the table played on, and every board was called,
            # 55 times): the loop has lost track. It says so once and follows
            # the board, never calling every later move wrong.
            self._lose_track(self.illegal_board, whole)
            return
        hold = self._transit_hold(whole, expected) if self.illegal_board is None else 0.0
        if hold:
            # No move explains the board, and play has not gone on: a peg
            # may still be in the hand, over another hole, or misread for a
            # moment (whole rendered games: Blue's peg carried from its Start
            # read in Blue's Finish for a second, and the loop lost track;
            # fresh games read a carried peg seated short of its place or
            # past it, and a Home peg on its Start, and called them). Judged
            # only if it stays so (:meth:`_transit_hold`).
            if self.transit is None or not boards.same(whole, self.transit[0], colours):
                # Held from when the board was first seen: one judged again
                # after the players said a number has stood long enough.
                seen_since = self.board_since if self.last_board is not None and boards.same(
                    whole, boards.complete(self.last_board, expected), colours) else self.t
                self.transit = (whole, min(seen_since, self.t), hold)
            if self.t - self.transit[1] < self.transit[2] - 1e-9:
                return
        self.transit = None
        if self._too_unsure_to_call(whole):
            if miss:
                # A peg off the board too (a bumped peg beside it, in a
                # seeded game where two unread pops and a blind stretch left
                # two ways to the board): asked for, and the board followed
                # once it is whole.
                self._note_missing(miss)
                return
            self._note_missing(miss)  # (none: a peg asked for before is back)
            if self._ask_before_following(whole):
                return
            self._lose_track(whole, whole)
            return
        called, self._called_before = self._called_before, None
        self.illegal_board = whole
        if called is not None and boards.same(whole, called, colours):
            # Called already, and judged again after the players said a
            # number: still wrong, and the players heard why (said twice, the
            # second call named the same pegs, in seeded games where the
            # number answered the loop's question).
            return
        self._feed({"board": whole}, origin="camera")

    def _held_number_moved(self, whole: boards.Board) -> bool:
        """A number said during this move and held as a possible count
        aloud (``corrections.HeldNumber``), against a pop that stood on no
        sure read (one read with a doubt, said, or worked out), and *whole*
        is a legal move for it and not for that pop: the player's word and
        the board agree, so the number is taken (the move is then legal).
        A table counting aloud had its "one" taken at once for the pop its
        player had just said, and the move of 4 called (session 49)."""
        held, state = self.held_number, self.referee.state
        if (held is None or held.said is not None or held.pop_held or state is None
                or state.phase is not Phase.MOVE):
            return False
        if not self._legal_on(state._replace(pop=int(held.cmd.value["value"])), whole):
            return False
        from companion.live.corrections import take_held_number

        take_held_number(self)
        return self._legal_on(self.referee.state, whole)

    def _transit_hold(self, whole: boards.Board, expected: boards.Board) -> float:
        """How long *whole*, a board no move explains, must stay before it is
        judged: ``TRANSIT_HOLD_S`` when it differs from the game only in the
        player to move's pegs, by more than two pops' worth of pips
        (``TRANSIT_PIPS``: no miscount puts a peg there, a hand carrying it
        over the board does); otherwise ``LoopSettings.call_hold_s`` (a wrong
        count, a peg in the hand read seated on its way, a peg misread for a
        moment); 0 once play has gone on (a pop held since, or one unread
        that is not the mover's own, still to be moved)."""
        if self._in_transit(whole, expected) or self._victim_lifted_first(whole, expected):
            return TRANSIT_HOLD_S
        if self.held_pops or boards.same(whole, expected, list(expected)):
            return 0.0
        if self.unread is not None and not (self.referee.phase == "pop"
                                            and self.unread.player == self.referee.player):
            return 0.0
        # The mover's own pop seen but not read is no play gone on: the board
        # is the move on it, and a peg carried in the hand reads seated on its
        # way as it does on a pop read (fresh whole game seed 153 at 640x480:
        # Blue's peg carried from 7 to Blue's Finish read on 25 for a third of
        # a second, and called "pop first, then move" at once).
        return self.settings.call_hold_s

    def _in_transit(self, whole: boards.Board, expected: boards.Board) -> bool:
        """Whether *whole* differs from the game only in the player to move's
        pegs, and by more than two pops' worth of pips (``TRANSIT_PIPS``), with
        no pop seen since the one being moved: no miscount puts a peg there,
        a hand carrying it over the board does."""
        mover = self.referee.player
        limit = TRANSIT_PIPS
        if (self.unread is not None and self.referee.phase == "pop" and not self.held_pops
                and mover == self.unread.player and self.unseen_pop_board is None
                and mover is not None and boards.one_peg_moved(whole.get(mover, []), expected.get(mover, []))):
            # The mover's pop was seen but not read, and no value of it
            # explains the board: a peg further on than a 6 counted one
            # space too far (``UNREAD_TRANSIT_PIPS``) is most likely still in
            # the hand (a whole rendered game at 640x480: Yellow's peg on 9,
            # moved on a 1, read on Yellow's Finish 3 for a moment, and called
            # "pop first, then move"). Judged only if it stays so.
            limit = UNREAD_TRANSIT_PIPS
        elif self.referee.phase != "move" or mover is None or self.held_pops or self.unread is not None:
            return False  # with pops held since, several moves may show at once
        if mover is None or not boards.same_but(whole, expected, mover) or boards.same(whole, expected, [mover]):
            return False
        return pips_needed({mover: expected[mover]}, {mover: whole.get(mover, [])}) > limit

    def _victim_lifted_first(self, whole: boards.Board, expected: boards.Board) -> bool:
        """Whether *whole* differs from the game only in one peg of another
        colour, gone from where a legal move of the player to move would bump
        it and seen over another hole: the victim lifted before the bump, in
        the hand that carries it Home (a fresh whole rendered game at 640x480:
        Red's peg, lifted off 26 before Blue's 6 landed there, read on Red's
        Finish 1 for two seconds and called "not Red's turn"). The bump that
        follows shows on the next board."""
        state, mover = self.referee.state, self.referee.player
        if state is None or state.phase is not Phase.MOVE or mover is None:
            return False
        changed = [c for c in expected if Counter(whole.get(c, ())) != Counter(expected[c])]
        if len(changed) != 1 or changed[0] == mover:
            return False
        victim = changed[0]
        gone = Counter(expected[victim]) - Counter(whole.get(victim, ()))
        extra = Counter(whole.get(victim, ())) - Counter(expected[victim])
        if sum(gone.values()) != 1 or sum(extra.values()) != 1 or "home" in extra:
            return False
        (place,) = list(gone)
        return any(move.victim == victim and move.to_place == place for move in legal_moves(state))

    def _catch_up(self, whole: boards.Board, unread: _Unread | None = None) -> bool:
        """Several moves seen at once (the board was not readable while they
        were made): when exactly one way of playing the held pops leads to
        *whole*, play it step by step (see :mod:`companion.live.catch_up`).
        With *unread*, the pop the camera could not read comes first, any
        value. A board that is one or more moves except for pegs the game
        has out seen in their Home (misread or lifted: no move does that) is
        played too, and those pegs asked for after a while, as missing pegs
        are. Returns whether it did."""
        state = self.referee.state
        if state is None:
            return False
        if self._popped_again_taken_out(whole, unread):
            return True
        lead: list[int | None] = [None] if unread is not None else []
        as_read = list(self.held_pops)
        pops = lead + values_of(self.held_pops)
        way = only_way(state, pops, whole) if pops else None
        if way is None:
            way = only_way(state, pops, whole, gone_home=True, min_steps=1)
            if (pops and no_way(state, pops, whole)
                    and self._tap_rather_than_misread(whole, way is not None, unread)):
                return True
        before_recent = self._way_before_recent_pops(way, len(pops), lead, state, whole) if way else None
        if before_recent is not None:
            way, pops = before_recent
        for weak in self._weak_held_unread() if way is None else []:
            # No way with the held pops as read, one with a pop read weakly
            # taken as unread (one at a time, then all): a misread more
            # likely than a miscount (see _weak_read_misread); its value is
            # worked out and asked.
            pops = lead + values_of(weak)
            way = only_way(state, pops, whole)
            if way is not None:
                self._take_weak_back(weak)
                break
        before_recent = self._way_before_recent_pops(None, len(pops), lead, state, whole) if way is None else None
        if before_recent is not None:
            way, pops = before_recent
        for again, at in self._six_again_unseen() if way is None and unread is None else []:
            # Or with a 6 the die settled on again under a hand (no pop the
            # camera could trust) put in after the 6 it repeats: it stands
            # only if the way makes that pop a 6; asked like any worked out.
            pops = values_of(again)
            way = only_way(state, pops, whole)
            if way is not None and [step.pop for step in way if step.pop is not None][at:at + 1] == [6]:
                self.held_pops = again
                break
            way = None
        for echo, value in self._held_echoes(whole) if way is None and unread is None else []:
            # Or with a held pop taken back that repeats the pop seen just
            # before it: the same face read twice (a hand's shade over a
            # die that never moved), as ``_echo_pop`` takes back the pop
            # being moved.
            way = only_way(state, values_of(echo), whole)
            if way is not None:
                self.held_pops = echo
                self._say(f"I read the {value} twice: that was no pop.")
                break
        if way is None and unread is not None and self._unread_ruled_out(whole, unread):
            return True
        if way is None:
            return False
        self._play_way(way, state, pops, unread, whole, as_read if len(self.held_pops) < len(as_read) else None)
        return True

    def _play_way(self, way: list[Step], state: State, pops: list[int | None], unread: _Unread | None,
                  whole: boards.Board, as_read: list[PopSettled | PopUnread] | None = None) -> None:
        """Play *way*, found by a catch-up from *state* with *pops* (the
        unread pop first, when *unread*) to *whole*, step by step, and ask
        about one value it guessed. *as_read*: the pops held as the camera
        reported them, when the way takes one out (read twice): that too is
        a guess, open to a board put right."""
        guessed = any(step.unread for step in way)
        # Open to a change of mind when values were guessed, or a pop read
        # was taken out (a seeded truth game: a wrong count explained by
        # Blue's 4 "read twice", put right a moment later to the move the 4
        # makes, and that board called "moved 1 space, but the pop was 6");
        # _feed counts what is fed from here on (the later pops released
        # included).
        held = list(self.held_pops) if as_read is None else list(as_read)
        self.caught_up = (_CaughtUp(state, held, unread, 0, self.t, len(self.said), board_since=self.board_since)
                          if guessed or as_read is not None else None)
        if guessed:
            self._open_doubt(state, pops)
        feed = self._feed

        if unread is not None:
            self.unread = None
            self.inferred = None
        # The unread pops a move used, as (the held pop, or None for *unread*;
        # the player; the value guessed; the move): one is asked about.
        guesses: list[tuple[PopUnread | None, str, int, Move]] = []
        for i, step in enumerate(way):
            if step.pop is not None:
                first = i == 0 and unread is not None
                taken = None if first else self.held_pops.pop(0)
                if step.unread and step.move is not None and (first or isinstance(taken, PopUnread)):
                    player = unread.player if first and unread is not None else self.referee.player or ""
                    guesses.append((taken if isinstance(taken, PopUnread) else None, player,
                                    step.pop, step.move))
                self.before_pop = self.referee.state
                if step.unread and step.move is None and self._lost_alike(step.pop) > 1:
                    # A pop no peg used, and other values would have been
                    # lost the same way: its value is unknown, so it is not
                    # made up (a whole rendered game: "That move means Red
                    # popped a 4" for a 5; 4, 5 were both blocked).
                    name = (self.referee.player or "").capitalize()
                    self._say(f"No peg moved after {name}'s pop.")
                    self.unread_passed += 1
                    feed({"command": "skip"}, origin="loop", quiet=("skip",))
                elif step.unread:
                    name = (self.referee.player or "").capitalize()
                    self._say(f"That move means {name} popped a {step.pop}.")
                    feed({"pop": step.pop}, origin="loop", quiet=("pop",))
                else:
                    feed({"pop": step.pop}, origin="camera")
            if step.move is not None:
                before = self.referee.state
                assert before is not None
                after = apply_move(before, step.move)
                feed({"board": boards.normalise(after.position(), list(whole))}, origin="camera")
                self.before_move = before
        self.illegal_board = None
        self.unseen_pop_board = None
        self._note_missing(boards.gone_home(whole, self.referee.position))
        self._release_pops()
        if guesses:
            # A peg brought out can only have been a 6; a peg moved along
            # could be a wrong count of the pop it fits, so that is the pop
            # asked about (a whole truth game: "Red, was your pop a 6?" asked
            # of the 6 that brought a peg out, not of the 5 moved as a 6).
            held_pop, player, value, _ = next((g for g in guesses if g[3].frm != HOME), guesses[0])
            self._ask_inferred(self.caught_up, player, value, held=held_pop)

    def _way_before_recent_pops(self, way: list[Step] | None, n_pops: int, lead: list[int | None], state: State,
                                whole: boards.Board) -> tuple[list[Step], list[int | None]] | None:
        """*way*, found by a catch-up with the *n_pops* pops (*lead* and the
        held ones), moves a held pop that settled under ``MOVE_AFTER_POP_S``
        before this board, which no player can have moved yet, or no way
        was found (*way* ``None``: with such pops unread, the search may
        give up): the one way the pops held before those lead to *whole*,
        as read or with reads under ``WEAK_READ`` taken as unread
        (``_weak_held_unread``), with the pops it played; the recent pops
        stay held. ``None`` when *way* moves no such pop, or no other way
        fits. (Fresh game 1032 with a table counting aloud, session 51:
        Red's unread 3, taken weakly for the "one" its count began with, and
        Red's next pop, unread too and settled 0.17 s before the board, were
        played as a 1 and a 2 that made Red's move of 3; Red's real move of
        that pop was called "The board does not match one move".)"""
        held, recent = self.held_pops, self._recent_held()
        if recent == 0 or (way is not None and sum(step.pop is not None for step in way) <= n_pops - recent):
            return None
        earlier, tail = held[:-recent], held[-recent:]
        found = self._first_way(state, lead, earlier, whole)
        if found is None:
            return None
        way_found, pops_held = found
        self._take_weak_back([*pops_held, *tail])
        return way_found, lead + values_of(self.held_pops)

    def _first_way(self, state: State, lead: list[int | None], held: list[PopSettled | PopUnread],
                   whole: boards.Board) -> tuple[list[Step], list[PopSettled | PopUnread]] | None:
        """The one way (``only_way``) *lead* and *held* lead from *state* to
        *whole*, with *held* as read or else with weak reads taken as unread
        (``_as_read_or_weak``), and the held pops it played; ``None``."""
        for pops_held in self._as_read_or_weak(held):
            pops = lead + values_of(pops_held)
            way = only_way(state, pops, whole) if pops else None
            if way is not None:
                return way, pops_held
        return None

    def _as_read_or_weak(self, held: list[PopSettled | PopUnread]) -> list[list[PopSettled | PopUnread]]:
        """*held* as read, then with its weak reads taken as unread."""
        return [held, *self._weak_held_unread(held)]

    def _recent_held(self) -> int:
        """How many of the held pops, the last ones, settled under
        ``MOVE_AFTER_POP_S`` before now: no peg can have been moved on them
        on a board reported now."""
        held = self.held_pops
        recent = 0
        while recent < len(held) and self.t - held[-1 - recent].t < MOVE_AFTER_POP_S:
            recent += 1
        return recent

    def _take_weak_back(self, weak: list[PopSettled | PopUnread]) -> None:
        """Hold *weak*, the held pops with reads taken as unread, instead."""
        self._weak_taken_back.update(p.t for p in self.held_pops if not any(p is q for q in weak))
        self.held_pops = weak

    def _weak_held_unread(self, held: list[PopSettled | PopUnread] | None = None,
                          ) -> list[list[PopSettled | PopUnread]]:
        """The held pops (or *held*) with one read under ``WEAK_READ`` taken
        as unread, for each such pop in turn, then the weakest two, three, ...
        of them, up to all (when more than one). (A fresh whole rendered game
        at 640x480: Yellow's 6 read as 2 at 0.99 and held while Blue's move
        went unseen; Blue's move and Yellow's peg brought out were then seen
        together and called "The board does not match one move". Fresh game
        1205 counting aloud: two counts' "one"s taken weakly, at 0.5, for
        unread pops held, with a 2 read at 0.946 after them; all three taken
        back with the unread pop held made four, more than a history may
        search, and five moves seen together were called.)"""
        held = self.held_pops if held is None else held
        weak = sorted((p.confidence, i) for i, p in enumerate(held)
                      if isinstance(p, PopSettled) and p.confidence < WEAK_READ)
        sets = sorted([i] for _, i in weak)
        sets += [sorted(i for _, i in weak[:n]) for n in range(2, len(weak) + 1)]
        return [[PopUnread(p.t) if i in chosen else p for i, p in enumerate(held)] for chosen in sets]

    def _six_again_unseen(self) -> list[tuple[list[PopSettled | PopUnread], int]]:
        """The held pops with a pop put in, unread, after a 6 (the one being
        moved, or one held) where the camera saw the die settle on 6 again
        under a hand before the next pop (``DieResettled``): each such
        (held pops, where the pop put in is). The camera cannot tell a pop
        of the same face under a hand from a hand passing beside the dome,
        so it reports neither as a pop; a 6 is the one value that gives the
        same player the next pop, which a board of two moves seen at once
        can show. Not beside a pop the camera could not read (two pops of
        no known value fit too much: a wrong count in the truth benchmark's
        seed 98 was taken for a 6 and a 1). (A fresh whole rendered game at
        640x480: Green's second 6 lost under the hand that brought a peg
        out; both moves seen at once with the 3 after them held, and "The
        board does not match one move" called. Without the die's word, a
        pop put in after every 6 explained away a wrong count of 6 in the
        truth benchmark's seed 310.)"""
        held = self.held_pops
        state = self.referee.state
        if state is None or any(isinstance(p, PopUnread) for p in held):
            return []
        sixes: list[tuple[int, float]] = []  # (where in the held pops the pop goes, when the 6 settled)
        at_pending = self._pop_before_held()
        pending = self.seen_pops[at_pending] if at_pending is not None else None
        if state.phase is Phase.MOVE and state.pop == 6 and isinstance(pending, PopSettled) and pending.value == 6:
            sixes.append((0, pending.t))
        sixes += [(i + 1, p.t) for i, p in enumerate(held) if isinstance(p, PopSettled) and p.value == 6]
        out = []
        for at, t in sixes:
            until = held[at].t if at < len(held) else self.t
            again = [r for r in self.resettled if r.value == 6 and t < r.t < until]
            if again:
                out.append(([*held[:at], PopUnread(again[0].t), *held[at:]], at))
        return out

    def _held_echoes(self, whole: boards.Board) -> list[tuple[list[PopSettled | PopUnread], int]]:
        """The held pops with one taken out that repeats, read, the value of
        the pop seen just before it (the pop being moved, or the held one
        before it), never a 6 (a 6 earns the same player the next pop): each
        such (held pops, the value). (A fresh whole rendered game at
        640x480, seed 369: Red's 3 read again 2.8 s later while Red's hand
        moved the peg, held with Blue's 5; Red's move of 3 and Blue's of 5
        seen at once were called "The board does not match one move".)"""
        held = self.held_pops
        state = self.referee.state
        # Never beside a pop the camera could not read, nor when the pops as
        # read reach the board some way (several histories are no reason to
        # take a real pop out: two players' 4s, both lost, in a seeded game).
        if (state is None or any(isinstance(p, PopUnread) for p in held)
                or some_history(state, values_of(held), whole, unseen_last=False)):
            return []
        at = self._pop_before_held()
        before = self.seen_pops[at] if at is not None else None
        out = []
        for i, p in enumerate(held):
            prior = held[i - 1] if i else before
            if (isinstance(p, PopSettled) and isinstance(prior, PopSettled) and p.value == prior.value
                    and p.value != 6):
                out.append(([*held[:i], *held[i + 1:]], p.value))
        return out

    def _pop_before_held(self) -> int | None:
        """Where in ``seen_pops`` the pop the camera saw just before the
        first held one is (the last seen when none is held): the pop being
        moved, when the game waits for a move."""
        if not self.held_pops:
            return len(self.seen_pops) - 1 if self.seen_pops else None
        first = self.held_pops[0].t
        at = next((i for i, p in enumerate(self.seen_pops) if abs(p.t - first) < 1e-9), None)
        return at - 1 if at else None

    def _victim_in_hand(self, whole: boards.Board, expected: boards.Board) -> boards.Board | None:
        """*whole* without the one peg that makes it no legal move, when that
        peg is of a colour another colour's peg now stands in place of (a
        bump) or that is on its way Home after one, and, taken off the board,
        it leaves a legal bump with its victim not yet Home (or the game's
        own position); else None."""
        changed = [c for c in expected if Counter(whole.get(c, ())) != Counter(expected[c])]
        for colour in changed:
            extra = Counter(whole.get(colour, ())) - Counter(expected[colour])
            if sum(extra.values()) != 1 or "home" in extra:
                continue
            (place,) = list(extra)
            rest = list(whole[colour])
            rest.remove(place)
            board = {c: (rest if c == colour else list(p)) for c, p in whole.items()}
            if not self._explained(board, expected, {colour: 1}):
                continue
            completed = boards.complete(board, expected)
            if boards.same(completed, expected, list(expected)) or self._legal_on(self.referee.state, completed) or (
                self.referee.phase == "pop" and self._pops_explaining(completed)
            ):
                return board
        return None

    def _beyond_catch_up(self) -> bool:
        """More pops held (the unread one waiting counted) than a catch-up
        may play: too many, or too many of them unread."""
        unread = sum(isinstance(p, PopUnread) for p in self.held_pops) + (self.unread is not None)
        return len(self.held_pops) + (self.unread is not None) > MAX_POPS or unread > MAX_UNREAD

    def _ways_reach(self, whole: boards.Board) -> bool:
        """Some way of playing the pops held (the unread one first) reaches
        *whole*, with the pops it leaves over fitting it, though not one way
        only (or the catch-up would have played it); or does with pops held
        read weakly taken as unread (``_weak_held_unread``; since session
        51: fresh game 997 counting aloud, two counts' "one"s taken weakly
        for unread pops held behind Yellow's 6, four moves seen together
        and called "The board does not match one move")."""
        return bool(self.held_pops) and any(self._reached_from_here(whole, held)
                                            for held in self._as_read_or_weak(self.held_pops))

    def _stood(self, since: float, seconds: float) -> bool:
        """Whether *seconds* have passed since *since* (game times; a
        hundredth of a millisecond short counts: truth seed 7428 at three
        tenths, a catch-up's board seen 3.99999999999998 s before the next
        move was taken back as if fresh, and the next player's move was
        called out of turn)."""
        return self.t - since >= seconds - TIME_SLACK_S

    def _popped_moments_ago(self) -> bool:
        """The camera saw a pop settle under ``MOVE_AFTER_POP_S`` ago: the
        board now shows no move on a pop after it."""
        return self.pop_seen_at is not None and self.t - self.pop_seen_at < MOVE_AFTER_POP_S

    def _reached_from_here(self, whole: boards.Board, held: list[PopSettled | PopUnread] | None = None) -> bool:
        """Some way of playing the pops held (or *held*; the unread one
        first) from the game as it stands now leads to *whole*."""
        state = self.referee.state
        held = self.held_pops if held is None else held
        pops = ([None] if self.unread is not None else []) + values_of(held)
        return state is not None and some_history(state, pops, whole, unseen_last=False)

    def _too_unsure_to_call(self, whole: boards.Board) -> bool:
        """A board no move explains, but the game it is judged against rests
        on too much the camera did not see: the loop follows the board (lost
        track) instead of calling it. Each case was a false call in a whole
        rendered game (docs/live.md):

        * a move was seen with no pop (asked for), then a pop seen but not
          read: two pops without values (a 6 never seen, its extra pop
          unread, the second move called "pop first");
        * "not your turn" when the turn passed on a guess (an unread pop
          taken for one no peg could use; Yellow's pop taken for Blue's);
        * most recent pops were seen but not read (:meth:`_die_blind`: a dim
          room, no pop read at all, 55 calls);
        * more pops held than a catch-up may try, or no board agreeing with
          the game for ``LONG_UNSEEN_S`` while pops were seen, or a board
          more than a pop's worth of pips beyond the pops seen
          (:meth:`_pops_missed`: pops the camera never saw);
        * a peg placed from a board when the loop got back in step is gone
          from there (:meth:`_adopted_gone`);
        * a history from before a guess about an unread pop explains the
          board (:meth:`_doubt_explains`: a pop given to the wrong player);
        * the board is the next player's move after a lost pop, with neither
          pop seen, or after more lost pops (:meth:`_pops_unseen`), or the
          pop being moved came after the die went unseen long enough for a
          lost pop before it (:meth:`_pop_lost_unseen_before`);
        * several ways of playing the pops held reach the board and leave
          different games (:meth:`_ways_reach`: a seeded game's Blue, out on a
          6 and two unread pops, "a peg out of Home goes onto Blue's Start");
        * the pop waiting for its move was read but the table went on as if
          no peg could use it (:meth:`_read_pop_unused`: a misread die).
        """
        return (
            (self.unseen_pop_board is not None and self.unread is not None)
            or (self.turn_guessed and self._not_your_turn(whole))
            or (self._die_blind() and not self._judged_on_a_read_pop(whole))
            or self._beyond_catch_up()
            or self._long_unseen()
            or self._several_players_advanced(whole)
            or self._pops_missed(whole)
            or self._adopted_gone(whole)
            or self._doubt_explains(whole)
            or self._pops_unseen(whole)
            or self._pop_lost_unseen_before(whole)
            or self._ways_reach(whole)
            or self._read_pop_unused(whole)
        )

    def _read_pop_unused(self, whole: boards.Board) -> bool:
        """The pop waiting for its move was read, yet the table went on as if
        no peg could use it: the next pop came, a board with the mover's pegs
        unmoved was seen after it, and the board now is another player's
        move, which that pop lost (any value no peg could use) explains. The
        die was most likely misread, and the board is followed, not called.
        (A whole rendered game at 640x480: Red's 4 read as a 6 at 0.99 over a
        whole settle, Red's pegs all Home; Blue's 4 held as Red's extra pop,
        and Blue's move called "not Blue's turn".) A player who forgets a pop
        they could use is not called either: the loop says it has lost track."""
        before, mover = self.before_pop, self.referee.player
        if (before is None or mover is None or self.referee.phase != "move" or not self.held_pops
                or self.unread is not None or self.board_agreed_at is None
                or self.board_agreed_at <= self.held_pops[0].t):
            return False
        if not boards.same(whole, self.referee.position, [mover]):
            return False  # the mover's pegs moved: a move, judged as one (a wrong count is called)
        return some_history(before, [None, *values_of(self.held_pops)], whole, unseen_last=False)

    def _judged_on_a_read_pop(self, whole: boards.Board) -> bool:
        """The move on *whole* stands on what the camera saw even while the die
        goes mostly unread (:meth:`_die_blind`): the pop being moved was read,
        nothing is held or guessed, a board agreed with the game after that
        pop, and only the mover's pegs differ from it. A wrong count then is
        as plain as in good light (a whole rendered game: Blue's 3 read, the
        board checked, Blue's peg moved 4, and the loop said "I have lost
        track" instead of calling it, because most earlier pops were unread).
        An open guess made from the move before this pop was seen counts as
        nothing guessed: that move was on the board before the pop came
        (seeded game 22 at 1280x720 with wrong counts, session 42: Red's
        unread pop worked out from Red's move, Blue's 5 read after it and
        moved 4; the loop lost track instead of calling it).
        """
        mover = self.referee.player
        said = self.pop_said_at is not None and self.pop_said_at == self.pop_seen_at
        inferred = self.inferred
        if (self.referee.phase != "move" or mover is None or self.held_pops or self.unread is not None
                or self.caught_up is not None or self.turn_guessed
                or not self.pops_read or not (self.pops_read[-1] or said)):
            return False
        if self.pop_seen_at is None or self.board_agreed_at is None:
            return False
        if self.board_agreed_at < self.pop_seen_at and not self._agreed_just_before_pop():
            return False
        if inferred is not None and not (inferred.from_move and not inferred.own_move
                                         and inferred.t < self.pop_seen_at):
            return False
        return boards.same_but(whole, self.referee.position, mover)

    def _agreed_just_before_pop(self) -> bool:
        """A board agreed with the game after the pop before the one being
        moved, too short a time before this pop for another pop between
        (``UNSEEN_POP_S``): the game this pop is moved in was seen, though
        no board came between the pop and its move. A table saying each
        number (the die unread) moves at once: ``--illegal`` game 22 at
        640x480, session 48, Yellow said 4, moved 5, and the loop lost track
        instead of calling it; the board had agreed 1.5 s before the pop."""
        assert self.pop_seen_at is not None and self.board_agreed_at is not None
        earlier = [p.t for p in self.seen_pops if p.t < self.pop_seen_at - 1e-9]
        return (bool(earlier) and self.board_agreed_at >= earlier[-1]
                and self.pop_seen_at - self.board_agreed_at < UNSEEN_POP_S)

    def _pops_unseen(self, whole: boards.Board) -> bool:
        """No pop seen since the game last agreed with the board, and *whole*
        is one move of a later player, as if the player to pop had popped a
        number no peg could use and the next one then popped and moved,
        neither pop seen (a whole rendered game: "Not Red's turn" when
        Green's lost pop and Red's were both hidden by hands). Or two lost
        pops or more before the move, when there was time for them
        (``UNSEEN_POP_S`` each since the last board agreeing with the game: a
        fresh whole rendered game at 640x480 with a die too small to see
        tumble, Blue's and Yellow's lost pops and Red's unseen, and "Not Red's
        turn" called). The loop cannot tell that from a move out of turn, so
        it does not call it."""
        state = self.referee.state
        if state is None or state.phase is not Phase.POP or self.held_pops or self.unread is not None:
            return False
        for lost, frontier in self._after_lost_unseen(state):
            if lost > 1 and (self.board_agreed_at is None
                             or self.t - self.board_agreed_at < UNSEEN_POP_S * (lost + 1)):
                return False
            if any(self._pops_explaining(whole, after) for after in frontier):
                return True
        return False

    def _after_lost_unseen(self, state: State) -> Iterator[tuple[int, list[State]]]:
        """For 1 up to one fewer than the players: how many pops nobody saw
        were each lost, and the games after them in which another player
        than *state*'s is to pop (a lost 6 gives the same player another
        pop). Lazily, so a caller stops where time allows no more."""
        frontier = [state]
        for lost in range(1, len(self.players or self._colours())):
            frontier = [after for s in frontier for values in self._lost_by_next_player(s).values()
                        if str((after := lose_move(rules_pop(s, values[0]))).player) != str(state.player)]
            yield lost, frontier

    def _pop_lost_unseen_before(self, whole: boards.Board) -> bool:
        """The pop being moved was read after the die had gone
        ``BLIND_BEFORE_S`` or more without a value read (a hand over the dome,
        glare), and *whole* is what the table would show had a pop nobody saw
        come before it and been lost: the read pop then belongs to the next
        player. (A fresh whole rendered game at 640x480: the die unseen for
        7 s, Green's lost pop inside it, Red's 4 read and given to Green, and
        Red's move called "not Red's turn".) The price: a wrong count on such
        a pop goes uncalled when a lost pop before it would explain it."""
        fed, state = self.pop_fed, self.referee.state
        if (fed is None or state is None or state.phase is not Phase.MOVE or self.unread is not None
                or self.caught_up is not None):
            return False
        pop, before = fed
        if pop.blind_s < BLIND_BEFORE_S or state.pop != pop.value:
            return False
        return some_history(before, [None, pop.value, *values_of(self.held_pops)], whole, unseen_last=False)

    def _doubt_explains(self, whole: boards.Board) -> bool:
        """Some history from before a guess the loop made explains *whole*
        (see :class:`_Doubt`): the guess may be what is wrong, not the move.

        A peg that history brought out onto its Start may be seen in its
        Home (:func:`companion.live.catch_up.some_history`): fresh whole game
        474 at 640x480 brought Red's peg out on an unread 6 and read it in
        Red's Home for seconds (a phantom on the red print took its place),
        so the loop took the unread pop for Red's move of 2, gave the 2 read
        to Blue, and called Blue's move of 5. The cost, in the truth games
        with wrong counts left standing 4 s: one more of 247 uncalled."""
        return any(doubt.reaches(whole) or self._put_right_since(doubt, whole) for doubt in self.doubts)

    def _put_right_since(self, doubt: _Doubt, whole: boards.Board) -> bool:
        """*whole* came moments after the last board *doubt* saw, with no
        pop between, and its history from before the guess reaches *whole*
        without passing through that board: the guess may have made a wrong
        count look legal, put right at once. (Truth game seed 5771 at a
        tenth unread: Yellow's unread 6 and extra 5 both lost; taken as one
        lost pop, the 5 went to Green, whose move of 5 on a 6 fitted it, and
        Green's 6 to Red; Green put the peg right a second later, and it was
        called "Not Green's turn".)"""
        seen = doubt.seen
        last = max((i for i, step in enumerate(seen) if isinstance(step, dict)), default=None)
        if last is None or doubt.left_at - doubt.board_at > PUT_RIGHT_S:
            return False
        return doubt.reaches(whole, [*seen[:last], *seen[last + 1:]])

    def _ask_before_following(self, whole: boards.Board) -> bool:
        """*whole*, which the loop is about to follow (lost track) instead of
        calling, is a wrong count of the pop the camera read for the mover,
        and only a doubt (:meth:`_doubt_explains`) keeps it from being
        called: ask the mover whether that was their pop first (see
        :class:`_DoubtQuestion`). Returns whether the board waits for the
        answer.

        (Seeded game 21 at 1280x720 with wrong counts: Blue's die landed
        cocked and read as no face, was tapped to a 6 1.3 s later, and Blue
        moved 5; the unread pop's doubt, a 5 moved before the 6 was
        another player's, explained the board, and the loop said "I have
        lost track of the moves" instead of calling it. Of such unread pops
        followed by a read one, 83 of 87 were a tapped die.)"""
        asked = self.doubt_question
        if asked is not None and boards.same(whole, asked.board, list(whole)):
            return self.t - asked.t < ANSWER_WAIT_S
        self.doubt_question = None
        mover = self.referee.player
        if (not self.settings.ask_back or self.stage != "game" or mover is None or not self.doubts
                or self.referee.phase != "move" or self.held_pops or self.unread is not None
                or self.caught_up is not None or self.last_pop_doubted
                or not self.pops_read or not self.pops_read[-1] or self.pop_seen_at is None
                or not boards.same_but(whole, self.referee.position, mover)):
            return False
        doubts, self.doubts = self.doubts, []
        try:
            sure = not self._too_unsure_to_call(whole)
        finally:
            self.doubts = doubts
        if not sure:
            return False
        self.doubt_question = _DoubtQuestion(whole, self.t)
        self._say(f"{mover.capitalize()}, was your pop a {self.referee.pending_pop}?", expects="yes-no",
                  about=self.pop_seen_at)
        return True

    def _answer_doubt_question(self, yes: bool) -> bool:
        """The mover answered :class:`_DoubtQuestion`: "yes" drops the doubts
        and the board is judged again (called); "no" has it followed."""
        asked, self.doubt_question = self.doubt_question, None
        if asked is None:
            return False
        board = self.last_board
        if board is None or self.stage != "game" or not boards.same(board, asked.board, list(board)):
            return True  # the board has changed since: judged as it came
        if yes:
            self.doubts = []
            self._evaluate(board)
        else:
            self._lose_track(board, board)
        return True

    def _open_doubt(self, state: State, pops: list[int | None], until_move: bool = False) -> None:
        """Keep the game *state* with the *pops* seen since as a doubt; with
        *until_move*, only until a board other than *state*'s is agreed."""
        seen: list[int | None | boards.Board] = list(pops)
        if until_move:
            seen.insert(0, {c: list(p) for c, p in state.position().items()})
        self.doubts = [*self.doubts[-(MAX_DOUBTS - 1):], _Doubt(state, seen, until_move=until_move)]

    def heard_after_board(self, value: int, t: float) -> None:
        """A number said against the camera's read pop (answered "I saw a 2
        on the die"), moments after a board the game agreed with and before
        any pop since: to the open doubts, it may be the pop of that board's
        move, one the camera never saw (see :meth:`_Doubt.said_for_last_board`).
        (Truth games at a tenth unread, seeds 5345, 5467, 5685 and 5769:
        Red's unread pop, lost, and Red's next pops given to Blue, whose
        peg then came out on a 6 nobody saw, Blue saying "six" after it;
        Blue's next move was called against the pop the loop had given Blue.)"""
        agreed = self.board_agreed_at
        if agreed is None or not 0.0 <= t - agreed <= HEARD_AFTER_BOARD_S:
            return
        if self.pop_seen_at is not None and self.pop_seen_at > agreed:
            return
        for doubt in self.doubts:
            doubt.said_for_last_board(value)
        self._doubts_saw_fit()

    def _doubts_saw(self, step: int | None | boards.Board) -> None:
        """A pop or an agreed board for every open doubt; those grown past
        what a search may try are closed."""
        for doubt in self.doubts:
            last = next((b for b in reversed(doubt.seen) if isinstance(b, dict)), None)
            if isinstance(step, dict) and (last is not None and boards.same(step, last, set(step) | set(last))):
                continue
            if isinstance(step, dict):
                doubt.saw_board(step, self.board_since)
            else:
                doubt.seen.append(step)
        self.doubts = [d for d in self.doubts if not (d.until_move and d.boards_seen() > 1)]
        self._doubts_saw_fit()

    def _doubts_saw_fit(self) -> None:
        """Close the doubts grown past what a search may try."""
        self.doubts = [d for d in self.doubts
                       if len(d.pops()) <= HISTORY_POPS and sum(v is None for v in d.pops()) <= HISTORY_UNREAD]

    def _adopted_gone(self, whole: boards.Board) -> bool:
        """A peg the loop placed from a board it could not explain (getting
        back in step) is not where it put it, and the game still has it
        there: that board may itself have been misread (in a whole rendered
        game a blue peg read in Blue's Finish for minutes was adopted, and
        every board after the misread ended was called)."""
        position = self.referee.position
        return any(place in position.get(colour, ()) and place not in whole.get(colour, ())
                   for colour, place in self.adopted)

    def _mid_move(self, whole: boards.Board, expected: boards.Board) -> dict[str, int]:
        """``{mover: pegs in hand}`` when the player to move (their pop read,
        or seen and not read) has pegs the game has out seen in Home, and the
        rest of the board differs from the game: the move is not finished,
        and the board is judged once the peg is down. Before session 31 only
        another colour's peg one or two holes off (a misread) was let wait so;
        fresh whole game 480 had Blue's peg in the hand and a red peg out that
        the camera had missed coming out ("The board does not match one move"
        a second before Blue put the peg down)."""
        mover = self.referee.player
        moving = self.referee.phase == "move" or (self.unread is not None and self.unread.player == mover)
        if not moving or mover is None or mover not in whole or mover not in expected:
            return {}
        in_hand = boards.gone_home({mover: whole[mover]}, {mover: expected[mover]})
        if not in_hand:
            return {}
        rest = {**whole, mover: list(expected[mover])}
        return in_hand if not boards.same(rest, expected, list(expected)) else {}

    def _pops_missed(self, whole: boards.Board) -> bool:
        """The board needs more than ``MISSED_PIPS`` pips beyond what the pops
        seen could give (each unread one counted as a 6): pops went by that
        the camera never saw, so no call can be trusted. (A whole rendered
        game: 26 s without a readable board, two of six pops unseen, a board
        29 pips on from the game with 20 seen.)"""
        state = self.referee.state
        if state is None:
            return False
        values = values_of(self.held_pops)
        available = sum(6 if v is None else v for v in values) + 6 * (self.unread is not None)
        if state.phase is Phase.MOVE:
            available += self.referee.pending_pop
        return pips_needed(self.referee.position, whole) > available + MISSED_PIPS

    def _long_unseen(self) -> bool:
        """No board has agreed with the game for ``LONG_UNSEEN_S`` while pops
        were seen."""
        return (bool(self.held_pops) and self.board_agreed_at is not None
                and self.t - self.board_agreed_at >= LONG_UNSEEN_S)

    def _several_players_advanced(self, whole: boards.Board) -> bool:
        """Pegs of two players or more stand out of Home where the game has
        none of theirs, on the first board read whole for ``SEVERAL_UNSEEN_S``,
        and one pop the camera never saw, anywhere among those it saw, makes
        a history of the board with every pop used: no one move, right or
        wrong, advances two players (a bump only sends a peg Home), so the
        camera missed play while it could not read the board, and "put the
        pegs back" would undo the table's moves (a whole rendered game at
        640x480 with a glint over some holes: four players' moves first seen
        together after 24 s, Blue's pop never seen, called). A pop that waits
        for its move is searched from before it: it may be the one given to
        the wrong player. The price: a wrong count among such moves goes
        uncalled whenever a missed pop could explain it (most can), which is
        why the board must follow ``SEVERAL_UNSEEN_S`` with none."""
        state = self.referee.state
        if state is None or self.board_gap_s < SEVERAL_UNSEEN_S:
            return False
        owners = {next((i for i, p in enumerate(self.players or []) if c in p), c)
                  for c in boards.advanced(whole, self.referee.position)}
        if len(owners) < 2:
            return False
        seen: list[int | None] = [*([None] if self.unread is not None else []), *values_of(self.held_pops)]
        if state.phase is Phase.MOVE:
            # The pending pop may be the one given to the wrong player: searched from before it.
            seen = [state.pop, *seen]
            state = state._replace(phase=Phase.POP, pop=0, sixes=max(state.sixes - 1, 0) if state.pop == 6 else 0)
        return any(some_history(state, [*seen[:i], None, *seen[i:]], whole, unseen_last=False, leftover=False)
                   for i in range(len(seen) + 1))

    def _misread_home(self, whole: boards.Board) -> dict[str, int]:
        """Pegs some way of playing the pops seen (the unread one first) has
        out where *whole* shows them in Home (:func:`catch_up.pegs_misread_home`)."""
        state = self.referee.state
        if state is None:
            return {}
        held = values_of(self.held_pops)
        pops = ([None] if self.unread is not None else []) + held
        return pegs_misread_home(state, pops, whole)

    def _take_back_catch_up(self, whole: boards.Board) -> bool:
        """The board a catch-up explained with guessed values is put right
        into one legal move, or another way of playing the same pops, from
        where the game stood before it: undo the catch-up, hold its pops
        again and judge the board afresh."""
        caught = self.caught_up
        assert caught is not None
        if caught.then is not None and boards.same(whole, caught.then, list(whole)):
            return False  # the board the catch-up was chosen to lead to
        pops = self._caught_pops(caught)
        if not self._legal_on(caught.state, whole) and only_way(caught.state, pops, whole) is None and (
            self._reached_from_here(whole) or not some_history(caught.state, pops, whole, unseen_last=False)
        ):
            # (Some way, not only one, when the game as caught up cannot
            # reach the board: a seeded game's wrong count 18 -> 24 was
            # caught up as an unread 5 and a 1, then put back to 22 for the
            # move still in hand, which an unread 4, or a 3 and the 1, makes.)
            return False
        if self.referee.phase == "pop" and self._stood(min(caught.t, caught.board_since), CAUGHT_UP_OPEN_S) and (
                self._pops_explaining(whole) or (self.unread is not None and self._some_way_explains(whole))):
            # The catch-up's board has stood a while and this is also a move
            # of the player now to pop, whose pop the camera missed: the
            # catch-up needs no undoing (as for an inference). Seen in a
            # seeded game: Blue's guessed 3 (14 -> 17, seen twice, Red's move
            # after it) taken back for a 4 when Blue's next pop went unseen
            # and Blue moved on to 18; Red's next move was then called out of
            # turn. A board put right within moments is still taken back.
            # So too when a pop seen but not read is pending after the
            # catch-up, and that pop lost, then a move on a pop nobody saw,
            # makes the board (truth game seed 231, three tenths unread:
            # Red's unread pop, then Blue's move on a missed pop taken for a
            # catch-up with Blue's unread 5 where Blue's 2 had been seen,
            # and Blue's answer given to Red).
            return False
        if not self._undo_catch_up(caught):
            return False  # cannot happen with the referee's undo; judge the board as it is
        self._judge_again(whole, caught.said)
        return True

    def _undo_catch_up(self, caught: _CaughtUp) -> bool:
        """Undo what *caught* fed and hold its pops again (the unread pop it
        guessed is unresolved once more). Returns whether the referee is back
        where it was before it."""
        self.caught_up = None
        self.question = None
        for _ in range(caught.fed):
            self._feed({"command": "undo"}, origin="loop", quiet=("undo",))
        if self.referee.state != caught.state:
            return False
        later = [p for p in self.held_pops if not any(p is q for q in caught.held)]
        self.held_pops = list(caught.held) + caught.pops + later
        self.unread = caught.unread
        self.before_move = None
        self.illegal_board = None
        return True

    def _not_your_turn(self, whole: boards.Board) -> bool:
        """The referee would call *whole* a move out of turn."""
        reading = _reading(self.referee.state, whole)
        return isinstance(reading, Seen) and reading.illegal.reason == "not-your-turn"

    def _die_blind(self) -> bool:
        """Most of the last pops were seen but not read by the camera: at
        least ``DIE_BLIND_SHARE`` of the last ``DIE_BLIND_OF``, and at least
        ``DIE_BLIND_MIN`` (pops never seen at all do not count: a hand over
        the die now and then is normal play, see the truth benchmark)."""
        unread = sum(not read for read in self.pops_read)
        return unread >= DIE_BLIND_MIN and unread >= DIE_BLIND_SHARE * len(self.pops_read)

    def _lose_track(self, before: boards.Board, now: boards.Board, said: bool = False) -> None:
        """Follow the board from *before* (*said*: the players were told already)."""
        self.lost_said = said or self.lost_said_at is None or self.t - self.lost_said_at >= LOST_SAID_QUIET_S
        if self.lost_said:
            if not said:
                self._say("I have lost track of the moves. I will go by the board from here.", urgent=True)
            self.lost_said_at = self.t
        self.illegal_board = None
        self.lost = before
        self.lost_gap = False
        self.follow_help_said = False
        self.lost_pops = len(self.held_pops)
        self.lost_from_t = self.t if boards.same(before, now, list(now)) else None
        self.lost_board_at = self.board_since if self.lost_from_t is not None else -math.inf
        self.lost_at = (self.t, len(self.held_pops), self.referee.state)
        self.doubts = []  # the board is followed from here: no history before it to go back to
        self._follow(now)

    def _follow(self, board: boards.Board) -> None:
        """Lost track: wait for a plain move, made with a pop seen since the
        last board, that tells whose turn it was; then set the game to that
        board and turn, and play the move (see :func:`catch_up.who_moved`).

        The same board seen again (the camera reports the position again
        after each pop) keeps the pops counted since it: otherwise a move
        would never have "a pop seen since the last board", and the loop
        would stay lost to the end of the game (a whole rendered game: four
        unread pops in a row, then silence for its last 15 s).

        A move whose board comes just after the last pop settled
        (``EARLY_POP_S``) is not used: that pop may be the next player's,
        popped early, or the mover's extra pop after a 6, and taking it for
        the mover's puts the turns one out (truth benchmark seeds 757 and
        171: a later move called "not your turn")."""
        gap, self.lost_gap = self.lost_gap, False
        state = self.referee.state
        if state is not None and self._followed_to_a_win(state, self.lost if self.lost is not None else board, board):
            return
        if self.lost is not None and boards.same(board, self.lost, set(board) | set(self.lost)):
            return
        before, self.lost = self.lost, board
        pops, self.lost_pops = self.lost_pops, 0
        since, self.lost_from_t = self.lost_from_t, None
        shown, self.lost_board_at = self.lost_board_at, self.board_since
        if before is None or state is None or not pops or not self.held_pops:
            return
        if self.board_since - shown < PUT_RIGHT_S and self.pop_seen_at is not None and self.pop_seen_at < shown:
            # The board followed stood a moment and changed with no pop
            # between: it may have been a wrong count put right, and then
            # the change tells nothing of whose move it was (truth game seed
            # 5260 at three tenths unread, held out until session 54:
            # Blue's 6 moved 5, unread, and put right a second later; taken
            # for a move of 1 on Blue's unread pop, the turn passed, and
            # Blue's next move was called "Not Blue's turn"). Follow from
            # this board instead.
            return
        if gap:
            # The board went unseen since *before*: the change may be more
            # than one move (truth game 531 at a tenth unread: Red's 4 moved
            # while the board was lost, then Blue's lost 5 and Red's unread
            # 2; the change taken for one move of 6, Red's extra pop then
            # held the turns one out, and a board was called). Follow from
            # this board instead.
            return
        if not self._follow_one_move(state, before, board, pops):
            self._follow_turns(state, before, board, pops, since)

    def _follow_one_move(self, state: State, before: boards.Board, board: boards.Board, pops: int) -> bool:
        """:meth:`_follow` by the last pop and one plain move; returns whether
        the loop got back in step."""
        last = self.held_pops[-1]
        values = _values_of_pop(last)
        if any(who_moved(state, before, board, _values_of_pop(p)) is not None
               for p in self.held_pops[-pops:-1]):
            # An earlier pop seen since the board fits the move too: which
            # one the move used, and so whose turn it is now, the move does
            # not tell (fresh seed 418, session 30: Blue's 3, Yellow's lost
            # 3 and Red's unread lost pop seen, then Blue's move; taken as
            # made with the last pop, the turns went one out and a board was
            # called). Wait for another move.
            return False
        if self.t - last.t <= EARLY_POP_S:
            # The last pop settled just before the board: it may be the next
            # player's, popped early, or the mover's extra pop after a 6 (the
            # move then used the pop before it). The move does not tell whose
            # turn it was: wait for another. (Counting it as a pop seen
            # since this board, for the next move, was tried in session 28:
            # fresh seeds 345 and 323 were followed sooner, but the truth
            # games at three tenths unread gained 4 false calls in 500.)
            return False
        found = who_moved(state, before, board, values)
        if found is None:
            return False
        colour, value = found
        if not self._back_on(before, colour):
            return False
        if isinstance(last, PopSettled):
            self._feed({"pop": value}, origin="camera")
        else:
            self._feed({"pop": value}, origin="loop")
        self._feed_board(board, {})
        return True

    def _follow_turns(self, state: State, before: boards.Board, board: boards.Board, pops: int,
                      since: float | None = None) -> None:
        """:meth:`_follow` by the pops seen since *before*, played in turn:
        when from one side only they lead to *board*, in one way
        (:func:`catch_up.whose_turn_then`), the game is set to *before* with
        that side to pop and the way is played as a catch-up is (values it
        worked out are asked about; pops it leaves over are the next
        player's). One plain move with the last pop is what
        :meth:`_follow_one_move` needs; on a small board boards stand after
        two moves or after the next pop has settled, and that can be long
        in coming (kept fresh game 840 at 640x480: followed for 313 s, 78 s
        with this).

        Only with every pop since *before* read, and the last not within
        ``EARLY_POP_S`` of the board: the search assumes every pop was
        seen, and an unread one lets a history fit that a pop never seen
        would have told apart. Without those two conditions the truth
        benchmark at three tenths unread gained 12 false calls in 200 games
        (a unique history from the wrong side; a 6 popped early taken for
        the mover's); with them, none.

        Pops that settled ``EARLY_POP_S`` or more before *since* (held when
        the loop began to follow from *before*, the board then in hand) are
        left out: their moves may be on *before* already (truth seed 3123
        at a tenth unread, once held out: Red's 6, moved 14 -> 20 on the
        board the loop followed from, counted again with Red's next 6, and
        the turns went one pop out until a right move was called a wrong
        count)."""
        counted = self.held_pops[-pops:]
        held = [p for p in counted if since is None or p.t > since - EARLY_POP_S]
        values = values_of(held)
        if not held or None in values_of(counted) or self.t - held[-1].t <= EARLY_POP_S:
            # (Every pop counted read, those left out too: leaving out an
            # unread one let truth seed 130 at three tenths be followed, and
            # a board called.)
            return
        colour = whose_turn_then(state, before, board, values)
        if colour is None or not self._back_on(before, colour):
            return
        game = self.referee.state
        way = only_way(game, values, board, min_steps=1) if game is not None else None
        if game is None or way is None:
            # (The game set up by the referee differs from the search's:
            # not seen; follow on from this board, as before.)
            self._lose_track(board, board, said=True)
            return
        self.held_pops = list(held)
        self._play_way(way, game, values, None, board)

    def _won_on_a_pop_unseen(self, whole: boards.Board) -> bool:
        """*whole* is a move of the player to pop, made with no pop seen while
        the loop is behind the table (pops held, or one unread waiting), that
        one value explains and that puts the player's last peg in Finish: no
        later pop will come to settle the one nobody saw, and the game is
        over, so the move is played with that value and the win announced
        (fresh whole game 970 at 640x480, session 47: the winning move after
        twelve pops held, six unread, answered with "I did not see Yellow's
        pop", and the win never announced). Not when nothing is held: then
        the player may have moved before popping, and is asked for the pop
        as for any move (a pop said or seen then settles it). Returns
        whether it was."""
        state, player = self.referee.state, self.referee.player
        if state is None or player is None or not (self.held_pops or self.unread is not None):
            return False
        places = whole.get(player, ())
        values = self._pops_explaining(whole)
        if len(values) != 1 or len(places) != state.options.pegs_per_color or not _all_in_finish(places):
            return False
        self._forget_pending()
        self._feed({"pop": values[0]}, origin="loop", quiet=("pop",))
        self._feed_board(whole, {})
        return True

    def _followed_to_a_win(self, state: State, before: boards.Board, board: boards.Board) -> bool:
        """While following the board: *board* is one move of a player from
        *before* that puts that player's last peg in Finish. The move needs no
        pop seen to tell whose it was (the winner's, whatever the turn), so the
        game is set to *before*, the move played and the win announced. (Fresh
        whole games 288, 289 and 349 at 640x480 lost track near the end and
        never announced the winner.) Returns whether it was."""
        done = [c for c, places in board.items()
                if len(places) == state.options.pegs_per_color and _all_in_finish(places)
                and not _all_in_finish(self.referee.position.get(c, ("home",)))]
        if len(done) != 1:
            return False
        # From the board followed, or from the board with the winner's pegs
        # where the game last had them (the board followed may be the win
        # itself, or show the last peg in the hand, read in its Home: fresh
        # games 349 and 288).
        last = {**board, done[0]: list(self.referee.position.get(done[0], ()))}
        for start in (before, last):
            found = who_moved(state, start, board, range(1, 7))
            if found is not None and found[0] == done[0]:
                break
        else:
            return False
        colour, value = found
        if not self._back_on(start, colour):
            return False
        self._feed({"pop": value}, origin="loop", quiet=("pop",))
        self._feed_board(board, {})
        return True

    def _back_on(self, before: boards.Board, colour: str) -> bool:
        """Set the game to *before* with *colour* to pop (getting back in step
        after following the board); returns whether the referee took it (if
        not, nothing is changed)."""
        relocations = self._relocations(before)
        for fed, line in enumerate(relocations + [{"command": "turn", "color": colour}]):
            events = self._feed(line, origin="loop", quiet=("peg", "turn"))
            if any(e.get("event") == "error" for e in events):
                for _ in range(fed):
                    self._feed({"command": "undo"}, origin="loop", quiet=("undo",))
                return False
        self.lost = None
        self.adopted = {(str(r["color"]), str(r["to"])) for r in relocations if r["to"] != "home"}
        self._forget_pending()
        if self.lost_said:
            self._say("Back in step.")
        self.before_pop = self.referee.state
        return True

    def _forget_pending(self) -> None:
        """Drop what the loop held against the game as it stood (pops held,
        an unread pop, a guess, a move with no pop seen, the game before a
        move): the game is being set afresh from a board."""
        self.held_pops.clear()
        self.unread = None
        self.inferred = None
        self.unseen_pop_board = None
        self.before_move = None

    def _passing_loss(self, whole: boards.Board, expected: boards.Board) -> bool:
        """Track was lost less than ``PASSING_LOST_S`` ago, no pop has been
        seen or said since, and *whole* is the game's position, one legal
        move from it, or the one move the one pop held (read or not) makes
        from it. (With more pops held, or later, which of them the board has
        used is a guess, and a wrong one gave false calls later in the
        truth benchmark with unread pops.)"""
        state = self.referee.state
        t, held, game = self.lost_at
        if state is None or self.t - t > PASSING_LOST_S or len(self.held_pops) != held or state != game:
            return False
        if boards.same(whole, expected, list(expected)) or self._legal_on(state, whole):
            return True
        pops = ([None] if self.unread is not None else []) + values_of(self.held_pops)
        return len(pops) == 1 and only_way(state, pops, whole, min_steps=1) is not None

    def _back_in_step(self) -> None:
        """Lost track, and then a board the game as the loop has it explains."""
        self.lost = None
        self.lost_pops = 0
        if self.lost_said:
            self._say("Back in step.")

    def _relocations(self, target: boards.Board) -> list[dict[str, Any]]:
        """Peg corrections that make the referee's position *target*: every
        peg out of place goes Home first, then out to where it is seen (so no
        correction lands on a peg not yet moved)."""
        position = self.referee.position
        away: list[dict[str, Any]] = []
        out: list[dict[str, Any]] = []
        for colour, places in position.items():
            have = Counter(places)
            want = Counter(target.get(colour, ()))
            for place in (have - want).elements():
                if place != "home":
                    away.append({"command": "peg", "color": colour, "from": place, "to": "home"})
            for place in (want - have).elements():
                if place != "home":
                    out.append({"command": "peg", "color": colour, "from": "home", "to": place})
        return away + out

    def _weak_read_misread(self, whole: boards.Board) -> bool:
        """The pop being moved (or the last pop, if no peg could use it and
        nothing has happened since) was read under ``WEAK_READ`` and *whole*
        is one legal move of its player for another value (with the peg it
        bumps, if any): the die was more likely misread than the peg miscounted. The pop is taken
        back and treated as one the camera could not read: the move tells its
        value, said aloud and asked back ("Red, was your pop a 3?"), and a
        "no" with the number has the move called. (Fresh whole rendered games
        at 640x480: a small washed-out 3 read as 1 at 0.95, and "That peg moved
        3 spaces, but the pop was 1"; of 4,227 pops read in 34 whole games,
        374 were read under 0.99, two of them wrong, and 3,853 over it, two
        wrong. A fresh game's 2 read as 3 at 0.992, lost at once, and Red's
        winning move of 2 called "moved 2 spaces, but the pop was 3".)
        Returns whether it was taken back."""
        fed, state = self.pop_fed, self.referee.state
        if fed is None or state is None or self.unread is not None or self.caught_up is not None:
            return False
        pop, before = fed
        mover = before.player
        if mover is None or pop.confidence >= max(WEAK_READ, CENTRELESS_READ) or not (
                (state.phase is Phase.MOVE and state.pop == pop.value and state.player == mover)
                or _lost_at_once(before, pop.value) == state):
            return False
        if len(self.held_pops) > self._recent_held():
            misread = self._weak_read_with_held(pop, before, whole)
        else:
            # No pops held, or only ones that settled moments before this
            # board, still to be moved (since session 51: a table counting
            # aloud, fresh game 998, had Blue's 6 land cocked, its count's
            # "one" taken for the pop, and Blue's move of 6, seen as the
            # tapped die was reported unread, called "That peg moved 6
            # spaces, but the pop was 1."). One legal move of the mover from
            # before the pop, for another value: a peg it bumps is part of
            # it. (Until session 49 nothing but the mover's pegs could
            # change, and a move that bumped was called: a table counting
            # aloud, Yellow's move of 2 onto Red's peg, "That peg moved 2
            # spaces, but the pop was 1.")
            misread = _read_weakly(pop, [v for v in self._pops_explaining(whole, before) if v != pop.value])
        if not misread:
            return False
        self.pop_fed = None
        # A pop worked out from the move before this one stands (its extra
        # pop, or the next player's, came and was moved on).
        self.inferred = None
        self._feed({"command": "undo"}, origin="loop", quiet=("undo",))
        if self.referee.state != before:
            return False  # the undo did not give back the game before the pop: judged as it was
        self._weak_taken_back.add(pop.t)
        self._begin_unread(PopUnread(pop.t))
        return self._move_after_unread(whole)

    def _weak_read_with_held(self, pop: PopSettled, before: State, whole: boards.Board) -> bool:
        """With pops held after *pop* (the weakly read pop being moved):
        whether exactly one way of playing the pops, *pop* taken as unread,
        leads to *whole*, and it gives *pop* another value (a fresh whole
        rendered game at 640x480, seed 530: Red's 3 read as 1 at 0.93 on a
        die too small to read surely, Blue's and Yellow's lost 1s read,
        Green's pop unread; Red's and Green's moves seen together and called
        "The board does not match one move"). Read under ``WEAK_READ``
        only: the centreless rule is for a single move one space longer. The
        held pops as read, or with one of them read weakly taken as unread
        too, as the catch-up then plays them (``_weak_held_unread``: fresh
        game 997 with a table counting aloud, session 51, Blue's count's
        "one" taken for its unread 3 and Yellow's for its 4, read late at
        0.9, and the five moves seen together called "The board does not
        match one move")."""
        if pop.confidence >= WEAK_READ:
            return False
        # (not the pops that settled moments before this board: still to
        # move, and each unread one widens the search past what it may try,
        # fresh game 1071 counting aloud, session 51)
        earlier = self.held_pops[:len(self.held_pops) - self._recent_held()]
        found = self._first_way(before, [None], earlier, whole)
        if found is not None:
            return found[0][0].pop not in (None, pop.value)
        # Or the board is the one move alone, the held pops, all read, still
        # to move, the first of them read as another value: a held pop that
        # may have made the move (of its value, or unread) is the case of a
        # weak read that was no pop (``_echo_pop``).
        if not earlier or not all(isinstance(p, PopSettled) for p in earlier):
            return False
        way = only_way(before, [None, *values_of(earlier)], whole, min_steps=1)
        return (way is not None and len(way) == 1
                and way[0].pop not in (None, pop.value, values_of(earlier)[0]))

    def _echo_pop(self, whole: boards.Board) -> bool:
        """The pop being moved repeats the value of the pop seen just before
        it, a pop seen after it is held, and *whole* is one legal move of
        the mover for that held pop and for no other change: the die was
        read twice (a hand passing over the dome, the same face seen again),
        and the held pop is the mover's. The echo is taken back, said, and
        the move judged on the held pop. Returns whether it was.

        Or the pop being moved was read under ``PHANTOM_READ``, less surely
        than the held pop: a die that never moved, misread under a hand's
        shade (fresh whole game 312 at 640x480: Red's 5, still in the dome,
        read as 3 at 0.54 while Red's hand moved a peg; taken for Blue's pop,
        Blue's real 2 held behind it, and Blue's move of 2 called).

        Or the pop being moved was read under ``PHANTOM_READ`` and the pop
        held after it could not be read, and *whole* is one legal move of
        the mover for another value: the held pop, begun as unread, is the
        mover's, and the move tells its value (fresh whole game 389 at
        640x480, session 29: Yellow's 2 read as 6 at 0.36 under a hand, then
        as 2 again; the 6 taken for Green's pop, Green's real 5 unread, and
        Green's move of 5 called "moved 5 spaces, but the pop was 6").

        A fresh whole rendered game at 640x480: Red's 4 read again under a
        hand putting Red's peg down beside the dome, taken for Blue's pop;
        Blue's 1 was held behind it, and Blue's move of 1 called "That peg
        moved 1 space, but the pop was 4". A real pop of the same value
        leaves its player's move to fit it, and a next player popping early
        leaves the mover's move to fit the pop before: neither is touched.
        """
        state, before = self.referee.state, self.before_pop
        if (state is None or before is None or state.phase is not Phase.MOVE or not self.held_pops
                or self.unread is not None or self.caught_up is not None or self.inferred is not None):
            return False
        mover = state.player
        if mover is None or before.phase is not Phase.POP or before.player != mover:
            return False
        at = self._pop_before_held()
        if not at:
            return False  # no pop seen before the one being moved
        previous, pending = self.seen_pops[at - 1], self.seen_pops[at]
        if not (isinstance(previous, PopSettled) and isinstance(pending, PopSettled) and pending.value == state.pop):
            return False
        if rules_pop(before, pending.value) != state or not boards.same_but(whole, self.referee.position, mover):
            return False
        if some_history(state, values_of(self.held_pops), whole, unseen_last=False):
            # The pops as read make the board too (the held ones lost but
            # the mover's next): no echo to take back. A seeded truth game:
            # Blue's 2 after Red's 2, Yellow's and Red's lost pops, Blue's 3,
            # one board of both Blue moves; the 2 was taken for an echo and
            # Yellow's 5 for Blue's, and Yellow's move later called.
            return False
        found = self._phantom_behind(previous, pending, before, whole)
        if found is None:
            return False
        echo, dropped = found
        as_read = [pending, *self.held_pops]
        self._feed({"command": "undo"}, origin="loop", quiet=("undo",))
        if self.referee.state != before:
            return False
        self.pop_fed = None
        said, changes = len(self.said), self.changes_fed
        if echo:
            self._say(f"I read the {pending.value} twice: that was no pop.")
        else:
            self._say(f"I misread the die as a {pending.value}: that was no pop.")
        self.held_pops = [p for p in self.held_pops if not any(p is q for q in dropped)]
        self._release_pops()
        if self.referee.phase == "move" or self.unread is not None:
            self._evaluate(whole)
        if self.caught_up is None and self.inferred is None and self.unread is None:
            # Taking a read pop out is a guess, open to a board put right
            # within moments, as a catch-up's is (``_take_back_catch_up``):
            # truth seeds 8082 and 8373 at a tenth unread, Blue's lost 3,
            # Red's 3 two seconds later, no board seen until Blue's 4 and
            # Red's 2 were popped, and then Red's peg a wrong count on from
            # the 3: Red's 3 was taken for the 3 read twice and the wrong
            # count for a move of the 4, and when Red put it right to the 3
            # half a second later the game was a pop out and a later move
            # was called.
            self.caught_up = _CaughtUp(before, as_read, None, self.changes_fed - changes, self.t, said)
        return True

    def _phantom_behind(self, previous: PopSettled, pending: PopSettled, before: State,
                        whole: boards.Board) -> tuple[bool, list[PopSettled]] | None:
        """For :meth:`_echo_pop`: whether *pending* (the pop being moved, seen
        after *previous*) is no pop, given the pops held after it and the
        mover's board *whole*. Returns ``(echo, dropped)``: *echo* when it
        repeats *previous*, *dropped* the held pops to take out with it (the
        die read on *previous*'s face again after a misread), or None.

        The held pop that is the mover's is the first one, or, when the
        first repeats *previous* and *pending* was read weakly, the one
        after it: the die misread under a hand, then seen again on the face
        it never left."""
        held = self.held_pops
        candidates: list[tuple[PopSettled | PopUnread, list[PopSettled]]] = [(held[0], [])]
        first = held[0]
        if (isinstance(first, PopSettled) and first.value == previous.value and len(held) > 1
                and pending.confidence < PHANTOM_READ):
            candidates.append((held[1], [first]))
        for mover_pop, dropped in candidates:
            if isinstance(mover_pop, PopSettled):
                if mover_pop.value == pending.value:
                    continue
                echo = previous.value == pending.value and not dropped
                surer = mover_pop.confidence > pending.confidence
                fits = [mover_pop.value]
            else:
                # An unread pop: the move tells its value, if any value fits.
                echo, surer = False, True
                fits = [v for v in range(1, 7) if v != pending.value]
            if not echo and not (pending.confidence < PHANTOM_READ and surer):
                continue
            if any(self._legal_on(rules_pop(before, v), whole) for v in fits):
                return echo, dropped
        return None

    def _still_through_later_pops(self, unread: _Unread) -> bool:
        """The board was seen as the game has it after ``STILL_THROUGH_POPS``
        or more pops held since *unread* settled: its player made no move on
        it. A player pops again only after moving (the next player may pop
        early, once, before the previous one has finished: one pop is not
        enough to tell)."""
        agreed = self.board_agreed_at
        if agreed is None or agreed <= unread.t:
            return False
        return sum(1 for p in self.held_pops if unread.t < p.t < agreed) >= STILL_THROUGH_POPS

    def _pops_explaining(self, whole: boards.Board, state: State | None = None) -> list[int]:
        """The pop values for which *whole* would be one legal move of the player
        to pop (in *state*, by default the referee's)."""
        if state is None:
            state = self.referee.state
        if state is None or state.phase is not Phase.POP:
            return []
        try:
            seen = parse_board(whole, state.options.pegs_per_color)
        except InputError:
            return []
        return [v for v in range(1, 7) if isinstance(read_board(rules_pop(state, v), seen), Move)]

    def _held_pops_unfit(self, value: int, whole: boards.Board) -> bool:
        """Whether the pops held after the unread one do not fit *whole* if
        the unread pop was *value* and its move made the board (each held
        pop must then have been lost but the last: see
        :func:`catch_up.leftover_fits`)."""
        state = self.referee.state
        if not self.held_pops or state is None:
            return False
        popped = rules_pop(state, value)
        move = _reading(popped, whole)
        if not isinstance(move, Move):
            return False
        return not leftover_fits(apply_move(popped, move), values_of(self.held_pops))

    def _move_after_unread(self, whole: boards.Board) -> bool:
        """A board changed while a pop the camera could not read is unresolved.

        Exactly one pop value makes it a legal move of the player who popped:
        that was the pop (said aloud, then the move is played). Several: ask
        for the number, once, and wait. None: the move is judged as any other
        (an illegal move stays illegal). Returns whether the board was dealt with.
        """
        unread = self.unread
        assert unread is not None
        if self.referee.phase == "first":
            # Who-goes-first is not settled while a pop in it is unknown: the
            # loop is behind, so a move now is not called illegal; it says
            # once how to put it back in step.
            if not unread.lost_track_said:
                unread.lost_track_said = True
                self._say(
                    "I have lost track of who goes first. Say the number "
                    f"{unread.player.capitalize()} popped, or whose turn it is.",
                    expects="number",
                )
            return True
        values = [v for v in self._pops_explaining(whole) if v not in unread.denied]
        if values and self._still_through_later_pops(unread):
            # The board stood as the game has it after later pops: the move
            # came after them, so it is not the unread pop's (a whole
            # rendered game: Red's unread 4, Blue's 4, Red's 6, 6 and 2, each
            # seen with the board unchanged, then Red's move of 2 taken for
            # the unread pop, and the 2 itself lost).
            values = []
        if not values:
            if unread.moved:
                # After a move that several values fit (still unjudged) the
                # board may hold later moves too: wait for the number.
                return True
            # Perhaps the next player has moved: then the unread pop was one
            # no peg used. Settle it if the board tells which way the turn
            # went, then judge the board afresh (with a pop held for it, or
            # as a move with no pop seen, which asks for that pop).
            if self._unread_without_move(whole):
                self._release_pops()
                self._evaluate(whole)
                return True
            if self._settled_in_hindsight(whole):
                return True
            if self._caught_up_to_seen(whole, unread):
                return True
            if self._catch_up(whole, unread):
                # Several moves, the first with the unread pop (a 6 that
                # brought a peg out and earned the pop seen after it, say).
                return True
            if self._some_way_explains(whole):
                # More than one way the turns may have gone: the loop is
                # behind, and a move it cannot place is not called illegal.
                # It waits for the number (asked once).
                self._ask_unread()
                return True
            return False
        name = unread.player.capitalize()
        if (
            # The move fits one value of the unread pop, but the pop held
            # after it fits too, with the unread pop a 6 no peg could use:
            # the two histories leave the turn to different players (seen in
            # a whole rendered game: Blue's blocked 6 taken for a 1, and
            # Blue's extra pop given to Red). The next move tells which (a
            # catch-up then plays the one history that leads to it). With
            # more pops held, the pops after the move may tell already: the
            # catch-up plays the one history in which they fit the board
            # (catch_up.leftover_fits); if none does, the move's own value
            # is taken.
            len(values) == 1
            and self._unread_could_be_a_lost_six(whole)
            # (When the pops held could not follow the move of that one
            # value, the lost 6 is the only history: played below. Fresh
            # games 308, 381 and 391 ended on Blue's blocked 6 unread and
            # its extra pop making the winning move, which left no next
            # move to tell, and the winner was never announced.)
            and not self._held_pops_unfit(values[0], whole)
            and (len(self.held_pops) <= 2 or self._catch_up(whole, unread))
        ):
            return True
        if len(values) == 1 and self._held_pops_unfit(values[0], whole):
            # The pops seen after the unread one cannot all have come after
            # that move (one of them had a move to make, and the board shows
            # none): the board holds later moves too, and the one history in
            # which they fit is played (a seeded game: Red's unread 2 and 3
            # both moved, 3 -> 5 -> 8, taken for one 5 and the 3 kept waiting;
            # Blue's 6 then bumped Red off 8 and was called).
            if self._catch_up(whole, unread):
                return True
            state = self.referee.state
            if state is not None and some_history(state, [None, *values_of(self.held_pops)], whole,
                                                  unseen_last=False):
                # Several such histories (another unread pop among the held
                # ones, say): the one move's value is not taken, since the
                # pops after it would not fit; the loop waits for the number
                # (a truth game: Blue's unread 2, Red's lost 4, Blue's 1,
                # Red's lost 2 and Blue's unread 3 seen at once as one move
                # of 6; taken for a 6, Red's 4 became Blue's extra pop and
                # the turns ran one out, then a move was called).
                self._ask_unread()
                return True
        if len(values) == 1 and self._several_ways(whole):
            # The move fits one value of the unread pop with the pops held
            # since left to play, and the held pops make it too, used up (a
            # truth game, seed 499: Yellow's unread 2, Red's unread 4,
            # Blue's lost 4 and Yellow's 3, its two moves seen as one of 5,
            # taken for Yellow's 5 with Yellow's 3 left to move; Red's peg
            # then out on a pop nobody saw was put on Red's unread pop, and
            # Red's next move called). Ask, and let a later board tell.
            self._ask_unread()
            return True
        if (len(values) == 1 and self.held_pops and isinstance(self.held_pops[0], PopSettled)
                and popped_again(unread, self.held_pops[0].t)
                and self._popped_again_taken_out(whole, unread)):
            # The pop read next came within POPPED_AGAIN_S of the unread one,
            # and it makes the move alone: the unread pop was the die landing
            # cocked, or a hand's stir read as a pop, and the pop seen is the
            # mover's (more often than not: see _unread_no_pop). Taking the
            # move's value for the unread pop would give the pop seen to the
            # next player, announced with a number that player never popped
            # (fresh game 564, session 33: an unread pop 1.3 s before Red's
            # 4; "That move means Red popped a 4", then "Blue popped 4", and
            # Blue's real 1 came after).
            return True
        if len(values) == 1 and self.held_pops and self._still_settling(whole):
            # Pops seen since the unread one would be played on the value the
            # move gives it: a peg carried in the hand, read seated on its way
            # for a moment, would give a wrong one (truth game seed 441:
            # Blue's unread 6 taken for a 5 from the peg read a space short,
            # Red's 3 and Blue's 5 played on that, and the peg come down was
            # called). The board is judged again once it has stood.
            return True
        if len(values) == 1:
            value = values[0]
            self._infer(unread, own_move=True)
            inferred = self.inferred
            assert inferred is not None
            inferred.value = value
            self.unseen_pop_board = None
            self._say(f"That move means {name} popped a {value}.")
            self._feed({"pop": value}, origin="loop", quiet=("pop",))
            if self.referee.phase == "move":
                self._evaluate(whole)
            self._ask_inferred(inferred, unread.player, value)
            return True
        unread.moved = True
        self.unseen_pop_board = whole
        if not unread.asked:
            unread.asked = True
            fits = ", ".join(str(v) for v in values[:-1]) + f" or {values[-1]}"
            self._say(f"That move fits a {fits}. {name}, say the number you popped.", expects="number")
        return True

    def _brought_out_left(self) -> None:
        """The board changes while a board held before its value is taken
        (:meth:`_still_settling`) is a peg brought out onto its Start on the
        unread pop, a 6: it is judged now. No peg is carried past its Start
        on the way there, so that board was no peg read on its way; it was
        the bring-out, and the peg is lifted again for the extra pop.
        (Fresh whole game 835 at 640x480, session 42: Red's unread 6
        brought a peg out, held while Red's extra 5 waited; the peg was
        lifted for the 5 1.2 s later, before the wait was over, and the
        board was never judged: "No peg moved after Red's pop" gave Red's 5
        to Blue, and the loop lost track.)"""
        transit, unread, state = self.transit, self.unread, self.referee.state
        if (transit is None or unread is None or state is None or self.stage != "game"
                or self.board_unsettled or not self.held_pops):
            return
        way = only_way(state, [6], transit[0], min_steps=1)
        if way is None or len(way) != 1 or way[0].move is None or way[0].move.frm != -1:
            return
        self.transit = None
        self._judging_held = True
        try:
            self._evaluate(transit[0])
        finally:
            self._judging_held = False

    def _several_ways(self, whole: boards.Board) -> bool:
        """Whether the unread pop and the pops held since lead to *whole* in
        more than one way (:func:`catch_up.several_ways`)."""
        state = self.referee.state
        return bool(self.held_pops) and state is not None and several_ways(
            state, [None, *values_of(self.held_pops)], whole)

    def _still_settling(self, whole: boards.Board) -> bool:
        """Whether *whole*, the board seen now, has stood less than the wait
        before a call (``LoopSettings.call_hold_s``): then it is held, as a
        board no move explains is (:meth:`_transit_hold`), and judged again
        on the loop's ticks once it has stood, unless another comes first."""
        hold = self.settings.call_hold_s
        if not hold or self._judging_held or self.last_board is None or not boards.same(whole, boards.complete(
                self.last_board, self.referee.position), list(whole)):
            return False
        if self.t - self.board_since >= hold - 1e-9:
            return False
        if self.transit is None or not boards.same(whole, self.transit[0], list(whole)):
            self.transit = (whole, self.board_since, hold)
        self.settling = self.transit[0]
        return True

    def _move_held_settling(self) -> bool:
        """Whether a board that the unread pop's move may have made is held
        before its value is taken (:meth:`_still_settling`), and is still
        the board seen: another pop then does not settle the unread pop as
        lost (:meth:`_unread_without_move`); the board is judged when it has
        stood, with that pop held after it.

        (Held-out game 1090 at 640x480, session 52: Red's pop unread (a 1),
        Blue's 3 read, then Red's move of 1 held; Yellow's pop 0.7 s later
        settled Red's pop as lost ("No peg moved after Red's pop") with the
        held board not yet judged, Red's move was given Red's next pop, and
        Red's real move of that pop was called "Not Red's turn".)"""
        transit, last = self.transit, self.last_board
        return (transit is not None and transit[0] is self.settling and self.unread is not None
                and self.stage == "game" and not self.board_unsettled and last is not None
                and boards.same(transit[0], boards.complete(last, self.referee.position), list(transit[0])))

    def _unread_could_be_a_lost_six(self, whole: boards.Board) -> bool:
        """Whether the board is also the unread pop a 6 no peg could use (an
        extra pop) followed by the first held pop's move."""
        state = self.referee.state
        if state is None or not self.held_pops:
            return False
        way = only_way(state, [6] + values_of(self.held_pops[:1]), whole, min_steps=1)
        return way is not None and sum(step.pop is not None for step in way) == 2

    def _infer(self, unread: _Unread, own_move: bool = False) -> None:
        """The unread pop is settled by the loop's own reasoning: keep what is
        needed to take that back (see :class:`_Inferred`)."""
        state = self.referee.state
        assert state is not None
        self.unread = None
        self.inferred = _Inferred(state, unread, own_move=own_move, from_move=own_move, t=self.t,
                                  said=len(self.said))
        self._open_doubt(state, [None, *values_of(self.held_pops)])
        if self.held_pops and popped_again(unread, self.held_pops[0].t):
            # The next pop came as soon as a cocked die's tap (see
            # _unread_no_pop): the game without the unread pop is kept as a
            # doubt too, for boards that come after the inference stands
            # (fresh game 439, session 30: an unread pop nobody made 1.3 s
            # before Red's 5, given 5 from Red's move; Red's 5 went to Blue,
            # Blue's 3 to Yellow, and Yellow's move of 1 was called).
            self._open_doubt(state, values_of(self.held_pops))

    def _take_back_inference(self, whole: boards.Board) -> bool:
        """A board the state before the last inference explains (the move put
        back, or made differently): undo what was fed since, and judge afresh."""
        inferred = self.inferred
        assert inferred is not None
        before = inferred.state
        colours = list(self.referee.position)
        put_back = boards.same(whole, {c: sorted(p) for c, p in before.position().items()}, colours)
        if not put_back and not self._pops_explaining(whole, before) and not self._made_again_later(inferred, whole):
            return False
        if not put_back and any(p.t > inferred.t for p in self.seen_pops) and self._reached_from_here(whole):
            # Pops seen since the guess carry the game on from it to this
            # board: the guessed move stood while play went on, and this is
            # the next move, not the guessed one made differently (truth seed
            # 7164 at three tenths: Blue's unread 1 guessed from 8 -> 9, Red's
            # pop unread and lost, Blue's 2 unread, and 9 -> 11 retold as
            # 8 -> 11 on a 3; the turns went one pop out, and a move called).
            return False
        if ((inferred.from_move or self._stood(inferred.t, CAUGHT_UP_OPEN_S))
                and self.referee.phase == "pop" and self._pops_explaining(whole)
                and not self._popped_moments_ago()):
            # Also a move of the player now to pop, whose pop the camera
            # missed: that reading needs no undoing (and asks for the pop).
            # A turn passed because no peg moved is taken back first while
            # it is fresh (the player was still moving while the next one
            # popped), not once it has stood ``CAUGHT_UP_OPEN_S``: a seeded
            # game's Blue, whose lost pop, Red's lost 4 and 4 s of boards
            # with no move were taken back as a 6 and an extra pop of 4 when
            # Blue's next pop went unseen (then "moved 5, but the pop was 4").
            # Not when a pop settled moments ago (``MOVE_AFTER_POP_S``): no
            # pop nobody saw came after it, and a move on one before it was
            # made before the next player popped, so the board is the guessed
            # move made differently (truth seed 8055 at a tenth unread:
            # Blue's unread 3 moved 14 -> 16, guessed a 2, Red popped a lost
            # 4 while Blue put it right to 17 0.3 s later; taken for Blue's
            # move on a pop unseen, a 1, Blue's next 6 went to Red and Blue's
            # move on it was called).
            return False
        if (inferred.pops and self._stood(inferred.t, CAUGHT_UP_POP_S) and self.referee.phase == "pop"
                and self._pops_explaining(whole) and set(self._pops_explaining(whole, before)) == {6}):
            # Taken back, the unread pop would be a 6 and the pops released
            # since the mover's own extra pops, popped while its move was
            # still to make and seen with no peg moved for seconds; kept, the
            # board is the mover's move on a pop the camera missed (a move
            # within moments is still the player finishing: taken back). A
            # seeded game:
            # Red's lost 1 unread, Blue's 3, then Red's peg brought out on an
            # unseen 6 (said moments later): retold as a 6 and Blue's 3 as
            # Red's extra pop, and Red's next 6 called "moved 6, but the pop
            # was 3".
            return False
        if self._stood(inferred.t, CAUGHT_UP_OPEN_S) and self._lost_before(whole):
            # The same for the player after: the guess has stood, the next
            # player's pop went unread, and the board is also that pop lost
            # and the following player's move on a pop the camera missed (a
            # seeded game's Red, 18 -> 22 taken as a 4 and seen for 7 s, then
            # moved on by an unseen 1 after Blue's lost pop: retold as a 5,
            # and Red's next move called a wrong count).
            return False
        if self._stood(inferred.t, CAUGHT_UP_OPEN_S) and self._pop_lost_unseen_before(whole):
            # The same when the pop being moved came after the die went
            # unread for seconds, room for a pop nobody saw, lost, before it:
            # the board is also that, the read pop the next player's (fresh
            # whole game 855 at 640x480, session 43: Red's flat 5 read as a
            # cocked die, Blue's 1 after it given to Red; Blue's move of 1
            # retold Blue's guessed 2, standing for 8 s, as a 3, and Red's
            # next move was called a wrong count). Not judged here.
            return False
        if not self._undo_inference(inferred):
            return False  # cannot happen with the referee's undo; judge the board as it is
        if not inferred.from_move:
            self.taken_back_on = (inferred.unread.t, whole)
        self._judge_again(whole, inferred.said)
        return True

    def _guess_put_right_later(self, whole: boards.Board) -> bool:
        """A catch-up that gave unread pops values stood when the next pop
        was released (``CAUGHT_UP_POP_S`` after its board), and *whole*, seen
        before any other move or pop, is reached from before the catch-up in
        exactly one way by its pops and that one: the board it caught up was
        a wrong count, put right while the next player popped, and the guess
        is what is wrong (as ``_made_again_later`` for an inference). Undo
        it, hold its pops again and judge the board afresh. (Truth games with
        wrong counts left standing 4 s, seeds 2, 29 and 31 at a tenth unread:
        a player's unread 5 moved 4 or 6 and caught up as that, the wrong
        count put right as the next player popped 4.7 s later, and the board
        called "Not Blue's turn" or "does not match one move".)"""
        caught = self.caught_stood
        assert caught is not None
        if self.held_pops or self.unread is not None or not self._guessed(caught):
            return False
        if self.referee.phase == "pop" and self._pops_explaining(whole):
            return False  # a move on a pop nobody saw, as ``_take_back_catch_up`` lets stand
        played = self._caught_pops(caught)
        way = only_way(caught.state, played + values_of(caught.pops), whole)
        if way is None:
            return False
        turns = turns_along(caught.state, way)
        at = len(played) + (way[0].pop is None)  # (a first step for the pop already fed)
        if turns[min(at, len(way))] in {turns[i] for i, step in enumerate(way) if step.unread}:
            # The pop since is the guessed side's own, its next turn's: the
            # board is more likely a wrong count of that pop than the guess
            # put right (truth games with wrong counts left standing: seed
            # 40, Blue's guessed 5, then Blue's 2 moved 1, and seed 78, Red's
            # guessed 1, then Red's 4 moved 3, each retold as another guess).
            return False
        self.caught_stood = None
        if not self._undo_catch_up(caught):
            return False  # cannot happen with the referee's undo; judge the board as it is
        self._judge_again(whole, caught.said)
        return True

    @staticmethod
    def _caught_pops(caught: _CaughtUp) -> list[int | None]:
        """The pops *caught* played, in order (``None``: seen, not read)."""
        return ([None] if caught.unread is not None else []) + values_of(caught.held)

    @staticmethod
    def _guessed(caught: _CaughtUp) -> bool:
        """Whether *caught* gave a value to a pop the camera did not read."""
        return None in Loop._caught_pops(caught)

    def _made_again_later(self, inferred: _Inferred, whole: boards.Board) -> bool:
        """The value of *inferred* was taken from its player's move, a pop
        has been released since, and *whole* is reached from before the
        guess in exactly one way, by the pops since and another value for
        the unread pop: the move was a wrong count, put right while the next
        player popped (both changes seen on one board), and the guess is what
        is wrong. (A rendered game with wrong counts, seed 20 at 640x480:
        Blue's 2 read at 0.995 and Blue's peg moved 1, so "That move means
        Blue popped a 1"; Blue then moved it on to the 2 while Yellow popped
        a 2 and moved, and the board of both was called "does not match one
        move".)"""
        if not inferred.from_move or inferred.value is None or len(inferred.pops) != 1 or self.held_pops:
            # One pop since, the next player's: with more, a wrong count made
            # on one of them is explained away too easily (truth games with
            # wrong counts left standing 4 s: 86 -> 90 missed at three tenths
            # unread, seed 2's Red 6 -> 8 on a 1 retold by four pops back).
            return False
        way = only_way(inferred.state, [None, *values_of(inferred.pops)], whole)
        return way is not None and way[0].pop not in (None, inferred.value)

    def _unread_no_pop(self, whole: boards.Board) -> bool:
        """The unread pop was settled as one no peg used (the turn passed),
        and the pop after it came within ``POPPED_AGAIN_S``: soon for the
        next player's pop, not for a die that landed cocked, unread, and was
        tapped or popped again. When *whole* does not fit the game as it
        stands, but the pops seen since, played from before the unread pop
        without it, lead there in exactly one way, the unread pop is taken
        back as no pop, said, and the board judged afresh. (Fresh whole game
        393 at 640x480, session 29: Red's die landed cocked against the
        dome's wall, read as no face, and was tapped to a 2; the unread pop
        was taken as Red's lost pop and the 2 as Blue's, and Blue's move of
        4, its real pop, was called "moved 4 spaces, but the pop was 2".)
        Tried before the take-back of the inference (which keeps the unread
        pop and retells its value from the board): fresh game 400, Blue's
        cocked die unread, then the tap's 6 unread 1.5 s later; kept, the
        first became Blue's 6 and the second Blue's extra pop, Blue's real
        extra pop went to Yellow, and Yellow's peg brought out on a 6 was
        called "needs a 6". Or the unread pop was given the value of its
        player's move, and the next pop, come as soon, went to the next
        player: fresh game 424, session 30, an unread pop nobody made 1.3 s
        before Blue's 4; given 4 from Blue's move, Blue's real 4 went to
        Yellow, and Yellow's move of 1 was called "moved 1 space, but the
        pop was 4". Returns whether it was taken back."""
        inferred = self.inferred
        if inferred is None or inferred.own_move or not inferred.pops:
            return False
        if not popped_again(inferred.unread, inferred.pops[0].t):
            return False
        if only_way(inferred.state, values_of(inferred.pops + self.held_pops), whole, min_steps=1) is None:
            return False
        player = inferred.unread.player
        if not self._undo_inference(inferred):
            return False  # cannot happen with the referee's undo; judge the board as it is
        self.unread = None
        self._say_popped_again(player)
        self._release_pops()
        self._judge_again(whole, inferred.said)
        return True

    def _unread_ruled_out(self, whole: boards.Board, unread: _Unread) -> bool:
        """For the catch-up: no history with *unread* as a pop (any value,
        even with one more pop nobody saw) leads to *whole*, and the pops
        read since, two or more and none unread, lead there in exactly one
        way without it: it was no pop (a hand's stir over the dome, or a
        cocked die tapped a little later than ``POPPED_AGAIN_S``). It is
        taken back (said, if the table heard of it) and the board judged
        afresh. (Fresh whole game 634 at 640x480, session 35: an unread pop
        1.7 s before Blue's 1, the players asked for its number; the five
        pops read after it, moved on one board 23 s later, were "I have
        lost track of the moves".) Returns whether it was."""
        state = self.referee.state
        held = self.held_pops
        if state is None or len(held) < 2 or any(isinstance(p, PopUnread) for p in held):
            return False
        pops = values_of(held)
        if (some_history(state, [None, *pops], whole)
                or only_way(state, pops, whole, min_steps=1) is None):
            return False
        self.unseen_pop_board = None
        self._forget_unread(unread, "the moves since show there was none")
        self._release_pops()
        self._evaluate(whole)
        return True

    def _forget_unread(self, unread: _Unread, why: str = POPPED_AGAIN) -> None:
        """*unread* was no pop: it is forgotten, and said to be taken back
        (*why*) only if the table had heard of it (a pop never mentioned is
        taken back silently)."""
        self.unread = None
        if unread.said or unread.asked:
            self._say_popped_again(unread.player, why)

    def _popped_again_taken_out(self, whole: boards.Board, unread: _Unread | None) -> bool:
        """For the catch-up: unread pops (*unread*, or held ones) each
        followed within ``POPPED_AGAIN_S`` by the next pop seen are likelier
        a cocked die read as no face and then tapped than pops of their own
        (see :meth:`_unread_no_pop`). When the pops without them lead to
        *whole* in exactly one way, they are taken out, said, and the board
        judged afresh. (Fresh whole games 415 and 419 at 640x480, session
        29: such a pop was given a value from the board, the real pop after
        it went to the next player, and a right move was called.) Returns
        whether they were."""
        state = self.referee.state
        if state is None:
            return False
        held = self.held_pops
        leads: list[_Unread | PopSettled | PopUnread] = ([unread] if unread is not None else []) + list(held)
        again = {lead.t for lead, after in pairwise(leads)
                 if not isinstance(lead, PopSettled) and popped_again(lead, after.t)}
        drop_lead = unread is not None and unread.t in again
        dropped = [p for p in held if isinstance(p, PopUnread) and p.t in again]
        if not drop_lead and not dropped:
            return False
        kept = [p for p in held if not any(p is q for q in dropped)]
        lead: list[int | None] = [None] if unread is not None and not drop_lead else []
        pops = lead + values_of(kept)
        # As the catch-up itself, a way may leave a peg the game has out
        # seen in its Home (misread or lifted; fresh game 634: Blue's peg on
        # its Start read in its Home, beside an unread pop 1.5 s before Red's 6).
        if not pops or all(only_way(state, pops, whole, gone_home=home, min_steps=1) is None
                           for home in (False, True)):
            return False
        self.held_pops = kept
        if drop_lead and unread is not None:
            self._forget_unread(unread)
        self._release_pops()
        self._evaluate(whole)
        return True

    def _tap_rather_than_misread(self, whole: boards.Board, misread: bool, unread: _Unread | None = None) -> bool:
        """For the catch-up, sure that no way of playing the pops as held
        (*unread* first, when given) leads to *whole*, but perhaps one with a
        peg the game has out seen in its Home (*misread*): an unread pop
        followed by the next pop within ``TAPPED_LATE_S`` (``READ_AGAIN_S``
        with *misread*), taken out, makes *whole* exactly. Then the two were
        one pop (a cocked die read as no face and tapped later than
        ``POPPED_AGAIN_S``, or the unread die read after a hand beside the
        dome), not two: any guess made on it is undone (an open inference,
        or a catch-up still open, with the pops since), the unread pop taken
        out, and the board judged afresh. Without *misread*, only where no
        board was seen stable between the two pops (one seen, with no move,
        had the unread pop settled and said, and a wrong count after it is
        still called). Returns whether it was.

        (Fresh whole games at 640x480, session 43. 846: Blue's cocked die
        unread, tapped to a 6 read 1.7 s later; caught up as an unread 6 with
        the 6 still to move, the next board, Blue's 3 bumping Red, was taken
        as a bring-out on that 6 with the new peg "misread in Home", and the
        peg Blue never had out stood on Blue's Start in the game for 70 s,
        until two false calls. 764: Yellow's unread 6, read 5.8 s later as
        Yellow's hand moved the peg it popped for; with Yellow's next 6, the
        board was taken as a bring-out "misread in Home", and Yellow's move
        of 5 was called.)"""
        inferred, caught = self.inferred, self.caught_up
        lead: _Unread | None = unread
        state: State | None
        if unread is None and inferred is not None:
            state, lead, held = inferred.state, inferred.unread, inferred.pops + self.held_pops
        elif unread is None and caught is not None:
            if caught.unread is not None:
                return False
            later = [p for p in self.held_pops if not any(p is q for q in caught.held)]
            state, held = caught.state, list(caught.held) + caught.pops + later
        else:
            state, held = self.referee.state, list(self.held_pops)
        if state is None:
            return False
        times = ([lead.t] if lead is not None else []) + [p.t for p in held]
        for i, (t, after) in enumerate(pairwise(times)):
            if after - t >= (READ_AGAIN_S if misread else TAPPED_LATE_S) or (
                    not misread and any(t < s < after for s in self.stable_times)):
                continue
            tap = None if lead is not None and i == 0 else held[i - (lead is not None)]
            if (tap is not None and not isinstance(tap, PopUnread)) or (tap is None and unread is not None
                                                                        and not misread):
                continue  # (the unread pop still open is ruled out by the moves, if at all: _unread_ruled_out)
            kept = [p for p in held if p is not tap]
            pops = ([None] if lead is not None and tap is not None else []) + values_of(kept)
            if only_way(state, pops, whole, min_steps=1) is None:
                continue
            said_at = len(self.said)
            if unread is None and inferred is not None:
                undone, said_at = self._undo_inference(inferred), inferred.said
            elif unread is None and caught is not None:
                undone, said_at = self._undo_catch_up(caught), caught.said
            else:
                undone = True
            if not undone:
                return False  # cannot happen with the referee's undo; judge the board as it is
            if tap is None and lead is not None:
                self._forget_unread(lead)
            self.held_pops = [p for p in self.held_pops if p is not tap]
            self._release_pops()
            self._judge_again(whole, said_at)
            return True
        return False

    def answer_was_popped_again(self, value: int) -> bool:
        """The players answer the unread pop with *value*, and the pop held
        after it, read *value* too, came within ``POPPED_AGAIN_S``: the
        unread pop was the die landing cocked, then tapped or popped again
        (see :meth:`_unread_no_pop`), and the answer is the held pop's. The
        unread pop is taken back, said, and the held pop is the player's.
        (Fresh whole game 435 at 640x480 with ``--answers``, session 30: an
        unread pop 1.3 s before Red's 2; "two" settled the unread pop, the
        read 2 went to Blue, and Blue's move of 1 was called.) Returns
        whether it was.

        When the pop held after it could not be read either, the first is
        taken back the same way and the answer goes to the held one, now the
        unread pop (returns False: the answer is still to be fed). Of the
        unread pops another pop followed within 1.5 s in 48 kept games, 21
        were no pop and 4 real (session 29); fresh seed 408 with
        ``--answers``: the answer given to the first, the second went to
        the next player and the turns ran one out."""
        unread, held = self.unread, self.held_pops
        if (unread is None or not held or not popped_again(unread, held[0].t)
                or self.referee.phase != "pop"):
            return False
        first = held[0]
        if isinstance(first, PopSettled) and first.value != value:
            return False
        self.unread = None
        self.inferred = None
        self.question = None
        self._say_popped_again(unread.player)
        self._release_pops()
        if isinstance(first, PopUnread):
            return False
        self.reevaluate()
        return True

    def _say_popped_again(self, player: str, why: str = POPPED_AGAIN) -> None:
        """Say that *player*'s unread pop, which the table heard of, is taken
        back (*why*: as a cocked die tapped or popped again, by default)."""
        self._say(f"I take back {player.capitalize()}'s pop I could not read: {why}.")

    def _undo_inference(self, inferred: _Inferred) -> bool:
        """Undo what was fed since *inferred* was made and hold its pops
        again: the unread pop is unresolved once more. Returns whether the
        referee is back where it was before the guess."""
        self.inferred = None
        self.question = None
        for _ in range(inferred.fed):
            self._feed({"command": "undo"}, origin="loop", quiet=("undo",))
        if self.referee.state != inferred.state:
            return False
        self.held_pops = inferred.pops + self.held_pops
        self.unread = inferred.unread
        self.unseen_pop_board = None
        self.before_move = None
        self.illegal_board = None
        return True

    def _popped_again_since(self, player: str, pop_t: float) -> bool:
        """*player* has popped again since their pop at *pop_t*, and that
        pop is in play: "was your pop a 2?" would be taken for the new one
        (a table counting aloud, fresh game 1071, session 51: Red, asked
        about the 2 it had moved after popping a 1, said "no" and "one",
        and the board of its right move was called). Not asked then."""
        return (self.referee.player == player and self.pop_seen_at is not None and self.pop_seen_at > pop_t
                and (bool(self.held_pops) or self.unread is not None or self.referee.phase == "move"))

    def _ask_inferred(self, inferred: _Inferred | _CaughtUp | None, player: str, value: int,
                      held: PopUnread | None = None) -> None:
        """Ask the player to confirm a pop worked out from their move (see
        :class:`_Question`), while the guess is still open and the game on.
        Not while the camera cannot read the die at all: then the players
        have been told the pops are worked out from the moves, and a
        question after every move would be nagging; but a pop it did read,
        weakly, that the move contradicts is asked about even then (it is
        rare, and the player may have miscounted: a fresh whole game at
        640x480 with a blind die had a wrong count of 4 on a 5 read at 0.99
        taken as a 4 unasked)."""
        unread = inferred.unread if inferred is not None else None
        pop_t = held.t if held is not None else unread.t if unread is not None else None
        if (not self.settings.ask_back or inferred is None or pop_t is None or self.stage != "game"
                or not (inferred is self.inferred or inferred is self.caught_up)
                or (self._die_blind() and pop_t not in self._weak_taken_back) or pop_t in self._questioned
                or self._popped_again_since(player, pop_t)):
            return
        self._questioned.add(pop_t)
        self.question = _Question(inferred, player, value, held)
        self._say(f"{player.capitalize()}, was your pop a {value}?", expects="yes-no", about=pop_t)
        # After one move: asked before the next turn is announced, not after
        # it ("Red's turn. Blue, was your pop a 4?" reads as if Red were
        # asked). After a catch-up (several moves) it comes last.
        item = self.said[-1]
        turn = next((i for i in range(len(self._unsaid) - 2, -1, -1)
                     if (self._unsaid[i].event or {}).get("event") == "turn"), None)
        if isinstance(inferred, _Inferred) and item.expects == "yes-no" and turn is not None:
            self._unsaid.insert(turn, self._unsaid.pop())
            announced = self._unsaid[turn + 1]
            at = next(i for i in range(len(self.said) - 1, -1, -1) if self.said[i] is announced)
            self.said.insert(at, self.said.pop())

    def _no_number_after_no(self, unread: _Unread) -> None:
        """The player said no to the worked-out pop but no number came: the
        move is taken as the board shows it after all (the referee must not
        wait for ever on a "no" it may have misheard in table talk)."""
        unread.denied.clear()
        unread.moved = False
        pending, self.unseen_pop_board = self.unseen_pop_board, None
        self._say(f"Nobody said {unread.player.capitalize()}'s number, so I take the move as it is.")
        if pending is not None and self.stage == "game":
            self._evaluate(pending)
            last = self.last_board
            if last is not None and self.stage == "game" and not boards.same(last, pending, list(pending)):
                self._evaluate(last)
        self._release_pops()

    def answer_held(self, value: int) -> None:
        """The number of a held pop the players said was not what the
        catch-up took it for: it is read now, and the board judged again (a
        wrong count is called)."""
        denied, self.held_denied = self.held_denied, None
        if denied is None:
            return
        for i, pop in enumerate(self.held_pops):
            if pop is denied.pop:
                self.held_pops[i] = PopSettled(pop.t, value)
                for doubt in self.doubts:
                    doubt.name_pop(value, len(self.held_pops) - 1 - i)
        self._resume_after_held()

    def _resume_after_held(self) -> None:
        """Play on after a held pop's number came (or did not): the pops
        held are released and the last board judged with them."""
        self._release_pops()
        if self.last_board is not None and self.stage == "game":
            self._evaluate(self.last_board)
        self._release_pops()

    def answer_question(self, yes: bool) -> bool:
        """The players answered the loop's question (see :class:`_Question`).

        Returns False when no question was waiting. "No" while the guess is
        still open takes it back and asks for the number; the move is then
        judged with the number said (a wrong count is called). Once the game
        has moved on past the guess, it is too late for that: the players are
        told how to take moves back instead.
        """
        question, self.question = self.question, None
        if question is None:
            return self._answer_doubt_question(yes)
        name = question.player.capitalize()
        if yes:
            self._say("Thank you.")
            return True
        board = self.last_board
        guess = question.guess
        if not (guess is self.inferred or guess is self.caught_up) or board is None:
            self._say(f"It is too late to change {name}'s pop: say referee, undo, to take moves back.")
            return True
        undone = (self._undo_inference(guess) if isinstance(guess, _Inferred)
                  else self._undo_catch_up(guess))
        if not undone:
            return True
        # The guess's own doubt (any value for this pop) is answered by the
        # players: the number they give is the pop, or the move stands.
        self.doubts = [d for d in self.doubts if d.state is not guess.state]
        if question.held is not None:
            # A pop held behind others: nothing is judged until its number.
            self.held_denied = _HeldDenied(question.held, question.player, self.t)
            if self.unread is not None:
                self.unread.said = True  # the catch-up's other unread pop: not news
        elif self.unread is not None:
            unread = self.unread
            unread.denied.add(question.value)
            unread.denied_at = self.t
            unread.asked = unread.moved = unread.said = True
            self.unseen_pop_board = board
        else:
            return True
        about = question.held.t if question.held is not None else None
        self._say(f"Then {name}, say the number you popped.", expects="number", about=about)
        return True

    def _judge_again(self, whole: boards.Board, said_at: int) -> None:
        """Judge *whole* afresh after a guess was taken back, without saying
        again what was said since the guess and is said the same way now
        (in the truth benchmark with unread pops, a take-back repeated about
        four sentences each time: "Red's turn. Red popped 4. ..."). What the
        new history changes is said; the players heard the rest."""
        self._said_before = [a.text for a in self.said[said_at:] if a.event is not None
                             or a.text.startswith(("That move means", "No peg moved after"))
                             or a.expects == "yes-no"]
        try:
            self._evaluate(whole)
        finally:
            self._said_before = []

    def _ask_unread(self) -> None:
        """Ask for the unread pop's number, once per unread pop."""
        unread = self.unread
        if unread is not None and not unread.asked:
            unread.asked = True
            name = unread.player.capitalize()
            self._say(f"{name}, say the number you popped.", expects="number")

    def _begin_unread(self, pop: PopUnread) -> None:
        """The referee is ready for a pop the camera could not read."""
        self.before_move = None
        player = self.referee.player or ""
        before = [p.t for p in self.seen_pops if p.t < pop.t - 1e-9]
        marks = [t for t in (before[-1] if before else None, self.board_agreed_at) if t is not None]
        self.unread = _Unread(player, pop.t, begun=self.t, quiet_from=max(marks) if marks else None,
                              faceless=pop.faceless)
        name = player.capitalize()
        if self.referee.phase == "first":
            # Who goes first cannot be decided without every value: ask now.
            self.unread.asked = self.unread.said = True
            self._say(f"I could not read {name}'s pop. {name}, say the number you popped.", expects="number")
        # Otherwise the camera often reads the die a moment later, or the
        # move that follows tells the value: it is said only if still
        # unknown after a while (see _timers), and asked only if needed.

    def _unread_without_move(self, board: boards.Board | None = None) -> bool:
        """Another pop came after an unread one (or *board* shows another
        player's move), and no peg moved in between.

        So the unread pop was a value no peg could use (a player with a
        usable pop moves before the next pop). The values are grouped by who
        pops next (a 6 gives the same player an extra pop); with *board*,
        only the groups after which the pops held since, played in order,
        make that board (see :meth:`_could_follow`) are kept. One group left:
        one value in it is the pop; several (never a 6) pass the turn
        (``skip``: the value cannot matter). Otherwise the number is asked
        for, once (without *board*), and the new pop stays held. Returns
        whether the unread pop was settled.
        """
        unread = self.unread
        state = self.referee.state
        assert unread is not None
        if board is None and (not self._board_seen_since(unread.begun) or self._peg_in_hand(unread.begun)
                              or self._moving_since(unread.t) or self._move_held_settling()) \
                and self._some_value_usable(state):
            # A usable pop would have moved a peg the camera has perhaps not
            # yet seen stable (and a 6 earned the pop just seen): until the
            # board is seen after the unread pop, unchanged or changed, the
            # loop cannot tell whether a peg moved. It waits; so too while
            # the last board seen lacks a peg of the player (lifted: a move
            # on its way), or while the board has been changing since a
            # board seen too soon after the pop to show a move, or while a
            # board that may be its move is held (:meth:`_move_held_settling`).
            return False
        groups = self._lost_before(board)
        if len(groups) != 1:
            if board is None:
                self._ask_unread()
            return False
        if board is None and self.last_board is not None and self._taken_back_here(unread):
            # The board seen last took this very guess back (its player's
            # move, which no way of playing the pops held makes): passing
            # the turn again would only be taken back again on the next
            # board, each time aloud (fresh whole game 958 at 640x480,
            # session 47: "No peg moved after Blue's pop" and "I did not see
            # Blue's pop" four times in seven seconds), and holding the pops
            # until the board changes leaves the table unrefereed in
            # silence. The loop follows the board from here.
            self._lose_track(self.last_board, self.last_board)
            return False
        self._settle_lost(groups)
        return True

    def _taken_back_here(self, unread: _Unread) -> bool:
        """Whether a board took back the guess that *unread* was lost and is
        still the last board seen."""
        back = self.taken_back_on
        return (back is not None and back[0] == unread.t and self.last_board is not None
                and boards.same(self.last_board, back[1], list(back[1])))

    def _settle_lost(self, groups: dict[str, list[int]]) -> None:
        """Settle the unread pop as one no peg could use, with the values of
        the one group of *groups* (see :meth:`_lost_by_next_player`): a
        value said when it is the only one, else the turn passed."""
        unread = self.unread
        assert unread is not None
        (values,) = groups.values()
        name = unread.player.capitalize()
        self._infer(unread)
        if len(values) == 1:
            self._say(f"No peg moved, so {name}'s pop must have been a {values[0]}.")
            self._feed({"pop": values[0]}, origin="loop", quiet=("pop",))
            return
        self._say(f"No peg moved after {name}'s pop.")
        self.unread_passed += 1
        self.turn_guessed = True
        self._feed({"command": "skip"}, origin="loop", quiet=("skip",))

    def _settled_in_hindsight(self, whole: boards.Board) -> bool:
        """The board seen before this one, with the unread pop still
        pending, showed no peg of its player moved, but left open whether it
        was a 6 no peg could use (an extra pop) or another lost value: the
        two give the pops held since to different players. This board is a
        move on a pop the camera missed after that board, for exactly one of
        them, and no history without such a pop leads here: the unread pop
        is settled that way, the board before is judged, then this one (a
        move on a pop not seen, as any).

        A seeded game: Red's pop unread, Blue's, Yellow's (a move) and
        Green's pops read, Red's pegs seen unmoved; then Red moved on a pop
        the camera missed. Taken as Red's unread pop moved late, after three
        other pops, it put the turns one out, and Yellow's next move was
        called out of turn."""
        unread, state = self.unread, self.referee.state
        if unread is None or unread.moved or unread.board is None or state is None:
            return False
        before = unread.board
        groups = self._lost_before(before)
        if len(groups) < 2:
            return False
        held = values_of(self.held_pops)
        if some_history(state, [None, *held, before], whole, unseen_last=False):
            return False
        fits = {p: vs for p, vs in groups.items()
                if some_history(lose_move(rules_pop(state, vs[0])), [*held, before], whole)}
        if len(fits) != 1:
            return False
        self._settle_lost(fits)
        self._release_pops()
        self._evaluate(before)
        if self.unread is None and boards.same(before, self.referee.position, list(whole)):
            self._evaluate(whole)
        return True

    def _board_seen_since(self, t: float) -> bool:
        return self.board_seen_at is not None and self.board_seen_at > t

    def _moving_since(self, t: float) -> bool:
        """The camera sees the board changing (``BoardUnsettled``), and the
        last board it saw stable came less than ``MOVE_SET_DOWN_S`` after a
        pop at *t*: too soon to show a move of it, so a move may be under
        way. (Fresh whole game 561 at 640x480, session 33: Red's second 6
        unread, the board seen unchanged 0.5 s later, then hands over it
        while Red brought a peg out and popped a 3, unread too; the loop
        said "No peg moved after Red's pop", gave the 3 to Blue, and lost
        track when the board showed Red's two moves.)"""
        seen = self.board_seen_at
        return self.board_unsettled and (seen is None or seen - t < MOVE_SET_DOWN_S)

    def _peg_in_hand(self, since: float) -> bool:
        """The last board, seen since *since* and within ``PEG_IN_HAND_S``,
        lacks a peg of the player to act: most likely lifted in the hand,
        its move not yet set down. (A fresh whole rendered game at 640x480,
        seed 358: Red's 6 unread, a red peg lifted out of Home and seen
        nowhere; Red's extra pop came before the peg was set down, the loop
        said "No peg moved after Red's pop" and gave the extra pop to Blue,
        then lost track when Red's peg landed.)"""
        state, seen = self.referee.state, self.last_board
        if state is None or seen is None or not self._board_seen_since(since):
            return False
        if self.board_seen_at is None or self.t - self.board_seen_at > PEG_IN_HAND_S:
            return False
        mover = {COLORS[i] for i in state.colors}
        return any(colour in mover for colour in boards.missing(seen, self.referee.position))

    @staticmethod
    def _some_value_usable(state: State | None) -> bool:
        return (
            state is not None
            and state.phase is Phase.POP
            and any(legal_moves(rules_pop(state, v)) for v in range(1, 7))
        )

    def _lost_alike(self, value: int) -> int:
        """How many pop values would have been lost like *value* now (no peg
        could use them, and the same player pops next); 0 if *value* is usable."""
        groups = self._lost_by_next_player(self.referee.state)
        return next((len(vs) for vs in groups.values() if value in vs), 0)

    @staticmethod
    def _lost_by_next_player(state: State | None) -> dict[str, list[int]]:
        """The pop values no peg could use in *state*, by the player who pops next."""
        if state is None or state.phase is not Phase.POP:
            return {}
        groups: dict[str, list[int]] = {}
        for v in range(1, 7):
            after = rules_pop(state, v)
            if not legal_moves(after):
                groups.setdefault(str(lose_move(after).player), []).append(v)
        return groups

    def _lost_before(self, board: boards.Board | None) -> dict[str, list[int]]:
        """The values the unread pop could have had with no peg able to use
        it, by who pops next (:meth:`_lost_by_next_player`); with *board*,
        only the groups after which the pops held since lead to it."""
        unread, state = self.unread, self.referee.state
        if unread is None or unread.moved:
            return {}
        groups = self._lost_by_next_player(state)
        if board is None:
            return groups
        held = values_of(self.held_pops)
        return {p: vs for p, vs in groups.items() if self._could_follow(state, vs[0], held, board)}

    def _could_follow(self, state: State | None, lost: int, held: list[int | None], board: boards.Board) -> bool:
        """Whether, after the pop *lost* was lost in *state*, the *held* pops
        (``None``: one seen but not read, any value) played in order lead to
        *board* as one move: held pops no peg can use pass on, the first one
        that can be used is the move's (any after it were popped early). With
        no pop held, the move may be one whose pop the camera missed."""
        if state is None:
            return False
        game = lose_move(rules_pop(state, lost))
        if not held:
            return game.phase is Phase.POP and bool(self._pops_explaining(board, game))
        return self._chain_explains(game, held, board)

    def _chain_explains(
        self, game: State, held: list[int | None], board: boards.Board, unseen_last: bool = False
    ) -> bool:
        """Whether the *held* pops played from *game* lead to *board* (see
        :meth:`_could_follow`); with *unseen_last*, also as a move whose pop
        the camera missed after the last held pop passed on.

        Every unread pop (``None``) multiplies the ways by six: with more
        than ``MAX_UNREAD`` of them, or more than ``MAX_POPS`` pops, the
        answer is no rather than a search that may not end this game (a whole
        rendered game once held a dozen pops with several unread).
        """
        if len(held) > MAX_POPS or sum(v is None for v in held) > MAX_UNREAD:
            return False
        if game.phase is not Phase.POP:
            return False
        if not held:
            return unseen_last and bool(self._pops_explaining(board, game))
        first, rest = held[0], held[1:]
        for value in range(1, 7) if first is None else (first,):
            after = rules_pop(game, value)
            if legal_moves(after):
                # The move's pop; any later ones were popped before the board
                # was stable (they wait for the move, as held pops do).
                if self._legal_on(after, board):
                    return True
            elif (rest or unseen_last) and self._chain_explains(lose_move(after), rest, board, unseen_last):
                return True
        return False

    def _some_way_explains(self, board: boards.Board) -> bool:
        """Whether any value of the unread pop, and of the unread pops held
        after it, with any pop the camera missed at the end, makes *board*
        one move of the game: if so, the board is not called illegal while
        the loop is behind."""
        state = self.referee.state
        if state is None or state.phase is not Phase.POP:
            return False
        held = values_of(self.held_pops)
        for lost in range(1, 7):
            after = rules_pop(state, lost)
            if not legal_moves(after) and self._chain_explains(lose_move(after), held, board, unseen_last=True):
                return True
        return self._unseen_before_unread(board)

    def _caught_up_to_seen(self, whole: boards.Board, unread: _Unread) -> bool:
        """The board seen last while *unread* was pending (a move several
        histories fitted then) is reached by exactly one way of playing the
        pops held now from which the pops left lead on to *whole*, perhaps
        by a move on a pop nobody saw (``only_way(..., then=whole)``): play
        that way to it, then judge *whole* from there (a move with no pop
        seen asks for its number).

        A truth game (seed 130, a tenth unread): Yellow's two 6s no peg
        could use, seen but not read; Yellow's 2 read and its move seen
        (Yellow's 6 and 2, Red's 2 lost and Blue's 2 still to move fitted
        too, so the loop waited for the number); Red's 2 read; then Blue's
        move on a pop nobody saw. No single move explained the two moves,
        and the board was called. Now both 6s, the 2 and Red's lost 2 are
        played, and Blue is asked for its number."""
        before, state = unread.board, self.referee.state
        if before is None or state is None or boards.same(before, self.referee.position, list(whole)) \
                or boards.same(before, whole, list(whole)):
            return False
        pops = [None, *values_of(self.held_pops)]
        way = only_way(state, pops, before, min_steps=1, then=whole)
        if way is None:
            return False
        self._play_way(way, state, pops, unread, before)
        if self.caught_up is not None:
            self.caught_up.then = whole
        self._evaluate(whole)
        return True

    def _unseen_before_unread(self, board: boards.Board) -> bool:
        """Whether pops nobody saw, each lost, came before the unread one,
        which then was a later player's, and it and the pops held since make
        *board*: as :meth:`_pops_unseen` allows for a move with no pop seen,
        one lost pop for each ``UNSEEN_POP_S`` the table was quiet before the
        unread pop (beyond the first), up to one round. A fresh whole
        rendered game at 640x480 whose die was too small to see tumble:
        Red's, Blue's and Yellow's lost pops never seen, Green's 6 seen but
        not read and taken for Red's, and Green's peg out called "not Green's
        turn" (then the game stuck on that call for thirteen minutes)."""
        unread, state = self.unread, self.referee.state
        if unread is None or unread.quiet_from is None or state is None or state.phase is not Phase.POP:
            return False
        quiet = unread.t - unread.quiet_from
        held = [None, *values_of(self.held_pops)]
        for lost, frontier in self._after_lost_unseen(state):
            if quiet < UNSEEN_POP_S * (lost + 1):
                return False
            if any(self._chain_explains(s, held, board, unseen_last=True) for s in frontier):
                return True
        return False

    def _pop_before_was_missed(self, value: int) -> bool:
        """A move made with no pop seen is waiting for its number (asked
        for), and the pop now seen does not fit it, while exactly one other
        value does: the mover's pop was missed and this pop is the next
        player's (the table played on). The mover's pop is taken from the
        move, said, and the move played; returns whether it was.

        A seeded game: Red's pop unseen, Red moved 4 -> 6, then Blue popped
        a 5, fed as Red's: "That peg moved 2 spaces, but the pop was 5"."""
        board, state = self.unseen_pop_board, self.referee.state
        if board is None or state is None or state.phase is not Phase.POP:
            return False
        if self._legal_on(rules_pop(state, value), board):
            # It fits: the mover's own pop, as asked. But the mover's pop may
            # have gone unseen and this one be the next player's, of the
            # same value: that history is kept as a doubt (fresh whole game
            # 872 at 640x480, session 43: Yellow's 4 never seen, Yellow moved
            # 4, Green's lost 4 taken for Yellow's, and Red's 6, given to
            # Green, was called "Not Red's turn").
            self._open_doubt(state, [None, value])
            return False
        values = self._pops_explaining(board)
        if len(values) != 1:
            return False
        self.unseen_pop_board = None
        name = (self.referee.player or "").capitalize()
        self._say(f"That move means {name} popped a {values[0]}.")
        # A guess like any other about a pop not read: the board it came from
        # may have been misread (a whole rendered game at 640x480: Yellow's
        # peg read on 10 for 9 s, then on 9, and Green's next move called).
        self._open_doubt(state, [None, value])
        self.before_pop = state
        self._feed({"pop": values[0]}, origin="loop", quiet=("pop",))
        self._feed_board(board, {})
        return True

    def _after_pop(self) -> None:
        """A pop has been fed: a move already on the board for it is judged now.

        The board the number was asked for first, when a later one has come
        since and that move alone is legal on the pop: the table may have
        played on (fresh whole game 617 at 640x480: Blue's extra pop and
        Yellow's pop both unseen, the die hidden for 7.7 s; Green's 5, read
        next, taken for Blue's, and the board with Blue's and Yellow's moves
        called "does not match one move")."""
        asked, last = self.unseen_pop_board, self.last_board
        if asked is not None and last is not None:
            self.unseen_pop_board = None
            if self.referee.phase == "move":
                if not boards.same(asked, last, list(last)) and self._legal_on(self.referee.state, asked):
                    self._evaluate(asked)
                    if self.referee.phase == "move":
                        return  # the asked move not taken after all: the later board waits
                self._evaluate(last)

    def _explained(self, seen: boards.Board, expected: boards.Board, miss: dict[str, int]) -> bool:
        """Whether every missing peg is one the referee already sent Home, or one
        that sat where another colour's peg now stands (a bump just made)."""
        for colour, n in miss.items():
            if self.timers.awaiting_home.get(colour) is not None or colour in self.timers.reminded_home:
                continue
            landed_on = [
                p
                for p in expected.get(colour, ())
                if p.startswith("track:") and any(p in seen.get(o, ()) for o in seen if o != colour)
            ]
            if len(landed_on) < n:
                return False
        return True

    def _note_missing(self, miss: dict[str, int]) -> None:
        """Start or clear the timers for pegs the camera cannot see."""
        for colour in list(self.timers.awaiting_home):
            if colour not in miss:
                del self.timers.awaiting_home[colour]
        self.timers.reminded_home &= set(miss)
        unexplained = {c for c in miss if c not in self.timers.awaiting_home and c not in self.timers.reminded_home}
        if unexplained:
            if self.timers.missing_since is None:
                self.timers.missing_since = self.t
        else:
            self.timers.missing_since = None
            self.timers.missing_said = False

    def _legal_on(self, state: State | None, whole: boards.Board) -> bool:
        """Whether the referee would accept *whole* as one legal move from *state*.

        Asked of the referee's own board reading, without feeding it, so a
        board the loop is not yet sure of never becomes an announcement.
        """
        return isinstance(_reading(state, whole), Move)

    def _feed_board(self, whole: boards.Board, miss: dict[str, int]) -> None:
        self.caught_up = None  # another move accepted: a catch-up before it stands
        self.caught_stood = None
        before = self.referee.state
        events = self._feed({"board": whole}, origin="camera")
        if self.last_pop_seen is not None and any(e.get("event") == "move" for e in events):
            self.turn_guessed = False  # a move on a pop the camera read: the turn is known again
        self.illegal_board = None
        self.before_move = before if any(e.get("event") == "move" for e in events) else None
        for event in events:
            victim = event.get("victim")
            if event.get("event") == "bump" and isinstance(victim, str) and victim in miss:
                self.timers.awaiting_home[victim] = self.t + self.settings.home_reminder_s
        self._note_missing(miss)
        self._release_pops()

    # -- pops ----------------------------------------------------------------

    def _on_pop(self, obs: PopSettled | PopUnread) -> None:
        self.cocked_said = False
        self.last_pop_seen = obs.value if isinstance(obs, PopSettled) else None
        self.last_pop_doubted = isinstance(obs, PopSettled) and obs.confidence < PHANTOM_READ
        self.last_pop_owner_doubted = False
        self.pop_seen_at = obs.t
        self.seen_pops.append(obs)
        if self.stage == "over":
            return
        if self.spoken_pop is not None:
            value, t = self.spoken_pop
            self.spoken_pop = None
            same = isinstance(obs, PopUnread) or value == obs.value
            if same and obs.t - t <= self.settings.spoken_pop_s:
                self.pop_said_at = obs.t
                return  # the camera catching up with a pop the players already said
            if obs.t - t <= self.settings.spoken_pop_s:
                self._count_said_before_the_read(obs, t)
        self.pops_read.append(isinstance(obs, PopSettled))
        self.held_pops_since_check = True
        if not self._die_blind():
            self.die_blind_said = False
        self.held_pops.append(obs)
        self._doubts_saw(obs.value if isinstance(obs, PopSettled) else None)
        if self.lost is not None:
            self.lost_pops += 1
            self.pops_since_help += 1
            return  # held: the move it goes with tells whose turn it was
        if len(self.held_pops) == 1:
            self._unread_tapped(obs)
        self._release_pops()

    def _count_said_before_the_read(self, obs: PopSettled | PopUnread, said_at: float) -> None:
        """The camera reads *obs*, surely, moments after a number said for
        the pop before it had reported one, and taken weakly
        (``_take_said_weakly``: a count's "one" or "two"), with no move
        since: the number was a count and *obs* is the pop, so the number
        is taken back and *obs* goes on as the pop (a table counting aloud,
        fresh game 1064, session 51: Yellow's 5 landed cocked and was tapped,
        Yellow's count began "one" 0.17 s before the camera read the 5, the
        5 was held as the next player's pop and Yellow's move of 5 called
        "That peg moved 5 spaces, but the pop was 1.")."""
        fed, state = self.pop_fed, self.referee.state
        if (not isinstance(obs, PopSettled) or obs.confidence < PHANTOM_READ or fed is None or state is None
                or fed[0].t != said_at or fed[0].confidence != SPOKEN_POP_CONFIDENCE):
            return
        said, before = fed
        if not (state.phase is Phase.MOVE and state.pop == said.value and state.player == before.player):
            return
        self._feed({"command": "undo"}, origin="loop", quiet=("undo",))
        self.pop_fed = None

    def _on_late_read(self, obs: PopReadLate) -> None:
        """The camera read, after all, the pop it reported unread.

        Still held: it is an ordinary pop now. Not yet worked out: it is the
        pop, fed as the camera's, and a move already on the board is judged
        with it. Already worked out from the move, or settled by the
        players' word: the loop keeps what it has (the move and the players
        saw more than a die read late).

        Either way it counts as a weak read (``LATE_READ_CONFIDENCE``): the
        same rest read unreadable a moment before, and what changed is a
        hand's shade or the glare, not the die. A move another value makes
        legal is then asked about, not called (``_weak_read_misread``; fresh
        whole game seed 152 at 640x480: a small 6 under glare, unread for
        1.5 s, read 4 at 0.98 with a hand over the board, and Yellow's peg
        brought out was called "needs a 6"). One read under ``NO_READ_BELOW``
        is let go: the pop stays unread.
        """
        if obs.confidence < NO_READ_BELOW:
            return  # a late read this weak is no read: the pop stays unread
        self.last_pop_seen = obs.value
        self.last_pop_doubted = True
        if self.pops_read and not self.pops_read[-1]:
            self.pops_read[-1] = True
        for i in range(len(self.held_pops) - 1, -1, -1):
            held = self.held_pops[i]
            if isinstance(held, PopUnread):
                if i == len(self.held_pops) - 1:
                    self.held_pops[i] = PopSettled(held.t, obs.value, confidence=LATE_READ_CONFIDENCE)
                    self._release_pops()
                return
        unread = self.unread
        if unread is None or self.stage == "over":
            return
        self.unread = None
        self.unseen_pop_board = None
        self.before_pop = self.referee.state
        if self.before_pop is not None:
            self.pop_fed = (PopSettled(obs.t, obs.value, confidence=LATE_READ_CONFIDENCE), self.before_pop)
        self._feed({"pop": obs.value}, origin="camera", hedge=True)
        if unread.moved or self.last_board is not None:
            self.reevaluate()
        else:
            self._release_pops()

    def _played_on(self, board: boards.Board) -> bool:
        """The players played on after a move called illegal: *board* is that
        move followed by the next pops held since (the next player's move).

        When exactly one other value of the pop it was judged by makes that
        move legal and the held pops lead on from it to *board*, the camera
        misread the die: the pop is corrected (said once), the move taken,
        and *board* judged afresh. Returns whether it was. (A pop alone does
        not overrule the call: a player may pop early while the last move is
        still being put right.)"""
        called = self.illegal_board
        state = self.before_pop
        if called is None or state is None or self.referee.phase != "move" or not self.held_pops:
            return False
        held = values_of(self.held_pops)
        values = []
        for v in self._pops_explaining(called, state):
            if v == self.referee.pending_pop:
                continue
            popped = rules_pop(state, v)
            moved = read_board(popped, parse_board(called, state.options.pegs_per_color))
            if isinstance(moved, Move) and self._chain_explains(apply_move(popped, moved), held, board):
                values.append(v)
        if len(values) != 1:
            return False
        name = (self.referee.player or "").capitalize()
        self._say(f"You played on, so I take it {name} popped a {values[0]}.")
        self._feed({"command": "pop", "value": values[0]}, origin="loop", quiet=("correct", "pop"))
        self.illegal_board = None
        self._feed_board(called, {})
        if self.stage != "over":
            self._evaluate(board)
        return True

    def _ready_for_pop(self) -> bool:
        return (
            self.stage in ("game", "check")
            and self.referee.phase in ("first", "pop")
            and self.illegal_board is None
            and self.lost is None
        )

    def _release_pops(self) -> None:
        while self.held_pops and self._ready_for_pop() and self.held_denied is None:
            if self.unread is not None:
                # A pop after an unread one with no move between.
                if not self._unread_without_move():
                    break
                continue
            first = self.held_pops[0]
            if isinstance(first, PopSettled) and self._pop_before_was_missed(first.value):
                continue  # the mover's pop worked out from the move; this one is the next player's
            pop = self.held_pops.pop(0)
            self.before_move = None
            self.caught_stood = None  # a second pop since: play has gone on
            if self.inferred is not None:
                if len(self.inferred.pops) < self.inferred.pops_allowed:
                    self.inferred.pops.append(pop)
                else:
                    self.inferred = None  # play has gone on: the inference stands
            caught = self.caught_up
            if caught is not None:
                if pop.t < caught.t or (caught.released < caught.pops_allowed and not self._stood(caught.t, CAUGHT_UP_POP_S)):
                    # (A pop the catch-up left over, popped before its board
                    # was seen, is no sign that play went on after that board:
                    # not counted. A seeded game's Red, a blind stretch with an
                    # unread pop, Blue's lost 1 and Red's 5 held: the board,
                    # a wrong count, was caught up as an unread 5, and when it
                    # was put right a moment later the catch-up stood, and
                    # the right board was called "moved 1, but the pop was 5".)
                    if pop.t >= caught.t:
                        caught.released += 1
                    if not any(pop is q for q in caught.held):
                        # (A pop the catch-up left over is held again from
                        # caught.held when it is taken back: kept here too,
                        # it was held twice, and a seeded game's Green 5
                        # became a Red 5 and a Blue 5 no camera saw.)
                        caught.pops.append(pop)
                else:
                    self.caught_up = None  # play has gone on: the catch-up stands
                    if not caught.released and not caught.pops and pop.t >= caught.t:
                        # ... unless its guess is put right while this pop is
                        # played (``_guess_put_right_later``).
                        caught.pops.append(pop)
                        self.caught_stood = caught
            if isinstance(pop, PopUnread):
                self._begin_unread(pop)
                continue
            self.before_pop = self.referee.state
            if self.before_pop is not None:
                self.pop_fed = (pop, self.before_pop)
            events = self._feed({"pop": pop.value}, origin="camera", hedge=pop.confidence < PHANTOM_READ)
            if pop.value == 6 and self.move_on_unread_at is not None and pop.t < self.move_on_unread_at:
                self.last_pop_owner_doubted = True
            self._doubt_lost_echo(pop, events)
            self._after_pop()
        if self.held_pops:
            if self.timers.held_pop_since is None:
                self.timers.held_pop_since = self.t
        else:
            self.timers.held_pop_since = None
            self.timers.held_pop_said = False

    def _unread_tapped(self, pop: PopSettled | PopUnread) -> None:
        """The camera read *pop*, the first held since the unread pop, within
        ``TAPPED_S`` of it, with no move seen between: the unread pop was the die landing
        cocked where the reader saw no face (or a hand's stir), and the pop
        read is the tap's, its player's pop. The unread pop is dropped (said
        only if it had been said or asked about) and the game with it is kept
        as a doubt (:class:`_Doubt`), so a later board only it explains is
        followed, not called.

        Settled as a pop no peg used instead, it gave the read pop to the
        next player, said aloud with that player's name, and the turns ran
        one out until a board showed it (fresh whole game 557 at 640x480,
        session 33: Green's die cocked, read as no face, tapped to a 1 1.3 s
        later; "No peg moved after Green's pop. Red popped 1.", and Red's
        and Blue's pops went to the player after). Of the unread pops the
        camera read another pop after so soon in 144 fresh games, 83 of 87
        were such a die (``TAPPED_S``); the other 4 were a pop no peg could
        use and the next player's, which the doubt keeps open.

        A second pop not read either, within ``UNREAD_AGAIN_S``, is the same
        (fresh game 609, session 34: an unread pop 1.5 s before Red's real
        one, also unread; "Red, say the number you popped", Red's move
        announced 2 s late, and then "I take back Red's pop I could not
        read" when Blue moved): it is left to stand for the unread pop."""
        unread = self.unread
        state = self.referee.state
        window = UNREAD_AGAIN_S
        if isinstance(pop, PopSettled):
            # On a die the camera saw no face on, a tap read a frame or two
            # late too (``FACELESS_AGAIN_S``: fresh game 891, read at 1.67 s).
            window = FACELESS_AGAIN_S if unread is not None and unread.faceless else TAPPED_S
        if (unread is None or pop.t - unread.t >= window or unread.moved or unread.denied
                or state is None or self.referee.phase != "pop"):
            return
        self._open_doubt(state, [None, pop.value if isinstance(pop, PopSettled) else None])
        self.unseen_pop_board = None
        self._forget_unread(unread)

    def _doubt_resettled(self, obs: DieResettled) -> None:
        """The die settled again on its face under a hand while the game
        waits for a pop, none held: a pop of the same value made under the
        hand, or a hand passing beside the dome (the camera cannot tell). The
        game with it as a pop is kept as a doubt (:class:`_Doubt`): a later
        board only that history explains is followed, not called. (Fresh
        whole rendered game 401 at 640x480, session 30: Green's 1 popped
        after Yellow's 1 under Green's hand, not reported; every pop after it
        given to the player before, and Blue's move of 5 on Blue's real 5,
        taken for Yellow's 3, called "That peg moved 5 spaces, but the pop
        was 3".)"""
        state = self.referee.state
        if (self.stage == "game" and state is not None and state.phase is Phase.POP and not self.held_pops
                and self.unread is None and self.lost is None):
            self._open_doubt(state, [obs.value])

    def _doubt_lost_echo(self, pop: PopSettled, events: list[dict[str, Any]]) -> None:
        """*pop*, just fed and lost (no peg could use it), repeats the value
        of the pop seen just before it: it may be the same face read again
        (under the mover's hand, held before the board that showed that
        pop's move, or after it: fresh whole game 1189 at 640x480, session
        54, Red's 5 read again at 0.997 three seconds after Red's move was
        seen, given to Blue, and Yellow's move called a wrong count of
        Blue's 1), no pop at all. Nothing on the board can show that
        a lost pop was none, so the game without it is kept as a doubt
        (:class:`_Doubt`): a later board only that history explains is
        followed, not called. (Fresh whole rendered game 419 at 640x480,
        session 30: Blue's 5 read again at 0.063 from its rest, just past the
        "moved" bar, while Blue's hand moved the peg; given to Yellow, who
        could not use a 5, Yellow's real 1 given to Green, and Yellow's and
        Green's moves of 1 called "The board does not match one move".)
        A real pop of the same value lands within the bar as often (fresh
        kept games: the die's thumbnail alone cannot tell them apart).
        So too for any lost pop read under ``WEAK_READ``, held or not."""
        state = self.before_pop
        if state is None or not any(e.get("event") == "no-move" for e in events):
            return
        if pop.confidence < WEAK_READ:
            # Read weakly, held or not: it may be no pop at all, a face
            # misread while the die lay still (fresh whole rendered game 683
            # at 640x480, session 36: a 5 read at 0.978 between Red's 1 and
            # Blue's 4, given to Blue, who could not use it; Blue's 4 went to
            # Yellow, and Yellow's move of 3 was called "moved 3 spaces, but
            # the pop was 4").
            self._open_doubt(state, values_of(self.held_pops))
            return
        at = next((i for i, p in enumerate(self.seen_pops) if p is pop), None)
        previous = self.seen_pops[at - 1] if at else None
        if isinstance(previous, PopSettled) and previous.value == pop.value:
            # Read after that pop's move was seen (not held), it is open only
            # until the next move, and not to a move on a pop nobody saw at
            # its end: kept as the held one is, the game one pop out of step
            # explained away a wrong count of the next player's pop (truth
            # games with wrong counts left standing 4 s, seeds 100-399: 448
            # -> 540 missed; now 449).
            self._open_doubt(state, values_of(self.held_pops), until_move=pop.t >= self.t)

    # -- feeding the referee ---------------------------------------------------

    def _feed(self, line: dict[str, Any], origin: str, quiet: tuple[str, ...] = (),
              hedge: bool = False) -> list[dict[str, Any]]:
        """Feed one input to the referee, record it, then announce its events
        (except the sentences of the event kinds in *quiet*, which the loop
        has already put in its own words). With *hedge* (a pop the die reader
        doubted, under ``PHANTOM_READ``, or read only after it was reported
        unread), the pop is said with a doubt: "Red popped 4, I think." (Over
        the fresh whole games 488-567 at 640x480, 5 of 170 such reads were
        wrong, against none of 11,043 at 0.95 or more; a pop no peg could use
        is never put right by a move, and was announced as sure.) The
        record keeps the referee's own sentence."""
        state_before = self.referee.state
        events = self.referee.feed(line)
        self._unrecorded.append(RecordItem(line, events, self.t, origin))
        for caught in (self.caught_up, self.caught_stood):
            if caught is not None and self.referee.state != state_before:
                caught.fed += 1
        change = (-1 if line.get("command") == "undo" else 1) if self.referee.state != state_before else 0
        self.changes_fed += change
        inferred = self.inferred
        if inferred is not None and change:
            inferred.fed += change
            if any(e.get("event") == "move" for e in events):
                if inferred.own_move:
                    inferred.own_move = False
                else:
                    self.inferred = None  # another move accepted: the inference stands
        for event in events:
            if origin == "loop" and event.get("event") == "pop":
                self.worked_out.append(len(self.events))
                about = self.inferred.unread.t if self.inferred is not None else None
                asked = [a.t for a in self.said[-40:] if a.expects == "number" and a.about == about]
                if about is not None and asked:
                    self.worked_out_asked.append((len(self.events), asked[-1]))
            self.events.append((self.t, event))
            self._track_places(event)
            if event.get("event") == "pop":
                self.last_pop_origin = origin
            if event.get("event") == "move":
                self._forget_adopted_moved()
                self.move_on_unread_at = self.t if self.last_pop_origin != "camera" else None
            text = event.get("text")
            if isinstance(text, str) and text and event.get("event") not in quiet:
                if hedge and event.get("event") == "pop" and text.endswith("."):
                    text = text[:-1] + ", I think."
                self._say(text, urgent=event.get("event") in URGENT_EVENTS, event=event)
        if self.referee.over and self.stage != "over":
            self.stage = "over"
            self._finished_places = self._final_places()
            if self.score_sentence is not None:
                self._say(self.score_sentence())
        return events

    def _forget_adopted_moved(self) -> None:
        """A peg placed when the loop got back in step (``adopted``) that the
        game has since moved on is no longer one: the board agreed with the
        game about it. Kept by place alone, it made a new peg brought out onto
        the same Start look adopted, and that peg's wrong count, three minutes
        later, went uncalled ("I have lost track" instead; truth benchmark
        seed 704)."""
        position = self.referee.position
        self.adopted = {(colour, place) for colour, place in self.adopted if place in position.get(colour, ())}

    def _track_places(self, event: dict[str, Any]) -> None:
        if event.get("event") == "finished" and isinstance(event.get("color"), str):
            self.places.append(event["color"])
        elif event.get("event") == "undo":
            self.places = [p for p in self.places if p in self.referee.finished_players]

    def _final_places(self) -> list[str]:
        from companion.store.record import player_name

        order = list(self.referee.finished_players)
        names = {p[0]: player_name(p) for p in (self.players or [])}
        rest = [p[0] for p in (self.players or []) if p[0] not in order]
        return [names.get(c, c) for c in order + rest]

    # -- speaking ------------------------------------------------------------

    def _say(self, text: str, urgent: bool = False, event: dict[str, Any] | None = None,
             expects: str | None = None, about: float | None = None) -> None:
        if text in self._said_before:
            # Said already, before a guess was taken back (see _judge_again).
            del self._said_before[: self._said_before.index(text) + 1]
            return
        if expects is not None and about is None and self.unread is not None:
            about = self.unread.t
        item = Announcement(self.t, text, urgent, event, expects, about)
        self.said.append(item)
        self._unsaid.append(item)

    def say(self, text: str, urgent: bool = False) -> None:
        """Say something of the loop's own (used by the corrections)."""
        self._say(text, urgent=urgent)

    def feed(self, line: dict[str, Any], origin: str) -> list[dict[str, Any]]:
        """Feed, record and announce one referee input (used by the corrections)."""
        return self._feed(line, origin)

    def reevaluate(self) -> None:
        """Look again at the last stable board after the game changed by voice.

        A move made with a pop the camera missed, and waiting for its number,
        is judged first: later boards may already hold the next player's move.
        """
        self._called_before = self.illegal_board
        self.illegal_board = None
        pending = self.unseen_pop_board
        self.unseen_pop_board = None
        if self.stage in ("game", "check"):
            if (
                pending is not None
                and self.last_board is not None
                and self.referee.phase == "move"
                and not boards.same(pending, self.last_board, list(pending))
            ):
                self._evaluate(pending)
            if self.last_board is not None:
                self._evaluate(self.last_board)
        self._release_pops()
        self._called_before = None

    def voice_changed_game(self, intent: str, line: dict[str, Any] | None = None,
                           before: State | None = None) -> None:
        """The players changed the game by voice: an unread pop is theirs to settle.

        A spoken pop is its value; a turn given or skipped also drops the pops
        held behind the unread one (they belonged to the turns now passed).
        Open guesses (:class:`_Doubt`) see a spoken pop the camera had not
        seen as a pop read, and a pop corrected as its new value; anything
        else said sets the game right, and closes them.
        """
        self.inferred = None
        if intent != "pop" or line is None:
            self.doubts = []  # the players have said how the game stands
        elif "pop" in line:
            if self.unread is None:
                self._doubts_saw(int(line["pop"]))
            elif self.unread.denied or self._die_blind():
                # The number answers "was your pop a 3?" "No", or the players
                # were asked to say each number (the camera cannot read the
                # die): the pop is in them as any value, and now has one.
                # (Not for every number said while a pop is unread: a number
                # for a pop the camera never saw, said then, was taken for it:
                # more false calls.)
                for doubt in self.doubts:
                    doubt.name_pop(int(line["pop"]), len(self.held_pops))
        else:
            for doubt in self.doubts:
                doubt.correct_last_pop(int(line["value"]))
        if intent in ("turn", "peg", "undo"):
            self.lost = None  # the players have set the game right themselves
        said_pop = intent == "pop" and line is not None and "pop" in line
        if self.unread is None:
            if (said_pop and line is not None and before is not None and not self.held_pops
                    and int(line["pop"]) in COUNT_STARTS):
                # A count's first number for a pop the camera never saw (a
                # cocked die tapped out of view): weak, as for an unread pop
                # below, not the pop. A table counting aloud had Blue's
                # unseen 5 taken for a 1 and the move of 5 called (session
                # 49, ``bench referee --count-aloud``, fresh game 1012).
                self._take_said_weakly(int(line["pop"]), before)
            return
        if said_pop and not self.held_pops:
            self.pop_said_at = self.pop_seen_at  # the unread pop, numbered aloud
            if (line is not None and before is not None and not self.unread.denied
                    and not self.unread.moved
                    and (not self._die_blind() or int(line["pop"]) in COUNT_STARTS)):
                # Numbered before any move was seen, and not as the answer to a
                # question about that move: a number heard then may be the
                # mover counting the spaces aloud ("one, two, three, ..."),
                # whose "one" is taken for the pop (docs/voice.md, session
                # 41). It stands as a weak read of the die does: a move that
                # fits another value, and not it, is taken for that value and
                # asked back ("Blue, was your pop a 5?"), not called at once;
                # "no" and the number said again has it called. With the players saying every number
                # because the die cannot be read, only a count's first numbers
                # (``COUNT_STARTS``) are weak: a table counting aloud had its
                # "one" taken for the pop and the move of 2 called (session
                # 49, ``bench referee --count-aloud``). It keeps the unread
                # pop's time, as any question about it names that pop.
                self._take_said_weakly(int(line["pop"]), before, self.unread.t)
        elif said_pop and line is not None and not self.unread.denied:
            # Numbered after the table played on (pops seen since it), and
            # not as the answer after a "no" to the loop's guess: the
            # number may be another pop's (one the camera missed, said by
            # its mover), so the turn rests on a guess until a move on a pop
            # read, and the game with the number as a pop of its own after
            # those held is kept as a doubt. Seeded truth games: Red, asked
            # at once, said nothing; 27 s and eleven pops later Blue moved
            # on a missed pop and said "one", taken for Red's, and Blue's
            # move was called out of turn. Blue's unread pop, Red's 3 lost,
            # then Blue's peg brought out on a missed 6, said: the 6 taken
            # for the unread pop and Red's 3 for Blue's extra pop, and Blue's
            # next move of 6 called a wrong count.
            self.turn_guessed = True
            if before is not None:
                self._open_doubt(before, [None, *values_of(self.held_pops), int(line["pop"])])
                if int(line["pop"]) in COUNT_STARTS and not self.unread.asked:
                    # A count's first number, weak as above (fresh games
                    # 1000 and 1038 counting aloud, session 51: the mover's
                    # weak "one" taken back for the 2 its move showed, and
                    # the "one" of the next player's count, that player's
                    # pop held, taken for the mover's pop: "That peg moved 2
                    # spaces, but the pop was 1."). Not when the loop asked
                    # for the number: then it is the answer.
                    self._take_said_weakly(int(line["pop"]), before, self.unread.t)
        self.unread = None
        if intent in ("turn", "skip"):
            self.held_pops.clear()

    def _take_said_weakly(self, value: int, before: State, t: float | None = None) -> None:
        """A number said for a pop (seen at *t*, or never seen), taken as a
        weak read of the die (``SPOKEN_POP_CONFIDENCE``): a move that fits
        another value, and not it, is taken for that value and asked back
        (``_weak_read_misread``)."""
        self.pop_fed = (PopSettled(self.t if t is None else t, value, confidence=SPOKEN_POP_CONFIDENCE), before)

    # -- reminders -------------------------------------------------------------

    def _timers(self) -> None:
        from companion.live.corrections import settle_held_number

        settle_held_number(self)
        t = self.t
        tm = self.timers
        if self.transit is not None and not self.board_unsettled and t - self.transit[1] >= self.transit[2] - 1e-9:
            # (A board the camera no longer reads steadily waits for the next
            # report: fresh whole game seed 194 at 640x480, Yellow's peg read
            # seated a space past the end of its move for a second as it was
            # carried on, and called 0.8 s after it had come down in its
            # place, while hands kept that place from being reported.)
            if self.stage == "game":
                self._evaluate(self.transit[0])  # it stayed: judged now (called, unless explained)
            self.transit = None
        for colour, due in list(tm.awaiting_home.items()):
            if t >= due:
                del tm.awaiting_home[colour]
                tm.reminded_home.add(colour)
                self._say(f"{colour.capitalize()}, your peg goes back to Home.")
        if self.lost is not None and self.stage == "game" and (
                t - self.lost_at[0] >= FOLLOW_HELP_S if not self.follow_help_said
                else t - self.follow_help_at >= FOLLOW_HELP_AGAIN_S and self.pops_since_help > 0):
            self.follow_help_said = True
            self.follow_help_at = t
            self.pops_since_help = 0
            example = (self.players or [["red"]])[0][0].capitalize()
            self._say("I am still working out whose turn it is from the board. You can tell me: "
                      f"say \"referee, it's {example}'s turn\".")
        unread = self.unread
        if unread is not None and not unread.said and t - unread.t >= self.settings.unread_say_s:
            unread.said = True
            if unread.asked:
                pass
            elif not self._die_blind():
                self._say(f"I could not read {unread.player.capitalize()}'s pop.", expects="number")
            elif not self.die_blind_said:
                # Said once while the camera keeps failing to read the die,
                # not after every pop (75 times in a whole rendered game).
                self.die_blind_said = True
                self._say(DIE_BLIND_SAID)
        if (self.unclear_said_at is not None and self.stage in ("opening", "check", "game")
                and t - self.unclear_said_at >= UNCLEAR_AGAIN_S):
            # Said once at the table may go unheard, and nothing else is
            # said while no board is read (fresh whole games 802 and 820 at
            # 640x480: one sentence at 15 s, then twelve minutes of silence).
            self.unclear_said_at = t
            self.unclear_told_at = t
            self._say(UNCLEAR_AGAIN_SAID)
        asked = self.doubt_question
        if asked is not None and t - asked.t >= ANSWER_WAIT_S:
            # No answer: the board is followed, as it would have been at once.
            self._answer_doubt_question(False)
        if unread is not None and unread.denied and t - unread.denied_at >= ANSWER_WAIT_S:
            self._no_number_after_no(unread)
        held = self.held_denied
        if held is not None and t - held.at >= ANSWER_WAIT_S:
            self.held_denied = None
            self._say(f"Nobody said {held.player.capitalize()}'s number, so I take the moves as they are.")
            self._resume_after_held()
        if tm.missing_since is not None and not tm.missing_said and t - tm.missing_since >= self.settings.missing_peg_s:
            tm.missing_said = True
            self._say("I cannot see every peg. Please put each peg back on its hole.")
        if (
            tm.board_lost_since is not None
            and not tm.board_lost_said
            and t - tm.board_lost_since >= self.settings.board_lost_s
        ):
            tm.board_lost_said = True
            self._say("I cannot see the board. Is something covering the markers?")
        if (
            tm.held_pop_since is not None
            and not tm.held_pop_said
            and t - tm.held_pop_since >= self.settings.held_pop_s
            and self.referee.phase == "move"
            and self.lost is None  # lost track: the game's "whose move" is not believed
        ):
            tm.held_pop_said = True
            player = self.referee.player or "the player"
            self._say(f"Waiting for {player.capitalize()} to move a peg {self.referee.pending_pop}.")
