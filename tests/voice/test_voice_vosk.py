"""The Vosk path, without a Vosk model (none can be installed here): the
recogniser is restricted to the grammar's phrases plus [unk], and its
results are checked against the grammar."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.voice import grammar, recognisers
from companion.voice.grammar import Command, Context


class FakeKaldi:
    made: list[FakeKaldi] = []

    def __init__(self, model: Any, rate: int, phrases: str) -> None:
        self.rate, self.phrases = rate, json.loads(phrases)
        self.result = {"text": ""}
        FakeKaldi.made.append(self)

    def SetWords(self, on: bool) -> None:  # noqa: N802 (Vosk's name)
        pass

    def AcceptWaveform(self, pcm: bytes) -> bool:  # noqa: N802
        return True

    def FinalResult(self) -> str:  # noqa: N802
        return json.dumps(self.result)


@pytest.fixture
def fake_vosk(monkeypatch: pytest.MonkeyPatch) -> types.SimpleNamespace:
    module = types.SimpleNamespace(SetLogLevel=lambda level: None,
                                   Model=lambda path: ("model", path), KaldiRecognizer=FakeKaldi)
    monkeypatch.setitem(__import__("sys").modules, "vosk", module)
    FakeKaldi.made.clear()
    return module


def test_vosk_is_restricted_to_the_phrase_list_plus_unk(fake_vosk: Any, tmp_path: Path) -> None:
    rec = recognisers.VoskRecogniser(tmp_path)
    rec.decode(np.zeros(1600, np.float32), Context.LIVE)
    made = FakeKaldi.made[0]
    assert made.rate == 16000
    assert made.phrases == [*grammar.phrases(Context.LIVE), "[unk]"]


def test_vosk_results_become_hypotheses(fake_vosk: Any, tmp_path: Path) -> None:
    rec = recognisers.VoskRecogniser(tmp_path)
    rec.decode(np.zeros(1600, np.float32), Context.LIVE)
    kaldi = FakeKaldi.made[0]
    kaldi.result = {"text": "referee undo", "result": [{"word": "referee", "conf": 0.97},
                                                       {"word": "undo", "conf": 0.88}]}
    hyp = rec.decode(np.zeros(1600, np.float32), Context.LIVE)
    assert hyp.text == "referee undo" and hyp.confidence == pytest.approx(0.88)
    assert hyp.command(Context.LIVE) == Command("undo")
    kaldi.result = {"text": "referee [unk]", "result": [{"word": "referee", "conf": 1.0}]}
    assert rec.decode(np.zeros(1600, np.float32), Context.LIVE).text == ""


def test_the_model_is_found_in_models_then_the_environment(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import paths

    monkeypatch.setattr(paths, "MODELS_DIR", tmp_path / "models")
    monkeypatch.delenv("COMPANION_VOSK_MODEL", raising=False)
    assert recognisers.find_vosk_model() is None
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "conf").mkdir(parents=True)
    (elsewhere / "conf" / "model.conf").write_text("")
    monkeypatch.setenv("COMPANION_VOSK_MODEL", str(elsewhere))
    assert recognisers.find_vosk_model() == elsewhere
    local = tmp_path / "models" / recognisers.VOSK_MODEL_NAME / "am"
    local.mkdir(parents=True)
    (local / "final.mdl").write_text("")
    assert recognisers.find_vosk_model() == local.parent


def test_a_vosk_result_becomes_a_hypothesis_with_the_wake_words_length() -> None:
    from companion.voice.recognisers import hypothesis_from_vosk

    result = {"text": "referee undo", "result": [
        {"word": "referee", "start": 0.50, "end": 0.95, "conf": 0.9},
        {"word": "undo", "start": 0.95, "end": 1.40, "conf": 0.8}]}
    hyp = hypothesis_from_vosk(result, 200)
    assert hyp.text == "referee undo" and hyp.confidence == 0.8
    assert hyp.wake_s is not None and abs(hyp.wake_s - 0.45) < 1e-9
    assert hyp.wake_pause_s == 0.0  # "undo" starts where "referee" ends
    paused = hypothesis_from_vosk({"text": "referee undo", "result": [
        {"word": "referee", "start": 0.50, "end": 0.95, "conf": 0.9},
        {"word": "undo", "start": 1.15, "end": 1.60, "conf": 0.8}]}, 200)
    assert paused.wake_pause_s is not None and abs(paused.wake_pause_s - 0.20) < 1e-9
    assert hypothesis_from_vosk({"text": "stop", "result": [{"word": "stop", "conf": 1.0}]}, 50).wake_s is None
    assert hypothesis_from_vosk({"text": "[unk] undo"}, 50).text == ""


def test_a_broken_model_folder_is_named_not_a_traceback(
        fake_vosk: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion import paths
    from companion.cli import main
    from companion.errors import UserError

    def broken(path: str) -> None:
        raise Exception("Failed to create a model")  # what Vosk raises

    fake_vosk.Model = broken
    with pytest.raises(UserError, match=f"Vosk model in {tmp_path} cannot be loaded"):
        recognisers.VoskRecogniser(tmp_path)
    monkeypatch.setattr(paths, "MODELS_DIR", tmp_path / "models")
    monkeypatch.setenv("COMPANION_VOSK_MODEL", str(tmp_path / "not-a-model"))
    assert main(["listen", "--recogniser", "vosk", "--wav", str(tmp_path / "a.wav")]) == 2
    err = capsys.readouterr().err
    assert f"COMPANION_VOSK_MODEL={tmp_path / 'not-a-model'} is not a Vosk model folder" in err


def test_default_recogniser_says_when_the_vosk_model_it_was_pointed_at_is_not_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from companion import paths

    monkeypatch.setattr(paths, "MODELS_DIR", tmp_path / "models")
    monkeypatch.setenv("COMPANION_VOSK_MODEL", str(tmp_path / "not-a-model"))
    made: list[str] = []
    monkeypatch.setattr(recognisers, "PocketSphinxRecogniser", lambda: made.append("pocketsphinx") or "ps")
    assert recognisers.default_recogniser() == "ps"
    assert made == ["pocketsphinx"]
    assert "is not a Vosk model folder" in capsys.readouterr().err
    monkeypatch.delenv("COMPANION_VOSK_MODEL")
    recognisers.default_recogniser()
    assert capsys.readouterr().err == ""  # nothing asked for, nothing said
