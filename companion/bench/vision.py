"""``companion bench vision``: how well the camera part reads, and how fast.

Parts (each a function, each printing its own figures and targets):

- :func:`bench_dice_real`: every labelled die in ``../shared/data/dice-real``
  (cropped as ``companion.vision.dice.dataset`` documents), read with
  ``read_die_photo``; accuracy by face for the tuning half, the held-out
  half (the honest figure) and all photos. Skipped when the folder is absent.
- :func:`bench_dice_rendered`: seeded rendered 1280x720 frames (random
  camera up to 45 degrees of tilt, light, glare, noise, blur, JPEG, hands;
  pip and digit dice; settled, cocked and hidden), the dome rectified from
  the renderer's true camera onto the die's top-face plane, read with
  ``read_die_in_dome`` (pips) or learned ``FaceTemplates`` (digits, learned
  from one tidy frame per face). Seeds start at ``--seed`` (default 900000),
  far from the seeds used while developing (10000-49999).
- ``companion.bench.digit_dice``: digit dice as a family uses them, each
  camera calibrated on its own (``--cameras``, ``--camera-seed``).

Board parts are added beside these as their own functions.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from companion import paths

#: Targets from issue 4.
TARGET_REAL = 0.97
TARGET_RENDERED = 0.995
#: The dome crop's side in pixels (the board reader's DOME_CROP_PX).
DOME_CROP_PX = 160
#: Shares of die states and editions among rendered frames.
STATE_WEIGHTS = {"settled": 0.8, "cocked": 0.1, "hidden": 0.1}
DIGIT_SHARE = 0.2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frames", type=int, default=1000,
                        help="rendered dome frames (default 1000)")
    parser.add_argument("--seed", type=int, default=900_000,
                        help="first seed of the rendered frames (default 900000)")
    parser.add_argument("--only", choices=("dice-real", "dice-rendered", "dice-digits", "board", "board-print"),
                        action="append", help="run only these parts (repeatable)")
    parser.add_argument("--cameras", type=int, default=40,
                        help="dice-digits: cameras, each calibrated on its own (default 40)")
    parser.add_argument("--camera-seed", type=int, default=950_000,
                        help="dice-digits: first camera seed (default 950000)")
    parser.add_argument("--calibrated", action="store_true",
                        help="board part: calibrate on each scene's opening position first")


def run(args: argparse.Namespace) -> int:
    from companion.errors import UserError

    # A count below one would run nothing and print "n/a" as if measured.
    for name in ("frames", "cameras"):
        if getattr(args, name) < 1:
            raise UserError(f"--{name} must be at least 1, not {getattr(args, name)}")
    for name in ("seed", "camera_seed"):
        if getattr(args, name) < 0:
            raise UserError(f"--{name.replace('_', '-')} must be 0 or more, not {getattr(args, name)}")
    parts = set(args.only or ("dice-real", "dice-rendered", "dice-digits", "board", "board-print"))
    if "dice-real" in parts:
        bench_dice_real()
    if "dice-rendered" in parts:
        bench_dice_rendered(args.frames, args.seed)
    if "dice-digits" in parts:
        from companion.bench.digit_dice import bench_dice_digits

        bench_dice_digits(args.cameras, args.camera_seed)
    if "board" in parts:
        bench_board(args)
    if "board-print" in parts:
        from companion.vision.benchmark import run_print

        run_print(args)
    return 0


def bench_board(args: argparse.Namespace) -> None:
    """The board part: every hole, whole frames, the die through the whole
    pipeline, and time per frame (``companion.vision.benchmark``, docs/vision.md)."""
    from companion.vision.benchmark import run_board

    run_board(args)


def _pct(ok: int, n: int) -> str:
    return f"{100.0 * ok / n:6.2f}% ({ok}/{n})" if n else "   n/a"


def _verdict(value: float, target: float) -> str:
    return "met" if value >= target else "MISSED"


# ---- real photos ----------------------------------------------------------------------


def bench_dice_real() -> None:
    """Accuracy on every labelled real die, by face and by half of the photos."""
    from companion.vision.dice.dataset import labelled_dice, photo_half
    from companion.vision.dice.photo import read_die_photo

    folder = paths.dice_real_dir()
    print(f"Real dice photos ({folder})")
    if not folder.is_dir():
        print("  skipped: folder absent")
        return
    right: Counter[tuple[str, int]] = Counter()
    total: Counter[tuple[str, int]] = Counter()
    unread = 0
    seconds = 0.0
    for die in labelled_dice(folder):
        start = time.perf_counter()
        reading = read_die_photo(die.crop)
        seconds += time.perf_counter() - start
        half = photo_half(die.photo)
        total[(half, die.value)] += 1
        right[(half, die.value)] += reading.value == die.value
        unread += reading.value is None
    n = sum(total.values())
    print("  face   tuning half        held-out half      all photos")
    for value in range(1, 7):
        cells = []
        for halves in (("tuning",), ("held-out",), ("tuning", "held-out")):
            ok = sum(right[(h, value)] for h in halves)
            cells.append(_pct(ok, sum(total[(h, value)] for h in halves)))
        print(f"  {value}      " + "   ".join(cells))
    figures = {}
    for name, halves in (("tuning", ("tuning",)), ("held-out", ("held-out",)), ("all", ("tuning", "held-out"))):
        ok = sum(right[(h, v)] for h in halves for v in range(1, 7))
        cnt = sum(total[(h, v)] for h in halves for v in range(1, 7))
        figures[name] = (ok, cnt)
    print("  overall " + "   ".join(_pct(*figures[k]) for k in ("tuning", "held-out", "all")))
    ok, cnt = figures["held-out"]
    print(f"  held-out accuracy {_pct(ok, cnt).strip()} (target >= {TARGET_REAL:.0%}: "
          f"{_verdict(ok / max(cnt, 1), TARGET_REAL)}); thresholds were tuned on the tuning half")
    print(f"  no value given: {unread}/{n}; {1000.0 * seconds / max(n, 1):.1f} ms per read")


# ---- rendered frames ------------------------------------------------------------------


@dataclass(frozen=True)
class DomeSample:
    """One rendered dome crop and what it truly shows."""

    seed: int
    crop: NDArray[np.uint8]
    value: int
    state: str
    edition: str
    covered: bool  # a hand hides at least a quarter of the die
    #: A settled die's top-face centre in the crop (px) and its turn (degrees,
    #: the crop's ``face_patch`` convention: the face's edges lie at this angle
    #: modulo 90), when known (``_settled_face``); None otherwise.
    face_xy: tuple[float, float] | None = None
    face_angle_deg: float | None = None
    #: How wide the camera sees the die (px; ``companion.vision.reader.die_seen_px``),
    #: as the board reader tells the die reader in play; None: not measured.
    seen_px: float | None = None


def dome_crop_from_camera(frame: NDArray[np.uint8], camera: Any, layout: Any,
                          px: int = DOME_CROP_PX) -> NDArray[np.uint8]:
    """The die reader's dome crop, rectified exactly through a known camera.

    Every crop pixel is a point of the plane of the die's top face (board
    millimetres, ``z`` = die size) projected through the camera, lens
    distortion included (``docs/vision-dice.md``, crop convention).
    """
    import cv2

    from companion.vision.dice.dome import DOME_SPAN_RADII

    cx, cy = layout.die.center
    half = layout.die.dome_radius_mm * DOME_SPAN_RADII / 2.0
    steps = (np.arange(px) + 0.5) / px * 2.0 * half - half
    xs, ys = np.meshgrid(cx + steps, cy + steps)
    points = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, layout.die.size_mm)], axis=1)
    image_px = np.asarray(camera.project(points), np.float32).reshape(px, px, 2)
    out = cv2.remap(frame, image_px[..., 0], image_px[..., 1], cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, np.uint8)


_OPENING = {c: ["home"] * 4 for c in ("red", "blue", "yellow", "green")}


@lru_cache(maxsize=1)
def _layout() -> Any:
    """The classic layout, read once (not once per frame)."""
    from companion.layout import load_layout

    return load_layout()


def render_dome_sample(seed: int, state: str | None = None, edition: str | None = None,
                       value: int | None = None, digit_style: Any = None,
                       **scene_knobs: Any) -> DomeSample:
    """A seeded rendered 1280x720 frame's dome crop; unset die fields are drawn from the seed.

    *digit_style* (``companion.sim.textures.DigitStyle``) draws a digit die's
    numbers in another font (training only; None is the benchmark's look).
    """
    from companion.sim import DieView, Scene

    layout = _layout()
    rng = np.random.default_rng(seed)
    states = list(STATE_WEIGHTS)
    drawn_state = str(rng.choice(states, p=[STATE_WEIGHTS[s] for s in states]))
    drawn_edition = "digits" if rng.random() < DIGIT_SHARE else "pips"
    drawn_value = int(rng.integers(1, 7))
    state = state or drawn_state
    edition = edition or drawn_edition
    value = value or drawn_value
    scene = Scene.random(seed, layout, size=(1280, 720), **scene_knobs)
    return sample_in_scene(seed, scene, DieView(value, state, edition, digit_style=digit_style),
                           place_face=state == "settled")


def sample_in_scene(seed: int, scene: Any, die: Any, place_face: bool | None) -> DomeSample:
    """*die* (``companion.sim.DieView``) rendered under the dome in *scene*,
    the board in its opening position, cut to the dome crop. With
    *place_face*, where its top face lies (``_settled_face``); None: where
    it lies if the renderer drew the die's top at all (a die under a hand)."""
    from companion.sim import render
    from companion.vision.geometry import BoardGeometry
    from companion.vision.reader import die_seen_px

    layout = _layout()
    frame, truth = render(_OPENING, die, scene, seed=seed)
    crop = dome_crop_from_camera(frame, truth.camera, layout)
    known = truth.die_top_px is not None if place_face is None else place_face
    face = _settled_face(seed, layout, truth) if known else None
    return DomeSample(seed, crop, die.value, die.state, die.edition, _die_covered(truth),
                      None if face is None else face[0], None if face is None else face[1],
                      die_seen_px(BoardGeometry.from_layout(layout), truth.camera))


def _settled_face(seed: int, layout: Any, truth: Any,
                  px: int = DOME_CROP_PX) -> tuple[tuple[float, float], float] | None:
    """Where a settled die's top face is in the crop, and how it is turned.

    The renderer's truth has the die's top in the frame but not its turn, so
    the die's pose is drawn again exactly as ``companion.sim.render`` draws
    it (yaw, then offset, from ``seed + 7919``); the result is checked
    against the truth's ``die_top_px`` and None is returned if they disagree
    by more than a pixel (the renderer changed), so nothing is trained on a
    wrong place.
    """
    import math

    draws = _die_draws(seed)
    room = layout.die.dome_radius_mm - layout.die.size_mm * 0.75
    a, r = draws.offset_rad, draws.offset_share * room
    cx, cy = layout.die.center
    top = np.array([[cx + r * math.cos(a), cy + r * math.sin(a), layout.die.size_mm]])
    seen = np.asarray(truth.camera.project(top), np.float64).reshape(2)
    if math.dist(seen, truth.die_top_px) > 1.0:
        return None
    return _in_crop(layout, r * math.cos(a), r * math.sin(a), px), draws.yaw_deg % 360.0


@dataclass(frozen=True)
class _DieDraws:
    """The renderer's random draws for a die with no set pose (``companion.sim.render._die_pose``)."""

    yaw_deg: float
    offset_rad: float  # the flat die's offset: its direction (radians) ...
    offset_share: float  # ... and its share of the room it has
    lean_rad: float  # a cocked die: the direction of the wall it leans on (radians)
    tilt_deg: float  # and how far it leans


def _die_draws(seed: int) -> _DieDraws:
    """The die's draws of a scene rendered with *seed*, in the renderer's order."""
    import math

    rng = np.random.default_rng(seed + 7919)
    yaw = float(rng.uniform(0, 360))
    a, r = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0, 0.5))
    lean, tilt = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(25, 35))
    return _DieDraws(yaw, a, r, lean, tilt)


