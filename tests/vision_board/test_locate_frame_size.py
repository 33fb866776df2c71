"""A locator that meets frames of another size starts afresh instead of crashing.

A camera reconnected at another resolution, or a reader reused for another
clip, must not compare marker patches from the old frames with the new one.
"""

from __future__ import annotations

import numpy as np

from companion.layout import load_layout
from companion.sim import DieView, Scene, render
from companion.vision.reader import BoardReader

OPENING = {c: ["home"] * 4 for c in ("red", "blue", "yellow", "green")}


def test_a_reader_reused_across_frame_sizes_finds_the_board_in_each() -> None:
    layout = load_layout()
    reader = BoardReader(layout)
    for seed, size in ((5, (1280, 720)), (6, (640, 480)), (7, (1280, 720))):
        scene = Scene.random(seed, layout, size=size, tilt_deg=10, hand=None)
        image, _ = render(OPENING, DieView(3), scene, seed=seed, layout=layout)
        assert image.shape[:2] == (size[1], size[0])
        reading = reader.read(np.ascontiguousarray(image))
        assert reading.found, reading.reason
        assert {c: list(v) for c, v in reading.pegs.items()} == OPENING
