"""Voice commands for the loop: the voice part's listener, turned into observations.

The listener (endpointer, recogniser, table-talk policy) decides what is a
command; this adapter turns its decisions into :class:`Spoken` observations
stamped with session time. A command the policy has already confirmed (a new
game) arrives marked ``confirmed`` so the loop does not ask twice; a
confirmation prompt arrives as a ``prompt`` observation for the loop to say.

Audio comes either from the microphone (a background thread, so the camera
loop never waits on speech) or from a WAV file placed at a session time
(tests, the demo).
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from companion.live.adapters import from_command
from companion.live.observations import Spoken


def spoken_from(heard: Any, t: float) -> Spoken | None:
    """One :class:`companion.voice.listener.Heard` as an observation (or nothing)."""
    decision = heard.decision
    if decision.action == "apply" and decision.command is not None:
        spoken = from_command(decision.command, t)
        if spoken.intent == "new-game":
            return Spoken(t, spoken.intent, {**spoken.value, "confirmed": True})
        return spoken
    if decision.action == "confirm" and decision.prompt:
        return Spoken(t, "prompt", {"text": decision.prompt})
    if decision.action == "cancelled":
        return Spoken(t, "prompt", {"text": "All right."})
    return None


class VoiceCommands:
    """Commands heard from the microphone, collected for the loop to poll."""

    def __init__(self, listener: Any) -> None:
        self.listener = listener
        self._queue: queue.Queue[Any] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: str | None = None
        self._error_said = False

    def start_microphone(self) -> None:
        """Listen in a background thread; a missing microphone is noted, not fatal."""

        def run() -> None:
            try:
                for heard in self.listener.microphone(self._stop):
                    self._queue.put(heard)
            except Exception as exc:  # a UserError (no microphone) or a device failure
                self.error = str(exc)

        self._thread = threading.Thread(target=run, name="listener", daemon=True)
        self._thread.start()

    def poll(self, t: float) -> list[Spoken]:
        """Commands heard since the last poll, stamped *t*.

        A listener that failed (no microphone) is said once, at the table,
        as a ``prompt``; the game goes on without voice commands.
        """
        out: list[Spoken] = []
        if self.error and not self._error_said:
            self._error_said = True
            out.append(Spoken(t, "prompt", {"text": f"Voice commands are off: {self.error}."}))
        while True:
            try:
                heard = self._queue.get_nowait()
            except queue.Empty:
                return out
            spoken = spoken_from(heard, t)
            if spoken is not None:
                out.append(spoken)

    def note_event(self, t: float, event: dict[str, Any]) -> None:
        """Tell the listener's policy what the game expects next.

        After a pop a bare number ("five") is taken as a correction of it;
        once the turn has passed, an undo reaches into an earlier turn and is
        confirmed first.
        """
        policy = getattr(self.listener, "policy", None)
        if policy is None:
            return
        kind = event.get("event")
        if kind == "pop" and hasattr(policy, "expect_pop"):
            # The policy's clock is the listener's audio-stream time (seconds
            # of audio heard); the listener has no public accessor for it yet.
            policy.expect_pop(float(getattr(self.listener, "_stream_s", 0.0)))
        if kind in ("turn", "pop", "move"):
            policy.undo_crosses_turn = kind == "turn"

    def note_expected(self, kind: str) -> None:
        """The loop asked the table something: hear the answer without the
        wake word. ``"number"`` ("Blue, say the number you popped"): a bare
        number is taken as the pop; ``"yes-no"`` ("Blue, was your pop a
        3?"): a bare yes or no is listened for, for a few seconds. (Without
        this, the answer "five" to the loop's own question was ignored as
        table talk unless a pop had been announced in the last ten seconds.)
        """
        policy: Any = getattr(self.listener, "policy", None)
        now = float(getattr(self.listener, "_stream_s", 0.0))
        if policy is None:
            return
        if kind == "number" and hasattr(policy, "expect_pop"):
            policy.expect_pop(now)
        elif kind == "yes-no" and hasattr(policy, "expect_answer"):
            policy.expect_answer(now)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)


def commands_from_wav(listener: Any, path: Any, t: float) -> list[Spoken]:
    """Run a WAV file through the live listener (endpointing and policy) at time *t*."""
    from companion.voice.audio import read_wav

    samples = read_wav(path).samples
    heard = list(listener.feed(samples)) + list(listener.finish())
    return [s for s in (spoken_from(h, t) for h in heard) if s is not None]
