//! Game records: a game's board, rule, players, moves and result, read from and written to
//! Piskvork's `.psq` ([`psq`]), SGF ([`sgf`]) and plain move lists ([`moves`]). The one
//! reader and writer of games for every front-end (`analyze`, `play`'s save and load,
//! `selfplay`'s game file); uses only [`crate::geometry`] and [`crate::rules`].
//!
//! Reading checks the syntax only. A move is kept as the file gives it, so that a move off
//! the board or on a taken cell is reported where it is played, by whoever replays it.

pub mod moves;
pub mod psq;
pub mod sgf;
#[cfg(test)]
mod tests;

use crate::geometry::{Color, MAX_SIZE};
use crate::rules::Rule;
use std::fmt;
use std::path::Path;

/// One move as the file gives it: 0-based column and row, not checked against the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub x: i64,
    pub y: i64,
    /// Time the player spent on it, where the file says.
    pub time_ms: Option<u64>,
    /// The file's comment on the move (SGF's `C[]`), other than a time or an opening mark.
    pub comment: Option<String>,
}

impl Move {
    pub fn at(x: i64, y: i64) -> Move {
        Move {
            x,
            y,
            time_ms: None,
            comment: None,
        }
    }
}

/// How a game ended, where the file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won(Color),
    Draw,
}

/// A game as a file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub width: usize,
    pub height: usize,
    /// `None` where the file does not say (`.psq` never does).
    pub rule: Option<Rule>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub result: Option<Outcome>,
    /// Black's first; the opening's stones too.
    pub moves: Vec<Move>,
    /// How many of the first moves are a given opening, not the players' choice (c-gomoku-cli's
    /// `C[opening move]`, Rensa's own `opening` tag).
    pub opening: usize,
}

impl GameRecord {
    pub fn new(width: usize, height: usize) -> GameRecord {
        GameRecord {
            width,
            height,
            rule: None,
            black: None,
            white: None,
            result: None,
            moves: Vec::new(),
            opening: 0,
        }
    }

    /// The player of `color`'s name, or the colour's.
    pub fn player(&self, color: Color) -> &str {
        let (name, default) = match color {
            Color::Black => (&self.black, "black"),
            Color::White => (&self.white, "white"),
        };
        name.as_deref().filter(|n| !n.is_empty()).unwrap_or(default)
    }
}

/// The three formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Psq,
    Sgf,
    /// One move a line or several a line, `h8` or `x,y` (0-based); `#` starts a comment, and
    /// a first comment `# rensa game WxH rule` gives the board and the rule.
    Moves,
}

impl Format {
    /// The format a file name's extension names (`.psq`, `.sgf`, `.txt`/`.moves`).
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "psq" => Some(Format::Psq),
            "sgf" => Some(Format::Sgf),
            "txt" | "moves" => Some(Format::Moves),
            _ => None,
        }
    }

    /// The format a text's beginning shows.
    pub fn detect(text: &str) -> Format {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with('(') {
            Format::Sgf
        } else if t
            .get(..9)
            .is_some_and(|h| h.eq_ignore_ascii_case("piskvorky"))
        {
            Format::Psq
        } else {
            Format::Moves
        }
    }
}

/// Why a file could not be read, and on which line (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub line: usize,
    pub reason: String,
}

impl ReadError {
    pub fn new(line: usize, reason: impl Into<String>) -> ReadError {
        ReadError {
            line,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ReadError {}

/// What a reader needs that a file may not say: the board of a bare move list.
#[derive(Clone, Copy, Debug)]
pub struct Defaults {
    pub width: usize,
    pub height: usize,
}

impl Default for Defaults {
    fn default() -> Defaults {
        Defaults {
            width: 15,
            height: 15,
        }
    }
}

/// Bytes read from one file at most: a tournament game is a few KiB, and a larger file is
/// not a record.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The games in `text` (an SGF collection may hold several; the others hold one).
pub fn parse(text: &str, format: Format, defaults: Defaults) -> Result<Vec<GameRecord>, ReadError> {
    let text = text.trim_start_matches('\u{feff}');
    match format {
        Format::Psq => psq::parse(text).map(|g| vec![g]),
        Format::Sgf => sgf::parse(text),
        Format::Moves => moves::parse(text, defaults).map(|g| vec![g]),
    }
}

/// `record` in `format` (a move list writes `h8` moves, one a line, after its header).
pub fn write(record: &GameRecord, format: Format) -> String {
    match format {
        Format::Psq => psq::write(record),
        Format::Sgf => sgf::write(record, &[]),
        Format::Moves => moves::write(record),
    }
}

/// A board size from the files' `W` and `H`, checked.
pub(crate) fn check_size(w: i64, h: i64, line: usize) -> Result<(usize, usize), ReadError> {
    let ok = |n: i64| (5..=MAX_SIZE as i64).contains(&n);
    if ok(w) && ok(h) {
        Ok((w as usize, h as usize))
    } else {
        Err(ReadError::new(
            line,
            format!("board {w}x{h} is not supported (5 to {MAX_SIZE} each way)"),
        ))
    }
}

/// A board size as the command line gives it: `N` for N x N, or `WxH` (columns x rows).
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<i64>()
            .map_err(|_| format!("bad board size '{s}'"))
    };
    let (w, h) = match s.split_once(['x', 'X', ',']) {
        Some((w, h)) => (num(w)?, num(h)?),
        None => (num(s)?, num(s)?),
    };
    check_size(w, h, 0).map_err(|e| e.reason)
}
