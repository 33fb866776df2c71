"""A position seen whole every other frame is a position, not a hand.

A fresh whole rendered game at 640x480 (seed 419, session 30): a small,
tilted board read two or three holes unknown on every other frame for
seconds after a move. The time layer counted a position's time only over
runs of whole frames, so a position seen whole one frame at a time never
stood long enough and the move was announced 4.5 s late. A gap of one frame
(``FLICKER_BRIDGE_S``) between two whole views of the same position now
counts as held; a longer one (a hand) still pauses the clock.
"""

from __future__ import annotations

from test_stream_doubtful_empty import positions
from test_stream_in_play import TWO, board, pegs

from companion.vision.readings import FrameReading
from companion.vision.stream import VisionStream

#: Red has a peg out on space 3.
OUT = board(red_home_1="empty", track_3="red")
#: The same, two holes read unknown (a flicker on a small, tilted board).
FLICKERED = board(red_home_1="empty", track_3="red", track_8="unknown", blue_home_1="unknown")


def _stream() -> VisionStream:
    stream = VisionStream()
    stream.colours = TWO
    return stream


def _every(n: int, frames: int, whole: FrameReading = OUT) -> list[FrameReading]:
    """*frames* frames at 6 a second, whole on every *n*-th."""
    return [whole if i % n == 0 else FLICKERED for i in range(frames)]


def test_a_position_seen_whole_every_other_frame_is_reported() -> None:
    found = positions(_stream(), _every(2, 12))
    assert found and found[0][1] == pegs(OUT)
    assert found[0][0] <= 4 / 6 + 1e-9  # the third whole frame: 0.33 s held


def test_two_frames_in_a_row_with_holes_unknown_still_pause_the_clock() -> None:
    # Whole on every third frame: a gap of half a second, a hand's.
    assert positions(_stream(), _every(3, 24)) == []


def test_another_position_between_the_flickers_restarts_the_clock() -> None:
    other = board(red_home_1="empty", track_4="red")
    frames = [OUT, FLICKERED, other, FLICKERED, OUT, FLICKERED, other, FLICKERED, OUT]
    assert positions(_stream(), frames) == []

