"""The shipped layout validates, and every kind of bad layout is named clearly."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from companion.layout import (
    COLORS,
    DEFAULT_LAYOUT,
    HOLE_NAMES,
    START_SPACE,
    LayoutError,
    finish_entry_space,
    load_layout,
    parse_layout,
)


def classic() -> dict[str, Any]:
    return json.loads(DEFAULT_LAYOUT.read_text())


def check_error(data: dict[str, Any] | str, *needles: str) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(LayoutError) as info:
        parse_layout(text, source="test.json")
    msg = str(info.value)
    assert msg.startswith("test.json: ")
    for needle in needles:
        assert needle in msg, msg


def test_classic_layout_has_60_distinct_holes() -> None:
    layout = load_layout()
    assert len(layout.holes) == 60 == len(HOLE_NAMES)
    assert set(layout.holes) == set(HOLE_NAMES)
    assert len(set(layout.holes.values())) == 60
    assert layout.marker_dictionary == "DICT_4X4_50"
    assert layout.marker_ids == (0, 1, 2, 3)


def test_layout_is_immutable_and_hashable() -> None:
    layout = load_layout()
    with pytest.raises(AttributeError):
        layout.name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        layout.holes["track:1"] = (0.0, 0.0)  # type: ignore[index]
    assert hash(layout) == hash(load_layout())


def _angle(p: tuple[float, float], c: tuple[float, float]) -> float:
    return math.atan2(p[1] - c[1], p[0] - c[0])


def test_track_runs_clockwise_and_colours_follow_in_order() -> None:
    layout = load_layout()
    c = layout.die.center
    holes = layout.holes
    turns = 0.0
    for n in range(1, 29):
        a = _angle(holes[f"track:{n}"], c)
        b = _angle(holes[f"track:{n % 28 + 1}"], c)
        d = (b - a + math.pi) % (2 * math.pi) - math.pi
        assert d > 0, f"track:{n} -> next is not clockwise (x right, y down)"
        turns += d
    assert math.isclose(turns, 2 * math.pi, rel_tol=1e-6)
    starts = [_angle(holes[f"track:{START_SPACE[col]}"], c) for col in COLORS]
    for a, b in zip(starts, starts[1:], strict=False):
        assert (b - a) % (2 * math.pi) == pytest.approx(math.pi / 2, abs=0.05)


@pytest.mark.parametrize("color", COLORS)
def test_home_beside_start_and_finish_entered_before_start(color: str) -> None:
    layout = load_layout()
    holes = layout.holes
    start = holes[f"track:{START_SPACE[color]}"]
    entry = holes[f"track:{finish_entry_space(color)}"]
    assert finish_entry_space(color) == (START_SPACE[color] - 2) % 28 + 1
    # Finish runs inward from the entry space, towards the dome, 1 outermost.
    dists = [math.dist(holes[f"{color}:finish:{k}"], layout.die.center) for k in range(1, 5)]
    assert dists == sorted(dists, reverse=True)
    assert math.dist(holes[f"{color}:finish:1"], entry) == min(
        math.dist(holes[f"{color}:finish:1"], holes[f"track:{n}"]) for n in range(1, 29)
    )
    # Home lies outside the track, nearer this colour's Start than any other Start.
    track_r = min(math.dist(holes[f"track:{n}"], layout.die.center) for n in range(1, 29))
    for k in range(1, 5):
        home = holes[f"{color}:home:{k}"]
        assert math.dist(home, layout.die.center) > track_r
        nearest = min(COLORS, key=lambda col: math.dist(home, holes[f"track:{START_SPACE[col]}"]))
        assert nearest == color
    assert math.dist(holes[f"{color}:home:1"], start) < 50


def test_missing_file() -> None:
    with pytest.raises(LayoutError, match="does not exist"):
        load_layout(Path("/nonexistent/board.json"))


def test_a_binary_file_is_named_not_a_traceback(tmp_path: Path) -> None:
    photo = tmp_path / "board.json"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(LayoutError, match="board.json is not UTF-8 text"):
        load_layout(photo)


def test_not_json() -> None:
    check_error("{oops", "not valid JSON")


def test_missing_hole() -> None:
    data = classic()
    del data["spaces"]["blue:finish:3"]
    check_error(data, "missing hole 'blue:finish:3'")


def test_unknown_hole() -> None:
    data = classic()
    data["spaces"]["purple:home:1"] = [1, 2]
    check_error(data, "unknown hole name 'purple:home:1'")


def test_duplicate_key() -> None:
    text = DEFAULT_LAYOUT.read_text().replace('"track:2": [', '"track:1": [', 1)
    check_error(text, "duplicate key 'track:1'")


def test_overlapping_holes() -> None:
    data = classic()
    x, y = data["spaces"]["track:4"]
    data["spaces"]["track:5"] = [x + 3, y]
    check_error(data, "'track:4'", "'track:5'", "overlap")


def test_marker_on_board() -> None:
    data = classic()
    data["markers"]["items"][2]["corners"] = [[200, 200], [240, 200], [240, 240], [200, 240]]
    check_error(data, "marker 2 lies on the board")


def test_marker_corners_out_of_order() -> None:
    data = classic()
    c = data["markers"]["items"][1]["corners"]
    data["markers"]["items"][1]["corners"] = [c[0], c[3], c[2], c[1]]
    check_error(data, "marker 1", "ArUco order")


def test_bad_types() -> None:
    data = classic()
    data["hole_radius_mm"] = "five"
    check_error(data, "'hole_radius_mm' must be a number")
    data = classic()
    data["spaces"]["track:9"] = [1]
    check_error(data, "hole 'track:9' must be a pair")
    data = classic()
    data["markers"]["dictionary"] = "DICT_ARUCO_SOMETHING"
    check_error(data, "not an ArUco dictionary name")
    data = classic()
    data["markers"]["items"][0]["id"] = 77
    check_error(data, "marker id 77")


def test_missing_key_and_impossible_geometry() -> None:
    data = classic()
    del data["peg"]["height_mm"]
    check_error(data, "missing key peg.'height_mm'")
    data = classic()
    data["peg"]["radius_mm"] = 9
    check_error(data, "pegs would not fit")
    data = classic()
    data["spaces"]["track:1"] = [500, 10]
    check_error(data, "hole 'track:1'", "not inside")
    data = classic()
    data["spaces"]["red:finish:4"] = list(data["die"]["center"])
    check_error(data, "'red:finish:4'", "under the Pop-O-Matic dome")
