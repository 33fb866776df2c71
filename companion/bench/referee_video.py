"""``companion bench referee --source video``: rendered games through vision and the loop.

Each seeded game is rendered frame by frame by the simulator (a random
camera, light, glare and noise per seed unless ``--clean``), read by the real
vision stream, refereed by the live loop, and judged against the simulator's
own referee. Frames per second counts the vision stream and loop only (one
process, one core), not the renderer.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.live.answering import Habits


def run_video(args: argparse.Namespace) -> int:
    from companion.bench.referee import _players, habits_of, said_against_line
    from companion.sim.knobs import parse_size

    size = parse_size(str(args.size))
    habits = habits_of(args)
    turns = args.turns or None
    right = right_unread = false_illegal = missed = shown = worked_out = passed = said_against = 0
    delays: list[float] = []
    frames = 0
    vision_s = render_s = 0.0
    failures: list[str] = []
    seeds = list(range(args.seed, args.seed + args.games))
    jobs = max(1, int(getattr(args, "jobs", 1) or 1))
    for seed, (verdict, stats, rendered) in zip(seeds, _games(seeds, args, turns, size, jobs), strict=True):
        players = _players(seed, args.players)
        right += verdict.right
        right_unread += verdict.right_but_unread
        false_illegal += verdict.false_illegal
        missed += verdict.missed_illegal
        shown += verdict.illegal_shown
        delays.extend(verdict.delays)
        worked_out += verdict.pops_worked_out
        passed += verdict.unread_passed
        said_against += verdict.said_against
        frames += stats.frames
        vision_s += stats.seconds
        render_s += rendered
        status = "right" if verdict.right else f"WRONG: {verdict.first_difference or 'illegal-move calls differ'}"
        if verdict.right_but_unread and not verdict.right:
            status += " (right but for unread pops no peg used)"
        elif verdict.unread_difference and verdict.first_difference != verdict.unread_difference:
            status += f"; beyond unread pops: {verdict.unread_difference}"
        if verdict.false_illegal:
            status += f"; {verdict.false_illegal} false illegal-move call(s)"
        if verdict.illegal_shown:
            status += f"; {verdict.missed_illegal} of {verdict.illegal_shown} illegal moves missed"
        print(f"  seed {seed} ({len(players)} players, {stats.frames} frames): {status}", flush=True)
        if not verdict.right:
            failures.append(str(seed))
    games = args.games
    scope = f"{turns} turns each" if turns else "full games"
    print(
        f"source: rendered video ({size[0]}x{size[1]}, {args.fps:g} fps, "
        f"{'clean' if args.clean else 'random'} scenes, {scope}"
        f"{f', illegal={args.illegal:g}' if getattr(args, 'illegal', 0.0) else ''}"
        f"{', ' + habits.describe() if habits else ''}) through vision and the loop"
    )
    print(f"games: {games}")
    print(f"games with every event right: {right}/{games} = {100.0 * right / games:.1f}%")
    print(f"games refereed right but for the values of pops no camera read and no peg used: "
          f"{right_unread}/{games} = {100.0 * right_unread / games:.1f}%")
    print(f"false illegal-move announcements: {false_illegal} = {100.0 * false_illegal / games:.2f} per 100 games")
    print(f"missed illegal moves: {missed} of {shown} shown")
    if habits:
        print(said_against_line(said_against, games))
    print(
        f"pops the camera could not read: {worked_out} taken from the move after them, "
        f"{passed} passed with no peg moved (value unknown: that game counts as wrong)"
    )
    if delays:
        from companion.live.judge import delay_summary

        print(
            f"delay settled -> announced: {delay_summary(delays)} "
            f"(video time; {len(delays)} pops read by the camera and moves, matched to the truth)"
        )
    print(f"vision + loop: {frames / vision_s if vision_s else 0:.1f} frames/s on one core, CPU time ({frames} frames)")
    print(f"(rendering took {render_s:.0f} CPU s and is not counted)")
    return 0


def _one(seed: int, n_players: int, turns: int | None, size: tuple[int, int], fps: float, clean: bool,
         keep: Path | None = None, kept: Path | None = None, illegal: float = 0.0,
         habits: Habits | None = None) -> Any:
    from companion.bench.referee import _players
    from companion.live.clips import replay_kept_game, run_game

    if kept is not None:
        path = kept / f"game{seed}.pkl"
        if not path.is_file():
            from companion.errors import UserError

            raise UserError(f"{path}: no kept readings for seed {seed} (run with --keep-readings {kept} first)")
        return replay_kept_game(path, habits)
    return run_game(seed, _players(seed, n_players), keep=keep, turns=turns, size=size, fps=fps, clean=clean,
                    illegal=illegal)


def _games(
    seeds: list[int], args: argparse.Namespace, turns: int | None, size: tuple[int, ...], jobs: int
) -> Iterator[Any]:
    """Each seed's ``(verdict, stats, render seconds)``, in seed order; with
    *jobs* > 1 the games run in that many processes (each game on one core,
    so frames per second still counts one core)."""
    from companion.bench.referee import habits_of

    wh = (int(size[0]), int(size[1]))
    keep, kept = getattr(args, "keep_readings", None), getattr(args, "from_readings", None)
    illegal = float(getattr(args, "illegal", 0.0) or 0.0)
    habits = habits_of(args)
    if jobs == 1:
        for seed in seeds:
            yield _one(seed, args.players, turns, wh, args.fps, args.clean, keep, kept, illegal, habits)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_one, seed, args.players, turns, wh, args.fps, args.clean, keep, kept, illegal,
                               habits) for seed in seeds]
        for future in futures:
            yield future.result()
