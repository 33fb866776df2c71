"""Render one camera frame of a Trouble position, with the truth beside it.

Stages (each a small function): the table with its markers and the board's
cast shadow; the board's side walls and printed face (one ``warpPerspective``
of a cached texture); shadows of pegs and hand; pegs, the die and the dome in
depth order; the hand; then what the camera adds: lens distortion, blur,
light colour and falloff, glare, sensor noise and JPEG.

Everything random comes from ``seed``: the same seed gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.layout import Layout, holes_from_pegs, load_layout, pegs_from_holes
from companion.sim import shapes
from companion.sim.aruco import PAPER_MARGIN_MM, marker_cells
from companion.sim.camera import Camera
from companion.sim.scene import DieView, HandView, Scene, kelvin_to_bgr_gain
from companion.sim.textures import (
    BOARD_PX_PER_MM,
    BOARD_STYLES,
    PEG_BGR,
    TableTexture,
    board_texture,
    table_far,
    table_near,
)

Image = NDArray[Any]
FloatArray = NDArray[Any]
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class PegPlacement:
    """A peg somewhere in the world: in a hole, in a hand, or lying on the table.

    ``x, y, z`` is the centre of its base (mm, z up); ``tilt_deg`` leans it
    (90 = lying on its side) towards ``tilt_dir_deg`` (0 = the board's top
    edge, clockwise). ``hole`` names the hole it stands in, if it is seated.
    """

    color: str
    x: float
    y: float
    z: float = 0.0
    tilt_deg: float = 0.0
    tilt_dir_deg: float = 0.0
    hole: str | None = None


@dataclass(frozen=True)
class PegTruth:
    """Where one peg is in the image."""

    color: str
    hole: str | None
    base_px: tuple[float, float]
    top_px: tuple[float, float]
    box: Box


@dataclass(frozen=True)
class Truth:
    """What a frame shows, for tests and benchmarks.

    Image positions (``*_px``) include lens distortion: they are where things
    are in the returned image. ``homography`` maps board mm (z = 0) to the
    undistorted pinhole image (exact when the camera has no distortion).
    """

    camera: Camera
    homography: FloatArray
    holes_px: Mapping[str, tuple[float, float]]
    occupancy: Mapping[str, str]
    pegs: Mapping[str, list[str]]
    peg_views: tuple[PegTruth, ...]
    markers_px: Mapping[int, FloatArray]
    die_value: int
    die_state: str
    die_edition: str
    die_box: Box | None
    die_top_px: tuple[float, float]
    dome_box: Box
    hand_present: bool
    hand_box: Box | None
    covered_holes: tuple[str, ...]
    #: Holes whose centre cannot be seen: under another peg (tilted views) or the hand.
    hidden_holes: tuple[str, ...] = ()
    hand_mask: NDArray[np.bool_] | None = field(default=None, repr=False)

    @property
    def die_settled(self) -> bool:
        return self.die_state == "settled"

    def peg_top(self, hole: str) -> tuple[float, float]:
        """Image position of the top of the peg standing in *hole*."""
        for p in self.peg_views:
            if p.hole == hole:
                return p.top_px
        raise KeyError(hole)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (no masks)."""

        def pt(p: tuple[float, float]) -> list[float]:
            return [round(float(p[0]), 2), round(float(p[1]), 2)]

        return {
            "camera": self.camera.to_json(),
            "homography": np.round(self.homography, 6).tolist(),
            "pegs": {c: list(v) for c, v in self.pegs.items()},
            "occupancy": dict(self.occupancy),
            "holes_px": {h: pt(p) for h, p in self.holes_px.items()},
            "peg_tops_px": [{"color": p.color, "hole": p.hole, "top": pt(p.top_px), "base": pt(p.base_px)} for p in self.peg_views],
            "markers_px": {str(k): np.round(v, 2).tolist() for k, v in self.markers_px.items()},
            "die": {"value": self.die_value, "state": self.die_state, "settled": self.die_settled, "edition": self.die_edition, "box": self.die_box},
            "dome_box": self.dome_box,
            "hand": {"present": self.hand_present, "box": self.hand_box, "covered_holes": list(self.covered_holes)},
            "hidden_holes": list(self.hidden_holes),
        }


def seat_wobble(rng: np.random.Generator) -> tuple[float, float, float, float]:
    """How a peg sits in its hole: (dx, dy) mm off centre, lean and lean direction (degrees).

    Real pegs are loose in their holes; one rule for rendered positions and
    simulated games alike."""
    dx, dy = (float(v) for v in rng.normal(0, 0.25, 2))
    return dx, dy, float(rng.uniform(0, 3.5)), float(rng.uniform(0, 360))


