"""The game state: an immutable value holding everything the rules need.

A :class:`State` is a ``NamedTuple`` (not a frozen dataclass) because the
benchmark builds two per pop and tuple construction is several times cheaper;
it is still immutable and hashable. Build one with :func:`new_game`, change it
only through the transitions in :mod:`companion.rules.game`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from companion.rules.board import (
    ABSOLUTE,
    COLOR_INDEX,
    COLORS,
    FIRST_FINISH,
    HOME,
    LAST_TRACK,
    NAMES,
    TRACK_SPACES,
    parse_place,
    progress,
)
from companion.rules.errors import SetupError
from companion.rules.options import Options


class Phase(enum.Enum):
    """What the game waits for next."""

    FIRST = "first"  #: the who-goes-first pops: each contender pops once
    POP = "pop"  #: the player to move must pop
    MOVE = "move"  #: the player popped and must move a peg
    OVER = "over"  #: the game is over


Pegs = tuple[tuple[int, ...], ...]


class State(NamedTuple):
    """One moment of a game.

    * ``pegs[c]``: sorted progress values of colour index c's pegs (see
      :mod:`companion.rules.board`), ``()`` for a colour not in play;
    * ``track[i]``: the colour index on 0-based track space i, or -1 (kept in
      step with ``pegs`` so landing checks are one lookup);
    * ``sides``: the players in turn order, each a tuple of colour indices,
      the first being the colour that names the player;
    * ``turn``: index into ``sides`` of the player to act (pop or move), -1 when over;
    * ``pop``: the pop awaiting a move (0 when none); ``sixes``: consecutive
      6s popped in the current turn;
    * ``finished``: side indices in finishing order;
    * ``contenders``/``first_pops``: the current round of who-goes-first pops.
    """

    pegs: Pegs
    track: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    options: Options
    phase: Phase
    turn: int
    pop: int = 0
    sixes: int = 0
    finished: tuple[int, ...] = ()
    contenders: tuple[int, ...] = ()
    first_pops: tuple[int, ...] = ()

    @property
    def colors(self) -> tuple[int, ...]:
        """Colour indices of the player to act (empty when the game is over)."""
        return self.sides[self.turn] if self.turn >= 0 else ()

    @property
    def player(self) -> str | None:
        """The colour naming the player to act, or ``None`` when over."""
        return COLORS[self.sides[self.turn][0]] if self.turn >= 0 else None

    def places(self, color: str) -> tuple[str, ...]:
        """The place names of a colour's pegs (empty when it does not play)."""
        c = COLOR_INDEX[color]
        return tuple(NAMES[c][p + 1] for p in self.pegs[c])

    def position(self) -> dict[str, list[str]]:
        """The position as the referee contract's ``pegs`` object."""
        return {
            color: list(self.places(color)) for color in COLORS if self.pegs[COLOR_INDEX[color]]
        }

    def side_of(self, color: int) -> int | None:
        """The side index playing colour index *color*, if any."""
        for i, side in enumerate(self.sides):
            if color in side:
                return i
        return None


def side_done(state: State, side: int, pegs: Pegs | None = None) -> bool:
    """Whether a side has all the pegs it needs in Finish."""
    pegs = state.pegs if pegs is None else pegs
    full = [all(p >= FIRST_FINISH for p in pegs[c]) for c in state.sides[side]]
    return all(full) if state.options.two_color_win == "both" else any(full)


def build_track(pegs: Pegs) -> tuple[int, ...]:
    """The track occupancy of a position, raising :class:`SetupError` when two
    pegs share a track space."""
    track = [-1] * TRACK_SPACES
    for c, mine in enumerate(pegs):
        for p in mine:
            if 0 <= p <= LAST_TRACK:
                index = ABSOLUTE[c][p]
                if track[index] >= 0:
                    raise SetupError(
                        f"two pegs on track:{index + 1} ({COLORS[track[index]]} and {COLORS[c]})"
                    )
                track[index] = c
    return tuple(track)


