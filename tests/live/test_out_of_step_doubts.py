"""Pops that may have been none, or pops the camera may have missed, keep the
game without them (or with them) open: a later board only that history
explains is followed, or put right, not called.

Each case is a false call in a fresh whole rendered game at 640x480 (session
30, seeds 419, 401, 424 and 439; session 31, seed 474; session 54, seed 1189), and each has a control in which the board
the players leave is a real wrong count, still called.
"""

from __future__ import annotations

import pytest
from test_live_loop import AT_ONCE, ListRecorder, ListSpeaker, board, kinds, played, said, started

from companion.live.loop import (
    ANSWER_WAIT_S,
    POPPED_AGAIN_S,
    TAPPED_LATE_S,
    TAPPED_S,
    UNREAD_AGAIN_S,
    Loop,
)
from companion.live.observations import (
    BoardStable,
    DieResettled,
    PopSettled,
    PopUnread,
    Spoken,
    Tick,
)
from companion.referee import Referee

LOST_TRACK = "I have lost track of the moves. I will go by the board from here."
RED_ON_1 = board(red=["track:1", "home", "home", "home"], blue=["track:10", "home", "home", "home"])
RED_ON_4 = board(red=["track:4", "home", "home", "home"], blue=["track:10", "home", "home", "home"])


def _blue(place: str) -> dict[str, list[str]]:
    return board(blue=[place, "home", "home", "home"])


@pytest.mark.parametrize(("place", "called"), [("track:15", False), ("track:17", True)])
def test_a_lost_pop_that_repeats_the_pop_before_it_may_have_been_none(place: str, called: bool) -> None:
    # Seed 419: Blue's 5 read again while Blue's hand moved the peg, held
    # with Yellow's real pop; given to Yellow, who could not use it.
    # Here: Red's lost 3; Blue's 4 read again while Blue moves, Red's real
    # 5 held behind it; Blue's move seen, the 4 given to Red (lost) and the
    # 5 to Blue; Blue pops 1 and moves 1 (the game without the echo), or 3.
    loop, lines = played([
        PopSettled(8.0, 3), PopSettled(10.0, 4), PopSettled(12.0, 4), PopSettled(13.5, 5),
        BoardStable(14.0, _blue("track:14")), PopSettled(16.0, 1), BoardStable(18.0, _blue(place)),
    ])
    assert "Red popped 4." in lines  # the echo was taken for Red's pop: nothing told it apart then
    if called:
        assert kinds(loop)[-1] == "illegal" and lines[-1] == "That peg moved 3 spaces, but the pop was 5."
    else:
        assert "illegal" not in kinds(loop)
        assert lines[-1] == LOST_TRACK


@pytest.mark.parametrize(("place", "called"), [("track:19", False), ("track:20", True)])
def test_a_lost_pop_that_repeats_the_pop_before_it_after_its_move_may_have_been_none(place: str,
                                                                                   called: bool) -> None:
    # Held-out fresh game 1189 (session 54): Red's 5 moved, then a 5 read
    # at 0.997 three seconds after the move was seen, no pop at all; given
    # to Blue, who could not use it, Blue's 1 went to Yellow, and Yellow's
    # move of 5 was called "That peg moved 5 spaces, but the pop was 1".
    # Until then only an echo held before the move's board kept the game
    # without it open; one read after it is kept until the next move (and
    # with no move on a pop nobody saw: ``Loop._doubt_lost_echo``). Here:
    # Blue's 5 moved; the 5 read again, taken for Red's (lost); Red's 3
    # given to Blue; Blue pops 4 and moves 4 (the game without the echo),
    # or 5.
    loop, lines = played([
        PopSettled(8.0, 3), PopSettled(10.0, 5), BoardStable(12.0, _blue("track:15")), PopSettled(15.0, 5),
        PopSettled(18.0, 3), PopSettled(20.0, 4), BoardStable(22.0, _blue(place)),
    ])
    assert "Red popped 5." in lines and "Blue popped 3." in lines
    if called:
        assert kinds(loop)[-1] == "illegal"
    else:
        assert "illegal" not in kinds(loop)
        assert lines[-1] == LOST_TRACK


