//! Tunes the search's margins and reduction terms (`rensa::search::Params`) by SPSA over
//! games played in-process at a fixed node budget, on many threads at once; or plays a
//! match of one set of values against the rule's shipped ones.
//!
//! cargo run --release --example spsa -- --rule 0 --openings scripts/openings/freestyle-15.txt \
//!     [--size 15] [--nodes 40000] [--pairs 3000] [--jobs N] [--seed 1] [--r-end 0.02] \
//!     [--only NAME,NAME...] [--start NAME=V,...] [--verify NAME=V,...] [--seconds S]
//!
//! Each SPSA step plays one pair of games (each side black once, from one opening of the
//! file, `rel` format as `referee.py` reads it) between the values θ + c·δ and θ − c·δ,
//! δ a random ±1 for each value, and moves θ by r·c·δ·(plus's wins − minus's wins), with
//! Fishtest's schedules (c_k = c·(N/k)^0.101, the step a_k/c_k² = r at the end, A = N/10).
//! Threads run steps asynchronously against one shared θ. Integer values are rounded
//! stochastically. It prints θ every 100 pairs and at the end.
//!
//! `--verify` plays `--pairs` pairs of the given values against the shipped ones (with
//! `--start`'s values over them, on both sides) instead and prints the score with a
//! pentanomial 95 % interval in Elo.
//!
//! Fixed nodes judge what a change does to the tree, not what it costs in speed; confirm a
//! result with `referee.py` at a time control before shipping it.

use anyhow::{bail, Context, Result};
use rensa::board::Color;
use rensa::engine::{Engine, ThinkLimits};
use rensa::rng::SplitMix64;
use rensa::rules::Rule;
use rensa::search::Params;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The values tuned by default, with the size of their perturbation at the end (c_end)
/// and the bounds they are kept in.
const TUNED: [(&str, f64, i32, i32); 11] = [
    ("rfp_margin", 20.0, 40, 500),
    ("razor_margin", 30.0, 50, 900),
    ("futility_margin", 15.0, 20, 500),
    ("lmr_percent", 8.0, 30, 200),
    ("lmr_pv", 3.0, 0, 48),
    ("lmr_not_improving", 3.0, 0, 48),
    ("lmr_cut", 3.0, 0, 48),
    ("lmr_history_div", 800.0, 2000, 20000),
    ("move_count_base", 1.0, 1, 12),
    ("move_count_exp", 6.0, 70, 220),
    ("eval_share", 5.0, 30, 160),
];

/// Transposition table of each engine.
const TABLE_BYTES: usize = 16 << 20;

struct Opts {
    rule: Rule,
    size: usize,
    nodes: u64,
    pairs: u64,
    jobs: usize,
    seed: u64,
    r_end: f64,
    openings: Vec<Vec<(i64, i64)>>,
    only: Option<Vec<String>>,
    start: Vec<(String, i32)>,
    verify: Option<Vec<(String, i32)>>,
    /// No pair is started after this many seconds (the schedule stays that of `pairs`).
    seconds: f64,
    started: std::time::Instant,
}

fn parse_assignments(s: &str) -> Result<Vec<(String, i32)>> {
    s.split(',')
        .filter(|a| !a.is_empty())
        .map(|a| {
            let (n, v) = a.split_once('=').context("NAME=VALUE")?;
            Ok((n.to_string(), v.parse().context("an integer value")?))
        })
        .collect()
}

fn read_openings(path: &str) -> Result<Vec<Vec<(i64, i64)>>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let nums: Vec<i64> = line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().context("a number"))
            .collect::<Result<_>>()?;
        if nums.len() % 2 != 0 {
            bail!("odd coordinates in opening {line:?}");
        }
        out.push(nums.chunks(2).map(|c| (c[0], c[1])).collect());
    }
    if out.is_empty() {
        bail!("no opening in {path}");
    }
    Ok(out)
}

fn parse_args() -> Result<Opts> {
    let mut o = Opts {
        rule: Rule::Freestyle,
        size: 15,
        nodes: 40_000,
        pairs: 3000,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: 1,
        r_end: 0.02,
        openings: Vec::new(),
        only: None,
        start: Vec::new(),
        verify: None,
        seconds: f64::INFINITY,
        started: std::time::Instant::now(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--rule" => {
                o.rule = Rule::from_info(val()?.parse::<i64>()?).context("a Gomocup rule")?
            }
            "--size" => o.size = val()?.parse()?,
            "--nodes" => o.nodes = val()?.parse()?,
            "--pairs" => o.pairs = val()?.parse()?,
            "--jobs" => o.jobs = val()?.parse()?,
            "--seed" => o.seed = val()?.parse()?,
            "--r-end" => o.r_end = val()?.parse()?,
            "--openings" => o.openings = read_openings(&val()?)?,
            "--only" => o.only = Some(val()?.split(',').map(str::to_string).collect()),
            "--start" => o.start = parse_assignments(&val()?)?,
            "--verify" => o.verify = Some(parse_assignments(&val()?)?),
            "--seconds" => o.seconds = val()?.parse()?,
            _ => bail!("unknown argument {a}"),
        }
    }
    if o.openings.is_empty() {
        bail!("--openings FILE is needed");
    }
    Ok(o)
}

