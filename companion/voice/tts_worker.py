"""The speech-synthesis worker process: pyttsx3 behind a pipe.

pyttsx3 has reported hangs (a second ``runAndWait``, multiprocessing) and
fails at ``init()`` without ``libespeak-ng1``. Running it in its own process,
driven by JSON lines over stdin/stdout, means a hang or a crash costs the
:class:`~companion.voice.speaker.Speaker` one timeout and a restart, never the
game.

Protocol, one JSON object per line:

* the worker first writes ``{"ready": true}`` or ``{"ready": false, "error": ...}``;
* request ``{"text": ..., "path": ..., "rate": int|null, "voice": str|null}``;
* reply ``{"ok": true}`` once the WAV is complete, or ``{"ok": false, "error": ...}``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO


def _reply(out: TextIO, obj: dict[str, Any]) -> None:
    out.write(json.dumps(obj) + "\n")
    out.flush()


def _wait_for_file(path: Path, seconds: float = 5.0) -> bool:
    """True once *path* holds more than a WAV header and stops growing (within
    *seconds*: on a busy two-core machine espeak-ng took more than the 2 s
    this once allowed, twice in a row, and the demo went text-only)."""
    deadline = time.monotonic() + seconds
    last = -1
    while time.monotonic() < deadline:
        size = path.stat().st_size if path.is_file() else 0
        if size > 44 and size == last:
            return True
        last = size
        time.sleep(0.005)
    return False


def _render(engine: Any, req: dict[str, Any], path: Path, default_rate: int) -> bool:
    """One request through *engine*; True once the WAV is on disk."""
    engine.setProperty("rate", int(req.get("rate") or default_rate))
    if req.get("voice"):
        wanted = str(req["voice"]).lower()
        # an id ("gmw/en-us") or its language part ("en-us"), any case
        matches = [v.id for v in engine.getProperty("voices")
                   if wanted in (v.id.lower(), v.id.lower().split("/")[-1])]
        if not matches:
            raise ValueError(f"unknown voice {req['voice']!r} (espeak-ng ids such as "
                             "'gmw/en-us' or 'en-gb-scotland')")
        engine.setProperty("voice", matches[0])
    engine.save_to_file(str(req["text"]), str(path))
    engine.runAndWait()
    return _wait_for_file(path)


def main() -> int:
    # pyttsx3 prints "Audio saved to ..." on stdout: keep the protocol on a
    # private copy of fd 1 and send everything else to stderr.
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        import pyttsx3

        engine = pyttsx3.init()
        default_rate = engine.getProperty("rate")
    except Exception as exc:  # any failure here means "no speech engine"
        _reply(proto, {"ready": False, "error": f"{type(exc).__name__}: {exc}"})
        return 1
    _reply(proto, {"ready": True})
    for line in sys.stdin:
        try:
            req = json.loads(line)
            path = Path(req["path"])
            if not _render(engine, req, path, default_rate):
                # pyttsx3 sometimes finishes its loop before writing; one retry
                # with a fresh engine, then give up.
                engine = pyttsx3.init()
                if not _render(engine, req, path, default_rate):
                    raise RuntimeError("the engine wrote no audio")
            _reply(proto, {"ok": True})
        except Exception as exc:
            _reply(proto, {"ok": False, "error": f"{type(exc).__name__}: {exc}"})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
