"""Endpointing on signals whose speech boundaries are known exactly."""

from __future__ import annotations

import numpy as np

from companion.voice.audio import RATE
from companion.voice.endpoint import Endpointer


def _tone(seconds: float, amp: float = 0.3, f: float = 300.0) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    return (amp * np.sin(2 * np.pi * f * t) * (1 + 0.3 * np.sin(2 * np.pi * 4 * t))).astype(np.float32)


def _noise(seconds: float, level: float = 1e-3, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, level, int(seconds * RATE)).astype(np.float32)


def _run(stream: np.ndarray, block: int = 800, **kw: float):  # type: ignore[no-untyped-def]
    ep = Endpointer(**kw)
    utts = []
    for i in range(0, len(stream), block):
        utts += ep.feed(stream[i:i + block])
    return utts + ep.flush()


def test_finds_two_utterances_with_their_boundaries() -> None:
    stream = np.concatenate([_noise(1.0), _tone(0.8), _noise(1.0, seed=1),
                             _tone(0.5), _noise(1.0, seed=2)])
    utts = _run(stream)
    assert len(utts) == 2
    assert abs(utts[0].start_s - 0.75) < 0.05 and abs(utts[0].end_s - 1.8) < 0.05
    assert abs(utts[1].end_s - 3.3) < 0.05
    assert all(not u.capped for u in utts)
    assert 0.8 <= len(utts[0].samples) / RATE <= 1.2  # speech, pre-roll and a little tail


def test_block_size_does_not_change_the_result() -> None:
    stream = np.concatenate([_noise(0.5), _tone(0.6), _noise(0.8, seed=3)])
    a = _run(stream, block=160)
    b = _run(stream, block=4096)
    assert [(u.start_s, u.end_s) for u in a] == [(u.start_s, u.end_s) for u in b]


def test_noise_and_clicks_are_not_utterances() -> None:
    stream = np.concatenate([_noise(2.0), _tone(0.05), _noise(1.0, seed=4)])
    assert _run(stream) == []


def test_endless_speech_is_cut_at_the_cap() -> None:
    stream = np.concatenate([_noise(0.5), _tone(9.0), _noise(0.5, seed=5)])
    utts = _run(stream, max_s=6.0)
    assert utts[0].capped and len(utts[0].samples) == 6 * RATE


def test_an_utterance_open_at_the_end_of_the_stream_is_flushed() -> None:
    utts = _run(np.concatenate([_noise(0.5), _tone(0.7)]))
    assert len(utts) == 1 and abs(utts[0].end_s - 1.2) < 0.05


def test_events_report_the_utterance_while_it_is_spoken() -> None:
    stream = np.concatenate([_noise(1.0), _tone(0.8), _noise(1.0, seed=6)])
    ep = Endpointer()
    events = []
    for i in range(0, len(stream), 800):
        events += ep.feed_events(stream[i:i + 800])
    kinds = [e.kind for e in events]
    assert kinds[0] == "start" and kinds[-1] == "end"
    assert set(kinds[1:-1]) == {"audio"}
    fed = np.concatenate([e.samples for e in events if e.samples is not None])
    utt = events[-1].utterance
    assert utt is not None
    # the utterance is a prefix of what was reported while it was spoken
    assert np.array_equal(fed[:len(utt.samples)], utt.samples)
    assert len(fed) > len(utt.samples)  # the hangover was reported too


def test_a_click_is_reported_and_then_aborted() -> None:
    stream = np.concatenate([_noise(1.0), _tone(0.05), _noise(1.0, seed=7)])
    events = Endpointer().feed_events(stream)
    assert [e.kind for e in events if e.kind != "audio"] == ["start", "abort"]


def test_digital_silence_is_not_a_noise_floor() -> None:
    # synthesised speech holds exact zeros; the faint hiss after them is not speech
    stream = np.concatenate([_noise(1.0), _tone(0.6), np.zeros(RATE // 5, np.float32),
                             _noise(1.5, seed=8)])
    utts = _run(stream)
    assert len(utts) == 1
