"""The loop's view of its neighbours, as small Protocols.

The loop is written against these, not against the concrete referee,
speaker or store, so it can be tested with scripted fakes and so each part
can change inside without touching the loop.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol


class RecordItem(NamedTuple):
    """One referee input fed by the loop, with its events, time and origin."""

    line: dict[str, Any]
    events: list[dict[str, Any]]
    t: float | None
    origin: str  # 'setup', 'camera', 'voice', 'loop'


class Referee(Protocol):
    """The headless referee's contract (issue 2): JSON-like dicts in, event dicts out."""

    def feed(self, line: dict[str, Any]) -> list[dict[str, Any]]: ...


class Speaker(Protocol):
    """Where announcements go (the voice part's speaker, or a transcript)."""

    def say(self, text: str, urgent: bool = False) -> None: ...


class Recorder(Protocol):
    """Where the referee inputs go, before anything is spoken.

    ``record`` gets every input one observation produced and must commit them
    together (one transaction) before returning.
    """

    def record(self, items: list[RecordItem]) -> None: ...

    def correction(self, command: dict[str, Any], outcome: str, t: float | None) -> None: ...

    def finished(self, places: list[str]) -> None: ...
