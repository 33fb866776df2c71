"""A small convolutional reader of canonical face patches (pip or digit dice), in numpy.

The second reader of a pip face (docs/vision-dice.md, "Session 15"): the
shipped classifier (``facenet.py``, an MLP) searches the dome and locates
the face; when it is not sure enough of the value there, this network
reads again only that window (its four quarter turns). Of the settled pip
dice the MLP leaves unread, most are found at the right place and turn
with the right best value, only not surely enough: the weak part is the
classifier's confidence, not the search, and convolutions see pips as
pips wherever they fall.

The layers: conv 3x3 (12 channels as shipped, zero padding) - ReLU -
max-pool 2 - conv 3x3 (24) - ReLU - max-pool 2 - dense 64 - ReLU - dense 7 - softmax over the
same classes as the MLP (0 = no face, 1..6 the values), on the same
feature rows (``canonical.features``). Trained with torch
(``train_facecnn.py``) and read here with numpy alone (each convolution an
im2col and one matrix product): no new dependency. Weights in
``pip_faces_cnn.npz`` (package data, loaded on first use).

Session 15b: the same network, trained on digit dice (class ``v`` = the
digit v *upright*, as ``digitnet.py``'s classifiers; weights
``digit_faces_cnn.npz``), re-reads the window the digit classifier located
when that one was not sure enough (``digitnet.read_digit``).

Session 16: where the pip reader's located window is read under the bar,
its reading averaged over that window and the four one pixel beside it
(:meth:`FaceCNN.at_nudged_windows`) decides instead (docs/vision-dice.md,
"Session 16").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import CANON_PX, CANON_SPAN, features
from companion.vision.dice.facenet import seven_classes, single_threaded_blas

#: The windows of :meth:`FaceCNN.at_nudged_windows`, (dx, dy) patch pixels
#: from the located one.
NUDGES = ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))

#: The trained convolutional pip-face reader shipped with the package ...
PIP_CNN_PATH = Path(__file__).with_name("pip_faces_cnn.npz")
#: ... and the digit-face one (session 15b).
DIGIT_CNN_PATH = Path(__file__).with_name("digit_faces_cnn.npz")

Array = NDArray[np.float32]
_NAMES = ("conv1_w", "conv1_b", "conv2_w", "conv2_b", "dense1_w", "dense1_b", "dense2_w", "dense2_b")


@dataclass(frozen=True)
class FaceCNN:
    """Weights as torch stores them for the convolutions ((out, in, 3, 3)) and
    as (in, out) matrices for the dense layers; the first dense layer reads
    the pooled maps flattened channel first (torch's ``Flatten`` order)."""

    conv1_w: Array
    conv1_b: Array
    conv2_w: Array
    conv2_b: Array
    dense1_w: Array
    dense1_b: Array
    dense2_w: Array
    dense2_b: Array

    def __post_init__(self) -> None:
        c1, c2 = self.conv1_w.shape[0], self.conv2_w.shape[0]
        pooled = CANON_PX // 4
        expected = {
            "conv1_w": (c1, 1, 3, 3), "conv1_b": (c1,),
            "conv2_w": (c2, c1, 3, 3), "conv2_b": (c2,),
            "dense1_w": (c2 * pooled * pooled, self.dense1_w.shape[-1]),
            "dense1_b": (self.dense1_w.shape[-1],),
            "dense2_w": (self.dense1_w.shape[-1], self.dense2_w.shape[-1]),
            "dense2_b": (self.dense2_w.shape[-1],),
        }
        for name, shape in expected.items():
            have = tuple(getattr(self, name).shape)
            if have != shape:
                raise ValueError(f"face CNN layer {name} has shape {have}, expected {shape}")
        if CANON_PX % 4:
            raise ValueError(f"face CNN needs patches a multiple of 4 px wide, not {CANON_PX}")

    @property
    def classes(self) -> int:
        return int(self.dense2_w.shape[1])

    def probabilities(self, rows: Array) -> Array:
        """Class probabilities (N, classes) for feature rows (N, CANON_PX**2)
        (``canonical.features`` of canonical patches)."""
        logits = self.logits(rows)
        logits = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return np.asarray(e / e.sum(axis=1, keepdims=True), np.float32)

    def at_quarter_turns(self, patch: Array) -> Array:
        """Class probabilities (4, classes) of one canonical patch at its four
        quarter turns (``np.rot90`` k times in row k)."""
        quarter = np.stack([np.rot90(patch, k) for k in range(4)]).astype(np.float32)
        return self.probabilities(features(quarter))

    def at_nudged_windows(self, region: Array, centre: Array | None = None) -> Array:
        """Class probabilities (4, classes) at each quarter turn, averaged over
        five windows of *region* (``CANON_PX + 2`` pixels square,
        ``canonical.upright_region`` with reach 1): the one at its centre and
        the four one patch pixel beside it (``NUDGES``). *centre*, when given,
        is the centre window's :meth:`at_quarter_turns`, not computed again.
        Session 16: a steadier measure than one window's reading (it
        separates wrong values from right ones better at a lower bar)."""
        side = CANON_PX + 2
        if region.shape != (side, side):
            raise ValueError(f"nudged windows need a region {side} px square, not {region.shape}")
        cut = [region[1 + dy : 1 + dy + CANON_PX, 1 + dx : 1 + dx + CANON_PX] for dx, dy in NUDGES]
        if centre is None:
            centre = self.at_quarter_turns(cut[0])
        quarter = np.stack([np.rot90(w, k) for w in cut[1:] for k in range(4)]).astype(np.float32)
        beside = self.probabilities(features(quarter)).reshape(len(NUDGES) - 1, 4, -1)
        return np.asarray((beside.sum(axis=0) + centre) / len(NUDGES), np.float32)

    def logits(self, rows: Array) -> Array:
        """The last layer's output (N, classes), before the softmax."""
        x = np.asarray(rows, np.float32).reshape(len(rows), 1, CANON_PX, CANON_PX)
        with single_threaded_blas():
            h = _pool(_relu(_conv3x3(x, self.conv1_w, self.conv1_b)))
            h = _pool(_relu(_conv3x3(h, self.conv2_w, self.conv2_b)))
            h = _relu(h.reshape(len(h), -1) @ self.dense1_w + self.dense1_b)
            return np.asarray(h @ self.dense2_w + self.dense2_b, np.float32)

    def save(self, path: Path) -> None:
        save: Any = np.savez_compressed  # its stubs type **kwds as its own options
        save(path, meta=np.array([CANON_PX, CANON_SPAN], np.float32),
             **{name: np.asarray(getattr(self, name), np.float32) for name in _NAMES})

    @classmethod
    def load(cls, path: Path) -> FaceCNN:
        """The net stored at *path*; ValueError naming the problem if it is not one."""
        if not path.is_file():
            raise ValueError(f"face CNN {path} does not exist (see docs/vision-dice.md to train it)")
        try:
            data = np.load(path)
        except (OSError, EOFError, ValueError) as exc:  # not an .npz at all, or cut short
            raise ValueError(f"face CNN {path} is not a readable .npz: {exc}") from None
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise ValueError(f"face CNN {path} is not a readable .npz: one bare array")
        with data:
            meta = data.get("meta")
            if meta is None or int(meta[0]) != CANON_PX or abs(float(meta[1]) - CANON_SPAN) > 1e-6:
                raise ValueError(f"face CNN {path} was trained for other patches")
            missing = [n for n in _NAMES if n not in data.files]
            if missing:
                raise ValueError(f"face CNN {path} lacks {', '.join(missing)}")
            arrays = {n: np.asarray(data[n], np.float32) for n in _NAMES}
        return cls(**arrays)


def _conv3x3(x: Array, w: Array, b: Array) -> Array:
    """A 3x3 convolution with zero padding 1 (torch's cross-correlation):
    (N, C, H, W) -> (N, O, H, W), as im2col and one matrix product."""
    n, c, hgt, wid = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cols = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))  # N C H W 3 3
    cols = cols.transpose(0, 2, 3, 1, 4, 5).reshape(n * hgt * wid, c * 9)
    out = cols @ w.reshape(len(w), c * 9).T + b
    return np.ascontiguousarray(out.reshape(n, hgt, wid, len(w)).transpose(0, 3, 1, 2))


