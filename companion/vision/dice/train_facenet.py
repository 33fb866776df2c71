"""Train the pip-face classifier (``facenet.py``) on rendered dome crops.

The command that made the shipped ``pip_faces.npz`` (about 15 minutes of
rendering and 10 of training on the loaded 2-core box; identical up to
floating-point noise)::

    python -m companion.vision.dice.train_facenet \\
        --settled 100000:101500 --cocked 110000:110400 \\
        --cache /tmp/dice-train --out companion/vision/dice/pip_faces.npz

Seeds are development seeds only (the benchmark's start at 900000; the
reader's thresholds are set on 700000-701199, so training stays clear of
those too). Each settled pip die gives patches cut at its true place and
turn (``DomeSample.face_xy``, ``face_angle_deg``), jittered by up to 1.6
patch px, 5 degrees and 6% of scale, at all four quarter turns: class = its
value. "No face" patches (class 0) teach where a face is *not*: the same
die shifted by 0.3 to 0.75 of a face side (the matcher's old failure: a
face read a pip spacing off), turned 22 to 45 degrees off, and places
anywhere in the dome's middle (glare spots, the floor, the rim); leaning
(cocked) dice give only "no face" patches. A hand over the die: only places away from the die are used (the hand, as "no face").
Rendered samples are kept in ``--cache`` (one .npz per seed range), so a
second run with other training settings does not render again.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import (
    CANON_PX,
    CANON_SPAN,
    canonical_patch,
    features,
    to_crop_offset,
)
from companion.vision.dice.dome import DEFAULT_DIE_FRACTION, DOME_SPAN_RADII
from companion.vision.dice.facenet import CLASSES, NO_FACE, FaceNet
from companion.vision.dice.photo import to_gray

if TYPE_CHECKING:
    from companion.vision.dice.face_search import WindowScorer

STATES = ("settled", "cocked", "hidden")
#: Patches per settled die: of its face, near misses, wrong turns, elsewhere.
POSITIVES, NEAR, TURNED, ELSEWHERE = 20, 12, 8, 8
#: Hard negatives per crop: windows the first net took for a face where there is none.
HARD = 12
#: Patches per leaning die (all "no face").
COCKED_NEGATIVES = 16
HIDDEN = (64, 32)


def _seed_range(text: str) -> range:
    try:
        a, b = (int(v) for v in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected FIRST:END seeds, not {text!r}") from None
    if not 0 <= a < b or b > 900_000:
        raise argparse.ArgumentTypeError(f"seed range {text!r} must be below the benchmark's 900000")
    return range(a, b)


def _layers(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected widths like 64,32, not {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"layer widths must be positive, not {text!r}")
    return sizes


#: The frame size of the "small" sets: a 640x480 webcam, the die 10-15 px wide.
SMALL_SIZE = (640, 480)


def render_small_sample(seed: int, state: str, edition: str = "pips",
                        glare_floor: float = 0.0) -> Any:
    """``render_dome_sample`` at ``SMALL_SIZE``, its glare drawn from *glare_floor*..1.

    The whole-game clips (``companion.live.clips.render_game``) are 640x480,
    where the die is half as wide as in the 1280x720 sets and strong dome
    glare often lies on its face: the classifier first trained on 1280x720
    crops alone read few such faces (docs/vision-dice.md, "Small dice under
    glare"). Same drawing order and pose check as ``render_dome_sample``.
    """
    from companion.bench.vision import sample_in_scene
    from companion.sim import DieView

    value = int(np.random.default_rng(seed).integers(1, 7))
    scene = sample_scene(seed, True, glare_floor)
    return sample_in_scene(seed, scene, DieView(value, state, edition), place_face=state == "settled")


def sample_scene(seed: int, small: bool, glare_floor: float = 0.0) -> Any:
    """The scene (camera, light, glare) of a training sample: ``render_small_sample``'s
    when *small*, else ``companion.bench.vision.render_dome_sample``'s."""
    from companion.bench.vision import _layout
    from companion.sim import Scene

    if not small:
        return Scene.random(seed, _layout(), size=(1280, 720))
    glare = float(np.random.default_rng(seed + 104729).uniform(glare_floor, 1.0))
    return Scene.random(seed, _layout(), size=SMALL_SIZE, glare=glare)


def render_set(seeds: range, state: str, cache: Path | None, edition: str = "pips",
               small: bool = False,
               glare_floor: float = 0.0) -> tuple[NDArray[np.uint8], NDArray[np.float64]]:
    """Crops and rows (seed, value, state index, digits, covered, x, y, angle)."""
    name = state if edition == "pips" else f"{state}-{edition}"
    if small:
        name += f"-small-glare{glare_floor:g}"
    path = None if cache is None else cache / f"{name}-{seeds.start}-{seeds.stop}.npz"
    if path is not None and path.is_file():
        with np.load(path) as data:
            return np.asarray(data["crops"], np.uint8), np.asarray(data["meta"], np.float64)
    from companion.bench.vision import render_dome_sample

    crops, meta = [], []
    started = time.perf_counter()
    for seed in seeds:
        try:
            if small:
                s = render_small_sample(seed, state, edition, glare_floor)
            else:
                s = render_dome_sample(seed, state=state, edition=edition)
        except (MemoryError, ValueError) as exc:
            print(f"render failed for seed {seed} (skipped): {exc}", file=sys.stderr)
            continue
        x, y = s.face_xy if s.face_xy is not None else (math.nan, math.nan)
        angle = s.face_angle_deg if s.face_angle_deg is not None else math.nan
        crops.append(s.crop)
        meta.append((seed, s.value, STATES.index(s.state), edition == "digits", s.covered, x, y, angle))
        if len(crops) % 100 == 0:
            print(f"  {state}: {len(crops)} rendered ({time.perf_counter() - started:.0f} s)", flush=True)
    out = np.array(crops, np.uint8), np.array(meta, np.float64)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, crops=out[0], meta=out[1])
    return out


