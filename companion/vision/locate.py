"""Where the board is in a frame: ArUco markers -> homography -> camera pose.

Why this shape:

* All marker corners (up to 16 points) feed one RANSAC homography, so a
  marker half hidden by a hand or badly detected is outvoted.
* Detection on the full frame is the one costly step of the vision (about
  10 ms at 1280x720). Once the board is known, :class:`BoardLocator` first
  looks for the markers only in small windows around where they were; only
  when that fails does it search the whole frame. When the corners it finds
  agree with the last homography to within a pixel, the last homography is
  kept unchanged, so a still camera gives identical sample positions frame
  after frame (and so identical readings).
* Fewer than three markers is "board not found" (with the reason), unless
  the two that are seen sit exactly where the last pose puts them: then the
  camera has not moved and a hand merely covers the others.
* A manual fallback takes the four board corners in image pixels.
* The camera pose (for projecting peg tops, which stand off their holes in
  a tilted view) comes from ``solvePnP`` on the same points, with a focal
  length estimated from the homography itself when the view is tilted enough
  to tell, and a typical webcam's otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.vision.geometry import BoardGeometry

#: A webcam's typical horizontal field of view, used when the view is too
#: close to straight-down for the homography to reveal the focal length.
DEFAULT_HFOV_DEG = 65.0
#: Corners this close (pixels) to where the last homography puts them mean
#: "the camera has not moved": the last homography is kept.
STILL_TOLERANCE_PX = 1.0
#: Grey levels (95th percentile over 4x4-pixel cells) under which a marker's
#: patch is "unchanged" and the previous pose is reused without detection.
STILL_CELL_DIFF = 10.0
#: A homography whose corners miss by more than this (pixels, RMS) is refused.
MAX_REPROJECTION_PX = 4.0
#: In a window around a marker's last place, the outlines first tried for it:
#: perimeters from this share of its last perimeter to that one (a nudge
#: changes it by a few percent; outside, the window is searched again in full).
WINDOW_PERIMETER = (0.7, 1.6)


#: Points projected at a time by :meth:`CameraPose.project`.
PROJECT_CHUNK = 2048


@dataclass(frozen=True)
class CameraPose:
    """Intrinsics and pose of the camera relative to the board plane (mm).

    Board coordinates: x right, y down, z into the table (so points above the
    board have negative z).
    """

    K: np.ndarray
    rvec: np.ndarray
    tvec: np.ndarray
    #: OpenCV distortion coefficients (k1, k2, p1, p2, k3); zeros for a pinhole.
    dist: np.ndarray = field(default_factory=lambda: np.zeros(5))

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Project (N, 3) board points to (N, 2) image pixels (lens distortion included).

        OpenCV's pinhole model with (k1, k2, p1, p2, k3), in numpy:
        ``cv2.projectPoints`` also computes the Jacobians, which made it the
        costliest step of planning a new pose (the dome crop's maps project
        25,600 points).
        """
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 3)
        dist = np.asarray(self.dist, dtype=np.float64).reshape(-1)
        if len(pts) > PROJECT_CHUNK and len(dist) <= 5:
            # Many points (the dome crop's maps) in chunks: each step's arrays
            # then stay small and in cache, where a whole array of each step
            # was fresh memory the kernel had to hand out; every step works
            # point by point, so the numbers are the same (chunks of equal
            # size, never one point alone, which numpy multiplies another way).
            out: np.ndarray = np.empty((len(pts), 2))
            bounds = np.linspace(0, len(pts), -(-len(pts) // PROJECT_CHUNK) + 1).astype(int)
            for i, j in zip(bounds[:-1], bounds[1:], strict=True):
                out[i:j] = self.project(pts[i:j])
            return out
        if len(dist) > 5:  # a rational or thin-prism model: OpenCV's own code
            out, _ = cv2.projectPoints(pts.reshape(-1, 1, 3), self.rvec, self.tvec, self.K, dist)
            return np.asarray(out.reshape(-1, 2))
        k1, k2, p1, p2, k3 = np.concatenate([dist, np.zeros(5 - len(dist))])
        rot, _ = cv2.Rodrigues(np.asarray(self.rvec, dtype=np.float64))
        # A contiguous copy of the transposed rotation: BLAS then takes it as
        # it is, three times sooner than a transposed view, with the same sums
        # (for one point numpy takes another path, kept as it was).
        cam = pts @ (rot.T.copy() if len(pts) > 1 else rot.T) + np.asarray(self.tvec, dtype=np.float64).reshape(1, 3)
        x, y = cam[:, 0] / cam[:, 2], cam[:, 1] / cam[:, 2]
        # The terms of coefficients that are zero add exact zeros: they are
        # left out (a pinhole, or k1 alone as the hole refit measures it),
        # which gives the same numbers bit for bit, sooner.
        if p1 or p2 or k2 or k3:
            r2 = x * x + y * y
            radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3))
            xd = x * radial + 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x)
            yd = y * radial + p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y
        elif k1:
            radial = 1.0 + (x * x + y * y) * k1
            xd, yd = x * radial, y * radial
        else:
            xd, yd = x, y
        K = self.K
        out = np.empty((len(pts), 2))
        out[:, 0] = K[0, 0] * xd + K[0, 2] if K[0, 1] == 0 else K[0, 0] * xd + K[0, 1] * yd + K[0, 2]
        out[:, 1] = K[1, 1] * yd + K[1, 2]
        return out

    @property
    def tilt_deg(self) -> float:
        """Angle between the camera's axis and the board's normal."""
        rot, _ = cv2.Rodrigues(self.rvec)
        return float(np.degrees(np.arccos(np.clip(abs(rot[2, 2]), 0.0, 1.0))))


