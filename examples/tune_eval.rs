//! Fits the static evaluation weights of `src/eval/mod.rs` to game results (Texel tuning).
//!
//! ```text
//! cargo run --release --example tune_eval -- [--l2 X] [--iters N] [--lr X] [--seed N] \
//!     [--skip-open-threes] FILE.jsonl...
//! ```
//!
//! The inputs are the referee's game records (`referee.py match --pgn-out`, one JSON object a
//! line). Every position after the opening that the search would evaluate statically (no
//! five to make or to block, no open four that wins outright) becomes one sample: the board's
//! pattern and threat-class counts, seen from the side to move, and the game's result for
//! that side (1, ½ or 0). The threat-count model (`eval::count_value`: the part of
//! `evaluate` these weights make; the cell tables of `src/cells` come on top and are fitted
//! by `fit_cells`) is linear in those counts, so the fit is a logistic regression: the
//! prediction is `sigmoid(eval / K)`, `K` is first chosen to suit the current weights, and then the weights minimise the mean squared error by full-batch Adam, with an
//! L2 pull towards the current values. Games go 90/10 to training and validation by opening
//! pair, since the two games of a pair share their opening and are often move for move the
//! same.
//!
//! Two models are fitted: the one `eval/mod.rs` has (one pattern table for both sides) and one
//! with separate pattern tables for the side to move and the side waiting. The output ends
//! with the fitted tables in the syntax of `eval/mod.rs`. See `scripts/tune/README.md`.

use anyhow::{bail, Context, Result};
use rensa::board::{Board, Classical, Color, Pos};
use rensa::eval::{count_value, WIN_MIN};
use rensa::pattern::{Pattern, Threat, PATTERN_COUNT, THREAT_COUNT};
use std::fs;

#[path = "common/games.rs"]
mod games;
use games::{is_decided, parse_game, splitmix64, Game};

// The weights being tuned, straight from eval/mod.rs; `replay` checks the linear model built
// from them against `count_value` on every sample, so a model that drifts from the engine's
// evaluation stops the run instead of being tuned.
use rensa::eval::{PATTERN_WEIGHT, TEMPO, THREAT_WEIGHT_TO_MOVE, THREAT_WEIGHT_WAITING};

/// The per-entry comment of a pattern in eval/mod.rs: the variant's name, with a note on two.
fn pattern_note(i: usize) -> String {
    let p = Pattern::from_u8(i as u8);
    match p {
        Pattern::DoubleFour => format!("{p:?} (renju black: a foul)"),
        Pattern::Five => format!("{p:?} (handled by the win checks)"),
        _ => format!("{p:?}"),
    }
}

fn threat_note(i: usize) -> String {
    format!("{:?}", Threat::from_u8(i as u8))
}

/// Dead, Overline, DoubleFour and Five add nothing to the evaluation by design; they stay 0.
fn pattern_is_tuned(i: usize) -> bool {
    (Pattern::Block1 as usize..=Pattern::Flex4 as usize).contains(&i)
}

/// None, Forbid and Five stay 0 as well.
fn threat_is_tuned(i: usize) -> bool {
    (Threat::Flex2 as usize..=Threat::Flex4 as usize).contains(&i)
}

struct Options {
    l2: f64,
    iters: usize,
    lr: f64,
    seed: u64,
    skip_open_threes: bool,
    files: Vec<String>,
}

const USAGE: &str = "usage: tune_eval [--l2 X] [--iters N] [--lr X] [--seed N] [--skip-open-threes]
                 FILE.jsonl...
  --l2 X     pull towards the current weights: X * sum(((w - w0) / K)^2) (default 0.001)
  --iters N  Adam steps per model (default 5000)
  --lr X     Adam step size in score units, decaying linearly to a tenth (default 3)
  --seed N   another train/validation split, to see how much the figures owe to it (default 0)
  --skip-open-threes
             also leave out positions where either side can make an open four";

