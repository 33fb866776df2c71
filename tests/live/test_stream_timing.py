"""The time layer's waits: as short as they can be without judging an unstable board.

A hand passing over a board (reaching for the dome) pauses the confirmation
of a position instead of restarting it; a position that reads differently
after the hand restarts it; and a die's still period starts at the frame the
tumble ended into.
"""

from __future__ import annotations

from stream_script import FPS, reading, run_seconds

from companion.vision.dice.reading import DieReading
from companion.vision.readings import FrameReading, HoleReading
from companion.vision.stream import PopSettled, PositionStable, VisionEvent, VisionStream

START = {"red": ("home",) * 4, "blue": ("home",) * 4}
MOVED = {"red": ("home",) * 3 + ("track:1",), "blue": ("home",) * 4}
OTHER = {"red": ("home",) * 3 + ("track:2",), "blue": ("home",) * 4}
FOUR = DieReading("settled", 4, 0.95)


def frame(pegs: dict[str, tuple[str, ...]], hand: bool = False, die: DieReading = FOUR, lie: int = 1) -> FrameReading:
    return reading(pegs, die, lie, hand)


def run(stream: VisionStream, script: list[tuple[FrameReading, int]]) -> list[tuple[float, VisionEvent]]:
    """Feed each reading for a number of frames at 10 fps; return (t, event) pairs."""
    return run_seconds(stream, [(r, frames / FPS) for r, frames in script])


def positions(events: list[tuple[float, VisionEvent]]) -> list[tuple[float, dict[str, tuple[str, ...]]]]:
    return [(round(t, 3), dict(e.pegs)) for t, e in events if isinstance(e, PositionStable)]


def test_a_hand_passing_over_pauses_the_wait_instead_of_restarting_it() -> None:
    stream = VisionStream(position_stable_s=0.3)
    # START confirmed; the move lands at frame 20 and is seen whole for 3
    # frames (0.2 s), a hand passes for 5 frames, then the same position again.
    script = [(frame(START), 20), (frame(MOVED), 3), (frame(MOVED, hand=True), 5), (frame(MOVED), 5)]
    seen = positions(run(stream, script))
    assert seen[0][1] == START
    # 0.2 s before the hand + 0.1 s after it: reported at the second frame after the hand.
    assert seen[1] == (2.9, MOVED)


def test_a_different_position_after_the_hand_starts_the_wait_afresh() -> None:
    stream = VisionStream(position_stable_s=0.3)
    script = [(frame(START), 20), (frame(MOVED), 3), (frame(OTHER, hand=True), 5), (frame(OTHER), 6)]
    seen = positions(run(stream, script))
    assert [p for _, p in seen] == [START, OTHER]  # MOVED was never held long enough
    assert seen[1][0] == 3.1  # OTHER first seen whole at 2.8, held 0.3 s


def test_no_position_is_reported_while_a_hand_is_over_the_board() -> None:
    stream = VisionStream(position_stable_s=0.3)
    script = [(frame(START), 20), (frame(MOVED, hand=True), 30)]
    assert [p for _, p in positions(run(stream, script))] == [START]


def test_a_settled_pop_is_timed_from_the_frame_the_tumble_ended_into() -> None:
    stream = VisionStream(settle_s=0.25)
    hidden = DieReading("hidden", None, 0.5)
    # Die still (lie 1), tumbling (lies 10..13, one per frame), landed on 6 (lie 2) at frame 14.
    script = [(frame(START, lie=1), 10)]
    script += [(frame(START, die=hidden, lie=10 + k), 1) for k in range(4)]
    script += [(frame(START, die=DieReading("settled", 6, 0.9), lie=2), 10)]
    pops = [(round(t, 3), e.value) for t, e in run(stream, script) if isinstance(e, PopSettled)]
    # Landed at 1.4 s; still since then; 0.25 s of stillness is first reached at 1.7 s.
    assert pops == [(1.7, 6)]


