"""``companion bench vision --only dice-digits``: digit dice as a family would use them.

A digit die is read with faces learned at calibration from one frame per
face (``companion calibrate --die-faces``), from the same camera that then
watches the game. So each benchmark case is a camera: a seeded rendered
scene (1280x720, tilt 0-35 degrees, random light, board print and lens, no
hand), six calibration frames (the die flat, one face each, at a random
turn), then 24 frames of flat dice (each value four times, anywhere on the
dome's floor) and 6 of leaning ones, all read through the board reader
(pose, dome crop, learned faces) as in play.

Printed: how many cameras' faces the calibration check accepted (the rest
are refused at calibration, with the reason, and play reads no digits), and
on the accepted cameras the share of flat dice read right, read wrong and
given no value, and leaning dice given a value. For the refused cameras it
also prints what reading with their faces would have given: what the check
prevents. Seeds start at 950000 by default, apart from the development
cameras (9400-9479) the reader's thresholds were chosen on.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

#: Frames read per camera after calibration.
FLAT_PER_VALUE = 4
LEANING = 6


def _rate(n: int, d: int) -> str:
    return f"{100.0 * n / d:5.1f}% ({n}/{d})" if d else "  n/a"


def bench_dice_digits(cameras: int, seed: int) -> Counter[str]:
    """Run the benchmark over *cameras* seeded cameras; print and return the counts."""
    from companion.layout import load_layout

    layout = load_layout()
    print(f"Digit dice, faces learned per camera ({cameras} cameras, seeds {seed}..{seed + cameras - 1})")
    counts: Counter[str] = Counter()
    started = time.perf_counter()
    for i, cam in enumerate(range(seed, seed + cameras), start=1):
        _camera(cam, layout, counts)
        if i % 10 == 0:
            print(f"  ... {i} cameras ({time.perf_counter() - started:.0f} s)", flush=True)
    _report(counts, cameras)
    return counts


@dataclass(frozen=True)
class Camera:
    """One seeded camera over the opening position, and the frames it sees of a digit die."""

    seed: int
    layout: Any

    @cached_property
    def _scene_and_faces(self) -> tuple[Any, list[Any]]:
        from companion.sim import DieView, Scene

        rng = np.random.default_rng(self.seed)
        scene = Scene.random(self.seed, self.layout, size=(1280, 720), hand=None,
                             tilt_deg=float(rng.uniform(0.0, 35.0)))
        faces = [DieView(v, "settled", "digits", yaw_deg=float(rng.uniform(0, 360)),
                         offset_mm=(float(rng.uniform(-3, 3)), float(rng.uniform(-3, 3))))
                 for v in range(1, 7)]
        return scene, faces

    def frame(self, view: Any, render_seed: int) -> np.ndarray:
        """The opening position with the die as *view* shows it."""
        from companion.layout import COLORS
        from companion.sim import render

        scene = self._scene_and_faces[0]
        return np.asarray(render({c: ["home"] * 4 for c in COLORS}, view, scene, seed=render_seed)[0])

    def face_frames(self) -> list[tuple[str, np.ndarray]]:
        """The six calibration frames: the die flat, showing 1..6, each at a random turn."""
        return [(f"face {i}", self.frame(view, i)) for i, view in enumerate(self._scene_and_faces[1], 1)]

    def play_frame(self, k: int) -> tuple[int, str, np.ndarray]:
        """Play frame *k*: (value, state, frame); flat dice first, then leaning ones."""
        from companion.sim import DieView

        value = k % 6 + 1
        state = "settled" if k < 6 * FLAT_PER_VALUE else "cocked"
        return value, state, self.frame(DieView(value, state, "digits"), 100 + k)


def _camera(cam: int, layout: Any, counts: Counter[str]) -> None:
    """One camera: calibrate its die faces, then read its flat and leaning dice."""
    from companion.vision.die_faces import DieFacesError, check_read_back, learn_faces
    from companion.vision.reader import BoardReader, dice_fraction

    camera = Camera(cam, layout)
    calibration = camera.face_frames()
    reader = BoardReader(layout, read_die=False, adapt=False)
    fraction = dice_fraction(reader.geometry)
    try:
        faces, crops, names = learn_faces(reader, calibration)
    except DieFacesError as exc:
        counts["cameras refused: no face"] += 1
        print(f"  camera {cam}: refused ({exc})")
        return
    try:
        check_read_back(faces, crops, names, fraction)
        kind = "accepted"
    except DieFacesError:
        kind = "refused"
    counts[f"cameras {kind}"] += 1
    play = BoardReader(layout, adapt=False, die_reader=lambda crop: faces.read(crop, fraction))
    for k in range(6 * FLAT_PER_VALUE + LEANING):
        value, state, frame = camera.play_frame(k)
        die = play.read(frame).die
        got = None if die is None else die.value
        if state == "settled":
            outcome = "none" if got is None else ("right" if got == value else "wrong")
            counts[f"{kind} flat {outcome}"] += 1
        else:
            counts[f"{kind} leaning {'valued' if got is not None else 'none'}"] += 1


def _report(c: Counter[str], cameras: int) -> None:
    accepted, refused = c["cameras accepted"], c["cameras refused"] + c["cameras refused: no face"]
    print(f"  cameras whose faces the calibration check accepted: {_rate(accepted, cameras)}; "
          f"refused: {refused} ({c['cameras refused: no face']} with no face found)")
    for kind, title in (("accepted", "accepted cameras (what play reads)"),
                        ("refused", "refused cameras, had their faces been used (what the check prevents)")):
        flat = sum(c[f"{kind} flat {o}"] for o in ("right", "wrong", "none"))
        leaning = c[f"{kind} leaning valued"] + c[f"{kind} leaning none"]
        print(f"  {title}:")
        print(f"    flat dice: right {_rate(c[f'{kind} flat right'], flat)}  "
              f"wrong {_rate(c[f'{kind} flat wrong'], flat)}  no value {_rate(c[f'{kind} flat none'], flat)}")
        print(f"    leaning dice given a value (a wrong call): {_rate(c[f'{kind} leaning valued'], leaning)}")
