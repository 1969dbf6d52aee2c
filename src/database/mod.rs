//! The position database: Yixin's book of positions with labels, values, depths and
//! comments, in Yixin's own file format, so that a book made with Yixin-Board and another
//! engine opens here and the reverse. Positions are found under every symmetry of the board
//! (see [`key`]). It sits below the search, which reads it and writes what it finds.

pub mod file;
pub mod key;
pub mod ops;
pub mod record;
pub mod renlib;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::board::Board;
use crate::geometry::{Color, Pos};
use crate::rules::Rule;
pub use key::{rule_code, Key, Symmetry};
pub use record::Record;

/// Memory one record takes beyond its key's stones and its text: the map's node share, the
/// key and record headers.
const RECORD_OVERHEAD: usize = 96;

/// A position as the database sees it: stones by colour and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub rule: Rule,
    pub width: u8,
    pub height: u8,
    pub black: Vec<(u8, u8)>,
    pub white: Vec<(u8, u8)>,
    pub white_to_move: bool,
}

impl Position {
    pub fn empty(rule: Rule, width: usize, height: usize) -> Position {
        Position {
            rule,
            width: width as u8,
            height: height as u8,
            black: Vec::new(),
            white: Vec::new(),
            white_to_move: false,
        }
    }

    /// The position after these moves from the empty board, black first, alternating.
    /// `Err` names the first move off the board or on a stone.
    pub fn from_moves(
        rule: Rule,
        width: usize,
        height: usize,
        moves: &[Pos],
    ) -> Result<Self, String> {
        let mut p = Position::empty(rule, width, height);
        for &m in moves {
            p.play(m)?;
        }
        Ok(p)
    }

    /// The stones of a board and its side to move.
    pub fn of_board<A: crate::board::Accumulator>(b: &Board<A>) -> Position {
        Position::from_history(b.rule(), b.width(), b.height(), b.history(), b.side())
    }

    /// The stones a board's history put down (passes skipped) and the side to move.
    pub fn from_history(
        rule: Rule,
        width: usize,
        height: usize,
        history: &[(Pos, Color)],
        side: Color,
    ) -> Position {
        let mut p = Position::empty(rule, width, height);
        for &(m, c) in history {
            if let Some((x, y)) = m.coords() {
                let cell = (x as u8, y as u8);
                match c {
                    Color::Black => p.black.push(cell),
                    Color::White => p.white.push(cell),
                }
            }
        }
        p.white_to_move = side == Color::White;
        p
    }

    pub fn contains(&self, (x, y): (u8, u8)) -> bool {
        x < self.width && y < self.height
    }

    pub fn is_empty_at(&self, c: (u8, u8)) -> bool {
        !self.black.contains(&c) && !self.white.contains(&c)
    }

    /// Plays a stone of the side to move.
    pub fn play(&mut self, m: Pos) -> Result<(), String> {
        let (x, y) = m.coords().ok_or("no move")?;
        let c = (x as u8, y as u8);
        if x >= self.width as usize || y >= self.height as usize {
            return Err(format!("{x},{y} is off the board"));
        }
        if !self.is_empty_at(c) {
            return Err(format!("{x},{y} is taken"));
        }
        if self.white_to_move {
            self.white.push(c);
        } else {
            self.black.push(c);
        }
        self.white_to_move = !self.white_to_move;
        Ok(())
    }

    pub fn child(&self, m: Pos) -> Option<Position> {
        let mut c = self.clone();
        c.play(m).ok()?;
        Some(c)
    }

    pub fn stone_count(&self) -> usize {
        self.black.len() + self.white.len()
    }

    pub fn key(&self) -> Key {
        self.key_and_maps().0
    }

    /// The key, and the symmetries that take this position to it.
    pub fn key_and_maps(&self) -> (Key, Vec<Symmetry>) {
        Key::canonical(
            rule_code(self.rule),
            self.width,
            self.height,
            &self.black,
            &self.white,
            self.white_to_move,
        )
    }

    /// Where a board text for the move `m` from this position is kept: the cell in the
    /// canonical orientation, the smallest (by row, then column) where the position is
    /// symmetric, as Yixin keeps it.
    pub fn canonical_cell(&self, m: (u8, u8)) -> (u8, u8) {
        let (_, maps) = self.key_and_maps();
        maps.iter()
            .map(|s| s.apply(m, self.width, self.height))
            .min_by_key(|&(x, y)| (y, x))
            .unwrap_or(m)
    }

    /// The empty cells the side to move may play: in renju, black's forbidden points are
    /// not moves.
    pub fn moves(&self) -> Vec<Pos> {
        let board = (self.rule == Rule::Renju && !self.white_to_move).then(|| self.board());
        let mut v = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Pos::new(x as usize, y as usize);
                if self.is_empty_at((x, y)) && board.as_ref().is_none_or(|b| !b.is_forbidden(p)) {
                    v.push(p);
                }
            }
        }
        v
    }

    /// A board with these stones (for the renju fouls).
    pub fn board(&self) -> Board {
        let mut b = Board::new(self.width as usize, self.height as usize, self.rule);
        for &(x, y) in &self.black {
            b.put(Pos::new(x as usize, y as usize), Color::Black);
        }
        for &(x, y) in &self.white {
            b.put(Pos::new(x as usize, y as usize), Color::White);
        }
        b.set_side(if self.white_to_move {
            Color::White
        } else {
            Color::Black
        });
        b
    }
}

