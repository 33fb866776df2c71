"""A table of players who answer the referee's questions, for the benchmark.

The scripted games (:mod:`companion.live.scripted`) are fixed streams of
observations: nobody in them hears the referee. Some of the loop's work
depends on the players' word, though: asked "Blue, say the number you
popped" or "Blue, was your pop a 4?", a family answers. :class:`AnsweringTable`
listens to what the loop says and answers truthfully, :data:`ANSWER_DELAY_S`
later, from the true value of the player's last pop the camera could not
read; :func:`feed_answering` merges those answers into the observation
stream in time order. It measures what asking buys when people answer; it
does not model a player who mishears, forgets or answers wrongly.

Given *every_pop* (each pop of the game as ``(t, colour, value)``), the
table also does what the loop asks of it when the camera cannot read the
die (``loop.DIE_BLIND_SAID``: "Say each number as you pop it"): from then
on each player says every pop's number
:data:`NUMBER_DELAY_S` after it settles, read by the camera or not, to the
end of the game. That is the referee's promise to a table whose camera is
too far or too glared to read the die: a number said is the pop, so a wrong
count on it is still called.

Given *counts* (:func:`counts_of`), the players also count each move aloud
("one, two, three, ..."), and the listener takes the count's first number
for a pop correction when it comes in the ten seconds after the pop, as it
does live (docs/voice.md, session 41): every such "one" reaches the loop.
:class:`Habits` names what a benchmark's table does.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.live.loop import DIE_BLIND_SAID, Announcement, Loop
from companion.live.observations import Observation, Spoken

#: Seconds from the end of a question to the player's answer.
ANSWER_DELAY_S = 1.5
#: A pop the truth has within this many seconds of the time the loop gives
#: is the pop it asks about (a camera reports a pop a little after it settles).
SAME_POP_S = 1.5
#: A question names no pop time: the player answers with their last pop
#: the camera could not read if it was this recent.
RECENT_S = 10.0
#: Seconds from a pop settling to its number said, by a table asked to say
#: each number (a player pops, looks, and says it).
NUMBER_DELAY_S = 1.0

#: Seconds a player takes over each space as they count a move aloud, the
#: last number said as the peg comes down.
COUNT_SPACE_S = 0.5
#: A count's first number is taken for a pop correction only this long after
#: the pop (``companion.voice.policy.POP_WINDOW_S``, the listener's window for
#: a bare number): later, the listener ignores it.
COUNT_HEARD_S = 10.0

_CONFIRM = re.compile(r"^(\w+), was your pop a (\d)\?$")
_NUMBER = re.compile(r"(\w+), say the number you popped")


class AnsweringTable:
    """Players who answer the loop's questions about unread pops.

    *unread_truth* lists each pop the camera saw but could not read as
    ``(t, colour, value)`` (for rendered games, every pop: which ones the
    camera fails to read is not known beforehand); the answer is about the
    pop the question names by its time, else the colour's most recent one
    (see :meth:`_truth`).
    """

    def __init__(self, unread_truth: Sequence[tuple[float, str, int]],
                 every_pop: Sequence[tuple[float, str, int]] | None = None,
                 counts: Sequence[float] = ()) -> None:
        self.unread_truth = sorted(unread_truth)
        #: When each count aloud's "one" is heard (:func:`counts_of`).
        self.counts = sorted(counts)
        #: Every pop of the game, whose numbers the players say once asked to
        #: (None: a table that only answers questions).
        self.every_pop = sorted(every_pop) if every_pop is not None else None
        #: From when the players say each number (asked to; None: not asked).
        self.numbers_from: float | None = None
        self.answers = 0

    def _truth(self, colour: str, said: Announcement) -> int | None:
        """The true value of the pop *said* asks about: the colour's pop
        nearest the time the loop names (the pop the player's move used;
        within :data:`SAME_POP_S`), else its last such pop in the
        :data:`RECENT_S` before the question. ``None`` (no answer) when the
        player has no such pop: asked about a pop they do not know of, a
        player says nothing the loop can use."""
        if said.about is not None:
            # Only pops made by the time of the question: the pop after the
            # one asked about may be within SAME_POP_S of the time the loop
            # names, but nobody has popped it yet (fresh game 437, session
            # 30: "Yellow, was your pop a 6?" answered "no" from Yellow's 4,
            # popped a second after the question).
            near = [(abs(at - said.about), v) for at, c, v in self.unread_truth
                    if c == colour and abs(at - said.about) <= SAME_POP_S and at <= said.t + 1e-9]
            if near:
                return min(near)[1]
        values = [v for at, c, v in self.unread_truth if c == colour and said.t - RECENT_S <= at <= said.t + 1e-9]
        return values[-1] if values else None

    def unprompted(self) -> list[Spoken]:
        """What the players say whatever the loop says: each count aloud's "one"."""
        return [Spoken(t, "pop", {"value": 1}) for t in self.counts]

    def hear(self, said: Announcement) -> list[Spoken]:
        """The answer to *said*, if it asks something the players know."""
        if said.text == DIE_BLIND_SAID:
            return self._say_each_number(said.t)
        confirm = _CONFIRM.match(said.text)
        if confirm:
            value = self._truth(confirm.group(1).lower(), said)
            if value is None:
                return []
            self.answers += 1
            return [Spoken(said.t + ANSWER_DELAY_S, "yes" if value == int(confirm.group(2)) else "no")]
        number = _NUMBER.search(said.text)
        if number and not said.text.startswith("I did not see"):  # (a pop never seen: the script says it)
            value = self._truth(number.group(1).lower(), said)
            if value is None:
                return []
            self.answers += 1
            return [Spoken(said.t + ANSWER_DELAY_S, "pop", {"value": value})]
        return []

    def _say_each_number(self, t: float) -> list[Spoken]:
        """Asked to say each number at *t*: every later pop's number, each
        :data:`NUMBER_DELAY_S` after it settles (asked again, the numbers
        are said already)."""
        if self.every_pop is None or self.numbers_from is not None:
            return []
        self.numbers_from = t
        return [Spoken(at + NUMBER_DELAY_S, "pop", {"value": value})
                for at, _, value in self.every_pop if at + NUMBER_DELAY_S > t]


