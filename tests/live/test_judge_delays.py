"""The judge's delay figures: matched events only, worked-out pops apart."""

from __future__ import annotations

from typing import Any

import pytest

from companion.live.judge import judge


def ev(kind: str, value: int | None = None, color: str = "red") -> dict[str, object]:
    return {"event": kind, "color": color, "value": value}


TRUTH = [ev("turn"), ev("pop", 4), ev("move", 4), ev("turn", color="blue"), ev("pop", 2, "blue"),
         ev("move", 2, "blue"), ev("turn")]
POP_AT = [1.0, 5.0]
MOVE_AT = [3.0, 7.0]


def test_delays_pair_each_announcement_with_its_own_truth_time() -> None:
    emitted = [(0.0, TRUTH[0]), (1.3, TRUTH[1]), (3.2, TRUTH[2]), (3.2, TRUTH[3]), (5.3, TRUTH[4]),
               (7.1, TRUTH[5]), (7.1, TRUTH[6])]
    verdict = judge(TRUTH, emitted, pop_at=POP_AT, move_at=MOVE_AT)
    assert verdict.right
    assert [round(d, 3) for d in verdict.delays] == [0.3, 0.2, 0.3, 0.1]


def test_a_wrong_event_does_not_hide_the_other_delays() -> None:
    # Red's pop was passed with a skip (value unknown): the game is wrong,
    # but Blue's pop and move are still measured against their own times.
    emitted = [(0.0, TRUTH[0]), (2.0, ev("skip")), (2.0, TRUTH[3]), (5.3, TRUTH[4]),
               (7.1, TRUTH[5]), (7.1, TRUTH[6])]
    verdict = judge(TRUTH[:2] + TRUTH[3:], emitted, pop_at=POP_AT, move_at=MOVE_AT[1:])
    assert not verdict.right
    # Truth without Red's move: pops at 1.0 (Red, unmatched) and 5.0 (Blue).
    assert [round(d, 3) for d in verdict.delays] == [0.3, 0.1]


def test_pops_worked_out_from_the_move_are_left_out_of_the_delays() -> None:
    emitted = [(0.0, TRUTH[0]), (3.2, TRUTH[1]), (3.2, TRUTH[2]), (3.2, TRUTH[3]), (5.3, TRUTH[4]),
               (7.1, TRUTH[5]), (7.1, TRUTH[6])]
    verdict = judge(TRUTH, emitted, pop_at=POP_AT, move_at=MOVE_AT, worked_out=[1])
    assert verdict.right and verdict.pops_worked_out == 1
    assert [round(d, 3) for d in verdict.delays] == [0.2, 0.3, 0.1]


LOST = [ev("turn"), ev("pop", 2), {"event": "no-move", "color": "red", "value": 2, "reason": "needs-six"},
        ev("turn", color="blue"), ev("pop", 6, "blue"), ev("move", 6, "blue")]


def test_a_pop_nobody_read_and_no_peg_used_is_right_but_for_its_value() -> None:
    emitted = [(0.0, LOST[0]), (2.0, ev("skip")), (2.0, LOST[3]), (5.3, LOST[4]), (7.1, LOST[5])]
    verdict = judge(LOST, emitted)
    assert not verdict.right and verdict.right_but_unread


def test_a_pop_read_wrong_or_a_turn_out_of_order_is_not_forgiven() -> None:
    misread = [(0.0, LOST[0]), (1.0, ev("pop", 3)), (1.0, {**LOST[2], "value": 3}), (2.0, LOST[3]),
               (5.3, LOST[4]), (7.1, LOST[5])]
    assert not judge(LOST, misread).right_but_unread
    # A skip where the truth used the pop (a 6 with a move) is a different game.
    wrong_turn = [(0.0, LOST[0]), (2.0, ev("skip")), (2.0, LOST[3]), (5.3, ev("skip", color="blue"))]
    assert not judge(LOST, wrong_turn).right_but_unread
    # A false illegal-move call spoils it as it spoils ``right``.
    false_call = [*((t, e) for t, e in [(0.0, LOST[0]), (2.0, ev("skip")), (2.0, LOST[3]), (5.3, LOST[4]),
                                        (7.1, LOST[5])]), (8.0, {"event": "illegal", "reason": "wrong-count"})]
    assert not judge(LOST, false_call).right_but_unread


def test_the_truth_of_a_clip_is_read_to_its_end_when_the_loop_stops_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop stops at its game over, which it may see on an earlier frame
    than the one the truth records the winning move on: the judge still gets
    the truth's last events (whole rendered game seed 9 was judged wrong for
    three events the truth had not yet recorded)."""
    import companion.live.clips as clips
    from companion.vision.readings import FrameReading

    class EndsTheGame:
        """A vision stream that reads nothing; the game ends on its second frame."""

        def __init__(self) -> None:
            self.loop: Any = None
            self.pushed = 0

        def push(self, image: object, t: float) -> list[object]:
            self.pushed += 1
            if self.pushed == 2:
                self.loop.stage = "over"
            return []

    stream = EndsTheGame()
    real_feed = clips.feed_frames

    def feed(loop: Any, items: Any, s: EndsTheGame, **kw: Any) -> Any:
        s.loop = loop
        return real_feed(loop, items, s, **kw)

    monkeypatch.setattr(clips, "feed_frames", feed)
    frames = [(None, clips._Timed({"time": k * 0.5, "events": [ev("turn", k)]})) for k in range(6)]
    _, stats, truth = clips.referee_frames(frames, {"players": ["red", "blue"]}, stream=stream)
    assert stats.frames == 2 and stream.pushed == 2
    assert [e["value"] for e in truth.events] == [0, 1, 2, 3, 4, 5]
    # Replaying kept readings past the last one kept: no board, not a crash.
    reader = clips.KeptReader([FrameReading(found=True)])
    assert reader.read(None).found and not reader.read(None).found


def test_kept_frames_are_replayed_at_their_exact_times() -> None:
    """A kept truth's time is rounded to the millisecond; the time layer's
    waits are compared far more finely, so a replay must use frame / fps
    (a 1280x720 game replayed on rounded times made one call fewer)."""
    from companion.live.clips import _frame_rate, _Timed

    truths = [{"frame": k, "time": round(k / 6.0, 3)} for k in range(0, 3034, 7)]
    assert _frame_rate(truths) == 6.0
    assert _Timed(truths[-1], 6.0).time == truths[-1]["frame"] / 6.0 != truths[-1]["time"]
    assert _Timed({"time": 1.5}).time == 1.5  # no frame rate known: the kept time
    assert _frame_rate([{"frame": 0, "time": 0.0}]) is None
    # The judge takes the truth's times from the same exact clock: a call made
    # on the frame of the illegal board (t = 3004 / 6) matches it.
    from companion.live.clips import truth_of

    shown = {"frame": 3004, "time": 500.667, "events": [{"event": "illegal", "reason": "wrong-count"}]}
    truth = truth_of([_Timed(shown, 6.0)])
    assert truth.illegal_at == [3004 / 6.0]
    call = (3004 / 6.0, {"event": "illegal", "reason": "wrong-count"})
    verdict = judge(truth.events, [call], illegal_at=truth.illegal_at)
    assert verdict.false_illegal == 0 and verdict.missed_illegal == 0
