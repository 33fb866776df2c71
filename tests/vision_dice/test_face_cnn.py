"""Session 15: the convolutional second reader of a pip face (``facecnn.py``).

Its numpy inference against a plain reference, its file (loaded, or refused
with a clear error), and the reads it adds on development frames (never the
benchmark's seeds). See docs/vision-dice.md, "Session 15".
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.vision.dice.canonical import CANON_PX, features
from companion.vision.dice.facecnn import FaceCNN


def _random_net(seed: int) -> FaceCNN:
    rng = np.random.default_rng(seed)

    def a(*shape: int) -> np.ndarray:
        return rng.normal(0, 0.3, shape).astype(np.float32)

    pooled = CANON_PX // 4
    return FaceCNN(a(4, 1, 3, 3), a(4), a(5, 4, 3, 3), a(5), a(5 * pooled * pooled, 8), a(8), a(8, 7), a(7))


def _reference(net: FaceCNN, rows: np.ndarray) -> np.ndarray:
    """The same network written out loop by loop (float64)."""

    def conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
        c, h, wd = x.shape
        p = np.zeros((c, h + 2, wd + 2))
        p[:, 1:-1, 1:-1] = x
        out = np.zeros((len(w), h, wd))
        for o in range(len(w)):
            for i in range(h):
                for j in range(wd):
                    out[o, i, j] = float((p[:, i:i + 3, j:j + 3] * w[o]).sum()) + b[o]
        return out

    def pool(x: np.ndarray) -> np.ndarray:
        c, h, wd = x.shape
        return x.reshape(c, h // 2, 2, wd // 2, 2).max(axis=(2, 4))

    out = []
    for row in rows.astype(np.float64):
        h = pool(np.maximum(conv(row.reshape(1, CANON_PX, CANON_PX), net.conv1_w, net.conv1_b), 0))
        h = pool(np.maximum(conv(h, net.conv2_w, net.conv2_b), 0))
        h = np.maximum(h.ravel() @ net.dense1_w + net.dense1_b, 0)
        z = h @ net.dense2_w + net.dense2_b
        e = np.exp(z - z.max())
        out.append(e / e.sum())
    return np.array(out)


def _rows(seed: int, n: int) -> np.ndarray:
    patches = np.random.default_rng(seed).uniform(0, 255, (n, CANON_PX, CANON_PX)).astype(np.float32)
    return features(patches)


def test_the_numpy_inference_is_the_network_written_out() -> None:
    net = _random_net(3)
    rows = _rows(4, 3)
    assert np.abs(net.probabilities(rows) - _reference(net, rows)).max() < 1e-5


def test_a_saved_net_loads_back(tmp_path: Path) -> None:
    net = _random_net(5)
    net.save(tmp_path / "n.npz")
    again = FaceCNN.load(tmp_path / "n.npz")
    rows = _rows(6, 2)
    assert np.array_equal(net.probabilities(rows), again.probabilities(rows))


def test_a_malformed_file_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    net = _random_net(5)
    with pytest.raises(ValueError, match="does not exist"):
        FaceCNN.load(tmp_path / "missing.npz")
    (tmp_path / "text.npz").write_text("not an archive")
    with pytest.raises(ValueError, match="not a readable .npz"):
        FaceCNN.load(tmp_path / "text.npz")
    arrays = {n: getattr(net, n) for n in ("conv1_w", "conv1_b", "conv2_w", "conv2_b", "dense1_w", "dense1_b")}
    meta = np.array([CANON_PX, 1.25], np.float32)
    np.savez(tmp_path / "short.npz", meta=meta, **arrays)
    with pytest.raises(ValueError, match="lacks dense2_w, dense2_b"):
        FaceCNN.load(tmp_path / "short.npz")
    np.savez(tmp_path / "other.npz", meta=np.array([32, 1.25], np.float32), **arrays)
    with pytest.raises(ValueError, match="other patches"):
        FaceCNN.load(tmp_path / "other.npz")
    with pytest.raises(ValueError, match="conv2_w has shape"):
        replace(net, conv2_w=np.zeros((5, 3, 3, 3), np.float32))