fn parse_options() -> Result<Options> {
    let mut o = Options {
        l2: 1e-3,
        iters: 5000,
        lr: 3.0,
        seed: 0,
        skip_open_threes: false,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--l2" => o.l2 = value("--l2")?.parse().context("--l2")?,
            "--iters" => o.iters = value("--iters")?.parse().context("--iters")?,
            "--lr" => o.lr = value("--lr")?.parse().context("--lr")?,
            "--seed" => o.seed = value("--seed")?.parse().context("--seed")?,
            "--skip-open-threes" => o.skip_open_threes = true,
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

/// One sample: the board's counts from the side to move's view (index 0 the side to move,
/// 1 the side waiting), what `count_value` says, and the game's result for the side to move.
struct Sample {
    patterns: [[f64; PATTERN_COUNT]; 2],
    threats: [[f64; THREAT_COUNT]; 2],
    eval: f64,
    score: f64,
    validation: bool,
}

/// The current evaluation from the copied tables, as `count_value` computes it.
fn current_eval(s: &Sample) -> f64 {
    let side = |i: usize, threat_weights: &[i32; THREAT_COUNT]| -> f64 {
        let p: f64 = (0..PATTERN_COUNT)
            .map(|k| PATTERN_WEIGHT[k] as f64 * s.patterns[i][k])
            .sum();
        let t: f64 = (0..THREAT_COUNT)
            .map(|k| threat_weights[k] as f64 * s.threats[i][k])
            .sum();
        p + t
    };
    let v = side(0, &THREAT_WEIGHT_TO_MOVE) - side(1, &THREAT_WEIGHT_WAITING) + TEMPO as f64;
    v.clamp(-(WIN_MIN - 1) as f64, (WIN_MIN - 1) as f64)
}

/// Replays every game and collects its undecided positions after the opening.
fn read_samples(o: &Options) -> Result<Vec<Sample>> {
    let mut samples = Vec::new();
    let mut games = 0;
    for (file_no, file) in o.files.iter().enumerate() {
        let text = fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
        for (line_no, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{file}:{}", line_no + 1);
            let game = parse_game(line, file_no, line_no).with_context(at)?;
            // A tenth of the groups, picked by hash, hold out for validation.
            let validation = splitmix64(game.group ^ splitmix64(o.seed)) % 10 == 0;
            replay(&game, validation, o.skip_open_threes, &mut samples).with_context(at)?;
            games += 1;
        }
    }
    println!("{games} games, {} positions", samples.len());
    Ok(samples)
}

fn replay(
    game: &Game,
    validation: bool,
    skip_open_threes: bool,
    samples: &mut Vec<Sample>,
) -> Result<()> {
    let mut board =
        Board::with_accumulator(game.size, game.size, game.rule, Classical::new(game.rule));
    for (ply, &(x, y)) in game.moves.iter().enumerate() {
        if x >= game.size || y >= game.size || !board.is_empty(Pos::new(x, y)) {
            bail!("move {} ({x},{y}) is off the board or taken", ply + 1);
        }
        if ply >= game.opening_plies && !is_decided(&board, skip_open_threes) {
            let me = board.side();
            let sides = [me, me.opponent()];
            let score = if me == Color::Black {
                game.black_score
            } else {
                1.0 - game.black_score
            };
            let s = Sample {
                patterns: sides.map(|c| {
                    std::array::from_fn(|k| {
                        board.pattern_count(c, Pattern::from_u8(k as u8)) as f64
                    })
                }),
                threats: sides.map(|c| {
                    std::array::from_fn(|k| board.count(c, Threat::from_u8(k as u8)) as f64)
                }),
                eval: count_value(&board).clamp(-WIN_MIN + 1, WIN_MIN - 1) as f64,
                score,
                validation,
            };
            if current_eval(&s) != s.eval {
                bail!(
                    "at ply {ply} count_value() gives {} but the copied weights give {}: \
                     update the copies at the top of examples/tune_eval.rs from src/eval/mod.rs",
                    s.eval,
                    current_eval(&s)
                );
            }
            samples.push(s);
        }
        board.make(Pos::new(x, y));
    }
    Ok(())
}

/// The table a weight lives in.
#[derive(Clone, Copy, PartialEq)]
enum Table {
    /// `PATTERN_WEIGHT`, shared: counts for the side to move, against the side waiting.
    Pattern,
    PatternToMove,
    PatternWaiting,
    ThreatToMove,
    ThreatWaiting,
    Tempo,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Pattern => "PATTERN_WEIGHT",
            Table::PatternToMove => "PATTERN_WEIGHT_TO_MOVE",
            Table::PatternWaiting => "PATTERN_WEIGHT_WAITING",
            Table::ThreatToMove => "THREAT_WEIGHT_TO_MOVE",
            Table::ThreatWaiting => "THREAT_WEIGHT_WAITING",
            Table::Tempo => "TEMPO",
        }
    }

    /// The doc comment of the table in eval/mod.rs (new wording for the split pattern tables).
    fn doc(self) -> &'static str {
        match self {
            Table::Pattern => concat!(
                "Weight of one (empty cell, line) pair with a given pattern, ",
                "indexed by [`Pattern`]."
            ),
            Table::PatternToMove => concat!(
                "Weight of one (empty cell, line) pair with a given pattern, ",
                "for the side to move."
            ),
            Table::ThreatToMove => concat!(
                "Weight of one empty cell with a threat class, for the side to move, ",
                "by [`Threat`]."
            ),
            Table::PatternWaiting | Table::ThreatWaiting => {
                "The same for the side that has just moved."
            }
            Table::Tempo => "Bonus for simply having the move.",
        }
    }

    fn is_pattern(self) -> bool {
        matches!(
            self,
            Table::Pattern | Table::PatternToMove | Table::PatternWaiting
        )
    }

    fn current(self, i: usize) -> i32 {
        match self {
            Table::Pattern | Table::PatternToMove | Table::PatternWaiting => PATTERN_WEIGHT[i],
            Table::ThreatToMove => THREAT_WEIGHT_TO_MOVE[i],
            Table::ThreatWaiting => THREAT_WEIGHT_WAITING[i],
            Table::Tempo => TEMPO,
        }
    }

    /// How much the evaluation of `s` grows per unit of entry `i`: the waiting side's counts
    /// enter with a minus sign, so all weights stay positive as in eval/mod.rs.
    fn feature(self, i: usize, s: &Sample) -> f64 {
        match self {
            Table::Pattern => s.patterns[0][i] - s.patterns[1][i],
            Table::PatternToMove => s.patterns[0][i],
            Table::PatternWaiting => -s.patterns[1][i],
            Table::ThreatToMove => s.threats[0][i],
            Table::ThreatWaiting => -s.threats[1][i],
            Table::Tempo => 1.0,
        }
    }
}

