"""Pops nobody saw may come before one seen but not read.

A fresh whole rendered game at 640x480 (``--illegal 0.1`` seed 23) whose die
was too small to see tumble: Red's, Blue's and Yellow's lost pops were never
seen, Green's 6 was seen settle but not read and taken for Red's pop, and
Green's peg coming out was called "Not Green's turn" (the game then stuck on
that call for thirteen minutes). As for a move with no pop seen
(``Loop._pops_unseen``), one lost pop nobody saw is allowed for each
``UNSEEN_POP_S`` the table was quiet before the unread pop (beyond the
first), up to one round; the time counts from the opening position too.
"""

from __future__ import annotations

from test_live_loop import AT_ONCE, HOME4, ListRecorder, ListSpeaker, kinds, said

from companion.live.loop import UNSEEN_POP_S, Loop
from companion.live.observations import BoardStable, PopUnread, Tick
from companion.referee import Referee

FOUR = ["red", "blue", "yellow", "green"]
OPENING = {c: list(HOME4) for c in FOUR}
GREEN_OUT = {**OPENING, "green": ["track:22", "home", "home", "home"]}


def _green_out_after_an_unread_pop(quiet_s: float) -> tuple[Loop, ListSpeaker]:
    """Red to pop in the opening position; *quiet_s* later one pop is seen
    but not read; then Green's peg is seen on Green's Start."""
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), AT_ONCE)
    loop.start([[c] for c in FOUR], None, "red")
    loop.handle(BoardStable(1.0, OPENING))
    assert loop.referee.player == "red"
    loop.handle(PopUnread(1.0 + quiet_s))
    loop.handle(BoardStable(3.0 + quiet_s, GREEN_OUT))
    loop.handle(Tick(6.0 + quiet_s))
    return loop, speaker


def test_a_move_three_players_on_after_a_long_quiet_is_followed_not_called() -> None:
    loop, speaker = _green_out_after_an_unread_pop(4 * UNSEEN_POP_S + 1.0)
    assert "illegal" not in kinds(loop)
    assert not any("turn:" in text for text in said(speaker))
    # The loop cannot tell whose pops went unseen: it asks, it does not guess.
    assert loop.referee.player == "red"
    assert any("say the number" in text for text in said(speaker))


def test_the_same_move_right_after_the_game_began_is_called_out_of_turn() -> None:
    loop, speaker = _green_out_after_an_unread_pop(UNSEEN_POP_S / 2)
    assert kinds(loop)[-1] == "illegal"
    assert any(text.startswith("Not Green's turn") for text in said(speaker))