def patches_from(crops: NDArray[np.uint8], meta: NDArray[np.float64],
                 rng: np.random.Generator) -> tuple[list[NDArray[np.float32]], list[int]]:
    """Labelled canonical patches from rendered crops (see the module doc)."""
    xs: list[NDArray[np.float32]] = []
    ys: list[int] = []
    for crop, row in zip(crops, meta, strict=True):
        _patches_of(crop, row, rng, xs, ys)
    return xs, ys


def _patches_of(crop: NDArray[np.uint8], row: NDArray[np.float64], rng: np.random.Generator,
                xs: list[NDArray[np.float32]], ys: list[int]) -> None:
    """The labelled patches of one crop, appended to *xs* and *ys*."""
    gray = to_gray(crop).astype(np.float32)
    side = min(gray.shape[:2])
    die = DEFAULT_DIE_FRACTION * side
    centre = (side - 1) / 2.0
    zone = 0.65 * side / DOME_SPAN_RADII  # the dome's middle, in crop px
    unit = die * CANON_SPAN / CANON_PX  # crop px per patch px
    face_side = CANON_PX / CANON_SPAN  # patch px

    def cut(x: float, y: float, angle: float, scale: float = 1.0) -> None:
        xs.append(canonical_patch(gray, x, y, angle, die * scale))

    def elsewhere(avoid: tuple[float, float] | None, n: int) -> None:
        made = 0
        while made < n:
            r, a = zone * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
            x, y = centre + r * math.cos(a), centre + r * math.sin(a)
            if avoid is not None and math.dist((x, y), avoid) < 0.8 * die:
                continue
            cut(x, y, rng.uniform(0, 360))
            ys.append(NO_FACE)
            made += 1

    state, covered = STATES[int(row[2])], bool(row[4])
    if state == "cocked":
        elsewhere(None, COCKED_NEGATIVES)
        return
    if state != "settled" or math.isnan(row[5]):
        return
    if covered:  # what the hand leaves of the die is neither a face nor not one
        elsewhere((float(row[5]), float(row[6])), ELSEWHERE)
        return
    value, fx, fy, turn = int(row[1]), float(row[5]), float(row[6]), float(row[7])
    for _ in range(POSITIVES):
        r, a = 1.6 * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
        angle = turn + rng.uniform(-5, 5) + 90.0 * int(rng.integers(4))
        ox, oy = to_crop_offset(r * math.cos(a), r * math.sin(a), angle, die)
        cut(fx + ox, fy + oy, angle, rng.uniform(0.94, 1.06))
        ys.append(value)
    for _ in range(NEAR):
        r, a = rng.uniform(0.15, 1.0) * face_side, rng.uniform(0, 2 * math.pi)
        angle = turn + rng.uniform(-8, 8) + 90.0 * int(rng.integers(4))
        ox, oy = to_crop_offset(r * math.cos(a), r * math.sin(a), angle, die)
        cut(fx + ox, fy + oy, angle)
        ys.append(NO_FACE)
    for _ in range(TURNED):
        angle = turn + rng.choice([-1, 1]) * rng.uniform(15, 45) + 90.0 * int(rng.integers(4))
        cut(fx + rng.uniform(-2, 2) * unit, fy + rng.uniform(-2, 2) * unit, angle)
        ys.append(NO_FACE)
    elsewhere((fx, fy), ELSEWHERE)