def test_a_hand_moving_a_peg_beside_a_die_that_never_moved_is_no_new_pop() -> None:
    """Seen in a whole rendered game: the hand moving a peg shades the dome
    (the thumbnail changes: lie 7), hides it for a frame, and the die keeps
    reading the same value; that must not be a second pop of it."""
    stream = VisionStream(settle_s=0.25)
    hidden = DieReading("hidden", None, 0.5)
    six = DieReading("settled", 6, 0.99)
    script = [(frame(START, lie=1), 10)]
    script += [(frame(START, die=hidden, lie=10 + k), 1) for k in range(3)]  # a pop tumbling
    script += [(frame(START, die=six, lie=2), 8)]  # settles on 6: one pop
    script += [(frame(START, hand=True, die=six, lie=7), 10)]  # a hand shades the dome
    script += [(frame(START, hand=True, die=hidden, lie=30), 1)]  # and passes over it
    script += [(frame(START, hand=True, die=six, lie=8), 10)]  # still over the board
    script += [(frame(START, die=six, lie=2), 10)]  # gone: the die lies as it lay
    pops = [e.value for _, e in run(stream, script) if isinstance(e, PopSettled)]
    assert pops == [6]


def test_a_pop_of_the_same_number_settling_under_a_hand_is_reported_once_the_hand_is_gone() -> None:
    # The die rested on a 4 and is popped to a 4 again: only hand-free frames
    # can tell it lies differently (a hand shading the dome changes it too).
    stream = VisionStream(settle_s=0.25)
    hidden = DieReading("hidden", None, 0.5)
    script = [(frame(START, lie=1), 10)]
    script += [(frame(START, die=hidden, lie=10 + k), 1) for k in range(3)]
    script += [(frame(START, hand=True, die=FOUR, lie=2), 10)]  # a hand over the board
    script += [(frame(START, die=FOUR, lie=2), 10)]
    pops = [(round(t, 3), e.value) for t, e in run(stream, script) if isinstance(e, PopSettled)]
    # The hand leaves at 2.3 s; the third hand-free frame is at 2.5 s.
    assert pops == [(2.5, 4)]


def test_a_hand_reaching_for_the_dome_is_no_pop_of_the_number_already_showing() -> None:
    # Seen in a whole rendered game: the die rests on a 5; a hand reaching to
    # pop hides it for a frame, then shades the dome for two hand-free frames
    # (the die still reads 5, the thumbnail changed), then pops it to a 4.
    # Reported as a pop of 5 just before the real one, that put the turns one out.
    stream = VisionStream(settle_s=0.25)
    hidden = DieReading("hidden", None, 0.5)
    five = DieReading("settled", 5, 0.99)
    script = [(frame(START, die=five, lie=1), 10)]
    script += [(frame(START, hand=True, die=hidden, lie=20), 1)]
    script += [(frame(START, hand=True, die=five, lie=2), 2)]  # shaded, read 5
    script += [(frame(START, die=five, lie=2), 2)]  # still shaded, no hand flagged
    script += [(frame(START, die=hidden, lie=30 + k), 1) for k in range(3)]  # the pop
    script += [(frame(START, die=FOUR, lie=3), 10)]
    pops = [e.value for _, e in run(stream, script) if isinstance(e, PopSettled)]
    assert pops == [4]


def test_a_pop_of_a_new_number_is_reported_even_while_hands_stay_over_the_board() -> None:
    """Seen in whole rendered games: players reaching over the board hid
    every hand-free frame of many pops. A die that was disturbed and now
    reads another face than it rested on has been popped."""
    stream = VisionStream(settle_s=0.25)
    hidden = DieReading("hidden", None, 0.5)
    three = DieReading("settled", 3, 0.99)
    script = [(frame(START, lie=1), 10)]
    script += [(frame(START, die=hidden, lie=10 + k), 1) for k in range(3)]
    script += [(frame(START, hand=True, die=three, lie=2), 20)]  # hands over the board throughout
    pops = [(round(t, 3), e.value) for t, e in run(stream, script) if isinstance(e, PopSettled)]
    # Landed at 1.3 s, still and read twice by 1.55 s: reported at 1.6 s.
    assert pops == [(1.6, 3)]


