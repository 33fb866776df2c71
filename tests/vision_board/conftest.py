"""Fixtures for the board-vision tests."""

from __future__ import annotations

import pytest

from companion.layout import load_layout
from companion.vision.geometry import BoardGeometry


@pytest.fixture(scope="session")
def geometry() -> BoardGeometry:
    return BoardGeometry.from_layout(load_layout())
