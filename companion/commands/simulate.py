"""``companion simulate``: a random legal game as video, with its truth (JSON lines)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from companion.errors import UserError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="seed of the game and of every knob left out (default 0)")
    parser.add_argument("--out", required=True, type=Path, help="the video to write (.mp4, mp4v codec; or .avi, MJPG)")
    parser.add_argument("--truth", type=Path, help="the truth file to write (JSON lines, one per frame)")
    parser.add_argument("--turns", type=int, help="stop after this many turns (default: play to the end)")
    parser.add_argument("--fps", type=float, default=6.0, help="frame rate (default 6: a whole game renders in minutes)")
    parser.add_argument("--players", default="red,blue,yellow,green", help="playing colours, comma-separated (default all four)")
    parser.add_argument("--digits", action="store_true", help="a die with digits instead of pips")
    parser.add_argument("--layout", type=Path, help="a layout file (default: calibration/classic.json)")
    from companion.sim.knobs import add_scene_arguments

    add_scene_arguments(parser, default_size="960x540")


def run(args: argparse.Namespace) -> int:
    import sys
    from dataclasses import replace

    import cv2
    import numpy as np

    from companion.layout import COLORS, load_layout
    from companion.sim import DieView
    from companion.sim.knobs import scene_from_args
    from companion.sim.simulate import random_game_script, simulate_script

    if args.seed < 0:
        raise UserError(f"--seed must be 0 or more, not {args.seed}")
    if not 1 <= args.fps <= 60:
        raise UserError(f"--fps {args.fps}: must be between 1 and 60")
    if args.turns is not None and args.turns < 1:
        raise UserError(f"--turns {args.turns}: must be at least 1")
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    bad = [p for p in players if p not in COLORS]
    if bad or not 2 <= len(players) <= 4 or len(set(players)) != len(players):
        raise UserError(f"--players {args.players!r}: give 2 to 4 different colours of {', '.join(COLORS)}")
    suffix = args.out.suffix.lower()
    if suffix not in (".mp4", ".avi"):
        raise UserError(f"--out {args.out}: write an .mp4 (or .avi) video")
    # Said here, in words: OpenCV's own failure is an assertion dump.
    if args.out.is_dir():
        raise UserError(f"--out {args.out} is a folder, not a video file")
    if not args.out.parent.is_dir():
        raise UserError(f"cannot write {args.out}: the folder {args.out.parent} does not exist")
    layout = load_layout(args.layout)
    rng = np.random.default_rng(args.seed)
    scene = scene_from_args(args, layout, rng)
    # Hands come from the script; the video codec compresses (no JPEG on top);
    # a hand-held blur knob applies to every frame only when asked for.
    scene = replace(scene, hand=None, jpeg_quality=args.jpeg or 100, motion_blur_px=args.blur or 0.0)
    game = random_game_script(args.seed, players, args.turns, layout)
    die = DieView(int(rng.integers(1, 7)), edition="digits" if args.digits else "pips")
    fourcc = cv2.VideoWriter.fourcc(*("mp4v" if suffix == ".mp4" else "MJPG"))
    writer = cv2.VideoWriter(str(args.out), fourcc, float(args.fps), scene.size)
    if not writer.isOpened():
        raise UserError(f"cannot write video {args.out}")
    truth_file = None
    if args.truth:
        try:
            truth_file = args.truth.open("w", encoding="utf-8")
        except OSError as exc:
            writer.release()
            raise UserError(f"cannot write {args.truth}: {exc.strerror}") from None
    frames = 0
    try:
        if truth_file:
            header = {"header": {"seed": args.seed, "fps": args.fps, "size": list(scene.size), "layout": layout.name, "setup": game.setup, "turns": game.turns, "camera": scene.camera.to_json()}}
            truth_file.write(json.dumps(header) + "\n")
        for img, truth in simulate_script(game.actions, scene, args.seed, setup=game.setup, layout=layout, fps=args.fps, die=die):
            if img is not None:
                writer.write(img)
            frames += 1
            if truth_file:
                truth_file.write(json.dumps(truth.to_json()) + "\n")
            if frames % 200 == 0:
                print(f"  {frames} frames", file=sys.stderr, flush=True)
    finally:
        writer.release()
        if truth_file:
            truth_file.close()
    print(f"wrote {args.out}: {frames} frames, {frames / args.fps:.1f} s, {game.turns} turns" + (f"; truth in {args.truth}" if args.truth else ""))
    return 0
