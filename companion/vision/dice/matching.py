"""Read a die face by matching templates at a known scale (the dome crop).

Through the dome the die is small, hazy and often blurred: its pips are a
few faint pixels, too weak for blob finding alone. A matched filter is the
right tool when the scale is known: the top face is compared, by normalised
cross-correlation, with faces drawn at that scale (pip dice) or with faces
learned from the user's own die (digit dice, see ``templates.py``).

Two steps keep it cheap: a blank face (bright square, darker rim) is matched
at a few angles over the whole dome to find where the top face is and how it
is turned; then each value's face is matched only there, at the quarter
turns of that angle and a small step either side. The side faces, seen at a
slant, are narrower than the top face and match the square worse.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.patterns import PIP_CELLS

FloatImage = NDArray[np.float32]

#: Standard pip places on a face, in face units (face side = 1, centre = 0).
PIP_SPACING = 0.25
PIP_RADIUS = 0.085
#: The face's rim (rounded edge, bevel): its width over the face side, and its shade.
RIM_WIDTH = 0.1
RIM_SHADE = 0.6
#: Angles tried around the found angle when reading the value.
ANGLE_JITTER = (-4.0, 0.0, 4.0)
#: Drawing oversampling: faces are drawn large, then shrunk (smooth like a camera's).
OVERSAMPLE = 8


@dataclass(frozen=True)
class FacePlace:
    """Where the top face is in the analysed image, and how it is turned."""

    x: float
    y: float
    angle_deg: float
    score: float


@dataclass(frozen=True)
class FaceMatch:
    """The best-matching value at a face place, with the runner-up's score."""

    value: int
    score: float  # normalised cross-correlation, -1..1
    runner_up: float  # best score of any other value
    place: FacePlace
    contrast: float  # 1 - (image under the marks) / (image on the plain face)


def pip_face(value: int, size: int) -> FloatImage:
    """The upright face *value* with pips, *size* px square: 1 face, 0 pips, dark rim."""
    big = size * OVERSAMPLE
    img = np.ones((big, big), np.float32)
    for i, j in PIP_CELLS[value]:
        x = big / 2 + i * PIP_SPACING * big
        y = big / 2 + j * PIP_SPACING * big
        cv2.circle(img, (int(round(x)), int(round(y))), int(round(PIP_RADIUS * big)), 0.0, -1)
    return _shrink(_with_rim(img), size)


