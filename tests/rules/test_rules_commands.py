"""``companion demo``, ``companion bench rules`` and the core's doctests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re

import pytest

import companion.rules
from companion import cli


def test_demo_referees_a_whole_game_and_prints_the_turns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["demo", "--quick", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Who goes first?" in out and "goes first with" in out
    assert re.search(r"^(Red|Blue|Yellow|Green)'s turn\.$", out, re.M)
    assert re.search(r"^\*\*\* Game over: \w+ wins\.$", out, re.M)
    assert "error" not in out.lower() and "does not match" not in out
    assert re.search(r"^  ! That peg moved \d spaces?, but the pop was \d\.$", out, re.M)


def test_demo_json_is_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--quick", "--seed", "2", "--players", "2", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith('{"in": {"setup"') and '"game-over"' in lines[-1]


def test_bench_rules_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "rules", "--games", "5", "--queries", "2000"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\d+ games/s$", out, re.M)
    assert re.search(r"^\d+ queries/s$", out, re.M)
    assert re.search(r"^games played: 5, mean pops per game: \d+\.\d$", out, re.M)


def test_bench_rules_refuses_nonsense(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "rules", "--games", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_rules_doctests() -> None:
    failures = 0
    modules = [companion.rules] + [
        importlib.import_module(f"companion.rules.{m.name}")
        for m in pkgutil.iter_modules(companion.rules.__path__)
    ]
    tried = 0
    for module in modules:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        failures += result.failed
        tried += result.attempted
    assert failures == 0 and tried >= 10


def test_demo_is_the_same_game_for_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["demo", "--quick", "--seed", "7"])
    first = capsys.readouterr().out
    cli.main(["demo", "--quick", "--seed", "7"])
    assert capsys.readouterr().out == first
    cli.main(["demo", "--quick", "--seed", "8"])
    assert capsys.readouterr().out != first