@pytest.mark.parametrize("resettled", [True, False])
def test_the_die_settling_again_under_a_hand_may_have_been_a_pop(resettled: bool) -> None:
    # Seed 401: Green's 1 popped after Yellow's 1 under Green's hand was
    # no pop to the camera; every pop after it went to the player before.
    # Here: Red's lost 3, Blue's 2 moved; Red's 2 popped under a hand (the
    # die settling again on 2); Blue's 5 taken for Red's (lost), Red's lost
    # 4 for Blue's, and Blue's move of 5 seen only then.
    again = [DieResettled(14.0, 2)] if resettled else []
    loop, speaker = _loop_after([
        PopSettled(8.0, 3), PopSettled(10.0, 2), BoardStable(12.0, _blue("track:12")), *again,
        PopSettled(16.0, 5), PopSettled(20.0, 4), BoardStable(21.0, _blue("track:17")),
    ])
    lines = said(speaker)
    if resettled:
        # Since session 42 the mover is asked about the pop read first (see
        # the test of a tapped pop below); Blue's pop was the 5, so "no" or
        # silence, and the board is followed.
        assert "illegal" not in kinds(loop) and lines[-1] == "Blue, was your pop a 4?"
        loop.handle(Spoken(22.5, "no"))
        assert "illegal" not in kinds(loop) and said(speaker)[-1] == LOST_TRACK
    else:
        # Without the die's word, a wrong count is what the camera saw.
        assert kinds(loop)[-1] == "illegal" and lines[-1] == "That peg moved 5 spaces, but the pop was 4."


def _red_unread_then_3(gap: float) -> tuple[Loop, list[str]]:
    """Red out on a 6; a pop the camera could not read, Red's 3 read *gap*
    seconds later, Red's peg on 4; then Blue pops 2 and moves 10 -> 12."""
    return played([
        PopSettled(8.0, 6), BoardStable(9.0, RED_ON_1), PopUnread(10.0), PopSettled(10.0 + gap, 3),
        BoardStable(13.0, RED_ON_4), PopSettled(15.0, 2),
        BoardStable(17.0, board(red=["track:4", "home", "home", "home"], blue=["track:12", "home", "home", "home"])),
    ])


def test_an_unread_pop_given_the_value_of_the_move_is_taken_back_when_popped_again_soon() -> None:
    # Seed 424: an unread pop nobody made 1.3 s before Blue's 4; given 4
    # from Blue's move, Blue's real 4 went to Yellow, and Yellow's move of 1
    # was called "That peg moved 1 space, but the pop was 4".
    # Since session 33 (fresh game 564: "That move means Red popped a 4",
    # then "Blue popped 4" for a pop Blue never made) the unread pop is
    # taken back as soon as the move is seen, since the 3 read after it
    # makes the move alone: no value is made up, and no pop is given to
    # the next player. (1.5 s: after TAPPED_S, within POPPED_AGAIN_S.)
    loop, lines = _red_unread_then_3(gap=1.5)
    assert "illegal" not in kinds(loop)
    assert not any(line.startswith("That move means") for line in lines) and "Blue popped 3." not in lines
    assert lines[-7:] == ["I take back Red's pop I could not read: the die was popped again.", "Red popped 3.",
                          "Red moves 3 from Red's Start to space 4.", "Blue's turn.",
                          "Blue popped 2.", "Blue moves 2 from space 10 to space 12.", "Red's turn."]
    assert loop.referee.player == "red" and loop.referee.phase == "pop"


def test_a_pop_read_within_tapped_s_of_an_unread_one_is_its_players_at_once() -> None:
    # Session 33: the camera read the next pop 1.17-1.34 s after an unread
    # one 87 times in 144 fresh games, 83 of them a cocked die tapped: the
    # pop read is taken for the unread pop's player's at once, and nothing
    # about the unread pop is said.
    loop, lines = _red_unread_then_3(gap=TAPPED_S - 0.1)
    assert "illegal" not in kinds(loop)
    assert not any(line.startswith(("I take back", "That move means", "I could not read")) for line in lines)
    assert lines[-6:] == ["Red popped 3.", "Red moves 3 from Red's Start to space 4.", "Blue's turn.",
                          "Blue popped 2.", "Blue moves 2 from space 10 to space 12.", "Red's turn."]


