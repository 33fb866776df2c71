"""Read a digit die's top face with a learned digit classifier (digit editions).

Why: the learned faces alone (one calibration frame per face, correlated;
``templates.py``, ``learned_search.py``) read only about one settled digit
die in eight on rendered development and held-out frames: one tidy frame
per face does not show what a digit looks like blurred, hazed or half
under glare. A classifier trained like the pip classifier (``facenet.py``:
the same canonical patch and 576-64-32-7 shape, weights in
``digit_faces.npz``) on many rendered digit dice learns that.

It was trained on digit fonts the benchmark does *not* use (the renderer's
``DigitStyle``: Hershey simplex, plain, complex, triplex, italic, several
scales and thicknesses, with and without the bar under the 6), and its
figures are measured on the default look (Hershey duplex) it never saw:
trained and tested on one font it would only show that it memorised the
renderer (docs/vision-dice.md, "Digit dice: a learned digit classifier").

Unlike a pip face, a digit is not the same under a quarter turn. The
classifier's class ``v`` means "the digit v, upright in the patch"; the
same face at another quarter turn is "no face". The search
(``face_search.py``) still steps over one quarter turn only: each window is
scored at its four quarter turns (:class:`AllTurns`), and the turn that
reads the value is found afterwards at the best window (:func:`search_digit`).

A value is announced only when (:class:`DigitAcceptance`): the classifier
is sure of it upright, no other quarter turn of the same window reads the
same value (a real digit stands out at one turn; a blob that reads "some
digit" at every turn is not a digit), the face lies where a flat die rests,
no other value was nearly as sure anywhere in the dome, a second classifier
(``digit_faces_2.npz``, trained apart) agrees at the same window, and the
faces learned at calibration do not contradict it: the learned face of that
value, stood upright, matches the window's middle about as well as the
best-matching learned face (:func:`learned_gap`), and the digit's marks
are clearly darker than the face (:func:`marks_contrast`: a blurred or
hazed face is not read). A die whose digits the
classifier does not know (its six learned faces not each read as
themselves: :class:`LearnedDigits`) is not read by the classifier at all,
only by its learned faces, as before. And while a hand reaches into the
dome (``hands.foreign_share``), ``FaceTemplates.read`` gives no value at all.

Session 15b: where the classifier found a face but its rule refused it
(mostly for a rival elsewhere in the dome), the convolutional reader
(``facecnn.digit_cnn``) reads the same window again (:func:`read_again`),
with the same checks of the image and a stricter hand check.

The default reader of digit dice since session 13: on 3,600 fresh
rendered frames never tuned on, 1 wrong value against 6 for the learned
faces alone, with 2.9 times their right reads (docs/vision-dice.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import (
    CANON_PX,
    CANON_SPAN,
    FloatImage,
    canonical_patch,
    features,
    to_crop_offset,
)
from companion.vision.dice.dome import DOME_SPAN_RADII
from companion.vision.dice.face_search import NetFace, search_face
from companion.vision.dice.facecnn import FaceCNN, digit_cnn
from companion.vision.dice.facenet import NO_FACE, FaceNet, Matrix, load_checked
from companion.vision.dice.hands import dark_share, foreign_share
from companion.vision.dice.reading import DieReading

#: The trained digit classifier shipped with the package ...
DIGIT_NET_PATH = Path(__file__).with_name("digit_faces.npz")
#: ... and a second one, trained as the first on other draws (and with hands
#: over the die), asked about the first one's window only: two nets trained
#: apart are seldom sure of the same wrong value (docs/vision-dice.md).
SECOND_DIGIT_NET_PATH = Path(__file__).with_name("digit_faces_2.npz")


@lru_cache(maxsize=1)
def digit_net() -> FaceNet:
    """The shipped digit-face classifier, loaded once, on first use."""
    return load_checked(DIGIT_NET_PATH)


@lru_cache(maxsize=1)
def second_digit_net() -> FaceNet:
    """The second digit-face classifier (a second opinion at the first one's window)."""
    return load_checked(SECOND_DIGIT_NET_PATH)


def quarter_turns(rows: Matrix) -> Matrix:
    """Feature rows of canonical patches -> the same patches at four quarter
    turns: (4 * N, features), turn k (``np.rot90`` k times) in block k."""
    patches = rows.reshape(len(rows), CANON_PX, CANON_PX)
    turned = [np.rot90(patches, k, axes=(1, 2)).reshape(len(rows), -1) for k in range(4)]
    return np.ascontiguousarray(np.concatenate(turned), dtype=np.float32)


@dataclass(frozen=True)
class AllTurns:
    """A digit classifier as the search's ``WindowScorer``: a window's value
    probability is its best over the window's four quarter turns (the search
    steps over one quarter turn only; a digit reads at one turn of four)."""

    net: FaceNet

    @property
    def classes(self) -> int:
        return self.net.classes

    def probabilities(self, rows: Matrix) -> Matrix:
        n = len(rows)
        probs = self.net.probabilities(quarter_turns(rows)).reshape(4, n, -1)
        out = probs.max(axis=0)
        out[:, NO_FACE] = probs[:, :, NO_FACE].min(axis=0)
        return np.asarray(out, np.float32)


@dataclass(frozen=True)
class DigitFace:
    """The searched face, turned so its digit stands upright, and how the other turns read."""

    face: NetFace  # value, probability (upright), rival, place, from_centre; angle upright
    #: The value's highest probability at the window's other three quarter turns.
    other_turns: float


def search_digit(gray: FloatImage, fraction: float, net: FaceNet, span_radii: float) -> DigitFace:
    """The most certain upright digit in the middle of a dome crop *gray* (float)."""
    found = search_face(gray, fraction, AllTurns(net), span_radii)
    if found.value == NO_FACE:
        return DigitFace(found, 1.0)
    die = fraction * float(min(gray.shape[:2]))
    patches = np.stack([canonical_patch(gray, found.x, found.y, found.angle_deg + 90.0 * k, die)
                        for k in range(4)])
    probs = net.probabilities(features(patches))
    k = int(np.argmax(probs[:, found.value]))
    others = [float(probs[j, found.value]) for j in range(4) if j != k]
    upright = NetFace(found.value, float(probs[k, found.value]), found.rival, found.x, found.y,
                      (found.angle_deg + 90.0 * k) % 360.0, found.from_centre, 1.0)
    return DigitFace(upright, max(others))


@dataclass(frozen=True)
class DigitAcceptance:
    """When the digit classifier's face is announced.

    Set on development digit dice only (seeds 700000-701199, every state,
    the renderer's default font, which the classifiers never saw; faces
    learned as the benchmark learns them): docs/vision-dice.md, "Digit dice:
    a learned digit classifier". At the pip reader's rival limit (0.98) the
    shipped pair gave 4 wrong values in 1,200 frames: two hands over the
    dome leaving part of the die in view (another value at 0.93-0.94
    elsewhere in the dome) and two blurred flat dice (a 5 read as 3, a 2 as
    6; rivals 0.905 and 0.901). A rival limit of 0.9 refuses all four, the
    blurred ones with almost no margin (0.88 costs 17 of 852 right reads;
    not taken, see the doc). The second classifier's opinion
    (``min_second``) and the learned faces' (``max_learned_gap``): see the doc.
    Session 13 (on 700000-701199, 702000-703199 and 740000-743599): the
    floor on the marks' contrast (``min_marks``) and the hand check
    (``max_foreign``), which took the wrong values on those 6,000 frames
    from 24 to 3 (the learned faces alone: 6).
    """

    min_probability: float = 0.99
    #: The same value at the window's other quarter turns, at most this probable
    #: (a digit stands upright at one turn; a blob reading "some digit" at every
    #: turn is no digit).
    max_other_turns: float = 0.5
    zone: float = 0.39  # dome radii from the centre, as for pip dice
    #: No other value may reach this probability in any window (any turn).
    max_rival: float = 0.9
    #: The second classifier's probability of the value at the same upright window.
    min_second: float = 0.9
    #: The learned face of the value must match the window's middle within this
    #: much correlation of the best-matching learned face (0: it must be the best).
    max_learned_gap: float = 0.15
    #: The digit's marks must be this much darker than the face around them
    #: (:func:`marks_contrast`): a blurred or hazed face the features' contrast
    #: normalisation blows up into a sure digit is not read.
    min_marks: float = 0.35
    #: No value at all (from the classifier or the learned faces) while more
    #: than this share of the dome's inside is not the dome's colour
    #: (``hands.foreign_share``): a hand reaching into the dome.
    max_foreign: float = 0.2
    #: Session 15b: a face the classifier found but was not sure enough of
    #: (its probability, its other quarter turns, a rival or the second
    #: classifier refused it) is read again at the same upright window by
    #: the convolutional digit reader (``facecnn.digit_cnn``): announced when
    #: it gives the value at least ``min_cnn`` upright and at most
    #: ``max_cnn_other_turns`` at each other quarter turn, the classifier
    #: gives it at least ``min_again`` there, no other value reaches
    #: ``max_rival_again`` anywhere in the dome, and every check of the image
    #: above passes (the zone, the marks' contrast, the learned faces), with
    #: no hand in the dome by either sign of ``hands.py`` (colour at most
    #: ``max_foreign_again``, darkness at most ``max_dark_again``).
    #: Chosen on development frames 702000-703199 and 740000-741799: at 0.95
    #: upright three flat 5s and 6s were given a wrong value (0.951-0.976),
    #: at 0.99 none; without the rival limit a wrong value at 0.994. On
    #: 700000-701199 and 741800-743599 (not looked at while choosing): 1377
    #: -> 1533 of 2205 settled dice in view read right, no wrong value added.
    #: docs/vision-dice.md, "Session 15b: digit dice".
    min_cnn: float = 0.99
    max_cnn_other_turns: float = 0.05
    min_again: float = 0.5
    max_rival_again: float = 0.99
    max_foreign_again: float = 0.1
    max_dark_again: float = 0.3

    def sure_of(self, digit: DigitFace) -> bool:
        face = digit.face
        return (
            face.value != NO_FACE
            and face.probability >= self.min_probability
            and digit.other_turns <= self.max_other_turns
            and face.from_centre <= self.zone
            and face.rival < self.max_rival
        )

    def worth_reading_again(self, digit: DigitFace) -> bool:
        """The classifier's face may go to the convolutional reader (when its own rule refused it)."""
        face = digit.face
        return (
            face.value != NO_FACE
            and face.probability >= self.min_again
            and face.from_centre <= self.zone
            and face.rival < self.max_rival_again
        )


DIGIT_ACCEPT = DigitAcceptance()


def patch_as_window(patch: NDArray[np.uint8], angle_deg: float = 0.0) -> FloatImage:
    """A learned face patch (``templates.PATCH_PX``, the face edge to edge) as a
    canonical window, turned by *angle_deg*: the face scaled to its canonical
    size, the margin filled by repeating the face's border (a calibration
    patch has no margin)."""
    n = patch.shape[0]
    side = int(round(n * CANON_SPAN))
    pad = (side - n) // 2
    framed = cv2.copyMakeBorder(patch.astype(np.float32), pad, side - n - pad, pad, side - n - pad,
                                cv2.BORDER_REPLICATE)
    if angle_deg:
        m = cv2.getRotationMatrix2D(((side - 1) / 2.0, (side - 1) / 2.0), angle_deg, 1.0)
        framed = cv2.warpAffine(framed, m, (side, side), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    out = cv2.resize(framed, (CANON_PX, CANON_PX), interpolation=cv2.INTER_AREA)
    return np.asarray(out, np.float32)


#: The net must read each learned face as its own value at least this surely
#: (at the best turn) for the net to read that die.
MIN_KNOWN = 0.5
#: Turns tried to stand a learned face upright: a calibration patch is cut
#: upright only up to a quarter turn, and its turn may be off by 20 degrees
#: or more (the template finder's place and turn on one frame).
KNOWN_TURNS = np.arange(-45.0, 45.0, 5.0)
#: Trimmed from each side of the face for the confirmation (as ``learned_search``).
INNER_TRIM_PX = 2


def _face_middle(windows: FloatImage) -> Matrix:
    """The middles of canonical windows (the face less ``INNER_TRIM_PX`` a side), normalised rows."""
    lo = (CANON_PX - FACE_PX) // 2 + INNER_TRIM_PX
    hi = lo + FACE_PX - 2 * INNER_TRIM_PX
    rows = np.asarray(windows[:, lo:hi, lo:hi], np.float32).reshape(len(windows), -1)
    rows = rows - rows.mean(axis=1, keepdims=True)
    norm = np.sqrt(np.einsum("ij,ij->i", rows, rows))[:, None] + 1e-3
    return np.asarray(rows / norm, np.float32)


#: A face side in canonical patch pixels, of the patch's parity (as ``learned_search.FACE_PX``).
FACE_PX = CANON_PX - 2 * int(round((CANON_PX - CANON_PX / CANON_SPAN) / 2))


@dataclass(frozen=True)
class LearnedDigits:
    """A die's six calibration faces as the digit classifier sees them.

    ``known``: the classifier reads every face as its own value at some
    turn (at least ``MIN_KNOWN``); a die whose digits it does not know
    (another font, unlike any it was trained on; a pip die learned as
    faces) is then not read by the classifier at all. ``middles``: each
    face turned so the classifier reads its digit upright, its middle as a
    normalised row (value v in row v - 1), to confirm the classifier's
    value at a window.
    """

    known: bool
    middles: Matrix  # (6, (FACE_PX - 2 * INNER_TRIM_PX) ** 2)
    #: The classifier's probability of each face's own value, upright.
    sureness: tuple[float, ...]

    @classmethod
    def of(cls, patches: Mapping[int, NDArray[np.uint8]], net: FaceNet) -> LearnedDigits:
        if sorted(patches) != list(range(1, 7)):
            return cls(False, np.zeros((0, 0), np.float32), ())
        uprights, sure, known = [], [], True
        for value in range(1, 7):
            turned = np.stack([np.rot90(patch_as_window(patches[value], float(a)), k)
                               for a in KNOWN_TURNS for k in range(4)])
            probs = net.probabilities(features(turned))
            best = int(np.argmax(probs[:, value]))
            uprights.append(turned[best])
            sure.append(float(probs[best, value]))
            # Known: its own value read surely, and no other value more surely anywhere.
            known &= sure[-1] >= MIN_KNOWN and float(np.delete(probs[:, 1:], value - 1, axis=1).max()) < sure[-1]
        return cls(known, _face_middle(np.stack(uprights)), tuple(sure))


def learned_gap(gray: FloatImage, face: NetFace, die_px: float, learned: LearnedDigits) -> float:
    """How much less the learned face of *face*'s value, upright, correlates with
    the middle of the classifier's upright window than the best-matching learned
    face does (0 when it is the best; over a small jitter of place and turn)."""
    windows = []
    for da in (-4.0, 0.0, 4.0):
        for dx in (-0.6, 0.0, 0.6):
            for dy in (-0.6, 0.0, 0.6):
                ox, oy = to_crop_offset(dx, dy, face.angle_deg, die_px)
                windows.append(canonical_patch(gray, face.x + ox, face.y + oy, face.angle_deg + da, die_px))
    corr = (_face_middle(np.stack(windows)) @ learned.middles.T).max(axis=0)
    return float(corr.max() - corr[face.value - 1])


def second_opinion(gray: FloatImage, face: NetFace, die_px: float, net: FaceNet) -> float:
    """*net*'s probability of *face*'s value at *face*'s upright window."""
    patch = canonical_patch(gray, face.x, face.y, face.angle_deg, die_px)
    return float(net.probabilities(features(patch[None]))[0, face.value])


def marks_contrast(gray: FloatImage, face: NetFace, die_px: float) -> float:
    """How much darker the digit's marks are than the face around them, at the
    classifier's window: (90th - 10th percentile) / 90th percentile of the
    face's middle (the face less ``INNER_TRIM_PX`` a side)."""
    patch = canonical_patch(gray, face.x, face.y, face.angle_deg, die_px)
    lo = (CANON_PX - FACE_PX) // 2 + INNER_TRIM_PX
    hi = lo + FACE_PX - 2 * INNER_TRIM_PX
    p10, p90 = np.percentile(patch[lo:hi, lo:hi], (10, 90))
    return float((p90 - p10) / max(float(p90), 1.0))


def read_digit(gray: FloatImage, fraction: float, learned: LearnedDigits,
               nets: tuple[FaceNet, FaceNet] | None = None,
               accept: DigitAcceptance = DIGIT_ACCEPT,
               crop_bgr: NDArray[np.uint8] | None = None,
               cnn: FaceCNN | None = None) -> DieReading | None:
    """A settled reading when the digit classifier knows this die's digits
    (*learned*), is sure of a face, the second classifier agrees, and the
    learned faces do not contradict its value at that window
    (:func:`learned_gap`); or, given the colour crop *crop_bgr* (for the
    hand check), when the convolutional reader reads the same window surely
    (:func:`read_again`); None otherwise (the caller reads on as before the
    classifier)."""
    if not learned.known:
        return None
    first, second = nets or (digit_net(), second_digit_net())
    digit = search_digit(gray, fraction, first, DOME_SPAN_RADII)
    face = digit.face
    die_px = fraction * float(min(gray.shape[:2]))
    if (accept.sure_of(digit) and _image_agrees(gray, face, die_px, learned, accept)
            and second_opinion(gray, face, die_px, second) >= accept.min_second):
        return DieReading("settled", face.value, round(min(1.0, face.probability), 3))
    if crop_bgr is None:
        return None
    again = read_again(crop_bgr, gray, digit, die_px, learned, accept, cnn or digit_cnn())
    if again is None:
        return None
    return DieReading("settled", face.value, round(min(1.0, again), 3))


def _image_agrees(gray: FloatImage, face: NetFace, die_px: float, learned: LearnedDigits,
                  accept: DigitAcceptance) -> bool:
    """The digit's marks are clear and the learned faces do not contradict the value."""
    return (marks_contrast(gray, face, die_px) >= accept.min_marks
            and learned_gap(gray, face, die_px, learned) <= accept.max_learned_gap)


def read_again(crop_bgr: NDArray[np.uint8], gray: FloatImage, digit: DigitFace, die_px: float,
               learned: LearnedDigits, accept: DigitAcceptance, cnn: FaceCNN) -> float | None:
    """The convolutional reader's probability of the classifier's value at its
    upright window, when that is enough to announce it
    (``DigitAcceptance.min_cnn`` and the checks there); else None. Cheapest
    checks first (the caller asks only where the classifier's own rule refused)."""
    if not accept.worth_reading_again(digit):
        return None
    face = digit.face
    patch = canonical_patch(gray, face.x, face.y, face.angle_deg, die_px)
    probs = cnn.at_quarter_turns(patch)[:, face.value]
    if probs[0] < accept.min_cnn or float(probs[1:].max()) > accept.max_cnn_other_turns:
        return None
    if not _image_agrees(gray, face, die_px, learned, accept):
        return None
    foreign = foreign_share(crop_bgr, DOME_SPAN_RADII)
    dark = dark_share(crop_bgr, DOME_SPAN_RADII)
    if foreign is None or foreign > accept.max_foreign_again or dark is None or dark > accept.max_dark_again:
        return None
    return float(probs[0])
