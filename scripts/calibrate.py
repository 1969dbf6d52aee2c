#!/usr/bin/env python3
"""Fit the win-probability scale K of each rule (eval::win_probability_scale): the K for which
sigmoid(score / K) best predicts the game's result, by maximum likelihood, over the positions
that `pbrain-rensa analyze` searched (proven scores left out).

    python3 scripts/calibrate.py [--engine target/release/pbrain-rensa] [--games 300]
        [--nodes 20000] [--analyze-nodes 30000] [--seed 72] [--dir target/calibrate]

Plays --games self-play games (`selfplay --sgf`, balanced openings, every rule on 15x15
and 20x20), analyses them (`analyze --json`) and prints K per rule with the log-loss at K
and at the shipped scale. Given --records FILE.sgf/.psq/ZIP instead, it analyses those
(their results from the records: SGF RE, the .psq result line). Python 3 standard library.
"""
import argparse, json, math, os, re, subprocess, sys, zipfile
from collections import defaultdict

RULES = {0: "freestyle", 1: "standard", 4: "renju", 8: "caro", 9: "caro-exact"}


def results_from_sgf(path):
    text = open(path, encoding="utf-8").read()
    games = re.findall(r"\(;FF\[4\].*?\)\n", text, re.S)
    out = {}
    for i, g in enumerate(games):
        m = re.search(r"RE\[(.)", g)
        ru = re.search(r"RU\[(\d+)\]", g)
        winner = {"B": "black", "W": "white"}.get(m.group(1)) if m else None
        key = f"{path}#{i + 1}" if len(games) > 1 else path
        out[key] = (winner, RULES.get(int(ru.group(1)), "freestyle") if ru else None)
    return out


def results_from_psq_zip(path):
    out = {}
    with zipfile.ZipFile(path) as z:
        for n in z.namelist():
            lines = z.read(n).decode(errors="replace").splitlines()
            code = next((l.split(",")[0] for l in lines if re.match(r"^\d+,\D", l)), None)
            out[f"{path}:{n}"] = ({"1": "black", "2": "white"}.get(code), None)
    return out


def fit(points):
    def nll(k):
        t = 0.0
        for s, y in points:
            p = min(max(1 / (1 + math.exp(-s / k)), 1e-9), 1 - 1e-9)
            t -= y * math.log(p) + (1 - y) * math.log(1 - p)
        return t / len(points)
    lo, hi = 50.0, 5000.0
    for _ in range(60):
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if nll(a) < nll(b):
            hi = b
        else:
            lo = a
    k = (lo + hi) / 2
    return k, nll(k), nll


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/pbrain-rensa")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--analyze-nodes", type=int, default=30000)
    ap.add_argument("--seed", type=int, default=72)
    ap.add_argument("--dir", default="target/calibrate")
    ap.add_argument("--records", help="analyse these records instead of playing games")
    ap.add_argument("--rule", help="the rule of --records that do not name one")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    if a.records:
        records = a.records
    else:
        records = os.path.join(a.dir, "games.sgf")
        for f in (records, os.path.join(a.dir, "games.bin")):
            if os.path.exists(f):
                os.remove(f)
        subprocess.run([a.engine, "selfplay", "--out", os.path.join(a.dir, "games.bin"), "--games",
                        str(a.games), "--nodes", str(a.nodes), "--seed", str(a.seed), "--sgf", records],
                       check=True, stderr=subprocess.DEVNULL)
    cmd = [a.engine, "analyze", "--nodes", str(a.analyze_nodes), "--json", records]
    if a.rule:
        cmd[2:2] = ["--rule", a.rule]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    known = results_from_psq_zip(records) if records.endswith(".zip") else results_from_sgf(records)
    by_rule = defaultdict(list)
    for line in out.splitlines():
        o = json.loads(line)
        winner, rule = known.get(o["source"], (None, None))
        rule = rule or a.rule or "freestyle"
        s = o["best_score"]
        if abs(s) >= 29000:
            continue
        y = 0.5 if winner is None else (1.0 if winner == o["color"] else 0.0)
        by_rule[rule].append((s, y))
    shipped = {"freestyle": 400, "standard": 550, "renju": 520, "caro": 1400, "caro-exact": 1400}
    for rule, pts in sorted(by_rule.items()):
        k, loss, nll = fit(pts)
        print(f"{rule:<10} {len(pts):>6} positions: K = {k:.0f}, log-loss {loss:.4f}"
              f" (shipped {shipped[rule]}: {nll(shipped[rule]):.4f})")


if __name__ == "__main__":
    sys.exit(main())
