"""Learning this table's light and pegs from the opening position.

At the opening every peg is in its Home and every other hole is empty, so
one frame (or a few) is a labelled example of all five classes under this
light and this camera. :func:`calibrate` learns from it:

* each peg colour's chroma direction (after white balance against the
  markers' paper), which replaces the toy-plastic defaults;
* how saturated the weakest peg top is, to set the saturation a peg needs;
* how dark the empty recesses are against the darkest peg body, to set the
  recess threshold between them.

It refuses (naming the hole) when the board is not in the opening position,
so a wrong calibration is never learned silently. The result is a small JSON
file (default: ``calibration.json`` in the user data folder) reused with
``--calibration``; a corrupt file is reported by name and never overwritten.

While playing, :class:`~companion.vision.reader.BoardReader` keeps adapting
the colours to drifting light from pegs it reads with high confidence (see
:func:`adapt`).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.errors import UserError, os_reason
from companion.layout import COLORS, HOLE_NAMES, Layout
from companion.paths import user_data_dir
from companion.vision.pegs import ColourModel, HoleEvidence, chroma

if TYPE_CHECKING:
    from companion.vision.dice.templates import FaceTemplates

FORMAT = "companion-calibration"
VERSION = 1


class CalibrationError(UserError):
    """A calibration that cannot be learned, or a calibration file that cannot be used."""


def default_calibration_path() -> Path:
    return user_data_dir() / "calibration.json"


@dataclass(frozen=True)
class Calibration:
    """What pegs and empty holes look like at this table (JSON-serialisable)."""

    layout: str
    peg_chroma: Mapping[str, tuple[float, float, float]]
    min_saturation: float
    recess_value: float
    frames: int
    created: str
    #: The faces of this table's die, learned from one frame per face
    #: (``companion calibrate --die-faces``): a die with digits instead of
    #: pips is read with them. None: the standard pip faces.
    die_faces: FaceTemplates | None = None

    def colour_model(self) -> ColourModel:
        base = ColourModel.default()
        return replace(
            base,
            peg_chroma={c: np.array(v, dtype=np.float32) for c, v in self.peg_chroma.items()},
            min_saturation=self.min_saturation,
            recess_value=self.recess_value,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "layout": self.layout,
            "peg_chroma": {c: [round(float(x), 5) for x in v] for c, v in self.peg_chroma.items()},
            "min_saturation": round(self.min_saturation, 5),
            "recess_value": round(self.recess_value, 5),
            "frames": self.frames, "created": self.created,
        }
        if self.die_faces is not None:
            out["die_faces"] = self.die_faces.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any, source: str = "<calibration>") -> Calibration:
        def bad(why: str) -> CalibrationError:
            return CalibrationError(f"calibration file {source} is not usable: {why}")

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise bad(f"not a {FORMAT} file")
        if data.get("version") != VERSION:
            raise bad(f"version {data.get('version')!r}, expected {VERSION}")
        try:
            chroma_in = data["peg_chroma"]
            peg = {c: tuple(float(x) for x in chroma_in[c]) for c in COLORS}
            if any(len(v) != 3 or not all(math.isfinite(x) for x in v) for v in peg.values()):
                raise ValueError("peg_chroma needs three finite numbers per colour")
            cal = cls(
                layout=str(data["layout"]),
                peg_chroma={c: (v[0], v[1], v[2]) for c, v in peg.items()},
                min_saturation=float(data["min_saturation"]),
                recess_value=float(data["recess_value"]),
                frames=int(data["frames"]),
                created=str(data["created"]),
            )
        except KeyError as exc:
            raise bad(f"missing {exc}") from None
        except (TypeError, ValueError) as exc:
            raise bad(f"{type(exc).__name__}: {exc}") from None
        if "die_faces" in data:
            from companion.vision.dice.templates import FaceTemplates

            try:
                cal = replace(cal, die_faces=FaceTemplates.from_json(data["die_faces"]))
            except ValueError as exc:
                raise bad(f"die_faces: {exc}") from None
        if not (0.0 < cal.min_saturation < 5.0 and 0.0 < cal.recess_value < 1.0):
            raise bad("thresholds out of range")
        return cal


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file; every problem names the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationError(f"calibration file {p} does not exist") from None
    except OSError as exc:
        raise CalibrationError(f"cannot read calibration file {p}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise CalibrationError(f"calibration file {p} is corrupt (not UTF-8 text: {exc.reason})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"calibration file {p} is corrupt (not JSON: {exc.msg})") from None
    return Calibration.from_json(data, str(p))


def save_calibration(cal: Calibration, path: str | Path) -> Path | None:
    """Write *cal* to *path* atomically. An existing file there that is not a
    valid calibration is kept beside it (``NAME.corrupt``), never overwritten;
    its new name is returned so the command can say so."""
    p = Path(path)
    if p.is_dir():
        # Only a file is ever set aside as corrupt: a folder is the user's.
        raise CalibrationError(f"cannot save the calibration as {p}: it is a folder; give a file name")
    kept: Path | None = None
    tmp = p.with_name(p.name + ".tmp")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        if p.exists():
            try:
                load_calibration(p)
            except CalibrationError:
                kept = p.with_name(p.name + ".corrupt")
                os.replace(p, kept)
        tmp.write_text(json.dumps(cal.to_json(), indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, p)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise CalibrationError(f"cannot save the calibration as {p}: {os_reason(exc)}") from None
    return kept


def calibrate(evidences: Iterable[HoleEvidence], layout: Layout) -> Calibration:
    """Learn from readings of the opening position (every peg in its Home).

    Raises :class:`CalibrationError` naming the first hole that contradicts
    the opening position, or when no frame showed the board.
    """
    tops: dict[str, list[np.ndarray]] = {c: [] for c in COLORS}
    sats: list[float] = []
    frames = 0
    home = {c: [i for i, n in enumerate(HOLE_NAMES) if n.startswith(f"{c}:home:")] for c in COLORS}
    empty = [i for i, n in enumerate(HOLE_NAMES) if ":home:" not in n]
    for ev in evidences:
        frames += 1
        for c in COLORS:
            for i in home[c]:
                if ev.top_saturation[i] < 0.25 or ev.recess_share[i] > 0.1:
                    raise CalibrationError(
                        f"{HOLE_NAMES[i]} shows no {c} peg: put every peg in its Home "
                        "(the opening position) and calibrate again")
                tops[c].append(chroma(ev.top_colour[i]))
                sats.append(float(ev.top_saturation[i]))
        for i in empty:
            if ev.recess_share[i] == 0.0 and ev.top_saturation[i] >= 0.45 \
                    and float(ev.top_cosine[i].max()) >= 0.95:
                raise CalibrationError(
                    f"{HOLE_NAMES[i]} seems to hold a peg: only Home holes may hold pegs "
                    "when calibrating (the opening position)")
        shares = ev.recess_share[empty]
        if float(np.mean(shares > 0.2)) < 0.8:
            worst = empty[int(np.argmin(shares))]
            raise CalibrationError(
                f"{HOLE_NAMES[worst]} does not look empty: only Home holes may hold pegs "
                "when calibrating")
    if frames == 0:
        raise CalibrationError("the board was not found in any frame: are the four markers in view?")
    peg = {}
    for c in COLORS:
        mean = np.mean(tops[c], axis=0)
        others = [np.mean(tops[o], axis=0) for o in COLORS if o != c]
        mean_dir = mean / max(float(np.linalg.norm(mean)), 1e-6)
        for o in others:
            cos = float(mean_dir @ o / max(float(np.linalg.norm(o)), 1e-6))
            if cos > 0.8:
                raise CalibrationError(
                    f"the {c} pegs look too much like another colour under this light "
                    f"(similarity {cos:.2f}); check the light and the pegs' places")
        peg[c] = (round(float(mean[0]), 5), round(float(mean[1]), 5), round(float(mean[2]), 5))
    base = ColourModel.default()
    min_sat = round(float(min(base.min_saturation, 0.6 * min(sats))), 5)
    return Calibration(
        layout=layout.name, peg_chroma=peg, min_saturation=min_sat,
        recess_value=base.recess_value, frames=frames,
        created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    )


def adapt(model: ColourModel, ev: HoleEvidence, states: list[str], conf: np.ndarray,
          rate: float = 0.02) -> ColourModel:
    """Follow drifting light: move each colour's chroma a little towards the
    tops of pegs read with high confidence in this frame."""
    new = dict(model.peg_chroma)
    changed = False
    for c in COLORS:
        idx = [i for i, s in enumerate(states) if s == c and conf[i] >= 0.8]
        if idx:
            seen = np.mean(chroma(ev.top_colour[idx]), axis=0)
            new[c] = ((1 - rate) * new[c] + rate * seen).astype(np.float32)
            changed = True
    return replace(model, peg_chroma=new) if changed else model
