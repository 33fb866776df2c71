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

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.digitnet import (
    DIGIT_ACCEPT,
    LearnedDigits,
    digit_net,
    read_digit,
)
from companion.vision.dice.dome import (
    ACCEPT_LEARNED,
    DEFAULT_DIE_FRACTION,
    DOME_SPAN_RADII,
    READ_DIE_PX,
    SEARCH_DIE_PX,
    generic_face,
    judge,
    leaning_or,
    match_with_image,
    rescaled,
    scaled_crop,
)
from companion.vision.dice.face_search import search_face
from companion.vision.dice.facenet import NO_FACE
from companion.vision.dice.hands import foreign_share
from companion.vision.dice.learned_search import (
    AGREE,
    READ_BACK,
    Agreement,
    FaceBank,
    agrees,
    inner_lead,
    inner_rows,
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
        """Learn each face from a dome crop showing it on top (crop convention of ``dome.py``).

        ``ValueError`` naming the face when no die face is found in its crop.
        """
        patches = {}
        for value, crop in crops.items():
            try:
                patches[value] = learn_patch(crop, fraction, value)
            except ValueError as exc:
                raise ValueError(f"face {value}: {exc}") from None
        return cls(patches)

    def misreads(
        self, crops: Mapping[int, NDArray[np.uint8]], fraction: float = DEFAULT_DIE_FRACTION
    ) -> tuple[dict[int, int], list[int]]:
        """Each crop read back with these faces (at the ``READ_BACK`` bar):
        ({shown: read as another value}, [faces shown but given no value]).

        Either means two faces look alike to this camera: one face shown
        twice, or digits too small or blurred to tell apart
        (``companion.vision.die_faces`` refuses such faces).
        """
        wrong: dict[int, int] = {}
        unread: list[int] = []
        for value, crop in sorted(crops.items()):
            # The learned faces alone: this checks that they tell the faces
            # apart (the net's value is only announced where they confirm it).
            reading = self.read(crop, fraction, READ_BACK, net=False)
            if reading.value is None:
                unread.append(value)
            elif reading.value != value:
                wrong[value] = reading.value
        return wrong, unread

    def faces(self) -> Mapping[int, Mapping[int, FloatImage]]:
        """The learned faces at the sizes the dome reader uses."""
        if not self._sized:
            for size in (SEARCH_DIE_PX, READ_DIE_PX):
                self._sized[size] = {
                    v: face_from_patch(p.astype(np.float32), size) for v, p in self.patches.items()
                }
        return self._sized

    @cached_property
    def bank(self) -> FaceBank:
        """The learned faces for the classifier's search (``learned_search.py``)."""
        return FaceBank.of(self.patches)

    @cached_property
    def digits(self) -> LearnedDigits:
        """These faces as the digit classifier sees them (``digitnet.LearnedDigits``):
        whether it knows them, and each turned upright to confirm its values."""
        return LearnedDigits.of(self.patches, digit_net())

    @cached_property
    def middles(self) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
        """The learned faces' middles, for the value check (``learned_search.py``)."""
        return inner_rows(self.patches)

    def read(
        self, crop_bgr: NDArray[np.uint8], fraction: float = DEFAULT_DIE_FRACTION,
        accept: Agreement = AGREE, net: bool = True,
    ) -> DieReading:
        """Read a dome crop with the digit classifier, then the learned faces.

        By default (*net*, session 13): no value at all while a hand reaches
        into the dome (``hands.foreign_share`` over
        ``DIGIT_ACCEPT.max_foreign``; a grey crop, which cannot show one, is
        read by the learned faces alone); then the digit classifier
        (``digitnet.py``), when it knows these faces (:attr:`digits`): its
        value is announced when it is sure, the digit's marks are clear, the
        second classifier agrees and the learned faces do not contradict it
        at the same window (or, since session 15b, when the convolutional
        reader reads that window surely: ``digitnet.read_again``); where it
        gives no value, the learned faces read as before. On fresh frames never tuned on (760000-763599) this gave
        1 wrong value in 3,600 frames against 6 for the learned faces alone,
        and about three times the right reads (docs/vision-dice.md, "Digit
        dice: a learned digit classifier").

        With ``net=False`` (the calibration check's read-back), the learned
        faces alone, as before session 12:
        the classifier's thorough search runs with the learned faces
        (``learned_search.py``); its face is announced only when the face's
        middle matches that value best by a clear lead and the template
        finder's best match agrees (the same value at the same place, with
        dark marks). A face the template finder sees at the dome's wall is
        ``cocked``. *accept* is play's bar unless given (the calibration
        check reads back at ``READ_BACK``). Figures in docs/vision-dice.md,
        "Learned faces".
        """
        gray = to_gray(crop_bgr).astype(np.float32)
        if not net:
            return self._read_learned(crop_bgr, gray, fraction, accept)
        # A grey crop cannot show a hand: the learned faces alone, as before.
        # A hand reaching into the dome: no value from either reader (a
        # leaning die is still called cocked).
        foreign = foreign_share(crop_bgr, DOME_SPAN_RADII)
        if foreign is None or foreign > DIGIT_ACCEPT.max_foreign:
            reading = self._read_learned(crop_bgr, gray, fraction, accept)
            if foreign is None or reading.value is None:
                return reading
            return DieReading.unreadable("hidden", reading.confidence)
        by_net = read_digit(gray, fraction, self.digits, crop_bgr=crop_bgr)
        if by_net is not None:
            return by_net
        return self._read_learned(crop_bgr, gray, fraction, accept)

    def _read_learned(self, crop_bgr: NDArray[np.uint8], gray: FloatImage, fraction: float,
                      accept: Agreement) -> DieReading:
        """The learned faces alone (the reader before session 12; see :meth:`read`)."""
        match, fine = match_with_image(crop_bgr, fraction, self.faces())
        reading = judge(match, ACCEPT_LEARNED, fraction)
        if reading.state == "cocked" or match is None:
            return leaning_or(reading, gray, fraction)
        die_px = fraction * min(gray.shape[:2])
        face = search_face(gray, fraction, self.bank, DOME_SPAN_RADII)
        k = min(gray.shape[:2]) / min(fine.shape[:2])
        mx, my = (match.place.x + 0.5) * k - 0.5, (match.place.y + 0.5) * k - 0.5
        apart = math.hypot(mx - face.x, my - face.y) / die_px
        if face.value != NO_FACE and agrees(face, inner_lead(gray, face, die_px, self.middles),
                                            match, apart, accept):
            return DieReading("settled", face.value, round(min(1.0, face.probability), 3))
        return leaning_or(DieReading.unreadable("hidden", reading.confidence), gray, fraction)

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
            if int(key) not in range(1, 7):
                raise ValueError(f"die faces: a die face is 1..6, not {key}")
            arr = np.asarray(rows)
            if arr.shape != (PATCH_PX, PATCH_PX) or not np.issubdtype(arr.dtype, np.integer):
                raise ValueError(
                    f"die faces: face {key} is not a {PATCH_PX}x{PATCH_PX} grid of integers"
                )
            if arr.min() < 0 or arr.max() > 255:
                raise ValueError(f"die faces: face {key} has values outside 0..255")
            patches[int(key)] = arr.astype(np.uint8)
        missing = sorted(set(range(1, 7)) - set(patches))
        if patches and missing:
            # A die with a face never learned would have that face read as
            # another (the nearest learned one) or never: refused, not guessed.
            raise ValueError(f"die faces: all six faces are needed, face {missing[0]} is missing")
        return cls(patches)


def learn_patch(
    crop_bgr: NDArray[np.uint8], fraction: float = DEFAULT_DIE_FRACTION, value: int | None = None
) -> NDArray[np.uint8]:
    """The top face of the die in a dome crop, upright (up to a quarter turn), PATCH_PX square."""
    gray = to_gray(crop_bgr).astype(np.float32)
    x, y, angle = face_place(gray, fraction, value)
    die_px = fraction * min(gray.shape[:2])
    m = cv2.getRotationMatrix2D((x, y), angle, PATCH_PX / die_px)
    m[0, 2] += PATCH_PX / 2.0 - x
    m[1, 2] += PATCH_PX / 2.0 - y
    patch = cv2.warpAffine(
        gray, m, (PATCH_PX, PATCH_PX), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    return np.clip(patch, 0, 255).astype(np.uint8)


def face_place(
    gray: FloatImage, fraction: float = DEFAULT_DIE_FRACTION, value: int | None = None
) -> tuple[float, float, float]:
    """Where the top face of a flat die is in a grey dome crop: centre (crop px) and turn (degrees).

    The face is found as a bright square with a darker rim and one central
    mark (a digit or a one looks like that from afar; a glare spot, bright but
    unmarked, does not), then placed and turned more finely at the reading
    scale. When the *value* shown is known, the standard pip face of that
    value is tried as well, and the better of the two finders wins: a pip
    die's 2, 4 or 6 has no central mark. ``ValueError`` when no face is found.
    """
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
    k = min(gray.shape[:2]) / min(fine.shape[:2])
    return (best.x + 0.5) * k - 0.5, (best.y + 0.5) * k - 0.5, best.angle_deg
