"""Command-line knobs of the renderer, shared by ``render`` and ``simulate``.

Every knob left out is drawn at random from the seed; a knob given pins it.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

import numpy as np

from companion.errors import UserError
from companion.layout import Layout
from companion.sim.scene import HandView, Scene


def add_scene_arguments(parser: argparse.ArgumentParser, default_size: str | None = None) -> None:
    g = parser.add_argument_group("scene knobs (left out = random from the seed)")
    g.add_argument("--size", default=default_size, help="frame size WxH, e.g. 1280x720 (640x480 to 1920x1080)")
    g.add_argument("--tilt", type=float, help="camera tilt from straight down, degrees (0-45)")
    g.add_argument("--azimuth", type=float, help="side of the table the camera stands on, degrees (0 = top edge, clockwise)")
    g.add_argument("--distortion", type=float, help="lens k1 (negative = barrel), e.g. -0.2")
    g.add_argument("--kelvin", type=float, help="light colour temperature (2700 warm lamp .. 6500 daylight)")
    g.add_argument("--exposure", type=float, help="overall brightness gain (1 = nominal)")
    g.add_argument("--uneven", type=float, help="uneven light: brightness falloff across the frame (0-0.6)")
    g.add_argument("--vignette", type=float, help="darkening towards the corners (0-0.6)")
    g.add_argument("--glare", type=float, help="glare on the dome and pegs (0-1)")
    g.add_argument("--noise", type=float, help="sensor noise, standard deviation in 8-bit levels")
    g.add_argument("--blur", type=float, help="motion blur length in pixels")
    g.add_argument("--jpeg", type=int, help="JPEG quality (100 = none)")
    g.add_argument("--hand", choices=("yes", "no"), help="a hand over the board")
    g.add_argument("--clean", action="store_true", help="a tidy frame: straight above, even light, no noise, blur, glare or hand")


def parse_size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)[xX](\d+)", text.strip())
    if not m:
        raise UserError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 1280x720")
    w, h = int(m.group(1)), int(m.group(2))
    if not (320 <= w <= 3840 and 240 <= h <= 2160):
        raise UserError(f"--size {text}: width 320-3840 and height 240-2160 please")
    return w, h


def scene_from_args(args: argparse.Namespace, layout: Layout, rng: np.random.Generator) -> Scene:
    """The scene the knobs describe (the rest random from *rng*)."""
    over: dict[str, Any] = {}
    if args.size:
        over["size"] = parse_size(args.size)
    checks = {
        "tilt": ("tilt_deg", 0, 60),
        "azimuth": ("azimuth_deg", -360, 720),
        "distortion": ("distortion", -0.5, 0.5),
        "kelvin": ("light_kelvin", 1500, 12000),
        "exposure": ("exposure", 0.1, 3),
        "uneven": ("light_gradient", 0, 0.9),
        "vignette": ("vignette", 0, 0.9),
        "glare": ("glare", 0, 2),
        "noise": ("noise", 0, 50),
        "blur": ("motion_blur_px", 0, 60),
        "jpeg": ("jpeg_quality", 5, 100),
    }
    for arg, (knob, lo, hi) in checks.items():
        value = getattr(args, arg, None)
        if value is None:
            continue
        if not lo <= value <= hi:
            raise UserError(f"--{arg} {value}: must be between {lo} and {hi}")
        over[knob] = value
    if args.clean:
        over.setdefault("tilt_deg", 0.0)
        over.setdefault("distortion", 0.0)
        for knob, value in (("light_gradient", 0.0), ("vignette", 0.0), ("glare", 0.0), ("noise", 0.0), ("motion_blur_px", 0.0), ("jpeg_quality", 100), ("exposure", 1.0), ("light_kelvin", 5500.0)):
            over.setdefault(knob, value)
        over["hand"] = None
    if getattr(args, "hand", None) == "no":
        over["hand"] = None
    scene = Scene.random(rng, layout, **over)
    if getattr(args, "hand", None) == "yes" and scene.hand is None:
        from dataclasses import replace

        scene = replace(scene, hand=HandView.random(rng, layout))
    return scene
