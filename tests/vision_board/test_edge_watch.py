"""A hand reaching over the board's edge that covers no hole (``companion.vision.edge``).

Fresh whole rendered game 682 at 640x480: Blue's peg, carried in fingers that
reached in at the board's corner, was read seated on Blue's Finish 1 for half
a second with no hole covered, so no hand was seen, and the referee built its
game on that board. The rim band is watched for such a hand.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.layout import COLORS, load_layout
from companion.vision.dice.reading import DieReading
from companion.vision.edge import (
    EDGE_ABSORB_S,
    EDGE_GIVE_UP_S,
    EDGE_MIN_RUN,
    EdgeWatch,
    edge_points_mm,
    longest_run,
)
from companion.vision.geometry import BoardGeometry
from companion.vision.readings import FrameReading, HoleReading
from companion.vision.stream import PopSettled, PositionUnsettled, VisionStream

LAYOUT = load_layout()
N = len(edge_points_mm(BoardGeometry.from_layout(LAYOUT)))


def _rim(seed: int = 0) -> np.ndarray:
    """A rim's colours: the print's dark margin with light patches here and there."""
    rng = np.random.default_rng(seed)
    rim = np.full((N, 3), 40.0)
    rim[rng.random(N) < 0.3] = 200.0
    return rim


def _seen(rim: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The rim as one frame shows it: with sensor noise, as uint8."""
    return np.clip(rim + rng.normal(0, 4, rim.shape), 0, 255).astype(np.uint8)


def _with_hand(rim: np.ndarray, first: int, count: int) -> np.ndarray:
    """*count* neighbouring samples from *first* (round the ring) covered by skin."""
    out = rim.copy()
    out[np.arange(first, first + count) % N] = (120, 160, 215)
    return out


def test_the_band_goes_round_the_board_inside_its_edge() -> None:
    points = edge_points_mm(BoardGeometry.from_layout(LAYOUT))
    w, h = LAYOUT.size_mm
    assert points.min() > 0 and points[:, 0].max() < w and points[:, 1].max() < h
    # Neighbours in the array are neighbours on the board, the last beside the first.
    steps = np.linalg.norm(np.diff(np.vstack([points, points[:1]]), axis=0), axis=1)
    assert steps.max() <= 8.0


def test_a_still_rim_with_sensor_noise_is_no_hand() -> None:
    rng, watch, rim = np.random.default_rng(1), EdgeWatch(), _rim()
    assert not any(watch.update(_seen(rim, rng), k / 6) for k in range(60))


def test_a_run_of_changed_samples_is_a_hand_and_a_lone_one_is_not() -> None:
    rng, rim = np.random.default_rng(2), _rim()
    for first, count, hand in ((10, EDGE_MIN_RUN, True), (N - 2, 5, True), (50, 1, False),
                               (70, EDGE_MIN_RUN - 1, False)):
        watch = EdgeWatch()
        watch.update(_seen(rim, rng), 0.0)
        assert watch.update(_seen(_with_hand(rim, first, count), rng), 0.2) is hand, (first, count)
        # Gone again: the bare rim is back.
        assert not watch.update(_seen(rim, rng), 0.4)


def test_a_change_of_light_over_the_whole_rim_is_no_hand() -> None:
    rng, watch, rim = np.random.default_rng(3), EdgeWatch(), _rim()
    watch.update(_seen(rim, rng), 0.0)
    assert not watch.update(_seen(rim * 1.4, rng), 0.2)  # brighter everywhere
    assert not watch.update(_seen(rim * 0.7, rng), 0.4)  # darker everywhere


def test_an_arm_and_its_shadow_over_most_of_the_rim_leave_no_trace() -> None:
    """Fresh game 690: an arm and its shadow over more than half the rim were
    once taken for a change of light and made the rim's bare look, and the
    bare rim then looked like a hand for seconds after the arm had gone."""
    rng, watch, rim = np.random.default_rng(7), EdgeWatch(), _rim()
    watch.update(_seen(rim, rng), 0.0)
    shade = rim.copy()
    shade[: int(N * 0.6)] *= 0.45
    for k in range(1, 6):
        assert watch.update(_seen(_with_hand(shade, 10, 20), rng), k * 0.1, covered=True)
    assert not watch.update(_seen(rim, rng), 0.6)
    # Lit unevenly for good (a lamp switched on at one side): seen as a hand
    # until it has stayed ``EDGE_ABSORB_S``, then the rim as it now is.
    lit = rim.copy()
    lit[: int(N * 0.6)] += 60
    seen = [(0.6 + k * 0.1, watch.update(_seen(lit, rng), 0.6 + k * 0.1)) for k in range(1, 25)]
    assert seen[0][1] and not any(hand for t, hand in seen if t > 0.6 + EDGE_ABSORB_S + 0.15)
    assert watch.update(_seen(_with_hand(lit, 100, 6), rng), 3.5)


