"""``companion render``: one frame from a STATE file, clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main


def test_render_writes_frame_and_truth(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"red": ["home", "track:3"], "green": ["finish:1"]}))
    out, truth = tmp_path / "f.png", tmp_path / "t.json"
    assert main(["render", "--state", str(state), "--die", "4", "--out", str(out), "--truth", str(truth), "--seed", "2", "--size", "640x480", "--clean"]) == 0
    img = cv2.imread(str(out))
    assert img is not None and img.shape == (480, 640, 3)
    t = json.loads(truth.read_text())
    assert t["pegs"] == {"red": ["home", "track:3"], "green": ["finish:1"]}
    assert t["die"]["value"] == 4 and t["die"]["settled"] is True
    assert t["hand"]["present"] is False


@pytest.mark.parametrize(
    ("content", "args", "needle"),
    [
        (None, [], "does not exist"),
        ("{oops", [], "not valid JSON"),
        ("[1, 2]", [], "expected an object of pegs"),
        ('{"red": ["track:99"]}', [], "track space 99"),
        ('{"red": ["home"]}', ["--size", "big"], "expected WIDTHxHEIGHT"),
        ('{"red": ["home"]}', ["--tilt", "80"], "--tilt 80.0: must be between"),
        (b"\x89PNG\r\n\x1a\n\xff", [], "is not UTF-8 text"),
        ('{"red": ["home"]}', ["--seed", "-1"], "--seed must be 0 or more"),
    ],
)
def test_render_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes | None, args: list[str], needle: str) -> None:
    state = tmp_path / "s.json"
    if isinstance(content, bytes):
        state.write_bytes(content)
    elif content is not None:
        state.write_text(content)
    code = main(["render", "--state", str(state), "--die", "3", "--out", str(tmp_path / "f.png"), *args])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("companion render: error:") and needle in err