/// The records of one database file, in memory.
#[derive(Debug, Default)]
pub struct Database {
    path: Option<PathBuf>,
    map: BTreeMap<Key, Record>,
    /// Unsaved changes.
    dirty: bool,
    /// Saved as an LZ4 frame, as the file was.
    compressed: bool,
    /// Memory the records take (approximately), and the most they may take.
    bytes: usize,
    limit: usize,
}

fn record_bytes(k: &Key, r: &Record) -> usize {
    RECORD_OVERHEAD + k.heap_bytes() + r.text.len()
}

impl Database {
    /// An empty database in memory, holding at most `limit` bytes of records.
    pub fn in_memory(limit: usize) -> Database {
        Database {
            limit,
            ..Database::default()
        }
    }

    /// Opens the database at `path`: its records, or none when the file does not exist yet
    /// (it is made on the first save). A file that is not a Yixin database, is damaged, or
    /// holds more than `limit` bytes of records is refused, and left as it is.
    pub fn open(path: &Path, limit: usize) -> Result<Database, String> {
        let mut db = Database::in_memory(limit);
        db.path = Some(path.to_path_buf());
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(db),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let shown = path.display().to_string();
        let full = || {
            format!(
                "its records need more than the {} MiB of memory allowed",
                limit >> 20
            )
        };
        let stored = file::parse(&bytes, limit, &mut |k, r| {
            if db.insert(k, r) {
                Ok(())
            } else {
                Err(full())
            }
        })
        .map_err(|e| format!("{shown}: {e}"))?;
        db.compressed = stored.compressed;
        // converted texts are saved back as UTF-8
        db.dirty = stored.converted;
        Ok(db)
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    pub fn get(&self, k: &Key) -> Option<&Record> {
        self.map.get(k)
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Key, &Record)> {
        self.map.iter()
    }

    /// Stores a record whole. `false` when it is new and the memory allowed is used up.
    pub fn insert(&mut self, k: Key, r: Record) -> bool {
        let add = record_bytes(&k, &r);
        let old = self.map.get(&k).map_or(0, |o| record_bytes(&k, o));
        if self.bytes + add > self.limit + old {
            return false;
        }
        self.bytes = self.bytes + add - old;
        self.map.insert(k, r);
        self.dirty = true;
        true
    }

    /// Writes the parts of `r` that `mask` names into the record of `k`, or stores `r` as a
    /// new record. `false` when there was no room.
    pub fn set(&mut self, k: Key, r: &Record, mask: u8) -> bool {
        let mut new = match self.map.get(&k) {
            Some(old) => old.clone(),
            None => return self.insert(k, r.clone()),
        };
        new.update(r, mask);
        self.insert(k, new)
    }

    pub fn remove(&mut self, k: &Key) -> Option<Record> {
        let r = self.map.remove(k)?;
        self.bytes -= record_bytes(k, &r);
        self.dirty = true;
        Some(r)
    }

    /// Whether any record is of this rule and board with a stone count in `counts`.
    pub fn has_records(
        &self,
        rule: u8,
        width: u8,
        height: u8,
        counts: std::ops::RangeInclusive<usize>,
    ) -> bool {
        let lo = Key::first_of(rule, width, height, *counts.start());
        let hi = Key::first_of(rule, width, height, counts.end() + 1);
        self.map.range(lo..hi).next().is_some()
    }

    pub fn get_position(&self, p: &Position) -> Option<&Record> {
        self.get(&p.key())
    }

    /// The records of the moves from `p`: (move, record).
    pub fn children(&self, p: &Position) -> Vec<(Pos, &Record)> {
        if self.is_empty() {
            return Vec::new();
        }
        p.moves()
            .into_iter()
            .filter_map(|m| Some((m, self.get_position(&p.child(m)?)?)))
            .collect()
    }

    /// Saves to the file it was opened from (when there is something to save), atomically.
    pub fn save(&mut self) -> Result<(), String> {
        let Some(path) = self.path.clone() else {
            return Err("no database file set".into());
        };
        // a new database nothing was written to is not made
        if !self.dirty && (path.exists() || self.map.is_empty()) {
            return Ok(());
        }
        self.save_as(&path, self.compressed)?;
        self.dirty = false;
        Ok(())
    }

    /// Writes every record to `path` (plain or compressed), atomically.
    pub fn save_as(&self, path: &Path, compressed: bool) -> Result<(), String> {
        let bytes = file::serialise(self.map.iter(), compressed);
        file::write_atomic(path, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests;
