//! Fits the per-cell tables of the evaluation (`src/cells/`) to game results.
//!
//! ```text
//! cargo run --release --example fit_cells -- --rule freestyle [--l2 X] [--iters N] [--lr X] \
//!     [--seed N] [--min-count N] [--out FILE] FILE.jsonl...
//! ```
//!
//! The evaluation is the threat-count model of `eval/mod.rs` plus two learned corrections:
//! - for every empty cell and each colour, a value looked up by the cell's *pattern code*
//!   (the unordered combination of its four line patterns for that colour), one table for
//!   the side to move and one for the side waiting (for renju, black and white apart);
//! - a value for *who threatens what*: the strongest threat class each side holds, bucketed.
//!
//! Both are linear in counts given the position, so the fit is a logistic regression of the
//! result on the counts with the current evaluation as a fixed offset: prediction
//! `sigmoid((evaluate + corrections) / K)`, mean squared error, full-batch Adam, an L2 pull
//! towards 0 (the current evaluation). Codes seen in fewer than `--min-count` training
//! positions stay 0. Games go 90/10 to training and validation by opening pair. The output
//! reports the losses of the current evaluation and of each fitted model, and `--out` writes
//! the tables as Rust source for `src/cells/`. See `scripts/tune/README.md`.

use anyhow::{bail, Context, Result};
use rensa::board::{Board, Classical};
use rensa::cells::{code_index, CellTables, BUCKETS, CODES};
use rensa::eval::{count_value, threat_bucket};
use rensa::pattern::Pattern;
use rensa::rules::Rule;
use std::fmt::Write as _;
use std::fs;

#[path = "common/fit.rs"]
mod fit;
#[path = "common/games.rs"]
mod games;
use fit::{fit_scale, parse_rule, sigmoid};
#[path = "common/positions.rs"]
mod positions;
use positions::read_positions;

struct Options {
    rule: Rule,
    /// Rules whose games are read as `rule`'s, for training only.
    also: Vec<Rule>,
    l2: f64,
    iters: usize,
    lr: f64,
    seed: u64,
    min_count: usize,
    blend: f64,
    /// Which model's tables `--out` writes: 0 threat buckets, 1 cell codes, 2 both.
    write: usize,
    out: Option<String>,
    files: Vec<String>,
}

const USAGE: &str =
    "usage: fit_cells --rule R [--also-rule R]... [--l2 X] [--iters N] [--lr X] [--seed N]
                 [--min-count N] [--blend X] [--write M] [--out FILE] FILE.jsonl|FILE.bin...
  --rule R       the rule whose games are fitted (freestyle, standard, renju, caro or
                 caro-exact; games of other rules are skipped)
  --also-rule R  fit this rule's games too, set up on boards of --rule (validation stays
                 --rule's own games)
  --l2 X         pull towards 0: X * sum((w / K)^2) (default 0.0005)
  --iters N      Adam steps per model (default 3000)
  --lr X         Adam step size in score units, decaying linearly to a tenth (default 4)
  --seed N       another train/validation split (default 0)
  --min-count N  codes in fewer training positions than this stay 0 (default 30)
  --blend X      self-play files: the target is (1 - X) * result + X * sigmoid(score / K)
                 (default 0.5; game records have results only)
  --write M      the model --out writes: buckets, cells or both (default both)
  --out FILE     write the fitted tables as Rust source";

fn parse_options() -> Result<Options> {
    let mut o = Options {
        rule: Rule::Freestyle,
        also: Vec::new(),
        l2: 5e-4,
        iters: 3000,
        lr: 4.0,
        seed: 0,
        min_count: 30,
        blend: 0.5,
        write: 2,
        out: None,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--rule" => o.rule = parse_rule(&value("--rule")?)?,
            "--also-rule" => o.also.push(parse_rule(&value("--also-rule")?)?),
            "--l2" => o.l2 = value("--l2")?.parse().context("--l2")?,
            "--iters" => o.iters = value("--iters")?.parse().context("--iters")?,
            "--lr" => o.lr = value("--lr")?.parse().context("--lr")?,
            "--seed" => o.seed = value("--seed")?.parse().context("--seed")?,
            "--min-count" => o.min_count = value("--min-count")?.parse().context("--min-count")?,
            "--out" => o.out = Some(value("--out")?),
            "--write" => {
                o.write = match value("--write")?.as_str() {
                    "buckets" => 0,
                    "cells" => 1,
                    "both" => 2,
                    w => bail!("--write {w}: buckets, cells or both"),
                }
            }
            "--blend" => o.blend = value("--blend")?.parse().context("--blend")?,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ if a.starts_with('-') => bail!("unknown option {a}\n{USAGE}"),
            _ => o.files.push(a),
        }
    }
    if o.files.is_empty() {
        bail!("no game files\n{USAGE}");
    }
    Ok(o)
}

