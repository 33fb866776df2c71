"""What the loop says about the board itself: not found, or found but not read whole."""

from __future__ import annotations

from test_live_loop import HOME4, ListSpeaker, board, said

from companion.live.loop import Loop
from companion.live.observations import (
    BoardFound,
    BoardLost,
    BoardStable,
    BoardUnclear,
    BoardUnsettled,
    Tick,
    from_json,
    to_json,
)
from companion.referee import Referee

UNCLEAR = "I can see the board but cannot read every hole. If nothing is over it, bring the camera closer or give it more light."


def opening_loop() -> tuple[Loop, ListSpeaker]:
    speaker = ListSpeaker()
    loop = Loop(Referee, speaker)
    loop.start([["red"], ["blue"]], None, "red")
    return loop, speaker


def test_a_board_never_read_whole_is_said_once_until_it_is_read() -> None:
    loop, speaker = opening_loop()
    loop.handle(BoardUnclear(15.0))
    loop.handle(BoardUnclear(31.0))  # the stream reports once a stretch; said once all the same
    assert said(speaker).count(UNCLEAR) == 1
    loop.handle(BoardStable(40.0, board(red=HOME4, blue=HOME4)))
    assert any(s.startswith("The board is ready.") for s in said(speaker))
    loop.handle(BoardUnclear(200.0))
    assert said(speaker).count(UNCLEAR) == 2  # a new stretch, after a board read whole


def test_stretches_of_an_unclear_board_close_together_are_told_once_in_two_minutes() -> None:
    # A board read small (kept fresh games, session 46): positions stand now
    # and then, so the stream reports a stretch a minute or so apart; the
    # table hears it once, then the two-minute reminder, not every stretch.
    from companion.live.loop import UNCLEAR_AGAIN_S, UNCLEAR_AGAIN_SAID

    loop, speaker = opening_loop()
    loop.handle(BoardUnclear(15.0))
    loop.handle(BoardStable(40.0, board(red=HOME4, blue=HOME4)))
    loop.handle(BoardUnclear(70.0))
    loop.handle(Tick(15.0 + UNCLEAR_AGAIN_S - 1.0))
    assert said(speaker).count(UNCLEAR) == 1 and UNCLEAR_AGAIN_SAID not in said(speaker)
    loop.handle(Tick(15.0 + UNCLEAR_AGAIN_S + 1.0))
    assert said(speaker).count(UNCLEAR_AGAIN_SAID) == 1  # still unclear two minutes after it was told
    loop.handle(BoardStable(150.0, board(red=HOME4, blue=HOME4)))
    loop.handle(BoardUnclear(200.0))
    assert said(speaker).count(UNCLEAR) == 1  # told 65 s ago, by the reminder
    loop.handle(BoardStable(210.0, board(red=HOME4, blue=HOME4)))
    loop.handle(BoardUnclear(300.0))
    assert said(speaker).count(UNCLEAR) == 2


def test_a_board_never_read_whole_is_reminded_every_two_minutes_until_it_is_read() -> None:
    # Fresh whole games 802 and 820 at 640x480 (session 42): small boards
    # never read whole; one sentence at 15 s, then twelve minutes of silence.
    from companion.live.loop import UNCLEAR_AGAIN_S, UNCLEAR_AGAIN_SAID

    loop, speaker = opening_loop()
    loop.handle(BoardUnclear(15.0))
    loop.handle(Tick(15.0 + UNCLEAR_AGAIN_S - 1.0))
    assert UNCLEAR_AGAIN_SAID not in said(speaker)
    loop.handle(Tick(15.0 + UNCLEAR_AGAIN_S + 1.0))
    assert said(speaker).count(UNCLEAR_AGAIN_SAID) == 1
    loop.handle(Tick(15.0 + 2 * UNCLEAR_AGAIN_S))
    assert said(speaker).count(UNCLEAR_AGAIN_SAID) == 1
    loop.handle(Tick(15.0 + 2 * UNCLEAR_AGAIN_S + 2.0))
    assert said(speaker).count(UNCLEAR_AGAIN_SAID) == 2
    loop.handle(BoardStable(300.0, board(red=HOME4, blue=HOME4)))
    loop.handle(Tick(300.0 + 3 * UNCLEAR_AGAIN_S))
    assert said(speaker).count(UNCLEAR_AGAIN_SAID) == 2  # read whole: no more reminders


def test_a_lost_board_is_said_after_a_while_and_its_return_too() -> None:
    loop, speaker = opening_loop()
    loop.handle(BoardLost(1.0))
    loop.handle(Tick(30.0))
    assert "I cannot see the board. Is something covering the markers?" in said(speaker)
    loop.handle(BoardFound(31.0))
    assert "I can see the board again." in said(speaker)


def test_board_unclear_round_trips_through_the_observation_file() -> None:
    assert to_json(BoardUnclear(2.5)) == {"t": 2.5, "board-unclear": True}
    assert from_json({"t": 2.5, "board-unclear": True}) == BoardUnclear(2.5)


def test_board_unsettled_round_trips_through_the_observation_file() -> None:
    assert to_json(BoardUnsettled(3.5)) == {"t": 3.5, "board-unsettled": True}
    assert from_json({"t": 3.5, "board-unsettled": True}) == BoardUnsettled(3.5)
