"""``companion calibrate``: learn this table's light and pegs from the opening position.

Put every peg in its Home, point the camera at the board, and run it with
``--camera N``, ``--video FILE`` or ``--image FILE``. The result is saved as
JSON (default ``calibration.json`` in the user data folder) and reused with
``--calibration FILE`` by ``companion read`` and ``companion play``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from companion.errors import UserError

#: Frames used from a camera or a video (the board must be found in them).
FRAMES = 15


def configure(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--camera", type=int, metavar="N", help="camera index to read from")
    source.add_argument("--video", metavar="FILE", help="a video of the opening position")
    source.add_argument("--image", metavar="FILE", help="a photo of the opening position")
    parser.add_argument("--layout", metavar="FILE", help="board layout (default: the classic board)")
    parser.add_argument("--out", metavar="FILE",
                        help="where to save (default: calibration.json in the user data folder)")


def _frames(args: argparse.Namespace) -> Iterator[np.ndarray]:
    from companion.vision.images import camera_frames, read_image, video_frames

    if args.image:
        yield read_image(args.image)
    elif args.video:
        yield from video_frames(args.video, limit=FRAMES)
    else:
        yield from camera_frames(args.camera, limit=FRAMES)


def run(args: argparse.Namespace) -> int:
    from companion.layout import load_layout
    from companion.vision.calibration import (
        calibrate,
        default_calibration_path,
        save_calibration,
    )
    from companion.vision.locate import BoardPose
    from companion.vision.reader import BoardReader

    layout = load_layout(args.layout)
    reader = BoardReader(layout, read_die=False, adapt=False)
    evidences = []
    reasons: list[str] = []
    for frame in _frames(args):
        pose = reader.locator.locate(frame)
        if not isinstance(pose, BoardPose):
            reasons.append(pose.reason)
            continue
        plan = reader.plan_for(pose, frame.shape[:2])
        evidences.append(reader.evidence(frame, pose, plan))
    if not evidences:
        why = reasons[0] if reasons else "no frames"
        raise UserError(f"the board was not found ({why}); calibration needs the four markers in view")
    calibration = calibrate(evidences, layout)
    out = Path(args.out) if args.out else default_calibration_path()
    kept = save_calibration(calibration, out)
    if kept is not None:
        import sys

        print(f"companion calibrate: note: the unreadable file at {out} was kept as {kept}",
              file=sys.stderr)
    print(json.dumps({"calibration": str(out), "frames": calibration.frames,
                      "layout": calibration.layout}))
    return 0