def _in_crop(layout: Any, dx_mm: float, dy_mm: float, px: int) -> tuple[float, float]:
    """A point of the die-top plane, *dx_mm*, *dy_mm* from the dome's centre, in crop px."""
    from companion.vision.dice.dome import DOME_SPAN_RADII

    half = layout.die.dome_radius_mm * DOME_SPAN_RADII / 2.0
    return (dx_mm / (2.0 * half) + 0.5) * px - 0.5, (dy_mm / (2.0 * half) + 0.5) * px - 0.5


def cocked_die_xy(seed: int, layout: Any, camera: Any, px: int = DOME_CROP_PX) -> tuple[float, float]:
    """Where a cocked die's body is seen in the dome crop of a scene rendered with *seed*.

    The renderer leans the die on the wall in a direction it draws from the
    seed (``_die_draws``); its centre is seen through *camera* where the
    line of sight crosses the die-top plane, the plane the crop shows
    (checked against the truth's ``die_top_px`` when this was written).
    """
    import math

    draws = _die_draws(seed)
    s, dome = layout.die.size_mm, layout.die.dome_radius_mm
    tilt = math.radians(draws.tilt_deg)
    reach = dome - s * 0.95
    cx, cy = layout.die.center
    centre = np.array([cx + reach * math.cos(draws.lean_rad), cy + reach * math.sin(draws.lean_rad),
                       s / 2 * (math.cos(tilt) + math.sin(tilt))])
    eye = np.asarray(camera.position, np.float64).reshape(3)
    seen = eye + (s - eye[2]) / (centre[2] - eye[2]) * (centre - eye)
    return _in_crop(layout, float(seen[0] - cx), float(seen[1] - cy), px)


