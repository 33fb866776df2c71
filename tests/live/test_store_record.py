"""The game record: durable, resumable, and never overwritten when damaged."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from companion.store import GameStore, StoreCorrupt, score_table
from companion.store.schema import SCHEMA_VERSION


def test_inputs_and_events_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        gid = store.new_game([["red"], ["blue"]], "video x.mp4")
        store.record(gid, {"setup": {"players": ["red", "blue"]}}, [], origin="setup")
        store.record(gid, {"pop": 6}, [{"event": "pop", "value": 6, "text": "Red pops 6."}], t=1.5)
        store.record_correction(gid, {"intent": "pop", "value": 5}, "The pop is 5.")
    with GameStore(db) as store:
        recs = store.inputs(gid)
        assert [r.input for r in recs] == [{"setup": {"players": ["red", "blue"]}}, {"pop": 6}]
        assert recs[1].t == 1.5 and recs[1].origin == "camera"
        assert store.events(gid) == [{"event": "pop", "value": 6, "text": "Red pops 6."}]
        assert store.corrections(gid) == [({"intent": "pop", "value": 5}, "The pop is 5.")]
        assert store.last_unfinished() is not None
        assert store.last_unfinished().players == (("red",), ("blue",))  # type: ignore[union-attr]


def test_new_game_abandons_the_unfinished_one(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.sqlite3") as store:
        first = store.new_game([["red"], ["blue"]], "camera 0")
        second = store.new_game([["red"], ["blue"]], "camera 0")
        assert store.game(first).status == "abandoned"
        assert store.last_unfinished().id == second  # type: ignore[union-attr]


def test_score_counts_wins_per_player_across_runs(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    for winner in ("blue", "red", "blue"):
        with GameStore(db) as store:
            gid = store.new_game([["red"], ["blue"], ["yellow"]], "camera 0")
            others = [c for c in ("red", "blue", "yellow") if c != winner]
            store.finish(gid, [winner, *others])
    with GameStore(db) as store:
        store.new_game([["red"], ["blue"], ["yellow"]], "camera 0")  # still playing
        table = score_table(store)
    assert table.players == ("red", "blue", "yellow")
    assert (table.wins("red"), table.wins("blue"), table.wins("yellow")) == (1, 2, 0)
    assert table.leaders == ("blue",)
    assert table.unfinished == 1
    assert "Blue 2" in table.sentence() and "After 3 games" in table.sentence()
    assert "total" in table.text()


def test_new_match_starts_a_fresh_tally(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.sqlite3") as store:
        gid = store.new_game([["red", "yellow"], ["blue", "green"]], "camera 0")
        store.finish(gid, ["red+yellow", "blue+green"])
        assert score_table(store).wins("red+yellow") == 1
        store.new_match()
        assert score_table(store).games == ()


def test_garbage_file_is_reported_and_kept(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    junk = b"this is not a database, it is a shopping list\n" * 200
    db.write_bytes(junk)
    with pytest.raises(StoreCorrupt) as err:
        GameStore(db)
    assert str(db) in str(err.value) and "mv" in str(err.value)
    assert db.read_bytes() == junk


def test_a_spoiled_row_is_named_not_a_traceback(tmp_path: Path) -> None:
    # SQLite's quick_check passes a row whose JSON text was spoiled.
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        gid = store.new_game([["red"], ["blue"]], "camera 0")
        store.record(gid, {"pop": 6}, [{"event": "pop", "value": 6, "text": "Red pops 6."}])
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE inputs SET input = '{not json'")
    with GameStore(db) as store, pytest.raises(StoreCorrupt, match="input 0 of game 1 is not valid JSON"):
        store.inputs(gid)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET players = '5'")
    with GameStore(db) as store, pytest.raises(StoreCorrupt, match="players of game 1 are not lists"):
        store.last_unfinished()


def test_foreign_or_newer_database_is_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "other.sqlite3"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(StoreCorrupt, match="not a companion game record"):
        GameStore(foreign)
    newer = tmp_path / "newer.sqlite3"
    GameStore(newer).close()
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreCorrupt, match="newer companion"):
        GameStore(newer)


def test_sigkill_loses_no_committed_input(tmp_path: Path) -> None:
    """A writer killed with SIGKILL leaves every input it had recorded."""
    db = tmp_path / "g.sqlite3"
    marker = tmp_path / "progress"
    script = textwrap.dedent(
        f"""
        import os
        from companion.store import GameStore
        store = GameStore({str(db)!r})
        gid = store.new_game([["red"], ["blue"]], "test")
        for i in range(100000):
            store.record(gid, {{"pop": 1 + i % 6}}, [{{"event": "pop", "n": i}}])
            # Atomic replace: the kill can never leave a half-written marker.
            with open({str(marker)!r} + ".tmp", "w") as f:
                f.write(str(i))
            os.replace({str(marker)!r} + ".tmp", {str(marker)!r})
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 120  # generous: a busy 2-core CI machine
        while time.monotonic() < deadline:
            if marker.exists() and int(marker.read_text()) >= 20:
                break
            proc.poll()
            assert proc.returncode is None, "writer died on its own"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert marker.exists(), "the writer recorded nothing in 120 s"
    done = int(marker.read_text())
    with GameStore(db) as store:
        game = store.last_unfinished()
        assert game is not None
        recs = store.inputs(game.id)
    # Every input written before the marker was updated is there, complete.
    assert len(recs) >= done + 1
    assert [r.events[0]["n"] for r in recs] == list(range(len(recs)))
