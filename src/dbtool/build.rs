//! `pbrain-rensa db build`: a book grown by analysis. From each opening, positions are
//! searched (multi-PV) with the database open, so that every search writes its value and its
//! best moves' positions (the search's bookmaking, [`crate::search::book`]); then the best
//! moves are expanded in turn, breadth first, to a number of plies. A position the book
//! already holds with an exact value is not searched again: it is expanded from its
//! records, so that running it again grows the book further.

use super::BoardArgs;
use crate::database::record::*;
use crate::database::Position;
use crate::engine::{Engine, Owner};
use crate::geometry::Pos;
use crate::record::{self, Defaults};
use anyhow::{anyhow, Context, Result};
use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct BuildArgs {
    /// The database (made when missing; saved as it grows).
    pub file: PathBuf,
    /// Openings, one per line as moves (h8 i9 ... or x,y), `#` comments; default: the
    /// empty board.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Search time per position, ms.
    #[arg(long, default_value_t = 500)]
    pub time_ms: u64,
    /// Plies to expand below each opening.
    #[arg(long, default_value_t = 4)]
    pub plies: usize,
    /// Moves expanded from each position (the best ones).
    #[arg(long, default_value_t = 2)]
    pub width: usize,
    /// Stop after this many positions searched.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Memory for the search's table, MiB.
    #[arg(long, default_value_t = 256)]
    pub memory: u64,
    #[command(flatten)]
    pub board: BoardArgs,
}

/// A position to expand: its moves from the empty board and its plies below the opening.
struct Item {
    moves: Vec<Pos>,
    ply: usize,
}

pub fn main(a: BuildArgs) -> Result<()> {
    let (empty, _) = a.board.position(&[])?;
    let (w, h) = (empty.width as usize, empty.height as usize);
    let mut engine = Engine::new();
    engine.set_memory_limit(a.memory << 20);
    engine
        .open_database(&a.file)
        .map_err(|e| anyhow!(e))
        .with_context(|| format!("opening {}", a.file.display()))?;
    let before = engine.database().map_or(0, |d| d.len());
    let mut queue: VecDeque<Item> = openings(&a, w, h)?
        .into_iter()
        .map(|moves| Item { moves, ply: 0 })
        .collect();
    let mut seen = HashSet::new();
    let (mut searched, start) = (0usize, Instant::now());
    while let Some(item) = queue.pop_front() {
        let p = Position::from_moves(empty.rule, w, h, &item.moves).map_err(|e| anyhow!(e))?;
        if !seen.insert(p.key()) || p.moves().is_empty() {
            continue;
        }
        // known: an exact value and its best moves (a value alone, written by the parent's
        // search, does not say which moves to expand)
        let known = engine.database().is_some_and(|d| {
            d.get_position(&p)
                .is_some_and(|r| r.bound() == BOUND_EXACT && r.depth() > 0)
                && !d.children(&p).is_empty()
        });
        if !known && searched < a.positions {
            search(&mut engine, &p, &item.moves, &a)?;
            searched += 1;
            if searched % 50 == 0 {
                engine.save_database().map_err(|e| anyhow!(e))?;
                eprintln!(
                    "{searched} positions searched, {} records, {:.0} s",
                    engine.database().map_or(0, |d| d.len()),
                    start.elapsed().as_secs_f64()
                );
            }
        }
        if item.ply >= a.plies {
            continue;
        }
        for m in best_moves(&engine, &p, a.width) {
            let mut moves = item.moves.clone();
            moves.push(m);
            queue.push_back(Item {
                moves,
                ply: item.ply + 1,
            });
        }
    }
    engine.save_database().map_err(|e| anyhow!(e))?;
    let after = engine.database().map_or(0, |d| d.len());
    println!(
        "{}: {searched} positions searched in {:.0} s; {after} records ({} new)",
        a.file.display(),
        start.elapsed().as_secs_f64(),
        after.saturating_sub(before)
    );
    Ok(())
}

fn openings(a: &BuildArgs, w: usize, h: usize) -> Result<Vec<Vec<Pos>>> {
    let Some(path) = &a.openings else {
        return Ok(vec![Vec::new()]);
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let g = record::moves::parse(
            body,
            Defaults {
                width: w,
                height: h,
            },
        )
        .map_err(|e| anyhow!("{}:{}: {e}", path.display(), i + 1))?;
        let moves = g
            .moves
            .iter()
            .map(|m| Pos::at(m.x, m.y).filter(|_| m.x < w as i64 && m.y < h as i64))
            .collect::<Option<Vec<Pos>>>()
            .ok_or_else(|| anyhow!("{}:{}: a move off the board", path.display(), i + 1))?;
        out.push(moves);
    }
    Ok(out)
}

/// Searches the position with the database open: the search writes what it finds.
fn search(engine: &mut Engine, p: &Position, moves: &[Pos], a: &BuildArgs) -> Result<()> {
    engine.new_game(p.width as usize, p.height as usize, p.rule);
    // the side to move plays "own" stones: any colour assignment gives the same position
    let me = if p.white_to_move { 1 } else { 0 };
    let stones: Vec<(Pos, Owner)> = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            (
                m,
                if i % 2 == me {
                    Owner::Own
                } else {
                    Owner::Opponent
                },
            )
        })
        .collect();
    engine.set_position(&stones).map_err(|e| anyhow!("{e}"))?;
    engine.analyse_lines(Some(a.time_ms), None, a.width.max(1));
    Ok(())
}

/// The book's best moves from `p`, for its side to move: by the value of the position
/// each leads to, a proven win first, a proven loss last.
fn best_moves(engine: &Engine, p: &Position, n: usize) -> Vec<Pos> {
    let Some(db) = engine.database() else {
        return Vec::new();
    };
    let mut v: Vec<(i32, Pos)> = db
        .children(p)
        .into_iter()
        .filter(|(_, r)| !r.is_null() && fold(r.label) != LABEL_BLOCKED)
        .map(|(m, r)| {
            let ours = match fold(r.label) {
                LABEL_WIN => 100_000,
                LABEL_LOSE => -100_000,
                _ if r.bound() == BOUND_EXACT => -i32::from(r.value),
                _ => -50_000,
            };
            (ours, m)
        })
        .collect();
    v.sort_by_key(|&(s, m)| (-s, m));
    v.into_iter().take(n).map(|(_, m)| m).collect()
}
