"""Holes a glint keeps unknown are counted empty when every peg is seen elsewhere,
or as the one colour they read, when that makes every colour's count whole.

From whole rendered games at 640x480 (``--illegal 0.1``, seeds 20 and 23): a
glint left a few Finish holes unknown on most frames for minutes, and an
unknown hole counts as a hand, so no position was reported: one game never
started and another went unrefereed for five minutes. Pegs are never added or
taken away, so with all the pegs of every colour in play seen in known holes,
the unknown ones are empty. A hand moves on or rests still (unknown on every
frame); a glint stays and flickers.
"""

from __future__ import annotations

from typing import Any

from test_stream_doubtful_empty import positions
from test_stream_in_play import FPS, TWO, board, pegs

from companion.vision.readings import FrameReading
from companion.vision.stream import GLINT_WINDOW_S, VisionStream

#: Red has a peg out on space 3; Blue's Finish 2 is under a glint.
OUT = board(red_home_1="empty", track_3="red")
GLINTED = board(red_home_1="empty", track_3="red", blue_finish_2="unknown")


def _stream() -> VisionStream:
    stream = VisionStream()
    stream.colours = TWO
    return stream


def _flicker(seconds: float, glinted: FrameReading = GLINTED, clear: FrameReading = OUT) -> list[FrameReading]:
    """Two frames in three under the glint, for *seconds*."""
    return [glinted if i % 3 else clear for i in range(int(seconds * FPS))]


def _only_glinted(seconds: float, glinted: FrameReading = GLINTED) -> list[FrameReading]:
    return [glinted] * int(seconds * FPS)


def test_a_hole_a_glint_keeps_unknown_is_read_empty_when_every_peg_is_seen() -> None:
    stream = _stream()
    # The lone clear frames never make the 0.3 s a position needs; the
    # glinted ones do, once the glint has been seen for half the window.
    found = positions(stream, _flicker(GLINT_WINDOW_S))
    assert found and found[0][1] == pegs(OUT)
    assert GLINT_WINDOW_S / 2 <= found[0][0] <= GLINT_WINDOW_S / 2 + 1.0
    # A move made under the glint is reported too.
    moved = board(red_home_1="empty", track_5="red", blue_finish_2="unknown")
    later = positions(stream, _only_glinted(2.0, moved), t0=GLINT_WINDOW_S + 2.0)
    assert later and later[0][1] == pegs(board(red_home_1="empty", track_5="red"))


def test_the_glint_needs_seconds_of_history_first() -> None:
    stream = _stream()
    assert positions(stream, _flicker(GLINT_WINDOW_S / 2 - 1.0)) == []


def test_a_hand_resting_still_is_not_a_glint() -> None:
    # Unknown on every frame for ten seconds: a hand, however still, is never read through.
    stream = _stream()
    assert positions(stream, _only_glinted(GLINT_WINDOW_S + 3.0)) == []


def test_a_peg_not_seen_anywhere_keeps_the_unknown_hole_unknown() -> None:
    # Blue shows three pegs, and the hole under the glint reads empty when it
    # reads at all: the fourth may be in a hand.
    short = board(red_home_1="empty", track_3="red", blue_home_4="empty", blue_finish_2="unknown")
    empty = board(red_home_1="empty", track_3="red", blue_home_4="empty")
    stream = _stream()
    assert [p for _, p in positions(stream, _flicker(GLINT_WINDOW_S + 3.0, short, empty))] == []


