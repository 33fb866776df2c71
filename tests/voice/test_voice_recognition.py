"""Real speech through the real recogniser, parser and policy: espeak-ng
voices (clean and noisy), a table-talk sample, and real human recordings.

Decoding is deterministic, so the thresholds below are set a few points
under the measured figures (docs/voice.md): low enough not to flake across
espeak-ng versions, high enough to catch a regression.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion import paths
from companion.voice.audio import RATE, add_noise, write_wav
from companion.voice.evalsets import COMMAND_SET, TABLE_TALK
from companion.voice.grammar import Command, Context
from companion.voice.listener import Listener, decode_in_context
from companion.voice.policy import Policy

pytestmark = pytest.mark.slow

SAMPLE = COMMAND_SET[::6]  # 8 phrasings of different intents


def _acted(recogniser, audio) -> Command | None:  # type: ignore[no-untyped-def]
    policy = Policy()
    context = policy.context(0.0)
    decision = policy.decide(recogniser.decode(audio, context), context, 0.0)
    return decision.command if decision.action in ("apply", "confirm") else None


@pytest.mark.parametrize(("voice", "speed"), [("en-us", 150), ("en-gb-scotland", 175)])
def test_spoken_commands_are_recognised(speech, recogniser, voice: str, speed: int) -> None:  # type: ignore[no-untyped-def]
    got = [_acted(recogniser, speech(text, voice, speed)) == cmd for text, cmd in SAMPLE]
    assert sum(got) >= len(SAMPLE) - 1, got  # measured: all 8


def test_spoken_commands_survive_noise(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    got = [recogniser.decode(add_noise(speech(text, "en-us", 160), 10.0, seed=i),
                             Context.LIVE).command(Context.LIVE) == cmd
           for i, (text, cmd) in enumerate(SAMPLE)]
    assert sum(got) >= len(SAMPLE) - 3, got


def test_table_talk_is_not_acted_on(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    acted = [(text, c) for text in TABLE_TALK[::6]
             if (c := _acted(recogniser, speech(text, "en-us", 160))) is not None]
    assert len(acted) <= 1, acted


def test_the_wake_word_said_takes_longer_than_one_forced_onto_table_talk(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    from companion.voice.policy import MIN_WAKE_S

    said = recogniser.decode(speech("Referee, undo.", "en-gb-scotland", 190), Context.LIVE)
    assert said.text == "referee undo" and said.wake_s is not None and said.wake_s >= MIN_WAKE_S + 0.1
    # Acted on as an undo by the live stream before the wake word's length was checked.
    forced = recogniser.decode(speech("It's raining again.", "en-gb-scotland", 170), Context.LIVE)
    assert forced.text.startswith("referee") and forced.wake_s is not None and forced.wake_s < MIN_WAKE_S
    assert recogniser.decode(speech("Stop.", "en-us", 160), Context.LIVE).wake_s is None


def test_the_pause_after_a_vocative_wake_word_is_measured(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    from companion.voice.policy import WAKE_PAUSE_S

    for voice in ("en-gb-x-rp", "en-us-nyc"):  # development voices
        paused = recogniser.decode(speech("Referee, whose turn is it?", voice, 170), Context.LIVE)
        run_on = recogniser.decode(speech("Referee whose turn is it?", voice, 170), Context.LIVE)
        assert paused.text == run_on.text == "referee whose turn is it"
        assert paused.wake_pause_s is not None and paused.wake_pause_s >= WAKE_PAUSE_S
        assert run_on.wake_pause_s is not None and run_on.wake_pause_s < WAKE_PAUSE_S
    assert recogniser.decode(speech("Stop.", "en-gb-x-rp", 170), Context.LIVE).wake_pause_s is None


def test_a_stream_with_a_split_command_is_heard_through_the_wake_word(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(0)

    def quiet(seconds: float) -> np.ndarray:
        return rng.normal(0, 3e-4, int(seconds * RATE)).astype(np.float32)

    stream = np.concatenate([quiet(0.8), speech("Referee.", "en-us", 160), quiet(0.8),
                             speech("Whose turn is it?", "en-us", 160), quiet(1.0),
                             speech("Referee, undo.", "en-us", 160), quiet(1.0)])
    ear = Listener(recogniser=recogniser)
    heard = []
    for i in range(0, len(stream), 800):
        heard += ear.feed(stream[i:i + 800])
    heard += ear.finish()
    # fragments the policy ignores do nothing; what happened is the rest
    actions = [(h.decision.action, h.decision.command) for h in heard
               if h.decision.action != "ignore"]
    assert actions[:2] == [("wake", None), ("apply", Command("whose-turn"))]
    # "Referee, undo." is heard whole, or split at the comma and joined by the wake word
    assert actions[2:] in ([("apply", Command("undo"))],
                           [("wake", None), ("apply", Command("undo"))])


def _quiet(seconds: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.normal(0, 1e-3, int(seconds * RATE)).astype(np.float32)


def _stream_through(ear: Listener, stream: np.ndarray, block: int = 800) -> list:  # type: ignore[type-arg]
    heard = []
    for i in range(0, len(stream), block):
        heard += ear.feed(stream[i:i + block])
    return heard + ear.finish()


def test_a_command_is_decoded_while_it_is_spoken(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    # the first word has no recent utterance to borrow a cepstral mean from
    # (it is buffered first, or decoded in one batch if short); the command
    # that follows is decoded as it arrives
    stream = np.concatenate([_quiet(0.8), speech("Stop.", "en-us", 160), _quiet(1.0, 1),
                             speech("Referee where are the pegs", "en-us", 160),
                             _quiet(1.0, 2)])
    heard = _stream_through(Listener(recogniser=recogniser), stream)
    assert [(h.decision.action, h.decision.command) for h in heard] == [
        ("apply", Command("stop")), ("apply", Command("status"))]
    assert heard[1].streamed


def test_a_listener_dropped_mid_utterance_does_not_break_the_next(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    command = speech("Referee whose turn is it", "en-us", 160)
    dropped = Listener(recogniser=recogniser)
    dropped.feed(np.concatenate([_quiet(0.8), command[: len(command) * 3 // 4]]))
    heard = _stream_through(Listener(recogniser=recogniser),
                            np.concatenate([_quiet(0.8, 3), command, _quiet(1.0, 4)]))
    assert [(h.decision.command, h.streamed) for h in heard] == [(Command("whose-turn"), True)]


def _real_digit_sample() -> list[tuple[Path, int]]:
    folder = paths.spoken_digits_dir() / "recordings"
    if not folder.is_dir():
        pytest.skip(f"real spoken digits absent ({folder})")
    files = []
    for digit in range(1, 7):
        for speaker in ("george", "jackson", "theo"):
            files += [(folder / f"{digit}_{speaker}_{take}.wav", digit) for take in (3, 31)]
    return files


def test_real_spoken_digits_as_pop_corrections(recogniser) -> None:  # type: ignore[no-untyped-def]
    from companion.voice.audio import read_wav
    from companion.voice.digit_model import DigitModel

    sample = _real_digit_sample()
    digits = DigitModel()
    alone = with_model = 0
    for f, d in sample:
        samples = read_wav(f).samples
        hyp = decode_in_context(recogniser, samples, Context.POP)
        alone += hyp.command(Context.POP) == Command("pop", value=d)
        with_model += (digits.check(samples, hyp, Context.POP).command(Context.POP)
                       == Command("pop", value=d))
    # measured on all 900: 86.9% alone, 90% with the digit model
    assert alone >= 0.75 * len(sample), f"{alone}/{len(sample)}"
    assert with_model >= alone, f"{with_model} vs {alone} of {len(sample)}"


def test_listen_command_prints_json_lines_and_fails_on_bad_files(
        speech, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    from companion.cli import main

    good = tmp_path / "pop.wav"
    write_wav(good, speech("The pop was five.", "en-us", 160))
    bare = tmp_path / "four.wav"
    write_wav(bare, speech("Four.", "en-us", 160), rate=RATE)
    talk = tmp_path / "talk.wav"
    write_wav(talk, np.zeros(RATE // 2, np.float32))
    junk = tmp_path / "junk.wav"
    junk.write_bytes(b"not a wav")
    code = main(["listen", "--wav", str(good), str(tmp_path / "missing.wav"), str(bare),
                 str(junk), str(talk)])
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [line["file"] for line in lines] == [str(good), str(bare), str(talk)]
    assert lines[0]["command"] == {"intent": "pop", "value": 5}
    assert lines[1]["command"] == {"intent": "pop", "value": 4}
    assert lines[2] == {"file": str(talk), "text": "", "command": None}
    assert "missing.wav: no such WAV file" in err and "junk.wav: not a readable WAV" in err


def test_listen_without_a_microphone_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    try:
        import sounddevice

        if sounddevice.query_devices():
            pytest.skip("this machine has audio devices")
    except OSError:
        pass
    assert main(["listen"]) == 2
    assert "no microphone" in capsys.readouterr().err


def _count_searches(monkeypatch: pytest.MonkeyPatch, recogniser) -> list[str]:  # type: ignore[no-untyped-def]
    searches: list[str] = []
    run = recogniser._run

    def counted(search: str, pcm: bytes):  # type: ignore[no-untyped-def]
        searches.append(search)
        return run(search, pcm)

    monkeypatch.setattr(recogniser, "_run", counted)
    return searches


def _streamed(recogniser, clip: np.ndarray, speculate_on: np.ndarray | None = None):  # type: ignore[no-untyped-def]
    stream = recogniser.start_stream(Context.LIVE)
    stream.feed(np.concatenate([clip, _quiet(0.2, 9)]))  # the hangover's quiet is fed too
    if speculate_on is not None:
        stream.speculate(speculate_on)
    return stream.finish(clip)


def test_rival_checks_run_in_the_pause_are_not_run_again(speech, recogniser, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from companion.voice.recognisers import PocketSphinxRecogniser

    clip = np.concatenate([_quiet(0.3, 5), speech("Referee, it was a two.", "en-us", 160),
                           _quiet(0.05, 6)])
    reference = _streamed(recogniser, clip)
    assert reference.number_margin is not None  # the number check ran
    fresh = PocketSphinxRecogniser()
    searches = _count_searches(monkeypatch, fresh)
    stream = fresh.start_stream(Context.LIVE)
    stream.feed(np.concatenate([clip, _quiet(0.2, 9)]))
    del searches[:]  # the cepstral mean's decode
    assert stream.speculate(clip) == reference.text
    done_in_the_pause = len(searches)
    assert done_in_the_pause >= 2
    assert stream.finish(clip) == reference  # the same figures ...
    assert len(searches) == done_in_the_pause  # ... and no search left at the end


def test_rival_checks_on_audio_that_went_on_are_not_used(speech, recogniser, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from companion.voice.recognisers import PocketSphinxRecogniser

    clip = np.concatenate([_quiet(0.3, 5), speech("Referee, pop six.", "en-us", 160),
                           _quiet(0.05, 6)])
    reference = _streamed(recogniser, clip)
    assert reference.number_margin is not None
    fresh = PocketSphinxRecogniser()
    searches = _count_searches(monkeypatch, fresh)
    stream = fresh.start_stream(Context.LIVE)
    stream.feed(np.concatenate([clip, _quiet(0.2, 9)]))
    del searches[:]  # the cepstral mean's decode
    # the speaker paused 0.3 s before the end, then spoke on: checks ran on a prefix
    stream.speculate(clip[: len(clip) - int(0.3 * RATE)])
    in_the_pause = list(searches)
    assert len(in_the_pause) >= 2
    assert stream.finish(clip) == reference
    assert sorted(searches[len(in_the_pause):]) == sorted(in_the_pause)  # all run again, on the whole utterance


def _noisy_pop(speech) -> np.ndarray:  # type: ignore[no-untyped-def]
    """A pop phrase at 10 dB SNR: both rival checks run (the intent check
    always does in noise)."""
    clip = np.concatenate([_quiet(0.3, 5), speech("Referee, it was a two.", "en-us", 160),
                           _quiet(0.05, 6)])
    return add_noise(clip, 10.0, seed=3)


def test_a_check_worker_gives_the_same_figures(speech, recogniser) -> None:  # type: ignore[no-untyped-def]

    clip = _noisy_pop(speech)
    reference = _streamed(recogniser, clip)  # every search in this process
    assert reference.number_margin is not None and reference.intent_margin is not None
    with _with_worker() as (fresh, worker):
        assert _streamed(fresh, clip, speculate_on=clip) == reference  # offloaded in the pause
        assert [kind for kind, _key, _v in worker.log].count("submit") == 1
        assert _streamed(fresh, clip) == reference  # offloaded at the end
        # a worker that died: every search runs here again, with the same result
        worker._process.kill()
        worker._process.join(5.0)
        assert _streamed(fresh, clip, speculate_on=clip) == reference


@contextlib.contextmanager
def _with_worker() -> Iterator[tuple[Any, Any]]:
    """A fresh recogniser with its check worker started and logging."""
    from companion.voice.recognisers import PocketSphinxRecogniser

    fresh = PocketSphinxRecogniser()
    fresh.start_check_worker()
    try:
        worker = fresh.check_worker
        assert worker is not None and worker.wait_ready(60.0)
        worker.log = []
        yield fresh, worker
    finally:
        fresh.close()


def test_a_finished_command_ends_early_one_that_may_go_on_waits(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    # "Stop." first, so that the commands are decoded from their first frame
    stream = np.concatenate([_quiet(0.8), speech("Stop.", "en-us", 160), _quiet(1.0, 1),
                             speech("Referee, where are the pegs?", "en-us", 160), _quiet(1.0, 2),
                             speech("Referee, undo.", "en-us", 160), _quiet(1.0, 3)])
    heard = _stream_through(Listener(recogniser=recogniser), stream)
    assert [(h.decision.command, h.ended_early) for h in heard if h.decision.command] == [
        (Command("stop"), False), (Command("status"), True), (Command("undo"), False)]


def test_the_answer_to_the_referees_question_is_heard_without_the_wake_word(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    # "Blue, was your pop a 4?" -> "No." / "Yes.": the loop tells the policy
    # it asked (VoiceCommands.note_expected), and a bare answer is heard.
    for word, intent in (("No.", "no"), ("Yes.", "yes")):
        ear = Listener(recogniser=recogniser)
        assert [h.decision.action for h in _stream_through(ear, np.concatenate(
            [_quiet(0.8), speech(word, "en-us", 160), _quiet(1.0, 1)]))
            if h.decision.action != "ignore"] == []  # not asked: table talk
        ear.policy.expect_answer(ear._stream_s)
        heard = _stream_through(ear, np.concatenate([_quiet(0.5, 2), speech(word, "en-gb", 160), _quiet(1.0, 3)]))
        assert [(h.decision.action, h.decision.command) for h in heard] == [("apply", Command(intent))]


def test_a_command_in_a_noisy_room_is_not_cut_at_its_comma(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    """At 10 dB SNR the comma after "Referee" looked longer than the 0.25 s
    hangover: the stream was cut in two, and "undo" alone, after "referee"
    alone, lost to a rival command (another command fits as well). The
    endpointer waits longer in a noisy room (NOISY_HANGOVER_S): one
    utterance, heard whole."""
    stream = np.concatenate([_quiet(1.0), speech("Referee, undo.", "en-us", 150), _quiet(1.0, 1)])
    heard = _stream_through(Listener(recogniser=recogniser), add_noise(stream, 10.0, seed=0))
    assert [(h.hypothesis.text, h.decision.action) for h in heard] == [("referee undo", "apply")]
    assert heard[0].latency_s >= 0.40  # the longer wait is counted in the latency


def test_a_final_stop_released_into_the_silence_is_not_outside_the_grammar(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    """Through the live stream the decoder gave the release of the /p/ of
    "Stop." to the silence after it (0.06 s, over the 0.05 s limit), and the
    command was ignored; the first WORD_TAIL_FRAMES after the last word are
    the word's own."""
    stream = np.concatenate([_quiet(1.0), speech("Stop.", "en-us", 150), _quiet(1.0, 1)])
    heard = _stream_through(Listener(recogniser=recogniser), stream)
    assert [(h.decision.action, h.decision.command) for h in heard] == [("apply", Command("stop"))]


