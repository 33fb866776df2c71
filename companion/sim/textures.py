"""Textures drawn once and reused: the board face, the table, the die faces.

The board face is drawn at a fixed scale (px per mm) once per layout and
style, then warped into each frame by one ``warpPerspective``: per-frame cost
depends on the frame size, not on how much is printed on the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.layout import COLORS, START_SPACE, Layout, finish_entry_space

Image = NDArray[Any]

#: Board face resolution.
BOARD_PX_PER_MM = 4.0
#: Table textures: a fine one near the board and a coarse one to the horizon.
TABLE_PX_PER_MM = 1.2
TABLE_MARGIN_MM = 420.0
TABLE_FAR_PX_PER_MM = 0.3
TABLE_FAR_MM = 2600.0

#: Peg and print colours (BGR) of the four colours: saturated toy plastic.
PEG_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 30, 200),
    "blue": (190, 90, 20),
    "yellow": (30, 205, 235),
    "green": (60, 165, 30),
}
PRINT_BGR: dict[str, tuple[int, int, int]] = {
    "red": (60, 50, 190),
    "blue": (170, 100, 40),
    "yellow": (60, 200, 230),
    "green": (70, 150, 50),
}


@dataclass(frozen=True)
class BoardStyle:
    """Colours of one printing of the board (the renderer picks one at random)."""

    base: tuple[int, int, int]
    track: tuple[int, int, int]
    ring: tuple[int, int, int]
    edge: tuple[int, int, int]


BOARD_STYLES: tuple[BoardStyle, ...] = (
    BoardStyle(base=(225, 232, 236), track=(120, 60, 30), ring=(30, 190, 235), edge=(200, 205, 210)),
    BoardStyle(base=(40, 38, 36), track=(210, 210, 205), ring=(40, 40, 200), edge=(30, 30, 30)),
    BoardStyle(base=(195, 160, 95), track=(245, 245, 240), ring=(30, 30, 30), edge=(150, 120, 70)),
    BoardStyle(base=(215, 230, 240), track=(60, 60, 170), ring=(200, 200, 200), edge=(180, 195, 205)),
)

#: Table surfaces: (base BGR, grain BGR, grain strength). Wood, laminate, cloth.
TABLE_STYLES: tuple[tuple[tuple[int, int, int], tuple[int, int, int], float], ...] = (
    ((70, 110, 160), (40, 70, 110), 1.0),  # oak
    ((40, 60, 95), (25, 35, 60), 1.0),  # walnut
    ((200, 205, 210), (170, 175, 180), 0.3),  # white laminate
    ((150, 160, 150), (120, 130, 120), 0.5),  # grey stone
    ((95, 130, 175), (60, 90, 130), 0.8),  # pine
    ((120, 60, 50), (90, 40, 35), 0.2),  # blue cloth
)


def _mm(p: tuple[float, float], s: float, origin: tuple[float, float] = (0.0, 0.0)) -> tuple[int, int]:
    """mm -> texture pixel (with 4 bits of sub-pixel precision for cv2 shift=4)."""
    return (int(round((p[0] - origin[0]) * s * 16)), int(round((p[1] - origin[1]) * s * 16)))


@lru_cache(maxsize=8)
def board_texture(layout: Layout, style_index: int = 0) -> Image:
    """The printed playing surface, ``BOARD_PX_PER_MM`` pixels per mm."""
    st = BOARD_STYLES[style_index % len(BOARD_STYLES)]
    s = BOARD_PX_PER_MM
    w, h = layout.size_mm
    img = np.zeros((int(round(h * s)), int(round(w * s)), 3), np.uint8)
    img[:] = st.base
    holes = layout.holes
    r = layout.hole_radius_mm
    aa = cv2.LINE_AA
    cx, cy = layout.die.center

    # Rounded bevel along the edge.
    cv2.rectangle(img, (0, 0), (img.shape[1] - 1, img.shape[0] - 1), st.edge, int(4 * s), aa)
    # Home zones: a coloured quarter disc in each colour's corner.
    for color in COLORS:
        pts = [holes[f"{color}:home:{k}"] for k in range(1, 5)]
        corner = (0.0 if pts[0][0] < cx else w, 0.0 if pts[0][1] < cy else h)
        rad = max(math.dist(corner, p) for p in pts) + 2.2 * r
        cv2.circle(img, _mm(corner, s), int(rad * s * 16), PRINT_BGR[color], -1, aa, 4)
        cv2.circle(img, _mm(corner, s), int(rad * s * 16), (255, 255, 255), int(0.8 * s), aa, 4)
    # The track: a band joining consecutive holes.
    for n in range(1, 29):
        a, b = holes[f"track:{n}"], holes[f"track:{n % 28 + 1}"]
        cv2.line(img, _mm(a, s), _mm(b, s), st.track, int(2.9 * r * s), aa, 4)
    # Finish lines: a coloured band from the entry space inwards, with an arrow.
    for color in COLORS:
        entry = holes[f"track:{finish_entry_space(color)}"]
        chain = [entry] + [holes[f"{color}:finish:{k}"] for k in range(1, 5)]
        for a, b in zip(chain, chain[1:], strict=False):
            cv2.line(img, _mm(a, s), _mm(b, s), PRINT_BGR[color], int(2.7 * r * s), aa, 4)
        a, b = chain[-2], chain[-1]
        tip = (b[0] + (b[0] - a[0]) * 0.9, b[1] + (b[1] - a[1]) * 0.9)
        cv2.arrowedLine(img, _mm(b, s), _mm(tip, s), PRINT_BGR[color], int(1.5 * s), aa, 4, 0.6)
    # The Pop-O-Matic's base ring.
    dr = layout.die.dome_radius_mm
    cv2.circle(img, _mm((cx, cy), s), int((dr + 6) * s * 16), st.ring, -1, aa, 4)
    cv2.circle(img, _mm((cx, cy), s), int((dr + 6) * s * 16), (20, 20, 20), int(0.6 * s), aa, 4)
    cv2.circle(img, _mm((cx, cy), s), int(dr * s * 16), (235, 235, 235), -1, aa, 4)
    # Holes: a shadowed recess with a lit lower rim; Start spaces get a colour ring.
    for name, p in holes.items():
        ring = None
        for color in COLORS:
            if name == f"track:{START_SPACE[color]}":
                ring = PRINT_BGR[color]
        if ring is not None:
            cv2.circle(img, _mm(p, s), int((r + 2.2) * s * 16), ring, int(1.6 * s), aa, 4)
        cv2.circle(img, _mm(p, s), int((r + 0.6) * s * 16), (200, 200, 200), -1, aa, 4)
        cv2.circle(img, _mm(p, s), int(r * s * 16), (28, 26, 25), -1, aa, 4)
        cv2.circle(img, _mm((p[0] + 0.35 * r, p[1] + 0.35 * r), s), int(0.55 * r * s * 16), (55, 52, 50), -1, aa, 4)
    # Print: the game's name on two sides (a distractor a reader must ignore).
    font = cv2.FONT_HERSHEY_DUPLEX
    for text, (x, y), ang in (("TROUBLE", (w / 2, h - 6), 0), ("TROUBLE", (w / 2, 12), 180)):
        size = 1.5 * s / 4
        (tw, th), _ = cv2.getTextSize(text, font, size, max(1, int(s / 2)))
        tile: Image = np.zeros((th + 8, tw + 8), np.uint8)
        cv2.putText(tile, text, (4, th + 4), font, size, 255, max(1, int(s / 2)), aa)
        if ang == 180:
            tile = cv2.rotate(tile, cv2.ROTATE_180)
        x0, y0 = int(x * s - tile.shape[1] / 2), int(y * s - tile.shape[0] / 2 - th / 2)
        region = img[y0 : y0 + tile.shape[0], x0 : x0 + tile.shape[1]]
        mask = tile[: region.shape[0], : region.shape[1]] > 127
        region[mask] = st.track
    # Printed direction arrows between some track spaces, and the bubble's name.
    for n in range(2, 29, 7):
        a, b = holes[f"track:{n}"], holes[f"track:{n % 28 + 1}"]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        d = ((b[0] - a[0]) / 6, (b[1] - a[1]) / 6)
        cv2.arrowedLine(img, _mm((mid[0] - d[0], mid[1] - d[1]), s), _mm((mid[0] + d[0], mid[1] + d[1]), s), st.base, int(0.8 * s), aa, 4, 0.5)
    font2 = cv2.FONT_HERSHEY_SIMPLEX
    label = "POP-O-MATIC"
    (lw, lh), _ = cv2.getTextSize(label, font2, 0.55 * s / 4, max(1, int(s / 3)))
    org = (int(cx * s - lw / 2), int((cy + dr + 3.6) * s + lh / 2))
    cv2.putText(img, label, org, font2, 0.55 * s / 4, (30, 30, 30) if sum(st.ring) > 300 else (230, 230, 230), max(1, int(s / 3)), aa)
    # Print grain and the slight mottling of printed card under gloss.
    rng = np.random.default_rng(77 + style_index)
    hgt, wid = img.shape[:2]
    mottle = cv2.resize(rng.normal(0, 1, (hgt // 40, wid // 40)).astype(np.float32), (wid, hgt), interpolation=cv2.INTER_CUBIC)
    grain = rng.normal(0, 1, (hgt, wid)).astype(np.float32)
    img = np.clip(img.astype(np.float32) * (1 + 0.012 * mottle[..., None]) + 2.5 * grain[..., None], 0, 255).astype(np.uint8)
    return img


@dataclass(frozen=True)
class TableTexture:
    """A table texture and where it lies: pixel (0, 0) is at ``origin`` mm."""

    image: Image
    origin: tuple[float, float]
    px_per_mm: float


@lru_cache(maxsize=8)
def table_far(layout: Layout, style_index: int = 0) -> TableTexture:
    """The table far from the board, coarse: a tilted camera sees a long way."""
    base, grain, strength = TABLE_STYLES[style_index % len(TABLE_STYLES)]
    s = TABLE_FAR_PX_PER_MM
    tw = int((layout.size_mm[0] + 2 * TABLE_FAR_MM) * s)
    th = int((layout.size_mm[1] + 2 * TABLE_FAR_MM) * s)
    rng = np.random.default_rng(1000 + style_index)
    # Wood grain: noise stretched along x.
    coarse = rng.random((max(2, th // 2), max(2, tw // 40))).astype(np.float32)
    t = cv2.resize(coarse, (tw, th), interpolation=cv2.INTER_CUBIC).clip(0, 1) * strength
    b = np.asarray(base, np.float32)
    g = np.asarray(grain, np.float32)
    img = (b[None, None, :] * (1 - t[..., None]) + g[None, None, :] * t[..., None]).astype(np.uint8)
    return TableTexture(img, (-TABLE_FAR_MM, -TABLE_FAR_MM), s)


@lru_cache(maxsize=8)
def table_near(layout: Layout, style_index: int = 0) -> TableTexture:
    """The table around the board, finer: the far texture plus fine grain that
    fades out towards its edges, so the two join without a seam."""
    far = table_far(layout, style_index)
    _, _, strength = TABLE_STYLES[style_index % len(TABLE_STYLES)]
    s = TABLE_PX_PER_MM
    w = layout.size_mm[0] + 2 * TABLE_MARGIN_MM
    h = layout.size_mm[1] + 2 * TABLE_MARGIN_MM
    tw, th = int(w * s), int(h * s)
    k = far.px_per_mm
    x0 = (-TABLE_MARGIN_MM - far.origin[0]) * k
    y0 = (-TABLE_MARGIN_MM - far.origin[1]) * k
    # Resample the far texture over exactly this region, then add fine grain.
    m = np.array([[k / s, 0, x0], [0, k / s, y0]], np.float64)
    img = cv2.warpAffine(far.image, m, (tw, th), flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP).astype(np.float32)
    rng = np.random.default_rng(2000 + style_index)
    fine = cv2.resize(rng.random((th // 2, max(2, tw // 10))).astype(np.float32), (tw, th), interpolation=cv2.INTER_LINEAR) - 0.5
    ramp_x = np.clip(np.minimum(np.arange(tw), tw - 1 - np.arange(tw)) / (0.15 * tw), 0, 1)
    ramp_y = np.clip(np.minimum(np.arange(th), th - 1 - np.arange(th)) / (0.15 * th), 0, 1)
    fade = (ramp_y[:, None] * ramp_x[None, :]).astype(np.float32)
    img *= (1 + fine * fade * 0.25 * strength)[..., None]
    return TableTexture(img.clip(0, 255).astype(np.uint8), (-TABLE_MARGIN_MM, -TABLE_MARGIN_MM), s)


#: Pip positions on a 3x3 grid (row, col) for each face value.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 2), (2, 0)),
    3: ((0, 2), (1, 1), (2, 0)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)),
}
DIE_TEX = 96


@dataclass(frozen=True)
class DigitStyle:
    """How a digit die's numbers are drawn (``die_face``, edition ``digits``).

    The default is the look every rendered digit die has always had (the
    benchmark's). Other styles exist so that a digit classifier can be
    trained on fonts it will *not* be evaluated on (docs/vision-dice.md,
    "Digit dice: a learned digit classifier"): a net trained and tested on
    one font would only show that it memorised the renderer.
    """

    font: int = cv2.FONT_HERSHEY_DUPLEX
    scale: float = 2.2
    thickness: int = 5
    #: Draw the bar under the 6 (and 9) that tells it from an upside-down 9.
    underline: bool = True
    #: Slant the digit (``cv2.FONT_ITALIC``).
    italic: bool = False


DEFAULT_DIGIT_STYLE = DigitStyle()


@lru_cache(maxsize=64)
def die_face(value: int, edition: str = "pips", style: DigitStyle | None = None) -> Image:
    """One die face (``DIE_TEX`` px square): ivory plastic, black pips or a digit.

    *style* changes how a digit is drawn (None: ``DEFAULT_DIGIT_STYLE``);
    pip faces ignore it.
    """
    n = DIE_TEX
    img = np.full((n, n, 3), (225, 238, 243), np.uint8)
    # Darker bevel at the edges of the face, as a rounded cube shows.
    for k, shade in enumerate((170, 195, 215)):
        cv2.rectangle(img, (k * 2, k * 2), (n - 1 - k * 2, n - 1 - k * 2), (shade, shade + 8, shade + 12), 2)
    if edition == "digits":
        st = style or DEFAULT_DIGIT_STYLE
        text = str(value)
        font = st.font | (cv2.FONT_ITALIC if st.italic else 0)
        (tw, th), _ = cv2.getTextSize(text, font, st.scale, st.thickness)
        cv2.putText(img, text, ((n - tw) // 2, (n + th) // 2), font, st.scale, (25, 25, 25), st.thickness, cv2.LINE_AA)
        if value in (6, 9) and st.underline:
            cv2.line(img, (n // 2 - 14, n - 14), (n // 2 + 14, n - 14), (25, 25, 25), 3, cv2.LINE_AA)
    else:
        step = n / 4
        for row, col in PIPS[value]:
            centre = (int((col + 1) * step * 16), int((row + 1) * step * 16))
            cv2.circle(img, centre, int(n * 0.085 * 16), (25, 25, 25), -1, cv2.LINE_AA, 4)
    return img
