"""Typed errors of the rules core.

An *illegal move* is not an error: it is a value (:class:`companion.rules.Illegal`)
with a reason code and a sentence. These exceptions are for inputs that make
no sense at all (a place that does not exist, a position with five red pegs)
and for calling the core in the wrong phase, i.e. programming mistakes.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the rules core raises."""


class PlaceError(RulesError):
    """A place name that does not exist (``track:29``, ``finish:0``, ``attic``)."""


class SetupError(RulesError):
    """An impossible game set-up: bad players, options or peg positions."""


class PhaseError(RulesError):
    """A transition called in the wrong phase (a pop while a move is awaited)."""
