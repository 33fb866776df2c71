"""Train the leaning-die classifier (``leaning.py``) on rendered dome crops.

The command that made the shipped ``leaning_die.npz`` (about 7 minutes of
rendering on one core, then 2 of training)::

    python -m companion.vision.dice.train_leaning \\
        --set settled=140000:142500 --set settled-digits=142500:143300 \\
        --set cocked=143300:144800 --set cocked-digits=144800:145300 \\
        --set hidden=145300:146300 --set small-settled=146300:147500 \\
        --set small-cocked=147500:148300 \\
        --cache /tmp/dice-train --out companion/vision/dice/leaning_die.npz

Development seeds only: the benchmark's start at 900000, and the threshold
(``dome.MIN_LEANING``) was set on 150000-153599. Each leaning die, with no
hand over it, gives windows centred on it (within a quarter of a die side
and a tenth of its scale: class 1), and windows round the ring away from it
(class 0); flat dice and hands give only class 0 windows, more of them just
outside a flat die (its edge is what a leaning die must not be mistaken
for). A second round adds the windows the first net took for a leaning die
where there is none (up to 8 per crop). The leaning die's place comes from
the renderer's own draws (``companion.bench.vision.cocked_die_xy``).
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import FloatImage, canonical_patch, features
from companion.vision.dice.dome import DEFAULT_DIE_FRACTION, DOME_SPAN_RADII
from companion.vision.dice.facenet import FaceNet
from companion.vision.dice.leaning import RING, WINDOW_DIES, ring_places, ring_windows
from companion.vision.dice.photo import to_gray
from companion.vision.dice.train_facenet import (
    STATES,
    _seed_range,
    add_training_options,
    augment,
    render_set,
    sample_scene,
    train,
)

#: Windows per leaning die: on it, and round the ring away from it; per other crop.
ON, AWAY, OTHER, BESIDE_FLAT = 16, 12, 12, 6
HARD = 8
HIDDEN = (64, 32)
KINDS = ("settled", "cocked", "hidden", "settled-digits", "cocked-digits", "small-settled", "small-cocked")


def _leaning_xy(seed: int, small: bool, glare_floor: float, side: int) -> tuple[float, float]:
    from companion.bench.vision import _layout, cocked_die_xy

    return cocked_die_xy(seed, _layout(), sample_scene(seed, small, glare_floor).camera, side)


class _Cutter:
    """Ring windows of one crop at any place, turned to the dome's radius."""

    def __init__(self, crop: NDArray[np.uint8]) -> None:
        self.gray: FloatImage = to_gray(crop).astype(np.float32)
        self.side = int(min(self.gray.shape[:2]))
        self.centre = (self.side - 1) / 2.0
        self.radius = self.side / DOME_SPAN_RADII
        self.die = DEFAULT_DIE_FRACTION * self.side

    def at(self, r: float, angle_deg: float, scale: float = 1.0) -> FloatImage:
        a = math.radians(angle_deg)
        x, y = self.centre + r * math.cos(a), self.centre + r * math.sin(a)
        return canonical_patch(self.gray, x, y, angle_deg, self.die * WINDOW_DIES * scale)

    def polar(self, x: float, y: float) -> tuple[float, float]:
        return math.hypot(x - self.centre, y - self.centre), math.degrees(math.atan2(y - self.centre, x - self.centre))

    def anywhere(self, rng: np.random.Generator) -> tuple[float, float]:
        return float(rng.choice(RING)) * self.radius + rng.uniform(-2, 2), float(rng.uniform(0, 360))


