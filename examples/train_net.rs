//! Trains the network of `src/eval/net.rs` on game records and self-play files.
//!
//! ```text
//! cargo run --release --example train_net -- --rule freestyle [--also-rule R]... [--epochs N] \
//!     [--lr X] [--lr-values X] [--l2 X] [--batch N] [--blend X] [--td-lambda L] [--seed N] \
//!     [--out FILE] \
//!     FILE.jsonl|FILE.rnsp...
//! ```
//!
//! The fit starts from the classical evaluation written as a network
//! (`NetWeights::from_classical`: an empty layer, the classical values on the linear path),
//! so its first loss is the classical evaluation's. It trains the layer (16 clipped units
//! per colour, their output weights and biases), the linear values of every code with a
//! line above one stone (the others, most of an empty board, keep their classical values so
//! the value does not grow with the board), the threat table and the tempo. Prediction
//! `sigmoid(value / K)` with K fitted to the classical evaluation, squared error against the
//! result (self-play files: blended with the search's score, `--blend`), minibatch Adam, an L2
//! pull of the linear values towards the classical ones and of the layer towards 0. It
//! reports the validation loss of the classical evaluation, of the float model and of the
//! quantised one, and `--out` writes the quantised weights (`NetWeights::to_bytes`).
//! See `scripts/tune/README.md`.

use anyhow::{bail, Context, Result};
use rensa::cells::{code_index, BUCKETS, CODES};
use rensa::eval::net::{NetWeights, HIDDEN, LIN_TO_MOVE, LIN_WAITING};
use rensa::eval::{evaluate, threat_bucket, WIN_MIN};
use rensa::pattern::Pattern;
use rensa::rules::Rule;

#[path = "common/fit.rs"]
mod fit;
#[path = "common/games.rs"]
mod games;
use fit::{fit_scale, parse_rule, sigmoid};
#[path = "common/positions.rs"]
mod positions;
use games::splitmix64;
use positions::read_positions;

