"""A deliberately naive second implementation of the Trouble rules.

Written straight from the rule texts (../shared/rules/) and sharing no code
with ``companion.rules``: places are the contract's strings, the board is a
dict, and a move is found by walking the peg one space at a time. It is slow
and obvious on purpose; the tests compare it with the engine move for move.
"""

from __future__ import annotations

COLS = ["red", "blue", "yellow", "green"]
START = {"red": 1, "blue": 8, "yellow": 15, "green": 22}


def entrance(color: str) -> int:
    """The last track space of a colour's trip: the one just before its Start."""
    return 28 if START[color] == 1 else START[color] - 1


def step(color: str, place: str) -> str | None:
    """One space forward for a peg of *color*; None past the end of Finish."""
    kind, number = place.split(":")
    n = int(number)
    if kind == "track":
        if n == entrance(color):
            return "finish:1"
        return f"track:{n % 28 + 1}"
    if kind == "finish":
        return f"finish:{n + 1}" if n < 4 else None
    raise ValueError(place)


def occupant(pegs: dict[str, list[str]], place: str) -> str | None:
    """Which colour's peg is on a track space."""
    for color, places in pegs.items():
        if place in places:
            return color
    return None


def moves(
    players: list[list[str]],
    pegs: dict[str, list[str]],
    mover: list[str],
    pop: int,
    options: dict[str, bool],
) -> set[tuple[str, str, str, str | None]]:
    """Every legal (colour, from, to, victim) for the player moving *mover*."""
    basic = options.get("basic", False)
    result: set[tuple[str, str, str, str | None]] = set()
    for color in mover:
        for here in set(pegs[color]):
            if here == "home":
                if pop != 6 and not basic:
                    continue
                dest = f"track:{START[color]}"
                path: list[str] = []
            else:
                if basic and here.startswith("finish"):
                    continue
                cur: str | None = here
                path = []
                for _ in range(pop):
                    nxt = step(color, cur)  # type: ignore[arg-type]
                    if nxt is None:
                        if basic:
                            break
                        cur = None
                        break
                    path.append(nxt)
                    cur = nxt
                if cur is None:
                    continue  # overshoots the Finish line
                dest = cur
            if dest.startswith("finish"):
                if dest in pegs[color]:
                    continue
                jumped = path[:-1]
                if not options.get("jump_in_finish", True) and any(
                    p.startswith("finish") and p in pegs[color] for p in jumped
                ):
                    continue
                result.add((color, here, dest, None))
                continue
            who = occupant(pegs, dest)
            if who in mover:
                continue  # your own peg (either of your colours)
            result.add((color, here, dest, who))
    return result


def play(
    players: list[list[str]],
    pegs: dict[str, list[str]],
    mover: list[str],
    move: tuple[str, str, str, str | None],
) -> dict[str, list[str]]:
    """The position after a move: the peg moves, a bumped peg goes Home."""
    color, here, dest, victim = move
    after = {c: list(p) for c, p in pegs.items()}
    after[color].remove(here)
    after[color].append(dest)
    if victim:
        after[victim].remove(dest)
        after[victim].append("home")
    return after


def won(pegs: dict[str, list[str]], player: list[str], options: dict[str, object]) -> bool:
    full = [all(p.startswith("finish") for p in pegs[c]) for c in player]
    return all(full) if options.get("two_color_win") == "both" else any(full)


def next_turn(
    players: list[list[str]],
    player: list[str],
    finished: list[list[str]],
    pegs_after: dict[str, list[str]],
    pop: int,
    sixes: int,
    options: dict[str, object],
    moved: bool,
) -> tuple[str | None, list[list[str]]]:
    """Who acts next (the naming colour, None when over) and the finishers."""
    order = sorted(players, key=lambda p: min(COLS.index(c) for c in p))
    finished = list(finished)
    if moved and player not in finished and won(pegs_after, player, options):
        finished.append(player)
        left = [p for p in order if p not in finished]
        if not options.get("play_on") or len(left) <= 1:
            return None, finished
    elif pop == 6 and not (options.get("three_sixes") and sixes >= 3):
        return player[0], finished
    i = order.index(player)
    for k in range(1, len(order) + 1):
        candidate = order[(i + k) % len(order)]
        if candidate not in finished:
            return candidate[0], finished
    return None, finished
