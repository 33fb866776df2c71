"""Readings for time-layer tests: frames described by what the camera would read.

A dome thumbnail is a seeded random pattern, one per way the die lies
(``lie``), so that "the die lies differently" is a different seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from companion.vision.dice.reading import DieReading
from companion.vision.readings import FrameReading, HoleReading
from companion.vision.stream import VisionEvent, VisionStream

FPS = 10.0


def signature(lie: int) -> np.ndarray:
    """A dome thumbnail: the die lying one particular way (or a hand over it)."""
    return np.random.default_rng(lie).normal(0, 1, (16, 16)).astype(np.float32)


def reading(pegs: Mapping[str, tuple[str, ...]], die: DieReading, lie: int, hand: bool = False) -> FrameReading:
    """A found board with *pegs*, the die read as *die* lying as *lie*; a hand hides a hole."""
    # A hand covers several holes on its way to the dome (one unknown hole
    # out on the track is a blemish, not a hand: ``may_shade_dome``).
    holes = tuple(HoleReading(h, "unknown" if hand else "empty", 1.0)
                  for h in ("track:5", "track:6", "red:finish:1"))
    return FrameReading(found=True, holes=holes, pegs=dict(pegs), hand=hand, die=die, dome_signature=signature(lie))


def run_seconds(stream: VisionStream, script: Iterable[tuple[FrameReading, float]]) -> list[tuple[float, VisionEvent]]:
    """Feed each reading for its duration (seconds) at 10 fps; return (t, event) pairs."""
    out: list[tuple[float, VisionEvent]] = []
    n = 0
    for frame_reading, seconds in script:
        for _ in range(int(round(seconds * FPS))):
            t = n / FPS
            out += [(t, e) for e in stream.push_reading(frame_reading, t)]
            n += 1
    return out
