"""``companion listen``: recognise voice commands from WAV files or the microphone.

``--wav FILE...`` prints one JSON line per file::

    {"file": "a.wav", "text": "the pop was five", "command": {"intent": "pop", "value": 5}}

reporting what was recognised even when it is not a command (``"command":
null``); the wake word is optional here, so a bare number is that number. A
missing or unreadable file is reported on stderr, the good files are still
printed, and the exit code is non-zero. Without ``--wav`` it listens to the
microphone and prints one JSON line per utterance, as the live referee would
act on it (wake word, confidence, confirmations: docs/voice.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import UserError

if TYPE_CHECKING:
    from companion.voice.recognisers import Recogniser


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wav", nargs="+", type=Path, metavar="FILE",
                        help="recognise these WAV files (any rate, width, channels)")
    parser.add_argument("--recogniser", choices=("auto", "pocketsphinx", "vosk"),
                        default="auto",
                        help="auto: Vosk when its model is installed, else PocketSphinx")


def _recogniser(choice: str) -> Recogniser:
    from companion.voice import recognisers

    if choice == "pocketsphinx":
        return recognisers.PocketSphinxRecogniser()
    if choice == "vosk":
        model = recognisers.find_vosk_model()
        if model is None:
            env = os.environ.get("COMPANION_VOSK_MODEL")
            if env:
                raise UserError(f"COMPANION_VOSK_MODEL={env} is not a Vosk model folder (no "
                                "am/final.mdl or conf/model.conf in it), and no model is installed")
            raise UserError("no Vosk model installed: run `companion models install vosk-en` "
                            "or set COMPANION_VOSK_MODEL")
        return recognisers.VoskRecogniser(model)
    return recognisers.default_recogniser()


def run(args: argparse.Namespace) -> int:
    from companion.voice.listener import Listener

    listener = Listener(recogniser=_recogniser(args.recogniser))
    if args.wav:
        failures = 0
        for path in args.wav:
            try:
                hyp, command = listener.recognise_file(path)
            except UserError as exc:
                failures += 1
                print(f"companion listen: error: {exc}", file=sys.stderr)
                continue
            line = {"file": str(path), "text": hyp.text,
                    "command": command.as_dict() if command else None}
            print(json.dumps(line), flush=True)
        return 1 if failures else 0
    stop = threading.Event()
    print("listening (say \"referee\" then a command; Ctrl-C to stop)", file=sys.stderr)
    for heard in listener.microphone(stop):
        d = heard.decision
        print(json.dumps({
            "time": round(heard.utterance.end_s, 2), "text": heard.hypothesis.text,
            "confidence": round(heard.hypothesis.confidence, 3),
            "context": heard.context.value, "action": d.action,
            "command": d.command.as_dict() if d.command else None,
            "prompt": d.prompt or None, "reason": d.reason or None,
        }), flush=True)
    return 0
