"""The loop keeps in step with a table that played on while it could not follow.

Seen in whole rendered games: a hand or a glare kept the camera from reading
the board for several moves, or the camera misread one pop. Judging every
later board against the position the loop believed then gave dozens of
false "illegal move" calls in one game. Here the loop finds the one way the
pops it saw lead to the board it sees, and never calls a move illegal twice
because the table played on.
"""

from __future__ import annotations

import pytest
from test_live_loop import AT_ONCE, ListSpeaker, board, events_after, kinds, said, started

from companion.live import boards
from companion.live.catch_up import MAX_POPS, only_way
from companion.live.loop import MOVE_SET_DOWN_S, SEVERAL_UNSEEN_S, UNSEEN_POP_S, Loop
from companion.live.observations import (
    BoardFound,
    BoardLost,
    BoardStable,
    BoardUnsettled,
    PopReadLate,
    PopSettled,
    PopUnread,
    Tick,
    from_json,
    to_json,
)
from companion.rules import new_game, pop


def red_out(loop: Loop, then: int | None = None) -> None:
    """After :func:`started`: Red brings a peg out on a 6 and, with *then*,
    pops that and moves the peg on (Blue's peg stays on 10)."""
    loop.handle(PopSettled(8.0, 6))
    loop.handle(BoardStable(9.0, board(red=["track:1", "home", "home", "home"],
                                       blue=["track:10", "home", "home", "home"])))
    if then is not None:
        loop.handle(PopSettled(10.0, then))
        loop.handle(BoardStable(11.0, board(red=[f"track:{1 + then}", "home", "home", "home"],
                                            blue=["track:10", "home", "home", "home"])))


