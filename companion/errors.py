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


def os_reason(exc: OSError) -> str:
    """Why a file could not be written, in a few words for a UserError.

    Making a folder where a file of that name stands says only "File
    exists", which reads as nonsense unless the file in the way is named.
    """
    if isinstance(exc, FileExistsError) and exc.filename:
        return f"{exc.filename} is a file, not a folder"
    return exc.strerror or str(exc)
