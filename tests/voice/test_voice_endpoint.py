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
    assert set(kinds[1:-1]) == {"audio", "pause"}
    fed = np.concatenate([e.samples for e in events
                          if e.samples is not None and e.kind != "pause"])
    utt = events[-1].utterance
    assert utt is not None
    # the utterance is a prefix of what was reported while it was spoken
    assert np.array_equal(fed[:len(utt.samples)], utt.samples)
    assert len(fed) > len(utt.samples)  # the hangover was reported too
    # the pause reported the utterance as it turned out, before the hangover ran out
    pauses = [e for e in events if e.kind == "pause"]
    assert len(pauses) == 1 and pauses[0].samples is not None
    assert np.array_equal(pauses[0].samples, utt.samples)
    assert kinds.index("pause") < len(kinds) - 20


def test_a_pause_before_more_speech_is_not_the_utterance() -> None:
    # 0.15 s of quiet inside the utterance: a pause is reported, then speech resumes
    stream = np.concatenate([_noise(1.0), _tone(0.5), _noise(0.15, seed=2), _tone(0.4),
                             _noise(1.0, seed=3)])
    events = Endpointer().feed_events(stream)
    pauses = [e.samples for e in events if e.kind == "pause" and e.samples is not None]
    ends = [e.utterance for e in events if e.utterance is not None]
    assert len(pauses) == 2 and len(ends) == 1
    assert len(pauses[0]) < len(ends[0].samples)  # stale: the speech went on
    assert np.array_equal(pauses[1], ends[0].samples)


def test_ending_now_gives_the_utterance_the_hangover_would() -> None:
    stream = np.concatenate([_noise(1.0), _tone(0.6), _noise(1.0, seed=4)])
    whole = _run(stream)
    ep = Endpointer()
    speech_end = int(1.6 * RATE)
    assert ep.end_now() is None  # no speech yet
    ep.feed_events(stream[:speech_end + 800])  # 50 ms of quiet after the speech
    assert 0.0 < ep.quiet_s <= 0.05
    early = ep.end_now()
    assert early is not None and early.utterance is not None
    assert np.array_equal(early.utterance.samples, whole[0].samples)
    assert early.utterance.end_s == whole[0].end_s
    assert not ep.in_speech and ep.quiet_s == 0.0
    assert ep.feed(stream[speech_end + 800:]) == []  # the rest is quiet: nothing more


def test_ending_now_waits_for_the_kept_tail() -> None:
    stream = np.concatenate([_noise(1.0), _tone(0.6)])
    ep = Endpointer()
    ep.feed_events(stream)
    ep.feed_events(_noise(0.02, seed=5))  # 20 ms of quiet: less than the tail kept
    assert ep.end_now() is None and ep.in_speech


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


def test_a_noisy_room_waits_longer_before_ending_an_utterance() -> None:
    """A 0.32 s pause (a comma in "Referee, | pop six." whose faint edges
    sank into the noise) ends the utterance in a quiet room, where the
    hangover is 0.25 s, but not in a noisy one, where it is
    NOISY_HANGOVER_S; a longer pause still ends it."""
    from companion.voice.endpoint import NOISY_HANGOVER_S

    def stream(level: float, gap_s: float) -> np.ndarray:
        return np.concatenate([_noise(1.0, level), _tone(0.6) + _noise(0.6, level, seed=1),
                               _noise(gap_s, level, seed=2), _tone(0.5) + _noise(0.5, level, seed=3),
                               _noise(1.0, level, seed=4)])

    assert NOISY_HANGOVER_S > 0.32 + 0.05
    assert len(_run(stream(1e-3, 0.32))) == 2  # speech 47 dB over the hiss
    noisy = _run(stream(0.03, 0.32))  # 16 dB: a noisy room
    assert len(noisy) == 1 and abs(noisy[0].end_s - 2.42) < 0.05
    assert len(_run(stream(0.03, NOISY_HANGOVER_S + 0.15))) == 2


def test_the_wait_before_the_end_is_reported() -> None:
    """The listener adds the endpointer's wait to a decision's latency."""
    ep = Endpointer()
    level = 0.03
    stream = np.concatenate([_noise(1.0, level), _tone(0.6) + _noise(0.6, level, seed=1),
                             _noise(1.0, level, seed=2)])
    assert len(ep.feed(stream)) == 1
    assert abs(ep.last_wait_s - 0.40) < 0.011
    quiet = np.concatenate([_noise(1.0), _tone(0.6), _noise(1.0, seed=2)])
    assert len(ep.feed(quiet)) == 1
    assert abs(ep.last_wait_s - ep.hangover / 100) < 0.011
