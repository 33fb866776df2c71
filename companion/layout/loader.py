"""Load and validate a layout file (JSON) into a :class:`Layout`.

Every problem is reported as a :class:`LayoutError` naming the file and the
key at fault, because a user with another edition of the game edits these
files by hand.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.layout.model import DieSpec, Layout, Marker, PegSpec, Point
from companion.layout.places import HOLE_NAMES
from companion.paths import CALIBRATION_DIR

DEFAULT_LAYOUT = CALIBRATION_DIR / "classic.json"
_DICT_NAME = re.compile(r"^DICT_(\d)X\1_(50|100|250|1000)$")


class LayoutError(UserError):
    """A layout file that is missing, malformed, or physically impossible."""


def load_layout(path: str | Path | None = None) -> Layout:
    """Read *path* (default ``calibration/classic.json``) and validate it."""
    p = Path(path) if path is not None else DEFAULT_LAYOUT
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LayoutError(f"layout file {p} does not exist") from None
    except OSError as exc:
        raise LayoutError(f"cannot read layout file {p}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise LayoutError(f"layout file {p} is not UTF-8 text (a JSON layout): {exc.reason}") from None
    return parse_layout(text, source=str(p))


def parse_layout(text: str, source: str = "<layout>") -> Layout:
    """Validate layout JSON *text*; *source* names it in error messages."""

    def fail(msg: str) -> LayoutError:
        return LayoutError(f"{source}: {msg}")

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise fail(f"duplicate key {key!r}")
            out[key] = value
        return out

    try:
        data = json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        raise fail(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict):
        raise fail("the layout must be a JSON object")

    def get(obj: dict[str, Any], key: str, where: str) -> Any:
        if key not in obj:
            raise fail(f"missing key {where}{key!r}")
        return obj[key]

    def number(value: Any, what: str, positive: bool = True) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise fail(f"{what} must be a number, not {value!r}")
        if positive and value <= 0:
            raise fail(f"{what} must be positive, not {value!r}")
        return float(value)

    def point(value: Any, what: str) -> Point:
        if not isinstance(value, list) or len(value) != 2:
            raise fail(f"{what} must be a pair [x, y] in mm, not {value!r}")
        return (number(value[0], what, False), number(value[1], what, False))

    def obj(value: Any, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise fail(f"{what} must be an object, not {value!r}")
        return value

    name = data.get("name", Path(source).stem)
    if not isinstance(name, str) or not name:
        raise fail(f"'name' must be a non-empty string, not {name!r}")
    size = point(get(data, "size_mm", ""), "'size_mm'")
    if size[0] <= 0 or size[1] <= 0:
        raise fail(f"'size_mm' must be positive, not {list(size)}")
    hole_r = number(get(data, "hole_radius_mm", ""), "'hole_radius_mm'")
    peg_obj = obj(get(data, "peg", ""), "'peg'")
    peg = PegSpec(
        number(get(peg_obj, "radius_mm", "peg."), "'peg.radius_mm'"),
        number(get(peg_obj, "height_mm", "peg."), "'peg.height_mm'"),
    )
    if peg.radius_mm > hole_r:
        raise fail(f"'peg.radius_mm' {peg.radius_mm} is wider than 'hole_radius_mm' {hole_r}: pegs would not fit")
    die_obj = obj(get(data, "die", ""), "'die'")
    die = DieSpec(
        point(get(die_obj, "center", "die."), "'die.center'"),
        number(get(die_obj, "dome_radius_mm", "die."), "'die.dome_radius_mm'"),
        number(get(die_obj, "size_mm", "die."), "'die.size_mm'"),
    )
    if die.size_mm * math.sqrt(2) >= 2 * die.dome_radius_mm:
        raise fail(f"'die.size_mm' {die.size_mm} does not fit under a dome of radius {die.dome_radius_mm}")
    marker_z = number(data.get("marker_z_mm", 0.0), "'marker_z_mm'", positive=False)

    spaces = obj(get(data, "spaces", ""), "'spaces'")
    for key in spaces:
        if key not in HOLE_NAMES:
            raise fail(f"unknown hole name {key!r} in 'spaces' (expected track:1..28, COLOR:home:1..4, COLOR:finish:1..4)")
    holes: list[tuple[str, Point]] = []
    for hole in HOLE_NAMES:
        if hole not in spaces:
            raise fail(f"missing hole {hole!r} in 'spaces'")
        x, y = point(spaces[hole], f"hole {hole!r}")
        if not (hole_r <= x <= size[0] - hole_r and hole_r <= y <= size[1] - hole_r):
            raise fail(f"hole {hole!r} at [{x}, {y}] is not inside the {size[0]} x {size[1]} mm board")
        if math.dist((x, y), die.center) < die.dome_radius_mm + hole_r:
            raise fail(f"hole {hole!r} at [{x}, {y}] is under the Pop-O-Matic dome")
        holes.append((hole, (x, y)))
    for (a, pa), (b, pb) in itertools.combinations(holes, 2):
        gap = math.dist(pa, pb)
        if gap < 2 * hole_r:
            raise fail(
                f"holes {a!r} and {b!r} overlap: centres {gap:.1f} mm apart, "
                f"need at least {2 * hole_r:.1f} mm (twice 'hole_radius_mm')"
            )

    mk = obj(get(data, "markers", ""), "'markers'")
    dictionary = get(mk, "dictionary", "markers.")
    m = _DICT_NAME.match(dictionary) if isinstance(dictionary, str) else None
    if not m:
        raise fail(f"'markers.dictionary' {dictionary!r} is not an ArUco dictionary name such as 'DICT_4X4_50'")
    id_limit = int(m.group(2))
    items = get(mk, "items", "markers.")
    if not isinstance(items, list) or not items:
        raise fail("'markers.items' must be a non-empty list")
    markers: list[Marker] = []
    board_poly = [(0.0, 0.0), (size[0], 0.0), (size[0], size[1]), (0.0, size[1])]
    for i, item in enumerate(items):
        item = obj(item, f"'markers.items[{i}]'")
        mid = get(item, "id", f"markers.items[{i}].")
        if isinstance(mid, bool) or not isinstance(mid, int) or not 0 <= mid < id_limit:
            raise fail(f"marker id {mid!r} is not an id of {dictionary} (0..{id_limit - 1})")
        if any(x.id == mid for x in markers):
            raise fail(f"marker id {mid} appears twice in 'markers.items'")
        corners = get(item, "corners", f"markers.items[{i}].")
        if not isinstance(corners, list) or len(corners) != 4:
            raise fail(f"marker {mid}: 'corners' must list 4 points [x, y], not {corners!r}")
        pts = tuple(point(c, f"marker {mid} corner") for c in corners)
        if not _is_convex_clockwise(pts):
            raise fail(
                f"marker {mid}: corners must be a square in ArUco order "
                "(top-left, top-right, bottom-right, bottom-left, clockwise on the table)"
            )
        if _convex_overlap(pts, board_poly):
            raise fail(f"marker {mid} lies on the board: markers go on the table just outside its corners")
        markers.append(Marker(mid, (pts[0], pts[1], pts[2], pts[3])))

    return Layout(
        name=name,
        size_mm=size,
        hole_items=tuple(holes),
        hole_radius_mm=hole_r,
        peg=peg,
        die=die,
        marker_dictionary=dictionary,
        markers=tuple(markers),
        marker_z_mm=marker_z,
        source=source,
    )


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _is_convex_clockwise(pts: tuple[Point, ...]) -> bool:
    """Clockwise as seen on the table (x right, y down): every turn is positive."""
    n = len(pts)
    return all(_cross(pts[i], pts[(i + 1) % n], pts[(i + 2) % n]) > 0 for i in range(n))


def _convex_overlap(a: list[Point] | tuple[Point, ...], b: list[Point]) -> bool:
    """Separating-axis test for two convex polygons (touching counts as apart)."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
            ax, ay = y0 - y1, x1 - x0
            pa = [ax * x + ay * y for x, y in a]
            pb = [ax * x + ay * y for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return False
    return True
