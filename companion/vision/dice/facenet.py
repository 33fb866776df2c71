"""A small learned classifier of canonical face patches: pip value or no face.

Why learned: through the dome a pip face is 20 to 30 px of haze, glare and
blur, and hand-set tests on it (template correlation, pip-place darkness)
either miss most faces or misplace them. A classifier trained on many
rendered dome crops, cut out upright at the die's true place and turn
(``canonical.py``), learns what a face looks like under all of that, and,
trained also on near misses (the face shifted by a pip or more, turned
30 degrees off, glare spots, the dome's rim, a leaning die), what a face is
*not*: its "no face" class is what lets the reader both locate the face
(the place where a value is most certain) and decline to read.

A plain multilayer perceptron (ReLU hidden layers, softmax over seven
classes: 0 = no face here, 1..6 the pip value) in numpy: no new
dependency, and a few hundred thousand multiply-adds per patch. The weights
are a small package data file (``pip_faces.npz``), loaded on first use. The
training command is ``python -m companion.vision.dice.train_facenet``
(``docs/vision-dice.md``).
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import CANON_PX, CANON_SPAN

#: The trained pip-face classifier shipped with the package.
PIP_NET_PATH = Path(__file__).with_name("pip_faces.npz")
#: Class 0 means "no face here"; 1..6 are the values.
NO_FACE = 0
CLASSES = 7

Matrix = NDArray[np.float32]


@dataclass(frozen=True)
class FaceNet:
    """Weights and biases of each layer, input first; ReLU between, softmax last."""

    weights: tuple[Matrix, ...]
    biases: tuple[Matrix, ...]

    def __post_init__(self) -> None:
        if len(self.weights) != len(self.biases) or not self.weights:
            raise ValueError("face net needs one bias per weight matrix, at least one layer")
        if self.weights[0].shape[0] != CANON_PX * CANON_PX:
            raise ValueError(
                f"face net expects {CANON_PX * CANON_PX} inputs, its first layer has "
                f"{self.weights[0].shape[0]}"
            )
        if self.weights[-1].shape[1] < 2:
            raise ValueError("face net must give at least two classes")
        for w, nxt in zip(self.weights[:-1], self.weights[1:], strict=True):
            if w.shape[1] != nxt.shape[0]:
                raise ValueError(f"face net layers do not chain: {w.shape} then {nxt.shape}")

    @property
    def classes(self) -> int:
        return int(self.weights[-1].shape[1])

    def probabilities(self, rows: Matrix) -> Matrix:
        """Class probabilities (N, classes) for feature rows (N, CANON_PX**2)."""
        with single_threaded_blas():
            return self._forward(rows)

    def _forward(self, rows: Matrix) -> Matrix:
        w, b = self.weights[0], self.biases[0]
        return self._rest(rows @ w + b)

    def probabilities_of_windows(self, raw: Matrix, mean: NDArray[np.float64],
                                 spread: NDArray[np.float64]) -> Matrix:
        """What :meth:`probabilities` gives for ``canonical.features`` of the
        window rows *raw* (N, CANON_PX**2), from the raw rows and each row's
        mean and spread (``canonical.window_stats``), without making the
        normalised copy: the first layer is linear, so
        ``((x - m) / s) @ W + b == (x @ W - m * colsum(W)) / s + b``.
        Equal to the other way up to float rounding (about 1e-6 of a probability)."""
        with single_threaded_blas():
            return self._rest(self.first_layer_of_windows(raw, mean, spread))

    def first_layer_of_windows(self, raw: Matrix, mean: NDArray[np.float64],
                               spread: NDArray[np.float64], out: Matrix | None = None) -> Matrix:
        """The first layer (before its ReLU) of normalised windows, from raw rows
        (see :meth:`probabilities_of_windows`; call under :func:`single_threaded_blas`),
        into *out* when given."""
        w, b = self.weights[0], self.biases[0]
        h: Matrix = np.matmul(raw, w, out=out)
        # The mean's share into a reused work array (the same products, no
        # fresh array of the windows' size on each read).
        shift = scratch("first_layer_shift", h.shape)
        np.multiply(mean.astype(np.float32)[:, None], self._colsum[None, :], out=shift)
        np.subtract(h, shift, out=h)
        h /= spread.astype(np.float32)[:, None]
        h += b
        return h

    def rest_of(self, first: Matrix) -> Matrix:
        """Probabilities from the first layer's output (:meth:`first_layer_of_windows`)."""
        with single_threaded_blas():
            return self._rest(first)

    @property
    def _colsum(self) -> Matrix:
        cached: Matrix | None = self.__dict__.get("_colsum_cache")
        if cached is None:
            cached = self.weights[0].sum(axis=0, dtype=np.float64).astype(np.float32)
            object.__setattr__(self, "_colsum_cache", cached)
        return cached

    def _rest(self, first: Matrix) -> Matrix:
        """The ReLU after the first layer, the other layers and the softmax."""
        h = first
        if len(self.weights) > 1:
            np.maximum(h, 0.0, out=h)
        last = len(self.weights) - 1
        for i in range(1, len(self.weights)):
            h = h @ self.weights[i]
            h += self.biases[i]
            if i < last:
                np.maximum(h, 0.0, out=h)
        h = h - row_max(h)[:, None]
        e = np.exp(h)
        return np.asarray(e / e.sum(axis=1, keepdims=True), np.float32)

    def save(self, path: Path) -> None:
        arrays: dict[str, Matrix] = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        meta = np.array([CANON_PX, CANON_SPAN], np.float32)
        save: Any = np.savez_compressed  # its stubs type **kwds as its own options
        save(path, meta=meta, **arrays)

    @classmethod
    def load(cls, path: Path) -> FaceNet:
        """The net stored at *path*; ValueError naming the problem if it is not one."""
        if not path.is_file():
            raise ValueError(f"face classifier {path} does not exist (see docs/vision-dice.md to train it)")
        with np.load(path) as data:
            meta = data.get("meta")
            if meta is None or int(meta[0]) != CANON_PX or abs(float(meta[1]) - CANON_SPAN) > 1e-6:
                raise ValueError(f"face classifier {path} was trained for other patches")
            n = sum(1 for k in data.files if k.startswith("w"))
            weights = tuple(np.asarray(data[f"w{i}"], np.float32) for i in range(n))
            biases = tuple(np.asarray(data[f"b{i}"], np.float32) for i in range(n))
        return cls(weights, biases)


