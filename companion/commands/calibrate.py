"""``companion calibrate``: learn this table's light and pegs from the opening position.

Put every peg in its Home, point the camera at the board, and run it with
``--camera N``, ``--video FILE`` or ``--image FILE``. The result is saved as
JSON (default ``calibration.json`` in the user data folder) and reused with
``--calibration FILE`` by ``companion read`` and ``companion play``.

A die with digits instead of pips is learned too, from one frame per face
(``--die-faces``): six photos from the same camera, the die lying flat in
the Pop-O-Matic showing 1, 2, ... 6 in turn; with ``--camera`` and no
files, the command asks for each face and takes a frame when Enter is
pressed. The learned faces are read back before they are saved, so faces
shown out of order are refused, naming the photo.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from companion.errors import UserError

#: Frames used from a camera or a video (the board must be found in them).
FRAMES = 15
#: Frames grabbed for each die face shown live; the last is used.
SETTLE_FRAMES = 10


def configure(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--camera", type=int, metavar="N", help="camera index to read from")
    source.add_argument("--video", metavar="FILE", help="a video of the opening position")
    source.add_argument("--image", metavar="FILE", help="a photo of the opening position")
    parser.add_argument("--layout", metavar="FILE", help="board layout (default: the classic board)")
    parser.add_argument("--out", metavar="FILE",
                        help="where to save (default: calibration.json in the user data folder)")
    parser.add_argument("--die-faces", nargs="*", metavar="IMAGE",
                        help="learn a digit die: six photos of the die in the Pop-O-Matic showing "
                             "1, 2, ... 6 in that order (with --camera and no photos: asks for "
                             "each face in turn)")


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

    _check_die_faces(args)
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
    summary: dict[str, object] = {}
    if args.die_faces is not None:
        from companion.vision.die_faces import learn_die_faces

        faces = learn_die_faces(reader, _face_frames(args))
        calibration = replace(calibration, die_faces=faces)
        summary["die_faces"] = sorted(faces.patches)
    out = Path(args.out) if args.out else default_calibration_path()
    kept = save_calibration(calibration, out)
    if kept is not None:
        print(f"companion calibrate: note: the unreadable file at {out} was kept as {kept}",
              file=sys.stderr)
    print(json.dumps({"calibration": str(out), "frames": calibration.frames,
                      "layout": calibration.layout, **summary}))
    return 0


def _check_die_faces(args: argparse.Namespace) -> None:
    """A wrong --die-faces is said before anything is read or learned."""
    if args.die_faces is None:
        return
    if args.die_faces and len(args.die_faces) != 6:
        raise UserError(f"--die-faces needs six photos, of the die showing 1, 2, 3, 4, 5 and 6 "
                        f"in that order (got {len(args.die_faces)})")
    if not args.die_faces and args.camera is None:
        raise UserError("--die-faces needs six photos, of the die showing 1, 2, 3, 4, 5 and 6 in "
                        "that order (only with --camera can the faces be shown live)")


def _face_frames(args: argparse.Namespace) -> Iterator[tuple[str, np.ndarray]]:
    """(where it came from, frame) for the die's faces 1..6, in order."""
    from companion.vision.images import camera_frames, read_image

    files = list(args.die_faces)
    if files:
        for name in files:
            yield name, read_image(name)
        return
    for value in range(1, 7):
        print(f"Tap the Pop-O-Matic until the die lies flat showing {value}, then press Enter.",
              file=sys.stderr, flush=True)
        if not sys.stdin.readline():
            raise UserError("--die-faces with --camera waits for Enter before each face, "
                            "but the input has ended; give six photos instead")
        # The last of a few frames: a webcam's first frames after opening are
        # often dark or blurred while its exposure and focus settle.
        *_, frame = camera_frames(args.camera, limit=SETTLE_FRAMES)
        yield f"camera {args.camera}, face {value}", frame
