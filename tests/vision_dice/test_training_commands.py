"""The two face-classifier trainers run end to end on a handful of rendered dice.

They are development commands (the shipped nets' exact commands are in their
docstrings), not run in play; this keeps them from rotting: both share one
two-round recipe (``train_facenet.train_two_rounds``: train, mine the first
net's sure mistakes as "no face", train again) and must write a net that the
readers load.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.vision.dice.canonical import CANON_PX, features
from companion.vision.dice.facenet import CLASSES, FaceNet
from companion.vision.dice.train_digitnet import main as train_digits
from companion.vision.dice.train_facenet import main as train_pips


def _loads_and_reads(path: Path) -> None:
    net = FaceNet.load(path)
    rows = features(np.random.default_rng(0).uniform(0, 255, (3, CANON_PX, CANON_PX)).astype(np.float32))
    probs = net.probabilities(rows)
    assert probs.shape == (3, CLASSES)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)


def test_the_pip_trainer_writes_a_net_the_reader_loads(tmp_path: Path) -> None:
    out = tmp_path / "pips.npz"
    assert train_pips(["--settled", "300000:300004", "--cocked", "310000:310002", "--epochs", "1",
                       "--cache", str(tmp_path / "cache"), "--out", str(out)]) == 0
    _loads_and_reads(out)


def test_the_digit_trainer_writes_a_net_the_reader_loads(tmp_path: Path) -> None:
    out = tmp_path / "digits.npz"
    assert train_digits(["--settled", "300000:300004", "--pips", "320000:320002", "--epochs", "1",
                         "--workers", "1", "--cache", str(tmp_path / "cache"), "--out", str(out)]) == 0
    _loads_and_reads(out)
