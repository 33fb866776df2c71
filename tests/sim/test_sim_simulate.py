"""Physical scripts: the simulator's truth and its referee events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.cli import main
from companion.layout import load_layout
from companion.referee import Referee
from companion.sim import Scene
from companion.sim.script import Carry, Knock, Lift, Reach, SetDown, Withdraw, move_peg, pop
from companion.sim.simulate import FrameTruth, random_game_script, simulate_script

LAYOUT = load_layout()
SCENE = Scene.random(5, LAYOUT, size=(640, 480), hand=None, jpeg_quality=100, motion_blur_px=0.0)
SETUP = {"players": ["red", "blue"], "turn": "red", "pegs": {"red": ["track:5"], "blue": ["track:9"]}}


def run(actions: list[Any], setup: dict[str, Any] = SETUP, render: bool = False) -> list[FrameTruth]:
    return [t for _, t in simulate_script(actions, SCENE, 1, setup=setup, layout=LAYOUT, render_frames=render)]


def events(frames: list[FrameTruth]) -> list[dict[str, Any]]:
    return [e for f in frames for e in f.events]


def test_random_game_script_events_match_the_referee_fed_move_by_move() -> None:
    game = random_game_script(8, ["red", "blue"], layout=LAYOUT)
    frames = [t for _, t in simulate_script(game.actions, SCENE, 8, setup=game.setup, layout=LAYOUT, render_frames=False)]
    got = events(frames)
    assert got[-1]["event"] == "game-over"
    # The same game fed as pops and move lines gives the same events, in order.
    ref = Referee()
    want: list[dict[str, Any]] = []
    for f in frames:
        for line in f.inputs:
            if "board" in line:
                continue
            want.extend(ref.feed(line))
        for e in f.events:
            if e["event"] == "move":
                want.extend(ref.feed({"move": {"color": e["color"], "from": e["from"], "to": e["to"]}}))
                break
    assert [e["event"] for e in got] == [e["event"] for e in want]
    assert got == want
    # Whenever the camera reports the board, the truth's pegs out of Home are the
    # referee's (a bumped peg may still lie beside the board, not yet Home).
    ref2 = Referee()
    for f in frames:
        for line in f.inputs:
            ref2.feed(line)
            if "board" in line:
                pos = ref2.state.position()
                out_of_home = {c: sorted(p for p in v if p != "home") for c, v in f.pegs.items()}
                assert out_of_home == {c: sorted(p for p in v if p != "home") for c, v in pos.items()}
    assert not any(e["event"] in ("illegal", "error") for e in got)


def test_turn_limit_and_determinism() -> None:
    a = random_game_script(3, turns=4, layout=LAYOUT)
    b = random_game_script(3, turns=4, layout=LAYOUT)
    assert a == b and a.turns == 4
    assert sum(e["event"] == "turn" for e in events(run(list(a.actions), a.setup))) >= 4


def test_peg_lifted_and_put_back_reports_nothing() -> None:
    frames = run(pop(4) + [Reach("track:5"), Lift(), Carry("track:7"), Carry("track:5"), SetDown(), Withdraw()])
    assert [e["event"] for e in events(frames)] == ["turn", "pop"]
    assert any(f.loose == {"red": 1} and f.hand for f in frames)
    assert frames[-1].pegs["red"] == ["home", "home", "home", "track:5"]


def test_illegal_move_then_put_right() -> None:
    frames = run(pop(3) + move_peg("track:5", "track:7") + move_peg("track:7", "track:8"))
    evs = events(frames)
    assert [e["event"] for e in evs] == ["turn", "pop", "illegal", "move", "turn"]
    assert evs[2]["from"] == "track:5" and evs[2]["to"] == "track:7"
    assert (evs[3]["from"], evs[3]["to"]) == ("track:5", "track:8")


def test_bumped_peg_left_beside_the_board_then_taken_home() -> None:
    beside = (LAYOUT.size_mm[0] + 30.0, LAYOUT.holes["track:9"][1])
    actions = pop(4) + [Reach("track:9"), Lift(), Carry(beside), SetDown(lying=True)] + move_peg("track:5", "track:9")
    actions += [Reach(beside), Lift(), Carry("blue:home:4"), SetDown(), Withdraw()]
    frames = run(actions)
    kinds = [e["event"] for e in events(frames)]
    assert kinds == ["turn", "pop", "move", "bump", "turn"]
    while_loose = [f for f in frames if f.loose.get("blue") and not f.hand]
    assert while_loose and all("track:9" not in f.pegs["blue"] for f in while_loose)
    assert frames[-1].pegs["blue"] == ["home"] * 4 and frames[-1].loose == {}


def test_pop_before_previous_player_finished() -> None:
    # Red pops, lifts a peg, and Blue pops while Red's hand is still over the board.
    frames = run(pop(4) + [Reach("track:5"), Lift(), Carry("track:9")] + pop(2))
    evs = events(frames)
    assert [e["event"] for e in evs][:2] == ["turn", "pop"]
    assert evs[-1]["event"] == "illegal"  # the referee refuses a second pop before the move


def test_knocked_peg_and_rendered_frames(tmp_path: Path) -> None:
    frames = list(simulate_script([Knock("track:5", (120.0, 60.0)), Withdraw()], SCENE, 2, setup=SETUP, layout=LAYOUT))
    img, last = frames[-1]
    assert img is not None and img.shape == (480, 640, 3)
    assert last.loose == {"red": 1} and last.render is not None
    assert "track:5" not in last.render.occupancy
    again = list(simulate_script([Knock("track:5", (120.0, 60.0)), Withdraw()], SCENE, 2, setup=SETUP, layout=LAYOUT))
    assert all(a[0].tobytes() == b[0].tobytes() for a, b in zip(frames, again, strict=True))  # type: ignore[union-attr]


def test_script_mistakes_are_named() -> None:
    with pytest.raises(Exception, match="no peg to lift"):
        run([Reach("track:20"), Lift()])
    with pytest.raises(Exception, match="unknown hole"):
        run([Reach("track:99")])
    with pytest.raises(Exception, match="Withdraw while holding"):
        run([Reach("track:5"), Lift(), Withdraw()])


@pytest.mark.slow
def test_simulate_command_writes_video_and_truth(tmp_path: Path) -> None:
    out, truth = tmp_path / "g.mp4", tmp_path / "g.jsonl"
    assert main(["simulate", "--seed", "2", "--turns", "2", "--out", str(out), "--truth", str(truth), "--size", "640x480", "--fps", "5"]) == 0
    lines = [json.loads(x) for x in truth.read_text().splitlines()]
    assert "header" in lines[0] and lines[0]["header"]["fps"] == 5
    cap = cv2.VideoCapture(str(out))
    count = 0
    while cap.read()[0]:
        count += 1
    assert count == len(lines) - 1 > 10
    assert lines[1]["events"][0]["event"] == "turn"
    assert all(len(x["die"]["box"]) == 4 for x in lines[1:] if x["die"]["state"] == "settled")
    assert all(x["hand"] for x in lines[1:] if "hand_box" in x)  # a hand in play may be out of the frame
    assert any("hand_box" in x for x in lines[1:])
    assert sum(1 for x in lines[1:] for e in x.get("events", []) if e["event"] == "turn") >= 2


def test_simulate_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--out", str(tmp_path / "g.gif")]) == 2
    assert "mp4" in capsys.readouterr().err
    assert main(["simulate", "--out", str(tmp_path / "g.mp4"), "--players", "red,purple"]) == 2
    assert "--players" in capsys.readouterr().err
    assert main(["simulate", "--out", str(tmp_path / "g.mp4"), "--seed", "-1"]) == 2
    assert "--seed must be 0 or more" in capsys.readouterr().err  # was a numpy traceback
    (tmp_path / "taken.avi").mkdir()
    assert main(["simulate", "--out", str(tmp_path / "taken.avi")]) == 2
    assert "taken.avi is a folder" in capsys.readouterr().err
    assert main(["simulate", "--out", str(tmp_path / "no" / "g.avi")]) == 2
    assert f"the folder {tmp_path / 'no'} does not exist" in capsys.readouterr().err


def test_camera_nudge_and_light_change_show_in_the_frames() -> None:
    from companion.sim.script import ChangeLight, NudgeCamera, PassOver

    frames = list(simulate_script([NudgeCamera((20.0, 0.0, 0.0), roll_deg=3.0), ChangeLight(exposure=0.5), PassOver((0.0, 130.0), (267.0, 130.0))], SCENE, 4, setup=SETUP, layout=LAYOUT))
    first, nudged = frames[0][1].render, frames[3][1].render
    assert first is not None and nudged is not None
    moved = [abs(first.holes_px[h][0] - nudged.holes_px[h][0]) for h in first.holes_px]
    assert min(moved) > 3
    before, after = frames[3][0], frames[6][0]
    assert before is not None and after is not None and after.mean() < before.mean() * 0.75
    assert any(t.hand for _, t in frames[7:])
    assert [e for _, t in frames for e in t.events] == [e for e in frames[0][1].events]  # nothing for the referee


def test_wrong_count_detours_are_called_once_each_and_leave_the_game_as_it_was() -> None:
    plain = random_game_script(8, ["red", "blue"], layout=LAYOUT)
    messy = random_game_script(8, ["red", "blue"], layout=LAYOUT, illegal=0.3)
    assert random_game_script(8, ["red", "blue"], layout=LAYOUT, illegal=0.0) == plain

    def played(game: Any) -> list[dict[str, Any]]:
        return [t for _, t in simulate_script(game.actions, SCENE, 8, setup=game.setup, layout=LAYOUT,
                                              render_frames=False)]

    got = events(played(messy))
    calls = [e for e in got if e["event"] == "illegal"]
    assert len(calls) >= 3
    assert all(e["reason"] == "wrong-count" for e in calls)
    # Put back each time: the game is the same one, event for event.
    assert [e for e in got if e["event"] != "illegal"] == events(played(plain))


def test_the_opening_die_lies_still_until_the_first_pop() -> None:
    """A die given without its turn and place is drawn once, not afresh on
    every frame: before session 20 it "moved" on every frame before the first
    pop, and the vision stream took that for camera noise."""
    from dataclasses import replace

    from companion.sim import DieView
    from companion.sim.script import Wait

    still = replace(Scene.default(LAYOUT, size=(640, 480)), hand=None, noise=0.0, motion_blur_px=0.0, jpeg_quality=100)
    frames = list(simulate_script([Wait(seconds=0.5)], still, 3, setup=SETUP, layout=LAYOUT, die=DieView(4)))
    images = [img for img, _ in frames]
    assert len(images) >= 3
    assert all(img is not None and img.tobytes() == images[0].tobytes() for img in images)  # type: ignore[union-attr]


def test_a_cocked_die_lies_still_until_it_is_tapped() -> None:
    """A die the script leaves cocked leans the same way on every frame:
    before session 28 the renderer drew its lean afresh for each frame, so
    in whole games a cocked die jumped round the dome's wall and the vision
    stream never saw it resting cocked."""
    from dataclasses import replace

    from companion.sim.script import Settle

    still = replace(Scene.default(LAYOUT, size=(640, 480)), hand=None, noise=0.0, motion_blur_px=0.0, jpeg_quality=100)
    frames = list(simulate_script([Settle(3, cocked=True, seconds=0.6)], still, 5, setup=SETUP, layout=LAYOUT))
    images = [img for img, ft in frames if ft.die_state == "cocked"]
    assert len(images) >= 3
    assert all(img is not None and img.tobytes() == images[0].tobytes() for img in images)  # type: ignore[union-attr]
