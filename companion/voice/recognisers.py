"""Speech recognisers behind one interface.

A :class:`Recogniser` turns one utterance (16 kHz mono float samples, already
cut out by the endpointer) into a :class:`Hypothesis` under a grammar
:class:`~companion.voice.grammar.Context`. Two implementations:

* :class:`PocketSphinxRecogniser`, the default: its wheel ships an English
  model, so it works on a fresh machine with nothing downloaded. It decodes
  with the JSGF grammar of the context and, for a confidence, decodes the same
  audio again with an unconstrained phone loop: the per-frame log-likelihood
  gap between "the best grammar phrase" and "the best phone string" is small
  when the speech really is a grammar phrase and large when the grammar had to
  be forced onto table talk.
* :class:`VoskRecogniser`, used when an English Vosk model is installed in
  ``models/`` or named by ``$COMPANION_VOSK_MODEL``: a KaldiRecognizer
  restricted to the context's phrase list plus ``"[unk]"``, so that speech
  outside the list comes back as ``[unk]`` instead of being snapped to the
  nearest phrase.

Both take their phrases from :mod:`companion.voice.grammar`, never their own.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion import paths
from companion.errors import UserError
from companion.voice import grammar
from companion.voice.audio import (
    NOISY_SNR_DB,
    RATE,
    Samples,
    clip_key,
    noise_floor,
    pad_with_noise,
    speech_to_noise_db,
    to_pcm16,
)
from companion.voice.grammar import Context

#: A clip whose loudest sample stays below this (-60 dBFS) holds no speech.
SILENCE_PEAK = 1e-3

#: Whole decodes :class:`PocketSphinxRecogniser` remembers: a bare number's
#: two (its digits, and the number the digit model heard), with room to spare.
DECODES_KEPT = 4

#: :attr:`Hypothesis.number_margin` when the phrase as heard cannot be
#: aligned to the audio at all (its search returns nothing), or when no
#: other number can (the rival search returns nothing: the number was not
#: checked): unsure. The second happens when only the number heard fits a
#: sound that is not a number at all: en-gb-x-gbcwmd+m8's slow "Referee,"
#: alone forced onto "referee it's a three" (0.91 confidence), the "three"
#: aligned to the end of "referee", every path through another number pruned
#: away before the end of the clip (docs/voice.md, session 16c). The intent
#: check (:meth:`PocketSphinxRecogniser.intent_margin`) keeps 0.0 for its
#: failed rival search.
UNALIGNED_MARGIN = 2.0

#: In a quiet room, the intent check runs only below this confidence:
#: table talk forced onto a command scored 0.80-0.90 on the development
#: voices, and the commands above it were right. 0.95 until session 15:
#: on the six development voices (288 clean commands, 624 clean table-talk
#: sentences, through the live stream) the 45 commands checked at
#: 0.90-0.95 all had rivals under 0.76 (the bar is 0.80), no table talk at
#: 0.90-0.95 reached the check, and every decision stayed the same at
#: 0.90; the check it saves is the slowest part of the end of speech
#: (docs/voice.md, session 15).
RIVAL_CHECK_BELOW = 0.90
#: Intents never checked against rivals.
UNCHECKED_INTENTS = frozenset({"wake", "stop", "cancel", "yes", "no"})

#: Asked of a hypothesis without its rival checks (the listener asks the
#: policy, :meth:`~companion.voice.policy.Policy.rivals_matter`): could they
#: change the decision? When not, their searches are skipped.
RivalsMatter = Callable[["Hypothesis"], bool]

#: Folder name of the Vosk model `companion models install vosk-en` unpacks.
VOSK_MODEL_NAME = "vosk-model-small-en-us-0.15"


@dataclass(frozen=True)
class Hypothesis:
    """What a recogniser heard.

    ``text`` is "" when nothing in the grammar matched. ``confidence`` is in
    [0, 1]; 1 means the grammar phrase explains the audio as well as an
    unconstrained phone loop does.
    """

    text: str
    confidence: float
    frames: int = 0
    #: Seconds of clearly audible sound the recogniser had to explain as
    #: silence or noise: table talk forced onto a short phrase ("stop kicking
    #: me" heard as "stop" + silence) leaves much speech unexplained.
    unexplained_s: float = 0.0
    #: For a phrase that ends in a number ("the pop was five", "red peg on
    #: space twelve"): the best score with any other number in its place over
    #: the score of the number heard, the rest of the words fixed (see
    #: :meth:`PocketSphinxRecogniser.number_margin`). Near or above 1, another
    #: number explains the audio as well; :data:`UNALIGNED_MARGIN` when the
    #: phrase or every rival failed to align (not checked). None: not a
    #: number phrase, or not measured (Vosk).
    number_margin: float | None = None
    #: Loud frames over quiet frames of the utterance, in dB
    #: (:func:`speech_to_noise_db`); None when not measured.
    snr_db: float | None = None
    #: The best phrase of any *other* command's score over the heard
    #: phrase's (see :meth:`PocketSphinxRecogniser.intent_margin`): near 1,
    #: another command explains the audio about as well. None: not measured
    #: (a confident utterance in a quiet room, the wake word, stop, cancel,
    #: yes, no, or Vosk).
    intent_margin: float | None = None
    #: Seconds of audio the recogniser aligned to the wake word ("referee"),
    #: when the phrase begins with it; None otherwise, or not measured (Vosk).
    #: See :data:`companion.voice.policy.MIN_WAKE_S`.
    wake_s: float | None = None
    #: Seconds the recogniser aligned to silence (or a filler) between the
    #: wake word and the next word: the pause of "Referee, | undo", which
    #: table talk forced onto "referee ..." seldom has; None when the phrase
    #: does not begin with the wake word followed by another word, or not
    #: measured. See :data:`companion.voice.policy.WAKE_PAUSE_S`.
    wake_pause_s: float | None = None

    def command(self, context: Context) -> grammar.Command | None:
        return grammar.parse(self.text, context) if self.text else None


class Recogniser(Protocol):
    """Decode one utterance under a grammar context."""

    name: str

    def decode(self, samples: Samples, context: Context) -> Hypothesis: ...


def _model_dir() -> Path:
    import pocketsphinx

    return Path(pocketsphinx.get_model_path())


_GRAMMAR_DICT: Path | None = None


def grammar_dictionary() -> Path:
    """The wheel's pronunciation dictionary cut down to the grammar's words
    (all their listed pronunciations), written once per process to a
    temporary folder removed at exit. The full 135,000-word dictionary cost
    about 110 MB per decoder; the grammar needs about 125 words."""
    global _GRAMMAR_DICT
    if _GRAMMAR_DICT is None or not _GRAMMAR_DICT.is_file():
        words: set[str] = set()
        for context in Context:
            words |= grammar.vocabulary(context)
        full = _model_dir() / "en-us" / "cmudict-en-us.dict"
        keep = [line for line in full.read_text(encoding="utf-8").splitlines()
                if line.split(" ", 1)[0].split("(", 1)[0] in words]
        for word, variants in grammar.VARIANT_PRONUNCIATIONS.items():
            have = sum(1 for line in keep if line.split(" ", 1)[0].split("(", 1)[0] == word)
            keep += [f"{word}({have + i + 1}) {phones}" for i, phones in enumerate(variants)]
        folder = Path(tempfile.mkdtemp(prefix="companion-dict-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "grammar.dict"
        path.write_text("\n".join(keep) + "\n", encoding="utf-8")
        _GRAMMAR_DICT = path
    return _GRAMMAR_DICT


class PocketSphinxRecogniser:
    """PocketSphinx 5 with one JSGF search per context, plus a phone loop.

    Decoder settings were measured on real and synthetic speech
    (docs/voice.md): ``topn`` 16 (more Gaussians scored per frame) gained
    about 7 points on real 8 kHz digits; ``bestpath`` off saves 0.1-0.4 s per
    result. The audio is padded with faint noise, never exact zeros.
    """

    name = "pocketsphinx"

    def __init__(self, topn: int = 16, **decoder_options: Any) -> None:
        model = _model_dir()
        options: dict[str, Any] = {
            "hmm": str(model / "en-us" / "en-us"),
            "dict": str(grammar_dictionary()),
            "samprate": RATE,
            "bestpath": False,
            "topn": topn,
            # Wide beams: the defaults pruned away every path on some clean
            # commands ("referee pause" decoded to nothing).
            "beam": 1e-80,
            "wbeam": 1e-60,
            "pbeam": 1e-80,
            "logfn": os.devnull,
        }
        options.update(decoder_options)
        self._options = options
        self._decoder = self._make_decoder(options)
        self._live: list[Any] | None = None
        self._open_stream: PocketSphinxStream | None = None
        #: The cepstral mean of the last utterance (its batch mean, or the
        #: estimate a stream started from): a stream may start from it.
        self.last_cmn: str | None = None
        #: JSGF bodies of the number checks -> their search names.
        self._phrase_searches: dict[str, str] = {}
        #: The rival checks' search results (search name -> (text, score))
        #: on one clip, :attr:`_checked_pcm`: the number and intent checks
        #: share the search of the phrase as heard, and a check run
        #: speculatively during the end-of-speech wait
        #: (:meth:`PocketSphinxStream.speculate`) is not run again. Only a
        #: search of the very same audio is reused, so more speech after a
        #: pause makes the results stale by construction.
        self._checked_pcm: bytes | None = None
        self._checked: dict[str, tuple[str, float]] = {}
        #: Counts the clips the memo has held (a worker job's key names its clip).
        self._clip_id = 0
        #: Search name -> its JSGF (what a worker needs to build it).
        self._jsgf: dict[str, str] = {}
        self._worker: CheckWorker | None = None
        #: The last few whole decodes ((context, search, clip digest) -> what
        #: was decoded): the listener decodes a bare number's second opinion
        #: while the speaker pauses, and finds it here when the utterance
        #: ends as the same clip (decoding is deterministic, so a remembered
        #: answer is the answer).
        self._decoded: dict[tuple[str, str, bytes], _Decoded] = {}

    @staticmethod
    def _make_decoder(options: dict[str, Any]) -> Any:
        from pocketsphinx import Decoder

        decoder = Decoder(**options)
        for word, phones in grammar.EXTRA_PRONUNCIATIONS.items():
            if decoder.lookup_word(word) is None:
                decoder.add_word(word, phones, False)
        for context in Context:
            decoder.add_jsgf_string(context.value, grammar.jsgf(context))
        decoder.add_allphone_file("phones", str(_model_dir() / "en-us" / "en-us-phone.lm.bin"))
        return decoder

    def prepare_streaming(self) -> None:
        """Load the live decoders (grammar, phone loop) now rather than when
        the first utterance starts."""
        if self._live is None:
            options = {**self._options, "cmn": "live"}
            self._live = [self._make_decoder(options), self._make_decoder(options)]

    def _live_decoders(self) -> list[Any]:
        """The live decoders: grammar and phone loop (about 60 MB each,
        mostly the acoustic model, which PocketSphinx cannot share between
        decoders). A bare number's digits are decoded in one batch instead
        (:func:`companion.voice.listener.bare_number`)."""
        self.prepare_streaming()
        assert self._live is not None
        return self._live

    def start_stream(self, context: Context, cmn: str | None = None) -> PocketSphinxStream:
        """Begin decoding an utterance while it is spoken (see
        :class:`PocketSphinxStream`); *cmn*, the cepstral mean of a recent
        utterance, lets decoding start at once. A stream still open (its
        listener went away mid-utterance) is cancelled first."""
        decoders = self._live_decoders()
        if self._open_stream is not None:
            self._open_stream.cancel()
        self._open_stream = PocketSphinxStream(self, context, decoders, cmn)
        return self._open_stream

    def cmn_estimate(self, pcm: bytes) -> str:
        """The batch cepstral mean of *pcm*, as PocketSphinx's CMN string:
        decode it once (the small digits search; only the mean is kept)."""
        self._run(Context.DIGITS.value, pcm)
        self.last_cmn = str(self._decoder.get_cmn())
        return self.last_cmn

    def _run(self, search: str, pcm: bytes) -> tuple[str, float]:
        """Decode *pcm* with one search; (text, score): :func:`run_search`."""
        return run_search(self._decoder, search, pcm)

    def start_check_worker(self) -> None:
        """Start a process of its own for the intent check's whole-grammar
        search (:class:`CheckWorker`), so that it runs beside the number
        check and the live decoding instead of after them. The live path
        (:meth:`Listener.microphone`) and the latency benchmark start it;
        without it (files, tests) every search runs here, as before."""
        if self._worker is None or not self._worker.alive:
            try:
                self._worker = CheckWorker(self._options)
            except (OSError, RuntimeError, ValueError):
                # No process to be had (a locked-down machine, no /dev/shm):
                # every search runs here, as without the worker; listening
                # never stops over it.
                self._worker = None

    @property
    def check_worker(self) -> CheckWorker | None:
        return self._worker

    def close(self) -> None:
        """Stop the check worker, if one was started."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def _clip(self, pcm: bytes) -> None:
        """Make *pcm* the clip the check memo holds (a new clip empties it)."""
        if pcm is not self._checked_pcm and pcm != self._checked_pcm:
            self._checked_pcm, self._checked = pcm, {}
            self._clip_id += 1

    def _check(self, search: str, pcm: bytes) -> tuple[str, float]:
        """:meth:`_run` for the rival checks, remembered for the last clip
        (decoding is deterministic: the same search of the same audio gives
        the same result). A search handed to the check worker
        (:meth:`_offload`) is waited for rather than run again."""
        self._clip(pcm)
        result = self._checked.get(search)
        if result is None:
            if self._worker is not None:
                result = self._worker.result((self._clip_id, search))
            if result is None:
                result = self._run(search, pcm)
            self._checked[search] = result
        return result

    def _offload(self, search: str, pcm: bytes) -> None:
        """Hand *search* of *pcm* to the check worker, when there is one and
        it is free, unless its result is known already; :meth:`_check` then
        waits for it."""
        self._clip(pcm)
        worker = self._worker
        if worker is None or search in self._checked:
            return
        key = (self._clip_id, search)
        if not worker.has(key):
            worker.submit(key, self._jsgf.get(search), pcm)

    def _offloaded(self, search: str, pcm: bytes) -> bool:
        """*search* of *pcm* is with the check worker (sent or answered)."""
        self._clip(pcm)
        return self._worker is not None and self._worker.has((self._clip_id, search))

    def offload_phone_loop(self, samples: Samples) -> None:
        """Hand the phone loop of *samples* (the confidence's yardstick, the
        same search for every decode of the clip) to the check worker, if
        there is one and it is free, so that the decodes that follow run
        their own searches meanwhile and find it done: the listener does
        this for a short utterance it decodes whole in the speaker's pause
        (:meth:`~companion.voice.listener.Listener.feed`), whose context
        search and digits search then run beside it."""
        x = np.asarray(samples, dtype=np.float32)
        if len(x) == 0 or float(np.max(np.abs(x))) < SILENCE_PEAK:
            return
        self._offload("phones", to_pcm16(pad_with_noise(x, level=noise_floor(x))))

    def _unexplained(self, clip: Samples, pad_frames: int) -> float:
        """Seconds of loud frames of *clip* (the audio before padding) that
        the last decode aligned to silence or fillers."""
        return unexplained_s(self._decoder, clip, pad_frames)

    def decode(self, samples: Samples, context: Context) -> Hypothesis:
        return self._decode(samples, context, context.value)

    def decode_unchecked(self, samples: Samples, context: Context) -> Hypothesis:
        """:meth:`decode` without the rival checks (``number_margin`` and
        ``intent_margin`` None unless a :meth:`decode` of the clip ran them
        already): for a pop whose answer the digits' second opinion may
        replace (:func:`companion.voice.listener.decode_in_context`), whose
        checks are then never used. A :meth:`decode` of the same clip after
        it runs them, and gives what it would have given alone."""
        return self._decode(samples, context, context.value, checked=False)

    def decode_phrase(self, samples: Samples, phrase: str, context: Context) -> Hypothesis:
        """*samples* decoded as exactly *phrase* (a phrase of *context*), with
        everything :meth:`decode` measures on it: its confidence against the
        phone loop, the sound it leaves unexplained, its rival checks. For a
        number the digit model hears where this recogniser heard another
        (:mod:`companion.voice.digit_model`): the policy then judges that
        number on its own alignment, not on the other number's (jackson's
        "six" heard as "one" left its /ks/ unexplained, 0.16-0.22 s)."""
        return self._decode(samples, context, self._phrase_search(phrase))

    def _decode(self, samples: Samples, context: Context, search: str,
                checked: bool = True) -> Hypothesis:
        """*samples* decoded with *search* (of *context*), remembered for the
        last :data:`DECODES_KEPT` clips; the rival checks are run (once)
        when *checked*."""
        x = np.asarray(samples, dtype=np.float32)
        if len(x) == 0 or float(np.max(np.abs(x))) < SILENCE_PEAK:
            # nothing audible: a grammar decoder would still force a phrase on it
            return Hypothesis("", 0.0, len(x) // 160)
        key = (context.value, search, clip_key(x))
        known = self._decoded.get(key)
        if known is None:
            known = self._decode_afresh(x, context, search)
            self._decoded[key] = known
            while len(self._decoded) > DECODES_KEPT:
                del self._decoded[next(iter(self._decoded))]
        self.last_cmn = known.cmn
        if known.checked is None and checked:
            hyp = known.hypothesis
            snr = hyp.snr_db if hyp.snr_db is not None else speech_to_noise_db(x)
            known.checked = replace(
                hyp, number_margin=self.number_margin(known.pcm, hyp.text, context),
                intent_margin=self.intent_margin(known.pcm, hyp.text, context, hyp.confidence, snr))
        return known.checked if known.checked is not None else known.hypothesis

    def _decode_afresh(self, x: Samples, context: Context, search: str) -> _Decoded:
        """One search of *x*, padded, and the measures of its answer taken
        from the decoder's state (the phone loop's score, the alignment);
        the rival checks are left to :meth:`_decode`."""
        padded = pad_with_noise(x, level=noise_floor(x))
        pcm = to_pcm16(padded)
        # the phone loop (the confidence's yardstick, the costliest search
        # here) is the same search of the same audio for every decode of
        # this clip (the rival checks pad it the same way): remembered, so a
        # bare number's second decode finds it done. For the digits (a bare
        # number's second opinion, which no intent check follows) it goes to
        # the check worker while the digits search runs here: six
        # synthesised bare numbers through the live listener 495-553 ->
        # 435-442 ms from end of speech to command (bench voice --only
        # latency). Not for a context's search: the whole-grammar intent
        # check that follows it is the worker's better use (commands 185 ->
        # 194-209 ms with the phone loop there too; docs/voice.md, session 40).
        if search == Context.DIGITS.value:
            self._offload("phones", pcm)
        text, score = self._run(search, pcm)
        cmn = str(self._decoder.get_cmn())
        text = grammar.normalise(text)
        frames = len(pcm) // 320
        if not text:
            empty = Hypothesis("", 0.0, frames)
            return _Decoded(empty, cmn, pcm, checked=empty)
        unexplained = self._unexplained(x, (len(padded) - len(x)) // 320)
        wake, pause = wake_s(self._decoder), wake_pause_s(self._decoder)
        _, phone_score = self._check("phones", pcm)
        ratio = score / phone_score if phone_score > 0 else 1.0
        snr = speech_to_noise_db(x)
        return _Decoded(Hypothesis(text, min(1.0, ratio), frames, unexplained, None, snr, None,
                                   wake, pause), cmn, pcm)

    def number_margin(self, pcm: bytes, text: str, context: Context) -> float | None:
        """How nearly another number explains *pcm* as well as the one heard.

        For *text* ending in a number (:func:`grammar.number_alternatives`),
        two small searches: the phrase exactly as heard, and the same words
        with any other number in the number's place. Returns the rival's
        score over the heard phrase's (per-frame probabilities, comparable
        across searches): about 0.82-0.95 when the number was said clearly,
        0.94-1.05 when white noise ate its sounds ("pop six" heard as "pop
        two") or table talk was forced onto a pop (measured on development
        voices, docs/voice.md). :data:`UNALIGNED_MARGIN` (unsure) when
        either search finds no path. None when *text* has no number or is a
        bare number (not checked: :meth:`number_searches`).
        """
        searches = self.number_searches(text, context)
        if searches is None:
            return None
        return self._margin(searches, pcm, no_rival=UNALIGNED_MARGIN)

    def _margin(self, searches: tuple[str, str], pcm: bytes, no_rival: float | None = None) -> float:
        """The rival search's score over the heard phrase's, for a pair of
        searches (:meth:`number_searches`, :meth:`intent_searches`);
        *no_rival*, when given, if the rival search finds no path at all."""
        _, own = self._check(searches[0], pcm)
        _, rival = self._check(searches[1], pcm)
        if own <= 0.0:
            # the phrase as heard cannot even be aligned: treat as unsure
            return UNALIGNED_MARGIN
        if rival <= 0.0 and no_rival is not None:
            # nothing else could be aligned: the phrase was not checked
            return no_rival
        return rival / own

    def number_searches(self, text: str, context: Context) -> tuple[str, str] | None:
        """The searches of :meth:`number_margin` (the phrase as heard, the
        phrase with any other number), or None when *text* has no number or
        is a bare number: the policy never asks a bare number back
        (:meth:`~companion.voice.policy.Policy.unsure_of_number`), and its
        check had cost about 70 ms of every bare number's wait."""
        found = grammar.number_alternatives(text, context)
        if found is None or not found[0]:
            return None
        prefix, number, rivals = found
        return (self._phrase_search(f"{prefix} {number}"),
                self._phrase_search(f"{prefix} ( {' | '.join(rivals)} )"))

    def intent_margin(self, pcm: bytes, text: str, context: Context, confidence: float,
                      snr_db: float) -> float | None:
        """How nearly another command explains *pcm* as well as *text*.

        Two searches: *text* exactly, and the context's grammar less every
        phrase of the heard command's intent (:func:`grammar.rival_jsgf`).
        Returns the rival's score over the heard phrase's. Measured on
        development voices through the live stream (docs/voice.md): commands
        heard right 0.34-0.81 clean and 0.53-0.89 at 10 dB SNR; table talk
        forced onto a command 0.80-0.87 (or no alignment), commands heard as
        another command at 10 dB 0.77-0.93.

        The rival search is a whole-grammar decode (about 0.2-0.3 s for a
        2 s utterance on this machine), so it runs only where it is needed:
        below :data:`RIVAL_CHECK_BELOW` confidence, or in noise (the
        utterance less than :data:`NOISY_SNR_DB` above its quiet frames).
        Not for the wake word, stop, cancel, yes or no. None when not run.
        """
        searches = self.intent_searches(text, context, confidence, snr_db)
        if searches is None:
            return None
        return self._margin(searches, pcm)

    def intent_searches(self, text: str, context: Context, confidence: float,
                        snr_db: float) -> tuple[str, str] | None:
        """The searches of :meth:`intent_margin` (the phrase as heard, the
        rival grammar), or None when it does not run."""
        command = grammar.parse(text, context)
        if (command is None or command.intent in UNCHECKED_INTENTS
                or (confidence >= RIVAL_CHECK_BELOW and snr_db >= NOISY_SNR_DB)):
            return None
        rivals = grammar.rival_jsgf(context, command.intent)
        if rivals is None:
            return None
        return self._phrase_search(text), self._search(rivals)

    def _phrase_search(self, body: str) -> str:
        """A one-rule JSGF search for *body* (see :meth:`_search`). Spaces are
        collapsed, so the number check's "referee pop six" and the intent
        check's are one search (and run once per clip)."""
        return self._search(f"#JSGF V1.0;\ngrammar slot;\npublic <s> = {' '.join(body.split())};\n")

    def _search(self, jsgf: str) -> str:
        """The name of a search for the JSGF grammar *jsgf*, added on first
        use (a few hundred at most: the grammar's number phrases and one
        rival grammar per context and intent)."""
        name = self._phrase_searches.get(jsgf)
        if name is None:
            name = f"check{len(self._phrase_searches)}"
            self._decoder.add_jsgf_string(name, jsgf)
            self._phrase_searches[jsgf] = name
            self._jsgf[name] = jsgf
        return name


@dataclass
class _Decoded:
    """A clip's decode with one search, as :meth:`PocketSphinxRecogniser._decode`
    remembers it: the hypothesis without its rival checks, the cepstral mean
    the decode left, the padded audio the checks search, and the hypothesis
    with them once they ran."""

    hypothesis: Hypothesis
    cmn: str | None
    pcm: bytes
    checked: Hypothesis | None = None


def run_search(decoder: Any, search: str, pcm: bytes) -> tuple[str, float]:
    """Decode *pcm* with one of *decoder*'s searches; (text, score).
    PocketSphinx's Python binding reports the path score as a
    per-frame-normalised probability in (0, 1], which makes scores of
    different searches comparable."""
    # a fresh feature pipeline: its noise statistics otherwise carry over
    # from the last decode, and the same clip decoded twice scored
    # differently (confidence 0.896, then 0.882)
    decoder.reinit_feat()
    decoder.activate_search(search)
    decoder.start_utt()
    decoder.process_raw(pcm, full_utt=True)
    decoder.end_utt()
    hyp = decoder.hyp()
    if hyp is None:
        return "", 0.0
    return hyp.hypstr, float(hyp.best_score)


#: A check worker's job: (the clip's number in the recogniser's memo, search name).
JobKey = tuple[int, str]
#: Seconds the listener waits for a check worker's answer before it takes
#: the worker for stuck, stops it and runs the search itself (a job takes
#: 0.05-0.3 s).
JOB_TIMEOUT_S = 10.0


class CheckWorker:
    """A process that runs the intent check's rival-grammar search.

    That search is the costliest check (a whole-grammar decode, 0.14-0.28 s
    of CPU for a 2 s utterance on the development machine, against 0.04-0.06
    s for each phrase search), and PocketSphinx's Python binding holds the
    GIL while it decodes, so a thread cannot run it beside the others. A
    process with its own decoder, built with the same options, can: the
    recogniser hands the search over (:meth:`PocketSphinxRecogniser._offload`),
    runs the number check and the phrase search itself meanwhile, and waits
    for the result only when it needs it. Decoding is deterministic (each
    search starts from a fresh feature pipeline), so the worker's result is
    the one the recogniser would have computed: the same margins and
    decisions, sooner on a machine with a core to spare.

    Jobs are sent only while the worker is idle (a clip of 2 s is about
    70 kB, more than a pipe holds, and a send to a busy worker would wait);
    a job the worker cannot take is run in the recogniser's process. A
    worker that died, or never started, runs nothing: every search falls
    back to the recogniser's own decoder.
    """

    def __init__(self, options: dict[str, Any]) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_check_worker_main, args=(child, options),
                                        name="companion-checks", daemon=True)
        self._process.start()
        child.close()
        self._ready = False
        self.alive = True
        #: Jobs sent and not yet answered, in order.
        self._sent: list[JobKey] = []
        self._results: dict[JobKey, tuple[str, float]] = {}
        #: None, or (set by the latency benchmark, to put the worker on its
        #: CPU clock) a list that gets ("submit" | "wait", key, the caller's
        #: process time) as they happen, and ("done", key, the worker's CPU
        #: seconds for the job).
        self.log: list[tuple[str, JobKey, float]] | None = None

    def _fail(self) -> None:
        """The worker is gone (or stuck): stop it, and run every search here."""
        self.alive = False
        self._sent.clear()
        with contextlib.suppress(Exception):
            self._process.kill()

    def ready(self) -> bool:
        """The worker has built its decoder (checked without waiting)."""
        if not self._ready and self.alive:
            try:
                if self._conn.poll():
                    self._ready = self._conn.recv() == "ready"
                    if not self._ready:
                        self._fail()
            except (EOFError, OSError):
                self._fail()
        return self._ready and self.alive

    def wait_ready(self, timeout: float) -> bool:
        """Wait up to *timeout* seconds for the worker to be ready."""
        if self.alive and not self._ready:
            with contextlib.suppress(EOFError, OSError):
                self._conn.poll(timeout)
        return self.ready()

    def _note(self, kind: str, key: JobKey, value: float | None = None) -> None:
        if self.log is not None:
            import time

            self.log.append((kind, key, time.process_time() if value is None else value))

    def has(self, key: JobKey) -> bool:
        return key in self._results or key in self._sent

    def submit(self, key: JobKey, jsgf: str | None, pcm: bytes) -> bool:
        """Send a job if the worker is ready and idle; whether it was sent.
        *jsgf* None: the search named in *key* is one every decoder is built
        with (the phone loop)."""
        if not self.ready():
            return False
        self._collect(block=False)
        if self._sent or not self.alive:
            return False
        try:
            self._conn.send((key, jsgf, pcm))
        except (OSError, ValueError):
            self._fail()
            return False
        self._sent.append(key)
        self._note("submit", key)
        return True

    def _collect(self, block: bool) -> None:
        """Receive one answer (or those already there, without *block*)."""
        try:
            while self._sent and (self._conn.poll(JOB_TIMEOUT_S) if block else self._conn.poll()):
                key, result, cpu_s = self._conn.recv()
                self._sent.remove(key)
                # keep only the newest clip's answers: older ones are stale
                self._results = {k: v for k, v in self._results.items() if k[0] >= key[0]}
                self._results[key] = result
                self._note("done", key, cpu_s)
                if block:
                    return
            if block and self._sent:
                self._fail()  # no answer in JOB_TIMEOUT_S: stuck
        except (EOFError, OSError, ValueError):
            self._fail()

    def result(self, key: JobKey) -> tuple[str, float] | None:
        """The answer to *key*, waiting for it if it was sent; None when it
        was not sent or the worker died (the caller runs the search)."""
        if key in self._sent:
            self._note("wait", key)
        while key not in self._results and key in self._sent and self.alive:
            self._collect(block=True)
        return self._results.pop(key, None)

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._conn.send(None)
        self._conn.close()
        self._process.join(timeout=2.0)
        if self._process.is_alive():
            self._process.terminate()
        self.alive = False


def _check_worker_main(conn: Any, options: dict[str, Any]) -> None:
    """The check worker's loop: build a decoder as the recogniser does, then
    answer (key, JSGF, pcm) with (key, (text, score), CPU seconds) until
    told to stop (None) or the recogniser goes away."""
    import time

    try:
        decoder = PocketSphinxRecogniser._make_decoder(options)
    except Exception:  # the recogniser runs every search itself then
        conn.send("failed")
        return
    conn.send("ready")
    names: dict[str, str] = {}
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        key, jsgf, pcm = job
        if jsgf is None:  # a search the decoder was built with (the phone loop)
            name = key[1]
        else:
            name = names.get(jsgf)
            if name is None:
                name = names[jsgf] = f"check{len(names)}"
                decoder.add_jsgf_string(name, jsgf)
        started = time.process_time()
        result = run_search(decoder, name, pcm)
        conn.send((key, result, time.process_time() - started))


def _is_filler(word: str) -> bool:
    """Silence, noise or a filler in PocketSphinx's segmentation."""
    return word.startswith("<") or word.startswith("[") or word.startswith("+")


def wake_s(decoder: Any) -> float | None:
    """Seconds the last decode of *decoder* aligned to the wake word (its
    first word, if that is "referee"); None when the phrase does not begin
    with it."""
    for seg in decoder.seg() or ():
        word = seg.word
        if _is_filler(word) or word == "(NULL)":
            continue
        if word.split("(")[0] != grammar.WAKE_WORD:
            return None
        return (seg.end_frame - seg.start_frame + 1) / 100.0
    return None


def wake_pause_s(decoder: Any) -> float | None:
    """Seconds the last decode of *decoder* aligned to silence or fillers
    between the wake word (its first word, if that is "referee") and the
    word after it; None when the phrase does not begin with the wake word
    followed by another word."""
    pause = 0.0
    woken = False
    for seg in decoder.seg() or ():
        word = seg.word
        if word == "(NULL)":
            continue
        if _is_filler(word):
            if woken:
                pause += (seg.end_frame - seg.start_frame + 1) / 100.0
            continue
        if not woken:
            if word.split("(")[0] != grammar.WAKE_WORD:
                return None
            woken = True
            continue
        return pause
    return None


#: Loud frames at the start of the silence after the phrase's last word,
#: when that word ends in a stop consonant (:data:`STOP_PHONES`), that the
#: live decoders' :func:`unexplained_s` does not count: the stop's release,
#: which a live decoder often gives to the silence after the word. On the
#: development voices through the live stream, clean commands said right
#: were ignored with 0.06-0.08 s "outside the grammar", 5-6 frames of it
#: the release of the /p/ of "stop", "skip" or "help" straight after the
#: word; the whole-clip decode of the same clips aligned them to the word.
#: Forgiving the tail of any last word let two more table-talk sentences
#: through ("Let me think for a second." as "referee it was a three"), so
#: only a stop's release is forgiven (docs/voice.md, session 14). The
#: whole-clip path (files, the real digits) counts every frame.
WORD_TAIL_FRAMES = 6
#: The CMU phones whose release :data:`WORD_TAIL_FRAMES` forgives.
STOP_PHONES = frozenset({"P", "T", "K", "B", "D", "G"})


def unexplained_s(decoder: Any, clip: Samples, pad_frames: int, word_tail: int = 0) -> float:
    """Seconds of loud frames of *clip* that *decoder*'s last decode aligned
    to silence or fillers, less the first *word_tail* frames of the silence
    after the last word when it ends in a stop (:data:`WORD_TAIL_FRAMES`);
    the decoder saw *pad_frames* frames before the clip began."""
    loud = np.concatenate([np.zeros(pad_frames, bool), loud_frames(clip),
                           np.zeros(pad_frames + 2, bool)])
    segments = [(seg.word, seg.start_frame, seg.end_frame) for seg in decoder.seg()
                if seg.start_frame >= 0 and seg.word != "(NULL)"]
    words = [i for i, (word, _s, _e) in enumerate(segments) if not _is_filler(word)]
    after_last = -1
    if words and word_tail > 0:
        phones = (decoder.lookup_word(segments[words[-1]][0]) or "").split()
        if phones and phones[-1] in STOP_PHONES:
            after_last = words[-1] + 1
    count = 0
    for i, (word, start, end) in enumerate(segments):
        if not _is_filler(word):
            continue
        if i == after_last:
            start += word_tail
        count += int(loud[start:end + 1].sum())
    return count / 100.0


#: Seconds of an utterance buffered before incremental decoding starts: the
#: cepstral mean of this much (pre-roll, and "referee" in a command) stands
#: in for the whole utterance's. Shorter utterances are decoded in one batch
#: at the end, which is quick for them.
PRIME_S = 0.8


class PocketSphinxStream:
    """One utterance decoded while it is spoken.

    PocketSphinx normalises each utterance by its cepstral mean (batch CMN);
    decoding incrementally needs that mean before the utterance is over. So
    the first :data:`PRIME_S` seconds are buffered, their batch mean is
    computed, and two live decoders (the context's grammar, and the phone
    loop for the confidence) start from it and are fed every block as it
    arrives (a bare number's second opinion, the digits, is decoded in one
    batch: :func:`companion.voice.listener.bare_number`). At the end only the last
    block and the final search step remain: the latency from end of speech
    to command is then the endpointer's hangover plus a few milliseconds,
    instead of hangover plus two whole decodes. An utterance shorter than
    :data:`PRIME_S` (a bare "five") is decoded in one batch by
    :meth:`finish` returning None.

    Measured (docs/voice.md): on the command set spoken by a development
    voice, 44/48 right vs 45/48 for the batch decode of the same clips.
    """

    def __init__(self, owner: PocketSphinxRecogniser, context: Context,
                 decoders: list[Any], cmn: str | None = None) -> None:
        self.context = context
        self._owner = owner
        self._decoders = decoders
        self._searches = (context.value, "phones")
        self._buffer: list[Samples] = []
        self._buffered = 0
        self._started = False
        self._cmn = cmn
        self._rng = np.random.default_rng(0)

    def _active(self) -> tuple[tuple[Any, str], ...]:
        return tuple(zip(self._decoders, self._searches, strict=False))

    def _pcm(self, samples: Samples) -> bytes:
        x = np.asarray(samples, dtype=np.float32)
        return to_pcm16(x + self._rng.normal(0.0, 1e-3, len(x)).astype(np.float32))

    @property
    def started(self) -> bool:
        """Decoding has started (the live decoders have been fed)."""
        return self._started

    def starts_within(self, samples: int) -> bool:
        """Whether decoding will have started once *samples* more are fed:
        the listener, at the speaker's pause, asks whether the utterance
        will be decoded by this stream or in one batch at its end
        (:meth:`finish` returning None)."""
        return self._started or self._cmn is not None or (
            self._buffered + samples >= PRIME_S * RATE)

    def feed(self, samples: Samples) -> None:
        """More audio of the utterance, in stream order."""
        if self._started:
            pcm = self._pcm(samples)
            for decoder, _search in self._active():
                decoder.process_raw(pcm, full_utt=False)
            return
        self._buffer.append(np.asarray(samples, dtype=np.float32))
        self._buffered += len(samples)
        if self._cmn is not None or self._buffered >= PRIME_S * RATE:
            pcm = self._pcm(np.concatenate(self._buffer))
            cmn = self._cmn if self._cmn is not None else self._owner.cmn_estimate(pcm)
            for decoder, search in self._active():
                # a fresh feature pipeline: live CMN otherwise carries frame
                # counts over from the last utterance and shifts its mean
                # mid-utterance (measured: confidence 0.78 instead of 0.97)
                decoder.reinit_feat()
                decoder.set_cmn(cmn)
                decoder.activate_search(search)
                decoder.start_utt()
                decoder.process_raw(pcm, full_utt=False)
            self._started = True
            self._buffer = []

    def cancel(self) -> None:
        """The utterance was not speech after all."""
        if self._started:
            for decoder, _search in self._active():
                decoder.end_utt()
            self._started = False
        if self._owner._open_stream is self:
            self._owner._open_stream = None

    def finish(self, clip: Samples, rivals_matter: RivalsMatter | None = None) -> Hypothesis | None:
        """End of the utterance whose samples are *clip* (a prefix of what
        was fed): the hypothesis, or None when the utterance was too short to
        have started decoding (decode *clip* in one batch instead). The rival
        checks are left out (margins None) where *rivals_matter* says they
        cannot change the decision."""
        if self._owner._open_stream is self:
            self._owner._open_stream = None
        if not self._started:
            return None
        self._started = False
        results = []
        for decoder, _search in self._active():
            decoder.end_utt()
            hyp = decoder.hyp()
            results.append(("", 0.0) if hyp is None else (hyp.hypstr, float(hyp.best_score)))
        frames = self._decoders[0].n_frames()
        x = np.asarray(clip, dtype=np.float32)
        checks = _Checks(self._owner, x)
        (text, score), (_, phone_score) = results
        text = grammar.normalise(text)
        if not text:
            return Hypothesis("", 0.0, frames)
        ratio = min(1.0, score / phone_score if phone_score > 0 else 1.0)
        decoder = self._decoders[0]
        heard = Hypothesis(text, ratio, frames, unexplained_s(decoder, x, 0, WORD_TAIL_FRAMES),
                           snr_db=checks.snr_db, wake_s=wake_s(decoder),
                           wake_pause_s=wake_pause_s(decoder))
        if rivals_matter is not None and not rivals_matter(heard):
            return heard
        margin, intent_margin = checks.run(text, self.context, ratio)
        return replace(heard, number_margin=margin, intent_margin=intent_margin)

    def partial(self) -> tuple[str, float]:
        """What the grammar decoder hears so far, and its confidence so far
        (the grammar's path score over the phone loop's, at most 1):
        ("", 0.0) before decoding started or while nothing fits."""
        if not self._started:
            return "", 0.0
        hyp = self._decoders[0].hyp()
        text = grammar.normalise(hyp.hypstr) if hyp is not None else ""
        if not text:
            return "", 0.0
        phone = self._decoders[1].hyp()
        phone_score = float(phone.best_score) if phone is not None else 0.0
        ratio = float(hyp.best_score) / phone_score if phone_score > 0 else 1.0
        return text, min(1.0, ratio)

    def unexplained_so_far(self, clip: Samples) -> float:
        """:attr:`Hypothesis.unexplained_s` of what the grammar decoder hears
        so far, over *clip* (the utterance as it stands), counting every
        frame after the last word: the early end is gated on this, and
        table talk cut at a comma ("Hurry up, | ...") ends on a stop's
        release too."""
        if not self._started:
            return 0.0
        return unexplained_s(self._decoders[0], np.asarray(clip, dtype=np.float32), 0)

    def speculate(self, clip: Samples, rivals_matter: RivalsMatter | None = None) -> str:
        """The speaker paused: if speech does not resume, *clip* is the
        whole utterance (the endpointer's :attr:`~Event.samples` of a
        ``pause``). Run now, during the end-of-speech wait, the rival checks
        :meth:`finish` will want for what the decoders hear so far, so that
        they are done when the wait ends. Nothing is decided here: the
        results go to the recogniser's memo of searches on this very clip,
        and :meth:`finish` uses one only for the same search of the same
        audio; when speech resumes the final clip is longer and they are
        never used. Nothing is run where *rivals_matter* says the checks
        cannot matter for what was heard so far (the sound outside the
        grammar, the wake word's length and the room's noise are judged on
        what the decoder has aligned so far, as :meth:`finish` will judge
        them). Returns the text heard so far ("" before decoding started)."""
        text, ratio = self.partial()
        if not text:
            return ""
        x = np.asarray(clip, dtype=np.float32)
        checks = _Checks(self._owner, x)
        if rivals_matter is not None:
            decoder = self._decoders[0]
            so_far = Hypothesis(text, ratio, unexplained_s=unexplained_s(decoder, x, 0, WORD_TAIL_FRAMES),
                                snr_db=checks.snr_db, wake_s=wake_s(decoder),
                                wake_pause_s=wake_pause_s(decoder))
            if not rivals_matter(so_far):
                return text
        checks.prefetch(text, self.context, ratio)
        return text


class _Checks:
    """The rival checks of one clip (:meth:`PocketSphinxRecogniser.number_margin`
    and :meth:`~PocketSphinxRecogniser.intent_margin`), which decode the
    whole clip in one batch, padded as :meth:`PocketSphinxRecogniser.decode`
    pads it; the padded audio is made once, when a check needs it."""

    def __init__(self, owner: PocketSphinxRecogniser, clip: np.ndarray) -> None:
        self._owner = owner
        self._clip = clip
        self._pcm: bytes | None = None
        self.snr_db = speech_to_noise_db(clip)

    def _audio(self) -> bytes:
        if self._pcm is None:
            self._pcm = to_pcm16(pad_with_noise(self._clip, level=noise_floor(self._clip)))
        return self._pcm

    def _searches(self, text: str, context: Context, confidence: float) -> list[str]:
        """The searches :meth:`run` needs, the costliest first: the intent
        check's rival grammar (a whole-grammar decode), the number check's
        rival phrase, then the phrase as heard (which both checks share)."""
        owner = self._owner
        number = owner.number_searches(text, context)
        intent = owner.intent_searches(text, context, confidence, self.snr_db)
        ordered = [intent[1] if intent else None, number[1] if number else None,
                   number[0] if number else None, intent[0] if intent else None]
        return list(dict.fromkeys(s for s in ordered if s is not None))

    def _offload(self, searches: list[str]) -> None:
        """Hand the costliest search to the check worker, if there is one
        and it is free (see :class:`CheckWorker`): it runs there while this
        process runs the others."""
        if searches:
            self._owner._offload(searches[0], self._audio())

    def prefetch(self, text: str, context: Context, confidence: float) -> None:
        """What :meth:`run` does, without waiting for the check worker: when
        :meth:`run` asks, every search is done or on its way."""
        searches = self._searches(text, context, confidence)
        self._offload(searches)
        for search in searches:
            if not self._owner._offloaded(search, self._audio()):
                self._owner._check(search, self._audio())

    def run(self, text: str, context: Context,
            confidence: float) -> tuple[float | None, float | None]:
        """(number margin, intent margin) of *text* heard in *context*."""
        self._offload(self._searches(text, context, confidence))
        margin = None
        if grammar.number_alternatives(text, context) is not None:
            margin = self._owner.number_margin(self._audio(), text, context)
        return margin, self._owner.intent_margin(self._audio(), text, context, confidence,
                                                 self.snr_db)


def loud_frames(samples: Samples, above_floor_db: float = 15.0,
                below_peak_db: float = 30.0) -> np.ndarray:
    """A boolean per 10 ms frame: clearly audible sound (well above the clip's
    noise floor and within reach of its peak)."""
    n = len(samples) // 160
    if n == 0:
        return np.zeros(0, dtype=bool)
    frames = samples[: n * 160].astype(np.float64).reshape(n, 160)
    db = 10.0 * np.log10(np.mean(frames * frames, axis=1) + 1e-10)
    floor = float(np.percentile(db, 10))
    peak = float(db.max())
    return np.asarray((db > floor + above_floor_db) & (db > peak - below_peak_db))


def find_vosk_model() -> Path | None:
    """The installed Vosk model folder: ``models/`` first, then
    ``$COMPANION_VOSK_MODEL``; None when there is none."""
    candidates = [paths.MODELS_DIR / VOSK_MODEL_NAME]
    env = os.environ.get("COMPANION_VOSK_MODEL")
    if env:
        candidates.append(Path(env))
    for c in candidates:
        if (c / "am" / "final.mdl").is_file() or (c / "conf" / "model.conf").is_file():
            return c
    return None


class VoskRecogniser:
    """Vosk's KaldiRecognizer restricted to the context's phrases and [unk]."""

    name = "vosk"

    def __init__(self, model_dir: Path) -> None:
        import vosk

        vosk.SetLogLevel(-1)
        self._vosk = vosk
        try:
            self._model = vosk.Model(str(model_dir))
        except Exception as exc:  # Vosk raises a bare Exception for a broken model
            raise UserError(f"the Vosk model in {model_dir} cannot be loaded ({exc}): reinstall it "
                            "with `companion models install vosk-en --force`, or point "
                            "COMPANION_VOSK_MODEL at a whole model folder") from None
        self._recognisers: dict[Context, Any] = {}

    def _recogniser(self, context: Context) -> Any:
        rec = self._recognisers.get(context)
        if rec is None:
            phrase_list = [*grammar.phrases(context), "[unk]"]
            rec = self._vosk.KaldiRecognizer(self._model, RATE, json.dumps(phrase_list))
            rec.SetWords(True)
            self._recognisers[context] = rec
        return rec

    def decode(self, samples: Samples, context: Context) -> Hypothesis:
        rec = self._recogniser(context)
        pcm = to_pcm16(pad_with_noise(np.asarray(samples, dtype=np.float32)))
        rec.AcceptWaveform(pcm)
        return hypothesis_from_vosk(json.loads(rec.FinalResult()), len(samples) // 160)


def hypothesis_from_vosk(result: dict[str, Any], frames: int) -> Hypothesis:
    """Turn Vosk's final-result JSON into a Hypothesis: "[unk]" words make
    the whole result out of grammar; confidence is the lowest word's; the
    wake word's duration from its word timing."""
    words = result.get("result") or []
    text = grammar.normalise(str(result.get("text", "")))
    if not text or "[unk]" in str(result.get("text", "")):
        return Hypothesis("", 0.0, frames)
    conf = min((float(w.get("conf", 1.0)) for w in words), default=1.0)
    first = words[0] if words else {}
    wake = pause = None
    if first.get("word") == grammar.WAKE_WORD and "start" in first and "end" in first:
        wake = float(first["end"]) - float(first["start"])
        if len(words) > 1 and "start" in words[1]:
            pause = max(0.0, float(words[1]["start"]) - float(first["end"]))
    return Hypothesis(text, conf, frames, wake_s=wake, wake_pause_s=pause)


def default_recogniser() -> Recogniser:
    """Vosk when a model is installed, else PocketSphinx.

    A ``$COMPANION_VOSK_MODEL`` that is not a model folder is said once on
    standard error before PocketSphinx is used: the user asked for Vosk, and
    a silent fall-back would look like Vosk recognising badly.
    """
    model = find_vosk_model()
    if model is not None:
        return VoskRecogniser(model)
    env = os.environ.get("COMPANION_VOSK_MODEL")
    if env:
        print(f"companion: COMPANION_VOSK_MODEL={env} is not a Vosk model folder (no am/final.mdl or "
              "conf/model.conf in it); using PocketSphinx", file=sys.stderr, flush=True)
    return PocketSphinxRecogniser()
