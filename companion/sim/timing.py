"""Renderer speed: CPU time per frame, one thread.

    python -m companion.sim.timing --frames 200 --size 1280x720

Every frame has its own seeded random scene (camera, light, hand, lens), as
the vision benchmark renders them; a second figure reuses one camera, as the
frames of a simulated video do. CPU time (not wall time) is reported so the
figure means something on a shared machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2
import numpy as np

from companion.layout import load_layout
from companion.sim.knobs import parse_size
from companion.sim.render import render
from companion.sim.scene import DieView, Scene

POSITION = {
    "red": ["home", "home", "track:3", "finish:2"],
    "blue": ["track:12", "track:26", "home", "home"],
    "yellow": ["track:15", "track:20", "home", "finish:4"],
    "green": ["home", "home", "track:27", "track:5"],
}


def time_frames(frames: int, size: tuple[int, int], same_camera: bool) -> list[float]:
    layout = load_layout()
    from companion.sim.textures import BOARD_STYLES, TABLE_STYLES, board_texture, table_near

    for k in range(max(len(BOARD_STYLES), len(TABLE_STYLES))):  # build every texture first
        board_texture(layout, k % len(BOARD_STYLES))
        table_near(layout, k % len(TABLE_STYLES))
    render(POSITION, 1, Scene.random(0, layout, size=size), seed=0, layout=layout)
    fixed = Scene.random(1, layout, size=size)
    out = []
    for k in range(frames):
        scene = fixed if same_camera else Scene.random(1000 + k, layout, size=size)
        t = time.process_time()
        render(POSITION, DieView(k % 6 + 1), scene, seed=k, layout=layout)
        out.append((time.process_time() - t) * 1000)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="renderer CPU time per frame (one thread)")
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--size", default="1280x720")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    size = parse_size(args.size)
    for label, same in (("random scene per frame", False), ("one camera (video)", True)):
        ms = time_frames(args.frames, size, same)
        p95 = float(np.percentile(ms, 95))
        print(f"{size[0]}x{size[1]}, {label}: median {statistics.median(ms):.1f} ms, mean {statistics.mean(ms):.1f} ms, p95 {p95:.1f} ms CPU per frame ({args.frames} frames)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