@dataclass(frozen=True)
class BoardPose:
    """A located board: the homography (board mm -> image px) and the camera pose.

    ``homography`` maps the board's surface; ``marker_homography`` maps the
    plane the markers lie in (the table, when the board stands on a base), and
    is what tracking compares new marker corners against.
    """

    homography: np.ndarray
    marker_homography: np.ndarray
    camera: CameraPose
    source: str  # "markers", "tracked" (same as last frame), "corners", "holes" (followed) or "print"
    markers_seen: tuple[int, ...]
    reprojection_px: float

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Map (N, 2) board-plane points to image pixels through the homography."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)


@dataclass(frozen=True)
class LocateFailure:
    """The board could not be located; ``reason`` says why, for the user."""

    reason: str
    markers_seen: tuple[int, ...] = ()


def parse_corners(text: str) -> np.ndarray:
    """Parse ``--corners x1,y1,x2,y2,x3,y3,x4,y4`` (clockwise from the board's top-left).

    Raises ValueError naming the problem; commands turn it into a UserError.
    """
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    if len(parts) != 8:
        raise ValueError(f"--corners needs 8 numbers (4 corners x,y), got {len(parts)}: {text!r}")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"--corners holds something that is not a number: {text!r}") from None
    if not all(math.isfinite(v) for v in values):
        raise ValueError(f"--corners holds a number that is not finite: {text!r}")
    corners = np.array(values).reshape(4, 2)
    # Clockwise in image coordinates (y down) means a positive shoelace area.
    x, y = corners[:, 0], corners[:, 1]
    area = 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    if area <= 0:
        raise ValueError("--corners must go clockwise from the board's top-left corner")
    return corners


def estimate_focal(homography: np.ndarray, image_size: tuple[int, int]) -> tuple[float, bool]:
    """Focal length (px) from a plane's homography, and whether it was measured.

    Assumes square pixels and the principal point at the image centre. The
    two constraints (the plane's axes are orthogonal and of equal length) give
    ``f``; near a straight-down view they are ill-conditioned, and then a
    typical webcam's focal length is returned with ``False`` (there the board's
    position barely depends on it).
    """
    w, h = image_size
    prior = (w / 2.0) / np.tan(np.radians(DEFAULT_HFOV_DEG / 2.0))
    shift = np.array([[1.0, 0.0, -w / 2.0], [0.0, 1.0, -h / 2.0], [0.0, 0.0, 1.0]])
    hc = shift @ homography
    hc = hc / np.linalg.norm(hc[:, 0])
    h1, h2 = hc[:, 0], hc[:, 1]
    estimates = []
    den = h1[2] * h2[2]
    if abs(den) > 1e-12:
        f2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / den
        if f2 > 0:
            estimates.append(f2)
    den = h2[2] ** 2 - h1[2] ** 2
    if abs(den) > 1e-12:
        f2 = (h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2) / den
        if f2 > 0:
            estimates.append(f2)
    # The perspective terms must be large enough for the estimate to mean anything.
    tilt_signal = float(np.hypot(h1[2], h2[2])) * prior
    good = [np.sqrt(e) for e in estimates if 0.4 * w < np.sqrt(e) < 3.0 * w]
    if tilt_signal > 0.25 and good:
        return float(np.median(good)), True
    return float(prior), False