/// Which correction a parameter belongs to.
#[derive(Clone, Copy, PartialEq)]
enum Family {
    /// Cell values by pattern code: (table, code), table = colour * 2 + role.
    Cells,
    /// Who threatens what: (to-move bucket, waiting bucket).
    Threats,
}

const TABLES: usize = 4;
const CELL_PARAMS: usize = TABLES * CODES;
const THREAT_PARAMS: usize = BUCKETS * BUCKETS;

/// One position: the current evaluation, the result for the side to move, and sparse
/// feature counts (parameter index, count; the waiting side's cells count negatively).
struct Sample {
    base: f64,
    y: f64,
    /// The game's result for the side to move, and the search's score when the data has one.
    result: f64,
    search: Option<f64>,
    cells: Vec<(u32, f32)>,
    threat: u32,
    validation: bool,
}

fn sample(board: &Board<Classical>, result: f64, search: Option<f64>, validation: bool) -> Sample {
    let me = board.side();
    let mut counts = std::collections::BTreeMap::<u32, f32>::new();
    for (role, c) in [(0, me), (1, me.opponent())] {
        let t = CellTables::table_index(board.rule(), c.index(), role);
        let sign = if role == 0 { 1.0 } else { -1.0 };
        for p in board.empty_cells() {
            let code = board.cell(p).code[c.index()] as usize;
            if code != 0 {
                *counts.entry((t * CODES + code) as u32).or_default() += sign;
            }
        }
    }
    Sample {
        base: count_value(board) as f64,
        y: result,
        result,
        search,
        cells: counts.into_iter().collect(),
        threat: (threat_bucket(board, me) * BUCKETS + threat_bucket(board, me.opponent())) as u32,
        validation,
    }
}

fn read_samples(o: &Options) -> Result<Vec<Sample>> {
    let mut samples = Vec::new();
    read_positions(&o.files, o.rule, &o.also, o.seed, |p| {
        samples.push(sample(p.board, p.result, p.search, p.validation))
    })?;
    Ok(samples)
}

/// A model: which families it fits, and which parameters are free.
struct Model {
    name: &'static str,
    families: Vec<Family>,
    free: Vec<bool>,
}

impl Model {
    fn eval(&self, s: &Sample, w: &[f64]) -> f64 {
        let mut e = s.base;
        if self.families.contains(&Family::Cells) {
            e += s
                .cells
                .iter()
                .map(|&(i, x)| w[i as usize] * x as f64)
                .sum::<f64>();
        }
        if self.families.contains(&Family::Threats) {
            e += w[CELL_PARAMS + s.threat as usize];
        }
        e
    }

    /// (mean squared error, log loss) of the samples.
    fn losses(&self, set: &[&Sample], w: &[f64], k: f64) -> (f64, f64) {
        let (mut mse, mut log) = (0.0, 0.0);
        for s in set {
            let p = sigmoid(self.eval(s, w) / k).clamp(1e-12, 1.0 - 1e-12);
            mse += (p - s.y).powi(2);
            log -= s.y * p.ln() + (1.0 - s.y) * (1.0 - p).ln();
        }
        let n = set.len() as f64;
        (mse / n, log / n)
    }

    fn fit(&self, train: &[&Sample], valid: &[&Sample], k: f64, o: &Options) -> Vec<f64> {
        let n = CELL_PARAMS + THREAT_PARAMS;
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        let (mut w, mut m, mut v) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let mut grad = vec![0.0; n];
        let cells = self.families.contains(&Family::Cells);
        let threats = self.families.contains(&Family::Threats);
        for it in 0..o.iters {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for s in train {
                let p = sigmoid(self.eval(s, &w) / k);
                let d = 2.0 * (p - s.y) * p * (1.0 - p) / k / train.len() as f64;
                if cells {
                    for &(i, x) in &s.cells {
                        grad[i as usize] += d * x as f64;
                    }
                }
                if threats {
                    grad[CELL_PARAMS + s.threat as usize] += d;
                }
            }
            let lr = o.lr * (1.0 - 0.9 * it as f64 / o.iters as f64);
            let t = (it + 1) as i32;
            for j in (0..n).filter(|&j| self.free[j]) {
                let g = grad[j] + 2.0 * o.l2 * w[j] / (k * k);
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                let mh = m[j] / (1.0 - b1.powi(t));
                let vh = v[j] / (1.0 - b2.powi(t));
                w[j] -= lr * mh / (vh.sqrt() + eps);
            }
            if (it + 1) % (o.iters / 5).max(1) == 0 {
                let (tm, _) = self.losses(train, &w, k);
                let (vm, vl) = self.losses(valid, &w, k);
                println!(
                    "  iter {:5}  train mse {tm:.6}  validation mse {vm:.6} log {vl:.6}",
                    it + 1
                );
            }
        }
        w.iter().map(|x| x.round()).collect()
    }
}