def hard_negatives(net: FaceNet, crops: NDArray[np.uint8], meta: NDArray[np.float64]) -> list[NDArray[np.float32]]:
    """Windows of the coarse search that *net* takes for a face where there is none.

    A window counts as the face when its centre is within 0.15 face sides of
    the true centre and its angle within 12 degrees (modulo a quarter turn);
    anything else the net finds face-like (probability of some value > 0.3)
    is a hard "no face" example: a shifted or half-turned face, a side face,
    a glare spot. The most face-like ``HARD`` per crop are kept.
    """
    # Copies, not views: a view would keep the whole scan alive (memory).
    return mine_windows(net, crops, meta, lambda patches, i: patches[i].copy())


def mine_windows(
    scorer: WindowScorer, crops: NDArray[np.uint8], meta: NDArray[np.float64],
    patch_of: Callable[[NDArray[np.float32], int], NDArray[np.float32]],
    face_known: Callable[[NDArray[np.float64]], bool] = lambda row: True,
) -> list[NDArray[np.float32]]:
    """The ``HARD`` most face-like windows per crop that *scorer* takes for a
    face (some value above 0.3) away from the true face (see
    :func:`hard_negatives`), each cut by *patch_of* (the scan's windows, an index);
    where the true face is not *face_known* for a settled die, any window
    counts."""
    from companion.vision.dice.face_search import scan_middle

    out: list[NDArray[np.float32]] = []
    for crop, row in zip(crops, meta, strict=True):
        state, covered = STATES[int(row[2])], bool(row[4])
        if state not in ("settled", "cocked") or (state == "settled" and math.isnan(row[5])):
            continue
        gray = to_gray(crop).astype(np.float32)
        die = DEFAULT_DIE_FRACTION * min(gray.shape[:2])
        found: list[tuple[float, NDArray[np.float32]]] = []
        for scan in scan_middle(gray, DEFAULT_DIE_FRACTION, scorer, DOME_SPAN_RADII):
            face = scan.probs[:, 1:].max(axis=1)
            bad = face > 0.3
            if state == "settled" and face_known(row):
                dist = np.hypot(scan.xy[:, 0] - row[5], scan.xy[:, 1] - row[6])
                turn = abs(((scan.angle_deg - row[7]) + 45.0) % 90.0 - 45.0)
                if covered:
                    bad &= dist > 0.8 * die
                elif turn <= 12.0:
                    bad &= dist > 0.15 * die
            picked = np.flatnonzero(bad)
            picked = picked[np.argsort(-face[picked])][:HARD]
            if len(picked):
                patches = scan.patches  # cut on demand (Scan.patches): once per scan
                found += [(float(face[i]), patch_of(patches, int(i))) for i in picked]
        found.sort(key=lambda fp: -fp[0])
        out += [p for _, p in found[:HARD]]
    return out


def augment(patches: NDArray[np.float32], rng: np.random.Generator) -> NDArray[np.float32]:
    """Blur, noise and a gamma on about half the patches: more looks than the renders hold."""
    out = patches.copy()
    for i in range(len(out)):
        if rng.uniform() < 0.3:
            out[i] = cv2.GaussianBlur(out[i], (0, 0), rng.uniform(0.4, 1.1))
        if rng.uniform() < 0.5:
            g = rng.uniform(0.7, 1.4)
            out[i] = 255.0 * np.power(np.clip(out[i], 0, 255) / 255.0, g)
        if rng.uniform() < 0.5:
            out[i] += rng.normal(0, rng.uniform(1, 5), out[i].shape).astype(np.float32)
    return out


#: Mines a trained net's sure mistakes off the true face in one set of crops (``hard_negatives``).
Miner = Callable[[FaceNet, NDArray[np.uint8], NDArray[np.float64]], list[NDArray[np.float32]]]


def train_two_rounds(
    xs: list[NDArray[np.float32]], ys: list[int],
    sets: list[tuple[NDArray[np.uint8], NDArray[np.float64]]], mine: Miner,
    hidden: tuple[int, ...], epochs: int, rng: np.random.Generator,
) -> FaceNet:
    """Train on the patches *xs* (labels *ys*, augmented), then once more
    with the windows *mine* finds the first net sure of off the true face in
    each of *sets* added as "no face": the same recipe for the pip and the
    digit classifiers."""
    x = features(augment(np.stack(xs).astype(np.float32), rng))
    y = np.asarray(ys, np.int64)
    print(f"round 1: training on {len(y)} patches: " + ", ".join(
        f"{c}: {int((y == c).sum())}" for c in range(CLASSES)), flush=True)
    net = train(x, y, hidden, epochs, rng)
    hard: list[NDArray[np.float32]] = []
    for crops, meta in sets:
        hard += mine(net, crops, meta)
    print(f"round 2: {len(hard)} hard negatives added", flush=True)
    if hard:
        x = np.concatenate([x, features(augment(np.stack(hard), rng))])
        y = np.concatenate([y, np.full(len(hard), NO_FACE, np.int64)])
        net = train(x, y, hidden, epochs, rng)
    return net


