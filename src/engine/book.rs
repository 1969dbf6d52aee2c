//! The engine's position database: opening, saving and closing it, read-only mode, and the
//! share of the memory limit it may take. The searches read it and write what they find
//! through the searcher's link (see [`crate::search::book`]).

use super::memory::RESERVED_BYTES;
use super::Engine;
use crate::database::Database;
use crate::search::book::BookLink;
use std::path::Path;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The database's share of what a memory limit leaves, in per cent; without a limit, it may
/// take this much.
const BOOK_SHARE_PERCENT: u64 = 25;
const BOOK_DEFAULT_BYTES: u64 = 1 << 30;

/// What the database may take under a memory limit (0 = none).
pub fn book_bytes(limit: u64) -> u64 {
    if limit == 0 {
        BOOK_DEFAULT_BYTES
    } else {
        limit.saturating_sub(RESERVED_BYTES) / 100 * BOOK_SHARE_PERCENT
    }
}

impl Engine {
    /// Opens the database at `path` (a new one when the file does not exist) for the
    /// searches to read and write, after saving the one open. A file that cannot be read as
    /// a database is refused with the reason, untouched, and the open one stays.
    pub fn open_database(&mut self, path: &Path) -> Result<usize, String> {
        let db = self.read_database(path)?;
        let n = db.len();
        self.install_database(db).map(|_| n)
    }

    /// Reads the database at `path` within this engine's memory share, without using it.
    pub fn read_database(&self, path: &Path) -> Result<Database, String> {
        Database::open(path, book_bytes(self.memory_limit) as usize)
    }

    /// Uses `db` from now on, after saving and closing the one open (`Err` when that save
    /// failed: `db` is in use all the same).
    pub fn install_database(&mut self, db: Database) -> Result<(), String> {
        let saved = self.close_database();
        self.book_path = db.path().map(Path::to_path_buf);
        self.book = Some(Arc::new(RwLock::new(db)));
        self.link_book();
        self.apply_plan();
        saved
    }

    /// Saves and closes the database; the searches go on without one.
    pub fn close_database(&mut self) -> Result<(), String> {
        let saved = self.save_database();
        self.book = None;
        self.link_book();
        self.apply_plan();
        saved
    }

    /// Saves the database's changes to its file (atomically). `Ok` with none open.
    pub fn save_database(&mut self) -> Result<(), String> {
        self.wait();
        match self.database_mut() {
            Some(mut db) => db.save(),
            None => Ok(()),
        }
    }

    /// The file of the database opened last (open or not now): `INFO usedatabase 1` opens
    /// it again, as Rapfi does.
    pub fn last_database_path(&self) -> Option<&Path> {
        self.book_path.as_deref()
    }

    pub fn has_database(&self) -> bool {
        self.book.is_some()
    }

    /// The open database, read.
    pub fn database(&self) -> Option<RwLockReadGuard<'_, Database>> {
        self.book
            .as_ref()
            .map(|b| b.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// The open database, to change (after any running search has ended).
    pub fn database_mut(&mut self) -> Option<RwLockWriteGuard<'_, Database>> {
        self.wait();
        self.book
            .as_ref()
            .map(|b| b.write().unwrap_or_else(|e| e.into_inner()))
    }

    /// Read-only: neither the searches nor edits change the database.
    pub fn set_database_readonly(&mut self, readonly: bool) {
        self.book_readonly = readonly;
        self.link_book();
    }

    pub fn database_readonly(&self) -> bool {
        self.book_readonly
    }

    /// Gives the searcher the database as it now is.
    fn link_book(&mut self) {
        let link = self.book_link();
        self.searcher().set_book(link);
    }

    /// How the searches use the open database.
    pub(super) fn book_link(&self) -> Option<BookLink> {
        self.book.as_ref().map(|db| BookLink {
            write: !self.book_readonly,
            ..BookLink::new(Arc::clone(db))
        })
    }

    /// The memory limit the search may plan with: what the database may take comes off.
    pub(super) fn search_memory_limit(&self) -> u64 {
        match (&self.book, self.memory_limit) {
            (Some(_), l) if l > 0 => l - book_bytes(l).min(l),
            _ => self.memory_limit,
        }
    }

    /// A new memory limit reaches the open database too.
    pub(super) fn limit_book(&mut self) {
        let bytes = book_bytes(self.memory_limit) as usize;
        if let Some(mut db) = self.database_mut() {
            db.set_limit(bytes);
        }
    }
}