def test_a_glinted_hole_that_reads_one_colour_is_read_as_that_colours_peg() -> None:
    """Fresh rendered game 686 at 640x480: Green's peg on space 27 of a small
    board read as a weak green on one frame in six and unknown on the others,
    so the board stood unreported for 26 s and six moves came together. A
    hole under a glint that reads one colour whenever it reads is that
    colour's peg, when the counts then come out whole (read with confidence
    0: a doubtful peg, held ``doubtful_stable_s`` unless its run of sightings
    is older)."""
    short = board(red_home_1="empty", track_3="red", blue_home_4="empty", blue_finish_2="unknown")
    there = board(red_home_1="empty", track_3="red", blue_home_4="empty", blue_finish_2="blue")
    stream = _stream()
    found = positions(stream, _flicker(GLINT_WINDOW_S + 3.0, short, there))
    assert [p for _, p in found] == [pegs(there)]
    assert GLINT_WINDOW_S / 2 <= found[0][0] <= GLINT_WINDOW_S / 2 + 1.0
    # The peg taken out of the hole unseen, and seen on space 10: read as
    # Blue's, the hole would make Blue five pegs. It was last read holding
    # the peg, so it is not counted empty yet (the colour one too many may be
    # a phantom the peg makes elsewhere, see the test below)...
    moved = board(red_home_1="empty", track_3="red", blue_home_4="empty", track_10="blue",
                  blue_finish_2="unknown")
    t0 = GLINT_WINDOW_S + 3.0
    assert positions(stream, _only_glinted(2.0, moved), t0=t0) == []
    # ... until the hole is read empty once: then it is counted empty, as
    # before, once the empty read has stood the doubtful time.
    gone = board(red_home_1="empty", track_3="red", blue_home_4="empty", track_10="blue")
    t1 = t0 + 2.0
    later = positions(stream, [gone] + _only_glinted(2.0, moved), t0=t1)
    assert [p for _, p in later] == [pegs(gone)]
    assert later[0][0] >= t0 + 1.2 - 1e-9


def test_a_hole_last_read_holding_a_peg_is_not_counted_empty_for_a_phantom_elsewhere() -> None:
    """Fresh rendered game 1028 at 640x480: Red's peg on space 28, the space
    before Red's Finish line, seen from the Finish's end. On seven frames in
    eight the reader took the peg's body for a peg on Finish 1 and left space
    28 unknown; on the eighth it read space 28 red and Finish 1 empty. Read by
    count, space 28 came out empty and Red had a peg on Finish 1: the board
    was called "does not match one move". The hole was last read holding a
    red peg: with it Red has five, so one of the red pegs is no peg, and the
    counts cannot say which (fresh game 1045: the frame that read the glint
    hole had itself put Blue's peg a hole off). Only frames that read the
    hole (two in a row, the 0.3 s a position needs) make a position."""
    there = board(red_home_1="empty", track_28="red")
    phantom = board(red_home_1="empty", track_28="unknown", red_finish_1="red")
    seen_once = [phantom if i % 8 else there for i in range(int((GLINT_WINDOW_S + 3.0) * FPS))]
    assert positions(_stream(), seen_once) == []
    seen_twice = [phantom if i % 8 < 6 else there for i in range(int((GLINT_WINDOW_S + 3.0) * FPS))]
    found = positions(_stream(), seen_twice)
    assert found and all(p == pegs(there) for _, p in found)


def test_a_glint_hole_last_read_as_a_fifth_peg_is_still_counted_empty() -> None:
    """Fresh game 1014 at 640x480: Blue's peg on Finish 3 shows over
    Finish 2 in a tilted view, and Finish 2, a glint hole, read blue now and
    then beside it: five blue pegs on those frames, so that read was a
    phantom, and the hole is counted empty as before."""
    there = board(blue_home_1="empty", blue_finish_3="blue")
    twice = board(blue_home_1="empty", blue_finish_3="blue", blue_finish_2="blue")
    glinted = board(blue_home_1="empty", blue_finish_3="blue", blue_finish_2="unknown")
    frames = [glinted if i % 8 else twice for i in range(int((GLINT_WINDOW_S + 3.0) * FPS))]
    found = positions(_stream(), frames)
    assert found and all(p == pegs(there) for _, p in found)


def test_a_glinted_hole_read_as_two_colours_is_not_guessed() -> None:
    short = board(red_home_1="empty", track_3="red", blue_home_4="empty", blue_finish_2="unknown")
    blue = board(red_home_1="empty", track_3="red", blue_home_4="empty", blue_finish_2="blue")
    red = board(red_home_1="empty", track_3="red", blue_home_4="empty", blue_finish_2="red")
    frames = [short if i % 3 else (blue if i % 2 else red) for i in range(int((GLINT_WINDOW_S + 3.0) * FPS))]
    assert positions(_stream(), frames) == []


