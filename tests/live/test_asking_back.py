"""Asking back: a pop worked out from a move is put to the player.

When the camera could not read a pop and exactly one value makes the move
that follows legal, the loop takes that value ("That move means Blue popped a
4.") and asks "Blue, was your pop a 4?". A wrong count made on an unread pop
looks exactly like a right count of another number, so without the players'
word it could never be called. "No" takes the guess back and asks for the
number; the move is then judged with it. Silence or "yes" lets the guess
stand; a "no" with no number after it does not stall the game.

The loop also tells the listener what answer it waits for, so that a bare
"five" or "no" is heard without the wake word.
"""

from __future__ import annotations

from test_live_loop import ListSpeaker, board, events_after, kinds, said, started

from companion.live.loop import ANSWER_WAIT_S, Loop
from companion.live.observations import BoardStable, PopSettled, PopUnread, Spoken, Tick

H3 = ["home", "home", "home"]
BLUE_ON_10 = ["track:10", *H3]


def _blue_moved_4_on_an_unread_pop() -> tuple[Loop, ListSpeaker, int, list[str]]:
    """Red cannot move its 4; Blue's pop is unread, and Blue's peg goes 10 -> 14."""
    loop, speaker, _ = started()
    expected: list[str] = []
    loop.on_expect = expected.append
    loop.handle(PopSettled(8.0, 4))
    n = len(loop.events)
    loop.handle(PopUnread(9.0))
    loop.handle(BoardStable(10.0, board(blue=["track:14", *H3])))
    return loop, speaker, n, expected


def test_the_worked_out_pop_is_asked_back_and_the_listener_told() -> None:
    loop, speaker, n, expected = _blue_moved_4_on_an_unread_pop()
    assert events_after(loop, n) == [("pop", 4), ("move", 4), ("turn", None)]
    lines = said(speaker)
    assert lines[-4:] == ["That move means Blue popped a 4.", "Blue moves 4 from space 10 to space 14.",
                          "Blue, was your pop a 4?", "Red's turn."]
    assert expected == ["yes-no"]


def test_no_then_the_number_calls_the_wrong_count() -> None:
    loop, speaker, n, expected = _blue_moved_4_on_an_unread_pop()
    loop.handle(Spoken(11.5, "no"))
    assert "Then Blue, say the number you popped." in said(speaker)
    assert expected == ["yes-no", "number"]
    assert loop.unread is not None and loop.referee.player == "blue"  # the guess is undone
    loop.handle(Tick(12.0))
    assert "illegal" not in kinds(loop)  # nothing called before the number
    loop.handle(Spoken(13.0, "pop", {"value": 5}))
    assert kinds(loop)[-1] == "illegal"
    assert speaker.lines[-1] == ("That peg moved 4 spaces, but the pop was 5.", True)  # urgent
    # Put right: moved 5, from 10 to 15.
    loop.handle(BoardStable(15.0, board(blue=["track:15", *H3])))
    after = [k for k in events_after(loop, n) if k[0] in ("pop", "move", "illegal", "turn")]
    assert after[-4:] == [("pop", 5), ("illegal", None), ("move", 5), ("turn", None)]
    assert loop.question is None


def test_yes_lets_the_guess_stand() -> None:
    loop, speaker, n, _ = _blue_moved_4_on_an_unread_pop()
    before = list(loop.events)
    loop.handle(Spoken(11.5, "yes"))
    assert said(speaker)[-1] == "Thank you."
    assert loop.events == before and loop.question is None
    loop.handle(PopSettled(13.0, 2))  # Red plays on as usual
    assert ("pop", 2) in events_after(loop, n)[3:]


def test_silence_lets_the_guess_stand() -> None:
    loop, speaker, n, _ = _blue_moved_4_on_an_unread_pop()
    loop.handle(Tick(20.0))
    loop.handle(PopSettled(21.0, 6))
    assert events_after(loop, n)[:3] == [("pop", 4), ("move", 4), ("turn", None)]
    assert "illegal" not in kinds(loop)
    # A late "no", after the next pop was played, cannot reach back.
    loop.handle(BoardStable(22.0, board(red=["track:1", *H3], blue=["track:14", *H3])))
    loop.handle(Spoken(23.0, "no"))
    assert "illegal" not in kinds(loop)


