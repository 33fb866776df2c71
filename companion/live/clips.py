"""Rendered clips refereed end to end: simulator -> vision -> loop, judged.

The simulator (:mod:`companion.sim.simulate`) renders each physical step of a
game and, at the frame where a camera could know it, feeds its own referee
the input the physical game implies; that referee's events are the truth.
Here the same frames go through the real vision stream and the live loop,
and the loop's events are judged against that truth (:mod:`.judge`). Used by
``companion bench referee --source video`` and the end-to-end tests.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.live.answering import Habits
from companion.live.frames import Frame
from companion.live.judge import SilentSpeaker, Verdict, judge_loop
from companion.live.loop import Loop
from companion.live.run import RunStats, feed_frames


@dataclass
class ClipTruth:
    """What the simulator's referee said, and when the camera could know it."""

    setup: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    pop_at: list[float] = field(default_factory=list)
    move_at: list[float] = field(default_factory=list)
    illegal_at: list[float] = field(default_factory=list)
    #: Until when each illegal board stood (the next board the table made:
    #: put back, or the right move); a call may come until then.
    illegal_until: list[float] = field(default_factory=list)


def truth_of(frames: Iterable[Any]) -> ClipTruth:
    """Collect the truth of rendered frames (``FrameTruth`` values, or their JSON)."""
    truth = ClipTruth(setup={})
    for ft in frames:
        data = ft.to_json() if hasattr(ft, "to_json") else ft
        # The frame's exact time where it has one (the JSON's is rounded to
        # the millisecond), the same clock the loop's announcements carry: a
        # call made on the very frame of the illegal board was judged false
        # and the board missed when the two clocks differed by a fraction of
        # a millisecond.
        t = float(ft.time) if hasattr(ft, "time") else float(data["time"])
        inputs = data.get("inputs", [])
        if len(truth.illegal_until) < len(truth.illegal_at) and any("board" in line for line in inputs):
            truth.illegal_until.append(t)
        for line in inputs:
            if "setup" in line:
                truth.setup = dict(line["setup"])
            elif "pop" in line:
                truth.pop_at.append(t)
        events = list(data.get("events", []))
        if any(e.get("event") == "move" for e in events):
            truth.move_at.append(t)
        if any(e.get("event") == "illegal" for e in events):
            truth.illegal_at.append(t)
        truth.events.extend(events)
    truth.illegal_until += [t + 2.0 for t in truth.illegal_at[len(truth.illegal_until):]]
    return truth


def referee_frames(
    frames: Iterable[tuple[Any, Any]],
    setup: dict[str, Any],
    *,
    layout: Any = None,
    stream: Any = None,
    speaker: Any = None,
    answers: Any = None,
) -> tuple[Loop, RunStats, ClipTruth]:
    """Referee rendered ``(image, FrameTruth)`` pairs through vision and the loop.

    The loop is started with the clip's players and first player; the truth
    is collected from the same frames as they pass. With *answers* (an
    :class:`companion.live.answering.AnsweringTable`), players answer the
    loop's questions about pops the camera could not read.
    """
    from companion.referee import Referee
    from companion.vision.reader import BoardReader
    from companion.vision.stream import VisionStream

    if stream is None:
        from companion.layout import load_layout

        stream = VisionStream(BoardReader(layout or load_layout(), calibration=None))
    players = [[p] if isinstance(p, str) else list(p) for p in setup.get("players", [])]
    loop = Loop(Referee, speaker or SilentSpeaker())
    loop.start(players or None, setup.get("rules"), setup.get("turn"), setup.get("pegs"))
    truths: list[Any] = []
    remaining = iter(frames)

    def images() -> Iterable[Frame]:
        for image, ft in remaining:
            truths.append(ft)
            yield Frame(float(ft.time), image)

    commands = None
    if answers is not None:
        from companion.live.answering import Answers

        commands = Answers(loop, answers).due
    stats = feed_frames(loop, images(), stream, commands=commands)
    # The loop stops at its game over, which it may see before the frame the
    # truth records the winning move on: the clip's truth is read to its end
    # (frames not read), or the judge would miss the truth's last events.
    truths.extend(ft for _, ft in remaining)
    return loop, stats, truth_of(truths)


def judge_clip(loop: Loop, truth: ClipTruth) -> Verdict:
    return judge_loop(loop, truth.events, illegal_at=truth.illegal_at, pop_at=truth.pop_at, move_at=truth.move_at,
                      illegal_until=truth.illegal_until)


def render_game(
    seed: int,
    players: Sequence[str],
    *,
    turns: int | None = None,
    size: tuple[int, int] = (640, 480),
    fps: float = 10.0,
    clean: bool = False,
    illegal: float = 0.0,
) -> tuple[Iterable[tuple[Any, Any]], dict[str, Any]]:
    """A seeded random game's frames (lazily rendered) and its set-up line.

    The scene is random (camera tilt, light, glare, noise) unless *clean*;
    the hands come from the script, as in ``companion simulate``; *illegal*
    is the chance of a wrong-count move put right (``random_game_script``).
    """
    import numpy as np

    from companion.layout import load_layout
    from companion.sim import DieView
    from companion.sim.scene import Scene
    from companion.sim.simulate import random_game_script, simulate_script

    layout = load_layout()
    rng = np.random.default_rng(seed)
    scene = Scene.default(layout, size=size) if clean else Scene.random(rng, layout, size=size)
    scene = replace(scene, hand=None, motion_blur_px=0.0)
    game = random_game_script(seed, list(players), turns, layout, illegal=illegal)
    die = DieView(int(rng.integers(1, 7)))
    frames = simulate_script(game.actions, scene, seed, setup=game.setup, layout=layout, fps=fps, die=die)
    return frames, game.setup


