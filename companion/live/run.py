"""Driving the loop: from observations, or from frames through the vision stream.

Both drivers hand each new referee event to *on_event* as soon as the loop
emits it (``replay`` prints it at once), and keep going until the input ends
or the loop is told to stop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from companion.live.adapters import from_vision
from companion.live.frames import Frame
from companion.live.loop import Loop
from companion.live.observations import CameraBack, CameraLost, Observation, Spoken, Tick

EventSink = Callable[[float, dict[str, Any]], None]


@dataclass
class RunStats:
    """What a run cost: frames read and this process's CPU seconds reading them.

    CPU time (not wall time) so that frames per second on one core is the same
    on a busy shared machine as on an idle one.
    """

    frames: int = 0
    seconds: float = 0.0
    video_s: float = 0.0

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0


def _emit(loop: Loop, seen: int, on_event: EventSink | None) -> int:
    if on_event is not None:
        for t, event in loop.events[seen:]:
            on_event(t, event)
    return len(loop.events)


#: Seconds of session time between the loop's ticks (its timers fire on them).
TICK_S = 0.5


def feed_observations(
    loop: Loop, observations: Iterable[Observation], on_event: EventSink | None = None, tick_s: float = TICK_S
) -> None:
    """Hand every observation to the loop in order, with a :class:`Tick` every
    *tick_s* of their time between them (:func:`with_ticks`), as live."""
    seen = len(loop.events)
    for obs in with_ticks(observations, tick_s):
        loop.handle(obs)
        seen = _emit(loop, seen, on_event)
        if loop.stage == "over":
            break


def with_ticks(observations: Iterable[Observation], tick_s: float = TICK_S) -> Iterator[Observation]:
    """*observations* with a :class:`Tick` every *tick_s* of their time woven in
    between them, as the live loop gets one from :func:`feed_frames`: its
    timers (reminders, a board held a moment before it is judged) then fire
    on time, not at the next observation."""
    last: float | None = None
    for obs in observations:
        if last is None:
            last = obs.t
        while obs.t - last > tick_s + 1e-9:
            last += tick_s
            yield Tick(last)
        yield obs


def feed_frames(
    loop: Loop,
    items: Iterable[Frame | CameraLost | CameraBack],
    stream: Any,
    *,
    commands: Callable[[float], list[Spoken]] | None = None,
    on_event: EventSink | None = None,
    stop: Callable[[], bool] | None = None,
    tick_s: float = TICK_S,
) -> RunStats:
    """Push frames through the vision *stream* and its events into the loop.

    *commands* is polled once per frame for voice commands heard since (the
    live listener runs in its own thread); a Tick reaches the loop every
    *tick_s* of frame time so its reminders fire even when nothing changes.
    """
    stats = RunStats()
    seen = len(loop.events)
    last_tick = None
    for item in items:
        if isinstance(item, (CameraLost, CameraBack)):
            loop.handle(item)
            seen = _emit(loop, seen, on_event)
            continue
        started = time.process_time()
        if hasattr(stream, "colours"):
            stream.colours = loop.colours_in_play()
        events = stream.push(item.image, item.t)
        stats.seconds += time.process_time() - started
        stats.frames += 1
        stats.video_s = item.t
        for event in events:
            obs = from_vision(event)
            if obs is not None:
                loop.handle(obs)
        if commands is not None:
            for spoken in commands(item.t):
                loop.handle(spoken)
        if last_tick is None or item.t - last_tick >= tick_s:
            last_tick = item.t
            loop.handle(Tick(item.t))
        seen = _emit(loop, seen, on_event)
        if loop.stage == "over" or (stop is not None and stop()):
            break
    return stats
