"""Check that a change to the renderer left its pictures the same.

    python -m companion.sim.render_check save DIR      # before the change (e.g. from a `git archive` copy)
    python -m companion.sim.render_check compare DIR   # after it: mean |difference| per pixel, worst seed

Renders a fixed set of seeded random scenes (every resolution, lens, light,
hand and die state the random scene draws) as lossless PNGs, and compares a
later rendering of the same scenes with them. A speed-up that computes the
same picture more cheaply should give differences of a fraction of a level;
a changed picture shows up as a large mean or a large worst seed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.layout import load_layout
from companion.sim.render import render
from companion.sim.scene import DieView, Scene

#: Seeds of the checked scenes: outside the vision benchmark's held-out range (900000 and up).
FIRST_SEED = 5000
POSITION = {
    "red": ["home", "home", "track:3", "finish:2"],
    "blue": ["track:12", "track:26", "home", "home"],
    "yellow": ["track:15", "track:20", "home", "finish:4"],
    "green": ["home", "home", "track:27", "track:5"],
}
STATES = ("settled", "settled", "cocked", "tumbling", "hidden")


def rendered(seed: int) -> np.ndarray:
    layout = load_layout()
    scene = Scene.random(seed, layout)
    die = DieView(seed % 6 + 1, state=STATES[seed % len(STATES)], edition="digits" if seed % 7 == 0 else "pips")
    img, _ = render(POSITION, die, scene, seed=seed, layout=layout)
    return img


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="save or compare a fixed set of rendered scenes")
    parser.add_argument("mode", choices=("save", "compare"))
    parser.add_argument("dir", type=Path)
    parser.add_argument("--count", type=int, default=50)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    seeds = range(FIRST_SEED, FIRST_SEED + args.count)
    if args.mode == "save":
        args.dir.mkdir(parents=True, exist_ok=True)
        for s in seeds:
            cv2.imwrite(str(args.dir / f"{s}.png"), rendered(s))
        print(f"saved {args.count} frames to {args.dir}")
        return 0
    means: list[tuple[float, int, int, float]] = []
    for s in seeds:
        path = args.dir / f"{s}.png"
        before = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if before is None:
            print(f"missing reference frame {path}", file=sys.stderr)
            return 2
        after = rendered(s)
        if after.shape != before.shape:
            print(f"seed {s}: size changed {before.shape} -> {after.shape}", file=sys.stderr)
            return 1
        d = cv2.absdiff(before, after)
        means.append((float(d.mean()), s, int(d.max()), float((d.max(axis=2) > 8).mean() * 100)))
    overall = float(np.mean([m[0] for m in means]))
    worst = max(means)
    print(f"{len(means)} frames: mean |difference| {overall:.3f} levels per pixel and channel")
    print(f"worst seed {worst[1]}: mean {worst[0]:.3f}, max {worst[2]}, {worst[3]:.3f}% of pixels differ by more than 8 levels")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
