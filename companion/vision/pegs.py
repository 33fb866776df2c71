"""Per-hole classification: empty, a peg's colour, or unknown (covered).

The evidence, per hole (see :mod:`companion.vision.sampling` for where):

* the **base**: an empty hole shows its dark recess. Any visible patch of
  recess means empty, whatever is drawn around it; a peg standing in the
  hole always hides its own recess.
* the **top**: a peg's cap, lit from above, in the peg's colour. A peg's top
  is never hidden by another peg (pegs are equally tall and a nearer peg is
  seen from above), so a peg is present only if its top shows a peg colour.
* **occlusion**: in a tilted view a nearer peg can hide an empty hole's
  recess, and the top point of an empty hole can fall on a farther peg's
  body. Both are decided geometrically from the projected silhouettes of
  the pegs already found, nearest first.

Colours are compared after white balance against the printed markers' white
paper (interpolated across the board, so uneven light cancels), as chroma
directions (a colour minus its grey level, divided by it), which barely
change with brightness. The peg colours' chroma are defaults for common toy
plastic, replaced by the ones a :class:`~companion.vision.calibration.Calibration`
learned at the table.

A hole that is neither clearly empty nor clearly a peg is ``unknown``: the
reader never guesses (a hand over the board is the usual cause).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from companion.layout import COLORS

#: Default peg colours (BGR) of common toy plastic, before any calibration.
DEFAULT_PEG_BGR: dict[str, tuple[float, float, float]] = {
    "red": (40.0, 30.0, 200.0),
    "blue": (190.0, 90.0, 20.0),
    "yellow": (30.0, 205.0, 235.0),
    "green": (60.0, 165.0, 30.0),
}


@dataclass(frozen=True)
class ColourModel:
    """What pegs and empty holes look like, in white-balanced units (white = 1).

    ``peg_chroma`` is each colour's chroma direction; a top patch matches a
    colour when its saturation exceeds ``min_saturation`` and its chroma's
    cosine with that colour's exceeds ``min_cosine``. A base pixel is recess
    when its brightest channel is below ``recess_value`` and its saturation
    below ``recess_saturation``.
    """

    peg_chroma: Mapping[str, np.ndarray]
    min_saturation: float = 0.45
    min_cosine: float = 0.95
    recess_value: float = 0.32
    recess_saturation: float = 0.7
    recess_share: float = 0.2

    @classmethod
    def default(cls) -> ColourModel:
        return cls({c: chroma(np.array(v) / 255.0) for c, v in DEFAULT_PEG_BGR.items()})


def chroma(colour: np.ndarray) -> np.ndarray:
    """A colour minus its grey level, over its grey level (works on (..., 3))."""
    c = np.asarray(colour, dtype=np.float32)
    m = c.mean(axis=-1, keepdims=True)
    return np.asarray((c - m) / np.maximum(m, 0.03), dtype=np.float32)


@dataclass(frozen=True)
class HoleEvidence:
    """Per-hole measurements of one frame (arrays over the 60 holes)."""

    recess_share: np.ndarray  # share of base pixels that look like an empty recess
    recess_px: np.ndarray  # (60, P) which base pixels look like an empty recess
    top_colour: np.ndarray  # (60, 3) white-balanced median colour of the top disc
    top_saturation: np.ndarray
    top_cosine: np.ndarray  # (60, 4) cosine of the top's chroma with each peg colour
    #: The same for the body (half height) and the base disc: (60,) and (60, 4).
    body_saturation: np.ndarray
    body_cosine: np.ndarray
    base_saturation: np.ndarray
    base_cosine: np.ndarray
    #: (60,) brightness (median of each pixel's brightest channel) of the top
    #: disc, and of the board around the hole (the rim ring), white = 1.
    top_value: np.ndarray
    rim_value: np.ndarray
    #: (60,) and (60, 4): the saturation of the board around the hole (the rim
    #: ring's median colour) and its cosine with each peg colour: where the
    #: print around a hole is a peg colour (:func:`print_colours`).
    rim_saturation: np.ndarray
    rim_cosine: np.ndarray


def _clear_median(pixels: np.ndarray, clear: np.ndarray | None) -> np.ndarray:
    """(60, 3) median colour of each hole's *clear* pixels (of (60, P, 3)); a
    hole with fewer than ``MIN_CLEAR_RIM`` clear pixels, or no mask, uses all."""
    if clear is None:
        return np.asarray(np.median(pixels, axis=1))
    use = clear | (clear.sum(axis=1, keepdims=True) < MIN_CLEAR_RIM)
    # Sorting puts the NaNs of the unused pixels last; the median is the mean
    # of the middle one or two of the rest (as nanmedian's, at a quarter of its cost).
    ordered = np.sort(np.where(use[..., None], pixels, np.nan), axis=1)
    n = use.sum(axis=1)
    shape = (len(pixels), 1, pixels.shape[2])
    low = np.take_along_axis(ordered, np.broadcast_to(((n - 1) // 2)[:, None, None], shape), axis=1)
    high = np.take_along_axis(ordered, np.broadcast_to((n // 2)[:, None, None], shape), axis=1)
    return np.asarray((low[:, 0] + high[:, 0]) / 2)


#: Rim points that must be clear of a hole's own peg for the print's colour to be read from them alone.
MIN_CLEAR_RIM = 4


def _colour_match(pixels: np.ndarray, protos: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Median colour, saturation and cosine with each prototype, of (60, P, 3) pixels."""
    colour = np.median(pixels, axis=1)  # the median ignores a glare highlight
    sat, cos = _chroma_match(colour, protos)
    return colour, sat, cos