def placements_for(pegs: Mapping[str, Sequence[str]], layout: Layout, rng: np.random.Generator | None = None) -> list[PegPlacement]:
    """Seated pegs for a referee position, with the small wobble real pegs have."""
    out = []
    for hole, color in holes_from_pegs(pegs).items():
        x, y = layout.holes[hole]
        dx, dy, tilt, dirn = seat_wobble(rng) if rng is not None else (0.0, 0.0, 0.0, 0.0)
        out.append(PegPlacement(color, x + dx, y + dy, 0.0, tilt, dirn, hole))
    return out


def render(
    pegs: Mapping[str, Sequence[str]],
    die: DieView | int,
    scene: Scene,
    seed: int = 0,
    layout: Layout | None = None,
) -> tuple[Image, Truth]:
    """Render the referee position *pegs* (``{"red": ["home", "track:3"], ...}``)."""
    layout = layout or _default_layout()
    rng = np.random.default_rng(seed)
    return render_physical(placements_for(pegs, layout, rng), die, scene, seed, layout)


def render_physical(
    placements: Sequence[PegPlacement],
    die: DieView | int,
    scene: Scene,
    seed: int = 0,
    layout: Layout | None = None,
) -> tuple[Image, Truth]:
    """Render pegs anywhere (seated, carried, lying about); the engine of :func:`render`."""
    layout = layout or _default_layout()
    if not isinstance(die, DieView):
        die = DieView(int(die))
    rng = np.random.default_rng(seed + 7919)
    out_cam = scene.camera
    # Draw on the distortion-free canvas; the lens bends it into the frame at the end.
    cam = out_cam.canvas()
    w, h = cam.size
    light = shapes.light_vector(scene.light_azimuth_deg, scene.light_elevation_deg)
    hand = scene.hand
    if die.state == "hidden":
        # "Hidden" means a hand is on the dome: put one there (or move the scene's).
        dc = layout.die.center
        top = layout.die.dome_radius_mm + 8
        if hand is None:
            hand = HandView(tip_mm=(dc[0], dc[1]), height_mm=top, from_deg=float(rng.uniform(0, 360)))
        elif math.dist(hand.tip_mm, dc) > layout.die.dome_radius_mm * 0.5 or hand.height_mm > top + 20:
            hand = replace(hand, tip_mm=(dc[0], dc[1]), height_mm=top)

    glare = np.zeros((h, w), np.uint8)
    shadow = np.zeros((h, w), np.uint8)
    img = _table_and_board(layout, scene, cam, light, shadow)

    mesh = _peg_mesh(layout.peg.radius_mm, layout.peg.height_mm)
    poses = [_peg_pose(p) for p in placements]
    for poly in shapes.peg_shadows(cam, mesh, poses, light):
        cv2.fillConvexPoly(shadow, shapes.to_fixed(cv2.convexHull(poly.astype(np.float32)).reshape(-1, 2)), 255, cv2.LINE_AA, shapes.SHIFT)
    dcx, dcy = layout.die.center
    dome_r = layout.die.dome_radius_mm
    dome_shadow = shapes.cast_onto(
        np.array([[dcx + dome_r * math.cos(t), dcy + dome_r * math.sin(t), dome_r * 0.6] for t in np.linspace(0, 2 * math.pi, 24)]), light, 0.0
    )
    cv2.fillConvexPoly(shadow, shapes.to_fixed(cam.project_ideal(dome_shadow)), 70, cv2.LINE_AA, shapes.SHIFT)
    strokes = []
    if hand is not None:
        strokes = shapes.hand_strokes(hand.tip_mm, hand.height_mm, hand.from_deg, hand.scale, hand.pinch, hand.skin_bgr, hand.sleeve_bgr)
        shapes.draw_strokes(shadow, None, cam, strokes, light, flat_z=0.0)
    _apply_shadow(img, shadow, scene.shadow, blur=max(2.0, w / 250))

    # Objects far to near: pegs, and the dome with its die as one object.
    die_centre, die_rot = _die_pose(die, layout, rng)
    anchors = np.array([[p.base[0], p.base[1], p.base[2] + 8] for p in poses] + [[dcx, dcy, dome_r * 0.5]], np.float64)
    depths = cam.depth(anchors).tolist()
    items: list[tuple[float, int]] = [(depths[i], i) for i in range(len(poses))] + [(depths[-1], -1)]
    drawings = shapes.peg_drawings(cam, mesh, poses, light, scene.glare)
    silhouettes: dict[int, FloatArray] = {}
    die_box: Box | None = None
    dome_outline = shapes.dome_outline(cam, (dcx, dcy), dome_r)
    for _, i in sorted(items, reverse=True):
        if i >= 0:
            silhouettes[i] = shapes.draw_prepared_peg(img, glare, drawings[i])
        else:
            die_box = shapes.draw_die(img, cam, layout.die.size_mm, die_centre, die_rot, die.edition, light,
                                          die.digit_style)
            if die.state == "tumbling" and die_box is not None:
                _blur_box(img, die_box, k=max(3, int((die_box[2] - die_box[0]) * 0.4)), angle=float(rng.uniform(0, 180)))
            shapes.draw_dome(img, cam, (dcx, dcy), dome_r, light, glare, scene.glare)

    sheen = _board_sheen(cam, layout, light, scene.glare)
    hand_mask = None
    if hand is not None:
        hand_mask = np.zeros((h, w), np.uint8)
        shapes.draw_strokes(img, hand_mask, cam, strokes, light)
        finger_px = cam.fx * 8.0 * hand.scale / max(50.0, float(cam.depth(np.array([[*hand.tip_mm, hand.height_mm]]))[0]))
        if scene.hand_softness > 0:
            shapes.soften(img, hand_mask, max(0.5, scene.hand_softness * finger_px))
        glare[hand_mask > 0] = 0  # the hand is in front of the dome's reflections

    img = _light(img, glare, scene, sheen)
    img, hand_mask = _lens(out_cam, img, hand_mask)
    img = _sensor(img, scene, rng)
    truth = _truth(layout, out_cam, placements, poses, mesh, silhouettes, die, die_box, die_centre, dome_outline, hand_mask)
    return img, truth