def test_what_stays_on_the_rim_becomes_the_rim_but_not_while_a_hand_covers_holes() -> None:
    rng, watch, rim = np.random.default_rng(4), EdgeWatch(), _rim()
    watch.update(_seen(rim, rng), 0.0)
    changed = _with_hand(rim, 30, 8)  # a peg laid on the board's edge, say
    t, seen = 0.0, []
    while t < EDGE_ABSORB_S + 0.6:
        t += 0.1
        seen.append((t, watch.update(_seen(changed, rng), t)))
    assert all(hand for s, hand in seen if s < EDGE_ABSORB_S - 0.05)
    assert not any(hand for s, hand in seen if s > EDGE_ABSORB_S + 0.15)
    # An arm lying still at the edge while its fingers cover holes is never
    # taken for the rim: it is seen for as long as the holes show the hand.
    watch = EdgeWatch()
    watch.update(_seen(rim, rng), 0.0)
    arm = _with_hand(rim, 60, 8)
    assert all(watch.update(_seen(arm, rng), k * 0.1, covered=True) for k in range(1, 40))
    assert not watch.update(_seen(rim, rng), 4.1)  # gone: nothing left behind


def test_samples_a_home_peg_may_cover_are_not_watched() -> None:
    rng, watch, rim = np.random.default_rng(5), EdgeWatch(), _rim()
    clear = np.ones(N, bool)
    clear[20:30] = False
    watch.update(_seen(rim, rng), 0.0, clear=clear)
    assert not watch.update(_seen(_with_hand(rim, 22, 6), rng), 0.2, clear=clear)
    assert watch.update(_seen(_with_hand(rim, 26, 8), rng), 0.4, clear=clear)  # 30-33 are watched


def test_longest_run_reads_the_band_as_a_ring() -> None:
    assert longest_run(np.array([True, True, False, False, True])) == 3
    assert longest_run(np.ones(4, bool)) == 4
    assert longest_run(np.zeros(0, bool)) == 0


@pytest.mark.slow
def test_a_hand_at_the_board_edge_over_no_hole_holds_the_position_back() -> None:
    """Rendered: the position with a peg moved, while a hand reaches in at the
    board's edge covering no hole, is reported only when the hand has gone
    (and with the rim unwatched, at once: the case this guards)."""
    from companion.sim import DieView, HandView, Scene, render
    from companion.vision.reader import BoardReader
    from companion.vision.stream import PositionStable, VisionStream

    opening = {c: ["home"] * 4 for c in COLORS}
    moved = {**opening, "red": ["home", "home", "home", "track:1"]}
    for tilt, tip, side in ((30.0, (12.0, 140.0), 270.0), (45.0, (140.0, 10.0), 0.0)):
        scene = Scene.default(LAYOUT, size=(640, 480), tilt_deg=tilt)
        before, _ = render(opening, DieView(3), scene, seed=1)
        reaching, _ = render(moved, DieView(3), replace(
            scene, hand=HandView(tip_mm=tip, height_mm=25.0, from_deg=side, pinch=True)), seed=1)
        after, _ = render(moved, DieView(3), scene, seed=1)
        for watched in (True, False):
            reader = BoardReader(LAYOUT)
            assert not reader.read(reaching).hand, "the hand covers a hole: not the case under test"
            stream = VisionStream(reader, watch_edge=watched)
            reported: list[tuple[float, dict[str, tuple[str, ...]]]] = []
            clip = [before] * 6 + [reaching] * 6 + [after] * 6
            for k, frame in enumerate(clip):
                t = k / 6
                reported += [(t, dict(e.pegs)) for e in stream.push(frame, t) if isinstance(e, PositionStable)]
            first_moved = next(t for t, pegs in reported if pegs["red"][-1] == "track:1")
            if watched:
                assert first_moved >= 12 / 6, (tilt, reported)
            else:
                assert first_moved < 12 / 6, (tilt, reported)


def test_a_rim_that_flickers_for_long_over_no_hole_is_given_up_where_it_flickers() -> None:
    """A flickering lamp or a noisy camera must not hold the referee up for
    good: after ``EDGE_GIVE_UP_S`` of a "hand" over no hole, the samples
    that differ are no longer watched; the rest of the rim still is."""
    rng, watch, rim = np.random.default_rng(6), EdgeWatch(), _rim()
    watch.update(_seen(rim, rng), 0.0)
    seen = []
    for k in range(1, int((EDGE_GIVE_UP_S + 2) * 10)):
        flicker = _with_hand(rim, 40, 6) if k % 2 else _with_hand(rim, 40, 6) * 0.3  # never still
        seen.append((k / 10, watch.update(_seen(flicker, rng), k / 10)))
    assert all(hand for t, hand in seen if t < EDGE_GIVE_UP_S - 0.05)
    assert not any(hand for t, hand in seen if t > EDGE_GIVE_UP_S + 0.05)
    assert watch.update(_seen(_with_hand(rim, 120, 6), rng), 10.0)
    watch.reset()
    assert not watch.update(_seen(rim, rng), 11.0)
    assert watch.update(_seen(_with_hand(rim, 40, 6), rng), 11.1)


