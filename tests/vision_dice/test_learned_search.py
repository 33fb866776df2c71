"""The learned faces searched for as the pip classifier searches (``learned_search.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.bench.vision import learned_digit_faces, render_dome_sample
from companion.vision.dice.canonical import canonical_patch, features
from companion.vision.dice.dome import DEFAULT_DIE_FRACTION, DOME_SPAN_RADII
from companion.vision.dice.face_search import search_face
from companion.vision.dice.learned_search import AGREE, READ_BACK, FaceBank, inner_lead
from companion.vision.dice.photo import to_gray
from companion.vision.dice.templates import FaceTemplates, face_place


@pytest.fixture(scope="module")
def faces() -> FaceTemplates:
    return learned_digit_faces()


def test_a_window_scores_the_same_at_every_quarter_turn(faces: FaceTemplates) -> None:
    # Each value's four quarter turns are in the bank: a die turned by a
    # quarter turn reads the same, and the "no face" column stays empty.
    bank = FaceBank.of(faces.patches)
    sample = render_dome_sample(700003, state="settled", edition="digits")
    assert sample.face_xy is not None and sample.face_angle_deg is not None
    gray = to_gray(sample.crop).astype(np.float32)
    die = DEFAULT_DIE_FRACTION * min(gray.shape[:2])
    patch = canonical_patch(gray, *sample.face_xy, sample.face_angle_deg, die)
    turned = np.stack([np.rot90(patch, k) for k in range(4)])
    scores = bank.probabilities(features(turned))
    assert np.allclose(scores, scores[0], atol=1e-5)
    assert np.all(scores[:, 0] == 0.0)


def test_the_search_finds_the_face_and_its_middle_names_the_value(faces: FaceTemplates) -> None:
    sample = render_dome_sample(700003, state="settled", edition="digits")
    assert sample.face_xy is not None
    gray = to_gray(sample.crop).astype(np.float32)
    die = DEFAULT_DIE_FRACTION * min(gray.shape[:2])
    face = search_face(gray, DEFAULT_DIE_FRACTION, faces.bank, DOME_SPAN_RADII)
    assert face.value == sample.value
    assert np.hypot(face.x - sample.face_xy[0], face.y - sample.face_xy[1]) < 0.15 * die
    value, lead = inner_lead(gray, face, die, faces.middles)
    assert value == sample.value and lead > 0.0
    # The calibration check asks more than play: faces only just told apart
    # in their own frames get confused in play.
    assert READ_BACK.min_inner_lead > AGREE.min_inner_lead


def test_face_place_matches_the_renderers_pose() -> None:
    sample = render_dome_sample(700007, state="settled", edition="digits")
    assert sample.face_xy is not None and sample.face_angle_deg is not None
    x, y, angle = face_place(to_gray(sample.crop).astype(np.float32))
    assert np.hypot(x - sample.face_xy[0], y - sample.face_xy[1]) < 2.0
    assert abs((angle - sample.face_angle_deg + 45.0) % 90.0 - 45.0) < 8.0
