"""Moves and transitions: ``pop``, ``legal_moves``, ``apply``, ``lose_move``.

Every transition takes a :class:`State` and returns a new one; nothing is
mutated. :func:`legal_moves` builds :class:`Move` values that already carry
their consequences (the bumped colour, entering Finish), so applying one is
bookkeeping, and the referee can say what happened without asking again.
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
    NAMES,
    START,
    TRACK_SPACES,
)
from companion.rules.errors import PhaseError, RulesError
from companion.rules.state import Phase, State, side_done


class Move(NamedTuple):
    """One legal move of one peg, with its consequences.

    ``frm``/``to`` are progress values of ``color`` (see
    :mod:`companion.rules.board`); ``victim`` is the colour sent Home, if any;
    ``value`` is the pop used.
    """

    color: str
    frm: int
    to: int
    victim: str | None
    value: int

    @property
    def from_place(self) -> str:
        return NAMES[COLOR_INDEX[self.color]][self.frm + 1]

    @property
    def to_place(self) -> str:
        return NAMES[COLOR_INDEX[self.color]][self.to + 1]

    @property
    def at(self) -> str | None:
        """Where the victim was bumped (a ``track:N`` name), if any."""
        return self.to_place if self.victim else None

    @property
    def leaves_home(self) -> bool:
        return self.frm == HOME

    @property
    def enters_finish(self) -> bool:
        return self.frm < FIRST_FINISH <= self.to


# The hot paths below build tuples with ``tuple.__new__`` and read enum members
# from module constants: together about a third faster than ``State(...)``
# and ``Phase.POP`` (see ``companion bench rules``). The values are the same.
_new = tuple.__new__
_FIRST, _POP, _MOVE, _OVER = Phase.FIRST, Phase.POP, Phase.MOVE, Phase.OVER


def pop(state: State, value: int) -> State:
    """Record a settled pop: a who-goes-first pop, or the player's pop."""
    if type(value) is not int or not 1 <= value <= 6:
        raise RulesError(f"a pop is a number from 1 to 6, not {value!r}")
    phase = state.phase
    if phase is _POP:
        sixes = state.sixes + 1 if value == 6 else 0
        return _new(State, (*state[:4], _MOVE, state.turn, value, sixes, state.finished, (), ()))
    if phase is _FIRST:
        pops = state.first_pops + (value,)
        contenders = state.contenders
        if len(pops) < len(contenders):
            return state._replace(first_pops=pops, turn=contenders[len(pops)])
        best = max(pops)
        tied = tuple(s for s, v in zip(contenders, pops, strict=True) if v == best)
        if len(tied) == 1:
            return state._replace(phase=_POP, turn=tied[0], contenders=(), first_pops=())
        return state._replace(contenders=tied, first_pops=(), turn=tied[0])
    raise PhaseError(f"a pop is not expected now (the game waits for {phase.value})")


def forfeits_six(state: State) -> bool:
    """Whether the pending pop is a third consecutive 6 under the house rule."""
    return state.pop == 6 and state.sixes >= 3 and state.options.three_sixes


def legal_moves(state: State, pop: int | None = None) -> tuple[Move, ...]:
    """The legal moves of the player to act for *pop* (default: the pending pop).

    Empty when no peg can use the number (the move is lost), when the game is
    over, and for a third consecutive 6 under the ``three_sixes`` house rule.
    One move per distinct (colour, from) pair: pegs in Home are interchangeable.
    A two-colour player's pegs of both colours are its own: neither lands on
    nor bumps the other.
    """
    pegs, track, sides, options, phase, turn, pending, sixes = state[:8]
    if pop is None:
        pop = pending
        if phase is not _MOVE or (pop == 6 and sixes >= 3 and options.three_sixes):
            return ()
    elif phase is _OVER or phase is _FIRST:
        return ()
    basic = options.basic
    moves: list[Move] = []
    add = moves.append
    side = sides[turn]
    for c in side:
        mine = pegs[c]  # sorted: the Home pegs (-1) come first
        color = COLORS[c]
        absolute = ABSOLUTE[c]
        if mine[0] == HOME and (pop == 6 or basic):
            occupant = track[START[c]]
            if occupant not in side:
                victim = COLORS[occupant] if occupant >= 0 else None
                add(_new(Move, (color, HOME, 0, victim, pop)))
        for p in mine:
            if p == HOME:
                continue
            q = p + pop
            if q <= LAST_TRACK:
                occupant = track[absolute[q]]
                if occupant not in side:
                    victim = COLORS[occupant] if occupant >= 0 else None
                    add(_new(Move, (color, p, q, victim, pop)))
                continue
            if basic:
                if p >= FIRST_FINISH:
                    continue  # in basic play a peg in Finish has finished
                q = min(q, LAST_FINISH)
            elif q > LAST_FINISH:
                continue
            if q in mine:
                continue
            if not options.jump_in_finish and any(p < x < q and x >= FIRST_FINISH for x in mine):
                continue
            add(_new(Move, (color, p, q, None, pop)))
    return tuple(moves)


