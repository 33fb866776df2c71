"""``companion bench referee``: whole seeded games refereed end to end.

Prints, over N seeded games: the share of games refereed with every event
right, false "illegal move" announcements per 100 games, missed illegal moves,
the delay from a settled pop or a final stable move to its announcement
(seconds of game time), and, for rendered video, frames per second on one core.

``--source truth`` feeds the loop the simulator's truth observations (a
perfect camera) with seeded messy hands woven in: it measures the loop and
the referee, not the vision. ``--source video`` renders each game with the
simulator and reads it back through the vision stream.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UserError

if TYPE_CHECKING:
    from companion.live.answering import Habits

SOURCES = ("truth", "video")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help="how many seeded games (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--source", choices=SOURCES, default="truth", help="truth observations or rendered video")
    parser.add_argument(
        "--messy", type=float, default=0.25, help="chance of a messy hand per step, truth source (default 0.25)"
    )
    parser.add_argument(
        "--messes",
        default="",
        help="comma-separated messy-hand kinds to weave in, truth source (default: all of them)",
    )
    parser.add_argument(
        "--unread",
        type=float,
        default=0.0,
        help="chance that a pop is seen settling but not read (PopUnread), truth source (default 0)",
    )
    parser.add_argument(
        "--answers",
        action="store_true",
        help="the players answer the referee's questions about unread pops truthfully, 1.5 s after each "
             "(\"say the number you popped\", \"was your pop a 4?\"); video source: with --from-readings only",
    )
    parser.add_argument(
        "--say-numbers",
        action="store_true",
        help="the players answer as with --answers and, once the referee says it cannot read the die, "
             "say each pop's number 1 s after it settles, to the end of the game",
    )
    parser.add_argument(
        "--count-aloud",
        action="store_true",
        help="the players answer as with --answers and count each move aloud (\"one, two, three, ...\"): "
             "the count's \"one\" reaches the referee as a pop correction when it comes within 10 s of "
             "the pop, as the listener takes it; rendered games only (--source video --from-readings DIR)",
    )
    parser.add_argument(
        "--miscounts-stand",
        type=float,
        default=None,
        metavar="S",
        help="truth source: a wrong count stands S seconds before it is put right (a miscount nobody "
             "noticed at once; default: put right within a second)",
    )
    parser.add_argument("--players", type=int, default=0, choices=(0, 2, 3, 4), help="players per game (0: 2 to 4 by seed)")
    video = parser.add_argument_group("video source")
    video.add_argument("--turns", type=int, default=0, help="stop each rendered game after N turns (0: play to the end)")
    video.add_argument("--size", default="1280x720", help="frame size WxH (default 1280x720)")
    video.add_argument("--fps", type=float, default=10.0, help="frame rate (default 10)")
    video.add_argument("--clean", action="store_true", help="tidy scenes: camera straight above, even light, no noise")
    video.add_argument("--illegal", type=float, default=0.0,
                       help="chance per plain track move that the player first moves one space off, waits for "
                            "the call and puts it back (default 0)")
    video.add_argument("--jobs", type=int, default=1, help="games rendered and read at once, one process each (default 1)")
    video.add_argument("--keep-readings", type=Path, metavar="DIR",
                       help="also write each game's per-frame readings to DIR/game{seed}.pkl (a development cache)")
    video.add_argument("--from-readings", type=Path, metavar="DIR",
                       help="no rendering: referee the games kept in DIR by --keep-readings (the loop as it is now)")


def habits_of(args: argparse.Namespace) -> Habits:
    """The table's habits the options ask for (saying each number or
    counting aloud is done by players who answer questions too)."""
    from companion.live.answering import Habits

    say, count = bool(getattr(args, "say_numbers", False)), bool(getattr(args, "count_aloud", False))
    return Habits(answers=bool(getattr(args, "answers", False)) or say or count, say_numbers=say,
                  count_aloud=count)


def said_against_line(said_against: int, games: int) -> str:
    """The benchmark's line for the numbers the players said that the
    referee answered with what the camera saw (players who count aloud:
    each a count taken for a correction, and answered over the move)."""
    return (f"numbers heard answered with the camera's view (\"I saw a 5 on the die. Say it again if you "
            f"are sure.\"): {said_against} = {said_against / games if games else 0:.2f} per game")


def _players(seed: int, n: int) -> list[str]:
    from companion.rules import COLORS

    count = n or 2 + seed % 3
    return list(COLORS[:count])


def _kinds(text: str) -> tuple[str, ...]:
    from companion.live.scripted import MESSY_KINDS

    if not text.strip():
        return MESSY_KINDS
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in kinds if k not in MESSY_KINDS]
    if unknown:
        raise UserError(f"unknown mess {', '.join(unknown)}: the kinds are {', '.join(MESSY_KINDS)}")
    return kinds


def _truth_game(
    seed: int,
    players: list[str],
    messy: float,
    unread: float = 0.0,
    kinds: tuple[str, ...] | None = None,
    habits: Habits | None = None,
    miscounts_stand: float | None = None,
) -> tuple[Any, Any, float, int]:
    from companion.live.answering import feed_answering
    from companion.live.judge import SilentSpeaker, judge_loop
    from companion.live.loop import Loop
    from companion.live.run import feed_observations, with_ticks
    from companion.live.scripted import MESSY_KINDS, scripted_game
    from companion.referee import Referee

    game = scripted_game(seed, players, messy=messy, unread=unread, kinds=kinds or MESSY_KINDS,
                         miscount_stands_s=miscounts_stand)
    loop = Loop(Referee, SilentSpeaker())
    loop.start(game.players)
    started = time.process_time()
    # The loop's clock ticks between observations, as it does live.
    table = habits.table(game.unread_truth, game.truth, game.pop_at, game.move_at) if habits else None
    if table is not None:
        feed_answering(loop, with_ticks(game.observations), table)
    else:
        feed_observations(loop, game.observations)
    spent = time.process_time() - started
    verdict = judge_loop(loop, game.truth, illegal_at=game.illegal_at, pop_at=game.pop_at, move_at=game.move_at,
                         illegal_until=game.illegal_until, illegal_stood=game.illegal_stood,
                         hold_s=loop.settings.call_hold_s)
    return verdict, game, spent, len(game.observations)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UserError(f"--games must be at least 1, not {args.games}")
    if not 0.0 <= args.messy <= 1.0:
        raise UserError(f"--messy is a chance from 0 to 1, not {args.messy}")
    if getattr(args, "jobs", 1) < 1:
        raise UserError(f"--jobs must be at least 1, not {args.jobs}")
    if not 0.0 <= args.unread <= 1.0:
        raise UserError(f"--unread is a chance from 0 to 1, not {args.unread}")
    if args.miscounts_stand is not None and not 0.0 <= args.miscounts_stand <= 60.0:
        raise UserError(f"--miscounts-stand is seconds from 0 to 60, not {args.miscounts_stand}")
    if not 0.0 <= getattr(args, "illegal", 0.0) <= 1.0:
        raise UserError(f"--illegal is a chance from 0 to 1, not {args.illegal}")
    if args.source == "video":
        # Checked before any game is rendered, not in the middle of one.
        from companion.sim.knobs import parse_size

        if args.seed < 0:
            raise UserError(f"--seed must be 0 or more for rendered games, not {args.seed}")
        parse_size(args.size)
        if not 1 <= args.fps <= 60:
            raise UserError(f"--fps {args.fps}: must be between 1 and 60")
        if args.turns < 0:
            raise UserError(f"--turns must be 0 (play to the end) or more, not {args.turns}")
    kinds = _kinds(getattr(args, "messes", ""))
    habits = habits_of(args)
    if args.source != "video" and habits.count_aloud:
        raise UserError("--count-aloud is for rendered games (--source video --from-readings DIR): the truth "
                        "source times a move when the board shows it, often after the next pop, not when "
                        "the peg comes down, which is when a count is said")
    if args.source == "video" and habits and getattr(args, "from_readings", None) is None:
        raise UserError("--answers (and --say-numbers, --count-aloud) with --source video needs --from-readings DIR "
                        "(the truth of each pop, which the answers come from, is read from the kept games)")
    if args.source == "video" and args.miscounts_stand is not None:
        raise UserError("--miscounts-stand is for the truth source (rendered games use --illegal)")
    if args.source == "video":
        from companion.bench.referee_video import run_video

        return run_video(args)
    right = right_unread = false_illegal = missed = shown_illegal = worked_out = passed = put_right = 0
    said_against = 0
    delays: list[float] = []
    spent = 0.0
    observations = 0
    messes: dict[str, int] = {}
    failures: list[str] = []
    for seed in range(args.seed, args.seed + args.games):
        verdict, game, secs, n = _truth_game(seed, _players(seed, args.players), args.messy, args.unread, kinds,
                                             habits, args.miscounts_stand)
        worked_out += verdict.pops_worked_out
        passed += verdict.unread_passed
        said_against += verdict.said_against
        right += verdict.right
        right_unread += verdict.right_but_unread
        false_illegal += verdict.false_illegal
        missed += verdict.missed_illegal
        put_right += verdict.illegal_put_right_first
        shown_illegal += len(game.illegal_at)
        delays.extend(verdict.delays)
        spent += secs
        observations += n
        for k, v in game.messy.items():
            messes[k] = messes.get(k, 0) + v
        if not verdict.right:
            failures.append(f"  seed {seed}: {verdict.first_difference or 'illegal-move calls differ'}")
    games = args.games
    unread = f", unread={args.unread}" if args.unread else ""
    if args.miscounts_stand is not None:
        unread += f", wrong counts stand {args.miscounts_stand:g} s"
    if habits:
        unread += ", " + habits.describe()
    print(f"source: truth observations (a perfect camera; measures loop and referee, not vision), messy={args.messy}{unread}")
    print(f"messy hands woven in: {', '.join(f'{k} {v}' for k, v in sorted(messes.items()))}")
    print(f"games: {games}")
    print(f"games with every event right: {right}/{games} = {100.0 * right / games:.1f}%")
    print(f"games refereed right but for the values of pops no camera read and no peg used: "
          f"{right_unread}/{games} = {100.0 * right_unread / games:.1f}%")
    print(f"false illegal-move announcements: {false_illegal} = {100.0 * false_illegal / games:.2f} per 100 games")
    print(f"missed illegal moves: {missed} of {shown_illegal} shown")
    if habits:
        print(said_against_line(said_against, games))
    if put_right:
        from companion.live.loop import LoopSettings

        print(f"  ({put_right} of them were put right by the player before they had stood "
              f"{LoopSettings().call_hold_s:g} s, "
              "the wait before a call: not called, by design)")
    if args.unread:
        print(
            f"pops seen but not read ({messes.get('unread-pop', 0)}): {worked_out} taken from the move after them, "
            f"{passed} passed with no peg moved (value unknown: that game counts as wrong)"
        )
    if delays:
        from companion.live.judge import delay_summary

        print(
            f"delay settled -> announced: {delay_summary(delays)} (game time; {len(delays)} pops and moves)"
        )
    print(f"loop speed: {observations / spent if spent else 0:.0f} observations/s on one core (CPU time)")
    for line in failures[:10]:
        print(line)
    return 0
