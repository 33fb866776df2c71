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
import io
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from companion import paths
from companion.voice.audio import RATE, add_noise, read_wav
from companion.voice.evalsets import COMMAND_SET, TABLE_TALK
from companion.voice.grammar import Command, Context
from companion.voice.listener import Listener, decode_in_context
from companion.voice.policy import MAX_UNEXPLAINED_S, WOKEN_THRESHOLD, Policy
from companion.voice.recognisers import Hypothesis
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


def _pct(ok: int, n: int) -> str:
    return f"{100.0 * ok / n:5.1f}% ({ok}/{n})" if n else "n/a"


def _verdict(value: float, target: float, higher_is_better: bool = True) -> str:
    met = value >= target if higher_is_better else value <= target
    return "met" if met else "MISSED"


#: Policy settings swept in the report: (woken threshold, unexplained seconds).
SWEEP = ((0.75, 0.05), (0.80, 0.05), (0.80, 0.15), (0.85, 0.05), (0.85, 0.15), (0.80, 0.30))


def _acted(hyp: Hypothesis, policy: Policy) -> Command | None:
    context = policy.context(0.0)
    decision = policy.decide(hyp, context, 0.0)
    return decision.command if decision.action in ("apply", "confirm") else None


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
        print(f"      recognised right (before the policy) {_pct(recognised, len(rows))}; "
              f"wrong command acted on {_pct(wrong, len(rows))}")
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
                   snr: float | None = None) -> list[Command]:
    """Play one phrase as a live stream (1 s of faint hiss either side, white
    noise over all of it at *snr*) through a fresh Listener sharing the
    recogniser; the commands it acted on (applied or asked to confirm)."""
    rng = np.random.default_rng(seed)
    hiss = [rng.normal(0, 1e-3, RATE).astype(np.float32) for _ in range(2)]
    stream = np.concatenate([hiss[0], audio, hiss[1]]).astype(np.float32)
    if snr is not None:
        stream = add_noise(stream, snr, seed=seed)
    ear = Listener(recogniser=listener.recogniser)
    heard = []
    for start in range(0, len(stream), STREAM_BLOCK):
        heard += ear.feed(stream[start:start + STREAM_BLOCK])
    heard += ear.finish()
    return [h.decision.command for h in heard
            if h.decision.command is not None and h.decision.action in ("apply", "confirm")]


def bench_streamed(listener: Listener, voices: tuple[str, ...], cache: Path,
                   talk_voices: tuple[str, ...]) -> None:
    print("Through the live stream (each phrase played as a stream through the listener: "
          "endpointer, decoding while spoken, policy with its wake window)")
    prepare = getattr(listener.recogniser, "prepare_streaming", None)
    if prepare is not None:
        prepare()
    for label, snr in (("clean", None), ("10 dB SNR", 10.0)):
        right = wrong = n = 0
        misses: Counter[str] = Counter()
        for vi, voice in enumerate(voices):
            for pi, (text, expected) in enumerate(COMMAND_SET):
                audio = synthesise(text, voice=voice, speed=150 + 15 * (vi % 3), cache_dir=cache)
                acted = hear_as_stream(listener, audio, 1000 * vi + pi, snr)
                n += 1
                right += acted == [expected]
                wrong += any(a != expected for a in acted)
                if acted != [expected]:
                    misses[f"{text!r} -> {[a.as_dict() for a in acted]}"] += 1
        target = 97.0 if label == "clean" else 93.0
        print(f"  {label:10s} {_pct(right, n)}   target >= {target:.0f}%: "
              f"{_verdict(100.0 * right / n, target)}")
        print(f"      a wrong command acted on {_pct(wrong, n)}")
        for miss, count in misses.most_common(3):
            print(f"      miss x{count}: {miss}")
    acted_talk = []
    n = 0
    for vi, voice in enumerate(talk_voices):
        for ti, text in enumerate(TABLE_TALK):
            audio = synthesise(text, voice=voice, speed=150 + 20 * vi, cache_dir=cache)
            acted = hear_as_stream(listener, audio, 5000 + 1000 * vi + ti)
            n += 1
            if acted:
                acted_talk.append(f"{text!r} -> {[a.as_dict() for a in acted]}")
    rate = 100.0 * len(acted_talk) / n
    print(f"  table talk acted on: {rate:.2f} per 100 utterances ({len(acted_talk)}/{n})   "
          f"target <= 1: {_verdict(rate, 1.0, higher_is_better=False)}")
    for line in acted_talk[:6]:
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


