"""Properties of long random legal games (hypothesis chooses seeds and set-ups).

Invariants checked after every transition: each colour always has its pegs
(4, or 1 in basic play); no two pegs share a non-Home place; a peg in Finish
never moves back or leaves; only opponents are bumped; and every game ends.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import rules
from companion.rules import Phase
from companion.rules.board import ABSOLUTE, FIRST_FINISH, HOME, LAST_TRACK

PLAYERS: list[Any] = [
    None,
    ["red", "blue"],
    ["yellow", "green", "blue"],
    [["red", "yellow"], ["blue", "green"]],
    [["blue", "red"], "green"],
]

options_strategy = st.builds(
    rules.Options,
    play_on=st.booleans(),
    two_color_win=st.sampled_from(["one", "both"]),
    basic=st.booleans(),
    three_sixes=st.booleans(),
    jump_in_finish=st.booleans(),
)


def check_invariants(before: rules.State, after: rules.State, move: rules.Move | None) -> None:
    count = after.options.pegs_per_color
    occupied: set[int] = set()
    for c, pegs in enumerate(after.pegs):
        if after.side_of(c) is None:
            assert pegs == ()
            continue
        assert len(pegs) == count
        finish = [p for p in pegs if p >= FIRST_FINISH]
        assert len(set(finish)) == len(finish), "two pegs on one Finish space"
        for p in pegs:
            if 0 <= p <= LAST_TRACK:
                index = ABSOLUTE[c][p]
                assert index not in occupied, "two pegs on one track space"
                occupied.add(index)
                assert after.track[index] == c
        # A peg in Finish never leaves it: the count in Finish never drops.
        assert len(finish) >= sum(1 for p in before.pegs[c] if p >= FIRST_FINISH)
    assert sum(1 for x in after.track if x >= 0) == len(occupied)
    if move is not None:
        if move.frm >= FIRST_FINISH:
            assert move.to > move.frm, "a Finish peg moved back"
        if move.victim is not None:
            mover_side = before.sides[before.turn]
            assert rules.COLOR_INDEX[move.victim] not in mover_side, "bumped a peg of its own"
            v = rules.COLOR_INDEX[move.victim]
            assert sum(1 for p in after.pegs[v] if p == HOME) == 1 + sum(
                1 for p in before.pegs[v] if p == HOME
            )


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from(PLAYERS), options=options_strategy)
def test_random_games_keep_the_invariants_and_end(
    seed: int, players: Any, options: rules.Options
) -> None:
    rng = random.Random(seed)
    state = rules.new_game(players, options)
    while state.phase is Phase.FIRST:
        state = rules.pop(state, rng.randint(1, 6))
    for _ in range(20_000):
        if state.phase is Phase.OVER:
            break
        before = rules.pop(state, rng.randint(1, 6))
        moves = rules.legal_moves(before)
        move = rng.choice(moves) if moves else None
        state = rules.apply(before, move) if move else rules.lose_move(before)
        check_invariants(before, state, move)
    assert state.phase is Phase.OVER, "the game did not end in 20000 pops"
    assert state.finished, "a game ends only when someone has finished"
    expected = len(state.sides) - 1 if options.play_on else 1
    assert len(state.finished) == expected


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.sampled_from(
        [
            "red",
            "blue",
            "green",
            "yellow",
            "purple",
            "home",
            "track:1",
            "track:8",
            "track:29",
            "finish:2",
            "blue:finish:1",
            "undo",
            "pop",
            "turn",
            "skip",
            "peg",
            "",
            "6",
        ]
    ),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "players",
                    "rules",
                    "pegs",
                    "turn",
                    "color",
                    "from",
                    "to",
                    "value",
                    "red",
                    "blue",
                    "play_on",
                    "basic",
                    "x",
                ]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)
lines = st.dictionaries(
    st.sampled_from(
        ["setup", "pop", "move", "board", "command", "value", "color", "from", "to", "time", "x"]
    ),
    json_values,
    min_size=1,
    max_size=3,
)


@settings(max_examples=100, deadline=None)
@given(st.lists(lines | st.builds(lambda n: {"pop": n}, st.integers(1, 6)), max_size=25))
def test_the_referee_never_crashes_and_errors_change_nothing(inputs: list[dict[str, Any]]) -> None:
    """Any sequence of JSON objects: events always have event and text, an
    error or illegal event leaves the state as it was, and replay is exact."""
    from companion.referee import Referee

    ref, again = Referee(), Referee()
    for obj in inputs:
        before = ref.state
        out = ref.feed(obj)
        assert out == again.feed(obj)
        assert all(
            isinstance(e["event"], str) and isinstance(e["text"], str) and e["text"] for e in out
        )
        if out and out[0]["event"] in ("error", "illegal"):
            assert len(out) == 1 and ref.state == before
    assert ref.state == again.state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), boards=st.booleans(), every=st.integers(2, 9))
def test_undo_then_the_same_input_again_gives_the_same_events(
    seed: int, boards: bool, every: int
) -> None:
    """At any point of a game, undoing the last accepted input and feeding it
    again gives the same events and the same state: undo is exact."""
    from companion.referee import Referee
    from companion.referee.playthrough import random_game

    ref = Referee()
    for number, (line, events) in enumerate(random_game(seed, boards=boards)):
        before = ref.state
        assert ref.feed(line) == events
        if number % every or not events or "setup" in line:
            continue
        after = ref.state
        assert [e["event"] for e in ref.feed({"command": "undo"})] == ["undo"]
        assert ref.state == before
        assert ref.feed(line) == events and ref.state == after