def test_no_without_a_number_does_not_stall_the_game() -> None:
    # A "no" misheard in table talk, say: nobody gives a number.
    loop, speaker, n, _ = _blue_moved_4_on_an_unread_pop()
    loop.handle(Spoken(11.5, "no"))
    loop.handle(Tick(11.5 + ANSWER_WAIT_S + 0.5))
    assert "Nobody said Blue's number, so I take the move as it is." in said(speaker)
    assert [k for k in events_after(loop, n) if k[0] in ("pop", "move", "turn")][-3:] == [
        ("pop", 4), ("move", 4), ("turn", None)]
    assert "illegal" not in kinds(loop)
    assert said(speaker).count("Blue, was your pop a 4?") == 1  # asked once only
    loop.handle(PopSettled(25.0, 6))  # Red's turn goes on
    assert ("pop", 6) in events_after(loop, n)[3:]


def test_too_late_once_another_move_is_played() -> None:
    loop, speaker, n, _ = _blue_moved_4_on_an_unread_pop()
    loop.handle(PopSettled(11.0, 6))
    loop.handle(BoardStable(12.0, board(red=["track:1", *H3], blue=["track:14", *H3])))
    loop.handle(Spoken(13.0, "no"))
    assert said(speaker)[-1] == "It is too late to change Blue's pop: say referee, undo, to take moves back."
    assert "illegal" not in kinds(loop)


def test_yes_or_no_to_nothing_changes_nothing() -> None:
    loop, speaker, _ = started()
    before, lines = list(loop.events), said(speaker)
    loop.handle(Spoken(8.0, "no"))
    loop.handle(Spoken(9.0, "yes"))
    assert loop.events == before and said(speaker) == lines


def test_not_asked_while_the_camera_cannot_read_the_die() -> None:
    # Most recent pops unread: the players have been told the pops are
    # worked out from the moves; a question after each would be nagging.
    loop, speaker, _ = started()
    loop.pops_read.extend([False] * 6)
    loop.handle(PopSettled(8.0, 4))
    n = len(loop.events)
    loop.handle(PopUnread(9.0))
    assert loop._die_blind()
    loop.handle(BoardStable(10.0, board(blue=["track:14", *H3])))
    assert events_after(loop, n) == [("pop", 4), ("move", 4), ("turn", None)]
    assert not any("was your pop" in text for text in said(speaker))
    assert loop.question is None


def test_players_who_answer_let_wrong_counts_on_unread_pops_be_called() -> None:
    # Seeded truth games (seeds 8-11) where a tenth of pops are unread and a
    # wrong count stands 4 s before it is put right: without answers the
    # loop takes most of those for the pop they fit; with a table that
    # answers its questions truthfully, they are called, and no false call
    # comes of it (figures in docs/live.md, "Asking back"). Session 31: 11
    # without answers (10 before: seed 11's wrong count of Red's, right after
    # the board was lost for 4 s, is explained by a history from before a
    # guess with a peg it brought out onto its Start seen in its Home, see
    # Loop._doubt_explains).
    from companion.bench.referee import _players, _truth_game
    from companion.live.answering import Habits

    missed = {False: 0, True: 0}
    for answers in (False, True):
        for seed in range(8, 12):
            verdict, *_ = _truth_game(seed, _players(seed, 0), 0.25, 0.1, None, Habits(answers=answers), 4.0)
            assert verdict.false_illegal == 0
            missed[answers] += verdict.missed_illegal
    assert missed[False] == 11
    assert missed[True] <= 3


