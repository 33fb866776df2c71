"""Train the digit-face classifiers (``digitnet.py``) on rendered digit dice in *other fonts*.

The commands that made the shipped nets (about 4 minutes of rendering on
two processes, then 8-12 minutes of training each on the loaded 2-core box;
identical up to floating-point noise). The first (read everywhere; trained
with hands over the dome as "no face") and the second (asked at the first
one's window only)::

    python -m companion.vision.dice.train_digitnet \
        --settled 300000:303000 --settled 303000:304500 --cocked 310000:310600 \
        --hands 330000:331000 --pips 320000:320600 --seed 3 \
        --workers 2 --cache /tmp/digit-train --out companion/vision/dice/digit_faces.npz
    python -m companion.vision.dice.train_digitnet \
        --settled 300000:303000 --cocked 310000:310600 --pips 320000:320600 --seed 1 \
        --workers 2 --cache /tmp/digit-train --out companion/vision/dice/digit_faces_2.npz

**Fonts.** Every training die is drawn in a ``DigitStyle`` drawn from its
seed (:func:`style_for`): Hershey simplex, plain, complex or triplex, upright
or italic, at several scales and stroke widths, with or without the bar
under the 6. Never Hershey duplex, the renderer's default and the
benchmark's look: the classifier is evaluated on a font it never saw, so
its figures say more than how well it memorised the renderer (though the
Hershey fonts share a skeleton; a real die's digits may differ more:
docs/vision-dice.md, "Digit dice: a learned digit classifier").

**Labels.** Class ``v`` is the digit v *upright* in the canonical patch:
the die's face cut at its true place (``DomeSample.face_xy``) and at the
turn that stands its digit up (the die's yaw plus :data:`UPRIGHT_QUARTER`
quarter turns, fixed per value by how the renderer maps each face's
texture), jittered by up to 1.6 patch px, 6 degrees and 6% of scale. The
same face at its other three quarter turns is "no face" (a digit lying on
its side is not read; the reader tries the four turns of every window,
``digitnet.AllTurns``), except a 1 turned upside down, which some fonts
draw alike and is left out. "No face" also: the face shifted by 0.15 to 1
face side, turned 15 to 45 degrees off, places anywhere in the dome's
middle, leaning dice, and pip dice's faces at every turn (a pip die must
never read as a digit). Then one round of hard negatives as for the pip
classifier (``train_facenet.hard_negatives``, with the four turns).

Seeds: development seeds only, clear of 700000-701199 and 720000-721399
(where thresholds are set) and of the benchmark's 900000 on.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.sim.textures import DigitStyle
from companion.vision.dice.canonical import (
    CANON_PX,
    CANON_SPAN,
    canonical_patch,
    features,
    to_crop_offset,
)
from companion.vision.dice.digitnet import AllTurns
from companion.vision.dice.dome import DEFAULT_DIE_FRACTION, DOME_SPAN_RADII
from companion.vision.dice.facenet import NO_FACE, FaceNet
from companion.vision.dice.photo import to_gray
from companion.vision.dice.train_facenet import (
    HIDDEN,
    STATES,
    add_training_options,
    mine_windows,
    train_two_rounds,
)

#: Quarter turns from the die's yaw to its digit upright in the canonical
#: patch, per value on top: the renderer fixes each face's texture axes to
#: the die (``companion.sim.shapes.draw_die``), so the digit's upright turn
#: differs by face. Measured on development dice (the canonical patch at
#: yaw + 90 k correlated with the drawn face: 86-93 of about 95 dice per
#: value agree; the rest are blurred); checked by a test.
UPRIGHT_QUARTER = {1: 2, 2: 1, 3: 2, 4: 0, 5: 3, 6: 2}

#: The training fonts: every Hershey face but duplex (the evaluation's).
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX)
#: Each font's scale range giving digits about as tall as the default's.
FONT_SCALES = {cv2.FONT_HERSHEY_SIMPLEX: (1.7, 2.5), cv2.FONT_HERSHEY_PLAIN: (3.4, 5.0),
               cv2.FONT_HERSHEY_COMPLEX: (1.7, 2.5), cv2.FONT_HERSHEY_TRIPLEX: (1.7, 2.5)}

#: Patches per settled die: upright face, other turns, near misses, turned off, elsewhere.
POSITIVES, WRONG_TURNS, NEAR, TURNED, ELSEWHERE = 24, 12, 12, 8, 8
COCKED_NEGATIVES = 16
PIP_NEGATIVES = 8
#: Patches at a die under a hand ("no face": half a die read wrong is a false call).
HAND_NEGATIVES = 8
HARD = 12


def style_for(seed: int) -> DigitStyle:
    """The training font of the die rendered with *seed* (never the default duplex)."""
    rng = np.random.default_rng(seed + 31337)
    font = int(FONTS[int(rng.integers(len(FONTS)))])
    lo, hi = FONT_SCALES[font]
    scale = float(rng.uniform(lo, hi))
    thickness = int(rng.integers(2, 8))
    # Keep the digit on the face (the texture is 96 px; the default digit is about 52 px tall).
    while scale > 0.5:
        (tw, th), _ = cv2.getTextSize("8", font, scale, thickness)
        if tw <= 70 and th <= 66:
            break
        scale *= 0.92
    return DigitStyle(font=font, scale=round(scale, 3), thickness=thickness,
                      underline=bool(rng.uniform() < 0.5), italic=bool(rng.uniform() < 0.25))


def _seed_range(text: str) -> range:
    try:
        a, b = (int(v) for v in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected FIRST:END seeds, not {text!r}") from None
    reserved = ((700_000, 701_200), (720_000, 721_400), (900_000, math.inf))
    if not 0 <= a < b or any(a < hi and b > lo for lo, hi in reserved):
        raise argparse.ArgumentTypeError(
            f"seed range {text!r} overlaps the threshold seeds (700000-701199, 720000-721399) "
            "or the benchmark's (900000 on)")
    return range(a, b)


def _render_chunk(job: tuple[int, int, str, str]) -> tuple[list[NDArray[np.uint8]], list[tuple[float, ...]]]:
    from companion.bench.vision import render_dome_sample

    first, end, state, edition = job
    crops: list[NDArray[np.uint8]] = []
    meta: list[tuple[float, ...]] = []
    for seed in range(first, end):
        style = style_for(seed) if edition == "digits" else None
        try:
            if state == "hidden":
                s = _render_hidden(seed, edition, style)
            elif state == "near-hand":
                s = _render_near_hand(seed, style)
            else:
                s = render_dome_sample(seed, state=state, edition=edition, digit_style=style)
        except (MemoryError, ValueError) as exc:
            print(f"render failed for seed {seed} (skipped): {exc}", file=sys.stderr)
            continue
        x, y = s.face_xy if s.face_xy is not None else (math.nan, math.nan)
        angle = s.face_angle_deg if s.face_angle_deg is not None else math.nan
        crops.append(s.crop)
        meta.append((float(seed), float(s.value), float(STATES.index(s.state)), float(edition == "digits"),
                     float(s.covered), x, y, angle))
    return crops, meta


def _render_hidden(seed: int, edition: str, style: DigitStyle | None) -> Any:
    """``render_dome_sample`` with a hand over the dome, and the flat die's
    face place kept (the renderer lays a hidden die flat, as a settled one):
    the die under the hand is taught as "no face" where it is."""
    from companion.bench.vision import _layout, sample_in_scene
    from companion.sim import DieView, Scene

    value = int(np.random.default_rng(seed).integers(1, 7))
    scene = Scene.random(seed, _layout(), size=(1280, 720))
    return sample_in_scene(seed, scene, DieView(value, "hidden", edition, digit_style=style), place_face=None)


#: A die is taught as "no face" under a hand over the dome when the hand
#: covers at least this share of the die's box in the frame (any visible
#: finger over the die: half a die read wrong is a false call).
NEAR_HAND_COVERED = 0.02


def _render_near_hand(seed: int, style: DigitStyle | None) -> Any:
    """A settled digit die with a hand reaching into or beside the dome
    (fingertips within 1.3 dome radii of its centre, at any height and from
    any side): ``covered`` when the hand hides at least
    :data:`NEAR_HAND_COVERED` of the die's box (taught as "no face"),
    otherwise an ordinary settled die beside a hand (taught as its value)."""
    from dataclasses import replace

    from companion.bench.vision import (
        _OPENING,
        DomeSample,
        _layout,
        _settled_face,
        dome_crop_from_camera,
    )
    from companion.sim import DieView, Scene, render
    from companion.sim.scene import HandView

    layout = _layout()
    rng = np.random.default_rng(seed + 4242)
    value = int(np.random.default_rng(seed).integers(1, 7))
    cx, cy = layout.die.center
    r, a = 1.3 * layout.die.dome_radius_mm * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
    hand = replace(HandView.random(rng, layout), tip_mm=(cx + r * math.cos(a), cy + r * math.sin(a)))
    scene = Scene.random(seed, layout, size=(1280, 720), hand=hand)
    frame, truth = render(_OPENING, DieView(value, "settled", "digits", digit_style=style), scene, seed=seed)
    crop = dome_crop_from_camera(frame, truth.camera, layout)
    covered = False
    if truth.hand_mask is not None and truth.die_box is not None:
        x0, y0, x1, y1 = (int(round(v)) for v in truth.die_box)
        box = truth.hand_mask[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
        covered = bool(box.size) and float(np.asarray(box, bool).mean()) >= NEAR_HAND_COVERED
    face = _settled_face(seed, layout, truth)
    return DomeSample(seed, crop, value, "settled", "digits", covered,
                      None if face is None else face[0], None if face is None else face[1])


def render_set(seeds: range, state: str, edition: str, cache: Path | None,
               workers: int) -> tuple[NDArray[np.uint8], NDArray[np.float64]]:
    """Crops and rows (seed, value, state index, digits, covered, x, y, angle), cached."""
    name = f"{state}-{edition}-styled" if edition == "digits" else f"{state}-{edition}"
    path = None if cache is None else cache / f"{name}-{seeds.start}-{seeds.stop}.npz"
    if path is not None and path.is_file():
        with np.load(path) as data:
            return np.asarray(data["crops"], np.uint8), np.asarray(data["meta"], np.float64)
    started = time.perf_counter()
    jobs = [(a, min(a + 100, seeds.stop), state, edition) for a in range(seeds.start, seeds.stop, 100)]
    crops: list[NDArray[np.uint8]] = []
    meta: list[tuple[float, ...]] = []
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for c, m in pool.map(_render_chunk, jobs):
            crops += c
            meta += m
            print(f"  {state} {edition}: {len(crops)} rendered ({time.perf_counter() - started:.0f} s)",
                  flush=True)
    out = np.array(crops, np.uint8), np.array(meta, np.float64)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, crops=out[0], meta=out[1])
    return out


def motion_blur_px(seed: int) -> float:
    """The motion blur (px) of the 1280x720 scene rendered with *seed* (``Scene.random``)."""
    from companion.bench.vision import _layout
    from companion.sim import Scene

    return float(Scene.random(seed, _layout(), size=(1280, 720)).motion_blur_px)


def patches_of(crop: NDArray[np.uint8], row: NDArray[np.float64], rng: np.random.Generator,
               xs: list[NDArray[np.float32]], ys: list[int], blurred_px: float = 0.0) -> None:
    """The labelled patches of one crop (see the module doc), appended to *xs*, *ys*.

    With *blurred_px*, a settled digit die in a scene with at least that much
    motion blur is taught as "no face" where it lies, as a die under a hand."""
    gray = to_gray(crop).astype(np.float32)
    side = min(gray.shape[:2])
    die = DEFAULT_DIE_FRACTION * side
    centre = (side - 1) / 2.0
    zone = 0.65 * side / DOME_SPAN_RADII
    unit = die * CANON_SPAN / CANON_PX
    face_side = CANON_PX / CANON_SPAN

    def cut(x: float, y: float, angle: float, label: int, scale: float = 1.0) -> None:
        xs.append(canonical_patch(gray, x, y, angle, die * scale))
        ys.append(label)

    def elsewhere(avoid: tuple[float, float] | None, n: int) -> None:
        made = 0
        while made < n:
            r, a = zone * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
            x, y = centre + r * math.cos(a), centre + r * math.sin(a)
            if avoid is not None and math.dist((x, y), avoid) < 0.8 * die:
                continue
            cut(x, y, rng.uniform(0, 360), NO_FACE)
            made += 1

    state, digits, covered = STATES[int(row[2])], bool(row[3]), bool(row[4])
    if blurred_px and state == "settled" and digits and motion_blur_px(int(row[0])) >= blurred_px:
        covered = True
    if state == "cocked":
        elsewhere(None, COCKED_NEGATIVES)
        return
    if state == "hidden":  # a hand over the dome: the die under it is no face to read
        if not math.isnan(row[5]):
            for _ in range(HAND_NEGATIVES):
                angle = float(row[7]) + rng.uniform(-6, 6) + 90.0 * int(rng.integers(4))
                cut(float(row[5]) + rng.uniform(-2, 2) * unit, float(row[6]) + rng.uniform(-2, 2) * unit,
                    angle, NO_FACE)
        elsewhere(None, ELSEWHERE)
        return
    if state != "settled" or math.isnan(row[5]):
        return
    fx, fy, yaw = float(row[5]), float(row[6]), float(row[7])
    if covered:  # what the hand leaves of the die is not read either
        for _ in range(HAND_NEGATIVES):
            angle = yaw + rng.uniform(-6, 6) + 90.0 * int(rng.integers(4))
            cut(fx + rng.uniform(-2, 2) * unit, fy + rng.uniform(-2, 2) * unit, angle, NO_FACE)
        elsewhere((fx, fy), ELSEWHERE)
        return
    if not digits:  # a pip face, at any turn, is no digit
        for _ in range(PIP_NEGATIVES):
            r, a = 1.6 * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
            angle = yaw + rng.uniform(-6, 6) + 90.0 * int(rng.integers(4))
            ox, oy = to_crop_offset(r * math.cos(a), r * math.sin(a), angle, die)
            cut(fx + ox, fy + oy, angle, NO_FACE)
        elsewhere((fx, fy), ELSEWHERE // 2)
        return
    value = int(row[1])
    up = yaw + 90.0 * UPRIGHT_QUARTER[value]
    for _ in range(POSITIVES):
        r, a = 1.6 * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
        angle = up + rng.uniform(-6, 6)
        ox, oy = to_crop_offset(r * math.cos(a), r * math.sin(a), angle, die)
        cut(fx + ox, fy + oy, angle, value, rng.uniform(0.94, 1.06))
    turns = (1, 3) if value == 1 else (1, 2, 3)
    for i in range(WRONG_TURNS):
        r, a = 1.6 * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
        angle = up + 90.0 * turns[i % len(turns)] + rng.uniform(-6, 6)
        ox, oy = to_crop_offset(r * math.cos(a), r * math.sin(a), angle, die)
        cut(fx + ox, fy + oy, angle, NO_FACE, rng.uniform(0.94, 1.06))
    for _ in range(NEAR):
        r, a = rng.uniform(0.15, 1.0) * face_side, rng.uniform(0, 2 * math.pi)
        angle = up + rng.uniform(-8, 8) + 90.0 * int(rng.integers(4))
        ox, oy = to_crop_offset(r * math.cos(a), r * math.sin(a), angle, die)
        cut(fx + ox, fy + oy, angle, NO_FACE)
    for _ in range(TURNED):
        angle = up + rng.choice([-1, 1]) * rng.uniform(15, 45) + 90.0 * int(rng.integers(4))
        cut(fx + rng.uniform(-2, 2) * unit, fy + rng.uniform(-2, 2) * unit, angle, NO_FACE)
    elsewhere((fx, fy), ELSEWHERE)


def hard_negatives(net: FaceNet, crops: NDArray[np.uint8], meta: NDArray[np.float64]) -> list[NDArray[np.float32]]:
    """Windows (at the quarter turn the net likes best) taken for a digit where there is none.

    As ``train_facenet.hard_negatives``: off the true place by more than 0.15
    face sides, or turned more than 12 degrees off (modulo a quarter turn:
    the wrong quarter turns at the true place are taught already), with some
    value above 0.3; the ``HARD`` most digit-like per crop.
    """

    def turned_best(patches: NDArray[np.float32], i: int) -> NDArray[np.float32]:
        # The turn the net reads a digit at: the one to teach "no face".
        turned = np.stack([np.rot90(patches[i], k) for k in range(4)])
        probs = net.probabilities(features(turned))[:, 1:].max(axis=1)
        return np.asarray(turned[int(np.argmax(probs))].copy(), np.float32)

    return mine_windows(AllTurns(net), crops, meta, turned_best, face_known=lambda row: bool(row[3]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.dice.train_digitnet",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--settled", type=_seed_range, action="append", required=True,
                        help="seed range FIRST:END of settled digit dice, other fonts (repeatable)")
    parser.add_argument("--cocked", type=_seed_range, action="append", default=[],
                        help="seed range of leaning digit dice (no-face examples; repeatable)")
    parser.add_argument("--hands", type=_seed_range, action="append", default=[],
                        help="seed range of digit dice under a hand over the dome (no-face examples)")
    parser.add_argument("--near-hands", type=_seed_range, action="append", default=[],
                        help="seed range of settled digit dice with a hand reaching into or beside the dome "
                             "(covered dice as no-face examples, the others as their value)")
    parser.add_argument("--pips", type=_seed_range, action="append", default=[],
                        help="seed range of settled pip dice (no-face examples; repeatable)")
    parser.add_argument("--blurred-px", type=float, default=0.0,
                        help="settled digit dice in scenes with at least this much motion blur (px) "
                             "are taught as no face (default 0: off)")
    parser.add_argument("--workers", type=int, default=2, help="rendering processes (default 2)")
    add_training_options(parser, small_glare=None, hidden=HIDDEN)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    xs: list[NDArray[np.float32]] = []
    ys: list[int] = []
    sets: list[tuple[NDArray[np.uint8], NDArray[np.float64]]] = []
    plan = [(s, "settled", "digits") for s in args.settled] + [(s, "cocked", "digits") for s in args.cocked]
    plan += [(s, "hidden", "digits") for s in args.hands]
    plan += [(s, "near-hand", "digits") for s in args.near_hands]
    plan += [(s, "settled", "pips") for s in args.pips]
    for seeds, state, edition in plan:
        crops, meta = render_set(seeds, state, edition, args.cache, args.workers)
        before = len(xs)
        for crop, row in zip(crops, meta, strict=True):
            patches_of(crop, row, rng, xs, ys, args.blurred_px)
        print(f"{state} {edition} {seeds.start}:{seeds.stop}: {len(crops)} crops, {len(xs) - before} patches",
              flush=True)
        sets.append((crops, meta))
    net = train_two_rounds(xs, ys, sets, hard_negatives, args.hidden, args.epochs, rng)
    net.save(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
