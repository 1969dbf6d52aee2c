//! `pbrain-rensa analyze`: its options, the workers and the progress bar.

use super::input::{self, Settings};
use super::{
    assemble, output, replay_game, search_positions, svg, GameAnalysis, Limits, Replayed, Searched,
};
use crate::engine::Engine;
use crate::record::Defaults;
use crate::rules::Rule;
use anyhow::{anyhow, bail, Context, Result};
use std::collections::HashSet;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

const AFTER_HELP: &str = "\
Examples:
  pbrain-rensa analyze game.psq
  pbrain-rensa analyze --time-ms 100 --threads 2 --out annotated/ gomocup2025_freestyle.zip
  pbrain-rensa analyze --rule renju --json games/ > moves.jsonl

Records: Piskvork .psq (Gomocup's), SGF (c-gomoku-cli's and most gomoku programs'; every
game of a collection), and move lists (h8 i9 ... or x,y lines, 0-based). The board comes
from the file; the rule from --rule, else the file (SGF's RU), else freestyle. The given
opening is not judged: c-gomoku-cli's \"opening move\" marks, a .psq's leading 0 ms moves,
or --opening N.

Each move is judged by the win probability its player lost against the best move:
inaccuracy from 5%, mistake from 10%, blunder from 20%; a forced win let go is a missed
win. The move that decided the game is the loser's last move that turned a position not
yet lost into a proven loss (else the last one after which their chance stayed below half).";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Record files, folders of them, or ZIPs of them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Search time per position, in milliseconds (default 500 unless --nodes is given).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Node limit per position (with one thread, the same result on every run).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Positions searched at once (default: one per CPU this process may use).
    #[arg(long, short)]
    pub threads: Option<usize>,
    /// Memory for the hash tables in all, MiB.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(8..=65536))]
    pub memory: u64,
    /// The rule: freestyle, standard, renju, caro, caro-exact, or a Gomocup number; wins
    /// over the file's.
    #[arg(long, short)]
    pub rule: Option<String>,
    /// The first N moves are a given opening, not judged (default: as the record marks
    /// them: c-gomoku-cli's `opening move` comments, a .psq's leading 0 ms moves).
    #[arg(long)]
    pub opening: Option<usize>,
    /// The board of a move list without a header: N or WxH.
    #[arg(long, short, default_value = "15")]
    pub size: String,
    /// Writes an annotated SGF and an SVG graph per game, and report.txt, into this folder.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// One JSON object per move on stdout, in place of the tables.
    #[arg(long)]
    pub json: bool,
    /// One line per game in place of its table.
    #[arg(long)]
    pub brief: bool,
}

/// Fewest positions a worker takes from one game when a game is split among workers.
const MIN_CHUNK: usize = 8;

pub fn main(a: Args) -> Result<()> {
    let limits = Limits {
        time_ms: a
            .time_ms
            .or(if a.nodes.is_some() { None } else { Some(500) }),
        nodes: a.nodes,
    };
    let (width, height) = crate::record::parse_size(&a.size).map_err(|e| anyhow!(e))?;
    let rule = a
        .rule
        .as_deref()
        .map(|r| Rule::parse(r).map_err(|e| anyhow!(e)))
        .transpose()?;
    let settings = Settings {
        defaults: Defaults { width, height },
        rule,
    };
    let mut found = input::gather(&a.files, &settings);
    if let Some(n) = a.opening {
        for g in &mut found.games {
            g.record.opening = n;
        }
    }
    for e in &found.errors {
        eprintln!("analyze: {e}");
    }
    if found.games.is_empty() {
        bail!("no game to analyse");
    }
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let threads = a.threads.unwrap_or_else(crate::platform::cpus).max(1);
    let table_bytes = (a.memory << 20) as usize / threads;
    let mut out = Emitter::new(&a);
    run(&found.games, limits, threads, table_bytes, &mut |g| {
        out.game(g)
    })?;
    out.finish()
}