def _chroma_match(colour: np.ndarray, protos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Saturation and cosine with each prototype of (60, 3) colours."""
    c = chroma(colour)
    sat = np.linalg.norm(c, axis=-1)
    cos = (c @ protos.T) / np.maximum(sat, 1e-6)[:, None]
    return sat, cos


def measure(samples: Mapping[str, np.ndarray], white: np.ndarray, model: ColourModel,
            rim_clear: np.ndarray | None = None) -> HoleEvidence:
    """Turn raw sample pixels (point -> (60, P, 3)) into evidence; *white* is (60, 3).

    *rim_clear* (60, R) marks the rim points a peg in the hole would not hide
    (``SamplePlan.rim_clear``): the print's colour is taken from those only,
    or from the whole ring where fewer than ``MIN_CLEAR_RIM`` are clear.
    """
    wb = white[:, None, :]
    base = samples["base"] / wb
    base_sat = np.linalg.norm(chroma(base), axis=-1)
    value = base.max(axis=-1)
    recess = (value < model.recess_value) & (base_sat < model.recess_saturation)
    # A recess smeared by motion blur or defocus is greyer and lighter, but
    # still grey (a peg's body is never this unsaturated), and still darker
    # than the board around the hole.
    rim = samples["rim"] / wb
    rim_value = np.median(rim.max(axis=-1), axis=1)
    surround = rim_value[:, None]
    grey = base_sat < BLURRED_RECESS_SATURATION
    recess |= grey & (value < BLURRED_RECESS_VALUE)
    recess |= grey & (value < BLURRED_RECESS_RELATIVE * surround)
    # A recess blurred into coloured print takes on its colour, but stays far
    # darker than the print around it.
    recess |= value < DARK_RECESS_RELATIVE * surround
    protos = np.stack([model.peg_chroma[c] for c in COLORS])
    protos = protos / np.linalg.norm(protos, axis=1, keepdims=True)
    top, sat, cos = _colour_match(samples["top"] / wb, protos)
    _, body_sat, body_cos = _colour_match(samples["body"] / wb, protos)
    # The base's colour from its inner part only: a peg's foot covers it, while
    # the outer ring reaches the rim and the print around an empty hole.
    _, bsat, bcos = _colour_match(base[:, :BASE_INNER_PIXELS], protos)
    top_value = np.median((samples["top"] / wb).max(axis=-1), axis=1)
    rim_sat, rim_cos = _chroma_match(_clear_median(rim, rim_clear), protos)
    return HoleEvidence(recess.mean(axis=1), recess, top, sat, cos, body_sat, body_cos, bsat,
                        bcos, top_value, rim_value, rim_sat, rim_cos)


def _weak_peg(ev: HoleEvidence, i: int, model: ColourModel) -> int | None:
    """The colour (index) a washed-out peg shows, or None.

    Used only where the base shows no recess at all and no nearer peg hides
    it, so something stands in the hole: a peg whose cap glare has washed
    out. Its top must still show the colour at a relaxed saturation, and the
    body or base must agree; a saturated sample of no peg colour (a sleeve,
    a hand) vetoes.
    """
    if ev.recess_share[i] > WEAK_MAX_RECESS_SHARE:
        return None
    votes = []
    for sat, cos in ((ev.top_saturation, ev.top_cosine), (ev.body_saturation, ev.body_cosine),
                     (ev.base_saturation, ev.base_cosine)):
        k = int(np.argmax(cos[i]))
        if sat[i] >= WEAK_SATURATION and cos[i, k] >= model.min_cosine:
            votes.append(k)
        elif sat[i] >= WEAK_SATURATION:
            return None
        else:
            votes.append(-1)
    top, body, base = votes
    if top >= 0 and (body == top or base == top) and {body, base} <= {top, -1}:
        return top
    return None


def _standing_peg(ev: HoleEvidence, i: int, model: ColourModel) -> int | None:
    """The colour (index) of a peg whose cap was missed, or None.

    Used only where the whole base is in view (no nearer peg hides any of it)
    and shows no recess at all: something stands in the hole. When its body
    and its base both clearly show one peg colour and the top shows no other
    colour, it is most likely a peg whose cap the top disc missed (a pixel
    or two of pose error, glare on the cap). The caller treats such a peg as
    ambiguous: it is kept only when the rules' prior confirms it.
    """
    if ev.recess_share[i] > WEAK_MAX_RECESS_SHARE:
        return None
    k = int(np.argmax(ev.body_cosine[i]))
    for sat, cos in ((ev.body_saturation, ev.body_cosine), (ev.base_saturation, ev.base_cosine)):
        if sat[i] < STANDING_SATURATION or cos[i, k] < model.min_cosine or int(np.argmax(cos[i])) != k:
            return None
    if ev.top_saturation[i] >= WEAK_SATURATION and int(np.argmax(ev.top_cosine[i])) != k:
        return None
    return k


def _lit_peg(ev: HoleEvidence, i: int, model: ColourModel) -> int | None:
    """The colour (index) of a peg whose cap glare has washed out over its own dark foot, or None.

    Under strong glare a cap's colour washes out (its saturation falls under
    the bar a top needs) while its foot's shadow darkens enough of the base
    to pass for part of a recess. Such a peg was read empty or unknown; in
    whole rendered game seed 7 (glare 0.99) on most frames, which held back
    the board and the die's clocks alike. What still gives it away: the cap
    is far brighter than the board around the hole (glare on plastic), it
    keeps a trace of its colour, and body and base are deeply that colour.
    An empty hole shows none of this together: its top lands on the board or
    the print (not brighter than the rim), and its base is the dark recess.
    """
    k = int(np.argmax(ev.top_cosine[i]))
    if ev.top_cosine[i, k] < model.min_cosine or not WEAK_SATURATION <= ev.top_saturation[i] < model.min_saturation:
        return None  # no trace of colour, or a plain top (then a recess under it is a phantom's)
    if ev.top_value[i] < LIT_CAP_BRIGHTER * ev.rim_value[i]:
        return None
    for sat, cos in ((ev.body_saturation, ev.body_cosine), (ev.base_saturation, ev.base_cosine)):
        if sat[i] < STANDING_SATURATION or int(np.argmax(cos[i])) != k or cos[i, k] < model.min_cosine:
            return None
    return k


def _plastic(ev: HoleEvidence, i: int) -> bool:
    """A peg's cap, not print or a farther peg's side, shows at hole *i*'s top.

    A cap faces the light and is glossy: it is clearly brighter than the
    board around its hole, while the print of a Home or Finish (or the shaded
    side of a farther peg) that an empty hole's top point lands on is not.
    On development frames (seeds 5000-5399) the top of every phantom was at
    most 1.02 times as bright as the rim, and 95% of real pegs above 1.06;
    the bar is 1.08 (1.06 and 1.12 tried on seeds 5000-5799: 1.06 gained
    a little more, with less margin). The body must also be clearly the colour.

    A cap only as bright as the board around it still counts when the body
    and the inner base are both deeply saturated with the colour: a real peg
    standing in its Home shows its own body there, while the phantom of an
    empty hole (its top on the print or on a farther peg) shows a paler body
    (dev seeds 1000-1999 and 5000-5999, hidden pegs on their own print or a
    farther peg with a cap under 1.08: none of 57 phantoms passed, 25 of 42
    real pegs did; those were left unknown whenever a hand was elsewhere on
    the board, or dropped by the four-per-colour prior for a phantom).
    """
    return bool(ev.top_value[i] >= CAP_BRIGHTER * ev.rim_value[i]
                and ev.body_saturation[i] >= CAP_BODY_SATURATION) or bool(
        ev.top_value[i] >= SOLID_TOP_BRIGHTER * ev.rim_value[i]
        and ev.body_saturation[i] >= SOLID_BODY_SATURATION
        and ev.base_saturation[i] >= SOLID_BASE_SATURATION)


def _lit_cap(ev: HoleEvidence, i: int) -> bool:
    """A washed-out or missed cap (a weak or body-only peg) that is still plainly a lit cap.

    Glare on a cap washes its colour out, which is why such pegs are read
    only weakly; but the same glare makes the cap far brighter than the board
    around its hole. The phantoms the weak rules let through (an empty hole
    on its own colour's print, seen through blur) were never as bright.
    """
    return bool(ev.top_value[i] >= LIT_CAP_BRIGHTER * ev.rim_value[i]
                and ev.body_saturation[i] >= LIT_CAP_BODY_SATURATION)


def _plain_top(ev: HoleEvidence, model: ColourModel) -> tuple[np.ndarray, np.ndarray]:
    """(60,) each hole's likeliest top colour (index), and whether its top
    shows that colour plainly (saturated and close to it, as a cap does)."""
    best = np.argmax(ev.top_cosine, axis=1)
    rows = np.arange(len(best))
    return best, (ev.top_saturation >= model.min_saturation) & (ev.top_cosine[rows, best] >= model.min_cosine)


def _all_agree(ev: HoleEvidence, model: ColourModel) -> np.ndarray:
    """(60,) top, body and base all show the same peg colour, clearly."""
    best, ok = _plain_top(ev, model)
    rows = np.arange(len(best))
    for sat, cos in ((ev.body_saturation, ev.body_cosine), (ev.base_saturation, ev.base_cosine)):
        ok &= (sat >= AGREE_SATURATION) & (cos[rows, best] >= model.min_cosine) & (
            np.argmax(cos, axis=1) == best)
    return np.asarray(ok)


def _cap_over_foot(ev: HoleEvidence, model: ColourModel) -> np.ndarray:
    """(60,) a plain peg cap, at least as bright as the board around the
    hole, over a body deeply of the same colour, whatever the base shows.

    At 640x480 a hole is a few pixels wide and a peg's shaded foot fills its
    base disc with dark, pale pixels: with neither its colour nor a recess's
    darkness clearly, the shaded-foot rule (top, body and base agreeing) did
    not hold, and real pegs on a plain track were read empty (whole rendered
    games: a blue peg on track 14 and on 20, while the four-per-colour
    prior kept a phantom on Blue's Finish, and the loop lost track). An
    empty hole's top point lands on the board or its print, never brighter
    than the board around it and over a deeply coloured body."""
    best, ok = _plain_top(ev, model)
    rows = np.arange(len(best))
    ok &= (ev.body_saturation >= CAP_FOOT_BODY) & (np.argmax(ev.body_cosine, axis=1) == best)
    ok &= ev.body_cosine[rows, best] >= model.min_cosine
    return np.asarray(ok & (ev.top_value >= CAP_FOOT_TOP_RELATIVE * ev.rim_value))


#: :func:`_cap_over_foot`: the body's saturation, the cap's brightness over
#: the board around the hole, and the most of the base that may look like a
#: recess (where the print around the hole is not the peg's colour).
CAP_FOOT_BODY = 0.7
CAP_FOOT_TOP_RELATIVE = 1.0
CAP_FOOT_MAX_SHARE = 0.5


#: The base pixels within 0.35 of the disc's radius (centre and first ring).
BASE_INNER_PIXELS = 9

#: A hole's recess counts as seen when at least this many base pixels are not
#: behind a nearer peg.
MIN_SEEN_PIXELS = 3

#: The saturation body and base must show to overrule a partly seen recess.
AGREE_SATURATION = 0.3

#: A blurred recess: brightest channel and saturation below these.
BLURRED_RECESS_VALUE = 0.55
BLURRED_RECESS_SATURATION = 0.3
#: ... or darker than this share of the board around the hole.
BLURRED_RECESS_RELATIVE = 0.7
#: Any colour darker than this share of the board around the hole is recess.
DARK_RECESS_RELATIVE = 0.4

#: A cap this much brighter than the board around its hole, over a body this
#: saturated, is plastic (:func:`_plastic`).
CAP_BRIGHTER = 1.08
CAP_BODY_SATURATION = 0.7
#: ... or a cap at least as bright as that board over a body and an inner
#: base this saturated (a solid peg, :func:`_plastic`).
SOLID_TOP_BRIGHTER = 1.0
SOLID_BODY_SATURATION = 0.85
SOLID_BASE_SATURATION = 0.8

#: A weak or body-only peg whose cap is this much brighter than the board
#: around its hole, over a body this saturated, is sure, not ambiguous
#: (:func:`_lit_cap`).
LIT_CAP_BRIGHTER = 1.3
LIT_CAP_BODY_SATURATION = 0.35

#: A peg read where its hole's inner base is less saturated than this is
#: ambiguous: a peg's foot fills the hole with its colour, a blurred empty
#: recess mixed with the print is paler (dev seeds 5000-5799: 8 of 12 wrong
#: colour calls had a base below 0.45, and 0.5% of right ones).
PALE_BASE_SATURATION = 0.45

#: On its own colour's print, a peg's shaded foot is believed only under a cap
#: this much brighter than the print around the hole (a dark blue peg in a
#: dark blue Home shows "recess" at its foot; dev seeds 5800-5999: 4 wrong
#: calls -> 1, none added on 5000-5799; 1.3 added 4).
FOOT_CAP_BRIGHTER = 1.5

#: The shaded-foot override needs a top at least this share as bright as the
#: board around the hole: a cap faces the light, while an empty hole's top
#: point on dark print (a Start ring, a navy track) does not. Dev frames
#: (seeds 5000-6199 at 640x480, 5000-5499 at 1280x720): of the real pegs
#: with a fifth of their recess seen, one had a top under 0.8 of its rim and
#: none under 0.7; 3,864 phantoms' tops were under 0.7.
FOOT_MIN_TOP_RELATIVE = 0.7

#: The shaded-foot override needs under half the base to look like recess,
#: or under ``FOOT_MAX_SHARE`` when the hole's inner base is this saturated
#: with the peg's colour (its foot: a peg's shadow side on a light track is
#: darker than 0.4 of the track; dev seeds 5000-5799 wrong calls 16 -> 14).
FOOT_MAX_SHARE = 0.7
FOOT_BASE_SATURATION = 0.8

#: A hole mostly hidden by a nearer peg is empty when its top shows no colour
#: (saturation below this) or no lit cap: darker than ``BARE_TOP_VALUE`` of
#: white, whatever its saturation (the dark recess of a farther hole, whose
#: chroma is noise). The 0.1st percentile of real caps is 0.56; of the
#: 30,660 pegs no hand covered on dev seeds 1000-1999 and 5000-5999, 3 were
#: darker than 0.35 (a hand's shadow; 106 of 1,276 pegs under a hand).
#: (Was: saturation below 0.3, and below 0.15 or darker than 0.3.)
BARE_TOP_SATURATION = 0.15
BARE_TOP_VALUE = 0.35
BARE_TOP_RELATIVE = 0.6

#: The saturation body and base must both show for :func:`_standing_peg`.
STANDING_SATURATION = 0.6

#: The weak and body-only rules need a base with no recess, save the pixel
#: or three (of 37) that a peg's own shadow at its foot darkens enough.
WEAK_MAX_RECESS_SHARE = 0.09

#: A lit cap over a saturated foot (:func:`_lit_peg`) is a peg while less
#: than this share of its base looks like recess (its foot's shadow). Was
#: 0.5: whole rendered game seed 7 at 640x480 read a lit blue peg on track
#: 20 empty on 0.51 and a lit cap on 0.49 as the board's pose moved by a
#: twentieth of a pixel, for ten seconds of play; dev frames (seeds
#: 5000-5599 and 6200-6799 at 640x480, 5000-5299 at 1280x720) unchanged.
LIT_MAX_RECESS_SHARE = 0.6

#: The saturation a washed-out peg must still show on top, body and base alike.
WEAK_SATURATION = 0.22


@dataclass(frozen=True)
class Silhouettes:
    """Which holes' sample points a peg standing in another hole would cover.

    ``base_in[i, j]``: hole *i*'s recess lies inside the image silhouette of
    a peg in hole *j* (a segment from its base to its top pixel, as wide as
    the peg); ``top_in[i, j]`` the same for hole *i*'s top point. Computed
    once per camera pose, so classifying a frame is table lookups.
    """

    depth_mm: np.ndarray  # (60,) distance from the camera
    base_in: np.ndarray  # (60, 60) bool
    top_in: np.ndarray  # (60, 60) bool
    #: (60, P, 60): base sample pixel *p* of hole *i* lies inside the silhouette of hole *j*.
    base_px_in: np.ndarray
    #: (60,) a peg's radius in the image (px), or None when not known.
    radius_px: np.ndarray | None = None

    @classmethod
    def build(cls, base_px: np.ndarray, top_px: np.ndarray, radius_px: np.ndarray,
              depth_mm: np.ndarray, base_points: np.ndarray) -> Silhouettes:
        n, p = base_points.shape[:2]
        base_d = segment_distance(base_px, base_px, top_px)
        base_in = base_d <= radius_px[None, :] * 1.1
        top_in = segment_distance(top_px, base_px, top_px) <= radius_px[None, :]
        np.fill_diagonal(base_in, False)
        np.fill_diagonal(top_in, False)
        # Each base pixel against each silhouette, but only for the pairs of
        # holes close enough for any of it to overlap (a few per hole): the
        # full (60 * 37, 60) test was the costliest part of a new pose.
        reach = np.linalg.norm(base_points - base_px[:, None, :], axis=2).max(axis=1)
        near = base_d <= radius_px[None, :] * 1.1 + reach[:, None]
        np.fill_diagonal(near, False)
        px_in = np.zeros((n, p, n), dtype=bool)
        ii, jj = np.nonzero(near)
        if len(ii):
            a, b = base_px[jj], top_px[jj]  # (K, 2) segments
            ab = b - a
            ap = base_points[ii] - a[:, None, :]  # (K, P, 2)
            t = np.clip(np.einsum("kpc,kc->kp", ap, ab) / np.maximum((ab * ab).sum(axis=1), 1e-9)[:, None],
                        0, 1)
            d = np.linalg.norm(ap - t[..., None] * ab[:, None, :], axis=2)
            px_in[ii, :, jj] = d <= radius_px[jj, None] * 1.1
        return cls(depth_mm, base_in, top_in, px_in, np.asarray(radius_px, dtype=float))


def segment_distance(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M): distance from point *n* to the segment ``a[m]``-``b[m]``."""
    ab = b - a  # (M, 2)
    ap = points[:, None, :] - a[None, :, :]  # (N, M, 2)
    t = np.clip(np.einsum("nmk,mk->nm", ap, ab) / np.maximum((ab * ab).sum(axis=1), 1e-9), 0, 1)
    return np.asarray(np.linalg.norm(ap - t[..., None] * ab[None, :, :], axis=2))


def classify(
    ev: HoleEvidence, sil: Silhouettes, model: ColourModel, hole_owner: tuple[str | None, ...],
    why: list[str] | None = None, hole_print: tuple[str | None, ...] | None = None,
) -> tuple[list[str], np.ndarray]:
    """States (``"empty"``, a colour or ``"unknown"``) and confidences of the 60 holes.

    Holes are decided nearest to the camera first, so that when a hole's
    evidence is spoiled by a peg in front of it, that peg is already known.
    A peg whose only evidence is its top colour while its recess is mostly
    hidden by a nearer peg, or while its top could be a farther peg or the printed
    area of the same colour, is *ambiguous*; the rules' prior (a colour has
    four pegs) then removes ambiguous pegs beyond four, least sure first.
    ``hole_owner`` is each hole's colour (Home and Finish) or None (track);
    ``hole_print`` the colour of the print around each hole (by default its
    owner's; a Finish line's band also starts at its entry space on the
    track, where an empty hole's top point can land on it and look like a
    cap of that colour).
    ``why``, when given, receives one short reason per hole (the rule that
    decided it), for overlays and error analysis.
    """
    n = len(ev.recess_share)
    printed = hole_owner if hole_print is None else hole_print
    print_seen = print_colours(ev, printed)
    reason = ["?"] * n
    best = np.argmax(ev.top_cosine, axis=1)
    best_cos = ev.top_cosine[np.arange(n), best]
    looks_peg = (ev.top_saturation >= model.min_saturation) & (best_cos >= model.min_cosine)
    states = ["unknown"] * n
    conf = np.zeros(n)
    hidden = np.zeros(n, dtype=bool)
    mostly_hidden = np.zeros(n, dtype=bool)
    order = np.argsort(sil.depth_mm)
    pegs_so_far: list[int] = []
    weak_pegs: list[int] = []
    agree = _all_agree(ev, model)
    # Each hole's confidence should it hold a peg, for all holes at once
    # (per hole, the two clips cost more than the rest of the loop).
    peg_confs = (np.clip((best_cos - model.min_cosine) / (1 - model.min_cosine), 0, 1)
                 * np.clip(ev.top_saturation / (2 * model.min_saturation), 0, 1))
    cap_over_foot = _cap_over_foot(ev, model)
    n_base = ev.recess_px.shape[1]
    recess_count = np.count_nonzero(ev.recess_px, axis=1)
    for i in order:
        # Which of this hole's base pixels do nearer pegs (already found) hide?
        covered = sil.base_px_in[i][:, pegs_so_far].any(axis=1) if pegs_so_far else None
        # Shares of pixels as counts over counts (the same floats as numpy's
        # means of booleans, without a reduction's overhead per hole).
        if covered is None:
            n_seen = n_base
            recess_seen = int(recess_count[i])
        else:
            seen = ~covered
            n_seen = int(np.count_nonzero(seen))
            recess_seen = int(np.count_nonzero(ev.recess_px[i][seen]))
        hidden[i] = n_seen < MIN_SEEN_PIXELS
        mostly_hidden[i] = n_seen / n_base < 0.5
        share = recess_seen / n_seen if not hidden[i] else 0.0
        colour = COLORS[int(best[i])]
        # A recess seen in part, unless top, body and an unobstructed base all
        # show one peg colour (then the "recess" pixels are the peg's shaded
        # foot). On a Home or Finish of that colour the print around the hole
        # shows the colour too, and the agreement means little (on development
        # frames this override was wrong 27 times out of 27 there): there only
        # a brightly lit cap over the foot counts. The same on a track printed
        # in that colour (the print seen around the hole), where a peg's own
        # plastic, deeply coloured at body height and in its foot, also counts
        # (with the rules below, dev frames at 640x480, seeds 5000-6199: wrong
        # holes 253 -> 195, unknown 1,887 -> 1,751, mostly phantoms on a navy
        # or red track; held-back frames 6200-6999: 179 -> 125, 1,125 -> 1,021;
        # at 1280x720, seeds 5000-5499, unchanged).
        # The print seen is used here only: around a peg, the rim ring shows
        # the peg's own body in a tilted view, and a real peg taken for one on
        # its print lost to a Home phantom in the four-per-colour prior.
        own_foot = (agree[i] and (share < 0.5 or (share < FOOT_MAX_SHARE
                                                   and ev.base_saturation[i] >= FOOT_BASE_SATURATION))
                    and (covered is None or not covered.any())
                    and ev.top_value[i] >= FOOT_MIN_TOP_RELATIVE * ev.rim_value[i]
                    and (print_seen[i] != colour
                         or ev.top_value[i] >= FOOT_CAP_BRIGHTER * ev.rim_value[i]
                         or (hole_owner[i] is None and ev.body_saturation[i] >= FOOT_SOLID_BODY
                             and ev.base_saturation[i] >= FOOT_SOLID_BASE)))
        own_foot = own_foot or bool(cap_over_foot[i] and share < CAP_FOOT_MAX_SHARE and print_seen[i] != colour)
        lit = (_lit_peg(ev, int(i), model)
               if share < LIT_MAX_RECESS_SHARE and (covered is None or not covered.any()) else None)
        recess = share >= model.recess_share and not own_foot and lit is None
        peg_conf = float(peg_confs[i])
        if recess:
            states[i], conf[i], reason[i] = "empty", float(min(1.0, 0.5 + share)), "recess"
        elif looks_peg[i]:
            states[i], conf[i] = colour, max(0.05, peg_conf)
            reason[i] = "top+foot" if own_foot and share >= model.recess_share else "top"
            pegs_so_far.append(int(i))
        elif hidden[i]:
            # A peg here would show its top; none does, and a nearer peg hides the recess.
            states[i], conf[i], reason[i] = "empty", 0.8, "hidden-no-top"
        elif mostly_hidden[i] and (ev.top_saturation[i] < BARE_TOP_SATURATION or (
                ev.top_value[i] < BARE_TOP_VALUE and ev.top_value[i] < BARE_TOP_RELATIVE * ev.rim_value[i])):
            # The few base pixels left beside the nearer peg show no recess
            # (its blurred edge), but the top shows no cap at all: grey board,
            # or the dark recess of a farther hole.
            states[i], conf[i], reason[i] = "empty", 0.6, "mostly-hidden-no-top"
        elif lit is not None:
            states[i], conf[i], reason[i] = COLORS[lit], 0.3, "lit-cap"
            pegs_so_far.append(int(i))
        elif (weak := _weak_peg(ev, int(i), model)) is not None:
            states[i], conf[i], reason[i] = COLORS[weak], 0.3, "weak"
            pegs_so_far.append(int(i))
            weak_pegs.append(int(i))
        elif (covered is None or not covered.any()) and (
                standing := _standing_peg(ev, int(i), model)) is not None:
            states[i], conf[i], reason[i] = COLORS[standing], 0.2, "body"
            pegs_so_far.append(int(i))
            weak_pegs.append(int(i))
        else:
            states[i], conf[i], reason[i] = "unknown", 0.0, "no-evidence"
    ambiguous = np.zeros(n, dtype=bool)
    ambiguous[[k for k in weak_pegs if not _lit_cap(ev, k)]] = True
    on_track_print = _on_track_print(ev, printed, states)
    for i in pegs_so_far:
        if not mostly_hidden[i]:
            # A peg's foot fills its hole with its colour; a pale base is a
            # blurred empty recess mixed with the print or track around it.
            ambiguous[i] |= bool(ev.base_saturation[i] < PALE_BASE_SATURATION) or bool(on_track_print[i])
            # On its own colour's Home or Finish print, a small peg is doubted
            # when some of the hole's recess shows (an empty hole's top point
            # on the print looks like a cap, and its foot like the print).
            ambiguous[i] |= (printed[i] == states[i] and bool(ev.recess_share[i] >= OWN_PRINT_RECESS)
                             and sil.radius_px is not None and bool(sil.radius_px[i] < OWN_PRINT_MAX_RADIUS_PX))
            continue
        on_peg = bool(_under_top(int(i), [j for j in pegs_so_far if j not in weak_pegs], states, sil))
        on_print = printed[i] == states[i]
        ambiguous[i] = (on_peg or on_print) and not _plastic(ev, int(i))
    # How much plastic a peg shows: a real peg's cap and body are more
    # saturated than the print or the farther peg's shaded side a phantom shows.
    pegness = ev.top_saturation + ev.body_saturation
    before = list(states)
    suspect = np.array([printed[k] == states[k] and not _plastic(ev, k) for k in range(n)])
    # A peg whose top point falls on a farther peg of its colour may be that
    # peg's top seen again (fresh whole game 298: Blue's peg on Finish 2 seen
    # again at Finish 3, nearer the camera; by saturation the real one went).
    # Only when it looks less real than that peg (no lit cap: the peg's side).
    realness = _realness(ev)
    echo = np.array([states[k] in COLORS and any(realness[k] < realness[j]
                                                 for j in _under_top(k, pegs_so_far, states, sil))
                     for k in range(n)])
    _four_per_colour(states, conf, ambiguous, pegness, suspect, realness, hole_owner, echo)
    if why is not None:
        why[:] = [r if s == b else f"{r}/{'amb' if ambiguous[k] else 'sure'}-prior->{s}"
                  for k, (r, s, b) in enumerate(zip(reason, states, before, strict=True))]
    return states, conf


def _under_top(i: int, pegs: list[int], states: list[str], sil: Silhouettes) -> list[int]:
    """The pegs among *pegs* of hole *i*'s colour, farther from the camera,
    whose silhouette hole *i*'s top point falls in: a peg there may be
    theirs seen again."""
    return [j for j in pegs if sil.depth_mm[j] > sil.depth_mm[i] and states[j] == states[i] and sil.top_in[i, j]]


def print_colours(ev: HoleEvidence, hole_print: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """The colour of the print around each hole: the layout's (*hole_print*),
    and on any other hole, a peg colour the board around it plainly shows.

    Boards are printed differently: a track band may be navy or red, and a
    Start space may be ringed in its colour. An empty hole on such print
    shows the colour at its top point and around its foot, as an empty Home
    hole does on its Home's print; whole rendered game seed 157 (a navy
    track) read a phantom blue peg on Blue's Start on a fifth of its frames,
    and dev frames at 640x480 (seeds 5000-6199) 217 phantoms on such print.
    """
    rows = np.arange(len(ev.rim_saturation))
    best = np.argmax(ev.rim_cosine, axis=1)
    shows = (ev.rim_saturation >= PRINT_SATURATION) & (ev.rim_cosine[rows, best] >= PRINT_COSINE)
    return tuple(p if p is not None else (COLORS[int(b)] if s else None)
                 for p, b, s in zip(hole_print, best, shows, strict=True))


def track_print(ev: HoleEvidence, hole_print: tuple[str | None, ...]) -> str | None:
    """The colour the whole track band is printed in, if it plainly has one.

    One hole's rim can look pale on a small board (its ring falls on the
    white beside a narrow band), but the band is one colour all round: the
    colour most track holes' rims point to (at least ``TRACK_PRINT_SHARE``
    of the track holes the layout gives no print, each at ``PRINT_COSINE``),
    when those rims are at least ``PRINT_SATURATION`` saturated at the median.
    """
    track = [i for i, p in enumerate(hole_print) if p is None]
    if not track:
        return None
    best = np.argmax(ev.rim_cosine[track], axis=1)
    sure = ev.rim_cosine[track, best] >= PRINT_COSINE
    votes = np.bincount(best[sure], minlength=len(COLORS))
    colour = int(np.argmax(votes))
    if votes[colour] < TRACK_PRINT_SHARE * len(track):
        return None
    chosen = np.asarray(track)[sure & (best == colour)]
    return COLORS[colour] if float(np.median(ev.rim_saturation[chosen])) >= PRINT_SATURATION else None


def _on_track_print(ev: HoleEvidence, printed: tuple[str | None, ...], states: list[str]) -> np.ndarray:
    """(60,) bool: a peg of the track print's own colour on a plain track
    hole whose recess shows through and whose cap is no brighter than the
    print around it: what an empty hole on a band of that colour looks like.

    Whole rendered game seed 211 at 640x480 (a small board with a navy
    track) read three phantom blue pegs on the track from its opening on,
    each only by its top point on the band, with a twentieth to a quarter
    of the recess seen (real pegs hide theirs, and lift a lit cap over it). Such a peg is ambiguous: the
    four-per-colour prior keeps it only when it confirms it.
    """
    colour = track_print(ev, printed)
    out = np.zeros(len(states), dtype=bool)
    if colour is None:
        return out
    for i, state in enumerate(states):
        out[i] = (printed[i] is None and state == colour
                  and ev.recess_share[i] >= TRACK_PRINT_RECESS
                  and ev.top_value[i] < TRACK_PRINT_CAP_BRIGHTER * ev.rim_value[i])
    return out


#: On its own colour's Home or Finish print, a peg seen under
#: ``OWN_PRINT_MAX_RADIUS_PX`` in radius is doubted when this share of its
#: recess shows. Dev frames at 640x480 (seeds 5000-6199; pegs 2.8-4.5 px in
#: radius), pegs the reader kept there: 45 of 107 phantoms showed that much,
#: 26 of 11,242 real pegs; at 1280x720 (5000-5399; 4.4-6.8 px) 1 phantom in
#: 400 frames, and 58 of 3,900 real pegs, so larger pegs are not doubted.
OWN_PRINT_RECESS = 0.02
OWN_PRINT_MAX_RADIUS_PX = 4.0
#: The track is printed in a colour when this share of its holes' rims point to it.
TRACK_PRINT_SHARE = 0.6
#: On such a track, a peg of its colour is doubted when this share of its
#: recess shows and its cap is less than this much brighter than the print.
TRACK_PRINT_RECESS = 0.02
TRACK_PRINT_CAP_BRIGHTER = 1.1


#: The board around a hole shows a peg colour when the median colour of its
#: rim points clear of the hole's own peg is at least this saturated and this
#: close to the colour's direction (0.12 took a real peg's own body, seen past
#: the silhouette's edge, for print: held-back dev frames 6200-6999 at
#: 640x480, wrong holes 130 against 125).
PRINT_SATURATION = 0.2
PRINT_COSINE = 0.9

#: On the track, a peg over its colour's print still counts its shaded foot
#: as its own when its body and inner base are this saturated with the colour
#: (a peg's plastic fills its hole; a phantom's top on the print shows a paler body).
FOOT_SOLID_BODY = 0.9
FOOT_SOLID_BASE = 0.9


def _realness(ev: HoleEvidence) -> np.ndarray:
    """(60,) how much a hole's peg looks like plastic: the saturation of its
    body plus how much brighter its cap is than the board around the hole.

    Orders the pegs the four-per-colour prior makes unknown (least real
    first). A real peg shows its own body at half height and a lit cap; a
    phantom's top and body fall on the print or on a neighbouring peg's side.
    By the body alone, a phantom in a Home whose body point lands on the
    next Home peg outranked a real peg with a lit cap (dev frames at 640x480,
    seeds 5000-6199: wrong holes 213 -> 195, wrong boards read complete 8 -> 5;
    held-back frames 6200-6999: 143 -> 125 and 12 -> 8).
    """
    return np.asarray(ev.body_saturation + ev.top_value / np.maximum(ev.rim_value, 1e-3))


#: Unknown holes the four-per-colour prior may settle; more are a hand.
MAX_BLEMISHES = 2

#: The confidence of an ambiguous peg the four-per-colour prior keeps: under
#: the time layer's ``DOUBTFUL_CONFIDENCE`` (0.35), so a position resting on
#: it waits longer. On 796 complete dev frames at 640x480 (seeds 5000-6399)
#: 69 such pegs were kept, all real (every peg of those frames is on the board).
CONFIRMED_BY_COUNT = 0.3


def _home_phantom_for(i: int, colour: str, states: list[str], ambiguous: np.ndarray, suspect: np.ndarray,
                      realness: np.ndarray, hole_owner: tuple[str | None, ...]) -> int:
    """The peg the four-per-colour prior drops for ambiguous peg *i*: *i*
    itself, or, when *i* stands on the track off any print of its colour
    (not *suspect*), a surely read peg of its colour in that colour's own
    Home or Finish that looks less real (:func:`_realness`).

    On a small board a phantom on a colour's own print can read as surely as
    a real peg (its top point lands on the print, or on the edge of a peg
    beside it, and looks like a lit cap), while the real peg on the track is
    only a weak read: fresh whole game 474 at 640x480 read Red's Home 3, empty,
    at 1.0, and dropped the real peg on Red's Start for it, for seconds at a
    time, and the referee lost the bring-out. On development frames at
    640x480 (seeds 5000-6199) wrong holes 135 -> 102, every one of the 33 a
    real track peg dropped for a phantom in its colour's Home or Finish.
    A track peg on its colour's print (a Finish line's entry band) is itself
    the likelier phantom and is dropped as before."""
    if hole_owner[i] is not None or suspect[i]:
        return i
    rivals = [j for j, st in enumerate(states)
              if st == colour and not ambiguous[j] and hole_owner[j] == colour and realness[j] < realness[i]]
    return min(rivals, key=lambda j: realness[j]) if rivals else i



def _four_per_colour(states: list[str], conf: np.ndarray, ambiguous: np.ndarray,
                     pegness: np.ndarray, suspect: np.ndarray, realness: np.ndarray,
                     hole_owner: tuple[str | None, ...], echo: np.ndarray) -> None:
    """Apply the rules' prior in place: every colour has exactly four pegs.

    Extra pegs are taken from the ambiguous ones (*suspect* ones first, then
    *echo* ones, whose top point falls on a farther peg of their colour and
    may be its top seen again, then the least saturated) and made empty
    (fresh whole game 298 at 640x480: by saturation alone the real peg of
    such a pair went; ordered by *realness* instead, another game kept a
    phantom on Blue's Finish over a real track peg; whole rendered game seed 19
    at 640x480: of two weak blue pegs, the real one on the track was dropped
    for a phantom on Blue's Finish band, a shade more saturated); if the
    excess is not explained by ambiguous pegs,
    as many become unknown, *suspect* ones first (read on the print of their
    own colour with no lit cap: where a blurred empty hole's phantom comes
    from), then the least real-looking (*realness*, :func:`_realness`: body
    saturation and cap brightness): the reader never picks a peg to drop at
    random. A real peg shows its own body there; a phantom, whose top point
    falls on a farther peg's side or a cap of the wrong hole, shows the print
    or the edge of a nearer peg (dev seeds 1000-1999 and 5000-5999 at
    1280x720: in every pair of a phantom and a real peg of one colour, the
    phantom's body was the paler, 0.21-0.89 against 0.97-1.33; ordered by
    the top's sureness as before, the real peg went unknown and the phantom
    stayed as often as not).

    A hole of a colour's Home or Finish can hold only that colour's peg, so
    when that colour's four pegs are all seen surely elsewhere, an unknown
    hole there is empty (only when at most ``MAX_BLEMISHES`` holes are
    unknown: more is a hand). An ambiguous peg is kept only when the prior
    confirms it: its colour then has exactly four pegs and no unknown hole
    is left that could hold a peg of that colour (a track hole, or one of its
    own). This is judged colour by colour: a hole nobody can read in Blue's
    Finish says nothing about Yellow's pegs (judged over the whole board,
    one such hole kept every ambiguous Home peg unknown for whole games).
    """
    for colour in COLORS:
        idx = [i for i, s in enumerate(states) if s == colour]
        excess = len(idx) - 4
        if excess <= 0:
            continue
        weak = sorted((i for i in idx if ambiguous[i]),
                      key=lambda i: (not suspect[i], not echo[i], pegness[i]))
        for i in weak[:excess]:
            k = _home_phantom_for(i, colour, states, ambiguous, suspect, realness, hole_owner)
            states[k], conf[k] = "empty", 0.5
        excess -= min(excess, len(weak))
        if excess > 0:
            left = [i for i in idx if states[i] == colour]
            for i in sorted(left, key=lambda i: (not suspect[i], realness[i]))[:excess]:
                states[i], conf[i] = "unknown", 0.0
    # A hand covers many holes; one or two unreadable holes on an otherwise
    # readable board are a blemish (a glint, a shadow on the print), and
    # only those are settled by the prior: under a hand the pegs counted as
    # sure may include a phantom, and the hand will soon move anyway.
    few_unknown = states.count("unknown") <= MAX_BLEMISHES
    for colour in COLORS:
        sure = [i for i, st in enumerate(states) if st == colour and not ambiguous[i]]
        if few_unknown and len(sure) == 4:
            for k, st in enumerate(states):
                if st == "unknown" and hole_owner[k] == colour:
                    states[k], conf[k] = "empty", 0.3
    changed = True
    while changed:  # unknown only grows, so this ends (at most 60 rounds)
        changed = False
        for colour in COLORS:
            idx = [i for i, st in enumerate(states) if st == colour]
            doubtful = [i for i in idx if ambiguous[i]]
            if not doubtful:
                continue
            open_holes = any(st == "unknown" and hole_owner[k] in (None, colour) for k, st in enumerate(states))
            if open_holes or len(idx) != 4:
                for i in doubtful:
                    states[i], conf[i] = "unknown", 0.0
                changed = True
    # An ambiguous peg kept is confirmed by the count alone, and the count
    # assumes every peg is on the board: a bumped peg lying beside it, or one
    # carried in the fingers, lets a phantom through. Kept as doubtful, so the
    # time layer waits for it (whole rendered game 304 at 640x480: a blue
    # phantom on the track, 0.53 by its top, called a move out of turn while
    # the bumped blue peg lay beside the board).
    for i, st in enumerate(states):
        if ambiguous[i] and st in COLORS:
            conf[i] = min(float(conf[i]), CONFIRMED_BY_COUNT)
