"""``companion replay`` on observation files: the truth out, and a crash survived."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.live.judge import event_key
from companion.live.observations import to_json
from companion.live.scripted import ScriptedGame, scripted_game
from companion.store import GameStore


def write_game(path: Path, game: ScriptedGame) -> Path:
    with path.open("w") as f:
        for obs in game.observations:
            f.write(json.dumps(to_json(obs)) + "\n")
    return path


def events_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_replay_prints_the_truth_event_for_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Each wrong count stands 4 s (one put right within a second is not
    # called: the loop waits CALL_HOLD_S first; see test_call_hold.py).
    game = scripted_game(11, ["red", "blue", "green"], messy=0.3, miscount_stands_s=4.0)
    assert game.illegal_at, "the seed should put in at least one illegal move"
    path = write_game(tmp_path / "g.jsonl", game)
    assert main(["replay", str(path), "--players", "red,blue,green"]) == 0
    out = events_of(capsys.readouterr().out)
    assert [event_key(e) for e in out if e["event"] != "illegal"] == [event_key(e) for e in game.truth]
    assert sum(e["event"] == "illegal" for e in out) == len(game.illegal_at)
    assert out[-1]["event"] == "game-over"


def test_replay_records_the_game_and_the_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = scripted_game(5, ["red", "blue"])
    path = write_game(tmp_path / "g.jsonl", game)
    db = tmp_path / "rec.sqlite3"
    assert main(["replay", str(path), "--db", str(db)]) == 0
    capsys.readouterr()
    with GameStore(db) as store:
        (row,) = store.games()
        assert row.status == "finished" and row.places is not None
        assert [event_key(e) for e in store.events(row.id)] == [event_key(e) for e in game.truth]
    assert main(["score", "--db", str(db)]) == 0
    assert row.places[0] in capsys.readouterr().out


def test_bad_observation_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"t": 0.5, "board": {"red": ["home"]}}\n{"t": 1.0, "pop": 9}\n')
    assert main(["replay", str(path), "--players", "red,blue"]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:2" in err and "1 to 6" in err


def test_bad_observation_files_are_named_after_the_good_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = '["home", "home", "home", "home"]'
    opening = f'{{"t": 0.5, "board": {{"red": {home}, "blue": {home}}}}}\n{{"t": 1.0, "pop": 4}}\n'
    path = tmp_path / "bad.jsonl"
    for line, needle in [
        (b'{"t": 2.0, "pop": \xe9}\n', "bad.jsonl:3: not UTF-8 text"),
        (b'{"t": NaN, "pop": 3}\n', 'bad.jsonl:3: an observation needs a time "t"'),
        (b'{"t": 2.0, "board": {"purple": ["home"]}}\n', "bad.jsonl:3: \"board\" has unknown colour 'purple'"),
    ]:
        path.write_bytes(opening.encode() + line)
        assert main(["replay", str(path), "--players", "red,blue"]) == 2
        out, err = capsys.readouterr()
        assert needle in err and "Traceback" not in err
        assert events_of(out)[0]["event"] == "pop"  # the line before it was refereed
    path.write_text("\n")
    assert main(["replay", str(path)]) == 2  # was a silent exit 0
    assert "bad.jsonl holds no observations" in capsys.readouterr().err


def test_replay_refuses_what_play_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_game(tmp_path / "g.jsonl", scripted_game(1, ["red", "blue"]))
    assert main(["replay", str(path), "--players", "red,blue", "--first", "green"]) == 2
    out, err = capsys.readouterr()
    assert "--first green: that colour is not among --players" in err and out == ""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    assert main(["replay", str(path), "--speech-out", str(a_file)]) == 2
    assert "notes.txt is a file, not a folder" in capsys.readouterr().err


def test_resume_needs_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_game(tmp_path / "g.jsonl", scripted_game(1, ["red", "blue"]))
    assert main(["replay", str(path), "--resume"]) == 2
    assert "--db" in capsys.readouterr().err
    assert main(["replay", str(path), "--resume", "--db", str(tmp_path / "empty.sqlite3")]) == 2
    assert "no unfinished game" in capsys.readouterr().err


def _record(db: Path) -> list[tuple]:
    with GameStore(db) as store:
        (row,) = [g for g in store.games() if g.status != "abandoned"]
        return [(r.input, r.events, r.t, r.origin) for r in store.inputs(row.id)], row.status


@pytest.mark.slow
def test_sigkill_mid_game_then_resume_gives_the_same_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = scripted_game(23, ["red", "blue", "yellow", "green"], messy=0.3)
    path = write_game(tmp_path / "g.jsonl", game)
    whole_db = tmp_path / "whole.sqlite3"
    assert main(["replay", str(path), "--db", str(whole_db)]) == 0
    whole, status = _record(whole_db)
    assert status == "finished"

    db = tmp_path / "killed.sqlite3"
    # The real command in a real process, slowed to 20 ms per stored batch so
    # that the kill lands mid-game however busy the machine is.
    slowed = (
        "import sys, time\n"
        "from companion.store import GameStore\n"
        "real = GameStore.record_many\n"
        "def slow(self, *a, **k):\n"
        "    out = real(self, *a, **k)\n"
        "    time.sleep(0.02)\n"
        "    return out\n"
        "GameStore.record_many = slow\n"
        "from companion.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", slowed, "replay", str(path), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    target = len(whole) // 3
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert proc.poll() is None, "replay ended before it could be killed"
            try:
                with sqlite3.connect(db, timeout=1) as conn:
                    n = conn.execute("SELECT count(*) FROM inputs").fetchone()[0]
            except sqlite3.Error:
                n = 0
            if n >= target:
                break
            time.sleep(0.002)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    partial, status = _record(db)
    assert status == "playing" and target <= len(partial) < len(whole)
    assert partial == whole[: len(partial)]

    assert main(["replay", str(path), "--db", str(db), "--resume"]) == 0
    capsys.readouterr()
    resumed, status = _record(db)
    assert status == "finished"
    assert resumed == whole


@pytest.mark.slow
def test_replay_of_a_rendered_video_equals_its_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``companion simulate`` writes a clip and its truth; ``companion replay`` reads the clip back."""
    pytest.importorskip("cv2")
    video, truth_path = tmp_path / "g.avi", tmp_path / "truth.jsonl"
    assert main([
        "simulate", "--seed", "1", "--turns", "3", "--fps", "10", "--players", "red,blue",
        "--size", "640x480", "--clean", "--out", str(video), "--truth", str(truth_path),
    ]) == 0
    capsys.readouterr()
    lines = [json.loads(line) for line in truth_path.read_text().splitlines()]
    setup = lines[0]["header"]["setup"]
    truth = [e for line in lines[1:] for e in line.get("events", [])]
    assert main(["replay", str(video), "--players", ",".join(setup["players"]), "--first", setup["turn"]]) == 0
    out = events_of(capsys.readouterr().out)
    assert [event_key(e) for e in out] == [event_key(e) for e in truth]