def camera_from_points(
    board_mm: np.ndarray, image_px: np.ndarray, plane_homography: np.ndarray,
    image_size: tuple[int, int], plane_z_mm: float = 0.0, refine_lens: bool = True,
    focal_px: float | None = None,
) -> CameraPose:
    """The camera pose from points of one plane (at board z ``plane_z_mm``) seen at known pixels.

    IPPE gives the two candidate poses of a plane; Levenberg-Marquardt refines
    both on all points and the better is kept (near a straight-down view the
    wrong one of the pair tilts the other way, and since the markers lie on
    the table below the board, that would shift every hole by pixels).
    """
    w, h = image_size
    f, measured = estimate_focal(plane_homography, image_size) if focal_px is None else (focal_px, False)
    K = np.array([[f, 0.0, w / 2.0], [0.0, f, h / 2.0], [0.0, 0.0, 1.0]])
    flat = np.hstack([board_mm, np.zeros((len(board_mm), 1))]).astype(np.float64)
    img = image_px.astype(np.float64)
    _, rvecs, tvecs, _ = cv2.solvePnPGeneric(flat, img, K, None, flags=cv2.SOLVEPNP_IPPE)
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for rv, tv in zip(rvecs, tvecs, strict=True):
        rv, tv = cv2.solvePnPRefineLM(flat, img, K, None, rv.copy(), tv.copy())
        err = _rms(flat, img, K, np.zeros(5), rv, tv)
        if best is None or err < best[0]:
            best = (err, rv, tv)
    if best is None:  # pragma: no cover - IPPE on >= 4 coplanar points always answers
        raise RuntimeError("solvePnP failed on the board's points")
    err, rvec, tvec = best
    dist = np.zeros(5)
    if refine_lens and len(board_mm) >= 12:
        lens = _refine_lens(flat, img, K, image_size, fix_focal=not measured)
        if lens is not None and lens[0] < 0.8 * err:
            _, K, dist, rvec, tvec = lens
    # The points lay in the plane z = plane_z_mm of the board; move the origin back.
    rot, _ = cv2.Rodrigues(rvec)
    tvec = np.asarray(tvec, dtype=np.float64).reshape(3) - plane_z_mm * rot[:, 2]
    return CameraPose(K=K, rvec=np.asarray(rvec, dtype=np.float64).reshape(3), tvec=tvec,
                      dist=dist)


def _rms(obj: np.ndarray, img: np.ndarray, K: np.ndarray, dist: np.ndarray,
         rvec: np.ndarray, tvec: np.ndarray) -> float:
    proj, _ = cv2.projectPoints(obj, rvec, tvec, K, dist)
    return float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - img) ** 2, axis=1))))


