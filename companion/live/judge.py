"""Judging a refereed game against its truth: the figures of ``bench referee``.

An event is compared by its fields that carry meaning (``event``, ``color``,
``value``, ``from``, ``to``, ``victim``, ``at``, ``place``, ``reason``), not
by its sentence, so a reworded announcement is not a wrong call. Illegal-move
announcements are judged apart: each illegal board shown must be announced
once (else it is *missed*), and any other illegal announcement is *false*.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

KEY_FIELDS = ("event", "color", "value", "from", "to", "victim", "at", "place", "reason")


def event_key(event: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(event.get(k) for k in KEY_FIELDS)


@dataclass
class Verdict:
    """How one refereed game compares with its truth."""

    right: bool
    false_illegal: int
    missed_illegal: int
    #: Seconds from each settled pop / final stable move to its announcement.
    delays: list[float] = field(default_factory=list)
    #: The first difference, for a person to read.
    first_difference: str | None = None
    #: Pops the camera could not read that the loop took from the move (or
    #: the only value that gives no move), and those it passed with ``skip``.
    pops_worked_out: int = 0
    unread_passed: int = 0
    #: Illegal boards shown in the game (each must be announced once).
    illegal_shown: int = 0
    #: Illegal boards not called that the players put right before they had
    #: stood the loop's hold (``LoopSettings.call_hold_s``): not called by
    #: design, so not counted in ``missed_illegal``.
    illegal_put_right_first: int = 0
    #: Every event right but the values of pops no peg used and the camera
    #: could not read (passed with ``skip``): see :func:`same_but_unread`.
    right_but_unread: bool = False
    #: The first difference that is not such a pop (None: there is none).
    unread_difference: str | None = None
    #: Numbers heard that the loop answered with what the camera saw ("I saw
    #: a 5 on the die. Say it again if you are sure."): with players who
    #: count aloud, each is a count taken for a correction and answered.
    said_against: int = 0


def judge(
    truth: Sequence[dict[str, Any]],
    emitted: Sequence[tuple[float, dict[str, Any]]],
    *,
    illegal_at: Sequence[float] = (),
    pop_at: Sequence[float] = (),
    move_at: Sequence[float] = (),
    illegal_window_s: float = 2.0,
    worked_out: Sequence[int] = (),
    illegal_until: Sequence[float] = (),
    illegal_stood: Sequence[float] = (),
    hold_s: float = 0.0,
) -> Verdict:
    """Compare *emitted* ``(t, event)`` pairs with the *truth* events.

    An illegal board shown at ``illegal_at[k]`` must be called within
    *illegal_window_s*, or until ``illegal_until[k]`` when that is later (a
    wrong count that stands while the referee asks the player's pop). One
    not called that stood less than *hold_s* (``illegal_stood[k]``, when
    known) was put right before a call was due: counted apart, not missed.

    *worked_out* holds the indices (in *emitted*) of pops the loop could not
    read and took from the move after them or from the players' word: their
    delay is the move's, not the camera's, so they are left out of the delays.
    """
    want = [event_key(e) for e in truth if e.get("event") != "illegal"]
    got = [event_key(e) for _, e in emitted if e.get("event") != "illegal"]
    difference = None
    if want != got:
        n = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b), min(len(want), len(got)))
        expected = dict(zip(KEY_FIELDS, want[n], strict=True)) if n < len(want) else "the end"
        seen = dict(zip(KEY_FIELDS, got[n], strict=True)) if n < len(got) else "the end"
        difference = f"event {n}: expected {_short(expected)}, got {_short(seen)}"
    until = {ti: max(ti + illegal_window_s, end) for ti, end in zip(illegal_at, illegal_until, strict=False)}
    unmatched = list(illegal_at)
    false_illegal = 0
    for t, event in emitted:
        if event.get("event") != "illegal":
            continue
        match = next((ti for ti in unmatched if ti - 1e-6 <= t <= until.get(ti, ti + illegal_window_s)), None)
        if match is None:
            false_illegal += 1
        else:
            unmatched.remove(match)
    stood = dict(zip(illegal_at, illegal_stood, strict=False))
    put_right_first = [ti for ti in unmatched if stood.get(ti, float("inf")) < hold_s]
    unmatched = [ti for ti in unmatched if ti not in put_right_first]
    delays = _delays(truth, emitted, pop_at, move_at, set(worked_out))
    calls_right = false_illegal == 0 and not unmatched
    return Verdict(
        right=difference is None and calls_right,
        right_but_unread=calls_right and same_but_unread(want, got),
        unread_difference=unread_difference(want, got),
        false_illegal=false_illegal,
        missed_illegal=len(unmatched),
        delays=delays,
        first_difference=difference,
        pops_worked_out=len(worked_out),
        illegal_shown=len(illegal_at),
        illegal_put_right_first=len(put_right_first),
    )


def _lost_pops(keys: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """*keys* with each pop whose move was lost (a pop, then ``no-move`` for
    the same colour) folded into one ``("lost-pop", colour, value)``; a
    ``skip`` (a pop nobody read, no peg moved) becomes one with value None."""
    out: list[tuple[Any, ...]] = []
    i = 0
    while i < len(keys):
        event, colour, value = keys[i][0], keys[i][1], keys[i][2]
        if event == "pop" and i + 1 < len(keys) and keys[i + 1][0] == "no-move" and keys[i + 1][1] == colour:
            out.append(("lost-pop", colour, value))
            i += 2
            continue
        out.append(("lost-pop", colour, None) if event == "skip" else keys[i])
        i += 1
    return out


def same_but_unread(want: Sequence[tuple[Any, ...]], got: Sequence[tuple[Any, ...]]) -> bool:
    """Whether *got* equals *want* but for pops the camera never read and no
    peg used: the referee said "no peg moved" and passed the turn (``skip``)
    where the truth has the pop and its lost move. The game is refereed right
    then (every move, bump, turn and winner), but the pop's value, which
    only the die showed, is unknown; a pop read with a wrong value is still
    wrong.

    >>> pop = [("pop", "red", 2), ("no-move", "red", 2), ("turn", "blue", None)]
    >>> same_but_unread(pop, [("skip", "red", None), ("turn", "blue", None)])
    True
    >>> same_but_unread(pop, [("pop", "red", 3), ("no-move", "red", 3), ("turn", "blue", None)])
    False
    """
    return unread_difference(want, got) is None


def unread_difference(want: Sequence[tuple[Any, ...]], got: Sequence[tuple[Any, ...]]) -> str | None:
    """The first difference of *got* from *want* that is not an unread pop
    no peg used (see :func:`same_but_unread`), for a person to read; None
    when there is none."""
    a, b = _lost_pops(want), _lost_pops(got)
    for n, (x, y) in enumerate(zip(a, b, strict=False)):
        if not (x == y or (x[0] == y[0] == "lost-pop" and x[1] == y[1] and y[2] is None)):
            named = [dict(zip(KEY_FIELDS, e, strict=False)) for e in (x, y)]
            return f"event {n} (unread pops folded): expected {_short(named[0])}, got {_short(named[1])}"
    if len(a) != len(b):
        return f"{len(a)} events expected, {len(b)} got (unread pops folded)"
    return None


class JudgedLoop(Protocol):
    """What :func:`judge_loop` reads of a ``companion.live.loop.Loop``."""

    events: list[tuple[float, dict[str, Any]]]
    worked_out: list[int]
    unread_passed: int
    contradictions: int


def judge_loop(
    loop: JudgedLoop,
    truth: Sequence[dict[str, Any]],
    *,
    illegal_at: Sequence[float] = (),
    pop_at: Sequence[float] = (),
    move_at: Sequence[float] = (),
    illegal_until: Sequence[float] = (),
    illegal_stood: Sequence[float] = (),
    hold_s: float = 0.0,
) -> Verdict:
    """:func:`judge` on what a loop announced, with its worked-out and passed pops counted."""
    verdict = judge(
        truth,
        loop.events,
        illegal_at=illegal_at,
        pop_at=pop_at,
        move_at=move_at,
        worked_out=loop.worked_out,
        illegal_until=illegal_until,
        illegal_stood=illegal_stood,
        hold_s=hold_s,
    )
    return replace(verdict, unread_passed=loop.unread_passed, said_against=loop.contradictions)


class SilentSpeaker:
    """A speaker that says nothing: benchmarks and tests judge the events only."""

    def say(self, text: str, urgent: bool = False) -> None:
        pass


def _delays(
    truth: Sequence[dict[str, Any]],
    emitted: Sequence[tuple[float, dict[str, Any]]],
    pop_at: Sequence[float],
    move_at: Sequence[float],
    worked_out: set[int],
) -> list[float]:
    """Seconds from each settled pop / final stable move to its announcement.

    Truth and emitted events are aligned on their meaningful fields (longest
    matching runs), so a game with one wrong event still measures the delays
    of all the others; the k-th truth pop (move) happened at ``pop_at[k]``
    (``move_at[k]``).
    """
    from difflib import SequenceMatcher

    at: dict[int, float] = {}
    counts = {"pop": 0, "move": 0}
    for i, event in enumerate(truth):
        kind = event.get("event")
        if kind in counts:
            times = pop_at if kind == "pop" else move_at
            if counts[kind] < len(times):
                at[i] = times[counts[kind]]
            counts[kind] += 1
    want = [event_key(e) for e in truth]
    got = [event_key(e) for _, e in emitted]
    delays: list[float] = []
    for block in SequenceMatcher(None, want, got, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            i, j = block.a + k, block.b + k
            if i in at and j not in worked_out:
                delays.append(emitted[j][0] - at[i])
    return delays


def delay_summary(delays: Sequence[float], target_s: float = 0.5) -> str:
    """Mean, 95th percentile, share within *target_s* and max of announcement delays.

    >>> delay_summary([0.1, 0.2, 0.3, 4.0])
    'mean 1.150 s, 95th percentile 4.000 s, 75.0% within 0.5 s, max 4.000 s'
    """
    ordered = sorted(delays)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    within = 100.0 * sum(d <= target_s + 1e-9 for d in ordered) / len(ordered)
    mean = sum(ordered) / len(ordered)
    return (f"mean {mean:.3f} s, 95th percentile {p95:.3f} s, {within:.1f}% within {target_s:g} s, "
            f"max {ordered[-1]:.3f} s")


def _short(item: object) -> str:
    if isinstance(item, dict):
        return "{" + ", ".join(f"{k}={v}" for k, v in item.items() if v is not None) + "}"
    return str(item)
