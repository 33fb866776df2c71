"""Read a photo of a single die on any background (``companion read-die``)."""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.patterns import FaceFit, fit_faces
from companion.vision.dice.pips import find_pips
from companion.vision.dice.reading import DieReading

#: Photos are analysed with their longer side at most this many pixels.
MAX_SIDE = 360
#: ... and their shorter side at least this many (small crops are enlarged).
MIN_SIDE = 120


def to_gray(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A BGR (or already grey) image as one grey channel; rejects anything else."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise ValueError("expected an 8-bit image array")
    if image.ndim == 2:
        return image
    if image.ndim == 3 and image.shape[2] == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY), dtype=np.uint8)
    raise ValueError(f"expected a BGR or grey image, got shape {image.shape}")


def normalise_scale(gray: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Resize so the pip search works at a known range of scales."""
    h, w = gray.shape[:2]
    scale = 1.0
    if max(h, w) > MAX_SIDE:
        scale = MAX_SIDE / max(h, w)
    elif min(h, w) < MIN_SIDE:
        scale = MIN_SIDE / min(h, w)
    if scale == 1.0:
        return gray
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return np.asarray(cv2.resize(gray, size, interpolation=interp), dtype=np.uint8)


def faces_in(gray: NDArray[np.uint8]) -> list[FaceFit]:
    """Every die face the pips in *gray* support (several dice give several)."""
    h, w = gray.shape[:2]
    pips, ratio = find_pips(gray, min_diameter=2.5, max_diameter=min(h, w) / 4.0)
    return fit_faces(pips, ratio)


def choose_face(fits: list[FaceFit], cx: float, cy: float) -> FaceFit | None:
    """The face of the die nearest (cx, cy), explaining the most pips there.

    Fits whose face squares overlap describe the same die; of those the one
    with the most pips wins (a 6 also holds a valid-looking 2 at a smaller
    scale, never the reverse). Of the dice, the most central is the subject.
    """
    dice: list[FaceFit] = []
    for fit in fits:  # already sorted: most pips, then smallest error
        if not any(_overlap(fit, kept) for kept in dice):
            dice.append(fit)
    if not dice:
        return None
    return min(dice, key=lambda f: math.hypot(f.cx - cx, f.cy - cy) / f.spacing)


def _overlap(a: FaceFit, b: FaceFit) -> bool:
    reach = 1.6 * (a.spacing + b.spacing)
    return math.hypot(a.cx - b.cx, a.cy - b.cy) < reach


def confidence_of(fit: FaceFit) -> float:
    """How sure a face fit is: many pips, small error, nothing filled in."""
    evidence = {1: 0.8, 2: 0.85, 3: 0.92}.get(len(fit.pips), 0.97)
    score = evidence * (1.0 - min(1.0, fit.error / 0.32) * 0.3)
    if fit.recovered:
        score *= 0.75
    return round(max(0.0, min(1.0, score)), 3)


def read_die_photo(image_bgr: NDArray[np.uint8]) -> DieReading:
    """Read the die nearest the middle of a photo; ``hidden`` when no face is found."""
    gray = normalise_scale(to_gray(image_bgr))
    h, w = gray.shape[:2]
    fit = choose_face(faces_in(gray), w / 2.0, h / 2.0)
    if fit is None:
        return DieReading.unreadable("hidden")
    return DieReading("settled", fit.value, confidence_of(fit))
