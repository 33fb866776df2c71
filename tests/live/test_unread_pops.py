"""Pops the camera saw settle but could not read (``PopUnread``).

The loop must stay in step with the turns (no false "illegal move" because of
a pop it failed to read), take the value from the move when exactly one value
explains it, ask once when it cannot tell, and still call a move illegal when
no value explains it.
"""

from __future__ import annotations

import pytest
from test_live_loop import (
    AT_ONCE,
    HOME4,
    ListRecorder,
    ListSpeaker,
    behind_near_the_end,
    board,
    events_after,
    kinds,
    said,
    started,
)

from companion.live.loop import DIE_BLIND_SAID, Loop, LoopSettings
from companion.live.observations import (
    BoardFound,
    BoardLost,
    BoardStable,
    BoardUnsettled,
    Observation,
    ObservationError,
    PopReadLate,
    PopSettled,
    PopUnread,
    Spoken,
    Tick,
    from_json,
    to_json,
)
from companion.live.run import with_ticks
from companion.referee import Referee


def test_unread_pop_then_a_move_only_one_value_explains() -> None:
    loop, speaker, recorder = started()
    loop.handle(PopSettled(8.0, 4))  # Red, all in Home: no move; Blue's turn
    n = len(loop.events)
    loop.handle(PopUnread(9.0))
    assert not any("could not read" in t for t in said(speaker))  # not at once: it may be read yet
    loop.handle(Tick(10.6))
    assert "I could not read Blue's pop." in said(speaker)  # still unknown after 1.5 s: said once
    loop.handle(Tick(12.0))
    assert said(speaker).count("I could not read Blue's pop.") == 1
    assert len(loop.events) == n  # nothing fed yet
    loop.handle(BoardStable(13.0, board(blue=["track:14", "home", "home", "home"])))
    assert events_after(loop, n) == [("pop", 4), ("move", 4), ("turn", None)]
    assert "That move means Blue popped a 4." in said(speaker)
    assert not any(t == "Blue popped 4." for t in said(speaker))  # said once, in the loop's words
    assert {"pop": 4} in recorder.inputs


def test_unread_pop_with_no_move_before_the_next_pop_passes_the_turn() -> None:
    # Red (every peg in Home) pops unread and cannot move; Blue pops and moves.
    # Before, the loop missed Red's pop and called Blue's move "not your turn".
    loop, speaker, _ = started()
    n = len(loop.events)
    loop.handle(PopUnread(8.0))
    loop.handle(PopSettled(10.0, 3))
    loop.handle(BoardStable(11.0, board(blue=["track:13", "home", "home", "home"])))
    assert events_after(loop, n) == [
        ("skip", None), ("turn", None), ("pop", 3), ("move", 3), ("turn", None)
    ]
    assert [e["color"] for _, e in loop.events[n:n + 2]] == ["red", "blue"]
    assert "No peg moved after Red's pop." in said(speaker)
    assert "illegal" not in kinds(loop)


def test_two_unread_pops_in_a_row_then_a_move() -> None:
    loop, _, _ = started()
    n = len(loop.events)
    loop.handle(PopUnread(8.0))  # Red: lost whatever it was (1-5), or a 6 ...
    loop.handle(PopUnread(10.0))  # ... no peg moved, so it was 1-5: Blue pops
    loop.handle(BoardStable(11.0, board(blue=["track:12", "home", "home", "home"])))
    assert events_after(loop, n) == [
        ("skip", None), ("turn", None), ("pop", 2), ("move", 2), ("turn", None)
    ]
    assert "illegal" not in kinds(loop)


