"""The headless referee: one JSON-contract input in, its events out.

:class:`Referee` is deterministic: the same inputs fed to a fresh referee give
the same events and the same state, so a crashed live loop rebuilds its game
by feeding its recorded inputs again. Nothing here does I/O; the command
``companion referee`` reads and writes the lines.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion import rules
from companion.referee import events as ev
from companion.referee.board_diff import Mismatch, Seen, Unchanged, read_board
from companion.referee.events import Event
from companion.referee.inputs import (
    InputError,
    parse_at,
    parse_board,
    parse_color,
    parse_line,
    parse_move,
    parse_pop,
    parse_setup,
)
from companion.rules import COLOR_INDEX, Move, Phase, RulesError, State, parse_place, title
from companion.rules.board import HOME, LAST_TRACK

#: Reason codes of ``illegal`` events the referee adds to those of
#: :data:`companion.rules.REASONS`.
REFEREE_REASONS: dict[str, str] = {
    "awaiting-move": "a pop came while the last pop still waits for a move",
    "board-mismatch": "the board differs from the game in a way no single move explains",
    "nothing-to-undo": "undo with nothing left to undo",
    "nothing-to-correct": "a pop correction when the last accepted input was not a pop",
    "nothing-to-skip": "skip while nobody has a turn",
}


@dataclass(frozen=True)
class _Step:
    """One accepted input: the state before it and what it was (for undo).

    Steps are linked to the one before (an immutable stack), so a snapshot of
    the whole history is one reference: :meth:`Referee.feed` keeps one and puts
    it back if a handler ever fails half-way.
    """

    before: State
    kind: str
    text: str
    previous: _Step | None
    #: For a pop whose move was lost: the state just after that pop, so that a
    #: peg moved with it anyway is judged against it ("needs a 6"), not
    #: merely as out of turn.
    lost: State | None = None
    #: The value, for a pop.
    value: int = 0


class Referee:
    """Referee one game from contract inputs; see docs/referee.md."""

    def __init__(self) -> None:
        self._state = rules.new_game()
        self._history: _Step | None = None

    @property
    def state(self) -> State:
        """The current rules state: ``state.player`` (whose turn), ``state.phase``,
        ``state.pop`` (the pop awaiting a move, 0 when none)."""
        return self._state

    @property
    def can_undo(self) -> bool:
        return self._history is not None

    @property
    def last_pop(self) -> int | None:
        """The most recent accepted pop (who-goes-first pops included), even
        after its move was played; ``None`` before any pop of this game."""
        step = self._history
        while step is not None and step.kind != "pop":
            step = step.previous
        return step.value if step is not None else None

    def feed_line(self, line: str) -> list[Event]:
        """One input line of text; blank lines give no events, bad JSON an ``error``."""
        if not line.strip():
            return []
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as exc:
            return [ev.error(f"Not a JSON line: {exc}.")]
        return self.feed(obj)

    def feed(self, obj: Mapping[str, Any]) -> list[Event]:
        """One input object; returns its events in order. Never raises.

        A bad line gives one ``error`` event. Should a handler fail in a way
        nobody foresaw (a bug), the game is put back exactly as it was and an
        ``error`` event says so: the evening's game is never lost to a crash.
        """
        state, history = self._state, self._history
        try:
            line = parse_line(obj)
            handler = getattr(self, f"_on_{line.action}")
            result: list[Event] = handler(line.body, line.extra)
            return result
        except (InputError, RulesError) as exc:
            self._state, self._history = state, history
            return [ev.error(_sentence(str(exc)))]
        except Exception as exc:  # the safety net described above
            self._state, self._history = state, history
            return [
                ev.error(f"Internal error, the game is unchanged: {type(exc).__name__}: {exc}.")
            ]

    # -- actions -----------------------------------------------------------

    def _on_setup(self, body: object, extra: Mapping[str, Any]) -> list[Event]:
        setup = parse_setup(body)
        options = rules.Options.from_mapping(setup.get("rules") or {})
        state = rules.new_game(setup.get("players"), options, setup.get("pegs"), setup.get("turn"))
        self._state = state
        self._history = None
        return [ev.turn(state)] if state.phase is Phase.POP else []

    def _on_pop(self, body: object, extra: Mapping[str, Any]) -> list[Event]:
        value = parse_pop(body)
        state = self._state
        if state.phase is Phase.OVER:
            return [ev.illegal("game-over", "The game is over.", value=value)]
        if state.phase is Phase.MOVE:
            name = title(state.sides[state.turn][0])
            text = f"{name}, move a peg {state.pop} first; then pop again."
            return [ev.illegal("awaiting-move", text, value=value, color=state.player)]
        side = state.turn
        if "color" in extra:
            color = parse_color(extra["color"])
            if COLOR_INDEX[color] not in state.sides[side]:
                name = title(state.sides[side][0])
                text = f"It is {name}'s pop, not {color.capitalize()}'s."
                return [ev.illegal("not-your-turn", text, value=value, color=color)]
        after = rules.pop(state, value)
        text = f"{title(state.sides[side][0])}'s pop of {value}"
        out = [ev.pop(state, side, value)]
        if state.phase is Phase.FIRST:
            self._push(state, "pop", text, value=value)
            out += self._first_round(state, after, value)
            self._state = after
            return out
        if rules.legal_moves(after):
            self._push(state, "pop", text, value=value)
            self._state = after
            return out
        self._push(state, "pop", text, lost=after, value=value)
        out.append(ev.no_move(after, _no_move_reason(after)))
        self._state = rules.lose_move(after)
        return out + ev.after_move(after, self._state)

    def _first_round(self, before: State, after: State, value: int) -> list[Event]:
        if len(before.first_pops) + 1 < len(before.contenders):
            return []
        if after.phase is Phase.POP:
            name = title(after.sides[after.turn][0])
            best = max(before.first_pops + (value,))
            first = ev.event(
                "first",
                f"{name} goes first with {best}.",
                value=best,
                **ev.side_fields(after, after.turn),
            )
            return [first, ev.turn(after)]
        tied = [ev.player_name(after, s) for s in after.contenders]
        names = ev.join_names(tied)
        best = max(before.first_pops + (value,))
        text = f"{names} tie with {best}: {names} pop again, {tied[0].capitalize()} first."
        return [ev.event("tie", text, value=best, colors=tied)]

    def _on_move(self, body: object, extra: Mapping[str, Any]) -> list[Event]:
        seen = parse_move(body)
        verdict = self._judge(seen.color, seen.frm, seen.to)
        if isinstance(verdict, rules.Illegal):
            return [
                ev.illegal(
                    verdict.reason,
                    verdict.text,
                    color=seen.color,
                    from_=rules.format_place(seen.frm, COLOR_INDEX[seen.color]),
                    to=rules.format_place(seen.to, COLOR_INDEX[seen.color]),
                )
            ]
        return self._play(verdict)

    def _on_board(self, body: object, extra: Mapping[str, Any]) -> list[Event]:
        state = self._state
        seen = parse_board(body, state.options.pegs_per_color)
        for c, places in seen.items():
            if state.side_of(c) is None and any(p.kind != "home" for p in places):
                raise InputError(
                    f"board shows {rules.COLORS[c]} pegs out of Home, but {rules.COLORS[c]} is not playing"
                )
        reading = read_board(state, seen)
        if isinstance(reading, Unchanged):
            return []
        if isinstance(reading, Mismatch):
            return [ev.illegal("board-mismatch", reading.text)]
        if isinstance(reading, Seen):
            ill = self._judge(reading.color, parse_place(reading.frm), parse_place(reading.to))
            ill = ill if isinstance(ill, rules.Illegal) else reading.illegal
            return [
                ev.illegal(
                    ill.reason, ill.text, color=reading.color, from_=reading.frm, to=reading.to
                )
            ]
        return self._play(reading)

    def _play(self, move: Move) -> list[Event]:
        before = self._state
        after = rules.apply(before, move)
        c = COLOR_INDEX[move.color]
        where = f"from {rules.spoken_place(c, move.frm)} to {rules.spoken_place(c, move.to)}"
        self._push(before, "move", f"{title(c)}'s move {where}")
        self._state = after
        return ev.move(move) + ev.after_move(before, after)

    def _on_command(self, body: object, extra: Mapping[str, Any]) -> list[Event]:
        if body == "undo":
            return self._undo()
        if body == "pop":
            return self._correct_pop(parse_pop(extra.get("value")))
        if body == "turn":
            color = parse_color(extra.get("color"), "colour for turn")
            before = self._state
            after = rules.give_turn(before, color)
            self._push(before, "turn", f"giving the turn to {title(COLOR_INDEX[color])}")
            self._state = after
            return [ev.turn(after)]
        if body == "skip":
            return self._skip()
        if body == "peg":
            return self._correct_peg(extra)
        raise InputError(f"unknown command {body!r}: the commands are undo, pop, turn, skip, peg")

    def _undo(self) -> list[Event]:
        step = self._history
        if step is None:
            return [ev.illegal("nothing-to-undo", "There is nothing to undo.")]
        self._history = step.previous
        self._state = step.before
        return [ev.event("undo", f"Undone: {step.text}. {ev.prompt(step.before)}")]

    def _correct_pop(self, value: int) -> list[Event]:
        step = self._history
        if step is None or step.kind != "pop":
            return [
                ev.illegal(
                    "nothing-to-correct",
                    "There is no pop to correct: the last thing done was not a pop.",
                )
            ]
        self._history = step.previous
        self._state = step.before
        out = self._on_pop(value, {})  # the state before a pop always takes a pop
        name = title(step.before.sides[step.before.turn][0])
        return [
            ev.event(
                "correct",
                f"Corrected: {name}'s pop was {value}.",
                value=value,
                color=rules.COLORS[step.before.sides[step.before.turn][0]],
            )
        ] + out

    def _skip(self) -> list[Event]:
        before = self._state
        if before.phase not in (Phase.POP, Phase.MOVE):
            return [ev.illegal("nothing-to-skip", "There is no turn to skip now.")]
        after = rules.pass_turn(before)
        name = title(before.sides[before.turn][0])
        self._push(before, "skip", f"skipping {name}'s turn")
        self._state = after
        return [
            ev.event("skip", f"{name}'s turn is skipped.", **ev.side_fields(before, before.turn)),
            ev.turn(after),
        ]

    def _correct_peg(self, extra: Mapping[str, Any]) -> list[Event]:
        for key in ("color", "from", "to"):
            if key not in extra:
                raise InputError(f"the peg command needs color, from and to; {key} is missing")
        color = parse_color(extra["color"])
        c = COLOR_INDEX[color]
        frm = rules.progress(c, parse_at(extra["from"], "peg from"))
        to = rules.progress(c, parse_at(extra["to"], "peg to"))
        before = self._state
        after = rules.relocate(before, color, frm, to)
        self._push(before, "peg", f"the {color} peg moved by hand")
        self._state = after
        where = rules.spoken_place(c, to)
        return [
            ev.event(
                "peg",
                f"Noted: a {color} peg is on {where}.",
                color=color,
                from_=rules.place_name(c, frm),
                to=rules.place_name(c, to),
            )
        ]

    def _judge(self, color: str, frm: rules.Place, to: rules.Place) -> Move | rules.Illegal:
        """Judge a seen move; a move made with a pop that was just lost is
        judged against that pop, which says more than "not your turn"."""
        verdict = rules.check_move(self._state, color, frm, to)
        step = self._history
        if (
            isinstance(verdict, rules.Illegal)
            and verdict.reason in ("not-your-turn", "no-pop")
            and self._state.phase is Phase.POP
            and step is not None
            and step.lost is not None
            and COLOR_INDEX[color] in step.lost.colors
        ):
            again = rules.check_move(step.lost, color, frm, to)
            if isinstance(again, rules.Illegal):
                return again
        return verdict

    def _push(
        self, before: State, kind: str, text: str, lost: State | None = None, value: int = 0
    ) -> None:
        self._history = _Step(before, kind, text, self._history, lost, value)


def _no_move_reason(state: State) -> str:
    if rules.forfeits_six(state):
        return "third-six"
    if state.pop != 6 and not state.options.basic:
        pegs = [p for c in state.sides[state.turn] for p in state.pegs[c]]
        if HOME in pegs and not any(0 <= p <= LAST_TRACK for p in pegs):
            return "needs-six"
    return "blocked"


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[0].upper() + text[1:] if text else "Bad input"
    return text if text.endswith((".", "!", "?")) else text + "."