def _die_covered(truth: Any) -> bool:
    """True when a hand hides at least a quarter of the die's box in the frame."""
    if truth.hand_mask is None or truth.die_box is None:
        return False
    x0, y0, x1, y1 = (int(round(v)) for v in truth.die_box)
    box = truth.hand_mask[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)]
    return bool(box.size) and float(box.mean()) >= 0.25


def learned_digit_faces() -> Any:
    """Digit faces learned as a user would at calibration: one tidy frame per face."""
    from companion.sim import DieView, Scene, render
    from companion.vision.dice.templates import FaceTemplates

    layout = _layout()
    crops = {}
    for value in range(1, 7):
        scene = Scene.default(layout)
        frame, truth = render(_OPENING, DieView(value, "settled", "digits", yaw_deg=17.0 * value),
                              scene, seed=value)
        crops[value] = dome_crop_from_camera(frame, truth.camera, layout)
    return FaceTemplates.learn(crops)


def bench_dice_rendered(frames: int, seed: int) -> None:
    """Settled accuracy, wrong calls, cocked detection and speed on rendered domes."""
    from companion.vision.dice.dome import read_die_in_dome

    print(f"Rendered dome frames ({frames}, 1280x720, seeds {seed}..{seed + frames - 1})")
    templates = learned_digit_faces()
    # Pip dice are read as in play, told how wide the camera sees the die.
    readers: dict[str, Callable[[DomeSample], Any]] = {
        "pips": lambda sample: read_die_in_dome(sample.crop, seen_px=sample.seen_px),
        "digits": lambda sample: templates.read(sample.crop),
    }
    counts: Counter[tuple[str, str, str]] = Counter()
    by_face: Counter[tuple[int, str]] = Counter()
    seconds = 0.0
    cpu_seconds = 0.0
    read = 0
    started = time.perf_counter()
    for i, sample in enumerate(_samples(seed, frames)):
        read += 1
        start, cpu_start = time.perf_counter(), time.process_time()
        reading = readers[sample.edition](sample)
        seconds += time.perf_counter() - start
        cpu_seconds += time.process_time() - cpu_start
        outcome = _outcome(sample, reading)
        state = f"{sample.state}, hand over the die" if sample.covered else sample.state
        counts[(sample.edition, state, outcome)] += 1
        if sample.state == "settled":
            by_face[(sample.value, outcome)] += 1
        if (i + 1) % 100 == 0:
            print(f"  ... {i + 1} frames ({time.perf_counter() - started:.0f} s)", flush=True)
    _report_rendered(counts, by_face, seconds, read, cpu_seconds)


