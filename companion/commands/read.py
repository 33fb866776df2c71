"""``companion read IMAGE...``: board positions and the die from still images.

Prints one JSON line per image (contract in ``docs/vision.md``). The reader
starts once for all images; a missing or unreadable image is reported on
stderr and makes the exit code non-zero, while the other lines are printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.errors import UserError, os_reason


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files to read")
    parser.add_argument("--layout", metavar="FILE", help="board layout (default: the classic board)")
    parser.add_argument("--calibration", metavar="FILE",
                        help="a calibration saved by `companion calibrate` (default: none)")
    parser.add_argument("--corners", metavar="X1,Y1,...,X4,Y4",
                        help="the board's four corners in pixels, clockwise from its top-left, "
                             "for images without markers")
    parser.add_argument("--overlay", metavar="DIR",
                        help="also write each image with what was read drawn on it into DIR")


def reading_json(image: str, reading: Any) -> dict[str, Any]:
    """The contract's JSON object for one image's reading."""
    if reading.found:
        board: dict[str, Any] = {"found": True, "pegs": reading.pegs_json()}
        if reading.hand:
            board["covered"] = [h.hole for h in reading.holes if h.state == "unknown"]
        if reading.misplaced:
            board["misplaced"] = list(reading.misplaced)
    else:
        board = {"found": False, "reason": reading.reason}
    die: dict[str, Any]
    if reading.die is None:
        die = {"state": "hidden"}
    else:
        die = {"state": reading.die.state}
        if reading.die.state == "settled":
            die["value"] = reading.die.value
    return {"image": image, "board": board, "die": die}


def run(args: argparse.Namespace) -> int:
    from companion.layout import load_layout
    from companion.vision.calibration import load_calibration
    from companion.vision.images import ImageBatch
    from companion.vision.locate import parse_corners
    from companion.vision.reader import BoardReader

    layout = load_layout(args.layout)
    calibration = load_calibration(args.calibration) if args.calibration else None
    corners = None
    if args.corners:
        try:
            corners = parse_corners(args.corners)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    overlay_dir = Path(args.overlay) if args.overlay else None
    if overlay_dir is not None:
        try:
            overlay_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"--overlay {overlay_dir}: cannot make the folder: {os_reason(exc)}") from None
    batch = ImageBatch("read", args.images)
    overlay_failures = 0
    for image, frame in batch:
        # Each image may come from another camera: a fresh reader per image
        # (the layout and calibration are loaded once).
        reader = BoardReader(layout, calibration, corners_px=corners)
        reading = reader.read(frame)
        print(json.dumps(reading_json(image, reading)), flush=True)
        if overlay_dir is not None:
            import cv2

            from companion.vision.overlay import draw_overlay

            out = overlay_dir / (Path(image).stem + ".overlay.png")
            if not cv2.imwrite(str(out), draw_overlay(frame, reading, reader.geometry)):
                # The reading is printed already; the missing picture is said.
                print(f"companion read: error: cannot write the overlay {out}", file=sys.stderr, flush=True)
                overlay_failures += 1
    return batch.exit_code or (1 if overlay_failures else 0)