def _relu(x: Array) -> Array:
    return np.maximum(x, np.float32(0.0))


def _pool(x: Array) -> Array:
    """2x2 max-pooling, stride 2 (even sides).

    The elementwise maximum of the four pixels of each 2x2 block, taken as
    three ``np.maximum`` of strided views: the same values as a ``max`` over
    the block's axes (a maximum is exact, whatever the order), several times
    faster than numpy's reduction over two short axes."""
    n, c, hgt, wid = x.shape
    v = np.asarray(x, np.float32).reshape(n, c, hgt // 2, 2, wid // 2, 2)
    top = np.maximum(v[:, :, :, 0, :, 0], v[:, :, :, 0, :, 1])
    np.maximum(top, v[:, :, :, 1, :, 0], out=top)
    np.maximum(top, v[:, :, :, 1, :, 1], out=top)
    return top


def load_reader(path: Path) -> FaceCNN:
    """The network at *path*, with the classifiers' classes; ValueError otherwise."""
    return seven_classes(FaceCNN.load(path), path)


@lru_cache(maxsize=1)
def pip_cnn() -> FaceCNN:
    """The shipped convolutional pip-face reader, loaded once, on first use."""
    return load_reader(PIP_CNN_PATH)


@lru_cache(maxsize=1)
def digit_cnn() -> FaceCNN:
    """The shipped convolutional digit-face reader, loaded once, on first use."""
    return load_reader(DIGIT_CNN_PATH)