def test_unread_pop_then_a_six_brought_out_and_the_extra_pop() -> None:
    loop, _, _ = started()
    n = len(loop.events)
    loop.handle(PopUnread(8.0))
    loop.handle(BoardStable(9.0, board(red=["track:1", "home", "home", "home"],
                                       blue=["track:10", "home", "home", "home"])))
    assert events_after(loop, n) == [("pop", 6), ("move", 6), ("extra-pop", None)]
    loop.handle(PopUnread(10.0))
    loop.handle(BoardStable(11.0, board(red=["track:3", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert events_after(loop, n)[3:] == [("pop", 2), ("move", 2), ("turn", None)]


def basic_three() -> tuple[Loop, ListSpeaker, ListRecorder]:
    """Basic play (one peg each), play on: Red on space 27, where a 5 and a 6
    both reach Finish 4 (a peg stops at the last Finish space)."""
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder)
    pegs = {"red": ["track:27"], "blue": ["track:8"], "yellow": ["track:15"]}
    loop.start([["red"], ["blue"], ["yellow"]], {"basic": True, "play_on": True}, "red", pegs)
    loop.handle(BoardStable(1.0, pegs))
    assert loop.referee.phase == "pop" and loop.referee.player == "red"
    return loop, speaker, recorder


def test_unread_pop_then_an_ambiguous_move_asks_once_and_takes_the_spoken_number() -> None:
    loop, speaker, _ = basic_three()
    finished = {"red": ["finish:4"], "blue": ["track:8"], "yellow": ["track:15"]}
    assert loop._pops_explaining(finished) == [5, 6]  # the case this test is about
    n = len(loop.events)
    loop.handle(PopUnread(2.0))
    loop.handle(BoardStable(3.0, finished))
    assert len(loop.events) == n  # never a silent guess between 5 and 6
    asks = [t for t in said(speaker) if "say the number you popped" in t]
    assert asks == ["That move fits a 5 or 6. Red, say the number you popped."]
    # The peg lifted and put back: the same question is not asked again.
    loop.handle(BoardStable(4.0, {"red": [], "blue": ["track:8"], "yellow": ["track:15"]}))
    loop.handle(BoardStable(5.0, finished))
    assert [t for t in said(speaker) if "say the number" in t] == asks
    loop.handle(Spoken(6.0, "pop", {"value": 5}))
    assert events_after(loop, n)[:2] == [("pop", 5), ("move", 5)]
    assert "illegal" not in kinds(loop)
    assert loop.referee.player == "blue"


def test_unread_pop_then_a_spoken_pop() -> None:
    loop, speaker, recorder = started()
    n = len(loop.events)
    loop.handle(PopUnread(8.0))
    loop.handle(Spoken(9.0, "pop", {"value": 6}))
    assert events_after(loop, n) == [("pop", 6)]
    assert recorder.corrections[-1][0] == {"intent": "pop", "value": 6}
    assert not any("Say it again" in t for t in said(speaker))  # nothing contradicts it
    loop.handle(BoardStable(10.0, board(red=["track:1", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert events_after(loop, n) == [("pop", 6), ("move", 6), ("extra-pop", None)]


def test_unread_pop_in_the_who_goes_first_pops_is_asked_for_and_later_pops_wait() -> None:
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker)
    loop.start([["red"], ["blue"]])
    loop.handle(BoardStable(1.0, board()))
    loop.handle(PopUnread(2.0))  # Red's who-goes-first pop, unread
    assert "I could not read Red's pop. Red, say the number you popped." in said(speaker)
    loop.handle(PopSettled(3.0, 5))  # Blue's: held until Red's number is known
    assert kinds(loop) == []
    # A peg moved meanwhile is not called illegal: the loop is behind.
    loop.handle(BoardStable(3.5, board(blue=["track:8", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    loop.handle(BoardStable(3.8, board()))
    loop.handle(Spoken(4.0, "pop", {"value": 3}))
    assert [(e["event"], e.get("color"), e.get("value")) for _, e in loop.events] == [
        ("pop", "red", 3), ("pop", "blue", 5), ("first", "blue", 5), ("turn", "blue", None)
    ]
    assert sum("say the number" in t for t in said(speaker)) == 1


def test_an_illegal_move_after_an_unread_pop_is_still_called() -> None:
    loop, _, _ = started()
    loop.handle(PopSettled(8.0, 4))  # Blue's turn now
    loop.handle(PopUnread(9.0))
    # Red moves a peg out during Blue's turn: no pop value of Blue's explains it.
    loop.handle(BoardStable(10.0, board(red=["track:1", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert kinds(loop)[-1] == "illegal"
    # The referee judges it against Red's own lost pop of 4 (docs/referee.md).
    assert loop.events[-1][1]["reason"] == "needs-six"
    # Put right, then Blue's own move still takes its value from the board.
    loop.handle(BoardStable(11.0, board(blue=["track:10", "home", "home", "home"])))
    loop.handle(BoardStable(12.0, board(blue=["track:15", "home", "home", "home"])))
    assert [(e["event"], e.get("value")) for _, e in loop.events[-3:]] == [
        ("pop", 5), ("move", 5), ("turn", None)
    ]


def test_two_pegs_moved_after_an_unread_pop_is_illegal() -> None:
    loop, _, _ = started()
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopUnread(9.0))
    loop.handle(BoardStable(10.0, board(blue=["track:13", "track:8", "home", "home"])))
    assert kinds(loop)[-1] == "illegal"


def test_the_camera_reporting_an_unread_pop_after_it_was_said_is_not_a_second_pop() -> None:
    loop, _, _ = started()
    loop.handle(Spoken(8.0, "pop", {"value": 6}))
    n = len(loop.events)
    loop.handle(PopUnread(8.5))
    assert len(loop.events) == n and loop.unread is None and loop.held_pops == []


def test_pop_unread_in_observation_files() -> None:
    obs = from_json({"t": 2.5, "pop-unread": True})
    assert obs == PopUnread(2.5)
    assert to_json(obs) == {"t": 2.5, "pop-unread": True}
    # Since session 45 it may say that the camera saw no face on the die.
    faceless = from_json({"t": 2.5, "pop-unread": True, "faceless": True})
    assert faceless == PopUnread(2.5, faceless=True)
    assert to_json(faceless) == {"t": 2.5, "pop-unread": True, "faceless": True}
    with pytest.raises(ObservationError, match="faceless"):
        from_json({"t": 2.5, "pop-unread": True, "faceless": "yes"})
    # Files written before the event existed read as before.
    assert from_json({"t": 1, "pop": 4}) == PopSettled(1.0, 4)
    assert from_json({"t": 1, "board": {"red": HOME4}}) == BoardStable(1.0, {"red": HOME4})


def test_an_early_pop_while_the_unread_pop_is_still_being_moved_is_not_a_lost_turn() -> None:
    # Red (all in Home) pops a 6 the camera cannot read; while Red is still
    # bringing the peg out, Red pops again (2) for the extra pop. At that pop
    # the loop first takes Red's unread pop as lost (no peg moved yet) and
    # the 2 as Blue's; Red's move then shows the 6, and that is taken back.
    loop, _, _ = started()
    n = len(loop.events)
    loop.handle(PopUnread(8.0))
    loop.handle(PopSettled(9.7, 2))
    loop.handle(BoardStable(10.0, board(red=["track:1", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    loop.handle(BoardStable(11.0, board(red=["track:3", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    final = [(e["event"], e.get("color"), e.get("value")) for _, e in loop.events[n:] if e["event"] != "undo"]
    assert final[-6:] == [
        ("pop", "red", 6), ("move", "red", 6), ("extra-pop", "red", None),
        ("pop", "red", 2), ("move", "red", 2), ("turn", "blue", None),
    ]
    assert loop.referee.player == "blue" and loop.referee.phase == "pop"


def test_a_move_corrected_after_its_value_was_worked_out_is_judged_again() -> None:
    # Blue's pop is unread; Blue moves 10 -> 13 (taken as a 3), then, before
    # anyone pops, puts the peg on 15: the final position counts (a 5).
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopUnread(9.0))
    loop.handle(BoardStable(10.0, board(blue=["track:13", "home", "home", "home"])))
    loop.handle(BoardStable(11.0, board(blue=["track:15", "home", "home", "home"])))
    assert "illegal" not in kinds(loop)
    moves = [(e.get("value"), e.get("to")) for _, e in loop.events if e["event"] == "move"]
    assert moves[-1] == (5, "track:15")
    assert loop.referee.position["blue"] == sorted(["track:15", "home", "home", "home"])
    assert "That move means Blue popped a 5." in said(speaker)


def test_the_next_players_move_with_its_pop_held_settles_an_unread_pop_as_lost() -> None:
    # Red pops unread; Blue's pop is not seen at all and Blue moves 10 -> 12.
    # No value of Red's explains that board, but Red's pop being lost (Red
    # has every peg in Home) and Blue's move with a pop not seen does: the
    # turn passes, and Blue is asked for the pop.
    loop, _, _ = started()
    n = len(loop.events)
    loop.handle(PopUnread(8.0))
    loop.handle(BoardStable(9.5, board(blue=["track:12", "home", "home", "home"])))  # Blue, no pop seen
    assert "illegal" not in kinds(loop)
    assert events_after(loop, n)[:2] == [("skip", None), ("turn", None)]
    loop.handle(Spoken(10.0, "pop", {"value": 2}))
    assert events_after(loop, n)[2:] == [("pop", 2), ("move", 2), ("turn", None)]


def test_a_game_with_worked_out_and_taken_back_pops_resumes_from_its_record() -> None:
    loop, _, recorder = started()
    loop.handle(PopUnread(8.0))
    # A pop with no board seen since the unread one: Red's extra pop after a
    # 6 (the move not yet seen), or Blue's after a lost pop. The loop waits.
    loop.handle(PopSettled(9.7, 2))
    assert loop.referee.player == "red" and loop.held_pops
    loop.handle(BoardStable(10.0, board(red=["track:1", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))  # Red's 6
    loop.handle(BoardStable(11.0, board(red=["track:3", "home", "home", "home"],
                                        blue=["track:10", "home", "home", "home"])))
    assert {"pop": 6} in recorder.inputs and {"command": "skip"} not in recorder.inputs
    assert "illegal" not in kinds(loop)
    resumed = Loop(Referee, ListSpeaker())
    resumed.resume([["red"], ["blue"]], recorder.inputs)
    assert resumed.referee.position == loop.referee.position
    assert (resumed.referee.player, resumed.referee.phase) == ("blue", "pop")


def test_play_going_on_after_an_unread_who_goes_first_pop_is_told_once_and_a_turn_puts_it_right() -> None:
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker)
    loop.start([["red"], ["blue"]])
    loop.handle(BoardStable(1.0, board()))
    loop.handle(PopUnread(2.0))
    loop.handle(PopSettled(3.0, 5))
    loop.handle(PopSettled(5.0, 6))  # Blue went first and pops a 6 ...
    loop.handle(BoardStable(6.0, board(blue=["track:8", "home", "home", "home"])))  # ... and brings a peg out
    loop.handle(BoardStable(6.5, board(blue=["home", "home", "home", "home"])))
    loop.handle(BoardStable(7.0, board(blue=["track:8", "home", "home", "home"])))
    lost = [t for t in said(speaker) if t.startswith("I have lost track")]
    assert lost == ["I have lost track of who goes first. Say the number Red popped, or whose turn it is."]
    assert "illegal" not in kinds(loop)
    loop.handle(Spoken(8.0, "turn", {"color": "blue"}))
    assert loop.unread is None and loop.held_pops == []
    # The move on the board now waits for Blue's pop (asked), not an illegal call.
    assert "illegal" not in kinds(loop)
    assert any("I did not see Blue's pop" in t for t in said(speaker))
    loop.handle(Spoken(9.0, "pop", {"value": 6}))
    assert [e["event"] for _, e in loop.events][-3:] == ["pop", "move", "extra-pop"]


def test_when_the_die_cannot_be_read_for_pop_after_pop_that_is_said_once() -> None:
    # Every pop seen, none read (a die the camera cannot make out): "I could
    # not read Red's pop" after each one is nagging (75 times in a whole
    # rendered game); it is said for the first two, then once that the pops
    # will be worked out from the moves.
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker)
    loop.start([["red"], ["blue"]], None, "red")
    loop.handle(BoardStable(1.0, board()))
    t = 8.0
    for _ in range(6):
        loop.handle(PopUnread(t))  # Red, Blue, Red ...: all in Home, no peg moves
        loop.handle(Tick(t + 2.0))
        loop.handle(BoardStable(t + 2.5, board()))
        t += 4.0
    lines = said(speaker)
    assert sum("could not read" in line for line in lines) == 2
    assert lines.count(DIE_BLIND_SAID) == 1
    assert "illegal" not in kinds(loop)


def test_whole_games_with_unread_pops_make_no_more_false_calls_than_measured() -> None:
    # The truth benchmark's games (a perfect camera with messy hands) with a
    # tenth and three tenths of the pops seen but not read: the loop's
    # guesses about them were the source of false calls (4 and 13 in 20
    # games before session 8's guesses kept open, 1 and 4 after, 0 and 2
    # since session 10; missed illegal moves 28 and 79 since session 11; since
    # session 13, 1 and 2, and 30 and 78: a catch-up stays open across the
    # next pop and pops that cannot follow an inferred move make a catch-up,
    # which on seeds 100-899 took false calls from 30 to 15 and 81 to 46,
    # but here leave seed 2 out of step after a pop no camera saw, where
    # before the loop had lost track and followed the board). Decoding
    # is deterministic: the caps are the measured figures, so a regression
    # shows at once (docs/live.md, "Guesses kept open"). Session 15 (an
    # unread pop settled in hindsight, a catch-up taken back when put right
    # into another way of the same pops): 0 and 2 false calls, 30 and 79
    # missed (seed 12: a wrong count caught up on an unread pop, put right
    # and taken back, where before the loop called the board put back "not
    # your turn" by chance); on seeds 0-299, 6 -> 0 and 17 -> 9 false calls.
    # Session 16 (a move whose held pops do not follow its one value waits
    # for the number): 2 -> 1 at three tenths (seed 13). Session 18 (a wrong
    # board is judged once it has stood CALL_HOLD_S): the scripted players
    # put every wrong count right within a second, so none is called or
    # missed any more (counted apart); with each wrong count left standing
    # 4 s, 1 and 2 false calls and 30 and 80 missed, as with the loop before.
    # Session 30 (while lost, a move an earlier pop since the board fits too
    # does not put the loop back in step): 35 and 81 missed, the loop
    # following the board for longer; on the 500 truth games at three tenths
    # unread, false calls 10 -> 8, and a fresh rendered game's (418) gone.
    # Session 31 (a doubt's history may have a peg it brought out onto its
    # Start seen in its Home): 36 and 82 missed, a wrong count explained by
    # a history with an unread pop as a 6 whose peg was misread in its Home;
    # a fresh rendered game's false call (474) gone.
    # Session 32 (a move that one value of the unread pop fits, with pops
    # left to play, is asked about when the held pops make it too; a board
    # the loop waited on, reached one way only, played before the board
    # after it): false calls 1 -> 0 at three tenths, and with wrong counts
    # left standing 1 and 2 -> 1 and 1, missed 36 -> 31 and 82 -> 85 (a wrong
    # count asked about where it was taken as the one value's move); while
    # lost, a change across a stretch with no board seen no longer puts the
    # loop back in step: 85 -> 86 missed at three tenths.
    # Session 54 (a lost pop that repeats the pop before it, read after that
    # pop's move was seen, keeps the game without it open until the next
    # move): 31 -> 33 missed at a tenth (seed 19: Blue's real 5 after Red's
    # 5, and Red's wrong count of 3 and 1 explained with the turns one
    # out); a fresh rendered game's false call (1189) gone.
    from companion.bench.referee import _players, _truth_game

    for unread, stands, cap, missed_cap in ((0.1, None, 0, 0), (0.3, None, 0, 0), (0.1, 4.0, 1, 33),
                                            (0.3, 4.0, 1, 86)):
        false_calls = missed = 0
        for seed in range(20):
            verdict, *_ = _truth_game(seed, _players(seed, 0), 0.25, unread, None, None, stands)
            false_calls += verdict.false_illegal
            missed += verdict.missed_illegal
        assert false_calls <= cap, (unread, stands, false_calls)
        assert missed <= missed_cap, (unread, stands, missed)


def _caught_up_blue_3() -> tuple[Loop, ListSpeaker, int]:
    """Blue's pop unread, Red's 5 seen, then one board with both moves:
    the catch-up takes Blue's pop for a 3 (10 -> 13) and it is Blue's turn."""
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder, AT_ONCE)
    h3 = ["home"] * 3
    pegs = {"red": ["track:3", *h3], "blue": ["track:10", *h3]}
    loop.start([["red"], ["blue"]], {}, "blue", pegs)
    loop.handle(BoardStable(1.0, pegs))
    n = len(loop.events)
    loop.handle(PopUnread(2.0))
    loop.handle(PopSettled(3.7, 5))  # not so soon after as a cocked die's tap (POPPED_AGAIN_S)
    loop.handle(BoardStable(4.0, {"red": ["track:8", *h3], "blue": ["track:13", *h3]}))
    assert "That move means Blue popped a 3." in said(speaker)
    assert loop.referee.phase == "pop" and loop.referee.player == "blue"
    return loop, speaker, n


def test_a_caught_up_board_that_stood_is_not_rewritten_by_the_next_move_on_an_unseen_pop() -> None:
    # Blue's next pop goes unseen and Blue moves 13 -> 14 well after the
    # catch-up: Blue's new move, not the guessed 3 "put right" into a 4 (a
    # seeded game: that rewrite put the turns out and Red's next move was
    # called out of turn).
    loop, speaker, n = _caught_up_blue_3()
    h3 = ["home"] * 3
    loop.handle(BoardStable(10.0, {"red": ["track:8", *h3], "blue": ["track:14", *h3]}))
    assert "That move means Blue popped a 4." not in said(speaker)
    assert "I did not see Blue's pop. Blue, say the number you popped, or pop now." in said(speaker)
    loop.handle(Spoken(11.0, "pop", {"value": 1}))
    assert events_after(loop, n) == [("pop", 3), ("move", 3), ("turn", None), ("pop", 5), ("move", 5),
                                     ("turn", None), ("pop", 1), ("move", 1), ("turn", None)]
    assert "illegal" not in kinds(loop)


def test_a_caught_up_board_put_right_at_once_is_still_taken_back() -> None:
    # Moments after the catch-up the peg is put on 14: the guessed 3 was a
    # miscount put right, and the catch-up is made again from before it.
    loop, speaker, n = _caught_up_blue_3()
    h3 = ["home"] * 3
    loop.handle(BoardStable(5.5, {"red": ["track:8", *h3], "blue": ["track:14", *h3]}))
    assert "That move means Blue popped a 4." in said(speaker)
    moves = [(e["color"], e.get("value")) for _, e in loop.events[n:] if e["event"] == "move"]
    assert moves[-2:] == [("blue", 4), ("red", 5)]
    assert "illegal" not in kinds(loop)
    # What the new history changes is said; what it repeats is not said again.
    lines = said(speaker)
    assert lines[-2:] == ["That move means Blue popped a 4.", "Blue moves 4 from space 10 to space 14."]
    assert lines.count("Red popped 5.") == 1
    assert lines.count("Red moves 5 from space 3 to Blue's Start.") == 1


def _lost_unread_then_blue_lost() -> tuple[Loop, ListSpeaker, int]:
    """Red's pop unread and no peg moved; Blue pops a 4 it cannot use: the
    loop took Red's pop as lost (at t=4) and it is Red's turn again."""
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder)
    home = {"red": HOME4, "blue": HOME4}
    loop.start([["red"], ["blue"]], {}, "red", home)
    loop.handle(BoardStable(1.0, home))
    n = len(loop.events)
    loop.handle(PopUnread(2.0))
    loop.handle(BoardStable(2.6, home))
    loop.handle(PopSettled(4.0, 4))
    loop.handle(BoardStable(4.6, home))
    assert "No peg moved after Red's pop." in said(speaker)
    assert loop.referee.phase == "pop" and loop.referee.player == "red"
    return loop, speaker, n


def test_a_lost_unread_pop_that_stood_is_not_rewritten_by_the_next_move_on_an_unseen_pop() -> None:
    # Red's next pop (a 6) goes unseen and Red brings a peg out 4.5 s after
    # Blue's 4: Red's new move, asked for, not Red's old pop retold as a 6
    # with Blue's 4 as Red's extra pop (a seeded game: then "That peg moved
    # 5 spaces, but the pop was 4").
    loop, speaker, n = _lost_unread_then_blue_lost()
    loop.handle(BoardStable(8.5, {"red": ["track:1", "home", "home", "home"], "blue": HOME4}))
    assert "I did not see Red's pop. Red, say the number you popped, or pop now." in said(speaker)
    loop.handle(Spoken(9.5, "pop", {"value": 6}))
    assert events_after(loop, n) == [("skip", None), ("turn", None), ("pop", 4), ("no-move", 4), ("turn", None),
                                     ("pop", 6), ("move", 6), ("extra-pop", None)]


def test_a_peg_brought_out_seconds_after_the_next_pop_is_a_move_on_a_missed_pop() -> None:
    # Session 15, a seeded game: 2.4 s after Blue's lost pop was seen with
    # no peg moved, Red's peg comes out. Taken back, Red's pop would be a 6
    # and Blue's 4 Red's extra pop, popped before the peg came out and
    # seen with none moved: Red's new pop the camera missed is the likelier
    # (then said: "six"); Red's next 6 was called "moved 6, but the pop was 3".
    loop, speaker, n = _lost_unread_then_blue_lost()
    loop.handle(BoardStable(7.0, {"red": ["track:1", "home", "home", "home"], "blue": HOME4}))
    assert "I did not see Red's pop. Red, say the number you popped, or pop now." in said(speaker)
    loop.handle(Spoken(8.0, "pop", {"value": 6}))
    assert events_after(loop, n)[-3:] == [("pop", 6), ("move", 6), ("extra-pop", None)]
    assert "illegal" not in kinds(loop)


def test_a_lost_unread_pop_is_taken_back_when_the_move_comes_at_once() -> None:
    # The peg comes out moments after Blue's pop: Red was still moving.
    loop, speaker, n = _lost_unread_then_blue_lost()
    loop.handle(BoardStable(5.5, {"red": ["track:1", "home", "home", "home"], "blue": HOME4}))
    # With Blue's pop seen since, the value is taken once the board has stood.
    assert not any(text.startswith("That move means") for text in said(speaker))
    loop.handle(Tick(7.0))
    assert "That move means Red popped a 6." in said(speaker)
    assert "illegal" not in kinds(loop)


def test_a_board_several_histories_reach_is_followed_not_called() -> None:
    # Blue pops a 6; then, the board unseen, Blue's extra pop (unread),
    # Yellow's 4 and Red's 4 (both lost) and Blue's next pop (unread); then
    # Blue's peg is seen on 10. Out and 1 and 1, every pop played; or out and
    # 2, Blue's last pop still to move: two histories, two games. Neither
    # is played, and the board is not called "a peg out of Home goes onto
    # Blue's Start" (a seeded game): the loop follows it.
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder)
    home = {"red": HOME4, "blue": HOME4, "yellow": HOME4}
    loop.start([["red"], ["blue"], ["yellow"]], {}, "blue", home)
    loop.handle(BoardStable(1.0, home))
    loop.handle(PopSettled(2.0, 6))
    loop.handle(PopUnread(6.0))
    loop.handle(PopSettled(10.0, 4))
    loop.handle(PopSettled(12.0, 4))
    loop.handle(PopUnread(14.0))
    loop.handle(BoardStable(16.0, {**home, "blue": ["track:10", "home", "home", "home"]}))
    assert "illegal" not in kinds(loop)
    assert "I have lost track of the moves. I will go by the board from here." in said(speaker)


def test_the_number_said_after_a_pop_worked_out_from_the_move_confirms_it() -> None:
    # Blue's pop is unread and its move tells the loop it was a 3; Blue then
    # says "three" (the number the camera missed). That is Blue's pop
    # confirmed, not Red's next pop (a seeded game: fed as Red's, the turns
    # went one out and a later move was called out of turn). Said again, it
    # is a pop.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))  # Red: lost; Blue's turn
    loop.handle(PopUnread(9.0))
    loop.handle(BoardStable(10.0, board(blue=["track:13", "home", "home", "home"])))
    assert "That move means Blue popped a 3." in said(speaker)
    n = len(loop.events)
    loop.handle(Spoken(11.0, "pop", {"value": 3}))
    assert "Yes: Blue popped 3." in said(speaker)
    assert len(loop.events) == n and loop.referee.player == "red" and loop.referee.phase == "pop"
    loop.handle(Spoken(12.0, "pop", {"value": 3}))
    assert events_after(loop, n)[:2] == [("pop", 3), ("no-move", 3)]



def test_the_number_said_after_a_pop_worked_out_before_pops_read_after_it_confirms_it() -> None:
    # Red's pop is unread; Blue's 4 and Yellow's 3 are read (both lost: no
    # peg out) while Red's move is not yet seen; the board then shows Red's
    # peg moved 5, and the loop plays the 5 and the two lost pops after it.
    # Red's "five", said after its move, names the pop worked out, not the
    # last one played: Red's pop confirmed, not Red's next pop (a truth game,
    # seed 6255 at three tenths unread: fed as Red's next pop, and Red's next
    # move, a 3, called "That peg moved 3 spaces, but the pop was 5").
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), AT_ONCE)
    home = HOME4
    before = {"red": [*home[:3], "track:17"], "blue": home, "yellow": home}
    loop.start([["red"], ["blue"], ["yellow"]], {}, "red", before)
    for obs in [BoardStable(1.0, before), PopUnread(3.0), PopSettled(7.0, 4), PopSettled(9.0, 3),
                BoardStable(11.0, {**before, "red": [*home[:3], "track:22"]})]:
        loop.handle(obs)
    assert "That move means Red popped a 5." in said(speaker)
    assert loop.referee.player == "red" and loop.referee.phase == "pop"
    n = len(loop.events)
    loop.handle(Spoken(12.0, "pop", {"value": 5}))
    assert said(speaker)[-1] == "Yes: Red popped 5."
    assert len(loop.events) == n and loop.referee.phase == "pop"
    loop.handle(Spoken(13.0, "pop", {"value": 5}))  # said again: a pop
    assert events_after(loop, n)[:1] == [("pop", 5)]


def test_the_number_said_for_a_move_made_since_on_a_pop_nobody_saw_is_that_pop() -> None:
    # As above, but Red moves again before saying anything (its next pop
    # missed by the camera): 22 -> 27, and then "five". The number is that
    # move's pop, not an echo of the 5 worked out moments ago. (Here the
    # loop asks for the pop of the move it saw, which already keeps the echo
    # out; in truth seed 7407 at three tenths the catch-up was played again
    # on the new board, its 4 worked out anew, and only the rule that the
    # board must agree with the game kept Blue's "four" for its move, which
    # was otherwise called "The board does not match one move".)
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), AT_ONCE)
    before = {"red": [*HOME4[:3], "track:17"], "blue": HOME4, "yellow": HOME4}
    loop.start([["red"], ["blue"], ["yellow"]], {}, "red", before)
    for obs in [BoardStable(1.0, before), PopUnread(3.0), PopSettled(7.0, 4), PopSettled(9.0, 3),
                BoardStable(11.0, {**before, "red": [*HOME4[:3], "track:22"]}),
                BoardStable(13.0, {**before, "red": [*HOME4[:3], "track:27"]})]:
        loop.handle(obs)
    n = len(loop.events)
    loop.handle(Spoken(14.0, "pop", {"value": 5}))
    loop.handle(Tick(15.0))
    assert not any(line.startswith("Yes:") for line in said(speaker))
    assert events_after(loop, n)[:2] == [("pop", 5), ("move", 5)] and "illegal" not in kinds(loop)

def test_another_number_said_after_a_worked_out_pop_is_the_next_pop() -> None:
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopUnread(9.0))
    loop.handle(BoardStable(10.0, board(blue=["track:13", "home", "home", "home"])))
    n = len(loop.events)
    loop.handle(Spoken(11.0, "pop", {"value": 5}))  # Red's pop, the camera missed it
    assert not any(t.startswith("Yes:") for t in said(speaker))
    assert events_after(loop, n)[:2] == [("pop", 5), ("no-move", 5)]


def test_a_pop_that_does_not_fit_a_move_made_with_no_pop_seen_is_the_next_players() -> None:
    # Blue's pop is never seen and Blue moves 10 -> 12 (asked for its pop);
    # then a 5 settles: no 5 makes that move, a 2 does, so Blue's pop was
    # missed and the 5 is Red's (a seeded game: "That peg moved 2 spaces, but
    # the pop was 5").
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))  # Red: lost; Blue's turn
    n = len(loop.events)
    loop.handle(BoardStable(10.0, board(blue=["track:12", "home", "home", "home"])))
    assert "I did not see Blue's pop. Blue, say the number you popped, or pop now." in said(speaker)
    loop.handle(PopSettled(12.0, 5))
    assert "illegal" not in kinds(loop)
    assert "That move means Blue popped a 2." in said(speaker)
    assert events_after(loop, n) == [("pop", 2), ("move", 2), ("turn", None), ("pop", 5), ("no-move", 5),
                                     ("turn", None)]


def test_a_pop_that_fits_a_move_made_with_no_pop_seen_is_the_movers() -> None:
    loop, _, _ = started()
    loop.handle(PopSettled(8.0, 4))
    n = len(loop.events)
    loop.handle(BoardStable(10.0, board(blue=["track:12", "home", "home", "home"])))
    loop.handle(PopSettled(12.0, 2))  # popped after moving, as asked
    assert events_after(loop, n) == [("pop", 2), ("move", 2), ("turn", None)]


def test_the_number_said_just_after_the_die_was_read_and_the_move_made_confirms_it() -> None:
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))  # Red: lost; Blue's turn
    loop.handle(PopSettled(9.0, 3))
    loop.handle(BoardStable(10.0, board(blue=["track:13", "home", "home", "home"])))
    n = len(loop.events)
    loop.handle(Spoken(11.0, "pop", {"value": 3}))  # Blue, saying what it popped
    assert "Yes: Blue popped 3." in said(speaker)
    assert len(loop.events) == n and loop.referee.player == "red"



def test_the_number_for_a_pop_seen_but_not_read_is_that_pop_not_an_echo() -> None:
    # Blue's pop and its extra pop both unread; the move shows the first was
    # a 6, the second still waits for its number. Blue's "six" names that
    # second pop, though the game took a 6 for Blue moments ago.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopUnread(9.0))
    loop.handle(PopUnread(10.7))  # (a second pop; one sooner is the same settle reported twice)
    loop.handle(BoardStable(11.0, board(blue=["track:16", "home", "home", "home"])))
    assert "That move means Blue popped a 6." in said(speaker) and loop.unread is not None
    n = len(loop.events)
    # (Said past ANSWER_S after "Blue, was your pop a 6?": sooner, it answers that.)
    loop.handle(Spoken(15.5, "pop", {"value": 6}))
    assert not any(t.startswith("Yes:") for t in said(speaker))
    assert events_after(loop, n) == [("pop", 6)]


def test_saying_the_number_the_die_shows_confirms_it_and_changes_nothing() -> None:
    # Blue popped 3 (read) and has not moved yet: "the pop was three" is a
    # confirmation, not a correction (it was "Corrected: Blue's pop was 3.
    # Blue popped 3.", two events in the record).
    # Since session 49 nothing is said to it: "Blue popped 3." was said a
    # moment ago (a table saying each number heard every read pop twice).
    loop, speaker, recorder = started()
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopSettled(9.0, 3))
    n, lines = len(loop.events), len(speaker.lines)
    loop.handle(Spoken(9.5, "pop", {"value": 3}))
    assert said(speaker)[-1] == "Blue popped 3." and len(speaker.lines) == lines
    assert recorder.corrections[-1] == ({"intent": "pop", "value": 3},
                                        "the pop the camera read and announced: nothing to say")
    assert len(loop.events) == n
    # Red pops 5 while Blue's peg is still in hand (held); "five" names that pop,
    # and corrects nothing of Blue's.
    loop.handle(PopSettled(11.0, 5))
    loop.handle(Spoken(11.5, "pop", {"value": 5}))
    assert said(speaker)[-1] == "Yes, I saw the 5."
    assert len(loop.events) == n
    loop.handle(BoardStable(12.0, board(blue=["track:13", "home", "home", "home"])))
    assert events_after(loop, n) == [("move", 3), ("turn", None), ("pop", 5), ("no-move", 5), ("turn", None)]


def test_a_correction_while_a_pop_is_held_corrects_the_held_pop() -> None:
    # Red pops early (read 5) while Blue's peg is still in hand on Blue's 3;
    # "the pop was four", said twice over the camera, is Red's pop: Blue's 3
    # stays, and Blue's move is not called a wrong count. (A "one" or "two"
    # may be a count aloud and waits for the move: test_counting_aloud.py.)
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopSettled(9.0, 3))
    loop.handle(PopSettled(11.0, 5))
    n = len(loop.events)
    loop.handle(Spoken(11.5, "pop", {"value": 4}))
    assert said(speaker)[-1] == "I saw a 5 on the die. Say it again if you are sure."
    loop.handle(Spoken(12.5, "pop", {"value": 4}))
    assert said(speaker)[-1] == "Corrected: the pop on the die is 4."
    loop.handle(BoardStable(13.0, board(blue=["track:13", "home", "home", "home"])))
    assert events_after(loop, n) == [("move", 3), ("turn", None), ("pop", 4), ("no-move", 4), ("turn", None)]
    assert "illegal" not in kinds(loop)


def test_a_number_said_while_an_unread_pop_is_held_names_that_pop() -> None:
    # Blue's 3 read, Blue's peg still in hand; Red pops, seen but not read,
    # and says "six": the number is Red's pop (held behind Blue's move), not
    # a correction of Blue's 3 (``--illegal`` game 23 at 640x480 with the
    # players saying each number, session 48: "Corrected: Green's pop was
    # 4", and Green's moves of 6 and 4 were called). Red brings a peg out.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopSettled(9.0, 3))
    n = len(loop.events)
    loop.handle(PopUnread(11.0))
    loop.handle(Spoken(11.5, "pop", {"value": 6}))
    assert said(speaker)[-1] == "Noted: the pop on the die is 6."
    assert len(loop.events) == n  # Blue's 3 stands
    loop.handle(BoardStable(12.0, board(blue=["track:13", "home", "home", "home"])))
    loop.handle(BoardStable(14.0, board(red=["track:1", "home", "home", "home"],
                                        blue=["track:13", "home", "home", "home"])))
    assert events_after(loop, n) == [("move", 3), ("turn", None), ("pop", 6), ("move", 6), ("extra-pop", None)]
    assert "illegal" not in kinds(loop)


def _blue_4_worked_out_then_red_unread(red_pops_at: float) -> tuple[Loop, ListSpeaker, int]:
    """Red's 4 is lost; Blue's pop is unread and Blue moves 10 -> 14 (worked
    out at t=10 as a 4); Red's pop, at *red_pops_at*, is unread too (every
    red peg is in Home: only a 6 could be used)."""
    loop, speaker, _ = started()
    n = len(loop.events)
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopUnread(9.0))
    loop.handle(BoardStable(10.0, board(blue=["track:14", "home", "home", "home"])))
    assert "That move means Blue popped a 4." in said(speaker)
    loop.handle(PopUnread(red_pops_at))
    return loop, speaker, n


def test_a_worked_out_move_that_stood_is_not_retold_when_the_player_moves_again_after_the_next_pop() -> None:
    # 5 s later Blue's peg is on 15: Red's unread pop was lost and Blue moved
    # on a pop the camera missed. Before, Blue's 4 was retold as a 5 and
    # Red's pop held for Blue's next turn (a seeded game: then "That peg
    # moved 6 spaces, but the pop was 1").
    loop, speaker, n = _blue_4_worked_out_then_red_unread(12.0)
    loop.handle(BoardStable(15.0, board(blue=["track:15", "home", "home", "home"])))
    assert "That move means Blue popped a 5." not in said(speaker)
    assert "I did not see Blue's pop. Blue, say the number you popped, or pop now." in said(speaker)
    assert "illegal" not in kinds(loop)
    loop.handle(Spoken(16.0, "pop", {"value": 1}))
    assert [e for e in events_after(loop, n) if e[0] in ("pop", "move", "skip")] == [
        ("pop", 4), ("pop", 4), ("move", 4), ("skip", None), ("pop", 1), ("move", 1)]


def test_a_worked_out_move_put_right_at_once_is_still_retold() -> None:
    # Blue's peg moves on to 15 a moment after Red's pop: Blue was still
    # moving (a miscount put right), so the move was a 5.
    loop, speaker, _ = _blue_4_worked_out_then_red_unread(10.5)
    loop.handle(BoardStable(11.5, board(blue=["track:15", "home", "home", "home"])))
    assert "That move means Blue popped a 5." in said(speaker)
    assert "illegal" not in kinds(loop)


def test_a_pop_seen_after_the_number_of_an_unread_pop_was_said_is_the_next_pop() -> None:
    # Blue's unread pop is answered ("three"); Red pops a 3 a moment later.
    # That is Red's pop, not the camera catching up with Blue's (which it had
    # already reported, unread).
    loop = started()[0]
    n = len(loop.events)
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopUnread(9.0))
    loop.handle(Spoken(9.5, "pop", {"value": 3}))
    loop.handle(BoardStable(10.0, board(blue=["track:13", "home", "home", "home"])))
    loop.handle(PopSettled(10.5, 3))
    assert [e for e in events_after(loop, n) if e[0] == "pop"] == [("pop", 4), ("pop", 3), ("pop", 3)]


def test_a_caught_up_board_put_right_as_the_next_player_pops_is_still_taken_back() -> None:
    # The guessed 3 was a miscount of 4, put right just as Blue pops again
    # (the pop comes before the board is seen): the catch-up is made again
    # from before it and Blue's 5 is held and played after, with no call
    # (seeded truth games: the pop made the catch-up stand, and the board put
    # right was called a wrong count of the next pop).
    loop, speaker, n = _caught_up_blue_3()
    h3 = ["home"] * 3
    loop.handle(PopSettled(4.7, 5))
    loop.handle(BoardStable(5.2, {"red": ["track:8", *h3], "blue": ["track:14", *h3]}))
    assert "That move means Blue popped a 4." in said(speaker)
    assert "illegal" not in kinds(loop)
    assert loop.referee.phase == "move" and loop.referee.player == "blue"
    loop.handle(BoardStable(7.0, {"red": ["track:8", *h3], "blue": ["track:19", *h3]}))
    moves = [(e["color"], e.get("value")) for _, e in loop.events[n:] if e["event"] == "move"]
    assert moves[-3:] == [("blue", 4), ("red", 5), ("blue", 5)]
    assert "illegal" not in kinds(loop)


def test_a_wrong_count_on_a_pop_well_after_a_catch_up_is_called() -> None:
    # Blue pops 3 seconds after the catch-up: play has gone on and the
    # catch-up stands, so moving 13 -> 14 on the 2 is a wrong count, called.
    loop, speaker, n = _caught_up_blue_3()
    h3 = ["home"] * 3
    loop.handle(PopSettled(7.0, 2))
    loop.handle(BoardStable(7.5, {"red": ["track:8", *h3], "blue": ["track:14", *h3]}))
    assert kinds(loop)[-1] == "illegal"
    assert "That move means Blue popped a 4." not in said(speaker)


def test_pops_seen_after_an_unread_one_that_cannot_follow_its_move_make_it_a_catch_up() -> None:
    # Red's pop unread (a 2: 3 -> 5), Blue's 4 lost, Red's 3 (5 -> 8), Blue's
    # 6 seen, then the board: red on 8. One 5 also explains the board as one
    # move, but then Red's 3 would still be waiting with a peg it could move,
    # and Blue's 6 popped before it: the history in which the pops fit is
    # played (a seeded game took the 5, and Blue's 6 bringing a peg out onto
    # 8 and bumping Red was then called).
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder)
    h3 = ["home"] * 3
    pegs = {"red": ["track:3", *h3], "blue": HOME4}
    loop.start([["red"], ["blue"]], {}, "red", pegs)
    loop.handle(BoardStable(1.0, pegs))
    n = len(loop.events)
    loop.handle(PopUnread(2.0))
    loop.handle(PopSettled(4.0, 4))
    loop.handle(PopSettled(6.0, 3))
    loop.handle(PopSettled(8.0, 6))
    loop.handle(BoardStable(8.5, {"red": ["track:8", *h3], "blue": HOME4}))
    assert "That move means Red popped a 2." in said(speaker)
    assert loop.referee.phase == "move" and loop.referee.player == "blue"
    loop.handle(BoardStable(10.0, {"red": HOME4, "blue": ["track:8", *h3]}))
    moves = [(e["color"], e.get("value")) for _, e in loop.events[n:] if e["event"] == "move"]
    assert moves == [("red", 2), ("red", 3), ("blue", 6)]
    assert "illegal" not in kinds(loop)


def _blind_die_loop() -> tuple[Loop, ListSpeaker, int, int, float]:
    """Red and Blue with the camera reading none of three pops: the loop has
    said it cannot read the die. Returns the loop, its speaker, Red's and
    Blue's track spaces and the time of the next pop."""
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, settings=AT_ONCE)
    pegs = {"red": ["track:5", *HOME4[:3]], "blue": ["track:12", *HOME4[:3]]}
    loop.start([["red"], ["blue"]], None, "red", pegs)
    loop.handle(BoardStable(1.0, pegs))
    red, blue, t = 5, 12, 2.0
    for player, steps in (("red", 2), ("blue", 3), ("red", 1)):
        loop.handle(PopUnread(t))
        loop.handle(Tick(t + 1.6))
        if player == "red":
            red += steps
        else:
            blue += steps
        loop.handle(BoardStable(t + 2.0, {"red": [f"track:{red}", *HOME4[:3]], "blue": [f"track:{blue}", *HOME4[:3]]}))
        t += 4.0
    assert said(speaker).count(DIE_BLIND_SAID) == 1
    return loop, speaker, red, blue, t


def test_with_the_die_unreadable_a_number_said_keeps_the_referee_strict() -> None:
    # The camera reads no pop (a die too small under glare): the loop says
    # once that it cannot read the die, and invites the players to say each
    # number. A number said is the pop, so a wrong count on it is called,
    # where a pop worked out from the move could not be.
    loop, speaker, red, blue, t = _blind_die_loop()
    assert "That move means Red popped a 1." in said(speaker) and "illegal" not in kinds(loop)
    loop.handle(PopUnread(t))  # Blue's pop, unread as ever; Blue says it
    loop.handle(Spoken(t + 0.5, "pop", {"value": 4}))
    loop.handle(BoardStable(t + 1.0, {"red": [f"track:{red}", *HOME4[:3]], "blue": [f"track:{blue}", *HOME4[:3]]}))
    loop.handle(BoardStable(t + 2.0, {"red": [f"track:{red}", *HOME4[:3]], "blue": [f"track:{blue + 5}", *HOME4[:3]]}))
    assert kinds(loop)[-1] == "illegal"
    assert "That peg moved 5 spaces, but the pop was 4." in said(speaker)


def test_with_the_die_unreadable_a_number_said_and_moved_at_once_is_judged() -> None:
    # The same, but Blue moves at once: no board comes between the pop and
    # its move. The board agreed with the game just before the pop, after
    # Red's, too soon for another pop between, so the wrong count is called
    # (``--illegal`` game 22 at 640x480, session 48: "I have lost track of
    # the moves" instead). Before the number, the board is not judged.
    loop, speaker, red, blue, t = _blind_die_loop()
    t -= 0.5  # 1.5 s after the board of Red's move
    loop.handle(PopUnread(t))
    loop.handle(Spoken(t + 0.5, "pop", {"value": 4}))
    loop.handle(BoardStable(t + 2.0, {"red": [f"track:{red}", *HOME4[:3]], "blue": [f"track:{blue + 5}", *HOME4[:3]]}))
    loop.handle(Tick(t + 6.0))
    assert kinds(loop)[-1] == "illegal"
    assert "That peg moved 5 spaces, but the pop was 4." in said(speaker)
    assert not any("lost track" in line for line in said(speaker))


def test_with_the_die_unreadable_a_board_long_before_the_pop_is_no_proof() -> None:
    # The board last agreed with the game more than a pop's time before the
    # pop moved: a pop may have come between unseen, so a move that does not
    # fit the number is followed, not called.
    loop, speaker, red, blue, t = _blind_die_loop()
    t += 3.0
    loop.handle(PopUnread(t))
    loop.handle(Spoken(t + 0.5, "pop", {"value": 4}))
    loop.handle(BoardStable(t + 2.0, {"red": [f"track:{red}", *HOME4[:3]], "blue": [f"track:{blue + 5}", *HOME4[:3]]}))
    loop.handle(Tick(t + 6.0))
    assert "illegal" not in kinds(loop)


def test_a_peg_seen_far_on_while_its_pop_is_unread_is_judged_only_if_it_stays() -> None:
    # A whole rendered game at 640x480 (seed 19, session 16): Yellow's pop
    # seen, not read; Yellow's peg on 9, on its way to 10, read for a
    # moment on Yellow's Finish 3, eight pips on, which no pop makes. It was
    # called "Yellow, pop first, then move." Now such a board waits, like a
    # peg carried over the board with its pop read; where the peg comes
    # down is judged.
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker)
    pegs = {"red": ["track:3", *HOME4[:3]], "yellow": ["track:9", "finish:4", "home", "home"]}
    loop.start([["red"], ["yellow"]], None, "yellow", pegs)
    loop.handle(BoardStable(1.0, pegs))
    loop.handle(PopUnread(2.0))
    loop.handle(BoardStable(3.5, {**pegs, "yellow": ["finish:3", "finish:4", "home", "home"]}))
    assert "illegal" not in kinds(loop)
    loop.handle(Tick(4.5))
    loop.handle(BoardStable(5.0, {**pegs, "yellow": ["track:10", "finish:4", "home", "home"]}))
    assert "illegal" not in kinds(loop)
    assert "That move means Yellow popped a 1." in said(speaker)


def test_a_peg_far_on_on_an_unread_pop_that_stays_is_called() -> None:
    # The same wait ends after TRANSIT_HOLD_S: a peg left 8 spaces on, which
    # no pop makes, is called.
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker)
    pegs = {"red": ["track:3", *HOME4[:3]], "yellow": ["track:9", "finish:4", "home", "home"]}
    loop.start([["red"], ["yellow"]], None, "red", pegs)
    loop.handle(BoardStable(1.0, pegs))
    loop.handle(PopUnread(2.0))
    loop.handle(BoardStable(3.5, {**pegs, "red": ["track:11", *HOME4[:3]]}))
    assert "illegal" not in kinds(loop)
    loop.handle(Tick(5.0))
    assert "illegal" not in kinds(loop)
    loop.handle(Tick(6.6))
    assert kinds(loop)[-1] == "illegal"