def bench_digits(listener: Listener, step: int, digits_grammar_too: bool = False) -> None:
    folder = paths.spoken_digits_dir()
    if not (folder / "recordings").is_dir():
        print(f"Real digits: skipped: folder absent ({folder})")
        return
    files = _digit_files(step)
    print(f"Real spoken digits one to six ({len(files)} clips, 3 speakers, 8 kHz)")
    clips = [(read_wav(f).samples, d, s) for f, d, s in files]
    contexts = [(Context.POP, "as a pop correction (POP + digits 2nd opinion)"),
                (Context.ANY, "everything allowed (listen --wav)")]
    if digits_grammar_too:
        contexts.insert(1, (Context.DIGITS, "digits-only grammar"))
    for context, note in contexts:
        ok = accepted = wrong_calls = 0
        per: dict[str, list[int]] = {}
        confusions: Counter[str] = Counter()
        for samples, digit, speaker in clips:
            if context is Context.ANY:
                _hyp, cmd = listener.recognise(samples)
            else:
                hyp = decode_in_context(listener.recogniser, samples, context)
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
        target = f"  target >= 97%: {_verdict(acc, 97.0)}" if context is Context.POP else ""
        print(f"  {note:36s} {_pct(ok, len(clips))}{target}")
        print(f"      by speaker: {speakers}")
        if context is not Context.ANY:
            print(f"      through the live policy: correct and acted on {_pct(accepted, len(clips))}"
                  f", wrong number acted on {_pct(wrong_calls, len(clips))}, rest ignored")
        top = ", ".join(f"{k} x{v}" for k, v in confusions.most_common(4))
        if top:
            print(f"      top confusions: {top}")


def bench_latency(listener: Listener, cache: Path) -> None:
    print("Latency from end of speech to command (stream in 50 ms blocks, endpointer + decode "
          "while speaking)")
    recogniser = listener.recogniser
    prepare = getattr(recogniser, "prepare_streaming", None)
    if prepare is not None:
        prepare()  # the live decoders load once, before the first utterance
    latencies: list[float] = []
    decode_s = audio_s = 0.0
    streamed = acted_right = 0
    rng = np.random.default_rng(7)
    commands = COMMAND_SET[:24]
    for i, (text, expected) in enumerate(commands):
        speech = synthesise(text, voice=VOICES[i % len(VOICES)], cache_dir=cache)
        loud = np.nonzero(np.abs(speech) > 0.02 * np.abs(speech).max())[0]
        pad = rng.normal(0, 3e-4, RATE).astype(np.float32)
        stream = np.concatenate([pad, speech, pad, pad]).astype(np.float32)
        true_end = (len(pad) + loud[-1]) / RATE
        ear = Listener(recogniser=recogniser)
        block = STREAM_BLOCK
        acted: list[Command | None] = []
        measured = False
        for start in range(0, len(stream), block):
            t0 = time.perf_counter()
            heard = ear.feed(stream[start:start + block])
            spent = time.perf_counter() - t0
            acted += [h.decision.command for h in heard
                      if h.decision.action in ("apply", "confirm")]
            # a comma pause may split "Referee, undo." in two: the command
            # is the utterance that holds the end of the speech
            last = [h for h in heard if h.utterance.end_s >= true_end - 0.1]
            if last and not measured:
                measured = True
                fed_until = (start + block) / RATE
                # the audio clock at detection, plus the time decoding took
                latencies.append(fed_until - true_end + spent)
                decode_s += spent
                audio_s += sum(len(h.utterance.samples) for h in heard) / RATE
                streamed += last[-1].streamed
        acted += [h.decision.command for h in ear.finish()
                  if h.decision.action in ("apply", "confirm")]
        acted_right += acted == [expected]
    if not latencies:
        print("  no utterance was detected")
        return
    med = statistics.median(latencies)
    p90 = sorted(latencies)[int(0.9 * (len(latencies) - 1))]
    print(f"  median {1000 * med:.0f} ms, 90th percentile {1000 * p90:.0f} ms "
          f"over {len(latencies)} commands   target <= 200 ms: {_verdict(med, 0.2, False)}")
    print(f"      decoded while spoken: {streamed}/{len(latencies)}; the command acted on "
          f"(and nothing else) through the live stream: {_pct(acted_right, len(commands))}")
    print(f"  work left at the end of speech, per second of utterance: {decode_s / audio_s:.3f}")


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
    listener = Listener(recogniser=PocketSphinxRecogniser())
    print(f"Recogniser: {listener.recogniser.name}; voices: {', '.join(voices)}")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="companion-bench-voice-") as tmp:
        cache = Path(tmp)
        if "commands" in sections:
            # the table talk is spoken by the voices NOT used to tune the policy
            bench_commands(listener, voices, cache, talk_voices=voices[1:])
        if "digits" in sections:
            bench_digits(listener, step=5 if args.quick else 1,
                         digits_grammar_too=args.digits_grammar_too)
        if "latency" in sections:
            bench_latency(listener, cache)
    if "tts" in sections:
        bench_tts()
    print(f"(benchmark took {time.monotonic() - started:.0f} s)")
    return 0
