"""The value a die reader returns: what the die shows, or why it cannot say."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DieState = Literal["settled", "cocked", "hidden"]

#: The states a reading can be in, in the order the referee cares about them.
DIE_STATES: tuple[DieState, ...] = ("settled", "cocked", "hidden")


@dataclass(frozen=True)
class DieReading:
    """One reading of the die.

    ``state`` is ``"settled"`` when the die lies flat and its top face was read
    (``value`` is then 1..6), ``"cocked"`` when it leans (players must tap the
    dome, not pop again) and ``"hidden"`` when a hand or glare hides it. Only a
    settled reading carries a value; ``confidence`` (0..1) says how sure the
    reader is of the state and value together.
    """

    state: DieState
    value: int | None
    confidence: float

    def __post_init__(self) -> None:
        if self.state not in DIE_STATES:
            raise ValueError(f"unknown die state {self.state!r}")
        if self.state == "settled":
            if self.value is None or not 1 <= self.value <= 6:
                raise ValueError(f"a settled die needs a value 1..6, not {self.value!r}")
        elif self.value is not None:
            raise ValueError(f"a {self.state} die has no value, got {self.value!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must lie in 0..1, not {self.confidence!r}")

    @classmethod
    def unreadable(cls, state: DieState = "hidden", confidence: float = 0.0) -> DieReading:
        """A reading with no value (the die is hidden or cocked)."""
        return cls(state, None, confidence)
