"""The board reader and the time layer on a simulated clip of physical play.

The simulator's action scripts move a hand, the die and the camera as people
do; the events must be exactly the referee's inputs the clip truly owes:
two equal pops in a row are two pops, a hand passing over is none, a nudged
camera costs nothing.

The die's face is read by a stand-in that reports what the renderer drew
(a tumbling die as a flickering settled value, the worst case for the time
layer), so this test is about the board reader, the dome thumbnails and the
time layer; the die reader has its own benchmark (docs/vision-dice.md).
"""

from __future__ import annotations

import pytest
from board_frames import stream_rendered_clip

from companion.layout import load_layout
from companion.sim import Scene
from companion.sim.script import NudgeCamera, PassOver, Wait, pop
from companion.vision.stream import PopSettled, PositionStable


@pytest.mark.slow
def test_two_equal_pops_a_pass_over_and_a_nudge() -> None:
    layout = load_layout()
    scene = Scene.default(layout, tilt_deg=20)
    actions = [Wait(seconds=0.6), *pop(4), Wait(seconds=0.6), *pop(4), Wait(seconds=0.6),
               PassOver(start=(133.5, -40.0), end=(133.5, 300.0), height_mm=70.0),
               Wait(seconds=0.6), NudgeCamera(), Wait(seconds=1.0)]
    events, owed = stream_rendered_clip(layout, scene, actions, 3)
    assert owed == [4, 4]
    assert [e.value for e in events if isinstance(e, PopSettled)] == owed
    positions = [e for e in events if isinstance(e, PositionStable)]
    # The opening position, then once more after each pop (no peg moved).
    assert len(positions) == 1 + len(owed)
    assert all(all(p == ("home",) * 4 for p in e.pegs.values()) for e in positions)
    kinds = [type(e).__name__ for e in events]
    assert kinds[kinds.index("PopSettled") + 1] == "PositionStable"
    assert [type(e).__name__ for e in events if not isinstance(e, (PopSettled, PositionStable))] == []