def test_a_catch_up_of_pops_held_before_its_board_stays_open_to_a_board_put_right() -> None:
    # Red's 6 read, then (no board seen while Red played on) Red's extra pop
    # unread, Blue's 1 (lost: Blue's pegs are all Home) and Red's 5. The first
    # board shows Red's peg on 6: a wrong count, caught up as an unread 5
    # with Red's 5 still to move. A moment later it is put right to 7. The
    # pops the catch-up left over were popped before its board, so play has
    # not gone on since: it is taken back (the unread pop was a 1) and the
    # board is no wrong count (seeded truth game 1626: the catch-up stood
    # and the board put right was called "moved 1 space, but the pop was 5").
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder, AT_ONCE)
    loop.start([["red"], ["blue"]], {}, "red")
    loop.handle(BoardStable(1.0, {"red": HOME4, "blue": HOME4}))
    n = len(loop.events)
    loop.handle(PopSettled(2.0, 6))
    loop.handle(PopUnread(4.0))
    loop.handle(PopSettled(8.0, 1))
    loop.handle(PopSettled(10.0, 5))
    h3 = ["home"] * 3
    loop.handle(BoardStable(11.0, {"red": ["track:6", *h3], "blue": HOME4}))
    assert "That move means Red popped a 5." in said(speaker)
    loop.handle(BoardStable(12.0, {"red": ["track:7", *h3], "blue": HOME4}))
    loop.handle(Tick(15.0))
    assert "illegal" not in kinds(loop)
    assert "That move means Red popped a 1." in said(speaker)
    moves = [(e["color"], e.get("value")) for _, e in loop.events[n:] if e["event"] == "move"]
    assert moves[-3:] == [("red", 6), ("red", 1), ("red", 5)]
    assert loop.referee.phase == "pop" and loop.referee.player == "blue"


