"""Voice enrollment: features, the template matcher, the fusion rule, the
profile file, ``companion enroll-voice`` and the listener's use of it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import Synth

from companion import paths
from companion.errors import UserError
from companion.voice import enroll
from companion.voice.audio import RATE, write_wav
from companion.voice.endpoint import Utterance
from companion.voice.grammar import Command, Context
from companion.voice.listener import Listener
from companion.voice.policy import UNSURE_NUMBER, Policy
from companion.voice.recognisers import Hypothesis

WORDS = ("one", "two", "three", "four", "five", "six")


@pytest.fixture(scope="module")
def en_us_profile(speech: Synth) -> enroll.Profile:
    return enroll.Profile.from_takes(
        "en-us", [(n, speech(w, "en-us", 160)) for n, w in enumerate(WORDS, 1)])


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(folder))
    return folder


# ---- features and matching ---------------------------------------------------

def test_features_trim_silence_and_refuse_no_speech(speech: Synth) -> None:
    word = speech("five")
    quiet = np.random.default_rng(0).normal(0, 1e-4, RATE // 2).astype(np.float32)
    padded = np.concatenate([quiet, word, quiet])
    a, b = enroll.features(word), enroll.features(padded)
    assert a.shape[1] == b.shape[1] == 24
    assert abs(len(a) - len(b)) <= 3  # the padding is trimmed away
    with pytest.raises(ValueError):
        enroll.features(np.zeros(RATE, dtype=np.float32))
    with pytest.raises(ValueError, match="say just the number"):
        enroll.check_take(np.concatenate([word] * 6))


def test_the_same_voice_at_other_speeds_is_matched(speech: Synth,
                                                  en_us_profile: enroll.Profile) -> None:
    matcher = enroll.Matcher([en_us_profile])
    for speed in (130, 200):
        for n, word in enumerate(WORDS, 1):
            m = matcher.match(speech(word, "en-us", speed))
            assert m is not None and m.number == n, (word, speed, m)
            assert m.margin > 0


def test_a_number_at_the_end_of_a_phrase_is_found(speech: Synth,
                                                  en_us_profile: enroll.Profile) -> None:
    matcher = enroll.Matcher([en_us_profile])
    for n in (2, 5, 6):
        m = matcher.match(speech(f"it's a {WORDS[n - 1]}", "en-us", 160), open_begin=True)
        assert m is not None and m.number == n


def test_dtw_of_a_template_with_itself_is_zero(speech: Synth) -> None:
    f = enroll.features(speech("three"))
    assert enroll.dtw_distance(f, f) == pytest.approx(0.0, abs=1e-3)
    assert enroll.dtw_distance(f, np.repeat(f, 3, axis=0)) < 0.2  # no slope limit
    assert enroll.dtw_distance(f, f[::-1]) > 1.0
    assert enroll.tail_distance(f, np.vstack([f[:20] + 3.0, f])) == pytest.approx(0.0, abs=1e-3)


# ---- fusion ------------------------------------------------------------------

def _match(number: int, margin: float, frames: int = 40) -> enroll.Match:
    return enroll.Match(number, 1.0, margin, {number: 1.0}, frames=frames, template_frames=40)


@pytest.mark.parametrize(("heard", "conf", "match", "acted", "vetoed"), [
    ("five", 0.85, _match(5, 0.01), 5, False),    # agree: stands
    ("five", 0.85, _match(6, 0.50), 6, False),    # disagree, matcher sure
    ("five", 0.85, _match(6, 0.01), None, True),  # disagree, neither sure
    ("it's a two", 0.85, _match(6, 0.50), 6, False),
])
def test_fusion_rule(heard: str, conf: float, match: enroll.Match, acted: int | None,
                     vetoed: bool) -> None:
    fused = enroll.fuse(Hypothesis(heard, conf), match, sure_margin=0.1, sure_confidence=0.99)
    cmd = fused.hypothesis.command(Context.POP)
    assert bool(fused.veto) == vetoed
    if vetoed:
        assert fused.hypothesis.confidence == 0.0 and "voice profile says six" in fused.veto
    else:
        assert cmd == Command("pop", value=acted)
        assert fused.hypothesis.confidence == conf  # the policy still judges the evidence


def test_fusion_keeps_a_sure_recogniser_and_leaves_other_commands_alone() -> None:
    fused = enroll.fuse(Hypothesis("five", 1.0), _match(6, 0.01), 0.1, 0.99)
    assert fused.hypothesis.text == "five" and not fused.veto
    undo = Hypothesis("referee undo", 0.95)
    assert enroll.fuse(undo, _match(6, 0.9)).hypothesis is undo
    assert enroll.fuse(Hypothesis("five", 0.9), None).hypothesis.text == "five"


def test_the_profile_explains_a_little_unexplained_sound_of_a_bare_number() -> None:
    # "six" heard as "one", its /s/ sounds aligned to silence: the sure
    # profile explains them
    fused = enroll.fuse(Hypothesis("one", 0.9, 0, 0.2), _match(6, 0.5), 0.1, 0.99)
    assert fused.hypothesis.text == "six" and fused.hypothesis.unexplained_s == 0.0
    # more sound than that, a long utterance, a phrase or an unsure matcher: kept
    for hyp, match in [(Hypothesis("one", 0.9, 0, 0.5), _match(6, 0.5)),
                       (Hypothesis("one", 0.9, 0, 0.2), _match(6, 0.5, frames=100)),
                       (Hypothesis("it's a one", 0.9, 0, 0.2), _match(6, 0.5)),
                       (Hypothesis("one", 0.9, 0, 0.2), _match(1, 0.01))]:
        assert enroll.fuse(hyp, match, 0.1, 0.99).hypothesis.unexplained_s == hyp.unexplained_s



@pytest.mark.parametrize("profile_says", [4, 1])
def test_a_sure_profile_lets_no_unsure_phrase_through(profile_says: int) -> None:
    # Table talk forced onto "that was a four" (en-gb-scotland's "Who is
    # winning?"), whose number another number fits as well: asked back
    # without a profile. A profile sure of a number found at its end (the
    # same, or another) changes which number, never the evidence that it is
    # a command: it is asked back still, never acted on.
    talk = Hypothesis("that was a four", 0.913, 64, 0.0, number_margin=0.98, snr_db=30.0)
    fused = enroll.fuse(talk, _match(profile_says, 0.5), 0.1, 0.99).hypothesis
    assert fused.text == f"that was a {WORDS[profile_says - 1]}"
    assert fused.number_margin == talk.number_margin and fused.snr_db == talk.snr_db
    for hyp in (talk, fused):
        policy = Policy()
        policy.expect_pop(0.0)
        decision = policy.decide(hyp, Context.POP, 0.0)
        assert decision.action == "confirm" and decision.reason.startswith(UNSURE_NUMBER)

def test_a_word_heard_as_a_phrase_is_the_profiles_bare_number(
        speech: Synth, en_us_profile: enroll.Profile) -> None:
    # george's "six" heard as "it was a two": one word's length, six at its
    # end and as a whole: the bare number, without the phrase's number check
    matcher = enroll.Matcher([en_us_profile])
    heard = Hypothesis("it was a two", 0.88, 60, 0.0, number_margin=0.97, snr_db=40.0)
    fused = enroll.second_opinion(matcher, speech("six", "en-us", 140), heard, Context.POP)
    assert fused.hypothesis.text == "six" and fused.hypothesis.number_margin is None
    # a sentence forced onto the same phrase stays a phrase, checks and all
    talk = speech("Could you pass me the crisps, please?", "en-us", 170)
    fused = enroll.second_opinion(matcher, talk, heard, Context.POP)
    assert fused.hypothesis.text.startswith("it was a ")
    assert fused.hypothesis.number_margin == heard.number_margin


# ---- the profile file --------------------------------------------------------

def test_profile_round_trip(en_us_profile: enroll.Profile, data_dir: Path) -> None:
    path = enroll.profile_path("anna")
    assert path == data_dir / "voices" / "anna.json" and path.parent == enroll.profiles_dir()
    enroll.save_profile(en_us_profile, path)
    back = enroll.load_profile(path)
    assert back.name == "en-us" and set(back.templates) == set(range(1, 7))
    for n in range(1, 7):
        np.testing.assert_allclose(back.templates[n][0], en_us_profile.templates[n][0],
                                   atol=1e-4)
    matcher = enroll.load_user_matcher()
    assert matcher is not None and len(matcher.profiles) == 1
    assert [p.name for p in matcher.profiles] == ["en-us"]


def test_missing_and_corrupt_profiles_are_clear_errors(en_us_profile: enroll.Profile,
                                                       data_dir: Path) -> None:
    assert enroll.load_user_matcher() is None  # nobody enrolled: no folder
    path = enroll.profile_path("bob")
    with pytest.raises(UserError, match="bob.json: no such voice profile"):
        enroll.load_profile(path)
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    with pytest.raises(UserError, match=r"bob\.json: corrupt voice profile \(not JSON"):
        enroll.load_profile(path)
    with pytest.raises(UserError, match="bob.json"):
        enroll.load_user_matcher()
    good = en_us_profile.to_json()
    for broken, why in [
        ({**good, "features": "old"}, "enroll again"),
        ({**good, "profile_version": 9}, "unknown profile version"),
        ({**good, "templates": {"1": [[[0.0] * 24] * 5]}}, "no template of two"),
        ({**good, "templates": {**good["templates"], "3": [[[0.0] * 7] * 5]}},  # type: ignore[dict-item]
         "wrong shape"),
        ({**good, "templates": {**good["templates"], "4": [["x"]]}},  # type: ignore[dict-item]
         "not a table of numbers"),
        ([1, 2], "not a JSON object"),
    ]:
        path.write_text(json.dumps(broken))
        with pytest.raises(UserError, match=why):
            enroll.load_profile(path)
    with pytest.raises(UserError, match="bad profile name"):
        enroll.profile_path("../evil")


def test_a_profile_that_cannot_be_written_is_a_clear_error(en_us_profile: enroll.Profile,
                                                          tmp_path: Path) -> None:
    blocker = tmp_path / "data-file"
    blocker.write_text("a file where the data folder should be")
    with pytest.raises(UserError, match="cannot save the voice profile in"):
        enroll.save_profile(en_us_profile, blocker / "voices" / "anna.json")
    folder = tmp_path / "voices" / "anna.json"
    folder.mkdir(parents=True)
    with pytest.raises(UserError, match="anna.json is a folder, not a voice profile"):
        enroll.load_profile(folder)
    with pytest.raises(UserError, match="cannot save the voice profile as .*anna.json"):
        enroll.save_profile(en_us_profile, folder)
    assert folder.is_dir() and not list(folder.parent.glob(".voice-*"))


# ---- companion enroll-voice --------------------------------------------------

def _wavs(speech: Synth, folder: Path, names: list[str]) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in names:
        word = next(w for w in WORDS if w in name)
        path = folder / f"{name}.wav"
        write_wav(path, speech(word, "en-gb", 150))
        out.append(str(path))
    return out


def test_enroll_voice_from_files(speech: Synth, tmp_path: Path, data_dir: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    files = _wavs(speech, tmp_path / "takes", [f"anna-{w}" for w in WORDS])
    assert main(["enroll-voice", "--name", "anna", "--wav", *files]) == 0
    out = capsys.readouterr().out
    assert "saved voice profile 'anna'" in out and "six x1" in out
    assert "takes heard otherwise by PocketSphinx" in out
    profile = enroll.load_profile(data_dir / "voices" / "anna.json")
    assert all(len(profile.templates[n]) == 1 for n in range(1, 7))
    # --numbers labels files by order, whatever their names
    plain = _wavs(speech, tmp_path / "plain", [f"x{i}-{w}" for i, w in enumerate(WORDS)])
    renamed = []
    for i, f in enumerate(plain):
        target = Path(f).with_name(f"take{i}.wav")
        Path(f).rename(target)
        renamed.append(str(target))
    assert main(["enroll-voice", "--name", "anna", "--numbers", "1,2,3,4,5,6", "--no-check",
                 "--wav", *renamed]) == 0
    assert "replaced voice profile 'anna'" in capsys.readouterr().out


def test_enroll_voice_bad_input(speech: Synth, tmp_path: Path, data_dir: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    files = _wavs(speech, tmp_path, [f"bo-{w}" for w in WORDS])

    def fails(*argv: str) -> str:
        assert main(["enroll-voice", *argv]) == 2
        return capsys.readouterr().err

    assert "no take of six" in fails("--wav", *files[:5])
    assert "--numbers gives 2 numbers for 6 WAV files" in fails("--numbers", "1,2",
                                                                "--wav", *files)
    assert "'7' is not a number from 1 to 6" in fails("--numbers", "1,2,3,4,5,7",
                                                      "--wav", *files)
    odd = tmp_path / "hello.wav"
    write_wav(odd, speech("five"))
    assert "cannot tell which number is said in" in fails("--wav", *files, str(odd))
    assert "missing-one.wav: no such WAV file" in fails("--wav", *files,
                                                        str(tmp_path / "missing-one.wav"))
    silent = tmp_path / "silent-two.wav"
    write_wav(silent, np.zeros(RATE, dtype=np.float32))
    assert "silent-two.wav: no audible speech" in fails("--wav", *files, str(silent))
    assert "bad profile name" in fails("--name", "a/b", "--wav", *files)
    assert "give the files too" in fails("--numbers", "1")
    assert not (data_dir / "voices" / "player.json").exists()
    # a corrupt profile of that name is reported, not overwritten
    corrupt = data_dir / "voices" / "player.json"
    corrupt.parent.mkdir(parents=True)
    corrupt.write_text("garbage")
    assert "player.json: corrupt voice profile" in fails("--wav", *files)
    assert corrupt.read_text() == "garbage"
    assert main(["enroll-voice", "--replace", "--no-check", "--wav", *files]) == 0
    assert enroll.load_profile(corrupt).name == "player"


def test_enroll_voice_without_a_microphone_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    try:
        import sounddevice

        if sounddevice.query_devices():
            pytest.skip("this machine has audio devices")
    except OSError:
        pass
    assert main(["enroll-voice", "--name", "mic"]) == 2
    assert "no microphone" in capsys.readouterr().err
    assert not enroll.profile_path("mic").exists()


class _FakeMicrophone:
    """Stands in for the sound card: plays *audio* in 50 ms blocks, then hiss."""

    def __init__(self, audio: np.ndarray) -> None:
        self.audio, self.pos = audio, 0
        self.rng = np.random.default_rng(1)

    def __enter__(self) -> _FakeMicrophone:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def get(self, timeout: float = 0.0) -> np.ndarray:
        block = self.audio[self.pos:self.pos + RATE // 20]
        self.pos += RATE // 20
        if len(block) < RATE // 20:
            block = self.rng.normal(0, 1e-3, RATE // 20).astype(np.float32)
        return block

    def empty(self) -> bool:
        return True


def test_enroll_voice_on_the_microphone_prompts_for_each_number(
        speech: Synth, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    from companion.voice import listener

    rng = np.random.default_rng(0)
    parts = []
    for word in WORDS:
        parts += [rng.normal(0, 1e-3, RATE // 2).astype(np.float32), speech(word, "en-gb", 150),
                  rng.normal(0, 1e-3, int(0.6 * RATE)).astype(np.float32)]
    monkeypatch.setattr(listener, "open_microphone",
                        lambda block_s=0.05: _FakeMicrophone(np.concatenate(parts)))
    assert main(["enroll-voice", "--name", "mic", "--takes", "1", "--no-check"]) == 0
    captured = capsys.readouterr()
    assert [line for line in captured.err.splitlines() if line.startswith("Say ")] \
        == [f"Say {w}" for w in WORDS]
    profile = enroll.load_profile(data_dir / "voices" / "mic.json")
    matcher = enroll.Matcher([profile])
    for n, word in enumerate(WORDS, 1):
        m = matcher.match(speech(word, "en-gb", 180))
        assert m is not None and m.number == n


# ---- the listener ------------------------------------------------------------

class _Hears:
    """A recogniser that always hears the same thing."""

    name = "fake"

    def __init__(self, text: str, confidence: float) -> None:
        self.hyp = Hypothesis(text, confidence)

    def decode(self, samples: object, context: Context) -> Hypothesis:
        return self.hyp


def _hear(listener: Listener, samples: np.ndarray, pop: bool = True) -> tuple[str, object]:
    if pop:
        listener.policy.expect_pop(0.0)
    heard = listener.hear(Utterance(samples.astype(np.float32), 0.0, 1.0), now=1.0)
    return heard.decision.action, heard.decision.command


def test_listener_fuses_pops_only_with_a_profile(speech: Synth,
                                                 en_us_profile: enroll.Profile) -> None:
    six = speech("six", "en-us", 190)
    matcher = enroll.Matcher([en_us_profile])
    # PocketSphinx hears "two": without a profile it is acted on, as before
    assert _hear(Listener(_Hears("two", 0.9)), six) == ("apply", Command("pop", value=2))
    # with the profile, the sure matcher's six is acted on
    assert _hear(Listener(_Hears("two", 0.9), voices=matcher), six) \
        == ("apply", Command("pop", value=6))
    # outside the POP context nothing changes
    assert _hear(Listener(_Hears("referee undo", 0.9), voices=matcher), six, pop=False) \
        == ("apply", Command("undo"))


def test_listener_asks_again_when_neither_is_sure(speech: Synth,
                                                  en_us_profile: enroll.Profile,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(enroll, "SURE_MARGIN", 1e9)  # the matcher is never sure
    listener = Listener(_Hears("two", 0.9), voices=enroll.Matcher([en_us_profile]))
    listener.policy.expect_pop(0.0)
    heard = listener.hear(Utterance(speech("six", "en-us", 190), 0.0, 1.0), now=1.0)
    assert heard.decision.action == "ignore"
    assert "voice profile says six" in heard.decision.reason
    assert listener.policy.context(1.5) is Context.POP  # still expecting the pop


# ---- real recordings ---------------------------------------------------------

def test_real_digits_with_enrollment() -> None:
    """Enroll george (the speaker PocketSphinx hears worst) with takes 0 and
    1; match takes 30-33 of every number (24 clips, bare template matching)."""
    from companion.voice.audio import read_wav

    folder = paths.spoken_digits_dir() / "recordings"
    if not folder.is_dir():
        pytest.skip(f"real recordings absent ({folder})")
    profile = enroll.Profile.from_takes("george", [
        (n, read_wav(folder / f"{n}_george_{t}.wav").samples)
        for n in range(1, 7) for t in (0, 1)])
    matcher = enroll.Matcher([profile])
    right = 0
    for n in range(1, 7):
        for take in range(30, 34):
            m = matcher.match(read_wav(folder / f"{n}_george_{take}.wav").samples)
            right += m is not None and m.number == n
    assert right >= 20  # 24 clips; PocketSphinx alone gets about 81% of george's