def _samples(seed: int, frames: int) -> Iterable[DomeSample]:
    """The rendered samples; a seed the renderer fails on is named and skipped."""
    for i in range(frames):
        try:
            yield render_dome_sample(seed + i)
        except (MemoryError, ValueError) as exc:
            print(f"  render failed for seed {seed + i} (skipped): {type(exc).__name__}: "
                  f"{str(exc)[:120]}", flush=True)


def _outcome(sample: DomeSample, reading: Any) -> str:
    """``right`` (the die's value), ``wrong`` (another value), ``cocked``, ``hidden``.

    A hidden frame in which the hand leaves the die in view may be read: the
    true value counts as right there; a cocked die has no right value.
    """
    if reading.state == "settled":
        right = reading.value == sample.value and sample.state != "cocked"
        return "right" if right else "wrong"
    return str(reading.state)


def _report_rendered(counts: Counter[tuple[str, str, str]], by_face: Counter[tuple[int, str]],
                     seconds: float, frames: int, cpu_seconds: float | None = None) -> None:
    def n(edition: str | None, states: tuple[str, ...], outcome: str | None = None) -> int:
        return sum(c for (e, s, o), c in counts.items()
                   if (edition is None or e == edition) and s in states
                   and (outcome is None or o == outcome))

    visible, covered = ("settled",), ("settled, hand over the die",)
    print("  settled dice (right = the true value; wrong = a false value announced)")
    for label, states in (("die in view", visible), ("hand over it", covered),
                          ("all settled", visible + covered)):
        for edition in ("pips", "digits", None):
            total = n(edition, states)
            print(f"    {label:12s} {edition or 'both':6s} right {_pct(n(edition, states, 'right'), total)}"
                  f"  wrong {_pct(n(edition, states, 'wrong'), total)}"
                  f"  no value {_pct(total - n(edition, states, 'right') - n(edition, states, 'wrong'), total)}")
    print("    by face (all settled): " + "  ".join(
        f"{v}: {_pct(by_face[(v, 'right')], sum(c for (f, _), c in by_face.items() if f == v)).strip()}"
        for v in range(1, 7)))
    right, total = n(None, visible + covered, "right"), n(None, visible + covered)
    print(f"  settled accuracy {_pct(right, total).strip()} (target >= {TARGET_RENDERED:.1%}: "
          f"{_verdict(right / max(total, 1), TARGET_RENDERED)})")
    wrong = n(None, visible + covered, "wrong")
    print(f"  wrong values on settled dice: {_pct(wrong, total).strip()}; "
          f"flat dice called cocked: {_pct(n(None, visible + covered, 'cocked'), total).strip()}")
    cocked = ("cocked", "cocked, hand over the die")
    print(f"  cocked dice reported cocked: {_pct(n(None, cocked, 'cocked'), n(None, cocked)).strip()}; "
          f"given a value (a wrong call): {_pct(n(None, cocked, 'wrong'), n(None, cocked)).strip()}")
    hidden = ("hidden", "hidden, hand over the die")
    print(f"  hidden (a hand over the dome): {_pct(n(None, hidden, 'right'), n(None, hidden)).strip()} "
          f"read right where the die showed, {_pct(n(None, hidden, 'wrong'), n(None, hidden)).strip()} "
          "given a wrong value")
    cpu = "" if cpu_seconds is None else f", {1000.0 * cpu_seconds / max(frames, 1):.1f} ms of CPU"
    print(f"  {frames} frames read; {1000.0 * seconds / max(frames, 1):.1f} ms per dome read{cpu} "
          f"({DOME_CROP_PX}x{DOME_CROP_PX} crop, shared machine: wall time is an upper bound)")
