"""One peg read on two neighbouring holes by turns, one of them doubtfully.

From fresh whole game 1195 at 640x480: a yellow peg on Finish 4, seen past
the one on Finish 2, was read on Finish 3 at 0.3 (a peg the four-per-colour
prior kept) and on Finish 4 at 0.5 by turns for minutes, on frames alike but
for noise, in runs of up to 3.8 s. Both positions stood by turns, and three
moves were judged on one board and called illegal. A position resting on the
doubtful hole now waits until the other has not been read for
``RIVAL_HOLD_S``; a position resting on the surer one is unaffected. The
rivalry is learned when the other hole is read after the doubtful one (a
move one hole on reads the old hole only before the new one), so each case
opens with a brief flicker, as the game's did.
"""

from __future__ import annotations

import doctest
from dataclasses import replace

from test_stream_doubtful_empty import positions
from test_stream_in_play import FPS, board, pegs

from companion.vision.readings import FrameReading, HoleReading, pegs_of
from companion.vision.stream import RIVAL_HOLD_S, VisionStream


def _read(reading: FrameReading, hand: bool = False, **states: tuple[str, float]) -> FrameReading:
    """*reading* with holes (``red_finish_3=("red", 0.3)``) read as given; with
    *hand*, one hole far from them unknown (a hand elsewhere on the board)."""
    wanted = {k.replace("_", ":"): v for k, v in states.items()}
    if hand:
        wanted["track:10"] = ("unknown", 0.0)
    holes = tuple(HoleReading(h.hole, *wanted[h.hole]) if h.hole in wanted else h  # type: ignore[arg-type]
                  for h in reading.holes)
    found, misplaced = pegs_of(holes)
    return replace(reading, holes=holes, pegs=found, misplaced=misplaced, hand=hand)


BASE = board(red_home_3="empty", red_home_4="empty", red_finish_2="red", red_finish_4="red")
#: The peg on Finish 4 read surely there (at 0.5), Finish 3 read empty.
ON_4 = _read(BASE, red_finish_3=("empty", 0.5), red_finish_4=("red", 0.5))
#: The same peg read on Finish 3 at 0.3 (doubtful), Finish 4 read empty.
ON_3 = _read(BASE, red_finish_3=("red", 0.3), red_finish_4=("empty", 0.8))


def _stream() -> VisionStream:
    stream = VisionStream()
    stream.colours = frozenset({"red", "blue"})
    assert positions(stream, [ON_4] * 6)[-1][1] == pegs(ON_4)
    return stream


def _seconds(reading: FrameReading, s: float) -> list[FrameReading]:
    return [reading] * round(s * FPS)


#: Half a second on the doubtful hole (under the doubtful time), then a frame on the other.
FLICKER = [ON_3] * 3 + [ON_4]


def test_a_peg_read_by_turns_on_two_holes_does_not_stand_on_the_doubtful_one() -> None:
    stream = _stream()
    # Runs of the doubtful read longer than the doubtful time (1.2 s), with a
    # frame or two of the surer read between them: nothing new stands.
    frames = (FLICKER + _seconds(ON_3, 2.0) + [ON_4] + _seconds(ON_3, 3.5) + [ON_4, ON_4] + _seconds(ON_3, 1.5)
              + [ON_4] + _seconds(ON_3, 4.0))
    assert [p for _, p in positions(stream, frames, t0=1.0) if p != pegs(ON_4)] == []


def test_the_doubtful_hole_stands_once_the_other_has_not_been_read_for_the_hold() -> None:
    stream = _stream()
    t0 = 1.0
    frames = _seconds(ON_3, 1.0) + [ON_4] + _seconds(ON_3, 8.0)
    last_rival = t0 + round(1.0 * FPS) / FPS  # the rivalry learned on this frame
    found = [(t, p) for t, p in positions(stream, frames, t0=t0) if p == pegs(ON_3)]
    assert found, "a doubtful peg read alone long enough must stand"
    assert found[0][0] >= last_rival + RIVAL_HOLD_S - 1e-9
    assert found[0][0] <= last_rival + RIVAL_HOLD_S + 2.0 / FPS


def test_the_other_hole_read_while_a_hand_is_elsewhere_holds_the_doubtful_one_too() -> None:
    stream = _stream()
    # The sure read is only ever seen on frames with a hand over another hole.
    on_4_hand = _read(ON_4, hand=True)
    frames = [ON_3] * 3 + [on_4_hand] + _seconds(ON_3, 2.0) + [on_4_hand, on_4_hand] + _seconds(ON_3, 3.0)
    assert not on_4_hand.complete
    assert [p for _, p in positions(stream, frames, t0=1.0) if p != pegs(ON_4)] == []


def test_a_move_beside_the_flicker_still_stands_on_the_surer_read() -> None:
    stream = _stream()
    moved = _read(ON_4, blue_home_1=("empty", 1.0), track_8=("blue", 1.0))
    moved_on_3 = _read(ON_3, blue_home_1=("empty", 1.0), track_8=("blue", 1.0))
    frames = FLICKER + _seconds(ON_3, 2.0) + [moved_on_3] * 2 + _seconds(moved, 0.5) + _seconds(moved_on_3, 2.0)
    found = [p for _, p in positions(stream, frames, t0=1.0)]
    assert found == [pegs(moved)]


def test_a_doubtful_peg_with_no_read_one_hole_over_waits_only_the_doubtful_time() -> None:
    stream = _stream()
    # The peg on Finish 4 leaves (read surely on the track, a real move) and a
    # peg is read doubtfully on Finish 3: nothing placed it one hole over.
    away = _read(ON_4, red_finish_4=("empty", 1.0), track_5=("red", 1.0))
    stream_positions = positions(stream, _seconds(away, 1.0), t0=1.0)
    assert stream_positions and stream_positions[-1][1] == pegs(away)
    doubtful = _read(away, red_finish_3=("red", 0.3), red_home_1=("empty", 1.0))
    found = positions(stream, _seconds(doubtful, 2.0), t0=3.0)
    assert found and found[0][1] == pegs(doubtful) and found[0][0] <= 3.0 + 1.2 + 2.0 / FPS


def test_the_time_layers_doctests() -> None:
    # (``_one_hole_over`` and ``peg_at`` show their cases there)
    import companion.vision.stream as stream

    assert doctest.testmod(stream).failed == 0
