"""The one mapping between the rules engine's place names and physical holes.

The rules engine names places per colour (``home``, ``track:N``, ``finish:K``);
a layout file names holes (``track:N``, ``red:home:K``, ``red:finish:K``). The
track numbering is shared by all colours, so ``track:N`` is the same hole for
everyone; Home and Finish belong to one colour. Home pegs have no identity, so
the k-th peg at home fills ``COLOR:home:k`` (home pegs fill the holes in order).

Pure standard library (and the rules core, for the board's shape): the vision
reader and the renderer both use it, and it
must agree with ``docs/development.md`` exactly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from companion.errors import UserError
from companion.rules.board import COLORS, FINISH_SPACES, PEGS_PER_COLOR, START, TRACK_SPACES

# The board's shape is the rules core's: one source of truth for both.
TRACK_LENGTH = TRACK_SPACES
HOME_SIZE = PEGS_PER_COLOR
FINISH_SIZE = FINISH_SPACES

#: Each colour's Start space on the track (the rules engine's numbering: 1, 8, 15, 22).
START_SPACE: dict[str, int] = {c: START[i] + 1 for i, c in enumerate(COLORS)}

#: Every hole of the physical board, in a fixed order (60 names).
HOLE_NAMES: tuple[str, ...] = (
    tuple(f"track:{n}" for n in range(1, TRACK_LENGTH + 1))
    + tuple(f"{c}:home:{k}" for c in COLORS for k in range(1, HOME_SIZE + 1))
    + tuple(f"{c}:finish:{k}" for c in COLORS for k in range(1, FINISH_SIZE + 1))
)

_PLACE = re.compile(r"^(home|track:(\d+)|finish:(\d+))$")
_HOLE = re.compile(r"^(?:track:(\d+)|(red|blue|yellow|green):(home|finish):(\d+))$")


class PositionError(UserError):
    """A position (pegs by colour, or holes by colour) that cannot be real."""


def finish_entry_space(color: str) -> int:
    """The track space just before *color*'s Start: its Finish is entered from here."""
    _check_color(color)
    return (START_SPACE[color] - 2) % TRACK_LENGTH + 1


def hole_for(color: str, place: str, home_index: int = 1) -> str:
    """The hole holding *color*'s peg at the rules place *place*.

    ``home_index`` (1..4) picks the home hole for the k-th peg at home.
    """
    _check_color(color)
    m = _PLACE.match(place)
    if not m:
        raise PositionError(f"unknown place {place!r} for {color} (expected home, track:1..28 or finish:1..4)")
    if place == "home":
        if not 1 <= home_index <= HOME_SIZE:
            raise PositionError(f"home index {home_index} out of range 1..{HOME_SIZE}")
        return f"{color}:home:{home_index}"
    if m.group(2) is not None:
        n = int(m.group(2))
        if not 1 <= n <= TRACK_LENGTH:
            raise PositionError(f"track space {n} out of range 1..{TRACK_LENGTH} in {place!r}")
        return f"track:{n}"
    k = int(m.group(3))
    if not 1 <= k <= FINISH_SIZE:
        raise PositionError(f"finish space {k} out of range 1..{FINISH_SIZE} in {place!r}")
    return f"{color}:finish:{k}"


def place_for(color: str, hole: str) -> str:
    """The rules place of *color*'s peg standing in *hole* (inverse of :func:`hole_for`)."""
    _check_color(color)
    m = _HOLE.match(hole)
    if not m or hole not in _HOLE_SET:
        raise PositionError(f"unknown hole {hole!r}")
    if m.group(1) is not None:
        return hole
    owner, kind, k = m.group(2), m.group(3), m.group(4)
    if owner != color:
        raise PositionError(f"a {color} peg cannot stand in {hole!r} (it belongs to {owner})")
    return "home" if kind == "home" else f"finish:{k}"


def holes_from_pegs(pegs: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """``{"red": ["home", "track:3"]}`` -> ``{"red:home:1": "red", "track:3": "red"}``.

    Raises :class:`PositionError` naming the problem for an unknown colour or
    place, more than four pegs of a colour, or two pegs in one hole.
    """
    if not isinstance(pegs, Mapping):
        raise PositionError(f"pegs must be an object of colour -> list of places, not {type(pegs).__name__}")
    out: dict[str, str] = {}
    for color, places in pegs.items():
        _check_color(color)
        if isinstance(places, str) or not isinstance(places, Sequence):
            raise PositionError(f"pegs of {color} must be a list of places, not {places!r}")
        if len(places) > HOME_SIZE:
            raise PositionError(f"{color} has {len(places)} pegs; a colour has {HOME_SIZE}")
        home_count = 0
        for place in places:
            if not isinstance(place, str):
                raise PositionError(f"a place of {color} must be a string, not {place!r}")
            if place == "home":
                home_count += 1
            hole = hole_for(color, place, home_count if place == "home" else 1)
            if hole in out:
                raise PositionError(f"two pegs in {hole!r} ({out[hole]} and {color})")
            out[hole] = color
    return out


def _place_key(place: str) -> tuple[int, int]:
    if place == "home":
        return (0, 0)
    kind, n = place.split(":")
    return (1 if kind == "track" else 2, int(n))


def sort_places(places: Sequence[str]) -> list[str]:
    """Canonical order of one colour's places: home first, then track, then finish."""
    return sorted(places, key=_place_key)


def pegs_from_holes(holes: Mapping[str, str]) -> dict[str, list[str]]:
    """``{"track:3": "red", "red:home:2": "red"}`` -> ``{"red": ["home", "track:3"]}``.

    Colours with no peg seen are left out; places are in :func:`sort_places` order.
    """
    found: dict[str, list[str]] = {}
    for hole, color in holes.items():
        found.setdefault(color, []).append(place_for(color, hole))
    return {c: sort_places(found[c]) for c in COLORS if c in found}


def _check_color(color: object) -> None:
    if color not in START_SPACE:
        raise PositionError(f"unknown colour {color!r} (expected one of {', '.join(COLORS)})")


_HOLE_SET = frozenset(HOLE_NAMES)
