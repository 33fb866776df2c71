"""``companion bench rules``: how fast the rules core plays and answers.

Two figures, on one core, through the real ``pop``/``legal_moves``/``apply``/
``lose_move`` (no separate fast path):

* ``N games/s``: complete random 4-player games (official rules: the game ends
  with the first winner), each pop drawn at random and a legal move chosen
  uniformly at random;
* ``N queries/s``: ``legal_moves`` calls on positions collected from those
  games (every position where a player had just popped).

Times are this process's CPU time (``time.process_time``), so the figures
mean "on one core" even when the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import time

from companion import rules
from companion.rules import Phase, State


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--games", type=int, default=2000, help="games to play (default 2000)")
    parser.add_argument(
        "--queries", type=int, default=200_000, help="legal-move queries to time (default 200000)"
    )


def play_game(rng: random.Random, positions: list[State] | None = None) -> int:
    """One complete random 4-player game; returns the number of pops."""
    state = rules.new_game(turn="red")
    pops = 0
    roll = rng.random
    pop, legal_moves, apply, lose_move = rules.pop, rules.legal_moves, rules.apply, rules.lose_move
    over = Phase.OVER
    while state.phase is not over:
        state = pop(state, int(roll() * 6) + 1)
        pops += 1
        moves = legal_moves(state)
        if positions is not None:
            positions.append(state)
        state = apply(state, moves[int(roll() * len(moves))]) if moves else lose_move(state)
    return pops


def run(args: argparse.Namespace) -> int:
    from companion.errors import UserError

    if args.games < 1 or args.queries < 1:
        raise UserError("--games and --queries must be at least 1")
    rng = random.Random(args.seed)
    started = time.process_time()
    pops = sum(play_game(rng) for _ in range(args.games))
    elapsed = time.process_time() - started
    positions: list[State] = []
    while len(positions) < min(args.queries, 20_000):
        play_game(rng, positions)
    rounds = max(1, args.queries // len(positions))
    legal = rules.legal_moves
    started = time.process_time()
    for _ in range(rounds):
        for state in positions:
            legal(state)
    query_time = time.process_time() - started
    queries = rounds * len(positions)
    print(f"rules benchmark: seed {args.seed}, one core, official rules, 4 players")
    print(f"{args.games / elapsed:.0f} games/s")
    print(f"{queries / query_time:.0f} queries/s")
    print(f"games played: {args.games}, mean pops per game: {pops / args.games:.1f}")
    print(f"pops/s: {pops / elapsed:.0f}; queries timed: {queries} on {len(positions)} positions")
    return 0
