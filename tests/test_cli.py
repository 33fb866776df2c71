"""The command line: every registered command has a module and helps."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from companion import cli


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_every_command_module_configures_and_runs(name: str) -> None:
    module = importlib.import_module(f"companion.commands.{cli.COMMANDS[name][0]}")
    assert callable(module.configure)
    assert callable(module.run)


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    assert "referee" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "needle"), [
    (["--frames", "-5"], "--frames must be at least 1"),
    (["--cameras", "0"], "--cameras must be at least 1"),
    (["--seed", "-1"], "--seed must be 0 or more"),
])
def test_bench_vision_refuses_counts_that_would_measure_nothing(
        args: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    # These used to run nothing and print "n/a" figures with exit status 0.
    assert cli.main(["bench", "vision", "--only", "dice-rendered", *args]) == 2
    assert needle in capsys.readouterr().err


def test_demo_names_a_speech_folder_it_cannot_make(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Said before the demo runs, not a closing line claiming speech was written there.
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    assert cli.main(["demo", "--speech-out", str(a_file / "speech")]) == 2
    assert "--speech-out" in capsys.readouterr().err