def train(x: NDArray[np.float32], y: NDArray[np.int64], hidden: tuple[int, ...], epochs: int,
          rng: np.random.Generator, classes: int = CLASSES) -> FaceNet:
    """Softmax MLP by minibatch Adam, with a little weight decay."""
    sizes = (x.shape[1], *hidden, classes)
    ws = [rng.normal(0, math.sqrt(2.0 / a), (a, b)).astype(np.float32) for a, b in zip(sizes[:-1], sizes[1:], strict=True)]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = ws + bs
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2, decay, batch = 1e-3, 0.9, 0.999, 1e-4, 256
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        loss_sum = 0.0
        if epoch == int(epochs * 0.7):
            lr *= 0.3
        for start in range(0, len(x), batch):
            idx = order[start : start + batch]
            hs = [x[idx]]
            for i, (w, b) in enumerate(zip(ws, bs, strict=True)):
                h = hs[-1] @ w + b
                hs.append(np.maximum(h, 0.0) if i < len(ws) - 1 else h)
            logits = hs[-1] - hs[-1].max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            target = y[idx]
            loss_sum += float(-np.log(p[np.arange(len(idx)), target] + 1e-9).sum())
            grad = p
            grad[np.arange(len(idx)), target] -= 1.0
            grad /= len(idx)
            gws: list[NDArray[np.float32]] = [np.zeros(0, np.float32)] * len(ws)
            gbs: list[NDArray[np.float32]] = [np.zeros(0, np.float32)] * len(ws)
            for i in range(len(ws) - 1, -1, -1):
                gws[i] = hs[i].T @ grad + decay * ws[i]
                gbs[i] = grad.sum(axis=0)
                if i > 0:
                    grad = (grad @ ws[i].T) * (hs[i] > 0)
            step += 1
            for j, g in enumerate(gws + gbs):
                m[j] = b1 * m[j] + (1 - b1) * g
                v[j] = b2 * v[j] + (1 - b2) * g * g
                mh = m[j] / (1 - b1**step)
                vh = v[j] / (1 - b2**step)
                params[j] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        print(f"  epoch {epoch + 1}/{epochs}: loss {loss_sum / len(x):.4f}", flush=True)
    n = len(ws)
    return FaceNet(tuple(params[:n]), tuple(params[n:]))


def add_training_options(parser: argparse.ArgumentParser, small_glare: float | None,
                         hidden: tuple[int, ...] | None = None) -> None:
    """The options every training command here shares: the small sets' glare
    (unless None), the render cache, the output, epochs and the seed, and
    the hidden layers' widths when the command has a *hidden* default."""
    if small_glare is not None:
        parser.add_argument("--small-glare", type=float, default=small_glare,
                            help="the small sets' glare is drawn from this to 1 (default %(default)s)")
    parser.add_argument("--cache", type=Path, help="folder keeping the rendered samples")
    parser.add_argument("--out", type=Path, required=True, help="where to write the .npz")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1, help="seed of the sampling and training")
    if hidden is not None:
        parser.add_argument("--hidden", type=_layers, default=hidden,
                            help="hidden layer widths, comma-separated (default %(default)s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.dice.train_facenet",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--settled", type=_seed_range, action="append", required=True,
                        help="seed range FIRST:END of settled pip dice (repeatable)")
    parser.add_argument("--cocked", type=_seed_range, action="append", default=[],
                        help="seed range of leaning pip dice (no-face examples; repeatable)")
    parser.add_argument("--small-settled", type=_seed_range, action="append", default=[],
                        help="seed range of settled pip dice in 640x480 frames (repeatable)")
    parser.add_argument("--small-cocked", type=_seed_range, action="append", default=[],
                        help="seed range of leaning pip dice in 640x480 frames (repeatable)")
    add_training_options(parser, small_glare=0.0, hidden=HIDDEN)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    xs: list[NDArray[np.float32]] = []
    ys: list[int] = []
    sets: list[tuple[NDArray[np.uint8], NDArray[np.float64]]] = []
    plan = [(s, "settled", False) for s in args.settled] + [(s, "cocked", False) for s in args.cocked]
    plan += [(s, "settled", True) for s in args.small_settled]
    plan += [(s, "cocked", True) for s in args.small_cocked]
    for seeds, state, small in plan:
        crops, meta = render_set(seeds, state, args.cache, "pips", small, args.small_glare)
        px, py = patches_from(crops, meta, rng)
        xs += px
        ys += py
        kind = "640x480" if small else "1280x720"
        print(f"{state} {kind} {seeds.start}:{seeds.stop}: {len(crops)} crops, {len(px)} patches", flush=True)
        sets.append((crops, meta))
    net = train_two_rounds(xs, ys, sets, hard_negatives, args.hidden, args.epochs, rng)
    net.save(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
