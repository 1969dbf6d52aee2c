//! `pbrain-rensa bench`: fixed positions searched to a fixed depth on one thread with a fixed
//! table size. The node counts are a regression signature: any change to the search or the
//! evaluation that changes the tree changes it.

use crate::board::{Board, Pos};
use crate::rules::Rule;
use crate::search::{Limits, Searcher};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Depth searched by default.
pub const DEFAULT_DEPTH: i32 = 9;
const TT_BYTES: usize = 16 << 20;

/// (name, width, height, rule, moves from an empty board in `h8` notation, black first).
const POSITIONS: [(&str, usize, usize, Rule, &str); 10] = [
    ("freestyle15-opening", 15, 15, Rule::Freestyle, "h8 i9 i8 g8 j10 h9"),
    ("freestyle15-middle", 15, 15, Rule::Freestyle, "h8 i9 h10 h9 g9 i10 i8 j9 k9 g11 f10 j8"),
    ("freestyle15-attack", 15, 15, Rule::Freestyle, "h8 h9 i8 g8 i9 i10 j10 k11 j9 k9 j8 k8"),
    ("freestyle20-opening", 20, 20, Rule::Freestyle, "j10 k11 k10 i10 l12 j11"),
    ("freestyle20-middle", 20, 20, Rule::Freestyle, "j10 k11 j12 j11 i11 k12 k10 l11 m11 i13 h12 l10"),
    ("standard15", 15, 15, Rule::Standard, "h8 i9 i8 g8 j10 h9 j8 k8 i7"),
    ("standard15-middle", 15, 15, Rule::Standard, "h8 i9 h10 h9 g9 i10 i8 j9 k9 g11"),
    ("renju15", 15, 15, Rule::Renju, "h8 i9 i8 g8 j10 h9 j8 k8"),
    ("renju15-middle", 15, 15, Rule::Renju, "h8 i9 h10 h9 g9 i10 i8 j9 k9 g11 f10"),
    ("caro15", 15, 15, Rule::Caro, "h8 i9 i8 g8 j10 h9 j8 k8 i7"),
];

/// Parses `h8`-style moves (letter = column from `a`, number = row from 1).
pub fn parse_moves(text: &str) -> Vec<Pos> {
    text.split_whitespace()
        .map(|m| {
            let x = (m.as_bytes()[0].to_ascii_lowercase() - b'a') as usize;
            let y: usize = m[1..].parse().expect("bench move row");
            Pos::new(x, y - 1)
        })
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

/// Runs the benchmark; returns its lines, total nodes, total ms and the signature.
pub fn run(depth: i32) -> (Vec<BenchLine>, u64, u64, u64) {
    let mut searcher = Searcher::new(TT_BYTES);
    let stop = AtomicBool::new(false);
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
    for (name, w, h, rule, moves) in POSITIONS {
        let mut b = Board::new(w, h, rule);
        for p in parse_moves(moves) {
            b.make(p);
        }
        searcher.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let t = Instant::now();
        let r = searcher.think(&b, &limits, &stop, &mut |_| {});
        let ms = t.elapsed().as_millis() as u64;
        mix(r.nodes);
        mix(r.best.map_or(0, |p| p.index() as u64));
        mix(r.score as u64);
        total_nodes += r.nodes;
        total_ms += ms;
        lines.push(BenchLine {
            name,
            nodes: r.nodes,
            ms,
            best: r.best,
            score: r.score,
        });
    }
    (lines, total_nodes, total_ms, sig)
}
