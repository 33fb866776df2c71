"""The pure rules core of Trouble: places, state, legal moves, transitions.

Standard library only, immutable values, no I/O. See docs/rules.md.

>>> from companion import rules
>>> s = rules.new_game(["red", "blue"], turn="red")
>>> s = rules.pop(s, 6)
>>> [(m.color, m.from_place, m.to_place) for m in rules.legal_moves(s)]
[('red', 'home', 'track:1')]
>>> s = rules.apply(s, rules.legal_moves(s)[0])
>>> s.phase, s.player, s.places("red")
(<Phase.POP: 'pop'>, 'red', ('home', 'home', 'home', 'track:1'))
"""

from companion.rules.board import (
    COLOR_INDEX,
    COLORS,
    FINISH_SPACES,
    PEGS_PER_COLOR,
    TRACK_SPACES,
    Place,
    format_place,
    parse_place,
    place_name,
    progress,
    spoken_place,
    title,
)
from companion.rules.errors import PhaseError, PlaceError, RulesError, SetupError
from companion.rules.game import (
    Move,
    apply,
    forfeits_six,
    give_turn,
    legal_moves,
    lose_move,
    pass_turn,
    pop,
    relocate,
)
from companion.rules.illegal import REASONS, Illegal, check_move, why_illegal
from companion.rules.options import Options
from companion.rules.state import Phase, State, new_game, side_done

__all__ = [
    "COLORS",
    "COLOR_INDEX",
    "FINISH_SPACES",
    "PEGS_PER_COLOR",
    "REASONS",
    "TRACK_SPACES",
    "Illegal",
    "Move",
    "Options",
    "Phase",
    "PhaseError",
    "Place",
    "PlaceError",
    "RulesError",
    "SetupError",
    "State",
    "apply",
    "check_move",
    "forfeits_six",
    "format_place",
    "give_turn",
    "legal_moves",
    "lose_move",
    "new_game",
    "parse_place",
    "pass_turn",
    "place_name",
    "pop",
    "progress",
    "relocate",
    "side_done",
    "spoken_place",
    "title",
    "why_illegal",
]
