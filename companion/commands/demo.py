"""``companion demo``: referee a whole simulated game and print what it says.

Until the camera and voice parts are wired in, the demo plays a complete
seeded 4-player game: a simulated table pops and moves pegs, the referee is
fed the lines a camera would send (each settled pop, then the whole board
after each move), and every announcement is printed, one turn per block.
Now and then a player puts a peg one space wrong first: the referee says why
(lines marked ``!``) and the player puts it right.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.errors import UserError
from companion.referee.playthrough import random_game

#: How often a simulated player first puts a peg one space wrong (the referee
#: refuses it and the player moves it right), to show the referee at work.
MISTAKES = 0.04


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=int, default=1, help="which simulated game to play (default 1)"
    )
    parser.add_argument(
        "--players", type=int, default=4, choices=(2, 3, 4), help="number of players (default 4)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the input and event JSON lines instead"
    )


def run(args: argparse.Namespace) -> int:
    from companion.rules import COLORS

    if args.seed < 0:
        raise UserError(f"--seed must be 0 or more, not {args.seed}")
    players = list(COLORS[: args.players]) if args.players != 4 else None
    out = sys.stdout
    if not args.json:
        count = args.players
        out.write(
            f"Trouble demo: a simulated {count}-player game (seed {args.seed}), refereed from\n"
        )
        out.write("the pops and boards a camera would send. Every line is an announcement.\n\n")
        out.write("Who goes first?\n")
    turns = 0
    for line, events in random_game(args.seed, players, boards=True, mistakes=MISTAKES):
        if args.json:
            out.write(json.dumps({"in": line}) + "\n")
            for event in events:
                out.write(json.dumps(event) + "\n")
            continue
        for event in events:
            if event["event"] == "turn":
                turns += 1
                out.write(f"\n{event['text']}\n")
            elif event["event"] in ("illegal", "error"):
                out.write(f"  ! {event['text']}\n")
            elif event["event"] in ("finished", "game-over"):
                out.write(f"\n*** {event['text']}\n")
            else:
                out.write(f"    {event['text']}\n")
    if not args.json:
        out.write(f"\n({turns} turns refereed.)\n")
    return 0