def test_a_clip_decoded_again_is_remembered_not_searched_again(speech, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # the listener decodes a bare number's digits while the speaker pauses,
    # and again when the utterance ends as the same clip
    from companion.voice.recognisers import DECODES_KEPT, PocketSphinxRecogniser

    fresh = PocketSphinxRecogniser()
    searches = _count_searches(monkeypatch, fresh)
    five = np.concatenate([_quiet(0.3, 5), speech("Five.", "en-us", 160), _quiet(0.3, 6)])
    first = fresh.decode(five, Context.DIGITS)
    assert first.text == "five" and len(searches) >= 2  # the digits and the phone loop at least
    done = len(searches)
    assert fresh.decode(five.copy(), Context.DIGITS) == first and len(searches) == done
    # the phone loop of the same clip is shared by every search of it
    fresh.decode(five, Context.POP)
    assert "pop" in searches[done:] and "phones" not in searches[done:]
    # other audio is decoded afresh, and only the last few clips are kept
    for k in range(DECODES_KEPT):
        fresh.decode(np.concatenate([_quiet(0.1, 20 + k), five]), Context.DIGITS)
    done = len(searches)
    fresh.decode(five, Context.DIGITS)
    assert len(searches) > done


def test_the_check_worker_runs_the_phone_loop_too(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    from companion.voice.recognisers import PocketSphinxRecogniser

    five = np.concatenate([_quiet(0.3, 5), speech("Five.", "en-gb", 160), _quiet(0.3, 6)])
    reference = PocketSphinxRecogniser().decode(five, Context.DIGITS)  # every search here
    with _with_worker() as (fresh, worker):
        assert fresh.decode(five, Context.DIGITS) == reference
        assert [key[1] for kind, key, _v in worker.log if kind == "submit"] == ["phones"]


def test_a_pop_the_digits_answer_for_has_no_rival_checks_of_its_own(speech, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # a bare "three" while a pop is expected: its answer is the digits', so
    # the context's decode of it runs no rival checks (a whole-grammar search
    # when unsure); a pop phrase the digits do not replace keeps them, and
    # decode_in_context gives what it gave when every decode ran its checks
    from companion.voice.listener import decode_in_context
    from companion.voice.recognisers import PocketSphinxRecogniser

    fresh = PocketSphinxRecogniser()
    checked: list[Context] = []
    margin = fresh.intent_margin

    def counted(pcm: bytes, text: str, context: Context, confidence: float, snr_db: float):  # type: ignore[no-untyped-def]
        checked.append(context)
        return margin(pcm, text, context, confidence, snr_db)

    monkeypatch.setattr(fresh, "intent_margin", counted)
    three = np.concatenate([_quiet(0.3, 5), speech("Three.", "en-us", 160), _quiet(0.3, 6)])
    hyp = decode_in_context(fresh, three, Context.POP)
    assert hyp == PocketSphinxRecogniser().decode(three, Context.DIGITS) and hyp.text == "three"
    assert Context.POP not in checked
    # unchecked, then checked: the same as a decode alone
    phrase = np.concatenate([_quiet(0.3, 7), speech("Referee, it was a two.", "en-us", 160),
                             _quiet(0.3, 8)])
    bare = fresh.decode_unchecked(phrase, Context.POP)
    assert bare.intent_margin is None and bare.number_margin is None
    alone = PocketSphinxRecogniser().decode(phrase, Context.POP)
    assert fresh.decode(phrase, Context.POP) == alone and alone.number_margin is not None
    assert decode_in_context(fresh, phrase, Context.POP) == alone


def test_a_step_in_the_rooms_noise_is_not_taken_for_a_pop(speech, recogniser) -> None:  # type: ignore[no-untyped-def]
    # espeak-ng ends its sentences in near silence; the stream's hiss after it
    # is a step in the noise the endpointer takes for speech. With a pop
    # expected the POP grammar forced "two" onto that hiss, at 0.90 or more
    # (31 of the 42 table-talk sentences acted on in session 48's
    # measurement): it stands 1-2 dB over its own quiet frames, no voice.
    for text, voice in (("Pass me the crisps, please.", "en-gb"),
                        ("Can you pass the salt?", "en-gb")):
        ear = Listener(recogniser=recogniser)
        ear.policy.expect_pop(0.0)
        heard = _stream_through(ear, np.concatenate([_quiet(1.0, 5), speech(text, voice, 170),
                                                     _quiet(1.0, 6)]))
        assert [h.decision.command for h in heard if h.decision.action != "ignore"] == []
        assert any("not a voice" in h.decision.reason and h.hypothesis.text for h in heard)
