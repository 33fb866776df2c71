"""``companion enroll-voice``: teach the companion how a player says one to six.

With ``--wav FILE...`` the takes come from WAV files (any rate, width or
channel count). Each file's number is, in order of precedence:

* the ``--numbers`` list (``--numbers 1,2,3,4,5,6``: one number per file,
  in the order of the files), or
* the file name: the first part of the name (split at ``_``, ``-``, ``.``
  and spaces) that is a digit 1-6 or a word one..six (``five.wav``,
  ``5_george_0.wav``, ``anna-three-2.wav``).

Every number one to six needs at least one take. Each take is also decoded
by PocketSphinx against the digits alone (``--no-check`` skips this): when
it hears another number, a note is printed (the take is kept: mishearing a
speaker is what enrollment is for, but a note on many takes points at
mislabelled files).

Without ``--wav`` it asks on the microphone: "Say one", "Say two", ... (each
number ``--takes`` times); with no microphone it says so and exits 2.

The profile is written to ``voices/NAME.json`` in the user data folder
(``--name``, default ``player``); enrolling the same name again replaces it.
A corrupt existing file of that name is reported, never overwritten
silently (delete it, or pass ``--replace``).
"""

from __future__ import annotations

import argparse
import queue
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import UserError

if TYPE_CHECKING:
    from companion.voice.audio import Samples

#: Seconds to wait for a take on the microphone before giving up.
MIC_TIMEOUT_S = 10.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wav", nargs="+", type=Path, metavar="FILE",
                        help="labelled takes (see --numbers); without it, the microphone")
    parser.add_argument("--numbers", metavar="N,N,...",
                        help="the number said in each --wav file, in order (e.g. 1,2,3,4,5,6)")
    parser.add_argument("--name", default="player",
                        help="the player's profile name (default: player)")
    parser.add_argument("--takes", type=int, default=2, choices=(1, 2, 3),
                        help="microphone: how many times to say each number (default 2)")
    parser.add_argument("--no-check", action="store_true",
                        help="do not decode the takes with PocketSphinx to check their labels")
    parser.add_argument("--replace", action="store_true",
                        help="replace an existing profile of this name even if it is corrupt")


def number_from_name(path: Path) -> int | None:
    """The number a file's name says (see the module docstring), or None."""
    from companion.voice.enroll import NUMBERS, WORDS

    by_word = {w: n for n, w in WORDS.items()}
    for part in re.split(r"[_\-. ]+", path.stem.lower()):
        if part.isdigit() and int(part) in NUMBERS:
            return int(part)
        if part in by_word:
            return by_word[part]
    return None


def parse_numbers(text: str, count: int) -> list[int]:
    """``--numbers``: one number 1..6 per file; UserError otherwise."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    out = []
    for p in parts:
        if not p.isdigit() or not 1 <= int(p) <= 6:
            raise UserError(f"--numbers: {p!r} is not a number from 1 to 6")
        out.append(int(p))
    if len(out) != count:
        raise UserError(f"--numbers gives {len(out)} numbers for {count} WAV files")
    return out


def takes_from_files(files: list[Path], numbers: str | None) -> list[tuple[int, Samples, str]]:
    from companion.voice.audio import read_wav

    if numbers is not None:
        labels: list[int | None] = list(parse_numbers(numbers, len(files)))
    else:
        labels = [number_from_name(f) for f in files]
        unlabelled = [str(f) for f, n in zip(files, labels, strict=True) if n is None]
        if unlabelled:
            raise UserError(f"cannot tell which number is said in {', '.join(unlabelled)}: "
                            "name the files after it (five.wav) or give --numbers")
    out = []
    for f, n in zip(files, labels, strict=True):
        assert n is not None
        out.append((n, read_wav(f).samples, str(f)))
    return out


def takes_from_microphone(takes: int) -> list[tuple[int, Samples, str]]:
    from companion.voice.endpoint import Endpointer
    from companion.voice.enroll import NUMBERS, WORDS
    from companion.voice.listener import open_microphone

    mic = open_microphone()  # UserError (exit 2) when there is none
    out = []
    with mic as blocks:
        for n in NUMBERS:
            for take in range(takes):
                print(f"Say {WORDS[n]}" + (f" (take {take + 1} of {takes})" if takes > 1 else ""),
                      file=sys.stderr, flush=True)
                endpointer = Endpointer()
                deadline = time.monotonic() + MIC_TIMEOUT_S
                heard = None
                while heard is None:
                    if time.monotonic() > deadline:
                        raise UserError(f"heard nothing for {MIC_TIMEOUT_S:.0f} s after "
                                        f"\"Say {WORDS[n]}\"; nothing was saved")
                    try:
                        block = blocks.get(timeout=0.2)
                    except queue.Empty:
                        continue
                    utterances = endpointer.feed(block)
                    heard = utterances[0] if utterances else None
                out.append((n, heard.samples, f"microphone take {take + 1} of {WORDS[n]}"))
                while not blocks.empty():  # drop what came in meanwhile
                    blocks.get_nowait()
    return out


def check_with_recogniser(takes: list[tuple[int, Samples, str]]) -> int:
    """Decode each take against the digits alone; print a note for each one
    heard as another number. Returns how many."""
    from companion.voice.enroll import WORDS
    from companion.voice.grammar import Context
    from companion.voice.recognisers import PocketSphinxRecogniser

    recogniser = PocketSphinxRecogniser()
    notes = 0
    for number, samples, source in takes:
        hyp = recogniser.decode(samples, Context.DIGITS)
        if hyp.text != WORDS[number]:
            notes += 1
            heard = repr(hyp.text) if hyp.text else "nothing"
            print(f"note: {source}: labelled {WORDS[number]}, PocketSphinx heard {heard} "
                  "(kept)", file=sys.stderr)
    return notes


def run(args: argparse.Namespace) -> int:
    from companion.voice import enroll

    path = enroll.profile_path(args.name)
    if path.exists() and not args.replace:
        enroll.load_profile(path)  # a corrupt file is reported, not overwritten
    if args.numbers is not None and not args.wav:
        raise UserError("--numbers labels --wav files; give the files too")
    if args.wav:
        takes = takes_from_files(list(args.wav), args.numbers)
    else:
        takes = takes_from_microphone(args.takes)
    for _n, samples, source in takes:
        try:
            enroll.check_take(samples)
        except ValueError as exc:
            raise UserError(f"{source}: {exc}; nothing was saved") from None
    try:
        profile = enroll.Profile.from_takes(args.name, [(n, s) for n, s, _src in takes])
    except ValueError as exc:
        raise UserError(f"cannot enroll: {exc}; nothing was saved") from None
    checked = "" if args.no_check else (f"; {check_with_recogniser(takes)} of {len(takes)} "
                                        "takes heard otherwise by PocketSphinx")
    replaced = path.exists()
    enroll.save_profile(profile, path)
    counts = ", ".join(f"{enroll.WORDS[n]} x{len(t)}" for n, t in profile.templates.items())
    print(f"{'replaced' if replaced else 'saved'} voice profile {args.name!r} in {path} "
          f"({counts}{checked})")
    return 0