#: Seeded truth games (a perfect camera, messy hands, a tenth of the pops
#: seen but not read; seed 391 and 471 with every pop read) in which the
#: loop made a false call before session 36, with what it had wrong.
SESSION_36_SEEDS = [
    (1626, 0.1),  # a catch-up's left-over pops, popped before its board, made it stand
    (391, 0.0), (471, 0.0),  # a pop taken for an echo though the pops as read made the board
    (1098, 0.1), (1112, 0.1), (1229, 0.1), (1399, 0.1),  # a number said late, taken for an unread pop
    (2031, 0.1), (2276, 0.1),  # (the same)
    (1137, 0.1),  # a wrong count explained by a pop "read twice", put right at once
    (1282, 0.1), (1597, 0.1), (2342, 0.1), (2556, 0.1), (868, 0.1),  # the number said was a pop of its own
]


@pytest.mark.parametrize(("seed", "unread"), SESSION_36_SEEDS)
def test_seeded_truth_games_that_made_false_calls_make_none(seed: int, unread: float) -> None:
    from companion.bench.referee import _players, _truth_game

    verdict, *_ = _truth_game(seed, _players(seed, 0), 0.25, unread)
    assert verdict.false_illegal == 0
    assert verdict.missed_illegal == 0


def test_a_count_said_aloud_before_the_move_is_not_taken_over_the_move() -> None:
    # Blue's pop unread; Blue counts the spaces aloud as the peg goes ("one,
    # two, ..."), and the listener, expecting a pop, takes the "one" for it.
    # The move of 5 that follows is taken for a 5 and asked back, not called
    # "That peg moved 5 spaces, but the pop was 1" (session 41).
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))  # Red's, lost: Blue's turn
    n = len(loop.events)
    loop.handle(PopUnread(9.0))
    loop.handle(Tick(10.6))
    loop.handle(Spoken(11.0, "pop", {"value": 1}))
    loop.handle(BoardStable(12.0, board(blue=["track:15", *HOME4[:3]])))
    assert "illegal" not in kinds(loop)
    assert events_after(loop, n)[-3:] == [("pop", 5), ("move", 5), ("turn", None)]
    assert "Blue, was your pop a 5?" in said(speaker)
    # A real wrong count: "no", the number again, and the move is called.
    loop.handle(Spoken(13.5, "no"))
    loop.handle(Tick(14.0))
    loop.handle(Spoken(14.5, "pop", {"value": 1}))
    assert kinds(loop)[-1] == "illegal"
    assert said(speaker)[-1] == "That peg moved 5 spaces, but the pop was 1."


