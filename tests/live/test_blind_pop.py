"""A pop read after the die went long unseen may follow a lost pop nobody saw.

A fresh whole rendered game at 640x480: the die unseen for 7 s (a hand over
the dome, then a cocked die), Green's lost pop inside that stretch never
reported, Red's 4 read and given to Green, and Red's move called "Not Red's
turn". The die stream says how long the die went without a value read before
each pop (``blind_s``); past ``BLIND_BEFORE_S`` a board that a lost pop
before the read one explains is followed, not called.
"""

from __future__ import annotations

import pytest
from test_live_loop import board, kinds, said, started

from companion.live.loop import BLIND_BEFORE_S, Loop
from companion.live.observations import (
    BoardStable,
    ObservationError,
    PopSettled,
    from_json,
    to_json,
)

HOME3 = ["home", "home", "home"]
BEFORE = board(red=["track:2", *HOME3], blue=["track:7", *HOME3])
RED_MOVED_4 = board(red=["track:6", *HOME3], blue=["track:7", *HOME3])


def _red_moves_on_a_pop_read_after(blind_s: float) -> tuple[Loop, list[str]]:
    """Blue to pop, Blue's peg a space before its Finish (a 5 is lost); the
    camera reports one pop, a 4, read after *blind_s* without a value read;
    then Red's peg is seen moved 4."""
    loop, speaker, _ = started()
    loop.referee.feed({"setup": {"players": ["red", "blue"], "turn": "blue",
                                 "pegs": {"red": ["track:2"], "blue": ["track:7"]}}})
    loop.last_board = None
    loop.handle(BoardStable(20.0, BEFORE))
    loop.handle(PopSettled(28.0, 4, 1.0, blind_s))
    assert loop.referee.player == "blue" and loop.referee.pending_pop == 4
    loop.handle(BoardStable(31.0, RED_MOVED_4))
    return loop, said(speaker)


def test_a_move_a_lost_pop_before_a_pop_read_after_a_blind_stretch_explains_is_not_called() -> None:
    loop, lines = _red_moves_on_a_pop_read_after(BLIND_BEFORE_S + 3)
    assert "illegal" not in kinds(loop)
    assert not any("Not Red's turn" in line for line in lines)


def test_the_same_move_on_a_pop_the_die_was_seen_before_is_called() -> None:
    loop, lines = _red_moves_on_a_pop_read_after(1.0)
    assert kinds(loop)[-1] == "illegal"
    assert lines[-1].startswith("Not Red's turn")


def test_the_blind_time_goes_through_the_observation_file() -> None:
    assert to_json(PopSettled(2.0, 4, 1.0, 7.5)) == {"t": 2.0, "pop": 4, "blind_s": 7.5}
    assert from_json({"t": 2.0, "pop": 4, "blind_s": 7.5}) == PopSettled(2.0, 4, 1.0, 7.5)
    assert from_json({"t": 2.0, "pop": 4}) == PopSettled(2.0, 4, 1.0, 0.0)
    with pytest.raises(ObservationError, match="blind_s"):
        from_json({"t": 2.0, "pop": 4, "blind_s": -1})