/// The K that minimises the squared error of the current evaluation.
fn fit_k(train: &[&Sample]) -> f64 {
    let base = Model {
        name: "",
        families: vec![],
        free: vec![],
    };
    fit_scale(|k| base.losses(train, &[], k).0)
}

/// The tables as Rust source: one `i16` array per cell table, one for the threat buckets.
fn write_tables(path: &str, rule: Rule, w: &[f64]) -> Result<()> {
    let mut s = String::new();
    writeln!(
        s,
        "//! The fitted cell tables of {rule:?} (generated by `examples/fit_cells.rs`;"
    )?;
    writeln!(
        s,
        "//! see `scripts/tune/README.md` for the data and the command)."
    )?;
    writeln!(s)?;
    writeln!(s, "use super::CellTables;")?;
    writeln!(s)?;
    writeln!(s, "pub static TABLES: CellTables = CellTables {{")?;
    writeln!(s, "    cells: [")?;
    for t in 0..TABLES {
        writeln!(s, "        [")?;
        for chunk in w[t * CODES..(t + 1) * CODES].chunks(16) {
            let row: Vec<String> = chunk.iter().map(|v| format!("{}", *v as i16)).collect();
            writeln!(s, "            {},", row.join(", "))?;
        }
        writeln!(s, "        ],")?;
    }
    writeln!(s, "    ],")?;
    writeln!(s, "    threats: [")?;
    for chunk in w[CELL_PARAMS..].chunks(BUCKETS) {
        let row: Vec<String> = chunk.iter().map(|v| format!("{}", *v as i16)).collect();
        writeln!(s, "        {},", row.join(", "))?;
    }
    writeln!(s, "    ],")?;
    writeln!(s, "}};")?;
    fs::write(path, s).with_context(|| format!("writing {path}"))
}

fn main() -> Result<()> {
    let o = parse_options()?;
    let samples = read_samples(&o)?;
    let mut samples = samples;
    // K from the results alone first, then the targets that blend in search scores.
    let k0 = {
        let all: Vec<&Sample> = samples.iter().collect();
        fit_k(&all)
    };
    for s in &mut samples {
        if let Some(score) = s.search {
            s.y = (1.0 - o.blend) * s.result + o.blend * sigmoid(score / k0);
        }
    }
    let (valid, train): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| s.validation);
    if train.is_empty() || valid.is_empty() {
        bail!("too few games for a train/validation split");
    }
    println!(
        "{} training, {} validation positions",
        train.len(),
        valid.len()
    );
    let k = fit_k(&train);
    // How many training positions use each cell code: rare codes stay at 0.
    let mut used = vec![0usize; CELL_PARAMS + THREAT_PARAMS];
    for s in &train {
        for &(i, _) in &s.cells {
            used[i as usize] += 1;
        }
        used[CELL_PARAMS + s.threat as usize] += 1;
    }
    // Codes without a line above one stone (no stone of the colour within reach) are left
    // at 0: they are most of an empty board, so their value would grow with its size.
    let local = |i: usize| i >= CELL_PARAMS || i % CODES > code_index([Pattern::Flex1; 4]);
    let free: Vec<bool> = used
        .iter()
        .enumerate()
        .map(|(i, &u)| u >= o.min_count && local(i))
        .collect();
    println!(
        "K = {k:.1}; free parameters: {} cell codes, {} threat buckets",
        free[..CELL_PARAMS].iter().filter(|&&f| f).count(),
        free[CELL_PARAMS..].iter().filter(|&&f| f).count()
    );
    let current = Model {
        name: "current",
        families: vec![],
        free: free.clone(),
    };
    let (t, v) = (
        current.losses(&train, &[], k),
        current.losses(&valid, &[], k),
    );
    println!(
        "current: train mse {:.6} log {:.6}, validation mse {:.6} log {:.6}",
        t.0, t.1, v.0, v.1
    );
    let models = [
        ("threat buckets", vec![Family::Threats]),
        ("cell codes", vec![Family::Cells]),
        (
            "cell codes + threat buckets",
            vec![Family::Cells, Family::Threats],
        ),
    ];
    let mut chosen = Vec::new();
    for (m, (name, families)) in models.into_iter().enumerate() {
        let model = Model {
            name,
            families,
            free: free.clone(),
        };
        println!("\n== {}", model.name);
        let w = model.fit(&train, &valid, k, &o);
        let (t, v) = (model.losses(&train, &w, k), model.losses(&valid, &w, k));
        println!(
            "  rounded: train mse {:.6} log {:.6}, validation mse {:.6} log {:.6}",
            t.0, t.1, v.0, v.1
        );
        if m == o.write {
            chosen = w;
        }
    }
    if let Some(path) = &o.out {
        write_tables(path, o.rule, &chosen)?;
        println!("tables written to {path}");
    }
    Ok(())
}
