"""``companion models list | install NAME``: optional speech models.

Nothing downloads except through ``install``. See companion/voice/models.py
for the checks made before anything is put in place.
"""

from __future__ import annotations

import argparse
import os


def configure(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    subs.add_parser("list", help="show installed and installable models")
    inst = subs.add_parser("install", help="download, verify and unpack a model")
    inst.add_argument("name", help="the model to install, e.g. vosk-en")
    inst.add_argument("--url", help="download from this URL instead of the publisher's")
    inst.add_argument("--force", action="store_true", help="reinstall even if present")


def run(args: argparse.Namespace) -> int:
    from companion.voice import models
    from companion.voice.digit_model import MODEL_DIR, MODEL_FILES
    from companion.voice.recognisers import find_vosk_model

    if args.action == "install":
        models.install(args.name, url=args.url, force=args.force)
        return 0
    print("pocketsphinx-en  built in (ships inside the pocketsphinx wheel)")
    complete = all((MODEL_DIR / f).is_file() for f in MODEL_FILES)
    print(f"tidigits         {'built in' if complete else 'INCOMPLETE'} ({MODEL_DIR}; "
          "narrowband digits, a second opinion on bare numbers)")
    for spec in models.MODELS.values():
        where = models.installed(spec)
        state = f"installed in {where}" if where else "not installed"
        print(f"{spec.key:<16} {state}  ({spec.description})")
    env = os.environ.get("COMPANION_VOSK_MODEL")
    if env:
        found = find_vosk_model()
        ok = found is not None and str(found) == env
        print(f"$COMPANION_VOSK_MODEL {env} ({'usable' if ok else 'not a Vosk model folder'})")
    return 0
