"""The renderer's truth matches its pixels, and it is deterministic."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.layout import HOLE_NAMES, PositionError, load_layout
from companion.sim import Camera, DieView, HandView, Scene, render
from companion.sim.textures import PEG_BGR

LAYOUT = load_layout()
PEGS = {
    "red": ["home", "home", "track:3", "finish:2"],
    "blue": ["track:12", "track:1", "home", "home"],
    "yellow": ["track:15", "track:20", "home", "finish:4"],
    "green": ["home", "home", "track:27", "track:28"],
}


def _hsv(bgr: object) -> np.ndarray:
    return np.asarray(cv2.cvtColor(np.asarray(bgr, np.uint8).reshape(1, 1, 3), cv2.COLOR_BGR2HSV)).reshape(3)


def _hue_name(bgr: np.ndarray) -> str | None:
    """The peg colour a pixel shows, or None for an unsaturated (board, hole) pixel."""
    hsv = _hsv(bgr)
    if hsv[1] < 110 or hsv[2] < 70:
        return None
    refs = {c: int(_hsv(v)[0]) for c, v in PEG_BGR.items()}
    return min(refs, key=lambda c: min(abs(int(hsv[0]) - refs[c]), 180 - abs(int(hsv[0]) - refs[c])))


def _sample(img: np.ndarray, p: tuple[float, float]) -> np.ndarray:
    x, y = int(round(p[0])), int(round(p[1]))
    return np.median(img[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3), axis=0).astype(np.uint8)


def _clean(scene: Scene) -> Scene:
    from dataclasses import replace

    return replace(scene, noise=0.0, glare=0.0, jpeg_quality=100, motion_blur_px=0.0, hand=None, light_gradient=0.0, vignette=0.0, exposure=1.0, light_kelvin=6500.0)


@pytest.mark.parametrize(("tilt", "azimuth", "distortion"), [(0.0, 180.0, 0.0), (35.0, 60.0, -0.15), (44.0, 250.0, 0.05)])
def test_pegged_holes_show_the_peg_colour_at_the_peg_top(tilt: float, azimuth: float, distortion: float) -> None:
    scene = _clean(Scene.random(3, LAYOUT, size=(1280, 720), tilt_deg=tilt, azimuth_deg=azimuth, distortion=distortion))
    img, truth = render(PEGS, DieView(2), scene, seed=5)
    assert truth.pegs == {c: sorted(v, key=lambda p: (p != "home", p.split(":")[0] == "finish", int(p.split(":")[1]) if ":" in p else 0)) for c, v in PEGS.items()}
    for view in truth.peg_views:
        assert view.hole is not None
        assert _hue_name(_sample(img, view.top_px)) == view.color, view
    # Empty holes that no peg hides show no peg colour; hidden ones show a peg.
    for hole in HOLE_NAMES:
        if hole in truth.occupancy:
            continue
        x, y = truth.holes_px[hole]
        if hole in truth.hidden_holes:
            assert _hue_name(_sample(img, (x, y))) is not None, hole
            continue
        near_edge = any(b[0] - 3 <= x <= b[2] + 3 and b[1] - 3 <= y <= b[3] + 3 for b in (v.box for v in truth.peg_views))
        if not near_edge:
            assert _hue_name(_sample(img, (x, y))) is None, hole


def test_tilted_peg_top_is_not_above_its_hole() -> None:
    scene = _clean(Scene.random(4, LAYOUT, size=(1280, 720), tilt_deg=40, azimuth_deg=0, distortion=0.0))
    _, truth = render(PEGS, 1, scene, seed=1)
    shifts = [np.hypot(v.top_px[0] - truth.holes_px[v.hole][0], v.top_px[1] - truth.holes_px[v.hole][1]) for v in truth.peg_views if v.hole]
    assert min(shifts) > 3


def test_same_seed_same_bytes_and_different_seeds_differ() -> None:
    scene = Scene.random(11, LAYOUT, size=(640, 480))
    a, _ = render(PEGS, DieView(4), scene, seed=9)
    b, _ = render(PEGS, DieView(4), Scene.random(11, LAYOUT, size=(640, 480)), seed=9)
    c, _ = render(PEGS, DieView(4), scene, seed=10)
    assert a.tobytes() == b.tobytes()
    assert a.tobytes() != c.tobytes()
    assert Scene.random(1, LAYOUT) != Scene.random(2, LAYOUT)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_markers_are_detected_where_the_truth_says(seed: int) -> None:
    scene = Scene.random(100 + seed, LAYOUT, size=(1280, 720), tilt_deg=9.0 * seed, hand=None, motion_blur_px=0.0, defocus_px=0.5, noise=1.5, light_gradient=0.1, vignette=0.1, exposure=1.0)
    img, truth = render(PEGS, 6, scene, seed=seed)
    assert img.shape == (scene.camera.height, scene.camera.width, 3)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(img)
    assert ids is not None
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    assert set(found) == {0, 1, 2, 3}
    for k, c in found.items():
        assert np.abs(c - truth.markers_px[k]).max() < 2.5, (k, c, truth.markers_px[k])


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_die_face_drawn_is_the_truth(value: int) -> None:
    cx, cy = LAYOUT.die.center
    cam = Camera.look_at((cx, cy, 160.0), (cx, cy, 0.0), (640, 480), 50)
    scene = Scene(camera=cam, noise=0.0, glare=0.0, shadow=0.0)
    img, truth = render({}, DieView(value, yaw_deg=17.0 * value, offset_mm=(3.0, -2.0)), scene, seed=value)
    assert truth.die_box is not None and truth.die_value == value and truth.die_settled
    x0, y0, x1, y1 = truth.die_box
    crop = cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    n, _, stats, _ = cv2.connectedComponentsWithStats((crop < 90).astype(np.uint8))
    area = (x1 - x0) * (y1 - y0)
    pips = [s for s in stats[1:] if 0.002 * area < s[cv2.CC_STAT_AREA] < 0.05 * area]
    assert len(pips) == value


def test_die_states_and_digits_edition() -> None:
    scene = Scene.default(LAYOUT)
    img_d, truth = render({}, DieView(3, edition="digits"), scene, seed=2)
    assert truth.die_edition == "digits"
    img_p, _ = render({}, DieView(3, edition="pips"), scene, seed=2)
    x0, y0, x1, y1 = truth.die_box or (0, 0, 0, 0)
    assert not np.array_equal(img_d[y0:y1, x0:x1], img_p[y0:y1, x0:x1])
    _, cocked = render({}, DieView(3, state="cocked"), scene, seed=2)
    assert cocked.die_state == "cocked" and not cocked.die_settled
    from dataclasses import replace

    elsewhere = HandView(tip_mm=LAYOUT.holes["track:20"], height_mm=90)
    for sc in (scene, replace(scene, hand=elsewhere)):
        _, hidden = render({}, DieView(3, state="hidden"), sc, seed=2)
        assert hidden.hand_present and hidden.hand_box is not None
        x0, y0, x1, y1 = hidden.dome_box
        assert hidden.hand_mask is not None and hidden.hand_mask[y0:y1, x0:x1].mean() > 0.3


def test_hand_covers_the_holes_the_truth_names() -> None:
    hand = HandView(tip_mm=LAYOUT.holes["track:5"], height_mm=40, from_deg=0)
    scene = _clean(Scene.default(LAYOUT))
    from dataclasses import replace

    img, truth = render(PEGS, 1, replace(scene, hand=hand), seed=3)
    assert truth.hand_present and "track:5" in truth.covered_holes
    assert "yellow:home:1" not in truth.covered_holes
    x, y = truth.holes_px["track:5"]
    hsv = _hsv(_sample(img, (x, y)))
    assert 5 <= hsv[0] <= 25  # skin, not the dark hole


def test_bad_positions_and_die_are_named() -> None:
    scene = Scene.default(LAYOUT, size=(640, 480))
    with pytest.raises(PositionError, match="unknown colour"):
        render({"pink": ["home"]}, 1, scene)
    with pytest.raises(Exception, match="die value must be 1..6"):
        render({}, 7, scene)
    with pytest.raises(Exception, match="unknown scene knob"):
        Scene.random(1, LAYOUT, wobble=3)


def test_a_peg_in_front_of_a_hole_hides_it() -> None:
    from companion.sim import PegPlacement, render_physical

    scene = _clean(Scene.random(6, LAYOUT, size=(1280, 720), tilt_deg=40, azimuth_deg=180, distortion=0.0))
    hx, hy = LAYOUT.holes["track:18"]
    cam = scene.camera.position
    d = np.array([cam[0] - hx, cam[1] - hy])
    d /= np.linalg.norm(d)
    peg = PegPlacement("blue", hx + 8 * d[0], hy + 8 * d[1])  # standing on the board, just in front
    img, truth = render_physical([peg], 1, scene, seed=1, layout=LAYOUT)
    assert "track:18" in truth.hidden_holes and "track:18" not in truth.occupancy
    assert _hue_name(_sample(img, truth.holes_px["track:18"])) == "blue"
    assert "track:10" not in truth.hidden_holes
