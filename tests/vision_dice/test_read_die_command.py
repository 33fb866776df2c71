"""``companion read-die``: one JSON line per photo; clear errors, good lines still printed."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from drawn_dice import draw_die

from companion.cli import main


def test_json_lines_for_good_photos_and_errors_for_bad_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    four = tmp_path / "four.png"
    cv2.imwrite(str(four), draw_die(4, 30))
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), draw_die(1, 0)[:, :20])  # a sliver of background: no die
    text = tmp_path / "notes.png"
    text.write_text("not an image at all")
    missing = tmp_path / "missing.jpg"

    code = main(["read-die", str(four), str(missing), str(text), str(blank), str(tmp_path)])

    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["image"] for line in lines] == [str(four), str(blank)]
    assert lines[0]["value"] == 4 and 0.5 <= lines[0]["confidence"] <= 1.0
    assert lines[1] == {"image": str(blank), "value": None, "confidence": 0.0}
    assert set(lines[0]) == {"image", "value", "confidence"}
    assert code != 0
    errors = err.splitlines()
    assert len(errors) == 3
    assert "missing.jpg does not exist" in errors[0]
    assert "notes.png is not a readable image" in errors[1]
    assert "is a folder" in errors[2]
    assert "Traceback" not in err


def test_all_good_photos_exit_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = []
    for value in (2, 6):
        p = tmp_path / f"d{value}.png"
        cv2.imwrite(str(p), draw_die(value, 70))
        paths.append(str(p))
    assert main(["read-die", *paths]) == 0
    values = [json.loads(line)["value"] for line in capsys.readouterr().out.splitlines()]
    assert values == [2, 6]


def test_no_image_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["read-die"])
    assert exc.value.code != 0
