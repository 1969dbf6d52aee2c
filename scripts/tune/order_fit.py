#!/usr/bin/env python3
"""Fits learned move-ordering corrections to the moves Rensa's search played in its
self-play games, and writes them in the format src/cells/order.rs read. An experiment of
session 27: the corrections played worse at equal nodes and the engine's reader was taken
out again (commit 1a83d2b has it; scripts/tune/README.md, "a learned move ordering").

    cargo build --release --example policy_dump
    target/release/examples/policy_dump FILE.rnsp... > moves.txt
    python3 scripts/tune/order_fit.py moves.txt --out order.bin

The model is a softmax over a position's candidate cells: the hand-set ordering score
(crate::eval::move_score) times a fitted temperature, plus a value by the cell's pattern
code for the side to move, one by its code for the opponent and one by the pair of threat
classes. The corrections are written in the ordering score's units (divided by the
temperature), so the engine adds them to the score it already has. Every tenth game (by
file and game number) is held out; the report gives how often the played move is among
the first k of each ordering there. Deterministic on the CPU for a given --seed.
"""

import argparse
import sys
import time

import numpy as np
import torch

CODES = 1365
THREATS = 14
MAGIC = b"RNSORD01"


def load(paths):
    """Candidates (x y my_code opp_code my_threat opp_threat move_score), and per position
    its game, the index of the played candidate and where its candidates start."""
    rows, games, played, start, n = [], [], [], [], 0
    for fi, path in enumerate(paths):
        with open(path) as f:
            for line in f:
                if line[0] == "P":
                    _, game, i, count = line.split()
                    games.append(fi * 1_000_000 + int(game))
                    played.append(n + int(i))
                    start.append(n)
                    n += int(count)
                else:
                    rows.append(line)
    cands = np.array([r.split() for r in rows], dtype=np.int64)
    return cands, np.array(games), np.array(played), np.array(start + [n])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="policy_dump's output")
    ap.add_argument("--out", help="the engine's table file to write")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)

    t0 = time.time()
    cands, games, played, start = load(a.files)
    val = games % 10 == 7
    train_pos, val_pos = np.nonzero(~val)[0], np.nonzero(val)[0]
    print(f"{len(games)} positions ({len(train_pos)} train), {len(cands)} candidates, "
          f"{time.time() - t0:.0f} s", flush=True)
    score = torch.from_numpy(cands[:, 6].astype(np.float32) / 100.0)
    mine, theirs = torch.from_numpy(cands[:, 2]), torch.from_numpy(cands[:, 3])
    pair = torch.from_numpy(cands[:, 4] * THREATS + cands[:, 5])
    temp = torch.zeros(1, requires_grad=True)
    tables = [torch.zeros(CODES, requires_grad=True), torch.zeros(CODES, requires_grad=True),
              torch.zeros(THREATS * THREATS, requires_grad=True)]

    def base(i):
        return temp * score[i]

    def full(i):
        return temp.detach() * score[i] + tables[0][mine[i]] + tables[1][theirs[i]] + tables[2][pair[i]]

    def nll(pos, logits):
        """Mean negative log-likelihood of the played moves of positions `pos`."""
        counts = start[pos + 1] - start[pos]
        idx = torch.from_numpy(np.concatenate([np.arange(start[p], start[p + 1]) for p in pos]))
        seg = torch.from_numpy(np.repeat(np.arange(len(pos)), counts))
        lg = logits(idx)
        top = torch.zeros(len(pos)).scatter_reduce(0, seg, lg, reduce="amax", include_self=False)
        total = torch.zeros(len(pos)).index_add(0, seg, torch.exp(lg - top[seg]))
        return -(logits(torch.from_numpy(played[pos])) - top - torch.log(total)).mean()

    # the hand-set score's temperature first, then the corrections on top of it
    opt = torch.optim.Adam([temp], lr=0.05)
    for _ in range(400):
        loss = nll(rng.choice(train_pos, 2048), base)
        opt.zero_grad()
        loss.backward()
        opt.step()
    opt = torch.optim.Adam(tables, lr=0.05)
    for epoch in range(a.epochs):
        rng.shuffle(train_pos)
        for i in range(0, len(train_pos), 1024):
            loss = nll(train_pos[i:i + 1024], full)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            print(f"epoch {epoch}: validation {nll(val_pos, full).item():.4f} "
                  f"(hand-set score alone {nll(val_pos, base).item():.4f})", flush=True)

    # in the ordering score's units, as the engine adds them
    unit = 100.0 / temp.item()  # the model reads the score in hundreds
    ints = [np.round(t.detach().numpy() * unit) for t in tables]
    learned = cands[:, 6] + ints[0][cands[:, 2]] + ints[1][cands[:, 3]] + ints[2][cands[:, 4] * THREATS + cands[:, 5]]
    for name, s in [("hand-set", cands[:, 6]), ("learned", learned)]:
        ranks = []
        for p in val_pos:
            own = s[start[p]:start[p + 1]]
            # the engine's order: score, then cell (the candidates come in cell order)
            order = np.lexsort((np.arange(len(own)), -own))
            ranks.append(int(np.nonzero(order == played[p] - start[p])[0][0]))
        ranks = np.array(ranks)
        print(f"{name}: played move first {np.mean(ranks < 1):.3f}, in the first 3 {np.mean(ranks < 3):.3f}, "
              f"5 {np.mean(ranks < 5):.3f}, 10 {np.mean(ranks < 10):.3f}; mean rank {ranks.mean():.2f}")
    if a.out:
        words = np.concatenate(ints)
        if np.abs(words).max() > 32767:
            sys.exit("corrections too large for i16")
        with open(a.out, "wb") as f:
            f.write(MAGIC + words.astype("<i2").tobytes())
        print(f"wrote {a.out}", flush=True)


if __name__ == "__main__":
    main()
