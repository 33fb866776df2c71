"""The headless referee: JSON-contract inputs in, spoken events out (docs/referee.md)."""

from companion.referee.referee import REFEREE_REASONS, Referee

__all__ = ["REFEREE_REASONS", "Referee"]
