"""Seeded games as observation streams, with messy hands, and their truth.

This is the loop's test bench that needs no camera: a random legal game from
:func:`companion.referee.playthrough.random_game` (its settled pops and the
board after each move, exactly the truth a perfect vision stream would
report) becomes a timed list of observations, and seeded "messy hands" are
woven in: a peg lifted and put back, a bumped peg left beside the board for a
while, the next pop settling before the move is stable, a peg knocked off its
hole, a cocked die, an illegal move that is then put right, a pop the camera
never saw (the player moves, then says the number), a move the camera never
saw stable (a hand or a glare over the board until the next move is made,
so one board shows both; its delay is counted from that board). Apart from those, a
chance *unread* turns settled pops into ``PopUnread`` (the camera saw the
die settle but could not read it; nobody says the number). After a pop no peg
uses, the position is reported once more, unchanged, as the vision stream
does when it reads the board after a pop. The truth is the
referee events of the clean game plus one ``illegal`` event per illegal move
put in. These are *truth observations*, not camera readings: they prove the
loop, not the vision.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.live.observations import (
    BoardFound,
    BoardLost,
    BoardStable,
    DieCocked,
    Observation,
    PopSettled,
    PopUnread,
    Spoken,
)
from companion.referee.playthrough import random_game
from companion.rules import COLORS

#: The messy-hand kinds :func:`scripted_game` can weave in.
MESSY_KINDS = ("lift", "bump-left", "early-pop", "knock", "cocked", "illegal", "lost", "missed-pop", "blind")


@dataclass
class ScriptedGame:
    """Observations in time order, the expected referee events, and what was put in."""

    players: list[list[str]]
    observations: list[Observation]
    #: The clean game's referee events (what the loop must emit, illegal aside).
    truth: list[dict[str, Any]]
    #: Times at which an illegal board was shown (each must be announced once).
    illegal_at: list[float] = field(default_factory=list)
    #: Times of each settled pop, and of each move's first stable board (for delays).
    pop_at: list[float] = field(default_factory=list)
    move_at: list[float] = field(default_factory=list)
    messy: dict[str, int] = field(default_factory=dict)
    #: Until when each illegal board stands (the call may come until then;
    #: at least 2 s after it is shown).
    illegal_until: list[float] = field(default_factory=list)
    #: How long each illegal board stood before the next board was seen (a
    #: player who noticed at once put it right within a second).
    illegal_stood: list[float] = field(default_factory=list)
    #: Each pop seen but not read: when, whose, and its true value (what a
    #: player asked "say the number you popped" would answer).
    unread_truth: list[tuple[float, str, int]] = field(default_factory=list)


def bumped_in(events: list[dict[str, Any]]) -> bool:
    return any(e.get("event") == "bump" for e in events)


def _without(board: dict[str, list[str]], colour: str, place: str) -> dict[str, list[str]]:
    out = {c: list(p) for c, p in board.items()}
    out[colour].remove(place)
    return out


def _wrong_count(board: dict[str, list[str]], before: dict[str, list[str]], rng: random.Random) -> dict[str, list[str]] | None:
    """The board with the moved peg one space short or long (an illegal move)."""
    for colour in board:
        gone = [p for p in before[colour] if p not in board[colour] or before[colour].count(p) > board[colour].count(p)]
        came = [p for p in board[colour] if p not in before[colour] or board[colour].count(p) > before[colour].count(p)]
        if len(came) == 1 and came[0].startswith("track:") and gone and gone[0].startswith("track:"):
            n = int(came[0].split(":")[1])
            step = rng.choice((-1, 1))
            wrong = f"track:{(n - 1 + step) % 28 + 1}"
            occupied = {p for places in board.values() for p in places if p.startswith("track:")}
            if wrong in occupied or wrong == gone[0]:
                return None
            out = {c: list(p) for c, p in before.items()}
            out[colour].remove(gone[0])
            out[colour].append(wrong)
            return out
    return None


def scripted_game(
    seed: int,
    players: list[str] | None = None,
    *,
    messy: float = 0.0,
    kinds: tuple[str, ...] = MESSY_KINDS,
    step_s: float = 2.0,
    unread: float = 0.0,
    miscount_stands_s: float | None = None,
) -> ScriptedGame:
    """A seeded game as observations; *messy* is the chance of a mess per step,
    *unread* the chance that a settled pop is seen but not read.

    An illegal move (a wrong count) is put right within a second, as a player
    who notices at once does; with *miscount_stands_s* it stands that many
    seconds first, as a miscount nobody at the table noticed (put right once
    the referee has had the time to call it)."""
    rng = random.Random(seed * 7919 + 17)
    # Its own generator, so the same seed gives the same game with or without it.
    unread_rng = random.Random(seed * 104729 + 3)
    colours = list(players) if players else list(COLORS)
    home = {c: ["home"] * 4 for c in colours}
    obs: list[Observation] = [BoardStable(0.5, home)]
    truth: list[dict[str, Any]] = []
    game = ScriptedGame([[c] for c in colours], obs, truth)
    count: dict[str, int] = {}
    t = 1.0
    before = home
    pending_pop: PopSettled | PopUnread | None = None  # an early pop, already placed before its board
    missed: int | None = None  # a pop the camera did not see, said after the move
    blind = 0  # moves made while the camera saw no stable board (shown with the next)

    turns_begun = unread_ok = False  # unread pops only after who-goes-first (see below)

    def settled(at: float, value: int, pop_events: list[dict[str, Any]]) -> PopSettled | PopUnread:
        # Who-goes-first pops stay read: an unread one there needs the
        # players' answer (the loop asks and waits), which a script cannot give.
        if unread_ok and unread > 0.0 and unread_rng.random() < unread:
            count["unread-pop"] = count.get("unread-pop", 0) + 1
            colour = next((str(e["color"]) for e in pop_events if e.get("event") == "pop"), "")
            game.unread_truth.append((at, colour, value))
            return PopUnread(at)
        return PopSettled(at, value)

    def mess(kind: str) -> bool:
        if kind in kinds and rng.random() < messy:
            count[kind] = count.get(kind, 0) + 1
            return True
        return False

    lines = list(random_game(seed, colours, boards=True))
    for i, (line, events) in enumerate(lines):
        if "setup" in line:
            continue
        truth.extend(events)
        t += step_s
        unread_ok = turns_begun  # this pop comes after who-goes-first
        turns_begun = turns_begun or any(e.get("event") == "turn" for e in events)
        if "pop" in line:
            if pending_pop is not None:
                pending_pop = None  # already in the stream, before the last board
                continue
            nxt_line = lines[i + 1][0] if i + 1 < len(lines) else {}
            if "board" in nxt_line and not blind and mess("missed-pop"):
                # The camera never sees this pop; the player moves, then says it.
                missed = int(line["pop"])
                continue
            if mess("cocked"):
                obs.append(DieCocked(t - 0.5))
            obs.append(settled(t, int(line["pop"]), events))
            game.pop_at.append(t)
            if "pop" in nxt_line and not blind:
                # No peg moved: the vision stream reports the position once
                # more when it reads it unchanged after a pop (not while the
                # board cannot be read).
                obs.append(BoardStable(t + 0.6, before))
            continue
        board = {c: sorted(line["board"].get(c, ["home"] * 4)) for c in colours}
        if missed is not None:
            obs.append(BoardStable(t, board))
            t += 1.0
            obs.append(Spoken(t, "pop", {"value": missed}))
            game.pop_at.append(t)
            game.move_at.append(t)
            missed = None
            before = board
            continue
        later_boards = [ln for ln, _ in lines[i + 1:] if "board" in ln]
        if later_boards and not bumped_in(events) and mess("blind"):
            # No stable board until the next move is made too.
            blind += 1
            before = board
            continue
        for _ in range(blind):
            game.move_at.append(t)  # seen, at the earliest, with this board
        blind = 0
        if mess("illegal"):
            wrong = _wrong_count(board, before, rng)
            if wrong is not None:
                shown = t - 1.0
                if miscount_stands_s is not None:
                    t = shown + miscount_stands_s + 1.0  # the right move once it has stood
                obs.append(BoardStable(shown, wrong))
                game.illegal_at.append(shown)
                game.illegal_until.append(max(shown + 2.0, t - 1.0))
                if rng.random() < 0.5:
                    obs.append(BoardStable(t - 0.5, before))  # put back first
        bumped = [e for e in events if e.get("event") == "bump"]
        if bumped and mess("bump-left"):
            victim = str(bumped[0]["victim"])
            obs.append(BoardStable(t, _without(board, victim, "home")))
            game.move_at.append(t)
            t += rng.uniform(1.0, 12.0)
            obs.append(BoardStable(t, board))
        else:
            nxt = lines[i + 1][0] if i + 1 < len(lines) else None
            if nxt is not None and "pop" in nxt and mess("early-pop"):
                # The next player pops while this move is still in the hand.
                pending_pop = settled(t - 0.3, int(nxt["pop"]), lines[i + 1][1])
                obs.append(pending_pop)
                game.pop_at.append(t - 0.3)
            obs.append(BoardStable(t, board))
            game.move_at.append(t)
        out_pegs = [(c, p) for c in colours for p in board[c] if p != "home"]
        if out_pegs and mess("lift"):
            c, p = rng.choice(out_pegs)
            obs.append(BoardStable(t + 0.6, _without(board, c, p)))
            obs.append(BoardStable(t + 1.2, board))
        elif out_pegs and mess("knock"):
            c, p = rng.choice(out_pegs)
            obs.append(BoardStable(t + 0.6, _without(board, c, p)))
            obs.append(BoardStable(t + 0.6 + rng.uniform(2.0, 8.0), board))
        if mess("lost"):
            obs.append(BoardLost(t + 0.7))
            obs.append(BoardFound(t + 0.7 + rng.uniform(0.5, 6.0)))
        t = max(t, max(o.t for o in obs))
        before = board
    obs.sort(key=lambda o: o.t)
    game.messy = count
    boards_at = [o.t for o in obs if isinstance(o, BoardStable)]
    game.illegal_stood = [min((b for b in boards_at if b > shown + 1e-9), default=float("inf")) - shown
                          for shown in game.illegal_at]
    return game