def test_a_number_said_as_the_answer_to_the_move_is_not_asked_again() -> None:
    # The move fits a 5 or a 6 and the loop asks for the number; the answer
    # names neither (a wrong count, said deliberately): called, not asked.
    loop, speaker, _ = basic_three()
    n = len(loop.events)
    loop.handle(PopUnread(2.0))
    loop.handle(BoardStable(3.0, {"red": ["finish:4"], "blue": ["track:8"], "yellow": ["track:15"]}))
    assert any("say the number you popped" in t for t in said(speaker))
    loop.handle(Spoken(4.0, "pop", {"value": 2}))
    loop.handle(Tick(6.0))  # (the loop holds a wrong board a moment before it calls)
    assert events_after(loop, n)[-1] == ("illegal", None)
    assert not any("was your pop" in t for t in said(speaker))


def test_an_unread_pop_before_a_tap_is_taken_out_rather_than_a_peg_read_in_its_home() -> None:
    # Fresh whole game 846 at 640x480 (session 43): Blue's die landed cocked,
    # read as no face (an unread pop), and was tapped to a 6 read 1.7 s later
    # (past POPPED_AGAIN_S). The board, seen only after the move, fitted the
    # unread pop as a 6 with the read 6 still to move; Blue's next move, a 3,
    # then fitted only a bring-out on that 6 with the new peg "misread in
    # Home", and the game had a blue peg on Blue's Start for 70 s.
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder, AT_ONCE)
    h3 = ["home"] * 3
    start = {"red": HOME4, "blue": ["track:12", *h3]}
    loop.start([["red"], ["blue"]], {}, "blue", start)
    loop.handle(BoardStable(1.0, start))
    n = len(loop.events)
    loop.handle(PopUnread(2.0))
    loop.handle(PopSettled(3.7, 6))
    loop.handle(BoardStable(6.0, {"red": HOME4, "blue": ["track:18", *h3]}))
    loop.handle(PopSettled(7.0, 3))
    loop.handle(BoardStable(10.0, {"red": HOME4, "blue": ["track:21", *h3]}))
    assert loop.referee.position["blue"] == sorted(["track:21", *h3])
    assert [e for e in events_after(loop, n) if e[0] != "undo"][-6:] == [
        ("pop", 6), ("move", 6), ("extra-pop", None), ("pop", 3), ("move", 3), ("turn", None)]
    assert loop.referee.player == "red"
    assert "illegal" not in kinds(loop)
    assert "I take back Blue's pop I could not read: the die was popped again." in said(speaker)
    loop.handle(Tick(40.0))
    assert not any(line.startswith("I cannot see every peg") for line in said(speaker))


def test_an_unread_pop_held_before_a_tap_is_taken_out_of_a_catch_up_rather_than_a_peg_read_in_its_home() -> None:
    # The same with the board unreadable from before the unread pop (846
    # itself): Red's 5, the unread pop and the tap's 6 are caught up at once,
    # the unread pop as a 6 with the read 6 still to move; Blue's 3 then
    # shows it was no pop.
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder, AT_ONCE)
    h3 = ["home"] * 3
    start = {"red": ["track:3", *h3], "blue": ["track:12", *h3]}
    loop.start([["red"], ["blue"]], {}, "red", start)
    loop.handle(BoardStable(1.0, start))
    loop.handle(PopSettled(2.0, 5))
    n = len(loop.events)
    loop.handle(BoardUnsettled(3.0))
    loop.handle(PopUnread(6.0))
    loop.handle(PopSettled(7.7, 6))
    loop.handle(BoardStable(10.0, {"red": ["track:8", *h3], "blue": ["track:18", *h3]}))
    loop.handle(PopSettled(11.0, 3))
    loop.handle(BoardStable(14.0, {"red": ["track:8", *h3], "blue": ["track:21", *h3]}))
    assert loop.referee.position["blue"] == sorted(["track:21", *h3])
    assert [e for e in events_after(loop, n) if e[0] not in ("undo", "turn")][-6:] == [
        ("move", 5), ("pop", 6), ("move", 6), ("extra-pop", None), ("pop", 3), ("move", 3)]
    assert loop.referee.player == "red"
    assert "illegal" not in kinds(loop)


def test_a_guess_that_stood_is_not_retold_when_a_pop_lost_unseen_before_the_read_one_explains_the_board() -> None:
    # Fresh whole game 855 at 640x480 (session 43): Blue's unread 2 worked out
    # from Blue's move; Red's flat 5 (lost: its Finish 4 blocks it) read as a
    # cocked die, so no pop was seen; Blue's 1, read after 7 s without a value,
    # given to Red; Blue's move of 1 then retold the guessed 2 as a 3, and
    # Red's next move, a 3, was called "moved 3 spaces, but the pop was 1".
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder, AT_ONCE)
    h2, h3 = ["home"] * 2, ["home"] * 3
    red = ["track:27", "finish:4", *h2]
    loop.start([["red"], ["blue"]], {}, "blue", {"red": red, "blue": ["track:3", *h3]})
    loop.handle(BoardStable(1.0, {"red": red, "blue": ["track:3", *h3]}))
    loop.handle(PopUnread(2.0))
    loop.handle(BoardStable(5.0, {"red": red, "blue": ["track:5", *h3]}))
    assert "That move means Blue popped a 2." in said(speaker)
    loop.handle(PopSettled(10.5, 1, blind_s=7.0))
    assert "Red popped 1." in said(speaker)
    loop.handle(BoardUnsettled(12.0))
    loop.handle(BoardStable(13.0, {"red": red, "blue": ["track:6", *h3]}))
    loop.handle(PopSettled(14.5, 3))
    loop.handle(BoardUnsettled(16.0))
    loop.handle(BoardStable(17.0, {"red": ["finish:2", "finish:4", *h2], "blue": ["track:6", *h3]}))
    loop.handle(Tick(30.0))
    assert "That move means Blue popped a 3." not in said(speaker)
    assert "illegal" not in kinds(loop)


