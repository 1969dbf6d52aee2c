//! `pbrain-rensa selfplay`: training data for a learned evaluation. Rensa plays itself from
//! random balanced openings over the rules and board sizes asked for, at a fixed node budget
//! on one thread per game (so every game is reproducible from the seed and its number), on
//! several games at once, and writes sampled positions with their search score and the game's
//! result to a compact binary file that a later run resumes.
//!
//! # File format (version 1, little-endian)
//! - Header, 8 bytes: `RNSP`, version `u16` = 1, `u16` = 0.
//! - Then one block per game, in the order games finished:
//!   `u32` game number, `u16` record count, then the records.
//! - A record: `u8` rule (Gomocup number: 0, 1, 4, 8, 9), `u8` width, `u8` height,
//!   `u8` side to move (0 black, 1 white), `i8` result for the side to move (1 win, 0 draw,
//!   −1 loss), `u8` reserved (0), `i16` search score for the side to move (Rensa's scale,
//!   never a mate score), `u16` stone count n, then n stones of two bytes in playing order:
//!   `x | colour << 7` (colour 0 black, 1 white) and `y`.
//!
//! A block cut short (the run was killed while writing) is dropped when the file is resumed.

use crate::board::{Accumulator, Board, Color, Pos, Shipped};
use crate::engine::{Engine, ThinkLimits};
use crate::eval::is_mate_score;
use crate::pattern::Threat;
use crate::record::{self, GameRecord};
use crate::rng::SplitMix64;
use crate::rules::Rule;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};

const MAGIC: &[u8; 4] = b"RNSP";
const VERSION: u16 = 1;
const HEADER: usize = 8;
/// Openings whose quick search value is further from even than this are drawn again.
const OPENING_BALANCE: i32 = 250;
/// Tries at a balanced opening before the last one drawn is taken.
const OPENING_TRIES: usize = 24;
/// Transposition table of each game's engine.
const TABLE_BYTES: usize = 16 << 20;

/// What to play and where to write it.
#[derive(Clone, Debug)]
pub struct Options {
    /// Games in the file when done (those already there count).
    pub games: u64,
    /// Node budget of each move's search.
    pub nodes: u64,
    /// Games played at once.
    pub jobs: usize,
    pub seed: u64,
    pub rules: Vec<Rule>,
    /// Square board sizes.
    pub sizes: Vec<usize>,
    /// Share of the eligible positions written, per mille.
    pub sample_permille: u64,
    /// Where each game is also appended as SGF (a collection of them), if anywhere.
    pub games_file: Option<std::path::PathBuf>,
}

/// One position of a game with what the trainer learns from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    pub side: Color,
    /// 1 win, 0 draw, −1 loss, for the side to move.
    pub result: i8,
    /// The search's value for the side to move.
    pub score: i16,
    /// Stones in playing order.
    pub stones: Vec<(Pos, Color)>,
}

impl Record {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&[
            self.rule.info_code() as u8,
            self.width as u8,
            self.height as u8,
            self.side.index() as u8,
            self.result as u8,
            0,
        ]);
        out.extend_from_slice(&self.score.to_le_bytes());
        out.extend_from_slice(&(self.stones.len() as u16).to_le_bytes());
        for &(p, c) in &self.stones {
            out.push(p.x() as u8 | (c.index() as u8) << 7);
            out.push(p.y() as u8);
        }
    }

    /// Reads one record; `None` when `bytes` ends first or holds no valid record.
    fn read(bytes: &[u8]) -> Option<(Record, usize)> {
        let h = bytes.get(..10)?;
        let rule = Rule::from_info(h[0] as i64)?;
        let n = u16::from_le_bytes([h[8], h[9]]) as usize;
        let body = bytes.get(10..10 + 2 * n)?;
        let stones = body
            .chunks(2)
            .map(|s| {
                let c = if s[0] >> 7 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                (Pos::new((s[0] & 0x7f) as usize, s[1] as usize), c)
            })
            .collect();
        let r = Record {
            rule,
            width: h[1] as usize,
            height: h[2] as usize,
            side: if h[3] == 0 {
                Color::Black
            } else {
                Color::White
            },
            result: h[4] as i8,
            score: i16::from_le_bytes([h[6], h[7]]),
            stones,
        };
        Some((r, 10 + 2 * n))
    }

    /// The position, to deduplicate by.
    pub fn board(&self) -> Board {
        self.board_with(Shipped::shipped(self.rule, self.width, self.height))
    }

    /// The position on a board keeping the sums of `acc`.
    pub fn board_with<A: Accumulator>(&self, acc: A) -> Board<A> {
        let mut b = Board::with_accumulator(self.width, self.height, self.rule, acc);
        for &(p, c) in &self.stones {
            b.put(p, c);
        }
        b.set_side(self.side);
        b
    }
}