@lru_cache(maxsize=8)
def _peg_mesh(radius: float, height: float) -> shapes.PegMesh:
    return shapes.peg_mesh(radius, height)


@lru_cache(maxsize=8)
def _hole_points(layout: Layout) -> tuple[list[str], FloatArray]:
    """Hole names in layout order and their centres (mm, z = 0)."""
    names = list(layout.holes)
    return names, np.array([[*layout.holes[n], 0.0] for n in names])


@lru_cache(maxsize=1)
def _default_layout() -> Layout:
    return load_layout()


@lru_cache(maxsize=512)
def _peg_pose(p: PegPlacement) -> shapes.PegPose:
    """A placement's pose (cached: the pegs of a video stay put from frame to frame)."""
    pose = _peg_pose_of(p)
    pose.rot.flags.writeable = False  # shared between frames
    return pose


def _peg_pose_of(p: PegPlacement) -> shapes.PegPose:
    rot = np.eye(3)
    if p.tilt_deg:
        d = math.radians(p.tilt_dir_deg)
        axis = (math.cos(d), math.sin(d), 0.0)  # perpendicular to the lean direction (sin d, -cos d)
        rot = shapes.rotation(axis, math.radians(p.tilt_deg))
    return shapes.PegPose(PEG_BGR[p.color], (p.x, p.y, p.z), rot)


def _die_pose(die: DieView, layout: Layout, rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
    """Where the die sits and how it is turned, for its state."""
    s = layout.die.size_mm
    dome = layout.die.dome_radius_mm
    normal = next(n for n, v in shapes.DIE_FACES if v == die.value)
    yaw = math.radians(die.yaw_deg if die.yaw_deg is not None else float(rng.uniform(0, 360)))
    rot = shapes.rotation((0, 0, 1), yaw) @ shapes.rotation_between(normal, (0, 0, 1))
    cx, cy = layout.die.center
    room = dome - s * 0.75
    if die.offset_mm is not None:
        off = np.asarray(die.offset_mm, np.float64)
    else:
        a, r = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0, 0.5)) * room
        off = np.array([r * math.cos(a), r * math.sin(a)])
    z = s / 2
    if die.state == "cocked":
        # Leaning against the dome wall: tilted 25-35 degrees about a horizontal axis.
        a = float(rng.uniform(0, 2 * math.pi))
        tilt = math.radians(float(rng.uniform(25, 35)))
        if die.offset_mm is not None and die.yaw_deg is not None:
            # A die the script set down (its place and turn fixed) leans the
            # same way on every frame: drawn afresh, a cocked die in a whole
            # game jumped round the wall from frame to frame and the vision
            # stream saw it moving, never resting cocked (session 28). The
            # draws above are still made, so the frame's later draws stay.
            a = math.atan2(float(off[1]), float(off[0])) if float(np.hypot(*off)) > 0 else math.radians(die.yaw_deg)
            tilt = math.radians(25.0 + 10.0 * (die.yaw_deg % 360.0) / 360.0)
        off = np.array([math.cos(a), math.sin(a)]) * (dome - s * 0.95)
        rot = shapes.rotation((-math.sin(a), math.cos(a), 0.0), tilt) @ rot
        z = s / 2 * (math.cos(tilt) + math.sin(tilt))
    elif die.state == "tumbling":
        axis = rng.normal(size=3)
        rot = shapes.rotation(axis, float(rng.uniform(0.4, 2.6))) @ rot
        z = s / 2 + float(rng.uniform(4, 14))
    return np.array([cx + off[0], cy + off[1], z]), rot


