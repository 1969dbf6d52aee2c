//! Fits the move-ordering tables (`cells::OrderTables`) to the moves Rensa's search chose
//! in its self-play games.
//!
//! ```text
//! cargo run --release --example fit_order -- --rule freestyle [--l2 X] [--iters N] \
//!     [--lr X] [--seed N] [--min-count N] [--scale X] [--out FILE] FILE.jsonl...
//! ```
//!
//! The ordering score of a candidate is `attack[code of the mover] + defend[code of the
//! opponent]` (a cell's *pattern code* is the unordered combination of its four line
//! patterns). The fit is a softmax regression: over the candidates the search generates
//! (`Board::candidates`, legal moves only), the probability of the move the game went on
//! with is `softmax(score / T)`. It starts from the hand-set ordering (`eval::move_score`,
//! which is such a sum by code), first fits the temperature `T` alone, then every code's two
//! values with full-batch Adam and an L2 pull towards the hand-set ones. Codes seen as
//! candidates in fewer than `--min-count` training positions keep their hand-set values.
//! Positions: after the opening, those the search would search (no five to make or block,
//! no open four that wins outright). Games go 90/10 to training
//! and validation by opening pair. `--out` writes the tables, in the hand-set units, as Rust
//! source for `src/cells/`.

use anyhow::{bail, Context, Result};
use rensa::board::{Board, Pos};
use rensa::eval::hand_order;
use rensa::pattern::CODES;
use rensa::pattern::{PatternTables, Threat, PATTERN_COUNT};
use rensa::rules::Rule;
use std::fmt::Write as _;
use std::fs;

#[path = "common/games.rs"]
#[allow(dead_code)]
mod games;
use games::{is_decided, parse_game, splitmix64};

/// Distance buckets (Chebyshev distance to the last stone of each side, the last one
/// "far or none").
const DIST_BUCKETS: usize = 8;
const PARAMS: usize = 2 * CODES + 2 * DIST_BUCKETS;

fn chebyshev(a: Pos, b: Pos) -> usize {
    a.x().abs_diff(b.x()).max(a.y().abs_diff(b.y()))
}

const USAGE: &str = "usage: fit_order --rule R [--l2 X] [--iters N] [--lr X] [--seed N]
                 [--min-count N] [--scale X] [--out FILE] FILE.jsonl...";

struct Options {
    rule: Rule,
    l2: f64,
    iters: usize,
    lr: f64,
    seed: u64,
    min_count: usize,
    /// Score units per logit in the written tables (default: the fitted temperature).
    scale: Option<f64>,
    out: Option<String>,
    files: Vec<String>,
}

fn options() -> Result<Options> {
    let mut o = Options {
        rule: Rule::Freestyle,
        l2: 0.01,
        iters: 300,
        lr: 0.05,
        seed: 0,
        min_count: 30,
        scale: None,
        out: None,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--rule" => {
                o.rule = match value("--rule")?.as_str() {
                    "freestyle" | "0" => Rule::Freestyle,
                    "standard" | "1" => Rule::Standard,
                    "renju" | "4" => Rule::Renju,
                    r => bail!("--rule {r}: freestyle, standard or renju"),
                }
            }
            "--l2" => o.l2 = value("--l2")?.parse().context("--l2")?,
            "--iters" => o.iters = value("--iters")?.parse().context("--iters")?,
            "--lr" => o.lr = value("--lr")?.parse().context("--lr")?,
            "--seed" => o.seed = value("--seed")?.parse().context("--seed")?,
            "--min-count" => o.min_count = value("--min-count")?.parse().context("--min-count")?,
            "--scale" => o.scale = Some(value("--scale")?.parse().context("--scale")?),
            "--out" => o.out = Some(value("--out")?),
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            f if f.starts_with("--") => bail!("unknown option {f}\n{USAGE}"),
            f => o.files.push(f.to_string()),
        }
    }
    if o.files.is_empty() {
        bail!("{USAGE}");
    }
    Ok(o)
}

/// The positions as flat arrays: position `i`'s candidates are `start[i]..start[i + 1]`,
/// each with its two parameter indices (attack code, `CODES` + defend code); `target[i]`
/// is the played move's offset among them.
#[derive(Default)]
struct Data {
    start: Vec<u32>,
    params: Vec<[u32; 4]>,
    target: Vec<u32>,
    validation: Vec<bool>,
}

