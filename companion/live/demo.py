"""The embedded demonstration: a rendered game through vision, referee and voice.

No camera, microphone or sound card: the simulator renders a short scripted
2-player game frame by frame, the real vision stream reads each frame, the
live loop referees it, and every announcement is printed and (with a speech
folder) synthesised to a WAV file. One player's spoken correction is
synthesised with espeak-ng and goes through the real listener (endpointing,
recogniser, wake word, policy).

The script shows, in about a minute of game time: the who-goes-first pops, a
6 followed by another pop, a bump with the bumped peg left beside the board
for a while (not an illegal move), an illegal move called with its reason, a
spoken correction that the camera contradicts (said aloud, not applied), the
move put right, and a win. The seed varies the camera and the light, not the
game. Under some lights the camera cannot read a pop; when the loop then asks
for the number, the player says it (synthesised and heard the same way), as
a family at the table would.
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

#: The opening position (the referee's ``setup.pegs``): Red is one move from winning.
OPENING = {"red": ["finish:1", "finish:2", "finish:3", "track:22"], "blue": ["track:26"]}
#: What Blue says when the wrong move is called.
SPOKEN = "referee, the pop was five"
BESIDE = (-28.0, 215.0)  # on the table left of the board, board mm


def script() -> list[Any]:
    """The physical actions of the demo game."""
    from companion.sim.script import (
        Carry,
        Lift,
        Reach,
        Seat,
        SetDown,
        Wait,
        Withdraw,
        move_peg,
        pop,
    )

    return [
        Wait(seconds=0.6),
        # Who goes first: Red pops 2, Blue pops 4.
        Seat("red"), *pop(2), Wait(seconds=0.5),
        Seat("blue"), *pop(4), Wait(seconds=0.5),
        # Blue pops a 6, brings a peg out, pops again (1) and moves it on.
        *pop(6), *move_peg("blue:home:3", "track:8"), Wait(seconds=0.4),
        *pop(1), *move_peg("track:8", "track:9"), Wait(seconds=0.5),
        # Red pops 4: 22 -> 26 lands on Blue, whose peg lies beside the board a while.
        Seat("red"), *pop(4),
        Reach("track:26"), Lift(), Carry(BESIDE), SetDown(lying=True),
        *move_peg("track:22", "track:26"),
        Wait(seconds=2.0),
        Seat("blue"),
        Reach(BESIDE), Lift(), Carry("blue:home:3"), SetDown(), Withdraw(),
        Wait(seconds=0.5),
        # Blue pops 4 but moves 5 (called), argues, then puts it right.
        *pop(4), *move_peg("track:9", "track:14"), Wait(seconds=3.0),
        *move_peg("track:14", "track:13"), Wait(seconds=0.5),
        # Red pops 6: the last peg goes to Finish 4. Red wins.
        Seat("red"), *pop(6), *move_peg("track:26", "red:finish:4"),
        Wait(seconds=1.5),
    ]


@dataclass
class DemoResult:
    frames: int
    video_s: float
    seconds: float
    events: list[dict[str, Any]]


class _Voice:
    """The loop's speaker: hands each announcement to the voice part (if any)."""

    def __init__(self, voice: Any) -> None:
        self.voice = voice

    def say(self, text: str, urgent: bool = False) -> None:
        if self.voice is not None:
            self.voice.say(text, urgent=urgent)


def scene_for(seed: int, size: tuple[int, int]) -> tuple[Any, str]:
    """A tidy scene whose camera tilt and light vary with the seed."""
    import numpy as np

    from companion.layout import load_layout
    from companion.sim.scene import Scene

    rng = np.random.default_rng(seed)
    tilt = float(rng.uniform(0.0, 12.0))
    kelvin = float(rng.uniform(3800.0, 6500.0))
    scene = replace(Scene.default(load_layout(), size=size, tilt_deg=tilt), light_kelvin=kelvin)
    return scene, f"camera tilted {tilt:.0f} degrees, light {kelvin:.0f} K"


