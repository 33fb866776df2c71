"""The command lines `companion read` and `companion calibrate`: output contract and errors."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import cli
from companion.layout import COLORS, load_layout
from companion.sim import DieView, Scene, render
from companion.vision.calibration import (
    Calibration,
    CalibrationError,
    calibrate,
    load_calibration,
    save_calibration,
)
from companion.vision.locate import BoardPose
from companion.vision.reader import BoardReader

LAYOUT = load_layout()
OPENING = {c: ["home"] * 4 for c in COLORS}
POSITION = {"red": ["home", "home", "track:3", "finish:2"], "blue": ["home"] * 3 + ["track:9"],
            "yellow": ["home"] * 4, "green": ["home"] * 3 + ["track:20"]}


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("frames")
    scene = Scene.random(9300, LAYOUT, size=(1280, 720), hand=None, tilt_deg=30)
    out = {}
    for name, pegs in (("opening", OPENING), ("game", POSITION)):
        img, _ = render(pegs, DieView(4), scene, seed=7)
        out[name] = folder / f"{name}.png"
        cv2.imwrite(str(out[name]), img)
    out["blank"] = folder / "blank.png"
    cv2.imwrite(str(out["blank"]), np.full((480, 640, 3), 120, np.uint8))
    out["junk"] = folder / "junk.png"
    out["junk"].write_bytes(b"not an image")
    return out


def _lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_read_prints_one_contract_line_per_image(frames: dict[str, Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["read", str(frames["game"]), str(frames["blank"])])
    out = _lines(capsys.readouterr().out)
    assert code == 0
    assert [line["image"] for line in out] == [str(frames["game"]), str(frames["blank"])]
    game, blank = out
    assert game["board"] == {"found": True, "pegs": POSITION}
    assert set(game) == {"image", "board", "die"}
    die = game["die"]
    assert isinstance(die, dict) and die["state"] in ("settled", "cocked", "hidden")
    assert ("value" in die) == (die["state"] == "settled")
    assert blank["board"] == {"found": False,
                              "reason": "no board markers seen, and the board's own print could not be placed"}


def test_read_reports_bad_files_and_still_prints_the_good_ones(
        frames: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["read", str(frames["junk"]), "/no/such/file.png", str(frames["game"])])
    captured = capsys.readouterr()
    assert code != 0
    assert len(_lines(captured.out)) == 1
    assert "junk.png is not a readable image" in captured.err
    assert "/no/such/file.png does not exist" in captured.err
    assert "Traceback" not in captured.err


def test_read_with_manual_corners_and_bad_corners(frames: dict[str, Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["read", str(frames["game"]), "--corners", "1,2,3"]) == 2
    assert "needs 8 numbers" in capsys.readouterr().err


def test_calibrate_then_read_with_it(frames: dict[str, Path], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cal.json"
    assert cli.main(["calibrate", "--image", str(frames["opening"]), "--out", str(out)]) == 0
    summary = _lines(capsys.readouterr().out)[0]
    assert summary["calibration"] == str(out) and summary["frames"] == 1
    cal = load_calibration(out)
    assert set(cal.peg_chroma) == set(COLORS)
    assert cli.main(["read", str(frames["game"]), "--calibration", str(out)]) == 0
    assert _lines(capsys.readouterr().out)[0]["board"] == {"found": True, "pegs": POSITION}


def test_calibrate_refuses_a_board_not_in_the_opening_position(
        frames: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["calibrate", "--image", str(frames["game"]), "--out", str(tmp_path / "c.json")])
    err = capsys.readouterr().err
    assert code != 0 and "Home" in err
    assert not (tmp_path / "c.json").exists()


def test_calibrate_without_the_board_says_so(frames: dict[str, Path], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["calibrate", "--image", str(frames["blank"]), "--out", str(tmp_path / "c.json")]) != 0
    assert "board was not found" in capsys.readouterr().err


def test_a_corrupt_calibration_is_named_and_never_overwritten(
        frames: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "calibration.json"
    bad.write_text("{ this is not json")
    assert cli.main(["read", str(frames["game"]), "--calibration", str(bad)]) == 2
    assert f"calibration file {bad} is corrupt" in capsys.readouterr().err
    with pytest.raises(CalibrationError, match="not a companion-calibration file"):
        bad2 = tmp_path / "other.json"
        bad2.write_text('{"format": "something else"}')
        load_calibration(bad2)
    # Saving over the corrupt file keeps it beside the new one.
    reader = BoardReader(LAYOUT, read_die=False)
    frame = cv2.imread(str(frames["opening"]))
    pose = reader.locator.locate(frame)
    assert isinstance(pose, BoardPose)
    cal = calibrate([reader.evidence(frame, pose, reader.plan_for(pose, frame.shape[:2]))], LAYOUT)
    kept = save_calibration(cal, bad)
    assert kept is not None and kept.read_text() == "{ this is not json"
    assert load_calibration(bad) == cal


def test_calibrate_needs_exactly_one_source(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["calibrate"])
    assert "one of the arguments" in capsys.readouterr().err


def test_read_names_an_overlay_folder_it_cannot_make(
        frames: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    assert cli.main(["read", str(frames["blank"]), "--overlay", str(a_file)]) == 2
    err = capsys.readouterr().err
    assert "--overlay" in err and "notes.txt is a file, not a folder" in err


def test_a_binary_calibration_is_corrupt_and_a_folder_is_never_set_aside(
        frames: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "calibration.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert cli.main(["read", str(frames["blank"]), "--calibration", str(binary)]) == 2
    assert f"calibration file {binary} is corrupt (not UTF-8" in capsys.readouterr().err
    cal = Calibration(layout="classic", peg_chroma={c: (1.0, 0.0, 0.0) for c in COLORS},
                      min_saturation=0.3, recess_value=0.3, frames=1, created="now")
    assert save_calibration(cal, binary) == tmp_path / "calibration.json.corrupt"
    folder = tmp_path / "calibrations"
    folder.mkdir()
    with pytest.raises(CalibrationError, match="calibrations: it is a folder"):
        save_calibration(cal, folder)
    assert folder.is_dir() and not (tmp_path / "calibrations.corrupt").exists()
    with pytest.raises(CalibrationError, match="notes.txt is a file, not a folder"):
        (tmp_path / "notes.txt").write_text("not a folder")
        save_calibration(cal, tmp_path / "notes.txt" / "cal.json")


def test_calibrate_refuses_a_negative_camera_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["calibrate", "--camera", "-1"]) == 2  # was a segmentation fault
    assert "camera numbers start at 0" in capsys.readouterr().err
