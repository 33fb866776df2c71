"""``companion render``: render one camera frame of a position (and its truth)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from companion.errors import UserError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--state", required=True, type=Path, help='JSON file of pegs by colour, as the referee\'s "pegs": {"red": ["home", "track:3"], ...}')
    parser.add_argument("--die", required=True, type=int, help="the die's face value, 1-6")
    parser.add_argument("--die-state", default="settled", choices=("settled", "cocked", "tumbling", "hidden"))
    parser.add_argument("--digits", action="store_true", help="a die with digits instead of pips")
    parser.add_argument("--out", required=True, type=Path, help="the image to write (.png or .jpg)")
    parser.add_argument("--truth", type=Path, help="also write the frame's truth as JSON")
    parser.add_argument("--seed", type=int, default=0, help="random seed of every knob left out (default 0)")
    parser.add_argument("--layout", type=Path, help="a layout file (default: calibration/classic.json)")
    from companion.sim.knobs import add_scene_arguments

    add_scene_arguments(parser)


def read_state(path: Path) -> dict[str, list[str]]:
    """Pegs by colour from a STATE file; accepts ``{"pegs": {...}}`` too."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"state file {path} does not exist") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"state file {path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"state file {path} is not UTF-8 text (JSON): {exc.reason}") from None
    except OSError as exc:
        raise UserError(f"cannot read state file {path}: {exc.strerror}") from None
    if isinstance(data, dict) and isinstance(data.get("pegs"), dict):
        data = data["pegs"]
    if not isinstance(data, dict):
        raise UserError(f'state file {path}: expected an object of pegs by colour, e.g. {{"red": ["home", "track:3"]}}')
    return data


def run(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from companion.layout import holes_from_pegs, load_layout
    from companion.sim import DieView, render
    from companion.sim.knobs import scene_from_args

    if args.seed < 0:
        raise UserError(f"--seed must be 0 or more, not {args.seed}")
    layout = load_layout(args.layout)
    pegs = read_state(args.state)
    try:
        holes_from_pegs(pegs)
    except UserError as exc:
        raise UserError(f"state file {args.state}: {exc}") from None
    die = DieView(args.die, state=args.die_state, edition="digits" if args.digits else "pips")
    if args.out.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        raise UserError(f"--out {args.out}: write a .png or .jpg image")
    scene = scene_from_args(args, layout, np.random.default_rng(args.seed))
    img, truth = render(pegs, die, scene, seed=args.seed, layout=layout)
    if not cv2.imwrite(str(args.out), img):
        raise UserError(f"cannot write {args.out}")
    if args.truth:
        try:
            args.truth.write_text(json.dumps(truth.to_json()) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"cannot write {args.truth}: {exc.strerror}") from None
    print(f"wrote {args.out} ({img.shape[1]}x{img.shape[0]})" + (f" and {args.truth}" if args.truth else ""))
    return 0
