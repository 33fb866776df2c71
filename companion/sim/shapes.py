"""3-D objects drawn in perspective: pegs, the die, the dome, a hand.

Each object is a handful of world-space polygons projected through the
camera and filled with ``cv2.fillConvexPoly`` (anti-aliased, sub-pixel), with
Lambert shading from the scene's light. No per-pixel Python loops: the cost
is a few hundred small polygon fills per frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.sim.camera import Camera
from companion.sim.textures import DIE_TEX, DigitStyle, die_face

FloatArray = NDArray[Any]
Image = NDArray[Any]

SHIFT = 4
_ONE = 1 << SHIFT

#: Die faces: outward normal (die coordinates, z up) -> value. Opposite faces sum to 7.
DIE_FACES: tuple[tuple[tuple[float, float, float], int], ...] = (
    ((0, 0, 1), 1),
    ((0, 0, -1), 6),
    ((1, 0, 0), 2),
    ((-1, 0, 0), 5),
    ((0, 1, 0), 3),
    ((0, -1, 0), 4),
)


def light_vector(azimuth_deg: float, elevation_deg: float) -> FloatArray:
    """Unit vector towards the light (world, z up); azimuth 0 = the board's top edge."""
    a, e = math.radians(azimuth_deg), math.radians(elevation_deg)
    return np.array([math.cos(e) * math.sin(a), -math.cos(e) * math.cos(a), math.sin(e)])


def rotation(axis: FloatArray | tuple[float, float, float], angle_rad: float) -> FloatArray:
    """Rotation matrix about *axis* (Rodrigues)."""
    a = np.asarray(axis, np.float64)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle_rad) * k + (1 - math.cos(angle_rad)) * (k @ k)


def rotation_between(a: FloatArray | tuple[float, float, float], b: FloatArray | tuple[float, float, float]) -> FloatArray:
    """The smallest rotation taking direction *a* to direction *b*."""
    u = np.asarray(a, np.float64) / np.linalg.norm(a)
    v = np.asarray(b, np.float64) / np.linalg.norm(b)
    c = float(u @ v)
    if c > 1 - 1e-9:
        return np.eye(3)
    if c < -1 + 1e-9:
        perp = np.array([1.0, 0, 0]) if abs(u[0]) < 0.9 else np.array([0, 1.0, 0])
        return rotation(np.cross(u, perp), math.pi)
    return rotation(np.cross(u, v), math.acos(c))


def to_fixed(uv: FloatArray) -> NDArray[np.int32]:
    """Pixels -> OpenCV fixed point (``shift=SHIFT``)."""
    return np.round(np.asarray(uv) * _ONE).astype(np.int32)