/// Analyses `games` over `threads` workers, handing each finished game to `done` in order.
pub fn run(
    games: &[super::Game],
    limits: Limits,
    threads: usize,
    table_bytes: usize,
    done: &mut dyn FnMut(GameAnalysis) -> Result<()>,
) -> Result<()> {
    let mut replayer = Engine::new();
    let replayed: Vec<Replayed> = games
        .iter()
        .map(|g| replay_game(&mut replayer, g))
        .collect();
    drop(replayer);
    let jobs = split(&replayed, threads);
    let total: usize = replayed.iter().map(|r| r.positions().len()).sum();
    let bar = progress_bar(total as u64, games.len());
    let (tx, rx) = mpsc::channel::<(usize, Vec<Searched>)>();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..threads.min(jobs.len()) {
            let (tx, jobs, next, bar, games, replayed) =
                (tx.clone(), &jobs, &next, bar.clone(), games, &replayed);
            scope.spawn(move || {
                let mut engine = Engine::new();
                engine.set_table_bytes(table_bytes);
                loop {
                    let j = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some((g, range)) = jobs.get(j) else {
                        return;
                    };
                    let s = search_positions(
                        &mut engine,
                        &games[*g],
                        &replayed[*g],
                        range.clone(),
                        limits,
                        &mut || bar.inc(1),
                    );
                    if tx.send((j, s)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        // the chunks of each game, and the games handed on so far
        let mut parts: Vec<Vec<Option<Vec<Searched>>>> =
            replayed.iter().map(|_| Vec::new()).collect();
        for (g, _) in &jobs {
            parts[*g].push(None);
        }
        let first_job: Vec<usize> = (0..games.len())
            .map(|g| jobs.iter().position(|(h, _)| *h == g).unwrap_or(0))
            .collect();
        let mut ready: Vec<Option<GameAnalysis>> = games.iter().map(|_| None).collect();
        let mut emitted = 0;
        for (j, s) in rx {
            let g = jobs[j].0;
            parts[g][j - first_job[g]] = Some(s);
            if parts[g].iter().all(Option::is_some) {
                let searched = parts[g]
                    .iter_mut()
                    .flat_map(|p| p.take().unwrap_or_default())
                    .collect();
                let elapsed = start.elapsed().as_millis() as u64;
                ready[g] = Some(assemble(&games[g], replayed[g].clone(), searched, elapsed));
            }
            while let Some(a) = ready.get_mut(emitted).and_then(Option::take) {
                bar.suspend(|| done(a))?;
                emitted += 1;
            }
        }
        // games with no position to search (a record that ends at once)
        for g in emitted..games.len() {
            let a = ready[g]
                .take()
                .unwrap_or_else(|| assemble(&games[g], replayed[g].clone(), Vec::new(), 0));
            bar.suspend(|| done(a))?;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    Ok(())
}

/// The jobs: each game's positions, in chunks when there are fewer games than workers
/// (each chunk searched from its first position, on a fresh table).
fn split(replayed: &[Replayed], threads: usize) -> Vec<(usize, Range<usize>)> {
    let per_game = (threads / replayed.len().max(1)).max(1);
    let mut jobs = Vec::new();
    for (g, r) in replayed.iter().enumerate() {
        let range = r.positions();
        let chunks = per_game.min(range.len() / MIN_CHUNK).max(1);
        let size = range.len().div_ceil(chunks).max(1);
        let mut at = range.start;
        loop {
            let end = (at + size).min(range.end);
            jobs.push((g, at..end));
            at = end;
            if at >= range.end {
                break;
            }
        }
    }
    jobs
}

fn progress_bar(positions: u64, games: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(positions),
        indicatif::ProgressDrawTarget::stderr_with_hz(4),
    );
    let style = indicatif::ProgressStyle::with_template(
        "analyze [{bar:30}] {pos}/{len} positions of {msg}, {elapsed} so far, {eta} left",
    )
    .expect("a valid template")
    .progress_chars("#>-");
    bar.set_style(style);
    bar.set_message(format!("{games} game{}", if games == 1 { "" } else { "s" }));
    bar
}

/// Writes each finished game where the options say, and the report at the end.
struct Emitter {
    json: bool,
    brief: bool,
    out: Option<PathBuf>,
    names: HashSet<String>,
    games: Vec<GameAnalysis>,
}

impl Emitter {
    fn new(a: &Args) -> Emitter {
        Emitter {
            json: a.json,
            brief: a.brief,
            out: a.out.clone(),
            names: HashSet::new(),
            games: Vec::new(),
        }
    }

    fn game(&mut self, a: GameAnalysis) -> Result<()> {
        let mut stdout = std::io::stdout().lock();
        if let Some(t) = output::stop_text(&a) {
            eprintln!("analyze: {t}");
        }
        if self.json {
            for m in output::json_moves(&a) {
                writeln!(stdout, "{m}")?;
            }
        } else if self.brief {
            writeln!(stdout, "{}", brief_line(&a))?;
        } else {
            writeln!(stdout, "{}", output::table(&a))?;
        }
        stdout.flush()?;
        if let Some(dir) = self.out.clone() {
            let stem = self.unique_stem(&a.game.source);
            write_file(&dir.join(format!("{stem}.sgf")), &output::annotated_sgf(&a))?;
            write_file(&dir.join(format!("{stem}.svg")), &svg::graph(&a))?;
        }
        // a batch's report needs only the figures; keep no more than it uses
        self.games.push(a);
        Ok(())
    }

    /// A file name from a game's source, unique in this run.
    fn unique_stem(&mut self, source: &str) -> String {
        let base = Path::new(source.rsplit(['/', '\\', ':']).next().unwrap_or(source));
        let (stem, game) = match base.to_string_lossy().split_once('#') {
            Some((s, n)) => (s.to_string(), format!("-{n}")),
            None => (base.to_string_lossy().into_owned(), String::new()),
        };
        let stem = Path::new(&stem)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let clean: String = format!("{stem}{game}")
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let clean = if clean.is_empty() {
            "game".to_string()
        } else {
            clean
        };
        let mut name = clean.clone();
        let mut k = 2;
        while !self.names.insert(name.clone()) {
            name = format!("{clean}-{k}");
            k += 1;
        }
        name
    }

    fn finish(self) -> Result<()> {
        let report = output::report(&self.games);
        if !self.json && self.games.len() > 1 {
            print!("{report}");
        }
        if let Some(dir) = &self.out {
            write_file(&dir.join("report.txt"), &report)?;
        }
        Ok(())
    }
}

fn brief_line(a: &GameAnalysis) -> String {
    let judged = |pred: &dyn Fn(super::Judgement) -> bool| {
        a.moves
            .iter()
            .filter(|m| m.judgement.is_some_and(pred))
            .count()
    };
    use super::Judgement::*;
    format!(
        "{}: {}; {} blunders, {} mistakes; {}",
        a.game.source,
        output::result_text(a),
        judged(&|j| matches!(j, Blunder | MissedWin | Foul)),
        judged(&|j| j == Mistake),
        output::deciding_text(a).unwrap_or_else(|| "no deciding move".into())
    )
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}
