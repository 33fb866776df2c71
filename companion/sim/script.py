"""Physical action scripts: what hands, the die, the camera and the light do.

A script is a list of small frozen actions (press the dome, the die settles,
reach for a hole, lift, carry, set down, withdraw, knock a peg off, pass a
hand over, nudge the camera, change the light). A random legal game generates
one (:func:`companion.sim.simulate.random_game_script`), and tests write them
by hand for messy play: a peg lifted and put back, a bumped peg left beside
the board, a pop before the previous player finished.

Each action advances a mutable :class:`World` frame by frame. The world knows
what the camera would report to the referee and when: a pop when the die
settles, the whole board when a hand has left the board.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from companion.errors import UserError
from companion.layout import COLORS, Layout, holes_from_pegs, pegs_from_holes
from companion.sim.camera import Camera
from companion.sim.render import PegPlacement, seat_wobble
from companion.sim.scene import DieView, HandView, Scene

Target = str | tuple[float, float]

#: Where each colour's player sits (the hand comes from there): the colour's corner.
SEAT_DEG: dict[str, float] = {"red": 315.0, "blue": 45.0, "yellow": 135.0, "green": 225.0}
_SKINS = ((120, 160, 215), (95, 135, 190), (70, 100, 150), (140, 175, 225))
_SLEEVES = ((120, 80, 60), (40, 40, 40), (200, 200, 200), (60, 60, 150))

#: Heights (mm above the board surface) of the hand's fingertips.
AWAY_MM = 420.0
HOVER_MM = 60.0
LIFT_MM = 28.0


@dataclass
class PegState:
    color: str
    hole: str | None
    x: float
    y: float
    z: float = 0.0
    tilt_deg: float = 0.0
    tilt_dir_deg: float = 0.0


@dataclass
class World:
    """Everything physical at one instant, plus what the camera owes the referee."""

    layout: Layout
    scene: Scene
    players: tuple[str, ...]
    pegs: list[PegState]
    die: DieView
    rng: np.random.Generator
    seat: str = "red"
    hand_tip: tuple[float, float, float] | None = None
    hand_from: float = 0.0
    held: int | None = None
    due: list[dict[str, Any]] = field(default_factory=list)
    last_board: dict[str, list[str]] | None = None

    @staticmethod
    def start(layout: Layout, scene: Scene, pegs: dict[str, list[str]], players: tuple[str, ...], rng: np.random.Generator, die: DieView | None = None) -> World:
        states = []
        for hole, color in holes_from_pegs(pegs).items():
            x, y = layout.holes[hole]
            states.append(_seated(color, hole, x, y, rng))
        die = die or DieView(int(rng.integers(1, 7)), yaw_deg=float(rng.uniform(0, 360)))
        w = World(layout, scene, players, states, _lying_still(die, layout, states), rng)
        w.last_board = w.board()
        return w

    # -- what the camera sees --------------------------------------------------------------

    def occupancy(self) -> dict[str, str]:
        return {p.hole: p.color for p in self.pegs if p.hole is not None}

    def board(self) -> dict[str, list[str]]:
        """Seated pegs in referee format, every playing colour listed."""
        seen = pegs_from_holes(self.occupancy())
        return {c: seen.get(c, []) for c in COLORS if c in self.players}

    def loose(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.pegs:
            if p.hole is None:
                out[p.color] = out.get(p.color, 0) + 1
        return out

    def placements(self) -> list[PegPlacement]:
        return [PegPlacement(p.color, p.x, p.y, p.z, p.tilt_deg, p.tilt_dir_deg, p.hole) for p in self.pegs]

    def hand_view(self) -> HandView | None:
        if self.hand_tip is None:
            return None
        k = COLORS.index(self.seat)
        return HandView(
            tip_mm=(self.hand_tip[0], self.hand_tip[1]),
            height_mm=self.hand_tip[2],
            from_deg=self.hand_from,
            skin_bgr=_SKINS[k],
            sleeve_bgr=_SLEEVES[k],
            pinch=self.held is not None or self.hand_tip[2] < HOVER_MM,
        )

    def frame_scene(self) -> Scene:
        return replace(self.scene, hand=self.hand_view())

    # -- helpers for actions ---------------------------------------------------------------

    def point(self, target: Target) -> tuple[float, float]:
        if isinstance(target, str):
            if target not in self.layout.holes:
                raise UserError(f"script: unknown hole {target!r}")
            return self.layout.holes[target]
        return (float(target[0]), float(target[1]))

    def away(self) -> tuple[float, float, float]:
        """A point outside the frame on the seated player's side."""
        cx, cy = self.layout.die.center
        f = math.radians(self.hand_from)
        return (cx + math.sin(f) * AWAY_MM, cy - math.cos(f) * AWAY_MM, 180.0)

    def peg_at(self, xy: tuple[float, float], radius: float = 12.0) -> int | None:
        best, best_d = None, radius
        for i, p in enumerate(self.pegs):
            d = math.dist((p.x, p.y), xy)
            if d < best_d and i != self.held:
                best, best_d = i, d
        return best

    def move_hand(self, tip: tuple[float, float, float]) -> None:
        self.hand_tip = tip
        if self.held is not None:
            p = self.pegs[self.held]
            p.x, p.y = tip[0], tip[1]
            p.z = max(0.0, tip[2] - self.layout.peg.height_mm + 4.0)

    def report_board(self) -> None:
        """The hand has left: the camera reports the board if it changed."""
        b = self.board()
        if b != self.last_board:
            self.due.append({"board": b})
            self.last_board = b