def windows_of(crop: NDArray[np.uint8], row: NDArray[np.float64], leaning_at: tuple[float, float] | None,
               rng: np.random.Generator, xs: list[FloatImage], ys: list[int]) -> None:
    """The labelled windows of one crop (see the module doc), appended to *xs* and *ys*."""
    cut = _Cutter(crop)
    state, covered = STATES[int(row[2])], bool(row[4])
    if state == "cocked":
        if covered or leaning_at is None:  # what a hand leaves of it is neither
            return
        r, angle = cut.polar(*leaning_at)
        for _ in range(ON):
            dr = rng.uniform(-0.25, 0.25) * cut.die
            da = math.degrees(rng.uniform(-0.25, 0.25) * cut.die / r)
            xs.append(cut.at(r + dr, angle + da, rng.uniform(0.9, 1.1)))
            ys.append(1)
        made = 0
        while made < AWAY:
            rr, aa = cut.anywhere(rng)
            a = math.radians(aa)
            if math.dist((cut.centre + rr * math.cos(a), cut.centre + rr * math.sin(a)), leaning_at) < 0.8 * cut.die:
                continue
            xs.append(cut.at(rr, aa))
            ys.append(0)
            made += 1
        return
    if state == "settled" and not math.isnan(row[5]):
        r, angle = cut.polar(float(row[5]), float(row[6]))
        for _ in range(BESIDE_FLAT):
            rr = max(RING[0] * cut.radius, r + rng.uniform(0.3, 1.0) * cut.die)
            xs.append(cut.at(rr + rng.uniform(-2, 2), angle + rng.uniform(-20, 20)))
            ys.append(0)
    for _ in range(OTHER):
        xs.append(cut.at(*cut.anywhere(rng)))
        ys.append(0)


def hard_negatives(net: FaceNet, crop: NDArray[np.uint8], row: NDArray[np.float64],
                   leaning_at: tuple[float, float] | None) -> list[FloatImage]:
    """Ring windows *net* takes for a leaning die where there is none (the likeliest ``HARD``)."""
    state, covered = STATES[int(row[2])], bool(row[4])
    if state == "cocked" and (covered or leaning_at is None):
        return []
    gray = to_gray(crop).astype(np.float32)
    wins = ring_windows(gray, DEFAULT_DIE_FRACTION, DOME_SPAN_RADII)
    p = net.probabilities(features(wins))[:, 1]
    bad = p > 0.2
    if leaning_at is not None:
        places = ring_places(int(min(gray.shape[:2])), DOME_SPAN_RADII)
        die = DEFAULT_DIE_FRACTION * min(gray.shape[:2])
        bad &= np.hypot(places[:, 0] - leaning_at[0], places[:, 1] - leaning_at[1]) >= 0.8 * die
    picked = np.flatnonzero(bad)
    picked = picked[np.argsort(-p[picked])][:HARD]
    return [wins[i].copy() for i in picked]


def _kind(text: str) -> tuple[str, range]:
    kind, _, seeds = text.partition("=")
    if kind not in KINDS:
        raise argparse.ArgumentTypeError(f"unknown set {kind!r}: expected one of {', '.join(KINDS)}")
    return kind, _seed_range(seeds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.dice.train_leaning",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--set", type=_kind, action="append", required=True, dest="sets",
                        help=f"KIND=FIRST:END, KIND one of {', '.join(KINDS)} (repeatable)")
    add_training_options(parser, small_glare=0.3)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    data = []
    for kind, seeds in args.sets:
        small = kind.startswith("small-")
        state, _, edition = kind.removeprefix("small-").partition("-")
        crops, meta = render_set(seeds, state, args.cache, edition or "pips", small, args.small_glare)
        side = int(crops.shape[1])
        for crop, row in zip(crops, meta, strict=True):
            at = _leaning_xy(int(row[0]), small, args.small_glare, side) if state == "cocked" else None
            data.append((crop, row, at))
        print(f"{kind} {seeds.start}:{seeds.stop}: {len(crops)} crops", flush=True)
    xs: list[FloatImage] = []
    ys: list[int] = []
    for crop, row, at in data:
        windows_of(crop, row, at, rng, xs, ys)
    x = features(augment(np.stack(xs), rng))
    y = np.asarray(ys, np.int64)
    print(f"round 1: {len(y)} windows, {int(y.sum())} on a leaning die", flush=True)
    net = train(x, y, HIDDEN, args.epochs, rng, classes=2)
    hard = [w for crop, row, at in data for w in hard_negatives(net, crop, row, at)]
    print(f"round 2: {len(hard)} hard negatives added", flush=True)
    if hard:
        x = np.concatenate([x, features(augment(np.stack(hard), rng))])
        y = np.concatenate([y, np.zeros(len(hard), np.int64)])
        net = train(x, y, HIDDEN, args.epochs, rng, classes=2)
    net.save(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
