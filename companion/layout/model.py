"""Immutable values describing one physical board (loaded from a layout file).

Coordinates are millimetres on the playing surface: x to the right, y down from
the board's top-left corner, z up towards the camera (the playing surface is
z = 0). Values are frozen and hashable so renderers can cache per layout.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

Point = tuple[float, float]


@dataclass(frozen=True)
class PegSpec:
    """The visible part of a peg standing in a hole."""

    radius_mm: float
    height_mm: float


@dataclass(frozen=True)
class DieSpec:
    """The Pop-O-Matic: a clear hemisphere over the die, centred on the board."""

    center: Point
    dome_radius_mm: float
    size_mm: float


@dataclass(frozen=True)
class Marker:
    """One printed ArUco marker; corners in ArUco order (TL, TR, BR, BL)."""

    id: int
    corners: tuple[Point, Point, Point, Point]

    @property
    def size_mm(self) -> float:
        """Mean side length: the printed marker's edge, black border included."""
        c = self.corners
        return sum(math.dist(c[i], c[(i + 1) % 4]) for i in range(4)) / 4


@dataclass(frozen=True)
class Layout:
    """A board layout. ``holes`` maps each of the 60 hole names to its centre."""

    name: str
    size_mm: Point
    hole_items: tuple[tuple[str, Point], ...]
    hole_radius_mm: float
    peg: PegSpec
    die: DieSpec
    marker_dictionary: str
    markers: tuple[Marker, ...]
    #: Height of the markers (the table) relative to the playing surface; the
    #: real board is a raised plastic tray, so this is negative.
    marker_z_mm: float = 0.0
    source: str = field(default="", compare=False)

    @cached_property
    def holes(self) -> Mapping[str, Point]:
        """Hole name -> centre (mm), read-only."""
        return MappingProxyType(dict(self.hole_items))

    @property
    def marker_ids(self) -> tuple[int, ...]:
        return tuple(m.id for m in self.markers)

    def marker(self, marker_id: int) -> Marker:
        for m in self.markers:
            if m.id == marker_id:
                return m
        raise KeyError(marker_id)
