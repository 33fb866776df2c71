"""The game record: every game, every referee input and event, every correction.

Why a record of *inputs*: the referee is deterministic, so replaying the
recorded inputs into a fresh referee rebuilds the game exactly (resume after a
crash), and the events stored beside them let a test or a person check that
the rebuilt game said the same things. Each input is written with its events
in one transaction, committed before the companion speaks, under WAL with
``synchronous=FULL``: after a SIGKILL the record holds every announced event.

A damaged file is never overwritten or "repaired": :class:`StoreCorrupt`
names it and says how to move it aside.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.paths import user_data_dir
from companion.store.schema import SchemaError, ensure_schema

#: The file name of the record in the user's data folder.
DEFAULT_DB_NAME = "games.sqlite3"


class StoreCorrupt(UserError):
    """The database file cannot be used; it is left exactly as it was."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(
            f"the game record {path} cannot be used: {why}. It was left untouched. "
            f"Move it aside (mv '{path}' '{path}.broken') to start a fresh record, "
            "or pass --db with another file.",
            exit_code=3,
        )
        self.path = path


@dataclass(frozen=True)
class GameRow:
    """One game as listed in the record."""

    id: int
    match_id: int
    started_at: str
    ended_at: str | None
    status: str
    players: tuple[tuple[str, ...], ...]
    source: str
    places: tuple[str, ...] | None


@dataclass(frozen=True)
class RecordedInput:
    """One referee input as recorded, with the events it produced."""

    seq: int
    t: float | None
    origin: str
    input: dict[str, Any]
    events: tuple[dict[str, Any], ...]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def default_db_path() -> Path:
    """Where the record lives unless ``--db`` says otherwise."""
    return user_data_dir() / DEFAULT_DB_NAME


def player_name(colours: Sequence[str]) -> str:
    """A player's name in the score: their colour, or ``red+yellow`` for two."""
    return "+".join(colours)