def test_a_hand_flag_flickering_on_a_board_with_no_hand_does_not_hold_a_pop_back() -> None:
    """Seen in a whole rendered game: the board's hand flag (some hole unknown)
    came and went every other frame while the die lay read on a 2."""
    stream = VisionStream(settle_s=0.25)
    hidden = DieReading("hidden", None, 0.5)
    two = DieReading("settled", 2, 0.99)
    script = [(frame(START, lie=1), 10)]
    script += [(frame(START, die=hidden, lie=10 + k), 1) for k in range(3)]
    for _ in range(5):
        script += [(frame(START, die=two, lie=2), 1), (frame(START, hand=True, die=two, lie=2), 1)]
    pops = [(round(t, 3), e.value) for t, e in run(stream, script) if isinstance(e, PopSettled)]
    # Landed at 1.3 s; 0.25 s of stillness and two hand-free frames at 1.6 s.
    assert pops == [(1.6, 2)]


def test_a_changed_dome_with_the_die_read_flat_on_its_value_throughout_is_no_new_pop() -> None:
    """Seen in a whole rendered game: while a peg was moved beside the dome the
    thumbnail changed frame to frame (a hand, a shadow) and stayed changed
    after, but every frame read the die flat on the same 4: it never moved."""
    stream = VisionStream(settle_s=0.25)
    hidden = DieReading("hidden", None, 0.5)
    four = DieReading("settled", 4, 0.99)
    script = [(frame(START, lie=1), 10)]
    script += [(frame(START, die=hidden, lie=10 + k), 1) for k in range(3)]
    script += [(frame(START, die=four, lie=2), 8)]  # one pop: a 4
    script += [(frame(START, hand=True, die=four, lie=40 + k), 1) for k in range(6)]  # changing, read 4
    script += [(frame(START, die=four, lie=3), 10)]  # looks different now, still a 4
    script += [(frame(START, die=hidden, lie=20 + k), 1) for k in range(3)]  # a real pop
    script += [(frame(START, die=four, lie=4), 8)]  # lands on 4 again: a second pop
    pops = [e.value for _, e in run(stream, script) if isinstance(e, PopSettled)]
    assert pops == [4, 4]


def die_events(events: list[tuple[float, VisionEvent]]) -> list[tuple[float, str, int | None]]:
    """The die's events as (time, kind, value): positions left out."""
    return [
        (round(t, 3), type(e).__name__, getattr(e, "value", None))
        for t, e in events
        if not isinstance(e, PositionStable)
    ]


HIDDEN = DieReading("hidden", None, 0.5)
FIVE = DieReading("settled", 5, 0.97)


def landed_unreadable() -> list[tuple[FrameReading, int]]:
    """The die at rest, popped (three tumbling frames), landed unreadable for 1 s."""
    script = [(frame(START, lie=1), 10)]
    script += [(frame(START, die=HIDDEN, lie=10 + k), 1) for k in range(3)]
    script += [(frame(START, die=HIDDEN, lie=2), 10)]
    return script


def test_a_pop_reported_unread_and_then_read_while_the_die_lies_still_is_read_late() -> None:
    """Seen in whole rendered games: glare hid the die for a second after it
    landed, then it read plainly. The unread pop is reported, then its value."""
    stream = VisionStream(settle_s=0.25, unread_s=0.5)
    script = landed_unreadable()
    script += [(frame(START, die=FIVE, lie=2), 10)]  # the glare has gone
    kinds = [(t, name, value) for t, name, value in die_events(run(stream, script))]
    assert kinds == [(1.8, "PopUnread", None), (2.4, "PopReadLate", 5)]


def test_a_late_read_after_a_hand_passed_over_the_unread_die_is_that_pop() -> None:
    stream = VisionStream(settle_s=0.25, unread_s=0.5)
    script = landed_unreadable()
    script += [(frame(START, hand=True, die=HIDDEN, lie=20 + k), 1) for k in range(3)]  # a hand passes
    script += [(frame(START, die=FIVE, lie=2), 10)]  # the die lies as before, readable now
    assert [name for _, name, _ in die_events(run(stream, script))] == ["PopUnread", "PopReadLate"]