def blank_face(size: int, mark: float = 0.0) -> FloatImage:
    """A face with no marks, or with one round central mark *mark* face-sides wide.

    A face with a central mark stands for any unknown face (a digit, a one):
    it finds the top face before its appearance has been learned.
    """
    big = size * OVERSAMPLE
    img = np.ones((big, big), np.float32)
    if mark > 0:
        cv2.circle(img, (big // 2, big // 2), int(round(mark * big / 2)), 0.0, -1)
    return _shrink(_with_rim(img), size)


def face_from_patch(patch: FloatImage, size: int) -> FloatImage:
    """A learned face (an upright square patch of the top face) at *size* px, normalised 0..1."""
    p = cv2.resize(
        patch.astype(np.float32), (size * OVERSAMPLE,) * 2, interpolation=cv2.INTER_LINEAR
    )
    lo, hi = float(np.percentile(p, 2)), float(np.percentile(p, 98))
    p = np.clip((p - lo) / max(hi - lo, 1e-6), 0.0, 1.0).astype(np.float32)
    return _shrink(_with_rim(p), size)


#: The part of a face compared when reading its value (the rim and beyond are left out).
INTERIOR = 0.8


def interior(face: FloatImage) -> FloatImage:
    """The middle of a face, without its rim: where pips and digits differ.

    Reading compares only this, so that the rim, the side faces and the
    dome around the die, which are the same whatever the value, do not
    drown the few pixels that tell one value from another.
    """
    n = face.shape[0]
    keep = max(3, int(round(n * INTERIOR)))
    off = (n - keep) // 2
    return np.ascontiguousarray(face[off : off + keep, off : off + keep])


def _with_rim(img: FloatImage) -> FloatImage:
    n = img.shape[0]
    rim = max(1, int(round(RIM_WIDTH * n)))
    out = img.copy()
    out[:rim, :] = np.minimum(out[:rim, :], RIM_SHADE)
    out[-rim:, :] = np.minimum(out[-rim:, :], RIM_SHADE)
    out[:, :rim] = np.minimum(out[:, :rim], RIM_SHADE)
    out[:, -rim:] = np.minimum(out[:, -rim:], RIM_SHADE)
    return out


def _shrink(img: FloatImage, size: int) -> FloatImage:
    return np.asarray(cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA), np.float32)


def turned(face: FloatImage, angle_deg: float) -> FloatImage:
    """*face* turned by *angle_deg* on a canvas that holds it at any angle.

    Outside the face the canvas takes the face's mean, which adds nothing to
    the correlation: only the face itself is compared.
    """
    n = face.shape[0]
    side = int(math.ceil(n * math.sqrt(2.0))) | 1
    canvas = np.zeros((side, side), np.float32)
    inside = np.zeros((side, side), np.float32)
    off = (side - n) // 2
    canvas[off : off + n, off : off + n] = face
    inside[off : off + n, off : off + n] = 1.0
    m = cv2.getRotationMatrix2D(((side - 1) / 2.0, (side - 1) / 2.0), -angle_deg, 1.0)
    values = np.asarray(cv2.warpAffine(canvas, m, (side, side), flags=cv2.INTER_LINEAR))
    weight = np.asarray(cv2.warpAffine(inside, m, (side, side), flags=cv2.INTER_LINEAR))
    out = values + (1.0 - weight) * float(face.mean())
    return np.asarray(out, np.float32)


def find_faces(
    image: FloatImage,
    faces: Mapping[int, FloatImage],
    allowed: NDArray[np.bool_],
    half_turn: bool,
    count: int = 3,
    step: float = 7.5,
) -> list[FacePlace]:
    """The *count* best places where some face (any value) matches, best first.

    Every value is tried, so that the places found have marks on them; a
    glare spot is as bright and square as a blank face. Angles repeat every
    quarter turn for 1, 4 and 5, every half turn for the other pip faces
    (*half_turn*), and only every full turn for learned faces. Places closer
    than half a face to a better one are the same place.
    """
    best_score: FloatImage | None = None
    best_angle: FloatImage | None = None
    size = max(f.shape[0] for f in faces.values())
    for value, face in faces.items():
        span = 90.0 if value in (0, 1, 4, 5) and half_turn else 180.0 if half_turn else 360.0
        for angle in np.arange(0.0, span, step):
            t = turned(face, float(angle))
            half = t.shape[0] // 2
            if t.shape[0] > image.shape[0] or t.shape[1] > image.shape[1]:
                return []
            result = np.full(image.shape[:2], -1.0, np.float32)
            result[
                half : half + image.shape[0] - t.shape[0] + 1,
                half : half + image.shape[1] - t.shape[1] + 1,
            ] = cv2.matchTemplate(image, t, cv2.TM_CCOEFF_NORMED)
            if best_score is None or best_angle is None:
                best_score, best_angle = result, np.full(result.shape, float(angle), np.float32)
            else:
                better = result > best_score
                best_score = np.where(better, result, best_score)
                best_angle = np.where(better, np.float32(angle), best_angle)
    if best_score is None or best_angle is None:
        return []
    scores = np.where(allowed, best_score, -1.0).astype(np.float32)
    places: list[FacePlace] = []
    for _ in range(count):
        _, score, _, loc = cv2.minMaxLoc(scores)
        if score <= -1.0:
            break
        places.append(
            FacePlace(float(loc[0]), float(loc[1]), float(best_angle[loc[1], loc[0]]), float(score))
        )
        cv2.circle(scores, loc, max(1, int(round(0.6 * size))), -1.0, -1)
    return places


def busy_places(
    image: FloatImage, allowed: NDArray[np.bool_], size: int, count: int
) -> list[FacePlace]:
    """The *count* places with the most edges in a die-sized window, best first.

    Inside the dome the die is the busiest thing: its rim, its side faces and
    its pips are sharp edges, while the dome, the board under it and a glare
    spot are smooth. This finds the die where its pips are too faint for the
    face search at the coarse scale. Each place's angle comes from its edges.
    """
    gx = np.asarray(cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3), np.float32)
    gy = np.asarray(cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3), np.float32)
    energy = cv2.blur(gx * gx + gy * gy, (size, size))
    scores = np.where(allowed, energy, -1.0).astype(np.float32)
    places: list[FacePlace] = []
    half = size // 2 + 1
    for _ in range(count):
        _, score, _, loc = cv2.minMaxLoc(scores)
        if score < 0:
            break
        x, y = loc
        window = (slice(max(0, y - half), y + half + 1), slice(max(0, x - half), x + half + 1))
        angle = edge_angle(gx[window], gy[window])
        places.append(FacePlace(float(x), float(y), angle, 0.0))
        cv2.circle(scores, loc, max(1, int(round(0.6 * size))), -1.0, -1)
    return places