class Answers:
    """The table's answers to what *loop* says, handed out when their time comes."""

    def __init__(self, loop: Loop, table: AnsweringTable) -> None:
        self.loop = loop
        self.table = table
        self._pending: list[tuple[float, int, Spoken]] = []
        self._heard = len(loop.said)
        self._order = 0
        for said in table.unprompted():
            self._push(said)

    def _push(self, said: Spoken) -> None:
        self._order += 1
        heapq.heappush(self._pending, (said.t, self._order, said))

    def listen(self) -> None:
        """Hear what the loop has said since last time; queue the answers."""
        for item in self.loop.said[self._heard:]:
            for answer in self.table.hear(item):
                self._push(answer)
        self._heard = len(self.loop.said)

    def due(self, t: float) -> list[Spoken]:
        """The answers due by *t* (for :func:`companion.live.run.feed_frames`'
        *commands*: one poll per frame; answers to what they cause come at
        later polls)."""
        self.listen()
        out = []
        while self._pending and self._pending[0][0] <= t:
            out.append(heapq.heappop(self._pending)[2])
        return out

    def answer_until(self, t: float) -> None:
        """Hand the loop every answer due by *t*, and the answers to those."""
        self.listen()
        while self._pending and self._pending[0][0] <= t and self.loop.stage != "over":
            self.loop.handle(heapq.heappop(self._pending)[2])
            self.listen()


def feed_answering(loop: Loop, observations: Iterable[Observation], table: AnsweringTable) -> None:
    """Hand every observation to the loop in order, with the table's answers
    to what the loop says woven in at their times."""
    answers = Answers(loop, table)
    for obs in observations:
        answers.answer_until(obs.t)
        if loop.stage == "over":
            return
        loop.handle(obs)
    answers.answer_until(float("inf"))


def pops_of(events: Sequence[dict[str, object]], pop_at: Sequence[float]) -> list[tuple[float, str, int]]:
    """Every pop of a clip's truth as ``(t, colour, value)`` (a rendered game:
    which pops the camera fails to read is not known beforehand)."""
    pops = [e for e in events if e.get("event") == "pop"]
    return [(t, str(e.get("color", "")), int(str(e.get("value")))) for t, e in zip(pop_at, pops, strict=False)]


def counts_of(events: Sequence[dict[str, object]], pop_at: Sequence[float],
              move_at: Sequence[float]) -> list[float]:
    """When the listener hears each count aloud's "one" in a game's truth
    (*events*, with the times of its pops and of its moves): every move along
    the track (not a peg brought out) counted at :data:`COUNT_SPACE_S` a space
    to the moment the peg comes down, but not before its pop has settled and
    been looked at (:data:`NUMBER_DELAY_S`); a count that begins more than
    :data:`COUNT_HEARD_S` after its pop is not heard as a pop."""
    out: list[float] = []
    pops = moves = 0
    popped = None
    for e in events:
        kind = e.get("event")
        if kind == "pop":
            popped = pop_at[pops] if pops < len(pop_at) else None
            pops += 1
        elif kind == "move":
            landed = move_at[moves] if moves < len(move_at) else None
            moves += 1
            if landed is None or popped is None or e.get("from") == "home":
                continue
            one = max(popped + NUMBER_DELAY_S, landed - COUNT_SPACE_S * int(str(e.get("value"))))
            if one - popped <= COUNT_HEARD_S and one < landed:
                out.append(one)
    return out


@dataclass(frozen=True)
class Habits:
    """What a benchmark's table of players does besides playing: answer the
    loop's questions, say each number once asked to, count moves aloud."""

    answers: bool = False
    say_numbers: bool = False
    count_aloud: bool = False

    def __bool__(self) -> bool:
        return self.answers or self.say_numbers or self.count_aloud

    def table(self, unread_truth: Sequence[tuple[float, str, int]], events: Sequence[dict[str, object]],
              pop_at: Sequence[float], move_at: Sequence[float]) -> AnsweringTable | None:
        """The table for a game whose truth is *events* (its pops the camera
        could not read: *unread_truth*), or None for players who only play."""
        if not self:
            return None
        every_pop = pops_of(events, pop_at) if self.say_numbers else None
        counts = counts_of(events, pop_at, move_at) if self.count_aloud else ()
        return AnsweringTable(unread_truth, every_pop, counts)

    def describe(self) -> str:
        """The habits, for a benchmark's heading ("" for none)."""
        said = [text for on, text in ((self.answers, "players answer the referee's questions"),
                                      (self.say_numbers, "say each number once asked"),
                                      (self.count_aloud, "count each move aloud")) if on]
        return ", ".join(said)
