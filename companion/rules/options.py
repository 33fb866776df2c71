"""The rule options (variants and house rules) a game is played with.

Keys and defaults are part of the referee contract (``setup.rules``); see
docs/rules.md for the reading chosen where the rule texts are silent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from companion.rules.errors import SetupError

#: Allowed values of :attr:`Options.two_color_win`.
TWO_COLOR_WIN = ("one", "both")


@dataclass(frozen=True)
class Options:
    """Rule options; the defaults are the official Winning Moves sheet.

    * ``play_on``: after the first winner the others play on for 2nd and 3rd
      (off: the game ends with the first winner, as the sheet says).
    * ``two_color_win``: a player with two colours wins with ``"one"`` full
      colour (the sheet's words: "all 4 pegs of their color") or needs
      ``"both"``.
    * ``basic``: Hasbro's Basic Play for young children: one peg per colour,
      starting on its Start; no 6 needed to leave Home; a peg enters Finish with
      any number that carries it past its last track space (it stops at the
      Finish space reached, at most ``finish:4``) and has then finished.
    * ``three_sixes``: house rule, a third consecutive 6 ends the turn: that
      6 is forfeited (no move, no extra pop) and play passes on.
    * ``jump_in_finish``: pegs may pass over their own pegs inside Finish
      (the sheet only forbids *landing* on your own peg).

    >>> Options.from_mapping({"play_on": True}).play_on
    True
    >>> Options.from_mapping({"colour": 1})
    Traceback (most recent call last):
    ...
    companion.rules.errors.SetupError: unknown rule option 'colour': known options are play_on, two_color_win, basic, three_sixes, jump_in_finish
    """

    play_on: bool = False
    two_color_win: str = "one"
    basic: bool = False
    three_sixes: bool = False
    jump_in_finish: bool = True

    def __post_init__(self) -> None:
        if self.two_color_win not in TWO_COLOR_WIN:
            raise SetupError(
                f"rule option two_color_win must be 'one' or 'both', not {self.two_color_win!r}"
            )

    @property
    def pegs_per_color(self) -> int:
        """4 pegs a colour, or 1 in basic play."""
        return 1 if self.basic else 4

    @classmethod
    def from_mapping(cls, raw: Mapping[str, object]) -> Options:
        """Options from a JSON object (``-`` and ``_`` are interchangeable in keys)."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, object] = {}
        for key, value in raw.items():
            name = str(key).replace("-", "_")
            if name not in known:
                raise SetupError(
                    f"unknown rule option {key!r}: known options are {', '.join(known)}"
                )
            expected = str if name == "two_color_win" else bool
            if type(value) is not expected:
                kind = "'one' or 'both'" if expected is str else "true or false"
                raise SetupError(f"rule option {key!r} must be {kind}, not {value!r}")
            values[name] = value
        return cls(**values)  # type: ignore[arg-type]

    def to_mapping(self) -> dict[str, object]:
        """The options as a JSON object (the inverse of :meth:`from_mapping`)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}
