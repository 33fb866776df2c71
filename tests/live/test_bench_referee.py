"""``companion bench referee``: its figures are printed, for both sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import cli


def test_truth_source_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "referee", "--games", "2", "--unread", "0.2"]) == 0
    out = capsys.readouterr().out
    for figure in ("games with every event right", "false illegal-move announcements",
                   "missed illegal moves", "delay settled -> announced", "pops seen but not read"):
        assert figure in out
    assert "blind" in out  # the mess of moves never seen stable is woven in


def test_video_source_in_two_processes_gives_the_same_verdicts_as_one(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "referee", "--source", "video", "--games", "2", "--turns", "1",
            "--size", "320x240", "--fps", "5", "--clean"]
    assert cli.main(args) == 0
    one = capsys.readouterr().out
    assert cli.main([*args, "--jobs", "2"]) == 0
    two = capsys.readouterr().out

    def verdicts(out: str) -> list[str]:
        return [re.sub(r"\d+ frames", "", line) for line in out.splitlines() if line.startswith("  seed ")]

    assert len(verdicts(one)) == 2 and verdicts(one) == verdicts(two)
    assert "games with every event right" in two and "frames/s on one core" in two


def test_nonsense_is_refused_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "referee", "--source", "video", "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err
    # Said before any game is rendered (these were tracebacks mid-render).
    for args, needle in [(["--size", "10x"], "--size '10x': expected WIDTHxHEIGHT"),
                         (["--fps", "0"], "--fps 0.0: must be between 1 and 60"),
                         (["--turns", "-1"], "--turns must be 0"),
                         (["--seed", "-1"], "--seed must be 0 or more")]:
        assert cli.main(["bench", "referee", "--source", "video", "--games", "1", *args]) == 2
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err


def test_the_truth_source_weaves_in_only_the_messes_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "referee", "--games", "2", "--messes", "lift,illegal"]) == 0
    woven = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("messy hands"))
    assert "blind" not in woven and "lift" in woven
    assert cli.main(["bench", "referee", "--messes", "juggling"]) == 2
    assert "unknown mess juggling" in capsys.readouterr().err


def test_kept_readings_replay_to_the_same_verdicts_without_rendering(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["bench", "referee", "--source", "video", "--games", "2", "--turns", "2",
            "--size", "320x240", "--fps", "5"]
    assert cli.main([*args, "--keep-readings", str(tmp_path)]) == 0
    rendered = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game0.pkl", "game1.pkl"]
    assert cli.main([*args, "--from-readings", str(tmp_path)]) == 0
    replayed = capsys.readouterr().out

    def verdicts(out: str) -> list[str]:
        return [line for line in out.splitlines() if line.startswith("  seed ")]

    assert len(verdicts(rendered)) == 2 and verdicts(replayed) == verdicts(rendered)
    # The players who say each number once asked (and answer questions) play
    # from the same kept truth; a rendering needs the kept games for it.
    assert cli.main([*args, "--from-readings", str(tmp_path), "--say-numbers"]) == 0
    assert ("players answer the referee's questions, say each number once asked"
            in capsys.readouterr().out)
    assert cli.main([*args, "--say-numbers"]) == 2
    assert "needs --from-readings" in capsys.readouterr().err
    # so do players who count their moves aloud
    assert cli.main([*args, "--from-readings", str(tmp_path), "--count-aloud"]) == 0
    assert ("players answer the referee's questions, count each move aloud"
            in capsys.readouterr().out)
    assert cli.main([*args, "--count-aloud"]) == 2
    assert "needs --from-readings" in capsys.readouterr().err
    assert cli.main(["bench", "referee", "--games", "1", "--count-aloud"]) == 2
    assert "--count-aloud is for rendered games" in capsys.readouterr().err


def test_missing_or_broken_kept_readings_are_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["bench", "referee", "--source", "video", "--games", "1", "--from-readings", str(tmp_path)]
    assert cli.main(args) == 2
    assert "game0.pkl: no kept readings for seed 0" in capsys.readouterr().err
    (tmp_path / "game0.pkl").write_bytes(b"not a pickle")
    assert cli.main(args) == 2
    assert "game0.pkl: not a kept game" in capsys.readouterr().err