def test_the_table_answers_the_question_about_the_pop_the_loop_means() -> None:
    from companion.live.answering import AnsweringTable
    from companion.live.loop import Announcement

    table = AnsweringTable([(10.0, "blue", 6), (12.0, "blue", 2), (14.0, "red", 3)])
    asked = Announcement(15.0, "Blue, was your pop a 6?", expects="yes-no", about=10.0)
    assert [(s.intent, s.t) for s in table.hear(asked)] == [("yes", 16.5)]
    latest = Announcement(15.0, "Blue, was your pop a 6?", expects="yes-no")
    assert [s.intent for s in table.hear(latest)] == ["no"]  # the last unread pop: a 2
    number = Announcement(15.0, "Then Red, say the number you popped.", expects="number")
    assert [(s.intent, s.value) for s in table.hear(number)] == [("pop", {"value": 3})]
    assert table.hear(Announcement(15.0, "I did not see Red's pop. Red, say the number you popped, or pop now.")) == []
    assert table.hear(Announcement(15.0, "Green, was your pop a 2?")) == []  # no unread pop of Green's
    assert table.answers == 3
    # A pop popped after the question is not the one it means, however near
    # the time the loop names (fresh game 437: Yellow's 4, popped a second
    # after "Yellow, was your pop a 6?", answered it "no").
    later = AnsweringTable([(10.0, "yellow", 6), (12.0, "yellow", 6), (15.5, "yellow", 4)])
    about_second = Announcement(14.5, "Yellow, was your pop a 6?", expects="yes-no", about=14.0)
    assert [s.intent for s in later.hear(about_second)] == ["yes"]


def test_a_table_asked_to_say_each_number_says_every_later_pop() -> None:
    # "Say each number as you pop it" (the camera cannot read the die): a
    # table given every pop of the game says each later one's number, read
    # by the camera or not, NUMBER_DELAY_S after it settles, once; a table
    # that only answers questions says nothing to it.
    from companion.live.answering import NUMBER_DELAY_S, AnsweringTable
    from companion.live.loop import DIE_BLIND_SAID, Announcement

    pops = [(10.0, "blue", 6), (14.0, "blue", 2), (18.0, "red", 3)]
    asked = Announcement(13.5, DIE_BLIND_SAID)
    assert AnsweringTable(pops).hear(asked) == []
    table = AnsweringTable(pops, every_pop=pops)
    numbers = table.hear(asked)
    assert [(s.t, s.intent, s.value) for s in numbers] == [
        (14.0 + NUMBER_DELAY_S, "pop", {"value": 2}), (18.0 + NUMBER_DELAY_S, "pop", {"value": 3})]
    assert table.hear(Announcement(20.0, DIE_BLIND_SAID)) == []  # said already


def test_a_table_that_counts_aloud_says_one_as_each_move_along_the_track_is_counted() -> None:
    # Each move along the track is counted at COUNT_SPACE_S a space to the
    # moment the peg comes down; its "one" reaches the loop as a pop
    # correction (the listener takes a bare number so, in the 10 s after a
    # pop), but not before its pop has settled and been looked at. A peg
    # brought out is not counted, nor a count begun too late to be heard.
    from companion.live.answering import (
        COUNT_HEARD_S,
        COUNT_SPACE_S,
        NUMBER_DELAY_S,
        AnsweringTable,
        Answers,
        Habits,
        counts_of,
    )
    from companion.voice.policy import POP_WINDOW_S

    assert COUNT_HEARD_S == POP_WINDOW_S
    events = [{"event": "pop", "color": "red", "value": 6},
              {"event": "move", "color": "red", "value": 6, "from": "home", "to": "red:start"},
              {"event": "pop", "color": "red", "value": 4},
              {"event": "move", "color": "red", "value": 4, "from": "track:1", "to": "track:5"},
              {"event": "pop", "color": "blue", "value": 5},
              {"event": "move", "color": "blue", "value": 5, "from": "track:10", "to": "track:15"},
              {"event": "pop", "color": "red", "value": 3},
              {"event": "move", "color": "red", "value": 3, "from": "track:5", "to": "track:8"}]
    pop_at, move_at = [1.0, 4.0, 10.0, 20.0], [3.0, 8.0, 12.0, 32.0]
    assert counts_of(events, pop_at, move_at) == [
        8.0 - 4 * COUNT_SPACE_S,  # counted to the moment the peg came down
        10.0 + NUMBER_DELAY_S]  # a quick move: not before the pop was looked at
    # (the last count begins 10.5 s after its pop, past the listener's window)
    assert Habits().table([], events, pop_at, move_at) is None
    table = Habits(count_aloud=True).table([], events, pop_at, move_at)
    assert table is not None and table.counts == [6.0, 11.0]
    loop, _, _ = started()
    answers = Answers(loop, AnsweringTable([], counts=[6.0]))
    assert answers.due(5.9) == [] and answers.due(6.0) == [Spoken(6.0, "pop", {"value": 1})]


