"""Find pip candidates: small, round, dark blobs with bright surroundings.

A pip is darker than the face around it, whatever the light: so each pixel is
compared with the brightest value in its neighbourhood (a morphological
dilation), not with a global threshold. That keeps pips under a lamp, in
daylight and at the edge of a glare patch. Die edges and shadows pass the
darkness test too, so each blob must also be round, solid and ringed by
bright face; what is left is scored later by the pattern fit, which is where
side-face pips are rejected.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

#: Relative darkness (pixel / local brightest) below which a pixel may be a pip.
DARK_RATIOS: tuple[float, ...] = (0.55, 0.72)


@dataclass(frozen=True)
class Pip:
    """A dark blob that may be a pip, in pixel coordinates of the analysed image."""

    x: float
    y: float
    area: float
    diameter: float  # equivalent diameter, sqrt(4 area / pi)
    roundness: float  # minor / major axis of the blob's ellipse of inertia
    contrast: float  # 1 - mean(pixel / local brightest) inside the blob
    ring: float  # mean(pixel / local brightest) on a ring around the blob


def local_ratio(gray: NDArray[np.float32], kernel: int, closing: bool) -> NDArray[np.float32]:
    """Each pixel divided by the bright face around it, *kernel* pixels wide.

    The face's brightness is the neighbourhood's brightest value (a dilation)
    or, with *closing*, the image with its small dark marks filled in (a
    morphological closing). The closing ignores a glare spot beside the die,
    which would make a dilation call the whole die face dark; the dilation is
    steadier where the die is large and its edges soft (real photos).
    """
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel, kernel))
    if closing:
        bright = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, k)
        bright = cv2.GaussianBlur(bright, (0, 0), kernel / 8.0)
    else:
        bright = cv2.dilate(gray, k)
        bright = cv2.GaussianBlur(bright, (0, 0), kernel / 4.0)
    return np.asarray(gray / np.maximum(bright, 1.0), dtype=np.float32)


def find_pips(
    gray: NDArray[np.uint8] | NDArray[np.float32],
    min_diameter: float,
    max_diameter: float,
    closing: bool = False,
) -> tuple[list[Pip], NDArray[np.float32]]:
    """All pip candidates with an equivalent diameter in [min, max] pixels,
    and the local-ratio image they were found in (for the layout checks)."""
    g = np.asarray(gray, dtype=np.float32)
    kernel = int(round(max_diameter * 2.2)) | 1
    ratio = local_ratio(g, kernel, closing)
    found: list[Pip] = []
    for threshold in DARK_RATIOS:
        mask = (ratio < threshold).astype(np.uint8)
        count, raw_labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        labels = np.asarray(raw_labels, dtype=np.int32)
        for i in range(1, count):
            area = float(stats[i, cv2.CC_STAT_AREA])
            diameter = float(np.sqrt(4.0 * area / np.pi))
            if not min_diameter <= diameter <= max_diameter:
                continue
            x0, y0 = int(stats[i, cv2.CC_STAT_LEFT]), int(stats[i, cv2.CC_STAT_TOP])
            w, h = int(stats[i, cv2.CC_STAT_WIDTH]), int(stats[i, cv2.CC_STAT_HEIGHT])
            pip = _describe(ratio, labels, i, (x0, y0, w, h), area, diameter, centroids[i])
            if pip is not None and not _duplicate(pip, found):
                found.append(pip)
    return found, ratio


def _describe(
    ratio: NDArray[np.float32],
    labels: NDArray[np.int32],
    index: int,
    box: tuple[int, int, int, int],
    area: float,
    diameter: float,
    centroid: NDArray[np.float64],
) -> Pip | None:
    """Measure one blob; ``None`` when it is plainly not a pip."""
    x0, y0, w, h = box
    pad = max(2, int(round(diameter * 0.5)))
    ya, yb = max(0, y0 - pad), min(ratio.shape[0], y0 + h + pad)
    xa, xb = max(0, x0 - pad), min(ratio.shape[1], x0 + w + pad)
    blob = (labels[ya:yb, xa:xb] == index).astype(np.uint8)
    m = cv2.moments(blob, binaryImage=True)
    if m["m00"] <= 0:
        return None
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    spread = np.sqrt(max(0.0, (mu20 - mu02) ** 2 + 4 * mu11**2))
    major, minor = mu20 + mu02 + spread, mu20 + mu02 - spread
    roundness = float(np.sqrt(max(minor, 0.0) / major)) if major > 0 else 0.0
    if roundness < 0.35:
        return None
    window = ratio[ya:yb, xa:xb]
    grown = cv2.dilate(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1,) * 2))
    inner = cv2.dilate(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    ring_mask = (grown > 0) & (inner == 0)
    if not ring_mask.any():
        return None
    return Pip(
        x=float(centroid[0]),
        y=float(centroid[1]),
        area=area,
        diameter=diameter,
        roundness=roundness,
        contrast=float(1.0 - window[blob > 0].mean()),
        ring=float(window[ring_mask].mean()),
    )


def _duplicate(pip: Pip, found: list[Pip]) -> bool:
    """True when *pip* is the same blob as one already found (a looser threshold's twin)."""
    return any(
        np.hypot(p.x - pip.x, p.y - pip.y) < 0.5 * max(p.diameter, pip.diameter) for p in found
    )
