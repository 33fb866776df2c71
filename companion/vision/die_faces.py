"""Learning the faces of a digit die from one frame per face, with the board's pose.

Some editions of Trouble print digits instead of pips. ``companion calibrate
--die-faces`` shows the camera each face once (the die lying flat in the
Pop-O-Matic showing 1, then 2, ... 6); each frame's dome is cut out through
the board's pose exactly as in play (``BoardReader.dome_crop``) and its top
face learned (``dice.templates``).

Then every face is read back from its own frame with the faces learned. A
face that does not read back as itself means one face was shown twice, or
the digits are too small or blurred in this camera's picture to tell apart;
faces learned from such frames read wrong values in play (on rendered
cameras, docs/vision-dice.md "Learned faces"), so they are refused with the
reason, never saved with a warning. Faces shown out of order cannot be
caught: each frame matches its own learned face best.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from companion.errors import UserError
from companion.vision.dice.templates import FaceTemplates, learn_patch
from companion.vision.locate import BoardPose
from companion.vision.reader import BoardReader, dice_fraction


class DieFacesError(UserError):
    """Die faces that cannot be learned from the frames given; the message names the frame."""


def learn_faces(reader: BoardReader, frames: Iterable[tuple[str, np.ndarray]]
                ) -> tuple[FaceTemplates, dict[int, np.ndarray], dict[int, str]]:
    """The faces learned from (name, frame) pairs showing 1..6 in order, with each
    face's dome crop and frame name. ``DieFacesError`` naming the frame when the
    board or the die's face is not found in it."""
    fraction = dice_fraction(reader.geometry)
    crops: dict[int, np.ndarray] = {}
    patches: dict[int, np.ndarray] = {}
    names: dict[int, str] = {}
    for value, (name, frame) in enumerate(frames, start=1):
        pose = reader.locator.locate(frame)
        if not isinstance(pose, BoardPose):
            raise DieFacesError(f"{name}: the board was not found ({pose.reason})")
        reader.plan_for(pose, frame.shape[:2])
        crops[value], names[value] = reader.dome_crop(frame), name
        try:
            patches[value] = learn_patch(crops[value], fraction, value)
        except ValueError:
            raise DieFacesError(f"{name}: no die face found in the Pop-O-Matic (the die must lie "
                                f"flat, showing {value}, with nothing over the dome)") from None
    return FaceTemplates(patches), crops, names


def check_read_back(faces: FaceTemplates, crops: dict[int, np.ndarray], names: dict[int, str],
                    fraction: float) -> None:
    """``DieFacesError`` unless every face reads back from its own crop as itself."""
    wrong, unread = faces.misreads(crops, fraction)
    if wrong:
        shown, read = min(wrong.items())
        raise DieFacesError(f"{names[shown]}: the die's {shown} reads back as {read} with the "
                            f"faces learned: faces {min(shown, read)} and {max(shown, read)} look "
                            f"alike to this camera. {REMEDY}")
    if unread:
        raise DieFacesError(f"the die's {listed_faces(unread)} could not be read back from "
                            f"{'its own photo' if len(unread) == 1 else 'their own photos'}. {REMEDY}")


def learn_die_faces(reader: BoardReader, frames: Iterable[tuple[str, np.ndarray]]) -> FaceTemplates:
    """The die's faces learned from frames showing 1..6 in order, and checked (module doc)."""
    faces, crops, names = learn_faces(reader, frames)
    check_read_back(faces, crops, names, dice_fraction(reader.geometry))
    return faces


REMEDY = ("Either a face was shown twice (show 1 to 6 in order, each once), or the digits are too "
          "small or blurred in the picture (bring the camera closer, focus it, light the dome). "
          "Nothing was saved")


def listed_faces(values: list[int]) -> str:
    """'face 3' or 'faces 1, 3 and 5'."""
    names = [str(v) for v in values]
    if len(names) == 1:
        return f"face {names[0]}"
    return "faces " + ", ".join(names[:-1]) + " and " + names[-1]