def test_a_board_judged_again_after_a_voice_change_is_not_called_twice() -> None:
    # After the players say a number the loop judges the last board again;
    # a board it has called already, still wrong, is not called again (in
    # seeded games the answer to "say the number you popped" repeated a call).
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))  # Red cannot move
    loop.handle(PopSettled(9.0, 3))
    loop.handle(BoardStable(10.0, board(blue=["track:15", *H3])))
    assert kinds(loop)[-1] == "illegal"
    calls = said(speaker).count("That peg moved 5 spaces, but the pop was 3.")
    loop.reevaluate()
    assert kinds(loop).count("illegal") == 1 and loop.illegal_board is not None
    assert said(speaker).count("That peg moved 5 spaces, but the pop was 3.") == calls
    loop.handle(BoardStable(12.0, board(blue=["track:13", *H3])))  # put right
    assert kinds(loop)[-2:] == ["move", "turn"]


def test_not_asked_when_nobody_can_answer() -> None:
    # companion play --no-listen / --no-ask-back, and replays: no question.
    from test_live_loop import ListRecorder

    from companion.live.loop import LoopSettings
    from companion.referee import Referee

    speaker = ListSpeaker()
    loop = Loop(Referee, speaker, ListRecorder(), LoopSettings(ask_back=False))
    loop.start([["red"], ["blue"]])
    for obs in [BoardStable(1.0, board()), PopSettled(2.0, 3), PopSettled(3.0, 5), PopSettled(4.0, 6),
                BoardStable(5.0, board(blue=["track:8", *H3])), PopSettled(6.0, 2),
                BoardStable(7.0, board(blue=["track:10", *H3])), PopSettled(8.0, 4), PopUnread(9.0),
                BoardStable(10.0, board(blue=["track:14", *H3]))]:
        loop.handle(obs)
    assert "That move means Blue popped a 4." in said(speaker)
    assert not any("was your pop" in text for text in said(speaker)) and loop.question is None


def test_a_call_counts_while_the_wrong_board_stands() -> None:
    # A rendered wrong count stands until the table puts it back (the next
    # board input): the call may come until then, as after asking back.
    from companion.live.clips import truth_of
    from companion.live.judge import judge

    wrong = {"board": {"red": ["track:3"]}}
    frames = [{"time": 1.0, "inputs": [wrong], "events": [{"event": "illegal"}]},
              {"time": 2.0, "inputs": [], "events": []},
              {"time": 4.5, "inputs": [{"board": {"red": ["track:1"]}}], "events": []},
              {"time": 9.0, "inputs": [wrong], "events": [{"event": "illegal"}]}]
    truth = truth_of(frames)
    assert truth.illegal_at == [1.0, 9.0] and truth.illegal_until == [4.5, 11.0]
    late = [(4.0, {"event": "illegal"}), (10.5, {"event": "illegal"})]
    verdict = judge([], late, illegal_at=truth.illegal_at, illegal_until=truth.illegal_until)
    assert (verdict.false_illegal, verdict.missed_illegal) == (0, 0)
    verdict = judge([], late, illegal_at=truth.illegal_at)  # the plain 2 s window
    assert (verdict.false_illegal, verdict.missed_illegal) == (1, 1)


def test_a_catch_up_that_guessed_the_unread_pop_is_asked_back_too() -> None:
    # Blue's pop unread, Red's 6 read and held, then one board with both
    # moves: the catch-up plays Blue's 4 and Red's 6, and asks Blue. Blue
    # popped 5: the board is called, and put right it is played again.
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))
    n = len(loop.events)
    loop.handle(PopUnread(9.0))
    loop.handle(PopSettled(10.7, 6))  # not so soon after as a cocked die's tap (POPPED_AGAIN_S)
    loop.handle(BoardStable(11.0, board(red=["track:1", *H3], blue=["track:14", *H3])))
    assert "Blue, was your pop a 4?" in said(speaker)
    assert events_after(loop, n)[:2] == [("pop", 4), ("move", 4)]
    loop.handle(Spoken(12.5, "no"))
    assert said(speaker)[-1] == "Then Blue, say the number you popped."
    loop.handle(Spoken(14.0, "pop", {"value": 5}))
    assert kinds(loop)[-1] == "illegal"
    loop.handle(BoardStable(16.0, board(red=["track:1", *H3], blue=["track:15", *H3])))
    played = [k for k in events_after(loop, n) if k[0] in ("pop", "move")]
    assert played[-4:] == [("pop", 5), ("move", 5), ("pop", 6), ("move", 6)]
    assert kinds(loop).count("illegal") == 1


