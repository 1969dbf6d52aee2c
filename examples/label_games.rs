//! Labels the positions of referee game records with a shallow Rensa search, so that a fit
//! can blend search scores into its targets (`fit_cells --blend`) for games that were played
//! without them.
//!
//! cargo run --release --example label_games -- [--nodes N] [--jobs N] [--max-stones N] \
//!     --out FILE.rnsp FILE.jsonl|FILE.rnsp...
//!
//! Every position after the opening that the search would evaluate statically (no five to
//! make or block, no open four that wins outright) is searched with a budget of `--nodes`
//! (default 5,000) on a fresh table per game, and written with the game's result in the
//! self-play format of `src/selfplay.rs` (one block per game, numbered by its place among
//! the input lines); positions whose score is a mate are left out. Deterministic: the same
//! files and budget give the same output whatever `--jobs`.
//!
//! A self-play file (`.rnsp`) as input is relabelled instead: each of its positions is
//! searched again with the budget (one fresh table per game block) and written with its
//! game's result, so positions labelled by shallow self-play searches get deeper scores.
//! `--max-stones N` labels only the positions with at most N stones (the early game), in
//! game records and self-play files alike, so a deep budget goes where it is spent. Output
//! blocks are numbered by their input's place (not the input's own game numbers, and written
//! out of order with several jobs), the same with the filter as without it.

#[path = "common/games.rs"]
#[allow(dead_code)]
mod games;

use anyhow::{bail, Context, Result};
use games::{is_decided, parse_game, Game};
use rensa::board::{Color, Pos};
use rensa::engine::{Engine, ThinkLimits};
use rensa::eval::is_mate_score;
use rensa::selfplay::{self, Record};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

const USAGE: &str =
    "usage: label_games [--nodes N] [--jobs N] [--max-stones N] --out FILE FILE.jsonl|FILE.rnsp...";

struct Options {
    nodes: u64,
    jobs: usize,
    /// Positions with more stones than this are left out.
    max_stones: usize,
    out: PathBuf,
    files: Vec<String>,
}

fn options() -> Result<Options> {
    let mut o = Options {
        nodes: 5_000,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        max_stones: usize::MAX,
        out: PathBuf::new(),
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--nodes" => o.nodes = value("--nodes")?.parse().context("--nodes")?,
            "--jobs" => o.jobs = value("--jobs")?.parse().context("--jobs")?,
            "--max-stones" => {
                o.max_stones = value("--max-stones")?.parse().context("--max-stones")?
            }
            "--out" => o.out = value("--out")?.into(),
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            f if f.starts_with("--") => bail!("unknown option {f}\n{USAGE}"),
            f => o.files.push(f.to_string()),
        }
    }
    if o.out.as_os_str().is_empty() || o.files.is_empty() {
        bail!("{USAGE}");
    }
    Ok(o)
}

/// The search's score of the engine's position with a budget of `nodes`, as a record stores
/// it; `None` for a mate score (the fit leaves those out).
fn search_score(engine: &mut Engine, nodes: u64) -> Option<i16> {
    let r = engine.think_unlimited(&ThinkLimits::by_nodes(nodes), &mut |_| {});
    (!is_mate_score(r.score)).then(|| r.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16)
}

/// The labelled positions of one game (those with at most `max_stones` stones).
fn label(engine: &mut Engine, game: &Game, nodes: u64, max_stones: usize) -> Result<Vec<Record>> {
    engine.new_game(game.size, game.size, game.rule);
    engine.clear_hash();
    let mut out = Vec::new();
    for (ply, &(x, y)) in game.moves.iter().enumerate() {
        let b = engine.board();
        if ply >= game.opening_plies && ply <= max_stones && !is_decided(b, false) {
            let side = b.side();
            let stones: Vec<(Pos, Color)> = b.history().to_vec();
            let black = game.black_score;
            let score = if side == Color::Black {
                black
            } else {
                1.0 - black
            };
            if let Some(value) = search_score(engine, nodes) {
                out.push(Record {
                    rule: game.rule,
                    width: game.size,
                    height: game.size,
                    side,
                    result: (score * 2.0 - 1.0).round() as i8,
                    score: value,
                    stones,
                });
            }
        }
        engine
            .cell(x as i64, y as i64)
            .and_then(|p| engine.play(p))
            .map_err(|e| anyhow::anyhow!("move {} ({x},{y}): {e:?}", ply + 1))?;
    }
    Ok(out)
}