def _table_and_board(layout: Layout, scene: Scene, cam: Camera, light: FloatArray, shadow: Image) -> Image:
    """The table with its markers, the board's sides and face; the board's
    cast shadow goes into *shadow* (applied later with the others).

    Nothing here moves while the camera and light stay put, so the result is
    kept with the camera: the frames of a video pay for it once.
    """
    key = f"base:{id(layout)}:{scene.board_style}:{scene.table_style}:{scene.markers}:{light.round(6).tolist()}"
    store = cam.cache()
    hit = store.get(key)
    if hit is None:
        base_shadow = np.zeros_like(shadow)
        hit = (_draw_table_and_board(layout, scene, cam, light, base_shadow), base_shadow)
        for old in [k for k in store if k.startswith("base:")]:
            del store[old]
        store[key] = hit
    base_img: Image = hit[0]  # type: ignore[index]
    np.copyto(shadow, hit[1])  # type: ignore[index]
    return base_img.copy()


def _draw_table_and_board(layout: Layout, scene: Scene, cam: Camera, light: FloatArray, shadow: Image) -> Image:
    w, h = cam.size
    zt = layout.marker_z_mm
    img = _table(layout, scene.table_style, cam, zt)
    if scene.markers:
        _draw_markers(img, layout, cam)
    bw, bh = layout.size_mm
    corners = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float64)
    if zt < 0:
        top = np.column_stack([corners, np.zeros(4)])
        bottom = np.column_stack([corners, np.full(4, zt)])
        cast = shapes.cast_onto(top, light, zt)
        hull = cv2.convexHull(cam.project_ideal(np.concatenate([cast, bottom])).astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(shadow, shapes.to_fixed(hull), 255, cv2.LINE_AA, shapes.SHIFT)
        # The board's own face hides the part of its shadow under it.
        cv2.fillConvexPoly(shadow, shapes.to_fixed(cam.project_ideal(top)), 0, cv2.LINE_AA, shapes.SHIFT)
        edge = BOARD_STYLES[scene.board_style % len(BOARD_STYLES)].edge
        eye = cam.position
        for i, normal in enumerate(((0, -1, 0), (1, 0, 0), (0, 1, 0), (-1, 0, 0))):
            j = (i + 1) % 4
            quad = np.array([top[i], top[j], bottom[j], bottom[i]])
            n = np.asarray(normal, np.float64)
            if n @ (eye - quad.mean(axis=0)) <= 0:
                continue
            f = 0.5 + 0.4 * max(0.0, float(n @ light))
            cv2.fillConvexPoly(img, shapes.to_fixed(cam.project_ideal(quad)), shapes.shade(edge, f), cv2.LINE_AA, shapes.SHIFT)
    tex = board_texture(layout, scene.board_style)
    tex_to_board = np.array([[1 / BOARD_PX_PER_MM, 0, 0], [0, 1 / BOARD_PX_PER_MM, 0], [0, 0, 1]])
    _warp_onto(img, tex, cam.homography(0.0) @ tex_to_board)
    return img


def _warp_onto(dst: Image, src: Image, m: FloatArray) -> None:
    """Warp *src* onto *dst* (transparent outside *src*), touching only the
    box *src* lands in: the cost follows the board's size in the frame."""
    sh, sw = src.shape[:2]
    corners = np.array([[0, 0, 1], [sw, 0, 1], [sw, sh, 1], [0, sh, 1]], np.float64) @ m.T
    if np.any(corners[:, 2] <= 0):
        cv2.warpPerspective(src, m, (dst.shape[1], dst.shape[0]), dst=dst, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
        return
    xy = corners[:, :2] / corners[:, 2:]
    x0, y0 = np.maximum(np.floor(xy.min(axis=0)).astype(int) - 1, 0)
    x1 = min(int(np.ceil(xy[:, 0].max())) + 2, dst.shape[1])
    y1 = min(int(np.ceil(xy[:, 1].max())) + 2, dst.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    sub = np.ascontiguousarray(dst[y0:y1, x0:x1])
    cv2.warpPerspective(src, shift @ m, (x1 - x0, y1 - y0), dst=sub, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    dst[y0:y1, x0:x1] = sub


def _table(layout: Layout, style: int, cam: Camera, z: float) -> Image:
    """The bare table: coarse far texture, then the fine near one, at half
    resolution (it is background, softened by the lens anyway)."""
    w, h = cam.size
    half = np.array([[0.5, 0, 0], [0, 0.5, 0], [0, 0, 1]])
    size = (max(1, w // 2), max(1, h // 2))

    def to_small(tex: TableTexture) -> FloatArray:
        s = tex.px_per_mm
        to_mm = np.array([[1 / s, 0, tex.origin[0]], [0, 1 / s, tex.origin[1]], [0, 0, 1]])
        return np.asarray(half @ cam.homography(z) @ to_mm, np.float64)

    # Warped as BGRA: OpenCV's bilinear warp is vectorised for four 8-bit
    # channels, not three (the same pixels to within a rounding step, a
    # fraction of the time).
    far4, near4 = _table_bgra(layout, style)
    near = table_near(layout, style)
    near_m = to_small(near)
    if _covers(near4.shape, near_m, size):
        # The near texture fills the whole view: the far one would be painted over.
        small = cv2.warpPerspective(near4, near_m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    else:
        small = cv2.warpPerspective(far4, to_small(table_far(layout, style)), size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        _warp_onto(small, near4, near_m)
    return cv2.resize(cv2.cvtColor(small, cv2.COLOR_BGRA2BGR), (w, h), interpolation=cv2.INTER_LINEAR)


@lru_cache(maxsize=16)
def _table_bgra(layout: Layout, style: int) -> tuple[Image, Image]:
    """The far and near table textures with an alpha channel (see :func:`_table`)."""
    return (
        cv2.cvtColor(table_far(layout, style).image, cv2.COLOR_BGR2BGRA),
        cv2.cvtColor(table_near(layout, style).image, cv2.COLOR_BGR2BGRA),
    )


def _covers(src_shape: tuple[int, ...], m: FloatArray, size: tuple[int, int]) -> bool:
    """Whether warping a *src_shape* image by *m* fills every pixel of a
    *size* image from inside the source (both bilinear taps in it).

    The back-projected frame corners must lie in front of the camera and
    inside the source with a pixel to spare; the frame is convex and so is
    its back-projection, so then every pixel between them is inside too."""
    w, h = size
    corners = np.array([[0, 0, 1], [w - 1, 0, 1], [w - 1, h - 1, 1], [0, h - 1, 1]], np.float64) @ np.linalg.inv(m).T
    if np.any(corners[:, 2] <= 1e-12):
        return False
    xy = corners[:, :2] / corners[:, 2:]
    sh, sw = src_shape[:2]
    return bool(np.all(xy >= 1.0) and np.all(xy[:, 0] <= sw - 2) and np.all(xy[:, 1] <= sh - 2))


def _draw_markers(img: Image, layout: Layout, cam: Camera) -> None:
    """The printed markers on their paper squares, as polygons (sharp at any size).

    The quads depend only on the layout, so they are built once (cached) and
    projected in one call per frame."""
    z = layout.marker_z_mm
    papers, cells = _marker_quads(layout)
    n_paper = len(papers) // 4
    px = shapes.to_fixed(cam.project_ideal(np.column_stack([np.concatenate([papers, cells]), np.full(len(papers) + len(cells), z)]))).reshape(-1, 4, 2)
    start = 0
    for k, count in enumerate(_marker_cell_counts(layout)):
        cv2.fillConvexPoly(img, px[k], (236, 238, 240), cv2.LINE_AA, shapes.SHIFT)
        for quad in px[n_paper + start : n_paper + start + count]:
            cv2.fillConvexPoly(img, quad, (20, 20, 20), cv2.LINE_AA, shapes.SHIFT)
        start += count


@lru_cache(maxsize=8)
def _marker_quads(layout: Layout) -> tuple[FloatArray, FloatArray]:
    """Board mm corners of every marker's paper square (4 per marker), and of
    every black cell (4 per cell, marker after marker)."""
    papers, quads = [], []
    grow = 0.03
    for marker in layout.markers:
        c = np.asarray(marker.corners, np.float64)
        side = float(np.linalg.norm(c[1] - c[0]))
        centre = c.mean(axis=0)
        papers.append(centre + (c - centre) * (1 + 2 * PAPER_MARGIN_MM / max(side, 1e-6)))
        cells = marker_cells(layout.marker_dictionary, marker.id)
        n = cells.shape[0]
        u, v = (c[1] - c[0]) / n, (c[3] - c[0]) / n
        for i, j in zip(*np.nonzero(cells), strict=True):
            p0 = c[0] + u * (j - grow) + v * (i - grow)
            quads.append([p0, p0 + u * (1 + 2 * grow), p0 + (u + v) * (1 + 2 * grow), p0 + v * (1 + 2 * grow)])
    return np.asarray(papers, np.float64).reshape(-1, 2), np.asarray(quads, np.float64).reshape(-1, 2)


@lru_cache(maxsize=8)
def _marker_cell_counts(layout: Layout) -> tuple[int, ...]:
    return tuple(int(marker_cells(layout.marker_dictionary, m.id).sum()) for m in layout.markers)


def _board_sheen(cam: Camera, layout: Layout, light: FloatArray, strength: float) -> tuple[float, float, float, float] | None:
    """The lamp's broad reflection on the glossy board: where the mirror image
    of a lamp 1.5 m away lines up with the camera. Returns (x, y, sigma) in
    canvas pixels and a brightness, or None when it falls off the board."""
    if strength <= 0:
        return None
    cx, cy = layout.die.center
    lamp = np.array([cx, cy, 0.0]) + light * 1500.0
    mirror = lamp * np.array([1.0, 1.0, -1.0])
    eye = cam.position
    t = eye[2] / max(eye[2] - mirror[2], 1e-6)
    p = eye + (mirror - eye) * t
    w, h = layout.size_mm
    if not (-30 <= p[0] <= w + 30 and -30 <= p[1] <= h + 30):
        return None
    uv = cam.project_ideal(np.array([p, p + [45.0, 0, 0]]))
    sigma = float(np.linalg.norm(uv[1] - uv[0]))
    return (float(uv[0, 0]), float(uv[0, 1]), sigma, 55.0 * strength)


def _apply_shadow(img: Image, mask: Image, strength: float, blur: float) -> None:
    """Darken *img* under a soft version of *mask* (255 = full shadow).

    Only the box around the mask is touched: shadows fall on the board and
    near it, a fraction of the frame."""
    if strength <= 0:
        return
    x, y, bw, bh = cv2.boundingRect(mask)
    if bw == 0 or bh == 0:
        return
    h, w = mask.shape[:2]
    pad = int(3 * blur) + 4
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
    roi_mask = mask[y0:y1, x0:x1]
    small = cv2.resize(roi_mask, (max(1, (x1 - x0) // 2), max(1, (y1 - y0) // 2)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), blur / 2)
    soft = cv2.resize(small, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    factor = cv2.convertScaleAbs(soft, alpha=-strength, beta=255)  # 255 - strength * mask
    roi = img[y0:y1, x0:x1]
    roi[:] = cv2.multiply(roi, cv2.cvtColor(factor, cv2.COLOR_GRAY2BGR), scale=1 / 255)


def _blur_box(img: Image, box: Box, k: int, angle: float) -> None:
    x0, y0, x1, y1 = box
    pad = k
    x0, y0 = max(0, x0 - pad), max(0, y0 - pad)
    x1, y1 = min(img.shape[1], x1 + pad), min(img.shape[0], y1 + pad)
    if x1 > x0 and y1 > y0:
        img[y0:y1, x0:x1] = cv2.filter2D(img[y0:y1, x0:x1], -1, _line_kernel(k, angle))


def _line_kernel(length: int, angle_deg: float) -> NDArray[np.float32]:
    k = max(1, int(length)) | 1
    kernel = np.zeros((k, k), np.float32)
    c = k // 2
    dx, dy = math.cos(math.radians(angle_deg)) * c, math.sin(math.radians(angle_deg)) * c
    cv2.line(kernel, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1, cv2.LINE_AA)
    return kernel / max(float(kernel.sum()), 1e-6)


def _lens(cam: Camera, img: Image, hand_mask: Image | None) -> tuple[Image, Image | None]:
    """Bend the pinhole image (and the hand mask) the way the lens does."""
    maps = cam.distortion_maps()
    if maps is None:
        return img, hand_mask
    m1, m2 = maps
    # OpenCV's bilinear remap of 8-bit images is vectorised for four channels,
    # not three: padding to BGRA and back costs less than the slow path saves
    # (same pixels, about half the time).
    img = cv2.remap(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA), m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    if hand_mask is not None:
        hand_mask = cv2.remap(hand_mask, m1, m2, cv2.INTER_NEAREST)
    return img, hand_mask


@lru_cache(maxsize=1)
def _noise_tile() -> Image:
    """Gaussian noise (mean 128, sd 32), cropped at a random offset per frame:
    fast, seeded, and added with one ``addWeighted``."""
    rng = np.random.default_rng(424242)
    return (rng.standard_normal((1080 + 64, 1920 + 64, 3), dtype=np.float32) * 32 + 128).clip(0, 255).astype(np.uint8)


def _light(img: Image, glare: Image, scene: Scene, sheen: tuple[float, float, float, float] | None = None) -> Image:
    """Light colour and exposure, linear falloff and vignetting, then glare.

    Done in 8 bits: the gain map is built at 1/16 resolution (it is smooth)
    and applied with one saturating multiply (gain 1.0 = 128).
    """
    h, w = img.shape[:2]
    sw, sh = max(2, w // 16), max(2, h // 16)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    nx, ny = xs / (sw - 1) * 2 - 1, ys / (sh - 1) * 2 - 1
    a = math.radians(scene.light_gradient_deg)
    along = (nx * math.cos(a) + ny * math.sin(a)) / math.sqrt(2)
    gain = scene.exposure * (1 - scene.light_gradient * (0.5 + 0.5 * along)) * (1 - scene.vignette * (nx * nx + ny * ny) / 2)
    kb, kg, kr = kelvin_to_bgr_gain(scene.light_kelvin)
    small = (np.dstack([gain * kb, gain * kg, gain * kr]) * 128).clip(0, 255).astype(np.uint8)
    img = cv2.multiply(img, cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), scale=1 / 128)
    if sheen is not None:
        sx, sy, sigma, level = sheen
        px, py = (xs + 0.5) * w / sw - 0.5, (ys + 0.5) * h / sh - 0.5
        blob = level * np.exp(-((px - sx) ** 2 + (py - sy) ** 2) / (2 * sigma * sigma))
        add = (np.dstack([blob * kb, blob * kg, blob * kr])).clip(0, 255).astype(np.uint8)
        img = cv2.add(img, cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR))
    x, y, bw, bh = cv2.boundingRect(glare) if scene.glare > 0 else (0, 0, 0, 0)
    if bw and bh:
        sigma = max(1.0, w / 500)
        pad = int(3 * sigma) + 2
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
        g = cv2.GaussianBlur(glare[y0:y1, x0:x1], (0, 0), sigma)
        roi = img[y0:y1, x0:x1]
        roi[:] = cv2.add(roi, cv2.merge([cv2.convertScaleAbs(g, alpha=k) for k in (kb, kg, kr)]))
    return img


def _sensor(img: Image, scene: Scene, rng: np.random.Generator) -> Image:
    """Motion blur, lens softness, sensor noise, JPEG."""
    h, w = img.shape[:2]
    if scene.motion_blur_px >= 1.5:
        img = cv2.filter2D(img, -1, _line_kernel(int(scene.motion_blur_px), scene.motion_blur_deg))
    if scene.defocus_px > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), scene.defocus_px)
    if scene.noise > 0:
        tile = _noise_tile()
        oy, ox = int(rng.integers(0, tile.shape[0] - h + 1)), int(rng.integers(0, tile.shape[1] - w + 1))
        beta = float(scene.noise) / 32
        img = cv2.addWeighted(img, 1.0, tile[oy : oy + h, ox : ox + w], beta, -128 * beta)
    if scene.jpeg_quality < 100:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(scene.jpeg_quality)])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            img = decoded
    return np.ascontiguousarray(img)


def _box(points: FloatArray, w: int, h: int) -> Box:
    x0, y0 = np.floor(points.min(axis=0)).astype(int)
    x1, y1 = np.ceil(points.max(axis=0)).astype(int)
    return (int(max(0, x0)), int(max(0, y0)), int(min(w, x1)), int(min(h, y1)))


def _truth(
    layout: Layout,
    cam: Camera,
    placements: Sequence[PegPlacement],
    poses: Sequence[shapes.PegPose],
    mesh: shapes.PegMesh,
    silhouettes: Mapping[int, FloatArray],
    die: DieView,
    die_box: Box | None,
    die_centre: FloatArray,
    dome_outline: FloatArray,
    hand_mask: Image | None,
) -> Truth:
    w, h = cam.size
    m = cam.canvas_margin

    def to_image(canvas_px: FloatArray) -> FloatArray:
        p = np.asarray(canvas_px, np.float64).reshape(-1, 2) - m
        return cam.distort_pixels(p) if cam.has_distortion else p

    names, hole_xyz = _hole_points(layout)
    hole_px = cam.project(hole_xyz)
    holes_px = {n: (float(p[0]), float(p[1])) for n, p in zip(names, hole_px, strict=True)}
    occupancy = {p.hole: p.color for p in placements if p.hole is not None}
    views: list[PegTruth] = []
    outlines: list[tuple[str | None, NDArray[np.float32], FloatArray]] = []
    # One projection for every peg's base and top, one lens pass for every silhouette.
    n = len(placements)
    up = np.array([0.0, 0.0, layout.peg.height_mm])
    ends = np.array([np.asarray(pose.base, np.float64) for pose in poses] + [pose.rot @ up + np.asarray(pose.base) for pose in poses]).reshape(-1, 3)
    ends_px = cam.project(ends) if n else np.zeros((0, 2))
    sil = [np.asarray(silhouettes[i], np.float64).reshape(-1, 2) for i in range(n)]
    sil_img = np.split(to_image(np.concatenate(sil)), np.cumsum([len(v) for v in sil])[:-1]) if n else []
    for i, p in enumerate(placements):
        outline = sil_img[i]
        poly = outline.astype(np.float32)
        outlines.append((p.hole, poly.reshape(-1, 1, 2), np.concatenate([poly.min(axis=0), poly.max(axis=0)])))
        base_px, top_px = ends_px[i], ends_px[n + i]
        views.append(PegTruth(p.color, p.hole, (float(base_px[0]), float(base_px[1])), (float(top_px[0]), float(top_px[1])), _box(outline, w, h)))
    # A hole is hidden when another peg's silhouette covers its centre in the
    # image (the polygon test only for holes inside the silhouette's box).
    hidden_set: set[str] = set()
    if outlines:
        boxes = np.array([bb for _, _, bb in outlines])
        near = (
            (hole_px[:, None, 0] >= boxes[None, :, 0])
            & (hole_px[:, None, 0] <= boxes[None, :, 2])
            & (hole_px[:, None, 1] >= boxes[None, :, 1])
            & (hole_px[:, None, 1] <= boxes[None, :, 3])
        )
        for hi, k in zip(*np.nonzero(near), strict=True):
            nm = names[hi]
            own, poly, _ = outlines[k]
            if nm not in hidden_set and own != nm and cv2.pointPolygonTest(poly, holes_px[nm], False) > 0:
                hidden_set.add(nm)
    hidden_by_pegs = tuple(nm for nm in names if nm in hidden_set)
    marker_px = cam.project(np.array([[x, y, layout.marker_z_mm] for m in layout.markers for x, y in m.corners]))
    markers_px = {m.id: marker_px[4 * k : 4 * k + 4].copy() for k, m in enumerate(layout.markers)}
    if die_box is not None:
        x0, y0, x1, y1 = die_box
        die_box = _box(to_image(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)), w, h)
    top = cam.project(np.array([die_centre + np.array([0, 0, layout.die.size_mm / 2])]))[0]
    dome = to_image(dome_outline)
    bx, by, bw, bh = cv2.boundingRect(hand_mask) if hand_mask is not None else (0, 0, 0, 0)  # box of nonzero pixels
    hand_present = bw > 0 and bh > 0
    covered: tuple[str, ...] = ()
    hand_box = None
    mask_bool = None
    if hand_present and hand_mask is not None:
        mask_bool = hand_mask > 0
        hand_box = (bx, by, bx + bw, by + bh)
        covered = tuple(
            n for n, (x, y) in holes_px.items() if 0 <= int(x) < w and 0 <= int(y) < h and mask_bool[int(y), int(x)]
        )
    hidden = set(hidden_by_pegs) | set(covered)
    return Truth(
        camera=cam,
        homography=cam.homography(0.0),
        holes_px=holes_px,
        occupancy=occupancy,
        pegs=pegs_from_holes(occupancy),
        peg_views=tuple(views),
        markers_px=markers_px,
        die_value=die.value,
        die_state=die.state,
        die_edition=die.edition,
        die_box=die_box,
        die_top_px=(float(top[0]), float(top[1])),
        dome_box=_box(dome, w, h),
        hand_present=hand_present,
        hand_box=hand_box,
        covered_holes=covered,
        hidden_holes=tuple(nm for nm in names if nm in hidden),
        hand_mask=mask_bool,
    )
