"""ArUco marker bit patterns, taken from OpenCV's own dictionaries.

Used both by the renderer (markers on the table) and by the printable PDF
sheet (markers as filled vector squares), so both print the same pattern.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import UserError


def marker_cells(dictionary: str, marker_id: int) -> NDArray[np.bool_]:
    """The marker as a square grid of cells, True = black, border included.

    For DICT_4X4_50 the grid is 6 x 6: a one-cell black border around 4 x 4 bits.
    """
    code = getattr(cv2.aruco, dictionary, None)
    if not isinstance(code, int):
        raise UserError(f"unknown ArUco dictionary {dictionary!r}")
    d = cv2.aruco.getPredefinedDictionary(code)
    n = int(d.markerSize) + 2
    if not 0 <= marker_id < d.bytesList.shape[0]:
        raise UserError(f"marker id {marker_id} is not in {dictionary}")
    img = cv2.aruco.generateImageMarker(d, marker_id, n)
    return np.asarray(img < 128)


#: White paper around a printed marker (its quiet zone), in mm: the detector
#: needs a light margin to find the black square on a dark table.
PAPER_MARGIN_MM = 10.0