/// Adds the position on `board`, where `played` was played.
fn add_position(d: &mut Data, board: &Board, played: Pos, validation: bool) {
    let me = board.side();
    let mut cands = Vec::new();
    board.candidates(&mut cands);
    let at = d.params.len();
    let mut target = None;
    for &p in &cands {
        if !board.is_legal(p) {
            continue;
        }
        let cell = board.cell(p);
        let ia = cell.code[me.index()] as usize;
        let id = CODES + cell.code[me.opponent().index()] as usize;
        let h = board.history();
        let dist = |back: usize| {
            h.len().checked_sub(back).map_or(DIST_BUCKETS - 1, |k| {
                chebyshev(h[k].0, p).min(DIST_BUCKETS - 1)
            })
        };
        let io = 2 * CODES + dist(1);
        let is = 2 * CODES + DIST_BUCKETS + dist(2);
        if p == played {
            target = Some(d.params.len() - at);
        }
        d.params.push([ia as u32, id as u32, io as u32, is as u32]);
    }
    match target {
        Some(t) if d.params.len() - at > 1 => {
            d.start.push(at as u32);
            d.target.push(t as u32);
            d.validation.push(validation);
        }
        _ => d.params.truncate(at),
    }
}

fn read(o: &Options) -> Result<Data> {
    let mut d = Data::default();
    let mut games = 0;
    for (file_no, file) in o.files.iter().enumerate() {
        let text = fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
        for (line_no, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{file}:{}", line_no + 1);
            let game = parse_game(line, file_no, line_no).with_context(at)?;
            // standard plays on freestyle's tables (as the evaluation does)
            if game.rule != o.rule {
                continue;
            }
            let validation = splitmix64(game.group ^ splitmix64(o.seed)) % 10 == 0;
            let mut board = Board::new(game.size, game.size, game.rule);
            for (ply, &(x, y)) in game.moves.iter().enumerate() {
                let p = Pos::new(x, y);
                if x >= game.size || y >= game.size || !board.is_empty(p) {
                    bail!("{}: move {} is off the board or taken", at(), ply + 1);
                }
                if ply >= game.opening_plies && !is_decided(&board, false) {
                    add_position(&mut d, &board, p, validation);
                }
                board.make(p);
            }
            games += 1;
        }
    }
    d.start.push(d.params.len() as u32);
    println!(
        "{games} games of {:?}: {} positions, {} candidates",
        o.rule,
        d.target.len(),
        d.params.len()
    );
    Ok(d)
}

/// Mean negative log-likelihood of the played moves over the positions `valid` selects, and
/// (when `grad` is given) its gradient with respect to the logits `w / t`, scaled by `1/t`.
fn nll(d: &Data, w: &[f64], t: f64, valid: bool, mut grad: Option<&mut [f64]>) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    let mut probs = Vec::new();
    for i in 0..d.target.len() {
        if d.validation[i] != valid {
            continue;
        }
        let c = &d.params[d.start[i] as usize..d.start[i + 1] as usize];
        let logits: Vec<f64> = c
            .iter()
            .map(|p| p.iter().map(|&k| w[k as usize]).sum::<f64>() / t)
            .collect();
        let max = logits.iter().cloned().fold(f64::MIN, f64::max);
        let z: f64 = logits.iter().map(|l| (l - max).exp()).sum();
        let lse = max + z.ln();
        sum += lse - logits[d.target[i] as usize];
        n += 1;
        if let Some(g) = grad.as_deref_mut() {
            probs.clear();
            probs.extend(logits.iter().map(|l| (l - lse).exp()));
            probs[d.target[i] as usize] -= 1.0;
            for (p, q) in c.iter().zip(&probs) {
                for &k in p {
                    g[k as usize] += q / t;
                }
            }
        }
    }
    let n = n.max(1) as f64;
    if let Some(g) = grad {
        g.iter_mut().for_each(|x| *x /= n);
    }
    sum / n
}

/// Share of positions whose played move is among the `k` highest scores (ties count
/// against it).
fn top(d: &Data, w: &[f64], valid: bool, k: usize) -> f64 {
    let (mut hit, mut n) = (0, 0);
    for i in 0..d.target.len() {
        if d.validation[i] != valid {
            continue;
        }
        let c = &d.params[d.start[i] as usize..d.start[i + 1] as usize];
        let s = |p: &[u32; 4]| p.iter().map(|&k| w[k as usize]).sum::<f64>();
        let best = s(&c[d.target[i] as usize]);
        let above = c
            .iter()
            .enumerate()
            .filter(|&(j, p)| j != d.target[i] as usize && s(p) >= best)
            .count();
        if above < k {
            hit += 1;
        }
        n += 1;
    }
    hit as f64 / n.max(1) as f64
}

