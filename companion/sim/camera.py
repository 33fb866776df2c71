"""A pinhole camera with lens distortion, looking at the board.

World coordinates are the layout's: millimetres, x right, y down, z up towards
the camera (the playing surface is z = 0). That frame is left-handed, so the
camera works internally in (x, y, -z), a right-handed frame in which OpenCV's
conventions (camera x right, y down, z forward) hold unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

#: Resolutions a random camera picks from (width, height).
RESOLUTIONS: tuple[tuple[int, int], ...] = (
    (640, 480),
    (800, 600),
    (960, 540),
    (1280, 720),
    (1280, 960),
    (1600, 900),
    (1920, 1080),
)


@dataclass(frozen=True, eq=False)
class Camera:
    """Intrinsics, distortion and pose (world -> camera, OpenCV rvec/tvec)."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    #: OpenCV distortion (k1, k2, p1, p2, k3).
    dist: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)
    _maps: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @cached_property
    def K(self) -> FloatArray:  # noqa: N802 - the usual name of the intrinsic matrix
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1]], dtype=np.float64)

    @cached_property
    def R(self) -> FloatArray:  # noqa: N802
        """Rotation from the internal right-handed world (x, y, -z) to the camera."""
        r, _ = cv2.Rodrigues(np.asarray(self.rvec, dtype=np.float64))
        return np.asarray(r, dtype=np.float64)

    @cached_property
    def position(self) -> FloatArray:
        """The camera centre in world coordinates (z up)."""
        c = -self.R.T @ np.asarray(self.tvec, dtype=np.float64)
        return np.array([c[0], c[1], -c[2]])

    @property
    def has_distortion(self) -> bool:
        return any(abs(d) > 1e-12 for d in self.dist)

    @cached_property
    def _world_to_camera(self) -> tuple[FloatArray, FloatArray]:
        """(M, t) with camera = world @ M + t: the z flip folded into R^T (exact:
        it only changes signs). Projection is called thousands of times a frame."""
        m = self.R.T * np.array([[1.0], [1.0], [-1.0]])
        return m, np.asarray(self.tvec, dtype=np.float64)

    @cached_property
    def _focal_centre(self) -> tuple[FloatArray, FloatArray]:
        return np.array([self.fx, self.fy]), np.array([self.cx, self.cy])

    def to_camera(self, points: FloatArray) -> FloatArray:
        """World points (N, 3), z up -> camera coordinates (N, 3), z forward."""
        m, t = self._world_to_camera
        return np.asarray(points, dtype=np.float64).reshape(-1, 3) @ m + t

    def depth(self, points: FloatArray) -> FloatArray:
        """Distance along the optical axis (mm) of world points (N, 3)."""
        return self.to_camera(points)[:, 2]

    def project_ideal(self, points: FloatArray) -> FloatArray:
        """World points (N, 3) -> pixels of the undistorted pinhole image (N, 2)."""
        pc = self.to_camera(points)
        f, c = self._focal_centre
        return pc[:, :2] / np.maximum(pc[:, 2:3], 1e-6) * f + c

    def project(self, points: FloatArray) -> FloatArray:
        """World points (N, 3) in mm, z up -> pixels in the camera image (N, 2), distortion included."""
        ideal = self.project_ideal(points)
        return self.distort_pixels(ideal) if self.has_distortion else ideal

    def distort_pixels(self, ideal: FloatArray) -> FloatArray:
        """Pinhole pixels -> where the distorting lens puts them."""
        pts = np.asarray(ideal, dtype=np.float64).reshape(-1, 2)
        x = (pts[:, 0] - self.cx) / self.fx
        y = (pts[:, 1] - self.cy) / self.fy
        k1, k2, p1, p2, k3 = self.dist
        r2 = x * x + y * y
        radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return np.column_stack([xd * self.fx + self.cx, yd * self.fy + self.cy])

    def homography(self, z: float = 0.0) -> FloatArray:
        """The 3x3 homography from plane ``z`` (mm, x/y) to pinhole pixels.

        Exact for the undistorted image; with lens distortion use :meth:`project`.
        """
        src = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], dtype=np.float64)
        dst = self.project_ideal(np.column_stack([src, np.full(4, z)]))
        h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        return np.asarray(h, dtype=np.float64)

    def undistort_pixels(self, distorted: FloatArray, iterations: int = 40) -> FloatArray:
        """Inverse of :meth:`distort_pixels` by Newton's method (exact to ~1e-6 px).

        ``cv2.undistortPoints`` stops after a few fixed-point steps and is off
        by pixels near the corners of a strongly distorting lens. The Jacobian
        is the model's own derivative (one evaluation per step, not five).
        """
        target = np.asarray(distorted, np.float64).reshape(-1, 2)
        k1, k2, p1, p2, k3 = self.dist
        # Work in normalised coordinates; the tolerance stays 1e-6 px.
        tx, ty = (target[:, 0] - self.cx) / self.fx, (target[:, 1] - self.cy) / self.fy
        x, y = tx.copy(), ty.copy()
        tol_x, tol_y = 1e-6 / self.fx, 1e-6 / self.fy
        for _ in range(iterations):
            xx, yy, xy = x * x, y * y, x * y
            r2 = xx + yy
            radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
            fx = x * radial + 2 * p1 * xy + p2 * (r2 + 2 * xx) - tx
            fy = y * radial + p1 * (r2 + 2 * yy) + 2 * p2 * xy - ty
            if float(np.abs(fx).max(initial=0.0)) < tol_x and float(np.abs(fy).max(initial=0.0)) < tol_y:
                break
            d_radial = 2 * (k1 + r2 * (2 * k2 + 3 * k3 * r2))  # d radial / d x = x * this
            jxx = radial + xx * d_radial + 2 * p1 * y + 6 * p2 * x
            jxy = xy * d_radial + 2 * p1 * x + 2 * p2 * y
            jyy = radial + yy * d_radial + 6 * p1 * y + 2 * p2 * x
            det = jxx * jyy - jxy * jxy
            det = np.where(np.abs(det) < 1e-12, 1e-12, det)
            x = x - (fx * jyy - jxy * fy) / det
            y = y - (jxx * fy - fx * jxy) / det
        return np.column_stack([x * self.fx + self.cx, y * self.fy + self.cy])

    def _lens_grid(self) -> tuple[tuple[NDArray[np.float32], NDArray[np.float32]], int]:
        """For each output pixel, the pinhole pixel the lens brought there
        (x and y maps of the frame's size, frame coordinates), and the canvas
        margin that keeps every such pixel inside the canvas (cached).

        The inverse of :meth:`distort_pixels`, solved exactly on a 16-px grid
        and resized (distortion is smooth). The maps are views into the
        resized grid: no full-frame copy is made here.
        """
        cached = self._maps.get("grid")
        if cached is None:
            # Grid nodes sit where cv2.resize puts source pixel centres when
            # enlarging by `step` (at step*i + (step-1)/2), starting one node
            # before the frame so every output pixel is interpolated, never clamped.
            step = 16
            gw, gh = self.width // step + 3, self.height // step + 3
            off = (step - 1) / 2 - step
            gx, gy = np.meshgrid(np.arange(gw) * step + off, np.arange(gh) * step + off)
            pts = np.stack([gx, gy], axis=-1).reshape(-1, 2).astype(np.float64)
            und64 = self.undistort_pixels(pts)
            if float(np.abs(self.distort_pixels(und64) - pts).max()) > 0.05:
                from companion.errors import UserError

                raise UserError(f"lens distortion {self.dist[:2]} is too strong for this field of view: the lens model folds over")
            und = und64.reshape(gh, gw, 2).astype(np.float32)
            # One channel at a time: cv2 handles the cropped views without copies
            # (cv2.split of a two-channel view is many times slower).
            maps = []
            for c in range(2):
                full = cv2.resize(np.ascontiguousarray(und[..., c]), (gw * step, gh * step), interpolation=cv2.INTER_LINEAR)
                maps.append(full[step : step + self.height, step : step + self.width])
            x_lo, x_hi, _, _ = cv2.minMaxLoc(maps[0])
            y_lo, y_hi, _, _ = cv2.minMaxLoc(maps[1])
            over = max(-x_lo, -y_lo, x_hi - (self.width - 1), y_hi - (self.height - 1))
            cached = ((maps[0], maps[1]), int(math.ceil(max(0.0, over))) + 2)
            self._maps["grid"] = cached
        return cached  # type: ignore[return-value]

    @property
    def canvas_margin(self) -> int:
        """Pixels the pinhole canvas must extend beyond the frame on each side so
        that the lens never samples outside it (barrel distortion pulls corners in)."""
        if not self.has_distortion:
            return 0
        return self._lens_grid()[1]

    def canvas(self) -> Camera:
        """The distortion-free camera whose image the lens bends into this one:
        same pose and focal length, ``canvas_margin`` pixels wider on each side."""
        if not self.has_distortion:
            return self
        cached = self._maps.get("canvas")
        if cached is None:
            m = self.canvas_margin
            cached = Camera(self.width + 2 * m, self.height + 2 * m, self.fx, self.fy, self.cx + m, self.cy + m, self.rvec, self.tvec)
            self._maps["canvas"] = cached
        return cached  # type: ignore[return-value]

    def cache(self) -> dict[str, object]:
        """A scratch cache that lives as long as this camera (renderers keep
        per-camera work here, such as the static background of a video)."""
        return self._maps

    def distortion_maps(self) -> tuple[NDArray[np.float32], NDArray[np.float32]] | None:
        """``cv2.remap`` maps (x, y, float) from the :meth:`canvas` image to this
        lens's image (cached)."""
        if not self.has_distortion:
            return None
        cached = self._maps.get("remap")
        if cached is None:
            (mx, my), m = self._lens_grid()
            cached = (cv2.add(mx, float(m)), cv2.add(my, float(m)))  # type: ignore[call-overload, unused-ignore]  # needed with OpenCV 5.0 stubs, not 5.1
            self._maps["remap"] = cached
        return cached  # type: ignore[return-value]

    def to_json(self) -> dict[str, object]:
        return {
            "width": self.width,
            "height": self.height,
            "K": self.K.round(4).tolist(),
            "dist": list(self.dist),
            "rvec": list(self.rvec),
            "tvec": list(self.tvec),
            "position_mm": self.position.round(2).tolist(),
        }

    # ---- construction ----------------------------------------------------------------

    @staticmethod
    def look_at(
        eye: tuple[float, float, float],
        target: tuple[float, float, float],
        size: tuple[int, int],
        hfov_deg: float,
        roll_deg: float = 0.0,
        dist: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0),
        up_hint: tuple[float, float] | None = None,
    ) -> Camera:
        """A camera at *eye* looking at *target* (world mm, z up).

        ``up_hint`` is the board direction (x, y) that appears towards the
        image top; by default the direction from the target away from the eye,
        as for a person sitting at the table.
        """
        e = np.array([eye[0], eye[1], -eye[2]], dtype=np.float64)
        t = np.array([target[0], target[1], -target[2]], dtype=np.float64)
        fwd = t - e
        fwd /= np.linalg.norm(fwd)
        if up_hint is None:
            h = np.array([t[0] - e[0], t[1] - e[1], 0.0])
            up_hint = (0.0, -1.0) if np.linalg.norm(h) < 1e-6 else (h[0], h[1])
        # Image "down" points opposite the up hint, projected perpendicular to fwd.
        down = -np.array([up_hint[0], up_hint[1], 0.0])
        down = down - fwd * (down @ fwd)
        if np.linalg.norm(down) < 1e-9:
            down = np.array([0.0, 1.0, 0.0]) - fwd * fwd[1]
        down /= np.linalg.norm(down)
        right = np.cross(down, fwd)
        r = np.stack([right, down, fwd])
        if roll_deg:
            a = math.radians(roll_deg)
            rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
            r = rz @ r
        rvec, _ = cv2.Rodrigues(r)
        tvec = -r @ e
        w, hgt = size
        fx = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
        return Camera(
            width=w,
            height=hgt,
            fx=fx,
            fy=fx,
            cx=w / 2,
            cy=hgt / 2,
            rvec=tuple(float(v) for v in rvec.ravel()),  # type: ignore[arg-type]
            tvec=tuple(float(v) for v in tvec.ravel()),  # type: ignore[arg-type]
            dist=dist,
        )


