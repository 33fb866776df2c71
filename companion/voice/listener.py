"""The companion's ears: audio in, decisions out.

:class:`Listener` joins the pieces: the :class:`~companion.voice.endpoint.Endpointer`
cuts utterances out of a stream, a :class:`~companion.voice.recognisers.Recogniser`
decodes each under the grammar the :class:`~companion.voice.policy.Policy`
says is active, and the policy turns the hypothesis into a
:class:`~companion.voice.policy.Decision`. The live referee drives it with
``feed(samples)`` from its loop (or lets ``microphone()`` read the sound
card); files go through ``recognise_file``.

sounddevice is imported only in :func:`open_microphone`: without
libportaudio2 the import itself raises OSError.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from companion.errors import UserError
from companion.voice import grammar
from companion.voice.audio import RATE, Samples, read_wav
from companion.voice.digit_model import DigitModel, load_digit_model
from companion.voice.endpoint import FRAME, TAIL, Endpointer, Event, Utterance
from companion.voice.enroll import Matcher, second_opinion
from companion.voice.grammar import Command, Context
from companion.voice.policy import BARE_THRESHOLD, MAX_UNEXPLAINED_S, Decision, Policy
from companion.voice.recognisers import (
    NOISY_SNR_DB,
    Hypothesis,
    PocketSphinxRecogniser,
    PocketSphinxStream,
    Recogniser,
    default_recogniser,
    speech_to_noise_db,
)

#: An utterance that starts within this many seconds of the last one is
#: decoded from its first frame, with the last one's cepstral mean (same
#: microphone, room and, mostly, speaker); otherwise the stream first buffers
#: :data:`~companion.voice.recognisers.PRIME_S` seconds to estimate it.
CMN_RECENT_S = 10.0
#: A command that cannot grow ends after this much quiet instead of the
#: endpointer's full hangover (0.25 s), when it was said after the wake word
#: and the decoder has heard the same complete phrase since the pause
#: began, at :data:`EARLY_END_CONFIDENCE` or more (:func:`ends_early`), with
#: at most :data:`EARLY_END_UNEXPLAINED_S` unexplained, in a quiet room
#: (at least ``NOISY_SNR_DB`` of speech over noise). The full hangover is
#: there for table talk cut at its commas (docs/voice.md); a finished
#: "referee pop six" gains nothing by waiting for more.
EARLY_END_S = 0.10
#: The grammar-vs-phone-loop confidence, so far, an early end needs.
EARLY_END_CONFIDENCE = 0.90
#: Most seconds of loud sound the decoder may have aligned to silence so far
#: for an early end (the policy's own limit is 0.05 s); an utterance with
#: more waits for the full hangover. On the development voices, clean
#: commands left 0-0.01 s at the pause; the two table-talk sentences cut
#: early at a comma ("Hurry up, | we're waiting" as "referee help", "I
#: rolled a five, | look!" as "referee i rolled a five") 0.06 and 0.02 s.
EARLY_END_UNEXPLAINED_S = 0.01


def decode_in_context(recogniser: Recogniser, samples: Samples, context: Context,
                      digits: DigitModel | None = None) -> Hypothesis:
    """Decode *samples* under *context*, with second opinions for short pops.

    In the POP and ANY contexts a bare number competes with every command and
    pop phrasing: a real "six" was heard as "it's a two" or "I popped a two"
    (the phrasings soak up its /s/ sounds). When the answer is a pop without
    the wake word, the clip is decoded again against the digits alone, whose
    answer is kept (the digit at the end of "it's a five" still wins there).
    Measured on the 900 real digits: POP grammar alone 82.4%, a second
    opinion for bare numbers only 82.7%, digits grammar alone 87.7%. Then
    *digits*, a second acoustic model, has its say (:func:`bare_number`).
    """
    unchecked = getattr(recogniser, "decode_unchecked", None)
    first = (recogniser.decode if unchecked is None else unchecked)(samples, context)
    if wants_second_opinion(first, context):
        answer = bare_number(recogniser, first, samples, context, digits)
        if answer is not first:
            return answer
    # the context's own answer stands: with its rival checks, which a pop the
    # digits answer for never needs (a whole-grammar search, up to 0.14 s
    # of a bare number's wait; session 48)
    return first if unchecked is None else recogniser.decode(samples, context)


def bare_number(recogniser: Recogniser, hyp: Hypothesis, samples: Samples, context: Context,
                digits: DigitModel | None) -> Hypothesis:
    """The answer for a pop heard without the wake word or "was" (*hyp*):
    the digits grammar's answer, decoding all of *samples* in one batch, when
    it heard a number, then the digit model's number where it disagrees and
    is sure, as *recogniser* hears that number
    (:meth:`~companion.voice.digit_model.DigitModel.check`).

    The digits are decoded in one batch even for an utterance decoded while
    it was spoken: the live decoders start from the cepstral mean of the
    utterance's first 0.8 s, and on the real digits played through the live
    listener (each in its speaker's room tone) acting on the batch decode
    took 86.3% -> 89.8% right and 7.0% -> 6.7% wrong (docs/voice.md, session 40).
    The listener runs it while the speaker pauses (:meth:`Listener.feed`),
    so that the answer is ready when the hangover ends. Returns *hyp*
    itself when neither second opinion had anything to say.

    A pop phrase without "was" ("it's a five", "I popped a six") that was
    said as a phrase (:func:`_said_as_a_phrase`) stands; until session 41
    the digits' bare answer replaced every one, leaving its first words
    unexplained, and none was ever acted on while a pop was expected."""
    second = recogniser.decode(samples, Context.DIGITS)
    if second.text and not _said_as_a_phrase(hyp, second):
        hyp = second
    if digits is None:
        return hyp
    return digits.check(samples, hyp, context, getattr(recogniser, "decode_phrase", None))


def _said_as_a_phrase(hyp: Hypothesis, digits: Hypothesis) -> bool:
    """Whether the pop phrase *hyp* ("it's a five") was said, rather than a
    bare number heard as one (a real "six" as "it's a two"): the digits'
    answer *digits* leaves more sound unexplained than the policy allows
    (:data:`~companion.voice.policy.MAX_UNEXPLAINED_S`: the phrase's first
    words), and the phrase itself clears the bar of a command said without
    the wake word (:data:`~companion.voice.policy.BARE_THRESHOLD`), at which
    the policy will judge it. Measured in session 41 (docs/voice.md): pop
    phrases without "was" on ten espeak-ng voices (the benchmark's four,
    three it does not use at two pitches), 0 -> 158 of 180 acted on right, 1 a
    wrong number; table talk while a pop is expected unchanged (9 of
    1,040); the 900 real digits unchanged (without the confidence bar, 15
    of jackson's sixes, heard as "it's a one" at 0.81-0.88 and left by the
    digits' "six" with over 0.05 s unexplained, were lost)."""
    return (not grammar.is_bare_number(hyp.text) and digits.unexplained_s > MAX_UNEXPLAINED_S
            and hyp.confidence >= BARE_THRESHOLD)


def wants_second_opinion(hyp: Hypothesis, context: Context) -> bool:
    """A pop heard without the wake word or "was", where bare numbers compete
    with pop phrasings (see :func:`decode_in_context`)."""
    if context not in (Context.POP, Context.ANY):
        return False
    command = hyp.command(context)
    words = hyp.text.split()
    return (command is not None and command.intent == "pop"
            and grammar.WAKE_WORD not in words and "was" not in words)


def may_want_second_opinion(text: str, context: Context) -> bool:
    """Whether an utterance heard *so far* as *text* (the live decoder's
    partial answer, before its final step) may end as a pop that gets the
    bare number's second opinions (:func:`wants_second_opinion`): it wants
    them already, or, while a pop is expected, it is not yet a phrase of the
    grammar and has neither the wake word nor "was". The partial answer is
    often a phrase's first words: real sixes heard so far as "the" or
    "that" ended as "it's a two", "five" or "six", and until session 48
    their second opinions were decoded after the hangover (about 0.1 s
    of their wait)."""
    if not text:
        return False
    if wants_second_opinion(Hypothesis(text, 1.0), context):
        return True
    words = text.split()
    return (context is Context.POP and grammar.parse(text, context) is None
            and grammar.WAKE_WORD not in words and "was" not in words)


def ends_early(text: str, confidence: float, context: Context) -> bool:
    """Whether an utterance heard so far as *text* (at *confidence*) is a
    finished command: a command of *context*, said after the wake word (in
    the phrase, or the wake word alone armed the listener), that no longer
    phrase of the grammar begins with ("referee pass" is finished; "referee
    undo" may still become "referee undo that"), heard with at least
    :data:`EARLY_END_CONFIDENCE`."""
    command = grammar.parse(text, context)
    if command is None or command.intent == "wake" or confidence < EARLY_END_CONFIDENCE:
        return False
    woken = text.startswith(grammar.WAKE_WORD + " ") or context is Context.AWAKE
    return woken and not grammar.can_continue(text, context)


@dataclass(frozen=True)
class Heard:
    """One utterance and what became of it."""

    utterance: Utterance
    context: Context
    hypothesis: Hypothesis
    decision: Decision
    #: Seconds from the end of speech to the decision: the endpointer's
    #: hangover plus decoding time.
    latency_s: float
    #: Decoded while it was spoken (only the last step was left at its end).
    streamed: bool = False
    #: Ended before the endpointer's full hangover, as a finished command
    #: (:func:`ends_early`).
    ended_early: bool = False


class Listener:
    """Endpointing + recognition + policy, for a stream or for files."""

    def __init__(self, recogniser: Recogniser | None = None, policy: Policy | None = None,
                 endpointer: Endpointer | None = None, voices: Matcher | None = None,
                 digits: DigitModel | None | Literal["default"] = "default") -> None:
        self.recogniser = recogniser or default_recogniser()
        #: The second acoustic model for bare numbers. By default the
        #: shipped one with PocketSphinx, whose answers its bars were
        #: measured against, and none with another recogniser.
        self.digits: DigitModel | None = (
            (load_digit_model() if isinstance(self.recogniser, PocketSphinxRecogniser) else None)
            if digits == "default" else digits)
        self.policy = policy or Policy()
        self.endpointer = endpointer or Endpointer()
        #: Enrolled voice profiles (companion enroll-voice): a second opinion
        #: on pop corrections in the POP context. None: behaviour as without.
        self.voices = voices
        self._stream_s = 0.0
        #: The utterance being decoded while it is spoken, when the
        #: recogniser can (PocketSphinx); None otherwise.
        self._open: PocketSphinxStream | None = None
        #: Stream time the last utterance ended (its cepstral mean starts
        #: the next stream at once when that is recent).
        self._last_end_s = -1e9
        #: What the open utterance's decoder heard when its speaker paused
        #: (the endpointer's ``pause``), and the utterance then; "" when it
        #: has not paused.
        self._paused_text = ""
        self._paused_clip: Samples | None = None

    # ---- files ----------------------------------------------------------
    def recognise(self, samples: Samples) -> tuple[Hypothesis, Command | None]:
        """Decode one whole clip with everything allowed (wake word optional)."""
        hyp = decode_in_context(self.recogniser, samples, Context.ANY, self._digits_in_use())
        return hyp, hyp.command(Context.ANY)

    def recognise_file(self, path: Path | str) -> tuple[Hypothesis, Command | None]:
        """Like :meth:`recognise`; a missing or unreadable file raises UserError."""
        return self.recognise(read_wav(path).samples)

    # ---- a live stream --------------------------------------------------
    def hear(self, utterance: Utterance, now: float | None = None,
             stream: PocketSphinxStream | None = None, waited_s: float | None = None) -> Heard:
        """Decode one utterance and decide. With *stream* (the utterance
        decoded while it was spoken) its context and result are used;
        otherwise the utterance is decoded now under the policy's context.
        *waited_s*: the quiet the endpointer waited for before ending it
        (default: what it waited for the utterance it ended last, its
        hangover in a quiet room, a longer one in a noisy one)."""
        started = time.monotonic()
        when = utterance.end_s if now is None else now
        onset = utterance.start_s + self.endpointer.preroll / 100 if now is None else None
        hyp: Hypothesis | None = None
        streamed = False
        if stream is not None:
            context = stream.context
            hyp = stream.finish(utterance.samples, self._rivals_matter(context, onset))
            streamed = hyp is not None
            if hyp is not None and wants_second_opinion(hyp, context):
                answer = bare_number(self.recogniser, hyp, utterance.samples, context,
                                     self._digits_in_use())
                # the stream's own answer stands (the digits heard nothing):
                # decoded whole below, with the rival checks it left out
                hyp = None if answer is hyp else answer
        else:
            context = self.policy.context(when)
        if hyp is None:
            hyp = decode_in_context(self.recogniser, utterance.samples, context,
                                    self._digits_in_use())
        veto = ""
        if self.voices is not None:  # enrollment: fuse a pop with the voice profile
            fused = second_opinion(self.voices, utterance.samples, hyp, context)
            hyp, veto = fused.hypothesis, fused.veto
        decision = self.policy.decide(hyp, context, when, onset)
        if veto and decision.action == "ignore":
            decision = Decision("ignore", decision.command, reason=veto)
        hangover = self.endpointer.last_wait_s if waited_s is None else waited_s
        return Heard(utterance, context, hyp, decision,
                     hangover + (time.monotonic() - started), streamed, waited_s is not None)

    def _digits_in_use(self) -> DigitModel | None:
        """The digit model, unless voice profiles give their own second
        opinion: enrolled, the profile is the surer one, and the fusion's
        bars were chosen on PocketSphinx's answers alone (on the real digits
        with two takes enrolled: 98.5% right with the profile alone, 98.2%
        with the digit model's numbers put in first; docs/voice.md, session
        39)."""
        return self.digits if self.voices is None else None

    def _rivals_matter(self, context: Context,
                       onset: float | None) -> Callable[[Hypothesis], bool] | None:
        """The policy's judgement of whether the rival checks of a streamed
        utterance can change its decision (see
        :meth:`~companion.voice.policy.Policy.rivals_matter`), never for a
        bare pop, whose answer is the digits' own decode with its own checks
        (:func:`bare_number`: the stream's intent check on it was thrown
        away, about 70 ms of a bare number's wait); None (always
        run them) with voice profiles, whose fusion may still rescue a
        number the policy would ignore on PocketSphinx's evidence alone."""
        if self.voices is not None:
            return None
        return lambda hyp: (not wants_second_opinion(hyp, context)
                            and self.policy.rivals_matter(hyp, context, onset))

    def feed(self, samples: Samples) -> list[Heard]:
        """Consume a block of 16 kHz samples; return what was heard in it.
        Times are stream seconds, so a recorded stream replays identically.
        A PocketSphinx recogniser decodes each utterance while it is spoken,
        under the context in force when it began."""
        start_s = self._stream_s
        self._stream_s += len(samples) / RATE
        return self._handle(self.endpointer.feed_events(samples), start_s)

    def finish(self) -> list[Heard]:
        """End of the stream: decide on an utterance still open."""
        return self._handle(self.endpointer.flush_events(), self._stream_s)

    def _handle(self, events: list[Event], block_start_s: float) -> list[Heard]:
        out = []
        start_stream = getattr(self.recogniser, "start_stream", None)
        for event in events:
            if event.kind == "start" and start_stream is not None and event.samples is not None:
                recent = block_start_s - self._last_end_s <= CMN_RECENT_S
                cmn = getattr(self.recogniser, "last_cmn", None) if recent else None
                self._open = start_stream(self.policy.context(block_start_s), cmn)
                self._open.feed(event.samples)
            elif event.kind == "audio" and self._open is not None and event.samples is not None:
                self._open.feed(event.samples)
            elif event.kind == "pause" and self._open is not None and event.samples is not None:
                # the rival checks of what was heard so far, on the utterance
                # as it will be if the speaker has finished: done during the
                # wait (a stale result, speech having resumed, is never used)
                self._paused_clip = event.samples
                if self._not_started(self._open):
                    self._paused_text = ""
                    self._speculate_unstarted(event.samples, self._open)
                else:
                    onset = self.endpointer.start_s + self.endpointer.preroll / 100
                    self._paused_text = self._open.speculate(
                        event.samples, self._rivals_matter(self._open.context, onset))
                    self._speculate_number(self._paused_text, event.samples, self._open.context)
            elif event.kind == "abort" and self._open is not None:
                self._open.cancel()
                self._open = None
            elif event.utterance is not None:
                out.append(self._end(event.utterance))
        early = self._end_early()
        if early is not None:
            out.append(early)
        return out

    def _speculate_number(self, text: str, clip: Samples, context: Context) -> None:
        """The speaker paused on what may be a bare pop (*text* so far:
        :func:`may_want_second_opinion`): decode its second opinions now,
        during the wait for the hangover (:meth:`_speculate_digits`)."""
        if may_want_second_opinion(text, context):
            self._speculate_digits(clip, context)

    def _speculate_digits(self, clip: Samples, context: Context) -> None:
        """Decode the bare number's second opinions (:func:`bare_number`) on
        *clip*: the digits, then the digit model on the digits' answer (what
        :func:`bare_number` asks of them whenever their answer is taken). The
        recogniser and the digit model keep what they decoded of the last
        clips, so :meth:`hear` finds it done when the utterance ends as
        *clip*. Speech resuming makes a longer clip, and this work is never
        used."""
        second = self.recogniser.decode(clip, Context.DIGITS)
        digits = self._digits_in_use()
        if second.text and digits is not None:
            digits.check(clip, second, context, getattr(self.recogniser, "decode_phrase", None))

    @staticmethod
    def _not_started(stream: PocketSphinxStream) -> bool:
        """While a pop is expected, the utterance paused on has not started
        decoding (no recent utterance's cepstral mean, and less than
        :data:`~companion.voice.recognisers.PRIME_S` buffered: a bare "five"
        with its pre-roll), so its stream has no answer so far."""
        return (stream.context is Context.POP and hasattr(stream, "starts_within")
                and not getattr(stream, "started", True))

    def _speculate_unstarted(self, clip: Samples, stream: PocketSphinxStream) -> None:
        """Work for the utterance *clip* in the speaker's pause, when its
        *stream* has not started (:meth:`_not_started`) and so has heard
        nothing to go on. If it will not start before the hangover ends,
        :meth:`hear` will decode it in one batch (:func:`decode_in_context`):
        that is done now, the phone loop (which every decode of the clip
        shares) handed to the check worker first. If it will start in the
        wait, the stream decides, as always; its bare number's second
        opinions are decoded now. Nothing here changes what is decided:
        session 48 held the stream and decoded every such utterance whole,
        which changed the decoder deciding some short words (on 300 real
        digits through the live listener, 2 fewer right and 1 more wrong
        number acted on), and session 41 decoded them whole while the stream
        started too (both ran: 392 -> 420 ms)."""
        wait = (self.endpointer.hangover - TAIL) * FRAME
        if stream.starts_within(wait):
            self._speculate_digits(clip, stream.context)
            return
        offload = getattr(self.recogniser, "offload_phone_loop", None)
        if offload is not None:
            offload(clip)
        decode_in_context(self.recogniser, clip, stream.context, self._digits_in_use())

    def _end(self, utterance: Utterance, waited_s: float | None = None) -> Heard:
        stream, self._open = self._open, None
        self._paused_text, self._paused_clip = "", None
        self._last_end_s = utterance.end_s
        return self.hear(utterance, stream=stream, waited_s=waited_s)

    def _end_early(self) -> Heard | None:
        """End the open utterance before the full hangover when it is a
        finished command (:func:`ends_early`) heard the same since the pause."""
        quiet = self.endpointer.quiet_s
        if (self._open is None or not self._paused_text or self._paused_clip is None
                or quiet < EARLY_END_S - 1e-9):
            return None
        text, confidence = self._open.partial()
        if text != self._paused_text or not ends_early(text, confidence, self._open.context):
            return None
        if self._open.unexplained_so_far(self._paused_clip) > EARLY_END_UNEXPLAINED_S + 1e-9:
            return None
        if speech_to_noise_db(self._paused_clip) < NOISY_SNR_DB:
            # in noise the energy endpointer sees dips inside phrases ("red
            # peg | on space twelve" was cut as "referee red peg home")
            return None
        event = self.endpointer.end_now()
        if event is None or event.utterance is None:
            return None
        return self._end(event.utterance, waited_s=quiet)

    def microphone(self, stop: threading.Event, block_s: float = 0.05) -> Iterator[Heard]:
        """Listen to the default microphone until *stop* is set."""
        prepare = getattr(self.recogniser, "prepare_streaming", None)
        if prepare is not None:
            prepare()
        start_worker = getattr(self.recogniser, "start_check_worker", None)
        if start_worker is not None:
            start_worker()  # the intent check beside the rest (until it is up, here)
        with open_microphone(block_s) as blocks:
            while not stop.is_set():
                try:
                    block = blocks.get(timeout=0.2)
                except queue.Empty:
                    continue
                yield from self.feed(block)


class _Microphone:
    """A sounddevice InputStream delivering float32 blocks on a queue."""

    def __init__(self, block_s: float) -> None:
        try:
            import sounddevice as sd
        except OSError as exc:
            raise UserError(f"no microphone: the audio library is missing ({exc}); "
                            "install libportaudio2") from None
        self.blocks: queue.Queue[Samples] = queue.Queue()
        try:
            sd.query_devices(kind="input")
            self._stream = sd.InputStream(samplerate=RATE, channels=1, dtype="float32",
                                          blocksize=int(RATE * block_s),
                                          callback=self._callback)
        except Exception as exc:  # PortAudioError, ValueError
            raise UserError(f"no microphone found ({exc})") from None

    def _callback(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        self.blocks.put(np.array(indata[:, 0], dtype=np.float32))

    def __enter__(self) -> queue.Queue[Samples]:
        self._stream.start()
        return self.blocks

    def __exit__(self, *exc: object) -> None:
        self._stream.stop()
        self._stream.close()


def open_microphone(block_s: float = 0.05) -> _Microphone:
    """The default input device at 16 kHz mono; UserError when there is none."""
    return _Microphone(block_s)
