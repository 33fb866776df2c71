"""One test per "Rule question" of the full rule text, plus the claims of the
overview text and the full text's worked example (../shared/rules/)."""

from __future__ import annotations

from typing import Any

from refhelpers import feed_all, last, names, start
from test_rule_table import moves_of, mv, reason

from companion.referee import Referee


def test_q1_a_six_and_only_a_six_gets_a_peg_out_of_home_onto_start() -> None:
    for pop in range(1, 6):
        assert moves_of(pop) == set()
        out = last(start(), {"pop": pop})
        assert names(out) == ["pop", "no-move", "turn"]
    assert moves_of(6) == {("red", "home", "track:1", None)}
    assert moves_of(6, "green") == {("green", "home", "track:22", None)}


def test_q2_every_six_pops_again_even_unusable() -> None:
    out = last(start(red=["track:4"]), {"pop": 6}, mv("red", "track:4", "track:10"))
    assert out[-1] == {"event": "extra-pop", "text": "Red popped a 6: pop again.", "color": "red"}
    out = last(start(red=["track:28", "finish:2", "finish:3", "finish:4"]), {"pop": 6})
    assert names(out) == ["pop", "no-move", "extra-pop"]


def test_q3_a_six_need_not_bring_a_peg_out_and_cannot_with_own_peg_on_start() -> None:
    out = last(start(red=["track:10"]), {"pop": 6}, mv("red", "track:10", "track:16"))
    assert names(out) == ["move", "extra-pop"]
    assert moves_of(6, red=["track:1"]) == {("red", "track:1", "track:7", None)}


def test_q4_no_landing_on_own_peg_but_passing_it_is_fine() -> None:
    assert (
        reason(start(red=["track:2", "track:5"]), {"pop": 3}, mv("red", "track:2", "track:5"))
        == "own-peg"
    )
    assert moves_of(4, red=["track:2", "track:5"]) == {
        ("red", "track:2", "track:6", None),
        ("red", "track:5", "track:9", None),
    }


def test_q5_landing_on_another_sends_it_home_passing_does_nothing_and_it_needs_a_six() -> None:
    ref = Referee()
    out = feed_all(
        start(red=["track:2"], blue=["track:4", "track:6"]),
        {"pop": 4},
        mv("red", "track:2", "track:6"),
        referee=ref,
    )
    assert [e["victim"] for e in out if e["event"] == "bump"] == ["blue"]
    assert ref.state.places("blue") == ("home", "home", "home", "track:4")  # passed: stays
    out = feed_all({"pop": 5}, referee=ref)  # blue: the peg on track:4 can move 5
    assert names(out) == ["pop"]
    assert moves_of(5, "blue", blue=["home"]) == set()  # the bumped peg needs a 6


def test_q6_no_peg_can_move_the_move_is_lost_and_a_six_still_pops() -> None:
    # All pegs in Home and not a 6.
    out = last(start(), {"pop": 4})
    assert names(out) == ["pop", "no-move", "turn"] and out[1]["reason"] == "needs-six"
    # Every peg out would land on its own peg or overshoot the Finish line.
    stuck = ["track:24", "track:28", "finish:4", "finish:1"]
    out = last(start(red=stuck), {"pop": 4})
    assert names(out) == ["pop", "no-move", "turn"] and out[1]["reason"] == "blocked"
    # A near miss is not lost: one free landing is enough.
    assert names(last(start(red=["track:3", "track:7", "finish:1", "finish:2"]), {"pop": 4})) == [
        "pop"
    ]
    # A 6 no peg can use: lost, and still another pop.
    out = last(start(red=["track:24", "finish:1", "finish:2", "finish:3"]), {"pop": 6})
    assert names(out) == ["pop", "no-move", "extra-pop"]


def test_q7_exact_roll_into_finish_else_another_peg() -> None:
    assert moves_of(5, red=["track:28", "track:10"]) == {("red", "track:10", "track:15", None)}
    assert moves_of(5, red=["track:27", "track:10"]) == {
        ("red", "track:10", "track:15", None),
        ("red", "track:27", "finish:4", None),
    }


def test_q8_a_peg_in_finish_is_never_sent_back() -> None:
    # Blue lands where red's Finish would be reached from: blue stays on the track.
    assert moves_of(2, "blue", blue=["track:27"], red=["finish:1", "finish:2"]) == {
        ("blue", "track:27", "track:1", None)
    }
    assert (
        reason(
            start("blue", blue=["track:27"], red=["finish:1"]),
            {"pop": 2},
            mv("blue", "track:27", "red:finish:1"),
        )
        == "not-your-finish"
    )


def test_q9_opponent_on_my_start_when_i_pop_six() -> None:
    out = last(
        start("yellow", yellow=[], green=["track:15"]), {"pop": 6}, mv("yellow", "home", "track:15")
    )
    assert names(out) == ["move", "bump", "extra-pop"] and out[1]["victim"] == "green"


