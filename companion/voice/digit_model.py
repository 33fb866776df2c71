"""A second acoustic model for bare numbers: CMU's narrowband TIDIGITS model.

PocketSphinx's wheel ships one English model, trained on 16 kHz speech with
context-dependent phones. The real spoken digits (8 kHz recordings of three
speakers) defeat it one time in eight: "six" is heard as "one", "two" or
"three", george's "three" as "two" (docs/voice.md). CMU's
PocketSphinx test data holds a small model of a different kind: whole-word
models of the eleven digit words, for the TIDIGITS connected-digits task
(a corpus of adult and child speakers; how much of it this small model was
trained on is not documented), on the band below 4 kHz that every
microphone and every telephone-band recording has. It makes different
mistakes from the wheel's model (jackson's digits 98% right where the wheel's model gets 81%, theo's
worse), so when the two disagree on a bare number and this model is sure of
its own (its rival numbers score well below it), its number is taken.

It is shipped in ``companion/data/tidigits`` (BSD licence, in the folder),
about 0.5 MB, so it is there on every machine with nothing downloaded.

Two things it is sensitive to, measured on the real digits (docs/voice.md,
session 39), and what is done about each:

* The level of the quiet around the word: padded with noise at -76 dBFS it
  hears 88.6% of them right, at -60 dBFS 85%, at -50 dBFS 72%. The frames
  of the utterance that hold no speech (within 6 dB of its background
  level) are therefore replaced with faint noise before it decodes
  (:func:`quiet_gaps`).
* Noise under the words: at 20 dB signal-to-noise its vote no longer helps
  and starts to hurt, so it is asked only of utterances whose loud frames
  stand :data:`MIN_SNR_DB` or more over their quiet ones.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import UserError
from companion.voice import grammar
from companion.voice.audio import (
    RATE,
    Samples,
    clip_key,
    noise_floor,
    resample,
    speech_to_noise_db,
    to_pcm16,
)
from companion.voice.grammar import Context
from companion.voice.recognisers import Hypothesis, run_search

#: Where the model is shipped (inside the package, like PocketSphinx's own).
MODEL_DIR = Path(__file__).resolve().parent.parent / "data" / "tidigits"
#: The files a decoder needs.
MODEL_FILES = ("feat.params", "mdef", "means", "variances", "sendump",
               "transition_matrices", "tidigits.dic")
#: The model's band ends at 4 kHz: it decodes 8 kHz audio.
MODEL_RATE = 8000
#: The main recogniser's decode of a clip as one given phrase
#: (:meth:`~companion.voice.recognisers.PocketSphinxRecogniser.decode_phrase`).
Realign = Callable[[Samples, str, Context], Hypothesis]

#: The numbers it votes on (a pop), and their words.
NUMBERS = (1, 2, 3, 4, 5, 6)
WORDS = tuple(grammar.number_word(n) for n in NUMBERS)

#: Its number is taken over the main recogniser's when the best other
#: number scores under this fraction of its own (per-frame probabilities,
#: as :func:`~companion.voice.recognisers.run_search` reports them). Where
#: the two disagreed on the real digits, this model's margin was 0.41-0.92
#: (10th-90th percentile) when it was the one right and 0.86-1.00 when the
#: other was; 0.85 was best on all 900 clips (0.70-0.94 when chosen on two
#: speakers and scored on the third).
OVERRIDE_BELOW = 0.85
#: Utterances quieter than this over their own quiet frames (dB,
#: :func:`~companion.voice.audio.speech_to_noise_db`) are not given its vote:
#: with white noise under the real digits (and 0.25 s of faint noise before
#: and after, as the endpointer's utterances have) at 30 dB SNR, the
#: utterances' median 28 dB, the vote still helped (84.6% -> 86.0% right);
#: at 20 dB (median 19 dB), asked of every clip, it lost a point (75.3% ->
#: 74.4% with the first quiet rule tried; 58.0% with the one kept), so it
#: is not asked there.
MIN_SNR_DB = 25.0
#: The faint noise that stands in for the quiet between words (RMS, full
#: scale 1): about -76 dBFS, where the model hears best.
QUIET_RMS = 1.5e-4
#: A 10 ms frame within this many dB of the utterance's background level
#: (:func:`~companion.voice.audio.noise_floor`: its quietest tenth, taken
#: as at least -60 and at most -50 dBFS) is quiet, not speech. On a
#: recording trimmed to the word, whose quietest tenth is the word's faint
#: ends, those go too, which the model did not mind (measured with the
#: first SNR gate tried, session 39: 92.0% right with them replaced, 90.7%
#: with only frames under -54 dBFS replaced, 87.0% with the unclamped
#: quietest tenth, which took soft consonants with it).
QUIET_WITHIN_DB = 6.0
#: Seconds of that faint noise put before and after the utterance.
PAD_S = 0.3


@dataclass(frozen=True)
class Vote:
    """What the digit model heard: a number (None when nothing aligned) and
    the best other number's score over its own (near 1: not sure)."""

    number: int | None
    margin: float


