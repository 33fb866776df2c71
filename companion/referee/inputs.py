"""The referee's input lines, checked and turned into domain values at the edge.

Every problem raises :class:`InputError` with a sentence naming it; the
referee turns that into an ``error`` event and leaves the game untouched.
Board lines are checked against the game (which colours play, how many pegs
a colour has) by the referee, not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules import COLOR_INDEX, COLORS, Place, PlaceError, parse_place

#: The keys that say what a line is; exactly one per line.
ACTIONS = ("setup", "pop", "move", "board", "command")
#: Keys a recorder may add to any line; the referee ignores them (as it does
#: every key starting with ``_``).
METADATA = frozenset({"time", "frame", "source", "confidence"})
#: The commands and the extra keys each takes.
COMMANDS: dict[str, tuple[str, ...]] = {
    "undo": (),
    "pop": ("value",),
    "turn": ("color",),
    "skip": (),
    "peg": ("color", "from", "to"),
}


#: Optional extra keys of the other lines: a pop may name who popped.
LINE_EXTRAS: dict[str, tuple[str, ...]] = {"pop": ("color",)}


class InputError(ValueError):
    """A malformed input line (bad JSON shape, unknown colour, no such place)."""


@dataclass(frozen=True)
class Line:
    """One checked input line: its action and the object under that key."""

    action: str
    body: Any
    extra: Mapping[str, Any]


def parse_line(obj: object) -> Line:
    """Check the shape of one input object and say which action it is."""
    if not isinstance(obj, Mapping):
        raise InputError(f"each line must be a JSON object, not {_show(obj)}")
    actions = [key for key in obj if key in ACTIONS]
    if not actions:
        raise InputError(f"a line needs one of {', '.join(ACTIONS)}; got keys {_keys(obj)}")
    if len(actions) > 1:
        raise InputError(f"a line holds one action, not {' and '.join(actions)}")
    action = actions[0]
    if action == "command":
        allowed = set(COMMANDS.get(str(obj[action]), ()))
    else:
        allowed = set(LINE_EXTRAS.get(action, ()))
    for key in obj:
        if key == action or key in METADATA or str(key).startswith("_") or key in allowed:
            continue
        raise InputError(f"unknown key {key!r} in a {action} line")
    extra = {k: v for k, v in obj.items() if k in allowed}
    return Line(action, obj[action], extra)


def parse_pop(value: object) -> int:
    """A pop: an int from 1 to 6 (not 6.0, not "6", not true)."""
    if type(value) is not int or not 1 <= value <= 6:
        raise InputError(f"a pop is a whole number from 1 to 6, not {_show(value)}")
    return value


def parse_color(value: object, what: str = "colour") -> str:
    if not isinstance(value, str) or value not in COLOR_INDEX:
        raise InputError(f"unknown {what} {_show(value)}: the colours are {', '.join(COLORS)}")
    return value


def parse_at(value: object, what: str) -> Place:
    try:
        return parse_place(value)
    except PlaceError as exc:
        raise InputError(f"{what}: {exc}") from None


@dataclass(frozen=True)
class SeenMove:
    """A peg seen moving: its colour and the places it left and reached."""

    color: str
    frm: Place
    to: Place


def parse_move(body: object) -> SeenMove:
    if not isinstance(body, Mapping):
        raise InputError(f"move must be an object with color, from and to, not {_show(body)}")
    for key in body:
        if key not in ("color", "from", "to"):
            raise InputError(f"unknown key {key!r} in move: a move has color, from and to")
    missing = [k for k in ("color", "from", "to") if k not in body]
    if missing:
        raise InputError(f"move is missing {', '.join(missing)}")
    color = parse_color(body["color"])
    return SeenMove(color, parse_at(body["from"], "move from"), parse_at(body["to"], "move to"))


def parse_board(body: object, pegs_per_color: int) -> dict[int, list[Place]]:
    """A seen board: colour index -> places (Home entries allowed, at most one
    colour's worth of pegs; places of other colours' Home or Finish refused)."""
    if not isinstance(body, Mapping):
        raise InputError(f"board must be an object of colour -> list of places, not {_show(body)}")
    seen: dict[int, list[Place]] = {}
    for name, places in body.items():
        color = parse_color(name, "colour in board")
        c = COLOR_INDEX[color]
        if not isinstance(places, list):
            raise InputError(f"board {color} must be a list of places, not {_show(places)}")
        if len(places) > pegs_per_color:
            raise InputError(
                f"board shows {len(places)} {color} pegs; each colour has {pegs_per_color}"
            )
        parsed = [parse_at(p, f"board {color}") for p in places]
        for place in parsed:
            if place.owner is not None and place.owner != c and place.kind != "track":
                raise InputError(f"board {color} lists {COLORS[place.owner]}'s {place.kind}")
        seen[c] = parsed
    _no_two_on_one(seen)
    return seen


def _no_two_on_one(seen: Mapping[int, list[Place]]) -> None:
    """Two pegs seen on one track space, or one colour's two on one Finish
    space, is not a board that can exist."""
    spots: dict[tuple[str, int, int], str] = {}
    for c, places in seen.items():
        for place in places:
            if place.kind == "home":
                continue
            key = (place.kind, place.number, -1 if place.kind == "track" else c)
            if key in spots:
                raise InputError(
                    f"board shows two pegs on {place.kind}:{place.number} ({spots[key]} and {COLORS[c]})"
                )
            spots[key] = COLORS[c]


def parse_setup(body: object) -> Mapping[str, Any]:
    if body is None:
        return {}
    if not isinstance(body, Mapping):
        raise InputError(f"setup must be an object, not {_show(body)}")
    body = {k: v for k, v in body.items() if v is not None}  # null means "not given"
    for key in body:
        if key not in ("players", "rules", "pegs", "turn"):
            raise InputError(f"unknown key {key!r} in setup: use players, rules, pegs, turn")
    if "rules" in body and not isinstance(body["rules"], Mapping):
        raise InputError("setup rules must be an object of rule options")
    if "pegs" in body and not isinstance(body["pegs"], Mapping):
        raise InputError("setup pegs must be an object of colour -> list of places")
    if "turn" in body:
        parse_color(body["turn"], "colour for turn")
    return body


def _show(value: object) -> str:
    text = repr(value) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= 60 else text[:57] + "..."


def _keys(obj: Mapping[Any, Any]) -> str:
    return ", ".join(repr(k) for k in obj) or "none"
