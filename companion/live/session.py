"""A session: the loop bound to the game record, new or resumed.

The recorder writes each referee input to the store *before* the loop speaks
its events (the loop calls ``record`` first), one committed transaction per
input. A game row is opened when the setup line is recorded, so a session
that never saw a correct opening position leaves no empty game behind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.errors import UserError
from companion.live.loop import Loop, LoopSettings
from companion.live.ports import RecordItem, Speaker
from companion.referee import Referee
from companion.store import GameStore, score_table


class StoreRecorder:
    """The loop's :class:`~companion.live.ports.Recorder` on a :class:`GameStore`."""

    def __init__(self, store: GameStore, source: str, game_id: int | None = None) -> None:
        self.store = store
        self.source = source
        self.game_id = game_id

    def record(self, items: list[RecordItem]) -> None:
        first = items[0]
        if first.origin == "setup" or self.game_id is None:
            setup = first.line.get("setup")
            players = setup.get("players", []) if isinstance(setup, dict) else []
            sides = [[p] if isinstance(p, str) else list(p) for p in players or []]
            self.game_id = self.store.new_game(sides, self.source)
        self.store.record_many(self.game_id, [(i.line, i.events, i.t, i.origin) for i in items])

    def correction(self, command: dict[str, Any], outcome: str, t: float | None) -> None:
        if self.game_id is not None:
            self.store.record_correction(self.game_id, command, outcome, t=t)

    def finished(self, places: list[str]) -> None:
        if self.game_id is not None:
            self.store.finish(self.game_id, places)

    def abandon(self) -> None:
        if self.game_id is not None:
            self.store.abandon(self.game_id)
            self.game_id = None


@dataclass
class Session:
    """A loop, its recorder and the resume point (video time of the last input)."""

    loop: Loop
    recorder: StoreRecorder | None
    resume_t: float | None = None


def open_session(
    speaker: Speaker,
    *,
    store: GameStore | None,
    source: str,
    players: list[list[str]] | None,
    rules: dict[str, Any] | None = None,
    first: str | None = None,
    resume: bool = False,
    rerun: bool = False,
    settings: LoopSettings | None = None,
    referee_factory: Callable[[], Referee] = Referee,
) -> Session:
    """Start a new game, or resume the last unfinished one from the record.

    With *rerun* (a replay of the same recording), the resumed loop re-runs
    the recording from its start silently up to where the record stops and
    checks it reproduces the record (exact); without it (a live camera), the
    loop rebuilds the game from the record and checks the board it sees.
    ``Session.resume_t`` is where the input should be continued from
    (``None``: from its start).
    """
    recorder = StoreRecorder(store, source) if store is not None else None

    def score() -> str:
        return score_table(store).sentence() if store is not None else ""

    loop = Loop(referee_factory, speaker, recorder, settings, score if store is not None else None)
    if not resume:
        loop.start(players, rules, first)
        return Session(loop, recorder)
    if store is None or recorder is None:
        raise UserError("--resume needs the game record (--db FILE)")
    game = store.last_unfinished()
    if game is None:
        raise UserError(f"there is no unfinished game to resume in {store.path}")
    recorded = store.inputs(game.id)
    recorder.game_id = game.id
    sides = [list(p) for p in game.players]
    times = [r.t for r in recorded if r.t is not None]
    resume_t = max(times) if times else None
    if rerun and resume_t is not None:
        setups = [r.input["setup"] for r in recorded if isinstance(r.input.get("setup"), dict)]
        setup = setups[-1] if setups else {}
        loop.start(sides, dict(setup.get("rules") or {}) or rules, setup.get("turn"), setup.get("pegs"))
        loop.fast_forward(resume_t, [(r.input, list(r.events)) for r in recorded])
        return Session(loop, recorder, resume_t=None)
    loop.resume(sides, [r.input for r in recorded])
    return Session(loop, recorder, resume_t=resume_t)
