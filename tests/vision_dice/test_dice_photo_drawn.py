"""read_die_photo on drawn dice: every face at any angle, side faces, glare."""

from __future__ import annotations

import numpy as np
import pytest
from drawn_dice import draw_die

from companion.vision.dice import DieReading, read_die_photo


@pytest.mark.parametrize("value", range(1, 7))
def test_every_face_reads_at_any_angle(value: int) -> None:
    for angle in range(0, 360, 41):
        reading = read_die_photo(draw_die(value, angle, seed=angle))
        assert reading == DieReading("settled", value, reading.confidence), (value, angle)
        assert 0.5 <= reading.confidence <= 1.0


@pytest.mark.parametrize(("value", "side"), [(1, 6), (2, 5), (3, 4), (4, 6), (6, 3)])
def test_side_face_pips_are_not_counted(value: int, side: int) -> None:
    for angle in (0, 35, 80):
        assert read_die_photo(draw_die(value, angle, side_value=side)).value == value


@pytest.mark.parametrize(("value", "cell"), [(6, (1, 0)), (4, (1, 1)), (5, (-1, 1))])
def test_a_pip_lost_in_glare_is_recovered_when_the_layout_makes_it_certain(
    value: int, cell: tuple[int, int]
) -> None:
    reading = read_die_photo(draw_die(value, 20, glare_cell=cell))
    assert reading.value == value
    unhurt = read_die_photo(draw_die(value, 20))
    assert reading.confidence < unhurt.confidence


def test_a_five_without_its_centre_is_a_four_not_a_guess() -> None:
    # Glare over a 5's centre leaves a valid 4: no layout makes the lost pip certain.
    assert read_die_photo(draw_die(5, 10, glare_cell=(0, 0))).value == 4


def test_a_scale_change_does_not_matter() -> None:
    for size, canvas in ((30, 90), (90, 240), (200, 600)):
        assert read_die_photo(draw_die(5, 15, size=size, canvas=canvas)).value == 5


def test_no_die_is_hidden_with_no_value() -> None:
    blank = np.full((120, 120, 3), 180, np.uint8)
    assert read_die_photo(blank) == DieReading("hidden", None, 0.0)


def test_bad_input_is_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="8-bit"):
        read_die_photo(np.zeros((10, 10, 3), np.float32))
    with pytest.raises(ValueError, match="shape"):
        read_die_photo(np.zeros((10, 10, 2), np.uint8))