def _seated(color: str, hole: str, x: float, y: float, rng: np.random.Generator) -> PegState:
    dx, dy, tilt, dirn = seat_wobble(rng)
    return PegState(color, hole, x + dx, y + dy, 0.0, tilt, dirn)


def _lerp3(a: tuple[float, float, float], b: tuple[float, float, float], u: float, arc: float = 0.0) -> tuple[float, float, float]:
    s = 0.5 - 0.5 * math.cos(math.pi * u)  # ease in and out
    return (a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s + arc * math.sin(math.pi * u))


def _frames(seconds: float, fps: float) -> int:
    return max(1, int(round(seconds * fps)))


# ---- the actions -----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Action:
    """Base class: ``run`` advances the world, yielding once per frame.

    ``seconds`` (keyword only) is how long the action takes."""

    seconds: float = field(default=0.5, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        raise NotImplementedError


@dataclass(frozen=True)
class Seat(Action):
    """From now on hands come from *color*'s player (no frames)."""

    color: str = "red"
    seconds: float = field(default=0.0, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        if self.color not in SEAT_DEG:
            raise UserError(f"script: unknown colour {self.color!r}")
        world.seat = self.color
        world.hand_from = SEAT_DEG[self.color] + float(world.rng.uniform(-25, 25))
        yield from ()


@dataclass(frozen=True)
class Wait(Action):
    seconds: float = field(default=1.0, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        for _ in range(_frames(self.seconds, fps)):
            yield


@dataclass(frozen=True)
class PressDome(Action):
    """A hand comes in, presses the dome and lets go; the die jumps."""

    seconds: float = field(default=0.7, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        n = _frames(self.seconds, fps)
        cx, cy = world.layout.die.center
        top = (cx, cy, world.layout.die.dome_radius_mm + 6.0)
        start = world.hand_tip or world.away()
        for k in range(n):
            u = (k + 1) / n
            if u <= 0.45:
                world.move_hand(_lerp3(start, top, u / 0.45))
            elif u <= 0.7:
                world.move_hand(top)
                world.die = replace(world.die, state="hidden")
            else:
                world.move_hand(_lerp3(top, world.away(), (u - 0.7) / 0.3))
                world.die = replace(world.die, state="tumbling")
            yield
        world.hand_tip = None


@dataclass(frozen=True)
class Tumble(Action):
    """The die bounces inside the dome."""

    seconds: float = field(default=0.3, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        for _ in range(_frames(self.seconds, fps)):
            world.die = replace(world.die, state="tumbling", value=int(world.rng.integers(1, 7)), yaw_deg=float(world.rng.uniform(0, 360)), offset_mm=None)
            yield


def _die_offset(layout: Layout, rng: np.random.Generator) -> tuple[float, float]:
    """Where in the dome a settled die comes to rest (mm from its centre)."""
    room = layout.die.dome_radius_mm - layout.die.size_mm
    a, r = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0, 0.6)) * room
    return r * math.cos(a), r * math.sin(a)


def _lying_still(die: DieView, layout: Layout, pegs: list[Any]) -> DieView:
    """The opening die with its turn and place fixed: left open, the renderer
    drew them afresh on every frame, and the die "moved" on every frame
    before the first pop (the stream took that for camera noise). Drawn from
    a generator of their own, so the game's script draws what it drew before."""
    if die.state != "settled" or (die.yaw_deg is not None and die.offset_mm is not None):
        return die
    rng = np.random.default_rng([die.value, len(pegs), 0xD1E])
    yaw = die.yaw_deg if die.yaw_deg is not None else float(rng.uniform(0, 360))
    offset = die.offset_mm if die.offset_mm is not None else _die_offset(layout, rng)
    return replace(die, yaw_deg=yaw, offset_mm=offset)


@dataclass(frozen=True)
class Settle(Action):
    """The die lands showing *value* (or cocked against the wall: no pop yet)."""

    value: int = 1
    cocked: bool = False
    seconds: float = field(default=0.8, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        offset = _die_offset(world.layout, world.rng)
        world.die = DieView(self.value, "cocked" if self.cocked else "settled", world.die.edition, float(world.rng.uniform(0, 360)), offset)
        if not self.cocked:
            world.due.append({"pop": self.value})
        for _ in range(_frames(self.seconds, fps)):
            yield


@dataclass(frozen=True)
class TapDome(Action):
    """A cocked die is tapped and falls flat showing *value*."""

    value: int = 1
    seconds: float = field(default=1.2, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        yield from PressDome(seconds=self.seconds * 0.6).run(world, fps)
        yield from Settle(self.value, seconds=self.seconds * 0.4).run(world, fps)


@dataclass(frozen=True)
class Reach(Action):
    """The hand moves to just above *target* (a hole name or board mm)."""

    target: Target = "track:1"
    seconds: float = field(default=0.5, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        x, y = world.point(self.target)
        h = world.layout.peg.height_mm + 6.0
        if world.held is not None:
            h += LIFT_MM
        start = world.hand_tip or world.away()
        n = _frames(self.seconds, fps)
        for k in range(n):
            world.move_hand(_lerp3(start, (x, y, h), (k + 1) / n, arc=20.0 if world.hand_tip else 0.0))
            yield


@dataclass(frozen=True)
class Lift(Action):
    """Pick up the peg under the hand (in a hole or lying about)."""

    seconds: float = field(default=0.25, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        if world.hand_tip is None:
            raise UserError("script: Lift with no hand on the board (Reach first)")
        tip = world.hand_tip
        i = world.peg_at((tip[0], tip[1]))
        if i is None:
            raise UserError(f"script: no peg to lift at ({tip[0]:.0f}, {tip[1]:.0f}) mm")
        peg = world.pegs[i]
        peg.hole, peg.tilt_deg = None, 0.0
        world.held = i
        up = (tip[0], tip[1], tip[2] + LIFT_MM)
        n = _frames(self.seconds, fps)
        for k in range(n):
            world.move_hand(_lerp3(tip, up, (k + 1) / n))
            yield


@dataclass(frozen=True)
class Carry(Action):
    """Carry the held peg (or just the hand) to above *target*."""

    target: Target = "track:1"
    seconds: float = field(default=0.6, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        yield from Reach(self.target, seconds=self.seconds).run(world, fps)


@dataclass(frozen=True)
class SetDown(Action):
    """Put the held peg down: into the hole under the hand, or lying on its side."""

    lying: bool = False
    seconds: float = field(default=0.3, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        if world.held is None or world.hand_tip is None:
            raise UserError("script: SetDown with no peg in hand (Lift first)")
        tip = world.hand_tip
        low = (tip[0], tip[1], world.layout.peg.height_mm + 4.0)
        n = _frames(self.seconds, fps)
        for k in range(n):
            world.move_hand(_lerp3(tip, low, (k + 1) / n))
            if k < n - 1:
                yield
        peg = world.pegs[world.held]
        world.held = None
        if self.lying:
            peg.z, peg.hole = world.layout.peg.radius_mm * 0.9, None
            peg.tilt_deg, peg.tilt_dir_deg = 90.0, float(world.rng.uniform(0, 360))
            if not _on_board(world.layout, (peg.x, peg.y)):
                peg.z += world.layout.marker_z_mm
        else:
            hole = _nearest_hole(world, (tip[0], tip[1]))
            if hole is None:
                raise UserError(f"script: no free hole at ({tip[0]:.0f}, {tip[1]:.0f}) mm to set a peg in")
            x, y = world.layout.holes[hole]
            world.pegs[world.pegs.index(peg)] = _seated(peg.color, hole, x, y, world.rng)
        world.move_hand((tip[0], tip[1], tip[2] + 10))
        yield


@dataclass(frozen=True)
class Withdraw(Action):
    """The hand leaves the board; the camera then reports the board if it changed."""

    seconds: float = field(default=0.4, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        if world.hand_tip is not None:
            start = world.hand_tip
            n = _frames(self.seconds, fps)
            for k in range(n - 1):
                world.move_hand(_lerp3(start, world.away(), (k + 1) / n))
                yield
        if world.held is not None:
            raise UserError("script: Withdraw while holding a peg (SetDown first)")
        world.hand_tip = None
        world.report_board()
        yield


@dataclass(frozen=True)
class PassOver(Action):
    """A hand passes over the board from *start* to *end* (board mm), touching nothing."""

    start: tuple[float, float] = (0.0, 0.0)
    end: tuple[float, float] = (267.0, 267.0)
    height_mm: float = 90.0
    seconds: float = field(default=1.0, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        a = (*self.start, self.height_mm)
        b = (*self.end, self.height_mm)
        n = _frames(self.seconds, fps)
        for k in range(n):
            world.move_hand(_lerp3(a, b, (k + 1) / n))
            yield
        world.hand_tip = None


@dataclass(frozen=True)
class Knock(Action):
    """The peg in *hole* is knocked off and lies at *to* (board mm; off the board is fine)."""

    hole: str = "track:1"
    to: tuple[float, float] = (0.0, 0.0)
    seconds: float = field(default=0.3, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        idx = next((i for i, p in enumerate(world.pegs) if p.hole == self.hole), None)
        if idx is None:
            raise UserError(f"script: no peg in {self.hole!r} to knock")
        p = world.pegs[idx]
        start = (p.x, p.y)
        p.hole = None
        n = _frames(self.seconds, fps)
        for k in range(n):
            u = (k + 1) / n
            p.x, p.y = start[0] + (self.to[0] - start[0]) * u, start[1] + (self.to[1] - start[1]) * u
            p.tilt_deg = 90.0 * u
            p.tilt_dir_deg = math.degrees(math.atan2(self.to[0] - start[0], -(self.to[1] - start[1])))
            p.z = world.layout.peg.radius_mm * 0.9 * u + (0 if _on_board(world.layout, (p.x, p.y)) else world.layout.marker_z_mm)
            yield


@dataclass(frozen=True)
class NudgeCamera(Action):
    """Someone bumps the camera: it moves by *shift_mm* and turns by *roll_deg*."""

    shift_mm: tuple[float, float, float] = (15.0, 0.0, 0.0)
    roll_deg: float = 2.0
    seconds: float = field(default=0.3, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        cam = world.scene.camera
        n = _frames(self.seconds, fps)
        start_t = np.asarray(cam.tvec, np.float64)
        for k in range(n):
            u = (k + 1) / n
            rvec = _rolled(cam, self.roll_deg * u)
            tvec = start_t - np.asarray(self.shift_mm) * u
            world.scene = replace(world.scene, camera=Camera(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, rvec, tuple(float(v) for v in tvec), cam.dist))  # type: ignore[arg-type]
            yield


@dataclass(frozen=True)
class ChangeLight(Action):
    """A lamp is switched or a cloud passes: light colour, brightness, unevenness."""

    kelvin: float | None = None
    exposure: float | None = None
    gradient: float | None = None
    seconds: float = field(default=0.5, kw_only=True)

    def run(self, world: World, fps: float) -> Iterator[None]:
        s0 = world.scene
        goal = (self.kelvin or s0.light_kelvin, self.exposure or s0.exposure, s0.light_gradient if self.gradient is None else self.gradient)
        n = _frames(self.seconds, fps)
        for k in range(n):
            u = (k + 1) / n
            world.scene = replace(
                s0,
                camera=world.scene.camera,
                light_kelvin=s0.light_kelvin + (goal[0] - s0.light_kelvin) * u,
                exposure=s0.exposure + (goal[1] - s0.exposure) * u,
                light_gradient=s0.light_gradient + (goal[2] - s0.light_gradient) * u,
            )
            yield


def _rolled(cam: Camera, roll_deg: float) -> tuple[float, float, float]:
    import cv2

    a = math.radians(roll_deg)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    rvec, _ = cv2.Rodrigues(rz @ cam.R)
    return (float(rvec[0, 0]), float(rvec[1, 0]), float(rvec[2, 0]))


def _on_board(layout: Layout, xy: tuple[float, float]) -> bool:
    return 0 <= xy[0] <= layout.size_mm[0] and 0 <= xy[1] <= layout.size_mm[1]


def _nearest_hole(world: World, xy: tuple[float, float]) -> str | None:
    taken = world.occupancy()
    best, best_d = None, 10.0
    for name, p in world.layout.holes.items():
        d = math.dist(p, xy)
        if d < best_d and name not in taken:
            best, best_d = name, d
    return best


# ---- building blocks for scripts -------------------------------------------------------


def move_peg(frm: Target, to: Target) -> list[Action]:
    """Reach, lift, carry, set down, withdraw: one peg from *frm* to *to*."""
    return [Reach(frm), Lift(), Carry(to), SetDown(), Withdraw()]


def pop(value: int, cocked_first: bool = False) -> list[Action]:
    """Press the dome; the die tumbles and settles (maybe cocked, then tapped)."""
    if cocked_first:
        return [PressDome(), Tumble(), Settle(value, cocked=True), TapDome(value)]
    return [PressDome(), Tumble(), Settle(value)]