/// `base` with `values` set by name.
fn with_values(base: Params, values: &[(String, i32)]) -> Result<Params> {
    let mut p = base;
    for (n, v) in values {
        if !p.set(n, *v) {
            bail!("no tunable value {n}, or {v} is out of its range");
        }
    }
    Ok(p)
}

/// One game from `opening`: `engines[black]` plays black. The winner's index, or `None`
/// for a draw (a full board, or a side with no legal move).
fn play_game(
    engines: &mut [Engine; 2],
    params: [Params; 2],
    black: usize,
    opening: &[(i64, i64)],
    o: &Opts,
) -> Option<usize> {
    let c = (o.size / 2) as i64;
    for (e, p) in engines.iter_mut().zip(params) {
        e.new_game(o.size, o.size, o.rule);
        e.clear_hash();
        e.set_search_params(Some(p));
        for &(x, y) in opening {
            if e.cell(c + x, c + y).and_then(|q| e.play(q)).is_err() {
                return None;
            }
        }
    }
    let limits = ThinkLimits::by_nodes(o.nodes);
    loop {
        let b = engines[0].board();
        if b.is_full() {
            return None;
        }
        let mover = if b.side() == Color::Black {
            black
        } else {
            1 - black
        };
        let r = engines[mover].think_unlimited(&limits, &mut |_| {});
        let p = r.best?;
        engines[mover].commit(p);
        if engines[1 - mover].play(p).is_err() {
            return None;
        }
        if engines[mover].board().is_five_at(p) {
            return Some(mover);
        }
    }
}

