"""``companion score``: the match score, kept between runs.

Prints the games won by each player in the current match (from the game
record), or writes a printable score sheet laid out for Trouble with
``--sheet score.pdf``. ``--new-match`` closes the current match and starts a
fresh tally.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.errors import UserError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=None, help="the game record (default: the user's data folder)")
    parser.add_argument("--sheet", type=Path, default=None, help="write a printable score sheet (PDF) here")
    parser.add_argument(
        "--games", type=int, default=12, help="rows of games on the sheet (default 12; filled ones are marked)"
    )
    parser.add_argument("--paper", choices=("letter", "a4"), default="letter", help="paper size of the sheet")
    parser.add_argument("--new-match", action="store_true", help="close this match and start a fresh tally")


def run(args: argparse.Namespace) -> int:
    from companion.store import GameStore, score_table

    if not 1 <= args.games <= 40:
        raise UserError(f"--games must be from 1 to 40, not {args.games}")
    if args.sheet is not None and args.sheet.suffix.lower() != ".pdf":
        raise UserError(f"--sheet {args.sheet}: the score sheet is a PDF; name it something.pdf")
    if args.db is not None and not args.db.exists() and not args.new_match:
        # Only reads the record: a mistyped --db must not make an empty one
        # and report "no games" as if that were the score.
        raise UserError(f"no game record at {args.db} (give the --db that `companion play` used)")
    with GameStore(args.db) as store:
        if args.new_match:
            store.new_match()
            print("Started a new match.")
        table = score_table(store)
    if args.sheet is not None:
        from companion.store.sheet import write_score_sheet

        write_score_sheet(args.sheet, table, rows=args.games, paper=args.paper)
        print(f"wrote {args.sheet}")
        return 0
    print(table.text())
    print(table.sentence())
    return 0
