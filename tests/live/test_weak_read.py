"""A pop read weakly that the move contradicts is taken for a misread, and asked.

Fresh whole rendered games at 640x480: a small washed-out 3 read as 1 at
0.95, and "That peg moved 3 spaces, but the pop was 1" said to a player who
had done nothing wrong. Under ``WEAK_READ`` the pop is taken back and the
move tells its value, asked back; a "no" with the number has it called.
"""

from __future__ import annotations

import pytest
from test_live_loop import AT_ONCE, ListSpeaker, board, events_after, kinds, said, started

from companion.live.loop import CENTRELESS_READ, PHANTOM_READ, WEAK_READ, Loop
from companion.live.observations import (
    BoardStable,
    DieCocked,
    Observation,
    ObservationError,
    PopSettled,
    PopUnread,
    Spoken,
    from_json,
    to_json,
)
from companion.referee import Referee

RED_OUT = board(red=["track:1", "home", "home", "home"], blue=["track:10", "home", "home", "home"])
RED_ON_4 = board(red=["track:4", "home", "home", "home"], blue=["track:10", "home", "home", "home"])


def _after(*observations: Observation) -> tuple[Loop, list[str]]:
    """The opening of ``started`` (Red's turn next), then *observations*."""
    loop, speaker, _ = started()
    for obs in observations:
        loop.handle(obs)
    return loop, said(speaker)


def _moved_3_on_a_1(confidence: float) -> tuple[Loop, list[str]]:
    """Red's turn: a 6 brings a peg out; the extra pop is read 1 at
    *confidence*, and the peg is seen moved 3."""
    return _after(PopSettled(8.0, 6), BoardStable(9.0, RED_OUT), PopSettled(10.0, 1, confidence),
                  BoardStable(12.0, RED_ON_4))


def test_a_weakly_read_pop_the_move_contradicts_is_worked_out_from_the_move_and_asked() -> None:
    loop, lines = _moved_3_on_a_1(WEAK_READ - 0.04)
    assert "illegal" not in kinds(loop)
    assert lines[-4:] == ["That move means Red popped a 3.", "Red moves 3 from Red's Start to space 4.",
                          "Red, was your pop a 3?", "Blue's turn."]


def test_a_no_with_the_number_has_the_miscount_called() -> None:
    loop, _ = _moved_3_on_a_1(WEAK_READ - 0.04)
    loop.handle(Spoken(13.0, "no", {}))
    loop.handle(Spoken(14.0, "pop", {"value": 1}))
    assert kinds(loop)[-1] == "illegal"


def test_a_pop_read_surely_is_still_the_pop_and_the_miscount_called() -> None:
    loop, lines = _moved_3_on_a_1(1.0)
    assert kinds(loop)[-1] == "illegal"
    assert lines[-1] == "That peg moved 3 spaces, but the pop was 1."


def test_the_readers_confidence_goes_through_the_observation_file() -> None:
    assert to_json(PopSettled(2.0, 4)) == {"t": 2.0, "pop": 4}
    assert to_json(PopSettled(2.0, 4, 0.95)) == {"t": 2.0, "pop": 4, "confidence": 0.95}
    assert from_json({"t": 2.0, "pop": 4, "confidence": 0.95}) == PopSettled(2.0, 4, 0.95)
    assert from_json({"t": 2.0, "pop": 4}) == PopSettled(2.0, 4, 1.0)
    with pytest.raises(ObservationError, match="confidence"):
        from_json({"t": 2.0, "pop": 4, "confidence": 1.5})


def test_a_pop_read_only_after_it_was_reported_unread_counts_as_a_weak_read() -> None:
    # Fresh whole game seed 152 at 640x480: a small 6 under glare, unread for
    # 1.5 s, was read 4 at 0.98 with a hand over the board, and the peg
    # Yellow brought out was called "needs a 6". The same rest read
    # unreadable a moment before: the late value is asked about, not called on.
    from companion.live.observations import PopReadLate, PopUnread

    loop, speaker, _ = started()
    for obs in [PopSettled(8.0, 6), BoardStable(9.0, RED_OUT), PopUnread(10.0), PopReadLate(11.0, 1),
                BoardStable(12.0, RED_ON_4)]:
        loop.handle(obs)
    assert "illegal" not in kinds(loop)
    assert [e.get("value") for _, e in loop.events if e["event"] == "move"][-1] == 3
    assert "Red, was your pop a 3?" in said(speaker)