def test_an_unread_pop_read_late_after_its_move_is_one_pop_rather_than_a_peg_read_in_its_home() -> None:
    # Fresh whole game 764 at 640x480 (sessions 38-43), from the loop's own
    # observations: Yellow's second 6 unread; the die read (a 6) only 5.8 s
    # later, as Yellow's hand moved the peg 21 -> 27 bumping Red; Yellow's
    # third 6 brought a peg out. The two 6s and the unread pop were taken
    # for a bring-out "misread in Home", the 6 moved, and a 6 still to move,
    # so Yellow's real move of 5 was called "moved 5 spaces, but the pop was 6".
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder)  # the live settings: a call waits CALL_HOLD_S, on the ticks
    players = [["red"], ["blue"], ["yellow"], ["green"]]

    def seen(red: list[str], yellow: list[str]) -> dict[str, list[str]]:
        return {"red": red, "blue": ["home", "track:6", "finish:3", "finish:4"], "yellow": yellow,
                "green": ["home", "finish:2", "finish:3", "finish:4"]}

    start = seen(["home", "home", "track:27", "finish:4"], ["home", "home", "track:21", "finish:4"])
    bumped = seen(["home", "home", "home", "finish:4"], ["home", "home", "track:27", "finish:4"])
    loop.start(players, {}, "yellow", start)
    for obs in with_ticks([
        BoardStable(1101.8, start), PopUnread(1102.3), BoardStable(1103.2, start), BoardUnsettled(1107.7),
        PopSettled(1108.2, 6, 0.9, 1.5), BoardStable(1110.5, bumped), PopSettled(1111.3, 6), BoardUnsettled(1112.3),
        BoardStable(1114.8, seen(["home", "home", "home", "finish:4"], ["home", "track:15", "track:27", "finish:4"])),
        PopUnread(1115.5), BoardUnsettled(1117.7), PopReadLate(1118.0, 5, 0.995),
        BoardStable(1118.8, seen(["home", "home", "home", "finish:4"], ["home", "track:4", "track:15", "finish:4"])),
        Tick(1125.0),
    ], tick_s=1 / 6):  # a tick a frame, as the game's 6 fps video gave
        loop.handle(obs)
    assert "illegal" not in kinds(loop)
    assert loop.referee.position["yellow"] == sorted(["home", "track:4", "track:15", "finish:4"])
    assert loop.referee.player == "green"


def test_a_pop_that_fits_a_move_made_with_no_pop_seen_keeps_the_next_players_pop_of_the_same_value_open() -> None:
    # Fresh whole game 872 at 640x480 (session 43), from the loop's own
    # observations: Yellow's 4 never seen, Yellow moved 11 -> Finish 1 on it;
    # Green's 4 (lost: Green has no peg out) came next and fitted Yellow's
    # move, so it was taken for Yellow's; Red's 6 then went to Green, and
    # Red's move of 6 was called "Not Red's turn". Kept open as a doubt, that
    # board is followed instead of called.
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder)
    players = [["red"], ["blue"], ["yellow"], ["green"]]

    def seen(red: str, yellow: list[str]) -> dict[str, list[str]]:
        return {"red": ["home", "home", red, "finish:4"], "blue": ["home", "home", "track:27", "finish:4"],
                "yellow": yellow, "green": ["home", "home", "finish:3", "finish:4"]}

    start = seen("track:2", ["track:6", "track:11", "track:19", "finish:4"])
    moved = seen("track:2", ["track:6", "track:19", "finish:1", "finish:4"])
    loop.start(players, {}, "yellow", start)
    for obs in with_ticks([
        BoardStable(614.0, start), BoardUnsettled(617.0), BoardStable(618.0, moved),
        PopSettled(619.8, 4, 1.0, 8.2), BoardStable(620.3, moved), PopSettled(622.0, 6), BoardStable(622.5, moved),
        BoardUnsettled(624.3), BoardStable(624.7, seen("track:8", ["track:6", "track:19", "finish:1", "finish:4"])),
        Tick(630.0),
    ], tick_s=1 / 6):
        loop.handle(obs)
    assert "That move means" not in " ".join(said(speaker))  # the 4 is Yellow's, as it fits
    assert "illegal" not in kinds(loop)



def test_a_guess_taken_back_by_a_board_is_not_made_again_on_each_later_pop() -> None:
    # Fresh whole game 958 at 640x480 (session 47). Blue (a peg on 7, one
    # step from its Finish) pops unread, Yellow's 6 and 4 go unread, and pops
    # no peg uses follow, some unread, one a stray unread rest; then Blue
    # moves 1 into its Finish. No way of playing that many unread pops is
    # searched, so the board is a move with no pop seen; the guess that
    # Blue's first pop was lost is taken back, once. Before, each later pop
    # passed Blue's turn again and the same board took it back again: "No
    # peg moved after Blue's pop", "I did not see Blue's pop" four times in
    # seven seconds. Now the next pop has the loop follow the board.
    loop, speaker, pegs = behind_near_the_end(["home", "track:7", "finish:3", "finish:4"])
    t = 20.0
    assert said(speaker).count("No peg moved after Blue's pop.") == 1
    moved = {**pegs, "blue": ["home", "finish:1", "finish:3", "finish:4"]}
    loop.handle(BoardStable(t, moved))
    undos = kinds(loop).count("undo")
    assert undos >= 1  # the guess taken back
    assert said(speaker)[-2] == "I did not see Blue's pop. Blue, say the number you popped, or pop now."
    for value in (5, 3, 6):
        t += 2.0
        loop.handle(PopSettled(t, value))
        loop.handle(BoardStable(t + 0.5, moved))
    assert kinds(loop).count("undo") == undos
    assert said(speaker).count("No peg moved after Blue's pop.") == 1
    assert said(speaker).count("I did not see Blue's pop. Blue, say the number you popped, or pop now.") == 1
    assert said(speaker).count("I have lost track of the moves. I will go by the board from here.") == 1
    assert loop.lost is not None
    assert "illegal" not in kinds(loop)


def _three_after_a_catch_up() -> tuple[Loop, ListSpeaker]:
    """Red (a peg on 16), Blue (on 26) and Yellow (all Home): Red pops 1,
    Blue's pop goes unread, and one board shows Red's 1 and Blue's peg moved
    4, so the catch-up takes Blue's pop for a 4 (truth game seed 31 with
    wrong counts left standing: Blue's 5 miscounted as 4)."""
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), AT_ONCE)
    pegs = {"red": ["track:16", "home", "home", "home"], "blue": ["track:26", "home", "home", "home"],
            "yellow": HOME4}
    loop.start([["red"], ["blue"], ["yellow"]], None, "red", pegs)
    loop.handle(BoardStable(1.0, pegs))
    loop.handle(PopSettled(2.0, 1))
    loop.handle(PopUnread(4.0))
    loop.handle(BoardStable(5.0, {**pegs, "red": ["track:17", "home", "home", "home"],
                                  "blue": ["track:2", "home", "home", "home"]}))
    assert "That move means Blue popped a 4." in said(speaker)
    return loop, speaker


def test_a_caught_up_guess_put_right_as_the_next_player_pops_is_retold() -> None:
    # The wrong count stood 4.7 s: Yellow popped 3 (no peg out: lost) and, as
    # Yellow popped, Blue put the peg on to 3. The catch-up had stood (a pop
    # released 2 s or more after its board), so the board was judged against
    # it: "Not Blue's turn: it is Red's turn." Now the board that puts the
    # guess right, in one way from before the catch-up, retells it.
    loop, speaker = _three_after_a_catch_up()
    loop.handle(PopSettled(9.7, 3))
    assert "Yellow needs a 6 to bring a peg out: the move is lost." in said(speaker)
    right = {"red": ["track:17", "home", "home", "home"], "blue": ["track:3", "home", "home", "home"],
             "yellow": HOME4}
    loop.handle(BoardStable(10.0, right))
    for t in (11.0, 12.0, 14.0):
        loop.handle(Tick(t))
    assert "illegal" not in kinds(loop)
    assert "That move means Blue popped a 5." in said(speaker)
    assert loop.referee.position == {c: sorted(p) for c, p in right.items()}


def test_the_guessed_players_own_next_pop_miscounted_is_still_called() -> None:
    # Red's unread pop and Blue's 3 are caught up from one board (Red's peg
    # 16 -> 20: a 4). Red's own next pop, a 2, moves that peg 1: a wrong
    # count of the 2, though the board is also reached in one way from
    # before the catch-up, with Red's pop a 5 and the 2 still to move. The
    # pop since is the guessed player's own: called, not retold (truth game
    # seeds 40 and 78 with wrong counts left standing).
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), AT_ONCE)
    pegs = {"red": ["track:16", "track:19", "home", "home"], "blue": ["track:26", "home", "home", "home"]}
    loop.start([["red"], ["blue"]], None, "red", pegs)
    loop.handle(BoardStable(1.0, pegs))
    loop.handle(PopUnread(2.0))
    loop.handle(PopSettled(4.0, 3))
    loop.handle(BoardStable(5.0, {"red": ["track:19", "track:20", "home", "home"],
                                  "blue": ["track:1", "home", "home", "home"]}))
    assert "That move means Red popped a 4." in said(speaker)
    loop.handle(PopSettled(9.7, 2))
    loop.handle(BoardStable(10.0, {"red": ["track:19", "track:21", "home", "home"],
                                   "blue": ["track:1", "home", "home", "home"]}))
    loop.handle(Tick(12.0))
    assert "illegal" in kinds(loop)
    assert "That peg moved 1 space, but the pop was 2." in said(speaker)


def _false_calls_in_truth_game(seed: int, unread: float, stands: float | None = None) -> int:
    """False calls in a whole seeded truth game (a perfect camera, messy
    hands, unread pops; with *stands*, wrong counts left standing that long),
    as ``companion bench referee`` judges it."""
    from companion.live.judge import SilentSpeaker, judge_loop
    from companion.live.run import feed_observations
    from companion.live.scripted import MESSY_KINDS, scripted_game
    from companion.rules import COLORS

    game = scripted_game(seed, list(COLORS[: 2 + seed % 3]), messy=0.25, unread=unread, kinds=MESSY_KINDS,
                         miscount_stands_s=stands)
    loop = Loop(Referee, SilentSpeaker())
    loop.start(game.players)
    feed_observations(loop, game.observations)
    verdict = judge_loop(loop, game.truth, illegal_at=game.illegal_at, pop_at=game.pop_at, move_at=game.move_at,
                         illegal_until=game.illegal_until, illegal_stood=game.illegal_stood,
                         hold_s=loop.settings.call_hold_s)
    return verdict.false_illegal


@pytest.mark.parametrize(("seed", "unread", "stands"), [(2, 0.1, 4.0), (29, 0.1, 4.0), (31, 0.1, 4.0),
                                                        (42, 0.3, None), (55, 0.3, None)])
def test_truth_games_with_a_catch_up_standing_when_the_next_pop_came(seed: int, unread: float,
                                                                      stands: float | None) -> None:
    # Whole seeded truth games (a perfect camera, messy hands, unread pops;
    # with ``stands``, wrong counts left standing that many seconds) in
    # which a catch-up stood when the next pop came. Seeds 2, 29 and 31: the
    # wrong count it had caught up as a guess was put right as the next
    # player popped, and the board was called (see the test above). Seeds 42
    # and 55: a move on a pop nobody saw after it, which must not retell the
    # catch-up (a first version of the retelling did, and had it called).
    assert _false_calls_in_truth_game(seed, unread, stands) == 0


def test_a_truth_game_followed_from_the_board_in_hand() -> None:
    # A truth game once held out (seeds 3000-3999, session 36), where session
    # 46's follower (``Loop._follow_turns``: the pops seen since the board
    # followed from, played in turn) put the loop back in step one pop out:
    # the pops held when it began to follow from the board in hand were
    # counted as seen since it, though their moves were on it (3123: Red's
    # 6, 14 -> 20, counted again with Red's next 6), and a right move was
    # called later (a tenth of its pops unread).
    assert _false_calls_in_truth_game(3123, 0.1) == 0


