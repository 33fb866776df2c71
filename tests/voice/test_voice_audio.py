"""WAV reading of every common format, and band-limited resampling."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from companion.errors import UserError
from companion.voice.audio import RATE, read_wav, resample


def _sine(rate: int, f: float, seconds: float = 0.5) -> np.ndarray:
    return np.sin(2 * np.pi * f * np.arange(int(rate * seconds)) / rate)


@pytest.mark.parametrize("rate_in", [8000, 11025, 22050, 44100, 48000])
def test_resampling_keeps_a_tone_and_removes_what_cannot_be_represented(rate_in: int) -> None:
    x = 0.5 * _sine(rate_in, 440.0)
    if rate_in > RATE:
        x = x + 0.5 * _sine(rate_in, 0.45 * rate_in)  # above 8 kHz: must vanish
    y = resample(x, rate_in, RATE)
    assert len(y) == int(len(x) * RATE / rate_in)
    ref = 0.5 * _sine(RATE, 440.0)[: len(y)]
    assert np.max(np.abs(y[400:-400] - ref[400:-400])) < 2e-3


def test_halving_the_rate_for_the_digit_model_keeps_a_tone_and_removes_what_cannot_be_represented() -> None:
    # 16 kHz to 8 kHz takes resample's whole-number decimation path
    x = 0.5 * _sine(RATE, 440.0) + 0.5 * _sine(RATE, 6000.0)
    y = resample(x, RATE, 8000)
    assert len(y) == len(x) // 2
    ref = 0.5 * _sine(8000, 440.0)[: len(y)]
    assert np.max(np.abs(y[200:-200] - ref[200:-200])) < 2e-3


def _write(path: Path, payload: bytes, rate: int, channels: int, bits: int,
           tag: int = 1, extensible: bool = False) -> Path:
    block = channels * bits // 8
    if extensible:
        fmt = struct.pack("<HHIIHHHHIH14s", 0xFFFE, channels, rate, rate * block, block, bits,
                          22, bits, 0, tag, b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71")
    else:
        fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(payload)) + payload
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return path


@pytest.mark.parametrize("kind", ["u8", "s16", "s24", "s32", "f32", "s16-stereo",
                                  "s24-extensible"])
def test_reads_every_common_wav_format(kind: str, tmp_path: Path) -> None:
    x = 0.5 * _sine(RATE, 440.0)
    rate, channels, tag, ext = RATE, 1, 1, kind.endswith("extensible")
    if kind == "u8":
        payload, bits = np.round(x * 127 + 128).astype(np.uint8).tobytes(), 8
    elif kind.startswith("s16"):
        s = np.round(x * 32767).astype("<i2")
        if kind.endswith("stereo"):
            s, channels = np.repeat(s, 2), 2
        payload, bits = s.tobytes(), 16
    elif kind.startswith("s24"):
        v = np.round(x * (2**23 - 1)).astype("<i4")
        payload, bits = b"".join(int(i).to_bytes(3, "little", signed=True) for i in v), 24
    elif kind == "s32":
        payload, bits = np.round(x * (2**31 - 1)).astype("<i4").tobytes(), 32
    else:
        payload, bits, tag = x.astype("<f4").tobytes(), 32, 3
    path = _write(tmp_path / "a.wav", payload, rate, channels, bits, tag, ext)
    y = read_wav(path).samples
    assert len(y) == len(x)
    assert np.max(np.abs(y - x)) < (0.01 if bits == 8 else 1e-3)


def test_bad_files_name_the_problem(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such WAV file"):
        read_wav(tmp_path / "missing.wav")
    junk = tmp_path / "junk.wav"
    junk.write_bytes(b"hello")
    with pytest.raises(UserError, match="junk.wav: not a readable WAV"):
        read_wav(junk)
    alaw = _write(tmp_path / "alaw.wav", b"\x00" * 100, 8000, 1, 8, tag=6)
    with pytest.raises(UserError, match="unsupported encoding"):
        read_wav(alaw)


def test_band_folding_fills_only_the_empty_band() -> None:
    from companion.voice.audio import fold_band

    rng = np.random.default_rng(0)
    narrow = resample(rng.normal(0, 0.1, 8000), 8000, RATE)
    folded = fold_band(narrow, 4000.0)
    spec_a, spec_b = np.abs(np.fft.rfft(narrow)), np.abs(np.fft.rfft(folded))
    half = len(spec_a) // 2
    assert np.allclose(spec_a[: half - 50], spec_b[: half - 50], atol=1e-3)
    assert spec_b[half + 100:].mean() > 0.5 * spec_a[: half - 100].mean()
    assert spec_a[half + 100:].mean() < 0.05 * spec_a[: half - 100].mean()



def test_a_cut_or_empty_wav_is_read_to_the_cut_or_named(tmp_path: Path) -> None:
    # A copy cut in the middle of a 16-bit sample: what came before the cut
    # is still the recording (it used to be a numpy traceback).
    x = 0.5 * _sine(RATE, 440.0, 0.1)
    payload = np.round(x * 32767).astype("<i2").tobytes()
    cut = _write(tmp_path / "cut.wav", payload[:-1], RATE, 1, 16)
    assert len(read_wav(cut).samples) == len(x) - 1
    empty = _write(tmp_path / "empty.wav", b"", RATE, 1, 16)
    with pytest.raises(UserError, match="empty.wav: the WAV file holds no audio"):
        read_wav(empty)
    (tmp_path / "folder.wav").mkdir()
    with pytest.raises(UserError, match="folder.wav is a folder, not a WAV file"):
        read_wav(tmp_path / "folder.wav")


def test_listen_prints_the_good_files_around_a_cut_one(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    tone = np.round(0.3 * _sine(RATE, 440.0, 0.3) * 32767).astype("<i2").tobytes()
    good = _write(tmp_path / "good.wav", tone, RATE, 1, 16)
    cut = _write(tmp_path / "cut.wav", tone[:-1], RATE, 1, 16)
    empty = _write(tmp_path / "empty.wav", b"", RATE, 1, 16)
    code = main(["listen", "--recogniser", "pocketsphinx", "--wav", str(cut), str(empty), str(good)])
    out, err = capsys.readouterr()
    assert code == 1
    assert [json.loads(line)["file"] for line in out.splitlines()] == [str(cut), str(good)]
    assert "empty.wav: the WAV file holds no audio" in err and "Traceback" not in err


def test_doctests() -> None:
    import doctest

    from companion.voice import audio

    assert doctest.testmod(audio).failed == 0


def test_room_tone_goes_on_at_the_recordings_own_level() -> None:
    from companion.voice.audio import room_tone

    rng = np.random.default_rng(3)
    word = np.sin(2 * np.pi * 300 * np.arange(8000) / RATE) * 0.3
    for level in (1e-3, 1e-2):
        clip = np.concatenate([rng.normal(0, level, 4000), word, rng.normal(0, level, 4000)])
        tone = room_tone(clip.astype(np.float32), 1.0, seed=1)
        assert len(tone) == RATE and tone.dtype == np.float32
        assert 0.7 * level < float(np.sqrt(np.mean(tone ** 2))) < 1.1 * level
        assert np.array_equal(tone, room_tone(clip.astype(np.float32), 1.0, seed=1))
    assert len(room_tone(np.zeros(100, np.float32), 0.5)) == 8000  # too short to measure: silence
