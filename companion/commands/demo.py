"""``companion demo``: the embedded default main job (``make demo``).

By default the demo renders a short scripted 2-player game frame by frame
with the simulator, reads every frame with the camera part, referees it with
the live loop and speaks with the voice part: who goes first, a 6 followed by
another pop, a bump with the bumped peg left beside the board a while, an
illegal move called and put right, a spoken protest synthesised with espeak-ng
and heard through the real listener (the camera contradicts it, so it is said
aloud, not applied), and a win. Announcements are printed and written as WAV
files. No camera, microphone or sound card is needed (see docs/live.md).

``--quick`` plays the earlier referee-only demo instead: a complete seeded
game (2 to 4 players) through the headless referee with no rendering, where a
simulated player now and then puts a peg one space wrong first (lines marked
``!``) and puts it right.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.errors import UserError, os_reason
from companion.referee.playthrough import random_game

#: How often a simulated player first puts a peg one space wrong (the referee
#: refuses it and the player moves it right), to show the referee at work.
MISTAKES = 0.04

#: The camera and light of the rendered demo unless --seed says otherwise.
DEFAULT_SCENE_SEED = 3


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help=f"rendered demo: which camera and light (default {DEFAULT_SCENE_SEED}); "
        "--quick: which simulated game (default 1)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="no rendering: a whole simulated game through the referee only"
    )
    parser.add_argument(
        "--players", type=int, default=None, choices=(2, 3, 4), help="--quick: number of players (default 4)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the input and event JSON lines instead"
    )
    parser.add_argument(
        "--speech-out",
        type=Path,
        default=None,
        help="rendered demo: write the announcements as WAV files here "
        "(default: demo-speech in the user's data folder)",
    )
    parser.add_argument("--no-speech", action="store_true", help="rendered demo: print only, write no audio")
    parser.add_argument("--video-out", type=Path, default=None, help="rendered demo: also save the rendered video")


def run(args: argparse.Namespace) -> int:
    if args.seed is not None and args.seed < 0:
        raise UserError(f"--seed must be 0 or more, not {args.seed}")
    if args.quick:
        args.seed = 1 if args.seed is None else args.seed
        args.players = 4 if args.players is None else args.players
        return _run_quick(args)
    if args.players is not None:
        raise UserError("--players applies to --quick; the rendered demo is a 2-player game")
    from companion.live.demo import run_demo
    from companion.paths import user_data_dir

    speech_dir: Path | None = None
    if not args.no_speech:
        speech_dir = args.speech_out or user_data_dir() / "demo-speech"
        _clear_old_takes(speech_dir)
    if args.video_out is not None and not args.video_out.parent.is_dir():
        raise UserError(f"cannot write {args.video_out}: the folder {args.video_out.parent} does not exist")
    run_demo(
        DEFAULT_SCENE_SEED if args.seed is None else args.seed,
        speech_dir=speech_dir,
        json_mode=args.json,
        video_out=args.video_out,
    )
    return 0


def _clear_old_takes(folder: Path) -> None:
    """Remove the numbered WAVs of an earlier demo run (only those) from *folder*,
    making it if need be: a folder that cannot be made is said now, not
    after the whole demo has run with its speech going nowhere."""
    if folder.exists() and not folder.is_dir():
        raise UserError(f"--speech-out {folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"--speech-out {folder}: cannot make the folder: {os_reason(exc)}") from None
    for wav in folder.glob("[0-9][0-9][0-9][0-9].wav"):
        wav.unlink()


def _run_quick(args: argparse.Namespace) -> int:
    """The referee-only demo: a whole simulated game, no rendering (``--quick``)."""
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
