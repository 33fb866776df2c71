"""The physical board: layout files, hole geometry and the place-name mapping.

See ``calibration/README.md`` for the file schema and ``docs/board.md`` for the API.
"""

from companion.layout.loader import DEFAULT_LAYOUT, LayoutError, load_layout, parse_layout
from companion.layout.model import DieSpec, Layout, Marker, PegSpec, Point
from companion.layout.places import (
    COLORS,
    HOLE_NAMES,
    START_SPACE,
    PositionError,
    finish_entry_space,
    hole_for,
    holes_from_pegs,
    pegs_from_holes,
    place_for,
    sort_places,
)

__all__ = [
    "COLORS",
    "DEFAULT_LAYOUT",
    "HOLE_NAMES",
    "START_SPACE",
    "DieSpec",
    "Layout",
    "LayoutError",
    "Marker",
    "PegSpec",
    "Point",
    "PositionError",
    "finish_entry_space",
    "hole_for",
    "holes_from_pegs",
    "load_layout",
    "parse_layout",
    "pegs_from_holes",
    "place_for",
    "sort_places",
]
