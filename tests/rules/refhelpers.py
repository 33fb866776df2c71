"""Helpers shared by the rules and referee tests (a plain module, not a
conftest, so its name cannot clash with another folder's conftest)."""

from __future__ import annotations

import random
from typing import Any

from companion.referee import Referee
from companion.rules import COLORS

Event = dict[str, Any]


def feed_all(*lines: dict[str, Any], referee: Referee | None = None) -> list[Event]:
    """Feed lines to a (fresh) referee; all their events, in order."""
    referee = referee or Referee()
    out: list[Event] = []
    for line in lines:
        out += referee.feed(line)
    return out


def last(*lines: dict[str, Any]) -> list[Event]:
    """The events of the last line only, after feeding the others."""
    referee = Referee()
    for line in lines[:-1]:
        referee.feed(line)
    return referee.feed(lines[-1])


def names(events: list[Event]) -> list[str]:
    return [e["event"] for e in events]


def start(
    turn: str = "red",
    players: list[Any] | None = None,
    rules: dict[str, Any] | None = None,
    **pegs: list[str],
) -> dict[str, Any]:
    """A setup line giving the turn (so no who-goes-first pops); pegs by colour."""
    setup: dict[str, Any] = {"turn": turn, "pegs": pegs}
    if players is not None:
        setup["players"] = players
    if rules:
        setup["rules"] = rules
    return {"setup": setup}


def random_position(
    rng: random.Random, players: list[list[str]], count: int = 4
) -> dict[str, list[str]]:
    """A random legal-looking position, biased towards the interesting places:
    near each colour's Finish entrance, on Starts, inside Finish."""
    starts = [1, 8, 15, 22]
    while True:
        taken: set[str] = set()
        pegs: dict[str, list[str]] = {}
        for player in players:
            for color in player:
                s = starts[COLORS.index(color)]
                places: list[str] = []
                for _ in range(count):
                    for _attempt in range(20):
                        r = rng.random()
                        if r < 0.25:
                            place = "home"
                        elif r < 0.45:
                            place = f"finish:{rng.randint(1, 4)}"
                        elif r < 0.65:  # the last spaces before the Finish entrance
                            place = f"track:{(s - 1 - rng.randint(1, 8)) % 28 + 1}"
                        elif r < 0.75:
                            place = f"track:{rng.choice(starts)}"
                        else:
                            place = f"track:{rng.randint(1, 28)}"
                        key = place if place.startswith("track") else f"{color}:{place}"
                        if place == "home" or key not in taken:
                            taken.add(key)
                            places.append(place)
                            break
                    else:
                        places.append("home")
                pegs[color] = places
        # No colour may start complete (that player would already have won).
        if not any(all(p.startswith("finish") for p in places) for places in pegs.values()):
            return pegs