def test_three_moves_seen_at_once_are_played_in_order() -> None:
    # Red's turn. Red pops a 6, brings a peg out, pops a 3 and moves it; Blue
    # pops a 2 and moves: the camera saw the pops but no stable board until now.
    loop, _, _ = started()
    n = len(loop.events)
    loop.handle(PopSettled(8.0, 6))
    loop.handle(PopSettled(10.0, 3))
    loop.handle(PopSettled(12.0, 2))
    loop.handle(BoardStable(14.0, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:12", "home", "home", "home"])))
    assert events_after(loop, n) == [
        ("pop", 6), ("move", 6), ("extra-pop", None), ("pop", 3), ("move", 3), ("turn", None),
        ("pop", 2), ("move", 2), ("turn", None),
    ]
    assert "illegal" not in kinds(loop)
    assert loop.referee.player == "red" and not loop.held_pops


def test_two_orders_that_leave_the_same_game_are_played_either_way() -> None:
    # Red, pegs on 10 and 13, popped a 6 and then a 3: 10->16->19, or 13->19
    # then 10->13, end on the same board with the same turn. Which peg moved
    # first cannot be seen afterwards and changes nothing that follows.
    state = pop(new_game(["red", "blue"], pegs={"red": ["track:10", "track:13"]}, turn="red"), 6)
    seen = {"red": ["home", "home", "track:13", "track:19"], "blue": ["home"] * 4}
    way = only_way(state, [3], seen)
    assert way is not None and [s.pop for s in way] == [None, 3]
    # One move only is not the catch-up's business (the loop judges it as a move).
    assert only_way(state, [], {"red": ["home", "home", "track:13", "track:16"], "blue": ["home"] * 4}) is None
    # No way at all: a 4 cannot make that board.
    assert only_way(state, [4], seen) is None
    way = only_way(state, [4], {"red": ["home", "home", "track:13", "track:20"], "blue": ["home"] * 4})
    assert way is not None and [(s.move.from_place, s.move.to_place) for s in way if s.move] == [
        ("track:10", "track:16"), ("track:16", "track:20")
    ]


def test_too_long_a_gap_is_not_guessed() -> None:
    state = pop(new_game(["red", "blue"], turn="red"), 6)
    seen = {"red": ["home", "home", "home", "track:1"], "blue": ["home"] * 4}
    assert only_way(state, [1] * (MAX_POPS + 1), seen) is None


def test_a_misread_pop_the_table_played_on_from_is_corrected_once() -> None:
    # Red brings a peg out on a 6 and pops again: the camera reads a 2, the
    # die shows a 4, and Red moves 4. The call is made once; Blue then pops
    # and moves, so the table has played on: the pop was the 4 the move fits.
    loop, speaker, _ = started()
    red_out(loop)
    loop.handle(PopSettled(10.0, 2))  # misread: the die shows 4
    loop.handle(BoardStable(11.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert kinds(loop).count("illegal") == 1  # called once: it may have been a real mistake
    loop.handle(PopSettled(12.0, 3))  # Blue pops: not yet overruled (Red may still put it right)
    assert kinds(loop).count("illegal") == 1 and loop.referee.player == "red"
    n = len(loop.events)
    loop.handle(BoardStable(14.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:13", "home", "home", "home"])))
    assert "You played on, so I take it Red popped a 4." in said(speaker)
    assert events_after(loop, n) == [
        ("correct", 4), ("pop", 4), ("move", 4), ("turn", None), ("pop", 3), ("move", 3), ("turn", None)
    ]
    assert kinds(loop).count("illegal") == 1
    assert loop.referee.player == "red"


def test_a_wrong_move_put_right_after_an_early_pop_is_not_overruled() -> None:
    loop, speaker, _ = started()
    red_out(loop)
    loop.handle(PopSettled(10.0, 2))
    loop.handle(BoardStable(11.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    loop.handle(PopSettled(12.0, 3))  # Blue pops early
    loop.handle(BoardStable(13.0, board(red=["track:3", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))  # put right: 2
    assert not any("played on" in t for t in said(speaker))
    assert kinds(loop).count("illegal") == 1
    assert [e.get("value") for _, e in loop.events if e["event"] == "move"][-1] == 2
    assert loop.referee.player == "blue" and loop.referee.pending_pop == 3


def test_a_pop_read_late_is_the_pop_and_nobody_hears_it_was_unread() -> None:
    loop, speaker, recorder = started()
    n = len(loop.events)
    loop.handle(PopUnread(8.0))
    loop.handle(PopReadLate(8.6, 6))
    loop.handle(Tick(12.0))
    assert events_after(loop, n) == [("pop", 6)]
    assert {"pop": 6} in recorder.inputs
    assert not any("could not read" in t for t in said(speaker))
    loop.handle(BoardStable(13.0, board(red=["track:1", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert events_after(loop, n) == [("pop", 6), ("move", 6), ("extra-pop", None)]
    assert loop.worked_out == []  # the camera read it


def test_a_pop_read_late_after_the_move_it_explains() -> None:
    # Red's move came before the late read and fits a 5 or a 6 both? Here it
    # fits only a 6 and is worked out at once; the late read agrees and changes nothing.
    loop, _, _ = started()
    loop.handle(PopUnread(8.0))
    loop.handle(BoardStable(9.0, board(red=["track:1", "home", "home", "home"],
                                       blue=["track:10", "home", "home", "home"])))
    before = list(loop.events)
    loop.handle(PopReadLate(9.5, 6))
    assert loop.events == before


def test_a_late_read_while_the_unread_pop_is_held_makes_it_a_read_pop() -> None:
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 6))  # Red, waiting for the move
    loop.handle(PopUnread(9.0))  # Red's extra pop, held: the move is not on the board yet
    loop.handle(PopReadLate(9.5, 4))
    loop.handle(BoardStable(10.0, board(red=["track:1", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert [(e["event"], e.get("value")) for _, e in loop.events[-3:]] == [
        ("move", 6), ("extra-pop", None), ("pop", 4)
    ]
    assert loop.referee.player == "red" and loop.referee.pending_pop == 4
    assert not any("could not read" in t for t in said(speaker))


def test_pop_read_round_trips_through_the_observation_file() -> None:
    obs = PopReadLate(3.5, 4)
    assert to_json(obs) == {"t": 3.5, "pop-read": 4}
    assert from_json({"t": 3.5, "pop-read": 4}) == obs


def test_after_losing_track_the_loop_says_so_once_and_gets_back_in_step_at_the_next_move() -> None:
    # Red popped a 6 (seen), brought a peg out and popped a 2 the camera never
    # saw, moved it, and Blue popped a 4 and moved: one board, which no way
    # of playing the pops seen explains. That is called once (wrongly: the
    # cost of a pop nobody saw). Then the table plays on: Red pops a 5 and
    # moves. The loop must not call that, nor anything after it.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 6))
    loop.handle(PopSettled(12.0, 4))
    loop.handle(BoardStable(14.0, board(red=["track:3", "home", "home", "home"],
                                        blue=["track:14", "home", "home", "home"])))
    assert kinds(loop).count("illegal") == 1
    loop.handle(PopSettled(16.0, 5))
    loop.handle(BoardStable(18.0, board(red=["track:8", "home", "home", "home"],
                                        blue=["track:14", "home", "home", "home"])))
    assert kinds(loop).count("illegal") == 1
    lines = said(speaker)
    assert lines.count("I have lost track of the moves. I will go by the board from here.") == 1
    assert "Back in step." in lines
    assert [(e["event"], e.get("value"), e.get("to")) for _, e in loop.events[-3:]] == [
        ("pop", 5, None), ("move", 5, "track:8"), ("turn", None, None)
    ]
    assert loop.referee.player == "blue" and loop.referee.position["blue"] == ["home"] * 3 + ["track:14"]
    # And the game goes on as usual.
    loop.handle(PopSettled(20.0, 2))
    loop.handle(BoardStable(22.0, board(red=["track:8", "home", "home", "home"],
                                        blue=["track:16", "home", "home", "home"])))
    assert loop.events[-2][1]["event"] == "move" and "illegal" not in kinds(loop)[-3:]


def lost_on_two_moves(loop: Loop) -> dict[str, list[str]]:
    """After :func:`started`: a call the table plays on from, then a board
    of two moves (Red's and Blue's) no way of the pops seen explains: the
    loop has lost track. Returns that board."""
    loop.handle(PopSettled(8.0, 6))
    loop.handle(PopSettled(12.0, 4))
    loop.handle(BoardStable(14.0, board(red=["track:3", "home", "home", "home"],
                                        blue=["track:14", "home", "home", "home"])))
    loop.handle(PopSettled(16.0, 5))
    two_moves = board(red=["track:9", "home", "home", "home"], blue=["track:20", "home", "home", "home"])
    loop.handle(BoardStable(18.0, two_moves))
    return two_moves


def test_while_lost_the_board_seen_again_after_a_pop_still_lets_the_next_move_put_it_back_in_step() -> None:
    # The camera reports the position again after each pop. That report (the
    # board unchanged) must not forget the pop: in a whole rendered game the
    # loop, lost after four unread pops in a row, stayed silent to the end.
    loop, speaker, _ = started()
    two_moves = lost_on_two_moves(loop)
    assert loop.lost is not None
    loop.handle(PopSettled(20.0, 3))
    loop.handle(BoardStable(20.5, two_moves))  # the same board, reported again after the pop
    loop.handle(BoardStable(22.0, board(red=["track:9", "home", "home", "home"],
                                        blue=["track:23", "home", "home", "home"])))  # Blue's 3
    assert "Back in step." in said(speaker)
    assert [(e["event"], e.get("value"), e.get("to")) for _, e in loop.events[-3:]] == [
        ("pop", 3, None), ("move", 3, "track:23"), ("turn", None, None)
    ]
    assert kinds(loop).count("illegal") == 1 and loop.referee.player == "red"


def lost_then_blue_moves_after_two_pops(board_at: float, first: int = 4) -> tuple[Loop, ListSpeaker]:
    """Lost (:func:`lost_on_two_moves`); a pop of *first* (lost, or
    Blue's), Red pops 3 at 21.8, and Blue's move 20 -> 23 is seen at
    *board_at*."""
    loop, speaker, _ = started()
    lost_on_two_moves(loop)
    loop.handle(PopSettled(20.0, first))
    loop.handle(PopSettled(21.8, 3))
    loop.handle(BoardStable(board_at, board(red=["track:9", "home", "home", "home"],
                                            blue=["track:23", "home", "home", "home"])))
    return loop, speaker


def test_while_lost_a_pop_just_before_the_move_may_be_the_next_players_so_the_loop_waits() -> None:
    # Red's pop settled a moment before Blue's move was seen. A pop just
    # before the board may be the next player's (or the mover's extra pop
    # after a 6), so the move does not say whose turn it is: getting back in
    # step on the last pop (Red's) gave it to Blue, and Red's own move was
    # then called (truth benchmark seed 757). The loop waits for a move it
    # can place.
    loop, speaker = lost_then_blue_moves_after_two_pops(22.0)
    assert "Back in step." not in said(speaker) and loop.lost is not None
    loop.handle(BoardStable(24.0, board(red=["track:12", "home", "home", "home"],
                                        blue=["track:23", "home", "home", "home"])))  # Red's 3
    loop.handle(PopSettled(26.0, 2))
    loop.handle(BoardStable(28.0, board(red=["track:12", "home", "home", "home"],
                                        blue=["track:25", "home", "home", "home"])))  # Blue's 2
    assert "Back in step." in said(speaker)
    assert kinds(loop).count("illegal") == 1  # the one call before the loop lost track
    assert loop.referee.player == "red" and loop.referee.position["blue"] == ["home"] * 3 + ["track:25"]
    # Seen long after the last pop, the move is that pop's, as before.
    loop, speaker = lost_then_blue_moves_after_two_pops(23.5)
    assert "Back in step." in said(speaker)


def test_while_lost_a_move_an_earlier_pop_fits_too_is_placed_by_the_turns() -> None:
    # Fresh seed 418 (session 30): Blue's 3, Yellow's lost 3 and Red's
    # unread lost pop seen, then Blue's move of 3; taken as made with the
    # last pop, the turns went one out and a right board was called. Here
    # Blue pops 3 and moves it, Red pops 3: either 3 may be the move's, so
    # one move with the last pop does not say whose turn it was. The turns
    # do (session 46, ``Loop._follow_turns``): had Red popped first, Red's
    # peg on 9 would have moved. So Blue moved, and Red's 3 waits.
    loop, speaker = lost_then_blue_moves_after_two_pops(23.5, first=3)
    assert loop.lost is None and said(speaker)[-4:] == [
        "Blue popped 3.", "Blue moves 3 from space 20 to space 23.", "Red's turn.", "Red popped 3."]
    assert loop.referee.player == "red" and loop.referee.phase == "move"
    assert kinds(loop).count("illegal") == 1  # the one call before the loop lost track


def test_while_lost_two_unread_pops_either_of_which_fits_the_move_do_not_say_whose_turn_it_is() -> None:
    # (The same, with the pops unread: a pop never seen would fit as well.)
    loop, speaker, _ = started()
    lost_on_two_moves(loop)
    loop.handle(PopUnread(20.0))
    loop.handle(PopUnread(21.8))
    loop.handle(BoardStable(23.5, board(red=["track:9", "home", "home", "home"],
                                        blue=["track:23", "home", "home", "home"])))
    assert "Back in step." not in said(speaker) and loop.lost is not None


def red_peg_in_a_hand(loop: Loop) -> None:
    """After :func:`started`, the die mostly unread: Red brings a peg out on a
    6, pops 2, and the peg is read far on while carried; the loop, not
    calling, loses track."""
    loop.pops_read.extend([False] * 6)  # a dim room: most pops seen, not read
    loop.handle(PopSettled(8.0, 6))
    loop.handle(BoardStable(9.0, board(red=["track:1", "home", "home", "home"],
                                       blue=["track:10", "home", "home", "home"])))
    loop.handle(PopSettled(10.0, 2))
    loop.handle(BoardStable(11.0, board(red=["track:12", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))  # in a hand


def test_a_board_that_lost_track_for_a_moment_is_passed_over_when_the_move_then_fits() -> None:
    # Whole rendered game seed 19 at 640x480: Yellow's peg, carried in a hand
    # from 8 to 9, was read for a second in Yellow's Finish. The loop (the die
    # mostly unread, so not calling) lost track, and at the next move set the
    # pegs by corrections instead of announcing "Yellow moves 1". When the
    # very next board, moments later with no pop between, is the game's own
    # move, the passing board is forgotten and the move announced.
    moved = board(red=["track:3", "home", "home", "home"], blue=["track:10", "home", "home", "home"])
    loop, speaker, _ = started()
    red_peg_in_a_hand(loop)
    assert loop.lost is not None and "illegal" not in kinds(loop)
    loop.handle(BoardStable(12.0, moved))
    assert loop.lost is None
    assert "Red moves 2 from Red's Start to space 3." in said(speaker)
    assert "peg" not in kinds(loop) and "illegal" not in kinds(loop)
    # Later than PASSING_LOST_S, the board is followed as before (the next
    # plain move puts the loop back in step).
    loop, speaker, _ = started()
    red_peg_in_a_hand(loop)
    loop.handle(BoardStable(30.0, moved))
    assert loop.lost is not None


def test_while_lost_a_board_no_single_move_explains_is_waited_out_silently() -> None:
    loop, speaker, _ = started()
    lost_on_two_moves(loop)
    n = len(speaker.lines)
    loop.handle(PopSettled(20.0, 3))
    loop.handle(BoardStable(22.0, board(red=["track:9", "home", "home", "home"],
                                        blue=["track:23", "home", "home", "home"])))  # Blue's 3
    assert kinds(loop).count("illegal") == 1
    assert said(speaker)[n:][:1] == ["Back in step."]
    assert loop.referee.player == "red"


def test_a_peg_seen_back_in_its_home_with_nothing_else_moved_is_asked_for_not_called() -> None:
    # Seen in a whole rendered game: the blue peg on space 10 read as a fourth
    # peg in Blue's Home. No move does that; it is a peg misread or lifted.
    loop, speaker, _ = started()
    loop.handle(BoardStable(8.0, board()))  # blue's peg "in Home"
    assert "illegal" not in kinds(loop)
    loop.handle(Tick(12.5))
    assert "I cannot see every peg. Please put each peg back on its hole." in said(speaker)
    loop.handle(BoardStable(13.0, board(blue=["track:10", "home", "home", "home"])))
    loop.handle(PopSettled(14.0, 6))
    loop.handle(BoardStable(15.0, board(red=["track:1", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert "illegal" not in kinds(loop) and kinds(loop)[-2:] == ["move", "extra-pop"]


def test_a_legal_move_with_another_peg_misread_in_its_home_is_played_and_the_peg_asked_for() -> None:
    # Seen in a whole rendered game: Blue brought a peg out on a 6 while its
    # peg on space 10 read as a fourth peg in Blue's Home. "Blue moves from 10
    # back to its Start" is no move; the bring-out with one peg unseen is.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 2))  # Red: all in Home, lost; Blue's turn
    loop.handle(PopSettled(10.0, 6))  # Blue
    loop.handle(BoardStable(11.0, board(blue=["track:8", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert kinds(loop)[-2:] == ["move", "extra-pop"]
    assert loop.referee.position["blue"] == ["home", "home", "track:10", "track:8"]
    loop.handle(Tick(15.5))
    assert "I cannot see every peg. Please put each peg back on its hole." in said(speaker)


def test_two_moves_at_once_with_one_peg_misread_in_its_home_are_played() -> None:
    # Seen in a whole rendered game: Blue moved 10 -> 11 while its peg read as
    # a fourth in Blue's Home; Red then brought a peg out on a 6. One board
    # shows both; the blue peg is asked for, nothing is called.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 2))  # Red: all in Home, lost; Blue's turn
    loop.handle(PopSettled(10.0, 1))  # Blue
    loop.handle(PopSettled(12.0, 6))  # Red, held: Blue's move is not seen
    loop.handle(BoardStable(14.0, board(red=["track:1", "home", "home", "home"])))  # blue "all Home"
    assert "illegal" not in kinds(loop)
    assert [(e["event"], e.get("to")) for _, e in loop.events[-5:]] == [
        ("move", "track:11"), ("turn", None), ("pop", None), ("move", "track:1"), ("extra-pop", None)
    ]
    loop.handle(Tick(18.5))
    assert "I cannot see every peg. Please put each peg back on its hole." in said(speaker)


def test_more_than_two_unread_pops_are_not_fitted_to_a_board() -> None:
    # Each unread pop lets the search fit more histories to the board; with
    # three, a wrong one was the only one found in a whole rendered game.
    state = pop(new_game(["red", "blue"], pegs={"red": ["track:10"]}, turn="red"), 2)
    seen = {"red": ["home", "home", "home", "track:13"], "blue": ["home"] * 4}
    assert only_way(state, [None, None], seen) is not None
    assert only_way(state, [None, None, None], seen) is None


def test_a_catch_up_with_a_guessed_value_is_taken_back_when_the_move_is_put_right() -> None:
    # Red brings a peg out on a 6; its extra pop is seen but not read and the
    # board next seen shows the peg on 4: "a 3". It was a wrong count (the
    # die showed 2): the player puts the peg on 3. Nobody has popped since,
    # so the loop takes its guess back instead of calling the right move wrong.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 6))
    loop.handle(PopUnread(9.0))  # held: Red's bring-out is not on the board yet
    loop.handle(BoardStable(10.0, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert "That move means Red popped a 3." in said(speaker)
    loop.handle(BoardStable(11.0, board(red=["track:3", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert loop.referee.position["red"] == ["home", "home", "home", "track:3"]
    assert "That move means Red popped a 2." in said(speaker)
    assert loop.referee.player == "blue"


def test_a_peg_moved_one_space_too_far_is_called() -> None:
    # Red's peg on 1, a 6 popped, the peg put on 8: a wrong count, called.
    loop, _, _ = started()
    red_out(loop)
    loop.handle(PopSettled(10.0, 6))
    loop.handle(BoardStable(11.0, board(red=["track:8", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert kinds(loop).count("illegal") == 1


def test_a_bring_out_beside_a_peg_moved_a_little_too_far_is_called_not_explained_away() -> None:
    # The truth benchmark's case: Red, a peg on 22 (one step before its own
    # Start is 28), pops a 6 and moves the peg 22 -> 1 (7 spaces, past its
    # Finish entry). "A bring-out to 1 and the peg on 22 misread in Home"
    # would hide that illegal move.
    state = pop(new_game(["red", "blue"], pegs={"red": ["track:22"]}, turn="red"), 6)
    seen = {"red": ["home", "home", "home", "track:1"], "blue": ["home"] * 4}
    assert only_way(state, [], seen, gone_home=True, min_steps=1) is None


def test_chains_of_more_than_two_unread_pops_are_not_searched() -> None:
    # Seen in a whole rendered game: a dozen held pops, several unread; the
    # six values of each made the search run for longer than the game.
    loop, _, _ = started()
    state = loop.referee.state
    assert state is not None
    seen = board(red=["track:3", "home", "home", "home"], blue=["track:10", "home", "home", "home"])
    assert loop._chain_explains(state, [None, None, None] + [1] * 9, seen, unseen_last=True) is False


def test_moves_seen_at_once_with_a_finished_peg_misread_in_its_home_are_played() -> None:
    # Seen in a whole rendered game: Red moved 7 -> 12 and Blue 15 -> 20
    # while the board could not be read; the board then read Blue's peg on
    # Finish 1 as a peg in Blue's Home. Blue's change (15 gone, 20 new) is
    # the way's own move, so it does not make the misread look like a move.
    state = pop(new_game(["red", "blue"], pegs={"red": ["track:7"], "blue": ["track:15", "finish:1"]},
                         turn="red"), 5)
    seen = {"red": ["home", "home", "home", "track:12"], "blue": ["home", "home", "home", "track:20"]}
    way = only_way(state, [5], seen, gone_home=True, min_steps=1)
    assert way is not None
    assert [(s.move.from_place, s.move.to_place) for s in way if s.move] == [
        ("track:7", "track:12"), ("track:15", "track:20")]
    # Without the misread both moves are the board exactly.
    exact = {"red": ["home", "home", "home", "track:12"], "blue": ["home", "home", "track:20", "finish:1"]}
    assert only_way(state, [5], exact) is not None


def test_an_unread_pop_and_its_peg_misread_in_home_are_asked_for_not_called() -> None:
    # Seen in a whole rendered game: Blue's pop was not read, and while Blue's
    # peg was carried 10 -> 12 (or misread) the board showed it in Blue's Home;
    # Red then popped a 6 and brought a peg out. Any value of the unread pop
    # explains the board but for that peg: nothing is called, the peg is asked
    # for, and the board read right settles the pop's value.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 5))  # Red: all in Home, lost; Blue's turn
    loop.handle(PopUnread(10.0))  # Blue
    loop.handle(PopSettled(12.0, 6))  # Red, held
    loop.handle(BoardStable(14.0, board(red=["track:1", "home", "home", "home"])))  # blue "all Home"
    assert "illegal" not in kinds(loop)
    loop.handle(Tick(19.0))
    assert "I cannot see every peg. Please put each peg back on its hole." in said(speaker)
    loop.handle(BoardStable(20.0, board(red=["track:1", "home", "home", "home"],
                                        blue=["track:12", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert "That move means Blue popped a 2." in said(speaker)
    assert loop.referee.position["blue"] == ["home", "home", "home", "track:12"]
    assert loop.referee.position["red"] == ["home", "home", "home", "track:1"]


def test_a_board_after_more_unread_pops_than_a_catch_up_may_guess_is_followed_not_called() -> None:
    # Seen in a whole rendered game: 27 s without a readable board, nine pops
    # of which six unread; the board then showed a red peg on 8, which no
    # history the loop could try explains. It is not an illegal move.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 6))  # Red brings a peg out (not seen: the board is not read)
    for k in range(4):
        loop.handle(PopUnread(10.0 + k))
    loop.handle(BoardStable(20.0, board(red=["track:8", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert said(speaker)[-1] == "I have lost track of the moves. I will go by the board from here."
    loop.handle(Tick(30.0))  # and no "Waiting for Red to move" while lost
    assert said(speaker)[-1] == "I have lost track of the moves. I will go by the board from here."


def test_a_board_no_history_explains_after_a_long_unseen_stretch_is_followed_not_called() -> None:
    # Seen in a whole rendered game: no board for 45 s, most pops unseen (a
    # die hidden for the whole pop is no pop to the camera), then a board
    # nine pegs away from the game. Calling that "put the pegs back" is wrong.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 6))  # Red
    loop.handle(PopSettled(40.0, 3))  # held
    loop.handle(BoardStable(45.0, board(red=["track:20", "home", "home", "home"],
                                        blue=["track:14", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert said(speaker)[-1] == "I have lost track of the moves. I will go by the board from here."


def test_the_same_board_soon_after_the_game_was_seen_is_called() -> None:
    loop, _, _ = started()
    loop.handle(PopSettled(8.0, 6))
    loop.handle(PopSettled(10.0, 3))
    loop.handle(BoardStable(12.0, board(red=["track:6", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert kinds(loop).count("illegal") == 1


def test_a_peg_seen_a_hole_behind_its_place_is_asked_for_not_called() -> None:
    # Seen in a whole rendered game: Red's peg on Finish 4 read on Finish 3
    # for a moment before Red popped: "Red, pop first, then move", twice.
    loop, speaker, _ = started()
    red_out(loop, then=4)
    assert loop.referee.player == "blue" and loop.referee.phase == "pop"
    loop.handle(BoardStable(12.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:9", "home", "home", "home"])))  # 10 read as 9
    assert "illegal" not in kinds(loop)
    loop.handle(Tick(17.0))
    assert "I cannot see every peg. Please put each peg back on its hole." in said(speaker)
    loop.handle(BoardStable(18.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    loop.handle(PopSettled(19.0, 3))
    loop.handle(BoardStable(20.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:13", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert loop.referee.position["blue"] == ["home", "home", "home", "track:13"]


def test_a_peg_moved_back_by_the_pop_is_a_move_the_wrong_way_and_called() -> None:
    loop, _, _ = started()
    red_out(loop, then=4)
    loop.handle(PopSettled(12.0, 2))  # Blue pops 2 and moves the peg back 2
    loop.handle(BoardStable(13.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:8", "home", "home", "home"])))
    assert kinds(loop).count("illegal") == 1


def test_boards_doctests() -> None:
    import doctest

    import companion.live.boards

    result = doctest.testmod(companion.live.boards)
    assert result.attempted >= 4 and result.failed == 0


def test_a_bumped_peg_seen_over_another_hole_on_its_way_home_is_no_illegal_move() -> None:
    # Seen in a whole rendered game: Red brought a peg out onto its Start,
    # bumping Yellow; the yellow peg, carried Home, was read for a moment on
    # Yellow's Finish 3. The bump is played; the peg is on its way.
    loop, speaker, _ = started()
    red_out(loop, then=5)
    loop.handle(PopSettled(12.0, 3))  # Blue: 10 -> 13
    loop.handle(BoardStable(13.0, board(red=["track:6", "home", "home", "home"],
                                        blue=["track:13", "home", "home", "home"])))
    loop.handle(PopSettled(14.0, 6))  # Red moves 6 -> 12 with the 6
    loop.handle(BoardStable(15.0, board(red=["track:12", "home", "home", "home"],
                                        blue=["track:13", "home", "home", "home"])))
    assert loop.referee.player == "red"  # the extra pop
    loop.handle(PopSettled(16.0, 1))  # Red 12 -> 13, bumping Blue
    loop.handle(BoardStable(17.0, board(red=["track:13", "home", "home", "home"],
                                        blue=["finish:3", "home", "home", "home"])))  # blue carried
    assert "illegal" not in kinds(loop)
    assert [e["event"] for _, e in loop.events[-3:]] == ["move", "bump", "turn"]
    loop.handle(BoardStable(18.0, board(red=["track:13", "home", "home", "home"],
                                        blue=["finish:3", "home", "home", "home"])))  # still carried
    assert "illegal" not in kinds(loop)
    loop.handle(BoardStable(19.0, board(red=["track:13", "home", "home", "home"])))  # home at last
    assert "illegal" not in kinds(loop)
    assert loop.referee.position["blue"] == ["home"] * 4


def test_ways_to_one_game_that_leave_different_pops_held_are_told_apart_by_the_pops_left() -> None:
    # Seen in a whole rendered game: Yellow's unread pop was a 6 its pegs
    # could not use, and the 6 and 5 after it were Yellow's extra pops; the
    # loop took the unread pop for a 3 and gave Yellow's 6 to Green. Both
    # histories reach Green's move 14 -> 20, but leave different pops held:
    # the wrong one leaves Green's 5 (its extra pop) and then a 6, with the
    # 5's move never made, which does not fit the board seen after them.
    state = new_game(["red", "blue"], pegs={"red": ["track:27", "finish:2", "finish:3", "finish:4"],
                                            "blue": ["track:14"]}, turn="red")
    seen = {"red": ["track:27", "finish:2", "finish:3", "finish:4"], "blue": ["home", "home", "home", "track:20"]}
    way = only_way(state, [None, 6, 5, 6], seen)
    assert way is not None and sum(s.pop is not None for s in way) == 4
    assert way[0].pop == 6 and way[0].unread and way[0].move is None
    # With the unread pop read, there is one way too, the same.
    known = only_way(state, [6, 6, 5, 6], seen)
    assert known is not None and [s.move for s in known] == [s.move for s in way]


def test_a_peg_misread_in_home_beside_a_finish_move_of_its_colour_is_still_only_misread() -> None:
    # Seen in a whole rendered game: Blue's unread pop moved its peg on 9
    # (read in Blue's Home from then on); later Blue moved Finish 2 -> 3. The
    # gone 9 and the new Finish 3 are not one peg moved forward: Finish 3 is
    # the way's own move from Finish 2.
    from companion.live.catch_up import pegs_misread_home

    state = new_game(["red", "blue"], pegs={"red": ["track:5"], "blue": ["track:9", "finish:2"]}, turn="blue")
    seen = {"red": ["home", "home", "home", "track:8"], "blue": ["home", "home", "home", "finish:3"]}
    assert pegs_misread_home(state, [None, 3, 1], seen) == {"blue": 1}


def test_an_unread_pop_that_may_have_been_a_lost_six_waits_for_the_next_move() -> None:
    # Seen in a whole rendered game: Blue's unread pop was a 6 no blue peg
    # could use (an extra pop), and Blue's next pop, a 1, moved 4 -> 5. "The
    # move means Blue popped a 1" gave Blue's extra pop to Red, and Red's next
    # move was called wrong. Both fit the board; Red's move tells which.
    from test_live_loop import ListSpeaker

    from companion.referee import Referee

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    pegs = {"red": ["track:20", "finish:3", "finish:4"], "blue": ["track:4", "finish:2", "finish:3", "finish:4"]}
    loop.start([["red"], ["blue"]], None, "blue", pegs)
    start = {"red": ["home", "track:20", "finish:3", "finish:4"], "blue": pegs["blue"]}
    loop.handle(BoardStable(1.0, start))
    loop.handle(PopUnread(2.0))  # Blue: a 6, blocked (Finish 3 is taken), so Blue pops again
    loop.handle(PopSettled(4.0, 1))  # Blue
    loop.handle(BoardStable(6.0, {**start, "blue": ["track:5", "finish:2", "finish:3", "finish:4"]}))
    assert not any(text.startswith("That move means") for text in said(speaker))
    loop.handle(PopSettled(8.0, 5))  # Red
    loop.handle(BoardStable(10.0, {"red": ["home", "track:25", "finish:3", "finish:4"],
                                   "blue": ["track:5", "finish:2", "finish:3", "finish:4"]}))
    assert "illegal" not in kinds(loop)
    assert "That move means Blue popped a 6." in said(speaker)
    assert "Red moves 5 from space 20 to space 25." in said(speaker)
    assert loop.referee.player == "blue"


def _blue_one_peg_from_the_win() -> tuple[Loop, ListSpeaker, dict[str, list[str]]]:
    """A red/blue game near its end, Blue to pop: Blue's last peg on space 6
    (a 2 takes it into Finish 1; Finish 2-4 are taken), Red's one peg on 20.
    Returns the loop, its speaker and the board as it stands."""
    from companion.referee import Referee

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    pegs = {"red": ["track:20"], "blue": ["track:6", "finish:2", "finish:3", "finish:4"]}
    loop.start([["red"], ["blue"]], None, "blue", pegs)
    start = {"red": ["home", "home", "home", "track:20"], "blue": pegs["blue"]}
    loop.handle(BoardStable(1.0, start))
    return loop, speaker, start


def test_an_unread_lost_six_before_the_winning_move_is_worked_out_at_once() -> None:
    # Fresh whole games 308, 381 and 391 at 640x480: Blue's blocked 6 unread,
    # its extra pop of 2 read, and Blue's winning move seen. Blue's 2 made
    # the move too, but then the 2 read after it could not come (the game was
    # over), so the lost 6 is the only history; the loop waited for a next
    # move that never came, and the winner was never announced.
    loop, speaker, start = _blue_one_peg_from_the_win()
    loop.handle(PopUnread(2.0))  # Blue: a 6, blocked (6 -> 7 -> Finish 1-4 is five), so Blue pops again
    loop.handle(PopSettled(4.0, 2))  # Blue
    loop.handle(BoardStable(6.0, {**start, "blue": ["finish:1", "finish:2", "finish:3", "finish:4"]}))
    assert "illegal" not in kinds(loop)
    assert "That move means Blue popped a 6." in said(speaker)
    assert "Blue moves 2 from space 6 to Finish 1." in said(speaker)
    assert kinds(loop)[-1] == "game-over" and loop.stage == "over"


def test_pops_held_after_a_move_tell_whether_the_unread_pop_was_a_lost_six() -> None:
    # Seen in whole rendered game seed 10 at 1280x720: Red's 6 (no red peg
    # could use it) was unread, its extra pop of 2 read, and Red's move
    # 26 -> 28 seen only after Blue's pop (unread, lost: Blue has no peg out)
    # and Yellow's 2. "That move means Red popped a 2" gave Red's 2 to Blue
    # and Yellow's unread pop... and Yellow's next move was called wrong.
    # Only the lost 6 leaves pops that fit the board: Blue's lost, Yellow's
    # waiting for its move.
    from test_live_loop import ListSpeaker

    from companion.referee import Referee

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    pegs = {"red": ["track:26", "finish:2", "finish:3", "finish:4"],
            "blue": ["finish:2", "finish:4"],
            "yellow": ["track:4", "finish:2", "finish:3", "finish:4"]}
    loop.start([["red"], ["blue"], ["yellow"]], None, "red", pegs)
    start = {"red": pegs["red"], "blue": ["home", "home", "finish:2", "finish:4"], "yellow": pegs["yellow"]}
    loop.handle(BoardStable(1.0, start))
    loop.handle(PopUnread(2.0))  # Red: a 6, blocked (Finish 2 is taken), so Red pops again
    loop.handle(PopSettled(4.0, 2))  # Red
    loop.handle(PopUnread(8.0))  # Blue: a 3, no peg out
    loop.handle(PopSettled(10.0, 2))  # Yellow
    moved = {**start, "red": ["track:28", "finish:2", "finish:3", "finish:4"]}
    loop.handle(BoardStable(11.0, moved))
    assert "That move means Red popped a 6." in said(speaker)
    assert "Red moves 2 from space 26 to space 28." in said(speaker)
    assert loop.referee.player == "blue"  # Blue's unread pop waits for the next board
    loop.handle(BoardStable(13.0, {**moved, "yellow": ["track:6", "finish:2", "finish:3", "finish:4"]}))
    assert "illegal" not in kinds(loop)
    assert "Yellow moves 2 from space 4 to space 6." in said(speaker)
    assert loop.referee.player == "red"


def four(pegs: dict[str, list[str]], colours: tuple[str, ...]) -> dict[str, list[str]]:
    """*pegs* with each colour's other pegs in its Home."""
    return {c: sorted(pegs.get(c, []) + ["home"] * (4 - len(pegs.get(c, [])))) for c in colours}


def test_a_guess_about_an_unread_pop_that_a_later_board_contradicts_is_not_called() -> None:
    # Seen in the truth benchmark with unread pops (seed 14): Green's unread
    # pop (a 2, moving 15 -> 17 unseen) and four pops after it (Red's 5,
    # Blue's 3, Yellow's 2, Green's 2: 17 -> 19). One board showed Green on
    # 19, and "That move means Green popped a 4" gave the four pops to the
    # turns after. Red popped 5 and Blue brought a peg out on a 6 the camera
    # never saw: "Not Blue's turn: it is Green's turn". The history from
    # before the guess explains that board (Blue's 6 unseen), so the loop
    # followed it (lost track). Since session 32 the loop does not guess the
    # 4: the pops held make that board too, used up (Green's 2, three lost
    # pops, Green's 2), so it asks; Blue's peg out then leaves that history
    # alone (the 4 would have left Red's 5 to the next turn), which is
    # played, and Blue is asked for the pop nobody saw.
    from test_live_loop import ListSpeaker

    from companion.referee import Referee

    colours = ("red", "blue", "yellow", "green")
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    pegs = {"red": ["finish:4"], "blue": ["finish:4"], "green": ["finish:3", "track:15"]}
    loop.start([[c] for c in colours], None, "green", pegs)
    loop.handle(BoardStable(1.0, four(pegs, colours)))
    loop.handle(PopUnread(2.0))
    for t, value in ((4.0, 5), (6.0, 3), (8.0, 2), (10.0, 2)):
        loop.handle(PopSettled(t, value))
    on_19 = {**pegs, "green": ["finish:3", "track:19"]}
    loop.handle(BoardStable(12.0, four(on_19, colours)))
    loop.handle(PopSettled(14.0, 5))
    loop.handle(BoardStable(18.0, four({**on_19, "blue": ["finish:4", "track:8"]}, colours)))
    assert "illegal" not in kinds(loop)
    lines = said(speaker)
    assert "That move means Green popped a 4." not in lines
    assert "That move means Green popped a 2." in lines and "Green moves 2 from space 17 to space 19." in lines
    assert lines[-1] == "I did not see Blue's pop. Blue, say the number you popped, or pop now."
    assert loop.lost is None


def test_the_next_players_move_with_no_pop_seen_after_a_pop_that_could_be_lost_is_not_called() -> None:
    # Green (no peg out) must pop, and the camera sees no pop at all; then
    # Red's peg is seen moved. Green may have popped a number it could not
    # use and Red then popped and moved, both pops hidden by hands: no call.
    from test_live_loop import ListSpeaker

    from companion.referee import Referee

    colours = ("red", "blue", "green")
    loop = Loop(Referee, ListSpeaker(), settings=AT_ONCE)
    pegs = {"red": ["track:5"], "blue": ["track:12"]}
    loop.start([[c] for c in colours], None, "green", pegs)
    loop.handle(BoardStable(1.0, four(pegs, colours)))
    loop.handle(BoardStable(9.0, four({**pegs, "red": ["track:8"]}, colours)))
    assert "illegal" not in kinds(loop)
    # With Green able to use every number (a peg out), Red's move is out of turn.
    loop = Loop(Referee, ListSpeaker(), settings=AT_ONCE)
    pegs = {"red": ["track:5"], "blue": ["track:12"], "green": ["track:25"]}
    loop.start([[c] for c in colours], None, "green", pegs)
    loop.handle(BoardStable(1.0, four(pegs, colours)))
    loop.handle(BoardStable(9.0, four({**pegs, "red": ["track:8"]}, colours)))
    assert "illegal" in kinds(loop)


def test_an_unread_pop_no_peg_used_is_not_given_a_made_up_value_in_a_catch_up() -> None:
    # A whole rendered game (seed 15 at 1280x720): Red's unread pop was a 5
    # (4 and 5 both blocked), Blue's unread pop lost too, then Red's 1 moved
    # 26 -> 27. "That move means Red popped a 4" named a value nobody saw.
    from test_live_loop import ListSpeaker

    from companion.referee import Referee

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    pegs = {"red": ["track:26", "finish:2", "finish:3", "finish:4"], "blue": ["finish:1", "finish:4"]}
    loop.start([["red"], ["blue"]], None, "red", pegs)
    start = {"red": pegs["red"], "blue": ["home", "home", "finish:1", "finish:4"]}
    moved = {**start, "red": ["track:27", "finish:2", "finish:3", "finish:4"]}
    loop.handle(BoardStable(1.0, start))
    loop.handle(PopUnread(2.0))
    loop.handle(BoardStable(2.5, start))
    loop.handle(Tick(3.5))
    loop.handle(PopUnread(4.0))
    loop.handle(BoardStable(4.5, start))
    loop.handle(Tick(5.5))
    loop.handle(PopSettled(6.0, 1))
    loop.handle(BoardStable(6.5, start))
    loop.handle(BoardStable(8.0, moved))
    loop.handle(PopSettled(10.0, 1))  # Blue's
    loop.handle(BoardStable(10.5, moved))
    assert not any(line.startswith("That move means") for line in said(speaker))
    assert [(e["event"], e.get("color"), e.get("value")) for _, e in loop.events[-8:]] == [
        ("skip", "red", None), ("turn", "blue", None), ("skip", "blue", None), ("turn", "red", None),
        ("pop", "red", 1), ("move", "red", 1), ("turn", "blue", None), ("pop", "blue", 1),
    ]


LOST = "I have lost track of the moves. I will go by the board from here."


def red_moved_three_on_a_two(loop: Loop, pause: float = 0.0) -> None:
    """Red brings a peg out on a 6, then moves it 3 on a 2 (a wrong count);
    the 2 comes 1 s after the board of the 6's move, plus *pause*."""
    loop.handle(PopSettled(8.0, 6))
    loop.handle(BoardStable(9.0, board(red=["track:1", "home", "home", "home"],
                                       blue=["track:10", "home", "home", "home"])))
    loop.handle(PopSettled(10.0 + pause, 2))
    loop.handle(BoardStable(11.0 + pause, board(red=["track:4", "home", "home", "home"],
                                                blue=["track:10", "home", "home", "home"])))


def test_a_call_the_table_plays_on_from_with_no_pop_seen_is_not_called_again() -> None:
    # The wrong count is called. The table plays on with no pop the camera
    # sees, to another board no move explains. Calling that too (and the
    # next, and the next) is what a whole rendered game in a dim room did 55
    # times.
    loop, speaker, _ = started()
    red_moved_three_on_a_two(loop)
    assert kinds(loop).count("illegal") == 1
    loop.handle(BoardStable(20.0, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:12", "home", "home", "home"])))
    assert kinds(loop).count("illegal") == 1
    assert said(speaker).count(LOST) == 1


def test_when_the_camera_reads_no_pops_a_board_no_move_explains_is_followed_not_called() -> None:
    loop, speaker, _ = started()
    red_moved_three_on_a_two(loop)
    assert kinds(loop).count("illegal") == 1  # the camera has read its pops: called
    loop, speaker, _ = started()
    loop.pops_read.clear()
    loop.pops_read.extend([False] * 6)  # the last pops seen, none read (a dim room)
    # Its two pops read (still six of the last eight unread), the 2 popped
    # long enough after the last board the game explains for another pop to
    # have come between unseen: followed.
    red_moved_three_on_a_two(loop, pause=1.5)
    assert "illegal" not in kinds(loop)
    assert said(speaker).count(LOST) == 1
    # The 2 popped a second after that board: no pop came between, and the
    # wrong count is as plain as in good light (session 48).
    loop, speaker, _ = started()
    loop.pops_read.clear()
    loop.pops_read.extend([False] * 6)
    red_moved_three_on_a_two(loop)
    assert kinds(loop).count("illegal") == 1


def test_lost_track_is_not_said_again_within_two_minutes_nor_back_in_step_after_a_silent_loss() -> None:
    loop, speaker, _ = started()
    loop.lost_said_at = 50.0  # said a moment ago
    loop.handle(Tick(60.0))
    loop._lose_track(board(), board())
    loop.handle(Tick(61.0))
    assert said(speaker).count(LOST) == 0 and loop.lost_said is False
    loop.handle(Tick(171.0))
    loop._lose_track(board(), board())
    loop.handle(Tick(172.0))
    assert said(speaker).count(LOST) == 1 and loop.lost_said is True


def test_judge_doctests() -> None:
    import doctest

    import companion.live.judge

    result = doctest.testmod(companion.live.judge)
    assert result.attempted >= 1 and result.failed == 0


def test_catch_up_doctests() -> None:
    import doctest

    import companion.live.catch_up

    result = doctest.testmod(companion.live.catch_up)
    assert result.attempted >= 3 and result.failed == 0


def test_a_board_far_beyond_the_pops_seen_is_followed_not_called() -> None:
    # Red's turn (Blue's peg on 10). The camera sees Red pop a 2 and then,
    # after a long unreadable stretch, a board where Red's peg is out on 9
    # and Blue's has gone on to 20: 6 + 8 + 10 = 24 pips, with 2 seen. Pops
    # went by unseen: no call can be trusted.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 2))
    loop.handle(BoardStable(20.0, board(red=["track:9", "home", "home", "home"],
                                        blue=["track:20", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert said(speaker).count(LOST) == 1


def test_a_wrong_count_within_a_pop_of_the_pops_seen_is_still_called() -> None:
    loop, _, _ = started()
    loop.handle(PopSettled(8.0, 6))  # Red brings a peg out ...
    loop.handle(BoardStable(9.0, board(red=["track:1", "home", "home", "home"],
                                       blue=["track:10", "home", "home", "home"])))
    loop.handle(PopSettled(10.0, 2))  # ... and moves it 5 on a 2
    loop.handle(BoardStable(11.0, board(red=["track:6", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert kinds(loop)[-1] == "illegal"


def test_a_peg_in_hand_and_another_misread_a_hole_off_is_asked_for_not_called() -> None:
    # Seen in a whole rendered game: Red's peg lifted (read in Home, the hand
    # unseen) while Blue's peg reads a hole on: "the board does not match one
    # move" was called. The finished move shows on the next board.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 6))
    loop.handle(BoardStable(9.0, board(red=["track:1", "home", "home", "home"],
                                       blue=["track:10", "home", "home", "home"])))
    loop.handle(PopSettled(10.0, 4))
    loop.handle(BoardStable(11.0, board(blue=["track:11", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    loop.handle(BoardStable(12.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert [e["event"] for _, e in loop.events[-2:]] == ["move", "turn"]


def test_boards_nudged_by_doctests_cover_both_ways() -> None:
    from companion.live.boards import nudged_back, nudged_by

    assert nudged_by({"red": ["track:10"]}, {"red": ["track:8"]}) == {"red": -2}
    assert nudged_by({"red": ["track:11"]}, {"red": ["track:8"]}) == {}
    assert nudged_back({"red": ["track:10"]}, {"red": ["track:8"]}) == {}


def test_not_your_turn_after_a_turn_passed_on_a_guess_is_followed_not_called() -> None:
    # Red moved to 5; Blue's turn, Blue pops 3. A red peg moving 5 -> 8 is
    # "not your turn" - called when the turn is known ...
    out_of_turn = board(red=["track:8", "home", "home", "home"], blue=["track:10", "home", "home", "home"])
    loop, _, _ = started()
    red_out(loop, then=4)
    loop.handle(PopSettled(12.0, 3))
    loop.handle(BoardStable(13.0, out_of_turn))
    assert kinds(loop)[-1] == "illegal"
    # ... but not when the turn passed on a guess (an unread pop taken for
    # one no peg could use): that guess is the likelier mistake.
    loop, speaker, _ = started()
    red_out(loop, then=4)
    loop.turn_guessed = True
    loop.handle(PopSettled(12.0, 3))
    loop.handle(BoardStable(13.0, out_of_turn))
    assert "illegal" not in kinds(loop)[-3:]
    assert said(speaker).count(LOST) == 1


def test_a_move_with_no_pop_seen_then_an_unread_pop_then_a_board_beyond_is_followed() -> None:
    # Whole rendered game: Blue's 6 never seen (its move asked about), Blue's
    # extra pop seen but not read, then Blue's second move: "pop first, then
    # move" was called. Two pops without values: follow the board.
    loop, speaker, _ = started()
    red_out(loop, then=4)  # Blue's turn; Blue's peg on 10
    loop.handle(BoardStable(14.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:16", "home", "home", "home"])))
    assert any("I did not see Blue's pop" in line for line in said(speaker))
    loop.handle(PopUnread(15.0))
    loop.handle(BoardStable(18.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:20", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    assert said(speaker).count(LOST) == 1


def test_a_peg_seen_far_from_any_count_is_judged_only_if_it_stays_there() -> None:
    # Red pops a 3 for its peg on its Start; the peg is read in Red's Finish
    # (carried over it in the hand) before it comes down on 4. No miscount
    # puts it there: the loop waits, and the move is taken, nothing called.
    loop, speaker, _ = started()
    red_out(loop)
    loop.handle(PopSettled(10.0, 3))
    n = len(loop.events)
    loop.handle(BoardStable(11.0, board(red=["finish:2", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    loop.handle(Tick(12.0))
    loop.handle(Tick(13.5))
    assert events_after(loop, n) == []
    loop.handle(BoardStable(13.8, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert events_after(loop, n) == [("move", 3), ("turn", None)]
    assert not any("lost track" in text for text in said(speaker))
    # Left there, it is judged once the hold is over: far more pips than the
    # pops seen, so pops the camera missed (lost track, followed), not a call.
    loop, speaker, _ = started()
    red_out(loop)
    loop.handle(PopSettled(10.0, 3))
    loop.handle(BoardStable(11.0, board(red=["finish:2", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    loop.handle(Tick(13.0))
    assert not any("lost track" in text for text in said(speaker))
    loop.handle(Tick(14.0))
    assert any("lost track" in text for text in said(speaker)) and "illegal" not in kinds(loop)


def test_a_miscount_is_still_called_at_once() -> None:
    loop, _, _ = started()
    red_out(loop)
    loop.handle(PopSettled(10.0, 3))
    loop.handle(BoardStable(11.0, board(red=["track:5", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert kinds(loop)[-1] == "illegal"


def test_a_peg_placed_from_a_board_when_back_in_step_is_not_called_when_it_turns_up_elsewhere() -> None:
    # The loop lost track and got back in step from a board that showed Blue's
    # peg on 14 (a misread: it was on 12). When the peg is then read on 12,
    # that is the misread ending, not a move to call.
    loop, speaker, _ = started()
    red_out(loop, then=3)
    loop.handle(PopSettled(12.0, 2))
    wrong = board(red=["track:4", "home", "home", "home"], blue=["track:15", "home", "home", "home"])
    loop.adopted = {("blue", "track:10")}
    loop.handle(BoardStable(13.0, wrong))
    assert "illegal" not in kinds(loop)
    assert any("lost track" in text for text in said(speaker))
    # Seen where a move the loop saw put it, the same board is a wrong count.
    loop, _, _ = started()
    red_out(loop, then=3)
    loop.handle(PopSettled(12.0, 2))
    loop.handle(BoardStable(13.0, wrong))
    assert kinds(loop)[-1] == "illegal"


def test_a_peg_placed_when_back_in_step_stops_being_one_once_the_game_moves_it() -> None:
    # Red's peg on its Start was placed when the loop got back in step; Red
    # then moved it on (the board agreed). A new red peg brought out onto the
    # same Start is not that peg: its wrong count is called, not followed as
    # "lost track" (truth benchmark seed 704).
    loop, speaker, _ = started()
    red_out(loop)
    loop.adopted = {("red", "track:1")}
    loop.handle(PopSettled(10.0, 3))
    loop.handle(BoardStable(11.0, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert loop.adopted == set()
    loop.handle(PopSettled(12.0, 2))
    loop.handle(BoardStable(13.0, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:12", "home", "home", "home"])))
    loop.handle(PopSettled(14.0, 6))
    loop.handle(BoardStable(15.0, board(red=["track:4", "track:1", "home", "home"],
                                        blue=["track:12", "home", "home", "home"])))
    loop.handle(PopSettled(16.0, 4))
    loop.handle(BoardStable(17.0, board(red=["track:4", "track:6", "home", "home"],
                                        blue=["track:12", "home", "home", "home"])))
    assert kinds(loop)[-1] == "illegal"
    assert not any("lost track" in text for text in said(speaker))


def _red_again_after_two_lost_pops(t: float) -> Loop:
    """Blue and Green (no peg out) must pop before Red; the camera sees no
    pop at all (a die too small to see tumble); Red's peg is then seen
    moved, at *t*."""
    from test_live_loop import ListSpeaker

    from companion.referee import Referee

    colours = ("red", "blue", "green")
    loop = Loop(Referee, ListSpeaker(), settings=AT_ONCE)
    pegs = {"red": ["track:5"]}
    loop.start([[c] for c in colours], None, "blue", pegs)
    loop.handle(BoardStable(1.0, four(pegs, colours)))
    loop.handle(BoardStable(1.5, four(pegs, colours)))  # the game agrees with the board
    loop.handle(BoardStable(t, four({"red": ["track:9"]}, colours)))
    return loop


def test_a_move_after_two_lost_pops_nobody_saw_is_not_called_when_there_was_time_for_them() -> None:
    # A fresh whole rendered game at 640x480: Blue's and Yellow's lost pops
    # and Red's 4 were never seen, and "Not Red's turn" was called. Three
    # pops take UNSEEN_POP_S each at the least.
    loop = _red_again_after_two_lost_pops(1.5 + 3 * UNSEEN_POP_S + 0.5)
    assert "illegal" not in kinds(loop)


def test_a_move_two_players_early_with_no_time_for_their_pops_is_called_out_of_turn() -> None:
    loop = _red_again_after_two_lost_pops(1.5 + 3 * UNSEEN_POP_S - 0.5)
    assert "illegal" in kinds(loop)


def _two_players_advanced_at(t: float) -> tuple[Loop, list[str]]:
    """Red's turn: Red pops a 6 (out), a 3 (on to 4) and, after a Blue pop
    the camera never saw (Blue 10 -> 12), a 1 (on to 5); the first board
    read whole since shows both players' pegs advanced, at *t*."""
    loop, speaker, _ = started()
    pops = [PopSettled(8.0, 6), PopSettled(10.0, 3), PopSettled(14.0, 1)]
    for obs in [*pops, BoardStable(t, board(red=["track:5", "home", "home", "home"],
                                            blue=["track:12", "home", "home", "home"]))]:
        loop.handle(obs)
    return loop, said(speaker)


def test_two_players_advanced_after_a_long_blind_stretch_with_a_pop_unseen_are_followed_not_called() -> None:
    # No one move, right or wrong, advances two players' pegs (a bump only
    # sends a peg Home): with a pop the camera never saw explaining the
    # board, "put the pegs back" would undo the table's moves (a whole
    # rendered game at 640x480 under a glint).
    loop, lines = _two_players_advanced_at(7.0 + SEVERAL_UNSEEN_S + 1.0)
    assert "illegal" not in kinds(loop)
    assert lines[-1] == "I have lost track of the moves. I will go by the board from here."


def test_two_players_advanced_soon_after_the_last_board_are_still_called() -> None:
    # (So is a wrong count among them: within a long blind stretch, one
    # that a pop nobody saw would explain is the price of the rule above.)
    loop, lines = _two_players_advanced_at(7.0 + SEVERAL_UNSEEN_S - 1.0)
    assert "illegal" in kinds(loop)
    assert any(line.startswith("The board does not match one move") for line in lines)


def test_a_move_seen_after_pops_that_left_the_board_as_it_was_is_not_the_unread_pops() -> None:
    # Fresh whole rendered game 300 at 640x480: Red's 4 unread (4, 5 and a 6
    # were all lost for Red: a lost 6 would have given Red the next pop),
    # then Blue's 4, Red's 6, 6 and 2, the board seen as it was after each,
    # then Red's move 26 -> 28. "That move means Red popped a 2" gave the
    # move to the unread pop and lost Red's 2. The board standing after
    # later pops says the unread pop moved nothing: the 2 moved.
    from test_live_loop import ListSpeaker

    from companion.referee import Referee

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    pegs = {"red": ["track:26", "finish:2", "finish:3", "finish:4"], "blue": ["home"] * 4}
    loop.start([["red"], ["blue"]], None, "red", pegs)
    loop.handle(BoardStable(1.0, pegs))
    loop.handle(PopUnread(2.0))
    t = 3.0
    for value in (4, 6, 6, 2):  # Blue's 4 (lost), Red's 6, 6 (lost: pop again) and 2
        loop.handle(BoardStable(t, pegs))
        loop.handle(PopSettled(t + 1.0, value))
        t += 2.0
    loop.handle(BoardStable(t, pegs))
    loop.handle(BoardStable(t + 2.0, {**pegs, "red": ["track:28", "finish:2", "finish:3", "finish:4"]}))
    assert "illegal" not in kinds(loop)
    assert not any(text.startswith("That move means") for text in said(speaker))
    assert "No peg moved after Red's pop." in said(speaker)
    last_move = [e for _, e in loop.events if e["event"] == "move"][-1]
    assert (last_move["color"], last_move["value"], last_move["to"]) == ("red", 2, "track:28")
    assert loop.referee.player == "blue"


def _opening_after(ready_at: float) -> tuple[Loop, ListSpeaker]:
    """Red and Blue, Red first. The loop looks from t=0; Red pops unseen,
    Blue's 4 is seen at ``ready_at - 2.4`` (the die unread until then: a
    small dark board), the opening position is read at *ready_at*, then a
    6 and a red peg brought out onto Red's Start."""
    from companion.referee import Referee

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    loop.start([["red"], ["blue"]], first="red")
    for obs in [Tick(0.0), PopSettled(ready_at - 2.4, 4, 1.0, ready_at - 2.4), BoardStable(ready_at, board()),
                PopSettled(ready_at + 1.0, 6),
                BoardStable(ready_at + 3.0, board(red=["track:1", "home", "home", "home"]))]:
        loop.handle(obs)
    return loop, speaker


def test_pops_made_long_before_the_board_was_read_do_not_set_the_turns() -> None:
    # Fresh whole rendered game seed 353 at 640x480: a small dark board read
    # only after 11 s; of four pops made meanwhile the camera saw one, given
    # to the first player, and every turn after it was one player out
    # ("Not Yellow's turn"). How many pops went unseen is unknown: the loop
    # learns the turn from the first move it can follow.
    loop, speaker = _opening_after(11.2)
    assert "illegal" not in kinds(loop)
    lines = said(speaker)
    assert any("learn whose turn it is" in line for line in lines)
    assert "Red brings a peg out onto Red's Start." in lines


@pytest.mark.parametrize(("blind_s", "lost", "counted"), [(1.0, False, True), (1.0, True, False),
                                                         (5.0, False, False)])
def test_pops_before_a_late_board_count_when_the_die_was_watched_all_along(
        blind_s: float, lost: bool, counted: bool) -> None:
    # Fresh whole games 799 and 839 at 640x480 (sessions 41-42): the board
    # first read whole 6.3-6.5 s in, after pops the camera saw and read with
    # the die in view all along; the loop said it would learn the turn from
    # the next move, and the first events were peg corrections. Such pops
    # are all there were: played as lost pops, the turn passes. Not when the
    # board was lost meanwhile, nor when the die went unread long before a pop.
    from companion.referee import Referee

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    loop.start([["red"], ["blue"]], first="red")
    for obs in [Tick(0.0), *([BoardLost(0.5), BoardFound(1.5)] if lost else []),
                PopSettled(5.6, 4, 1.0, blind_s), BoardStable(8.0, board())]:
        loop.handle(obs)
    lines = said(speaker)
    assert any("learn whose turn it is" in line for line in lines) is not counted
    if counted:
        assert lines[-3:] == ["Red popped 4.", "Red needs a 6 to bring a peg out: the move is lost.",
                              "Blue's turn."]
        assert loop.referee.player == "blue" and loop.referee.phase == "pop"


def test_a_pop_held_just_before_a_board_read_soon_is_the_first_players() -> None:
    loop, speaker = _opening_after(3.0)
    lines = said(speaker)
    assert not any("learn whose turn it is" in line for line in lines)
    assert "Red popped 4." in lines


def test_a_pop_after_an_unread_one_waits_while_the_players_peg_is_in_the_hand() -> None:
    # Fresh whole rendered game seed 358 at 640x480: Red's 6 unread, a red
    # peg lifted out of Home and seen nowhere, and Red's extra pop settled
    # before the peg was set down. "No peg moved after Red's pop" gave the
    # extra pop to Blue, and the loop lost track when the peg landed on 4.
    loop, speaker, _ = started()  # Red's turn
    n = len(said(speaker))
    for obs in [PopUnread(8.0), BoardStable(9.0, board(red=["home", "home", "home"],
                                                       blue=["track:10", "home", "home", "home"])),
                PopSettled(11.0, 3),
                BoardStable(13.0, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"]))]:
        loop.handle(obs)
    lines = said(speaker)[n:]
    assert "No peg moved after Red's pop." not in lines
    assert "illegal" not in kinds(loop)
    assert "That move means Red popped a 6." in lines
    assert "Red moves 3 from Red's Start to space 4." in lines


def test_a_pop_after_an_unread_one_with_every_peg_seen_still_passes_the_turn() -> None:
    loop, speaker, _ = started()  # Red's turn; every red peg in Home
    n = len(said(speaker))
    for obs in [PopUnread(8.0), BoardStable(9.0, board(blue=["track:10", "home", "home", "home"])),
                PopSettled(11.0, 3)]:
        loop.handle(obs)
    assert "No peg moved after Red's pop." in said(speaker)[n:]


@pytest.mark.parametrize("seen_after", [0.5, MOVE_SET_DOWN_S - 0.5, MOVE_SET_DOWN_S + 0.5])
def test_a_pop_after_an_unread_one_waits_while_the_board_changes_after_a_board_seen_too_soon(
        seen_after: float) -> None:
    # Fresh whole rendered game seed 561 at 640x480 (session 33): Red's 6
    # unread, the board seen unchanged 0.5 s later, then hands over it while
    # Red brought a peg out and popped a 3 (read). "No peg moved after Red's
    # pop" gave the 3 to Blue, and the loop lost track when the board showed
    # Red's two moves. A board seen long enough after the pop to show a move
    # (the control) still passes the turn as before. (1.5 s: session 51's
    # second ``MOVE_AFTER_POP_S``, 1 s, had silently replaced this 2 s one,
    # and this test's control with it; found in session 52.)
    loop, speaker, _ = started()  # Red's turn; every red peg in Home
    n = len(said(speaker))
    blue_on = board(blue=["track:10", "home", "home", "home"])
    for obs in [PopUnread(8.0), BoardStable(8.0 + seen_after, blue_on), BoardUnsettled(8.5 + seen_after),
                PopSettled(12.0, 3),
                BoardStable(14.0, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"]))]:
        loop.handle(obs)
    lines = said(speaker)[n:]
    assert "illegal" not in kinds(loop)
    if seen_after < MOVE_SET_DOWN_S:
        assert "No peg moved after Red's pop." not in lines
        assert lines[-7:-1] == ["That move means Red popped a 6.", "Red brings a peg out onto Red's Start.",
                                "Red popped a 6: pop again.", "Red popped 3.",
                                "Red moves 3 from Red's Start to space 4.", "Blue's turn."]
    else:
        assert "No peg moved after Red's pop." in lines and "Blue popped 3." in lines


def test_a_held_pop_repeating_the_pop_before_it_is_taken_back_when_only_then_the_board_fits() -> None:
    # Fresh whole rendered game seed 369 at 640x480: Red's 3 read again 2.8 s
    # later while Red's hand moved the peg; held with Blue's 5, and Red's
    # move of 3 and Blue's of 5, seen at once, were called "The board does
    # not match one move".
    loop, speaker, _ = started()
    red_out(loop)  # Red's 6 brings a peg out: Red pops again
    n = len(said(speaker))
    for obs in [PopSettled(10.0, 3), PopSettled(12.8, 3), PopSettled(14.5, 5),
                BoardStable(17.0, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:15", "home", "home", "home"]))]:
        loop.handle(obs)
    lines = said(speaker)[n:]
    assert "illegal" not in kinds(loop)
    assert "I read the 3 twice: that was no pop." in lines
    assert "Blue moves 5 from space 10 to Yellow's Start." in lines


def test_a_repeated_value_the_board_fits_as_read_is_a_pop() -> None:
    # Red's 3, then Blue's 3 (a real pop of the same value), both moved.
    loop, speaker, _ = started()
    red_out(loop)
    for obs in [PopSettled(10.0, 3), PopSettled(12.8, 3),
                BoardStable(17.0, board(red=["track:4", "home", "home", "home"],
                                        blue=["track:13", "home", "home", "home"]))]:
        loop.handle(obs)
    assert "illegal" not in kinds(loop)
    assert not any("twice" in line for line in said(speaker))
    assert "Blue moves 3 from space 10 to space 13." in said(speaker)


def test_judging_a_board_that_comes_back_to_the_same_game_stops() -> None:
    # Truth game seed 147 at three tenths of pops unread: a pop settled as
    # lost, the settling taken back on the same board, settled again, without
    # end (a RecursionError ended the run). The same game, pops and board
    # judged twice within one observation now waits for the next.
    from companion.bench.referee import _players, _truth_game
    from companion.live.scripted import MESSY_KINDS

    verdict, *_ = _truth_game(147, _players(147, 0), 0.25, 0.3, MESSY_KINDS)
    assert verdict.false_illegal == 0


def test_following_the_board_for_a_minute_says_once_how_to_tell_the_turn() -> None:
    # Fresh seeds 345 and 353 at 640x480: an opening read late was followed
    # from the board for 71 s and seven minutes in silence.
    help_line = "I am still working out whose turn it is from the board."
    loop, speaker = _blind_opening_only()
    for t in (30.0, 72.0, 100.0, 200.0):
        loop.handle(Tick(t))
    assert sum(line.startswith(help_line) for line in said(speaker)) == 1
    assert any("referee, it's Red's turn" in line for line in said(speaker))
    # Back in step at the first move it could follow: nothing to help with.
    loop, speaker = _opening_after(11.2)
    for t in (30.0, 72.0, 100.0):
        loop.handle(Tick(t))
    assert not any(line.startswith(help_line) for line in said(speaker))


def test_following_the_board_says_it_again_every_three_minutes_while_the_table_pops() -> None:
    # `--illegal` game 23 at 640x480 (session 46): said at 75 s, then seven
    # minutes of a game played on with nothing else said of it. Again only
    # after pops: an idle table is not nagged.
    from companion.live.loop import FOLLOW_HELP_AGAIN_S

    help_line = "I am still working out whose turn it is from the board."
    loop, speaker = _blind_opening_only()
    loop.handle(Tick(72.0))
    first = 72.0
    loop.handle(Tick(first + FOLLOW_HELP_AGAIN_S + 30.0))
    assert sum(line.startswith(help_line) for line in said(speaker)) == 1  # nobody popped
    loop.handle(PopSettled(first + FOLLOW_HELP_AGAIN_S + 40.0, 3))
    loop.handle(Tick(first + FOLLOW_HELP_AGAIN_S + 41.0))
    assert loop.lost is not None
    assert sum(line.startswith(help_line) for line in said(speaker)) == 2
    loop.handle(PopSettled(first + FOLLOW_HELP_AGAIN_S + 60.0, 2))
    loop.handle(Tick(first + 2 * FOLLOW_HELP_AGAIN_S))
    assert sum(line.startswith(help_line) for line in said(speaker)) == 2  # three minutes from the last


def _blind_opening_only() -> tuple[Loop, ListSpeaker]:
    """An opening read after 11.2 s with a pop seen before it, and no move since."""
    from companion.referee import Referee

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    loop.start([["red"], ["blue"]], first="red")
    for obs in [Tick(0.0), PopSettled(8.8, 4, 1.0, 8.8), BoardStable(11.2, board())]:
        loop.handle(obs)
    return loop, speaker


@pytest.mark.parametrize("board_lost", [True, False])
def test_while_lost_a_change_across_a_stretch_with_no_board_does_not_put_the_loop_back_in_step(
        board_lost: bool) -> None:
    # Truth game 531 at a tenth unread (session 32): lost, then the board
    # unseen for six seconds while Red moved 1 -> 5; then Blue's lost 5, Red's
    # unread 2 and Red's peg on 7. Taken for one move of 6 from the last board
    # seen, Red's extra pop put the turns one out and a board was called.
    # Across such a stretch the change may be several moves: the loop follows
    # from the new board and waits for a move it can place.
    loop, speaker, _ = started()
    lost_on_two_moves(loop)
    loop.handle(PopSettled(20.0, 3))
    if board_lost:
        loop.handle(BoardLost(20.5))
        loop.handle(BoardFound(23.0))
    after = board(red=["track:9", "home", "home", "home"], blue=["track:23", "home", "home", "home"])
    loop.handle(BoardStable(24.0, after))
    if not board_lost:
        assert "Back in step." in said(speaker)
        return
    assert "Back in step." not in said(speaker)
    assert loop.lost is not None and boards.same(loop.lost, after, list(after))
    loop.handle(PopSettled(26.0, 2))
    loop.handle(BoardStable(28.0, board(red=["track:11", "home", "home", "home"],
                                        blue=["track:23", "home", "home", "home"])))  # Red's 2
    assert "Back in step." in said(speaker) and loop.referee.player == "blue"
    assert kinds(loop).count("illegal") == 1  # the one call before the loop lost track


def _lost_then(last: dict[str, list[str]]) -> tuple[Loop, list[str]]:
    """A red/blue game near its end: Red's peg moved 5 on a 3 (called), then
    Red's peg on and Blue's moved 1 seen on one board with one pop (the loop
    loses track); then *last*, with no pop seen since."""
    loop, speaker, start = _blue_one_peg_from_the_win()
    loop.handle(PopSettled(2.0, 4))  # Blue: no move (Finish 2 is taken)
    loop.handle(PopSettled(4.0, 3))  # Red
    loop.handle(BoardStable(6.0, {**start, "red": ["home", "home", "home", "track:25"]}))  # 5 on a 3: called
    loop.handle(PopSettled(8.0, 1))  # Blue
    loop.handle(BoardStable(10.0, {"red": ["home", "home", "home", "track:26"],
                                   "blue": ["track:7", "finish:2", "finish:3", "finish:4"]}))
    assert loop.lost is not None
    loop.handle(BoardStable(16.0, last))
    return loop, said(speaker)


def test_while_lost_the_winning_move_is_announced_with_no_pop_seen() -> None:
    # Fresh whole games 288, 289 and 349 at 640x480: the loop lost track near
    # the end, the last move's pop went unseen (or the board it followed was
    # the win itself), and the winner was never announced: a move followed
    # from the board needed a pop seen since to say whose it was. A move that
    # puts a player's last peg in Finish says that by itself.
    loop, lines = _lost_then({"red": ["home", "home", "home", "track:26"],
                              "blue": ["finish:1", "finish:2", "finish:3", "finish:4"]})
    assert lines[-4:] == ["Back in step.", "Blue moves 1 from space 7 to Finish 1.",
                          "Blue has all its pegs in Finish and wins!", "Game over: Blue wins."]
    assert loop.stage == "over" and kinds(loop).count("illegal") == 1


def test_the_winning_move_on_a_pop_nobody_saw_is_announced() -> None:
    # Fresh whole game 970 at 640x480 (session 47): near the end, pops no
    # peg could use came one after another, most of them unread, held while
    # the loop waited; the winner's last move, on a pop nobody saw, got "I
    # did not see Yellow's pop. Yellow, say the number you popped": no pop
    # comes after a win, and the winner was never announced. Here Blue (a
    # peg on 7, one step from Finish 1; Finish 2-4 taken) pops unread,
    # Yellow's 6 and 4 go unread, pops no peg uses follow, some unread, and
    # Blue's last peg goes into Finish 1.
    from test_live_loop import behind_near_the_end

    loop, speaker, pegs = behind_near_the_end(["track:7", "finish:2", "finish:3", "finish:4"])
    assert loop.held_pops or loop.unread is not None
    loop.handle(BoardStable(20.0, {**pegs, "blue": ["finish:1", "finish:2", "finish:3", "finish:4"]}))
    lines = said(speaker)
    assert lines[-2:] == ["Blue has all its pegs in Finish and wins!", "Game over: Blue wins."]
    assert not any(line.startswith("I did not see") for line in lines)
    assert loop.stage == "over" and "illegal" not in kinds(loop)


def test_a_winning_move_with_nothing_held_still_asks_for_the_pop() -> None:
    # With no pop held or unread, a winning move made with no pop seen may
    # be a move made before popping: asked for, as any such move is.
    loop, speaker, start = _blue_one_peg_from_the_win()
    loop.handle(BoardStable(4.0, {**start, "blue": ["finish:1", "finish:2", "finish:3", "finish:4"]}))
    assert said(speaker)[-1] == "I did not see Blue's pop. Blue, say the number you popped, or pop now."
    assert loop.stage == "game"
    loop.handle(PopSettled(5.0, 2))  # the pop comes: the move and the win follow
    assert said(speaker)[-2:] == ["Blue has all its pegs in Finish and wins!", "Game over: Blue wins."]


def test_a_move_on_a_pop_nobody_saw_that_wins_nothing_still_asks_for_the_pop() -> None:
    loop, speaker, start = _blue_one_peg_from_the_win()
    loop.handle(BoardStable(4.0, {**start, "blue": ["track:7", "finish:2", "finish:3", "finish:4"]}))
    assert said(speaker)[-1] == "I did not see Blue's pop. Blue, say the number you popped, or pop now."
    assert loop.stage == "game"


def test_while_lost_a_move_that_wins_nothing_still_waits_for_a_pop_seen() -> None:
    loop, lines = _lost_then({"red": ["home", "home", "home", "track:26"],
                              "blue": ["track:8", "finish:2", "finish:3", "finish:4"]})
    assert lines[-1] == "I have lost track of the moves. I will go by the board from here."
    assert loop.lost is not None and loop.stage == "game"
