"""The printable score sheet and ``companion score``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.pdf import PT_PER_MM
from companion.store import GameStore, score_table
from companion.store.sheet import draw_score_sheet


def _store_with_games(db: Path) -> None:
    with GameStore(db) as store:
        for winner, rest in (("blue", ["red"]), ("red", ["blue"]), ("blue", ["red"])):
            gid = store.new_game([["red"], ["blue"]], "test")
            store.finish(gid, [winner, *rest])


def test_sheet_marks_each_winner_and_totals(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    _store_with_games(db)
    with GameStore(db) as store:
        table = score_table(store)
    pdf = draw_score_sheet(table, rows=10, paper="a4").to_bytes().decode("latin-1")
    assert "Trouble - match score sheet" in pdf
    assert len(re.findall(r"\(X\) Tj", pdf)) == 3
    assert "(Red) Tj" in pdf and "(Blue) Tj" in pdf
    box = re.search(r"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert box is not None
    assert abs(float(box.group(1)) / PT_PER_MM - 210.0) < 0.1
    assert abs(float(box.group(2)) / PT_PER_MM - 297.0) < 0.1
    # Totals: Red 1, Blue 2.
    assert "(1) Tj" in pdf and "(2) Tj" in pdf


def test_score_command_prints_table_and_writes_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    _store_with_games(db)
    assert main(["score", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Red 1, Blue 2" in out
    sheet = tmp_path / "sheet.pdf"
    assert main(["score", "--db", str(db), "--sheet", str(sheet)]) == 0
    assert sheet.read_bytes().startswith(b"%PDF-1.4")
    assert main(["score", "--db", str(db), "--sheet", str(tmp_path / "nope" / "s.pdf")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["score", "--db", str(db), "--new-match"]) == 0
    assert "No game of this match has been won yet" in capsys.readouterr().out


def test_score_on_a_corrupt_record_is_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    db.write_bytes(b"\x00garbage" * 500)
    assert main(["score", "--db", str(db)]) == 3
    err = capsys.readouterr().err
    assert str(db) in err and "left untouched" in err


def test_score_with_a_mistyped_record_or_sheet_name_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A --db that does not exist is a typo, not an empty match: nothing is made.
    typo = tmp_path / "gmaes.sqlite3"
    assert main(["score", "--db", str(typo)]) == 2
    assert "no game record at" in capsys.readouterr().err
    assert not typo.exists()
    db = tmp_path / "g.sqlite3"
    _store_with_games(db)
    assert main(["score", "--db", str(db), "--sheet", str(tmp_path / "sheet.txt")]) == 2
    assert "is a PDF" in capsys.readouterr().err
    assert not (tmp_path / "sheet.txt").exists()
