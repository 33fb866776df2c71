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
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "images", nargs="+", metavar="IMAGE", help="photos of one die each (any background)"
    )


def reading_json(image: str, value: int | None, confidence: float) -> dict[str, Any]:
    """The contract's JSON object for one photo."""
    return {"image": image, "value": value, "confidence": round(float(confidence), 3)}


def run(args: argparse.Namespace) -> int:
    from companion.vision.dice.photo import read_die_photo
    from companion.vision.images import ImageBatch

    batch = ImageBatch("read-die", args.images)
    for image, photo in batch:
        reading = read_die_photo(photo)
        print(json.dumps(reading_json(image, reading.value, reading.confidence)), flush=True)
    return batch.exit_code