def quiet_gaps(samples: Samples, rate: int, floor: float, seed: int = 0) -> Samples:
    """*samples* with faint noise (:data:`QUIET_RMS`) in place of every
    10 ms frame within :data:`QUIET_WITHIN_DB` of *floor* (the utterance's
    background level, :func:`~companion.voice.audio.noise_floor`), and
    :data:`PAD_S` of it before and after: the quiet as the model hears best,
    whatever the room's hiss. Seeded, so a clip always decodes the same way.

    >>> x = np.concatenate([np.full(800, 0.002), np.sin(np.arange(1600)), np.full(800, 0.002)])
    >>> y = quiet_gaps(x.astype(np.float32), 8000, floor=0.002)
    >>> len(y) == len(x) + 2 * 2400, float(np.abs(y[2400:3200]).max()) < 0.002
    (True, True)
    >>> bool(np.array_equal(y[3200:4800], x[800:2400].astype(np.float32)))
    True
    """
    rng = np.random.default_rng(seed)
    hop = rate // 100
    x = np.asarray(samples, dtype=np.float32).copy()
    n = len(x) // hop
    frames = x[: n * hop].reshape(n, hop)
    rms = np.sqrt(np.mean(frames.astype(np.float64) ** 2, axis=1))
    quiet = rms < floor * 10 ** (QUIET_WITHIN_DB / 20)
    frames[quiet] = rng.normal(0.0, QUIET_RMS, (int(quiet.sum()), hop))
    pad = int(PAD_S * rate)
    return np.concatenate([rng.normal(0.0, QUIET_RMS, pad), x,
                           rng.normal(0.0, QUIET_RMS, pad)]).astype(np.float32)


class DigitModel:
    """The TIDIGITS model with a search for the six numbers and, for each,
    a search for the other five (the margin)."""

    def __init__(self, model_dir: Path | None = None) -> None:
        model_dir = MODEL_DIR if model_dir is None else model_dir
        missing = [f for f in MODEL_FILES if not (model_dir / f).is_file()]
        if missing:
            raise UserError(f"the digit model in {model_dir} is incomplete (missing "
                            f"{', '.join(missing)}); reinstall the companion")
        from pocketsphinx import Decoder

        try:
            self._decoder: Any = Decoder(hmm=str(model_dir), dict=str(model_dir / "tidigits.dic"),
                                         samprate=MODEL_RATE, logfn=os.devnull)
        except (RuntimeError, ValueError) as exc:
            raise UserError(f"the digit model in {model_dir} cannot be loaded ({exc}); "
                            "reinstall the companion") from None
        self._last: tuple[bytes, Vote] | None = None
        self._decoder.add_jsgf_string("numbers", _jsgf(WORDS))
        for word in WORDS:
            self._decoder.add_jsgf_string(f"not_{word}", _jsgf(w for w in WORDS if w != word))

    def vote(self, samples: Samples) -> Vote:
        """The number said in *samples* (16 kHz) and how sure of it. The
        last clip's vote is remembered: the listener asks while the speaker
        pauses, and again when the utterance ends as the same clip."""
        x = np.asarray(samples, dtype=np.float32)
        key = clip_key(x)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        vote = self._vote_afresh(x)
        self._last = (key, vote)
        return vote

    def _vote_afresh(self, x: Samples) -> Vote:
        narrow = resample(x, RATE, MODEL_RATE)
        pcm = to_pcm16(quiet_gaps(narrow, MODEL_RATE, floor=noise_floor(x)))
        text, own = run_search(self._decoder, "numbers", pcm)
        word = text.strip()
        if word not in WORDS or own <= 0.0:
            return Vote(None, 1.0)
        _, rival = run_search(self._decoder, f"not_{word}", pcm)
        return Vote(NUMBERS[WORDS.index(word)], rival / own)

    def check(self, samples: Samples, hyp: Hypothesis, context: Context,
              realign: Realign | None = None) -> Hypothesis:
        """*hyp* (a bare number while a pop is expected, after the main
        recogniser's own second opinion) with this model's number in its place when the two disagree
        and this model is sure (:data:`OVERRIDE_BELOW`) in a quiet enough
        room (:data:`MIN_SNR_DB`). With *realign* (the main recogniser's
        :meth:`~companion.voice.recognisers.PocketSphinxRecogniser.decode_phrase`)
        the new number comes with the main recogniser's own measures of it
        (confidence, sound left unexplained), so the policy judges it as it
        would have judged the number heard right; a number that recogniser
        cannot align at all leaves *hyp* as it was. Anything else is
        returned as it is."""
        if context is not Context.POP:
            # with everything allowed (listen --wav) it was measured to do
            # nothing useful: 657 -> 655 of the 900 real digits
            return hyp
        command = hyp.command(context)
        if command is None or command.intent != "pop" or len(hyp.text.split()) != 1:
            return hyp
        if speech_to_noise_db(samples) < MIN_SNR_DB:
            return hyp
        vote = self.vote(samples)
        if vote.number is None or vote.number == command.value or vote.margin >= OVERRIDE_BELOW:
            return hyp
        word = grammar.number_word(vote.number)
        if realign is None:
            return replace(hyp, text=word, number_margin=None)
        heard = realign(samples, word, context)
        return heard if heard.text else hyp


def _jsgf(words: Iterable[str]) -> str:
    return f"#JSGF V1.0;\ngrammar digits;\npublic <n> = {' | '.join(words)};\n"


def load_digit_model() -> DigitModel | None:
    """The shipped digit model, or None (with one line on stderr saying why)
    when it cannot be loaded: the companion then hears bare numbers with the
    main recogniser alone, as before session 39."""
    import sys

    try:
        return DigitModel()
    except UserError as exc:
        print(f"companion: {exc}; bare numbers are heard without it", file=sys.stderr)
        return None