class KeepingReader:
    """A board reader that keeps every reading it makes, in order."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.readings: list[Any] = []

    def read(self, frame_bgr: Any) -> Any:
        reading = self.reader.read(frame_bgr)
        self.readings.append(reading)
        return reading


class KeptReader:
    """Gives back kept readings in order, whatever frame it is handed: the
    vision stream and the loop run on a game's readings without rendering or
    reading it again (seconds per game instead of minutes)."""

    def __init__(self, readings: Sequence[Any]) -> None:
        self._readings = iter(readings)

    def read(self, frame_bgr: Any) -> Any:
        from companion.vision.readings import FrameReading

        # Frames after the last kept reading (the run that kept them stopped
        # at its game over; a changed loop may not have) show no board.
        return next(self._readings, FrameReading(found=False, reason="no reading kept for this frame"))


def run_game(seed: int, players: Sequence[str], keep: Path | None = None,
             **kwargs: Any) -> tuple[Verdict, RunStats, float]:
    """Render and referee one seeded game; return the verdict, vision stats and
    the CPU seconds spent rendering. With *keep* (a folder), the game's
    readings, truths and set-up are written to ``keep/game{seed}.pkl`` for
    :func:`replay_kept_game`."""
    from companion.layout import load_layout
    from companion.vision.reader import BoardReader
    from companion.vision.stream import VisionStream

    started = time.process_time()
    frames, setup = render_game(seed, players, **kwargs)
    reader = KeepingReader(BoardReader(load_layout(), calibration=None))
    truths: list[Any] = []

    def noted() -> Iterable[tuple[Any, Any]]:
        for image, ft in frames:
            truths.append(ft)
            yield image, ft

    loop, stats, truth = referee_frames(noted(), setup, stream=VisionStream(reader))
    total = time.process_time() - started
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        with open(keep / f"game{seed}.pkl", "wb") as f:
            pickle.dump({"setup": setup, "fps": kwargs.get("fps"), "truths": [ft.to_json() for ft in truths],
                         "readings": [_fields(r) for r in reader.readings]}, f,
                        protocol=pickle.HIGHEST_PROTOCOL)
    return judge_clip(loop, truth), stats, total - stats.seconds


def replay_kept_game(path: Path, habits: Habits | None = None) -> tuple[Verdict, RunStats, float]:
    """Referee a game kept by :func:`run_game` from its readings alone (the
    loop's and time layer's code as it is now; the reader's as it was then).
    With *habits*, the players answer the loop's questions about pops the
    camera could not read, say each number once asked, or count their moves
    aloud, from the kept truth (see :mod:`companion.live.answering`).
    A development tool: the file is a pickle, so only open files you made."""
    from companion.errors import UserError
    from companion.vision.readings import FrameReading
    from companion.vision.stream import VisionStream

    try:
        with open(path, "rb") as f:
            kept = pickle.load(f)
        setup, truths, readings = kept["setup"], kept["truths"], kept["readings"]
    except (OSError, pickle.UnpicklingError, EOFError, KeyError, TypeError) as exc:
        raise UserError(f"{path}: not a kept game ({exc})") from exc
    fps = kept.get("fps") or _frame_rate(truths)
    frames = ((None, _Timed(ft, fps)) for ft in truths)
    kept_readings = [FrameReading(**fields) for fields in readings]
    table = None
    if habits:
        from companion.live.answering import pops_of

        whole = truth_of([_Timed(ft, fps) for ft in truths])
        # (every pop: which ones the camera fails to read is not known beforehand)
        table = habits.table(pops_of(whole.events, whole.pop_at), whole.events, whole.pop_at,
                             whole.move_at)
    loop, stats, truth = referee_frames(frames, setup, stream=VisionStream(KeptReader(kept_readings)),
                                        answers=table)
    return judge_clip(loop, truth), stats, 0.0


def _fields(reading: Any) -> dict[str, Any]:
    """A reading's fields, picklable (its read-only mapping as a dict)."""
    from dataclasses import fields

    out = {f.name: getattr(reading, f.name) for f in fields(reading)}
    out["pegs"] = dict(out["pegs"])
    return out


@dataclass(frozen=True)
class _Timed:
    """A kept frame truth (its JSON) as :func:`referee_frames` takes it.

    With the frame rate, its time is the frame's exact one (frame / fps), as
    the rendered run had it: the JSON's is rounded to the millisecond, and
    the time layer's waits (0.5 s, say: three frames at 6 fps) are compared
    far more finely than that, so a replay on rounded times could differ
    from the run it replays (a 1280x720 game replayed with one call fewer).
    """

    data: dict[str, Any]
    fps: float | None = None

    @property
    def time(self) -> float:
        if self.fps and "frame" in self.data:
            return int(self.data["frame"]) / self.fps
        return float(self.data["time"])

    def to_json(self) -> dict[str, Any]:
        return self.data


def _frame_rate(truths: Sequence[dict[str, Any]]) -> float | None:
    """The frame rate of kept truths (frame numbers over rounded times):
    for kept games written before the rate was kept with them."""
    last = next((t for t in reversed(truths) if float(t.get("time", 0.0)) > 0 and "frame" in t), None)
    if last is None:
        return None
    return round(int(last["frame"]) / float(last["time"]), 2)