/// A linear model: the tuned entries of some tables.
struct Model {
    name: &'static str,
    tables: Vec<Table>,
    /// (table, entry) of each parameter.
    params: Vec<(Table, usize)>,
}

impl Model {
    fn new(name: &'static str, tables: Vec<Table>) -> Model {
        let mut params = Vec::new();
        for &t in &tables {
            match t {
                Table::Tempo => params.push((t, 0)),
                _ if t.is_pattern() => params.extend(
                    (0..PATTERN_COUNT)
                        .filter(|&i| pattern_is_tuned(i))
                        .map(|i| (t, i)),
                ),
                _ => params.extend(
                    (0..THREAT_COUNT)
                        .filter(|&i| threat_is_tuned(i))
                        .map(|i| (t, i)),
                ),
            }
        }
        Model {
            name,
            tables,
            params,
        }
    }

    fn start(&self) -> Vec<f64> {
        self.params
            .iter()
            .map(|&(t, i)| t.current(i) as f64)
            .collect()
    }

    fn param_name(&self, p: usize) -> String {
        let (t, i) = self.params[p];
        match t {
            Table::Tempo => t.name().to_string(),
            _ if t.is_pattern() => format!("{}[{:?}]", t.name(), Pattern::from_u8(i as u8)),
            _ => format!("{}[{:?}]", t.name(), Threat::from_u8(i as u8)),
        }
    }
}

