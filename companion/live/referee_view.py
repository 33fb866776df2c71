"""The loop's read-only view of the referee's game, beside its ``feed``.

The loop needs to ask the referee a few questions the JSON contract does not
answer line by line: the position it holds, what it waits for, whose turn it
is. The headless referee keeps its game as a rules-core :class:`State`; this
view reads that and nothing else, so the referee stays the one authority.
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.rules import COLORS, Phase, State


class LiveReferee(Protocol):
    """A referee the loop can drive: the contract's ``feed`` plus its state."""

    def feed(self, line: dict[str, Any]) -> list[dict[str, Any]]: ...

    @property
    def state(self) -> State | None: ...


class RefereeView:
    """Wraps a referee; forwards ``feed`` and answers questions about the game."""

    def __init__(self, referee: LiveReferee) -> None:
        self.referee = referee

    def feed(self, line: dict[str, Any]) -> list[dict[str, Any]]:
        return list(self.referee.feed(line))

    @property
    def state(self) -> State | None:
        return self.referee.state

    @property
    def position(self) -> dict[str, list[str]]:
        """The referee's position, per playing colour, places sorted."""
        state = self.state
        if state is None:
            return {}
        return {c: sorted(p) for c, p in state.position().items()}

    @property
    def phase(self) -> str:
        """``setup`` before the setup line, else the rules phase: first, pop, move, over."""
        state = self.state
        return "setup" if state is None else state.phase.value

    @property
    def over(self) -> bool:
        state = self.state
        return state is not None and state.phase is Phase.OVER

    @property
    def player(self) -> str | None:
        state = self.state
        return None if state is None else state.player

    @property
    def pending_pop(self) -> int:
        state = self.state
        return 0 if state is None else state.pop

    @property
    def finished_players(self) -> list[str]:
        """The players (named by first colour) in finishing order."""
        state = self.state
        if state is None:
            return []
        return [COLORS[state.sides[s][0]] for s in state.finished]
