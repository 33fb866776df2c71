"""The board's geometry and the project's place names.

A peg's place is held inside the core as its *progress* along its own colour's
trip, a small int, so that moving is addition and every rule is a comparison:

* ``HOME`` (-1): in the colour's Home;
* 0 .. 27: on the track, 0 being the colour's own Start space;
* 28 .. 31: in the colour's Finish line, ``finish:1`` .. ``finish:4``.

Names are the project's contract (docs/development.md): ``home``,
``track:1`` .. ``track:28`` (one numbering for everybody, clockwise,
``track:1`` being Red's Start) and ``finish:1`` .. ``finish:4`` (per colour).
The physical-hole forms ``COLOR:home``, ``COLOR:home:K`` and
``COLOR:finish:K`` are accepted too, so that a peg seen in another colour's
Finish can be named (and refused).

>>> place_name(COLOR_INDEX["blue"], 0)
'track:8'
>>> progress(COLOR_INDEX["blue"], parse_place("track:7"))
27
>>> place_name(1, 28)
'finish:1'
"""

from __future__ import annotations

from typing import NamedTuple

from companion.rules.errors import PlaceError

#: The four colours, clockwise; play passes in this order.
COLORS: tuple[str, str, str, str] = ("red", "blue", "yellow", "green")
COLOR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLORS)}

TRACK_SPACES = 28
FINISH_SPACES = 4
PEGS_PER_COLOR = 4
#: Spaces between two neighbouring Starts.
SEAT_SPACING = TRACK_SPACES // len(COLORS)

HOME = -1
#: Progress of the last track space of a trip (just before the colour's Start).
LAST_TRACK = TRACK_SPACES - 1
#: Progress of ``finish:1`` and of ``finish:4``.
FIRST_FINISH = TRACK_SPACES
LAST_FINISH = TRACK_SPACES + FINISH_SPACES - 1

#: ``ABSOLUTE[c][p]``: the 0-based track index of colour c's progress p (0..27).
ABSOLUTE: tuple[tuple[int, ...], ...] = tuple(
    tuple((SEAT_SPACING * c + p) % TRACK_SPACES for p in range(TRACK_SPACES))
    for c in range(len(COLORS))
)
#: ``START[c]``: the 0-based track index of colour c's Start space.
START: tuple[int, ...] = tuple(ABSOLUTE[c][0] for c in range(len(COLORS)))


class Place(NamedTuple):
    """A parsed place name.

    ``kind`` is ``"home"``, ``"track"`` or ``"finish"``; ``number`` is the
    track number (1..28), the Finish space (1..4) or the Home hole (0 when
    unnamed, else 1..4); ``owner`` is the colour index named in a qualified
    name (``blue:finish:2``), or ``None`` for the plain per-colour forms.
    """

    kind: str
    number: int
    owner: int | None = None


def parse_place(text: object) -> Place:
    """Parse a place name, raising :class:`PlaceError` naming what is wrong.

    >>> parse_place("track:28")
    Place(kind='track', number=28, owner=None)
    >>> parse_place("blue:finish:2")
    Place(kind='finish', number=2, owner=1)
    >>> parse_place("track:29")
    Traceback (most recent call last):
    ...
    companion.rules.errors.PlaceError: no such place 'track:29': the track runs from track:1 to track:28
    """
    if not isinstance(text, str):
        raise PlaceError(f"a place must be a name like 'track:12', not {text!r}")
    parts = text.strip().lower().split(":")
    owner: int | None = None
    if parts and parts[0] in COLOR_INDEX and len(parts) >= 2:
        owner = COLOR_INDEX[parts[0]]
        parts = parts[1:]
        if parts[0] == "track":
            raise PlaceError(f"no such place {text!r}: track spaces have no colour, say 'track:N'")
    kind = parts[0] if parts else ""
    if kind == "home" and len(parts) == 1:
        return Place("home", 0, owner)
    if kind in ("home", "track", "finish") and len(parts) == 2:
        number = _number(parts[1])
        limit = TRACK_SPACES if kind == "track" else FINISH_SPACES
        if number is None or not 1 <= number <= limit:
            raise PlaceError(
                f"no such place {text!r}: the {kind} runs from {kind}:1 to {kind}:{limit}"
            )
        return Place(kind, number, owner)
    raise PlaceError(
        f"no such place {text!r}: say 'home', 'track:1'..'track:28' or 'finish:1'..'finish:4'"
    )


def format_place(place: Place, color: int) -> str:
    """The canonical name of a parsed place, seen from colour index *color*:
    the per-colour form, or the qualified form for another colour's Home or
    Finish.

    >>> format_place(parse_place(" Track:03 "), 0), format_place(parse_place("red:finish:2"), 0)
    ('track:3', 'finish:2')
    >>> format_place(parse_place("blue:home:3"), 0)
    'blue:home'
    """
    if place.kind == "track":
        return f"track:{place.number}"
    plain = "home" if place.kind == "home" else f"finish:{place.number}"
    if place.owner is None or place.owner == color:
        return plain
    return f"{COLORS[place.owner]}:{plain}"


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) <= 3 else None


def progress(color: int, place: Place) -> int:
    """The progress of *place* for a peg of colour index *color*.

    A qualified Home or Finish of another colour has no progress for this
    colour: that is a :class:`PlaceError` (callers check ``owner`` first when
    they want a rule reason instead).
    """
    if place.owner is not None and place.owner != color and place.kind != "track":
        raise PlaceError(f"{COLORS[color]} pegs cannot be in {COLORS[place.owner]}'s {place.kind}")
    if place.kind == "home":
        return HOME
    if place.kind == "finish":
        return LAST_TRACK + place.number
    return (place.number - 1 - START[color]) % TRACK_SPACES


#: ``NAMES[c][p + 1]``: the place name of colour c's progress p (HOME included).
NAMES: tuple[tuple[str, ...], ...] = tuple(
    ("home",)
    + tuple(f"track:{ABSOLUTE[c][p] + 1}" for p in range(TRACK_SPACES))
    + tuple(f"finish:{k}" for k in range(1, FINISH_SPACES + 1))
    for c in range(len(COLORS))
)


def place_name(color: int, prog: int) -> str:
    """The contract name of colour index *color*'s progress *prog*."""
    return NAMES[color][prog + 1]


def spoken_place(color: int, prog: int) -> str:
    """A place said aloud to the table: "Home", "Blue's Start", "space 12", "Finish 2".

    >>> spoken_place(1, 0), spoken_place(0, 7), spoken_place(2, 30)
    ("Blue's Start", "Blue's Start", 'Finish 3')
    """
    if prog == HOME:
        return "Home"
    if prog >= FIRST_FINISH:
        return f"Finish {prog - LAST_TRACK}"
    index = ABSOLUTE[color][prog]
    if index in START:
        return f"{COLORS[START.index(index)].capitalize()}'s Start"
    return f"space {index + 1}"


def title(color: int) -> str:
    """A colour's name as the start of a spoken sentence: ``Red``."""
    return COLORS[color].capitalize()
