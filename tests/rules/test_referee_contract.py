"""The referee's JSON-line contract, edge by edge (docs/referee.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from refhelpers import feed_all, last, names, start
from test_rule_table import mv

from companion import rules
from companion.referee import REFEREE_REASONS, Referee
from companion.referee.playthrough import random_game_inputs
from companion.rules import Phase


def test_no_setup_means_four_players_and_who_goes_first() -> None:
    ref = Referee()
    assert ref.state.phase is Phase.FIRST and ref.state.player == "red"
    assert feed_all({"setup": {}}) == []
    assert feed_all({"setup": None}) == []


def test_setup_with_turn_announces_it_and_skips_first_pops() -> None:
    out = feed_all({"setup": {"players": ["red", "blue", "green"], "turn": "green"}})
    assert out == [{"event": "turn", "text": "Green's turn.", "color": "green"}]


def test_move_before_pop_and_pop_while_a_move_is_awaited() -> None:
    assert last(start(red=["track:3"]), mv("red", "track:3", "track:5"))[0]["reason"] == "no-pop"
    ref = Referee()
    feed_all(start(red=["track:3"]), {"pop": 2}, referee=ref)
    before = ref.state
    out = ref.feed({"pop": 4})
    assert names(out) == ["illegal"] and out[0]["reason"] == "awaiting-move"
    assert ref.state == before and ref.state.pop == 2


def test_moves_during_first_pops_and_by_the_wrong_colour() -> None:
    assert last({"pop": 3}, mv("red", "home", "track:1"))[0]["reason"] == "no-pop"
    out = last(
        start(red=["track:3"], blue=["track:10"]), {"pop": 2}, mv("blue", "track:10", "track:12")
    )
    assert out[0]["reason"] == "not-your-turn" and out[0]["color"] == "blue"
    out = last(
        start(players=["red", "blue"], red=["track:3"]), {"pop": 6}, mv("green", "home", "track:22")
    )
    assert out[0]["reason"] == "not-your-turn"


REASON_CASES: list[tuple[str, list[dict[str, Any]]]] = [
    (
        "game-over",
        [
            start(red=["finish:2", "finish:3", "finish:4", "track:28"]),
            {"pop": 1},
            mv("red", "track:28", "finish:1"),
            mv("red", "finish:1", "finish:2"),
        ],
    ),
    ("no-pop", [start(red=["track:3"]), mv("red", "track:3", "track:4")]),
    (
        "not-your-turn",
        [start(red=["track:3"], blue=["track:9"]), {"pop": 1}, mv("blue", "track:9", "track:10")],
    ),
    ("no-such-peg", [start(red=["track:3"]), {"pop": 1}, mv("red", "track:5", "track:6")]),
    ("wrong-way", [start(red=["track:3"]), {"pop": 2}, mv("red", "track:3", "track:1")]),
    ("second-lap", [start(red=["track:26"]), {"pop": 4}, mv("red", "track:26", "track:2")]),
    ("not-start", [start(red=["track:3"]), {"pop": 6}, mv("red", "home", "track:6")]),
    ("needs-six", [start(red=["track:3"]), {"pop": 5}, mv("red", "home", "track:1")]),
    ("wrong-count", [start(red=["track:3"]), {"pop": 5}, mv("red", "track:3", "track:7")]),
    (
        "overshoot",
        [start(red=["track:27", "track:3"]), {"pop": 6}, mv("red", "track:27", "finish:4")],
    ),
    ("own-peg", [start(red=["track:3", "track:5"]), {"pop": 2}, mv("red", "track:3", "track:5")]),
    (
        "not-your-finish",
        [start(red=["track:25"]), {"pop": 4}, mv("red", "track:25", "blue:finish:1")],
    ),
    (
        "jump-in-finish",
        [
            start(rules={"jump_in_finish": False}, red=["track:27", "finish:1", "track:9"]),
            {"pop": 3},
            mv("red", "track:27", "finish:2"),
        ],
    ),
    (
        "peg-finished",
        [
            start(
                players=[["red", "yellow"], "blue"],
                rules={"basic": True, "two_color_win": "both"},
                red=["finish:2"],
                yellow=["track:3"],
            ),
            {"pop": 2},
            mv("red", "finish:2", "finish:4"),
        ],
    ),
    ("third-six", []),  # the referee forfeits a third 6 itself; see test_third_six_reason
    ("awaiting-move", [start(red=["track:3"]), {"pop": 2}, {"pop": 3}]),
    (
        "board-mismatch",
        [
            start(red=["track:3"], blue=["track:9"]),
            {"board": {"red": ["track:5"], "blue": ["track:11"]}},
        ],
    ),
    ("nothing-to-undo", [start(), {"command": "undo"}]),
    ("nothing-to-correct", [start(red=["track:3"]), {"command": "pop", "value": 3}]),
    ("nothing-to-skip", [{"command": "skip"}]),
]


@pytest.mark.parametrize(
    ("code", "lines"), [c for c in REASON_CASES if c[1]], ids=[c[0] for c in REASON_CASES if c[1]]
)
def test_every_reason_code(code: str, lines: list[dict[str, Any]]) -> None:
    ref = Referee()
    for line in lines[:-1]:
        ref.feed(line)
    before = ref.state
    out = ref.feed(lines[-1])
    assert [e.get("reason") for e in out] == [code]
    assert out[0]["event"] == "illegal" and out[0]["text"]
    assert ref.state == before


def test_reason_table_is_covered() -> None:
    assert {c for c, _ in REASON_CASES} == set(rules.REASONS) | set(REFEREE_REASONS)


def test_third_six_reason() -> None:
    ref = Referee()
    feed_all(
        start(rules={"three_sixes": True}, red=["track:3"]),
        {"pop": 6},
        mv("red", "track:3", "track:9"),
        {"pop": 6},
        mv("red", "track:9", "track:15"),
        referee=ref,
    )
    verdict = rules.check_move(
        rules.pop(ref.state, 6), "red", rules.parse_place("track:15"), rules.parse_place("track:21")
    )
    assert verdict == rules.Illegal("third-six", verdict.text)  # type: ignore[union-attr]
    assert ref.feed({"pop": 6})[1]["reason"] == "third-six"


MALFORMED: list[tuple[str, str]] = [
    ("not json", "Not a JSON line"),
    ("[1, 2]", "must be a JSON object"),
    ('{"hello": 1}', "needs one of"),
    ('{"pop": 3, "move": {}}', "one action"),
    ('{"pop": 3, "colour": "red"}', "unknown key 'colour'"),
    ('{"pop": 7}', "from 1 to 6, not 7"),
    ('{"pop": 0}', "not 0"),
    ('{"pop": "6"}', "not '6'"),
    ('{"pop": 6.0}', "not 6.0"),
    ('{"pop": true}', "not True"),
    ('{"move": {"color": "purple", "from": "home", "to": "track:1"}}', "unknown colour 'purple'"),
    ('{"move": {"color": "red", "from": "home", "to": "track:29"}}', "track:29"),
    ('{"move": {"color": "red", "from": "attic", "to": "track:2"}}', "attic"),
    ('{"move": {"color": "red", "from": "home"}}', "missing to"),
    ('{"move": "red home track:1"}', "move must be an object"),
    ('{"board": {"red": ["home", "home", "home", "home", "track:3"]}}', "5 red pegs"),
    ('{"board": {"pink": []}}', "unknown colour in board 'pink'"),
    ('{"board": {"red": ["blue:finish:1"]}}', "blue's finish"),
    ('{"setup": {"pegs": {"red": ["home", "home", "home", "home", "track:3"]}}}', "5 pegs"),
    ('{"setup": {"pegs": {"red": ["track:3"], "blue": ["track:3"]}}}', "two pegs on track:3"),
    ('{"setup": {"pegs": {"red": ["finish:1", "finish:1"]}}}', "same Finish space"),
    (
        '{"setup": {"players": ["red", "blue"], "pegs": {"green": ["track:3"]}}}',
        "green is not playing",
    ),
    ('{"setup": {"rules": {"turbo": true}}}', "unknown rule option 'turbo'"),
    ('{"setup": {"rules": {"play_on": "yes"}}}', "true or false"),
    ('{"setup": {"rules": {"two_color_win": "all"}}}', "'one' or 'both'"),
    ('{"setup": {"turn": "purple"}}', "purple"),
    ('{"setup": {"players": ["red", "blue"], "turn": "green"}}', "green is not playing"),
    (
        '{"setup": {"pegs": {"red": ["finish:1", "finish:2", "finish:3", "finish:4"]}}}',
        "already won",
    ),
    ('{"setup": {"colour": 1}}', "unknown key 'colour' in setup"),
    ('{"command": "dance"}', "unknown command 'dance'"),
    ('{"command": "pop"}', "from 1 to 6, not None"),
    ('{"command": "turn", "color": "pink"}', "pink"),
    (
        '{"command": "peg", "color": "red", "from": "track:5", "to": "track:6"}',
        "no red peg on track:5",
    ),
    ('{"command": "peg", "color": "red", "from": "home"}', "to is missing"),
]


@pytest.mark.parametrize(("line", "message"), MALFORMED, ids=[m for _, m in MALFORMED])
def test_malformed_lines_give_one_error_and_leave_the_game(line: str, message: str) -> None:
    ref = Referee()
    ref.feed(start(players=["red", "blue", "yellow"], red=["track:3"], blue=["track:10"]))
    ref.feed({"pop": 2})
    before = ref.state
    out = ref.feed_line(line)
    assert len(out) == 1 and out[0]["event"] == "error", out
    assert message.lower() in out[0]["text"].lower()
    assert out[0]["text"][0].isupper() and out[0]["text"].endswith(".")
    assert ref.state == before
    assert names(ref.feed(mv("red", "track:3", "track:5"))) == ["move", "turn"]  # reads on


def test_blank_lines_are_skipped_and_metadata_ignored() -> None:
    ref = Referee()
    assert ref.feed_line("   \n") == []
    out = ref.feed({"pop": 4, "time": 12.5, "_frame": 3})
    assert names(out) == ["pop"]


def test_board_with_one_legal_move_bumped_peg_home_or_unseen() -> None:
    setup = start(red=["track:3"], blue=["track:8", "track:20"])
    for blue in (["track:20", "home", "home", "home"], ["track:20"]):
        out = last(
            setup, {"pop": 5}, {"board": {"red": ["track:8", "home", "home", "home"], "blue": blue}}
        )
        assert names(out) == ["move", "bump", "turn"]
        assert (
            out[0]["from"] == "track:3" and out[1]["victim"] == "blue" and out[1]["at"] == "track:8"
        )


def test_board_unchanged_gives_nothing_and_left_out_colours_stay() -> None:
    ref = Referee()
    feed_all(start(red=["track:3"], blue=["track:10"]), {"pop": 2}, referee=ref)
    assert ref.feed({"board": {"red": ["track:3"], "blue": ["track:10"]}}) == []
    out = ref.feed({"board": {"red": ["track:5"]}})  # blue not listed: unchanged
    assert names(out) == ["move", "turn"]
    assert ref.state.places("blue")[-1] == "track:10"


def test_board_illegal_single_peg_change_gives_the_move_reason() -> None:
    out = last(start(red=["track:3"]), {"pop": 2}, {"board": {"red": ["track:4"]}})
    assert (
        out[0]["reason"] == "wrong-count"
        and out[0]["from"] == "track:3"
        and out[0]["to"] == "track:4"
    )
    out = last(start(red=["track:3"]), {"board": {"red": ["track:5"]}})
    assert out[0]["reason"] == "no-pop"
    out = last(
        start(red=["track:3"], blue=["track:9"]), {"pop": 2}, {"board": {"blue": ["track:11"]}}
    )
    assert out[0]["reason"] == "not-your-turn"


def test_board_that_no_single_move_explains_names_each_difference() -> None:
    out = last(
        start(red=["track:3"], blue=["track:9"]),
        {"pop": 2},
        {"board": {"red": ["track:5"], "blue": ["track:11"]}},
    )
    assert out[0]["reason"] == "board-mismatch"
    assert "space 3 is missing" in out[0]["text"] and "appeared on space 11" in out[0]["text"]
    # A peg out of Home where none was: explained as a move from Home, judged.
    out = last(start(red=["track:3"]), {"pop": 2}, {"board": {"red": ["track:3", "track:9"]}})
    assert out[0]["reason"] == "not-start"
    # Two pegs seen on one space cannot be: malformed.
    out = last(start(red=["track:3"]), {"board": {"green": ["track:3"], "red": ["track:3"]}})
    assert out[0]["event"] == "error" and "track:3" in out[0]["text"]


def test_undo_restores_exactly_and_reports_nothing_left() -> None:
    ref = Referee()
    feed_all(start(red=["track:3"], blue=["track:8"]), referee=ref)
    states = [ref.state]
    for line in ({"pop": 5}, mv("red", "track:3", "track:8"), {"pop": 4}):
        ref.feed(line)
        states.append(ref.state)
    for expected in reversed(states[:-1]):
        out = ref.feed({"command": "undo"})
        assert names(out) == ["undo"]
        assert ref.state == expected
    assert ref.feed({"command": "undo"})[0]["reason"] == "nothing-to-undo"


def test_pop_correction_replaces_a_lost_pop_and_first_pops() -> None:
    ref = Referee()
    feed_all(
        start(players=["red", "blue"], red=["track:3"]),
        {"pop": 2},
        mv("red", "track:3", "track:5"),
        {"pop": 4},
        referee=ref,
    )
    assert ref.state.player == "red"  # blue's 4 was lost
    out = ref.feed({"command": "pop", "value": 6})
    assert names(out) == ["correct", "pop"] and out[0]["color"] == "blue"
    assert ref.state.player == "blue" and ref.state.pop == 6
    out = feed_all({"pop": 3}, {"command": "pop", "value": 6})
    assert names(out) == ["pop", "correct", "pop"] and out[-1]["color"] == "red"


def test_turn_skip_and_peg_commands_and_their_undo() -> None:
    ref = Referee()
    out = feed_all({"pop": 2}, {"command": "turn", "color": "yellow"}, referee=ref)
    assert out[-1] == {"event": "turn", "text": "Yellow's turn.", "color": "yellow"}
    assert ref.state.phase is Phase.POP
    out = ref.feed({"command": "skip"})
    assert names(out) == ["skip", "turn"] and out[1]["color"] == "green"
    out = feed_all(
        start(red=["track:3"]),
        {"command": "peg", "color": "red", "from": "track:3", "to": "track:4"},
        referee=ref,
    )
    assert out[-1]["event"] == "peg" and ref.state.places("red")[-1] == "track:4"
    assert names(
        ref.feed({"command": "peg", "color": "red", "from": "track:4", "to": "track:8"})
    ) == ["peg"]
    assert names(ref.feed({"command": "undo"})) == ["undo"]
    assert ref.state.places("red")[-1] == "track:4"
    # A correction may not put two pegs on one place, nor win the game.
    ref.feed(start(red=["track:4", "finish:2", "finish:3", "finish:4"], blue=["track:9"]))
    before = ref.state
    for to in ("track:9", "finish:2", "finish:1"):
        out = ref.feed({"command": "peg", "color": "red", "from": "track:4", "to": to})
        assert names(out) == ["error"] and ref.state == before
    # The turn command hands the turn to a player; an unknown or absent colour is an error.
    assert names(ref.feed({"command": "turn", "color": "blue"})) == ["turn"]
    assert ref.state.player == "blue"
    assert names(
        feed_all({"setup": {"players": ["red", "blue"]}}, {"command": "turn", "color": "green"})
    ) == ["error"]


def test_finished_places_and_game_over_with_play_on() -> None:
    near = ["finish:2", "finish:3", "finish:4", "track:28"]
    ref = Referee()
    out = feed_all(
        start(
            rules={"play_on": True},
            red=near,
            blue=["finish:2", "finish:3", "finish:4", "track:7"],
            yellow=["finish:2", "finish:3", "finish:4", "track:14"],
            green=["track:25"],
        ),
        {"pop": 1},
        mv("red", "track:28", "finish:1"),
        {"pop": 1},
        mv("blue", "track:7", "finish:1"),
        {"pop": 1},
        mv("yellow", "track:14", "finish:1"),
        {"pop": 1},
        referee=ref,
    )
    assert [(e["color"], e["place"]) for e in out if e["event"] == "finished"] == [
        ("red", 1),
        ("blue", 2),
        ("yellow", 3),
    ]
    over = [e for e in out if e["event"] == "game-over"]
    assert len(over) == 1 and over[0]["order"] == ["red", "blue", "yellow"]
    assert ref.feed({"pop": 1})[0]["reason"] == "game-over"


def test_same_inputs_give_the_same_outputs_and_state() -> None:
    lines = random_game_inputs(11, boards=True)
    lines[40:40] = [
        {"pop": 9},
        {"command": "undo"},
        {"command": "undo"},
        {"board": {"red": ["track:4"]}},
    ]
    first, second = Referee(), Referee()
    out1 = [json.dumps(e) for line in lines for e in first.feed(line)]
    out2 = [json.dumps(e) for line in lines for e in second.feed(line)]
    assert out1 == out2 and first.state == second.state


def test_an_unforeseen_failure_leaves_the_game_exactly_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ref = Referee()
    feed_all(start(red=["track:3"]), {"pop": 2}, referee=ref)
    before = ref.state

    def broken(*_: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(rules, "apply", broken)
    out = ref.feed(mv("red", "track:3", "track:5"))
    assert names(out) == ["error"] and "the game is unchanged" in out[0]["text"]
    assert ref.state == before and ref.can_undo
    monkeypatch.undo()
    assert names(ref.feed(mv("red", "track:3", "track:5"))) == ["move", "turn"]


def test_places_in_output_are_canonical_per_colour_names() -> None:
    out = last(start(red=["track:3"]), {"pop": 2}, mv("red", " Track:03 ", "RED:finish:1"))
    assert out[0]["from"] == "track:3" and out[0]["to"] == "finish:1"
    out = last(start(red=["track:3"]), {"pop": 2}, mv("red", "track:3", "blue:finish:1"))
    assert out[0]["to"] == "blue:finish:1" and out[0]["reason"] == "not-your-finish"


def test_a_pop_may_name_who_popped() -> None:
    out = last(start(red=["track:3"]), {"pop": 4, "color": "blue"})
    assert out[0]["reason"] == "not-your-turn" and out[0]["color"] == "blue"
    assert names(last(start(red=["track:3"]), {"pop": 4, "color": "red"})) == ["pop"]
    assert last({"pop": 4, "color": "blue"})[0]["reason"] == "not-your-turn"  # red pops first
    assert last({"pop": 4, "color": "pink"})[0]["event"] == "error"


def test_a_peg_moved_with_a_pop_that_was_lost_is_judged_against_that_pop() -> None:
    """Red pops 3 with every peg in Home: the move is lost and Blue is next. If
    Red brings a peg out anyway, the table hears why ("needs a 6")."""
    lines = [start(players=["red", "blue"], blue=["track:10"]), {"pop": 3}]
    out = last(*lines, mv("red", "home", "track:1"))
    assert out[0]["reason"] == "needs-six" and out[0]["color"] == "red"
    out = last(*lines, {"board": {"red": ["track:1"]}})
    assert out[0]["reason"] == "needs-six"
    # Once Blue has popped, it is simply not Red's turn.
    assert last(*lines, {"pop": 2}, mv("red", "home", "track:1"))[0]["reason"] == "not-your-turn"
    # A lost 6 keeps the turn: a peg moved with it anyway hears why it could not.
    stuck = start(red=["track:28", "finish:1", "finish:2", "finish:3"])
    assert last(stuck, {"pop": 6}, mv("red", "finish:1", "finish:4"))[0]["reason"] == "overshoot"


def test_last_pop_survives_the_move_and_follows_undo_and_corrections() -> None:
    ref = Referee()
    assert ref.last_pop is None
    feed_all(start(red=["track:3"]), {"pop": 2}, mv("red", "track:3", "track:5"), referee=ref)
    assert ref.last_pop == 2 and ref.state.pop == 0
    feed_all({"pop": 4}, {"command": "pop", "value": 5}, referee=ref)
    assert ref.last_pop == 5
    ref.feed({"command": "undo"})
    assert ref.last_pop == 2
    ref.feed({"setup": {}})
    assert ref.last_pop is None


def test_random_games_with_mistakes_play_the_same_game_and_refuse_each_slip() -> None:
    from companion.referee.playthrough import random_game

    for boards in (False, True):
        clean = random_game_inputs(4, boards=boards)
        slipped = list(random_game(4, boards=boards, mistakes=0.2))
        kept = [line for line, out in slipped if not (out and out[0]["event"] == "illegal")]
        refused = [out for _, out in slipped if out and out[0]["event"] == "illegal"]
        assert kept == clean
        assert len(refused) >= 5 and all(len(out) == 1 for out in refused)
        assert {out[0]["reason"] for out in refused} <= {"wrong-count", "not-start", "overshoot"}
