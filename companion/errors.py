"""Errors that reach the user as one clear line (not a traceback)."""

from __future__ import annotations


class UserError(Exception):
    """A mistake the user can fix: a missing file, a malformed argument.

    The command line prints ``companion CMD: error: MESSAGE`` and exits with
    :attr:`exit_code`.
    """

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code
