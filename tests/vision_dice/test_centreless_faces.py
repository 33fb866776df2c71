"""A 2 or a 4 needs a surer classifier: it is what a 3 or a 5 looks like with a washed-out centre pip.

``data/game16-640x480-t369-a-three.png`` is the dome crop the board reader cut
from whole rendered game 16 (``companion bench referee --source video --size
640x480 --fps 6``, frame at 369.0 s): the die shows a 3 whose centre pip the
dome's glare has paled (grey 237 against a face of about 245) without
saturating it. The classifier read it as a 2 with probability 0.991, the
loop announced a false "That peg moved 3 spaces, but the pop was 2."
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.vision.dice.dome import NET_ACCEPT, read_by_classifier
from companion.vision.dice.face_search import NetFace

CROP = Path(__file__).with_name("data") / "game16-640x480-t369-a-three.png"


def test_a_three_with_a_washed_out_centre_is_not_read_as_a_two() -> None:
    crop = cv2.imread(str(CROP))
    assert crop is not None
    reading = read_by_classifier(crop)
    assert reading.value in (None, 3)
    assert reading.state == "hidden" or reading.value == 3


def _face(value: int, probability: float) -> NetFace:
    return NetFace(value, probability, rival=0.5, x=80.0, y=80.0, angle_deg=0.0,
                   from_centre=0.1, turned=0.99)


@pytest.mark.parametrize(("value", "probability", "sure"), [
    (2, 0.991, False), (4, 0.991, False),  # what a 3 or a 5 with a paled centre reads as
    (2, 0.996, True), (4, 0.996, True),
    (3, 0.991, True), (5, 0.991, True), (1, 0.991, True), (6, 0.991, True),
    (3, 0.98, False),
])
def test_a_two_or_a_four_needs_a_surer_classifier(value: int, probability: float, sure: bool) -> None:
    assert NET_ACCEPT.sure_of(_face(value, probability)) is sure
