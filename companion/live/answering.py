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
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Sequence

from companion.live.loop import Announcement, Loop
from companion.live.observations import Observation, Spoken

#: Seconds from the end of a question to the player's answer.
ANSWER_DELAY_S = 1.5

_CONFIRM = re.compile(r"^(\w+), was your pop a (\d)\?$")
_NUMBER = re.compile(r"(\w+), say the number you popped")


class AnsweringTable:
    """Players who answer the loop's questions about unread pops.

    *unread_truth* lists each pop the camera saw but could not read as
    ``(t, colour, value)``; the answer names the value of the asked colour's
    last such pop before the question.
    """

    def __init__(self, unread_truth: Sequence[tuple[float, str, int]]) -> None:
        self.unread_truth = sorted(unread_truth)
        self.answers = 0

    def _truth(self, colour: str, said: Announcement) -> int | None:
        """The true value of the pop *said* asks about: the one the loop
        names by its time (the pop the player's move used), else the
        colour's last unread pop before the question."""
        if said.about is not None:
            exact = [v for at, c, v in self.unread_truth if c == colour and abs(at - said.about) < 1e-6]
            if exact:
                return exact[0]
        values = [v for at, c, v in self.unread_truth if c == colour and at <= said.t + 1e-9]
        return values[-1] if values else None

    def hear(self, said: Announcement) -> list[Spoken]:
        """The answer to *said*, if it asks something the players know."""
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


def feed_answering(loop: Loop, observations: Iterable[Observation], table: AnsweringTable) -> None:
    """Hand every observation to the loop in order, with the table's answers
    to what the loop says woven in at their times."""
    pending: list[tuple[float, int, Spoken]] = []
    heard = len(loop.said)
    order = 0

    def listen() -> None:
        nonlocal heard, order
        for item in loop.said[heard:]:
            for answer in table.hear(item):
                order += 1
                heapq.heappush(pending, (answer.t, order, answer))
        heard = len(loop.said)

    def answer_until(t: float) -> None:
        while pending and pending[0][0] <= t and loop.stage != "over":
            loop.handle(heapq.heappop(pending)[2])
            listen()

    for obs in observations:
        answer_until(obs.t)
        if loop.stage == "over":
            return
        loop.handle(obs)
        listen()
    answer_until(float("inf"))
