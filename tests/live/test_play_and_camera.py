"""``companion play`` without hardware, and a camera that goes away and comes back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.errors import UserError
from companion.live.frames import camera_frames


def test_play_without_a_camera_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--camera", "0", "--db", str(tmp_path / "g.sqlite3"), "--no-listen"]) == 2
    err = capsys.readouterr().err
    assert "cannot open camera 0" in err and "Traceback" not in err
    assert not (tmp_path / "g.sqlite3").exists()


def test_play_rejects_bad_arguments_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--video", str(tmp_path / "none.avi"), "--no-listen"]) == 2
    assert "no such video file" in capsys.readouterr().err
    assert main(["play", "--players", "red", "--no-listen"]) == 2
    assert "2 to 4 players" in capsys.readouterr().err
    assert main(["play", "--players", "red,blue", "--first", "green", "--no-listen"]) == 2
    assert "--first green" in capsys.readouterr().err
    assert main(["play", "--rules", "{\"colour\": 1}", "--no-listen"]) == 2
    assert "unknown rule option" in capsys.readouterr().err


def test_a_negative_camera_number_is_refused_before_opencv_sees_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # OpenCV's "any camera" index -1 ended the process with a segmentation fault.
    assert main(["play", "--camera", "-1", "--db", str(tmp_path / "g.sqlite3"), "--no-listen"]) == 2
    assert "--camera -1: camera numbers start at 0" in capsys.readouterr().err
    assert not (tmp_path / "g.sqlite3").exists()


def test_a_video_with_no_frames_or_cut_short_is_an_error_after_its_frames(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    from companion.live.frames import video_frames

    fake = tmp_path / "notes.png"
    fake.write_text("a text file with an image's name")
    with pytest.raises(UserError, match="notes.png holds no frames"):
        list(video_frames(fake))
    whole = tmp_path / "whole.avi"
    writer = cv2.VideoWriter(str(whole), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    rng = np.random.default_rng(0)
    for _ in range(40):
        writer.write(rng.integers(0, 255, (48, 64, 3), dtype=np.uint8))
    writer.release()
    assert len(list(video_frames(whole))) == 40
    cut = tmp_path / "cut.avi"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    got = []
    with pytest.raises(UserError, match=r"cut.avi ends after \d+ of its 40 frames .* truncated"):
        for frame in video_frames(cut):
            got.append(frame)
    assert 5 < len(got) < 40  # the frames before the cut were delivered first


class FakeCapture:
    """A camera that delivers *good* frames, then nothing."""

    def __init__(self, good: int) -> None:
        self.good = good

    def isOpened(self) -> bool:  # noqa: N802
        return True

    def read(self) -> tuple[bool, Any]:
        if self.good > 0:
            self.good -= 1
            return True, "image"
        return False, None

    def release(self) -> None:
        pass


def test_a_camera_that_goes_away_is_waited_for_and_reopened() -> None:
    opened: list[int] = []
    plans = [3, None, None, 2]  # frames, unplugged, unplugged, back with 2 frames

    def opener() -> FakeCapture:
        plan = plans[len(opened)] if len(opened) < len(plans) else 0
        opened.append(1)
        if plan is None:
            raise UserError("cannot open camera 0")
        return FakeCapture(plan)

    clock = iter(float(i) for i in range(1000))
    items = camera_frames(opener, clock=lambda: next(clock), sleep=lambda s: None, failures_before_lost=2)
    got = []
    for item in items:
        got.append(type(item).__name__)
        if len(got) >= 7:
            break
    assert got == ["Frame", "Frame", "Frame", "CameraLost", "CameraBack", "Frame", "Frame"]


def test_a_corrupt_voice_profile_is_named_before_the_game_is_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    voices = tmp_path / "data" / "voices"
    voices.mkdir(parents=True)
    (voices / "ann.json").write_text("{not json")
    db = tmp_path / "g.sqlite3"
    assert main(["play", "--video", str(tmp_path / "none.avi"), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "corrupt voice profile" in err and "ann.json" in err and "Traceback" not in err
    assert not db.exists()


def test_a_fault_inside_the_referee_says_the_game_is_saved_and_how_to_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A bug of ours mid-game must not end in a traceback at the table: the
    # record has every input, so the message says so and how to carry on, and
    # the details go to a file for a bug report.
    import cv2
    import numpy as np

    import companion.live.run as live_run

    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    for _ in range(5):
        writer.write(np.zeros((48, 64, 3), dtype=np.uint8))
    writer.release()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(live_run, "feed_frames", broken)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    db = tmp_path / "g.sqlite3"
    assert main(["play", "--video", str(video), "--db", str(db), "--no-listen", "--silent", "--fast"]) == 1
    captured = capsys.readouterr()
    assert "internal error (RuntimeError: boom)" in captured.err
    assert "companion play --resume" in captured.err and str(db) in captured.err
    assert "Something went wrong inside the referee. The game is saved" in captured.out
    (report,) = (tmp_path / "data").glob("crash-*.txt")
    assert "RuntimeError: boom" in report.read_text()
    assert "Traceback" not in captured.err
