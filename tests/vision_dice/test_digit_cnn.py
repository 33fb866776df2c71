"""Session 15b: the convolutional second reader of a digit face (``facecnn.digit_cnn``).

The network and its numpy inference are session 15's (``test_face_cnn.py``
checks them against a plain reference); here: the shipped digit weights
against what torch gave, the loader refusing a file of the wrong shape,
and the reads on development frames (never the benchmark's seeds). See
docs/vision-dice.md, "Session 15b: digit dice".
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.bench.vision import learned_digit_faces, render_dome_sample
from companion.vision.dice.canonical import CANON_PX, features
from companion.vision.dice.dome import DEFAULT_DIE_FRACTION
from companion.vision.dice.facecnn import DIGIT_CNN_PATH, FaceCNN, digit_cnn, load_reader
from companion.vision.dice.facenet import CLASSES
from companion.vision.dice.photo import to_gray

#: torch's logits with the shipped weights (``digit_faces_cnn.npz``) for the
#: feature rows of two fixed random patches, computed when they were trained.
TORCH_LOGITS = [[36.3102, -8.4703, -13.1063, -18.7905, -19.6503, -16.9664, -22.8167],
                [17.2485, -4.4811, -4.3698, -12.3234, -13.4954, -3.9266, -10.6301]]


def test_the_shipped_digit_reader_gives_what_torch_gave_on_a_fixed_input() -> None:
    net = digit_cnn()
    patches = np.random.default_rng(0).uniform(0, 255, (2, CANON_PX, CANON_PX)).astype(np.float32)
    assert net.classes == CLASSES
    assert np.abs(net.logits(features(patches)) - np.array(TORCH_LOGITS)).max() < 1e-3


def test_a_reader_file_of_the_wrong_kind_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    with np.load(DIGIT_CNN_PATH) as data:
        arrays = {name: np.asarray(data[name]) for name in data.files}
    arrays["dense2_w"], arrays["dense2_b"] = arrays["dense2_w"][:, :5], arrays["dense2_b"][:5]
    np.savez(tmp_path / "five.npz", **arrays)
    assert FaceCNN.load(tmp_path / "five.npz").classes == 5
    with pytest.raises(ValueError, match="gives 5 classes, not 7"):
        load_reader(tmp_path / "five.npz")
    arrays["conv2_b"] = arrays["conv2_b"][:3]
    np.savez(tmp_path / "cut.npz", **arrays)
    with pytest.raises(ValueError, match="conv2_b has shape"):
        load_reader(tmp_path / "cut.npz")


def test_a_digit_the_classifier_doubts_is_read_again_right() -> None:
    """Development frame 702027: a settled 1 in view the classifier found at
    the right place and turn (1.00) but refused for another value at 0.96
    elsewhere in the dome; the convolutional reader is sure of it upright
    and not at the other quarter turns."""
    from companion.vision.dice.digitnet import read_digit

    faces = learned_digit_faces()
    sample = render_dome_sample(702027, edition="digits")
    assert sample.state == "settled" and not sample.covered and sample.value == 1
    gray = to_gray(sample.crop).astype(np.float32)
    assert read_digit(gray, DEFAULT_DIE_FRACTION, faces.digits) is None  # the classifier alone
    reading = faces.read(sample.crop)
    assert reading.state == "settled" and reading.value == 1


def test_no_second_read_while_a_hand_is_over_the_dome() -> None:
    """Development frame 702045: a hand over the dome, the die (a 6) beside
    the fingers. The convolutional reader would read it (its other checks
    pass); the hand checks (colour 0.13 over 0.1, darkness 0.32 over 0.3)
    refuse it, and nothing else reads it."""
    from companion.vision.dice.digitnet import DIGIT_ACCEPT, read_digit

    faces = learned_digit_faces()
    sample = render_dome_sample(702045, edition="digits")
    assert sample.state == "hidden"
    gray = to_gray(sample.crop).astype(np.float32)
    loose = replace(DIGIT_ACCEPT, max_foreign_again=0.2, max_dark_again=1.0)
    by_cnn = read_digit(gray, DEFAULT_DIE_FRACTION, faces.digits, accept=loose, crop_bgr=sample.crop)
    assert by_cnn is not None and by_cnn.value == 6
    assert read_digit(gray, DEFAULT_DIE_FRACTION, faces.digits, crop_bgr=sample.crop) is None
    assert faces.read(sample.crop).value is None
