"""DieReading: a value only when settled, confidence in 0..1."""

from __future__ import annotations

import pytest

from companion.vision.dice import DieReading


def test_settled_needs_a_value() -> None:
    assert DieReading("settled", 4, 0.9).value == 4
    with pytest.raises(ValueError, match="1..6"):
        DieReading("settled", None, 0.9)
    with pytest.raises(ValueError, match="1..6"):
        DieReading("settled", 7, 0.9)


@pytest.mark.parametrize("state", ["cocked", "hidden"])
def test_other_states_carry_no_value(state: str) -> None:
    assert DieReading.unreadable(state).value is None  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no value"):
        DieReading(state, 3, 0.5)  # type: ignore[arg-type]


def test_confidence_and_state_are_checked() -> None:
    with pytest.raises(ValueError, match="confidence"):
        DieReading("settled", 2, 1.5)
    with pytest.raises(ValueError, match="state"):
        DieReading("tumbling", None, 0.0)  # type: ignore[arg-type]


def test_readings_are_immutable_values() -> None:
    reading = DieReading("settled", 6, 0.8)
    assert reading == DieReading("settled", 6, 0.8)
    with pytest.raises(AttributeError):
        reading.value = 5  # type: ignore[misc]