/// What a file holds: the games written, the positions' keys and the records' count, and
/// where the last whole block ends.
pub struct Contents {
    pub games: HashSet<u32>,
    pub keys: HashSet<u64>,
    pub records: u64,
    end: u64,
}

/// Reads every whole block of a self-play file, calling `each` for each record.
pub fn read_file(path: &Path, mut each: impl FnMut(&Record)) -> io::Result<Contents> {
    read_blocks(path, |_, block| block.iter().for_each(&mut each))
}

/// Reads every whole block of a self-play file, calling `each` with each block's game
/// number and records.
pub fn read_blocks(path: &Path, mut each: impl FnMut(u32, &[Record])) -> io::Result<Contents> {
    let mut bytes = Vec::new();
    File::open(path)?.read_to_end(&mut bytes)?;
    if bytes.len() < HEADER || &bytes[..4] != MAGIC {
        return Err(io::Error::other("not a Rensa self-play file"));
    }
    if u16::from_le_bytes([bytes[4], bytes[5]]) != VERSION {
        return Err(io::Error::other("unknown self-play file version"));
    }
    let mut c = Contents {
        games: HashSet::new(),
        keys: HashSet::new(),
        records: 0,
        end: HEADER as u64,
    };
    let mut at = HEADER;
    'blocks: while let Some(h) = bytes.get(at..at + 6) {
        let game = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
        let n = u16::from_le_bytes([h[4], h[5]]);
        let mut pos = at + 6;
        let mut block = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let Some((r, len)) = Record::read(&bytes[pos..]) else {
                break 'blocks;
            };
            pos += len;
            block.push(r);
        }
        for r in &block {
            c.keys.insert(r.board().hash());
        }
        each(game, &block);
        c.records += n as u64;
        c.games.insert(game);
        at = pos;
        c.end = at as u64;
    }
    Ok(c)
}

/// A finished game: its number, its records and how many positions it had.
struct Played {
    game: u32,
    records: Vec<Record>,
    plies: usize,
    /// The whole game, its opening marked.
    game_record: GameRecord,
}

/// Plays `opts.games` games into `path` (resuming it when it exists), reporting progress
/// to `progress` as (games done, games wanted, records written).
pub fn run(
    path: &Path,
    opts: &Options,
    progress: &mut dyn FnMut(u64, u64, u64),
) -> io::Result<u64> {
    if opts.rules.is_empty() || opts.sizes.is_empty() {
        return Err(io::Error::other("no rule or no board size to play"));
    }
    let (mut file, contents) = open(path)?;
    let done = contents.games.len() as u64;
    let mut records = contents.records;
    let keys = Arc::new(Mutex::new(contents.keys));
    let next = Arc::new(AtomicU64::new(0));
    let skip = Arc::new(contents.games);
    let (tx, rx) = mpsc::channel::<Played>();
    let mut workers = Vec::new();
    for _ in 0..opts.jobs.max(1) {
        let (tx, next, skip, keys, opts) = (
            tx.clone(),
            Arc::clone(&next),
            Arc::clone(&skip),
            Arc::clone(&keys),
            opts.clone(),
        );
        workers.push(std::thread::spawn(move || {
            let mut engine = Engine::new();
            engine.set_table_bytes(TABLE_BYTES);
            loop {
                let g = next.fetch_add(1, Ordering::SeqCst);
                if g >= opts.games {
                    return;
                }
                if skip.contains(&(g as u32)) {
                    continue;
                }
                let played = play_game(&mut engine, g as u32, &opts, &keys);
                if tx.send(played).is_err() {
                    return;
                }
            }
        }));
    }
    drop(tx);
    let mut games_file = match &opts.games_file {
        Some(path) => Some(OpenOptions::new().create(true).append(true).open(path)?),
        None => None,
    };
    let mut finished = done;
    progress(finished, opts.games, records);
    for p in rx {
        write_game(&mut file, p.game, &p.records)?;
        if let Some(f) = &mut games_file {
            f.write_all(record::sgf::write(&p.game_record, &[]).as_bytes())?;
        }
        records += p.records.len() as u64;
        finished += 1;
        log::debug!(
            "game {} of {} plies: {} records",
            p.game,
            p.plies,
            p.records.len()
        );
        progress(finished, opts.games, records);
    }
    for w in workers {
        let _ = w.join();
    }
    Ok(records)
}

/// Appends one game's block of records (at most `u16::MAX`) to a file from [`open`].
pub fn write_game(file: &mut File, game: u32, records: &[Record]) -> io::Result<()> {
    let n = u16::try_from(records.len()).map_err(|_| io::Error::other("too many records"))?;
    let mut block = Vec::new();
    block.extend_from_slice(&game.to_le_bytes());
    block.extend_from_slice(&n.to_le_bytes());
    for r in records {
        r.write(&mut block);
    }
    file.write_all(&block)?;
    file.flush()
}

