"""`companion calibrate --die-faces`: a digit die learned from one frame per face, then read in play.

Camera 9400 of the digit-dice benchmark's development cameras is one whose
faces pass the calibration check (14 of its 24 flat dice read there, none
wrong); every other case here is a user mistake, refused with a message
naming it and with nothing saved.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import cli
from companion.bench.digit_dice import Camera
from companion.layout import load_layout
from companion.vision.calibration import CalibrationError, load_calibration

LAYOUT = load_layout()
CAMERA = 9400
PLAY_FRAMES = 12  # flat dice, each value twice


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("digit-die")
    camera = Camera(CAMERA, LAYOUT)

    def save(name: str, frame: np.ndarray) -> str:
        path = folder / f"{name}.png"
        cv2.imwrite(str(path), frame)
        return str(path)

    from companion.sim import DieView

    faces = [save(f"face{i}", frame) for i, (_, frame) in enumerate(camera.face_frames(), start=1)]
    play = []
    for k in range(PLAY_FRAMES):
        value, _, frame = camera.play_frame(k)
        play.append((value, save(f"play{k}", frame)))
    blank = folder / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 120, np.uint8))
    return {
        "folder": folder, "faces": faces, "play": play, "blank": str(blank),
        "opening": save("opening", camera.frame(DieView(4), 1)),
    }


def _calibrate(shots: dict[str, object], faces: list[str], out: Path,
               capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(["calibrate", "--image", str(shots["opening"]), "--die-faces", *faces,
                     "--out", str(out)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_faces_learned_at_calibration_read_the_die_in_play(
        shots: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cal.json"
    code, stdout, err = _calibrate(shots, list(shots["faces"]), out, capsys)  # type: ignore[call-overload]
    assert code == 0, err
    assert json.loads(stdout)["die_faces"] == [1, 2, 3, 4, 5, 6]
    saved = load_calibration(out)
    assert saved.die_faces is not None and sorted(saved.die_faces.patches) == [1, 2, 3, 4, 5, 6]
    play = shots["play"]
    assert isinstance(play, list)
    code = cli.main(["read", *(path for _, path in play), "--calibration", str(out)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and len(lines) == PLAY_FRAMES
    got = [(value, line["die"].get("value")) for (value, _), line in zip(play, lines, strict=True)]
    assert [g for g in got if g[1] is not None and g[0] != g[1]] == []
    assert sum(v == r for v, r in got) >= 4  # 7 of 12 when written
    # Without the learned faces the same die is read as pips: never a digit's value.
    cli.main(["read", *(path for _, path in play)])
    plain = [json.loads(line)["die"].get("value") for line in capsys.readouterr().out.splitlines()]
    assert sum(v == r for (v, _), r in zip(play, plain, strict=True)) < sum(v == r for v, r in got)


def test_a_face_shown_twice_is_refused_and_nothing_saved(
        shots: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    faces = list(shots["faces"])  # type: ignore[call-overload]
    faces[2] = faces[4]  # the 5 shown where the 3 belongs
    out = tmp_path / "cal.json"
    code, _, err = _calibrate(shots, faces, out, capsys)
    assert code != 0 and "Traceback" not in err
    assert "shown twice" in err and "Nothing was saved" in err
    assert not out.exists()


def test_die_faces_need_six_photos_of_the_board(
        shots: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    faces = list(shots["faces"])  # type: ignore[call-overload]
    out = tmp_path / "cal.json"
    code, _, err = _calibrate(shots, faces[:5], out, capsys)
    assert code != 0 and "needs six photos" in err and "(got 5)" in err
    code, _, err = _calibrate(shots, [*faces[:5], str(shots["blank"])], out, capsys)
    assert code != 0 and f"{shots['blank']}: the board was not found" in err
    code, _, err = _calibrate(shots, [*faces[:5], "/no/such/face6.png"], out, capsys)
    assert code != 0 and "/no/such/face6.png does not exist" in err
    code, _, err = _calibrate(shots, [], out, capsys)
    assert code != 0 and "only with --camera" in err
    assert not out.exists()


def test_faces_shown_live_to_a_camera(shots: dict[str, object], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """With --camera and no photos, each face is asked for and taken when Enter is pressed."""
    import companion.vision.images as images

    opening = cv2.imread(str(shots["opening"]))
    faces = iter([cv2.imread(p) for p in shots["faces"]])  # type: ignore[attr-defined]

    from companion.commands.calibrate import FRAMES

    def camera_frames(index: int, limit: int) -> Iterator[np.ndarray]:
        # The opening position for the pegs; then, per face, a dark frame
        # while the webcam settles and the face last.
        assert index == 3
        if limit == FRAMES:
            yield from [opening] * limit
            return
        yield from [np.zeros_like(opening)] * (limit - 1)
        yield next(faces)

    monkeypatch.setattr(images, "camera_frames", camera_frames)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 6))
    out = tmp_path / "cal.json"
    assert cli.main(["calibrate", "--camera", "3", "--die-faces", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("then press Enter") == 6 and "showing 6" in err
    assert load_calibration(out).die_faces is not None
    # Nobody at the keyboard: said so, not a hang or a traceback.
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["calibrate", "--camera", "3", "--die-faces", "--out", str(tmp_path / "b.json")]) != 0
    assert "the input has ended" in capsys.readouterr().err


def test_a_corrupt_die_faces_entry_is_named(shots: dict[str, object], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cal.json"
    code, _, err = _calibrate(shots, list(shots["faces"]), out, capsys)  # type: ignore[call-overload]
    assert code == 0, err
    data = json.loads(out.read_text())
    data["die_faces"]["faces"]["3"] = [[0, 1]]
    out.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=r"cal.json is not usable: die_faces: die faces: face 3"):
        load_calibration(out)
