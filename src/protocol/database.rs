//! Yixin-Board's database commands, answered as Rapfi answers them: a position given as
//! moves until `DONE`, paths on the next line, a comment in quotes that may run over lines,
//! and `MESSAGE DATABASE …` replies. The engine's game position is never touched.

use super::parse::DbCommand;
use super::{BlockKind, Flow, Session};
use crate::database::ops::{self, win_rate};
use crate::database::record::*;
use crate::database::{Database, Position};
use crate::engine::book::book_bytes;
use crate::geometry::Pos;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The file `INFO usedatabase 1` opens when no database was set: beside the executable
/// (where GUIs keep an engine and its files, whatever directory they start it in).
pub const DEFAULT_DATABASE: &str = "rensa.db";

fn default_database() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|d| d.join(DEFAULT_DATABASE)))
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DATABASE))
}
const NO_DATABASE: &str = "no database: send YXSETDATABASE or INFO usedatabase 1 first";
/// A comment longer than this (bytes, over all its lines) is refused.
const MAX_COMMENT: usize = 64 << 10;

/// A database command waiting for more input.
pub(super) enum DbWait {
    /// Its path, on the next line.
    Path(DbCommand),
    /// The rest of a quoted comment (the text so far, escapes still in).
    Text(String),
}

impl<W: Write> Session<W> {
    pub(super) fn db_command(&mut self, c: DbCommand) -> Flow {
        if c.takes_path() {
            self.db_wait = Some(DbWait::Path(c));
            return Flow::Continue;
        }
        if !self.started && c != DbCommand::Save {
            return self.error("no board yet: send START first");
        }
        match c {
            DbCommand::Save => self.db_save(),
            DbCommand::EditText(raw) => match raw.trim_start().strip_prefix('"') {
                Some(rest) => self.db_text_line(rest.to_string()),
                None => self.error("YXEDITTEXTDATABASE: the comment must be in quotes"),
            },
            c => self.db_open_position(c),
        }
    }

    /// A line for a waiting database command.
    pub(super) fn db_wait_line(&mut self, line: &str) -> Flow {
        match self.db_wait.take() {
            // (a blank line is not the path: wait for it)
            Some(DbWait::Path(c)) if line.trim().is_empty() => {
                self.db_wait = Some(DbWait::Path(c));
                Flow::Continue
            }
            Some(DbWait::Path(c)) => self.db_path_command(c, line.trim()),
            Some(DbWait::Text(so_far)) => self.db_text_line(format!("{so_far}\n{line}")),
            None => Flow::Continue,
        }
    }

    /// The comment read so far (after its opening quote): wait for its closing quote, then
    /// read the position, starting with what follows the quote on the same line.
    fn db_text_line(&mut self, text: String) -> Flow {
        let Some((comment, tail)) = unquote(&text) else {
            if text.len() > MAX_COMMENT {
                return self.error("YXEDITTEXTDATABASE: comment too long");
            }
            self.db_wait = Some(DbWait::Text(text));
            return Flow::Continue;
        };
        let flow = self.db_open_position(DbCommand::EditText(comment));
        if tail.trim().is_empty() || flow == Flow::Quit {
            return flow;
        }
        self.block_line(&tail)
    }

    /// Starts reading the position of `c`.
    fn db_open_position(&mut self, c: DbCommand) -> Flow {
        self.db_op = Some(c);
        self.open_block(BlockKind::Database)
    }

