"""The values one frame of vision produces: per hole, and for the whole frame.

Immutable, so the time layer (:mod:`companion.vision.stream`) and the live
referee can keep them, compare them and hand them across threads freely.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Literal

import numpy as np

from companion.layout import COLORS, place_for, sort_places
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
    #: The board's rim band as seen in this frame ((N, 3) uint8 BGR, in order
    #: around the board; :mod:`companion.vision.edge`): the time layer watches
    #: it for a hand reaching over the board's edge that covers no hole.
    edge: np.ndarray | None = None
    #: (N,) True for the rim samples no peg standing in a Home hole can cover
    #: under this frame's pose (None: all of them).
    edge_clear: np.ndarray | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "pegs", _frozen_pegs(self.pegs))
        for array in (self.dome_signature, self.edge, self.edge_clear):
            if array is not None:
                array.setflags(write=False)

    @property
    def complete(self) -> bool:
        """True when every hole was read and the position is one the referee can take."""
        return self.found and not self.hand and not self.misplaced and all(
            h.state != "unknown" for h in self.holes
        )

    def pegs_json(self) -> dict[str, list[str]]:
        """``pegs`` as plain lists, for JSON output."""
        return {c: list(p) for c, p in self.pegs.items()}

    def in_play(self, colours: Collection[str]) -> FrameReading:
        """This reading as it matters to a game of *colours* only.

        A Home or Finish hole of a colour nobody plays can hold none of the
        game's pegs: what is read there (an unknown glint, a phantom of the
        print's own colour, or that colour's spare pegs left in their Home)
        is read as empty, so it neither blocks the position as a "hand" nor
        makes it flicker (whole rendered game seed 7: a phantom green peg
        in an unplayed green Home came and went on alternate frames, and an
        unknown hole there was taken for a hand on 258 frames). A playing
        colour's peg read in such a hole stays, as misplaced.
        """
        if not self.found:
            return self
        unplayed = set(COLORS) - set(colours)
        holes = tuple(
            replace(h, state="empty", confidence=1.0)
            if (owner := h.hole.split(":")[0]) in unplayed and h.state in ("unknown", owner)
            else h
            for h in self.holes
        )
        if holes == self.holes:
            return self
        pegs, misplaced = pegs_of(holes)
        return replace(self, holes=holes, pegs=pegs, misplaced=misplaced,
                       hand=any(h.state == "unknown" for h in holes))


def pegs_of(holes: tuple[HoleReading, ...]) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """The referee's pegs from hole readings, and the holes whose peg cannot be there."""
    found: dict[str, list[str]] = {c: [] for c in COLORS}
    misplaced: list[str] = []
    for h in holes:
        if h.state in found:
            colour_of_hole = h.hole.split(":")[0]
            if colour_of_hole in COLORS and colour_of_hole != h.state:
                misplaced.append(h.hole)
                continue
            found[h.state].append(place_for(h.state, h.hole))
    return {c: tuple(sort_places(p)) for c, p in found.items() if p}, tuple(misplaced)
