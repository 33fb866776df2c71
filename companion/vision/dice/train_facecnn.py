"""Train the convolutional face reader (``facecnn.py``) on rendered dome crops, pip or digit dice.

The second reader re-reads only the window the shipped classifier
(``facenet.pip_net``) located, when that one was not sure enough
(docs/vision-dice.md, "Session 15"). It is trained on the same kind of
labelled canonical patches as the classifier (``train_facenet.patches_from``:
the face jittered at any quarter turn = its value; near misses, wrong turns
and places elsewhere = "no face"), plus, as "no face", the windows the
*shipped* classifier takes for a face where there is none
(``train_facenet.hard_negatives`` run with ``pip_net()``): exactly the
windows it will be asked about. Hands over the dome (the ``hidden`` sets)
are used as settled dice under a hand: "no face" away from the die, and
the hand's face-like windows as hard negatives.

Torch is used for training only, from a separate environment (the package
itself reads the weights with numpy)::

    python3 -m venv /tmp/torchenv && /tmp/torchenv/bin/pip install torch numpy
    # the repository's own dependencies too, for the rendering and patch code:
    /tmp/torchenv/bin/pip install opencv-python-headless

The command that made the shipped ``pip_faces_cnn.npz`` (the render cache
of ``train_facenet``; about 3 minutes of patch cutting and mining, and 5 to
40 of training, 8 epochs, as the 2-core box was loaded) is given in
docs/vision-dice.md, "Session 15"; run it from the repository with the
venv's python.

``--edition digits`` (session 15b) trains the digit dice's second reader
(``digit_faces_cnn.npz``) the same way on ``train_digitnet``'s renders and
patches (the digit upright = its value, the other quarter turns "no face"),
with the windows the shipped digit classifier (``digitnet.digit_net``)
takes for a digit where there is none as hard negatives; its patches are
not turned at random in training (a digit turned is no digit).
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from companion.vision.dice.canonical import features
from companion.vision.dice.facecnn import FaceCNN
from companion.vision.dice.facenet import CLASSES, NO_FACE, pip_net
from companion.vision.dice.train_facenet import (
    _layers,
    _seed_range,
    augment,
    hard_negatives,
    patches_from,
    render_set,
)

#: Channels of the two convolutions and width of the hidden dense layer.
CHANNELS = (12, 24)
DENSE = 64
#: Patches per training step.
BATCH = 512


def training_patches(args: argparse.Namespace,
                     rng: np.random.Generator) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
    """Feature rows (``canonical.features`` of augmented patches) and labels."""
    xs: list[NDArray[np.float32]] = []
    ys: list[int] = []
    hard: list[NDArray[np.float32]] = []
    plan = [(s, "settled", False) for s in args.settled] + [(s, "cocked", False) for s in args.cocked]
    plan += [(s, "hidden", False) for s in args.hands]
    plan += [(s, "settled", True) for s in args.small_settled]
    plan += [(s, "cocked", True) for s in args.small_cocked]
    plan += [(s, "hidden", True) for s in args.small_hands]
    for seeds, state, small in plan:
        started = time.perf_counter()
        crops, meta = render_set(seeds, state, args.cache, "pips", small, args.small_glare)
        if state == "hidden":
            # A hand over the dome with the die's face known: as a settled die
            # (under the hand or not, as ``covered`` says).
            meta = meta.copy()
            meta[:, 2] = 0
        px, py = patches_from(crops, meta, rng)
        mined = hard_negatives(pip_net(), crops, meta)
        xs += px
        ys += py
        hard += mined
        kind = "640x480" if small else "1280x720"
        print(f"{state} {kind} {seeds.start}:{seeds.stop}: {len(crops)} crops, {len(px)} patches, "
              f"{len(mined)} hard negatives ({time.perf_counter() - started:.0f} s)", flush=True)
    return _stacked(xs, ys, hard, rng)


def _stacked(xs: list[NDArray[np.float32]], ys: list[int], hard: list[NDArray[np.float32]],
             rng: np.random.Generator) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
    """The patches (augmented, as feature rows) and their classes, the hard
    negatives last as "no face"."""
    x = np.concatenate([features(augment(np.stack(xs).astype(np.float32), rng)),
                        features(augment(np.stack(hard).astype(np.float32), rng))])
    y = np.concatenate([np.asarray(ys, np.int64), np.full(len(hard), NO_FACE, np.int64)])
    return x, y


def digit_training_patches(args: argparse.Namespace,
                           rng: np.random.Generator) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
    """As :func:`training_patches`, for digit dice (``train_digitnet``'s renders and patches)."""
    from companion.vision.dice import train_digitnet
    from companion.vision.dice.digitnet import digit_net

    xs: list[NDArray[np.float32]] = []
    ys: list[int] = []
    hard: list[NDArray[np.float32]] = []
    plan = [(s, "settled", "digits") for s in args.settled] + [(s, "cocked", "digits") for s in args.cocked]
    plan += [(s, "hidden", "digits") for s in args.hands]
    plan += [(s, "settled", "pips") for s in args.pip_dice]
    for seeds, state, edition in plan:
        started = time.perf_counter()
        crops, meta = train_digitnet.render_set(seeds, state, edition, args.cache, args.workers)
        before = len(xs)
        for crop, row in zip(crops, meta, strict=True):
            train_digitnet.patches_of(crop, row, rng, xs, ys)
        mined = train_digitnet.hard_negatives(digit_net(), crops, meta)
        hard += mined
        print(f"{state} {edition} {seeds.start}:{seeds.stop}: {len(crops)} crops, {len(xs) - before} patches, "
              f"{len(mined)} hard negatives ({time.perf_counter() - started:.0f} s)", flush=True)
    return _stacked(xs, ys, hard, rng)


def train(x: NDArray[np.float32], y: NDArray[np.int64], epochs: int, seed: int,
          channels: tuple[int, ...] = CHANNELS, turn_freely: bool = True) -> FaceCNN:
    """conv3x3-relu-pool twice, dense-relu, dense; Adam, the rate cut at 60% and 85%.

    *turn_freely*: each batch is turned by a random quarter turn (a pip face
    is the same face at any quarter turn; a digit is not: False)."""
    try:
        import torch
        from torch import nn
    except ImportError:
        raise SystemExit("training the face CNN needs torch (a separate venv, see the module doc)") from None
    torch.manual_seed(seed)
    c1, c2 = channels
    side = int(round(math.sqrt(x.shape[1])))
    model = nn.Sequential(
        nn.Conv2d(1, c1, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(c1, c2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(c2 * (side // 4) ** 2, DENSE), nn.ReLU(), nn.Linear(DENSE, CLASSES),
    )
    tx = torch.from_numpy(x.reshape(-1, 1, side, side))
    ty = torch.from_numpy(y)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.MultiStepLR(
        opt, [int(0.6 * epochs), int(0.85 * epochs)], gamma=0.2)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(tx), generator=gen)
        total, started = 0.0, time.perf_counter()
        for start in range(0, len(tx), BATCH):
            idx = order[start : start + BATCH]
            batch = tx[idx]
            # Any quarter turn of a face is the same face: turned at random.
            if turn_freely:
                batch = torch.rot90(batch, int(torch.randint(4, (1,), generator=gen)), (2, 3))
            opt.zero_grad()
            loss = loss_fn(model(batch), ty[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        print(f"  epoch {epoch + 1}/{epochs}: loss {total / len(tx):.4f} "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    conv1, conv2, dense1, dense2 = (model[0], model[3], model[7], model[9])

    def arr(t: torch.Tensor) -> NDArray[np.float32]:
        return np.asarray(t.detach().numpy(), np.float32)

    return FaceCNN(arr(conv1.weight), arr(conv1.bias), arr(conv2.weight), arr(conv2.bias),
                   arr(dense1.weight).T.copy(), arr(dense1.bias), arr(dense2.weight).T.copy(),
                   arr(dense2.bias))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.dice.train_facecnn",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--edition", choices=("pips", "digits"), default="pips",
                        help="train the pip dice's reader or the digit dice's (default %(default)s)")
    parser.add_argument("--settled", type=_seed_range, action="append", default=[],
                        help="seed range FIRST:END of settled dice (of --edition) at 1280x720 (repeatable)")
    parser.add_argument("--cocked", type=_seed_range, action="append", default=[])
    parser.add_argument("--hands", type=_seed_range, action="append", default=[],
                        help="seed range of hands over the dome at 1280x720 (repeatable)")
    parser.add_argument("--pip-dice", type=_seed_range, action="append", default=[],
                        help="with --edition digits: seed range of settled pip dice (no-face examples)")
    parser.add_argument("--workers", type=int, default=2,
                        help="with --edition digits: rendering processes for uncached sets (default 2)")
    parser.add_argument("--small-settled", type=_seed_range, action="append", default=[])
    parser.add_argument("--small-cocked", type=_seed_range, action="append", default=[])
    parser.add_argument("--small-hands", type=_seed_range, action="append", default=[])
    parser.add_argument("--small-glare", type=float, default=0.3)
    parser.add_argument("--cache", type=Path, help="folder keeping the rendered samples")
    parser.add_argument("--patches", type=Path,
                        help="keep the training patches here (.npz), and reuse them when present")
    parser.add_argument("--out", type=Path, required=True, help="where to write the .npz")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--channels", type=_layers, default=CHANNELS,
                        help="channels of the two convolutions (default %(default)s)")
    parser.add_argument("--no-face-share", type=float, default=0.5,
                        help="train on this share of the no-face patches, drawn at random "
                             "(they are two thirds of all; default %(default)s)")
    args = parser.parse_args(argv)
    if args.patches is not None and args.patches.is_file():
        with np.load(args.patches) as data:
            x, y = np.asarray(data["x"], np.float32), np.asarray(data["y"], np.int64)
    else:
        gather = digit_training_patches if args.edition == "digits" else training_patches
        x, y = gather(args, np.random.default_rng(args.seed))
        if args.patches is not None:
            np.savez(args.patches, x=x, y=y)
    keep = (y != NO_FACE) | (np.random.default_rng(args.seed + 1).uniform(size=len(y)) < args.no_face_share)
    x, y = x[keep], y[keep]
    print(f"training on {len(y)} patches: " + ", ".join(
        f"{c}: {int((y == c).sum())}" for c in range(CLASSES)), flush=True)
    net = train(x, y, args.epochs, args.seed, args.channels, turn_freely=args.edition == "pips")
    net.save(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