@pytest.mark.parametrize("answer", ["yes", "no", None])
def test_a_wrong_count_of_a_tapped_pop_is_asked_about_before_it_is_followed(answer: str | None) -> None:
    # Seeded game 21 at 1280x720 with wrong counts (session 42): Blue's die
    # landed cocked and read as no face, was tapped to a 6 1.3 s later, and
    # Blue moved 5. The doubt the unread pop leaves (a 5 moved on it, the 6
    # the next player's) explained the board, and the loop said "I have
    # lost track" instead of calling it. Now the mover is asked first: "yes"
    # has the wrong count called, "no" or silence has the board followed.
    # Here: Red out on a 6, an unread pop, Red's 3 read within TAPPED_S, and
    # Red's peg moved 4 (1 -> 5).
    red_on_5 = board(red=["track:5", "home", "home", "home"], blue=["track:10", "home", "home", "home"])
    loop, speaker = _loop_after([
        PopSettled(8.0, 6), BoardStable(9.0, RED_ON_1), PopUnread(10.0), PopSettled(10.0 + TAPPED_S - 0.1, 3),
        BoardStable(13.0, red_on_5),
    ])
    assert said(speaker)[-1] == "Red, was your pop a 3?" and "illegal" not in kinds(loop)
    if answer is not None:
        loop.handle(Spoken(14.5, answer))
    else:
        loop.handle(Tick(13.0 + ANSWER_WAIT_S - 0.5))
        assert said(speaker)[-1] == "Red, was your pop a 3?"  # still waiting
        loop.handle(Tick(13.0 + ANSWER_WAIT_S + 0.5))
    if answer == "yes":
        assert kinds(loop)[-1] == "illegal" and said(speaker)[-1] == "That peg moved 4 spaces, but the pop was 3."
    else:
        assert "illegal" not in kinds(loop) and said(speaker)[-1] == LOST_TRACK


def test_a_board_explained_by_a_doubt_with_no_pop_read_for_the_mover_is_followed_unasked() -> None:
    # The control: the pop the mover moved was never read (no value to ask
    # about), so the board is followed at once as before.
    loop, lines = played([
        PopSettled(8.0, 3), PopSettled(10.0, 4), PopSettled(12.0, 4), PopSettled(13.5, 5),
        BoardStable(14.0, _blue("track:14")), PopSettled(16.0, 1), BoardStable(18.0, _blue("track:15")),
    ])
    assert not any(line.endswith("was your pop a 1?") for line in lines) and lines[-1] == LOST_TRACK


def _loop_after(observations: list[object]) -> tuple[Loop, ListSpeaker]:
    """``played``, with the speaker kept for what is said after."""
    loop, speaker, _ = started()
    for obs in observations:
        loop.handle(obs)
    return loop, speaker


def _red_unread_twice_then_moves_3(gap: float) -> tuple[Loop, list[str]]:
    """Red out on a 6; two pops the camera could not read, *gap* seconds
    apart; Red's peg on 4; then Blue pops 2 and moves 10 -> 12."""
    return played([
        PopSettled(8.0, 6), BoardStable(9.0, RED_ON_1), PopUnread(10.0), PopUnread(10.0 + gap),
        BoardStable(14.0, RED_ON_4), PopSettled(16.0, 2),
        BoardStable(18.0, board(red=["track:4", "home", "home", "home"], blue=["track:12", "home", "home", "home"])),
    ])


