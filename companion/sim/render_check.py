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
import json
import sys
from pathlib import Path
from typing import Any

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


def rendered(seed: int) -> tuple[np.ndarray, dict[str, Any]]:
    """The frame of *seed* and its truth (JSON summary, peg boxes and hand-mask area added)."""
    layout = load_layout()
    scene = Scene.random(seed, layout)
    die = DieView(seed % 6 + 1, state=STATES[seed % len(STATES)], edition="digits" if seed % 7 == 0 else "pips")
    img, truth = render(POSITION, die, scene, seed=seed, layout=layout)
    summary = truth.to_json()
    summary["peg_boxes"] = [list(v.box) for v in truth.peg_views]
    summary["hand_mask_px"] = int(truth.hand_mask.sum()) if truth.hand_mask is not None else 0
    return img, summary


def _numbers_apart(a: Any, b: Any, path: str = "") -> tuple[float, list[str]]:
    """Largest numeric difference between two JSON values, and where they differ otherwise."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return 0.0, [f"{path}: keys {sorted(set(a) ^ set(b))}"]
        parts = [_numbers_apart(a[k], b[k], f"{path}.{k}") for k in a]
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return 0.0, [f"{path}: length {len(a)} != {len(b)}"]
        parts = [_numbers_apart(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b, strict=True))]
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(float(a) - float(b)), []
    else:
        return 0.0, ([] if a == b else [f"{path}: {a!r} != {b!r}"])
    return max((d for d, _ in parts), default=0.0), [m for _, ms in parts for m in ms]


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
            img, truth = rendered(s)
            cv2.imwrite(str(args.dir / f"{s}.png"), img)
            (args.dir / f"{s}.json").write_text(json.dumps(truth))
        print(f"saved {args.count} frames to {args.dir}")
        return 0
    means: list[tuple[float, int, int, float]] = []
    truth_apart = 0.0
    mismatches: list[str] = []
    for s in seeds:
        path = args.dir / f"{s}.png"
        before = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if before is None:
            print(f"missing reference frame {path}", file=sys.stderr)
            return 2
        after, truth = rendered(s)
        reference = args.dir / f"{s}.json"
        if reference.exists():
            apart, where = _numbers_apart(json.loads(reference.read_text()), json.loads(json.dumps(truth)))
            truth_apart = max(truth_apart, apart)
            mismatches += [f"seed {s} {m}" for m in where]
        if after.shape != before.shape:
            print(f"seed {s}: size changed {before.shape} -> {after.shape}", file=sys.stderr)
            return 1
        d = cv2.absdiff(before, after)
        means.append((float(d.mean()), s, int(d.max()), float((d.max(axis=2) > 8).mean() * 100)))
    overall = float(np.mean([m[0] for m in means]))
    worst = max(means)
    print(f"{len(means)} frames: mean |difference| {overall:.3f} levels per pixel and channel")
    print(f"worst seed {worst[1]}: mean {worst[0]:.3f}, max {worst[2]}, {worst[3]:.3f}% of pixels differ by more than 8 levels")
    print(f"truth: largest numeric difference {truth_apart:.3g}; {len(mismatches)} other mismatches")
    for m in mismatches[:20]:
        print("  " + m)
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
