"""Why a move is illegal: a reason code and a sentence for the table.

:func:`check_move` judges a move as it is seen (a colour, a place it left, a
place it reached) and returns either the legal :class:`Move` (with its
consequences) or an :class:`Illegal` value. It agrees with
:func:`companion.rules.legal_moves` exactly: a test checks every pair.
"""

from __future__ import annotations

from typing import NamedTuple

from companion.rules.board import (
    ABSOLUTE,
    COLOR_INDEX,
    COLORS,
    FIRST_FINISH,
    HOME,
    LAST_FINISH,
    LAST_TRACK,
    START,
    TRACK_SPACES,
    Place,
    parse_place,
    progress,
    spoken_place,
    title,
)
from companion.rules.game import Move, forfeits_six, legal_moves
from companion.rules.game import pop as take_pop
from companion.rules.state import Phase, State

#: Every reason code :func:`check_move` can give, with what it means.
REASONS: dict[str, str] = {
    "game-over": "the game is over",
    "no-pop": "no pop is waiting for a move (or the who-goes-first pops are not done)",
    "not-your-turn": "the peg is not a colour of the player whose turn it is",
    "no-such-peg": "no peg of that colour is where the move started",
    "wrong-way": "the peg moved backwards, back Home, or out of its Finish",
    "second-lap": "the peg went past its Finish entrance onto a second lap",
    "not-start": "a peg leaving Home must go onto its own Start space",
    "needs-six": "a peg leaves Home only on a 6",
    "wrong-count": "the peg moved a different number of spaces than the pop",
    "overshoot": "the pop is too big for that peg to stop in its Finish",
    "own-peg": "the move ends on a space holding one of the player's own pegs",
    "not-your-finish": "a peg may enter only its own colour's Finish",
    "jump-in-finish": "the peg jumped over its own peg inside Finish (rule option off)",
    "peg-finished": "in basic play a peg in Finish has finished and stays there",
    "third-six": "a third 6 in a row ends the turn (house rule)",
}


class Illegal(NamedTuple):
    """An illegal move: a reason code (see :data:`REASONS`) and a sentence."""

    reason: str
    text: str


def check_move(state: State, color: str, frm: Place, to: Place) -> Move | Illegal:
    """Judge one peg of *color* moved from *frm* to *to* with the pending pop.

    >>> from companion.rules import new_game, pop, parse_place
    >>> s = pop(new_game(turn="red"), 3)
    >>> check_move(s, "red", parse_place("home"), parse_place("track:1"))
    Illegal(reason='needs-six', text='Red needs a 6 to bring a peg out of Home; the pop was 3.')
    """
    c = COLOR_INDEX[color]
    name = title(c)
    phase = state.phase
    if phase is Phase.OVER:
        return Illegal("game-over", "The game is over.")
    if phase is Phase.FIRST:
        return Illegal("no-pop", "Nobody moves yet: everyone pops once to see who goes first.")
    player = state.sides[state.turn]
    if c not in player:
        whose = title(player[0])
        why = f"{name} is not playing" if state.side_of(c) is None else f"it is {whose}'s turn"
        return Illegal("not-your-turn", f"Not {name}'s turn: {why}. Put the {color} peg back.")
    if phase is Phase.POP:
        return Illegal("no-pop", f"{title(player[0])}, pop first, then move.")
    value = state.pop
    if forfeits_six(state):
        return Illegal("third-six", "That is a third 6 in a row: the turn ends without a move.")
    if frm.owner is not None and frm.owner != c and frm.kind != "track":
        return Illegal("no-such-peg", f"No {color} peg can be in {title(frm.owner)}'s {frm.kind}.")
    start = progress(c, frm)
    mine = state.pegs[c]
    if start not in mine:
        return Illegal("no-such-peg", f"There is no {color} peg {_where(c, frm)}.")
    if to.owner is not None and to.owner != c and to.kind != "track":
        if to.kind == "finish":
            return Illegal("not-your-finish", f"A {color} peg may enter only {name}'s Finish line.")
        return Illegal("wrong-way", "A peg goes back Home only when it is bumped.")
    end = progress(c, to)
    if end == HOME:
        return Illegal("wrong-way", "A peg goes back Home only when it is bumped.")
    if start == HOME:
        if end != 0:
            return Illegal(
                "not-start", f"A peg out of Home goes onto {name}'s Start, space {START[c] + 1}."
            )
        if value != 6 and not state.options.basic:
            return Illegal(
                "needs-six", f"{name} needs a 6 to bring a peg out of Home; the pop was {value}."
            )
        return _landing(state, c, start, end, value)
    if start >= FIRST_FINISH:
        if state.options.basic:
            return Illegal("peg-finished", f"That {color} peg has finished; it stays in Finish.")
        if end <= start:
            return Illegal(
                "wrong-way", "Pegs in Finish move only forward, the way the arrows point."
            )
        return _counted(state, c, start, end, value)
    if end >= FIRST_FINISH:
        return _counted(state, c, start, end, value)
    steps = (ABSOLUTE[c][end] - ABSOLUTE[c][start]) % TRACK_SPACES
    if TRACK_SPACES - steps <= 6:
        return Illegal("wrong-way", "Pegs move clockwise only.")
    if start + steps > LAST_TRACK:
        return Illegal(
            "second-lap",
            f"A peg goes around only once: after {spoken_place(c, LAST_TRACK)} it goes into {name}'s Finish.",
        )
    if steps != value:
        return _wrong_count(steps, value)
    return _landing(state, c, start, end, value)


