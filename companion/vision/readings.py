"""The values one frame of vision produces: per hole, and for the whole frame.

Immutable, so the time layer (:mod:`companion.vision.stream`) and the live
referee can keep them, compare them and hand them across threads freely.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

import numpy as np

from companion.vision.dice.reading import DieReading
from companion.vision.locate import BoardPose

#: What a hole can hold: nothing, a peg of a colour, or "unknown" when
#: something (a hand, an arm) covers it so that the reader will not guess.
HoleState = Literal["empty", "red", "blue", "yellow", "green", "unknown"]


@dataclass(frozen=True)
class HoleReading:
    """One hole: its layout name, what is in it, and how sure the reader is (0..1)."""

    hole: str
    state: HoleState
    confidence: float


def _frozen_pegs(pegs: Mapping[str, tuple[str, ...]]) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType({c: tuple(p) for c, p in pegs.items()})


@dataclass(frozen=True)
class FrameReading:
    """Everything the vision read from one frame.

    ``pegs`` is in the referee's format (``{"red": ("home", "track:3"), ...}``;
    one entry per peg seen, colours with no peg seen are absent). It is only
    complete when ``complete`` is true: no hole is unknown and no peg stands
    where a peg of its colour cannot be (``misplaced``), which the time layer
    requires before it reports a position.
    """

    found: bool
    reason: str | None = None
    pose: BoardPose | None = None
    holes: tuple[HoleReading, ...] = ()
    pegs: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: _frozen_pegs({}))
    #: Holes whose peg cannot stand there by the rules (a red peg in blue's Home).
    misplaced: tuple[str, ...] = ()
    #: Something (a hand, an arm) covers part of the board.
    hand: bool = False
    die: DieReading | None = None
    #: A small normalised grey thumbnail of the rectified dome (read-only), so
    #: the time layer can tell a die that moved from one that did not.
    dome_signature: np.ndarray | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "pegs", _frozen_pegs(self.pegs))
        if self.dome_signature is not None:
            self.dome_signature.setflags(write=False)

    @property
    def complete(self) -> bool:
        """True when every hole was read and the position is one the referee can take."""
        return self.found and not self.hand and not self.misplaced and all(
            h.state != "unknown" for h in self.holes
        )

    def pegs_json(self) -> dict[str, list[str]]:
        """``pegs`` as plain lists, for JSON output."""
        return {c: list(p) for c, p in self.pegs.items()}