def _lost_5_then_out(confidence: float) -> tuple[Loop, list[str]]:
    """Red's turn, every Red peg at Home: a pop read 5 at *confidence* is
    lost at once, and then Red's peg is seen brought out."""
    return _after(PopSettled(8.0, 5, confidence), BoardStable(10.0, RED_OUT))


def test_a_weakly_read_pop_called_lost_then_used_by_a_move_is_worked_out_from_the_move() -> None:
    # Fresh whole game seed 201 at 640x480: Red's 2 read as 3 at 0.992 (a die
    # about 13 px wide); no Red peg could move 3, so the move was lost, and
    # Red's winning move of 2 was then called "moved 2 spaces, but the pop was 3".
    loop, lines = _lost_5_then_out(WEAK_READ - 0.005)
    assert "illegal" not in kinds(loop)
    assert lines[-7:] == ["Red popped 5.", "Red needs a 6 to bring a peg out: the move is lost.", "Blue's turn.",
                          "That move means Red popped a 6.", "Red brings a peg out onto Red's Start.",
                          "Red popped a 6: pop again.", "Red, was your pop a 6?"]
    assert loop.referee.player == "red" and loop.referee.phase == "pop"


def test_a_surely_read_pop_called_lost_then_used_by_a_move_is_called() -> None:
    loop, lines = _lost_5_then_out(1.0)
    assert kinds(loop)[-1] == "illegal"
    assert lines[-1] == "Red needs a 6 to bring a peg out of Home; the pop was 5."


def _two_moves_seen_at_once(confidence: float) -> tuple[Loop, list[str]]:
    """Red pops a 6 and the extra pop is read 2 at *confidence* before the
    board is seen again; then Red's peg is seen brought out and moved 3."""
    return _after(PopSettled(8.0, 6), PopSettled(10.0, 2, confidence), BoardStable(12.0, RED_ON_4))


def test_a_weakly_read_pop_held_behind_an_unseen_move_is_worked_out_when_both_are_seen() -> None:
    # Fresh whole game seed 191 at 640x480: Yellow's 6 read as 2 at 0.99 was
    # held while Blue's move went unseen; the two moves, seen together, were
    # called "The board does not match one move".
    loop, lines = _two_moves_seen_at_once(WEAK_READ - 0.005)
    assert "illegal" not in kinds(loop)
    assert lines[-4:] == ["That move means Red popped a 3.", "Red moves 3 from Red's Start to space 4.",
                          "Blue's turn.", "Red, was your pop a 3?"]


def test_a_surely_read_pop_held_behind_an_unseen_move_is_still_the_pop() -> None:
    loop, _ = _two_moves_seen_at_once(1.0)
    assert kinds(loop)[-1] == "illegal"


def test_a_weak_read_the_move_contradicts_is_asked_about_even_while_the_die_goes_mostly_unread() -> None:
    # Fresh whole game seed 22 at 640x480 (--illegal): most pops unread (the
    # players told the pops are worked out from the moves, questions kept
    # back), Blue's 5 read at 0.99 and a wrong count of 4 taken as a 4 unasked.
    loop, speaker, _ = started()
    loop.pops_read.extend([False] * 6)
    for obs in [PopSettled(8.0, 6), BoardStable(9.0, RED_OUT), PopSettled(10.0, 1, WEAK_READ - 0.005)]:
        loop.handle(obs)
    assert loop._die_blind()
    loop.handle(BoardStable(12.0, RED_ON_4))
    assert "illegal" not in kinds(loop)
    assert "Red, was your pop a 3?" in said(speaker)
    loop.handle(Spoken(13.0, "no"))
    loop.handle(Spoken(14.0, "pop", {"value": 1}))
    assert kinds(loop)[-1] == "illegal"


RED_ON_6 = board(red=["track:6", "home", "home", "home"], blue=["track:10", "home", "home", "home"])


def _moved_on_a_4(to: dict[str, list[str]], confidence: float) -> tuple[Loop, list[str]]:
    """Red's 6 brings a peg out; the extra pop is read 4 at *confidence*; the peg is seen at *to*."""
    return _after(PopSettled(8.0, 6), BoardStable(9.0, RED_OUT), PopSettled(10.0, 4, confidence),
                  BoardStable(12.0, to))


def test_a_4_read_fairly_surely_with_the_move_one_longer_is_taken_for_a_5_without_its_centre_pip() -> None:
    # Fresh whole rendered game seed 348 at 640x480: Red's 5, a small die
    # under glare, read 4 at 0.998 on every frame of its rest, and the move
    # of 5 called "That peg moved 5 spaces, but the pop was 4".
    loop, lines = _moved_on_a_4(RED_ON_6, 0.998)
    assert "illegal" not in kinds(loop)
    assert "That move means Red popped a 5." in lines and "Red, was your pop a 5?" in lines


