"""Learned faces (digit dice) searched for as the pip classifier searches.

The learned faces' template finder (``matching.py``) tries a few candidate
places at a coarse scale and reads each finely; on development frames of
digit dice it found the face at a wrong place or turn in many of the frames
it gave no value. The pip classifier's search (``face_search.py``) is more
thorough: every canonical window of the dome's middle at every few degrees,
then a fine pass around the best. :class:`FaceBank` lets that same search
run with the learned faces in place of the classifier: a window's score for
a value is its normalised correlation with that value's learned face at the
best of its four quarter turns (a digit reads differently at each turn, so
all four are kept), over the face itself (the canonical patch's margin is
left out: what lies around a digit die's face is not part of what was
learned).

Correlation of the whole face is a weak judge of the value (the bright face
and its edge are alike on every face; a side face of a tilted die shows a
digit too), so the value is checked on the face's middle alone
(:func:`inner_lead`) and announced only when the template finder agrees:
see :data:`AGREE` and ``FaceTemplates.read``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import (
    CANON_PX,
    CANON_SPAN,
    FloatImage,
    canonical_patch,
    to_crop_offset,
)
from companion.vision.dice.face_search import NetFace
from companion.vision.dice.facenet import CLASSES, Matrix
from companion.vision.dice.matching import FaceMatch

#: A face side in canonical patch pixels (rounded to the patch's parity, so
#: that the face sits exactly in the patch's middle and a quarter turn of a
#: window turns the face in place), and the margin around it.
FACE_PX = CANON_PX - 2 * int(round((CANON_PX - CANON_PX / CANON_SPAN) / 2))
MARGIN_PX = (CANON_PX - FACE_PX) // 2


def _normalised(rows: Matrix) -> Matrix:
    rows = rows - rows.mean(axis=1, keepdims=True)
    norm = np.sqrt(np.einsum("ij,ij->i", rows, rows))[:, None] + 1e-3
    return np.asarray(rows / norm, np.float32)


@dataclass(frozen=True)
class FaceBank:
    """The learned faces at canonical scale, each at its four quarter turns."""

    rows: Matrix  # (K, FACE_PX**2), each of zero mean and unit length
    labels: NDArray[np.int64]  # (K,) the value of each row

    @classmethod
    def of(cls, patches: Mapping[int, NDArray[np.uint8]]) -> FaceBank:
        """From learned face patches (upright, the face edge to edge; ``templates.py``)."""
        rows, labels = [], []
        for value, patch in sorted(patches.items()):
            face = cv2.resize(patch.astype(np.float32), (FACE_PX, FACE_PX), interpolation=cv2.INTER_AREA)
            for k in range(4):
                rows.append(np.rot90(face, k).ravel())
                labels.append(value)
        return cls(_normalised(np.array(rows, np.float32)), np.array(labels, np.int64))

    @property
    def classes(self) -> int:
        return CLASSES

    def probabilities(self, rows: Matrix) -> Matrix:
        """Per window (feature rows of canonical patches), the correlation with each
        value's learned face (column ``value``; 0 for "no face" and unlearned values)."""
        faces = rows.reshape(len(rows), CANON_PX, CANON_PX)[
            :, MARGIN_PX : MARGIN_PX + FACE_PX, MARGIN_PX : MARGIN_PX + FACE_PX
        ]
        corr = _normalised(faces.reshape(len(rows), -1)) @ self.rows.T
        out = np.zeros((len(rows), CLASSES), np.float32)
        for value in np.unique(self.labels):
            out[:, value] = np.maximum(corr[:, self.labels == value].max(axis=1), 0.0)
        return out


#: Trimmed from each side of the face for the value check: a digit lies in
#: the face's middle, and the face's edge (the same on every face) dilutes
#: the difference between two digits.
INNER_TRIM_PX = 2
#: The value check's jitter around the searched place: patch px, degrees.
JITTER_PX = (-0.6, 0.0, 0.6)
JITTER_DEG = (-4.0, 0.0, 4.0)


def inner_rows(patches: Mapping[int, NDArray[np.uint8]]) -> tuple[Matrix, NDArray[np.int64]]:
    """The learned faces' middles (each at its four quarter turns), normalised, and their values."""
    rows, labels = [], []
    keep = slice(INNER_TRIM_PX, FACE_PX - INNER_TRIM_PX)
    for value, patch in sorted(patches.items()):
        face = cv2.resize(patch.astype(np.float32), (FACE_PX, FACE_PX), interpolation=cv2.INTER_AREA)
        for k in range(4):
            rows.append(np.rot90(face[keep, keep], k).ravel())
            labels.append(value)
    return _normalised(np.array(rows, np.float32)), np.array(labels, np.int64)


def inner_lead(gray: FloatImage, face: NetFace, die_px: float,
               bank: tuple[Matrix, NDArray[np.int64]]) -> tuple[int, float]:
    """Which learned face the middle of the searched *face* matches best, and by how
    much more than any other value: (value, lead in correlation)."""
    inner = slice(MARGIN_PX + INNER_TRIM_PX, MARGIN_PX + FACE_PX - INNER_TRIM_PX)
    rows = []
    for da in JITTER_DEG:
        for dx in JITTER_PX:
            for dy in JITTER_PX:
                ox, oy = to_crop_offset(dx, dy, face.angle_deg, die_px)
                patch = canonical_patch(gray, face.x + ox, face.y + oy, face.angle_deg + da, die_px)
                rows.append(patch[inner, inner].ravel())
    corr = _normalised(np.array(rows, np.float32)) @ bank[0].T
    values = np.unique(bank[1])
    best = np.array([corr[:, bank[1] == v].max() for v in values])
    order = np.argsort(-best)
    lead = float(best[order[0]] - best[order[1]]) if len(values) > 1 else 1.0
    return int(values[order[0]]), lead


@dataclass(frozen=True)
class Agreement:
    """When the searched face is announced: its correlation and place, the value
    its middle matches best and by how much, and the template finder's agreement
    (the same value, a good match with dark marks, at the same place).

    Chosen on rendered cameras as a user calibrates (docs/vision-dice.md,
    "Learned faces"): 80 development cameras, each with its six faces learned
    from one frame and 24 flat and 6 leaning dice to read. Wrong values there
    came from cameras whose faces read back from their own frames by a lead
    under 0.05, so the calibration check (:data:`READ_BACK`) asks for 0.05;
    play asks for 0.04 (0.02 gave wrong values on accepted cameras).
    """

    min_score: float = 0.7
    zone: float = 0.4  # dome radii from the centre
    min_inner_lead: float = 0.04
    min_match_score: float = 0.6
    min_contrast: float = 0.45
    max_apart: float = 0.12  # face sides between the two finders' places


AGREE = Agreement()
#: The calibration check: each face must read back from its own frame by this
#: clear a lead, or the camera's faces are refused. Stricter than play's bar:
#: on a camera where two faces are only just told apart in their own tidy
#: frames, play frames (another turn, another place) get them confused.
READ_BACK = Agreement(min_inner_lead=0.05)


def agrees(face: NetFace, inner: tuple[int, float], match: FaceMatch, apart_faces: float,
           accept: Agreement = AGREE) -> bool:
    """True when the searched *face* may be announced, given its middle's best value
    and lead (*inner*) and the template finder's *match* *apart_faces* face sides away."""
    return (
        face.probability >= accept.min_score
        and face.from_centre <= accept.zone
        and inner[0] == face.value
        and inner[1] >= accept.min_inner_lead
        and match.value == face.value
        and match.score >= accept.min_match_score
        and match.contrast >= accept.min_contrast
        and apart_faces <= accept.max_apart
    )
