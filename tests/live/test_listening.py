"""Voice decisions become loop observations; the policy hears what the game expects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.live.listening import VoiceCommands, spoken_from
from companion.voice.grammar import Command


@dataclass
class FakeDecision:
    action: str
    command: Command | None = None
    prompt: str = ""


@dataclass
class FakeHeard:
    decision: FakeDecision


def test_decisions_become_observations() -> None:
    pop = spoken_from(FakeHeard(FakeDecision("apply", Command("pop", value=5))), 3.0)
    assert pop is not None and (pop.intent, pop.value, pop.t) == ("pop", {"value": 5}, 3.0)
    peg = spoken_from(FakeHeard(FakeDecision("apply", Command("peg", color="red", place="track:12"))), 1.0)
    assert peg is not None and peg.value == {"color": "red", "to": "track:12"}
    new = spoken_from(FakeHeard(FakeDecision("apply", Command("new-game"))), 1.0)
    assert new is not None and new.value == {"confirmed": True}
    ask = spoken_from(FakeHeard(FakeDecision("confirm", Command("new-game"), "Did you say new game?")), 1.0)
    assert ask is not None and ask.intent == "prompt" and ask.value["text"] == "Did you say new game?"
    assert spoken_from(FakeHeard(FakeDecision("ignore")), 1.0) is None
    rule = spoken_from(FakeHeard(FakeDecision("apply", Command("rule", topic="own-peg"))), 1.0)
    assert rule is not None and "own peg" in rule.value["answer"]


class FakePolicy:
    def __init__(self) -> None:
        self.expected: list[float] = []
        self.undo_crosses_turn = False

    def expect_pop(self, now: float) -> None:
        self.expected.append(now)

    def expect_answer(self, now: float) -> None:
        self.expected.append(-now)


class FakeListener:
    def __init__(self) -> None:
        self.policy = FakePolicy()
        self._stream_s = 12.5


def test_the_policy_learns_what_the_game_expects() -> None:
    listener: Any = FakeListener()
    voice = VoiceCommands(listener)
    voice.note_event(1.0, {"event": "pop", "value": 4})
    assert listener.policy.expected == [12.5] and not listener.policy.undo_crosses_turn
    voice.note_event(2.0, {"event": "turn", "color": "blue"})
    assert listener.policy.undo_crosses_turn
    voice.note_event(3.0, {"event": "move"})
    assert not listener.policy.undo_crosses_turn


def test_the_loops_questions_open_the_listener_to_a_bare_answer() -> None:
    listener: Any = FakeListener()
    voice = VoiceCommands(listener)
    voice.note_expected("number")  # "Blue, say the number you popped."
    voice.note_expected("yes-no")  # "Blue, was your pop a 3?"
    voice.note_expected("something else")
    assert listener.policy.expected == [12.5, -12.5]


def test_a_missing_microphone_is_said_once() -> None:
    voice = VoiceCommands(FakeListener())
    voice.error = "no microphone found"
    first = voice.poll(1.0)
    assert [s.intent for s in first] == ["prompt"] and "no microphone" in first[0].value["text"]
    assert voice.poll(2.0) == []
