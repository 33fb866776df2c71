"""The mapping between the rules' per-colour places and the physical holes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.layout import (
    COLORS,
    HOLE_NAMES,
    PositionError,
    hole_for,
    holes_from_pegs,
    pegs_from_holes,
    place_for,
)


def test_hole_for_examples() -> None:
    assert hole_for("red", "track:3") == "track:3"
    assert hole_for("blue", "track:3") == "track:3"
    assert hole_for("red", "finish:2") == "red:finish:2"
    assert hole_for("green", "home", 4) == "green:home:4"
    assert place_for("yellow", "yellow:finish:4") == "finish:4"
    assert place_for("yellow", "yellow:home:2") == "home"


def test_home_pegs_fill_home_holes_in_order() -> None:
    holes = holes_from_pegs({"red": ["track:5", "home", "home"], "blue": ["home"]})
    assert holes == {"track:5": "red", "red:home:1": "red", "red:home:2": "red", "blue:home:1": "blue"}


@pytest.mark.parametrize(
    ("pegs", "needle"),
    [
        ({"purple": ["home"]}, "unknown colour 'purple'"),
        ({"red": ["track:29"]}, "track space 29"),
        ({"red": ["finish:5"]}, "finish space 5"),
        ({"red": ["start"]}, "unknown place 'start'"),
        ({"red": ["home"] * 5}, "red has 5 pegs"),
        ({"red": ["track:4"], "blue": ["track:4"]}, "two pegs in 'track:4'"),
        ({"red": "home"}, "must be a list"),
    ],
)
def test_bad_positions_are_named(pegs: dict[str, object], needle: str) -> None:
    with pytest.raises(PositionError, match=needle):
        holes_from_pegs(pegs)  # type: ignore[arg-type]


def test_peg_in_another_colours_home() -> None:
    with pytest.raises(PositionError, match="belongs to blue"):
        pegs_from_holes({"blue:home:1": "red"})


places = st.sampled_from(["home"] + [f"track:{n}" for n in range(1, 29)] + [f"finish:{k}" for k in range(1, 5)])


@given(st.dictionaries(st.sampled_from(COLORS), st.lists(places, max_size=4), min_size=1))
def test_round_trip(pegs: dict[str, list[str]]) -> None:
    try:
        holes = holes_from_pegs(pegs)
    except PositionError:
        return  # two pegs on one hole: not a position
    assert set(holes) <= set(HOLE_NAMES)
    back = pegs_from_holes(holes)
    for color, pl in pegs.items():
        assert sorted(back.get(color, [])) == sorted(pl)
