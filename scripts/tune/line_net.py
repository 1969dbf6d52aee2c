#!/usr/bin/env python3
"""Fits a line-shape value network (the shape of Rapfi's Mix6: a learned vector for every
cell's line window in each of the four directions, summed per cell, clipped, pooled over the
board, then a small MLP) to Rensa's search scores, and reports its held-out error beside the
shipped network's. An experiment for issue 11, not a trainer of shipped weights: `--export`
(with `--dim 32`, the only width src/cells/line.rs reads) writes weights that only a build with
`--features line-net` plays; the default build ignores them (see scripts/tune/README.md, "A
line-shape network").

    pip install -r scripts/tune/requirements.txt
    cargo build --release --example eval_dump
    target/release/examples/eval_dump LABELS.rnsp... > shipped.txt
    python3 scripts/tune/line_net.py --shipped shipped.txt LABELS.rnsp...

LABELS are self-play files (src/selfplay.rs): positions, the side to move, a search score and
the result. Freestyle or standard, any one board size. The target is sigmoid(score / K);
the validation set is every tenth game (by file and game number). `--device cuda` trains on
a GPU where there is one. Deterministic on the CPU for a given --seed.
"""

import argparse
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from selfplay_read import records  # noqa: E402  (scripts/selfplay_read.py)

EMPTY, OWN, OPP, WALL = 0, 1, 2, 3
DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def load(paths, radius):
    """Boards from the side to move's view (padded with walls), scores, results (1 a win for
    the side to move, 0 a draw, -1 a loss), game ids, board size."""
    boards, scores, results, games, size = [], [], [], [], None
    for fi, path in enumerate(paths):
        for game, _rule, w, h, side, result, score, stones in records(open(path, "rb").read()):
            if size is None:
                size = (w, h)
            if (w, h) != size:
                sys.exit(f"{path}: boards of more than one size")
            b = np.full((h + 2 * radius, w + 2 * radius), WALL, np.int8)
            b[radius:radius + h, radius:radius + w] = EMPTY
            for x, y, colour in stones:
                b[radius + y, radius + x] = OWN if colour == side else OPP
            boards.append(b)
            scores.append(score)
            results.append(result)
            games.append(fi * 1_000_000 + game)
    return np.stack(boards), np.array(scores, np.float32), np.array(results, np.float32), np.array(games), size


