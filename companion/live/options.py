"""Command-line pieces shared by ``play`` and ``replay`` (and ``demo``).

One place parses ``--players``, opens the game record, builds the speaker and
the vision stream, so the commands agree and each bad value gets the same
clear error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from companion.errors import UserError

_COLOURS = ("red", "blue", "yellow", "green")


def add_common(parser: argparse.ArgumentParser, *, default_db: bool) -> None:
    parser.add_argument("--layout", type=Path, default=None, help="board layout file (default: the classic board)")
    parser.add_argument("--calibration", type=Path, default=None, help="a saved calibration (companion calibrate)")
    parser.add_argument(
        "--players",
        default=None,
        help="colours that play, clockwise, e.g. red,blue,yellow; red+yellow,blue+green for two colours "
        "each (default: the colours seen in their Homes at the start)",
    )
    parser.add_argument(
        "--rules",
        default=None,
        help="rule options as JSON, e.g. '{\"play_on\": true}' (see docs/rules.md)",
    )
    parser.add_argument(
        "--first",
        default=None,
        choices=_COLOURS,
        help="this colour starts: skip the who-goes-first pops",
    )
    where = "the user's data folder" if default_db else "none: nothing is recorded"
    parser.add_argument("--db", type=Path, default=None, help=f"the game record (SQLite; default: {where})")
    parser.add_argument("--resume", action="store_true", help="continue the last unfinished game in the record")
    parser.add_argument("--speech-out", type=Path, default=None, help="also write each announcement as a WAV file here")


def parse_players(text: str | None) -> list[list[str]] | None:
    """``red,blue`` -> ``[["red"], ["blue"]]``; ``red+yellow,blue+green`` for two colours each."""
    if text is None:
        return None
    players: list[list[str]] = []
    seen: set[str] = set()
    for part in text.split(","):
        colours = [c.strip().lower() for c in part.split("+") if c.strip()]
        if not colours:
            raise UserError(f"--players {text!r}: an empty player between commas")
        for c in colours:
            if c not in _COLOURS:
                raise UserError(f"--players: unknown colour {c!r}; the colours are {', '.join(_COLOURS)}")
            if c in seen:
                raise UserError(f"--players: {c} is listed twice")
            seen.add(c)
        players.append(colours)
    if not 2 <= len(players) <= 4:
        raise UserError(f"--players: Trouble is for 2 to 4 players, not {len(players)}")
    if len(players) > 2 and any(len(p) > 1 for p in players):
        raise UserError("--players: only in a 2-player game may a player play two colours")
    players.sort(key=lambda p: min(_COLOURS.index(c) for c in p))
    return players


def check_first(first: str | None, players: list[list[str]] | None) -> None:
    """``--first`` must name a playing colour: else the referee would refuse
    the whole setup and the game would start with the who-goes-first pops."""
    if first and players and first not in [c for p in players for c in p]:
        raise UserError(f"--first {first}: that colour is not among --players")


def parse_rules(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    import json

    try:
        rules = json.loads(text)
    except ValueError as exc:
        raise UserError(f"--rules is not JSON: {exc}") from exc
    if not isinstance(rules, dict):
        raise UserError("--rules must be a JSON object, like '{\"play_on\": true}'")
    from companion.rules import Options, RulesError

    try:
        Options.from_mapping(rules)
    except RulesError as exc:
        raise UserError(f"--rules: {exc}") from exc
    return rules


def open_store(db: Path | None, *, default_db: bool) -> Any:
    """The game record at *db*, the default one, or ``None`` (replay without --db)."""
    from companion.store import GameStore

    if db is None and not default_db:
        return None
    return GameStore(db)


def make_speaker(speech_out: Path | None, *, play: bool, transcript: TextIO | None = None) -> Any:
    """The voice part's speaker (TTS in a worker, WAV files, text fallback)."""
    if speech_out is None and not play:
        return QuietSpeaker(transcript)
    from companion.voice.speaker import Speaker

    return Speaker(
        transcript=transcript if transcript is not None else sys.stdout,
        notices=sys.stderr,
        speech_out=speech_out,
        play=play,
    )


class QuietSpeaker:
    """Writes announcements as transcript lines (or nowhere); no audio at all."""

    def __init__(self, transcript: TextIO | None = None) -> None:
        self.transcript = transcript
        self.last_text: str | None = None

    def say(self, text: str, urgent: bool = False) -> None:
        self.last_text = text
        if self.transcript is not None:
            self.transcript.write(f"say: {text}\n")
            self.transcript.flush()

    def repeat(self) -> None:
        if self.last_text:
            self.say(self.last_text)

    def close(self, drain: bool = True, timeout: float = 30.0) -> None:
        pass


def vision_stream(layout_path: Path | None, calibration_path: Path | None, *, reuse_saved: bool = False) -> Any:
    """A :class:`VisionStream` over a :class:`BoardReader` for this layout.

    With *reuse_saved* (live play), the calibration ``companion calibrate``
    saved for this table is used when none is given; a replay uses only what
    it is told, so it gives the same result on any machine.
    """
    from companion.layout import load_layout

    layout = load_layout(layout_path)
    from companion.vision.calibration import default_calibration_path, load_calibration

    calibration = None
    if calibration_path is None and reuse_saved and default_calibration_path().is_file():
        # `companion calibrate` saved one for this table: reuse it.
        calibration_path = default_calibration_path()
    if calibration_path is not None:
        if not calibration_path.is_file():
            raise UserError(f"no such calibration file: {calibration_path}")
        calibration = load_calibration(calibration_path)
    try:
        from companion.vision.reader import BoardReader
        from companion.vision.stream import VisionStream
    except ImportError as exc:
        raise UserError(f"the camera reader is not available in this build ({exc})") from exc
    return VisionStream(BoardReader(layout, calibration=calibration))


def close_all(speaker: Any, store: Any) -> None:
    """Let the speaker finish what it is saying, then close the record."""
    close = getattr(speaker, "close", None)
    if callable(close):
        close()
    if store is not None:
        store.close()
