"""Faces learned from the user's own die (digit dice; pip dice as a second opinion).

Some editions of Trouble print digits instead of pips. At calibration the
user shows each face once; the top face is found in each dome crop (a bright
square with a darker rim, the die's known size), turned upright up to a
quarter turn, and kept as a small grey patch. Reading then matches those
patches exactly as the drawn pip faces are matched (``matching.py``), at
every quarter turn, so any rotation of the die reads.

Saved as plain JSON (the board reader keeps it in the calibration file).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.dome import (
    DEFAULT_DIE_FRACTION,
    READ_DIE_PX,
    SEARCH_DIE_PX,
    generic_face,
    read_die_in_dome,
    rescaled,
    scaled_crop,
)
from companion.vision.dice.matching import (
    FacePlace,
    FloatImage,
    face_from_patch,
    find_faces,
    pip_face,
    read_face,
)
from companion.vision.dice.photo import to_gray
from companion.vision.dice.reading import DieReading

#: Side of a stored face patch, in pixels.
PATCH_PX = 32
#: The ``kind`` and ``version`` written to JSON.
JSON_KIND = "die-faces"
JSON_VERSION = 1


@dataclass(frozen=True)
class FaceTemplates:
    """One learned grey patch (``PATCH_PX`` square, upright) per die value."""

    patches: Mapping[int, NDArray[np.uint8]]
    _sized: dict[int, dict[int, FloatImage]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        if not self.patches:
            raise ValueError("no faces learned")
        for value, patch in self.patches.items():
            if value not in range(1, 7):
                raise ValueError(f"a die face is 1..6, not {value!r}")
            if patch.shape != (PATCH_PX, PATCH_PX) or patch.dtype != np.uint8:
                raise ValueError(f"face {value}: expected a {PATCH_PX}x{PATCH_PX} grey patch")
            patch.setflags(write=False)

    @classmethod
    def learn(
        cls, crops: Mapping[int, NDArray[np.uint8]], fraction: float = DEFAULT_DIE_FRACTION
    ) -> FaceTemplates:
        """Learn each face from a dome crop showing it on top (crop convention of ``dome.py``)."""
        return cls({value: learn_patch(crop, fraction, value) for value, crop in crops.items()})

    def faces(self) -> Mapping[int, Mapping[int, FloatImage]]:
        """The learned faces at the sizes the dome reader uses."""
        if not self._sized:
            for size in (SEARCH_DIE_PX, READ_DIE_PX):
                self._sized[size] = {
                    v: face_from_patch(p.astype(np.float32), size) for v, p in self.patches.items()
                }
        return self._sized

    def read(
        self, crop_bgr: NDArray[np.uint8], fraction: float = DEFAULT_DIE_FRACTION
    ) -> DieReading:
        """Read a dome crop with the learned faces."""
        return read_die_in_dome(crop_bgr, fraction, self.faces())

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": JSON_KIND,
            "version": JSON_VERSION,
            "size": PATCH_PX,
            "faces": {str(v): p.tolist() for v, p in sorted(self.patches.items())},
        }

    @classmethod
    def from_json(cls, data: Any) -> FaceTemplates:
        """Rebuild from :meth:`to_json`; ``ValueError`` naming what is wrong."""
        if not isinstance(data, dict) or data.get("kind") != JSON_KIND:
            raise ValueError(f"not learned die faces (expected kind {JSON_KIND!r})")
        if data.get("version") != JSON_VERSION or data.get("size") != PATCH_PX:
            raise ValueError(
                f"unsupported die faces (version {data.get('version')!r}, size {data.get('size')!r})"
            )
        faces = data.get("faces")
        if not isinstance(faces, dict):
            raise ValueError("die faces: 'faces' must be an object of value -> patch")
        patches: dict[int, NDArray[np.uint8]] = {}
        for key, rows in faces.items():
            if not (isinstance(key, str) and key.isdigit()):
                raise ValueError(f"die faces: bad face key {key!r}")
            arr = np.asarray(rows)
            if arr.shape != (PATCH_PX, PATCH_PX) or not np.issubdtype(arr.dtype, np.integer):
                raise ValueError(
                    f"die faces: face {key} is not a {PATCH_PX}x{PATCH_PX} grid of integers"
                )
            if arr.min() < 0 or arr.max() > 255:
                raise ValueError(f"die faces: face {key} has values outside 0..255")
            patches[int(key)] = arr.astype(np.uint8)
        return cls(patches)


def learn_patch(
    crop_bgr: NDArray[np.uint8], fraction: float = DEFAULT_DIE_FRACTION, value: int | None = None
) -> NDArray[np.uint8]:
    """The top face of the die in a dome crop, upright (up to a quarter turn), PATCH_PX square.

    The face is found as a bright square with a darker rim and one central
    mark (a digit or a one looks like that from afar; a glare spot, bright but
    unmarked, does not), then placed and turned more finely at the reading
    scale before the patch is cut out. When the *value* shown is known, the
    standard pip face of that value is tried as well, and the better of the
    two finders wins: a pip die's 2, 4 or 6 has no central mark.
    """
    gray = to_gray(crop_bgr).astype(np.float32)
    coarse, allowed = scaled_crop(gray, fraction, SEARCH_DIE_PX)
    fine, _ = scaled_crop(gray, fraction, READ_DIE_PX)
    finders: list[Callable[[int], Mapping[int, FloatImage]]] = [generic_face]
    if value is not None:
        finders.append(lambda size: {value: pip_face(value, size)})
    best: FacePlace | None = None
    for finder in finders:
        places = find_faces(coarse, finder(SEARCH_DIE_PX), allowed, half_turn=True, count=1)
        if not places:
            continue
        # Refine where the face is and how it is turned, at the reading scale.
        at = rescaled(places[0], READ_DIE_PX / SEARCH_DIE_PX)
        refined = read_face(fine, finder(READ_DIE_PX), at, 1, 2)
        candidate = refined.place if refined is not None else at
        if best is None or candidate.score > best.score:
            best = candidate
    if best is None:
        raise ValueError("no die face found in the crop")
    place = best
    k = min(gray.shape[:2]) / min(fine.shape[:2])
    x, y = (place.x + 0.5) * k - 0.5, (place.y + 0.5) * k - 0.5
    die_px = fraction * min(gray.shape[:2])
    m = cv2.getRotationMatrix2D((x, y), place.angle_deg, PATCH_PX / die_px)
    m[0, 2] += PATCH_PX / 2.0 - x
    m[1, 2] += PATCH_PX / 2.0 - y
    patch = cv2.warpAffine(
        gray, m, (PATCH_PX, PATCH_PX), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    return np.clip(patch, 0, 255).astype(np.uint8)