def test_a_new_pop_after_an_unread_one_is_a_pop_not_a_late_read() -> None:
    stream = VisionStream(settle_s=0.25, unread_s=0.5)
    script = landed_unreadable()
    script += [(frame(START, die=HIDDEN, lie=30 + k), 1) for k in range(3)]  # popped again
    script += [(frame(START, die=FIVE, lie=3), 10)]  # lies differently now
    found = [(name, value) for _, name, value in die_events(run(stream, script))]
    assert found == [("PopUnread", None), ("PopSettled", 5)]


def test_a_die_that_becomes_readable_as_the_unread_wait_ends_is_read_not_unread() -> None:
    """Seen in a whole rendered game: the first frame that read the die was
    the very frame the unread wait ran out on."""
    stream = VisionStream(settle_s=0.25, unread_s=0.5)
    hidden = DieReading("hidden", None, 0.5)
    two = DieReading("settled", 2, 0.99)
    script = [(frame(START, lie=1), 10)]
    script += [(frame(START, die=hidden, lie=10 + k), 1) for k in range(3)]
    script += [(frame(START, die=hidden, lie=2), 5)]  # 0.5 s unreadable: the wait runs out ...
    script += [(frame(START, die=two, lie=2), 10)]  # ... as the die shows
    found = [(name, value) for _, name, value in die_events(run(stream, script))]
    assert found == [("PopSettled", 2)]


def doubtful_frame(pegs: dict[str, tuple[str, ...]], doubtful: tuple[str, str, float] | None) -> FrameReading:
    """A complete frame whose peg on hole ``doubtful[0]`` (colour ``[1]``) is read
    with confidence ``[2]`` (the pegs reader's 0.3 for a weak top, 0.2 for a body)."""
    base = frame(pegs)
    if doubtful is None:
        return base
    hole, colour, confidence = doubtful
    holes = base.holes + (HoleReading(hole, colour, confidence),)  # type: ignore[arg-type]
    return FrameReading(found=True, holes=holes, pegs=base.pegs, die=base.die,
                        dome_signature=base.dome_signature)


PHANTOM = {"red": ("home",) * 4, "blue": ("home",) * 3 + ("finish:2",)}
WEAK = ("blue:finish:2", "blue", 0.3)


def test_a_peg_read_only_doubtfully_for_half_a_second_is_never_a_position() -> None:
    """Seen in a whole rendered game: a peg carried at the board's edge, in a
    hand the reader did not see, left a phantom peg in a hole of that colour's
    Finish for 0.5-0.7 s at a time; each was called an illegal move."""
    stream = VisionStream(position_stable_s=0.3, doubtful_stable_s=1.2)
    script = [(frame(START), 20), (doubtful_frame(PHANTOM, WEAK), 7), (frame(START), 10)]
    # START again once it stands again (the phantom unsettled it), never the phantom.
    assert [p for _, p in positions(run(stream, script))] == [START, START]


def test_a_doubtful_peg_that_stays_is_reported_once_it_has_been_seen_long_enough() -> None:
    stream = VisionStream(position_stable_s=0.3, doubtful_stable_s=1.2)
    script = [(frame(START), 20), (doubtful_frame(PHANTOM, WEAK), 20)]
    seen = positions(run(stream, script))
    assert [p for _, p in seen] == [START, PHANTOM]
    assert seen[1][0] == 3.2  # first seen at 2.0 s, held to 1.2 s instead of 0.3 s


def test_a_surely_read_peg_is_reported_at_the_usual_time() -> None:
    stream = VisionStream(position_stable_s=0.3, doubtful_stable_s=1.2)
    sure = ("blue:finish:2", "blue", 0.9)
    seen = positions(run(stream, [(frame(START), 20), (doubtful_frame(PHANTOM, sure), 10)]))
    assert seen[1] == (2.3, PHANTOM)