def apply(state: State, move: Move) -> State:
    """Play a move from :func:`legal_moves` and pass on play as the rules say.

    The move is trusted (it came from :func:`legal_moves` or
    :func:`companion.rules.check_move`); only the phase is checked.
    """
    if state.phase is not _MOVE:
        raise PhaseError(f"a move is not expected now (the game waits for {state.phase.value})")
    color, frm, to, victim, _ = move
    c = COLOR_INDEX[color]
    pegs = state.pegs
    mine = list(pegs[c])
    mine[mine.index(frm)] = to
    mine.sort()
    track = list(state.track)
    if frm >= 0 and frm <= LAST_TRACK:
        track[ABSOLUTE[c][frm]] = -1
    if to <= LAST_TRACK:
        index = ABSOLUTE[c][to]
        track[index] = c
        if victim is not None:
            v = COLOR_INDEX[victim]
            theirs = list(pegs[v])
            theirs[theirs.index((index - START[v]) % TRACK_SPACES)] = HOME
            theirs.sort()
            changed = list(pegs)
            changed[c] = tuple(mine)
            changed[v] = tuple(theirs)
            return _end_move(state, tuple(changed), tuple(track), False)
    pegs = (*pegs[:c], tuple(mine), *pegs[c + 1 :])
    return _end_move(state, pegs, tuple(track), to >= FIRST_FINISH)


def lose_move(state: State) -> State:
    """The pending pop cannot be used (or is forfeited): play passes on as the
    rules say (a usable 6 still earns another pop)."""
    if state.phase is not _MOVE:
        raise PhaseError(f"no pop is waiting for a move (the game waits for {state.phase.value})")
    return _end_move(state, state.pegs, state.track, False)


def _end_move(
    state: State, pegs: tuple[tuple[int, ...], ...], track: tuple[int, ...], check: bool
) -> State:
    """The state after a move was played (or lost): who acts next, and how."""
    _, _, sides, options, _, side, value, sixes, finished = state[:9]
    if check and side_done(state, side, pegs):
        finished = (*finished, side)
        if not options.play_on or len(sides) - len(finished) <= 1:
            return _new(State, (pegs, track, sides, options, _OVER, -1, 0, 0, finished, (), ()))
    elif value == 6 and not (sixes >= 3 and options.three_sixes):
        return _new(State, (pegs, track, sides, options, _POP, side, 0, sixes, finished, (), ()))
    if finished:
        nxt = _next_side(len(sides), finished, side)
    else:
        nxt = side + 1 if side + 1 < len(sides) else 0
    return _new(State, (pegs, track, sides, options, _POP, nxt, 0, 0, finished, (), ()))


def _next_side(count: int, finished: tuple[int, ...], side: int) -> int:
    """The next player clockwise who has not finished."""
    for step in range(1, count + 1):
        candidate = (side + step) % count
        if candidate not in finished:
            return candidate
    raise RulesError("no player is left to play")


def pass_turn(state: State) -> State:
    """Skip the rest of the current player's turn: the next player pops."""
    if state.phase not in (Phase.POP, Phase.MOVE):
        raise PhaseError(f"there is no turn to skip (the game waits for {state.phase.value})")
    nxt = _next_side(len(state.sides), state.finished, state.turn)
    return state._replace(phase=Phase.POP, turn=nxt, pop=0, sixes=0)


def give_turn(state: State, color: str) -> State:
    """Give the turn to the player of *color* (ending any who-goes-first pops)."""
    if state.phase is Phase.OVER:
        raise PhaseError("the game is over")
    c = COLOR_INDEX.get(color)
    side = None if c is None else state.side_of(c)
    if side is None:
        raise RulesError(f"{color} is not playing")
    if side in state.finished:
        raise RulesError(f"{color} has already finished")
    return state._replace(phase=Phase.POP, turn=side, pop=0, sixes=0, contenders=(), first_pops=())


def relocate(state: State, color: str, frm: int, to: int) -> State:
    """Correct the position by hand: one peg of *color* is really on *to*, not *frm*.

    No rule is checked (this is for a misread board), but the position must
    stay possible: the peg exists, the place is free, and no player wins
    by a correction (a win must come from a move).
    """
    c = COLOR_INDEX[color]
    if state.side_of(c) is None:
        raise RulesError(f"{color} is not playing")
    mine = list(state.pegs[c])
    if frm not in mine:
        raise RulesError(f"there is no {color} peg on {NAMES[c][frm + 1]}")
    mine.remove(frm)
    if to != HOME and to in mine:
        raise RulesError(f"a {color} peg is already on {NAMES[c][to + 1]}")
    if 0 <= to <= LAST_TRACK and state.track[ABSOLUTE[c][to]] not in (-1, c):
        other = COLORS[state.track[ABSOLUTE[c][to]]]
        raise RulesError(f"a {other} peg is on {NAMES[c][to + 1]}; correct that peg first")
    mine.append(to)
    mine.sort()
    pegs = state.pegs[:c] + (tuple(mine),) + state.pegs[c + 1 :]
    track = list(state.track)
    if 0 <= frm <= LAST_TRACK:
        track[ABSOLUTE[c][frm]] = -1
    if 0 <= to <= LAST_TRACK:
        track[ABSOLUTE[c][to]] = c
    changed = state._replace(pegs=pegs, track=tuple(track))
    for side in range(len(state.sides)):
        if side not in state.finished and side_done(changed, side):
            raise RulesError(
                f"that would finish {COLORS[state.sides[side][0]]}; play the move instead"
            )
    return changed