def random_camera(
    rng: np.random.Generator,
    must_see: FloatArray,
    center: tuple[float, float],
    size: tuple[int, int] | None = None,
    tilt_deg: float | None = None,
    azimuth_deg: float | None = None,
    distortion: float | None = None,
    margin: float = 0.04,
) -> Camera:
    """A seeded random camera that keeps every world point of *must_see* in view.

    Tilt is measured from straight down (0) to about 45 degrees; azimuth is
    the side of the table the camera stands on; the distance is the smallest
    that fits *must_see* with a small random margin, so the board fills the
    frame as a user would set it up.
    """
    if size is None:
        size = RESOLUTIONS[int(rng.integers(len(RESOLUTIONS)))]
    tilt = float(rng.uniform(0, 45)) if tilt_deg is None else float(tilt_deg)
    az = float(rng.uniform(0, 360)) if azimuth_deg is None else float(azimuth_deg)
    hfov = float(rng.uniform(50, 75))
    roll = float(rng.normal(0, 3))
    if distortion is None:
        k1 = float(rng.uniform(max(-0.25, strongest_barrel(size, hfov)), 0.08))
    else:
        k1 = float(distortion)
        # A pinned strong barrel lens needs a narrower view to stay invertible.
        while k1 < strongest_barrel(size, hfov) and hfov > 20:
            hfov -= 2.0
    dist = (k1, 0.0, 0.0, 0.0, 0.0)
    target = (center[0] + float(rng.normal(0, 8)), center[1] + float(rng.normal(0, 8)), 0.0)
    pad = margin + float(rng.uniform(0, 0.06))
    direction = np.array(
        [
            math.sin(math.radians(tilt)) * math.sin(math.radians(az)),
            -math.sin(math.radians(tilt)) * math.cos(math.radians(az)),
            math.cos(math.radians(tilt)),
        ]
    )
    # Up on the image is away from the camera's side of the table; when looking
    # straight down, use the azimuth to orient the board.
    up_hint = (-math.sin(math.radians(az)), math.cos(math.radians(az)))
    pts = np.asarray(must_see, dtype=np.float64).reshape(-1, 3)
    lo, hi = 50.0, 5000.0
    cam = None
    for _ in range(30):
        d = (lo + hi) / 2
        eye = tuple(float(v) for v in np.asarray(target) + direction * d)
        cam = Camera.look_at(eye, target, size, hfov, roll, dist, up_hint)  # type: ignore[arg-type]
        if _fits(cam, pts, pad):
            hi = d
        else:
            lo = d
    eye = tuple(float(v) for v in np.asarray(target) + direction * hi)
    return Camera.look_at(eye, target, size, hfov, roll, dist, up_hint)  # type: ignore[arg-type]


def strongest_barrel(size: tuple[int, int], hfov_deg: float) -> float:
    """The most negative k1 (k2 = 0) that still maps the whole frame one to one.

    r_d = r (1 + k1 r^2) peaks at r_d = (2/3) sqrt(-1 / (3 k1)); keep that peak
    15 % beyond the frame's corner, so every output pixel has a source.
    """
    w, h = size
    f = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
    rc2 = ((w / 2) ** 2 + (h / 2) ** 2) / (f * f)
    return -(4.0 / 27.0) / (1.15 * 1.15 * rc2)


def _fits(cam: Camera, pts: FloatArray, pad: float) -> bool:
    if np.any(cam.depth(pts) <= 10):
        return False
    uv = cam.project(pts)
    mx, my = cam.width * pad, cam.height * pad
    return bool(
        np.all(uv[:, 0] >= mx) and np.all(uv[:, 0] <= cam.width - mx) and np.all(uv[:, 1] >= my) and np.all(uv[:, 1] <= cam.height - my)
    )
