"""``companion say "TEXT" [--out FILE.wav]``: speak one sentence.

With ``--out`` the sentence is rendered to a WAV file (no sound card needed).
Without it the sentence is printed and played; with no audio device, the
text is still printed with a note saying so.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from companion.errors import UserError, os_reason


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", help="the sentence to speak")
    parser.add_argument("--out", type=Path, metavar="FILE.wav",
                        help="write the speech to this WAV file instead of playing it")
    parser.add_argument("--rate", type=int, help="words per minute (engine default about 200)")
    parser.add_argument("--volume", type=float, default=1.0, help="0.0 to 1.0 (default 1.0)")
    parser.add_argument("--voice", help="an espeak-ng voice id, e.g. gmw/en-us")


def run(args: argparse.Namespace) -> int:
    from companion.voice.speaker import (
        Player,
        Speaker,
        Synthesiser,
        SynthesisError,
        write_scaled_wav,
    )

    text = " ".join(str(args.text).split())
    if not text:
        raise UserError("nothing to say: the text is empty")
    if not 0.0 <= args.volume <= 1.0:
        raise UserError(f"--volume must be between 0 and 1, not {args.volume}")
    if args.rate is not None and not 40 <= args.rate <= 600:
        raise UserError(f"--rate must be between 40 and 600 words per minute, not {args.rate}")
    if args.out is not None:
        out: Path = args.out
        if out.suffix.lower() != ".wav":
            raise UserError(f"{out}: the output file must end in .wav")
        if not out.parent.is_dir():
            raise UserError(f"{out}: folder {out.parent} does not exist")
        if out.is_dir():
            raise UserError(f"{out} is a folder, not a WAV file")
        synth = Synthesiser()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                raw = Path(tmp) / "say.wav"
                synth.render(text, raw, rate=args.rate, voice=args.voice)
                try:
                    write_scaled_wav(raw, out, args.volume)
                except OSError as exc:
                    raise UserError(f"cannot write {out}: {os_reason(exc)}") from None
        except SynthesisError as exc:
            raise UserError(f"could not synthesise speech: {exc}") from None
        finally:
            synth.close()
        print(f"wrote {out}")
        return 0
    player = Player()
    if not player.available:
        print(text)
        print(f"note: {player.problem}; printed the text only (use --out FILE.wav to save "
              "the speech)", file=sys.stderr)
        return 0
    with Speaker(rate=args.rate, volume=args.volume, voice=args.voice, prefix="") as speaker:
        speaker.say(text)
    return 0