def test_a_4_read_as_surely_with_the_move_one_shorter_is_still_called() -> None:
    # A 3 does not look like a 4 with a pip lost: the miscount is called.
    loop, lines = _moved_on_a_4(RED_ON_4, 0.998)
    assert kinds(loop)[-1] == "illegal"
    assert lines[-1] == "That peg moved 3 spaces, but the pop was 4."


def test_a_4_read_surer_than_the_centreless_bar_is_still_the_pop() -> None:
    loop, lines = _moved_on_a_4(RED_ON_6, CENTRELESS_READ)
    assert kinds(loop)[-1] == "illegal"
    assert lines[-1] == "That peg moved 5 spaces, but the pop was 4."


def test_the_weak_read_rule_doctests() -> None:
    import doctest

    import companion.live.loop

    result = doctest.testmod(companion.live.loop)
    assert result.attempted >= 3 and result.failed == 0


def _red_and_green_seen_moved_together(confidence: float) -> tuple[Loop, list[str]]:
    """Fresh whole rendered game 530 at 640x480 (session 32), a die too small
    to read surely: Red's 3 read as 1 at *confidence*, Blue's and Yellow's
    lost 1s read weakly, Green's pop not read; Red's move 2 -> 5 and Green's
    15 -> 19 seen only together."""
    four = ["red", "blue", "yellow", "green"]

    def pos(red: str, green: str) -> dict[str, list[str]]:
        return {"red": [red, "home", "home", "home"], "blue": ["home"] * 4, "yellow": ["home"] * 4,
                "green": [green, "home", "home", "home"]}

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, None, AT_ONCE)
    loop.start([[c] for c in four], None, "red", pos("track:2", "track:15"))
    for obs in [BoardStable(1.0, pos("track:2", "track:15")), PopSettled(3.0, 1, confidence),
                PopSettled(8.0, 1, 0.90), PopSettled(10.0, 1, 0.91), PopUnread(12.0),
                BoardStable(15.0, pos("track:5", "track:19"))]:
        loop.handle(obs)
    return loop, said(speaker)


def test_a_weak_read_with_pops_held_after_it_is_worked_out_when_one_way_leads_to_the_board() -> None:
    # It used to be called: "The board does not match one move".
    loop, lines = _red_and_green_seen_moved_together(0.93)
    assert "illegal" not in kinds(loop)
    assert "That move means Red popped a 3." in lines and "That move means Green popped a 4." in lines
    assert lines[-1] == "Red, was your pop a 3?"


def test_a_sure_read_with_pops_held_after_it_is_still_called() -> None:
    loop, _ = _red_and_green_seen_moved_together(0.999)
    assert kinds(loop)[-1] == "illegal"


@pytest.mark.parametrize(("confidence", "line"), [
    (PHANTOM_READ - 0.16, "Red popped 4, I think."),  # 0.74: fresh 575, a 5 read 4 after a tap
    (PHANTOM_READ, "Red popped 4."),
    (1.0, "Red popped 4."),
])
def test_a_pop_the_die_reader_doubted_is_said_with_a_doubt(confidence: float, line: str) -> None:
    # Session 33: reads under PHANTOM_READ were wrong 5 times in 170 in the
    # fresh games 488-567 (none of 11,043 at 0.95 or more), and a pop no peg
    # could use is never put right by a move. The record keeps the
    # referee's sentence.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4, confidence=confidence))
    lines = said(speaker)
    assert line in lines and lines[lines.index(line) + 1] == "Red needs a 6 to bring a peg out: the move is lost."
    assert loop.events[-3][1] == {"event": "pop", "text": "Red popped 4.", "value": 4, "color": "red"}


@pytest.mark.parametrize(("confidence", "taken"), [(PHANTOM_READ - 0.16, True), (1.0, False)])
def test_a_correction_of_a_pop_said_with_a_doubt_is_taken_at_once(confidence: float, taken: bool) -> None:
    # "Red popped 4, I think." invites "the pop was five" before Red moves:
    # the loop doubted the read itself, so the players' word is not answered
    # with "I saw a 4 on the die" (a sure read still is, and needs saying twice).
    loop, speaker, _ = started()
    for obs in [PopSettled(8.0, 6), BoardStable(9.0, board(red=["track:1", "home", "home", "home"],
                                                           blue=["track:10", "home", "home", "home"])),
                PopSettled(10.0, 4, confidence=confidence), Spoken(11.0, "pop", {"value": 5})]:
        loop.handle(obs)
    lines = said(speaker)
    assert ("I saw a 4 on the die. Say it again if you are sure." in lines) is not taken
    assert loop.referee.phase == "move" and loop.referee.pending_pop == (5 if taken else 4)