@pytest.mark.parametrize(("seed", "unread"), [(3171, 0.3), (3170, 0.3), (3260, 0.3), (3569, 0.1)])
def test_truth_games_whose_turn_the_pops_do_not_tell(seed: int, unread: float) -> None:
    # Truth games once held out (seeds 3000-3999, session 36) that session
    # 46's follower got back in step from the wrong side: the pops seen
    # since the board followed from, played in turn, fitted one side only
    # when every pop was taken as seen, while from another side they were
    # all lost and the move was made on a pop the camera never saw (3171:
    # Red's lost 6 and 4, then Blue's move of 6 on a pop seen only when
    # said, taken for Blue's 6 and an extra 4). ``whose_turn_then`` now
    # answers only when no other side fits that way either.
    assert _false_calls_in_truth_game(seed, unread) == 0


def _red_out_on_a_pop_never_seen_then_six_said(said_after: float) -> tuple[Loop, ListSpeaker]:
    """Blue's pops, the first unread, all lost (only a 1 moves a blue peg);
    Red's peg brought out at 10.0 on a 6 never seen, and "six" said
    *said_after* seconds later; then Red's unread pop, and Red's peg moved
    5 (1 -> 6)."""
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder)
    blue = ["finish:2", "finish:3", "finish:4", "track:7"]
    start = {"red": HOME4, "blue": blue}
    loop.start([["red"], ["blue"]], {}, "blue", start)
    loop.handle(BoardStable(1.0, start))
    for obs in [PopUnread(2.0), PopSettled(4.0, 6), PopSettled(6.0, 4)]:
        loop.handle(obs)
        loop.handle(BoardStable(obs.t + 0.6, start))
    loop.handle(BoardStable(10.0, {"red": ["track:1", "home", "home", "home"], "blue": blue}))
    assert said(speaker)[-1] == "Red popped 4."  # the history without a pop nobody saw, taken first
    said_at = 10.0 + said_after
    loop.handle(Spoken(said_at, "pop", {"value": 6}))
    assert said(speaker)[-1] == "I saw a 4 on the die. Say it again if you are sure."
    loop.handle(PopUnread(said_at + 2.0))
    loop.handle(BoardStable(said_at + 4.0, {"red": ["track:6", "home", "home", "home"], "blue": blue}))
    return loop, speaker


def test_a_number_said_after_a_move_on_a_pop_the_camera_never_saw_keeps_that_history_open() -> None:
    # Truth games at a tenth unread (seeds 5345, 5467, 5685, 5769, held out
    # until session 54): the loop had given Blue's unread pop a value no
    # peg uses and Blue's read 6 and 4 to Red ("Red popped 4."), so Red's
    # "six" is answered with the die the camera read, and Red's next move,
    # on an unread 5, was called "moved 5 spaces, but the pop was 4". The
    # number said moments after the board may be that move's own pop: the
    # history with it stays open, and the board is not called.
    loop, speaker = _red_out_on_a_pop_never_seen_then_six_said(1.0)
    assert "illegal" not in kinds(loop)
    assert said(speaker)[-1] == "I have lost track of the moves. I will go by the board from here."


def test_a_number_said_long_after_the_board_is_not_taken_for_its_moves_pop() -> None:
    # The same, with "six" said 5 s after the board: not that move's pop
    # said as the player lets go, and Red's move of 5 on a read 4 is called.
    loop, _ = _red_out_on_a_pop_never_seen_then_six_said(5.0)
    assert "illegal" in kinds(loop)


@pytest.mark.parametrize(("seed", "unread"), [(5345, 0.1), (5467, 0.1), (5685, 0.1), (5769, 0.1), (5345, 0.3)])
def test_truth_games_with_a_move_on_a_pop_never_seen_said_after_it(seed: int, unread: float) -> None:
    # Held out until session 54 (truth seeds 5000-5999 at a tenth unread,
    # 5000-5499 at three tenths): the case of the test above, in whole
    # games.
    assert _false_calls_in_truth_game(seed, unread) == 0


def _red_unread_blue_5_yellow_6(moved_on_at: float) -> Loop:
    """Red's unread pop, a 5 and a 6 read, Blue's peg moved 5 (10 -> 15), and
    moved on to 16 at *moved_on_at*: the loop, taking Red's pop as lost,
    gave the 5 to Blue and the 6 to Yellow."""
    speaker, recorder = ListSpeaker(), ListRecorder()
    loop = Loop(Referee, speaker, recorder)
    red = ["finish:2", "finish:3", "finish:4", "track:28"]  # only a 1 moves a red peg

    def seen(blue: str) -> dict[str, list[str]]:
        return {"red": red, "blue": [blue, "home", "home", "home"], "yellow": HOME4}

    loop.start([["red"], ["blue"], ["yellow"]], {}, "red", seen("track:10"))
    loop.handle(BoardStable(1.0, seen("track:10")))
    for obs in [PopUnread(2.0), PopSettled(4.0, 5), PopSettled(6.0, 6)]:
        loop.handle(obs)
        loop.handle(BoardStable(obs.t + 0.6, seen("track:10")))
    loop.handle(BoardStable(7.0, seen("track:15")))
    assert said(speaker)[-3:] == ["Blue moves 5 from space 10 to Yellow's Start.", "Yellow's turn.",
                                  "Yellow popped a 6."]
    loop.handle(BoardStable(moved_on_at, seen("track:16")))
    for t in range(int(moved_on_at) + 1, int(moved_on_at) + 6):
        loop.handle(Tick(float(t)))
    return loop


def test_a_move_a_guess_made_legal_put_right_at_once_is_not_called() -> None:
    # Truth game seed 5771 at a tenth unread (held out until session 54):
    # Red's unread 6 and extra 5 both lost, then Blue's 6 moved 5 and put
    # right a second later. Taking Red's pop as lost made the wrong count
    # legal (Blue's 5), so the board put right was called "Not Blue's turn".
    # Before the guess, Red's 6 and 5, and Blue's 6, reach it.
    loop = _red_unread_blue_5_yellow_6(8.0)
    assert "illegal" not in kinds(loop)
    assert loop.said[-1].text == "I have lost track of the moves. I will go by the board from here."


def test_a_peg_moved_on_after_its_move_stood_is_called() -> None:
    # The same peg moved on 4 s later, its move having stood: called.
    loop = _red_unread_blue_5_yellow_6(11.0)
    assert "illegal" in kinds(loop)


def test_a_board_followed_that_changed_a_moment_later_with_no_pop_between_does_not_say_whose_move() -> None:
    # Truth game seed 5260 at three tenths unread (held out until session
    # 54): lost track on a board of Blue's 6 moved 5, the pop unread, put
    # right a second later. Followed from that board, the change (one space,
    # Blue's) was taken for Blue's move on the unread pop, the turn passed
    # to Yellow, and Blue's next move, on Blue's extra pop, was called
    # "Not Blue's turn". The loop follows from the board put right instead.
    assert _false_calls_in_truth_game(5260, 0.3) == 0


def _blue_by_its_finish() -> tuple[Loop, ListSpeaker, dict[str, list[str]], dict[str, list[str]]]:
    """Red, Blue, Yellow; Blue to pop with one peg on 5 by its full-but-one
    Finish (it can use a 1, 2 or 3 only), Yellow's on 20. Returns the loop,
    its speaker, the board and the board after Blue's move of 2."""
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), LoopSettings(call_hold_s=2.0))
    before = {"red": HOME4, "blue": ["finish:2", "finish:3", "finish:4", "track:5"],
              "yellow": [*HOME4[:3], "track:20"]}
    loop.start([["red"], ["blue"], ["yellow"]], {}, "blue", before)
    return loop, speaker, before, {**before, "blue": ["finish:2", "finish:3", "finish:4", "track:7"]}


def test_a_six_read_before_a_move_on_an_unread_pop_does_not_contradict_the_next_players_number() -> None:
    # Blue's pop unread, then a 6 read two seconds later with no move
    # between (Blue can use only a 1, 2 or 3: the unread pop may have been
    # a lost 6 and the 6 read Blue's extra pop, or a 2 and the 6 Yellow's,
    # popped early; asked). Blue moves 2 and says "two": taken, and the 6
    # goes to Yellow. Yellow moves 5 and says "five": the 6 may have been
    # Blue's own, Yellow's pop unseen, so the camera does not contradict the
    # number; it corrects the pop, and the move is not called (truth seed
    # 6229 at three tenths: "I saw a 6 on the die. Say it again if you are
    # sure." and, a second later, "That peg moved 5 spaces, but the pop was 6.").
    loop, speaker, before, moved = _blue_by_its_finish()
    for obs in with_ticks([BoardStable(1.0, before), PopUnread(3.0), BoardStable(3.6, before),
                           PopSettled(5.0, 6), BoardStable(5.6, before)]):
        loop.handle(obs)
    assert said(speaker)[-1] == "Blue, say the number you popped."
    for obs in [BoardStable(9.0, moved), Spoken(10.0, "pop", {"value": 2})]:
        loop.handle(obs)
    assert said(speaker)[-2:] == ["Yellow's turn.", "Yellow popped a 6."]
    n = len(loop.events)
    for obs in with_ticks([BoardStable(14.0, {**moved, "yellow": [*HOME4[:3], "track:25"]}),
                           Spoken(15.0, "pop", {"value": 5}), Tick(20.0)]):
        loop.handle(obs)
    assert "illegal" not in kinds(loop)
    assert "Corrected: Yellow's pop was 5." in said(speaker)
    assert events_after(loop, n)[:3] == [("correct", 5), ("pop", 5), ("move", 5)]


def test_a_six_read_after_the_move_before_it_still_contradicts_the_next_players_number() -> None:
    # The same table, but Blue's 2 is read and moved, and then Yellow's 6 is
    # read: Yellow's "five" is answered with what the camera saw.
    loop, speaker, before, moved = _blue_by_its_finish()
    for obs in with_ticks([BoardStable(1.0, before), PopSettled(3.0, 2), BoardStable(6.0, moved),
                           PopSettled(8.0, 6), BoardStable(11.0, {**moved, "yellow": [*HOME4[:3], "track:25"]}),
                           Spoken(12.0, "pop", {"value": 5})]):
        loop.handle(obs)
    assert "I saw a 6 on the die. Say it again if you are sure." in said(speaker)


def test_a_guessed_move_that_stood_while_play_went_on_is_not_retold_by_the_next_move() -> None:
    # Blue's pop unread and Blue moves 8 -> 9: "That move means Blue popped
    # a 1." Red's pop, popped as Blue moved, unread too (Red can only lose
    # it), and Blue's next pop unread; then Blue moves 9 -> 11. The pops
    # seen since the guess carry the game to that board: it is Blue's next
    # move (a 2), not the guessed move made differently, which retold it as
    # 8 -> 11 on a 3 and put the turns a pop out (truth seed 7164 at three
    # tenths, whose Blue's 16 was then called a wrong count).
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), LoopSettings(call_hold_s=1.5))
    before = {"red": HOME4, "blue": [*HOME4[:3], "track:8"]}
    loop.start([["red"], ["blue"]], {}, "blue", before)
    blue = lambda place: {"red": HOME4, "blue": [*HOME4[:3], place]}  # noqa: E731
    for obs in with_ticks([BoardStable(11.0, before), PopUnread(13.0), PopUnread(14.7), BoardStable(15.0, blue("track:9")),
                           PopUnread(19.0), BoardStable(20.0, blue("track:11")), Tick(24.0)]):
        loop.handle(obs)
    assert "That move means Blue popped a 1." in said(speaker)
    assert not any("Blue's Start to space 11" in line for line in said(speaker))
    moves = [(e["from"], e["to"]) for _, e in loop.events if e["event"] == "move"]
    assert moves[-2:] == [("track:8", "track:9"), ("track:9", "track:11")]
    assert "illegal" not in kinds(loop)


def _blue_guessed_2_then_red_4(moved_on_at: float) -> tuple[Loop, ListSpeaker]:
    """Blue's pop unread and Blue's move 14 -> 16 ("That move means Blue
    popped a 2."), Red's lost 4 at 4.7 s, and Blue's peg on 17 at
    *moved_on_at*."""
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), LoopSettings(call_hold_s=1.5))
    blue = lambda place: {"red": HOME4, "blue": [*HOME4[:3], place]}  # noqa: E731
    loop.start([["red"], ["blue"]], {}, "blue", blue("track:14"))
    for obs in with_ticks([BoardStable(1.0, blue("track:14")), PopUnread(3.0), BoardStable(4.0, blue("track:16")),
                           PopSettled(4.7, 4), BoardStable(moved_on_at, blue("track:17")), Tick(9.0)]):
        loop.handle(obs)
    assert "That move means Blue popped a 2." in said(speaker)
    return loop, speaker