def _refine_lens(
    flat: np.ndarray, img: np.ndarray, K: np.ndarray, image_size: tuple[int, int], fix_focal: bool
) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Refine radial distortion (k1), and the focal length when the view shows it.

    A webcam's barrel distortion moves holes near the frame's edge by several
    pixels; the sixteen marker corners span enough radii to estimate ``k1``.
    Returns (rms, K, dist, rvec, tvec), or None when the fit is implausible.
    """
    flags = (
        cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
        | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3
    )
    if fix_focal:
        flags |= cv2.CALIB_FIX_FOCAL_LENGTH
    try:
        rms, K2, dist, rvecs, tvecs = cv2.calibrateCamera(
            [flat.astype(np.float32)], [img.astype(np.float32)], image_size,
            K.copy(), np.zeros(5), flags=flags)
    except cv2.error:
        return None
    dist = np.asarray(dist, dtype=np.float64).reshape(-1)[:5]
    w = image_size[0]
    if not (abs(dist[0]) < 0.5 and 0.4 * w < K2[0, 0] < 3.0 * w):
        return None
    return (float(rms), np.asarray(K2, dtype=np.float64), dist,
            np.asarray(rvecs[0], dtype=np.float64), np.asarray(tvecs[0], dtype=np.float64))


def board_homography(camera: CameraPose) -> np.ndarray:
    """The homography board plane (z = 0, mm) -> image pixels of a camera pose."""
    rot, _ = cv2.Rodrigues(camera.rvec)
    hom = camera.K @ np.column_stack([rot[:, 0], rot[:, 1], camera.tvec])
    return hom / hom[2, 2]


def pose_from_corners(
    geometry: BoardGeometry, corners_px: np.ndarray, image_size: tuple[int, int]
) -> BoardPose:
    """A pose from the four board corners given by hand (``--corners``)."""
    src = geometry.board_corners_mm
    hom = cv2.getPerspectiveTransform(src.astype(np.float32), corners_px.astype(np.float32))
    cam = camera_from_points(src, corners_px, hom, image_size, refine_lens=False)
    return BoardPose(hom.astype(np.float64), hom.astype(np.float64), cam, "corners", (), 0.0)


class BoardLocator:
    """Finds and tracks the board in successive frames of one camera."""

    def __init__(self, geometry: BoardGeometry, corners_px: np.ndarray | None = None) -> None:
        self.geometry = geometry
        self.corners_px = corners_px
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, geometry.dictionary))
        params = cv2.aruco.DetectorParameters()
        # Corners from lines fitted to each marker's contour, not from the
        # grey-level saddle (CORNER_REFINE_SUBPIX): motion blur makes a marker
        # look about 5% larger to the saddle search, which put the focal
        # length and every hole out by 5-20 px in blurred frames (rendered
        # dev frames with 5-10 px of blur: mean corner error 1.69 -> 0.54 px;
        # sharp frames 0.99 -> 0.62 px).
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_CONTOUR
        # Markers 40-60 px wide under noise and JPEG decode far more reliably
        # with 8 px per cell than with the default 4 (measured on rendered
        # frames: all four found in 70% instead of 30%, three or more in 100%
        # instead of 68%).
        params.perspectiveRemovePixelPerCell = 8
        params.perspectiveRemoveIgnoredMarginPerCell = 0.3
        self._detector = cv2.aruco.ArucoDetector(dictionary, params)
        #: The same, its outline sizes set for each window (``_sized_detector``).
        self._window_detector = cv2.aruco.ArucoDetector(dictionary, params)
        self._last: BoardPose | None = None
        self._last_markers: dict[int, np.ndarray] = {}
        #: marker id -> (x0, y0, x1, y1, coarse grey cells) where it was last found.
        self._patches: dict[int, tuple[int, int, int, int, np.ndarray]] = {}
        #: (width, height) of the frames tracked so far.
        self._size: tuple[int, int] | None = None
        #: The last pose's lens was measured on the board's holes (a nudge may keep it).
        self._lens_known = False

    def reset(self) -> None:
        """Forget the tracked pose (the next frame is searched in full)."""
        self._last = None
        self._last_markers = {}
        self._patches = {}
        self._lens_known = False

    def locate(self, frame: np.ndarray) -> BoardPose | LocateFailure:
        """Locate the board in a frame (grey or BGR); track it from the previous call.

        A BGR frame is only converted to grey where it is looked at, so a
        still camera costs a few small conversions instead of a full frame's.
        """
        size = (frame.shape[1], frame.shape[0])
        if size != self._size:
            # Another camera (or the same one reconnected at another
            # resolution): nothing tracked so far describes this frame.
            self.reset()
            self._size = size
        if self.corners_px is not None:
            if self._last is None:
                self._last = pose_from_corners(self.geometry, self.corners_px, size)
            return self._last
        still = self._unchanged_markers(frame)
        if self._last is not None and len(still) >= 2 and len(still) >= len(self._patches) - 2:
            # The markers look exactly as before: the camera has not moved.
            return BoardPose(self._last.homography, self._last.marker_homography,
                             self._last.camera, "tracked", still, 0.0)
        gray = _Grey(frame)
        found: dict[int, np.ndarray] = {}
        if self._last_markers:
            found = self._detect_in_windows(gray)
        if len(found) < 3:
            found = self._detect(gray.full)
        pose = self._pose_from_markers(found, size, gray)
        if isinstance(pose, BoardPose):
            self._remember_patches(gray, found)
            return pose
        # Not found by its markers: the camera may have been knocked, swapped
        # or refocused, so the next pose from markers measures the lens again.
        self._lens_known = False
        if self._last is not None:
            # The markers are hidden or gone: follow the board by its own holes.
            followed = follow_holes(gray.full, self._last, self.geometry)
            if followed is not None:
                return replace(followed, markers_seen=tuple(sorted(found)))
        elif frame.ndim == 3:
            # Never found yet and no markers to go by: the board's own print
            # (its coloured Homes, then its holes). Imported here: that module
            # builds on this one's hole search.
            from companion.vision.print_locate import locate_by_print

            printed = locate_by_print(frame, self.geometry)
            if printed is not None:
                self._last = printed
                return replace(printed, markers_seen=tuple(sorted(found)))
            return LocateFailure(f"{pose.reason}, and the board's own print could not be placed", pose.markers_seen)
        return pose

    # -- the cheap still-camera check -----------------------------------------

    def _remember_patches(self, gray: _Grey, found: dict[int, np.ndarray]) -> None:
        h, w = gray.shape[:2]
        self._patches = {}
        for marker, corners in found.items():
            x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 2
            x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 3
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            if x1 - x0 >= 12 and y1 - y0 >= 12:
                self._patches[marker] = (x0, y0, x1, y1, _cells(gray[y0:y1, x0:x1]))

    def _unchanged_markers(self, frame: np.ndarray) -> tuple[int, ...]:
        """Markers whose image patch is the same as when the pose was computed.

        Compares 4x4-pixel cell means (which average sensor noise away) of the
        marker's bounding box; a shift of a pixel or a hand over the marker
        changes the cells on its black-and-white edges by tens of grey levels.
        Costs a fraction of a millisecond, against ~10 ms for a detection.
        """
        same = []
        for marker, (x0, y0, x1, y1, ref) in self._patches.items():
            patch = frame[y0:y1, x0:x1]
            if patch.ndim == 3:
                patch = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
            diff = np.abs(_cells(patch) - ref)
            if float(np.percentile(diff, 95)) < STILL_CELL_DIFF:
                same.append(marker)
        return tuple(sorted(same))

    # -- detection ---------------------------------------------------------

    def _detect(self, gray: np.ndarray, offset: tuple[int, int] = (0, 0),
                detector: cv2.aruco.ArucoDetector | None = None) -> dict[int, np.ndarray]:
        corners, ids, _ = (self._detector if detector is None else detector).detectMarkers(gray)
        out: dict[int, np.ndarray] = {}
        if ids is None:
            return out
        for c, i in zip(corners, ids.reshape(-1), strict=True):
            marker = int(i)
            if marker in self.geometry.markers_mm and marker not in out:
                out[marker] = c.reshape(4, 2).astype(np.float64) + np.array(offset, dtype=np.float64)
        return out

    def _detect_in_windows(self, gray: _Grey) -> dict[int, np.ndarray]:
        """Look for each known marker only near where it was last seen.

        In its window, a marker is first looked for among outlines of about
        the size it had (``WINDOW_PERIMETER``), then, if it is not among
        them, among outlines of any size as before. The detector's smallest
        outline is a share of the image's side (3%): in a window of a few
        marker sides that let through the marker's own cells and every
        speck, each decoded in turn, which was most of a nudged frame's
        marker search (1.2 ms a window on average, up to 11 ms); the marker
        itself is the same outline either way (docs/vision.md, "Session 17").
        """
        h, w = gray.shape[:2]
        found: dict[int, np.ndarray] = {}
        for marker, corners in self._last_markers.items():
            lo = corners.min(axis=0)
            hi = corners.max(axis=0)
            pad = 0.6 * float(max(hi - lo)) + 8.0
            x0, y0 = int(max(0, lo[0] - pad)), int(max(0, lo[1] - pad))
            x1, y1 = int(min(w, hi[0] + pad)), int(min(h, hi[1] + pad))
            if x1 - x0 < 16 or y1 - y0 < 16:
                continue
            window = gray[y0:y1, x0:x1]
            perimeter = float(np.sum(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))
            hits = self._detect(window, (x0, y0), self._sized_detector(perimeter, max(x1 - x0, y1 - y0)))
            if marker not in hits:
                hits = self._detect(window, (x0, y0))
            if marker in hits:
                found[marker] = hits[marker]
        return found

    def _sized_detector(self, perimeter_px: float, window_px: int) -> cv2.aruco.ArucoDetector:
        """The detector limited to outlines of about *perimeter_px* in a window of side *window_px*."""
        lo, hi = WINDOW_PERIMETER
        params = self._detector.getDetectorParameters()
        params.minMarkerPerimeterRate = lo * perimeter_px / window_px
        params.maxMarkerPerimeterRate = hi * perimeter_px / window_px
        self._window_detector.setDetectorParameters(params)
        return self._window_detector

    def _pose_from_markers(
        self, found: dict[int, np.ndarray], size: tuple[int, int], grey: _Grey | None = None,
    ) -> BoardPose | LocateFailure:
        seen = tuple(sorted(found))
        if not found:
            return LocateFailure("no board markers seen", seen)
        board = np.vstack([self.geometry.markers_mm[m] for m in seen])
        image = np.vstack([found[m] for m in seen])
        last = self._last
        if last is not None and last.source != "corners" and len(seen) >= 2:
            common = [m for m in seen if m in self._last_markers]
            if len(common) >= 2:
                before = np.vstack([self._last_markers[m] for m in common])
                now = np.vstack([found[m] for m in common])
                err = np.linalg.norm(before - now, axis=1)
                if float(np.median(err)) <= STILL_TOLERANCE_PX:
                    # The camera has not moved: keep the pose bit for bit.
                    return BoardPose(last.homography, last.marker_homography, last.camera,
                                     "tracked", seen, float(np.sqrt(np.mean(err**2))))
        if len(seen) < 3:
            return LocateFailure(
                f"only {len(seen)} of {len(self.geometry.markers_mm)} board markers seen "
                "(need 3; is a hand or something over them?)", seen)
        hom, inliers = cv2.findHomography(board, image, cv2.RANSAC, 3.0)
        if hom is None:
            return LocateFailure("the board markers do not fit one board plane", seen)
        mask = inliers.reshape(-1).astype(bool)
        proj = cv2.perspectiveTransform(board.reshape(-1, 1, 2), hom).reshape(-1, 2)
        rms = float(np.sqrt(np.mean(np.sum((proj[mask] - image[mask]) ** 2, axis=1))))
        if mask.sum() < 8 or rms > MAX_REPROJECTION_PX:
            return LocateFailure("the board markers do not fit one board plane", seen)
        if grey is not None and last is not None and self._lens_known:
            moved = self._camera_moved(board[mask], image[mask], last.camera)
            if moved is not None:
                return self._keep(BoardPose(board_homography(moved), hom, moved, "markers", seen, rms), found, True)
        # Board z points into the table, so markers below the board's surface
        # (on the table) have positive z. The full fit looks at the holes: the
        # whole frame in grey.
        gray = None if grey is None else grey.full
        cam, refined = self._camera(board[mask], image[mask], hom, size, gray)
        if gray is not None and not refined:
            fit = hole_fit(gray, cam, self.geometry)
            if fit < GOOD_HOLE_FIT:
                # The focal length comes from the markers' perspective, which
                # a few tenths of a pixel change a lot when a strong lens bends
                # the corners of three markers; then the holes are out by tens
                # of pixels, too far for the refit on the holes to find them.
                # Start again from typical webcam fields of view instead, and
                # keep the pose under which the holes are where it puts them.
                for hfov in RETRY_HFOV_DEG:
                    f = (size[0] / 2.0) / np.tan(np.radians(hfov / 2.0))
                    other, _ = self._camera(board[mask], image[mask], hom, size, gray, focal_px=f)
                    other_fit = hole_fit(gray, other, self.geometry)
                    if other_fit > fit:
                        cam, fit = other, other_fit
        return self._keep(BoardPose(board_homography(cam), hom, cam, "markers", seen, rms), found, refined)

    def _keep(self, pose: BoardPose, found: dict[int, np.ndarray], lens_known: bool) -> BoardPose:
        """Track from *pose* and its markers; *lens_known*: its lens was measured on the holes."""
        self._last = pose
        self._last_markers = dict(found)
        self._lens_known = lens_known
        return pose

    def _camera_moved(self, board: np.ndarray, image: np.ndarray, last: CameraPose) -> CameraPose | None:
        """The same camera, moved: its lens (focal length, distortion) as the
        hole refit last measured it, its new place from the marker corners
        alone (``solvePnP``, started from the last place). A nudge moves a
        camera, it does not change its lens; and the refit on the holes,
        which only the lens needs, was most of a nudged frame's time (about
        6 ms of 17; issue 4's 15 ms per frame). None when the corners do
        not fit within ``MAX_REPROJECTION_PX`` (then the full fit runs)."""
        obj = np.column_stack([board, np.full(len(board), -self.geometry.marker_height_mm)]).astype(np.float64)
        ok, rvec, tvec = cv2.solvePnP(obj, image.astype(np.float64), last.K, last.dist,
                                      last.rvec.reshape(3, 1).copy(), last.tvec.reshape(3, 1).copy(),
                                      useExtrinsicGuess=True, flags=cv2.SOLVEPNP_ITERATIVE)
        if not ok:
            return None
        moved = CameraPose(last.K, np.asarray(rvec, np.float64).reshape(3), np.asarray(tvec, np.float64).reshape(3),
                           last.dist)
        err = np.linalg.norm(moved.project(obj) - image, axis=1)
        if float(np.sqrt(np.mean(err ** 2))) > MAX_REPROJECTION_PX or not moved.tvec[2] > 0:
            return None
        return moved

    def _camera(self, board: np.ndarray, image: np.ndarray, hom: np.ndarray, size: tuple[int, int],
                gray: np.ndarray | None, focal_px: float | None = None) -> tuple[CameraPose, bool]:
        """The camera from the markers, refined on the holes when *gray* is given;
        and whether that refit was kept (the holes were found where it puts them)."""
        cam = camera_from_points(board, image, hom, size, plane_z_mm=-self.geometry.marker_height_mm,
                                 focal_px=focal_px)
        if gray is None:
            return cam, False
        # The markers lie around the board on one plane; the board's own
        # empty holes pin down the lens and the pose where the pegs are.
        refined = refine_with_holes(gray, cam, board, image, self.geometry)
        return refined, refined is not cam


#: Fields of view (degrees) a pose is tried again from when its holes do not fit.
RETRY_HFOV_DEG = (50.0, 60.0, 70.0, 80.0)

#: A pose under which at least this share of the holes shows a dark spot
#: where it puts them (within half a hole radius) needs no second opinion.
GOOD_HOLE_FIT = 0.5


def hole_fit(gray: np.ndarray, camera: CameraPose, geometry: BoardGeometry) -> float:
    """The share of the board's holes whose dark spot lies where *camera* puts them.

    Holes with pegs show no dark spot, so a right pose scores the share of
    empty holes in view (most games have well over half the holes empty);
    a pose out by a few pixels scores near zero.
    """
    n = len(geometry.holes_mm)
    holes3 = np.column_stack([geometry.holes_mm, np.zeros(n)])
    pred = camera.project(holes3)
    radius = np.linalg.norm(camera.project(holes3 + [geometry.hole_radius_mm, 0.0, 0.0]) - pred, axis=1)
    found = hole_spots(gray, pred, radius, 1.0, geometry, min_holes=0)
    if found is None:
        return 0.0
    board, image = found
    idx = [int(np.argmin(np.linalg.norm(geometry.holes_mm - b, axis=1))) for b in board]
    d = np.linalg.norm(image - pred[idx], axis=1)
    return float(np.count_nonzero(d <= 0.5 * radius[idx])) / n


class _Grey:
    """A frame's grey levels, converted only where they are looked at.

    A nudged frame's markers are found in four small windows: converting
    those instead of the whole 1280x720 frame (about 0.4 ms) gives the same
    grey levels (the conversion is pixel by pixel). ``full`` converts the
    whole frame, once, for what looks at all of it (a full marker search,
    the holes).
    """

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame
        self._full: np.ndarray | None = frame if frame.ndim == 2 else None
        self.shape: tuple[int, int] = (frame.shape[0], frame.shape[1])

    @property
    def full(self) -> np.ndarray:
        if self._full is None:
            self._full = cv2.cvtColor(self.frame, cv2.COLOR_BGR2GRAY)
        return self._full

    def __getitem__(self, window: tuple[slice, slice]) -> np.ndarray:
        if self._full is not None:
            return self._full[window]
        return cv2.cvtColor(self.frame[window], cv2.COLOR_BGR2GRAY)


def _cells(patch: np.ndarray) -> np.ndarray:
    h, w = patch.shape[:2]
    return cv2.resize(patch, (max(1, w // 4), max(1, h // 4)),
                      interpolation=cv2.INTER_AREA).astype(np.float32)


#: Holes that must be re-found for a markerless pose to count.
MIN_HOLES = 12


def follow_holes(gray: np.ndarray, last: BoardPose, geometry: BoardGeometry) -> BoardPose | None:
    """Re-locate the board from its printed holes, starting from the last pose.

    When the markers are covered or gone (a hand over two of them, a marker
    sheet pushed away) while the camera moves a little, each empty hole is
    still a dark round spot near where the last pose puts it. Two passes: a
    wide search for each hole's dark spot and a loose RANSAC fit, then a
    narrow search around the holes that fit predicts and a tight fit. With at
    least ``MIN_HOLES`` holes agreeing, the board plane's homography gives the
    new pose (source ``"holes"``); holes with pegs show no dark spot and
    simply drop out. Returns None when the board cannot be followed this way
    (the frame is then reported as not found).
    """
    h, w = gray.shape[:2]
    n = len(geometry.holes_mm)
    holes3 = np.column_stack([geometry.holes_mm, np.zeros(n)])
    pred = last.camera.project(holes3)
    edge = last.camera.project(holes3 + [geometry.hole_radius_mm, 0.0, 0.0])
    radius = np.linalg.norm(edge - pred, axis=1)
    hom: np.ndarray | None = None
    found: tuple[np.ndarray, np.ndarray] | None = None
    for reach_factor, tolerance in ((3.0, 6.0), (1.2, 2.0)):
        if hom is not None:
            pred = cv2.perspectiveTransform(geometry.holes_mm.reshape(-1, 1, 2), hom).reshape(-1, 2)
        found = hole_spots(gray, pred, radius, reach_factor, geometry)
        if found is None:
            return None
        hom, inliers = cv2.findHomography(found[0], found[1], cv2.RANSAC, tolerance)
        if hom is None or int(inliers.sum()) < MIN_HOLES:
            return None
    assert found is not None and hom is not None
    src, dst = found
    proj = cv2.perspectiveTransform(src.reshape(-1, 1, 2), hom).reshape(-1, 2)
    err = np.linalg.norm(proj - dst, axis=1)
    keep = err <= 2.0
    if int(keep.sum()) < MIN_HOLES:
        return None
    rms = float(np.sqrt(np.mean(err[keep] ** 2)))
    cam = camera_from_points(src[keep], dst[keep], hom, (w, h), refine_lens=False)
    cam = CameraPose(cam.K, cam.rvec, cam.tvec, last.camera.dist)
    return BoardPose(board_homography(cam), last.marker_homography, cam, "holes", (), rms)


def refine_with_holes(
    gray: np.ndarray, camera: CameraPose, marker_mm: np.ndarray, marker_px: np.ndarray,
    geometry: BoardGeometry,
) -> CameraPose:
    """The camera refined on the marker corners and the board's empty holes together.

    The marker corners lie on one plane around the board and leave the lens
    (focal length, barrel distortion) poorly determined, worst with only
    three markers in view (a hand over the fourth): on development frames
    (seeds 5000-5799) the holes' median error was 1.0 px with four markers
    and up to 4-20 px with three where the lens was strong; refined, 0.3 px
    and 0.4 px (99th percentile 1.5 and 3.4 px). Each empty hole is a dark round spot near
    where the pose puts it (found as :func:`follow_holes` does); together
    with the corners, which lie on the table 20 mm below the board, they
    are points on two planes spread over the whole board, which fix focal
    length and k1 well. The refined camera is kept only when it brings the
    holes closer (and the corners stay within ``MAX_REPROJECTION_PX``).
    """
    h, w = gray.shape[:2]
    n = len(geometry.holes_mm)
    holes3 = np.column_stack([geometry.holes_mm, np.zeros(n)])
    pred = camera.project(holes3)
    edge = camera.project(holes3 + [geometry.hole_radius_mm, 0.0, 0.0])
    radius = np.linalg.norm(edge - pred, axis=1)
    found = hole_spots(gray, pred, radius, 3.0, geometry)
    if found is None:
        return camera
    board_h, image_h = found
    # Only spots consistent with one board plane (pegs, print and a hand drop out).
    hom, inliers = cv2.findHomography(board_h, image_h, cv2.RANSAC, 3.0)
    if hom is None or int(inliers.sum()) < MIN_HOLES:
        return camera
    keep = inliers.reshape(-1).astype(bool)
    board_h, image_h = board_h[keep], image_h[keep]
    # Board z points into the table: the markers lie at z = -marker_height_mm.
    obj = np.vstack([np.column_stack([marker_mm, np.full(len(marker_mm), -geometry.marker_height_mm)]),
                     np.column_stack([board_h, np.zeros(len(board_h))])]).astype(np.float32)
    img = np.vstack([marker_px, image_h]).astype(np.float32)
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
             | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
    try:
        _, K, dist, rvecs, tvecs = cv2.calibrateCamera(
            [obj], [img], (w, h), camera.K.copy(), camera.dist.copy(), flags=flags)
    except cv2.error:
        return camera
    dist = np.asarray(dist, dtype=np.float64).reshape(-1)[:5]
    if not (abs(dist[0]) < 0.5 and 0.4 * w < K[0, 0] < 3.0 * w):
        return camera
    refined = CameraPose(np.asarray(K, dtype=np.float64), np.asarray(rvecs[0], dtype=np.float64).reshape(3),
                         np.asarray(tvecs[0], dtype=np.float64).reshape(3), dist)
    marker3 = obj[: len(marker_mm)]
    corner_err = np.linalg.norm(refined.project(marker3) - marker_px, axis=1)
    before = np.linalg.norm(camera.project(np.column_stack([board_h, np.zeros(len(board_h))])) - image_h,
                            axis=1)
    after = np.linalg.norm(refined.project(np.column_stack([board_h, np.zeros(len(board_h))])) - image_h,
                           axis=1)
    if float(np.sqrt(np.mean(corner_err ** 2))) > MAX_REPROJECTION_PX or \
            float(np.median(after)) >= float(np.median(before)):
        return camera
    return refined


def hole_spots(gray: np.ndarray, pred: np.ndarray, radius: np.ndarray, reach_factor: float,
           geometry: BoardGeometry, min_holes: int = MIN_HOLES) -> tuple[np.ndarray, np.ndarray] | None:
    """Board points and image centroids of the holes' dark spots near *pred*."""
    h, w = gray.shape[:2]
    board, image = [], []
    for i in range(len(pred)):
        r = float(radius[i])
        if r < 2.0:
            continue
        reach = int(reach_factor * r + 4)
        x, y = int(round(pred[i, 0])), int(round(pred[i, 1]))
        x0, y0, x1, y1 = max(0, x - reach), max(0, y - reach), min(w, x + reach), min(h, y + reach)
        if x1 - x0 < 2 * r or y1 - y0 < 2 * r:
            continue
        spot = _dark_spot(gray[y0:y1, x0:x1], r, (x - x0, y - y0))
        if spot is not None:
            board.append(geometry.holes_mm[i])
            image.append((spot[0] + x0, spot[1] + y0))
    if len(board) < max(min_holes, 1):
        return None
    return np.array(board, dtype=np.float64), np.array(image, dtype=np.float64)


