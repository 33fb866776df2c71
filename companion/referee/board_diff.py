"""Work out the move (or the illegal change) from a whole board as seen.

The contract for ``board`` lines: each listed colour's list is the places
where its pegs are seen; Home entries may be listed or left out. A peg that
is not seen at all counts as being in Home (a bumped peg lying beside the
board, on its way Home); colours left out of the line are taken as unchanged.
So only the pegs *out of Home* are compared.

The board is then one of: unchanged; the result of exactly one legal move
(a bumped peg may be in Home or not seen); one peg of one colour moved in a
way the rules refuse (judged by :func:`companion.rules.check_move`, giving its
reason); or something no single move explains, described peg by peg.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from companion.rules import (
    COLORS,
    Illegal,
    Move,
    Place,
    State,
    apply,
    check_move,
    legal_moves,
    parse_place,
    place_name,
    progress,
    spoken_place,
)
from companion.rules.board import ABSOLUTE, FIRST_FINISH, HOME


@dataclass(frozen=True)
class Unchanged:
    """The board shows the position the referee already has."""


@dataclass(frozen=True)
class Mismatch:
    """No single move of one peg explains the board; ``text`` names the differences."""

    text: str


@dataclass(frozen=True)
class Seen:
    """A single peg seen moving illegally: its colour, places and the reason."""

    color: str
    frm: str
    to: str
    illegal: Illegal


Reading = Unchanged | Move | Seen | Mismatch


def _out(pegs: tuple[int, ...]) -> Counter[int]:
    return Counter(p for p in pegs if p != HOME)


def read_board(state: State, seen: Mapping[int, list[Place]]) -> Reading:
    """Compare a seen board with the game and say what it shows."""
    seen_out = {
        c: Counter(p for p in (progress(c, pl) for pl in places) if p != HOME)
        for c, places in seen.items()
    }
    current = {c: _out(state.pegs[c]) for c in seen}
    if seen_out == current:
        return Unchanged()
    for m in legal_moves(state):
        after = apply(state, m)
        if all(_out(after.pegs[c]) == seen_out[c] for c in seen):
            return m
    removed = {c: current[c] - seen_out[c] for c in seen}
    added = {c: seen_out[c] - current[c] for c in seen}
    movers = [c for c in seen if added[c]]
    if len(movers) == 1:
        c = movers[0]
        if sum(added[c].values()) == 1 and sum(removed[c].values()) <= 1:
            to = next(iter(added[c]))
            frm = next(iter(removed[c]), HOME)
            others_ok = all(
                not removed[d] or (_victim_at(d, removed[d], c, to)) for d in seen if d != c
            )
            if others_ok:
                verdict = check_move(state, COLORS[c], _place(c, frm), _place(c, to))
                if isinstance(verdict, Move):
                    return verdict
                return Seen(COLORS[c], place_name(c, frm), place_name(c, to), verdict)
    return Mismatch(_describe(removed, added))


def _victim_at(d: int, gone: Counter[int], c: int, to: int) -> bool:
    """Whether colour d's only missing peg stood where colour c's peg arrived."""
    if sum(gone.values()) != 1 or to >= FIRST_FINISH:
        return False
    p = next(iter(gone))
    return p < FIRST_FINISH and ABSOLUTE[d][p] == ABSOLUTE[c][to]


def _place(c: int, prog: int) -> Place:
    return parse_place(place_name(c, prog))


def _describe(removed: Mapping[int, Counter[int]], added: Mapping[int, Counter[int]]) -> str:
    parts: list[str] = []
    for c, gone in removed.items():
        for p in sorted(gone.elements()):
            parts.append(f"the {COLORS[c]} peg on {spoken_place(c, p)} is missing")
    for c, new in added.items():
        for p in sorted(new.elements()):
            parts.append(f"a {COLORS[c]} peg appeared on {spoken_place(c, p)}")
    text = "; ".join(parts)
    return f"The board does not match one move: {text}. Put the pegs back as they were."
