"""``companion read-die IMAGE...``: the value of a single die in each photo.

Prints one JSON line per image, ``{"image": ..., "value": 1..6 or null,
"confidence": 0..1}`` (null when the die cannot be read), in the order given.
The reader starts once for all images. A missing or unreadable file gets one
line on stderr and makes the exit code non-zero; the other lines are still
printed. Contract and figures: ``docs/vision-dice.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.errors import UserError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "images", nargs="+", metavar="IMAGE", help="photos of one die each (any background)"
    )


def reading_json(image: str, value: int | None, confidence: float) -> dict[str, Any]:
    """The contract's JSON object for one photo."""
    return {"image": image, "value": value, "confidence": round(float(confidence), 3)}


def run(args: argparse.Namespace) -> int:
    from companion.vision.dice.photo import read_die_photo
    from companion.vision.images import read_image

    failures = 0
    for image in args.images:
        try:
            photo = read_image(image)
        except UserError as exc:
            print(f"companion read-die: error: {exc}", file=sys.stderr)
            failures += 1
            continue
        reading = read_die_photo(photo)
        print(json.dumps(reading_json(image, reading.value, reading.confidence)), flush=True)
    return 2 if failures else 0
