"""The real labelled dice photos (``../shared/data/dice-real``), cropped die by die.

The folder holds webcam photos with YOLO labels (``CLASS XC YC W H``,
relative to the image; class 0..5 = face 1..6). Known label quirks, and how
the crop deals with them:

- a box of class 0 (and a few 2s and 3s) often encloses only the pips, not
  the whole die: so the box's *size* is not trusted, only its centre, which
  lies on the top face either way;
- the crop is a square centred on the box centre, of side
  ``max(CROP_BOX_FACTOR x the box's longer side, CROP_MIN_PX)``, clipped at
  the image border (faces cut by the border stay cut); ``CROP_MIN_PX`` is
  about 1.5 times the largest die in these 640 x 480 photos, so the whole
  die fits even when its box held only its pip;
- a neighbouring die may enter the crop: the reader reads the face nearest
  the crop's middle.

Photos are split in two fixed halves by a checksum of their name
(:func:`photo_half`): thresholds were tuned on the ``tuning`` half only, and
the ``held-out`` half is the honest figure.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

CROP_BOX_FACTOR = 2.0
CROP_MIN_PX = 100


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: its photo, its face value and its crop."""

    photo: str  # file name of the photo
    index: int  # line in the label file
    value: int  # 1..6
    crop: NDArray[np.uint8]


def photo_half(photo: str) -> str:
    """``"tuning"`` or ``"held-out"``: a fixed split by the photo's name."""
    stem = Path(photo).stem
    return "tuning" if zlib.crc32(stem.encode()) % 2 == 0 else "held-out"


def crop_box(
    image: NDArray[np.uint8], xc: float, yc: float, w: float, h: float
) -> NDArray[np.uint8]:
    """The square crop around a relative YOLO box (see the module doc)."""
    ih, iw = image.shape[:2]
    cx, cy = xc * iw, yc * ih
    side = max(CROP_BOX_FACTOR * max(w * iw, h * ih), CROP_MIN_PX)
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    x1, y1 = int(round(cx + side / 2)), int(round(cy + side / 2))
    return image[max(0, y0) : min(ih, y1), max(0, x0) : min(iw, x1)]


def labelled_dice(folder: Path, every: int = 1) -> Iterator[LabelledDie]:
    """Every labelled die in *folder* (or its ``images/`` subfolder), photo by photo.

    *every* keeps every n-th photo (sorted by name), for small fixed samples.
    A label line that is malformed raises ``ValueError`` naming the file.
    """
    import cv2

    images = folder / "images" if (folder / "images").is_dir() else folder
    labels = sorted(p for p in images.glob("*.txt") if p.name != "classes.txt")
    for label in labels[::every]:
        photo = label.with_suffix(".jpg")
        raw = cv2.imread(str(photo))
        if raw is None:
            raise ValueError(f"{photo} is missing or unreadable")
        image = np.asarray(raw, dtype=np.uint8)
        for index, line in enumerate(label.read_text().splitlines()):
            fields = line.split()
            if not fields:
                continue
            try:
                cls = int(fields[0])
                xc, yc, w, h = (float(f) for f in fields[1:5])
            except (ValueError, IndexError):
                raise ValueError(f"{label}:{index + 1}: not a YOLO label line: {line!r}") from None
            if not 0 <= cls <= 5:
                raise ValueError(f"{label}:{index + 1}: class {cls} is not a die face 0..5")
            yield LabelledDie(photo.name, index, cls + 1, crop_box(image, xc, yc, w, h))