def _reading(pegs: dict[str, tuple[str, ...]], band: np.ndarray, lie: int = 1,
             die: DieReading | None = None) -> FrameReading:
    """A complete reading (no hole covered) whose rim shows *band*."""
    holes = tuple(HoleReading(h, "empty", 1.0) for h in ("track:5", "track:6", "red:finish:1"))
    return FrameReading(found=True, holes=holes, pegs=pegs, die=die or DieReading("settled", 4, 0.99),
                        dome_signature=np.random.default_rng(lie).normal(0, 1, (16, 16)).astype(np.float32),
                        edge=band)


def test_the_time_layer_reports_no_position_and_no_confirmation_on_a_frame_with_a_hand_at_the_rim() -> None:
    rng, rim = np.random.default_rng(8), _rim()
    start = {"red": ("home",) * 4}
    moved = {"red": ("home",) * 3 + ("track:1",)}
    stream, t, seen = VisionStream(), 0.0, []

    def feed(reading: FrameReading, seconds: float) -> None:
        nonlocal t
        for _ in range(int(round(seconds * 10))):
            seen.extend((t, e) for e in stream.push_reading(reading, t))
            t += 0.1

    def said() -> list[str]:
        return [type(e).__name__ for _, e in seen if not isinstance(e, PositionUnsettled)]

    feed(_reading(start, _seen(rim, rng)), 1.0)
    assert said() == ["PositionStable"]
    # A peg "seated" while fingers reach in at the edge: held back however
    # long, and reported on the first frame the rim is bare again (its time
    # counted while the hand was there).
    feed(_reading(moved, _seen(_with_hand(rim, 50, 8), rng)), 1.0)
    assert said() == ["PositionStable"]
    feed(_reading(moved, _seen(rim, rng)), 0.1)
    assert said() == ["PositionStable"] * 2 and dict(seen[-1][1].pegs) == moved
    # After a pop the position is confirmed once it has stood unchanged, but
    # not while something is at the rim (a peg lifted may read where it stood).
    feed(_reading(moved, _seen(rim, rng), lie=9, die=DieReading("hidden", None, 0.9)), 0.3)
    feed(_reading(moved, _seen(_with_hand(rim, 50, 8), rng), lie=2), 1.0)
    assert said()[2:] == ["PopSettled"]
    feed(_reading(moved, _seen(rim, rng), lie=2), 0.1)
    assert said()[2:] == ["PopSettled", "PositionStable"]


def _covered(band: np.ndarray, lie: int, die: DieReading) -> FrameReading:
    """Two holes side by side read unknown (what a hand over them looks like), and the rim *band*."""
    holes = (HoleReading("track:5", "unknown", 0.0), HoleReading("track:6", "unknown", 0.0),
             HoleReading("red:finish:1", "empty", 1.0))
    return FrameReading(found=True, holes=holes, pegs={"red": ("home",) * 4}, hand=True, die=die,
                        dome_signature=np.random.default_rng(lie).normal(0, 1, (16, 16)).astype(np.float32),
                        edge=band)


@pytest.mark.parametrize("rim_hand", [False, True])
def test_holes_unknown_with_a_bare_rim_do_not_hold_up_the_die(rim_hand: bool) -> None:
    """Fresh game 758 at 640x480: Red's emptied Home holes read unknown on most
    frames, the die's clocks waited for that "hand" to go, and Blue's 5, in
    plain view for 1.2 s, was never reported. An arm crosses the rim: holes
    unknown while the rim is bare are no hand over the dome."""
    rng, rim = np.random.default_rng(3), _rim()
    stream, t, events = VisionStream(), 0.0, []

    def feed(reading: FrameReading, seconds: float) -> None:
        nonlocal t
        for _ in range(int(round(seconds * 10))):
            events.extend(stream.push_reading(reading, t))
            t += 0.1

    five = DieReading("settled", 5, 0.99)
    # A 5 lying one way, popped, and a 5 again lying another way: a pop of
    # the same face needs hand-free frames (a hand's shade can change the
    # dome's look), so holes covered side by side hold it back.
    feed(_reading({"red": ("home",) * 4}, _seen(rim, rng), die=five), 1.0)
    feed(_reading({"red": ("home",) * 4}, _seen(rim, rng), lie=9, die=DieReading("hidden", None, 0.9)), 0.3)
    band = _with_hand(rim, 60, 8) if rim_hand else rim
    feed(_covered(_seen(band, rng), 2, five), 1.2)
    popped = [e.value for e in events if isinstance(e, PopSettled)]
    assert popped == ([] if rim_hand else [5])
    if rim_hand:  # the same frames with the arm gone from the rim
        feed(_covered(_seen(rim, rng), 2, five), 0.5)
        assert [e.value for e in events if isinstance(e, PopSettled)] == [5]