def _red_pop_held_behind_blues() -> tuple[Loop, ListSpeaker, int]:
    """Blue's 3 read, Red's pop unread and held behind it, then one board
    with Blue's move and a red peg out (a catch-up takes Red's pop for a 6)."""
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))
    n = len(loop.events)
    loop.handle(PopSettled(9.0, 3))
    loop.handle(PopUnread(10.0))
    loop.handle(BoardStable(11.0, board(red=["track:1", *H3], blue=["track:13", *H3])))
    return loop, speaker, n


def test_an_unread_pop_held_behind_another_and_guessed_by_a_catch_up_is_asked_back() -> None:
    # Blue's 3 read, Red's pop unread and held behind it, then one board with
    # Blue's move and a red peg out: the catch-up takes Red's pop for a 6 and
    # asks. Red popped 4: no peg may come out, the board is called; put
    # right, Blue's move is played and Red's 4 lost.
    loop, speaker, n = _red_pop_held_behind_blues()
    assert said(speaker)[-1] == "Red, was your pop a 6?"  # last, after the catch-up's moves
    loop.handle(Spoken(12.5, "no"))
    assert said(speaker)[-1] == "Then Red, say the number you popped."
    loop.handle(Tick(13.0))
    assert "illegal" not in kinds(loop)  # waiting for the number
    loop.handle(Spoken(14.0, "pop", {"value": 4}))
    assert kinds(loop)[-1] == "illegal"
    loop.handle(BoardStable(16.0, board(blue=["track:13", *H3])))
    assert events_after(loop, n)[-5:] == [("move", 3), ("turn", None), ("pop", 4), ("no-move", 4), ("turn", None)]


def test_no_number_for_a_held_pop_lets_the_catch_up_stand() -> None:
    loop, speaker, n = _red_pop_held_behind_blues()
    loop.handle(Spoken(12.5, "no"))
    loop.handle(Tick(12.5 + ANSWER_WAIT_S + 0.5))
    assert "Nobody said Red's number, so I take the moves as they are." in said(speaker)
    played = [k for k in events_after(loop, n) if k[0] in ("pop", "move")]
    assert played[-2:] == [("pop", 6), ("move", 6)] and "illegal" not in kinds(loop)
    assert said(speaker).count("Red, was your pop a 6?") == 1


def test_a_catch_up_asks_about_the_pop_that_moved_a_peg_along_not_the_six_that_brought_one_out() -> None:
    # Blue's two pops unread (a 6, then a 5), then one board: a peg out and
    # 10 -> 16. The catch-up takes both for 6s. A peg can only come out on a
    # 6; the peg moved along may be a wrong count, so that pop is asked about
    # (a seeded truth game asked about the 6 and the wrong count stood).
    loop, speaker, _ = started()
    loop.handle(PopSettled(8.0, 4))
    n = len(loop.events)
    loop.handle(PopUnread(9.0))
    loop.handle(PopUnread(10.7))  # (a second pop; one sooner is the same settle reported twice)
    loop.handle(BoardStable(11.0, board(blue=["track:8", "track:16", "home", "home"])))
    assert [k for k in events_after(loop, n) if k[0] == "pop"] == [("pop", 6), ("pop", 6)]
    assert said(speaker).count("Blue, was your pop a 6?") == 1
    assert loop.question is not None and loop.question.held is not None
    assert loop.question.held.t == 10.7  # the second pop: the one that moved 10 -> 16
    loop.handle(Spoken(12.5, "no"))
    assert said(speaker)[-1] == "Then Blue, say the number you popped."
    loop.handle(Spoken(14.0, "pop", {"value": 5}))
    assert kinds(loop)[-1] == "illegal"
    assert "illegal" not in [k[0] for k in events_after(loop, n)[:-1]]


