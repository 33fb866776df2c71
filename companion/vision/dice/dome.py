"""Read the die inside the Pop-O-Matic dome from a rectified top-down crop.

The crop convention (the board reader produces it; see ``docs/vision-dice.md``):
a square image centred on the dome's centre, spanning ``DOME_SPAN_RADII``
dome radii across (the whole dome and a margin for parallax), warped from
the board's plane at the height of the die's top face (``z = die size``) and
free of lens distortion. In that crop a flat die's top face is a square of
known size, ``fraction`` of the crop's side, whatever the camera's tilt:
knowing the scale is what lets the reader match whole faces instead of
counting blobs, and ignore the side faces, the board's holes and the glare.

The reading is deliberately cautious: a value is given only when the best
face matches well, its marks are clearly darker than the face, and no other
value comes close. Anything less is ``hidden`` (hand, glare, blur): the time
layer waits for a better frame rather than announcing a wrong pop.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import upright_region
from companion.vision.dice.face_search import NetFace, search_face, turned_probability
from companion.vision.dice.facecnn import pip_cnn
from companion.vision.dice.facenet import NO_FACE, first_net, pip_net
from companion.vision.dice.glare import pip_lost_in_glare
from companion.vision.dice.grid import (
    GridReading,
    cell_darkness,
    face_patch,
    read_grid,
    search_grid,
)
from companion.vision.dice.hands import dark_share, foreign_share
from companion.vision.dice.leaning import RING, find_leaning
from companion.vision.dice.matching import (
    FaceMatch,
    FacePlace,
    FloatImage,
    blank_face,
    busy_places,
    find_faces,
    interior,
    pip_face,
    read_face,
)
from companion.vision.dice.photo import to_gray
from companion.vision.dice.reading import DieReading

#: The crop spans this many dome radii (centred on the dome's centre).
DOME_SPAN_RADII = 2.4
#: The classic board's die (15 mm) over the crop's side (2.4 x 38 mm).
DEFAULT_DIE_FRACTION = 15.0 / (DOME_SPAN_RADII * 38.0)
#: The die's side in pixels when searching (coarse) and when reading (fine).
SEARCH_DIE_PX = 12
#: Places where the coarse search found something face-like, read finely in turn.
CANDIDATES = 3
#: ... and the places busiest with edges (the die when its pips are faint).
BUSY_CANDIDATES = 2
READ_DIE_PX = 26


@dataclass(frozen=True)
class Acceptance:
    """When a match is good enough to announce.

    Tuned on rendered development frames (seeds 30000-30399 and 40000-40299,
    never the benchmark's) for about one wrong value in 200 settled frames,
    at the cost of reading only about a third of them: the time layer sees a
    settled die in many frames, and a wrong pop is far worse than a late one.
    """

    min_score: float = 0.4  # normalised cross-correlation of the best face
    min_contrast: float = 0.25  # its marks at least this much darker than the face
    min_margin: float = 0.06  # over the best other value
    #: A die seen this far from the dome's centre (in dome radii) leans on the wall.
    wall_zone: float = 0.47
    #: ... seen means a face matched at least this well with dark marks.
    min_seen: float = 0.4
    #: A weaker match is still announced when its pip places, sampled
    #: (``grid.py``), show the same value with at least this gap between the
    #: faintest pip and the darkest empty place ...
    min_grid_gap: float = 0.15
    #: ... and it lies this near the dome's centre (dome radii; flat dice rest
    #: within about 0.35, a face seen further out is more likely a leaning one).
    grid_zone: float = 0.4
    #: ... or, where the match's own place shows no such layout, when one
    #: near it does (``search_grid``) with at least this gap.
    min_search_gap: float = 0.18
    #: A value is announced only from a face this near the dome's centre
    #: (dome radii); a face between this and ``wall_zone`` is hidden. No
    #: limit for pip faces (their template reader gives no values now).
    read_zone: float = math.inf


ACCEPT = Acceptance()
#: Learned faces (digits) resemble each other more than pip layouts do (a 3
#: and a 5, a 6 and a 9, a blurred 2 or 3 and a 6): they must match well,
#: with clearly dark marks, beat every other value, and lie where a flat die
#: rests (within about 0.35 dome radii, as for the pip classifier). Chosen on
#: development frames 700000-700399 (digit dice, every state): 50 settled
#: dice read right and no wrong value (0.55 / 0.3 / no zone: 58 right, 4
#: wrong); confirmed on 700400-700799: 38 right, 1 wrong, a hand-covered die
#: (before: 45 right, 5 wrong). See docs/vision-dice.md, "Learned faces".
ACCEPT_LEARNED = Acceptance(min_score=0.58, min_contrast=0.45, min_margin=0.05, read_zone=0.4)


def die_fraction(die_size_mm: float, dome_radius_mm: float) -> float:
    """The die's side over the crop's side, for a board's die and dome sizes."""
    return die_size_mm / (DOME_SPAN_RADII * dome_radius_mm)


@lru_cache(maxsize=8)
def _pip_faces(size: int) -> Mapping[int, FloatImage]:
    return {v: pip_face(v, size) for v in range(1, 7)}


def _interiors(faces: Mapping[int, FloatImage]) -> Mapping[int, FloatImage]:
    return {v: interior(f) for v, f in faces.items()}


#: A digit's width over the face's side, roughly: the mark a generic face has.
MARK_WIDTH = 0.4


@lru_cache(maxsize=8)
def generic_face(size: int) -> Mapping[int, FloatImage]:
    """A face with one central mark, standing for any face not known in advance."""
    return {0: blank_face(size, mark=MARK_WIDTH)}


def read_die_in_dome(
    crop_bgr: NDArray[np.uint8],
    fraction: float = DEFAULT_DIE_FRACTION,
    faces: Mapping[int, Mapping[int, FloatImage]] | None = None,
    seen_px: float | None = None,
    away: tuple[float, float] | None = None,
) -> DieReading:
    """The die's state and value from a rectified dome crop (see the module doc).

    *faces*, when given, maps a die size in pixels to that size's face
    images (``FaceTemplates.faces()``, see :class:`companion.vision.dice.FaceTemplates`),
    judged by the stricter ``ACCEPT_LEARNED``; by default the six standard
    pip faces are used. With *faces* this is the template finder alone,
    kept for the stable API: learned faces are read in play by
    ``FaceTemplates.read``, which adds the thorough search and the value
    check and announces fewer wrong values (docs/vision-dice.md, "Faces
    learned by the camera in play"); use that.

    *seen_px*, when the caller knows it, is the die's width in the camera's
    own pixels: a die seen small is no surer than the convolutional reader's
    agreement with its value (``NetAcceptance.small_die_px``). None: as a
    die seen large.

    *away*, when the caller knows the camera, is the unit direction in the
    crop from the camera's foot on the board to the die: a value read on a
    face with another face beyond it that way may be a side face's
    (:func:`top_face_beyond`), and is no surer than ``BEYOND_CONFIDENCE``.
    """
    if faces is not None:
        return judge(match_in_dome(crop_bgr, fraction, faces), ACCEPT_LEARNED, fraction)
    learned = read_by_classifier(crop_bgr, fraction, seen_px=seen_px, away=away)
    if learned.state == "settled":
        return learned
    # The classifier saw no flat face it is sure of: a die leaning on the
    # wall is cocked, anything else hidden (docs/vision-dice.md, "Cocked: a
    # leaning-die classifier").
    return leaning_or(learned, to_gray(crop_bgr).astype(np.float32), fraction)


#: A leaning die is announced (``cocked``) when its window is at least this
#: probable. Set on development frames 150000-153599 (see docs/vision-dice.md).
MIN_LEANING = 0.998
#: On the searched ring's innermost circle (``INNER_RING`` dome radii) a flat
#: die's edge can fill the window, so a leaning die found there must be at
#: least this probable. Session 28: in 48 fresh whole rendered games at
#: 640x480, 10 of 12 "tap the Pop-O-Matic" reports were flat dice, small
#: and washed out, the classifier unsure of their face, found leaning at
#: 0.5 radii at 0.9991-0.9995; each lost a pop (in seed 318 the turns ran
#: one behind and two right moves were called). On development frames at
#: 640x480, 17 of 185 leaning dice found were found there, 14 of them at
#: 0.9998 or more (docs/vision-dice.md, "Session 28").
MIN_LEANING_INNER = 0.9998
INNER_RING = RING[0]


def leaning_or(reading: DieReading, gray: FloatImage, fraction: float) -> DieReading:
    """``cocked`` when a die leans on the wall of the dome crop *gray*, else *reading*."""
    lean = find_leaning(gray, fraction, DOME_SPAN_RADII)
    bar = MIN_LEANING_INNER if lean.from_centre <= INNER_RING + 1e-6 else MIN_LEANING
    if lean.probability >= bar:
        return DieReading.unreadable("cocked", _clip(lean.probability))
    return reading


@dataclass(frozen=True)
class NetAcceptance:
    """When the learned classifier's face is announced.

    First tuned on development frames 700000-701199 (pip dice), never on
    the benchmark's: at 0.99, 90.4% of the settled pip dice in view read
    right and 1 of 676 wrong; with the quarter-turn check as well, 89.9% and
    none wrong (0.97 alone: 92.3% and 7 wrong).

    Since the classifier was retrained with 640x480 frames under glare, set
    again on more development frames (700000-712199, pip dice, every state;
    and the first 600 frames of whole rendered games 0-11, 640x480): a face
    is also refused when a pip place of its value is saturated
    (``glare.py``), when some other value was almost as sure somewhere in
    the dome (``max_rival``) or when its other quarter turns read less
    surely (``min_turned`` 0.8, was 0.5), or when the first classifier
    doubts the value at that window (``min_second``). On 704200-712199
    (6010 settled pip dice in view) that reads 87.1% right and 1 wrong; the
    first classifier with the old rule read 89.1% and 10 wrong. On the
    whole games: 4166 of 5252 settled frames right (4014 before), none
    wrong. See docs/vision-dice.md, "Small dice under glare".
    """

    min_probability: float = 0.99
    #: The same value at the best window's other quarter turns, at least this probable.
    min_turned: float = 0.8
    #: A flat die rests within about 0.35 dome radii of the centre (its face
    #: is read up to 0.384 on development frames). 0.39 since session 11: at
    #: 0.4 the leaning dice given a value on development frames (3 of 912 at
    #: 1280x720) and 3 of the 24 hands on the dome given a wrong value were
    #: read 0.39-0.40 out; 0.39 refuses them and no right read of 12,799
    #: settled development dice (0.38 costs 3, 0.37 costs 15).
    #: docs/vision-dice.md, "A zone of 0.39".
    zone: float = 0.39
    #: No other value may reach this probability in any window of the dome's
    #: middle (a glare-cut face often looks like two values at two places).
    max_rival: float = 0.98
    #: The first classifier (``first_net``) must give the value at least this
    #: probability at the same window, at each quarter turn.
    min_second: float = 0.1
    #: A 2 or a 4 is what a 3 or a 5 looks like when glare washes out its
    #: centre pip without saturating it: the wrong values seen (one in about
    #: 9,000 development dice; whole rendered game seed 16 at 640x480, a 3
    #: read as 2 at 0.991, a false "illegal move") were all that. These two
    #: values need this probability. On 640x480 glare development frames
    #: (124000-125199) it costs 15 of 627 right reads; kept whole games:
    #: docs/vision-dice.md, "A washed-out centre pip".
    centreless: frozenset[int] = frozenset({2, 4})
    min_centreless: float = 0.995
    #: Session 14: a face of another value (1, 3, 5, 6) the classifier is
    #: only *nearly* sure of (at least ``min_nearly``) is announced too, when
    #: every other check passes as above, the first classifier agrees firmly
    #: (``min_second_nearly`` at each quarter turn instead of ``min_second``)
    #: and no hand is in the dome (``hands.foreign_share`` at most
    #: ``max_foreign_nearly``, ``hands.dark_share`` at most
    #: ``max_dark_nearly``). Of the settled pip dice in view the reader left
    #: unread on development frames, the largest share had the true value
    #: at the right place, at 0.9-0.99, every other check passed. A 2 or a 4
    #: keeps its bar (``min_centreless``): with it lowered, or with a weaker
    #: second opinion (0.5), fresh development frames gave new wrong values,
    #: 2s and 4s among them. docs/vision-dice.md, "Session 14".
    min_nearly: float = 0.9
    min_second_nearly: float = 0.9
    max_foreign_nearly: float = 0.2
    max_dark_nearly: float = 0.3
    #: Session 15: a face neither tier announces is read again, at the window
    #: the classifier located, by the convolutional reader (``facecnn.py``):
    #: announced when it gives the classifier's value at least ``min_cnn`` at
    #: each of the window's four quarter turns, the classifier's other
    #: measures pass (``plausible`` but for the quarter turns, which the
    #: second reader judges itself), no pip place is lost in glare, the first
    #: classifier does not doubt it (``min_second``) and no hand is in the
    #: dome (as for the nearly-sure tier, its colour test stricter:
    #: ``max_foreign_again``). Chosen on development frames (780000-781999,
    #: 785000-787299, 792500-793999): at 0.95 with the colour test at 0.2 a
    #: die under a finger read as 6 (0.96) was given its value; at 0.1 none.
    #: docs/vision-dice.md, "Session 15".
    min_cnn: float = 0.95
    max_foreign_again: float = 0.1
    #: Session 16: the second reader judges two of the classifier's refusals
    #: itself. A rival value elsewhere in the dome refuses its reading only
    #: from ``max_rival_again`` (the classifier's own ``max_rival`` is 0.98);
    #: and a face with a pip place lost in glare (``glare.py``) is read when
    #: the network gives its value at least ``min_cnn_glare`` at each quarter
    #: turn and the value has a centre pip (a 2 or a 4 is what a 3 or a 5
    #: looks like with its centre washed out: ``centreless`` stays refused).
    #: Chosen on development frames 780000-793999 (session 15's sets),
    #: confirmed on 797500-807999 and on 808000-819299 (rendered for session
    #: 16): no wrong value added.
    #: docs/vision-dice.md, "Session 16".
    max_rival_again: float = 0.995
    min_cnn_glare: float = 0.98
    #: Session 16: where the located window reads a value with a centre pip
    #: (not ``centreless``) at least ``min_cnn_located`` but under ``min_cnn``
    #: at some quarter turn, the network's probabilities averaged over that
    #: window and the four one patch pixel beside it
    #: (``FaceCNN.at_nudged_windows``) must reach ``min_cnn_nudged`` at each
    #: quarter turn instead. For any value, fresh development frames gave a
    #: 3 read as 2 (0.93 over the five windows, 809184): a 2 or a 4 keeps the
    #: one-window bar. 0.9, not the 0.85 chosen first, for a margin: the
    #: nearest wrong value there on 13,000 development dice read 0.825.
    #: docs/vision-dice.md, "Session 16".
    min_cnn_located: float = 0.7
    min_cnn_nudged: float = 0.9
    #: Session 17b: a 1 is what a 3, a 5 or a 6 looks like when its outer
    #: pips are lost (a small, blurred or washed-out die), as a 2 or a 4 is a
    #: 3 or a 5 without its centre. Four of six wrong values in 27 whole
    #: rendered games at 640x480 were such a 1 (the classifier's sure and
    #: nearly-sure tiers). A 1 is announced only when the convolutional
    #: reader gives it at least ``min_cnn_outerless`` at each quarter turn
    #: of the located window, in every tier: from the classifier's, and in
    #: the second reader's (its five nudged windows are averaged for a 1
    #: only from that floor, when above ``min_cnn_located``). On development
    #: frames (sessions 14-16's sets, 780000-819299): 3 of the 13 wrong
    #: values on settled dice in view refused (and 2 of 44 on dice a hand
    #: hides) for 26 of 12,742 right reads; none added; held out unchanged.
    #: docs/vision-dice.md, "Session 17b".
    outerless: frozenset[int] = frozenset({1})
    min_cnn_outerless: float = 0.9
    #: Session 22: a die the camera sees under ``small_die_px`` frame pixels
    #: wide (a 640x480 camera: 8-18 px; 1280x720: 13-24) is read from a crop
    #: the rectification blew up from a few pixels a pip, and a lost pip
    #: there is read at full confidence as another layout (held-out whole
    #: games at 640x480: a 5 read as 4, a 3 as 2, each at 1.0, and the move
    #: then called illegal; the convolutional reader gave the value read
    #: 0.004-0.04 at some quarter turn). Such a die's reading is no surer
    #: than the convolutional reader's least probability of its value over
    #: the quarter turns of the located window: under the loop's bar for a
    #: weak read, a move another value makes legal is asked about, not
    #: called. ``min_cnn_small`` refuses the read below it: 0.98 took wrong
    #: values on development dice at 640x480 from 12 to 2 of 5,077 read (and
    #: on fresh ones 5 to 0) for one right read in nine, but whole held-out
    #: games refereed worse (more pops unread: 2 -> 3 false calls and 6 -> 3
    #: games right in seeds 184-199), so it is not used (0).
    #: docs/vision-dice.md, "Session 22".
    small_die_px: float = 16.0
    min_cnn_small: float = 0.0

    def placed(self, face: NetFace, max_rival: float | None = None) -> bool:
        """A face was found where a flat die rests, and no other value rivals it
        (at least *max_rival*, by default ``max_rival``)."""
        limit = self.max_rival if max_rival is None else max_rival
        return face.value != NO_FACE and face.from_centre <= self.zone and face.rival < limit

    def plausible(self, face: NetFace) -> bool:
        """The classifier's measures of *face* other than its probability pass."""
        return self.placed(face) and face.turned >= self.min_turned

    def sure_of(self, face: NetFace) -> bool:
        """The classifier's own measures of *face* pass (the image checks are separate)."""
        bar = self.min_centreless if face.value in self.centreless else self.min_probability
        return self.plausible(face) and face.probability >= bar

    def nearly_sure_of(self, face: NetFace) -> bool:
        """As :meth:`sure_of` at the lower bar, for a value outside ``centreless``
        (the caller adds the firmer second opinion and the hand check)."""
        return (self.plausible(face) and face.value not in self.centreless
                and face.probability >= self.min_nearly)


NET_ACCEPT = NetAcceptance()


def read_by_classifier(
    crop_bgr: NDArray[np.uint8], fraction: float = DEFAULT_DIE_FRACTION,
    accept: NetAcceptance = NET_ACCEPT, seen_px: float | None = None,
    away: tuple[float, float] | None = None,
) -> DieReading:
    """Settled with a value when the learned classifier finds a face it is sure of, else hidden.

    *seen_px*, when known, is how many pixels wide the camera sees the die
    (``NetAcceptance.small_die_px``): a small die's confidence is no more
    than the convolutional reader's agreement with its value. *away*: see
    :func:`read_die_in_dome`."""
    if not 0.02 <= fraction <= 0.5:
        raise ValueError(f"die fraction {fraction} is not plausible (expected 0.02..0.5)")
    gray = to_gray(crop_bgr).astype(np.float32)
    face = search_face(gray, fraction, pip_net(), DOME_SPAN_RADII)
    reading = _read_face(crop_bgr, gray, face, fraction, accept, seen_px)
    if (away is not None and reading.state == "settled" and reading.confidence > BEYOND_CONFIDENCE
            and top_face_beyond(gray, face, fraction, away)):
        return DieReading("settled", reading.value, BEYOND_CONFIDENCE)
    return reading


#: A value read with another face beyond it (:func:`top_face_beyond`) is no
#: surer than this: under the referee's bar for a weak read, a move of
#: another value is asked about, not called.
BEYOND_CONFIDENCE = 0.9
#: The convolutional reader's least probability (over the quarter turns) of
#: some value, beyond the face read, that makes it "another face". Right
#: reads of development dice at 640x480 (380, seeds 5000-5599) gave at most
#: 0.20 there; a side face read in two fresh whole games, 0.999 and 0.19
#: (that one's top face washed out: see ``BEYOND_GLARE``).
FACE_BEYOND = 0.5
#: Or the square beyond is near white (mean grey at least this, 0-255) and
#: that much brighter than the face read: a top face lost in glare (1 of the
#: 380 right reads above).
BEYOND_GLARE = 245.0
BEYOND_BRIGHTER = 100.0


def top_face_beyond(gray: FloatImage, face: NetFace, fraction: float, away: tuple[float, float]) -> bool:
    """Whether the classifier's *face* in *gray* has another die face
    one die width beyond it, away from the camera (*away*, a unit vector in
    the crop). A camera well off the vertical sees a side face next to the
    top face, on its own side; rectified onto the top face's plane at
    about 45 degrees that side face is as square as the top face, and the
    classifier read its pips (fresh whole games at 640x480: a 2 read as 3,
    a 1 as 3, both at 0.999, the top face beside it faint or washed out,
    and the moves called). Beyond a real top face lies the dome's floor."""
    if face.value == NO_FACE:
        return False
    die = fraction * float(min(gray.shape[:2]))
    bx, by = face.x + die * away[0], face.y + die * away[1]
    n = min(gray.shape[:2])
    if not (die <= bx <= n - die and die <= by <= n - die):
        return False  # beyond the crop: no face can lie there
    beyond = _located(gray, replace(face, x=bx, y=by), fraction)
    if float(beyond[:, 1:].min(axis=0).max()) >= FACE_BEYOND:
        return True
    far, here = _square_mean(gray, bx, by, die), _square_mean(gray, face.x, face.y, die)
    return far >= BEYOND_GLARE and far - here >= BEYOND_BRIGHTER


def _square_mean(gray: FloatImage, x: float, y: float, die: float) -> float:
    """The mean grey of the middle of a die-sized square centred at (*x*, *y*)."""
    h = 0.35 * die
    return float(gray[int(round(y - h)):int(round(y + h)), int(round(x - h)):int(round(x + h))].mean())


class _Located:
    """The window the classifier located *face* in, as the second readers see
    it: the upright region (reach 1) and the convolutional reader's
    probabilities at its four quarter turns, the first classifier's lowest
    probability of the value there and whether a pip place is lost in glare.
    Each is worked out on first use and kept: one die read asks for them up
    to three times (:func:`_read_face`, :func:`_announced`, :func:`read_again`),
    and they depend on nothing but the crop, the face and the fraction."""

    def __init__(self, gray: FloatImage, face: NetFace, fraction: float) -> None:
        self.gray, self.face, self.fraction = gray, face, fraction
        self.die = fraction * float(min(gray.shape[:2]))
        self._region: FloatImage | None = None
        self._probs: NDArray[np.float32] | None = None
        self._second: float | None = None
        self._glare: bool | None = None

    @property
    def region(self) -> FloatImage:
        if self._region is None:
            face = self.face
            self._region = upright_region(self.gray, face.x, face.y, face.angle_deg, self.die, 1)
        return self._region

    @property
    def probs(self) -> NDArray[np.float32]:
        """``pip_cnn().at_quarter_turns`` of the located window (float32)."""
        if self._probs is None:
            self._probs = pip_cnn().at_quarter_turns(self.region[1:-1, 1:-1])
        return self._probs

    def least(self, value: int) -> float:
        """The convolutional reader's lowest probability of *value* over the quarter turns."""
        return float(self.probs[:, value].min())

    @property
    def second(self) -> float:
        """:func:`turned_probability` of the face by the first classifier."""
        if self._second is None:
            self._second = turned_probability(self.gray, self.face, self.fraction, first_net())
        return self._second

    @property
    def glare(self) -> bool:
        """:func:`pip_lost_in_glare` at the face."""
        if self._glare is None:
            face = self.face
            self._glare = pip_lost_in_glare(self.gray, face.x, face.y, face.angle_deg, self.die, face.value)
        return self._glare


def _read_face(
    crop_bgr: NDArray[np.uint8], gray: FloatImage, face: NetFace, fraction: float, accept: NetAcceptance,
    seen_px: float | None,
) -> DieReading:
    """:func:`read_by_classifier`'s reading of the classifier's *face*."""
    small = seen_px is not None and seen_px < accept.small_die_px
    window = _Located(gray, face, fraction)
    # A small die's reading is no surer than the convolutional reader's
    # agreement: a read under the loop's bar for a weak read lets a move of
    # another value be asked about rather than called (``Loop._weak_read_misread``).
    agreed = window.least(face.value) if small and face.value != NO_FACE else 1.0
    if small and agreed < accept.min_cnn_small:
        return DieReading.unreadable("hidden", _clip(max(face.probability, 0.0)))
    if _announced(crop_bgr, gray, face, fraction, accept, window) and (
            face.value not in accept.outerless
            or (agreed if small else window.least(face.value))
            >= accept.min_cnn_outerless):
        return DieReading("settled", face.value, _clip(min(face.probability, agreed)))
    again = read_again(crop_bgr, gray, face, fraction, accept, window)
    if again is not None:
        return DieReading("settled", face.value, _clip(min(again, agreed)))
    return DieReading.unreadable("hidden", _clip(max(face.probability, 0.0)))


def read_again(crop_bgr: NDArray[np.uint8], gray: FloatImage, face: NetFace, fraction: float,
               accept: NetAcceptance = NET_ACCEPT, window: _Located | None = None) -> float | None:
    """The convolutional reader's lowest probability of *face*'s value over
    the four quarter turns of the window the classifier located (or, where
    that is under ``NetAcceptance.min_cnn``, of its average over the window
    and the four beside it), when that is enough to announce it
    (``NetAcceptance.min_cnn`` and the checks there); else None. Cheapest
    checks first: most frames stop at the classifier's own measures or at
    the four patches' read. *window*: that window's measures when the
    caller already has some (:class:`_Located`, of the same *gray*, *face*
    and *fraction*)."""
    if not accept.placed(face, accept.max_rival_again):
        return None
    if window is None:
        window = _Located(gray, face, fraction)
    located = window.probs
    p = float(located[:, face.value].min())
    if p < accept.min_cnn:
        floor = accept.min_cnn_located
        if face.value in accept.outerless:
            floor = max(floor, accept.min_cnn_outerless)
        if face.value in accept.centreless or p < floor:
            return None
        p = float(pip_cnn().at_nudged_windows(window.region, located)[:, face.value].min())
        if p < accept.min_cnn_nudged:
            return None
    if (face.value in accept.centreless or p < accept.min_cnn_glare) and window.glare:
        return None
    if window.second < accept.min_second:
        return None
    return p if no_hand(crop_bgr, accept, accept.max_foreign_again) else None


def _located(gray: FloatImage, face: NetFace, fraction: float) -> NDArray[np.float64]:
    """The convolutional reader's probabilities (quarter turns x values) at
    the window the classifier located *face* in."""
    return np.asarray(_Located(gray, face, fraction).probs, dtype=np.float64)


def _announced(crop_bgr: NDArray[np.uint8], gray: FloatImage, face: NetFace, fraction: float,
               accept: NetAcceptance, window: _Located | None = None) -> bool:
    """Whether the classifier's *face* in the dome crop may be announced
    (``NetAcceptance``: sure, or nearly sure with a firm second opinion and
    no hand in the dome; never with a pip place lost in glare). *window*: as
    for :func:`read_again`."""
    sure = accept.sure_of(face)
    if not sure and not accept.nearly_sure_of(face):
        return False
    if window is None:
        window = _Located(gray, face, fraction)
    if window.glare:
        return False
    second = window.second
    if sure and second >= accept.min_second:
        return True
    return second >= accept.min_second_nearly and no_hand(crop_bgr, accept)


def no_hand(crop_bgr: NDArray[np.uint8], accept: NetAcceptance = NET_ACCEPT,
            max_foreign: float | None = None) -> bool:
    """No hand in the dome crop by either of ``hands.py``'s signs, its colour
    (at most *max_foreign*, by default ``accept.max_foreign_nearly``) or its
    darkness (a grey crop cannot show one: False)."""
    foreign = foreign_share(crop_bgr, DOME_SPAN_RADII)
    dark = dark_share(crop_bgr, DOME_SPAN_RADII)
    limit = accept.max_foreign_nearly if max_foreign is None else max_foreign
    return (foreign is not None and foreign <= limit
            and dark is not None and dark <= accept.max_dark_nearly)


def read_by_templates(
    crop_bgr: NDArray[np.uint8], fraction: float = DEFAULT_DIE_FRACTION
) -> DieReading:
    """The template reader with its pip-place second opinion (before the classifier)."""
    match, fine = match_with_image(crop_bgr, fraction, None)
    grid = None if match is None else grid_at(fine, match)
    if (
        match is not None
        and grid is not None
        and not _grid_agrees(match, grid, ACCEPT.min_grid_gap)
    ):
        near = search_grid(fine, match.place, READ_DIE_PX)
        if _grid_agrees(match, near, ACCEPT.min_search_gap):
            # Judged like a grid at the match's own place, at the higher bar.
            grid = GridReading(near.value, ACCEPT.min_grid_gap, near.runner_up)
    return judge(match, ACCEPT, fraction, grid)


def _grid_agrees(match: FaceMatch, grid: GridReading, gap: float) -> bool:
    return grid.value == match.value and grid.gap >= gap


def grid_at(fine: FloatImage, match: FaceMatch) -> GridReading:
    """The pip places sampled on the matched face (in the reading image *fine*)."""
    return read_grid(*cell_darkness(face_patch(fine, match.place, READ_DIE_PX)))


def judge(
    match: FaceMatch | None,
    accept: Acceptance = ACCEPT,
    fraction: float = DEFAULT_DIE_FRACTION,
    grid: GridReading | None = None,
) -> DieReading:
    """A reading from a face match: settled only when the match is clear.

    A die seen at the dome's wall is called cocked, not read. This is a prior
    about the Pop-O-Matic, not something seen in the die itself: a flat die
    rests on the middle of the floor, a cocked one leans on the wall (the
    renderer models it so: flat within half the dome radius minus a die,
    cocked at the wall). On a real dome a flat die far out would be called
    cocked (the players tap; harmless), never read wrong.
    """
    if match is None:
        return DieReading.unreadable("hidden")
    seen = match.score >= accept.min_seen and match.contrast >= accept.min_contrast
    if seen and from_centre(match, fraction) > accept.wall_zone:
        return DieReading.unreadable("cocked", _clip(match.score))
    margin = match.score - match.runner_up
    if (
        from_centre(match, fraction) > accept.read_zone
        or match.score < accept.min_score
        or match.contrast < accept.min_contrast
        or margin < accept.min_margin
    ):
        if (
            grid is not None
            and grid.value == match.value
            and grid.gap >= accept.min_grid_gap
            and from_centre(match, fraction) <= accept.grid_zone
        ):
            # The template and the sampled pip places agree, clearly.
            confidence = _clip(0.5 + grid.gap)
            return DieReading("settled", match.value, confidence)
        return DieReading.unreadable("hidden", _clip(match.score))
    confidence = _clip(0.5 + 2.0 * margin + 0.5 * (match.score - accept.min_score))
    return DieReading("settled", match.value, confidence)


def from_centre(match: FaceMatch, fraction: float) -> float:
    """How far the matched face is from the dome's centre, in dome radii."""
    side = READ_DIE_PX / fraction  # the reading image's side, in pixels
    centre = (side - 1.0) / 2.0
    return math.hypot(match.place.x - centre, match.place.y - centre) / (side / DOME_SPAN_RADII)


def _clip(x: float) -> float:
    return round(max(0.0, min(1.0, x)), 3)


def match_in_dome(
    crop_bgr: NDArray[np.uint8],
    fraction: float = DEFAULT_DIE_FRACTION,
    faces: Mapping[int, Mapping[int, FloatImage]] | None = None,
) -> FaceMatch | None:
    """The best face match in the dome: found coarse, then read fine."""
    return match_with_image(crop_bgr, fraction, faces)[0]


def match_with_image(
    crop_bgr: NDArray[np.uint8],
    fraction: float,
    faces: Mapping[int, Mapping[int, FloatImage]] | None,
) -> tuple[FaceMatch | None, FloatImage]:
    """The best face match, and the reading image (die READ_DIE_PX wide) it is in."""
    if not 0.02 <= fraction <= 0.5:
        raise ValueError(f"die fraction {fraction} is not plausible (expected 0.02..0.5)")
    gray = to_gray(crop_bgr).astype(np.float32)
    learned = faces is not None
    # Pip faces are read whole: their rim pins the face's place and turn. Learned
    # faces are read by their middle: digits differ by a few pixels there, and
    # the learned rim (cut by hand at calibration) is the least reliable part.
    fine_faces = _interiors(faces[READ_DIE_PX]) if faces is not None else _pip_faces(READ_DIE_PX)
    coarse, allowed = scaled_crop(gray, fraction, SEARCH_DIE_PX)
    if faces is None:
        places = find_faces(coarse, _pip_faces(SEARCH_DIE_PX), allowed, True, CANDIDATES)
    else:
        # Learned faces are symmetric under no turn: searched over the whole
        # turn at coarser steps, then read at all four quarter turns.
        places = find_faces(coarse, faces[SEARCH_DIE_PX], allowed, False, CANDIDATES, step=15.0)
    places += busy_places(coarse, allowed, SEARCH_DIE_PX, BUSY_CANDIDATES)
    fine, _ = scaled_crop(gray, fraction, READ_DIE_PX)
    k = READ_DIE_PX / SEARCH_DIE_PX
    reach = max(1, int(round(1.5 * k)))
    best: FaceMatch | None = None
    for place in places:
        at = rescaled(place, k)
        match = read_face(fine, fine_faces, at, 4 if learned else 2, reach)
        if match is not None and (best is None or _rank(match) > _rank(best)):
            best = match
    return best, fine


def rescaled(place: FacePlace, k: float) -> FacePlace:
    """*place* in an image *k* times larger (pixel centres kept)."""
    return FacePlace(
        (place.x + 0.5) * k - 0.5, (place.y + 0.5) * k - 0.5, place.angle_deg, place.score
    )


def _rank(match: FaceMatch) -> float:
    """Which of several candidate places holds the die: a good match with dark marks."""
    return match.score + 0.5 * min(match.contrast, 0.4)


def scaled_crop(
    gray: NDArray[np.float32], fraction: float, die_px: int
) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
    """The crop resized so the die is *die_px* wide, and the dome's inside as a mask."""
    f = die_px / (fraction * min(gray.shape[:2]))
    small = np.asarray(
        cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), dtype=np.float32
    )
    h, w = small.shape[:2]
    radius = min(h, w) / DOME_SPAN_RADII
    yy, xx = np.mgrid[:h, :w]
    allowed = np.hypot(xx - w / 2.0, yy - h / 2.0) < radius - 0.5 * die_px
    return small, allowed
