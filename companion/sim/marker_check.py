"""How often OpenCV's default ArUco detector finds the layout's markers in
random rendered scenes, by camera tilt:

    python -m companion.sim.marker_check --scenes 60

A check of the marker size and placement in the layout (and a warning for the
vision reader: it cannot count on all four markers), not a test.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from companion.layout import load_layout
from companion.sim.render import render
from companion.sim.scene import Scene


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="ArUco markers found in random rendered scenes, by tilt")
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--layout", type=Path)
    args = parser.parse_args(argv)
    layout = load_layout(args.layout)
    code = getattr(cv2.aruco, layout.marker_dictionary)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(code))
    wanted = set(layout.marker_ids)
    found: dict[int, list[int]] = {}
    for k in range(args.scenes):
        tilt = 45.0 * k / max(1, args.scenes - 1)
        scene = Scene.random(500 + k, layout, tilt_deg=tilt, hand=None, motion_blur_px=0.0)
        img, _ = render({}, 3, scene, seed=k, layout=layout)
        _, ids, _ = detector.detectMarkers(img)
        seen = set() if ids is None else set(int(i) for i in ids.ravel()) & wanted
        found.setdefault(min(2, int(tilt // 15)), []).append(len(seen))
    for band, counts in sorted(found.items()):
        lo, hi = band * 15, band * 15 + 15
        print(
            f"tilt {lo}-{hi} deg: {len(counts)} scenes, markers found {np.mean(counts):.2f} of {len(wanted)} on average, "
            f"all in {np.mean([c == len(wanted) for c in counts]):.0%}, at least {len(wanted) - 1} in {np.mean([c >= len(wanted) - 1 for c in counts]):.0%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
