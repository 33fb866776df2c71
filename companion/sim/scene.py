"""Every knob of a rendered frame, as plain frozen values with seeded random settings.

``Scene`` is what a camera and a room add to a position; ``DieView`` is the
die; ``HandView`` a hand or arm over the board. ``Scene.random(rng, **overrides)``
draws every knob from realistic ranges; overrides pin any of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from companion.errors import UserError
from companion.layout import Layout
from companion.sim.camera import Camera, random_camera
from companion.sim.textures import BOARD_STYLES, TABLE_STYLES, DigitStyle

DIE_STATES = ("settled", "cocked", "tumbling", "hidden")
DIE_EDITIONS = ("pips", "digits")


@dataclass(frozen=True)
class DieView:
    """The die under the dome.

    ``state``: ``settled`` (flat, ``value`` on top), ``cocked`` (leaning
    against the dome wall, no clear top face: players tap the dome),
    ``tumbling`` (in the air, blurred) or ``hidden`` (a hand covers the dome).
    ``yaw_deg`` turns the die about the vertical; ``offset_mm`` moves it from
    the dome's centre (None = drawn from the render seed). ``digit_style``
    changes how a digit die's numbers are drawn (None: the default look; used
    to train the digit classifier on other fonts than it is tested on).
    """

    value: int
    state: str = "settled"
    edition: str = "pips"
    yaw_deg: float | None = None
    offset_mm: tuple[float, float] | None = None
    digit_style: DigitStyle | None = None

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int) or not 1 <= self.value <= 6:
            raise UserError(f"die value must be 1..6, not {self.value!r}")
        if self.state not in DIE_STATES:
            raise UserError(f"die state must be one of {', '.join(DIE_STATES)}, not {self.state!r}")
        if self.edition not in DIE_EDITIONS:
            raise UserError(f"die edition must be one of {', '.join(DIE_EDITIONS)}, not {self.edition!r}")


@dataclass(frozen=True)
class HandView:
    """A hand (and forearm) over the board.

    The fingertips are at ``tip_mm`` (board x, y) at ``height_mm`` above the
    surface; the arm comes in from ``from_deg`` (0 = from the top edge of the
    board, 90 = from the right, clockwise). ``pinch`` closes the fingers (as
    when holding a peg).
    """

    tip_mm: tuple[float, float]
    height_mm: float = 45.0
    from_deg: float = 180.0
    skin_bgr: tuple[int, int, int] = (120, 160, 215)
    sleeve_bgr: tuple[int, int, int] = (120, 80, 60)
    scale: float = 1.0
    pinch: bool = False

    @staticmethod
    def random(rng: np.random.Generator, layout: Layout) -> HandView:
        w, h = layout.size_mm
        skins = ((120, 160, 215), (95, 135, 190), (70, 100, 150), (50, 75, 110), (140, 175, 225))
        sleeves = ((120, 80, 60), (40, 40, 40), (200, 200, 200), (60, 60, 150), (90, 130, 60), (150, 110, 160))
        return HandView(
            tip_mm=(float(rng.uniform(0.15, 0.85) * w), float(rng.uniform(0.15, 0.85) * h)),
            height_mm=float(rng.uniform(25, 110)),
            from_deg=float(rng.uniform(0, 360)),
            skin_bgr=skins[int(rng.integers(len(skins)))],
            sleeve_bgr=sleeves[int(rng.integers(len(sleeves)))],
            scale=float(rng.uniform(0.8, 1.15)),
            pinch=bool(rng.random() < 0.5),
        )


@dataclass(frozen=True)
class Scene:
    """Everything about a frame except the position: camera, light, optics, hand."""

    camera: Camera
    board_style: int = 0
    table_style: int = 0
    #: Light colour temperature in kelvin (2700 warm lamp .. 6500 daylight).
    light_kelvin: float = 4500.0
    #: Overall exposure gain (1 = nominal).
    exposure: float = 1.0
    #: Direction the main light comes from: azimuth (deg, 0 = from the board's
    #: top edge, clockwise) and elevation above the table (deg).
    light_azimuth_deg: float = 30.0
    light_elevation_deg: float = 60.0
    #: Uneven light: a linear falloff across the frame (0 = even, 0.5 = half as bright).
    light_gradient: float = 0.0
    light_gradient_deg: float = 0.0
    #: Darkening towards the frame's corners (0 = none).
    vignette: float = 0.0
    #: Specular glare strength on the dome and the pegs (0 = matte, 1 = strong).
    glare: float = 0.4
    #: Strength of cast shadows (0 = none, 1 = black).
    shadow: float = 0.45
    #: Sensor noise, standard deviation in 8-bit levels.
    noise: float = 2.0
    #: Motion blur length in pixels (0 = none) and its direction.
    motion_blur_px: float = 0.0
    motion_blur_deg: float = 0.0
    #: Lens softness (Gaussian sigma in pixels).
    defocus_px: float = 0.6
    #: JPEG quality (100 = no compression).
    jpeg_quality: int = 100
    hand: HandView | None = None
    #: Whether the four marker sheets lie around the board (False: a table
    #: without them, for locating the board by its own print).
    markers: bool = True
    #: How much the lens and motion soften a hand (blur sigma as a fraction
    #: of a finger's radius in pixels; 0 = crisp edges).
    hand_softness: float = 0.0

    @property
    def size(self) -> tuple[int, int]:
        return self.camera.size

    @staticmethod
    def default(layout: Layout, size: tuple[int, int] = (1280, 720), tilt_deg: float = 0.0) -> Scene:
        """A tidy scene: camera at the board's bottom edge, fixed light, no effects."""
        rng = np.random.default_rng(0)
        return Scene(camera=_camera(rng, layout, size=size, tilt_deg=tilt_deg, azimuth_deg=180.0, distortion=0.0), noise=0.0)

    @staticmethod
    def random(rng: np.random.Generator | int, layout: Layout, **overrides: Any) -> Scene:
        """Every knob drawn from realistic ranges; keyword overrides pin knobs.

        Camera-shaping overrides ``size``, ``tilt_deg``, ``azimuth_deg`` and
        ``distortion`` are used to build the random camera (unless ``camera``
        is given itself).
        """
        if not isinstance(rng, np.random.Generator):
            rng = np.random.default_rng(rng)
        cam_keys = {"size", "tilt_deg", "azimuth_deg", "distortion"}
        cam_args = {k: overrides.pop(k) for k in list(overrides) if k in cam_keys}
        names = {f.name for f in fields(Scene)}
        unknown = set(overrides) - names
        if unknown:
            raise UserError(f"unknown scene knob(s): {', '.join(sorted(unknown))}")
        camera = overrides.pop("camera", None) or _camera(rng, layout, **cam_args)
        kelvin = float(rng.choice([rng.uniform(2600, 3400), rng.uniform(3400, 5500), rng.uniform(5500, 7000)]))
        scene = Scene(
            camera=camera,
            board_style=int(rng.integers(len(BOARD_STYLES))),
            table_style=int(rng.integers(len(TABLE_STYLES))),
            light_kelvin=kelvin,
            exposure=float(rng.uniform(0.7, 1.2)),
            light_azimuth_deg=float(rng.uniform(0, 360)),
            light_elevation_deg=float(rng.uniform(35, 85)),
            light_gradient=float(rng.uniform(0, 0.45)),
            light_gradient_deg=float(rng.uniform(0, 360)),
            vignette=float(rng.uniform(0, 0.4)),
            glare=float(rng.uniform(0, 1)),
            shadow=float(rng.uniform(0.2, 0.6)),
            noise=float(rng.uniform(0.5, 7)),
            motion_blur_px=float(rng.uniform(2, 10)) if rng.random() < 0.2 else 0.0,
            motion_blur_deg=float(rng.uniform(0, 180)),
            defocus_px=float(rng.uniform(0.3, 1.4)),
            jpeg_quality=int(rng.integers(45, 96)) if rng.random() < 0.7 else 100,
            hand=HandView.random(rng, layout) if rng.random() < 0.3 else None,
        )
        # Drawn last, so adding this knob left every earlier draw unchanged.
        scene = replace(scene, hand_softness=float(rng.uniform(0.15, 0.4)))
        return replace(scene, **overrides)