/// Samples as a dense design matrix for one model.
struct Data {
    x: Vec<f64>,
    y: Vec<f64>,
    n: usize,
    width: usize,
}

impl Data {
    fn new(model: &Model, samples: &[&Sample]) -> Data {
        let width = model.params.len();
        let mut x = Vec::with_capacity(samples.len() * width);
        for s in samples {
            x.extend(model.params.iter().map(|&(t, i)| t.feature(i, s)));
        }
        Data {
            x,
            y: samples.iter().map(|s| s.score).collect(),
            n: samples.len(),
            width,
        }
    }

    fn row(&self, r: usize) -> &[f64] {
        &self.x[r * self.width..(r + 1) * self.width]
    }

    fn eval(&self, r: usize, w: &[f64]) -> f64 {
        self.row(r).iter().zip(w).map(|(x, w)| x * w).sum()
    }

    /// Mean squared error of `sigmoid(eval / k)`; adds its gradient to `grad` when given.
    fn mse(&self, w: &[f64], k: f64, mut grad: Option<&mut [f64]>) -> f64 {
        let mut sum = 0.0;
        for r in 0..self.n {
            let p = sigmoid(self.eval(r, w) / k);
            let err = p - self.y[r];
            sum += err * err;
            if let Some(g) = grad.as_deref_mut() {
                let d = 2.0 * err * p * (1.0 - p) / k / self.n as f64;
                for (g, x) in g.iter_mut().zip(self.row(r)) {
                    *g += d * x;
                }
            }
        }
        sum / self.n as f64
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Losses of precomputed evaluations: (mean squared error, log loss).
fn losses(evals: &[(f64, f64)], k: f64) -> (f64, f64) {
    let n = evals.len() as f64;
    let (mut mse, mut log) = (0.0, 0.0);
    for &(e, y) in evals {
        let p = sigmoid(e / k).clamp(1e-12, 1.0 - 1e-12);
        mse += (p - y) * (p - y);
        log -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    (mse / n, log / n)
}

/// The K that minimises the squared error of the engine's own evaluations: golden-section
/// search on ln K, where the error is unimodal in practice.
fn fit_k(evals: &[(f64, f64)]) -> f64 {
    let f = |lk: f64| losses(evals, lk.exp()).0;
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (1f64.ln(), 100_000f64.ln());
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 1e-5 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Full-batch Adam on the squared error plus `l2 * sum(((w - w0) / k)^2)`. Dividing by K makes
/// `l2` independent of the score scale: moving a weight by K costs `l2` of loss. Entries whose
/// feature never occurs get no gradient from the data, so the pull keeps them where they are.
fn fit(train: &Data, valid: &Data, w0: &[f64], k: f64, o: &Options) -> Vec<f64> {
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut w = w0.to_vec();
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut grad = vec![0.0; w.len()];
    for it in 0..o.iters {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let loss = train.mse(&w, k, Some(&mut grad));
        for ((g, w), w0) in grad.iter_mut().zip(&w).zip(w0) {
            *g += 2.0 * o.l2 * (w - w0) / (k * k);
        }
        // The step shrinks to a tenth so that the last steps settle well below the rounding
        // to integers.
        let lr = o.lr * (1.0 - 0.9 * it as f64 / o.iters as f64);
        let t = (it + 1) as i32;
        for j in 0..w.len() {
            m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
            v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
            let mh = m[j] / (1.0 - b1.powi(t));
            let vh = v[j] / (1.0 - b2.powi(t));
            w[j] -= lr * mh / (vh.sqrt() + eps);
        }
        if (it + 1) % (o.iters / 10).max(1) == 0 {
            println!(
                "  iter {:5}  train mse {:.6}  validation mse {:.6}",
                it + 1,
                loss,
                valid.mse(&w, k, None)
            );
        }
    }
    w
}

/// Rounds the weights for eval/mod.rs, then moves one weight at a time by ±1 while the objective
/// of `fit` falls: rounding each weight on its own can cost more than the fit gains, since
/// some weights multiply counts in the hundreds (Block1 pairs) or ones that nearly cancel
/// against another table's.
fn round_weights(train: &Data, w: &[f64], w0: &[f64], k: f64, l2: f64) -> Vec<f64> {
    let mut w: Vec<f64> = w.iter().map(|w| w.round()).collect();
    let mut evals: Vec<f64> = (0..train.n).map(|r| train.eval(r, &w)).collect();
    let objective = |evals: &[f64], w: &[f64]| -> f64 {
        let mse = evals
            .iter()
            .zip(&train.y)
            .map(|(e, y)| (sigmoid(e / k) - y).powi(2))
            .sum::<f64>()
            / train.n as f64;
        let pull: f64 = w.iter().zip(w0).map(|(w, w0)| ((w - w0) / k).powi(2)).sum();
        mse + l2 * pull
    };
    let mut best = objective(&evals, &w);
    // Each pass tries every weight; stop when a pass changes nothing (or after many passes,
    // as a guard: every accepted step lowers the objective, so this never cycles).
    for _ in 0..100 {
        let mut improved = false;
        for j in 0..w.len() {
            for step in [1.0, -1.0] {
                let trial: Vec<f64> = (0..train.n)
                    .map(|r| evals[r] + step * train.row(r)[j])
                    .collect();
                w[j] += step;
                let value = objective(&trial, &w);
                if value < best {
                    best = value;
                    evals = trial;
                    improved = true;
                    break;
                }
                w[j] -= step;
            }
        }
        if !improved {
            break;
        }
    }
    w
}

/// Losses of a model's weights on a data set, as (mean squared error, log loss).
fn data_losses(d: &Data, w: &[f64], k: f64) -> (f64, f64) {
    let evals: Vec<(f64, f64)> = (0..d.n).map(|r| (d.eval(r, w), d.y[r])).collect();
    losses(&evals, k)
}

/// One table in the syntax of eval/mod.rs, entries aligned as rustfmt leaves them.
fn print_table(table: Table, len: &str, values: &[i32], note: fn(usize) -> String) {
    println!("/// {}", table.doc());
    println!("const {}: [Score; {len}] = [", table.name());
    let width = values
        .iter()
        .map(|v| format!("{v},").len())
        .max()
        .unwrap_or(0);
    for (i, v) in values.iter().enumerate() {
        println!("    {:<width$} // {}", format!("{v},"), note(i));
    }
    println!("];");
}

fn print_model(model: &Model, w: &[f64]) {
    for &table in &model.tables {
        let value = |i: usize| -> i32 {
            model
                .params
                .iter()
                .position(|&p| p == (table, i))
                .map_or(table.current(i), |p| w[p].round() as i32)
        };
        if table == Table::Tempo {
            println!("/// {}", table.doc());
            println!("const TEMPO: Score = {};", value(0));
        } else if table.is_pattern() {
            let values: Vec<i32> = (0..PATTERN_COUNT).map(value).collect();
            print_table(table, "PATTERN_COUNT", &values, pattern_note);
        } else {
            let values: Vec<i32> = (0..THREAT_COUNT).map(value).collect();
            print_table(table, "THREAT_COUNT", &values, threat_note);
        }
        println!();
    }
}

fn run_model(model: &Model, train: &[&Sample], valid: &[&Sample], k: f64, o: &Options) {
    println!("\n== {} ({} weights)", model.name, model.params.len());
    let (dt, dv) = (Data::new(model, train), Data::new(model, valid));
    let w0 = model.start();
    let w = fit(&dt, &dv, &w0, k, o);
    let rounded = round_weights(&dt, &w, &w0, k, o.l2);
    let (t0, v0) = (data_losses(&dt, &w0, k), data_losses(&dv, &w0, k));
    let (t1, v1) = (data_losses(&dt, &rounded, k), data_losses(&dv, &rounded, k));
    println!("                 train mse   train log   valid mse   valid log");
    println!(
        "  current      {:11.6} {:11.6} {:11.6} {:11.6}",
        t0.0, t0.1, v0.0, v0.1
    );
    println!(
        "  fitted       {:11.6} {:11.6} {:11.6} {:11.6}",
        t1.0, t1.1, v1.0, v1.1
    );
    // The search's margins (futility, aspiration) are in score units, so a change of scale
    // matters beyond the fit.
    let spread = |w: &[f64]| (0..dt.n).map(|r| dt.eval(r, w).abs()).sum::<f64>() / dt.n as f64;
    println!(
        "  mean |eval| on the training positions: current {:.0}, fitted {:.0}",
        spread(&w0),
        spread(&rounded)
    );
    // Entries that few positions exercise are fitted from little evidence: show how many.
    println!(
        "\n  {:<42} {:>7} {:>9} {:>7} {:>9}",
        "weight", "current", "fitted", "integer", "positions"
    );
    for (p, (&w0, &w)) in w0.iter().zip(&w).enumerate() {
        let used = (0..dt.n).filter(|&r| dt.row(r)[p] != 0.0).count();
        println!(
            "  {:<42} {:>7} {:>9.2} {:>7} {:>9}",
            model.param_name(p),
            w0,
            w,
            rounded[p],
            used
        );
    }
    println!();
    print_model(model, &rounded);
}

fn main() -> Result<()> {
    let o = parse_options()?;
    let samples = read_samples(&o)?;
    let (valid, train): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| s.validation);
    if train.is_empty() || valid.is_empty() {
        bail!("too few games for a train/validation split");
    }
    println!(
        "{} training positions, {} validation positions",
        train.len(),
        valid.len()
    );
    // The loss of a constant prediction, for scale: a fit should beat it clearly.
    let mean = train.iter().map(|s| s.score).sum::<f64>() / train.len() as f64;
    let constant = |set: &[&Sample]| -> f64 {
        set.iter().map(|s| (s.score - mean).powi(2)).sum::<f64>() / set.len() as f64
    };
    println!(
        "always predicting the training mean {mean:.3}: train mse {:.6}, validation mse {:.6}",
        constant(&train),
        constant(&valid)
    );

    let evals =
        |set: &[&Sample]| -> Vec<(f64, f64)> { set.iter().map(|s| (s.eval, s.score)).collect() };
    let k = fit_k(&evals(&train));
    let (t, v) = (losses(&evals(&train), k), losses(&evals(&valid), k));
    println!("K = {k:.1} (fitted to the current weights)");
    println!(
        "current weights: train mse {:.6} log loss {:.6}, validation mse {:.6} log loss {:.6}",
        t.0, t.1, v.0, v.1
    );

    let shared = Model::new(
        "shared pattern weights (as in eval/mod.rs)",
        vec![
            Table::Pattern,
            Table::ThreatToMove,
            Table::ThreatWaiting,
            Table::Tempo,
        ],
    );
    let split = Model::new(
        "separate pattern weights for the side to move and the side waiting",
        vec![
            Table::PatternToMove,
            Table::PatternWaiting,
            Table::ThreatToMove,
            Table::ThreatWaiting,
            Table::Tempo,
        ],
    );
    for model in [&shared, &split] {
        run_model(model, &train, &valid, k, &o);
    }
    Ok(())
}
