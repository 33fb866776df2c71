"""``companion bench voice``: command accuracy, real digits, false
activations, latency, real-time factor and time to first audio.

Sections (each prints its figures and the target):

1. Commands: :data:`~companion.voice.evalsets.COMMAND_SET` spoken by four
   espeak-ng voices, clean and with white noise at 10 dB SNR, decoded in the
   live grammar; correct = the right command *and* accepted by the policy.
   Scored twice: each whole clip decoded at once (with a sweep of policy
   settings), and each phrasing played as a stream through the listener
   exactly as live (endpointer, which may split "Referee, ..." at the comma;
   decoding while spoken; the policy's wake window), which is what a family
   gets.
2. Real digits one to six (all 900 takes of three speakers), decoded the way
   the referee hears a pop correction (the POP context), and for reference
   in the digits-only and the everything-allowed (``listen --wav``) grammars.
   Skipped cleanly when the folder is absent.
3. Table talk: :data:`~companion.voice.evalsets.TABLE_TALK` through the live
   policy; any command acted on is a false activation.
4. Latency from end of speech to command, through the endpointer on a
   stream, and the recogniser's real-time factor.
5. Time from ``Speaker.say`` to the first audio (the rendered WAV).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np

from companion import paths
from companion.voice import grammar
from companion.voice.audio import RATE, add_noise, read_wav, room_tone
from companion.voice.digit_model import DigitModel
from companion.voice.evalsets import COMMAND_SET, TABLE_TALK
from companion.voice.grammar import Command, Context
from companion.voice.listener import Listener, decode_in_context
from companion.voice.policy import (
    MAX_UNEXPLAINED_S,
    UNSURE_NOISY,
    UNSURE_NUMBER,
    UNSURE_PAUSED,
    WOKEN_THRESHOLD,
    Decision,
    Policy,
)
from companion.voice.recognisers import CheckWorker, Hypothesis
from companion.voice.synth import VOICES, synthesise

DIGIT_WORDS = ("one", "two", "three", "four", "five", "six")
#: Samples per block a stream is fed in (50 ms, as the microphone delivers).
STREAM_BLOCK = RATE // 20


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help="every 5th real digit clip and two voices (a smoke run)")
    parser.add_argument("--only", choices=("commands", "digits", "latency", "tts"),
                        action="append", help="run only these sections (repeatable)")
    parser.add_argument("--digits-grammar-too", action="store_true",
                        help="also score the real digits with the digits-only grammar")
    parser.add_argument("--digits-live", action="store_true",
                        help="also play each real digit as a live stream through the listener "
                             "while a pop is expected, 1 s of its speaker's room tone "
                             "either side (with and without the digit model)")
    parser.add_argument("--digits-in-quiet", action="store_true",
                        help="the real digits with 0.25 s of a quiet room's hiss (-60 dBFS) "
                             "before and after, as the endpointer cuts a word out of a stream "
                             "(the recordings are trimmed to the word)")


def _pct(ok: int, n: int) -> str:
    return f"{100.0 * ok / n:5.1f}% ({ok}/{n})" if n else "n/a"


def _verdict(value: float, target: float, higher_is_better: bool = True) -> str:
    met = value >= target if higher_is_better else value <= target
    return "met" if met else "MISSED"


#: Policy settings swept in the report: (woken threshold, unexplained seconds).
SWEEP = ((0.75, 0.05), (0.80, 0.05), (0.80, 0.15), (0.85, 0.05), (0.85, 0.15), (0.80, 0.30))


def _acts(decision: Decision) -> bool:
    """Acted on: applied, or a destructive command asked to be confirmed (as
    before). A command asked back because its number was unsure ("Did you
    say the pop was two?"), because it was heard in a noisy room under
    :data:`~companion.voice.policy.NOISY_THRESHOLD`, or because only a
    paused wake word vouched for it
    (:data:`~companion.voice.policy.PAUSED_WAKE_THRESHOLD`), is not acted
    on: it is counted apart."""
    return decision.action == "apply" or (decision.action == "confirm"
                                         and not _asked_back(decision))


def _asked_back(decision: Decision) -> bool:
    return decision.action == "confirm" and decision.reason.startswith(
        (UNSURE_NUMBER, UNSURE_NOISY, UNSURE_PAUSED))


def _acted(hyp: Hypothesis, policy: Policy) -> Command | None:
    context = policy.context(0.0)
    decision = policy.decide(hyp, context, 0.0)
    return decision.command if _acts(decision) else None


def _asked(hyp: Hypothesis) -> Command | None:
    policy = Policy()
    decision = policy.decide(hyp, policy.context(0.0), 0.0)
    return decision.command if _asked_back(decision) else None


def decode_commands(listener: Listener, voices: tuple[str, ...], cache: Path,
                    snr: float | None) -> list[tuple[str, Hypothesis, Command]]:
    """Every command phrasing in every voice, decoded in the live grammar."""
    out = []
    for vi, voice in enumerate(voices):
        for pi, (text, expected) in enumerate(COMMAND_SET):
            audio = synthesise(text, voice=voice, speed=150 + 15 * (vi % 3), cache_dir=cache)
            if snr is not None:
                audio = add_noise(audio, snr, seed=1000 * vi + pi)
            out.append((text, listener.recogniser.decode(audio, Context.LIVE), expected))
    return out


def bench_commands(listener: Listener, voices: tuple[str, ...], cache: Path,
                   talk_voices: tuple[str, ...]) -> None:
    print(f"Commands ({len(COMMAND_SET)} phrasings x {len(voices)} voices, live grammar, "
          "wake word; correct = right command and acted on by the policy)")
    results = {label: decode_commands(listener, voices, cache, snr)
               for label, snr in (("clean", None), ("10 dB SNR", 10.0))}
    for label, rows in results.items():
        recognised = sum(h.command(Context.LIVE) == c for _t, h, c in rows)
        acted = sum(_acted(h, Policy()) == c for _t, h, c in rows)
        wrong = sum((a := _acted(h, Policy())) is not None and a != c for _t, h, c in rows)
        target = 97.0 if label == "clean" else 93.0
        print(f"  {label:10s} {_pct(acted, len(rows))}   target >= {target:.0f}%: "
              f"{_verdict(100.0 * acted / len(rows), target)}")
        asked = [(a, c) for _t, h, c in rows if (a := _asked(h)) is not None]
        print(f"      recognised right (before the policy) {_pct(recognised, len(rows))}; "
              f"wrong command acted on {_pct(wrong, len(rows))}")
        print(f"      asked back (unsure of the number, or in noise) {_pct(len(asked), len(rows))}, of which "
              f"the command heard was right {sum(a == c for a, c in asked)}")
        misses = Counter(f"{t!r} -> {h.text!r} (conf {h.confidence:.2f}, unexplained "
                         f"{h.unexplained_s:.2f} s)" for t, h, c in rows
                         if _acted(h, Policy()) != c)
        for miss, count in misses.most_common(4):
            print(f"      miss x{count}: {miss}")
    talk = decode_talk(listener, talk_voices, cache)
    report_talk(talk, talk_voices)
    bench_streamed(listener, voices, cache, talk_voices)
    print("  Policy sweep (woken threshold, unexplained limit): clean / noisy commands acted on"
          " correctly, table talk acted on")
    for woken, unexplained in SWEEP:
        settings = {"woken_threshold": woken, "max_unexplained_s": unexplained}
        cells = []
        for rows in results.values():
            ok = sum(_acted(h, Policy(**settings)) == c for _t, h, c in rows)
            cells.append(f"{100.0 * ok / len(rows):5.1f}%")
        fa = sum(_acted(h, Policy(**settings)) is not None for _t, h in talk)
        mark = "  <- in use" if (woken, unexplained) == (WOKEN_THRESHOLD, MAX_UNEXPLAINED_S) else ""
        print(f"      {woken:.2f} / {unexplained:.2f} s: {cells[0]} / {cells[1]}, "
              f"talk {100.0 * fa / len(talk):.2f} per 100{mark}")


def hear_as_stream(listener: Listener, audio: np.ndarray, seed: int,
                   snr: float | None = None, pop_expected: bool = False,
                   digits: DigitModel | None | Literal["default"] = "default",
                   room: np.ndarray | None = None) -> list[Decision]:
    """Play one phrase as a live stream (1 s of faint hiss either side, or
    of the room tone of *room*, the speaker's recordings: :func:`room_tone`;
    white noise over all of it at *snr*) through a fresh Listener sharing
    the recogniser (with *digits*, and a pop expected from the start when
    *pop_expected*); the decisions that acted on a command or asked one back."""
    rng = np.random.default_rng(seed)
    if room is not None:
        hiss = [room_tone(room, 1.0, seed=2 * seed + k, percentile=ROOM_PERCENTILE)
                for k in range(2)]
    else:
        hiss = [rng.normal(0, 1e-3, RATE).astype(np.float32) for _ in range(2)]
    stream = np.concatenate([hiss[0], audio, hiss[1]]).astype(np.float32)
    if snr is not None:
        stream = add_noise(stream, snr, seed=seed)
    ear = Listener(recogniser=listener.recogniser, digits=digits)
    if pop_expected:
        ear.policy.expect_pop(0.0)
    heard = []
    for start in range(0, len(stream), STREAM_BLOCK):
        heard += ear.feed(stream[start:start + STREAM_BLOCK])
    heard += ear.finish()
    return [h.decision for h in heard
            if h.decision.command is not None and h.decision.action in ("apply", "confirm")]


def _commands(decisions: list[Decision], asked: bool = False) -> list[Command]:
    """The commands acted on (or, with *asked*, asked back) among *decisions*."""
    return [d.command for d in decisions if d.command is not None
            and (_asked_back(d) if asked else _acts(d))]


def bench_streamed(listener: Listener, voices: tuple[str, ...], cache: Path,
                   talk_voices: tuple[str, ...]) -> None:
    print("Through the live stream (each phrase played as a stream through the listener: "
          "endpointer, decoding while spoken, policy with its wake window)")
    prepare = getattr(listener.recogniser, "prepare_streaming", None)
    if prepare is not None:
        prepare()
    for label, snr in (("clean", None), ("10 dB SNR", 10.0)):
        right = wrong = n = asked_right = asked_wrong = 0
        misses: Counter[str] = Counter()
        for vi, voice in enumerate(voices):
            for pi, (text, expected) in enumerate(COMMAND_SET):
                audio = synthesise(text, voice=voice, speed=150 + 15 * (vi % 3), cache_dir=cache)
                decisions = hear_as_stream(listener, audio, 1000 * vi + pi, snr)
                acted, asked = _commands(decisions), _commands(decisions, asked=True)
                n += 1
                right += acted == [expected]
                wrong += any(a != expected for a in acted)
                asked_right += not acted and asked == [expected]
                asked_wrong += any(a != expected for a in asked)
                if acted != [expected]:
                    misses[f"{text!r} -> {[a.as_dict() for a in acted]}"
                           f"{' asked ' + str([a.as_dict() for a in asked]) if asked else ''}"] += 1
        target = 97.0 if label == "clean" else 93.0
        print(f"  {label:10s} {_pct(right, n)}   target >= {target:.0f}%: "
              f"{_verdict(100.0 * right / n, target)}")
        print(f"      a wrong command acted on {_pct(wrong, n)}")
        print(f"      asked back (unsure of the number, or of a command in noise): the right command, nothing acted on "
              f"{_pct(asked_right, n)}; a wrong one asked back {_pct(asked_wrong, n)}")
        for miss, count in misses.most_common(3):
            print(f"      miss x{count}: {miss}")
    for pop_expected in (False, True):
        _streamed_talk(listener, talk_voices, cache, pop_expected)


def _streamed_talk(listener: Listener, talk_voices: tuple[str, ...], cache: Path,
                   pop_expected: bool) -> None:
    """:data:`TABLE_TALK` through the live stream: in open table talk, or in
    the ten seconds after a pop (*pop_expected*), when a bare number is
    taken as a correction of it and the grammar is the pop's. The second is
    most of a game's time: since session 49 it is measured here too."""
    acted_talk = []
    asked_talk = []
    n = 0
    for vi, voice in enumerate(talk_voices):
        for ti, text in enumerate(TABLE_TALK):
            audio = synthesise(text, voice=voice, speed=150 + 20 * vi, cache_dir=cache)
            decisions = hear_as_stream(listener, audio, 5000 + 1000 * vi + ti,
                                       pop_expected=pop_expected)
            acted, asked = _commands(decisions), _commands(decisions, asked=True)
            n += 1
            if acted:
                acted_talk.append(f"{text!r} -> {[a.as_dict() for a in acted]}")
            elif asked:
                asked_talk.append(f"{text!r} -> asked {[a.as_dict() for a in asked]}")
    rate = 100.0 * len(acted_talk) / n
    when = "with a pop expected" if pop_expected else "in open talk"
    print(f"  table talk acted on, {when}: {rate:.2f} per 100 utterances ({len(acted_talk)}/{n})   "
          f"target <= 1: {_verdict(rate, 1.0, higher_is_better=False)}")
    print(f"  table talk asked back (\"Did you say the pop was two?\"), nothing acted on: "
          f"{100.0 * len(asked_talk) / n:.2f} per 100 ({len(asked_talk)}/{n})")
    for line in (acted_talk + asked_talk)[:8]:
        print(f"      {line}")


def decode_talk(listener: Listener, voices: tuple[str, ...],
                cache: Path) -> list[tuple[str, Hypothesis]]:
    out = []
    for vi, voice in enumerate(voices):
        for text in TABLE_TALK:
            audio = synthesise(text, voice=voice, speed=150 + 20 * vi, cache_dir=cache)
            out.append((text, listener.recogniser.decode(audio, Context.LIVE)))
    return out


def report_talk(talk: list[tuple[str, Hypothesis]], voices: tuple[str, ...]) -> None:
    print(f"Table talk ({len(TABLE_TALK)} sentences x {len(voices)} voices: "
          f"{', '.join(voices)}; live policy)")
    acted = [(t, h) for t, h in talk if _acted(h, Policy()) is not None]
    wakes = 0
    for _t, h in talk:
        policy = Policy()
        wakes += policy.decide(h, policy.context(0.0), 0.0).action == "wake"
    rate = 100.0 * len(acted) / len(talk)
    print(f"  false activations: {rate:.2f} per 100 utterances ({len(acted)}/{len(talk)})   "
          f"target <= 1: {_verdict(rate, 1.0, higher_is_better=False)}")
    print(f"  wake word alone falsely heard: {100.0 * wakes / len(talk):.2f} per 100 "
          "(arms the listener for 4 s; acts on nothing by itself)")
    for t, h in acted[:6]:
        print(f"      {t!r} -> {h.text!r} (conf {h.confidence:.2f}, "
              f"unexplained {h.unexplained_s:.2f} s)")


def _digit_files(step: int) -> list[tuple[Path, int, str]]:
    folder = paths.spoken_digits_dir() / "recordings"
    out = []
    for f in sorted(folder.glob("[1-6]_*_*.wav"))[::step]:
        digit, speaker, _take = f.stem.split("_")
        out.append((f, int(digit), speaker))
    return out


#: --digits-live: the room tone around each real digit is that of the
#: quietest frames of all its speaker's recordings, this percentile of
#: them (a clip's own quietest tenth is often still the word's edges: 4-14
#: dB louder than its speaker's room at this percentile).
ROOM_PERCENTILE = 5.0

#: --digits-in-quiet: seconds and RMS of the hiss put around each real digit.
QUIET_AROUND_S, QUIET_AROUND_RMS = 0.25, 1e-3


def _in_quiet(samples: np.ndarray, seed: int) -> np.ndarray:
    """*samples* with :data:`QUIET_AROUND_S` of a quiet room's hiss before
    and after (seeded), as the endpointer's pre-roll and hangover hold."""
    rng = np.random.default_rng(seed)
    n = int(QUIET_AROUND_S * RATE)
    hiss = rng.normal(0.0, QUIET_AROUND_RMS, 2 * n).astype(np.float32)
    return np.concatenate([hiss[:n], samples, hiss[n:]]).astype(np.float32)


def bench_digits(listener: Listener, step: int, digits_grammar_too: bool = False,
                 in_quiet: bool = False, live: bool = False) -> None:
    folder = paths.spoken_digits_dir()
    if not (folder / "recordings").is_dir():
        print(f"Real digits: skipped: folder absent ({folder})")
        return
    files = _digit_files(step)
    where = (f", each with {QUIET_AROUND_S} s of hiss at -60 dBFS before and after"
             if in_quiet else "")
    print(f"Real spoken digits one to six ({len(files)} clips, 3 speakers, 8 kHz{where})")
    clips = [(_in_quiet(read_wav(f).samples, k) if in_quiet else read_wav(f).samples, d, s)
             for k, (f, d, s) in enumerate(files)]
    digits = listener.digits
    # (context, label, with the digit model): the POP rows are the referee's
    # pop corrections with and without the second acoustic model
    # (companion/voice/digit_model.py); the first POP decode is kept for
    # the second row, which only adds the digit model's vote
    contexts: list[tuple[Context, str, bool]] = [
        (Context.POP, "as a pop correction, PocketSphinx alone", False)]
    if digits is not None:
        contexts.append((Context.POP, "as a pop correction, + the digit model", True))
    contexts.append((Context.ANY, "everything allowed (listen --wav)", True))
    if digits_grammar_too:
        contexts.insert(1, (Context.DIGITS, "digits-only grammar", False))
    first_pop: list[Hypothesis] = []
    pop_hyps: list[Hypothesis] = []
    for context, note, with_digits in contexts:
        ok = accepted = wrong_calls = overruled = 0
        per: dict[str, list[int]] = {}
        confusions: Counter[str] = Counter()
        for i, (samples, digit, speaker) in enumerate(clips):
            if context is Context.ANY:
                _hyp, cmd = listener.recognise(samples)
            else:
                if context is Context.POP and with_digits and digits is not None:
                    hyp = digits.check(samples, first_pop[i], context,
                                       getattr(listener.recogniser, "decode_phrase", None))
                    overruled += hyp.text != first_pop[i].text
                else:
                    hyp = decode_in_context(listener.recogniser, samples, context)
                    if context is Context.POP:
                        first_pop.append(hyp)
                if context is Context.POP and not with_digits:
                    # enrolled, the listener does without the digit model
                    # (Listener._digits_in_use)
                    pop_hyps.append(hyp)
                cmd = hyp.command(context)
                policy = Policy()
                policy.expect_pop(0.0)
                decision = policy.decide(hyp, context, 0.0)
                acted = decision.command if decision.action == "apply" else None
                accepted += acted == Command("pop", value=digit)
                wrong_calls += acted is not None and acted != Command("pop", value=digit)
            good = cmd == Command("pop", value=digit)
            ok += good
            per.setdefault(speaker, [0, 0])
            per[speaker][0] += good
            per[speaker][1] += 1
            if not good:
                confusions[f"{DIGIT_WORDS[digit - 1]}->{cmd.as_dict() if cmd else None}"] += 1
        acc = 100.0 * ok / len(clips)
        speakers = "  ".join(f"{s} {100.0 * a / b:.1f}%" for s, (a, b) in sorted(per.items()))
        in_use = context is Context.POP and with_digits == (digits is not None)
        target = f"  target >= 97%: {_verdict(acc, 97.0)}" if in_use else ""
        print(f"  {note:40s} {_pct(ok, len(clips))}{target}")
        print(f"      by speaker: {speakers}")
        if overruled:
            print(f"      the digit model's number taken over PocketSphinx's: {overruled} clips")
        if context is not Context.ANY:
            print(f"      through the live policy: correct and acted on {_pct(accepted, len(clips))}"
                  f", wrong number acted on {_pct(wrong_calls, len(clips))}, rest ignored")
        top = ", ".join(f"{k} x{v}" for k, v in confusions.most_common(4))
        if top:
            print(f"      top confusions: {top}")

    if live:
        bench_digits_live(listener, clips)
    bench_enrollment(files, [c[0] for c in clips], pop_hyps)


def bench_digits_live(listener: Listener, clips: list[tuple[np.ndarray, int, str]]) -> None:
    """The real digits as the live referee hears them: each played as a
    stream (1 s of its speaker's room tone either side, as a microphone
    left on in that room hears it: the quietest twentieth of the frames of
    all that speaker's recordings, :func:`room_tone`) through a fresh
    listener expecting a pop, PocketSphinx alone and with the digit model.
    Until session 40 a -60 dBFS hiss was put around them: a step up to each
    recording's own background (up to 20 dB louder) that no room makes."""
    rooms = {speaker: np.concatenate([c for c, _d, s in clips if s == speaker])
             for speaker in {s for _c, _d, s in clips}}
    models: list[tuple[str, DigitModel | None]] = [("PocketSphinx alone", None)]
    if listener.digits is not None:
        models.append(("+ the digit model", listener.digits))
    for label, digits in models:
        right = wrong = 0
        for k, (samples, digit, speaker) in enumerate(clips):
            acted = _commands(hear_as_stream(listener, samples, seed=k, pop_expected=True,
                                             digits=digits, room=rooms[speaker]))
            right += Command("pop", value=digit) in acted
            wrong += any(c.intent == "pop" and c.value != digit for c in acted)
        print(f"  live (its speaker's room around it), a pop expected, {label:20s} acted on "
              f"right {_pct(right, len(clips))}, a wrong number acted on {_pct(wrong, len(clips))}")


# ---- with enrollment (companion enroll-voice) --------------------------------

#: The development takes: the fusion thresholds were chosen on these, so
#: they are never scored.
DEV_TAKES = range(40, 50)


def bench_enrollment(files: list[tuple[Path, int, str]], samples: list[np.ndarray],
                     pop_hyps: list[Hypothesis]) -> None:
    """Per speaker: enroll with the lowest-numbered k takes of each number
    (k = 1, 2), then fuse PocketSphinx's POP answer for each of that
    speaker's other takes (except the development takes) with the matcher,
    and decide with the live policy."""
    from companion.voice import enroll

    folder = paths.spoken_digits_dir() / "recordings"
    speakers = sorted({s for _f, _d, s in files})
    print("  with enrollment (companion enroll-voice): per speaker, enroll with takes 0..k-1 of "
          "each number; score that speaker's other takes except the development takes "
          f"{DEV_TAKES.start}-{DEV_TAKES.stop - 1} (fusion thresholds chosen there)")
    for k in (1, 2):
        matchers = {s: enroll.Matcher([enroll.Profile.from_takes(s, [
            (n, read_wav(folder / f"{n}_{s}_{t}.wav").samples)
            for n in enroll.NUMBERS for t in range(k)])]) for s in speakers}
        # speaker -> [right, wrong, not acted, vetoed, n, template alone right, ps right, ps wrong]
        per = {s: [0] * 8 for s in speakers}
        confusions: Counter[str] = Counter()
        for (path, digit, speaker), clip, hyp in zip(files, samples, pop_hyps, strict=True):
            take = int(path.stem.split("_")[2])
            if take < k or take in DEV_TAKES:
                continue
            row = per[speaker]
            fused = enroll.second_opinion(matchers[speaker], clip, hyp, Context.POP)
            expected = Command("pop", value=digit)
            acted = _acted_on_pop(fused.hypothesis)
            row[0] += acted == expected
            row[1] += acted is not None and acted != expected
            row[2] += acted is None
            row[3] += bool(fused.veto)
            row[4] += 1
            alone = matchers[speaker].match(clip)
            row[5] += alone is not None and alone.number == digit
            before = _acted_on_pop(hyp)
            row[6] += before == expected
            row[7] += before is not None and before != expected
            if acted is not None and acted != expected:
                confusions[f"{DIGIT_WORDS[digit - 1]}->{acted.value}"] += 1
        total = [sum(col) for col in zip(*per.values(), strict=True)]
        n = total[4]
        if not n:
            print(f"    k = {k}: no takes to score")
            continue
        right = 100.0 * total[0] / n
        print(f"    k = {k} take{'s' if k > 1 else ''} per number: right and acted on "
              f"{_pct(total[0], n)}   target >= 97%: {_verdict(right, 97.0)}")
        print(f"      wrong number acted on {_pct(total[1], n)}; not acted on (asks again) "
              f"{_pct(total[2], n)}, of which the two disagreed and neither was sure "
              f"{total[3]}")
        print(f"      PocketSphinx alone on the same takes: right {_pct(total[6], n)}, wrong "
              f"number acted on {_pct(total[7], n)}; the matcher alone right "
              f"{_pct(total[5], n)}")
        for s, r in per.items():
            print(f"      {s:8s} right {_pct(r[0], r[4])}  wrong {_pct(r[1], r[4])}  "
                  f"not acted on {_pct(r[2], r[4])}")
        top = ", ".join(f"{c} x{v}" for c, v in confusions.most_common(4))
        if top:
            print(f"      wrong numbers acted on: {top}")


def bench_enrollment_talk(listener: Listener, cache: Path) -> None:
    """Table talk while a pop is expected, without and with a voice profile:
    each espeak-ng voice enrolled with its own one..six (160 wpm), then
    :data:`TABLE_TALK` spoken by that voice (170 wpm) decoded in the POP
    context. A profile must not let more talk through as a pop."""
    from companion.voice import enroll

    print("  table talk while a pop is expected (POP context), each voice enrolled with its "
          "own numbers: acted on without / with the profile")
    before_all = after_all = n = 0
    for voice in VOICES:
        profile = enroll.Profile.from_takes(voice, [
            (number, synthesise(word, voice=voice, speed=160, cache_dir=cache))
            for number, word in enroll.WORDS.items()])
        matcher = enroll.Matcher([profile])
        before = after = 0
        for text in TABLE_TALK:
            audio = synthesise(text, voice=voice, speed=170, cache_dir=cache)
            hyp = decode_in_context(listener.recogniser, audio, Context.POP)
            fused = enroll.second_opinion(matcher, audio, hyp, Context.POP)
            before += _acted_on_pop(hyp) is not None
            after += _acted_on_pop(fused.hypothesis) is not None
        print(f"      {voice:15s} {before:3d} / {after:3d} of {len(TABLE_TALK)}")
        before_all, after_all, n = before_all + before, after_all + after, n + len(TABLE_TALK)
    print(f"      all voices: {100.0 * before_all / n:.2f} / {100.0 * after_all / n:.2f} per 100 "
          "utterances")


def _acted_on_pop(hyp: Hypothesis) -> Command | None:
    """The command the live policy applies for *hyp* while a pop is expected."""
    policy = Policy()
    policy.expect_pop(0.0)
    decision = policy.decide(hyp, Context.POP, 0.0)
    return decision.command if decision.action == "apply" else None


def bench_latency(listener: Listener, cache: Path) -> None:
    """End of speech to command, as a family would wait for it.

    The stream is fed in 50 ms blocks on a simulated clock: a block arrives
    when its last sample has been spoken, and the listener (one thread, as
    live) starts on it when it has finished the block before. So work done
    early, while the speaker is still talking or during the end-of-speech
    wait (the speculative rival checks), counts only where it delays what
    comes after it, and a block that takes long holds up every block behind
    it, as a microphone queue would. The listener's work on each block is
    timed twice: by the wall clock (which on this shared machine includes
    waiting for a core) and by its CPU time (decoding is single-threaded
    and in-process, so this is the latency on a core of its own, and
    repeatable under load).

    Two sets: the synthesised commands, and bare numbers said while a pop
    is expected (the real spoken digits, or synthesised ones without them),
    the command players say most, which alone get the bare number's second
    opinions (:func:`companion.voice.listener.bare_number`).
    """
    print("Latency from end of speech to command (stream in 50 ms blocks on a real-time clock, "
          "endpointer + decode while speaking)")
    prepare = getattr(listener.recogniser, "prepare_streaming", None)
    if prepare is not None:
        prepare()  # the live decoders load once, before the first utterance
    worker = getattr(listener.recogniser, "check_worker", None)
    if worker is not None and worker.wait_ready(30.0):
        worker.log = []
        print("  the costliest rival search runs in a worker process (on the CPU-time "
              "clock: on a core of its own, its jobs one after another)")
    else:
        worker = None
    rng = np.random.default_rng(7)
    commands = [(synthesise(text, voice=VOICES[i % len(VOICES)], cache_dir=cache), expected)
                for i, (text, expected) in enumerate(COMMAND_SET[:24])]
    _latency_of(listener, worker, commands, rng, "commands", pop_expected=False)
    numbers: list[tuple[np.ndarray, Command]]
    if paths.spoken_digits_dir().is_dir():
        # two takes of each number by each speaker (takes 0 and 25)
        files = [f for f in _digit_files(1) if int(f[0].stem.split("_")[2]) in (0, 25)]
        numbers = [(read_wav(f).samples, Command("pop", value=d)) for f, d, _s in files]
        label = "real bare numbers, a pop expected"
    else:
        numbers = [(synthesise(grammar.number_word(n), voice=VOICES[n % len(VOICES)],
                               cache_dir=cache), Command("pop", value=n)) for n in range(1, 7)]
        label = "synthesised bare numbers, a pop expected (no real digits here)"
    _latency_of(listener, worker, numbers, rng, label, pop_expected=True)


def _latency_of(listener: Listener, worker: CheckWorker | None, phrases: list[tuple[np.ndarray, Command]],
                rng: np.random.Generator, label: str, pop_expected: bool) -> None:
    """:func:`bench_latency` over *phrases* (speech, the command it says),
    each in a fresh listener (expecting a pop when *pop_expected*)."""
    recogniser = listener.recogniser
    # two clocks: the listener's work timed by the wall clock (as loaded as
    # the machine is) and by its CPU time (as on a core of its own)
    latencies: dict[str, list[float]] = {"cpu": [], "wall": []}
    after_s = audio_s = busy_s = stream_s = 0.0
    streamed = acted_right = early = 0
    for speech, expected in phrases:
        loud = np.nonzero(np.abs(speech) > 0.02 * np.abs(speech).max())[0]
        pad = rng.normal(0, 3e-4, RATE).astype(np.float32)
        stream = np.concatenate([pad, speech, pad, pad]).astype(np.float32)
        true_end = (len(pad) + loud[-1]) / RATE
        ear = Listener(recogniser=recogniser, digits=listener.digits)
        if pop_expected:
            ear.policy.expect_pop(0.0)
        block = STREAM_BLOCK
        acted: list[Command | None] = []
        measured = False
        free_at = {"cpu": 0.0, "wall": 0.0}  # when the listener is free again
        worker_clock = _WorkerClock()  # each stream's clock starts at 0
        for start in range(0, len(stream), block):
            arrives = (start + block) / RATE
            t0, c0 = time.perf_counter(), time.process_time()
            heard = ear.feed(stream[start:start + block])
            spent = {"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}
            began = max(free_at["cpu"], arrives)
            for clock in free_at:
                free_at[clock] = max(free_at[clock], arrives) + spent[clock]
            if worker is not None and worker.log is not None:
                # the time the listener waited for the worker, on the CPU clock
                free_at["cpu"] += worker_clock.block(began, c0, worker.log)
                worker.log.clear()
            acted += [h.decision.command for h in heard if _acts(h.decision)]
            if measured:
                continue
            busy_s += spent["cpu"]
            if arrives > true_end:
                after_s += spent["cpu"]
            # a comma pause may split "Referee, undo." in two: the command
            # is the utterance that holds the end of the speech
            last = [h for h in heard if h.utterance.end_s >= true_end - 0.1]
            if last:
                measured = True
                stream_s += arrives
                for clock in free_at:
                    latencies[clock].append(free_at[clock] - true_end)
                audio_s += sum(len(h.utterance.samples) for h in heard) / RATE
                streamed += last[-1].streamed
                early += last[-1].ended_early
        acted += [h.decision.command for h in ear.finish() if _acts(h.decision)]
        acted_right += acted == [expected]
    print(f"  {label} ({len(phrases)}):")
    if not latencies["cpu"]:
        print("    no utterance was detected")
        return
    for clock, note in (("cpu", "the listener's CPU time (as on a core of its own)"),
                        ("wall", "the wall clock (as loaded as the machine is now)")):
        values = sorted(latencies[clock])
        med, p90 = statistics.median(values), values[int(0.9 * (len(values) - 1))]
        print(f"    {note}: median {1000 * med:.0f} ms, 90th percentile {1000 * p90:.0f} ms "
              f"over {len(values)}   target <= 200 ms: {_verdict(med, 0.2, False)}")
    n = len(latencies["cpu"])
    print(f"        decoded while spoken: {streamed}/{n}; ended before the full "
          f"hangover as a finished command: {early}/{n}; the command acted on "
          f"(and nothing else) through the live stream: {_pct(acted_right, len(phrases))}")
    print(f"    CPU after the end of speech (end-of-speech wait and decision), per second of "
          f"utterance: {after_s / audio_s:.3f}")
    print(f"    listener CPU, per second of stream up to the decision: {busy_s / stream_s:.3f}")


class _WorkerClock:
    """The check worker (:class:`~companion.voice.recognisers.CheckWorker`)
    on the latency benchmark's CPU-time clock: a core of its own, its jobs
    one after another, each taking the CPU time the worker measured for it.
    The listener's wait for a job (which its own CPU time does not see) is
    the time from the wait to the job's end on this clock."""

    def __init__(self) -> None:
        self.cpu: dict[object, float] = {}
        self.queue: list[tuple[object, float]] = []  # (job, submitted at), in order
        self.ends: dict[object, float] = {}

    def _end(self, job: object) -> float:
        free = 0.0
        for key, submitted in self.queue:
            if key not in self.ends:
                self.ends[key] = max(submitted, free) + self.cpu.get(key, 0.0)
            free = self.ends[key]
            if key == job:
                return free
        return 0.0

    def block(self, began: float, cpu0: float, log: Sequence[tuple[str, object, float]]) -> float:
        """The events of one block fed to the listener, which began it at
        *began* on the clock with its process time at *cpu0*: the seconds it
        waited for the worker in it."""
        self.cpu.update((key, value) for kind, key, value in log if kind == "done")
        delay = 0.0
        for kind, key, value in log:
            at = began + (value - cpu0) + delay
            if kind == "submit":
                self.queue.append((key, at))
            elif kind == "wait":
                delay += max(0.0, self._end(key) - at)
        return delay


def bench_tts() -> None:
    from companion.voice.speaker import Speaker

    print("Time from an announcement to its first audio (pyttsx3 worker renders the WAV)")
    notices = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        speaker = Speaker(transcript=io.StringIO(), notices=notices, play=False,
                          speech_out=Path(tmp))
        for sentence in ("Red pops a six.", "Blue bumps Yellow home!", "Green's turn.",
                         "That move is not allowed: you cannot land on your own peg.",
                         "Yellow wins the game!", "Red pops a three.") * 2:
            speaker.say(sentence)
            speaker.wait_idle()
        speaker.close()
    if "unavailable" in notices.getvalue():
        print(f"  skipped: {notices.getvalue().strip()}")
        return
    lat = speaker.first_audio_latencies
    print(f"  first (cold worker start) {1000 * lat[0]:.0f} ms; warm median "
          f"{1000 * statistics.median(lat[1:]):.0f} ms, max {1000 * max(lat[1:]):.0f} ms")


def run(args: argparse.Namespace) -> int:
    from companion.voice.recognisers import PocketSphinxRecogniser

    sections = set(args.only or ("commands", "digits", "latency", "tts"))
    voices = VOICES[:2] if args.quick else VOICES
    recogniser = PocketSphinxRecogniser()
    recogniser.start_check_worker()  # as the live listener does (Listener.microphone)
    listener = Listener(recogniser=recogniser)
    print(f"Recogniser: {listener.recogniser.name}; voices: {', '.join(voices)}")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="companion-bench-voice-") as tmp, \
            contextlib.closing(recogniser):
        cache = Path(tmp)
        if "commands" in sections:
            # the table talk is spoken by the voices NOT used to tune the policy
            bench_commands(listener, voices, cache, talk_voices=voices[1:])
        if "digits" in sections:
            bench_digits(listener, step=5 if args.quick else 1,
                         digits_grammar_too=args.digits_grammar_too,
                         in_quiet=args.digits_in_quiet, live=args.digits_live)
            bench_enrollment_talk(listener, cache)
        if "latency" in sections:
            bench_latency(listener, cache)
    if "tts" in sections:
        bench_tts()
    print(f"(benchmark took {time.monotonic() - started:.0f} s)")
    return 0
