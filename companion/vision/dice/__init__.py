"""The die reader: a die's top face from a photo or from the rectified dome.

Public API (see ``docs/vision-dice.md``)::

    from companion.vision.dice import DieReading, read_die_photo, read_die_in_dome, FaceTemplates

The heavy modules (OpenCV) are imported lazily, on first use of a name, so
that importing the value type :class:`DieReading` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from companion.vision.dice.reading import DIE_STATES, DieReading, DieState

if TYPE_CHECKING:
    from companion.vision.dice.dome import (
        DEFAULT_DIE_FRACTION,
        DOME_SPAN_RADII,
        die_fraction,
        read_die_in_dome,
    )
    from companion.vision.dice.photo import read_die_photo
    from companion.vision.dice.templates import FaceTemplates

__all__ = [
    "DEFAULT_DIE_FRACTION",
    "DIE_STATES",
    "DOME_SPAN_RADII",
    "DieReading",
    "DieState",
    "FaceTemplates",
    "die_fraction",
    "read_die_in_dome",
    "read_die_photo",
]

_LAZY = {
    "read_die_photo": "companion.vision.dice.photo",
    "read_die_in_dome": "companion.vision.dice.dome",
    "die_fraction": "companion.vision.dice.dome",
    "DEFAULT_DIE_FRACTION": "companion.vision.dice.dome",
    "DOME_SPAN_RADII": "companion.vision.dice.dome",
    "FaceTemplates": "companion.vision.dice.templates",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
