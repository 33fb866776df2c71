"""``companion referee [FILE|-]``: the headless referee on JSON lines.

Reads one JSON object per line (from FILE, or standard input for ``-`` or no
argument) and writes each event as one JSON line, flushed at once so the
command works interactively in a pipe. Exits 0 at the end of the input; bad
lines become ``error`` events, never an exit. The contract: docs/referee.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import TextIO

from companion.errors import UserError
from companion.referee import Referee


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE|-",
        help="JSON lines to referee (default: stdin)",
    )


def run(args: argparse.Namespace) -> int:
    if args.file == "-":
        referee_stream(sys.stdin, sys.stdout)
        return 0
    try:
        with open(args.file, encoding="utf-8") as handle:
            referee_stream(handle, sys.stdout)
    except FileNotFoundError:
        raise UserError(f"no such file: {args.file}") from None
    except IsADirectoryError:
        raise UserError(f"{args.file} is a folder, not a file of JSON lines") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{args.file} is not UTF-8 text: {exc.reason}") from None
    return 0


def referee_stream(lines: Iterable[str], out: TextIO, referee: Referee | None = None) -> Referee:
    """Feed every line to a referee, writing its events as JSON lines."""
    referee = referee or Referee()
    for line in lines:
        for event in referee.feed_line(line):
            out.write(json.dumps(event) + "\n")
        out.flush()
    return referee
