"""Several moves seen at once: the one way the held pops lead to a board.

The camera reports a board only when it is stable and whole. While a hand, a
glare or a lost peg keeps it from reading the board for a while, play goes on:
the loop sees the pops settle (and holds them, because the move before them
is not yet seen) and then one board holding two or three moves. No single
move explains that board, yet calling it illegal would be wrong, and every
later board would then be judged against a position the table has left.

So the loop asks: is there a way to play the pops it holds, in the order
they were popped, each used by one legal move or lost as the rules say (a
pop no peg can use), that leads from the game to this board, and do all such
ways leave the game in the same state (the same pegs, whose turn, what it
waits for)? If so, the loop plays one of them step by step: which of two
pegs moved first cannot be seen afterwards and changes nothing that follows.
Ways that end in different games, or none: the board is judged as before. Nothing here is allowed to accept an illegal move:
every step is a move the rules core generated.

>>> from companion.rules import new_game, pop
>>> game = pop(new_game(["red", "blue"], turn="red"), 6)   # Red popped a 6
>>> way = only_way(game, [6, 2], {"red": ["home", "home", "home", "track:9"],
...                               "blue": ["home"] * 4})
>>> [(s.pop, s.move.from_place, s.move.to_place) for s in way if s.move]
[(None, 'home', 'track:1'), (6, 'track:1', 'track:7'), (2, 'track:7', 'track:9')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from companion.live import boards
from companion.rules import (
    COLOR_INDEX,
    Move,
    Phase,
    State,
    apply,
    legal_moves,
    lose_move,
    place_name,
    pop,
)

#: The most held pops a way may use (a longer gap in the camera's view is
#: not guessed at). Early in a game most pops are lost (no peg out), so a
#: gap of one move can hold many pops.
MAX_POPS = 24
#: The most unread pops (any value) a way may hold. Each one lets the search
#: fit more histories to the board; with several, and a pop the camera never
#: saw at all, a wrong history can be the only one found (seen in a whole
#: rendered game), so the loop waits for better evidence instead.
MAX_UNREAD = 2
#: The most positions the search may visit: most pops admit one or no
#: move, but four pegs out and many pops could branch widely. Past this the
#: board is not explained (judged as before), never explained by halves.
MAX_NODES = 20000
#: For :func:`some_history` (is there any innocent history, before a call):
#: it plays no way, so it may look over a longer stretch, and one more
#: unread pop, within the same budget.
HISTORY_POPS = MAX_POPS
HISTORY_UNREAD = MAX_UNREAD + 1


@dataclass(frozen=True)
class Step:
    """One step of a way: a held pop fed (``pop``, ``None`` for the pop already
    fed), then the move it makes (``None``: no peg could use it)."""

    pop: int | None
    move: Move | None
    #: The pop was one the camera saw but could not read (its value is inferred).
    unread: bool = False


def only_way(
    state: State,
    held: Sequence[int | None],
    board: Mapping[str, Sequence[str]],
    gone_home: bool = False,
    min_steps: int = 2,
    then: Mapping[str, Sequence[str]] | None = None,
) -> list[Step] | None:
    """A way the *held* pops (``None``: seen, not read) lead from *state* to
    *board* in at least *min_steps* steps (one step is one move, or one pop
    no peg could use), when every such way ends in the same game;
    ``None`` if there is none or they end differently. *state* waits for a
    move (its pop already fed) or for a pop.

    A way stops where it first reaches *board*: held pops after that stay
    held (popped before the board was stable; the loop plays them next).
    With *gone_home*, a way may also end on a game that differs from *board*
    only by pegs out on the board seen in their Home (a misread or lifted
    peg, see :func:`companion.live.boards.gone_home`). With *then*, a board
    seen after *board*, only ways from whose end the pops left over lead on
    to *then* (:func:`some_history`, perhaps by a move on a pop nobody saw)
    count: a later board can tell apart ways that all reached *board*.

    >>> from companion.rules import new_game
    >>> game = new_game(["red", "blue"], turn="red", pegs={"red": ["track:3"]})   # Blue: all Home
    >>> on_6 = {"red": ["track:6", "home", "home", "home"], "blue": ["home"] * 4}
    >>> on_8 = {"red": ["track:8", "home", "home", "home"], "blue": ["home"] * 4}
    >>> only_way(game, [None, 4, 2], on_6, min_steps=1) is None   # Red's 3, or Red's 1 and 2
    True
    >>> [step.pop for step in only_way(game, [None, 4, 2], on_6, min_steps=1, then=on_8)]   # the 2 moved on
    [3]
    """
    if then is None:
        found = _ways(state, held, board, gone_home, collect_all=False)
        if found is not None and len(found) > 1:
            found = _fitting_ways(state, held, board, gone_home)
    else:
        found = _fitting_ways(state, held, board, gone_home, then)
    if found is None or len(found) != 1:
        return None
    (way,) = found.values()
    return way if len(way) >= min_steps else None


def turns_along(state: State, way: Sequence[Step]) -> list[int]:
    """The side on turn (``State.turn``) before each step of *way* (from
    :func:`only_way`, played from *state*), and after the last: who made
    each step's pop, and whose the next pop is.

    >>> from companion.rules import new_game
    >>> game = new_game(["red", "blue"], turn="red")
    >>> after = {"red": ["home"] * 4, "blue": ["track:10"] + ["home"] * 3}
    >>> turns_along(game, only_way(game, [3, 6, 2], after))   # Red's 3 lost, Blue's 6 and extra 2
    [0, 1, 1, 0]
    """
    turns = [state.turn]
    for step in way:
        if step.pop is not None:
            state = pop(state, step.pop)
        state = apply(state, step.move) if step.move is not None else lose_move(state)
        turns.append(state.turn)
    return turns


def no_way(state: State, held: Sequence[int | None], board: Mapping[str, Sequence[str]]) -> bool:
    """Whether the search is sure that no way of playing the *held* pops
    leads from *state* to *board* exactly with the pops it leaves over
    fitting the board (:func:`leftover_fits`): ``False`` when some way does
    (one, or several: :func:`only_way` gives ``None`` for both), or the
    search could not finish.

    >>> from companion.rules import new_game
    >>> game = new_game(["red", "blue"], turn="red", pegs={"red": ["track:3"]})   # Blue: all Home
    >>> moved = {"red": ["track:6", "home", "home", "home"], "blue": ["home"] * 4}
    >>> no_way(game, [None, 4, 2], moved), no_way(game, [4], moved)
    (False, True)
    """
    found = _fitting_ways(state, held, board, False)
    return found is not None and not found


def several_ways(state: State, held: Sequence[int | None], board: Mapping[str, Sequence[str]]) -> bool:
    """Whether the *held* pops lead from *state* to *board* in ways that end
    in different games, or leave different pops still to play (each way's
    leftover fitting, :func:`leftover_fits`): the board alone does not say
    how the turns went. ``False`` also when the search cannot tell (too
    many pops, or out of budget).

    >>> from companion.rules import new_game
    >>> game = new_game(["red", "blue"], turn="red", pegs={"red": ["track:3"]})   # Blue: all Home
    >>> moved = {"red": ["track:6", "home", "home", "home"], "blue": ["home"] * 4}
    >>> several_ways(game, [None, 4, 2], moved)   # Red's 3 (its 2 still to move), or Red's 1 and 2?
    True
    >>> several_ways(game, [None, 4, 6], moved)   # only Red's 3 (its 6 still to move)
    False
    """
    found = _fitting_ways(state, held, board, False)
    return found is not None and len(found) > 1


def _fitting_ways(
    state: State, held: Sequence[int | None], board: Mapping[str, Sequence[str]], gone_home: bool,
    then: Mapping[str, Sequence[str]] | None = None,
) -> dict[tuple[State, int], list[Step]] | None:
    """Every way (:func:`_ways`) whose leftover pops fit *board*
    (:func:`leftover_fits`) and, with *then*, lead on to it
    (:func:`some_history`); ``None`` when the search could not finish."""
    found = _ways(state, held, board, gone_home, collect_all=True)
    if found is None:
        return None
    return {key: way for key, way in found.items() if leftover_fits(key[0], held[key[1]:])
            and (then is None or some_history(key[0], held[key[1]:], then))}


def leftover_fits(state: State, held: Sequence[int | None]) -> bool:
    """Whether the *held* pops a way leaves over fit the board it reached
    unchanged: each lost (no peg could use it) but the last, which may
    still wait for its move. The board came after those pops settled, so a
    way that needs a player to pop while the one before still had a move to
    make (a pop the next player took early, and the move still not made)
    is a history the table rarely plays.

    When several ways reach the board and end in different games, this is
    what tells them apart (a whole rendered game: Red's unread pop a 6 no
    peg could use, then its extra pop of 2 moved; or that unread pop the 2,
    and the 2 Blue's, which left Yellow's pop and then Red's with Yellow's
    move never made). Unread pops (``None``) may be any value.

    >>> from companion.rules import new_game
    >>> game = new_game(["red", "blue"], turn="blue")   # Blue has no peg out
    >>> leftover_fits(game, [3, 4]), leftover_fits(game, [6, 4])
    (True, False)
    """
    return bool(_leftover_played(state, held))


def _first_popped(state: State, held: Sequence[int | None]) -> Iterator[tuple[int, State, bool]]:
    """Each value the first of *held* may have (any, unread), the game after
    it (waiting for its move, or passed on when no peg can use it), and
    whether a peg can use it."""
    first = held[0]
    for value in range(1, 7) if first is None else (first,):
        popped = pop(state, value)
        usable = bool(legal_moves(popped))
        yield value, popped if usable else lose_move(popped), usable


def some_history(state: State, seen: Sequence[int | None | Mapping[str, Sequence[str]]],
                 board: Mapping[str, Sequence[str]], unseen_last: bool = True, leftover: bool = True,
                 brought_out_home: bool = False) -> bool:
    """Whether some way of playing the pops in *seen* from *state* passes
    through each board in *seen*, in order, and ends at *board*; with
    *unseen_last*, perhaps by one more move on a pop the camera never saw.

    *seen* is what the camera reported since *state*, in order: pops
    (``None``: seen, not read, any value) and the boards the game agreed
    with. Pops left over where a way reaches a board must fit it
    (:func:`leftover_fits`); without *leftover*, those after the last board
    must all have been lost (no pop waits for its move). How many ways there are does not matter: this
    is not a way to play, only whether the board has an innocent history at
    all, one the boards seen on the way do not rule out. With
    *brought_out_home*, a board may also show in their Home pegs that the
    way itself brought out (misread there: see :func:`_brought_out_unseen`).

    The loop asks this before it calls a board illegal while the game rests
    on a guess it made about an unread pop: if the board has such a history
    from before the guess, the guess may be what is wrong, and the loop
    follows the board instead of calling it. ``False`` when there are too
    many pops (or unread ones) to search, or the search runs out of budget.

    >>> from companion.rules import new_game
    >>> game = new_game(["red", "blue"], turn="red", pegs={"blue": ["track:9"]})   # Red: all Home
    >>> seen = {"red": ["home"] * 4, "blue": ["home", "home", "home", "track:14"]}
    >>> some_history(game, [None, 5], seen), some_history(game, [2], seen)
    (True, True)
    >>> some_history(game, [2], seen, unseen_last=False)
    False
    >>> went_to_12 = {"red": ["home"] * 4, "blue": ["home", "home", "home", "track:12"]}
    >>> some_history(game, [None, 3, went_to_12, 1, 2], seen)   # 9 -> 12 seen: then 2 to 14
    True
    >>> some_history(game, [None, 5, went_to_12, 1, 2], seen)   # Blue's 5 cannot have gone to 12
    False
    """
    pops = [step for step in seen if not isinstance(step, Mapping)]
    if len(pops) > HISTORY_POPS or sum(v is None for v in pops) > HISTORY_UNREAD:
        return False
    budget = [MAX_NODES]
    origin = state.position() if brought_out_home else None
    frontier = {state}
    segment: list[int | None] = []
    for step in seen:
        if not isinstance(step, Mapping):
            segment.append(step)
            continue
        counts = {c: Counter(p) for c, p in step.items()}
        after: set[State] = set()
        for start in frontier:
            # Pegs seen in Home are judged against where this stretch began.
            _through(start, tuple(segment), _Target(counts, step, brought_out_home, start.position(), origin),
                     budget, after)
        if not after or budget[0] <= 0:
            return False
        frontier, segment = after, []
    counts = {c: Counter(p) for c, p in board.items()}
    return any(_reaches(start, tuple(segment), _Target(counts, board, brought_out_home, start.position(), origin),
                        budget, unseen_last, leftover=leftover)
               for start in frontier)


def _through(state: State, held: tuple[int | None, ...], target: _Target, budget: list[int],
             out: set[State], path: tuple[Step, ...] = ()) -> None:
    """Every game in which *held* played from *state* has reached *target*,
    its leftover pops played as they fit the board (lost, the last perhaps
    waiting for its move), into *out*. *path*: the moves made so far (for
    pegs seen in Home, see :func:`_matches`)."""
    if _matches(state, target, path):
        out.update(_leftover_played(state, held))
    budget[0] -= 1
    if budget[0] <= 0:
        return
    if state.phase is Phase.MOVE:
        for move in legal_moves(state):
            _through(apply(state, move), held, target, budget, out, (*path, Step(None, move)))
        return
    if state.phase is not Phase.POP or not held:
        return
    for _, after, _ in _first_popped(state, held):
        _through(after, held[1:], target, budget, out, path)


def _leftover_played(state: State, held: Sequence[int | None]) -> set[State]:
    """The games *held* leaves when it fits the board (see :func:`leftover_fits`)."""
    if not held:
        return {state}
    if state.phase is not Phase.POP:
        return set()
    out: set[State] = set()
    for _, after, usable in _first_popped(state, held):
        if not usable:
            out |= _leftover_played(after, held[1:])
        elif len(held) == 1:
            out.add(after)
    return out


def _reaches(state: State, held: tuple[int | None, ...], target: _Target, budget: list[int],
             unseen_last: bool, moved: bool = False, leftover: bool = True, path: tuple[Step, ...] = ()) -> bool:
    """Depth first for the last board of :func:`some_history`. The move on a
    pop nobody saw is tried only where no other move came since the board
    before: a peg moved on the pop seen and then one space more is a wrong
    count, not a 6 and an extra pop of 1 the camera missed. *path*: the
    moves made so far (for pegs seen in Home, see :func:`_matches`)."""
    if _matches(state, target, path) and (leftover_fits(state, held) if leftover else _all_lost(state, held)):
        return True
    budget[0] -= 1
    if budget[0] <= 0:
        return False
    if state.phase is Phase.MOVE:
        return any(_reaches(apply(state, move), held, target, budget, unseen_last, True, leftover,
                            (*path, Step(None, move)))
                   for move in legal_moves(state))
    if state.phase is not Phase.POP:
        return False
    if not held:
        return unseen_last and not moved and any(_matches(apply(popped, move), target, (*path, Step(None, move)))
                                                 for popped in (pop(state, v) for v in range(1, 7))
                                                 for move in legal_moves(popped))
    return any(_reaches(after, held[1:], target, budget, unseen_last, moved, leftover, path)
               for _, after, _ in _first_popped(state, held))


def _all_lost(state: State, held: Sequence[int | None]) -> bool:
    """Whether every one of *held*, popped in turn from *state*, may have been
    a number no peg could use (and no pop waits for its move)."""
    if not held:
        return state.phase is not Phase.MOVE
    if state.phase is not Phase.POP:
        return False
    return any(not usable and _all_lost(after, held[1:]) for _, after, usable in _first_popped(state, held))


def pegs_misread_home(state: State, held: Sequence[int | None],
                      board: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """The pegs (colour -> how many) that some way of playing *held* leaves
    out on the board where *board* shows them in their Home, when such ways
    exist but no single one is sure (an unread pop's value, or two ways
    ending differently); ``{}`` when there is no such way, or one leads to
    *board* exactly.

    The loop then asks for those pegs rather than call the board illegal: a
    lifted or misread peg and a pop it cannot read are enough to explain it,
    and the next board read right settles which way it was.
    """
    found = _ways(state, held, board, gone_home=True, collect_all=True)
    if found is None:
        return {}
    out: dict[str, int] = {}
    for end, _ in found:
        gone = boards.gone_home(board, end.position())
        if not gone:
            return {}
        for colour, n in gone.items():
            out[colour] = max(out.get(colour, 0), n)
    return out


def _ways(
    state: State, held: Sequence[int | None], board: Mapping[str, Sequence[str]],
    gone_home: bool, collect_all: bool,
) -> dict[tuple[State, int], list[Step]] | None:
    """The ways found, keyed by the game each ends in and the held pops it
    used; ``None`` when there are too many pops (or unread ones) to try, or
    the search ran out of budget. Without *collect_all* the search stops at
    a second game (enough to know it is ambiguous)."""
    if len(held) > MAX_POPS or sum(v is None for v in held) > MAX_UNREAD:
        return None
    target = _Target({c: Counter(p) for c, p in board.items()}, board, gone_home, state.position())
    found: dict[tuple[State, int], list[Step]] = {}
    budget = [MAX_NODES]
    _search(state, tuple(held), target, (), found, budget, collect_all)
    return None if budget[0] <= 0 else found


@dataclass(frozen=True)
class _Target:
    counts: Mapping[str, Counter[str]]
    board: Mapping[str, Sequence[str]]
    gone_home: bool
    #: The position the search starts from (for the gone-home test).
    start: Mapping[str, Sequence[str]]
    #: When given, the position a history began from: only pegs brought out
    #: onto their Start since then may be seen in their Home.
    origin: Mapping[str, Sequence[str]] | None = None


def _matches(state: State, target: _Target, path: tuple[Step, ...] = ()) -> bool:
    position = state.position()
    if all(Counter(position.get(c, ())) == places for c, places in target.counts.items()):
        return True
    if not target.gone_home:
        return False
    gone = boards.gone_home(target.board, position)
    if target.origin is not None and not all(_brought_out_unseen(c, position, target.board, target.origin)
                                             for c in gone):
        return False
    return bool(gone) and not any(_moved_forward(c, target, _travels(c, path)) for c in gone)


def _brought_out_unseen(colour: str, position: Mapping[str, Sequence[str]], board: Mapping[str, Sequence[str]],
                        origin: Mapping[str, Sequence[str]]) -> bool:
    """Whether every peg of *colour* that *position* has out where *board*
    shows it in its Home is on the colour's Start, and there are no more of
    them than the pegs on the Start since *origin* (a peg reaches its own
    Start only by being brought out, and never comes back to it).

    A peg on its Start stands beside its Home, and on a small tilted board
    it can be read in its Home for seconds (a phantom on the Home's print
    taking its place: fresh whole game 474 at 640x480), so a history with
    that bring-out is one the board may have (:func:`some_history`). Any
    other peg seen in its Home is not let off so: a peg the history brought
    out and moved on, or one out before it began, would excuse a wrong count
    after any unread pop (taken for a 6 whose peg and extra pop went unseen).
    """
    start = place_name(COLOR_INDEX[colour], 0)
    lacking = Counter(position.get(colour, ())) - Counter(board.get(colour, ()))
    if set(lacking) != {start}:
        return False
    new = Counter(position.get(colour, ()))[start] - Counter(origin.get(colour, ()))[start]
    return lacking[start] <= new


def _travels(colour: str, path: tuple[Step, ...]) -> set[tuple[str, str]]:
    """(from, to) of each of *colour*'s pegs that the moves of *path* carried
    from one place off Home to another (a peg moved twice counts once, from
    its first place to its last)."""
    origin: dict[str, str] = {}
    for step in path:
        move = step.move
        if move is None or move.color != colour:
            continue
        origin[move.to_place] = origin.pop(move.from_place, move.from_place)
    return {(a, b) for b, a in origin.items() if a != "home" and a != b}


def _moved_forward(colour: str, target: _Target, travels: AbstractSet[tuple[str, str]] = frozenset()) -> bool:
    """Whether *colour*'s change on the board could be one of its pegs moved
    a little way forward (clockwise, at most 12 spaces; into its Finish): a
    peg gone from a place and one seen a little farther on, which the way
    did not move there itself (*travels*: a way playing 15 -> 20 on a 5
    explains that change, and a peg of the colour misread in Home beside
    it is still only misread).

    Then its vanished peg is more likely that move than a misread one: "a
    bring-out to 22, and the peg on 15 misread in Home" hid a peg moved 15
    -> 22 on a 6, an illegal move (the truth benchmark's messy hands). A peg
    "moved" backwards (12 -> 8 on a 6, with 8 the colour's Start) is rather
    the bring-out with the peg on 12 misread (whole rendered games).
    """
    from companion.rules import COLOR_INDEX, PlaceError, parse_place, progress

    before = Counter(p for p in target.start.get(colour, ()) if p != "home")
    after = Counter(p for p in target.board.get(colour, ()) if p != "home")
    gone, came = before - after, after - before
    for frm, to in travels:  # changes the way made itself are no sign of a hidden move
        if gone[frm] and came[to]:
            gone[frm] -= 1
            came[to] -= 1
    c = COLOR_INDEX[colour]
    for old in (+gone).elements():
        for new in (+came).elements():
            try:
                a, b = parse_place(old), parse_place(new)
                if a.kind == "track" and b.kind == "track":
                    if 1 <= (b.number - a.number) % TRACK <= MAX_SLIP:
                        return True
                elif progress(c, b) > progress(c, a):
                    return True
            except PlaceError:
                return True
    return False


def pips_needed(position: Mapping[str, Sequence[str]], board: Mapping[str, Sequence[str]]) -> int:
    """The fewest pips of popping that turn *position* into *board*.

    Per colour, pegs are matched between the two so that the total is least:
    a peg moved forward costs its steps, a bring-out 6 plus its steps from the
    Start, a peg sent Home (bumped) or seen behind where it was (misread,
    not a move) nothing. A board needing far more pips than the pops seen
    hold was reached with pops the camera never saw.

    >>> pips_needed({"red": ["home", "track:5"]}, {"red": ["track:3", "track:9"]})
    12
    >>> pips_needed({"red": ["track:9"]}, {"red": ["home"]})
    0
    """
    from itertools import permutations

    from companion.rules import COLOR_INDEX, PlaceError, parse_place, progress

    total = 0
    for colour, was in position.items():
        now = list(board.get(colour, ()))
        c = COLOR_INDEX[colour]
        try:
            before = [progress(c, parse_place(p)) for p in was]
            after = [progress(c, parse_place(p)) for p in now]
        except PlaceError:
            continue
        if len(before) != len(after):
            continue

        def cost(a: int, b: int) -> int:
            if b == a or b < a:
                return 0  # unchanged, sent Home, or seen behind: no pips
            return 6 + b if a < 0 else b - a  # from Home: the 6, then on from the Start (progress 0)

        total += min(sum(cost(a, b) for a, b in zip(before, order, strict=True))
                     for order in permutations(after))
    return total


#: Spaces on the track, and the farthest a peg "moved" forward is still
#: taken for a move (a pop of 6 and a miscount) rather than a misread peg.
TRACK = 28
MAX_SLIP = 12


def _search(
    state: State,
    held: tuple[int | None, ...],
    target: _Target,
    path: tuple[Step, ...],
    found: dict[tuple[State, int], list[Step]],
    budget: list[int],
    collect_all: bool = False,
) -> None:
    """Depth first over the ways; each ends at its first match with *target*
    (the starting position, with no step taken, is not a way). Stops at a
    second game found unless *collect_all*."""
    if path and _matches(state, target, path):
        # Keyed by the game *and* how many held pops the way used: two ways to
        # the same game that leave different pops still held (a 6 the unread
        # pop may have been, with the extra pops it earned, or a 3 and those
        # pops the next player's) have different futures.
        found.setdefault((state, sum(step.pop is not None for step in path)), list(path))
        return
    budget[0] -= 1
    if (len(found) > 1 and not collect_all) or budget[0] <= 0:
        return  # two different games already (ambiguous), or too many to look at
    if state.phase is Phase.MOVE:
        # The pop just fed (the last step, or the one before the search) is used by a move.
        last = path[-1] if path else Step(None, None)
        for move in legal_moves(state):
            step = Step(last.pop, move, last.unread)
            _search(apply(state, move), held, target, (path[:-1] if path else ()) + (step,), found, budget,
                    collect_all)
        return
    if state.phase is not Phase.POP or not held:
        return
    for value, after, _ in _first_popped(state, held):
        _search(after, held[1:], target, path + (Step(value, None, held[0] is None),), found, budget, collect_all)


def _each_side_to_pop(state: State, before: Mapping[str, Sequence[str]]) -> Iterator[tuple[str, State]]:
    """A new game on the board *before* for each side of *state* still
    playing, with that side to pop: (the side's first colour, the game).
    A side of two colours pops once for both: its first colour names it."""
    from companion.rules import COLORS, RulesError, new_game

    players = [[COLORS[c] for c in side] for side in state.sides]
    names = [s if len(s) > 1 else s[0] for s in players]
    pegs = {c: [p for p in places if p != "home"] for c, places in before.items()}
    for i, side in enumerate(players):
        if i in state.finished:
            continue
        try:
            yield side[0], new_game(names, state.options, pegs, side[0])
        except RulesError:
            continue


def whose_turn_then(
    state: State, before: Mapping[str, Sequence[str]], after: Mapping[str, Sequence[str]],
    held: Sequence[int | None],
) -> str | None:
    """Whose turn it was at *before* (a side, named by its first colour): the
    one side from which the *held* pops, played in turn (each used by a
    legal move or lost, a 6 earning its player the next), lead to *after*,
    in ways that all end in the same game with fitting pops left over
    (:func:`only_way`'s test), when from every other side no way does.
    ``None`` when no side, or more than one, fits, or the search cannot
    finish (too many pops, more than ``MAX_UNREAD`` unread).

    :func:`who_moved` reads one move with one pop; this reads a stretch of
    turns, for a loop that has lost track and sees boards only now and then
    (a small board: kept fresh game 840 at 640x480 was followed for 313 s
    by the first alone, 78 s with this).

    >>> from companion.rules import new_game
    >>> game = new_game(["red", "blue"], turn="red")
    >>> before = {"red": ["track:3"] + ["home"] * 3, "blue": ["track:9"] + ["home"] * 3}
    >>> after = {"red": ["track:5"] + ["home"] * 3, "blue": ["track:13"] + ["home"] * 3}
    >>> whose_turn_then(game, before, after, [4, None])   # Blue's 4, then Red's 2
    'blue'
    >>> whose_turn_then(game, before, after, [None, None, 1]) is None   # who went first?
    True
    """
    fitting: list[tuple[str, int]] = []
    bases = list(_each_side_to_pop(state, before))
    for colour, base in bases:
        found = _fitting_ways(base, held, after, False)
        if found is None:
            return None
        if found:
            fitting.append((colour, len(found)))
    if len(fitting) != 1 or fitting[0][1] != 1:
        return None
    side = fitting[0][0]
    if any(colour != side and some_history(base, held, after, unseen_last=True, leftover=False)
           for colour, base in bases):
        # From another side the pops, all lost, and a move on a pop the
        # camera never saw lead there too: which side it was, the pops do
        # not tell (truth seed 3171 at three tenths unread, once held out:
        # Red's lost 6 and 4, then Blue's move of 6 on a pop seen only
        # when said, taken for Blue's 6 and an extra 4).
        return None
    return side


def who_moved(
    state: State, before: Mapping[str, Sequence[str]], after: Mapping[str, Sequence[str]], values: Sequence[int]
) -> tuple[str, int] | None:
    """Whose move (a side, named by its first colour), with which of the pop
    *values*, turns *before* into *after*,
    whatever the game in *state* believes about whose turn it is.

    This is how the loop gets back in step after losing track of the game (a
    move it called wrong that the table played on from, several moves it
    could not follow): the next plain move tells whose turn it was, and the
    pop just seen tells what it used. One answer, or ``None`` when no player
    or more than one could have made that move.

    >>> from companion.rules import new_game
    >>> game = new_game(["red", "blue"], turn="red")
    >>> who_moved(game, {"red": ["track:3"] + ["home"] * 3, "blue": ["track:9"] + ["home"] * 3},
    ...           {"red": ["track:3"] + ["home"] * 3, "blue": ["track:13"] + ["home"] * 3}, [4])
    ('blue', 4)
    """
    from companion.referee.board_diff import read_board
    from companion.referee.inputs import InputError, parse_board

    try:
        seen = parse_board(dict(after), state.options.pegs_per_color)
    except InputError:
        return None
    found: set[tuple[str, int]] = set()
    for colour, base in _each_side_to_pop(state, before):
        for value in values:
            if isinstance(read_board(pop(base, value), seen), Move):
                found.add((colour, value))
    return found.pop() if len(found) == 1 else None
