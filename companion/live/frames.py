"""Frames from a video file or a camera, with the camera waited for when it goes.

This is the edge where frames enter: a video file yields frames stamped with
their video time (index / fps) as fast as they decode; a camera yields frames
stamped with wall-clock time and, when it stops delivering (cable pulled, lid
closed), yields one :class:`CameraLost`, keeps trying to reopen it, and
yields :class:`CameraBack` when frames flow again. The loop says one clear
message for each; nothing here speaks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.errors import UserError
from companion.live.observations import CameraBack, CameraLost


@dataclass(frozen=True)
class Frame:
    t: float
    image: Any  # a BGR numpy array


class Capture(Protocol):
    """The part of ``cv2.VideoCapture`` used here (a fake in tests)."""

    def isOpened(self) -> bool: ...  # noqa: N802 (OpenCV's name)

    def read(self) -> tuple[bool, Any]: ...

    def release(self) -> None: ...


def _cv2() -> Any:
    import cv2

    return cv2


def video_fps(path: Path) -> float:
    cv2 = _cv2()
    cap = cv2.VideoCapture(str(path))
    try:
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
    finally:
        cap.release()
    return fps if fps > 0 else 25.0


def video_frames(path: Path, start_after: float | None = None) -> Iterator[Frame]:
    """Every frame of a video file, stamped ``index / fps`` seconds.

    With *start_after*, frames up to that time are skipped without decoding
    (a resumed replay continues where the record stops).

    A file that opens but gives no frame at all, or that stops well short of
    the frame count in its header (a truncated copy), is a UserError once
    the frames it had are delivered: never a quiet end of the game.
    """
    if path.is_dir():
        raise UserError(f"{path} is a folder, not a video file")
    if not path.is_file():
        raise UserError(f"no such video file: {path}")
    cv2 = _cv2()
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise UserError(f"cannot read the video {path} (not a video OpenCV can open)")
    try:
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0) or 25.0
        declared = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        index = 0
        while True:
            t = index / fps
            if start_after is not None and t <= start_after:
                if not cap.grab():
                    break
                index += 1
                continue
            ok, image = cap.read()
            if not ok:
                break
            yield Frame(t, image)
            index += 1
    finally:
        cap.release()
    if index == 0:
        raise UserError(f"{path} holds no frames OpenCV can decode (is it a video?)")
    if index < declared - max(3, declared // 10):
        # A few frames short is container rounding (a variable frame rate
        # makes some containers' count an estimate); far short is a cut file.
        raise UserError(f"the video {path} ends after {index} of its {declared} frames "
                        f"({index / fps:.1f} s): the file looks truncated; it was refereed "
                        "up to there")


def open_camera(index: int) -> Capture:
    """Open camera *index* or raise a clear :class:`UserError`."""
    if index < 0:
        # OpenCV's "any camera" index -1 crashes the process on some systems.
        raise UserError(f"--camera {index}: camera numbers start at 0")
    cv2 = _cv2()
    # OpenCV prints its own warnings for a missing device; the error below
    # says it once, clearly.
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    cap = cv2.VideoCapture(index)
    if not cap.isOpened():
        cap.release()
        raise UserError(
            f"cannot open camera {index}: no camera with that number answers "
            "(is it plugged in and free? try another --camera number, or --video FILE)"
        )
    ok, _ = cap.read()
    if not ok:
        cap.release()
        raise UserError(f"camera {index} opened but gives no pictures (is another program using it?)")
    return cap


def camera_frames(
    opener: Callable[[], Capture],
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    retry_s: float = 1.0,
    failures_before_lost: int = 5,
) -> Iterator[Frame | CameraLost | CameraBack]:
    """Frames from a live camera, forever, surviving the camera going away.

    *opener* opens the camera (raising :class:`UserError` when it is not
    there); it is called once at the start (an error then is the user's to
    fix) and again every *retry_s* seconds while the camera is lost.
    """
    cap: Capture | None = opener()
    failures = 0
    lost = False
    try:
        while True:
            if cap is None:
                sleep(retry_s)
                try:
                    cap = opener()
                except UserError:
                    cap = None
                    continue
            ok, image = cap.read()
            if ok:
                failures = 0
                if lost:
                    lost = False
                    yield CameraBack(clock())
                yield Frame(clock(), image)
                continue
            failures += 1
            if failures >= failures_before_lost:
                if not lost:
                    lost = True
                    yield CameraLost(clock())
                cap.release()
                cap = None
    finally:
        if cap is not None:
            cap.release()
