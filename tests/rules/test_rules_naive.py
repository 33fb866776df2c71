"""The engine against a naive second implementation, move for move.

``rules_naive.py`` walks pegs one space at a time from the rule texts and shares no
code with the engine. On thousands of seeded random positions (near Finish,
on opponents' Starts, full Finish lines, two-colour players, every option)
both must give the same legal moves, the same position after each, and the
same next player.
"""

from __future__ import annotations

import random
from typing import Any

import rules_naive as naive
from refhelpers import random_position

from companion import rules
from companion.rules import Phase

SEATS = [
    [["red"], ["blue"], ["yellow"], ["green"]],
    [["red"], ["yellow"]],
    [["blue"], ["green"], ["red"]],
    [["red", "yellow"], ["blue", "green"]],
    [["green", "blue"], ["yellow", "red"]],
    [["red", "blue"], ["yellow"]],
]
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"jump_in_finish": False},
    {"play_on": True},
    {"two_color_win": "both"},
    {"three_sixes": True},
    {"basic": True},
    {"basic": True, "play_on": True},
]


def _scenario(
    rng: random.Random,
) -> tuple[list[list[str]], dict[str, Any], dict[str, list[str]], int, int]:
    players = rng.choice(SEATS)
    options = rng.choice(OPTION_SETS)
    count = 1 if options.get("basic") else 4
    pegs = random_position(rng, players, count)
    turn = rng.randrange(len(players))
    pop = rng.choice([1, 2, 3, 4, 5, 6, 6])
    return players, options, pegs, turn, pop


def _engine_state(
    players: list[list[str]],
    options: dict[str, Any],
    pegs: dict[str, list[str]],
    turn: int,
    pop: int,
    sixes: int,
) -> rules.State:
    entry = [p[0] if len(p) == 1 else p for p in players]
    state = rules.new_game(entry, rules.Options.from_mapping(options), pegs, players[turn][0])
    state = state._replace(sixes=sixes - 1 if pop == 6 else 0)
    return rules.pop(state, pop)


def _as_tuple(move: rules.Move) -> tuple[str, str, str, str | None]:
    return (move.color, move.from_place, move.to_place, move.victim)


def _sorted(pegs: dict[str, list[str]]) -> dict[str, list[str]]:
    return {c: sorted(p) for c, p in pegs.items()}


def test_engine_matches_naive_on_random_positions() -> None:
    rng = random.Random(2024)
    compared = moves_compared = 0
    for _ in range(4000):
        players, options, pegs, turn, pop = _scenario(rng)
        sixes = rng.choice([1, 2, 3]) if pop == 6 else 0
        state = _engine_state(players, options, pegs, turn, pop, sixes)
        mover = players[turn]
        engine = {_as_tuple(m) for m in rules.legal_moves(state)}
        forfeit = options.get("three_sixes") and pop == 6 and sixes >= 3
        expected = set() if forfeit else naive.moves(players, pegs, mover, pop, options)
        assert engine == expected, (players, options, pegs, mover, pop)
        compared += 1
        for move in rules.legal_moves(state):
            after = rules.apply(state, move)
            naive_after = naive.play(players, pegs, mover, _as_tuple(move))
            assert _sorted(after.position()) == _sorted(naive_after)
            who, finished = naive.next_turn(
                players, mover, [], naive_after, pop, sixes, options, True
            )
            assert after.player == who, (players, options, pegs, mover, pop, move)
            assert [rules.COLORS[after.sides[s][0]] for s in after.finished] == [
                p[0] for p in finished
            ]
            moves_compared += 1
        if not engine:
            lost = rules.lose_move(state)
            who, _ = naive.next_turn(players, mover, [], pegs, pop, sixes, options, False)
            assert lost.player == who
    assert compared == 4000 and moves_compared > 4000


def test_check_move_agrees_with_legal_moves_for_every_pair() -> None:
    """check_move returns the Move exactly for the legal (from, to) pairs."""
    rng = random.Random(7)
    all_places = (
        ["home"] + [f"track:{n}" for n in range(1, 29)] + [f"finish:{k}" for k in range(1, 5)]
    )
    parsed = {p: rules.parse_place(p) for p in all_places}
    for _ in range(60):
        players, options, pegs, turn, pop = _scenario(rng)
        state = _engine_state(players, options, pegs, turn, pop, 1 if pop == 6 else 0)
        legal = {_as_tuple(m): m for m in rules.legal_moves(state)}
        for color in players[turn]:
            for frm in set(state.places(color)):
                for to in all_places:
                    verdict = rules.check_move(state, color, parsed[frm], parsed[to])
                    key = (color, frm, to)
                    match = [m for k, m in legal.items() if k[:3] == key]
                    if match:
                        assert verdict == match[0]
                    else:
                        assert isinstance(verdict, rules.Illegal), (key, pop, pegs)
                        assert verdict.reason in rules.REASONS


def test_naive_and_engine_play_the_same_whole_games() -> None:
    """Whole random games: at every pop both agree on the moves."""
    rng = random.Random(99)
    for _ in range(30):
        players = rng.choice(SEATS)
        options = rng.choice(OPTION_SETS)
        entry = [p[0] if len(p) == 1 else p for p in players]
        state = rules.new_game(entry, rules.Options.from_mapping(options), turn=players[0][0])
        while state.phase is not Phase.OVER:
            state = rules.pop(state, rng.randint(1, 6))
            mover = [rules.COLORS[c] for c in state.colors]
            pegs = state.position()
            engine = {_as_tuple(m) for m in rules.legal_moves(state)}
            if not rules.forfeits_six(state):
                assert engine == naive.moves(players, pegs, mover, state.pop, options)
            moves = rules.legal_moves(state)
            state = rules.apply(state, rng.choice(moves)) if moves else rules.lose_move(state)