def test_a_guessed_move_put_right_just_after_the_next_pop_is_retold_not_taken_for_a_move_on_a_pop_unseen() -> None:
    # Red pops a 4 (lost: no red peg out) and 0.3 s later Blue's peg is on
    # 17. No pop came after Red's, so that is not Blue's next move on a pop
    # nobody saw: Blue's 3 put right (truth seed 8055 at a tenth unread,
    # where it was taken for Blue's move of 1, Blue's next 6 went to Red,
    # and Blue's move on it was called).
    loop, speaker = _blue_guessed_2_then_red_4(5.0)
    moves = [(e["from"], e["to"], e["value"]) for _, e in loop.events if e["event"] == "move"]
    assert moves[-1] == ("track:14", "track:17", 3)
    assert not any("I did not see Blue's pop" in line for line in said(speaker))
    assert loop.referee.player == "blue" and loop.referee.phase == "pop"  # Red's 4 lost: Blue to pop
    # Blue pops a 6, brings a peg out and moves it 3: no call.
    for obs in with_ticks([PopSettled(10.0, 6), PopSettled(12.0, 3), BoardStable(14.0, {"red": HOME4, "blue": [
            *HOME4[:2], "track:11", "track:17"]}), Tick(18.0)]):
        loop.handle(obs)
    assert "illegal" not in kinds(loop)


def test_a_move_on_a_pop_unseen_a_second_after_the_next_pop_is_still_asked_for() -> None:
    # The same board a second and more after Red's pop: Blue may have
    # popped unseen since, so it is taken for Blue's next move, and asked.
    loop, speaker = _blue_guessed_2_then_red_4(6.5)
    assert "I did not see Blue's pop. Blue, say the number you popped, or pop now." in said(speaker)
    assert "illegal" not in kinds(loop)


def test_a_pop_taken_for_the_one_before_read_twice_is_taken_back_when_the_board_is_put_right() -> None:
    # Blue's 3 lost (no blue peg out), the board seen unchanged, and Red's 3
    # two seconds later; then Blue's 4 and Red's 2 with no board seen, and
    # Red's peg on 11: only Red's 3 taken for Blue's read twice (and the 4
    # Red's) makes that a move. Half a second later Red's peg is on 10, the
    # 3 played (a wrong count put right), then on 12 with the 2. The 3 is
    # given back: no call, then or on Red's next move (truth seeds 8373
    # and 8082 at a tenth unread, where Red's next move was called).
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), LoopSettings(call_hold_s=1.5))
    red = lambda place: {"red": [*HOME4[:3], place], "blue": HOME4}  # noqa: E731
    loop.start([["red"], ["blue"]], {}, "blue", red("track:7"))
    for obs in with_ticks([BoardStable(1.0, red("track:7")), PopSettled(2.0, 3), BoardStable(2.6, red("track:7")),
                           PopSettled(4.6, 3), PopSettled(8.6, 4), PopSettled(10.6, 2),
                           BoardStable(11.6, red("track:11")), BoardStable(12.1, red("track:10")),
                           BoardStable(12.6, red("track:12")), Tick(16.0)]):
        loop.handle(obs)
    assert "I read the 3 twice: that was no pop." in said(speaker)
    moves = [(e["from"], e["to"], e["value"]) for _, e in loop.events if e["event"] == "move"]
    assert moves[-2:] == [("track:7", "track:10", 3), ("track:10", "track:12", 2)]
    assert loop.referee.player == "blue"
    for obs in with_ticks([Tick(16.0), PopSettled(17.0, 5), BoardStable(17.6, red("track:12")), PopSettled(19.0, 4),
                           BoardStable(21.0, red("track:16")), Tick(25.0)]):
        loop.handle(obs)
    assert "illegal" not in kinds(loop)
    assert loop.referee.position["red"] == sorted([*HOME4[:3], "track:16"])


def test_a_wrong_count_a_guess_made_legal_put_right_is_not_called_on_the_moves_after_it() -> None:
    # Blue, by its Finish, can use a 1, 2, 3 or 5. Blue's pop unread (a 6,
    # blocked), Blue's extra 4 (blocked), Red's 3 (lost), Blue's 2, each seen
    # with the board unchanged until Blue moves 4 -> 7, a wrong count. Taken
    # as Blue's lost 4, the pops go one player out and the move is legal
    # (Blue's 3); Blue puts it right to 6 a second later (seen as a peg a
    # hole back), and Red brings a peg out on the next 6, which the loop
    # gave Blue. Before the guess, the pops reach that board but for the
    # wrong count: followed, not called (truth seed 8544 at a tenth unread,
    # "The board does not match one move").
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), LoopSettings(call_hold_s=1.5))
    fin = ["finish:1", "finish:3", "finish:4"]
    seen = lambda blue, red="home": {"red": ["finish:2", "finish:3", "finish:4", red],  # noqa: E731
                                     "blue": [*fin, blue]}
    loop.start([["red"], ["blue"]], {}, "blue", seen("track:4"))
    steps: list[Observation] = [BoardStable(1.0, seen("track:4"))]
    for t, pop in ((3.0, PopUnread(3.0)), (5.0, PopSettled(5.0, 4)), (7.0, PopSettled(7.0, 3))):
        steps += [pop, BoardStable(t + 0.6, seen("track:4"))]
    steps += [PopSettled(9.0, 2), BoardStable(10.0, seen("track:7")), BoardStable(10.5, seen("track:4")),
              BoardStable(11.0, seen("track:6")), PopSettled(18.8, 6), BoardStable(20.8, seen("track:6", "track:1")),
              Tick(32.0)]
    for obs in with_ticks(steps):
        loop.handle(obs)
    assert "No peg moved, so Blue's pop must have been a 4." in said(speaker)
    assert "illegal" not in kinds(loop)
    assert loop.said[-1].text == "I have lost track of the moves. I will go by the board from here."


def test_a_guessed_move_whose_peg_was_only_lifted_is_no_wrong_count_put_right() -> None:
    # Blue's unread pop given 4 from Blue's move 25 -> 1, the peg lifted a
    # moment and seen back on 1 for seconds; Yellow's and Red's pops lost,
    # then Blue's 1 moved 1 -> 3 and left standing: a wrong count, called.
    # (Taken for the guessed move put right, the history before the guess
    # explained it as Blue's 5 and 1, and it was asked about, not called:
    # truth seed 7 with wrong counts left standing 4 s.)
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), LoopSettings(call_hold_s=1.5))
    red = ["finish:3", "finish:4", "home", "track:28"]
    seen = lambda *blue: {"red": red, "blue": ["finish:4", "home", "home", *blue],  # noqa: E731
                          "yellow": ["finish:3", "finish:4", "home", "home"]}
    loop.start([["red"], ["blue"], ["yellow"]], {}, "blue", seen("track:25"))
    steps = [BoardStable(1.0, seen("track:25")), PopUnread(3.0), BoardStable(5.0, seen("track:1")),
             BoardStable(5.6, seen()), BoardStable(11.0, seen("track:1")), PopSettled(13.0, 4),
             BoardStable(13.6, seen("track:1")), PopSettled(15.0, 3), BoardStable(15.6, seen("track:1")),
             PopSettled(17.0, 1), BoardStable(18.0, seen("track:3")), Tick(22.0)]
    for obs in with_ticks(steps):
        loop.handle(obs)
    assert "That move means Blue popped a 4." in said(speaker)
    assert kinds(loop)[-1] == "illegal"
    assert said(speaker)[-1] == "That peg moved 2 spaces, but the pop was 1."


def test_a_catch_up_that_stood_four_seconds_in_floating_time_is_not_retold() -> None:
    # Red's pop unread, Blue's 1 read, then one board of Red's 5 -> 7 and
    # Blue's 21 -> 22: Red's pop worked out as a 2. Red's peg moves on to
    # 10 four seconds later (the times as a truth game's clock sums them,
    # 3.99999999999998 s apart) on a pop nobody saw: Red's next move, asked
    # for, not the worked-out 2 retold as a 5 (truth seed 7428 at three
    # tenths unread, whose Blue's next move was then called out of turn).
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), LoopSettings(call_hold_s=1.5))
    seen = lambda red, blue: {"red": ["finish:1", "home", "home", red],  # noqa: E731
                              "blue": [*HOME4[:3], blue]}
    loop.start([["red"], ["blue"]], {}, "red", seen("track:5", "track:21"))
    steps = [BoardStable(110.0, seen("track:5", "track:21")), PopUnread(111.9), BoardStable(112.5, seen("track:5", "track:21")),
             PopSettled(123.88755425195389, 1), BoardStable(125.88755425195389, seen("track:7", "track:22")),
             BoardStable(129.88755425195387, seen("track:10", "track:22")), Spoken(130.9, "pop", {"value": 3}),
             PopUnread(132.9), BoardStable(134.9, seen("track:10", "track:24")), Tick(140.0)]
    for obs in with_ticks(steps):
        loop.handle(obs)
    assert "That move means Red popped a 2." in said(speaker)
    assert "That move means Red popped a 5." not in said(speaker)
    assert "illegal" not in kinds(loop)
    assert loop.referee.position["blue"] == sorted([*HOME4[:3], "track:24"])


@pytest.mark.parametrize(("seed", "unread"), [(8055, 0.1), (8082, 0.1), (8373, 0.1), (8544, 0.1), (7428, 0.3),
                                               (7887, 0.1)])
def test_truth_games_traced_in_session_57_make_no_false_call(seed: int, unread: float) -> None:
    # Truth seeds 8000-8999 at a tenth unread (held out until the end of
    # session 56), 7428 at three tenths and 7887 at a tenth, each with a
    # false call before session 57: the cases of the tests above, in whole
    # games.
    assert _false_calls_in_truth_game(seed, unread) == 0


def test_a_catch_up_of_a_board_that_stood_unexplained_is_not_retold_by_the_next_move() -> None:
    # Red's 6 lost and its extra pop unread, Blue's 5 and Red's 3 read, then
    # Red's peg 22 -> 26:
    # several ways, asked. The board is lost for 4 s, Blue's 3 read, and the
    # board seen again as it was: caught up (Red's 1, Blue's 5, Red's 3,
    # Blue's 3). Red moves 26 -> Finish 1 3.4 s later, on a pop nobody saw:
    # the board caught up had stood 11 s, so that is Red's next move, asked
    # for, not the catch-up put right (truth seed 7887 at a tenth unread,
    # where it was taken back, Red's "three" taken for Blue's pop said
    # again, and Red's winning move called).
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), LoopSettings(call_hold_s=1.5))
    blue = ["finish:3", "finish:4", "home", "home"]
    seen = lambda *red: {"red": ["finish:3", "finish:4", *red], "blue": blue}  # noqa: E731
    loop.start([["red"], ["blue"]], {}, "red", seen("track:22", "track:28"))
    steps = [BoardStable(400.0, seen("track:22", "track:28")), PopSettled(402.6, 6),
             BoardStable(403.2, seen("track:22", "track:28")), PopUnread(404.6), PopSettled(408.6, 5),
             PopSettled(410.6, 3), BoardStable(412.6, seen("track:26", "track:28")), BoardLost(413.3), BoardFound(417.6),
             PopSettled(419.6, 3), BoardStable(420.2, seen("track:26", "track:28")),
             BoardStable(423.6, seen("finish:1", "track:28")), Spoken(424.6, "pop", {"value": 3}),
             PopSettled(426.6, 2), BoardStable(427.2, seen("finish:1", "track:28")), PopSettled(428.6, 2),
             BoardStable(430.6, seen("finish:1", "finish:2")), Tick(434.0)]
    for obs in with_ticks(steps):
        loop.handle(obs)
    assert "That move means Red popped a 1." in said(speaker)
    assert "I did not see Red's pop. Red, say the number you popped, or pop now." in said(speaker)
    assert "illegal" not in kinds(loop)
    assert "Game over: Red wins." in said(speaker)
