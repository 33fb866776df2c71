"""A peg taken away from the reported position by a doubtful empty read.

From a whole rendered game at 640x480 (seed 20 with ``--illegal 0.1``): a
yellow peg in its Finish was read empty at confidence 0.3, and as if on
Yellow's Start, for half a second; the position was reported and the
referee called it. A peg *added* on a doubtful read already had to be seen
for ``doubtful_stable_s``; a peg taken away on one now waits as long.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from test_stream_in_play import FPS, TWO, board, pegs

from companion.vision.readings import FrameReading, HoleReading, pegs_of
from companion.vision.stream import PositionStable, VisionStream


def positions(stream: VisionStream, readings: list[FrameReading], t0: float = 0.0) -> list[tuple[float, Any]]:
    found = []
    for i, reading in enumerate(readings):
        t = t0 + i / FPS
        found += [(t, dict(e.pegs)) for e in stream.push_reading(reading, t) if isinstance(e, PositionStable)]
    return found


def _moved(reading: FrameReading, hole: str, to: str, empty_confidence: float) -> FrameReading:
    """*reading* with the peg in *hole* read empty (at *empty_confidence*) and seen on *to* instead."""
    colour = next(h.state for h in reading.holes if h.hole == hole)
    holes = tuple(
        HoleReading(h.hole, "empty", empty_confidence) if h.hole == hole
        else HoleReading(h.hole, colour, 0.8) if h.hole == to  # type: ignore[arg-type]
        else h
        for h in reading.holes
    )
    found, misplaced = pegs_of(holes)
    return replace(reading, holes=holes, pegs=found, misplaced=misplaced)


def _stream_at(reading: FrameReading) -> VisionStream:
    stream = VisionStream()
    stream.colours = TWO
    assert positions(stream, [reading] * 6)[-1][1] == pegs(reading)
    return stream


BEFORE = board(red_finish_3="red", red_home_4="empty")


def test_a_peg_taken_away_by_a_doubtful_empty_read_waits_as_a_doubtful_peg() -> None:
    glitch = _moved(BEFORE, "red:finish:3", "track:1", 0.3)
    stream = _stream_at(BEFORE)
    # Half a second of the glitch, then the peg read where it is: nothing new
    # reported (the position before, once more, as it stands again).
    assert [p for _, p in positions(stream, [glitch] * 3 + [BEFORE] * 6, t0=1.0)] == [pegs(BEFORE)]
    # The same read for longer than the doubtful time is a position.
    later = positions(stream, [glitch] * 12, t0=3.0)
    assert later and later[0][1] == pegs(glitch) and later[0][0] >= 3.0 + 1.2 - 1e-9


def test_a_peg_moved_off_a_hole_read_surely_empty_is_reported_at_once() -> None:
    moved = _moved(BEFORE, "red:finish:3", "track:1", 1.0)
    stream = _stream_at(BEFORE)
    found = positions(stream, [moved] * 6, t0=1.0)
    assert found and found[0][1] == pegs(moved) and found[0][0] <= 1.0 + 0.5