RED_ON_2 = board(red=["track:2", "home", "home", "home"], blue=["track:10", "home", "home", "home"])


def _miscount_put_right_with_the_next_move(red: str, blue: str) -> tuple[Loop, list[str]]:
    """Red's extra pop read 2 weakly and the peg moved 1 (taken for a 1 and
    asked); then Blue pops a 3 and one board shows Red's peg on *red* and
    Blue's on *blue*: the miscount put right while Blue played."""
    return _after(PopSettled(8.0, 6), BoardStable(9.0, RED_OUT), PopSettled(10.0, 2, WEAK_READ - 0.002),
                  BoardStable(12.0, RED_ON_2), PopSettled(15.0, 3),
                  BoardStable(19.0, board(red=[red, "home", "home", "home"], blue=[blue, "home", "home", "home"])))


def test_a_move_worked_out_and_then_put_right_while_the_next_player_moves_is_retold() -> None:
    # A rendered game with wrong counts (seed 20 at 640x480): Blue's 2 read at
    # 0.995 and the peg moved 1, "That move means Blue popped a 1"; Blue then
    # moved it on to the 2 while Yellow popped a 2 and moved, and the board of
    # both moves was called "does not match one move".
    loop, lines = _miscount_put_right_with_the_next_move("track:3", "track:13")
    assert "illegal" not in kinds(loop)
    assert lines[-4:] == ["That move means Red popped a 2.", "Red moves 2 from Red's Start to space 3.",
                          "Blue moves 3 from space 10 to space 13.", "Red's turn."]
    assert "track:3" in loop.referee.position["red"] and loop.referee.player == "red"


def test_the_next_players_miscount_beside_a_move_left_as_worked_out_is_still_called() -> None:
    loop, lines = _miscount_put_right_with_the_next_move("track:2", "track:14")
    assert kinds(loop)[-1] == "illegal"
    assert lines[-1] == "That peg moved 4 spaces, but the pop was 3."


def _moves_seen_with_a_pop_just_settled(last_settled: float) -> tuple[Loop, list[str]]:
    """Fresh game 1032 (session 51), in short: Blue's 3 read, Red's 3 read
    weakly as 1, Blue's 5 read, all held while the board was not seen, then
    Red's next pop, unread, settled *last_settled* s before the board shows
    Blue's two moves and Red's move of 3."""
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, None, AT_ONCE)

    def pos(red: str, blue: str) -> dict[str, list[str]]:
        return {"red": [red, "home", "home", "home"], "blue": [blue, "home", "home", "home"]}

    loop.start([["red"], ["blue"]], None, "blue", pos("track:20", "track:10"))
    for obs in [BoardStable(1.0, pos("track:20", "track:10")), PopSettled(2.0, 3),
                PopSettled(4.0, 1, WEAK_READ - 0.05), PopSettled(6.0, 5),
                PopUnread(9.0 - last_settled), BoardStable(9.0, pos("track:23", "track:18"))]:
        loop.handle(obs)
    return loop, said(speaker)


def test_a_pop_settled_moments_before_the_board_is_not_taken_for_part_of_its_moves() -> None:
    # The weak 1 and the unread pop after it made Red's 3 (a 1 and a 2),
    # and Red's real move of that pop was then called "The board does not
    # match one move". No player moves a peg 0.2 s after the die settles:
    # the weak read gives way, and the pop is still Red's to move.
    loop, lines = _moves_seen_with_a_pop_just_settled(0.2)
    assert "That move means Red popped a 3." in lines and "Red moves 1 from space 20 to space 21." not in lines
    assert loop.referee.player == "red" and [type(p) for p in loop.held_pops] in ([PopUnread], [])
    assert loop.held_pops or loop.unread is not None  # Red's unread pop, still to be moved
    loop.handle(BoardStable(12.0, {"red": ["track:25", "home", "home", "home"],
                                   "blue": ["track:18", "home", "home", "home"]}))
    assert "illegal" not in kinds(loop)


