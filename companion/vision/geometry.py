"""The board geometry the vision needs, taken from a layout.

The layout (``calibration/*.json``, loaded by :mod:`companion.layout`) is the
single source of truth for where holes, markers and the dome are. The vision
only needs a few arrays of it, in millimetres on the board plane; this module
turns a layout into those arrays once, so the per-frame code indexes numpy
arrays instead of walking dictionaries.

Holes are kept in the order of :data:`companion.layout.places.HOLE_NAMES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from companion.layout import HOLE_NAMES, Layout


@dataclass(frozen=True)
class BoardGeometry:
    """Everything of a layout the reader uses, as arrays in board millimetres."""

    name: str
    size_mm: tuple[float, float]
    hole_names: tuple[str, ...]
    #: (60, 2) hole centres, x right and y down from the board's top-left.
    holes_mm: np.ndarray
    hole_radius_mm: float
    peg_radius_mm: float
    peg_height_mm: float
    die_center_mm: tuple[float, float]
    dome_radius_mm: float
    die_size_mm: float
    dictionary: str
    #: marker id -> (4, 2) corners in ArUco order (TL, TR, BR, BL).
    markers_mm: Mapping[int, np.ndarray]
    #: Height of the markers' plane above the board's surface (mm); negative
    #: when the markers lie on the table and the board stands on its base.
    marker_height_mm: float = 0.0

    @property
    def board_corners_mm(self) -> np.ndarray:
        """The board's outline corners, clockwise from top-left (for ``--corners``)."""
        w, h = self.size_mm
        return np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]])

    def hole_index(self, name: str) -> int:
        return self.hole_names.index(name)

    @classmethod
    def from_layout(cls, layout: Layout) -> BoardGeometry:
        """Build from a loaded layout (:func:`companion.layout.load_layout`)."""
        holes = layout.holes
        markers = {
            m.id: np.array(m.corners, dtype=np.float64).reshape(4, 2) for m in layout.markers
        }
        return cls(
            name=layout.name,
            size_mm=(float(layout.size_mm[0]), float(layout.size_mm[1])),
            hole_names=HOLE_NAMES,
            holes_mm=np.array([holes[n] for n in HOLE_NAMES], dtype=np.float64),
            hole_radius_mm=layout.hole_radius_mm,
            peg_radius_mm=layout.peg.radius_mm,
            peg_height_mm=layout.peg.height_mm,
            die_center_mm=(float(layout.die.center[0]), float(layout.die.center[1])),
            dome_radius_mm=layout.die.dome_radius_mm,
            die_size_mm=layout.die.size_mm,
            dictionary=layout.marker_dictionary,
            markers_mm=MappingProxyType(markers),
            marker_height_mm=layout.marker_z_mm,
        )