def shade(bgr: tuple[int, int, int] | FloatArray, factor: float) -> tuple[int, int, int]:
    c = np.clip(np.asarray(bgr, np.float64) * factor, 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


# ---- pegs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PegMesh:
    """A peg's surface as rings of vertices (local, base centre at the origin, z up)."""

    verts: FloatArray  # (rings, seg, 3)
    normals: FloatArray  # (rings-1, seg, 3): normal of the band between ring i and i+1


def peg_mesh(radius: float, height: float, seg: int = 14) -> PegMesh:
    """A slightly tapered cylinder with a rounded top: the classic Trouble peg."""
    body_top = height - 0.85 * radius
    cap_r = 0.9 * radius
    rings = [(radius, 0.0, 0.0), (cap_r, body_top, 0.0)]
    for phi_deg in (35, 65, 90):
        phi = math.radians(phi_deg)
        rings.append((cap_r * math.cos(phi), body_top + 0.85 * radius * math.sin(phi), phi))
    th = np.linspace(0, 2 * math.pi, seg, endpoint=False)
    ct, st = np.cos(th), np.sin(th)
    verts = np.stack([np.stack([r * ct, r * st, np.full(seg, z)], axis=-1) for r, z, _ in rings])
    normals = []
    for i in range(len(rings) - 1):
        phi = (rings[i][2] + rings[i + 1][2]) / 2
        thm = th + math.pi / seg
        normals.append(np.stack([math.cos(phi) * np.cos(thm), math.cos(phi) * np.sin(thm), np.full(seg, math.sin(phi))], axis=-1))
    return PegMesh(verts, np.stack(normals))


@dataclass(frozen=True)
class PegPose:
    """A peg in the world: base centre (mm, z up), orientation, colour."""

    color_bgr: tuple[int, int, int]
    base: tuple[float, float, float]
    rot: FloatArray  # 3x3, local -> world


@dataclass(frozen=True)
class PegDrawing:
    """One peg ready to draw: its visible quads (fixed point) and their
    colours, its specular spot, and its silhouette (ideal pixels)."""

    quads: NDArray[np.int32]  # (k, 4, 2), back faces already culled, in drawing order
    colours: list[list[int]]
    spot: tuple[tuple[int, int], int, float] | None  # centre, radius (fixed point), glare level
    silhouette: FloatArray


def peg_drawings(cam: Camera, mesh: PegMesh, poses: list[PegPose], light: FloatArray, glare_gain: float) -> list[PegDrawing]:
    """Every peg's geometry, shading and highlight computed together (one
    projection for all pegs: the per-peg work is only what must be per peg)."""
    n = len(poses)
    if n == 0:
        return []
    rots = np.stack([pose.rot for pose in poses])
    bases = np.array([pose.base for pose in poses], np.float64)
    verts = np.einsum("rsk,pjk->prsj", mesh.verts, rots) + bases[:, None, None, :]
    normals = np.einsum("rsk,pjk->prsj", mesh.normals, rots)
    _, rings, seg, _ = verts.shape
    uv = cam.project_ideal(verts.reshape(-1, 3)).reshape(n, rings, seg, 2)
    fixed = to_fixed(uv)
    eye = cam.position
    after = _next_index(seg)  # the neighbour around the ring
    lower, upper = verts[:, :-1], verts[:, 1:]
    centres = (lower + lower[:, :, after] + upper + upper[:, :, after]) / 4
    facing = np.einsum("pijk,pijk->pij", normals, eye - centres) > 0
    lam = np.clip(normals @ light, 0, 1)
    # Translucent toy plastic: bright ambient, soft diffuse.
    colours = np.array([pose.color_bgr for pose in poses], np.float64)
    cols = np.clip(colours[:, None, None, :] * (0.55 + 0.6 * lam)[..., None], 0, 255).astype(int)
    nxt = fixed[:, :, after]
    quads = np.stack([fixed[:, :-1], nxt[:, :-1], nxt[:, 1:], fixed[:, 1:]], axis=3)  # (pegs, bands, seg, 4, 2)
    spots: list[tuple[tuple[int, int], int, float] | None] = [None] * n
    if glare_gain > 0:
        # Specular highlight where the surface normal bisects light and view.
        v = eye - bases
        half = light + v / np.linalg.norm(v, axis=1, keepdims=True)
        half /= np.linalg.norm(half, axis=1, keepdims=True)
        score = np.einsum("pijk,pk->pij", normals, half)
        best = np.argmax(np.where(facing, score, -1).reshape(n, -1), axis=1)
        for k in range(n):
            i, j = divmod(int(best[k]), seg)
            strength = float(score[k, i, j]) ** 20 * glare_gain
            if strength > 0.02:
                p = (uv[k, i, j] + uv[k, i + 1, (j + 1) % seg]) / 2
                rad = max(1.0, 0.25 * float(np.linalg.norm(uv[k, 0, 0] - uv[k, 0, seg // 2])))
                spots[k] = ((int(p[0] * _ONE), int(p[1] * _ONE)), int(rad * _ONE), float(200 * strength))
    out = []
    for k in range(n):
        hull = cv2.convexHull(uv[k].reshape(-1, 2).astype(np.float32))
        out.append(PegDrawing(quads[k][facing[k]], cols[k][facing[k]].tolist(), spots[k], np.asarray(hull, np.float64).reshape(-1, 2)))
    return out


def draw_prepared_peg(img: Image, glare: Image, peg: PegDrawing) -> FloatArray:
    """Draw a peg from :func:`peg_drawings`; return its silhouette polygon (ideal pixels)."""
    for quad, col in zip(peg.quads, peg.colours, strict=True):
        cv2.fillConvexPoly(img, quad, col, cv2.LINE_AA, SHIFT)
    if peg.spot is not None:
        centre, radius, level = peg.spot
        cv2.circle(glare, centre, radius, level, -1, cv2.LINE_AA, SHIFT)
    return peg.silhouette


def peg_shadows(cam: Camera, mesh: PegMesh, poses: list[PegPose], light: FloatArray, floor_z: float = 0.0) -> list[FloatArray]:
    """Each peg's cast shadow on the plane z = floor_z, as an image polygon (ideal pixels)."""
    if not poses:
        return []
    rots = np.stack([pose.rot for pose in poses])
    bases = np.array([pose.base for pose in poses], np.float64)
    verts = (np.einsum("rsk,pjk->prsj", mesh.verts, rots) + bases[:, None, None, :]).reshape(-1, 3)
    per_peg = mesh.verts.shape[0] * mesh.verts.shape[1]
    return list(cam.project_ideal(cast_onto(verts, light, floor_z)).reshape(len(poses), per_peg, 2))


@lru_cache(maxsize=8)
def _next_index(n: int) -> NDArray[np.intp]:
    return np.roll(np.arange(n), -1)


def cast_onto(points: FloatArray, light: FloatArray, floor_z: float) -> FloatArray:
    """Points moved along the light direction onto the plane z = floor_z."""
    pts = np.asarray(points, np.float64).reshape(-1, 3)
    lz = max(float(light[2]), 0.1)
    t = (pts[:, 2] - floor_z) / lz
    return np.column_stack([pts[:, 0] - light[0] * t, pts[:, 1] - light[1] * t, np.full(len(pts), floor_z)])


# ---- die -------------------------------------------------------------------------------


def die_corners(size: float, centre: FloatArray, rot: FloatArray) -> FloatArray:
    """The eight corners of the die (world)."""
    h = size / 2
    c = np.array([[x, y, z] for x in (-h, h) for y in (-h, h) for z in (-h, h)], np.float64)
    return c @ rot.T + centre


def draw_die(
    img: Image, cam: Camera, size: float, centre: FloatArray, rot: FloatArray, edition: str, light: FloatArray,
    style: DigitStyle | None = None,
) -> tuple[int, int, int, int] | None:
    """Draw the die's visible faces (textured, shaded); return its pixel box (ideal).

    *style*: how a digit die's numbers are drawn (None: the default look).
    """
    eye = cam.position
    h = size / 2
    box = None
    for normal, value in DIE_FACES:
        n_local = np.asarray(normal, np.float64)
        n = rot @ n_local
        fc = centre + n * h
        if n @ (eye - fc) <= 0:
            continue
        # Face axes: u to the texture's right, v down; fixed per face so pips are rigid.
        helper = np.array([0.0, 0.0, 1.0]) if abs(n_local[2]) < 0.5 else np.array([0.0, -1.0, 0.0])
        u_local = np.cross(helper, n_local)
        v_local = np.cross(n_local, u_local)
        u, v = rot @ u_local * h, rot @ v_local * h
        quad3 = np.array([fc - u - v, fc + u - v, fc + u + v, fc - u + v])
        quad = cam.project_ideal(quad3)
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
        x0c, y0c = max(x0, 0), max(y0, 0)
        x1c, y1c = min(x1, img.shape[1]), min(y1, img.shape[0])
        if x1c <= x0c or y1c <= y0c:
            continue
        tex = die_face(value, edition, style)
        src = np.array([[0, 0], [DIE_TEX, 0], [DIE_TEX, DIE_TEX], [0, DIE_TEX]], np.float32)
        dst = (quad - [x0c, y0c]).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        w, hh = x1c - x0c, y1c - y0c
        warped = cv2.warpPerspective(tex, m, (w, hh), flags=cv2.INTER_AREA)
        mask = np.zeros((hh, w), np.uint8)
        cv2.fillConvexPoly(mask, to_fixed(dst), 255, cv2.LINE_AA, SHIFT)
        f = 0.55 + 0.55 * max(0.0, float(n @ light))
        roi = img[y0c:y1c, x0c:x1c]
        a = mask.astype(np.float32)[..., None] / 255.0
        roi[:] = (roi * (1 - a) + warped * (a * f)).clip(0, 255).astype(np.uint8)
        b = (int(x0c), int(y0c), int(x1c), int(y1c))
        box = b if box is None else (min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3]))
    return box


# ---- dome ------------------------------------------------------------------------------


def dome_outline(cam: Camera, centre: tuple[float, float], radius: float) -> FloatArray:
    """The clear hemisphere's silhouette (ideal pixels)."""
    th = np.linspace(0, 2 * math.pi, 40, endpoint=False)
    pts = []
    for phi in np.linspace(0, math.pi / 2, 7):
        r = radius * math.cos(phi)
        pts.append(np.column_stack([centre[0] + r * np.cos(th), centre[1] + r * np.sin(th), np.full(th.size, radius * math.sin(phi))]))
    uv = cam.project_ideal(np.concatenate(pts))
    return np.asarray(cv2.convexHull(uv.astype(np.float32)), np.float64).reshape(-1, 2)


def draw_dome(
    img: Image, cam: Camera, centre: tuple[float, float], radius: float, light: FloatArray, glare: Image, glare_gain: float
) -> FloatArray:
    """Clear plastic over the die: a faint haze, a bright rim, and the light's reflection."""
    outline = dome_outline(cam, centre, radius)
    x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 2, 0)
    x1 = min(int(np.ceil(outline[:, 0].max())) + 3, img.shape[1])
    y1 = min(int(np.ceil(outline[:, 1].max())) + 3, img.shape[0])
    if x1 > x0 and y1 > y0:
        roi = img[y0:y1, x0:x1]
        mask = np.zeros(roi.shape[:2], np.uint8)
        local = to_fixed(outline - [x0, y0])
        cv2.fillConvexPoly(mask, local, 40, cv2.LINE_AA, SHIFT)
        cv2.polylines(mask, [local], True, 150, max(1, int(0.04 * (x1 - x0))), cv2.LINE_AA, SHIFT)
        a = mask.astype(np.float32)[..., None] / 255.0
        roi[:] = (roi * (1 - a) + np.float32(235) * a).astype(np.uint8)
    if glare_gain > 0 and len(outline) > 8:
        # A bright crescent along the rim on the side away from the light: the
        # curved plastic mirrors the room there.
        c2 = outline.mean(axis=0)
        lp = cam.project_ideal(np.array([[centre[0] + light[0] * radius, centre[1] + light[1] * radius, 0.0]]))[0]
        away = c2 - (lp - c2)
        rim = outline[np.argsort(np.linalg.norm(outline - away, axis=1))[: max(3, len(outline) // 4)]]
        rim = rim[np.argsort(np.arctan2(rim[:, 1] - c2[1], rim[:, 0] - c2[0]))]
        inner = c2 + (rim - c2) * 0.9
        cv2.polylines(glare, [to_fixed(inner)], False, float(70 * glare_gain), max(1, int(0.05 * np.ptp(outline[:, 0]))), cv2.LINE_AA, SHIFT)
    if glare_gain > 0:
        c = np.array([centre[0], centre[1], 0.0])
        v = cam.position - c
        half = light + v / np.linalg.norm(v)
        half /= np.linalg.norm(half)
        if half[2] > 0:
            spot = c + radius * half
            p = cam.project_ideal(spot[None])[0]
            px_per_mm = cam.fx / max(1.0, float(cam.depth(spot[None])[0]))
            axes = (int(radius * 0.22 * px_per_mm * _ONE), int(radius * 0.14 * px_per_mm * _ONE))
            ang = math.degrees(math.atan2(p[1] - cam.project_ideal(c[None])[0][1], p[0] - cam.project_ideal(c[None])[0][0])) + 90
            cv2.ellipse(glare, (int(p[0] * _ONE), int(p[1] * _ONE)), axes, ang, 0, 360, float(255 * glare_gain), -1, cv2.LINE_AA, SHIFT)
            # A second, weaker window reflection opposite the light.
            spot2 = c + radius * np.array([-half[0] * 0.7, -half[1] * 0.7, 0.7])
            p2 = cam.project_ideal(spot2[None])[0]
            cv2.ellipse(glare, (int(p2[0] * _ONE), int(p2[1] * _ONE)), (axes[0] // 2, axes[1] // 3), ang, 0, 360, float(110 * glare_gain), -1, cv2.LINE_AA, SHIFT)
    return outline


# ---- hand ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stroke:
    """A tapered capsule between two world points, with a colour."""

    a: FloatArray
    b: FloatArray
    radius_a: float
    radius_b: float
    bgr: tuple[int, int, int]


def hand_strokes(
    tip: tuple[float, float], height: float, from_deg: float, scale: float, pinch: bool, skin: tuple[int, int, int], sleeve: tuple[int, int, int]
) -> list[Stroke]:
    """A forearm, palm, four fingers and a thumb reaching to *tip* from direction *from_deg*."""
    f = math.radians(from_deg)
    out = np.array([math.sin(f), -math.cos(f), 0.0])  # from the tip back towards the player
    side = np.array([-out[1], out[0], 0.0])
    t = np.array([tip[0], tip[1], height])
    s = scale
    palm = t + out * 62 * s + np.array([0, 0, 14 * s])
    wrist = t + out * 120 * s + np.array([0, 0, 32 * s])
    cuff = t + out * 230 * s + np.array([0, 0, 70 * s])
    elbow = t + out * 520 * s + np.array([0, 0, 200 * s])
    shoulder = t + out * 1100 * s + np.array([0, 0, 520 * s])
    strokes = [
        Stroke(shoulder, elbow, 62 * s, 50 * s, sleeve),
        Stroke(elbow, cuff, 48 * s, 40 * s, sleeve),
        Stroke(cuff, wrist, 30 * s, 24 * s, skin),
        Stroke(wrist, palm, 27 * s, 36 * s, skin),
    ]
    spread = (-27, -9, 9, 27)
    lengths = (48, 60, 62, 52)
    for k, (off, length) in enumerate(zip(spread, lengths, strict=True)):
        base = palm + side * off * s * 0.8 - out * 22 * s
        if pinch:
            end = t + side * off * s * 0.15 + np.array([0, 0, 4.0 * k])
        else:
            end = base - out * length * s + side * off * s * 0.35 - np.array([0, 0, 10 * s])
        strokes.append(Stroke(base, end, 9.5 * s, 7.5 * s, skin))
    thumb_base = palm - side * 34 * s + out * 10 * s
    thumb_end = (t - side * 10 * s) if pinch else (palm - side * 62 * s - out * 28 * s)
    strokes.append(Stroke(thumb_base, thumb_end, 12 * s, 9 * s, skin))
    return strokes


def soften(img: Image, mask: Image, sigma: float) -> None:
    """Blur *img* inside (and just around) *mask*: rounds off a drawn limb's
    shading bands and edges, as skin and cloth look through a lens."""
    bx, by, bw, bh = cv2.boundingRect(mask)  # the box of the mask's nonzero pixels
    if bw == 0 or bh == 0:
        return
    pad = int(3 * sigma) + 2
    x0, y0 = max(0, bx - pad), max(0, by - pad)
    x1, y1 = min(img.shape[1], bx + bw + pad), min(img.shape[0], by + bh + pad)
    roi = img[y0:y1, x0:x1]
    blurred = cv2.GaussianBlur(roi, (0, 0), sigma)
    soft = cv2.GaussianBlur(mask[y0:y1, x0:x1], (0, 0), max(0.8, sigma / 3)).astype(np.float32) / np.float32(255.0)
    # One pass (blurred * soft + roi * (1 - soft)), rounded rather than truncated.
    roi[:] = cv2.blendLinear(blurred, roi, soft, np.float32(1.0) - soft)


def draw_strokes(
    img: Image, mask: Image | None, cam: Camera, strokes: list[Stroke], light: FloatArray, pieces: int = 4, flat_z: float | None = None
) -> None:
    """Draw capsules (or, with *flat_z*, their shadows cast onto that plane) in perspective.

    Every stroke's points are projected in one call; the lines are drawn
    stroke by stroke, layer by layer, as before."""
    if not strokes:
        return
    ts = np.linspace(0, 1, pieces + 1)
    ends_a = np.array([st.a for st in strokes], np.float64)
    ends_b = np.array([st.b for st in strokes], np.float64)
    pts = ends_a[:, None, :] + (ends_b - ends_a)[:, None, :] * ts[None, :, None]  # (strokes, pieces + 1, 3)
    radii_a = np.array([st.radius_a for st in strokes], np.float64)
    radii_b = np.array([st.radius_b for st in strokes], np.float64)
    radii = radii_a[:, None] + (radii_b - radii_a)[:, None] * ts[None, :]
    flat = pts.reshape(-1, 3)
    if flat_z is not None:
        flat = cast_onto(flat, light, flat_z)
    depth_all = cam.depth(flat).reshape(len(strokes), pieces + 1)
    uv_all = cam.project_ideal(flat).reshape(len(strokes), pieces + 1, 2)
    pr_all = cam.fx * radii / np.maximum(depth_all, 20)
    fixed_all = (uv_all * _ONE).astype(int).tolist()  # int() of each coordinate, as cv2.line wants
    if flat_z is None:
        lit = 0.6 + 0.35 * max(0.0, float(light[2]))
        # Darker outline, body, then a highlight along the middle: a rounded limb.
        factors = (0.7, 0.84, 0.96, 1.05, 1.12)
    widths = (1.0, 0.86, 0.68, 0.48, 0.26)
    for si, st in enumerate(strokes):
        depth = depth_all[si]
        if np.all(depth < 20):
            continue
        pr = pr_all[si].tolist()
        near_ok = [bool(depth[k] >= 20 and depth[k + 1] >= 20) for k in range(pieces)]  # behind (or at) the camera: out of the picture anyway
        pts_fixed = fixed_all[si]
        colours = [shade(st.bgr, lit * f) for f in factors] if flat_z is None else [(255, 255, 255)]
        for layer, col in enumerate(colours):
            width = widths[layer]
            for k in range(pieces):
                if not near_ok[k]:
                    continue
                thick = max(1, int(2 * width * (pr[k] + pr[k + 1]) / 2))
                if thick > 2000:
                    continue
                p0, p1 = tuple(pts_fixed[k]), tuple(pts_fixed[k + 1])
                cv2.line(img, p0, p1, col, thick, cv2.LINE_AA, SHIFT)
                if mask is not None and layer == 0:
                    cv2.line(mask, p0, p1, 255, thick, cv2.LINE_8, SHIFT)