def _counted(state: State, c: int, start: int, end: int, value: int) -> Move | Illegal:
    """A move ending in Finish: exact count (basic play: any number that reaches it)."""
    steps = end - start
    if state.options.basic and start + value > LAST_TRACK:
        if end == min(start + value, LAST_FINISH):
            return _landing(state, c, start, end, value)
    elif steps == value:
        return _landing(state, c, start, end, value)
    if start + value > LAST_FINISH and not state.options.basic:
        return Illegal(
            "overshoot",
            f"A {value} is too big for that peg: it must stop exactly on a Finish space.",
        )
    return _wrong_count(steps, value)


def _wrong_count(steps: int, value: int) -> Illegal:
    spaces = "space" if steps == 1 else "spaces"
    return Illegal("wrong-count", f"That peg moved {steps} {spaces}, but the pop was {value}.")


def _landing(state: State, c: int, start: int, end: int, value: int) -> Move | Illegal:
    """The count is right: the move is legal unless it lands on (or, with the
    option off, jumps over) the player's own peg."""
    for move in legal_moves(state):
        if move.color == COLORS[c] and move.frm == start and move.to == end:
            return move
    mine = state.pegs[c]
    occupant = state.track[ABSOLUTE[c][end]] if 0 <= end <= LAST_TRACK else -1
    if end in mine or occupant in state.sides[state.turn]:
        other = "" if end in mine else f"{COLORS[occupant]} "  # a two-colour player's other colour
        return Illegal(
            "own-peg",
            f"{title(c)} cannot land on its own {other}peg on {spoken_place(c, end)}.",
        )
    if end >= FIRST_FINISH and any(start < x < end and x >= FIRST_FINISH for x in mine):
        return Illegal(
            "jump-in-finish", "In this game pegs may not jump over their own pegs inside Finish."
        )
    raise AssertionError(f"check_move and legal_moves disagree on {COLORS[c]} {start}->{end}")


def _where(c: int, place: Place) -> str:
    """Where a peg was looked for, as said aloud: "on space 5", "in Home"."""
    if place.kind == "track":
        return f"on space {place.number}"
    if place.kind == "home":
        return "in Home"
    return f"on {spoken_place(c, progress(c, place))}"


def why_illegal(
    state: State, color: str, frm: str | Place, to: str | Place, pop: int | None = None
) -> Illegal | None:
    """Why a move is illegal, or ``None`` when it is legal: :func:`check_move`
    taking place names, and (in the pop phase) a pop to judge it with.

    >>> from companion.rules import new_game
    >>> why_illegal(new_game(turn="red"), "red", "home", "track:1", pop=6) is None
    True
    >>> why_illegal(new_game(turn="red", pegs={"red": ["track:3"]}), "red", "track:3", "track:9", pop=5).reason
    'wrong-count'
    """
    if pop is not None and state.phase is Phase.POP:
        state = take_pop(state, pop)
    start = parse_place(frm) if isinstance(frm, str) else frm
    end = parse_place(to) if isinstance(to, str) else to
    verdict = check_move(state, color, start, end)
    return verdict if isinstance(verdict, Illegal) else None