/// The temperature that fits the hand-set scores best (golden-section search on ln T).
fn fit_t(d: &Data, w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (1f64.ln(), 1000f64.ln());
    for _ in 0..40 {
        let a = lo + (hi - lo) * 0.382;
        let b = lo + (hi - lo) * 0.618;
        if nll(d, w, a.exp(), false, None) < nll(d, w, b.exp(), false, None) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The hand-set ordering as tables by code (attack codes, then defend codes), for every
/// code the rule's line patterns can make.
fn hand_set(rule: Rule) -> Vec<f64> {
    let tables = PatternTables::get(rule);
    let mut w = vec![0.0; PARAMS];
    for i in 0..PATTERN_COUNT.pow(4) {
        let p: [u8; 4] =
            std::array::from_fn(|d| (i / PATTERN_COUNT.pow(d as u32) % PATTERN_COUNT) as u8);
        // white's classes: black's differ only under renju, which has no tables
        let (class, code) = tables.cell(1, p);
        let t = Threat::from_u8(class);
        w[code as usize] = hand_order(true, t, p) as f64;
        w[CODES + code as usize] = hand_order(false, t, p) as f64;
    }
    w
}

fn main() -> Result<()> {
    let o = options()?;
    let init = hand_set(o.rule);
    let d = read(&o)?;
    let mut count = vec![0usize; PARAMS];
    for i in 0..d.target.len() {
        if !d.validation[i] {
            for p in &d.params[d.start[i] as usize..d.start[i + 1] as usize] {
                for &k in p {
                    count[k as usize] += 1;
                }
            }
        }
    }
    let free: Vec<bool> = count.iter().map(|&c| c >= o.min_count).collect();
    let t = fit_t(&d, &init);
    println!(
        "hand-set: T {t:.1}, nll train {:.4} valid {:.4}, top-1/3/8 valid {:.3} {:.3} {:.3}; {} free codes",
        nll(&d, &init, t, false, None),
        nll(&d, &init, t, true, None),
        top(&d, &init, true, 1),
        top(&d, &init, true, 3),
        top(&d, &init, true, 8),
        free.iter().filter(|&&f| f).count()
    );
    // Adam on the logits (w / T); the L2 pull is on the logits too.
    let mut w = init.clone();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (b1, b2) = (0.9f64, 0.999f64);
    for it in 1..=o.iters {
        let mut g = vec![0.0; w.len()];
        let loss = nll(&d, &w, t, false, Some(&mut g));
        let lr = o.lr * (1.0 - 0.9 * it as f64 / o.iters as f64);
        for j in 0..w.len() {
            if !free[j] {
                continue;
            }
            // gradient with respect to the logit w/T
            let gl = g[j] * t + 2.0 * o.l2 * (w[j] - init[j]) / t;
            m[j] = b1 * m[j] + (1.0 - b1) * gl;
            v[j] = b2 * v[j] + (1.0 - b2) * gl * gl;
            let mh = m[j] / (1.0 - b1.powi(it as i32));
            let vh = v[j] / (1.0 - b2.powi(it as i32));
            w[j] -= lr * t * mh / (vh.sqrt() + 1e-8);
        }
        if it % 50 == 0 || it == o.iters {
            println!(
                "iter {it}: nll train {loss:.4} valid {:.4}, top-1/3/8 valid {:.3} {:.3} {:.3}",
                nll(&d, &w, t, true, None),
                top(&d, &w, true, 1),
                top(&d, &w, true, 3),
                top(&d, &w, true, 8)
            );
        }
    }
    if let Some(out) = &o.out {
        // the search adds killer and history bonuses in the hand-set units: `--scale`
        // keeps one logit worth the same against them whatever the fitted temperature
        let k = o.scale.map_or(1.0, |s| s / t);
        let w: Vec<f64> = w.iter().map(|v| v * k).collect();
        fs::write(out, source(&o, &w, o.scale.unwrap_or(t).round() as i64))
            .with_context(|| format!("writing {out}"))?;
        println!("wrote {out}");
    }
    Ok(())
}

fn source(o: &Options, w: &[f64], temperature: i64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! The fitted move-ordering tables of {:?} (generated by `examples/fit_order.rs`;\n\
         //! see `scripts/tune/README.md` for the data and the command).\n\n\
         use super::OrderTables;\n\n\
         pub static ORDER: OrderTables = OrderTables {{\n    temperature: {},",
        o.rule, temperature
    );
    for (name, part) in [
        ("attack", &w[..CODES]),
        ("defend", &w[CODES..2 * CODES]),
        ("near_opponent", &w[2 * CODES..2 * CODES + DIST_BUCKETS]),
        ("near_own", &w[2 * CODES + DIST_BUCKETS..]),
    ] {
        let _ = writeln!(s, "    {name}: [");
        for v in part {
            let _ = writeln!(s, "        {},", v.round() as i64);
        }
        let _ = writeln!(s, "    ],");
    }
    s.push_str("};\n");
    s
}
