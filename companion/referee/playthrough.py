"""Random legal games as referee input lines, from a seed.

What a camera would send while a table plays a whole game: the settled pops
and, after each pop that can be used, the move (as a ``move`` line or as the
whole ``board`` it leaves). Used by ``companion demo``, the golden-file
generator and the renderer's ``simulate``. The same seed always gives the
same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from companion import rules
from companion.referee.events import Event
from companion.referee.referee import Referee
from companion.rules import Phase
from companion.rules.board import LAST_FINISH, LAST_TRACK

Input = dict[str, Any]


def random_game(
    seed: int,
    players: Sequence[object] | None = None,
    options: Mapping[str, object] | None = None,
    *,
    boards: bool = False,
    who_goes_first: bool = True,
    mistakes: float = 0.0,
    max_inputs: int = 100_000,
) -> Iterator[tuple[Input, list[Event]]]:
    """Play a random legal game; yield each input line with the referee's events.

    *boards* sends each move as the whole board seen after it (as the camera
    does) instead of a ``move`` line. Without *who_goes_first* the set-up gives
    the turn to the first player. With *mistakes* (a probability per move) a
    player sometimes first puts the peg one space wrong, which the referee
    refuses, then moves it right; the mistakes have their own random stream,
    so the game played is the same with or without them. Stops at game over
    (or after *max_inputs*).
    """
    rng = random.Random(seed)
    slips = random.Random(seed ^ 0x5EED)
    referee = Referee()
    setup: dict[str, Any] = {}
    if players is not None:
        setup["players"] = list(players)
    if options:
        setup["rules"] = dict(options)
    if not who_goes_first:
        first = players[0] if players else "red"
        setup["turn"] = first if isinstance(first, str) else first[0]  # type: ignore[index]
    line: Input = {"setup": setup}
    for _ in range(max_inputs):
        out = referee.feed(line)
        yield line, out
        if any(e["event"] == "error" for e in out):
            raise RuntimeError(f"the referee refused a generated line {line}: {out}")
        state = referee.state
        if state.phase is Phase.OVER:
            return
        if state.phase is Phase.MOVE:
            move = rng.choice(rules.legal_moves(state))
            wrong = _slip(state, move) if mistakes and slips.random() < mistakes else None
            if wrong is not None:
                slipped = _line(state, move.color, move.from_place, wrong, boards)
                out = referee.feed(slipped)
                yield slipped, out
            if boards:
                line = {"board": rules.apply(state, move).position()}
            else:
                line = _line(state, move.color, move.from_place, move.to_place, boards)
        else:
            line = {"pop": rng.randint(1, 6)}


def _slip(state: rules.State, move: rules.Move) -> str | None:
    """A place one space off the move's target, free and illegal, if any."""
    c = rules.COLOR_INDEX[move.color]
    for wrong in (move.to - 1, move.to + 1):
        if wrong <= max(move.frm, 0) or wrong > LAST_FINISH:
            continue
        name = rules.place_name(c, wrong)
        taken = any(name in state.places(color) for color in rules.COLORS if wrong <= LAST_TRACK)
        if taken or name in state.places(move.color):
            continue
        verdict = rules.check_move(
            state, move.color, rules.parse_place(move.from_place), rules.parse_place(name)
        )
        if isinstance(verdict, rules.Illegal):
            return name
    return None


def _line(state: rules.State, color: str, frm: str, to: str, boards: bool) -> Input:
    """A ``move`` line, or the ``board`` a camera would see after that move
    (built by hand, since an illegal move cannot be applied)."""
    if not boards:
        return {"move": {"color": color, "from": frm, "to": to}}
    board = state.position()
    places = board[color]
    places[places.index(frm)] = to
    return {"board": board}


def random_game_inputs(seed: int, **kwargs: Any) -> list[Input]:
    """Just the input lines of :func:`random_game`."""
    return [line for line, _ in random_game(seed, **kwargs)]