class GameStore:
    """The SQLite record of games and the match score.

    Open it once per run; every write is its own committed transaction.
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        if self.path.is_dir():
            raise UserError(f"the game record {self.path} is a folder, not a file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot create the folder for the game record {self.path}: {exc}") from exc
        existed = self.path.exists() and self.path.stat().st_size > 0
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        except sqlite3.Error as exc:
            raise UserError(f"cannot open the game record {self.path}: {exc}") from exc
        try:
            if existed:
                row = self._conn.execute("PRAGMA quick_check").fetchone()
                if row is None or row[0] != "ok":
                    raise StoreCorrupt(self.path, f"SQLite's check failed ({row[0] if row else '?'})")
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            ensure_schema(self._conn)
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StoreCorrupt(self.path, f"it is not a readable SQLite database ({exc})") from exc
        except SchemaError as exc:
            self._conn.close()
            raise StoreCorrupt(self.path, str(exc)) from exc
        except StoreCorrupt:
            self._conn.close()
            raise

    # -- lifecycle -----------------------------------------------------------

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, sql_params: Sequence[tuple[str, tuple[Any, ...]]]) -> sqlite3.Cursor:
        """Run statements in one committed transaction; return the last cursor."""
        cur = self._conn.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in sql_params:
                cur.execute(sql, params)
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        cur.execute("COMMIT")
        return cur

    # -- matches -------------------------------------------------------------

    def current_match(self) -> int:
        """The open match (games won count towards it); opened when none is."""
        row = self._conn.execute(
            "SELECT id FROM matches WHERE closed_at IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row:
            return int(row[0])
        cur = self._write([("INSERT INTO matches (started_at) VALUES (?)", (_now(),))])
        return int(cur.lastrowid or 0)

    def new_match(self) -> int:
        """Close the open match and start a fresh tally."""
        self._write([("UPDATE matches SET closed_at = ? WHERE closed_at IS NULL", (_now(),))])
        return self.current_match()

    # -- games ---------------------------------------------------------------

    def new_game(self, players: Sequence[Sequence[str]], source: str) -> int:
        """Start recording a game; any unfinished game is marked abandoned."""
        match_id = self.current_match()
        players_json = json.dumps([list(p) for p in players])
        cur = self._write(
            [
                ("UPDATE games SET status = 'abandoned', ended_at = ? WHERE status = 'playing'", (_now(),)),
                (
                    "INSERT INTO games (match_id, started_at, status, players, source) "
                    "VALUES (?, ?, 'playing', ?, ?)",
                    (match_id, _now(), players_json, source),
                ),
            ]
        )
        return int(cur.lastrowid or 0)

    def record(
        self,
        game_id: int,
        input_line: dict[str, Any],
        events: Sequence[dict[str, Any]],
        *,
        t: float | None = None,
        origin: str = "camera",
    ) -> int:
        """Record one referee input and the events it produced; return its seq.

        Committed before returning: call it before speaking the events.
        """
        return self.record_many(game_id, [(input_line, events, t, origin)])

    def record_many(
        self,
        game_id: int,
        items: Sequence[tuple[dict[str, Any], Sequence[dict[str, Any]], float | None, str]],
    ) -> int:
        """Record several inputs (line, events, t, origin) in ONE transaction.

        The loop records everything one observation produced this way, so a
        crash never leaves half of an observation in the record. Returns the
        seq of the last input.
        """
        row = self._conn.execute(
            "SELECT coalesce(max(seq), -1) + 1 FROM inputs WHERE game_id = ?", (game_id,)
        ).fetchone()
        seq = int(row[0]) - 1
        statements: list[tuple[str, tuple[Any, ...]]] = []
        for input_line, events, t, origin in items:
            seq += 1
            statements.append(
                (
                    "INSERT INTO inputs (game_id, seq, t, origin, input) VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq, t, origin, json.dumps(input_line, sort_keys=True)),
                )
            )
            for n, event in enumerate(events):
                statements.append(
                    (
                        "INSERT INTO events (game_id, input_seq, n, event) VALUES (?, ?, ?, ?)",
                        (game_id, seq, n, json.dumps(event, sort_keys=True)),
                    )
                )
        self._write(statements)
        return seq

    def record_correction(
        self, game_id: int, command: dict[str, Any], outcome: str, *, t: float | None = None
    ) -> None:
        """Record a spoken correction and what the companion made of it."""
        row = self._conn.execute(
            "SELECT coalesce(max(seq), -1) + 1 FROM corrections WHERE game_id = ?", (game_id,)
        ).fetchone()
        self._write(
            [
                (
                    "INSERT INTO corrections (game_id, seq, t, command, outcome) VALUES (?, ?, ?, ?, ?)",
                    (game_id, int(row[0]), t, json.dumps(command, sort_keys=True), outcome),
                )
            ]
        )

    def finish(self, game_id: int, places: Sequence[str]) -> None:
        """Mark a game finished with its players in finishing order (winner first)."""
        self._write(
            [
                (
                    "UPDATE games SET status = 'finished', ended_at = ?, places = ? WHERE id = ?",
                    (_now(), json.dumps(list(places)), game_id),
                )
            ]
        )

    def abandon(self, game_id: int) -> None:
        """Mark a game abandoned (a confirmed "new game" mid-game)."""
        self._write(
            [
                (
                    "UPDATE games SET status = 'abandoned', ended_at = ? WHERE id = ? AND status = 'playing'",
                    (_now(), game_id),
                )
            ]
        )

    # -- reading -------------------------------------------------------------

    def game(self, game_id: int) -> GameRow:
        row = self._conn.execute(
            "SELECT id, match_id, started_at, ended_at, status, players, source, places "
            "FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise UserError(f"the game record {self.path} has no game {game_id}")
        return self._game_row(row)

    def games(self, match_id: int | None = None) -> list[GameRow]:
        sql = (
            "SELECT id, match_id, started_at, ended_at, status, players, source, places FROM games"
        )
        params: tuple[Any, ...] = ()
        if match_id is not None:
            sql += " WHERE match_id = ?"
            params = (match_id,)
        return [self._game_row(r) for r in self._conn.execute(sql + " ORDER BY id", params)]

    def last_unfinished(self) -> GameRow | None:
        """The game a ``--resume`` continues: the latest one still playing."""
        row = self._conn.execute(
            "SELECT id, match_id, started_at, ended_at, status, players, source, places "
            "FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return self._game_row(row) if row else None

    def inputs(self, game_id: int) -> list[RecordedInput]:
        """Every recorded input of a game, in order, with its events."""
        events: dict[int, list[dict[str, Any]]] = {}
        for input_seq, event in self._conn.execute(
            "SELECT input_seq, event FROM events WHERE game_id = ? ORDER BY input_seq, n",
            (game_id,),
        ):
            events.setdefault(int(input_seq), []).append(
                self._json(event, f"event {input_seq} of game {game_id}")
            )
        return [
            RecordedInput(
                seq=int(seq),
                t=None if t is None else float(t),
                origin=str(origin),
                input=self._json(line, f"input {seq} of game {game_id}"),
                events=tuple(events.get(int(seq), ())),
            )
            for seq, t, origin, line in self._conn.execute(
                "SELECT seq, t, origin, input FROM inputs WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        ]

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """Every event of a game, in order (the referee's output lines)."""
        return [e for rec in self.inputs(game_id) for e in rec.events]

    def corrections(self, game_id: int) -> list[tuple[dict[str, Any], str]]:
        return [
            (self._json(c, f"a correction of game {game_id}"), str(o))
            for c, o in self._conn.execute(
                "SELECT command, outcome FROM corrections WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        ]

    def _json(self, text: Any, what: str) -> Any:
        """A JSON column of the record; a damaged one is StoreCorrupt naming
        it (SQLite's own check passes a row whose text was spoiled)."""
        try:
            return json.loads(text)
        except (TypeError, ValueError) as exc:
            raise StoreCorrupt(self.path, f"{what} is not valid JSON ({exc})") from None

    def _game_row(self, row: Sequence[Any]) -> GameRow:
        what = f"the players of game {row[0]}"
        try:
            players = tuple(tuple(p) for p in self._json(row[5], what))
        except TypeError:
            raise StoreCorrupt(self.path, f"{what} are not lists of colours") from None
        places = None if row[7] is None else self._json(row[7], f"the places of game {row[0]}")
        return GameRow(
            id=int(row[0]),
            match_id=int(row[1]),
            started_at=str(row[2]),
            ended_at=None if row[3] is None else str(row[3]),
            status=str(row[4]),
            players=players,
            source=str(row[6]),
            places=None if places is None else tuple(places),
        )