def _blue_pops_3_read_while_most_pops_were_unread(agreed: bool) -> tuple[Loop, ListSpeaker]:
    """Most recent pops unread (a dim room), then Red's 4 (no peg out) and
    Blue's 3 both read; the board seen with Blue's peg still on 10 or not."""
    loop, speaker, _ = started()
    loop.pops_read.extend([False] * 6)
    loop.handle(PopSettled(8.0, 4))
    loop.handle(PopSettled(9.0, 3))
    assert loop._die_blind() and loop.referee.player == "blue"
    if agreed:
        loop.handle(BoardStable(10.0, board(blue=["track:10", *H3])))
    loop.handle(BoardStable(12.0, board(blue=["track:14", *H3])))
    return loop, speaker


def test_a_wrong_count_on_a_read_pop_is_called_even_while_the_die_goes_mostly_unread() -> None:
    # Whole rendered game (1280x720, seed 22 with --illegal 0.1): Blue's 3
    # read, the board checked, the peg moved 4; the loop said "I have lost
    # track" because most earlier pops were unread, and the move went uncalled.
    loop, speaker = _blue_pops_3_read_while_most_pops_were_unread(agreed=True)
    assert kinds(loop)[-1] == "illegal"
    assert speaker.lines[-1] == ("That peg moved 4 spaces, but the pop was 3.", True)
    assert not any("lost track" in text for text in said(speaker))


def test_a_wrong_count_on_a_read_pop_after_a_move_worked_out_is_called_while_the_die_goes_mostly_unread() -> None:
    # Seeded game 22 at 1280x720 with wrong counts (session 42): Red's
    # unread pop worked out from Red's move, Blue's 5 read after that move
    # was on the board, and Blue moved 4; the open guess about Red's pop
    # kept the loop from calling it ("I have lost track"). The guess was
    # made before Blue's pop was seen, so it says nothing about that pop.
    loop, speaker, _ = started()
    loop.pops_read.extend([False] * 6)
    loop.handle(PopSettled(8.0, 6))
    loop.handle(BoardStable(9.0, board(red=["track:1", *H3], blue=BLUE_ON_10)))
    loop.handle(PopUnread(10.0))
    loop.handle(BoardStable(12.0, board(red=["track:4", *H3], blue=BLUE_ON_10)))
    assert loop.inferred is not None and loop.referee.player == "blue"
    loop.handle(PopSettled(14.0, 5))
    loop.handle(BoardStable(15.0, board(red=["track:4", *H3], blue=BLUE_ON_10)))
    assert loop._die_blind()
    loop.handle(BoardStable(17.0, board(red=["track:4", *H3], blue=["track:14", *H3])))
    assert kinds(loop)[-1] == "illegal"
    assert said(speaker)[-1] == "That peg moved 4 spaces, but the pop was 5."


def test_unchecked_board_while_the_die_goes_mostly_unread_is_still_followed() -> None:
    # No board agreed with the game since the pop: the game rests on pops
    # worked out from moves, so the loop follows the board instead of calling.
    loop, speaker = _blue_pops_3_read_while_most_pops_were_unread(agreed=False)
    assert "illegal" not in kinds(loop)
    assert any("lost track" in text for text in said(speaker))


def test_the_peg_of_a_worked_out_move_seen_a_hole_short_changes_the_guess() -> None:
    # Blue's unread pop taken for a 4 from a board with the peg on 14; the
    # next board, before anyone pops, has it on 13: the first was misread (or
    # the peg knocked back), and the board as it now stands is a move of 3.
    loop, speaker, n, _ = _blue_moved_4_on_an_unread_pop()
    loop.handle(BoardStable(11.0, board(blue=["track:13", *H3])))
    assert "That move means Blue popped a 3." in said(speaker)
    assert loop.referee.position["blue"] == ["home", "home", "home", "track:13"]
    assert "illegal" not in kinds(loop)


def test_a_worked_out_pop_is_still_asked_about_when_only_another_player_has_popped_since() -> None:
    # Since session 51 a pop is not asked about once its player has popped
    # again (the question would be taken for the new pop); another player's
    # pop since leaves the question as clear as before.
    loop, speaker, _ = started()
    for obs in [PopSettled(8.0, 4), PopUnread(9.0), PopSettled(11.0, 3),
                BoardStable(12.5, board(blue=["track:15", "home", "home", "home"]))]:
        loop.handle(obs)
    assert "That move means Blue popped a 5." in said(speaker)
    assert "Blue, was your pop a 5?" in said(speaker)
