"""The database schema and its version check.

The schema version lives in its own table so that an older companion meeting
a newer file refuses it by name instead of misreading it, and a newer
companion can migrate an older file step by step (``MIGRATIONS``).
"""

from __future__ import annotations

import sqlite3

#: The version this code writes. Bump it and add a migration step when the
#: tables change; never edit a released step.
SCHEMA_VERSION = 1

_V1 = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    closed_at TEXT
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    started_at TEXT NOT NULL,
    ended_at TEXT,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    players TEXT NOT NULL,          -- JSON: list of players, each a list of colours
    source TEXT NOT NULL,           -- 'camera 0', 'video game.mp4', ...
    places TEXT                     -- JSON: players in finishing order, when finished
);
CREATE TABLE IF NOT EXISTS inputs (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t REAL,                         -- seconds of video/session time, when known
    origin TEXT NOT NULL,           -- 'setup', 'camera', 'voice', 'loop'
    input TEXT NOT NULL,            -- the referee input line (JSON)
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    input_seq INTEGER NOT NULL,
    n INTEGER NOT NULL,
    event TEXT NOT NULL,            -- the referee output line (JSON)
    PRIMARY KEY (game_id, input_seq, n)
);
CREATE TABLE IF NOT EXISTS corrections (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t REAL,
    command TEXT NOT NULL,          -- the voice command value (JSON)
    outcome TEXT NOT NULL,          -- what the companion said about it
    PRIMARY KEY (game_id, seq)
);
"""

#: version reached -> script that brings the previous version to it.
MIGRATIONS: dict[int, str] = {1: _V1}


class SchemaError(Exception):
    """The file holds a schema this code cannot use (newer, or unknown)."""


def ensure_schema(conn: sqlite3.Connection) -> int:
    """Create or migrate the tables; return the version found before.

    Raises :class:`SchemaError` for a file written by a newer companion, and
    for a file that has tables but no version (not one of ours).
    """
    tables = {
        row[0]
        for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    if "schema_version" in tables:
        row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
        found = int(row[0]) if row and row[0] is not None else 0
    elif tables:
        raise SchemaError(
            "it holds tables but no schema_version table, so it is not a companion game record"
        )
    else:
        found = 0
    if found > SCHEMA_VERSION:
        raise SchemaError(
            f"it was written by a newer companion (schema {found}; this one knows up to "
            f"{SCHEMA_VERSION})"
        )
    for version in range(found + 1, SCHEMA_VERSION + 1):
        # One transaction per step: the tables and the version move together.
        conn.executescript(
            "BEGIN IMMEDIATE;"
            + MIGRATIONS[version]
            + f"DELETE FROM schema_version; INSERT INTO schema_version VALUES ({version});"
            + "COMMIT;"
        )
    return found