def test_a_second_unread_pop_within_unread_again_s_is_the_same_pop_at_once() -> None:
    # Fresh game 609 (session 34): an unread pop 1.5 s before Red's real one,
    # also unread; "Red, say the number you popped", Red's move announced
    # 2 s late, and "I take back Red's pop I could not read" when Blue moved.
    # Of 59 such pairs 1.33-1.5 s apart in 128 fresh games, 51 were one pop.
    loop, lines = _red_unread_twice_then_moves_3(gap=UNREAD_AGAIN_S - 0.05)
    assert "illegal" not in kinds(loop)
    assert not any(line.startswith(("I take back", "Red, say the number")) for line in lines)
    assert lines[-7:] == ["That move means Red popped a 3.", "Red moves 3 from Red's Start to space 4.",
                          "Red, was your pop a 3?", "Blue's turn.", "Blue popped 2.",
                          "Blue moves 2 from space 10 to space 12.", "Red's turn."]


def test_two_unread_pops_further_apart_are_two_pops() -> None:
    loop, lines = _red_unread_twice_then_moves_3(gap=POPPED_AGAIN_S + 0.3)
    assert "illegal" not in kinds(loop)
    # The second is Blue's pop (its move tells its value), and the 2 read
    # after it Red's next.
    assert "That move means Red popped a 3." in lines and "I could not read Blue's pop." in lines
    assert lines[-2:] == ["Red's turn.", "Red popped 2."]


def test_two_real_pops_taken_for_a_tap_are_put_right_by_the_next_move() -> None:
    # The other case (4 of 87): Red's real pop unread (no peg could use
    # it), Blue's 2 read 1.3 s later and given to Red. Blue's move of 2 is
    # then a move on a pop the loop did not see: asked for, then worked out
    # when the next pop comes (Red's 3), nothing called, the turns in step.
    blue_on = board(blue=["track:10", "home", "home", "home"])
    loop, lines = played([
        PopUnread(8.0), BoardStable(8.5, blue_on), PopSettled(8.0 + TAPPED_S - 0.1, 2),
        BoardStable(10.0, blue_on), BoardStable(12.0, board(blue=["track:12", "home", "home", "home"])),
        PopSettled(14.0, 3),
    ])
    assert "illegal" not in kinds(loop)
    assert "Red popped 2." in lines and "I did not see Blue's pop. Blue, say the number you popped, or pop now." in lines
    assert lines[-6:] == ["That move means Blue popped a 2.", "Blue moves 2 from space 10 to space 12.", "Red's turn.",
                          "Red popped 3.", "Red needs a 6 to bring a peg out: the move is lost.", "Blue's turn."]


def test_an_unread_pop_given_the_value_of_the_move_is_taken_back_when_only_a_late_tap_explains_the_next_move() -> None:
    # Past POPPED_AGAIN_S the 3 is first taken for Blue's pop; Blue's move
    # of 2 after Blue's 2 then fits only the unread pop taken out (a cocked
    # die tapped late: no board was seen between the two pops), not a 3
    # left unmoved, a second pop and a wrong count (session 43, fresh game 846).
    loop, lines = _red_unread_then_3(gap=POPPED_AGAIN_S + 0.1)
    assert "illegal" not in kinds(loop)
    assert "I take back Red's pop I could not read: the die was popped again." in lines
    assert lines[-3:] == ["Blue popped 2.", "Blue moves 2 from space 10 to space 12.", "Red's turn."]


def test_an_unread_pop_given_the_value_of_the_move_stays_when_the_next_pop_came_later() -> None:
    loop, lines = _red_unread_then_3(gap=TAPPED_LATE_S + 0.1)
    assert not any(line.startswith("I take back") for line in lines)
    assert kinds(loop)[-1] == "illegal" and lines[-1] == "That peg moved 2 spaces, but the pop was 3."


