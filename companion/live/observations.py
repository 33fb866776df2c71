"""What the loop is fed: one small value per thing that happened at the table.

Each source (the vision stream, the simulator's truth, the listener, the
camera reader) is turned into these at the edge, so the loop itself is a
plain state machine that tests drive with scripted lists. ``t`` is seconds of
session (or video) time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from companion.rules import COLORS


@dataclass(frozen=True)
class BoardStable:
    """A whole board position, stable for a while with no hand over it."""

    t: float
    pegs: dict[str, list[str]]


@dataclass(frozen=True)
class BoardUnsettled:
    """The camera now reads another position than the last one reported, not
    yet stable: the last one may no longer be on the table (a peg in the hand
    read seated on its way, carried on since), so nothing is judged on it
    until a position is reported again."""

    t: float


@dataclass(frozen=True)
class PopSettled:
    """The die was disturbed (popped) and has settled showing *value*.

    *confidence* is the die reader's (the least of the frames that agreed on
    the value): a pop read under 0.99 is the one a misread hides in
    (``Loop._weak_read_misread``). *blind_s* is the longest the die went
    without a value read, between the pop before and this one's settle: where
    it is long, another pop may have come and gone unseen
    (``Loop._pop_lost_unseen_before``).
    """

    t: float
    value: int
    confidence: float = 1.0
    blind_s: float = 0.0


@dataclass(frozen=True)
class PopUnread:
    """The die was popped and has settled, but the camera could not read it.

    The referee must learn the value another way (the move that follows, or
    the players' word) rather than miss the pop and fall out of step.
    *faceless*: the camera saw no face on the die (as a die landed cocked
    looks), so a pop soon after is likelier its tap (``loop.popped_again``).
    """

    t: float
    faceless: bool = False


@dataclass(frozen=True)
class PopReadLate:
    """The last pop, seen but not read (:class:`PopUnread`), reads ``value`` after all.

    The die has not moved since (the hand that hid it went, the glare
    passed): this is that pop's value, not a new pop. *confidence* is the
    die reader's, as for :class:`PopSettled`.
    """

    t: float
    value: int
    confidence: float = 1.0


@dataclass(frozen=True)
class DieResettled:
    """The die settled again on the face it lay on, under a hand, and was
    disturbed again before the camera could tell a pop of ``value`` from a
    hand passing beside the dome. Not a pop; the loop uses it only where
    the board shows a second 6 nobody saw (``Loop._six_again_unseen``)."""

    t: float
    value: int


@dataclass(frozen=True)
class DieCocked:
    """The die is leaning, not flat: the player must tap the Pop-O-Matic."""

    t: float


@dataclass(frozen=True)
class BoardLost:
    """The board cannot be located in the frames (markers hidden, moved away)."""

    t: float


@dataclass(frozen=True)
class BoardFound:
    t: float


@dataclass(frozen=True)
class BoardUnclear:
    """The board is found but has not been read whole for a long while."""

    t: float


@dataclass(frozen=True)
class CameraLost:
    """No frames arrive: the cable was pulled, the lid closed, the device vanished."""

    t: float


@dataclass(frozen=True)
class CameraBack:
    t: float


@dataclass(frozen=True)
class Spoken:
    """A voice command, as the listener's structured value.

    ``intent`` is one of the voice issue's intents (undo, pop, whose-turn,
    turn, skip, repeat, status, score, new-game, pause, resume, louder,
    quieter, quiet, peg, yes, no, help, stop, rule); ``value`` holds the
    rest (a number, a colour, a place, a rule answer).
    """

    t: float
    intent: str
    value: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Tick:
    """Time passes with nothing new (lets the loop give timed reminders)."""

    t: float


Observation = (
    BoardStable
    | BoardUnsettled
    | PopSettled
    | PopUnread
    | PopReadLate
    | DieResettled
    | DieCocked
    | BoardLost
    | BoardFound
    | BoardUnclear
    | CameraLost
    | CameraBack
    | Spoken
    | Tick
)


def to_json(obs: Observation) -> dict[str, Any]:
    """One observation as a JSON object (the observation-file format of ``replay``)."""
    if isinstance(obs, BoardStable):
        return {"t": obs.t, "board": obs.pegs}
    if isinstance(obs, PopSettled):
        line: dict[str, Any] = {"t": obs.t, "pop": obs.value}
        if obs.confidence < 1.0:
            line["confidence"] = obs.confidence
        if obs.blind_s > 0.0:
            line["blind_s"] = obs.blind_s
        return line
    if isinstance(obs, PopReadLate):
        late: dict[str, Any] = {"t": obs.t, "pop-read": obs.value}
        if obs.confidence < 1.0:
            late["confidence"] = obs.confidence
        return late
    if isinstance(obs, DieResettled):
        return {"t": obs.t, "resettled": obs.value}
    if isinstance(obs, Spoken):
        return {"t": obs.t, "say": {"intent": obs.intent, **obs.value}}
    if isinstance(obs, PopUnread) and obs.faceless:
        return {"t": obs.t, "pop-unread": True, "faceless": True}
    return {"t": obs.t, _KIND_NAMES[type(obs)]: True}


_KINDS: dict[str, type] = {
    "pop-unread": PopUnread,
    "cocked": DieCocked,
    "board-lost": BoardLost,
    "board-found": BoardFound,
    "board-unclear": BoardUnclear,
    "board-unsettled": BoardUnsettled,
    "camera-lost": CameraLost,
    "camera-back": CameraBack,
    "tick": Tick,
}
_KIND_NAMES = {v: k for k, v in _KINDS.items()}


class ObservationError(ValueError):
    """A malformed observation line."""


def from_json(obj: object) -> Observation:
    """Parse one observation object; raises :class:`ObservationError` naming the problem."""
    if not isinstance(obj, dict):
        raise ObservationError(f"an observation is a JSON object, not {obj!r}")
    t = obj.get("t")
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t):
        raise ObservationError(f"an observation needs a time \"t\" in seconds, got {t!r}")
    t = float(t)
    if "board" in obj:
        board = obj["board"]
        if not isinstance(board, dict) or not all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(p, str) for p in v)
            for k, v in board.items()
        ):
            raise ObservationError("\"board\" must map colours to lists of place names")
        unknown = sorted(k for k in board if k not in COLORS)
        if unknown:
            # The loop reads only the game's colours: a misspelt one would be
            # dropped without a word.
            raise ObservationError(
                f"\"board\" has unknown colour {unknown[0]!r}; the colours are {', '.join(COLORS)}"
            )
        return BoardStable(t, {k: list(v) for k, v in board.items()})
    if "pop" in obj:
        value = _die_value(obj, "pop")
        blind = obj.get("blind_s", 0.0)
        if not isinstance(blind, (int, float)) or isinstance(blind, bool) or not 0.0 <= blind < float("inf"):
            raise ObservationError(f"\"blind_s\" must be a number of seconds, 0 or more, not {blind!r}")
        return PopSettled(t, value, _confidence(obj), float(blind))
    if "pop-read" in obj:
        return PopReadLate(t, _die_value(obj, "pop-read"), _confidence(obj))
    if "resettled" in obj:
        return DieResettled(t, _die_value(obj, "resettled"))
    if "say" in obj:
        said = obj["say"]
        if not isinstance(said, dict) or not isinstance(said.get("intent"), str):
            raise ObservationError("\"say\" must be an object with an \"intent\"")
        rest = {k: v for k, v in said.items() if k != "intent"}
        return Spoken(t, said["intent"], rest)
    if obj.get("pop-unread"):
        faceless = obj.get("faceless", False)
        if not isinstance(faceless, bool):
            raise ObservationError(f"\"faceless\" must be true or false, not {faceless!r}")
        return PopUnread(t, faceless)
    for name, cls in _KINDS.items():
        if obj.get(name):
            made: Observation = cls(t)
            return made
    raise ObservationError(
        "an observation needs one of board, pop, pop-read, resettled, say, " + ", ".join(_KINDS) + f"; got keys {sorted(obj)}"
    )


def _confidence(obj: dict[str, Any]) -> float:
    """A die reading's ``"confidence"`` (1 when not given), checked."""
    confidence = obj.get("confidence", 1.0)
    if (not isinstance(confidence, (int, float)) or isinstance(confidence, bool)
            or not 0.0 <= confidence <= 1.0):
        raise ObservationError(f"\"confidence\" must be a number from 0 to 1, not {confidence!r}")
    return float(confidence)


def _die_value(obj: dict[str, Any], key: str) -> int:
    value = obj[key]
    if type(value) is not int or not 1 <= value <= 6:
        raise ObservationError(f"\"{key}\" must be a whole number from 1 to 6, not {value!r}")
    return value
