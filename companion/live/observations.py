"""What the loop is fed: one small value per thing that happened at the table.

Each source (the vision stream, the simulator's truth, the listener, the
camera reader) is turned into these at the edge, so the loop itself is a
plain state machine that tests drive with scripted lists. ``t`` is seconds of
session (or video) time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class BoardStable:
    """A whole board position, stable for a while with no hand over it."""

    t: float
    pegs: dict[str, list[str]]


@dataclass(frozen=True)
class PopSettled:
    """The die was disturbed (popped) and has settled showing *value*."""

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
    BoardStable | PopSettled | DieCocked | BoardLost | BoardFound | CameraLost | CameraBack | Spoken | Tick
)
