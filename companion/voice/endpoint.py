"""Endpointing: where utterances start and end in a stream of audio.

An energy detector against an adaptive noise floor, on 10 ms frames. It is
deliberately simple and predictable: speech starts when the frame energy
stays *start_db* above the floor for *min_start* frames, and ends after
*hangover_s* of frames below floor + *end_db*. A pre-roll keeps the soft
onset of the first word. An utterance is cut at *max_s* (about 6 s), since
with a TV on the end-of-speech silence may never come.

The hangover is the main part of the latency from end of speech to
command (decoding runs while the person speaks, so little is left after it).
It is 0.25 s, not the 0.15 s that would meet the 200 ms latency target: at
0.15 s the endpointer cuts table talk at its commas ("Pass me the crisps, |
please"), and the short pieces fit short commands. Measured through the
live stream on the en-us voice (docs/voice.md): table talk acted on 9/104 at
0.15 s, 2/104 at 0.25 s and at 0.30 s; commands acted on right 46/48,
47/48, 47/48. A phrase split at a longer pause is still caught: the wake
word alone arms the listener for the next utterance (see
:mod:`companion.voice.policy`). In a noisy room (the utterance less than
``NOISY_SNR_DB`` over its own quiet frames) it waits
:data:`NOISY_HANGOVER_S` instead: there the faint edges of words sink into
the noise and a comma's pause looks longer.

Besides finished utterances, :meth:`Endpointer.feed_events` reports the
audio of an utterance *while it is spoken* (a ``start`` event with the
pre-roll, then ``audio`` frames, then ``end`` or ``abort``), so that a
recogniser can decode incrementally and have little left to do when the
speaker stops.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.voice.audio import NOISY_SNR_DB, RATE, Samples, speech_to_noise_db

FRAME = RATE // 100  # 10 ms
#: Frames of quiet kept at the end of an utterance (50 ms).
TAIL = 5
#: The hangover in a noisy room (an utterance standing less than
#: ``NOISY_SNR_DB`` over its quiet frames). At 10 dB SNR white noise the
#: faint ends of words sink into the noise, so the comma's 0.13-0.26 s
#: pause in "Referee, | pop six." looks longer than 0.25 s: on the
#: development voices the endpointer cut 157 of 288 noisy commands in two
#: (50 of 288 clean), and the short piece after "referee" alone, heard
#: without the wake word, most often lost to a rival command
#: (docs/voice.md, session 14).
NOISY_HANGOVER_S = 0.40
#: Frames quieter than this are digital silence, not a noise floor (a real
#: microphone's hiss is far louder).
DIGITAL_SILENCE_DB = -90.0


@dataclass(frozen=True)
class Utterance:
    """One utterance cut from a stream; times are seconds of stream time."""

    samples: Samples
    start_s: float
    end_s: float  # where speech ended (before the hangover)
    capped: bool = False


@dataclass(frozen=True)
class Event:
    """One step of an utterance as the stream goes by.

    ``kind`` is ``"start"`` (speech began; *samples* is the pre-roll and the
    first loud frames, where the utterance's samples will begin),
    ``"audio"`` (one more 10 ms frame of the open utterance), ``"pause"``
    (the speaker has been quiet for :data:`TAIL` frames; *samples* is the
    utterance exactly as it will be if speech does not resume before the
    hangover runs out: work on it may start now), ``"abort"`` (the open
    utterance was too short to be speech: forget it) or ``"end"``
    (*utterance* is finished; its samples are a prefix of what was reported).
    """

    kind: str
    samples: Samples | None = None
    utterance: Utterance | None = None


def frame_db(frame: Samples) -> float:
    return float(10.0 * np.log10(np.mean(np.square(frame, dtype=np.float64)) + 1e-10))


class Endpointer:
    """Feed blocks of 16 kHz samples; collect finished utterances."""

    def __init__(self, start_db: float = 10.0, end_db: float = 6.0, hangover_s: float = 0.25,
                 preroll_s: float = 0.25, min_start: int = 3, min_speech_s: float = 0.12,
                 max_s: float = 6.0, floor_db: float = -60.0,
                 noisy_hangover_s: float = NOISY_HANGOVER_S) -> None:
        self.start_db, self.end_db = start_db, end_db
        self.hangover = int(round(hangover_s * 100))
        self.noisy_hangover = max(self.hangover, int(round(noisy_hangover_s * 100)))
        #: Seconds of quiet the last utterance ended after (the hangover,
        #: the noisy room's longer one, or less when ended by
        #: :meth:`end_now`, or at a cap or the end of the stream).
        self.last_wait_s = self.hangover / 100
        self.preroll = int(round(preroll_s * 100))
        self.min_start = min_start
        self.min_speech = int(round(min_speech_s * 100))
        self.max_frames = int(round(max_s * 100))
        self.floor = floor_db
        self._floor_init = False
        self._pending = np.zeros(0, dtype=np.float32)
        self._frames: list[Samples] = []  # recent frames (pre-roll) or the utterance
        self._in_speech = False
        self._loud_run = 0
        self._quiet_run = 0
        self._speech_frames = 0
        self._frame_index = 0  # frames consumed so far
        self._start_frame = 0
        self._events: list[Event] = []

    @property
    def in_speech(self) -> bool:
        return self._in_speech

    @property
    def start_s(self) -> float:
        """Stream time the open utterance's samples begin (its pre-roll)."""
        return self._start_frame / 100

    @property
    def quiet_s(self) -> float:
        """Seconds the open utterance has been quiet (0 when not in speech)."""
        return self._quiet_run / 100 if self._in_speech else 0.0

    def end_now(self) -> Event | None:
        """Close the open utterance now, as the hangover would when it ran
        out (the same samples, the same end): for a caller that knows sooner
        that the speech is over (the listener, for a finished command:
        :mod:`companion.voice.listener`). None unless the speaker has been
        quiet for at least :data:`TAIL` frames and the utterance is long
        enough to be speech."""
        if (not self._in_speech or self._quiet_run < TAIL
                or self._speech_frames < self.min_speech):
            return None
        return Event("end", utterance=self._close(self._frame_index - self._quiet_run,
                                                  capped=False))

    def feed(self, samples: Samples) -> list[Utterance]:
        """Consume *samples*; return the utterances that ended in them."""
        return [e.utterance for e in self.feed_events(samples) if e.utterance is not None]

    def feed_events(self, samples: Samples) -> list[Event]:
        """Consume *samples*; return what happened in them, in order."""
        data = np.concatenate([self._pending, np.asarray(samples, dtype=np.float32)])
        n = len(data) // FRAME
        self._pending = data[n * FRAME:]
        for k in range(n):
            utt = self._step(data[k * FRAME:(k + 1) * FRAME])
            if utt is not None:
                self._events.append(Event("end", utterance=utt))
        events, self._events = self._events, []
        return events

    def flush(self) -> list[Utterance]:
        """End of stream: close an utterance still open."""
        return [e.utterance for e in self.flush_events() if e.utterance is not None]

    def flush_events(self) -> list[Event]:
        """End of stream: ``end`` for an utterance still open (``abort`` if it
        was too short to be speech)."""
        if self._in_speech and self._speech_frames >= self.min_speech:
            return [Event("end", utterance=self._close(self._frame_index - self._quiet_run,
                                                       capped=False))]
        was_open = self._in_speech
        self._reset()
        return [Event("abort")] if was_open else []

    def _reset(self) -> None:
        self._in_speech = False
        self._frames = []
        self._loud_run = self._quiet_run = self._speech_frames = 0

    def _kept(self) -> Samples:
        """The open utterance's samples as :meth:`_close` would keep them
        now: everything up to 50 ms of quiet after the speech."""
        keep = len(self._frames) - max(0, self._quiet_run - TAIL)
        return np.concatenate(self._frames[:keep]) if keep > 0 else np.zeros(0, np.float32)

    def _noisy(self) -> bool:
        """The open utterance stands less than ``NOISY_SNR_DB`` over its own
        quiet frames (its pre-roll and pauses): the measure the recogniser
        and policy use for a noisy room."""
        return speech_to_noise_db(self._kept()) < NOISY_SNR_DB

    def _close(self, end_frame: int, capped: bool) -> Utterance:
        samples = self._kept()
        utt = Utterance(samples, self._start_frame / 100, end_frame / 100, capped)
        self.last_wait_s = self._quiet_run / 100
        self._in_speech = False
        self._frames = []
        self._loud_run = self._quiet_run = self._speech_frames = 0
        return utt

    def _step(self, frame: Samples) -> Utterance | None:
        db = frame_db(frame)
        self._frame_index += 1
        if not self._floor_init and db > DIGITAL_SILENCE_DB:
            self.floor, self._floor_init = db, True
        self._frames.append(frame)
        if not self._in_speech:
            if db > self.floor + self.start_db:
                self._loud_run += 1
            else:
                self._loud_run = 0
                # adapt the floor: fast down, slow up; never to digital
                # silence (exact zeros, as in synthesised speech), whose
                # -100 dB "floor" would make the faintest hiss after it speech
                if db > DIGITAL_SILENCE_DB:
                    self.floor = db if db < self.floor else 0.98 * self.floor + 0.02 * db
            if self._loud_run >= self.min_start:
                self._in_speech = True
                self._speech_frames = self._loud_run
                self._quiet_run = 0
                back = min(len(self._frames), self.preroll + self._loud_run)
                self._frames = self._frames[-back:]
                self._start_frame = self._frame_index - back
                self._events.append(Event("start", samples=np.concatenate(self._frames)))
            elif len(self._frames) > self.preroll + self.min_start:
                self._frames = self._frames[-(self.preroll + self.min_start):]
            return None
        self._events.append(Event("audio", samples=frame))
        if db > self.floor + self.end_db:
            self._quiet_run = 0
            self._speech_frames += 1
        else:
            self._quiet_run += 1
            if self._quiet_run == TAIL and self._speech_frames >= self.min_speech:
                # what _close would keep now: every frame so far
                self._events.append(Event("pause", samples=np.concatenate(self._frames)))
        if len(self._frames) >= self.max_frames:
            return self._close(self._frame_index, capped=True)
        if self._quiet_run >= self.hangover:
            if (self._speech_frames >= self.min_speech and self._quiet_run < self.noisy_hangover
                    and (self._quiet_run > self.hangover or self._noisy())):
                return None  # a noisy room: wait longer (NOISY_HANGOVER_S)
            if self._speech_frames < self.min_speech:
                self._in_speech = False
                self._frames = self._frames[-self.preroll:]
                self._loud_run = self._quiet_run = self._speech_frames = 0
                self._events.append(Event("abort"))
                return None
            return self._close(self._frame_index - self._quiet_run, capped=False)
        return None