/// What one worker labels as a unit: a game record, or a self-play file's block of positions.
enum Job {
    Game(Game),
    Block(Vec<Record>),
}

/// A self-play block's positions searched again with `nodes`; the result stays the game's.
fn relabel(engine: &mut Engine, block: &[Record], nodes: u64) -> Result<Vec<Record>> {
    engine.clear_hash();
    let mut out = Vec::new();
    for r in block {
        // stones alternate from black, as self-play plays them
        if let Some(i) = (0..r.stones.len()).find(|&i| r.stones[i].1.index() != i % 2) {
            bail!("stone {} of a record is not the side to move's", i + 1);
        }
        let stones: Vec<Pos> = r.stones.iter().map(|&(p, _)| p).collect();
        engine.new_game(r.width, r.height, r.rule);
        engine
            .set_alternating(&stones)
            .map_err(|e| anyhow::anyhow!("a record's stones: {e:?}"))?;
        if engine.board().side() != r.side {
            bail!("a record's side to move does not follow its stones");
        }
        if let Some(score) = search_score(engine, nodes) {
            out.push(Record { score, ..r.clone() });
        }
    }
    Ok(out)
}

/// Every input file's jobs, in order; self-play blocks keep only their positions with at
/// most `max_stones` stones (a block may end up empty: it still counts as a game).
fn read_jobs(files: &[String], max_stones: usize) -> Result<Vec<Job>> {
    let mut jobs = Vec::new();
    for (file_no, file) in files.iter().enumerate() {
        if file.ends_with(".rnsp") {
            selfplay::read_blocks(std::path::Path::new(file), |_, block| {
                let early = block.iter().filter(|r| r.stones.len() <= max_stones);
                jobs.push(Job::Block(early.cloned().collect()))
            })
            .with_context(|| format!("reading {file}"))?;
            continue;
        }
        let text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
        for (line_no, line) in text.lines().enumerate() {
            if !line.trim().is_empty() {
                let g = parse_game(line, file_no, line_no)
                    .with_context(|| format!("{file}:{}", line_no + 1))?;
                jobs.push(Job::Game(g));
            }
        }
    }
    Ok(jobs)
}

fn main() -> Result<()> {
    let o = options()?;
    let jobs = Arc::new(read_jobs(&o.files, o.max_stones)?);
    let (mut file, contents) = selfplay::open(&o.out)?;
    let done = Arc::new(contents.games);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<Result<(u32, Vec<Record>)>>();
    for _ in 0..o.jobs.max(1) {
        let (jobs, done, next, tx) = (
            Arc::clone(&jobs),
            Arc::clone(&done),
            Arc::clone(&next),
            tx.clone(),
        );
        let (nodes, max_stones) = (o.nodes, o.max_stones);
        std::thread::spawn(move || {
            let mut engine = Engine::new();
            engine.set_table_bytes(16 << 20);
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(i) else { return };
                if done.contains(&(i as u32)) {
                    continue;
                }
                let r = match job {
                    Job::Game(g) => label(&mut engine, g, nodes, max_stones),
                    Job::Block(b) => relabel(&mut engine, b, nodes),
                }
                .map(|v| (i as u32, v));
                if tx.send(r).is_err() {
                    return;
                }
            }
        });
    }
    drop(tx);
    let (mut n, mut positions) = (done.len(), contents.records as usize);
    for r in rx {
        let (game, records) = r?;
        selfplay::write_game(&mut file, game, &records)?;
        n += 1;
        positions += records.len();
        eprint!("\r{n}/{} games, {positions} positions ", jobs.len());
    }
    eprintln!();
    println!("{positions} positions in {}", o.out.display());
    Ok(())
}