def test_a_doubtful_peg_the_referee_already_has_does_not_hold_other_moves_back() -> None:
    """A peg half hidden behind another for a whole game reads weakly all game:
    only a change that rests on a doubtful peg waits."""
    stream = VisionStream(position_stable_s=0.3, doubtful_stable_s=1.2)
    later = {"red": ("home",) * 3 + ("track:1",), "blue": PHANTOM["blue"]}
    script = [(doubtful_frame(PHANTOM, WEAK), 20), (doubtful_frame(later, WEAK), 10)]
    seen = positions(run(stream, script))
    assert [p for _, p in seen] == [PHANTOM, later]
    assert seen[1][0] == 2.3


def test_a_peg_read_doubtfully_then_surely_waits_as_a_doubtful_peg() -> None:
    """Whole rendered game 236 at 640x480: a peg held in a hand just over a
    Finish hole read there at 0.3 for three frames and at 0.52 on the fourth;
    the position with it was reported, and the peg put in the next hole was
    called a wrong count. A peg read doubtfully on any frame of its run of
    sightings waits the doubtful time, however surely it reads later."""
    stream = VisionStream(position_stable_s=0.3, doubtful_stable_s=1.2)
    firmer = ("blue:finish:2", "blue", 0.52)
    script = [(frame(START), 20), (doubtful_frame(PHANTOM, WEAK), 3), (doubtful_frame(PHANTOM, firmer), 3),
              (frame(START), 10)]
    assert [p for _, p in positions(run(stream, script))] == [START, START]
    stream = VisionStream(position_stable_s=0.3, doubtful_stable_s=1.2)
    script = [(frame(START), 20), (doubtful_frame(PHANTOM, WEAK), 3), (doubtful_frame(PHANTOM, firmer), 20)]
    seen = positions(run(stream, script))
    assert [p for _, p in seen] == [START, PHANTOM]
    assert seen[1][0] == 3.2  # first seen (doubtfully) at 2.0 s


def test_a_peg_read_doubtfully_once_long_ago_is_not_doubted_again() -> None:
    """The doubt belongs to one run of sightings: a peg gone for longer than
    ``DOUBT_GAP_S`` and then read surely is reported at the usual time."""
    stream = VisionStream(position_stable_s=0.3, doubtful_stable_s=1.2)
    sure = ("blue:finish:2", "blue", 0.9)
    script = [(frame(START), 20), (doubtful_frame(PHANTOM, WEAK), 3), (frame(START), 10),
              (doubtful_frame(PHANTOM, sure), 10)]
    seen = positions(run(stream, script))
    assert [p for _, p in seen][-1] == PHANTOM
    assert seen[-1][0] == 3.6  # first seen surely at 3.3 s


def test_a_frame_or_two_without_the_doubtful_peg_does_not_restart_its_time() -> None:
    stream = VisionStream(position_stable_s=0.3, doubtful_stable_s=1.2)
    script = [(frame(START), 20), (doubtful_frame(PHANTOM, WEAK), 6), (frame(START), 2),
              (doubtful_frame(PHANTOM, WEAK), 10)]
    seen = positions(run(stream, script))
    assert [p for _, p in seen] == [START, PHANTOM]
    assert seen[1][0] == 3.2  # counted from 2.0 s despite the gap at 2.6-2.7 s


def test_doubtful_pegs_in_their_own_home_are_not_held_back() -> None:
    """Pegs on Home print of their own colour read weakly for whole games; a
    phantom there is asked about by the referee, never called."""
    stream = VisionStream(position_stable_s=0.3, doubtful_stable_s=1.2)
    back = {"red": ("home",) * 4, "blue": ("home",) * 4}
    script = [(frame(MOVED), 20), (doubtful_frame(back, ("red:home:4", "red", 0.3)), 10)]
    seen = positions(run(stream, script))
    assert seen[1] == (2.3, back)


def test_stream_doctests() -> None:
    import doctest

    import companion.vision.stream

    result = doctest.testmod(companion.vision.stream)
    assert result.attempted >= 3 and result.failed == 0
