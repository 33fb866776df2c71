"""Spoken announcements that never block the referee and never crash a game.

:class:`Speaker` owns a priority queue and one background thread. ``say()``
only enqueues and returns at once; the thread prints the transcript line,
renders the sentence to a WAV through pyttsx3 in a separate worker process
(:mod:`companion.voice.tts_worker`, with a timeout, so a hung engine cannot
freeze anything), optionally copies the WAV to a numbered file in
``speech_out``, and plays it when an audio device exists.

Failure policy: if the engine is missing, fails or hangs, the Speaker says so
ONCE on the notice stream and carries on with the transcript only. If there
is no audio output device it says so once too. Nothing here raises into the
caller after construction.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import wave
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from companion.errors import UserError, os_reason

#: How long one sentence may take to render before the engine is declared hung
#: (more than the worker's two waits for the file, ``tts_worker._wait_for_file``).
RENDER_TIMEOUT_S = 15.0
#: Volume steps for louder / quieter.
VOLUME_STEP = 0.2


#: Sentences in a row the engine may answer without audio before it is taken
#: for broken. One lost sentence is not: on a busy two-core machine espeak-ng
#: once wrote nothing within the worker's two waits, and the demo then went
#: text-only for the rest of its game (session 40).
LOST_IN_A_ROW = 3


class SynthesisError(RuntimeError):
    """The speech engine is missing, failed or hung."""


class SentenceLost(SynthesisError):
    """The engine answered but wrote no audio for one sentence: that sentence
    is only printed, and the next one is tried."""


def worker_command() -> list[str]:
    """The default synthesis worker: pyttsx3 in a child Python process."""
    return [sys.executable, "-m", "companion.voice.tts_worker"]


class Synthesiser:
    """Renders sentences to WAV files through a worker process.

    The worker is started on first use. A worker that does not answer
    within *timeout* seconds is killed and the Synthesiser marked failed.
    """

    def __init__(self, command: Sequence[str] | None = None,
                 timeout: float = RENDER_TIMEOUT_S) -> None:
        self._command = list(command) if command else worker_command()
        self._timeout = timeout
        self._proc: subprocess.Popen[str] | None = None
        self.failure: str | None = None
        self._lost = 0  # sentences in a row answered without audio

    def _read_line(self, deadline: float) -> dict[str, Any]:
        assert self._proc is not None and self._proc.stdout is not None
        remaining = deadline - time.monotonic()
        ready, _, _ = select.select([self._proc.stdout], [], [], max(0.0, remaining))
        if not ready:
            raise SynthesisError(f"the speech engine did not answer within {self._timeout:g} s")
        line = self._proc.stdout.readline()
        if not line:
            raise SynthesisError("the speech engine stopped unexpectedly")
        try:
            return dict(json.loads(line))
        except json.JSONDecodeError:
            raise SynthesisError(f"the speech engine said {line.strip()!r}") from None

    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1,
            )
        except OSError as exc:
            raise SynthesisError(f"cannot start the speech engine: {exc}") from None
        hello = self._read_line(time.monotonic() + self._timeout)
        if not hello.get("ready"):
            raise SynthesisError(str(hello.get("error") or "the speech engine failed to start"))

    def render(self, text: str, path: Path, rate: int | None = None,
               voice: str | None = None) -> None:
        """Write *text* as a WAV at *path*; raise SynthesisError on any failure."""
        if self.failure:
            raise SynthesisError(self.failure)
        try:
            reply = self._request(text, path, rate, voice)
            if not reply.get("ok"):
                # once more from a fresh worker process (a fresh engine)
                self.close()
                reply = self._request(text, path, rate, voice)
            if not reply.get("ok"):
                self._lost += 1
                if self._lost < LOST_IN_A_ROW:
                    raise SentenceLost(str(reply.get("error")))
                raise SynthesisError(f"{reply.get('error')}, {self._lost} sentences in a row")
            self._lost = 0
        except SentenceLost:
            raise
        except (SynthesisError, OSError, ValueError) as exc:
            self.failure = str(exc) or type(exc).__name__
            self.close()
            raise SynthesisError(self.failure) from None

    def _request(self, text: str, path: Path, rate: int | None,
                 voice: str | None) -> dict[str, Any]:
        """One sentence to the worker (started if need be); its reply."""
        if self._proc is None or self._proc.poll() is not None:
            self._start()
        assert self._proc is not None and self._proc.stdin is not None
        request = {"text": text, "path": str(path), "rate": rate, "voice": voice}
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        return self._read_line(time.monotonic() + self._timeout)

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=1.0)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()


def read_wav_int16(path: Path) -> tuple[np.ndarray, int]:
    """A rendered WAV as int16 samples and its rate (the engine writes mono 16-bit)."""
    with wave.open(str(path), "rb") as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2"), w.getframerate()


def write_scaled_wav(src: Path, dst: Path, volume: float) -> None:
    """Copy a WAV, scaling its samples by *volume* (1.0 copies it as is)."""
    if abs(volume - 1.0) < 1e-9:
        shutil.copyfile(src, dst)
        return
    samples, rate = read_wav_int16(src)
    scaled = np.clip(np.round(samples.astype(np.float64) * volume), -32768, 32767).astype("<i2")
    with wave.open(str(dst), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(scaled.tobytes())


class Player:
    """Plays WAVs through sounddevice when an output device exists.

    sounddevice is imported here only: without libportaudio2 the import
    raises OSError, and with no sound card there are no devices.
    """

    def __init__(self) -> None:
        self._sd: Any = None
        self.problem: str | None = None
        try:
            import sounddevice as sd

            sd.query_devices(kind="output")
            self._sd = sd
        except Exception as exc:  # OSError, PortAudioError, ValueError
            self.problem = f"no audio output device found ({type(exc).__name__})"

    @property
    def available(self) -> bool:
        return self._sd is not None

    def play(self, path: Path, volume: float) -> None:
        if self._sd is None:
            return
        samples, rate = read_wav_int16(path)
        self._sd.play(samples.astype(np.float32) / 32768.0 * volume, rate)
        self._sd.wait()

    def stop(self) -> None:
        if self._sd is not None:
            with contextlib.suppress(Exception):
                self._sd.stop()


@dataclass(order=True)
class _Item:
    priority: int
    seq: int
    text: str = field(compare=False)
    queued_at: float = field(compare=False)
    #: Mute once this has been said (the notice of :meth:`Speaker.quiet`).
    then_mute: bool = field(default=False, compare=False)


#: Said before the audio goes quiet: a "mute" misheard in a noisy room
#: (session 9 found it the most frequent wrong command for one voice) must
#: not silence the referee without anyone noticing.
MUTED_NOTICE = "Muted. Say referee, louder, to hear me again."


class Speaker:
    """The companion's voice: a queue, a worker thread, a transcript.

    Parameters are settings: *rate* (words per minute, None = engine
    default), *volume* (0..1), *voice* (an espeak-ng voice id such as
    ``"gmw/en-us"``). *transcript* receives one line per announcement, in the
    order spoken; *notices* receives the one-time "speech is unavailable"
    messages; *speech_out* collects ``0001.wav``, ``0002.wav``, ...
    *play* False never touches the sound system (tests, headless runs).
    """

    def __init__(self, *, transcript: TextIO | None = None, notices: TextIO | None = None,
                 speech_out: Path | None = None, rate: int | None = None,
                 volume: float = 1.0, voice: str | None = None, play: bool = True,
                 synthesiser: Synthesiser | None = None, prefix: str = "say: ") -> None:
        self.rate = rate
        self.volume = max(0.0, min(1.0, volume))
        self.voice = voice
        self.muted = False
        #: :meth:`quiet` was asked and its notice is not said yet.
        self._mute_pending = False
        self._transcript = transcript if transcript is not None else sys.stdout
        self._notices = notices if notices is not None else sys.stderr
        self._prefix = prefix
        self._speech_out = Path(speech_out) if speech_out else None
        if self._speech_out:
            try:
                self._speech_out.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # before the worker starts: nothing to clean up
                raise UserError(f"cannot write speech into the folder {self._speech_out}: "
                                f"{os_reason(exc)}") from None
        self._synth = synthesiser or Synthesiser()
        self._player: Player | None = Player() if play else None
        self._tmp = Path(tempfile.mkdtemp(prefix="companion-speech-"))
        self._heap: list[_Item] = []
        self._seq = itertools.count()
        self._cond = threading.Condition()
        self._busy = False
        self._closing = False
        self._said_notices: set[str] = set()
        self._count = 0
        self.last_text: str | None = None
        #: Seconds from ``say()`` to the WAV being ready, per announcement.
        self.first_audio_latencies: list[float] = []
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    # ---- the caller's side: never blocks -------------------------------
    def say(self, text: str, urgent: bool = False) -> None:
        """Queue *text*. Urgent announcements (an illegal move, a bump) go
        ahead of every routine one still waiting."""
        text = " ".join(str(text).split())
        if not text:
            return
        with self._cond:
            if self._closing:
                return
            item = _Item(0 if urgent else 1, next(self._seq), text, time.monotonic())
            heapq.heappush(self._heap, item)
            self.last_text = text
            self._cond.notify()

    def repeat(self) -> None:
        """Say the last announcement again, ahead of routine ones."""
        if self.last_text:
            self.say(self.last_text, urgent=True)

    def louder(self) -> None:
        self.muted = False
        self._mute_pending = False
        self.volume = min(1.0, round(self.volume + VOLUME_STEP, 2))

    def quieter(self) -> None:
        self.volume = max(VOLUME_STEP, round(self.volume - VOLUME_STEP, 2))

    def quiet(self) -> None:
        """Mute the audio once :data:`MUTED_NOTICE` has been said (waiting
        announcements are dropped as by :meth:`stop`); the transcript
        continues. ``louder()`` unmutes."""
        self.stop()
        with self._cond:
            if self._closing or self.muted or self._mute_pending:
                return
            self._mute_pending = True
            heapq.heappush(self._heap, _Item(0, next(self._seq), MUTED_NOTICE, time.monotonic(), then_mute=True))
            self._cond.notify()

    def stop(self) -> None:
        """Drop routine announcements still waiting and cut the current audio."""
        with self._cond:
            self._heap = [i for i in self._heap if i.priority == 0]
            heapq.heapify(self._heap)
        if self._player:
            self._player.stop()

    def pending(self) -> int:
        with self._cond:
            return len(self._heap) + (1 if self._busy else 0)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until everything queued has been spoken (for tests and close)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._heap or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self, drain: bool = True, timeout: float = 30.0) -> None:
        """Stop the worker: speak what is queued first (*drain*) or drop it."""
        if drain:
            self.wait_idle(timeout)
        with self._cond:
            self._closing = True
            if not drain:
                self._heap.clear()
            self._cond.notify_all()
        if self._player:
            self._player.stop()
        self._thread.join(timeout)
        self._synth.close()
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- the worker thread ----------------------------------------------
    def _notice(self, message: str) -> None:
        if message in self._said_notices:
            return
        self._said_notices.add(message)
        with contextlib.suppress(OSError, ValueError):
            print(message, file=self._notices, flush=True)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._heap and not self._closing:
                    self._cond.wait()
                if not self._heap:
                    return
                item = heapq.heappop(self._heap)
                self._busy = True
            try:
                self._speak(item)
            except Exception as exc:  # the game must never die of audio
                self._notice(f"speech: unexpected error ({exc}); continuing")
            finally:
                with self._cond:
                    if item.then_mute and self._mute_pending:
                        self.muted, self._mute_pending = True, False
                    self._busy = False
                    self._cond.notify_all()

    def _speak(self, item: _Item) -> None:
        with contextlib.suppress(OSError, ValueError):
            print(self._prefix + item.text, file=self._transcript, flush=True)
        self._count += 1
        if self.muted or self._synth.failure:
            return
        wav = self._tmp / f"{self._count:04d}.wav"
        try:
            self._synth.render(item.text, wav, rate=self.rate, voice=self.voice)
        except SentenceLost as exc:
            self._notice(f"speech: an announcement could not be spoken ({exc}); it is printed, "
                         "and speech goes on")
            return
        except SynthesisError as exc:
            self._notice(f"speech: the speech engine is unavailable ({exc}); "
                         "announcements continue as text only")
            return
        self.first_audio_latencies.append(time.monotonic() - item.queued_at)
        if self._speech_out:
            write_scaled_wav(wav, self._speech_out / f"{self._count:04d}.wav", self.volume)
        if self._player is not None:
            if self._player.available:
                self._player.play(wav, self.volume)
            elif self._player.problem:
                self._notice(f"speech: {self._player.problem}; announcements are printed"
                             + (f" and written to {self._speech_out}" if self._speech_out else ""))
        with contextlib.suppress(OSError):
            os.unlink(wav)