def run_demo(
    seed: int = 1,
    *,
    out: TextIO = sys.stdout,
    speech_dir: Path | None = None,
    json_mode: bool = False,
    size: tuple[int, int] = (640, 480),
    fps: float = 10.0,
    video_out: Path | None = None,
) -> DemoResult:
    """Render, read, referee and voice the demo game; print what is said."""
    from companion.layout import load_layout
    from companion.live.frames import Frame
    from companion.live.listening import commands_from_wav
    from companion.live.loop import Loop
    from companion.live.observations import Spoken
    from companion.live.run import feed_frames
    from companion.referee import Referee
    from companion.sim import DieView
    from companion.sim.simulate import simulate_script
    from companion.vision.reader import BoardReader
    from companion.vision.stream import VisionStream

    started = time.perf_counter()
    layout = load_layout()
    scene, described = scene_for(seed, size)
    voice = _speaker(speech_dir)
    collected = _Collect()
    loop = Loop(Referee, _Voice(voice), collected)
    if not json_mode:
        out.write(
            "Trouble demo: a rendered 2-player game read by the camera part, refereed by the\n"
            "live loop and spoken by the voice part. No camera, microphone or sound card used.\n"
            f"Scene (seed {seed}): {described}; {size[0]}x{size[1]} at {fps:g} frames/s.\n\n"
        )
    loop.start([["red"], ["blue"]], pegs=OPENING)
    frames = simulate_script(
        script(), scene, seed, setup={"players": ["red", "blue"], "pegs": OPENING, "turn": "red"},
        layout=layout, fps=fps, die=DieView(3),
    )
    writer = _writer(video_out, scene.size, fps)
    stream = VisionStream(BoardReader(layout, calibration=None))
    printer = _Printer(loop, out, json_mode, collected)
    count = {"frames": 0}
    last_t = [0.0]
    heard = [False]
    last_pop = [0]  # the value of the last pop popped (the players know it)
    asked = [0]  # how many of the loop's announcements were looked at for a question

    def images() -> Iterator[Frame]:
        for image, truth in frames:
            if writer is not None:
                writer.write(image)
            count["frames"] += 1
            last_t[0] = float(truth.time)
            for line in truth.inputs:
                if "pop" in line:
                    last_pop[0] = int(line["pop"])
            yield Frame(float(truth.time), image)
            printer.flush()

    def say(who: str, text: str, t: float, answers_yes_no: bool = False) -> list[Spoken]:
        """*who* says *text*: synthesised, then through the real listener,
        wake word and all (a bare yes or no, *answers_yes_no*, as after the
        loop's own question: ``VoiceCommands.note_expected`` in play)."""
        printer.flush()
        with tempfile.TemporaryDirectory(prefix="companion-demo-") as folder:
            wav = _spoken_wav(text, Path(folder) / "player-says.wav")
            listener = _listener()
            if wav is None or listener is None:
                printer.note(f"(speech synthesis or recognition is unavailable here: {who} says nothing)")
                return []
            if answers_yes_no:
                listener.policy.expect_answer(0.0)
            got = commands_from_wav(listener, wav, t)
        what = "; ".join(f"{s.intent} {s.value}" for s in got) or "nothing it acts on"
        printer.note(f'{who} says "{text}" (synthesised by espeak-ng; the listener hears: {what})')
        return got

    def commands(t: float) -> list[Spoken]:
        # Asked for a pop the camera could not read (another seed's light),
        # the player says it, as a family would.
        new = loop.said[asked[0]:]
        asked[0] = len(loop.said)
        question = next((item.text for item in new if "say the number" in item.text.lower()), None)
        # Asked to confirm a pop worked out from the move ("Blue, was your
        # pop a 4?"): yes, or no and then (asked again) the number.
        check = next((item.text for item in new if item.expects == "yes-no"), None)
        if check is not None and last_pop[0]:
            who = check.split(",")[0]
            named = int(check.rstrip("?").split()[-1])
            if named != last_pop[0]:
                heard[0] = True  # owning up to the count: Blue does not then argue the call
            return say(who, "Yes." if named == last_pop[0] else "No.", t, answers_yes_no=True)
        if question is not None and last_pop[0]:
            who = next((name for name in ("Red", "Blue") if name in question), "The player")
            from companion.voice.grammar import number_word

            return say(who, f"referee, the pop was {number_word(last_pop[0])}", t)
        # Blue argues as soon as the wrong move is called.
        if heard[0] or not any(e.get("event") == "illegal" for _, e in loop.events):
            return []
        heard[0] = True
        return say("Blue", SPOKEN, t)

    try:
        feed_frames(loop, images(), stream, commands=commands)
        loop.end_fast_forward()
        printer.flush()
    finally:
        if writer is not None:
            writer.release()
        if voice is not None:
            voice.close(drain=True, timeout=120.0)
    seconds = time.perf_counter() - started
    if not json_mode:
        where = f"; announcements written to {speech_dir}" if voice is not None else ""
        out.write(f"\n({count['frames']} frames, {last_t[0]:.1f} s of video refereed{where}.)\n")
    print(f"companion demo: {count['frames']} frames in {seconds:.1f} s", file=sys.stderr)
    return DemoResult(count["frames"], last_t[0], seconds, [e for _, e in loop.events])