def test_q10_highest_first_pop_goes_first_then_to_the_left() -> None:
    out = feed_all({"setup": {"players": ["green", "blue"]}}, {"pop": 2}, {"pop": 4})
    assert [e["color"] for e in out if e["event"] == "pop"] == [
        "blue",
        "green",
    ]  # clockwise from red
    assert [e["color"] for e in out if e["event"] == "first"] == ["green"]
    out = feed_all({"setup": {"players": ["green", "blue"]}}, {"pop": 2}, {"pop": 4}, {"pop": 1})
    assert [e["color"] for e in out if e["event"] == "turn"] == ["green", "blue"]


def test_q11_never_a_second_lap() -> None:
    assert (
        reason(start(red=["track:25"]), {"pop": 5}, mv("red", "track:25", "track:2"))
        == "second-lap"
    )
    assert moves_of(5, red=["track:25"]) == {("red", "track:25", "finish:2", None)}
    assert moves_of(1, "blue", blue=["track:7"]) == {("blue", "track:7", "finish:1", None)}


def test_q12_two_players_may_play_two_colours_each_and_agree_how_to_win() -> None:
    two: list[Any] = [["red", "yellow"], ["blue", "green"]]
    ref = Referee()
    out = feed_all({"setup": {"players": two, "turn": "yellow"}}, referee=ref)
    assert out[0]["color"] == "red" and out[0]["colors"] == ["red", "yellow"]
    assert sum(len(ref.state.places(c)) for c in ("red", "yellow")) == 8
    done = {
        "yellow": ["finish:1", "finish:2", "finish:3", "track:14"]
    }  # track:14: yellow's last space
    one = last(start("red", two, None, **done), {"pop": 4}, mv("yellow", "track:14", "finish:4"))
    assert names(one) == ["move", "finished", "game-over"] and one[1]["color"] == "red"
    both = last(
        start("red", two, {"two_color_win": "both"}, **done),
        {"pop": 4},
        mv("yellow", "track:14", "finish:4"),
    )
    assert names(both) == ["move", "turn"] and both[1]["color"] == "blue"
    # Both colours are the player's own: no landing on either.
    assert (
        reason(start("red", two, None, **done), {"pop": 1}, mv("yellow", "track:14", "finish:1"))
        == "own-peg"
    )
    assert (
        reason(
            start("red", two, None, red=["track:20"], yellow=["track:23"]),
            {"pop": 3},
            mv("red", "track:20", "track:23"),
        )
        == "own-peg"
    )


def test_overview_no_penalty_for_many_sixes_by_default() -> None:
    ref = Referee()
    feed_all(start(red=["track:3"]), referee=ref)
    for _ in range(4):
        out = feed_all({"pop": 6}, referee=ref)
        move = next(m for m in ref.state.places("red") if m.startswith("track"))
        n = int(move.split(":")[1])
        out = feed_all(mv("red", move, f"track:{n + 6}"), referee=ref)
        assert out[-1]["event"] == "extra-pop"


def test_overview_forced_to_bring_a_peg_out_when_it_is_the_only_move() -> None:
    assert moves_of(6, red=["track:27", "finish:4"]) == {("red", "home", "track:1", None)}
    assert (
        reason(start(red=["track:27", "finish:4"]), {"pop": 6}, mv("red", "track:27", "track:5"))
        == "second-lap"
    )


def test_overview_finish_line_wrong_number_cannot_move_that_peg() -> None:
    assert (
        reason(start(red=["finish:2", "track:9"]), {"pop": 1}, mv("red", "finish:2", "finish:4"))
        == "wrong-count"
    )
    assert (
        reason(start(red=["finish:2", "track:9"]), {"pop": 5}, mv("red", "finish:2", "finish:4"))
        == "overshoot"
    )


def test_full_text_worked_example_six_extra_pop_three_then_bump() -> None:
    ref = Referee()
    out = feed_all(
        start("red", ["red", "blue"]),
        {"pop": 6},
        mv("red", "home", "track:1"),
        {"pop": 3},
        mv("red", "track:1", "track:4"),
        referee=ref,
    )
    assert names(out) == ["turn", "pop", "move", "extra-pop", "pop", "move", "turn"]
    # A few turns later a blue peg sits 5 spaces ahead; red pops 5 and lands on it.
    out = feed_all(
        start("red", ["red", "blue"], red=["track:4"], blue=["track:9"]),
        {"pop": 5},
        mv("red", "track:4", "track:9"),
        referee=ref,
    )
    assert names(out)[-3:] == ["move", "bump", "turn"]
    assert ref.state.places("blue") == ("home",) * 4
