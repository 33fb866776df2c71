"""The reader on rendered frames: every hole, the referee's format, hands, a nudged camera.

Small seeded sets with thresholds that catch a regression without being
flaky; the full held-out figures come from ``companion bench vision``.
Seeds here (9000-9999) are disjoint from the benchmark's (900,000+).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from companion.layout import COLORS, load_layout
from companion.sim import DieView, HandView, Scene, render
from companion.vision.benchmark import covered_holes, random_position
from companion.vision.reader import BoardReader
from companion.vision.stream import BoardFound, PositionStable, VisionStream

LAYOUT = load_layout()
OPENING = {c: ["home"] * 4 for c in COLORS}


def _scene(seed: int, **knobs: object) -> Scene:
    return Scene.random(seed, LAYOUT, size=(1280, 720), **knobs)


@pytest.mark.slow
def hole_errors(reading: Any, truth: Any, skip: AbstractSet[str] = frozenset()) -> tuple[int, int, int]:
    """Holes judged, read wrong and read unknown (the holes in *skip* left out)."""
    holes = wrong = unknown = 0
    for hole in reading.holes:
        if hole.hole in skip:
            continue
        holes += 1
        want = truth.occupancy.get(hole.hole, "empty")
        unknown += hole.state == "unknown"
        wrong += hole.state not in ("unknown", want)
    return holes, wrong, unknown


def test_every_hole_on_a_seeded_set_without_hands() -> None:
    holes = wrong = unknown = 0
    for seed in range(9000, 9024):
        rng = np.random.default_rng(seed)
        frame, truth = render(random_position(rng), DieView(3), _scene(seed, hand=None), seed=seed)
        reading = BoardReader(LAYOUT, read_die=False).read(frame)
        assert reading.found, f"seed {seed}: {reading.reason}"
        n, w, u = hole_errors(reading, truth)
        holes, wrong, unknown = holes + n, wrong + w, unknown + u
    # Regression guards (the benchmark measures the real rates on 1,000 frames).
    assert wrong / holes <= 0.005
    assert unknown / holes <= 0.02


def test_a_tidy_top_down_frame_reads_exactly_in_the_referee_format() -> None:
    pegs = {"red": ["home", "home", "track:3", "finish:2"], "blue": ["home", "track:9", "track:10", "finish:4"],
            "yellow": ["home"] * 4, "green": ["track:22", "track:21", "finish:1", "finish:3"]}
    frame, truth = render(pegs, DieView(4), Scene.default(LAYOUT, tilt_deg=0), seed=1)
    reading = BoardReader(LAYOUT, read_die=False).read(frame)
    assert reading.complete
    assert reading.pegs_json() == {c: list(v) for c, v in truth.pegs.items()}
    assert len(reading.holes) == 60 and all(0.0 <= h.confidence <= 1.0 for h in reading.holes)


@pytest.mark.parametrize("tilt", [20, 40])
def test_peg_height_is_accounted_for_in_a_tilted_view(tilt: int) -> None:
    pegs = {"red": ["track:1", "track:2", "finish:1", "finish:2"], "green": ["finish:3", "finish:4",
                                                                             "track:23", "home"]}
    frame, truth = render(pegs, DieView(2), Scene.default(LAYOUT, tilt_deg=tilt), seed=2)
    reading = BoardReader(LAYOUT, read_die=False).read(frame)
    assert reading.pegs_json() == {c: list(v) for c, v in truth.pegs.items()}


@pytest.mark.slow
def test_a_hand_over_holes_is_flagged_and_never_makes_a_position() -> None:
    flagged = 0
    seeds = range(9100, 9110)
    for seed in seeds:
        hand = HandView(tip_mm=(130.0, 60.0 + 4 * (seed % 10)), height_mm=40.0, from_deg=180.0)
        frame, truth = render(OPENING, DieView(5), _scene(seed, hand=hand, tilt_deg=20), seed=seed)
        assert covered_holes(truth), "the scripted hand must cover holes"
        reading = BoardReader(LAYOUT, read_die=False).read(frame)
        flagged += reading.found and reading.hand
        if reading.found:
            stream = VisionStream()
            events = [e for t in range(20) for e in stream.push_reading(reading, t / 10)]
            assert not any(isinstance(e, PositionStable) for e in events)
    assert flagged == len(seeds)


def test_a_nudged_camera_is_found_again_and_reads_the_same_position() -> None:
    pegs = {"red": ["home", "home", "track:5", "finish:1"], "blue": ["home"] * 4}
    scene = _scene(9200, hand=None, tilt_deg=25, motion_blur_px=0.0, noise=1.0)
    nudged = replace(scene, camera=_scene(9201, tilt_deg=30).camera)
    reader = BoardReader(LAYOUT, read_die=False)
    stream = VisionStream(reader, position_stable_s=0.3, lost_after_s=0.2)
    events = []
    before, truth = render(pegs, DieView(1), scene, seed=3)
    after, _ = render(pegs, DieView(1), nudged, seed=3)
    blank = np.full_like(before, 90)  # the camera knocked aside: nothing to see
    t = 0.0
    for frame, n in ((before, 10), (blank, 10), (after, 10)):
        for _ in range(n):
            events += stream.push(frame, t)
            t += 0.05
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["PositionStable", "BoardLost", "BoardFound"]
    assert isinstance(events[0], PositionStable)
    assert {c: list(v) for c, v in events[0].pegs.items()} == {c: list(v) for c, v in truth.pegs.items()}
    final = reader.read(after)
    assert final.found and final.pegs == events[0].pegs
    assert isinstance(events[2], BoardFound)


def test_a_nudged_camera_keeps_its_lens_and_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # A nudge moves the camera, not its lens: the frame after it is placed
    # from the marker corners with the lens the hole refit measured (the
    # refit was most of a nudged frame's time), and reads the same position.
    # After the board was lost (knocked aside, perhaps another camera), the
    # lens is measured again.
    import companion.vision.locate as locate
    from companion.vision.benchmark import nudged

    refits = []
    real = locate.refine_with_holes
    monkeypatch.setattr(locate, "refine_with_holes", lambda *a, **k: refits.append(1) or real(*a, **k))
    pegs = {"red": ["home", "home", "track:5", "finish:1"], "blue": ["home", "track:12", "home", "home"]}
    scene = _scene(9210, hand=None, tilt_deg=20, motion_blur_px=0.0)
    before, truth = render(pegs, DieView(1), scene, seed=4)
    after, _ = render(pegs, DieView(1), replace(scene, camera=nudged(scene.camera)), seed=4)
    reader = BoardReader(LAYOUT, read_die=False)
    first = reader.read(before)
    assert first.complete and len(refits) == 1
    moved = reader.read(after)
    assert moved.found and moved.pose is not None and moved.pose.source == "markers"
    assert len(refits) == 1  # no refit: the lens was kept
    assert moved.complete and {c: list(v) for c, v in moved.pegs.items()} == {c: list(v) for c, v in truth.pegs.items()}
    assert not reader.read(np.full_like(before, 90)).found
    assert reader.read(before).found and len(refits) == 2  # measured again after the loss


def test_a_nudged_frame_finds_its_markers_among_outlines_of_their_size_or_falls_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # After a nudge each marker is looked for in a window around its last
    # place, first among outlines of about its last size (the cheap search),
    # then among outlines of any size. Both give the same corners, so the
    # same pose and holes; when the first finds nothing (here: told to look
    # for outlines three times too large, as after a camera moved far
    # closer), the second still finds every marker.
    import companion.vision.locate as locate
    from companion.vision.benchmark import nudged

    pegs = {"red": ["home", "home", "track:5", "finish:1"], "green": ["home", "track:20", "home", "home"]}
    scene = _scene(9215, hand=None, tilt_deg=25, motion_blur_px=0.0)
    before, _ = render(pegs, DieView(3), scene, seed=5)
    after, truth = render(pegs, DieView(3), replace(scene, camera=nudged(scene.camera)), seed=5)

    full_range: list[tuple[int, int]] = []  # the searches among outlines of any size (window offsets)

    def read_nudged() -> Any:
        reader = BoardReader(LAYOUT, read_die=False)
        assert reader.read(before).found  # the whole frame searched
        full_range.clear()
        return reader.read(after)

    real_detect = locate.BoardLocator._detect

    def detect(self: Any, gray: np.ndarray, offset: tuple[int, int] = (0, 0), detector: Any = None) -> Any:
        if detector is None:
            full_range.append(offset)
        return real_detect(self, gray, offset, detector)

    monkeypatch.setattr(locate.BoardLocator, "_detect", detect)
    sized = read_nudged()
    assert full_range == []  # every marker found by the cheap search
    monkeypatch.setattr(locate, "WINDOW_PERIMETER", (3.0, 4.0))
    fallback = read_nudged()
    assert len(full_range) == 4 and (0, 0) not in full_range  # each window again, never the whole frame
    for reading in (sized, fallback):
        assert reading.found and reading.pose is not None and reading.pose.markers_seen == (0, 1, 2, 3)
        assert reading.complete and reading.pegs_json() == {c: list(v) for c, v in truth.pegs.items()}
    assert sized.pose is not None and fallback.pose is not None
    assert np.array_equal(sized.pose.homography, fallback.pose.homography)
    assert [(h.state, h.confidence) for h in sized.holes] == [(h.state, h.confidence) for h in fallback.holes]


def _paint_over_markers(frame: np.ndarray, truth: object, ids: tuple[int, ...]) -> None:
    """Cover printed markers (a hand, a magazine): paint over each one."""
    import cv2

    for marker in ids:
        corners = truth.markers_px[marker]  # type: ignore[attr-defined]
        centre = corners.mean(axis=0)
        cv2.fillConvexPoly(frame, (centre + (corners - centre) * 1.25).astype(np.int32),
                           (90, 120, 160))


def test_the_board_is_followed_by_its_holes_when_the_markers_are_covered() -> None:
    from companion.sim import Camera

    pegs = {"red": ["home", "home", "track:5", "finish:1"], "blue": ["home"] * 4}
    scene = _scene(9400, hand=None, tilt_deg=25, motion_blur_px=0.0)
    first, _ = render(pegs, DieView(1), scene, seed=3)
    cam = scene.camera
    moved = Camera(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, cam.rvec,
                   tuple(np.asarray(cam.tvec) + np.array([6.0, -4.0, 0.0])), cam.dist)
    nudged, truth = render(pegs, DieView(1), replace(scene, camera=moved), seed=3)
    _paint_over_markers(nudged, truth, (0, 1, 2))
    reader = BoardReader(LAYOUT, read_die=False)
    assert reader.read(first).found
    reading = reader.read(nudged)
    assert reading.found and reading.pose is not None and reading.pose.source == "holes"
    assert reading.pegs_json() == {c: list(v) for c, v in truth.pegs.items()}
    # Without a pose to start from, the board is found by its own print (its
    # coloured Homes, then its holes), never guessed from the one marker left.
    cold = BoardReader(LAYOUT, read_die=False).read(nudged)
    assert cold.found and cold.pose is not None and cold.pose.source == "print"
    assert cold.pegs_json() == {c: list(v) for c, v in truth.pegs.items()}


def test_manual_corners_read_a_board_without_markers() -> None:
    pegs = {"red": ["home", "track:12", "finish:2", "home"], "green": ["track:25", "home", "home", "home"]}
    scene = _scene(9500, hand=None, tilt_deg=15, motion_blur_px=0.0)
    frame, truth = render(pegs, DieView(2), scene, seed=4)
    _paint_over_markers(frame, truth, (0, 1, 2, 3))
    w, h = LAYOUT.size_mm
    corners = truth.camera.project(np.array([[0, 0, 0], [w, 0, 0], [w, h, 0], [0, h, 0]], float))
    reading = BoardReader(LAYOUT, corners_px=corners, read_die=False).read(frame)
    assert reading.found and reading.pose is not None and reading.pose.source == "corners"
    assert reading.pegs_json() == {c: list(v) for c, v in truth.pegs.items()}


@pytest.mark.slow
def test_every_hole_in_motion_blurred_frames_the_saddle_corners_got_wrong() -> None:
    # 8-10 px of motion blur, random cameras and hands: the frames among
    # seeds 9816-9999 on which the locator, with the markers' corners from
    # the grey-level saddle search, put the holes pixels out (the reader then
    # read 8.7% of these holes wrong and left 32% unknown). Now: 0 wrong and
    # 0.5% unknown.
    holes = wrong = unknown = 0
    for seed in (9831, 9852, 9862, 9871, 9936, 9945, 9976, 9982):
        rng = np.random.default_rng(seed)
        scene = _scene(seed, motion_blur_px=float(rng.uniform(8, 10)))
        frame, truth = render(random_position(rng), DieView(3), scene, seed=seed)
        reading = BoardReader(LAYOUT, read_die=False).read(frame)
        assert reading.found, f"seed {seed}: {reading.reason}"
        n, w, u = hole_errors(reading, truth, skip=covered_holes(truth))
        holes, wrong, unknown = holes + n, wrong + w, unknown + u
    assert wrong / holes <= 0.005
    assert unknown / holes <= 0.02


def test_after_a_nudge_the_die_is_read_again_only_when_the_dome_changed() -> None:
    """The die reading stands across a camera nudge while the rectified dome
    thumbnail is the same (SAME_DOME); a die that moved is read again."""
    from companion.sim import Camera
    from companion.sim.script import _rolled
    from companion.vision.dice.reading import DieReading

    pegs = {"red": ["home"] * 4, "blue": ["home"] * 4}
    scene = _scene(9500, hand=None, tilt_deg=25, motion_blur_px=0.0, noise=1.0)
    cam = scene.camera
    moved = Camera(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, _rolled(cam, 1.0),
                   tuple(float(v) for v in np.asarray(cam.tvec) - np.array([3.0, -2.0, 0.0])), cam.dist)
    die = DieView(4, yaw_deg=10.0, offset_mm=(2.0, -1.0))
    first, _ = render(pegs, die, scene, seed=3)
    nudged, _ = render(pegs, die, replace(scene, camera=moved), seed=3)
    rolled, _ = render(pegs, DieView(2, yaw_deg=40.0, offset_mm=(-6.0, 5.0)), replace(scene, camera=moved), seed=3)
    calls = []

    def read_die(crop: np.ndarray) -> DieReading:
        calls.append(crop.shape)
        return DieReading("settled", 4, 0.99)

    reader = BoardReader(LAYOUT, die_reader=read_die)
    one = reader.read(first)
    two = reader.read(nudged)
    assert one.pose is not None and two.pose is not None and two.pose.camera is not one.pose.camera
    assert len(calls) == 1 and two.die == one.die
    reader.read(rolled)
    assert len(calls) == 2


def _navy_scene(seed: int) -> Scene:
    """The still scene of whole rendered game *seed* at 640x480 (no hand, no blur)."""
    scene = replace(Scene.random(np.random.default_rng(seed), LAYOUT, size=(640, 480)), hand=None,
                    motion_blur_px=0.0)
    assert scene.board_style == 0  # the navy-track printing
    return scene


def _read_boards(scene: Scene, positions: list[dict[str, list[str]]], frames: int, seed: int) -> tuple[int, int]:
    """How many frames of *positions* (each rendered *frames* times) were read
    complete, and how many of those read a position that is not the truth."""
    wrong = complete = 0
    for k in range(frames):
        for pegs in positions:
            frame, truth = render(pegs, DieView(3), scene, seed=seed + k, layout=LAYOUT)
            reading = BoardReader(LAYOUT, read_die=False).read(frame)
            complete += reading.complete
            wrong += reading.complete and dict(reading.pegs) != {c: tuple(v) for c, v in truth.pegs.items()}
    return complete, wrong


def test_a_navy_track_shows_no_phantom_peg_on_blues_start() -> None:
    # The scene of whole rendered game seed 157 (640x480, a navy track, a
    # small board): an empty Blue's Start showed blue at its top, body and
    # foot, and was read as a Blue peg while a Blue Home peg was dropped, on
    # 27 of these 48 frames before session 19.
    played = {"red": ["home", "home", "track:3", "track:20"], "blue": ["home", "home", "home", "finish:2"],
              "yellow": ["home"] * 4, "green": ["home", "home", "home", "track:12"]}
    complete, wrong = _read_boards(_navy_scene(157), [OPENING, played], 12, 1000)
    assert wrong == 0
    assert complete >= 20


def test_a_small_board_with_a_navy_track_shows_no_phantom_pegs_of_its_print() -> None:
    # The scene of whole rendered game seed 211 (640x480, a navy track, a
    # small tilted board): empty track holes showed the band's blue at their
    # top points with part of the recess seen, and were read as blue pegs
    # while Blue's Home pegs went unknown; the opening check never passed and
    # the game was followed from a board with a phantom. A peg of the track
    # print's own colour whose recess shows through is now ambiguous.
    played = {"red": ["home", "home", "track:3", "track:20"], "blue": ["home", "home", "home", "track:12"],
              "yellow": ["home"] * 4, "green": ["home"] * 4}
    # A real blue peg on Blue's Start (where the phantom stood) is still read.
    on_start = {"red": ["home"] * 4, "blue": ["home", "home", "home", "track:8"],
                "yellow": ["home"] * 4, "green": ["home"] * 4}
    complete, wrong = _read_boards(_navy_scene(211), [OPENING, played, on_start], 8, 2000)
    assert wrong == 0
    assert complete >= 16
