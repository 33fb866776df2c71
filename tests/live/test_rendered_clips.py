"""End to end: short rendered clips of messy hands, through vision and the loop.

Each clip is a hand-written physical script rendered by the simulator; the
truth is the simulator's own referee, fed what the physical game implies.
The loop, fed only the pixels through the vision stream, must say the same
events, move for move, and call an illegal move only where one was made.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("cv2")

from companion.live.clips import judge_clip, referee_frames  # noqa: E402

BESIDE = (-28.0, 150.0)  # on the table, left of the board (board mm)


def _clip(setup: dict[str, Any], actions: list[Any], seed: int = 0) -> tuple[Any, Any]:
    from companion.layout import load_layout
    from companion.sim import DieView
    from companion.sim.scene import Scene
    from companion.sim.script import Wait
    from companion.sim.simulate import simulate_script

    layout = load_layout()
    scene = Scene.default(layout, size=(640, 480))
    frames = simulate_script([Wait(seconds=0.6), *actions, Wait(seconds=1.0)], scene, seed, setup=setup, layout=layout, fps=10.0, die=DieView(1))
    loop, _, truth = referee_frames(frames, setup, layout=layout)
    return loop, truth


def _kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["event"] for e in events]


def _check(loop: Any, truth: Any, expected: list[str]) -> None:
    assert _kinds(truth.events) == expected, "the clip does not show what it was written for"
    verdict = judge_clip(loop, truth)
    assert verdict.right, (verdict.first_difference, _kinds([e for _, e in loop.events]))
    assert all(d <= 0.5 + 1e-9 for d in verdict.delays), verdict.delays


RED_BLUE = {"players": ["red", "blue"], "turn": "red", "pegs": {"red": ["track:3"], "blue": ["track:7"]}}


@pytest.mark.slow
def test_lifting_a_peg_and_putting_it_back_is_nothing() -> None:
    from companion.sim.script import Carry, Lift, Reach, SetDown, Withdraw, move_peg, pop

    actions = [Reach("track:7"), Lift(), Carry("track:7"), SetDown(), Withdraw(), *pop(2), *move_peg("track:3", "track:5")]
    _check(*_clip(RED_BLUE, actions), ["turn", "pop", "move", "turn"])


@pytest.mark.slow
def test_illegal_move_is_called_then_put_right() -> None:
    from companion.sim.script import Wait, move_peg, pop

    actions = [*pop(2), *move_peg("track:3", "track:6"), Wait(seconds=1.0), *move_peg("track:6", "track:5")]
    _check(*_clip(RED_BLUE, actions), ["turn", "pop", "illegal", "move", "turn"])


@pytest.mark.slow
def test_move_changed_mid_way_counts_only_the_final_hole() -> None:
    from companion.sim.script import Carry, Lift, Reach, SetDown, Wait, Withdraw, pop

    actions = [*pop(3), Reach("track:3"), Lift(), Carry("track:5"), Wait(seconds=0.8), Carry("track:6"), SetDown(), Withdraw()]
    _check(*_clip(RED_BLUE, actions), ["turn", "pop", "move", "turn"])


@pytest.mark.slow
def test_bumped_peg_left_beside_the_board_is_not_illegal() -> None:
    from companion.sim.script import Carry, Lift, Reach, SetDown, Wait, Withdraw, move_peg, pop

    setup = {"players": ["red", "blue"], "turn": "red", "pegs": {"red": ["track:5"], "blue": ["track:11"]}}
    actions = [
        *pop(6),
        Reach("track:11"), Lift(), Carry(BESIDE), SetDown(lying=True),
        *move_peg("track:5", "track:11"),
        Wait(seconds=2.5),
        Reach(BESIDE), Lift(), Carry("blue:home:4"), SetDown(), Withdraw(),
    ]
    _check(*_clip(setup, actions), ["turn", "pop", "move", "bump", "extra-pop"])


@pytest.mark.slow
def test_cocked_die_then_a_lamp_switched_on() -> None:
    from companion.sim.script import ChangeLight, move_peg, pop

    actions = [*pop(3, cocked_first=True), *move_peg("track:3", "track:6"), ChangeLight(kelvin=3200.0, exposure=0.85)]
    _check(*_clip(RED_BLUE, actions), ["turn", "pop", "move", "turn"])


@pytest.mark.slow
def test_camera_nudged_mid_turn() -> None:
    from companion.sim.script import NudgeCamera, move_peg, pop

    actions = [*pop(3), NudgeCamera(), *move_peg("track:3", "track:6")]
    _check(*_clip(RED_BLUE, actions), ["turn", "pop", "move", "turn"])
