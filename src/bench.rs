//! `pbrain-rensa bench`: fixed positions searched to a fixed depth on one thread with a fixed
//! table size. The node counts are a regression signature: any change to the search or the
//! evaluation that changes the tree changes it.

use crate::board::Pos;
use crate::engine::{score_text, Clock, Engine, ThinkLimits};
use crate::rules::Rule;
use crate::search::stats::CutoffStats;
use std::time::Instant;

/// Depth searched by default.
pub const DEFAULT_DEPTH: i32 = 8;
const TT_BYTES: usize = 16 << 20;

/// (name, width, height, rule, moves from an empty board in `h8` notation, black first).
const POSITIONS: [(&str, usize, usize, Rule, &str); 10] = [
    (
        "freestyle15-8",
        15,
        15,
        Rule::Freestyle,
        "h8 i9 i7 j6 h7 h9 j9 g6",
    ),
    (
        "freestyle15-12",
        15,
        15,
        Rule::Freestyle,
        "h8 i9 i7 j6 h7 h9 j9 g6 i5 j7 k6 i4",
    ),
    (
        "freestyle15-16",
        15,
        15,
        Rule::Freestyle,
        "h8 i9 i7 j6 h7 h9 j9 g6 i5 j7 k6 i4 f7 e7 k8 f6",
    ),
    (
        "freestyle20-10",
        20,
        20,
        Rule::Freestyle,
        "k11 l12 l10 j12 k12 k13 m11 i11 l14 k9",
    ),
    (
        "freestyle20-14",
        20,
        20,
        Rule::Freestyle,
        "k11 l12 l10 j12 k12 k13 m11 i11 l14 k9 m9 j10 n8 o7",
    ),
    (
        "standard15-12",
        15,
        15,
        Rule::Standard,
        "h8 i9 i7 g9 h9 h10 g11 i10 i11 f11 f10 h12",
    ),
    (
        "standard15-20",
        15,
        15,
        Rule::Standard,
        "h8 i9 i7 g9 h9 h10 g11 i10 i11 f11 f10 h12 j7 k7 j8 k8 k6 i8 j9 j6",
    ),
    (
        "renju15-10",
        15,
        15,
        Rule::Renju,
        "h8 i9 i7 j6 h7 h9 j9 g6 k6 j7",
    ),
    (
        "renju15-18",
        15,
        15,
        Rule::Renju,
        "h8 i9 i7 j6 h7 h9 j9 g6 k6 j7 j5 i4 h5 g5 g8 i6 f8 e8",
    ),
    (
        "caro15-14",
        15,
        15,
        Rule::Caro,
        "h8 i9 i7 g9 j8 h6 h9 f8 g10 i8 h10 i10 j6 h11",
    ),
];

/// Parses `h8`-style moves (letter = column from `a`, number = row from 1).
pub fn parse_moves(text: &str) -> Vec<Pos> {
    text.split_whitespace()
        .map(|m| Pos::parse(m, 20).unwrap_or_else(|| panic!("bench move {m:?}")))
        .collect()
}

/// One position's outcome.
pub struct BenchLine {
    pub name: &'static str,
    pub nodes: u64,
    pub ms: u64,
    pub best: Option<Pos>,
    pub score: i32,
}

/// What the whole benchmark did.
pub struct BenchTotals {
    pub nodes: u64,
    pub ms: u64,
    pub signature: u64,
    /// The fail-highs of every search, by depth left: how often the first move cut.
    pub cutoffs: CutoffStats,
}

/// Runs the benchmark; returns its lines and totals.
pub fn run(depth: i32, threads: usize) -> (Vec<BenchLine>, BenchTotals) {
    let mut engine = Engine::new();
    engine.set_threads(threads);
    engine.set_table_bytes(TT_BYTES);
    // the table's memory is mapped before the clock starts
    engine.reserve_table();
    let mut lines = Vec::new();
    // FNV-1a over each position's node count, best move and score
    let mut sig: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |v: u64| {
        for b in v.to_le_bytes() {
            sig ^= b as u64;
            sig = sig.wrapping_mul(0x100_0000_01b3);
        }
    };
    let (mut total_nodes, mut total_ms) = (0, 0);
    let mut cutoffs = CutoffStats::default();
    for (name, w, h, rule, moves) in POSITIONS {
        engine.new_game(w, h, rule);
        for p in parse_moves(moves) {
            engine.commit(p);
        }
        engine.clear_hash();
        let limits = ThinkLimits {
            clock: Clock {
                turn_ms: 0,
                match_ms: 0,
                left_ms: None,
                increment_ms: 0,
            },
            max_depth: Some(depth),
            max_nodes: None,
        };
        let t = Instant::now();
        let r = engine.think_unlimited(&limits, &mut |_| {});
        let ms = t.elapsed().as_millis() as u64;
        mix(r.nodes);
        mix(r.best.map_or(0, |p| p.index() as u64));
        mix(r.score as u64);
        total_nodes += r.nodes;
        total_ms += ms;
        cutoffs.add(&engine.cutoff_stats());
        lines.push(BenchLine {
            name,
            nodes: r.nodes,
            ms,
            best: r.best,
            score: r.score,
        });
    }
    let totals = BenchTotals {
        nodes: total_nodes,
        ms: total_ms,
        signature: sig,
        cutoffs,
    };
    (lines, totals)
}

/// Runs `pbrain-rensa bench [DEPTH] [THREADS]` and prints its report.
pub fn main(depth: i32, threads: usize) {
    let (lines, totals) = run(depth, threads);
    let (nodes, ms, sig) = (totals.nodes, totals.ms, totals.signature);
    for l in &lines {
        println!(
            "{:<22} nodes {:>10}  time {:>6} ms  best {:>4}  ev {}",
            l.name,
            l.nodes,
            l.ms,
            l.best.map_or("--".to_string(), |p| p.to_string()),
            score_text(l.score)
        );
    }
    println!("depth      {depth}");
    if threads > 1 {
        // helpers make the tree depend on timing: no signature to compare
        println!("threads    {threads} (the signature is for one thread only)");
    }
    println!("nodes      {nodes}");
    println!("time       {ms} ms");
    println!("nps        {}", nodes * 1000 / ms.max(1));
    // the share of fail-highs the first move made, by plies of depth left
    println!("first cut  {}", totals.cutoffs.summary());
    println!("signature  {sig:016x}");
}
