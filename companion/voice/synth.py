"""Test speech: espeak-ng sentences as 16 kHz samples, for tests, the
benchmark and the demo (which needs a spoken correction with no microphone).

The espeak-ng command line is used rather than pyttsx3 because it takes a
voice and speed per call and cannot hang a long-lived engine; results are
cached by (text, voice, speed) when a cache folder is given.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from companion.voice.audio import Samples, read_wav

#: Voices of the benchmark and tests: four accents espeak-ng ships.
VOICES = ("en-us", "en-gb", "en-gb-scotland", "en-029")


class SynthesisUnavailable(RuntimeError):
    """espeak-ng is not installed or failed."""


def synthesise(text: str, voice: str = "en-us", speed: int = 160, pitch: int = 50,
               cache_dir: Path | None = None) -> Samples:
    """*text* spoken by espeak-ng *voice* at *speed* words per minute."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise SynthesisUnavailable("espeak-ng is not installed")
    key = hashlib.sha1(f"{text}|{voice}|{speed}|{pitch}".encode()).hexdigest()[:16]
    if cache_dir is not None:
        path = cache_dir / f"{key}.wav"
        if not path.is_file():
            _run(exe, text, voice, speed, pitch, path)
        return read_wav(path).samples
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.wav"
        _run(exe, text, voice, speed, pitch, path)
        return read_wav(path).samples


def _run(exe: str, text: str, voice: str, speed: int, pitch: int, path: Path) -> None:
    tmp = path.with_suffix(".part")
    try:
        subprocess.run([exe, "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(tmp),
                        text], check=True, capture_output=True, timeout=30)
    except (subprocess.SubprocessError, OSError) as exc:
        raise SynthesisUnavailable(f"espeak-ng failed: {exc}") from None
    tmp.replace(path)
