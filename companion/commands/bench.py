"""``companion bench NAME``: the project's speed and accuracy benchmarks.

Each benchmark is a module ``companion.bench.NAME`` with ``configure(parser)``
and ``run(args) -> int``. Benchmarks print their figures; tests never time
anything.
"""

from __future__ import annotations

import argparse
import importlib

BENCHMARKS: dict[str, str] = {
    "rules": "complete random games per second and legal-move queries per second",
    "vision": "board and die reading accuracy and speed on rendered and real images",
    "voice": "command recognition accuracy, false activations and latency",
    "referee": "whole rendered games refereed end to end",
}


def configure(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="bench", metavar="NAME", required=True)
    for name, help_text in BENCHMARKS.items():
        sub = subs.add_parser(name, help=help_text, description=help_text)
        try:
            module = importlib.import_module(f"companion.bench.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"companion.bench.{name}":
                raise
            continue
        module.configure(sub)


def run(args: argparse.Namespace) -> int:
    from companion.errors import UserError

    try:
        module = importlib.import_module(f"companion.bench.{args.bench}")
    except ModuleNotFoundError as exc:
        if exc.name != f"companion.bench.{args.bench}":
            raise
        raise UserError(f"the {args.bench} benchmark is not part of this build yet") from None
    return int(module.run(args))