@pytest.mark.parametrize(("gap", "called"), [(1.5, False), (POPPED_AGAIN_S + 0.1, True)])
def test_the_game_without_an_unread_pop_soon_popped_again_stays_open_after_the_inference(
        gap: float, called: bool) -> None:
    # Seed 439: as seed 424, but the pop after it lost, and the one after
    # that released too, so the inference stood by the time of the call.
    # Here Red and Blue start all Home; Blue's 4 lost; Red out on a 6, an
    # unread pop, Red's 3 *gap* s later, Red's peg on 4; Blue's lost 2
    # taken for Red's, Red's 1 held, and Red's move of 1 seen.
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), AT_ONCE)
    loop.start([["red"], ["blue"]])
    red_on = {place: board(red=[place, "home", "home", "home"]) for place in ("track:1", "track:4", "track:5")}
    for obs in [BoardStable(1.0, board()), PopSettled(2.0, 3), PopSettled(3.0, 5), PopSettled(4.0, 4),
                PopSettled(6.0, 6), BoardStable(7.0, red_on["track:1"]), PopUnread(10.0),
                PopSettled(10.0 + gap, 3), BoardStable(13.0, red_on["track:4"]), PopSettled(15.0, 2),
                PopSettled(17.0, 1), BoardStable(19.0, red_on["track:5"])]:
        loop.handle(obs)
    lines = said(speaker)
    if called:
        assert "Blue popped 3." in lines and "Red popped 2." in lines
        assert kinds(loop)[-1] == "illegal" and lines[-1] == "That peg moved 1 space, but the pop was 2."
    else:
        # Since session 33 the unread pop is taken back when Red's move is
        # seen (the 3 makes it alone), before any pop goes to Blue: the
        # game is refereed as it was played, and nothing is followed.
        assert "illegal" not in kinds(loop) and "Blue popped 3." not in lines
        assert lines[-6:] == ["Blue popped 2.", "Blue needs a 6 to bring a peg out: the move is lost.", "Red's turn.",
                              "Red popped 1.", "Red moves 1 from space 4 to space 5.", "Blue's turn."]


@pytest.mark.parametrize(("gap", "called"), [(1.5, False), (POPPED_AGAIN_S + 0.1, True)])
def test_an_answer_that_matches_a_pop_read_soon_after_the_unread_one_is_that_pop(gap: float, called: bool) -> None:
    # Seed 435 with players answering: an unread pop 1.3 s before Red's
    # 2; "two" settled the unread pop, the read 2 went to Blue, and Blue's
    # move of 1 was called. Here: Red out on a 6, an unread pop, Red's 3
    # read *gap* s later, "three" said; Red moves 3, Blue pops 2 and moves 2.
    loop, lines = played([
        PopSettled(8.0, 6), BoardStable(9.0, RED_ON_1), PopUnread(10.0), PopSettled(10.0 + gap, 3),
        Spoken(12.5, "pop", {"value": 3}), BoardStable(13.0, RED_ON_4), PopSettled(15.0, 2),
        BoardStable(17.0, board(red=["track:4", "home", "home", "home"], blue=["track:12", "home", "home", "home"])),
    ])
    if called:
        assert kinds(loop)[-1] == "illegal" and lines[-1] == "That peg moved 2 spaces, but the pop was 3."
    else:
        assert "illegal" not in kinds(loop)
        assert lines[-7:] == ["I take back Red's pop I could not read: the die was popped again.", "Red popped 3.",
                              "Red moves 3 from Red's Start to space 4.", "Blue's turn.", "Blue popped 2.",
                              "Blue moves 2 from space 10 to space 12.", "Red's turn."]


@pytest.mark.parametrize("gap", [1.5, (UNREAD_AGAIN_S + POPPED_AGAIN_S) / 2, POPPED_AGAIN_S + 0.1])
def test_an_answer_after_two_unread_pops_soon_one_after_the_other_is_the_second_ones(gap: float) -> None:
    # Seed 408 with players answering: an unread pop, Red's 4 unread 1.5 s
    # later; "four" went to the first, the second became Blue's, Blue's 4
    # Red's, and Red's move of 6 was called "the pop was 4".
    loop, lines = played([
        PopSettled(8.0, 6), BoardStable(9.0, RED_ON_1), PopUnread(10.0), PopUnread(10.0 + gap),
        Spoken(12.5, "pop", {"value": 3}), BoardStable(13.0, RED_ON_4), PopSettled(15.0, 2),
        BoardStable(17.0, board(red=["track:4", "home", "home", "home"], blue=["track:12", "home", "home", "home"])),
    ])
    # 1.5 s apart, the second unread pop stands for the first at once
    # (``UNREAD_AGAIN_S``, session 34); a little later, the first is taken
    # back once the answer and the board show it (``POPPED_AGAIN_S``).
    taken_back = "I take back Red's pop I could not read: the die was popped again." in lines
    assert taken_back == (UNREAD_AGAIN_S <= gap < POPPED_AGAIN_S)
    if gap < POPPED_AGAIN_S:
        assert "illegal" not in kinds(loop)
        assert lines[-4:] == ["Blue's turn.", "Blue popped 2.", "Blue moves 2 from space 10 to space 12.", "Red's turn."]


