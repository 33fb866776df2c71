"""Whole games as video: physical action scripts rendered frame by frame.

:func:`random_game_script` plays a random legal game with the rules engine
and writes down what the people at the table physically do. The script is
then run by :func:`simulate_script`, which renders each frame and, at the
frame where the camera would know it, feeds a real
:class:`companion.referee.Referee` the input the physical game implies (a pop
when the die settles; the whole board when a hand has left it). The truth's
events are that referee's own output: nothing here re-implements a rule.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from companion import rules
from companion.layout import COLORS, Layout, hole_for, load_layout
from companion.referee import Referee
from companion.sim.render import Truth, render_physical
from companion.sim.scene import DieView, Scene
from companion.sim.script import (
    Action,
    Carry,
    Lift,
    PassOver,
    Reach,
    Seat,
    SetDown,
    Wait,
    Withdraw,
    World,
    move_peg,
    pop,
)


@dataclass(frozen=True)
class FrameTruth:
    """What one frame of a simulated game shows, and what the referee says then."""

    frame: int
    time: float
    pegs: dict[str, list[str]]
    loose: dict[str, int]
    die_value: int
    die_state: str
    hand: bool
    inputs: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    render: Truth | None = field(default=None, repr=False, compare=False)

    @property
    def die_settled(self) -> bool:
        return self.die_state == "settled"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "frame": self.frame,
            "time": round(self.time, 3),
            "pegs": self.pegs,
            "die": {"value": self.die_value, "state": self.die_state, "settled": self.die_settled},
            "hand": self.hand,
        }
        if self.loose:
            out["loose"] = self.loose
        if self.render is not None:
            out["die"]["box"] = list(self.render.die_box) if self.render.die_box else None
            if self.render.hand_box is not None:
                out["hand_box"] = list(self.render.hand_box)
        if self.inputs:
            out["inputs"] = self.inputs
        if self.events:
            out["events"] = self.events
        return out


@dataclass(frozen=True)
class GameScript:
    """A physical script and the referee set-up line it starts from."""

    setup: dict[str, Any]
    actions: tuple[Action, ...]
    turns: int


def simulate_script(
    actions: Sequence[Action],
    scene: Scene,
    seed: int = 0,
    *,
    setup: dict[str, Any] | None = None,
    layout: Layout | None = None,
    fps: float = 6.0,
    die: DieView | None = None,
    render_frames: bool = True,
) -> Iterator[tuple[NDArray[np.uint8] | None, FrameTruth]]:
    """Run *actions* and yield ``(image, truth)`` per frame (image None if not rendering).

    *setup* is the referee's set-up object (``players``, ``pegs``, ``turn``;
    default: four players, all pegs at Home, Red to play). Frame 0 shows the
    starting position and carries the set-up line and its events.
    """
    layout = layout or load_layout()
    setup = dict(setup or {"players": list(COLORS), "turn": "red"})
    players = tuple(c for entry in setup.get("players", COLORS) for c in ([entry] if isinstance(entry, str) else entry))
    referee = Referee()
    rng = np.random.default_rng(seed)
    start_events = referee.feed({"setup": setup})
    if any(e["event"] == "error" for e in start_events):
        from companion.errors import UserError

        raise UserError(f"the referee refused the set-up {setup}: {start_events[0]['text']}")
    world = World.start(layout, scene, referee.state.position(), players, rng, die)
    if "turn" in setup:
        next(Seat(setup["turn"]).run(world, fps), None)
    frame = 0

    def shoot(inputs: list[dict[str, Any]], events: list[dict[str, Any]]) -> tuple[NDArray[np.uint8] | None, FrameTruth]:
        img, rtruth = (None, None)
        if render_frames:
            img, rtruth = render_physical(world.placements(), world.die, world.frame_scene(), seed * 1_000_003 + frame, layout)
        truth = FrameTruth(frame, frame / fps, world.board(), world.loose(), world.die.value, world.die.state, world.hand_tip is not None, inputs, events, rtruth)
        return img, truth

    yield shoot([{"setup": setup}], start_events)
    for action in actions:
        for _ in action.run(world, fps):
            frame += 1
            inputs, world.due = world.due, []
            events: list[dict[str, Any]] = []
            for line in inputs:
                events.extend(referee.feed(line))
            yield shoot(inputs, events)


def random_game_script(seed: int, players: Sequence[str] | None = None, turns: int | None = None,
                       layout: Layout | None = None, illegal: float = 0.0) -> GameScript:
    """A random legal game (to the end, or *turns* turns) as a physical script.

    Moves are chosen with the rules engine; pops are fair die rolls; now and
    then the die lands cocked and is tapped, or a hand passes over the board.
    With *illegal* (a chance per plain track move), the player first moves
    the peg one space too far or too short, lets go, waits for the call and
    puts it back before making the move: a referee must call each such board
    once. The decisions use their own random stream, so the game itself (its
    pops and moves) is the same whatever *illegal* is.
    """
    layout = layout or load_layout()
    rnd = random.Random(seed)
    rnd_illegal = random.Random(seed * 7919 + 17)
    chosen = list(players) if players else list(COLORS)
    setup: dict[str, Any] = {"players": chosen, "turn": chosen[0]}
    referee = Referee()
    referee.feed({"setup": setup})
    actions: list[Action] = [Wait(seconds=0.5)]
    turns_done = 0
    while referee.state.phase is not rules.Phase.OVER:
        state = referee.state
        if state.phase is rules.Phase.MOVE:
            move = rnd.choice(rules.legal_moves(state))
            before = state.position()
            if illegal > 0.0 and rnd_illegal.random() < illegal:
                actions += _wrong_count_detour(layout, before, move, rnd_illegal)
            actions += _physical_move(layout, before, move, rnd)
            events = referee.feed({"move": {"color": move.color, "from": move.from_place, "to": move.to_place}})
        else:
            value = rnd.randint(1, 6)
            actions += pop(value, cocked_first=rnd.random() < 0.06)
            events = referee.feed({"pop": value})
        for e in events:
            if e["event"] == "turn":
                turns_done += 1
                actions.append(Wait(seconds=round(rnd.uniform(0.2, 0.6), 2)))
                actions.append(Seat(e["color"]))
                if rnd.random() < 0.05:
                    w, h = layout.size_mm
                    actions.append(PassOver((rnd.uniform(0, w), -60.0), (rnd.uniform(0, w), h + 60.0)))
        if turns is not None and turns_done >= turns:
            break
    # The camera keeps watching after the last move: a referee reports a
    # position only once it has read it whole for a while, and at 6 fps with
    # a hole flickering unknown one second was too short to see the winning
    # move (three whole rendered games ended unannounced).
    actions.append(Wait(seconds=3.0))
    return GameScript(setup, tuple(actions), turns_done)


def _wrong_count_detour(layout: Layout, before: dict[str, list[str]], move: rules.Move,
                        rnd: random.Random) -> list[Action]:
    """A plain track move first made one space off (onto an empty track
    space), left for the referee's call, then put back; [] when the move is
    not a plain track move or both wrong spaces are taken."""
    if move.victim is not None or not (move.from_place.startswith("track:") and move.to_place.startswith("track:")):
        return []
    taken = {place for places in before.values() for place in places}
    to = int(move.to_place.split(":")[1])
    wrong = [f"track:{(to - 1 + d) % 28 + 1}" for d in rnd.sample([1, -1], 2)]
    wrong = [w for w in wrong if w not in taken and w != move.from_place]
    if not wrong:
        return []
    frm = hole_for(move.color, move.from_place)
    off = hole_for(move.color, wrong[0])
    return move_peg(frm, off) + [Wait(seconds=round(rnd.uniform(2.5, 4.0), 2))] + move_peg(off, frm)


def _physical_move(layout: Layout, before: dict[str, list[str]], move: rules.Move, rnd: random.Random) -> list[Action]:
    """The hands' work for one move: bump the victim aside first, then move, then take the victim Home."""
    color = move.color
    at_home = before.get(color, []).count("home")
    frm = hole_for(color, "home", at_home) if move.from_place == "home" else hole_for(color, move.from_place)
    to = hole_for(color, move.to_place)
    out: list[Action] = []
    if move.victim is None:
        return move_peg(frm, to)
    # The victim is lifted off and laid beside the board, the mover's peg goes in,
    # then (now, or after a pause) the victim goes back to its Home.
    beside = _beside_board(layout, layout.holes[to], rnd)
    victim_home = hole_for(move.victim, "home", before.get(move.victim, []).count("home") + 1)
    out += [Reach(to), Lift(), Carry(beside), SetDown(lying=True)]
    out += [Reach(frm), Lift(), Carry(to), SetDown(), Withdraw()]
    if rnd.random() < 0.3:
        out.append(Wait(seconds=round(rnd.uniform(0.5, 2.0), 2)))
    out += [Reach(beside), Lift(), Carry(victim_home), SetDown(), Withdraw()]
    return out


def _beside_board(layout: Layout, xy: tuple[float, float], rnd: random.Random) -> tuple[float, float]:
    """A spot on the table just outside the board, nearest to *xy*."""
    w, h = layout.size_mm
    x, y = xy
    gaps = {"left": x, "right": w - x, "top": y, "bottom": h - y}
    side = min(gaps, key=lambda k: gaps[k])
    off = 22.0 + rnd.uniform(0, 15)
    if side == "left":
        return (-off, y + rnd.uniform(-15, 15))
    if side == "right":
        return (w + off, y + rnd.uniform(-15, 15))
    if side == "top":
        return (x + rnd.uniform(-15, 15), -off)
    return (x + rnd.uniform(-15, 15), h + off)