def parse_sides(players: Sequence[object] | None) -> tuple[tuple[int, ...], ...]:
    """Players from the contract's ``players`` list, in clockwise turn order.

    Each entry is a colour, or a list of two colours (allowed only with two
    players). The player is named by the first colour of its entry; players
    take turns clockwise by their first seat (lowest colour index).
    """
    if players is None:
        return tuple((c,) for c in range(len(COLORS)))
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise SetupError('players must be a list of colours, like ["red", "blue"]')
    sides: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for entry in players:
        names = [entry] if isinstance(entry, str) else entry
        if not isinstance(names, list) or not 1 <= len(names) <= 2:
            raise SetupError(f"a player is a colour or a list of two colours, not {entry!r}")
        side = []
        for name in names:
            if not isinstance(name, str) or name not in COLOR_INDEX:
                raise SetupError(f"unknown colour {name!r}: the colours are {', '.join(COLORS)}")
            c = COLOR_INDEX[name]
            if c in seen:
                raise SetupError(f"{name} is listed twice in players")
            seen.add(c)
            side.append(c)
        sides.append(tuple(side))
    if not 2 <= len(sides) <= 4:
        raise SetupError(f"Trouble is for 2 to 4 players, not {len(sides)}")
    if len(sides) > 2 and any(len(s) > 1 for s in sides):
        raise SetupError("only in a 2-player game may a player play two colours")
    return tuple(sorted(sides, key=min))


def parse_pegs(
    raw: Mapping[str, object] | None, sides: tuple[tuple[int, ...], ...], options: Options
) -> Pegs:
    """A position from the contract's ``pegs`` object.

    Colours not listed start as the rules say (all in Home; in basic play one
    peg on its Start); a shorter list is completed with Home pegs.
    """
    count = options.pegs_per_color
    playing = {c for side in sides for c in side}
    start = (0,) if options.basic else (HOME,) * count
    pegs: list[tuple[int, ...]] = [start if c in playing else () for c in range(len(COLORS))]
    for name, places in (raw or {}).items():
        if name not in COLOR_INDEX:
            raise SetupError(
                f"unknown colour {name!r} in pegs: the colours are {', '.join(COLORS)}"
            )
        c = COLOR_INDEX[name]
        if c not in playing:
            raise SetupError(f"pegs given for {name}, but {name} is not playing")
        if isinstance(places, (str, bytes)) or not isinstance(places, Sequence):
            raise SetupError(f"pegs for {name} must be a list of places")
        if len(places) > count:
            raise SetupError(f"{name} has {len(places)} pegs; each colour has {count}")
        progs = [progress(c, parse_place(p)) for p in places]
        progs += [HOME] * (count - len(progs))
        finish = [p for p in progs if p >= FIRST_FINISH]
        if len(set(finish)) != len(finish):
            raise SetupError(f"two {name} pegs on the same Finish space")
        pegs[c] = tuple(sorted(progs))
    return tuple(pegs)


def new_game(
    players: Sequence[object] | None = None,
    options: Options | None = None,
    pegs: Mapping[str, object] | None = None,
    turn: str | None = None,
) -> State:
    """A new game: the who-goes-first pops, or the given player's turn.

    Raises :class:`SetupError` (or :class:`PlaceError`) naming what is wrong.

    >>> state = new_game(["red", "blue"], turn="blue")
    >>> state.phase, state.player, state.places("red")
    (<Phase.POP: 'pop'>, 'blue', ('home', 'home', 'home', 'home'))
    """
    options = options or Options()
    sides = parse_sides(players)
    position = parse_pegs(pegs, sides, options)
    track = build_track(position)
    probe = State(position, track, sides, options, Phase.POP, 0)
    for i, side in enumerate(sides):
        if side_done(probe, i):
            raise SetupError(f"{COLORS[side[0]]} has already won in this position")
    if turn is None:
        order = tuple(range(len(sides)))
        return State(position, track, sides, options, Phase.FIRST, 0, contenders=order)
    if not isinstance(turn, str) or turn not in COLOR_INDEX:
        raise SetupError(f"unknown colour {turn!r} for turn: the colours are {', '.join(COLORS)}")
    side_index = probe.side_of(COLOR_INDEX[turn])
    if side_index is None:
        raise SetupError(f"turn given to {turn}, but {turn} is not playing")
    return State(position, track, sides, options, Phase.POP, side_index)