const USAGE: &str =
    "usage: train_net --rule R [--also-rule R]... [--epochs N] [--lr X] [--lr-values X] [--l2 X]
                 [--batch N] [--blend X] [--td-lambda L] [--seed N] [--init FILE]
                 [--split-colours] [--decisive] [--out FILE] FILE.jsonl|FILE.rnsp...
  --rule R     freestyle, standard, renju, caro or caro-exact
  --also-rule R  train on this rule's games too, set up on boards of --rule (validation
               stays --rule's own games)
  --epochs N   passes over the training positions (default 30)
  --lr X       Adam step size of the layer's weights and biases, decaying linearly to a
               tenth (default 0.003)
  --lr-values X  the same for the weights in evaluation units: linear values, output
               weights, threat table, tempo (default 1)
  --l2 X       pull of the linear values towards the classical ones and of the layer
               towards 0: X * sum((w - w0) / K)^2 (default 1e-4)
  --batch N    positions per step (default 512)
  --blend X    self-play files: target (1 - X) * result + X * sigmoid(score / K) (default 0.5)
  --td-lambda L  self-play files: the search's score of a position is replaced by the
               TD(lambda) return over the game's later positions (each scored by its own
               search, read from this side): (1 - L) * sigmoid(score / K) + L * (the next
               position's return), the game's result after its last position. 0 is the
               score itself; larger L looks further down the game the searches played
  --seed N     the train/validation split and the layer's random start (default 0)
  --init FILE  start from these weights (a network file, e.g. another rule's) instead of
               the classical evaluation, and pull every weight towards them; the file
               decides whether black and white share one table
  --split-colours  with --init of a shared table: give black and white a copy each, both
               pulled towards it, so the fit can value a shape apart for each colour
               (renju, where black's shapes are worth less than white's)
  --decisive   leave out the positions of drawn games (caro's self-play fills the board in
               a quarter of its games, and their positions outnumber the decisive ones 2:1)
  --out FILE   write the quantised weights";

struct Options {
    rule: Rule,
    /// Rules whose games are read as `rule`'s, for training only.
    also: Vec<Rule>,
    epochs: usize,
    lr: f64,
    lr_values: f64,
    l2: f64,
    batch: usize,
    blend: f64,
    seed: u64,
    out: Option<String>,
    /// Start from these weights (fine-tuning) instead of the classical evaluation.
    init: Option<String>,
    /// Give black and white their own copy of a shared --init table.
    split_colours: bool,
    /// Leave out the positions of drawn games.
    decisive: bool,
    /// Search scores as TD(lambda) returns over each game's later positions.
    td_lambda: Option<f64>,
    files: Vec<String>,
}

fn parse_options() -> Result<Options> {
    let mut o = Options {
        rule: Rule::Freestyle,
        also: Vec::new(),
        epochs: 30,
        lr: 0.003,
        lr_values: 1.0,
        l2: 1e-4,
        batch: 512,
        blend: 0.5,
        seed: 0,
        out: None,
        init: None,
        split_colours: false,
        decisive: false,
        td_lambda: None,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--rule" => o.rule = parse_rule(&value("--rule")?)?,
            "--also-rule" => o.also.push(parse_rule(&value("--also-rule")?)?),
            "--epochs" => o.epochs = value("--epochs")?.parse().context("--epochs")?,
            "--lr" => o.lr = value("--lr")?.parse().context("--lr")?,
            "--lr-values" => o.lr_values = value("--lr-values")?.parse().context("--lr-values")?,
            "--l2" => o.l2 = value("--l2")?.parse().context("--l2")?,
            "--batch" => o.batch = value("--batch")?.parse().context("--batch")?,
            "--blend" => o.blend = value("--blend")?.parse().context("--blend")?,
            "--seed" => o.seed = value("--seed")?.parse().context("--seed")?,
            "--out" => o.out = Some(value("--out")?),
            "--init" => o.init = Some(value("--init")?),
            "--decisive" => o.decisive = true,
            "--split-colours" => o.split_colours = true,
            "--td-lambda" => {
                let l: f64 = value("--td-lambda")?.parse().context("--td-lambda")?;
                if !(0.0..=1.0).contains(&l) {
                    bail!("--td-lambda takes a value from 0 to 1");
                }
                o.td_lambda = Some(l);
            }
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
    if o.split_colours && o.init.is_none() {
        bail!("--split-colours needs --init (a classical start has its tables already)");
    }
    Ok(o)
}

/// One position: the trainable rows of each side (row index, number of cells), what the
/// frozen rows add, the threat bucket and the targets.
struct Sample {
    /// `rows[0]` the mover's, `rows[1]` the opponent's.
    rows: [Vec<(u32, f32)>; 2],
    frozen: f32,
    bucket: u16,
    result: f32,
    search: Option<f32>,
    y: f32,
    validation: bool,
    /// The game, its stones and the side to move (0 black): for TD(lambda) returns.
    game: u64,
    stones: u16,
    side: u8,
}

/// Codes up to this one have no line above one stone: frozen (see the header).
fn frozen_code(code: usize) -> bool {
    code <= code_index([Pattern::Flex1; 4])
}

fn sample(pos: &positions::Position, start: &NetWeights) -> Sample {
    let board = pos.board;
    let me = board.side();
    let mut rows: [std::collections::BTreeMap<u32, f32>; 2] = Default::default();
    let mut frozen = 0i32;
    for p in board.empty_cells() {
        let info = board.cell(p);
        for (role, c) in [me, me.opponent()].into_iter().enumerate() {
            let code = info.code[c.index()] as usize;
            let table = if start.per_colour { c.index() } else { 0 };
            if frozen_code(code) {
                let row = start.row(c.index(), code as u16);
                frozen += if role == 0 {
                    row[LIN_TO_MOVE] as i32
                } else {
                    -(row[LIN_WAITING] as i32)
                };
            } else {
                *rows[role].entry((table * CODES + code) as u32).or_default() += 1.0;
            }
        }
    }
    Sample {
        rows: rows.map(|m| m.into_iter().collect()),
        frozen: frozen as f32,
        bucket: (threat_bucket(board, me) * BUCKETS + threat_bucket(board, me.opponent())) as u16,
        result: pos.result as f32,
        search: pos.search.map(|s| s as f32),
        y: pos.result as f32,
        validation: pos.validation,
        game: pos.game,
        stones: pos.stones as u16,
        side: me.index() as u8,
    }
}

/// The float model: the network of `src/eval/net.rs` before quantisation, in evaluation
/// units (an activation is a unit's sum clipped to 0..1).
#[derive(Clone)]
struct Model {
    /// `lin[row][role]`, `feat[row][unit]`.
    lin: Vec<[f32; 2]>,
    feat: Vec<[f32; HIDDEN]>,
    bias: [f32; HIDDEN],
    out: [[f32; HIDDEN]; 2],
    out_bias: f32,
    threats: [f32; BUCKETS * BUCKETS],
}

/// What one forward pass leaves for the backward one.
struct Pass {
    value: f32,
    sums: [[f32; HIDDEN]; 2],
}

impl Model {
    /// The quantised weights `w` as they are.
    fn exact(w: &NetWeights) -> Model {
        let scale = (1i32 << w.shift) as f32;
        Model {
            lin: w
                .feature
                .iter()
                .map(|r| [r[LIN_TO_MOVE] as f32, r[LIN_WAITING] as f32])
                .collect(),
            feat: w
                .feature
                .iter()
                .map(|r| std::array::from_fn(|h| r[h] as f32 / scale))
                .collect(),
            bias: w.bias.map(|b| b as f32 / scale),
            out: w.out.map(|o| o.map(|x| x as f32)),
            out_bias: w.out_bias as f32,
            threats: w.threats.map(|t| t as f32),
        }
    }

    /// The start of a fit from `w` (an empty layer): `w`'s values, and a layer of small
    /// random weights, every unit half on, that adds nothing yet (its output weights are 0).
    fn start(w: &NetWeights, seed: u64) -> Model {
        let mut s = seed;
        let mut small = move || {
            s = splitmix64(s);
            (s >> 11) as f32 / (1u64 << 53) as f32 * 0.04 - 0.02
        };
        let mut m = Model::exact(w);
        m.feat
            .iter_mut()
            .for_each(|r| *r = std::array::from_fn(|_| small()));
        m.bias = [0.5; HIDDEN];
        m.out = [[0.0; HIDDEN]; 2];
        m
    }

    fn forward(&self, s: &Sample) -> Pass {
        let mut value = s.frozen + self.out_bias + self.threats[s.bucket as usize];
        let mut sums = [self.bias; 2];
        for (role, rows) in s.rows.iter().enumerate() {
            let sign = if role == 0 { 1.0 } else { -1.0 };
            for &(r, n) in rows {
                value += sign * n * self.lin[r as usize][role];
                for (x, &f) in sums[role].iter_mut().zip(&self.feat[r as usize]) {
                    *x += n * f;
                }
            }
            for (x, &w) in sums[role].iter().zip(&self.out[role]) {
                value += x.clamp(0.0, 1.0) * w;
            }
        }
        Pass { value, sums }
    }

    /// Adds `g` times the value's gradient to `grad`.
    fn backward(&self, s: &Sample, pass: &Pass, g: f32, grad: &mut Model) {
        grad.out_bias += g;
        grad.threats[s.bucket as usize] += g;
        for (role, rows) in s.rows.iter().enumerate() {
            let sign = if role == 0 { 1.0 } else { -1.0 };
            let mut unit = [0f32; HIDDEN];
            for (h, u) in unit.iter_mut().enumerate() {
                let x = pass.sums[role][h];
                grad.out[role][h] += g * x.clamp(0.0, 1.0);
                if x > 0.0 && x < 1.0 {
                    *u = g * self.out[role][h];
                    grad.bias[h] += *u;
                }
            }
            for &(r, n) in rows {
                grad.lin[r as usize][role] += sign * n * g;
                for (d, &u) in grad.feat[r as usize].iter_mut().zip(&unit) {
                    *d += n * u;
                }
            }
        }
    }

    fn zero_like(&self) -> Model {
        Model {
            lin: vec![[0.0; 2]; self.lin.len()],
            feat: vec![[0.0; HIDDEN]; self.feat.len()],
            bias: [0.0; HIDDEN],
            out: [[0.0; HIDDEN]; 2],
            out_bias: 0.0,
            threats: [0.0; BUCKETS * BUCKETS],
        }
    }

    /// Every parameter, in one order, for the optimiser.
    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.lin
            .iter_mut()
            .flatten()
            .chain(self.feat.iter_mut().flatten())
            .chain(self.bias.iter_mut())
            .chain(self.out.iter_mut().flatten())
            .chain(std::iter::once(&mut self.out_bias))
            .chain(self.threats.iter_mut())
    }

    fn quantise(&self, start: &NetWeights) -> NetWeights {
        let mut w = start.clone();
        let q = (1i32 << w.shift) as f32;
        w.clip = q as i32;
        let r16 = |x: f32| x.round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        for (i, row) in w.feature.iter_mut().enumerate() {
            // small, so that the board's wrapping i16 sums of the layer stay exact
            for (x, &f) in row.iter_mut().zip(&self.feat[i]) {
                *x = (f * q).round().clamp(-127.0, 127.0) as i16;
            }
            row[LIN_TO_MOVE] = r16(self.lin[i][0]);
            row[LIN_WAITING] = r16(self.lin[i][1]);
        }
        w.bias = self.bias.map(|b| (b * q).round() as i32);
        w.out = self.out.map(|o| o.map(r16));
        w.out_bias = self.out_bias.round() as i32;
        w.threats = self.threats.map(r16);
        w
    }
}

/// Mean squared error of `sigmoid(value / k)` against the targets.
fn mse(set: &[&Sample], k: f64, value: impl Fn(&Sample) -> f64) -> f64 {
    let sum: f64 = set
        .iter()
        .map(|s| (sigmoid(value(s) / k) - s.y as f64).powi(2))
        .sum();
    sum / set.len().max(1) as f64
}

/// The K that minimises the squared error of `value`.
fn fit_k(set: &[&Sample], value: impl Fn(&Sample) -> f64) -> f64 {
    fit_scale(|k| mse(set, k, &value))
}

/// Minibatch Adam over `train`, reporting the validation loss after each fifth of the run.
fn train(m: &mut Model, start: &Model, train: &[&Sample], valid: &[&Sample], k: f64, o: &Options) {
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut adam_m = m.zero_like();
    let mut adam_v = m.zero_like();
    let mut order: Vec<usize> = (0..train.len()).collect();
    let steps_per_epoch = train.len().div_ceil(o.batch);
    let total = o.epochs * steps_per_epoch;
    let mut t = 0;
    // where the pull goes: the linear values' start, 0 for the layer; fine-tuning from
    // --init pulls every weight towards its start
    let mut pulled_model = if o.init.is_some() {
        start.clone()
    } else {
        let mut m = start.zero_like();
        m.lin.clone_from(&start.lin);
        m.out_bias = start.out_bias;
        m.threats = start.threats;
        m
    };
    let pulled: Vec<f32> = pulled_model.params_mut().map(|x| *x).collect();
    // two step sizes: the layer's weights act on activations of 0..1, the rest are in
    // evaluation units
    let mut sizes = start.zero_like();
    sizes
        .lin
        .iter_mut()
        .flatten()
        .for_each(|x| *x = o.lr_values as f32);
    sizes
        .feat
        .iter_mut()
        .flatten()
        .for_each(|x| *x = o.lr as f32);
    sizes.bias = [o.lr as f32; HIDDEN];
    sizes.out = [[o.lr_values as f32; HIDDEN]; 2];
    sizes.out_bias = o.lr_values as f32;
    sizes.threats = [o.lr_values as f32; BUCKETS * BUCKETS];
    let sizes: Vec<f32> = sizes.params_mut().map(|x| *x).collect();
    for epoch in 0..o.epochs {
        // a seeded shuffle
        let mut s = splitmix64(o.seed ^ epoch as u64);
        for i in (1..order.len()).rev() {
            s = splitmix64(s);
            order.swap(i, (s % (i as u64 + 1)) as usize);
        }
        for batch in order.chunks(o.batch) {
            let mut grad = m.zero_like();
            for &i in batch {
                let s = train[i];
                let pass = m.forward(s);
                let p = sigmoid(pass.value as f64 / k);
                let g = 2.0 * (p - s.y as f64) * p * (1.0 - p) / k / batch.len() as f64;
                m.backward(s, &pass, g as f32, &mut grad);
            }
            t += 1;
            let decay = (1.0 - 0.9 * t as f64 / total as f64) as f32;
            // the pull: linear values towards the classical ones, the rest towards 0 (in
            // units where a whole board of a value is about 1 of the logistic scale)
            let l2 = (2.0 * o.l2 / (k * k)) as f32;
            let (bc1, bc2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
            let params = m.params_mut().zip(grad.params_mut());
            let moments = adam_m.params_mut().zip(adam_v.params_mut());
            for ((((w, g), (am, av)), &w0), &lr) in params.zip(moments).zip(&pulled).zip(&sizes) {
                let g = *g + l2 * (*w - w0);
                *am = b1 * *am + (1.0 - b1) * g;
                *av = b2 * *av + (1.0 - b2) * g * g;
                *w -= decay * lr * (*am / bc1) / ((*av / bc2).sqrt() + eps);
            }
        }
        if (epoch + 1) % (o.epochs / 5).max(1) == 0 || epoch + 1 == o.epochs {
            let tm = mse(train, k, |s| m.forward(s).value as f64);
            let vm = mse(valid, k, |s| m.forward(s).value as f64);
            println!(
                "  epoch {:3}  train mse {tm:.6}  validation mse {vm:.6}",
                epoch + 1
            );
        }
    }
}

/// Each scored sample's TD(lambda) return, for its side to move: within a game (its samples
/// come together), from the last position back, `G = (1 - l) * sigmoid(score / k) + l * G'`,
/// where `G'` is the next position's return read from this side, and the game's result
/// after the last. Samples without a score get `None`.
fn td_returns(samples: &[Sample], k: f64, l: f64) -> Vec<Option<f64>> {
    let mut out = Vec::with_capacity(samples.len());
    for game in samples.chunk_by(|a, b| a.game == b.game) {
        let mut returns = vec![None; game.len()];
        let mut order: Vec<usize> = (0..game.len())
            .filter(|&i| game[i].search.is_some())
            .collect();
        order.sort_by_key(|&i| game[i].stones);
        // (the return after this position, whose side it is for)
        let mut next: Option<(f64, u8)> = None;
        for &i in order.iter().rev() {
            let s = &game[i];
            let later = match next {
                Some((g, side)) if side == s.side => g,
                Some((g, _)) => 1.0 - g,
                None => s.result as f64,
            };
            let g = (1.0 - l) * sigmoid(s.search.unwrap_or(0.0) as f64 / k) + l * later;
            returns[i] = Some(g);
            next = Some((g, s.side));
        }
        out.extend(returns);
    }
    out
}

fn main() -> Result<()> {
    let o = parse_options()?;
    let (start_weights, start) = match &o.init {
        None => {
            let w = NetWeights::from_classical(o.rule);
            let m = Model::start(&w, o.seed);
            (w, m)
        }
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("reading {path}"))?;
            let mut w = NetWeights::from_bytes(&bytes)
                .with_context(|| format!("{path}: not a network file"))?;
            if o.split_colours && !w.per_colour {
                // black's table first, then white's: both start as the shared one
                w.feature.extend_from_within(..);
                w.per_colour = true;
            }
            let m = Model::exact(&w);
            (w, m)
        }
    };
    let mut samples = Vec::new();
    let mut differ = 0;
    read_positions(&o.files, o.rule, &o.also, o.seed, |p| {
        if o.decisive && p.result == 0.5 {
            return;
        }
        let s = sample(&p, &start_weights);
        // a classical start is the classical evaluation: each sample must give its value
        let v = start.forward(&s).value.round() as i32;
        differ += usize::from(
            o.init.is_none() && v.clamp(-WIN_MIN + 1, WIN_MIN - 1) != evaluate(p.board),
        );
        samples.push(s);
    })?;
    if differ > 0 {
        bail!("{differ} positions: the start differs from the classical evaluation");
    }
    // the start's value: the classical evaluation, or the --init network
    let start_value = |s: &Sample| start.forward(s).value as f64;
    let k0 = fit_k(&samples.iter().collect::<Vec<_>>(), start_value);
    let scored = match o.td_lambda {
        Some(l) => td_returns(&samples, k0, l),
        None => samples
            .iter()
            .map(|s| s.search.map(|v| sigmoid(v as f64 / k0)))
            .collect(),
    };
    for (s, p) in samples.iter_mut().zip(scored) {
        if let Some(p) = p {
            s.y = ((1.0 - o.blend) * s.result as f64 + o.blend * p) as f32;
        }
    }
    let (valid, train_set): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| s.validation);
    if train_set.is_empty() || valid.is_empty() {
        bail!("too few games for a train/validation split");
    }
    let k = fit_k(&train_set, start_value);
    println!(
        "{} training, {} validation positions; K = {k:.1}",
        train_set.len(),
        valid.len()
    );
    println!(
        "{}: train mse {:.6}  validation mse {:.6}",
        if o.init.is_some() {
            "start"
        } else {
            "classical"
        },
        mse(&train_set, k, start_value),
        mse(&valid, k, start_value)
    );
    let mut model = start.clone();
    train(&mut model, &start, &train_set, &valid, k, &o);
    let qw = model.quantise(&start_weights);
    let q = Model::exact(&qw);
    println!(
        "quantised: train mse {:.6}  validation mse {:.6}",
        mse(&train_set, k, |s| q.forward(s).value as f64),
        mse(&valid, k, |s| q.forward(s).value as f64)
    );
    if let Some(path) = &o.out {
        std::fs::write(path, qw.to_bytes()).with_context(|| format!("writing {path}"))?;
        println!("weights written to {path}");
    }
    Ok(())
}
