"""The renderer's shortcuts draw what the plain computation draws.

Each speed-up (BGRA remap and warps, skipping the far table, pegs drawn from
one batch, the analytic lens inverse) is checked against the straightforward
computation it replaces.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.layout import load_layout
from companion.sim import Camera, Scene, shapes
from companion.sim.render import PegPlacement, _lens, _peg_pose, _table, _table_bgra, _warp_onto
from companion.sim.textures import table_far, table_near

LAYOUT = load_layout()


def test_lens_remap_equals_a_plain_three_channel_remap() -> None:
    cam = Scene.random(11, LAYOUT, size=(960, 540), distortion=-0.18).camera
    canvas = cam.canvas()
    rng = np.random.default_rng(0)
    img = (rng.random((canvas.height, canvas.width, 3)) * 255).astype(np.uint8)
    mask = np.zeros((canvas.height, canvas.width), np.uint8)
    cv2.circle(mask, (canvas.width // 2, canvas.height // 3), 90, 255, -1)
    out, out_mask = _lens(cam, img.copy(), mask.copy())
    maps = cam.distortion_maps()
    assert maps is not None
    assert out.shape == (540, 960, 3)
    assert np.array_equal(out, cv2.remap(img, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    assert out_mask is not None and np.array_equal(out_mask, cv2.remap(mask, maps[0], maps[1], cv2.INTER_NEAREST))


def test_lens_maps_stay_inside_the_canvas_and_invert_the_lens() -> None:
    cam = Scene.random(12, LAYOUT, size=(1280, 720), distortion=-0.2).camera
    maps = cam.distortion_maps()
    assert maps is not None
    mx, my = maps
    canvas = cam.canvas()
    assert mx.shape == my.shape == (720, 1280)
    assert float(mx.min()) >= 0 and float(mx.max()) <= canvas.width - 1
    assert float(my.min()) >= 0 and float(my.max()) <= canvas.height - 1
    # A frame pixel's map entry, bent by the lens, lands back on that pixel.
    m = cam.canvas_margin
    ys, xs = np.mgrid[0:720:97, 0:1280:131]
    src = np.column_stack([mx[ys, xs].ravel() - m, my[ys, xs].ravel() - m])
    assert np.abs(cam.distort_pixels(src) - np.column_stack([xs.ravel(), ys.ravel()])).max() < 0.06


def test_undistort_inverts_the_full_distortion_model() -> None:
    cam = Camera.look_at((120.0, 390.0, 460.0), (133.5, 133.5, 0.0), (1280, 720), 62, dist=(-0.12, 0.03, 0.002, -0.0015, -0.004))
    rng = np.random.default_rng(3)
    ideal = rng.uniform([0, 0], [1280, 720], (200, 2))
    assert np.allclose(cam.undistort_pixels(cam.distort_pixels(ideal)), ideal, atol=1e-5)


def test_table_without_far_texture_equals_far_then_near_when_near_covers() -> None:
    # Straight down and close: the near texture fills the whole view.
    cam = Scene.random(4, LAYOUT, size=(640, 480), tilt_deg=0.0, distortion=0.0).camera
    z = LAYOUT.marker_z_mm
    w, h = cam.size
    half = np.array([[0.5, 0, 0], [0, 0.5, 0], [0, 0, 1]])

    def to_small(px_per_mm: float, origin: tuple[float, float]) -> np.ndarray:
        to_mm = np.array([[1 / px_per_mm, 0, origin[0]], [0, 1 / px_per_mm, origin[1]], [0, 0, 1]])
        return np.asarray(half @ cam.homography(z) @ to_mm)

    far, near = table_far(LAYOUT, 2), table_near(LAYOUT, 2)
    render_module = importlib.import_module("companion.sim.render")
    assert render_module._covers(near.image.shape, to_small(near.px_per_mm, near.origin), (w // 2, h // 2))
    small = cv2.warpPerspective(far.image, to_small(far.px_per_mm, far.origin), (w // 2, h // 2), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    _warp_onto(small, near.image, to_small(near.px_per_mm, near.origin))
    plain = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    # The same pixels to within one rounding step: OpenCV 5.1's four-channel
    # warp (the fast path's) rounds a few values (62 of 921,600 here) one
    # grey level off its three-channel warp; 5.0 gave them exactly.
    assert int(np.abs(_table(LAYOUT, 2, cam, z).astype(np.int16) - plain.astype(np.int16)).max()) <= 1
    far4, near4 = _table_bgra(LAYOUT, 2)
    assert np.array_equal(far4[..., :3], far.image) and np.array_equal(near4[..., :3], near.image)


def test_pegs_drawn_from_one_batch_look_like_pegs_drawn_one_by_one() -> None:
    cam = Scene.random(5, LAYOUT, size=(960, 540), tilt_deg=38.0).camera
    mesh = shapes.peg_mesh(LAYOUT.peg.radius_mm, LAYOUT.peg.height_mm)
    light = shapes.light_vector(40, 55)
    placements = [PegPlacement(c, 40 + 30 * k, 60 + 17 * k, 0.0, 3.0 * k, 40.0 * k) for k, c in enumerate(("red", "blue", "yellow", "green", "red"))]
    poses = [_peg_pose(p) for p in placements]
    batch = np.zeros((540, 960, 3), np.uint8)
    glare_batch = np.zeros((540, 960), np.uint8)
    one = np.zeros_like(batch)
    glare_one = np.zeros_like(glare_batch)
    for pose, drawing in zip(poses, shapes.peg_drawings(cam, mesh, poses, light, 0.8), strict=True):
        outline = shapes.draw_prepared_peg(batch, glare_batch, drawing)
        alone = shapes.draw_prepared_peg(one, glare_one, shapes.peg_drawings(cam, mesh, [pose], light, 0.8)[0])
        assert np.allclose(outline, alone, atol=1e-6)
    assert batch.any() and glare_batch.any()
    assert np.array_equal(batch, one) and np.array_equal(glare_batch, glare_one)


def test_render_check_finds_no_difference_with_itself_and_names_a_changed_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.sim import render_check

    assert render_check.main(["save", str(tmp_path), "--count", "2"]) == 0
    assert render_check.main(["compare", str(tmp_path), "--count", "2"]) == 0
    assert "mean |difference| 0.000" in capsys.readouterr().out
    first = tmp_path / f"{render_check.FIRST_SEED}.json"
    first.write_text(first.read_text().replace('"state": "', '"state": "x'))
    assert render_check.main(["compare", str(tmp_path), "--count", "2"]) == 1
    assert ".die.state" in capsys.readouterr().out