def test_a_peg_the_game_had_in_the_glinted_hole_is_taken_away_only_after_the_doubtful_time() -> None:
    # Blue's peg seen on Blue's Finish 2; then the hole goes under a glint
    # and a blue peg is seen back in Home instead.
    there = board(blue_home_1="empty", blue_finish_2="blue")
    stream = _stream()
    assert positions(stream, [there] * 6)[-1][1] == pegs(there)
    back = board(blue_finish_2="unknown")
    history = [back if i % 3 else there for i in range(int(GLINT_WINDOW_S * FPS))]
    # The hole read empty once: till then it was last read holding the peg,
    # and the blue peg in Home one too many may be a phantom that peg makes
    # (see test_a_hole_last_read_holding_a_peg_is_not_counted_empty_for_a_phantom_elsewhere).
    history[-1] = board()
    found = positions(stream, history + _only_glinted(3.0, back), t0=1.0)
    assert found and found[0][1] == pegs(board())
    last_seen_there = 1.0 + max(i for i, r in enumerate(history) if r is there) / FPS
    assert found[0][0] >= last_seen_there + 1.2 - 1e-9


def test_holes_unknown_on_every_frame_do_not_hold_up_the_die() -> None:
    """Fresh whole game seed 200 at 640x480: track holes far from the
    dome read unknown on nearly every frame for minutes (a small, tilted
    board), so the board was always "under a hand"; Blue's 3, a digit too
    faint to read, lay in plain view but never had the hand-free time an
    unread pop needs, and went unreported: the turns ran one out and three
    moves were called. Holes unknown on nearly every frame of the window are
    a blemish or a resting hand, not one reaching for the dome (a hand on
    the dome shows in the die's own read)."""
    from test_stream_events import HIDDEN, frame, kinds, run

    from companion.vision.dice.reading import DieReading
    from companion.vision.readings import HoleReading

    def blemished(**kwargs: Any) -> FrameReading:
        reading = frame(**kwargs)
        holes = (HoleReading("track:12", "unknown", 0.0), HoleReading("track:13", "unknown", 0.0))
        return FrameReading(found=True, holes=reading.holes + holes, pegs=reading.pegs, hand=True,
                            die=reading.die, dome_signature=reading.dome_signature)

    one, faint = DieReading("settled", 1, 0.99), DieReading("hidden", None, 0.99)
    popped = [(blemished(die=HIDDEN, lie=9), 0.3), (blemished(die=faint, lie=2), 4.0)]
    assert "PopUnread" in kinds(run(VisionStream(), [(blemished(die=one, lie=1), GLINT_WINDOW_S + 1.0), *popped]))
    # Holes a hand has just come over still hold the die's clocks.
    assert "PopUnread" not in kinds(run(VisionStream(), [(frame(die=one, lie=1), GLINT_WINDOW_S + 1.0), *popped]))


def test_holes_unknown_here_and_there_are_no_hand_over_the_dome() -> None:
    """Fresh whole game seed 191 at 640x480: a Home hole of Yellow's, one of
    Green's and Blue's Finish 2 washed out for seconds (none beside another),
    and Yellow's second 6 never had the hand-free frames a same-face pop
    needs. A hand covers holes side by side on its way to the dome."""
    from companion.vision.readings import HoleReading
    from companion.vision.stream import may_shade_dome

    def covering(*holes: str) -> FrameReading:
        return FrameReading(found=True, holes=tuple(HoleReading(h, "unknown", 0.0) for h in holes), hand=True)

    assert not may_shade_dome(covering("yellow:home:4", "green:home:3", "blue:finish:2", "track:16"))
    assert not may_shade_dome(covering("track:5"))
    assert may_shade_dome(covering("track:16", "track:17"))
    assert may_shade_dome(covering("red:home:4", "track:1"))  # a Home beside its Start
    # A Home's holes are one cluster (benchmark game 19 at 1280x720: a hand
    # over Red's Home left holes 2 and 4 unknown; its shadow was a pop).
    assert may_shade_dome(covering("red:home:2", "red:home:4"))
    assert may_shade_dome(covering("blue:finish:1", "track:7"))  # a Finish beside its way in
    assert may_shade_dome(covering("green:finish:4"))  # beside the dome
    assert not may_shade_dome(covering("track:5", "track:7"), glints=frozenset({"track:7"}))