    /// The position's moves have been read: run the command on it.
    pub(super) fn db_position_command(&mut self, lines: &[(i64, i64, i64)]) -> Flow {
        let Some(c) = self.db_op.take() else {
            return Flow::Continue;
        };
        let p = match self.db_position(lines) {
            Ok(p) => p,
            Err(e) => return self.error(format!("database position: {e}")),
        };
        let queries = matches!(
            c,
            DbCommand::QueryAll
                | DbCommand::QueryOne
                | DbCommand::QueryText
                | DbCommand::QueryAllText
        );
        if !queries && !self.engine.has_database() {
            return self.error(NO_DATABASE);
        }
        if !queries && self.engine.database_readonly() {
            return self.reply("MESSAGE database is read-only: not changed");
        }
        match c {
            DbCommand::QueryAll => self.db_query_all(&p),
            DbCommand::QueryOne => self.db_query_one(&p),
            DbCommand::QueryText => self.db_query_text(&p),
            DbCommand::QueryAllText => match self.db_query_all(&p) {
                Flow::Quit => Flow::Quit,
                _ => self.db_query_text(&p),
            },
            DbCommand::EditTvd {
                mask,
                label,
                value,
                depth,
            } => self.db_edit_tvd(&p, mask, label, value, depth),
            DbCommand::EditText(comment) => self.db_edit(&p, |r| r.set_comment(&comment)),
            DbCommand::EditLabel { x, y, text } => self.db_edit_label(&p, x, y, &text),
            DbCommand::DeleteOne => {
                if let Some(mut db) = self.engine.database_mut() {
                    db.remove(&p.key());
                }
                Flow::Continue
            }
            DbCommand::DeleteAll { filter, step } => self.db_delete_all(&p, &filter, step),
            _ => Flow::Continue,
        }
    }

    /// The position of a database command's moves on the current board and rule: black
    /// first, alternating; `-1,-1` passes.
    fn db_position(&self, lines: &[(i64, i64, i64)]) -> Result<Position, String> {
        let b = self.engine.board();
        let mut p = Position::empty(self.engine.rule(), b.width(), b.height());
        for &(x, y, _) in lines {
            if (x, y) == (-1, -1) {
                p.white_to_move = !p.white_to_move;
                continue;
            }
            let cell = self.engine.cell(x, y).map_err(|e| e.to_string())?;
            p.play(cell)?;
        }
        Ok(p)
    }

    /// `MESSAGE DATABASE REFRESH`, a line per move with a record or a board text:
    /// `x y label value depth bound has-comment text`, then `DONE`. The position itself gets
    /// an empty record, so that the way the user went is kept.
    fn db_query_all(&mut self, p: &Position) -> Flow {
        if self.reply("MESSAGE DATABASE REFRESH") == Flow::Quit {
            return Flow::Quit;
        }
        let mut lines = Vec::new();
        let mut add_self = false;
        if let Some(db) = self.engine.database() {
            let texts = board_texts(&db, p);
            for m in p.moves() {
                let rec = p.child(m).and_then(|c| db.get_position(&c).cloned());
                let text = texts.iter().find(|(c, _)| *c == m).map(|(_, t)| t.clone());
                if rec.is_none() && text.is_none() {
                    continue;
                }
                let r = rec.unwrap_or_default();
                let label = r.display_label(win_rate);
                // the label's (at most four) characters packed into one number
                let code = if label.is_empty() {
                    -1
                } else {
                    label
                        .bytes()
                        .take(4)
                        .fold(0i64, |a, c| (a << 8) | i64::from(c))
                };
                lines.push(format!(
                    "MESSAGE DATABASE {} {} {code} {} {} {} {} {}",
                    m.x(),
                    m.y(),
                    r.value,
                    r.depth(),
                    r.bound(),
                    i32::from(!r.comment().is_empty()),
                    text.unwrap_or_default()
                ));
            }
            add_self = p.stone_count() > 0 && db.get_position(p).is_none();
        }
        for l in lines {
            if self.reply(l.trim_end()) == Flow::Quit {
                return Flow::Quit;
            }
        }
        if add_self && !self.engine.database_readonly() {
            if let Some(mut db) = self.engine.database_mut() {
                db.insert(p.key(), Record::with_label(LABEL_NONE));
            }
        }
        self.reply("MESSAGE DATABASE DONE")
    }

    fn db_query_one(&mut self, p: &Position) -> Flow {
        let r = self
            .engine
            .database()
            .and_then(|db| db.get_position(p).cloned());
        match r {
            Some(r) => {
                let line = format!(
                    "MESSAGE DATABASE ONE {} {} {} {} {}",
                    r.label,
                    r.value,
                    r.depth(),
                    r.bound(),
                    r.display_label(win_rate)
                );
                self.reply(line.trim_end())
            }
            None => self.reply("MESSAGE DATABASE ONE 0 0 0 0"),
        }
    }