@pytest.mark.parametrize(("place", "called"), [("track:16", False), ("track:18", True)])
def test_a_guess_is_doubted_with_a_peg_brought_out_unseen_and_read_in_its_home(place: str, called: bool) -> None:
    # Fresh whole game 474 (session 31): Red's 6 unread brought a peg out
    # onto Red's Start, which the camera read as a fourth peg in Red's Home
    # (a phantom on the red print took its place); Red's extra pop of 2 was
    # read after the die went unseen, and Red moved 11 -> 13. The loop took
    # the unread pop for the 2 of that move and gave the 2 read to Blue, whose
    # own pop went unread; Blue's move of 5 was called "moved 5, but the pop
    # was 2". The history from before the guess explains the board once a peg
    # it has out may be seen in its Home: followed, not called.
    # Here: Red out on 6 and to 4 on 3; Blue 10 -> 11 on 1; Red's 6 unread
    # (the peg it brought out read in Home), Red's 2 read, Red 4 -> 6; Blue's
    # pop unread, Blue 11 -> 16 (any pop explains it), or 11 -> 18 (no one pop
    # does: still called).
    three_home = ["home", "home", "home"]
    loop, lines = played([
        PopSettled(8.0, 6), BoardStable(9.0, RED_ON_1), PopSettled(10.0, 3), BoardStable(11.0, RED_ON_4),
        PopSettled(12.0, 1), BoardStable(13.0, board(red=["track:4", *three_home], blue=["track:11", *three_home])),
        PopUnread(14.0), PopSettled(17.0, 2),
        BoardStable(19.0, board(red=["track:6", *three_home], blue=["track:11", *three_home])),
        PopUnread(21.0),
        BoardStable(23.0, board(red=["track:6", *three_home], blue=[place, *three_home])),
    ])
    assert "That move means Red popped a 2." in lines  # the guess, as before
    if called:
        assert kinds(loop)[-1] == "illegal"
    else:
        assert "illegal" not in kinds(loop)
        assert lines[-1] == LOST_TRACK


@pytest.mark.parametrize(("confidence", "called"), [(0.978, False), (1.0, True)])
def test_a_lost_pop_read_weakly_may_have_been_none(confidence: float, called: bool) -> None:
    # Fresh whole game 683: a 5 read at 0.978 while the die lay still,
    # between Red's 1 and Blue's 4; given to Blue, who could not use it.
    # Here: Red's lost 3, Blue's 4 moved; a 5 read (Red's, lost); Red's
    # real 2 taken for Blue's, Blue's 3 held, and Blue's move of 3 seen.
    # Read weakly, the 5 may have been no pop: the board is followed. Read
    # surely, it was Red's pop, and Blue's move of 3 on a 2 is called.
    loop, lines = played([
        PopSettled(8.0, 3), PopSettled(10.0, 4), BoardStable(11.0, _blue("track:14")),
        PopSettled(13.0, 5, confidence), PopSettled(15.0, 2), PopSettled(17.0, 3),
        BoardStable(18.0, _blue("track:17")),
    ])
    assert "Blue popped 2." in lines
    if called:
        assert kinds(loop)[-1] == "illegal"
    else:
        assert "illegal" not in kinds(loop)
        assert LOST_TRACK in lines
