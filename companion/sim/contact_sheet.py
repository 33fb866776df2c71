"""Make the renderer's contact sheet: a grid of frames showing its range.

    python -m companion.sim.contact_sheet docs/renderer-contact-sheet.png

Each tile is labelled with what it shows (camera tilt, light, glare, hand,
die state). The frames are seeded, so the sheet is reproducible.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.layout import load_layout
from companion.sim.render import render
from companion.sim.scene import DieView, HandView, Scene

POSITION = {
    "red": ["home", "home", "track:3", "finish:2"],
    "blue": ["track:12", "track:26", "home", "home"],
    "yellow": ["track:15", "track:20", "home", "finish:4"],
    "green": ["home", "home", "track:27", "track:5"],
}

#: (label, scene overrides, die) for each tile.
TILES: tuple[tuple[str, dict[str, Any], DieView], ...] = (
    ("straight above, daylight", {"tilt_deg": 0.0, "light_kelvin": 6000.0, "hand": None, "glare": 0.3, "motion_blur_px": 0.0}, DieView(5)),
    ("tilt 30, warm lamp 2700 K", {"tilt_deg": 30.0, "light_kelvin": 2700.0, "hand": None, "motion_blur_px": 0.0}, DieView(3)),
    ("tilt 45, strong glare", {"tilt_deg": 45.0, "glare": 1.0, "hand": None, "motion_blur_px": 0.0}, DieView(6)),
    ("hand reaching in", {"tilt_deg": 20.0, "motion_blur_px": 0.0}, DieView(2)),
    ("cocked die, uneven light", {"tilt_deg": 15.0, "light_gradient": 0.5, "vignette": 0.4, "hand": None, "motion_blur_px": 0.0}, DieView(4, state="cocked")),
    ("digits die, cool light 7000 K", {"tilt_deg": 10.0, "light_kelvin": 7000.0, "hand": None, "motion_blur_px": 0.0}, DieView(1, edition="digits")),
    ("motion blur, noise, JPEG 45", {"tilt_deg": 25.0, "motion_blur_px": 9.0, "noise": 7.0, "jpeg_quality": 45, "hand": None}, DieView(2)),
    ("hand pressing the dome", {"tilt_deg": 35.0, "motion_blur_px": 0.0}, DieView(5, state="hidden")),
    ("640x480, barrel lens", {"size": (640, 480), "distortion": -0.25, "tilt_deg": 40.0, "hand": None, "motion_blur_px": 0.0}, DieView(6, state="tumbling")),
)


def make_sheet(tile_width: int = 640, columns: int = 3, seed: int = 11) -> np.ndarray:
    layout = load_layout()
    tiles = []
    for k, (label, over, die) in enumerate(TILES):
        rng = np.random.default_rng(seed + k)
        args = {"size": (1280, 720), "hand_softness": 0.3, **over}
        scene = Scene.random(rng, layout, **args)
        if label.startswith("hand reaching"):
            scene = replace(scene, hand=HandView(tip_mm=layout.holes["track:26"], height_mm=40.0, from_deg=250.0, pinch=True))
        img, _ = render(POSITION, die, scene, seed=seed + k, layout=layout)
        h = int(round(tile_width * 9 / 16))
        f = min(tile_width / img.shape[1], (h - 26) / img.shape[0])
        tile = cv2.resize(img, (int(img.shape[1] * f), int(img.shape[0] * f)), interpolation=cv2.INTER_AREA)
        canvas = np.full((h, tile_width, 3), 30, np.uint8)
        x0, y0 = (tile_width - tile.shape[1]) // 2, (h - 26 - tile.shape[0]) // 2
        canvas[y0 : y0 + tile.shape[0], x0 : x0 + tile.shape[1]] = tile
        cv2.rectangle(canvas, (0, h - 26), (tile_width, h), (0, 0, 0), -1)
        cv2.putText(canvas, label, (8, h - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
        tiles.append(canvas)
    rows = [np.hstack(tiles[i : i + columns]) for i in range(0, len(tiles), columns)]
    return np.vstack(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", type=Path, help="PNG file to write")
    args = parser.parse_args(argv)
    sheet = make_sheet()
    if not cv2.imwrite(str(args.out), sheet):
        print(f"cannot write {args.out}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} ({sheet.shape[1]}x{sheet.shape[0]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