def _dark_spot(patch: np.ndarray, radius: float, near: tuple[int, int]) -> tuple[float, float] | None:
    """Centroid of the dark, hole-sized blob nearest *near* in a grey patch."""
    blur = cv2.GaussianBlur(patch, (0, 0), max(0.8, radius / 4))
    lo, mid = float(blur.min()), _median(blur)
    if mid - lo < 25:
        return None
    mask = (blur < lo + 0.45 * (mid - lo)).astype(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = np.pi * radius * radius
    best, best_d = None, 1e9
    for k in range(1, count):
        a = stats[k, cv2.CC_STAT_AREA]
        bw, bh = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        if not (0.25 * area <= a <= 2.5 * area) or max(bw, bh) > 3.5 * radius:
            continue
        d = float(np.hypot(centroids[k][0] - near[0], centroids[k][1] - near[1]))
        if d < best_d:
            best, best_d = (float(centroids[k][0]), float(centroids[k][1])), d
    return best


def _median(values: np.ndarray) -> float:
    """``np.median`` of an array by partition: the same value for the 8-bit
    patches of :func:`_dark_spot` (computed in float64), several times faster,
    and it is called for every hole of every frame the camera moved in."""
    flat = values.ravel()
    n = flat.size
    k = n // 2
    if n % 2:
        return float(np.partition(flat, k)[k])
    part = np.partition(flat, (k - 1, k))
    return (float(part[k - 1]) + float(part[k])) / 2.0
