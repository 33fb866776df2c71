"""The ``companion`` command line.

Each subcommand lives in its own module under ``companion.commands`` and is
imported only when it is used, so that ``companion referee`` starts without
loading OpenCV or the speech engines. A command module provides two
functions::

    def configure(parser: argparse.ArgumentParser) -> None: ...
    def run(args: argparse.Namespace) -> int: ...

``run`` returns the process exit code. A user mistake (a missing file, a bad
argument) is raised as :class:`companion.errors.UserError` and printed as one
clear line, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from companion import __version__
from companion.errors import UserError

# name -> (module under companion.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "run the embedded demonstration (no camera, microphone or sound card needed)"),
    "referee": ("referee", "headless referee: JSON lines in, JSON lines out"),
    "bench": ("bench", "benchmarks: rules, vision, voice, referee"),
    "render": ("render", "render one camera frame of a position"),
    "simulate": ("simulate", "render a whole random game as video with its truth"),
    "markers": ("markers", "write the printable ArUco marker sheet (PDF)"),
    "read": ("read", "read board positions and the die from images"),
    "read-die": ("read_die", "read the value of a single die from photos"),
    "calibrate": ("calibrate", "learn this table's light and pegs from the opening position"),
    "say": ("say", "speak a sentence (or write it to a WAV file)"),
    "listen": ("listen", "recognise voice commands from WAV files or the microphone"),
    "enroll-voice": ("enroll_voice", "teach the companion how a player says one to six"),
    "models": ("models", "list or install optional speech models"),
    "play": ("play", "referee a live game from a camera or a video"),
    "replay": ("replay", "referee a recorded video as fast as possible"),
    "score": ("score", "print the match score table or a printable score sheet"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Build the parser; configure only the subcommand *only* when given.

    Configuring a single subcommand keeps start-up fast: its module is the
    only one imported.
    """
    parser = argparse.ArgumentParser(
        prog="companion",
        description="An offline referee for the Trouble board game.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sub = subs.add_parser(name, help=help_text, description=help_text)
        if only == name:
            _load(module_name).configure(sub)
    return parser


def _load(module_name: str) -> ModuleType:
    return importlib.import_module(f"companion.commands.{module_name}")


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in args_list if not a.startswith("-")), None)
    if chosen not in COMMANDS:
        chosen = None
    parser = build_parser(only=chosen)
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 2
    module = _load(COMMANDS[args.command][0])
    try:
        return int(module.run(args))
    except UserError as exc:
        print(f"companion {args.command}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"companion {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
