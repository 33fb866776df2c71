"""Ending a finished command before the full hangover, and the rival checks
run while the speaker pauses: the listener's side, with a scripted streaming
recogniser over tones whose speech boundaries are known exactly. (The
recogniser's side, on real speech: tests/voice/test_voice_recognition.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from companion.voice.audio import RATE, Samples
from companion.voice.endpoint import Endpointer
from companion.voice.grammar import Command, Context, can_continue
from companion.voice.listener import (
    EARLY_END_S,
    Heard,
    Listener,
    ends_early,
    may_want_second_opinion,
)
from companion.voice.recognisers import Hypothesis, RivalsMatter

BLOCK = 800  # 50 ms, as the microphone delivers


def _tone(seconds: float) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    return (0.3 * np.sin(2 * np.pi * 300 * t)).astype(np.float32)


def _quiet(seconds: float, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 1e-3, int(seconds * RATE)).astype(np.float32)


class ScriptedStream:
    """Hears *texts* in turn: the next one after each pause it is told of."""

    def __init__(self, context: Context, texts: list[str]) -> None:
        self.context = context
        self._texts = texts
        self.speculated: list[int] = []  # clip lengths the checks were run on
        self.finished: list[int] = []

    def feed(self, samples: Samples) -> None:
        pass

    def partial(self) -> tuple[str, float]:
        return self._texts[min(len(self.speculated), len(self._texts)) - 1], 0.99

    def unexplained_so_far(self, clip: Samples) -> float:
        return 0.0

    def speculate(self, clip: Samples, rivals_matter: RivalsMatter | None = None) -> str:
        self.speculated.append(len(clip))
        return self.partial()[0]

    def finish(self, clip: Samples, rivals_matter: RivalsMatter | None = None) -> Hypothesis:
        self.finished.append(len(clip))
        return Hypothesis(self.partial()[0], 0.99)

    def cancel(self) -> None:
        pass


class ScriptedRecogniser:
    name = "scripted"

    def __init__(self, *texts: str) -> None:
        self.texts = list(texts)
        self.streams: list[ScriptedStream] = []

    def start_stream(self, context: Context, cmn: str | None = None) -> ScriptedStream:
        self.streams.append(ScriptedStream(context, self.texts))
        return self.streams[-1]

    def decode(self, samples: Samples, context: Context) -> Hypothesis:
        raise AssertionError("a streamed utterance is not decoded again")


def _play(ear: Listener, stream: np.ndarray) -> list[tuple[float, Heard]]:
    """(stream seconds when it was heard, what was heard)."""
    out = []
    for i in range(0, len(stream), BLOCK):
        out += [((i + BLOCK) / RATE, h) for h in ear.feed(stream[i:i + BLOCK])]
    return out + [(len(stream) / RATE, h) for h in ear.finish()]


SPEECH = np.concatenate([_quiet(1.0), _tone(0.6), _quiet(1.0, seed=1)])
SPEECH_END_S = 1.6


def test_a_finished_command_after_the_wake_word_is_what_ends_early() -> None:
    assert ends_early("referee pass", 0.95, Context.LIVE)
    assert ends_early("referee pop six", 0.95, Context.LIVE)
    assert ends_early("pass", 0.95, Context.AWAKE)  # the wake word came just before
    assert not ends_early("referee undo", 0.99, Context.LIVE)  # may become "undo that"
    assert can_continue("referee undo", Context.LIVE)
    assert not ends_early("referee red peg on space twenty", 0.99, Context.LIVE)  # "... three"
    assert not ends_early("referee pass", 0.80, Context.LIVE)  # not sure enough yet
    assert not ends_early("referee", 0.99, Context.LIVE)  # the wake word alone waits
    assert not ends_early("stop", 0.99, Context.LIVE)  # no wake word
    assert not ends_early("five", 0.99, Context.POP)
    assert not ends_early("referee kick me", 0.99, Context.LIVE)  # not a command


def test_a_finished_command_is_decided_after_a_short_wait_on_the_same_audio() -> None:
    [(when, heard)] = _play(Listener(recogniser=ScriptedRecogniser("referee pass")), SPEECH)  # type: ignore[arg-type]
    assert heard.decision.command == Command("skip") and heard.ended_early
    assert SPEECH_END_S + EARLY_END_S - 1e-6 <= when < SPEECH_END_S + EARLY_END_S + 0.06
    # the same utterance the full hangover gives, and the checks ran on it during the wait
    [full] = Endpointer().feed(SPEECH)
    assert np.array_equal(heard.utterance.samples, full.samples)
    assert heard.utterance.end_s == full.end_s


def test_a_command_that_may_go_on_waits_for_the_full_hangover() -> None:
    ear = Listener(recogniser=ScriptedRecogniser("referee undo"))  # type: ignore[arg-type]
    [(when, heard)] = _play(ear, SPEECH)
    assert heard.decision.command == Command("undo") and not heard.ended_early
    assert when >= SPEECH_END_S + ear.endpointer.hangover / 100


def test_what_was_heard_changing_during_the_pause_means_no_early_end() -> None:
    recogniser = ScriptedRecogniser("referee pass", "referee pass the salt")

    class Changing(ScriptedStream):
        def partial(self) -> tuple[str, float]:
            # the decoder's answer moves on after the pause
            return self._texts[1 if self.speculated else 0], 0.99

    recogniser.start_stream = lambda context, cmn=None: Changing(context, recogniser.texts)  # type: ignore[method-assign]
    ear = Listener(recogniser=recogniser)  # type: ignore[arg-type]
    [(when, _heard)] = _play(ear, SPEECH)
    assert when >= SPEECH_END_S + ear.endpointer.hangover / 100


def test_checks_run_in_a_pause_are_run_again_when_speech_resumes() -> None:
    # "referee pass ... the salt": a 0.15 s pause, then more speech
    stream = np.concatenate([_quiet(1.0), _tone(0.5), _quiet(0.15, seed=2), _tone(0.4),
                             _quiet(1.0, seed=3)])
    recogniser = ScriptedRecogniser("referee", "referee pass the salt")
    [(_when, heard)] = _play(Listener(recogniser=recogniser), stream)  # type: ignore[arg-type]
    [spoken] = recogniser.streams
    # a pause in the middle: checks on the first half, which turned out not to be the utterance
    assert len(spoken.speculated) == 2 and spoken.speculated[0] < len(heard.utterance.samples)
    # the final decision was made on the whole utterance, with the checks run on it
    assert spoken.finished == [len(heard.utterance.samples)] == [spoken.speculated[1]]


def test_in_noise_a_finished_command_waits_for_the_full_hangover() -> None:
    # speech 15 dB over white noise: the endpointer sees dips inside phrases there
    rng = np.random.default_rng(4)
    noisy = np.concatenate([_quiet(1.0), _tone(0.6), _quiet(1.0, seed=1)])
    noise_rms = float(np.sqrt(np.mean(_tone(0.6) ** 2))) / 10 ** (15 / 20)
    noisy = (noisy + rng.normal(0, noise_rms, len(noisy))).astype(np.float32)
    ear = Listener(recogniser=ScriptedRecogniser("referee pass"))  # type: ignore[arg-type]
    [(when, heard)] = _play(ear, noisy)
    assert heard.decision.command == Command("skip") and not heard.ended_early
    assert when >= SPEECH_END_S + ear.endpointer.hangover / 100


def test_a_bare_numbers_digits_are_decoded_in_the_pause_on_the_final_clip() -> None:
    # a pop expected, "five" heard: the digits grammar's batch decode (the
    # second opinion, bare_number) runs while the speaker pauses, on the clip
    # the utterance then ends as, and again at the end (where the real
    # recogniser finds it remembered)
    decoded: list[tuple[float, int, Context]] = []

    class Digits(ScriptedRecogniser):
        clock = 0.0

        def decode(self, samples: Samples, context: Context) -> Hypothesis:
            decoded.append((self.clock, len(samples), context))
            return Hypothesis("five", 0.99)

    recogniser = Digits("five")
    ear = Listener(recogniser=recogniser, digits=None)  # type: ignore[arg-type]
    ear.policy.expect_pop(0.0)
    heard = []
    for i in range(0, len(SPEECH), BLOCK):
        recogniser.clock = (i + BLOCK) / RATE
        heard += ear.feed(SPEECH[i:i + BLOCK])
    [one] = heard
    assert one.decision.command == Command("pop", value=5)
    n = len(one.utterance.samples)
    [(paused_at, paused_n, c1), (ended_at, ended_n, c2)] = decoded
    assert (paused_n, ended_n, c1, c2) == (n, n, Context.DIGITS, Context.DIGITS)
    assert paused_at < SPEECH_END_S + ear.endpointer.hangover / 100 <= ended_at
    # a number said with the wake word, or in a phrase with "was", gets no second opinion
    decoded.clear()
    ear = Listener(recogniser=Digits("it was a five"), digits=None)  # type: ignore[arg-type]
    ear.policy.expect_pop(0.0)
    _play(ear, SPEECH)
    assert decoded == []



@pytest.mark.parametrize(("stream_text", "digits_text", "checked", "contexts"), [
    # (the digits decoded at the pause, then at the end)
    ("five", "five", [False], [Context.DIGITS] * 2),
    ("five", "", [False], [Context.DIGITS] * 2 + [Context.POP, Context.DIGITS]),
    ("it was a five", "five", [True], [])])
def test_a_bare_pops_rival_checks_are_left_to_the_digits(
        stream_text: str, digits_text: str, checked: list[bool], contexts: list[Context]) -> None:
    # A pop expected, "five" heard by the stream: its answer is the digits'
    # batch decode, so the stream's own rival checks are not run (they were
    # thrown away). When the digits hear nothing, the stream's answer stands,
    # decoded whole with its checks; a pop phrase with "was" keeps its checks.
    decoded: list[Context] = []
    checks: list[bool] = []

    class Stream(ScriptedStream):
        def finish(self, clip: Samples, rivals_matter: RivalsMatter | None = None) -> Hypothesis:
            hyp = super().finish(clip, rivals_matter)
            checks.append(rivals_matter is None or rivals_matter(hyp))
            return hyp

    class Recogniser(ScriptedRecogniser):
        def start_stream(self, context: Context, cmn: str | None = None) -> ScriptedStream:
            self.streams.append(Stream(context, self.texts))
            return self.streams[-1]

        def decode(self, samples: Samples, context: Context) -> Hypothesis:
            decoded.append(context)
            return Hypothesis(digits_text if context is Context.DIGITS else stream_text, 0.99)

    ear = Listener(recogniser=Recogniser(stream_text), digits=None)  # type: ignore[arg-type]
    ear.policy.expect_pop(0.0)
    [(_when, heard)] = _play(ear, SPEECH)
    assert heard.decision.command == Command("pop", value=5)
    assert checks == checked and decoded == contexts


# ---- an utterance while a pop is expected: the work in the pause (session 48)

SURE = {"confidence": 0.99, "unexplained_s": 0.0, "snr_db": 40.0}


class PrimingStream:
    """A stream that buffers *prime* samples before it starts decoding (no
    recent utterance's cepstral mean), then hears *text*."""

    def __init__(self, context: Context, text: str, prime: int) -> None:
        self.context = context
        self.text = text
        self.prime = prime
        self.buffered = 0

    @property
    def started(self) -> bool:
        return self.buffered >= self.prime

    def starts_within(self, samples: int) -> bool:
        return self.buffered + samples >= self.prime

    def feed(self, samples: Samples) -> None:
        self.buffered += len(samples)

    def partial(self) -> tuple[str, float]:
        return (self.text, 0.99) if self.started else ("", 0.0)

    def unexplained_so_far(self, clip: Samples) -> float:
        return 0.0

    def speculate(self, clip: Samples, rivals_matter: RivalsMatter | None = None) -> str:
        return self.partial()[0]

    def finish(self, clip: Samples, rivals_matter: RivalsMatter | None = None) -> Hypothesis | None:
        return Hypothesis(self.text, **SURE) if self.started else None  # type: ignore[arg-type]

    def cancel(self) -> None:
        pass


class BatchRecogniser:
    """Hears *text* in the context's grammar and in the digits'; its streams
    start after *prime_s* of audio; records each decode (context, samples)."""

    name = "scripted"

    def __init__(self, text: str, prime_s: float = 0.8) -> None:
        self.text = text
        self.prime = int(prime_s * RATE)
        self.streams: list[PrimingStream] = []
        self.decoded: list[tuple[Context, int]] = []

    def start_stream(self, context: Context, cmn: str | None = None) -> PrimingStream:
        self.streams.append(PrimingStream(context, self.text, self.prime))
        return self.streams[-1]

    def decode(self, samples: Samples, context: Context) -> Hypothesis:
        self.decoded.append((context, len(samples)))
        return Hypothesis(self.text, **SURE)  # type: ignore[arg-type]


def _expecting_a_pop(recogniser: BatchRecogniser) -> Listener:
    ear = Listener(recogniser=recogniser, digits=None)  # type: ignore[arg-type]
    ear.policy.expect_pop(0.0)
    return ear


# SPEECH: 0.6 s of tone after 1 s of quiet; the utterance (0.25 s of
# pre-roll, 0.6 s of speech, 0.05 s of tail) is 0.9 s long at the pause


def test_a_word_too_short_to_start_its_stream_is_decoded_whole_in_the_pause() -> None:
    recogniser = BatchRecogniser("five", prime_s=1.5)
    [(when, heard)] = _play(_expecting_a_pop(recogniser), SPEECH)
    assert heard.decision.command == Command("pop", value=5) and not heard.streamed
    # the full hangover, as for every utterance but a finished command after the wake word
    assert when >= SPEECH_END_S + 0.25 and not heard.ended_early
    # decoded whole in the pause (the context's grammar, then the digits), and
    # again at the end, where the real recogniser finds it remembered
    n = len(heard.utterance.samples)
    assert recogniser.decoded == [(Context.POP, n), (Context.DIGITS, n)] * 2


def test_a_stream_that_starts_during_the_wait_still_decides() -> None:
    # 0.95 s buffered by the end: the stream starts in the wait, and decides;
    # only the digits (its second opinion) are decoded in the pause
    recogniser = BatchRecogniser("five", prime_s=0.95)
    [(_when, heard)] = _play(_expecting_a_pop(recogniser), SPEECH)
    assert heard.decision.command == Command("pop", value=5) and heard.streamed
    n = len(heard.utterance.samples)
    assert recogniser.decoded == [(Context.DIGITS, n)] * 2  # in the pause, at the end


def test_without_a_pop_expected_nothing_is_decoded_in_the_pause() -> None:
    recogniser = BatchRecogniser("five", prime_s=1.5)
    ear = Listener(recogniser=recogniser, digits=None)  # type: ignore[arg-type]
    [(when, heard)] = _play(ear, SPEECH)
    assert when >= SPEECH_END_S + 0.25 and not heard.ended_early
    assert heard.decision.action == "ignore"  # a bare number, no pop expected
    assert recogniser.decoded == [(Context.LIVE, len(heard.utterance.samples))]  # at the end


def test_what_may_still_end_as_a_bare_pop_is_what_gets_its_digits_in_the_pause() -> None:
    for so_far in ("five", "it's a two", "the", "that", "it's a"):
        assert may_want_second_opinion(so_far, Context.POP)
    # the wake word, "was", another command, nothing yet, no pop expected
    for so_far in ("referee pop", "referee", "it was a", "the pop was", "stop", ""):
        assert not may_want_second_opinion(so_far, Context.POP)
    assert not may_want_second_opinion("the", Context.LIVE)


def test_a_pop_heard_so_far_as_its_first_word_gets_its_digits_in_the_pause() -> None:
    # a real six heard by the live decoder as "the" at the pause, "it's a
    # two" at the end: the digits were decoded in the pause on the final clip
    decoded: list[tuple[int, Context]] = []

    class Unfinished(ScriptedStream):
        def partial(self) -> tuple[str, float]:
            return "the", 0.9

        def finish(self, clip: Samples, rivals_matter: RivalsMatter | None = None) -> Hypothesis:
            return Hypothesis("it's a two", 0.85)

    class Recogniser(ScriptedRecogniser):
        def start_stream(self, context: Context, cmn: str | None = None) -> ScriptedStream:
            self.streams.append(Unfinished(context, self.texts))
            return self.streams[-1]

        def decode(self, samples: Samples, context: Context) -> Hypothesis:
            decoded.append((len(samples), context))
            return Hypothesis("six", 0.95)

    ear = Listener(recogniser=Recogniser("the"), digits=None)  # type: ignore[arg-type]
    ear.policy.expect_pop(0.0)
    [(_when, heard)] = _play(ear, SPEECH)
    assert heard.decision.command == Command("pop", value=6)
    n = len(heard.utterance.samples)
    assert decoded == [(n, Context.DIGITS)] * 2  # in the pause, then at the end
