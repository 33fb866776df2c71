"""``companion play``: referee a live game from a camera (or a video, at its pace).

Finds the board, checks the opening position, runs the who-goes-first pops,
then referees turn by turn, speaking every announcement and listening for
voice commands. Every referee input is recorded in the game record (the
user's data folder, or ``--db``) before it is spoken; ``--resume`` continues
the last unfinished game from the record and checks the board against it.
A camera that goes away mid-game is waited for, with one spoken message.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.live import options


def configure(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--camera", type=int, default=None, help="camera number (default 0)")
    source.add_argument("--video", type=Path, default=None, help="a video file, played at its own pace")
    options.add_common(parser, default_db=True)
    parser.add_argument("--no-listen", action="store_true", help="do not listen for voice commands")
    parser.add_argument("--no-ask-back", action="store_true",
                        help="do not ask a player to confirm a pop worked out from their move "
                             "(\"Blue, was your pop a 4?\"; never asked with --no-listen)")
    parser.add_argument("--silent", action="store_true", help="print announcements only; no audio")
    parser.add_argument("--fast", action="store_true", help="with --video: do not wait, run as fast as it decodes")


def _paced(frames: Iterator[Any], fast: bool) -> Iterator[Any]:
    """Deliver video frames no faster than real time (as a camera would)."""
    if fast:
        yield from frames
        return
    start = time.monotonic()
    for frame in frames:
        delay = frame.t - (time.monotonic() - start)
        if delay > 0:
            time.sleep(delay)
        yield frame


def _stopped_on_fault(exc: Exception, speaker: Any, db: Path | None) -> UserError:
    """What to tell the table when the referee itself fails mid-game.

    Every input was recorded before it was spoken, so nothing is lost: say so
    aloud and in the error, and keep the details for a bug report in the
    user's data folder (a traceback means nothing at a kitchen table)."""
    import traceback

    from companion.paths import user_data_dir

    details = "".join(traceback.format_exception(exc))
    where = "the error output"
    try:
        folder = user_data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        report = folder / f"crash-{time.strftime('%Y%m%d-%H%M%S')}.txt"
        report.write_text(details, encoding="utf-8")
        where = str(report)
    except OSError:
        print(details, file=sys.stderr)
    # The speech may be what failed; the message below says it all the same.
    with contextlib.suppress(Exception):
        speaker.say("Something went wrong inside the referee. The game is saved: "
                    "start me again with companion play, resume.", urgent=True)
    record = f" in {db}" if db is not None else ""
    return UserError(
        f"stopped on an internal error ({type(exc).__name__}: {exc}). Nothing is lost: the game is "
        f"saved{record}; run `companion play --resume` to carry on. The details are in {where}.",
        exit_code=1,
    )


def run(args: argparse.Namespace) -> int:
    from companion.live.frames import camera_frames, open_camera, video_frames
    from companion.live.listening import VoiceCommands
    from companion.live.loop import LoopSettings
    from companion.live.run import feed_frames
    from companion.live.session import open_session

    players = options.parse_players(args.players)
    rules = options.parse_rules(args.rules)
    options.check_first(args.first, players)
    # Check everything the user can get wrong before touching the record.
    stream = options.vision_stream(args.layout, args.calibration, reuse_saved=True)
    voices = None
    if not args.no_listen:
        from companion.voice.enroll import load_user_matcher

        voices = load_user_matcher()  # a corrupt voice profile is named now, not after the game began
    if args.video is not None:
        if args.video.is_dir():
            raise UserError(f"{args.video} is a folder, not a video file")
        if not args.video.is_file():
            raise UserError(f"no such video file: {args.video}")
        source = f"video {args.video}"
        items: Any = None
    else:
        index = 0 if args.camera is None else args.camera
        source = f"camera {index}"
        items = camera_frames(lambda: open_camera(index))
        first_item = next(items)  # opens the camera now: a clear error if it is not there
    store = options.open_store(args.db, default_db=True)
    speaker = options.make_speaker(args.speech_out, play=not args.silent, transcript=sys.stdout)
    listener: VoiceCommands | None = None
    try:
        session = open_session(
            speaker,
            store=store,
            source=source,
            players=players,
            rules=rules,
            first=args.first,
            resume=args.resume,
            rerun=args.video is not None,
            settings=LoopSettings(ask_back=not (args.no_listen or args.no_ask_back)),
        )
        if args.video is not None:
            frames = _paced(video_frames(args.video, session.resume_t), args.fast)
        else:

            def with_first() -> Iterator[Any]:
                yield first_item
                yield from items

            frames = with_first()
        if not args.no_listen:
            from companion.voice.listener import Listener

            # enrolled voices (companion enroll-voice) check pop corrections
            listener = VoiceCommands(Listener(voices=voices))
            listener.start_microphone()
            # the loop's questions ("say the number you popped") open the
            # listener to a bare answer
            session.loop.on_expect = listener.note_expected
        try:
            feed_frames(
                session.loop,
                frames,
                stream,
                commands=listener.poll if listener else None,
                on_event=listener.note_event if listener else None,
            )
            session.loop.end_fast_forward()
        except UserError:
            raise
        except Exception as exc:  # a fault of ours: the game is saved, say how to go on
            raise _stopped_on_fault(exc, speaker, args.db) from exc
    finally:
        if listener is not None:
            listener.stop()
        options.close_all(speaker, store)
    return 0