@lru_cache(maxsize=1)
def pip_net() -> FaceNet:
    """The shipped pip-face classifier, loaded once, on first use."""
    return load_checked(PIP_NET_PATH)


#: The first classifier (trained on 1280x720 frames only), kept as a second
#: opinion on the face the shipped one found (``dome.NetAcceptance.min_second``).
FIRST_NET_PATH = Path(__file__).with_name("pip_faces_v1.npz")


@lru_cache(maxsize=1)
def first_net() -> FaceNet:
    """The first pip-face classifier, loaded once, on first use."""
    return load_checked(FIRST_NET_PATH)


class _Classifier(Protocol):
    @property
    def classes(self) -> int: ...


_Net = TypeVar("_Net", bound=_Classifier)


def seven_classes(net: _Net, path: Path) -> _Net:
    """*net*, loaded from *path*, when it gives the readers' classes ("no
    face" and the six values); ValueError naming the file otherwise. Every
    face reader (this classifier, the digit ones, the convolutional ones)
    is loaded through it."""
    if net.classes != CLASSES:
        raise ValueError(f"{path} gives {net.classes} classes, not {CLASSES}")
    return net


def load_checked(path: Path) -> FaceNet:
    """The classifier at *path* (:func:`seven_classes`)."""
    return seven_classes(FaceNet.load(path), path)


_Rows = TypeVar("_Rows", bound=NDArray[Any])


def row_max(m: _Rows) -> _Rows:
    """Each row's largest value of the 2-D *m* (1-D, *m*'s dtype): the same
    as ``m.max(axis=1)`` (a maximum is exact, whatever the order), but taken
    column by column, which is several times faster for the few columns of
    class probabilities than numpy's reduction along a short axis."""
    if m.shape[1] < 2 or m.shape[0] < 64:
        return m.max(axis=1)
    out = np.maximum(m[:, 0], m[:, 1])
    for j in range(2, m.shape[1]):
        np.maximum(out, m[:, j], out=out)
    return out


def column_max(m: _Rows) -> _Rows:
    """Each column's largest value of the 2-D *m* (1-D, *m*'s dtype): the
    same as ``m.max(axis=0)``, from a transposed copy (numpy reduces a long
    contiguous axis much faster than many short rows)."""
    if m.shape[0] < 64:
        return m.max(axis=0)
    return np.ascontiguousarray(m.T).max(axis=1)


_scratch = threading.local()


def scratch(name: str, shape: tuple[int, ...]) -> Matrix:
    """A float32 work array of *shape*, this thread's, reused from call to call.

    Why: the dome search's window rows are megabytes; a new array that size
    is fresh memory from the system on every read, and its page faults cost
    as much CPU time as filling it (about 2 ms a read). The contents are
    whatever the last user left: write before reading, and hand none of it
    out of the call that took it.
    """
    arrays: dict[str, Matrix] = _scratch.__dict__.setdefault("arrays", {})
    need = int(np.prod(shape))
    have = arrays.get(name)
    if have is None or have.size < need:
        have = np.empty(need, np.float32)
        arrays[name] = have
    return have[:need].reshape(shape)


class _Blas:
    """numpy's bundled OpenBLAS thread count, when it can be reached (else nothing)."""

    def __init__(self) -> None:
        self.get: object = None
        self.set: object = None
        import numpy

        folder = Path(numpy.__file__).parent.parent / "numpy.libs"
        for lib_path in sorted(folder.glob("*openblas*.so*")) if folder.is_dir() else []:
            try:
                lib = ctypes.CDLL(str(lib_path))
            except OSError:
                continue
            for prefix in ("scipy_openblas", "openblas"):
                for suffix in ("64_", ""):
                    get = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                    put = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                    if get is not None and put is not None:
                        get.restype = ctypes.c_int
                        self.get, self.set = get, put
                        return


@lru_cache(maxsize=1)
def _blas() -> _Blas:
    return _Blas()


@contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Run the small matrix products of one read on one thread, then restore.

    Why: the products here are a few thousand rows by a few hundred columns.
    Multi-threaded OpenBLAS splits them across cores and waits for the
    slowest thread; on a busy machine (the referee shares it with the
    camera, the voice and whatever else runs) that wait made one read cost
    5 to 50 times its single-thread CPU time. Scoped to the read, so the
    rest of the process keeps its BLAS settings. Where numpy's OpenBLAS
    cannot be reached (another BLAS), nothing changes.
    """
    blas = _blas()
    get, put = blas.get, blas.set
    if not callable(get) or not callable(put):
        yield
        return
    before = int(get())
    put(1)
    try:
        yield
    finally:
        put(before)
