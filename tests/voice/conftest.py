"""Fixtures for the voice tests: espeak-ng speech synthesised once per session."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from companion.voice.audio import Samples  # noqa: E402
from companion.voice.synth import synthesise  # noqa: E402

Synth = Callable[..., Samples]


@pytest.fixture(scope="session")
def speech(tmp_path_factory: pytest.TempPathFactory) -> Synth:
    """``speech(text, voice="en-us", speed=160)``: 16 kHz samples, cached per session."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    cache = tmp_path_factory.mktemp("speech")

    def make(text: str, voice: str = "en-us", speed: int = 160) -> Samples:
        return synthesise(text, voice=voice, speed=speed, cache_dir=cache)

    return make


@pytest.fixture(scope="session")
def recogniser():  # type: ignore[no-untyped-def]
    from companion.voice.recognisers import PocketSphinxRecogniser

    return PocketSphinxRecogniser()
