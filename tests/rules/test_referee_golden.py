"""Golden playthroughs through the real ``companion referee`` entry point.

tests/golden/NAME.in.jsonl is fed to ``companion referee`` and its output must
equal NAME.out.jsonl line for line. The files were written once by
tests/golden/make_golden.py and then read by hand; they are the spec.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import cli

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
GAMES = sorted(p.name[: -len(".in.jsonl")] for p in GOLDEN.glob("*.in.jsonl"))


def test_there_are_golden_games() -> None:
    assert {
        "four-players",
        "two-players-two-colours",
        "basic-play",
        "undo-and-errors",
        "first-ties",
    } <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_golden_game(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["referee", str(GOLDEN / f"{name}.in.jsonl")]) == 0
    got = capsys.readouterr().out.splitlines()
    expected = (GOLDEN / f"{name}.out.jsonl").read_text(encoding="utf-8").splitlines()
    for number, (a, b) in enumerate(zip(got, expected, strict=False), start=1):
        assert a == b, f"{name}.out.jsonl line {number} differs"
    assert len(got) == len(expected)
    assert '"game-over"' in expected[-1] or name == "undo-and-errors"


def test_console_entry_point_reads_stdin() -> None:
    """One real subprocess: the installed ``companion`` command, reading ``-``."""
    exe = Path(sys.executable).with_name("companion")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "companion"]
    source = GOLDEN / "undo-and-errors.in.jsonl"
    with open(source, encoding="utf-8") as stdin:
        done = subprocess.run(
            [*command, "referee", "-"],
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (GOLDEN / "undo-and-errors.out.jsonl").read_text(encoding="utf-8")


def test_missing_file_is_one_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert cli.main(["referee", str(tmp_path / "nope.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"companion referee: error: no such file: {tmp_path / 'nope.jsonl'}"
    assert cli.main(["referee", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_a_line_that_is_not_utf8_is_one_error_event_and_the_game_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = b'{"pop": 4}\n{"pop": \xff}\n{"pop": 5}\n'
    source = tmp_path / "latin.jsonl"
    source.write_bytes(lines)
    assert cli.main(["referee", str(source)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e["event"] for e in out] == ["pop", "error", "pop"]
    assert "UTF-8" in out[1]["text"]
    # Standard input too, where a strict UTF-8 locale used to end in a traceback.
    exe = Path(sys.executable).with_name("companion")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "companion"]
    done = subprocess.run(
        [*command, "referee"], input=lines, capture_output=True, timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert [json.loads(line)["event"] for line in done.stdout.splitlines()] == ["pop", "error", "pop"]