    /// The comment in quotes, `"` and `\` escaped; its lines are sent as lines, as Rapfi
    /// sends them and Yixin-Board reads them.
    fn db_query_text(&mut self, p: &Position) -> Flow {
        let r = self
            .engine
            .database()
            .and_then(|db| db.get_position(p).cloned());
        let comment = r
            .filter(|r| !r.is_null())
            .map(|r| r.comment())
            .unwrap_or_default();
        let mut quoted = String::from("\"");
        for ch in comment.chars() {
            if ch == '"' || ch == '\\' {
                quoted.push('\\');
            }
            quoted.push(ch);
        }
        quoted.push('"');
        let text = format!("MESSAGE DATABASE TEXT {quoted}");
        for line in text.split('\n') {
            if self.reply(line.trim_end_matches('\r')) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn db_edit_tvd(&mut self, p: &Position, mask: i64, label: i64, value: i64, depth: i64) -> Flow {
        let label = match label as u8 {
            b'W' => LABEL_WIN,
            b'L' => LABEL_LOSE,
            b'D' => LABEL_DRAW,
            b'X' => LABEL_BLOCKED,
            _ => label.clamp(-128, 127) as i8,
        };
        let mut r = Record::with_label(label);
        r.value = value.clamp(-32768, 32767) as i16;
        r.set_depth_bound(depth.clamp(-8192, 8191) as i32, BOUND_EXACT);
        let mask = (mask & 15) as u8;
        let stored = self
            .engine
            .database_mut()
            .map(|mut db| db.set(p.key(), &r, mask));
        if stored == Some(false) {
            return self.error("database full: the memory allowed is used up");
        }
        self.db_query_one(p)
    }

    /// Changes a position's record (a new empty one where there is none).
    fn db_edit(&mut self, p: &Position, f: impl FnOnce(&mut Record)) -> Flow {
        let Some(mut db) = self.engine.database_mut() else {
            return Flow::Continue;
        };
        let k = p.key();
        let mut r = db
            .get(&k)
            .cloned()
            .unwrap_or(Record::with_label(LABEL_NONE));
        if r.is_null() {
            r.label = LABEL_NONE;
        }
        f(&mut r);
        let ok = db.insert(k, r);
        drop(db);
        if ok {
            Flow::Continue
        } else {
            self.error("database full: the memory allowed is used up")
        }
    }

    /// A move's label on the board: kept in the position's record by the move's canonical
    /// cell; the move's own position gets a record too, so that the tree reaches it.
    fn db_edit_label(&mut self, p: &Position, x: i64, y: i64, text: &str) -> Flow {
        let m = match self.engine.cell(x, y) {
            Ok(m) if p.is_empty_at((m.x() as u8, m.y() as u8)) => m,
            Ok(_) => return self.error(format!("YXEDITLABELDATABASE: {x},{y} is taken")),
            Err(e) => return self.error(format!("YXEDITLABELDATABASE: {e}")),
        };
        let cell = p.canonical_cell((m.x() as u8, m.y() as u8));
        if !text.is_empty() {
            if let (Some(mut db), Some(c)) = (self.engine.database_mut(), p.child(m)) {
                if db.get_position(&c).is_none() {
                    db.insert(c.key(), Record::with_label(LABEL_NONE));
                }
            }
        }
        self.db_edit(p, |r| r.set_board_text(cell, text))
    }

    fn db_delete_all(&mut self, p: &Position, filter: &str, step: i64) -> Flow {
        let f = match ops::delete_filter(filter, step.clamp(0, 1000) as i32) {
            Ok(f) => f,
            Err(e) => return self.error(format!("YXDELETEDATABASEALL: {e}")),
        };
        let t = Instant::now();
        let n = match self.engine.database_mut() {
            Some(mut db) => ops::delete_below(&mut db, p, &*f),
            None => 0,
        };
        let ms = t.elapsed().as_millis();
        if self.reply(&format!("MESSAGE Done deleting {n} records using {ms} ms.")) == Flow::Quit {
            return Flow::Quit;
        }
        self.db_query_all(p)
    }

    fn db_save(&mut self) -> Flow {
        let Some(path) = self
            .engine
            .database()
            .and_then(|db| db.path().map(Path::to_path_buf))
        else {
            return self.error(NO_DATABASE);
        };
        let t = Instant::now();
        if self.reply(&format!("MESSAGE DATABASE SAVE START {}", path.display())) == Flow::Quit {
            return Flow::Quit;
        }
        if let Err(e) = self.engine.save_database() {
            return self.error(format!("database not saved: {e}"));
        }
        if self.reply("MESSAGE DATABASE SAVE DONE") == Flow::Quit {
            return Flow::Quit;
        }
        let ms = t.elapsed().as_millis();
        self.reply(&format!("MESSAGE Saved database file using {ms} ms."))
    }

    /// `INFO usedatabase`: 1 opens the database opened last (else `rensa.db` beside the
    /// executable) when none is open; 0 saves and closes it. Saving and loading are told as
    /// Rapfi tells them (Yixin-Board shows a dialog between START and DONE).
    pub(super) fn db_use(&mut self, on: bool) -> Result<(), String> {
        if !on {
            return self.db_close().map(|_| ());
        }
        if self.engine.has_database() {
            return Ok(());
        }
        let path = match self.engine.last_database_path() {
            Some(p) => p.to_path_buf(),
            None => default_database(),
        };
        let exists = path.exists();
        let shown = path.display().to_string();
        if exists {
            self.reply(&format!("MESSAGE DATABASE LOAD START {shown}"));
        }
        let opened = self.engine.open_database(&path);
        if exists {
            self.reply("MESSAGE DATABASE LOAD DONE");
        }
        opened.map(|_| ())
    }

    /// Saves and closes the open database, telling the save when there is something to save.
    fn db_close(&mut self) -> Result<Flow, String> {
        let path = self.engine.database().and_then(|db| {
            let saves = db.is_dirty() || (!db.is_empty() && db.path().is_some_and(|p| !p.exists()));
            db.path().filter(|_| saves).map(Path::to_path_buf)
        });
        if let Some(p) = &path {
            self.reply(&format!("MESSAGE DATABASE SAVE START {}", p.display()));
        }
        self.engine.close_database()?;
        Ok(match path {
            Some(_) => self.reply("MESSAGE DATABASE SAVE DONE"),
            None => Flow::Continue,
        })
    }

    fn db_path_command(&mut self, c: DbCommand, path: &str) -> Flow {
        if path.is_empty() {
            return self.error("database command without a path");
        }
        let path = PathBuf::from(path);
        if c == DbCommand::Set {
            return self.db_set(&path);
        }
        if !self.engine.has_database() {
            return self.error(NO_DATABASE);
        }
        let t = Instant::now();
        let done = match c {
            DbCommand::ToText { all } => self.db_to_text(&path, all),
            DbCommand::LibToDb => self.db_import_lib(&path),
            DbCommand::Split => self.db_split(&path),
            DbCommand::Merge => self.db_merge(&path),
            _ => Ok(String::new()),
        };
        let ms = t.elapsed().as_millis();
        match done {
            Ok(what) => self.reply(&format!("MESSAGE {what} using {ms} ms.")),
            Err(e) => self.error(e),
        }
    }

    /// `YXSETDATABASE`: reads the new database, then saves and closes the one open (in
    /// Rapfi's order of messages), then uses the new one.
    fn db_set(&mut self, path: &Path) -> Flow {
        let shown = path.display().to_string();
        if self.reply(&format!("MESSAGE Opening database at {shown} ...")) == Flow::Quit {
            return Flow::Quit;
        }
        let exists = path.exists();
        if exists && self.reply(&format!("MESSAGE DATABASE LOAD START {shown}")) == Flow::Quit {
            return Flow::Quit;
        }
        // a file that cannot be read leaves the database open before as it is
        let db = match self.engine.read_database(path) {
            Ok(db) => db,
            Err(e) => {
                return self.error(format!(
                    "database not opened (the file is left as it is): {e}"
                ))
            }
        };
        if exists && self.reply("MESSAGE DATABASE LOAD DONE") == Flow::Quit {
            return Flow::Quit;
        }
        let n = db.len();
        let closed = self.db_close();
        let installed = self.engine.install_database(db);
        if let Err(e) = closed.and(installed) {
            return self.error(format!("the database open before was not saved: {e}"));
        }
        if exists {
            self.reply(&format!("MESSAGE database {shown}: {n} records"))
        } else {
            self.reply(&format!("MESSAGE database {shown}: new, made on saving"))
        }
    }

    fn db_to_text(&mut self, path: &Path, all: bool) -> Result<String, String> {
        let b = self.engine.board();
        let only = (!all).then(|| {
            let code = crate::database::rule_code(self.engine.rule());
            (code, b.width() as u8, b.height() as u8)
        });
        let db = self.engine.database().ok_or("no database")?;
        let mut out = Vec::new();
        let n = ops::to_csv(&db, only, &mut out).map_err(|e| e.to_string())?;
        std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let which = if all { "all" } else { "this rule and board" };
        Ok(format!(
            "Wrote {n} records ({which}) as CSV to {}",
            path.display()
        ))
    }

    fn db_import_lib(&mut self, path: &Path) -> Result<String, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let rule = self.engine.rule();
        let mut db = self.engine.database_mut().ok_or("no database")?;
        let n = ops::import_renlib(&mut db, &bytes, rule)?;
        Ok(format!("Imported {n} records from lib file"))
    }

    /// Copies the branch of the current board's position into the database at `path`
    /// (made, or added to), and saves it.
    fn db_split(&mut self, path: &Path) -> Result<String, String> {
        let limit = book_bytes(0) as usize;
        let mut dst = Database::open(path, limit)?;
        let board = self.engine.board();
        let p = Position::of_board(board);
        let moves: Vec<Pos> = board.history().iter().map(|&(m, _)| m).collect();
        let db = self.engine.database().ok_or("no database")?;
        let n = ops::split(&db, &mut dst, &moves, &p);
        drop(db);
        self.reply(&format!("MESSAGE DATABASE SAVE START {}", path.display()));
        dst.save()?;
        self.reply("MESSAGE DATABASE SAVE DONE");
        Ok(format!("Wrote {n} records into the split database"))
    }

    fn db_merge(&mut self, path: &Path) -> Result<String, String> {
        let limit = self.engine.database().map_or(0, |db| db.limit());
        let src = Database::open(path, limit)?;
        let mut db = self.engine.database_mut().ok_or("no database")?;
        let n = ops::merge(&mut db, &src)?;
        Ok(format!(
            "Merged {n} out of {} records into the database",
            src.len()
        ))
    }
}

/// The board texts of `p`'s moves: each move's canonical cell's text.
fn board_texts(db: &Database, p: &Position) -> Vec<(Pos, String)> {
    let Some(r) = db.get_position(p) else {
        return Vec::new();
    };
    let texts = r.board_texts();
    if texts.is_empty() {
        return Vec::new();
    }
    p.moves()
        .into_iter()
        .filter_map(|m| {
            let cell = p.canonical_cell((m.x() as u8, m.y() as u8));
            let t = texts.iter().find(|(c, _)| *c == cell)?;
            Some((m, t.1.clone()))
        })
        .collect()
}

/// C++'s `std::quoted` read: the text up to the closing quote (a backslash escapes the
/// next character) and what follows it; `None` while the quote is still open.
fn unquote(s: &str) -> Option<(String, String)> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?.1),
            '"' => return Some((out, s[i + 1..].to_string())),
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::unquote;

    #[test]
    fn quoted_comments_read_as_cpp_reads_them() {
        assert_eq!(
            unquote(r#"say \"hi\" \\ there"7,7"#),
            Some((r#"say "hi" \ there"#.to_string(), "7,7".to_string()))
        );
        assert_eq!(unquote("no end yet"), None);
        assert_eq!(unquote(r"ends in a backslash \"), None);
        assert_eq!(unquote("\""), Some((String::new(), String::new())));
    }
}