def shape_codes(boards, radius, size):
    """For every position, direction and cell the index of its line window: the cell itself
    (empty, own, opponent) and its 2*radius neighbours (empty, own, opponent or wall), one
    index for a window and its mirror image."""
    w, h = size
    n = len(boards)
    side = 2 * radius
    codes = np.zeros((n, 4, h, w), np.int32)
    for d, (dx, dy) in enumerate(DIRECTIONS):
        c = boards[:, radius:radius + h, radius:radius + w].astype(np.int32)
        for k in [k for k in range(-radius, radius + 1) if k != 0]:
            v = boards[:, radius + k * dy:radius + k * dy + h, radius + k * dx:radius + k * dx + w]
            c = c * 3 + np.minimum(v, OPP).astype(np.int32)  # a wall blocks as a stone does
        codes[:, d] = c
    # the mirror image of a window: the neighbour digits in reverse order
    count = 3 ** (side + 1)
    mirror = np.zeros(count, np.int64)
    for code in range(count):
        digits = [(code // 3 ** i) % 3 for i in range(side)]  # neighbours, last one first
        mirror[code] = (code // 3 ** side) * 3 ** side + sum(d * 3 ** (side - 1 - i) for i, d in enumerate(digits))
    canon = np.minimum(np.arange(count), mirror)
    shapes, index = np.unique(canon, return_inverse=True)
    return index[codes].astype(np.int16 if len(shapes) < 32768 else np.int32), len(shapes)


class LineNet(nn.Module):
    def __init__(self, shapes, dim, hidden):
        super().__init__()
        self.shape = nn.Embedding(shapes, dim)
        nn.init.normal_(self.shape.weight, 0.0, 0.1)
        self.l1 = nn.Linear(dim, hidden)
        self.l2 = nn.Linear(hidden, 1)

    def forward(self, codes):
        b = codes.shape[0]
        cell = self.shape(codes.view(b, 4, -1).long()).sum(1)  # (b, cells, dim)
        pooled = torch.clamp(cell, 0.0, 1.0).sum(1) / 32.0
        return self.l2(torch.clamp(self.l1(pooled), 0.0, 1.0)).squeeze(-1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="self-play files (.rnsp)")
    ap.add_argument("--train-only", action="append", default=[], metavar="FILE",
                    help="a self-play file whose positions only train (after FILES, in eval_dump's list)")
    ap.add_argument("--shipped", help="eval_dump's output for the same files: the baseline")
    ap.add_argument("--radius", type=int, default=3, help="cells each side of a window's centre")
    ap.add_argument("--dim", type=int, default=64, help="a window's vector")
    ap.add_argument("--hidden", type=int, default=32, help="the MLP's hidden units")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=3e-3, help="Adam's step, times 0.7 each epoch")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--K", type=float, default=626.0, help="score scale: target sigmoid(score/K)")
    ap.add_argument("--blend", type=float, default=0.0,
                    help="share of the game result in the target (the rest: sigmoid(score / K))")
    ap.add_argument("--residual", action="store_true", help="learn a correction to the shipped values")
    ap.add_argument("--scale", type=float,
                    help="the shipped values' scale under --residual (default: the best fit); "
                         "the engine plays scale x shipped + the correction")
    ap.add_argument("--export", metavar="FILE", help="write the trained weights for the engine (src/cells/line.rs; needs --dim 32)")
    ap.add_argument("--dump", metavar="FILE",
                    help="write 'position shipped correction' for the first 2,000 validation positions, "
                         "the correction in evaluation units (to check the engine's inference)")
    ap.add_argument("--train-share", type=float, default=1.0,
                    help="train on this share of the training games only (a learning curve)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)

    t0 = time.time()
    boards, scores, results, games, size = load(a.files + a.train_only, a.radius)
    codes, shapes = shape_codes(boards, a.radius, size)
    del boards
    val = (games % 10 == 7) & (games < len(a.files) * 1_000_000)
    # a share of the training games, chosen by game so that it holds whole games
    keep = (games * 2654435761 % 1000) < a.train_share * 1000
    train = np.nonzero(~val & keep)[0]
    print(f"{len(scores)} positions ({len(train)} train, {val.sum()} validation), {size[0]}x{size[1]}, "
          f"{shapes} window shapes, {time.time() - t0:.0f} s", flush=True)
    sig = lambda x: 1.0 / (1.0 + np.exp(-x / a.K))
    target = sig(scores)
    if a.blend:
        # the game's result in part: what the rest of the game said, not only this search
        target = (1 - a.blend) * target + a.blend * (results + 1) / 2
        print(f"target: {1 - a.blend:.2f} x the score's, {a.blend:.2f} x the result; the validation "
              f"error below is against it", flush=True)

    base = np.zeros(len(scores), np.float32)
    if a.shipped:
        d = np.loadtxt(a.shipped, dtype=np.int64, ndmin=2)
        if len(d) != len(scores) or (d[:, 1] != scores).any():
            sys.exit(f"{a.shipped} does not list these files' positions")
        shipped = d[:, 2].astype(np.float32)
        # the shipped values at their best scale on the training positions
        err = lambda s, idx: float(np.mean((sig(s * shipped[idx]) - target[idx]) ** 2))
        scale = min(np.arange(0.5, 2.5, 0.05), key=lambda s: err(s, train))
        print(f"shipped network (x{scale:.2f}): train {err(scale, train):.5f} "
              f"validation {err(scale, val):.5f}", flush=True)
        if a.scale is not None:
            scale = a.scale
            print(f"shipped network (x{scale:.2f}): train {err(scale, train):.5f} "
                  f"validation {err(scale, val):.5f}", flush=True)
        if a.residual:
            base = (scale * shipped / a.K).astype(np.float32)
    elif a.residual:
        sys.exit("--residual needs --shipped")

    dev = torch.device(a.device)
    net = LineNet(shapes, a.dim, a.hidden).to(dev)
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    codes_t = torch.from_numpy(codes)
    target_t = torch.from_numpy(target.astype(np.float32))
    base_t = torch.from_numpy(base)
    val_idx = torch.from_numpy(np.nonzero(val)[0])

    def predict(idx):
        return torch.sigmoid(base_t[idx].to(dev) + net(codes_t[idx].to(dev)))

    for epoch in range(a.epochs):
        t0 = time.time()
        net.train()
        rng.shuffle(train)
        total = 0.0
        for i in range(0, len(train), a.batch):
            idx = torch.from_numpy(train[i:i + a.batch])
            loss = ((predict(idx) - target_t[idx].to(dev)) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        for g in opt.param_groups:
            g["lr"] *= 0.7
        net.eval()
        with torch.no_grad():
            v = sum(((predict(idx) - target_t[idx].to(dev)) ** 2).sum().item()
                    for idx in val_idx.split(1024))
        print(f"epoch {epoch}: train {total / len(train):.5f} validation {v / len(val_idx):.5f} "
              f"({time.time() - t0:.0f} s)", flush=True)
    if a.export:
        export(net, a, scale if a.residual else 0.0, shapes)
    if a.dump:
        with torch.no_grad(), open(a.dump, "w") as f:
            idx = val_idx[:2000]
            out = net(codes_t[idx].to(dev)).cpu().numpy() * a.K
            for i, o in zip(idx.tolist(), out):
                f.write(f"{i} {int(shipped[i]) if a.shipped else 0} {o:.3f}\n")


EMB_ONE = 512  # the engine's integer for 1.0 in a window's vector (the clip)


def export(net, a, scale, shapes):
    """The engine's weight file (src/cells/line.rs reads it): a header, the window vectors as
    integers (1.0 = EMB_ONE), then the MLP in f32, all little-endian."""
    emb = net.shape.weight.detach().cpu().numpy()
    q = np.round(emb * EMB_ONE)
    if np.abs(q).max() > 32767 // 4:
        sys.exit("window vectors too large for the engine's i16 sums")
    head = np.array([a.radius, a.dim, a.hidden, shapes, EMB_ONE], "<u4").tobytes()
    floats = np.array([a.K, scale], "<f4").tobytes()
    mlp = [net.l1.weight, net.l1.bias, net.l2.weight, net.l2.bias]
    body = q.astype("<i2").tobytes() + b"".join(p.detach().cpu().numpy().astype("<f4").tobytes() for p in mlp)
    with open(a.export, "wb") as f:
        f.write(b"RNSLINE1" + head + floats + body)
    print(f"wrote {a.export}: {8 + len(head) + len(floats) + len(body)} bytes", flush=True)


if __name__ == "__main__":
    main()
