"""The board's geometry agrees with the rules engine's idea of the board."""

from __future__ import annotations

import math

import pytest

from companion import rules
from companion.layout import (
    COLORS,
    HOLE_NAMES,
    START_SPACE,
    finish_entry_space,
    hole_for,
    load_layout,
)

LAYOUT = load_layout()


def _moves(color: str, pegs: dict[str, list[str]], value: int) -> list[rules.Move]:
    state = rules.pop(rules.new_game(list(COLORS), pegs=pegs, turn=color), value)
    return list(rules.legal_moves(state))


@pytest.mark.parametrize("color", COLORS)
def test_start_home_and_finish_are_where_the_engine_says(color: str) -> None:
    holes = LAYOUT.holes
    # A 6 brings a peg from Home to the engine's Start: that hole is our Start, beside our Home.
    (out,) = _moves(color, {}, 6)
    start = hole_for(color, out.to_place)
    assert start == f"track:{START_SPACE[color]}"
    home = [holes[f"{color}:home:{k}"] for k in range(1, 5)]
    for other in COLORS:
        if other != color:
            other_start = holes[f"track:{START_SPACE[other]}"]
            assert min(math.dist(h, holes[start]) for h in home) < min(math.dist(h, other_start) for h in home)
    # The engine enters Finish from the space before Start: our entry hole, and
    # finish:1 is the Finish hole nearest to it; finish:k follow one by one.
    entry = f"track:{finish_entry_space(color)}"
    (into,) = _moves(color, {color: [entry]}, 1)
    assert hole_for(color, into.to_place) == f"{color}:finish:1"
    assert min(HOLE_NAMES[28:], key=lambda h: math.dist(holes[h], holes[entry])) == f"{color}:finish:1"
    for k in range(1, 4):
        assert math.dist(holes[f"{color}:finish:{k}"], holes[f"{color}:finish:{k + 1}"]) < 20


def test_every_step_the_engine_takes_is_to_a_neighbouring_hole() -> None:
    """One space on in the engine is one hole on along the board (Red's whole trip)."""
    holes = LAYOUT.holes
    for n in range(1, 29):
        (m,) = _moves("red", {"red": [f"track:{n}"]}, 1)
        step = math.dist(holes[f"track:{n}"], holes[hole_for("red", m.to_place)])
        assert step < 32, (n, m.to_place, step)
