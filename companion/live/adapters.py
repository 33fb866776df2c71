"""Vision events and voice commands turned into the loop's observations.

The vision stream and the listener have their own value types; the loop
takes only :mod:`companion.live.observations`. Converting here, at the edge,
keeps the loop testable without OpenCV or a recogniser.
"""

from __future__ import annotations

from typing import Any

from companion.live.observations import (
    BoardFound,
    BoardLost,
    BoardStable,
    BoardUnclear,
    BoardUnsettled,
    DieCocked,
    DieResettled,
    Observation,
    PopReadLate,
    PopSettled,
    PopUnread,
    Spoken,
)


def from_vision(event: Any) -> Observation | None:
    """One :mod:`companion.vision.stream` event as an observation (by its class name)."""
    kind = type(event).__name__
    t = float(event.t)
    if kind == "PositionStable":
        return BoardStable(t, {c: list(p) for c, p in event.pegs.items()})
    if kind == "PositionUnsettled":
        return BoardUnsettled(t)
    if kind == "PopSettled":
        return PopSettled(t, int(event.value), float(event.confidence), float(event.blind_s))
    if kind == "PopUnread":
        return PopUnread(t, bool(getattr(event, "faceless", False)))
    if kind == "PopReadLate":
        return PopReadLate(t, int(event.value), float(event.confidence))
    if kind == "DieCocked":
        return DieCocked(t)
    if kind == "DieResettled":
        return DieResettled(t, int(event.value))
    if kind == "BoardLost":
        return BoardLost(t)
    if kind == "BoardFound":
        return BoardFound(t)
    if kind == "BoardUnclear":
        return BoardUnclear(t)
    return None


def from_command(command: Any, t: float) -> Spoken:
    """A :class:`companion.voice.grammar.Command` (or its ``as_dict``) as an observation.

    A rule question carries its answer, from the voice part's rule table.
    """
    data: dict[str, Any] = dict(command) if isinstance(command, dict) else command.as_dict()
    intent = str(data.pop("intent"))
    if "place" in data and intent == "peg":
        data["to"] = data.pop("place")
    if intent == "rule" and "answer" not in data and "topic" in data:
        try:
            from companion.voice.grammar import RULE_QUESTIONS

            data["answer"] = RULE_QUESTIONS[data["topic"]][1]
        except (ImportError, KeyError):
            pass
    return Spoken(t, intent, data)