/// Opens `path` for appending after its last whole block, creating it with a header; also
/// what it already holds (games written, position keys).
pub fn open(path: &Path) -> io::Result<(File, Contents)> {
    if path.exists() {
        let contents = read_file(path, |_| {})?;
        let mut f = OpenOptions::new().read(true).write(true).open(path)?;
        // drop a block cut short
        f.set_len(contents.end)?;
        f.seek(SeekFrom::End(0))?;
        return Ok((f, contents));
    }
    let mut f = File::create(path)?;
    f.write_all(MAGIC)?;
    f.write_all(&VERSION.to_le_bytes())?;
    f.write_all(&[0, 0])?;
    Ok((
        f,
        Contents {
            games: HashSet::new(),
            keys: HashSet::new(),
            records: 0,
            end: HEADER as u64,
        },
    ))
}

/// A position of a game as it was played.
struct Seen {
    stones: Vec<(Pos, Color)>,
    side: Color,
    /// The search's value for the side to move.
    score: i32,
    /// Whether it may be written: no mate score, no five to make or block.
    counts: bool,
}

/// Game number `game`: its rule, size and opening come from the seed and the number.
fn play_game(engine: &mut Engine, game: u32, opts: &Options, keys: &Mutex<HashSet<u64>>) -> Played {
    let mut rng = SplitMix64::new(opts.seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let rule = opts.rules[(rng.next_u64() % opts.rules.len() as u64) as usize];
    let size = opts.sizes[(rng.next_u64() % opts.sizes.len() as u64) as usize];
    engine.clear_hash();
    balanced_opening(engine, rule, size, opts.nodes, &mut rng);
    let opening = engine.board().ply();
    let mut seen: Vec<Seen> = Vec::new();
    let winner = loop {
        let b = engine.board();
        if b.is_full() {
            break None;
        }
        let side = b.side();
        // a position where a five must be blocked, or made, teaches nothing about value
        let forced = b.count(side.opponent(), Threat::Five) > 0 || b.count(side, Threat::Five) > 0;
        let stones = b.history().to_vec();
        let r = engine.think_unlimited(&ThinkLimits::by_nodes(opts.nodes), &mut |_| {});
        let Some(p) = r.best else {
            break None;
        };
        seen.push(Seen {
            stones,
            side,
            score: r.score,
            counts: !forced && !is_mate_score(r.score),
        });
        engine.commit(p);
        if engine.board().is_five_at(p) {
            break Some(side);
        }
    };
    let plies = seen.len();
    let mut game_record = GameRecord::new(size, size);
    game_record.rule = Some(rule);
    game_record.black = Some(format!("Rensa {}", env!("CARGO_PKG_VERSION")));
    game_record.white = game_record.black.clone();
    game_record.opening = opening;
    game_record.result = Some(winner.map_or(record::Outcome::Draw, record::Outcome::Won));
    game_record.moves = (engine.board().history().iter())
        .map(|(p, _)| record::Move::at(p.x() as i64, p.y() as i64))
        .collect();
    let mut records = Vec::new();
    for Seen {
        stones,
        side,
        score,
        counts,
    } in seen
    {
        if !counts || rng.next_u64() % 1000 >= opts.sample_permille {
            continue;
        }
        let r = Record {
            rule,
            width: size,
            height: size,
            side,
            result: match winner {
                None => 0,
                Some(w) if w == side => 1,
                Some(_) => -1,
            },
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            stones,
        };
        // each position once in the whole file
        if keys
            .lock()
            .map(|mut k| k.insert(r.board().hash()))
            .unwrap_or(false)
        {
            records.push(r);
        }
    }
    Played {
        game,
        records,
        plies,
        game_record,
    }
}

/// Two to five random stones near the centre, alternating from black, whose quick search
/// value is near even; left on the engine's board.
fn balanced_opening(
    engine: &mut Engine,
    rule: Rule,
    size: usize,
    nodes: u64,
    rng: &mut SplitMix64,
) {
    let c = (size / 2) as i64;
    for attempt in 0..OPENING_TRIES {
        engine.new_game(size, size, rule);
        let n = 2 + (rng.next_u64() % 4) as usize;
        let mut placed = 0;
        while placed < n {
            let x = c - 3 + (rng.next_u64() % 7) as i64;
            let y = c - 3 + (rng.next_u64() % 7) as i64;
            // off the board, taken or a black foul: draw again
            if engine.cell(x, y).and_then(|p| engine.play_own(p)).is_ok() {
                placed += 1;
            }
        }
        let r = engine.think_unlimited(&ThinkLimits::by_nodes(nodes / 4), &mut |_| {});
        if r.score.abs() <= OPENING_BALANCE || attempt + 1 == OPENING_TRIES {
            return;
        }
    }
}

pub mod cli;
#[cfg(test)]
mod tests;