def test_a_pop_settled_long_enough_before_the_board_may_be_part_of_its_moves() -> None:
    loop, lines = _moves_seen_with_a_pop_just_settled(2.0)
    assert "Red moves 1 from space 20 to space 21." in lines and "That move means Red popped a 2." in lines
    assert loop.referee.player == "blue"


def test_a_weak_read_being_moved_and_a_weak_read_held_both_give_way_to_the_moves() -> None:
    # Blue's 2 read as 3 at 0.95 is being moved; Red's 5 (lost) and Blue's
    # 4 read as 1 at 0.95 are held while the board lags; both of Blue's
    # moves are then seen together. Taking only the pop being moved as
    # unread explains nothing, so it used to be called; taking the held
    # weak read as unread too, one way leads to the board.
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, None, AT_ONCE)
    blue_at = board(blue=["track:10", "track:20", "home", "home"])
    loop.start([["red"], ["blue"]], None, "blue", blue_at)
    for obs in [BoardStable(1.0, blue_at), PopSettled(2.0, 3, WEAK_READ - 0.05), PopSettled(4.0, 5),
                PopSettled(6.0, 1, WEAK_READ - 0.05)]:
        loop.handle(obs)
    loop.handle(BoardStable(8.5, board(blue=["track:12", "track:24", "home", "home"])))
    assert "illegal" not in kinds(loop)
    lines = said(speaker)
    assert "That move means Blue popped a 2." in lines and "That move means Blue popped a 4." in lines
    assert loop.referee.player == "red"


def test_a_weak_read_with_only_a_pop_just_settled_held_gives_way_to_its_move() -> None:
    # Fresh game 998 with a table counting aloud (session 51): Blue's 6
    # landed cocked, the "one" its count began with was taken (weakly) for
    # the pop, and the tapped die was reported unread at the moment the
    # board showed Blue's move of 6: "That peg moved 6 spaces, but the pop
    # was 1." The pop just settled is still to be moved: the move tells the
    # weak read's value, asked back, and the unread pop is Blue's extra pop.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))  # Red's 4, lost
    loop.handle(DieCocked(9.0))
    loop.handle(Spoken(9.5, "pop", {"value": 1}))  # "one, two, ..."
    assert said(speaker)[-1] == "Blue popped 1."
    n = len(loop.events)
    loop.handle(PopUnread(11.5))  # the tapped die, not read
    loop.handle(BoardStable(11.5, board(blue=["track:16", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert "That move means Blue popped a 6." in said(speaker)
    assert ("move", 6) in events_after(loop, n) and loop.referee.player == "blue"


def test_a_weak_read_whose_move_alone_shows_with_the_next_players_pop_held_gives_way() -> None:
    # Fresh games 1000 and 1038 with a table counting aloud (session 51):
    # the mover's pop taken weakly for its count's "one", the next player's
    # pop read and held, and the board showing the mover's move of 2 alone.
    # The way of the pops held must move that next pop too, so none was
    # found, and the move was called "That peg moved 2 spaces, but the pop
    # was 1." The move alone, for a value the held pop does not have, is
    # worked out and asked back.
    loop, lines = _after(PopSettled(8.0, 4), PopSettled(9.0, 1, WEAK_READ - 0.05), PopSettled(11.0, 4),
                         BoardStable(13.0, board(blue=["track:12", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert "That move means Blue popped a 2." in lines and "Blue, was your pop a 2?" in lines
    assert lines[-3:-1] == ["Red needs a 6 to bring a peg out: the move is lost.", "Blue, was your pop a 2?"]


def test_a_board_that_weak_reads_held_may_explain_is_not_judged_on_them_as_read() -> None:
    # Fresh game 997 with a table counting aloud (session 51): counts'
    # "one"s, taken weakly for unread pops held while the board lagged,
    # made a board of several moves look like no way of playing the pops,
    # and it was called. Any way with those reads taken as unread, and the
    # board is not sure enough to call.
    loop, _ = _after(PopSettled(8.0, 4), PopSettled(9.0, 6), PopUnread(11.0), Spoken(11.5, "pop", {"value": 1}))
    assert loop.held_pops[-1].confidence < WEAK_READ  # "Noted: the pop on the die is 1."
    out_and_4 = board(blue=["track:14", "track:8", "home", "home"])
    assert not loop._reached_from_here(out_and_4)  # the pops as read: the 6, then a 1
    assert loop._ways_reach(out_and_4)  # the 6, then the "one" taken as unread: a 4
    assert not loop._ways_reach(board(blue=["track:20", "track:8", "home", "home"]))  # no pop moves 10
