"""The simulator: realistic camera frames and whole games with their truth.

See ``docs/board.md`` for the API, the knobs and the figures.
"""

from companion.sim.camera import Camera, random_camera
from companion.sim.render import PegPlacement, PegTruth, Truth, render, render_physical
from companion.sim.scene import DieView, HandView, Scene

__all__ = [
    "Camera",
    "DieView",
    "HandView",
    "PegPlacement",
    "PegTruth",
    "Scene",
    "Truth",
    "random_camera",
    "render",
    "render_physical",
]
