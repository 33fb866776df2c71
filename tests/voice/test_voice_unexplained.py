"""The sound a decode leaves unexplained, on a made-up segmentation (no
recogniser needed): a live decoder's habit of giving a word's last frames
to the silence after it is not held against the phrase."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.voice.audio import RATE
from companion.voice.recognisers import WORD_TAIL_FRAMES, unexplained_s


@dataclass
class _Seg:
    word: str
    start_frame: int
    end_frame: int


class _Decoder:
    def __init__(self, segments: list[_Seg]) -> None:
        self._segments = segments

    def seg(self) -> list[_Seg]:
        return self._segments

    def lookup_word(self, word: str) -> str | None:
        return {"stop": "S T AA P", "help": "HH EH L P", "referee": "R EH F ER IY",
                "two": "T UW"}.get(word)


def _clip(loud: list[tuple[int, int]], frames: int = 100) -> np.ndarray:
    """Faint hiss with loud 10 ms frames in the [start, end) ranges given."""
    x = np.random.default_rng(0).normal(0, 1e-3, frames * RATE // 100).astype(np.float32)
    for start, end in loud:
        x[start * 160:end * 160] = 0.3 * np.sin(np.arange((end - start) * 160) / 3.0)
    return x


def test_the_last_words_tail_aligned_to_silence_is_forgiven_only_when_asked() -> None:
    # "stop" at frames 20-49; its release, frames 50-55, aligned to silence
    clip = _clip([(20, 56)])
    decoder = _Decoder([_Seg("<sil>", 0, 19), _Seg("stop", 20, 49), _Seg("(NULL)", 49, 49),
                        _Seg("<sil>", 50, 99)])
    assert unexplained_s(decoder, clip, 0) == 0.06  # the whole-clip path counts it
    assert unexplained_s(decoder, clip, 0, WORD_TAIL_FRAMES) == 0.0


def test_only_a_stops_release_is_forgiven() -> None:
    # table talk forced onto "... it was a two" left its own sound after "two"
    clip = _clip([(20, 56)])
    decoder = _Decoder([_Seg("<sil>", 0, 19), _Seg("two", 20, 49), _Seg("<sil>", 50, 99)])
    assert unexplained_s(decoder, clip, 0, WORD_TAIL_FRAMES) == 0.06


def test_only_the_first_frames_after_the_last_word_are_forgiven() -> None:
    # "stop kicking me" forced onto "stop": the rest of the sentence is silence
    clip = _clip([(20, 90)])
    decoder = _Decoder([_Seg("<sil>", 0, 19), _Seg("stop", 20, 49), _Seg("<sil>", 50, 99)])
    assert abs(unexplained_s(decoder, clip, 0, WORD_TAIL_FRAMES) - (0.40 - WORD_TAIL_FRAMES / 100)) < 1e-9
    # sound between words, or before the first, is never forgiven
    clip = _clip([(10, 30), (40, 60)])
    decoder = _Decoder([_Seg("<sil>", 0, 14), _Seg("referee", 15, 30), _Seg("<sil>", 31, 44),
                        _Seg("help", 45, 60), _Seg("<sil>", 61, 99)])
    assert unexplained_s(decoder, clip, 0, WORD_TAIL_FRAMES) == unexplained_s(decoder, clip, 0) == 0.10


def test_the_pause_after_the_wake_word_is_the_silence_before_the_next_word() -> None:
    from types import SimpleNamespace

    from companion.voice.recognisers import wake_pause_s

    def decoder(*segs: tuple[str, int, int]) -> SimpleNamespace:
        return SimpleNamespace(seg=lambda: [SimpleNamespace(word=w, start_frame=s, end_frame=e)
                                            for w, s, e in segs])

    said = decoder(("<sil>", 0, 9), ("referee", 10, 60), ("<sil>", 61, 72), ("+NSN+", 73, 74),
                   ("undo", 75, 110), ("<sil>", 111, 130))
    assert abs(wake_pause_s(said) - 0.14) < 1e-9  # type: ignore[operator]
    run_on = decoder(("<sil>", 0, 9), ("referee", 10, 40), ("undo(2)", 41, 80), ("<sil>", 81, 90))
    assert wake_pause_s(run_on) == 0.0
    assert wake_pause_s(decoder(("<sil>", 0, 9), ("stop", 10, 40))) is None
    assert wake_pause_s(decoder(("<sil>", 0, 9), ("referee", 10, 60), ("<sil>", 61, 80))) is None
