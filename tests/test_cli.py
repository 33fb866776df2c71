"""The command line: every registered command has a module and helps."""

from __future__ import annotations

import importlib

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
