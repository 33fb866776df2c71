"""``companion replay VIDEO``: referee a recorded game as fast as it decodes.

Runs the live loop (the same one ``play`` runs) on a video file and prints
the referee's JSON lines (the contract of docs/referee.md) to stdout as they
happen. A ``.jsonl`` file of observations (``{"t": 1.5, "pop": 6}``,
``{"t": 2.0, "board": {...}}``, ``{"t": 3.0, "say": {"intent": "undo"}}``;
see docs/live.md) is refereed the same way without the camera part, which is
how the loop is tested against scripted tables.

Nothing is recorded unless ``--db`` is given; ``--resume`` continues the last
unfinished game of that record from the video time where it stopped.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.live import options
from companion.live.observations import Observation, ObservationError, from_json


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", type=Path, help="a video file, or a .jsonl file of observations")
    options.add_common(parser, default_db=False)
    parser.add_argument("--transcript", action="store_true", help="print what is said to stderr too")


def read_observations(path: Path, start_after: float | None = None) -> Iterator[Observation]:
    """Observations from a ``.jsonl`` file, each line checked (errors name the line).

    Lines are decoded one by one, so a line that is not UTF-8 is named like
    any other bad line, after the lines before it were refereed.
    """
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from exc
    with handle:
        last = float("-inf")
        for number, raw in enumerate(handle, 1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise UserError(f"{path}:{number}: not UTF-8 text ({exc.reason})") from None
            if not text.strip():
                continue
            try:
                obs = from_json(json.loads(text))
            except (ValueError, RecursionError, ObservationError) as exc:
                raise UserError(f"{path}:{number}: {exc}") from exc
            if obs.t < last:
                raise UserError(f"{path}:{number}: time goes backwards ({obs.t} after {last})")
            last = obs.t
            if start_after is None or obs.t > start_after:
                yield obs
    if last == float("-inf"):
        # Like a video with no frames: a wrong file, not a game with nothing in it.
        raise UserError(f"{path} holds no observations (one JSON object per line, see docs/live.md)")


def run(args: argparse.Namespace) -> int:
    from companion.live.frames import video_frames
    from companion.live.loop import LoopSettings
    from companion.live.run import feed_frames, feed_observations
    from companion.live.session import open_session

    path: Path = args.video
    if not path.exists():
        raise UserError(f"no such file: {path}")
    players = options.parse_players(args.players)
    options.check_first(args.first, players)
    rules = options.parse_rules(args.rules)
    if args.resume and args.db is None:
        raise UserError("--resume needs --db FILE: the record to continue")
    store = options.open_store(args.db, default_db=False)
    speaker = options.make_speaker(
        args.speech_out, play=False, transcript=sys.stderr if args.transcript else None
    )
    out = sys.stdout

    def on_event(t: float, event: dict[str, Any]) -> None:
        out.write(json.dumps(event) + "\n")
        out.flush()

    try:
        session = open_session(
            speaker,
            store=store,
            source=f"video {path}",
            players=players,
            rules=rules,
            first=args.first,
            resume=args.resume,
            rerun=True,
            settings=LoopSettings(ask_back=False),  # nobody listens to a replay's questions
        )
        if path.suffix == ".jsonl":
            feed_observations(session.loop, read_observations(path, session.resume_t), on_event)
        else:
            stream = options.vision_stream(args.layout, args.calibration)
            feed_frames(session.loop, video_frames(path, session.resume_t), stream, on_event=on_event)
        session.loop.end_fast_forward()
    finally:
        options.close_all(speaker, store)
    return 0
