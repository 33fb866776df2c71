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

Input = dict[str, Any]


def random_game(
    seed: int,
    players: Sequence[object] | None = None,
    options: Mapping[str, object] | None = None,
    *,
    boards: bool = False,
    who_goes_first: bool = True,
    max_inputs: int = 100_000,
) -> Iterator[tuple[Input, list[Event]]]:
    """Play a random legal game; yield each input line with the referee's events.

    *boards* sends each move as the whole board seen after it (as the camera
    does) instead of a ``move`` line. Without *who_goes_first* the set-up gives
    the turn to the first player. Stops at game over (or after *max_inputs*).
    """
    rng = random.Random(seed)
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
            if boards:
                line = {"board": rules.apply(state, move).position()}
            else:
                line = {"move": {"color": move.color, "from": move.from_place, "to": move.to_place}}
        else:
            line = {"pop": rng.randint(1, 6)}


def random_game_inputs(seed: int, **kwargs: Any) -> list[Input]:
    """Just the input lines of :func:`random_game`."""
    return [line for line, _ in random_game(seed, **kwargs)]
