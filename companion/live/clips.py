"""Rendered clips refereed end to end: simulator -> vision -> loop, judged.

The simulator (:mod:`companion.sim.simulate`) renders each physical step of a
game and, at the frame where a camera could know it, feeds its own referee
the input the physical game implies; that referee's events are the truth.
Here the same frames go through the real vision stream and the live loop,
and the loop's events are judged against that truth (:mod:`.judge`). Used by
``companion bench referee --source video`` and the end-to-end tests.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

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


def truth_of(frames: Iterable[Any]) -> ClipTruth:
    """Collect the truth of rendered frames (``FrameTruth`` values, or their JSON)."""
    truth = ClipTruth(setup={})
    for ft in frames:
        data = ft.to_json() if hasattr(ft, "to_json") else ft
        t = float(data["time"])
        for line in data.get("inputs", []):
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
    return truth


def referee_frames(
    frames: Iterable[tuple[Any, Any]],
    setup: dict[str, Any],
    *,
    layout: Any = None,
    stream: Any = None,
    speaker: Any = None,
) -> tuple[Loop, RunStats, ClipTruth]:
    """Referee rendered ``(image, FrameTruth)`` pairs through vision and the loop.

    The loop is started with the clip's players and first player; the truth
    is collected from the same frames as they pass.
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

    def images() -> Iterable[Frame]:
        for image, ft in frames:
            truths.append(ft)
            yield Frame(float(ft.time), image)

    stats = feed_frames(loop, images(), stream)
    return loop, stats, truth_of(truths)


def judge_clip(loop: Loop, truth: ClipTruth) -> Verdict:
    return judge_loop(loop, truth.events, illegal_at=truth.illegal_at, pop_at=truth.pop_at, move_at=truth.move_at)


def render_game(
    seed: int,
    players: Sequence[str],
    *,
    turns: int | None = None,
    size: tuple[int, int] = (640, 480),
    fps: float = 10.0,
    clean: bool = False,
) -> tuple[Iterable[tuple[Any, Any]], dict[str, Any]]:
    """A seeded random game's frames (lazily rendered) and its set-up line.

    The scene is random (camera tilt, light, glare, noise) unless *clean*;
    the hands come from the script, as in ``companion simulate``.
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
    game = random_game_script(seed, list(players), turns, layout)
    die = DieView(int(rng.integers(1, 7)))
    frames = simulate_script(game.actions, scene, seed, setup=game.setup, layout=layout, fps=fps, die=die)
    return frames, game.setup


def run_game(seed: int, players: Sequence[str], **kwargs: Any) -> tuple[Verdict, RunStats, float]:
    """Render and referee one seeded game; return the verdict, vision stats and
    the CPU seconds spent rendering."""
    started = time.process_time()
    frames, setup = render_game(seed, players, **kwargs)
    loop, stats, truth = referee_frames(frames, setup)
    total = time.process_time() - started
    return judge_clip(loop, truth), stats, total - stats.seconds
