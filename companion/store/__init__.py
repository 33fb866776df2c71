"""The game record and the match score, kept in one SQLite file.

Why SQLite: it is in the standard library, a single file the user can copy or
move aside, and with write-ahead logging and one commit per event a crash (a
SIGKILL, a closed laptop lid, a pulled cable) loses nothing that was announced.
"""

from companion.store.record import GameRow, GameStore, RecordedInput, StoreCorrupt
from companion.store.score import ScoreTable, score_table

__all__ = [
    "GameRow",
    "GameStore",
    "RecordedInput",
    "ScoreTable",
    "StoreCorrupt",
    "score_table",
]
