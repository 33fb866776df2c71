"""Frames from files and cameras, turned into arrays at the edge.

Each failure is a :class:`~companion.errors.UserError` naming the file or
camera, so the commands print one clear line instead of a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UserError


def read_image(path: str | Path) -> np.ndarray:
    """A BGR image from *path*, or a UserError saying why not."""
    p = Path(path)
    if not p.exists():
        raise UserError(f"image {p} does not exist")
    if p.is_dir():
        raise UserError(f"{p} is a folder, not an image")
    data = np.fromfile(str(p), dtype=np.uint8)
    # OpenCV would print its own warning for a truncated file just before
    # the one clear line below says the same.
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    finally:
        cv2.utils.logging.setLogLevel(level)
    if image is None:
        raise UserError(f"{p} is not a readable image")
    return np.asarray(image)


class ImageBatch:
    """The images of a command that takes many files, read one by one.

    Iterating yields ``(path, image)`` for each readable file; each bad one
    (missing, a folder, not an image) is reported on stderr as one line
    naming it, and counted, so the good lines are still printed and the
    command can still exit non-zero (:attr:`exit_code`).
    """

    def __init__(self, command: str, paths: Iterable[str]) -> None:
        self.command = command
        self.paths = list(paths)
        self.failures = 0

    def __iter__(self) -> Iterator[tuple[str, np.ndarray]]:
        for path in self.paths:
            try:
                image = read_image(path)
            except UserError as exc:
                print(f"companion {self.command}: error: {exc}", file=sys.stderr, flush=True)
                self.failures += 1
                continue
            yield path, image

    @property
    def exit_code(self) -> int:
        """1 when any file could not be read, else 0."""
        return 1 if self.failures else 0


def video_frames(path: str | Path, limit: int | None = None) -> Iterator[np.ndarray]:
    """The frames of a video file (at most *limit*)."""
    p = Path(path)
    if not p.exists():
        raise UserError(f"video {p} does not exist")
    cap = cv2.VideoCapture(str(p))
    if not cap.isOpened():
        raise UserError(f"{p} is not a readable video")
    try:
        n = 0
        while limit is None or n < limit:
            ok, frame = cap.read()
            if not ok:
                break
            n += 1
            yield frame
        if n == 0:
            raise UserError(f"{p} holds no readable frames")
    finally:
        cap.release()


def camera_frames(index: int, limit: int) -> Iterator[np.ndarray]:
    """Up to *limit* frames from camera *index*."""
    if index < 0:
        # OpenCV's "any camera" index -1 crashes the process on some systems.
        raise UserError(f"--camera {index}: camera numbers start at 0")
    cap = cv2.VideoCapture(index)
    if not cap.isOpened():
        raise UserError(f"camera {index} could not be opened (is it connected and free?)")
    try:
        for _ in range(limit):
            ok, frame = cap.read()
            if not ok:
                raise UserError(f"camera {index} stopped delivering frames")
            yield frame
    finally:
        cap.release()
