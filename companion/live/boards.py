"""Whole-board positions as the loop compares them: seen versus expected.

A position is ``{colour: [place, ...]}`` in the referee's place names
(``home``, ``track:N``, ``finish:K``), as the vision stream and the referee's
``pegs`` both use. The loop needs three things from a pair of positions:
are they the same (order of pegs does not matter), which pegs are missing
from the seen board (a peg in a hand, knocked off, or bumped and not yet put
back), and a sentence saying what differs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

Board = dict[str, list[str]]


def normalise(board: Mapping[str, Sequence[str]], colours: Iterable[str]) -> Board:
    """Keep only *colours*, each with its places sorted (peg order is meaningless)."""
    return {c: sorted(board.get(c, ())) for c in colours}


def same(a: Mapping[str, Sequence[str]], b: Mapping[str, Sequence[str]], colours: Iterable[str]) -> bool:
    return all(Counter(a.get(c, ())) == Counter(b.get(c, ())) for c in colours)


def same_but(a: Mapping[str, Sequence[str]], b: Mapping[str, Sequence[str]], colour: str) -> bool:
    """Whether *a* and *b* (*b*'s colours) agree in every colour but *colour*.

    >>> same_but({"red": ["track:3"], "blue": ["home"]}, {"red": ["track:1"], "blue": ["home"]}, "red")
    True
    """
    return same(a, b, [c for c in b if c != colour])


def one_peg_moved(now: Sequence[str], before: Sequence[str]) -> bool:
    """Exactly one peg of a colour is somewhere else (one place left, one taken).

    >>> one_peg_moved(["track:10", "home"], ["track:9", "home"]), one_peg_moved(["track:10", "track:1"], ["home", "home"])
    (True, False)
    """
    gone, came = Counter(before) - Counter(now), Counter(now) - Counter(before)
    return sum(gone.values()) == 1 and sum(came.values()) == 1


def advanced(seen: Mapping[str, Sequence[str]], expected: Mapping[str, Sequence[str]]) -> list[str]:
    """The colours with a peg out of Home where *expected* has none of theirs.

    A bump only sends its victim Home, so one move, right or wrong, advances
    one colour only.

    >>> advanced({"red": ["track:5"], "blue": ["home"]}, {"red": ["track:2"], "blue": ["track:3"]})
    ['red']
    """
    return [c for c, places in seen.items()
            if any(p != "home" for p in Counter(places) - Counter(expected.get(c, ())))]


def missing(seen: Mapping[str, Sequence[str]], expected: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """How many pegs of each colour the camera does not see at all."""
    out: dict[str, int] = {}
    for colour, places in expected.items():
        short = len(places) - len(seen.get(colour, ()))
        if short > 0:
            out[colour] = short
    return out


def complete(seen: Mapping[str, Sequence[str]], expected: Mapping[str, Sequence[str]]) -> Board:
    """The seen board with each unseen peg counted as in its Home.

    Why Home: the one legitimate reason for a peg to be off the board after a
    stable move is that it was bumped and its owner has not put it back yet,
    and the referee has already sent it Home. Any other reading of a missing
    peg is refused by the loop (it never calls a move illegal on a board with
    pegs missing).
    """
    out: Board = {}
    for colour, places in expected.items():
        got = list(seen.get(colour, ()))
        got += ["home"] * max(0, len(places) - len(got))
        out[colour] = sorted(got)
    return out


def gone_home(seen: Mapping[str, Sequence[str]], expected: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Colours (and how many pegs) that *seen* shows in Home instead of where
    *expected* has them out, when that is the board's only difference.

    No move takes a peg of one's own back Home without another peg landing
    where it stood (a bump moves the bumper too), so such a board is a peg
    lifted off its hole and misread as, or put back in, its Home: the loop
    treats it as a missing peg (asked for after a while), not as an illegal
    move.

    >>> gone_home({"red": ["home", "home", "home", "home"]}, {"red": ["home", "home", "home", "track:12"]})
    {'red': 1}
    >>> gone_home({"red": ["home", "home", "home", "track:14"]}, {"red": ["home", "home", "home", "track:12"]})
    {}
    """
    out: dict[str, int] = {}
    for colour, places in expected.items():
        have, want = Counter(seen.get(colour, ())), Counter(places)
        extra, lacking = have - want, want - have
        if not extra and not lacking:
            continue
        if set(extra) != {"home"} or "home" in lacking or sum(extra.values()) != sum(lacking.values()):
            return {}
        out[colour] = sum(lacking.values())
    return out


#: How far back (in the colour's own progress) a peg seen behind its place
#: is taken for knocked or misread rather than moved.
MAX_NUDGE_BACK = 2


def nudged_back(seen: Mapping[str, Sequence[str]], expected: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """``{colour: steps}`` when the board's only difference is one peg seen
    one or two places *behind* where *expected* has it (on the track or in
    its Finish, never Home).

    Pegs only move forward, so this is a peg knocked a hole back or misread
    in the next hole of its Finish lane (seen in a whole rendered game: a
    red peg on Finish 4 read on Finish 3 for a moment, called "pop first,
    then move"). The loop asks for it as for a missing peg.

    >>> nudged_back({"red": ["finish:3", "home"]}, {"red": ["finish:4", "home"]})
    {'red': 1}
    >>> nudged_back({"red": ["track:9"]}, {"red": ["track:8"]})
    {}
    """
    return {c: back for c, back in nudged_by(seen, expected).items() if back > 0}


def nudged_by(seen: Mapping[str, Sequence[str]], expected: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """``{colour: steps back}`` (negative: forward) when the board's only
    difference is one peg seen one or two places from where *expected* has
    it (on the track or in its Finish, never Home).

    >>> nudged_by({"green": ["finish:2", "finish:3"]}, {"green": ["finish:1", "finish:3"]})
    {'green': -1}
    """
    from companion.rules import COLOR_INDEX, PlaceError, parse_place, progress

    changed = [(c, Counter(seen.get(c, ())) - Counter(p), Counter(p) - Counter(seen.get(c, ())))
               for c, p in expected.items()]
    changed = [(c, extra, lacking) for c, extra, lacking in changed if extra or lacking]
    if len(changed) != 1:
        return {}
    colour, extra, lacking = changed[0]
    if sum(extra.values()) != 1 or sum(lacking.values()) != 1 or "home" in extra or "home" in lacking:
        return {}
    (now,), (was,) = list(extra), list(lacking)
    try:
        index = COLOR_INDEX[colour]
        back = progress(index, parse_place(was)) - progress(index, parse_place(now))
    except (KeyError, PlaceError):
        return {}
    return {colour: back} if 1 <= abs(back) <= MAX_NUDGE_BACK else {}


def spoken_place(place: str) -> str:
    """``track:9`` -> ``space 9``; ``finish:2`` -> ``Finish space 2``; ``home`` -> ``Home``."""
    if place == "home":
        return "Home"
    kind, _, n = place.partition(":")
    if kind == "track":
        return f"space {n}"
    if kind == "finish":
        return f"Finish space {n}"
    return place


def differences(seen: Mapping[str, Sequence[str]], expected: Mapping[str, Sequence[str]]) -> list[str]:
    """Sentences naming each peg the camera sees where the game does not have it.

    Example: ``I see a blue peg on space 9, but the game has it in Home.``
    """
    out: list[str] = []
    for colour, places in expected.items():
        extra = Counter(seen.get(colour, ())) - Counter(places)
        lacking = Counter(places) - Counter(seen.get(colour, ()))
        extra_list = sorted(extra.elements())
        lacking_list = sorted(lacking.elements())
        for i, place in enumerate(extra_list):
            where = f"on {spoken_place(place)}" if place != "home" else "in Home"
            if i < len(lacking_list):
                want = lacking_list[i]
                has = f"on {spoken_place(want)}" if want != "home" else "in Home"
                out.append(f"I see a {colour} peg {where}, but the game has it {has}.")
            else:
                out.append(f"I see an extra {colour} peg {where}.")
        for place in lacking_list[len(extra_list):]:
            has = f"on {spoken_place(place)}" if place != "home" else "in Home"
            out.append(f"I cannot see the {colour} peg that the game has {has}.")
    return out


def all_home(board: Mapping[str, Sequence[str]], colours: Iterable[str], pegs: int = 4) -> bool:
    return all(list(board.get(c, ())) == ["home"] * pegs for c in colours)
