"""Write the golden playthroughs: NAME.in.jsonl (inputs) and NAME.out.jsonl.

Run once, then READ the output files: they are the specification, checked by
tests/rules/test_referee_golden.py through the real ``companion referee``. Random
games come from fixed seeds; the hand-written ones show the edges.

    .venv/bin/python tests/golden/make_golden.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion import rules
from companion.referee import Referee
from companion.referee.playthrough import random_game_inputs
from companion.rules import Phase

HERE = Path(__file__).parent
Line = dict[str, Any]


def continue_randomly(lines: list[Line], seed: int) -> list[Line]:
    """Feed *lines*, then play on with random legal pops and moves to the end."""
    rng = random.Random(seed)
    ref = Referee()
    for line in lines:
        ref.feed(line)
    out = list(lines)
    while ref.state.phase is not Phase.OVER:
        if ref.state.phase is Phase.MOVE:
            m = rng.choice(rules.legal_moves(ref.state))
            line = {"move": {"color": m.color, "from": m.from_place, "to": m.to_place}}
        else:
            line = {"pop": rng.randint(1, 6)}
        ref.feed(line)
        out.append(line)
    return out


def mv(color: str, frm: str, to: str) -> Line:
    return {"move": {"color": color, "from": frm, "to": to}}


def undo_and_errors() -> list[Line | str]:
    """A short 2-player endgame full of mistakes, corrections and bad lines.

    Red (Start track:1, last space track:28): finish:2-4 and track:24.
    Blue (Start track:8, last space track:7): finish:3-4, track:5, track:20.
    """
    red = ["finish:4", "finish:3", "finish:2", "track:24"]
    blue = ["finish:4", "finish:3", "track:5", "track:20"]
    return [
        {"setup": {"players": ["red", "blue"], "turn": "red", "pegs": {"red": red, "blue": blue}}},
        mv("red", "track:24", "track:26"),  # no-pop
        {"pop": 2},
        {"pop": 3},  # awaiting-move
        mv("blue", "track:5", "track:7"),  # not-your-turn
        mv("red", "track:24", "track:27"),  # wrong-count
        mv("red", "track:24", "track:22"),  # wrong-way
        mv("red", "track:20", "track:22"),  # no-such-peg (that is blue's)
        "this is not json",  # error
        {"pop": 7},  # error
        {"move": {"color": "purple", "from": "home", "to": "track:1"}},  # error
        {"move": {"color": "red", "from": "track:24", "to": "track:29"}},  # error
        mv("red", "track:24", "track:26"),  # legal; blue's turn
        {"command": "undo"},  # the move is taken back
        {"command": "undo"},  # and the pop
        {"command": "undo"},  # nothing left
        {"pop": 1},
        {"command": "pop", "value": 4},  # the pop was misread
        mv("red", "track:24", "track:1"),  # past its Finish entrance: second-lap
        {"board": {"red": ["finish:4", "finish:3", "finish:2", "track:28"]}},  # legal; blue's turn
        {"pop": 6},  # blue: only track:20 -> track:26 can use it
        mv("blue", "track:5", "finish:4"),  # own-peg
        mv("blue", "track:5", "red:finish:2"),  # not-your-finish
        mv("blue", "track:20", "finish:4"),  # wrong-count (19 spaces)
        {"board": {"blue": ["finish:4", "finish:3", "track:5", "track:26"]}},  # legal; pop again
        {"pop": 2},
        {"command": "skip"},  # blue's turn skipped: red's
        {"command": "undo"},  # the skip taken back: blue moves 2
        mv("blue", "track:26", "track:28"),  # bumps red
        {"pop": 3},  # red: no peg out of Home and not a 6: lost
        {"board": {"red": ["track:28"], "blue": ["track:28"]}},  # two pegs on one space: error
        {"command": "peg", "color": "blue", "from": "track:5", "to": "track:6"},  # a misread peg
        {"pop": 2},
        mv("blue", "track:6", "finish:1"),  # legal; red's turn
        {"pop": 6},
        mv("red", "home", "track:1"),  # out; pop again
        {"pop": 1},
        mv("red", "track:1", "track:2"),
        {"pop": 6},
        mv("blue", "track:28", "track:6"),  # pop again
        {"pop": 3},
        mv("blue", "track:6", "finish:2"),  # blue has all four in Finish
        {"pop": 3},  # game-over
        {"command": "undo"},  # the winning move taken back
        mv("blue", "track:6", "finish:2"),  # blue wins again
    ]


def first_ties() -> list[Line]:
    """Who goes first with two rounds of ties, then a whole 4-player game."""
    pops = [6, 6, 2, 6, 4, 4, 1, 2, 5]
    return continue_randomly([{"setup": {}}] + [{"pop": p} for p in pops], seed=8)


GAMES: dict[str, Any] = {
    "four-players": lambda: random_game_inputs(5),
    "four-players-boards": lambda: random_game_inputs(21, boards=True),
    "two-players-two-colours": lambda: random_game_inputs(
        3, players=[["red", "yellow"], ["blue", "green"]], options={"two_color_win": "both"}
    ),
    "basic-play": lambda: random_game_inputs(
        4, players=["red", "blue", "yellow"], options={"basic": True}
    ),
    "play-on-three-players": lambda: random_game_inputs(
        6, players=["blue", "yellow", "green"], options={"play_on": True}
    ),
    "three-sixes": lambda: random_game_inputs(
        8, players=["red", "green"], options={"three_sixes": True}
    ),
    "undo-and-errors": undo_and_errors,
    "first-ties": first_ties,
}


def main() -> None:
    for name, make in GAMES.items():
        lines = make()
        ref = Referee()
        with (
            open(HERE / f"{name}.in.jsonl", "w", encoding="utf-8") as inp,
            open(HERE / f"{name}.out.jsonl", "w", encoding="utf-8") as out,
        ):
            for line in lines:
                text = line if isinstance(line, str) else json.dumps(line)
                inp.write(text + "\n")
                for event in ref.feed_line(text):
                    out.write(json.dumps(event) + "\n")
        print(f"{name}: {len(lines)} input lines")


if __name__ == "__main__":
    main()
