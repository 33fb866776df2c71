"""``companion referee [FILE|-]``: the headless referee on JSON lines.

Reads one JSON object per line (from FILE, or standard input for ``-`` or no
argument) and writes each event as one JSON line, flushed at once so the
command works interactively in a pipe. Exits 0 at the end of the input; bad
lines (a line that is not JSON, or not even UTF-8 text) become ``error``
events, never an exit. The contract: docs/referee.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import TextIO

from companion.errors import UserError
from companion.referee import Referee
from companion.referee import events as ev


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
        # Bytes, decoded line by line in referee_stream: a stray non-UTF-8
        # byte must not end the game with a traceback.
        referee_stream(getattr(sys.stdin, "buffer", sys.stdin), sys.stdout)
        return 0
    try:
        with open(args.file, "rb") as handle:
            referee_stream(handle, sys.stdout)
    except FileNotFoundError:
        raise UserError(f"no such file: {args.file}") from None
    except IsADirectoryError:
        raise UserError(f"{args.file} is a folder, not a file of JSON lines") from None
    except OSError as exc:
        raise UserError(f"cannot read {args.file}: {exc.strerror}") from None
    return 0


def referee_stream(
    lines: Iterable[str] | Iterable[bytes], out: TextIO, referee: Referee | None = None
) -> Referee:
    """Feed every line to a referee, writing its events as JSON lines.

    Lines of bytes are decoded one by one, so a line that is not UTF-8 is
    one ``error`` event like any other bad line and the lines after it are
    still refereed (decoding a whole file at once would lose them all).
    """
    referee = referee or Referee()
    for line in lines:
        if isinstance(line, bytes):
            try:
                events = referee.feed_line(line.decode("utf-8"))
            except UnicodeDecodeError as exc:
                events = [ev.error(f"Not a line of UTF-8 text: {exc.reason} at byte {exc.start + 1}.")]
        else:
            events = referee.feed_line(line)
        for event in events:
            out.write(json.dumps(event) + "\n")
        out.flush()
    return referee