def edge_angle(gx: FloatImage, gy: FloatImage) -> float:
    """The angle (degrees, 0..90) of a square's edges: each edge votes with four times its angle."""
    weight = gx * gx + gy * gy
    quad = np.arctan2(gy, gx) * 4.0
    vx, vy = float((weight * np.cos(quad)).sum()), float((weight * np.sin(quad)).sum())
    return (math.degrees(math.atan2(vy, vx)) / 4.0) % 90.0


def read_face(
    image: FloatImage,
    faces: Mapping[int, FloatImage],
    place: FacePlace,
    quarter_turns: int,
    reach: int,
) -> FaceMatch | None:
    """The value whose face matches best at *place* (within *reach* px of it).

    Each face is tried at *quarter_turns* quarter turns of the place's angle
    (2 suffice for pip faces, which repeat under a half turn; learned faces
    need 4) and a small step either side.
    """
    best: dict[int, tuple[float, FacePlace, float]] = {}
    for value, face in faces.items():
        for q in range(quarter_turns):
            for jitter in ANGLE_JITTER:
                angle = place.angle_deg + 90.0 * q + jitter
                t = turned(face, angle)
                half = t.shape[0] // 2
                x0, y0 = int(round(place.x)) - half - reach, int(round(place.y)) - half - reach
                x1, y1 = x0 + t.shape[1] + 2 * reach, y0 + t.shape[0] + 2 * reach
                if x0 < 0 or y0 < 0 or x1 > image.shape[1] or y1 > image.shape[0]:
                    continue
                window = image[y0:y1, x0:x1]
                result = cv2.matchTemplate(window, t, cv2.TM_CCOEFF_NORMED)
                _, score, _, loc = cv2.minMaxLoc(result)
                if value not in best or score > best[value][0]:
                    at = FacePlace(
                        x0 + loc[0] + half, y0 + loc[1] + half, angle % 360.0, float(score)
                    )
                    seen = window[loc[1] : loc[1] + t.shape[0], loc[0] : loc[0] + t.shape[1]]
                    best[value] = (float(score), at, mark_contrast(seen, t))
    if not best:
        return None
    ranked = sorted(best.items(), key=lambda kv: -kv[1][0])
    value, (score, at, contrast) = ranked[0]
    runner_up = ranked[1][1][0] if len(ranked) > 1 else -1.0
    return FaceMatch(value, score, runner_up, at, contrast)


def mark_contrast(seen: FloatImage, template: FloatImage) -> float:
    """How much darker the image is under the template's marks than on its plain face.

    A glare spot or a blank patch can correlate weakly with any face; real
    pips or digits are clearly darker than the face around them.
    """
    marks = template < 0.35
    plain = template > 0.97
    if not marks.any() or not plain.any():
        return 0.0
    face = float(seen[plain].mean())
    if face <= 1e-6:
        return 0.0
    return 1.0 - float(seen[marks].mean()) / face
