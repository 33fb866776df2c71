"""Where the project finds its files: layouts, models, shared data, user data.

Kept in one place so every adapter agrees, and so tests can point elsewhere
through environment variables.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The repository (or installed source tree) root: the folder holding ``companion/``.
PROJECT_ROOT = Path(__file__).resolve().parent.parent

#: Board layout files shipped with the project.
CALIBRATION_DIR = PROJECT_ROOT / "calibration"

#: Speech models installed by ``companion models install ...``.
MODELS_DIR = Path(os.environ.get("COMPANION_MODELS_DIR", PROJECT_ROOT / "models"))


def shared_data_dir() -> Path:
    """The shared data folder (``../shared/data`` beside the project), or
    ``$COMPANION_SHARED_DATA`` when set. It may not exist: callers skip cleanly."""
    env = os.environ.get("COMPANION_SHARED_DATA")
    if env:
        return Path(env)
    return PROJECT_ROOT.parent / "shared" / "data"


def dice_real_dir() -> Path:
    """Real labelled dice photos (YOLO labels), if present."""
    return shared_data_dir() / "dice-real"


def spoken_digits_dir() -> Path:
    """Real recordings of spoken digits one to nine, if present."""
    return shared_data_dir() / "spoken-digits"


def user_data_dir() -> Path:
    """Where the companion keeps its game record and score between runs."""
    env = os.environ.get("COMPANION_DATA_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "companion"