def _camera(rng: np.random.Generator, layout: Layout, **kwargs: Any) -> Camera:
    """A random camera that sees the whole board and all four markers."""
    pts = [(x, y, layout.marker_z_mm) for m in layout.markers for x, y in m.corners]
    w, h = layout.size_mm
    pts += [(0, 0, 0), (w, 0, 0), (w, h, 0), (0, h, 0)]
    return random_camera(rng, np.asarray(pts, np.float64), (w / 2, h / 2), **kwargs)


def kelvin_to_bgr_gain(kelvin: float) -> tuple[float, float, float]:
    """Per-channel gains of a light of *kelvin*, normalised so green is 1.

    A fit of the black-body colour (Tanner Helland's approximation), enough
    for the warm-lamp versus daylight difference a camera without perfect
    white balance shows.
    """
    t = max(1000.0, min(40000.0, kelvin)) / 100
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    r, g, b = (min(255.0, max(1.0, v)) for v in (r, g, b))
    # A camera's auto white balance undoes most of the cast: keep a third of it.
    keep = 0.35
    ref = (255.0, 243.0, 239.0)  # ~6500 K
    gains = [1 + keep * (v / rv * ref[1] / g - 1) for v, rv in ((b, ref[2]), (g, ref[1]), (r, ref[0]))]
    return (gains[0], gains[1], gains[2])