class _Collect:
    """A recorder that keeps the referee inputs in memory (for ``--json``)."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def record(self, items: list[Any]) -> None:
        self.items.extend(items)

    def correction(self, command: dict[str, Any], outcome: str, t: float | None) -> None:
        pass

    def finished(self, places: list[str]) -> None:
        pass


class _Printer:
    """The demo's transcript: announcements as text, or inputs and events as JSON."""

    def __init__(self, loop: Any, out: TextIO, json_mode: bool, collected: _Collect) -> None:
        self.loop = loop
        self.out = out
        self.json_mode = json_mode
        self.collected = collected
        self.said = 0
        self.records = 0

    def note(self, text: str) -> None:
        if not self.json_mode:
            self.out.write(f"  > {text}\n")

    def flush(self) -> None:
        if self.json_mode:
            for item in self.collected.items[self.records:]:
                self.out.write(json.dumps({"in": item.line}) + "\n")
                for event in item.events:
                    self.out.write(json.dumps(event) + "\n")
            self.records = len(self.collected.items)
            return
        for item in self.loop.said[self.said:]:
            kind = (item.event or {}).get("event")
            if kind == "turn":
                self.out.write(f"\n{item.text}\n")
            elif kind in ("illegal", "error"):
                self.out.write(f"  ! {item.text}\n")
            elif kind in ("finished", "game-over"):
                self.out.write(f"\n*** {item.text}\n")
            elif kind is not None:
                self.out.write(f"    {item.text}\n")
            elif item.text.startswith("Everyone pops once"):
                self.out.write(f"\nWho goes first?\n  ~ {item.text}\n")
            else:
                self.out.write(f"  ~ {item.text}\n")
        self.said = len(self.loop.said)
        self.out.flush()


def _speaker(speech_dir: Path | None) -> Any:
    """The voice part's speaker writing WAV files; None when it cannot start."""
    if speech_dir is None:
        return None
    try:
        from companion.voice.speaker import Speaker

        return Speaker(transcript=io.StringIO(), notices=sys.stderr, speech_out=speech_dir, play=False)
    except Exception as exc:  # speech is optional: the demo goes on in text
        print(f"companion demo: note: speech output unavailable ({exc}); text only", file=sys.stderr)
        return None


def _spoken_wav(text: str, path: Path) -> Path | None:
    """What a player says, synthesised with espeak-ng into the WAV file *path*."""
    try:
        from companion.voice.audio import write_wav
        from companion.voice.synth import SynthesisUnavailable, synthesise
    except ImportError:
        return None
    try:
        samples = synthesise(text, voice="en-us", speed=150)
    except SynthesisUnavailable:
        return None
    # With the room's faint hiss before and after, as a microphone hears it:
    # the endpointer finds a word as short as "No." only against it.
    import numpy as np

    hiss = np.random.default_rng(len(text)).normal(0.0, 3e-4, 8000).astype(np.float32)
    write_wav(path, np.concatenate([hiss, samples, hiss, hiss]))
    return path


def _listener() -> Any:
    try:
        from companion.voice.listener import Listener

        return Listener()
    except Exception:  # no recogniser: the demo says so and goes on
        return None


def _writer(path: Path | None, size: tuple[int, int], fps: float) -> Any:
    if path is None:
        return None
    import cv2

    from companion.errors import UserError

    fourcc = cv2.VideoWriter.fourcc(*("mp4v" if path.suffix.lower() == ".mp4" else "MJPG"))
    writer = cv2.VideoWriter(str(path), fourcc, fps, size)
    if not writer.isOpened():
        raise UserError(f"cannot write the video {path}")
    return writer