/// Points of `params[0]` over a pair of games from one opening, colours swapped (0..=2).
fn play_pair(
    engines: &mut [Engine; 2],
    params: [Params; 2],
    opening: &[(i64, i64)],
    o: &Opts,
) -> f64 {
    (0..2)
        .map(
            |black| match play_game(engines, params, black, opening, o) {
                Some(0) => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
        )
        .sum()
}

fn new_engines() -> [Engine; 2] {
    [(), ()].map(|_| {
        let mut e = Engine::new();
        e.set_table_bytes(TABLE_BYTES);
        e
    })
}

/// Runs `pair(engines, k)` for k = 0, 1, .. on `o.jobs` threads, each with its own two
/// engines, until `o.pairs` pairs or `o.seconds` have gone.
fn on_threads(o: &Arc<Opts>, pair: impl Fn(&mut [Engine; 2], u64) + Send + Sync + 'static) {
    let next = Arc::new(AtomicU64::new(0));
    let pair = Arc::new(pair);
    let workers: Vec<_> = (0..o.jobs)
        .map(|_| {
            let (o, next, pair) = (Arc::clone(o), Arc::clone(&next), Arc::clone(&pair));
            std::thread::spawn(move || {
                let mut engines = new_engines();
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    if k >= o.pairs || o.started.elapsed().as_secs_f64() > o.seconds {
                        return;
                    }
                    pair(&mut engines, k);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
}

/// Elo of a score share.
fn elo(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The shipped values for the run's rule and size, with `--start`'s over them.
fn start_values(o: &Opts) -> Result<Params> {
    with_values(Params::for_board(o.rule, o.size, o.size), &o.start)
}

/// `--verify`: the values against the shipped ones (or those `--start` sets).
fn verify(o: &Arc<Opts>, values: &[(String, i32)]) -> Result<()> {
    let base = start_values(o)?;
    let tuned = with_values(base, values)?;
    let pairs = Arc::new(Mutex::new(Vec::new()));
    let (oo, pp) = (Arc::clone(o), Arc::clone(&pairs));
    on_threads(o, move |engines, k| {
        let opening = &oo.openings[(k as usize) % oo.openings.len()];
        let s = play_pair(engines, [tuned, base], opening, &oo);
        pp.lock().unwrap().push(s / 2.0);
    });
    let pairs = pairs.lock().unwrap();
    let n = pairs.len() as f64;
    let mean = pairs.iter().sum::<f64>() / n;
    let var = pairs.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    let counts = |v: f64| pairs.iter().filter(|&&s| s == v).count();
    println!(
        "verify {values:?}: {} pairs, pentanomial [{} {} {} {} {}], score {:.4}, Elo {:+.1} [{:+.1}, {:+.1}]",
        pairs.len(),
        counts(0.0),
        counts(0.25),
        counts(0.5),
        counts(0.75),
        counts(1.0),
        mean,
        elo(mean),
        elo(mean - half),
        elo(mean + half)
    );
    Ok(())
}

/// One tuned value's state.
#[derive(Clone, Debug)]
struct Value {
    name: &'static str,
    theta: f64,
    c_end: f64,
    min: i32,
    max: i32,
}

/// Rounds `x` up with probability its fraction, so that small steps still count on average.
fn dither(x: f64, rng: &mut SplitMix64) -> i32 {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    (x + u).floor() as i32
}

fn spsa(o: &Arc<Opts>) -> Result<()> {
    let base = start_values(o)?;
    let values: Vec<Value> = TUNED
        .iter()
        .filter(|t| {
            o.only
                .as_ref()
                .is_none_or(|only| only.iter().any(|n| n == t.0))
        })
        .map(|&(name, c_end, min, max)| Value {
            name,
            theta: f64::from(base.get(name).expect("a tunable value")),
            c_end,
            min,
            max,
        })
        .collect();
    if let Some(unknown) = o
        .only
        .iter()
        .flatten()
        .find(|n| !TUNED.iter().any(|t| t.0 == n.as_str()))
    {
        bail!("--only: no tuned value {unknown}");
    }
    if values.is_empty() {
        bail!("nothing to tune");
    }
    let n = o.pairs as f64;
    let (alpha, gamma, big_a) = (0.602, 0.101, 0.1 * n);
    // θ, plus's points, pairs played
    let state = Arc::new(Mutex::new((values, 0.0f64, 0u64)));
    let (o2, st2) = (Arc::clone(o), Arc::clone(&state));
    on_threads(o, move |engines, k| {
        let (o, state) = (&o2, &st2);
        let mut rng = SplitMix64::new(o.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let kk = (k + 1) as f64;
        // perturbations and the step size of this pair
        let (plus, minus, flips, cks, rk) = {
            let st = state.lock().unwrap();
            let mut plus = base;
            let mut minus = base;
            let mut flips = Vec::new();
            let mut cks = Vec::new();
            for v in &st.0 {
                let ck = v.c_end * (n / kk).powf(gamma);
                let flip = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
                let hi = dither(v.theta + ck * flip, &mut rng).clamp(v.min, v.max);
                let lo = dither(v.theta - ck * flip, &mut rng).clamp(v.min, v.max);
                // TUNED's bounds are inside what `set` accepts
                assert!(plus.set(v.name, hi) && minus.set(v.name, lo));
                flips.push(flip);
                cks.push(ck);
            }
            // a_k / c_k², the same for every value (its c_end cancels)
            let rk =
                o.r_end * ((big_a + n) / (big_a + kk)).powf(alpha) * (n / kk).powf(-2.0 * gamma);
            (plus, minus, flips, cks, rk)
        };
        let opening = &o.openings[(rng.next_u64() % o.openings.len() as u64) as usize];
        let points = play_pair(engines, [plus, minus], opening, o);
        let result = points - 1.0; // plus's wins minus its losses, over two
        let mut st = state.lock().unwrap();
        st.1 += points;
        st.2 += 1;
        for ((v, flip), ck) in st.0.iter_mut().zip(&flips).zip(&cks) {
            v.theta = (v.theta + rk * ck * result * flip).clamp(f64::from(v.min), f64::from(v.max));
        }
        if st.2 % 100 == 0 {
            print_theta(&st.0, st.2, st.1);
        }
    });
    let st = state.lock().unwrap();
    print_theta(&st.0, st.2, st.1);
    let tuned: Vec<String> =
        st.0.iter()
            .map(|v| format!("{}={}", v.name, v.theta.round() as i32))
            .collect();
    println!("final --verify {}", tuned.join(","));
    Ok(())
}

fn print_theta(values: &[Value], pairs: u64, plus_points: f64) {
    let th: Vec<String> = values
        .iter()
        .map(|v| format!("{}={:.1}", v.name, v.theta))
        .collect();
    println!(
        "pairs {pairs} (plus scored {:.3}): {}",
        plus_points / (2.0 * pairs as f64),
        th.join(" ")
    );
}

fn main() -> Result<()> {
    let o = Arc::new(parse_args()?);
    match o.verify.clone() {
        Some(values) => verify(&o, &values)?,
        None => spsa(&o)?,
    }
    eprintln!("{:.1} s", o.started.elapsed().as_secs_f64());
    Ok(())
}
