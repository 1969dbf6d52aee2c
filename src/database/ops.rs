//! What is done to a whole database: values between the search's units and Yixin's, which
//! of two records to keep, merging, splitting a branch off, deleting a branch, the text
//! export, and importing a RenLib tree.

use std::collections::HashSet;

use super::record::*;
use super::{renlib, Database, Key, Position};
use crate::eval::{self, Score, WIN, WIN_MIN};
use crate::geometry::Pos;
use crate::rules::Rule;

/// Yixin's values are Rapfi's: a winning chance of sigmoid(value / 200). Ours are
/// sigmoid(score / K) with K fitted per rule, so a value means the same chance to both.
const YIXIN_SCALE: f64 = 200.0;

/// A search score (side to move) as a stored value. Wins keep their distance.
pub fn to_value(s: Score, rule: Rule) -> i16 {
    if s >= WIN_MIN {
        (MATE as Score - (WIN - s).min(499)) as i16
    } else if s <= -WIN_MIN {
        -(MATE as Score - (WIN + s).min(499)) as i16
    } else {
        let v = f64::from(s) * YIXIN_SCALE / eval::win_probability_scale(rule);
        v.round().clamp(
            -f64::from(MATE_IN_MAX_PLY - 1),
            f64::from(MATE_IN_MAX_PLY - 1),
        ) as i16
    }
}

/// A stored value as a search score.
pub fn to_score(v: i16, rule: Rule) -> Score {
    let v = Score::from(v);
    if v > MATE_IN_MAX_PLY as Score {
        WIN - (MATE as Score - v).min(WIN - WIN_MIN - 1)
    } else if v < -(MATE_IN_MAX_PLY as Score) {
        -(WIN - (MATE as Score + v).min(WIN - WIN_MIN - 1))
    } else {
        let s = f64::from(v) * eval::win_probability_scale(rule) / YIXIN_SCALE;
        (s.round() as Score).clamp(-(WIN_MIN - 1), WIN_MIN - 1)
    }
}

/// The side to move's chance to win from a stored value.
pub fn win_rate(v: i16) -> f64 {
    1.0 / (1.0 + (-f64::from(v) / YIXIN_SCALE).exp())
}

/// Whether `new` should replace `old`, by Rapfi's default rule (so that a book grows the
/// same way with either engine): a result against a value, the result; two results, the
/// newer where they differ, else the longer proven; two values, the deeper, an exact one
/// counting four plies more, by at least `bias` plies (searches write with -1, merges 0).
pub fn better_by(old: &Record, new: &Record, bias: i32) -> bool {
    if old.is_null() {
        return true;
    }
    if fold(old.label) != fold(new.label) {
        if is_determined(new.label) {
            return true;
        }
        if is_determined(old.label) {
            return false;
        }
    }
    if is_determined(old.label) {
        let rank = |r: &Record| i32::from(r.value).abs() * 2 + i32::from(r.bound() == BOUND_EXACT);
        rank(new) > rank(old)
    } else {
        let exact = 4 - bias.min(0);
        let rank = |r: &Record| r.depth() + exact * i32::from(r.bound() == BOUND_EXACT);
        rank(new) >= rank(old) + bias
    }
}

/// Rapfi's rule for imports: only a result replaces, or a longer proven one.
fn better_result(old: &Record, new: &Record) -> bool {
    if old.is_null() || (fold(old.label) != fold(new.label) && is_determined(new.label)) {
        return true;
    }
    is_determined(old.label) && fold(old.label) == fold(new.label) && better_by(old, new, 0)
}

/// [`better_by`] as a search writes.
pub fn better(old: &Record, new: &Record) -> bool {
    better_by(old, new, -1)
}

/// Merges `src` into `dst`: a record is taken where `dst` has none or a worse one; comments
/// and board texts of both are kept. Returns the records written (or `Err` when memory ran
/// out part way).
pub fn merge(dst: &mut Database, src: &Database) -> Result<usize, String> {
    let mut written = 0;
    for (k, r) in src.iter() {
        let mut keep = match dst.get(k) {
            None => {
                if !dst.insert(k.clone(), r.clone()) {
                    return Err(format!("memory full after {written} records"));
                }
                written += 1;
                continue;
            }
            Some(old) => old.clone(),
        };
        let (mut take, other) = if better_by(&keep, r, 0) {
            written += 1;
            (r.clone(), keep.clone())
        } else {
            (std::mem::take(&mut keep), r.clone())
        };
        for (cell, t) in other.board_texts() {
            if !take.board_texts().iter().any(|(c, _)| *c == cell) {
                take.set_board_text(cell, &t);
            }
        }
        if take.comment().is_empty() && !other.comment().is_empty() {
            take.set_comment(&other.comment());
        }
        if !dst.insert(k.clone(), take) {
            return Err(format!("memory full after {written} records"));
        }
    }
    Ok(written)
}

/// Whether the position of `k` follows from `p` by adding stones (under some symmetry).
fn descends(p: &Position, k: &Key) -> bool {
    let pk = p.key();
    if (k.rule, k.width, k.height) != (pk.rule, pk.width, pk.height)
        || k.stone_count() <= p.stone_count()
    {
        return false;
    }
    super::Symmetry::all(p.width, p.height).any(|s| {
        let has = |mine: &[(u8, u8)], theirs: &[(u8, u8)]| {
            mine.iter()
                .all(|&c| theirs.binary_search(&s.apply(c, p.width, p.height)).is_ok())
        };
        has(&p.black, k.black()) && has(&p.white, k.white())
    })
}

/// Copies to `dst` the records of the positions on the way to `p` and of every position
/// that follows from it. Returns the records written.
pub fn split(src: &Database, dst: &mut Database, path: &[Pos], p: &Position) -> usize {
    let before = dst.len();
    let mut at = Position::empty(p.rule, p.width as usize, p.height as usize);
    let mut keys = vec![at.key()];
    for &m in path {
        if at.play(m).is_err() {
            break;
        }
        keys.push(at.key());
    }
    for k in keys {
        if let Some(r) = src.get(&k) {
            if dst.get(&k).is_none() {
                dst.insert(k, r.clone());
            }
        }
    }
    for (k, r) in src.iter() {
        if descends(p, k) && dst.get(k).is_none() && !dst.insert(k.clone(), r.clone()) {
            break;
        }
    }
    dst.len() - before
}

/// What a delete filter says of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Del {
    /// Delete it and everything below it that no kept position leads to.
    Branch,
    /// Keep it and look no further.
    Keep,
    /// Keep it, and apply the filter below it.
    KeepLookBelow,
}

/// What a filter says of each record.
pub type DelFilter = Box<dyn Fn(&Record) -> Del>;

/// Yixin-Board's `YXDELETEDATABASEALL` filters by name (`W`, `LRECURSIVE`, `NONWL`, …; none
/// for all). `Err` for an unknown name.
pub fn delete_filter(name: &str, step: i32) -> Result<DelFilter, String> {
    let name = name.to_ascii_uppercase();
    let (base, recursive) = match name.strip_suffix("RECURSIVE") {
        Some(b) => (b.to_string(), true),
        None => (name.clone(), false),
    };
    let is = |l: i8, c: u8| fold(l) == c as i8;
    let wl = move |r: &Record| is(r.label, b'w') || is(r.label, b'l');
    let mate = |r: &Record| i32::from(r.value).abs() > i32::from(MATE_IN_MAX_PLY);
    let pick: Box<dyn Fn(&Record) -> bool> = match base.as_str() {
        "" => return Ok(Box::new(|_| Del::Branch)),
        "W" => Box::new(move |r| is(r.label, b'w')),
        "L" => Box::new(move |r| is(r.label, b'l')),
        "WL" => Box::new(wl),
        "WLD" => Box::new(|r| is_determined(r.label)),
        "NONWL" => Box::new(move |r| !wl(r)),
        "NONWLD" => Box::new(|r| !is_determined(r.label)),
        "WLNOSTEP" => Box::new(move |r| wl(r) && !mate(r)),
        "WLINSTEP" => Box::new(move |r| {
            wl(r) && mate(r) && i32::from(MATE) + 1 - i32::from(r.value).abs() <= step
        }),
        _ => return Err(format!("unknown delete filter {name}")),
    };
    let otherwise = if recursive {
        Del::KeepLookBelow
    } else {
        Del::Keep
    };
    Ok(Box::new(
        move |r| if pick(r) { Del::Branch } else { otherwise },
    ))
}

/// Deletes the records below `p` that `filter` picks (not `p`'s own), with the branches
/// below them that no kept position leads to; `p`'s board texts go too. Returns the count.
pub fn delete_below(db: &mut Database, p: &Position, filter: &dyn Fn(&Record) -> Del) -> usize {
    let before = db.len();
    let mut seen = HashSet::new();
    let mut stack = vec![(p.clone(), false)];
    while let Some((at, deleting)) = stack.pop() {
        for m in at.moves() {
            let Some(child) = at.child(m) else { continue };
            let k = child.key();
            let Some(r) = db.get(&k) else { continue };
            if !seen.insert(k.clone()) {
                continue;
            }
            let verdict = if deleting { Del::Branch } else { filter(r) };
            match verdict {
                Del::Keep => {}
                Del::KeepLookBelow => stack.push((child, false)),
                Del::Branch => {
                    // a transposition another kept position leads to stays
                    if deleting && has_other_parent(db, &child) {
                        continue;
                    }
                    db.remove(&k);
                    stack.push((child, true));
                }
            }
        }
    }
    if let Some(mut r) = db.get_position(p).cloned() {
        r.clear_board_texts();
        db.insert(p.key(), r);
    }
    before - db.len()
}

/// C++'s `std::quoted`, then newlines and Yixin's section marks as `\n` and `\b`, as
/// Rapfi writes its texts.
fn quoted(t: &str) -> String {
    let mut s = String::from('"');
    for c in t.chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            '\n' => s.push_str("\\n"),
            '\u{8}' => s.push_str("\\b"),
            '\0' => {}
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Whether a position with a record leads to `p` by one move.
fn has_other_parent(db: &Database, p: &Position) -> bool {
    let movers = if p.white_to_move { &p.black } else { &p.white };
    (0..movers.len()).any(|i| {
        let mut parent = p.clone();
        if p.white_to_move {
            parent.black.remove(i);
        } else {
            parent.white.remove(i);
        }
        parent.white_to_move = !p.white_to_move;
        db.get_position(&parent).is_some()
    })
}

/// The database as CSV, Rapfi's columns: index, key, label, value, depth, bound, text.
/// `only` keeps the records of one rule and board size.
pub fn to_csv(
    db: &Database,
    only: Option<(u8, u8, u8)>,
    out: &mut impl std::io::Write,
) -> std::io::Result<usize> {
    writeln!(out, "index,key,label,value,depth,bound,text")?;
    let mut n = 0;
    for (k, r) in db.iter() {
        if only.is_some_and(|o| o != (k.rule, k.width, k.height)) {
            continue;
        }
        let label = match r.label {
            LABEL_NULL => "(null)".to_string(),
            LABEL_NONE => "(none)".to_string(),
            l if (0x21..0x7F).contains(&l) => (l as u8 as char).to_string(),
            l => format!("({l})"),
        };
        let bound = ["none", "upper", "lower", "exact"][r.bound() as usize];
        let text = quoted(&r.text);
        writeln!(
            out,
            "{n},{},{label},{},{},{bound},{text}",
            k.text(),
            r.value,
            r.depth()
        )?;
        n += 1;
    }
    Ok(n)
}

/// Imports a RenLib tree (15×15) into `db` for `rule`: every node becomes a record; texts
/// `W`/`L` (won or lost for the side that moved, with an optional move count), `a`/`c`
/// (black's and white's marks, as Rapfi reads them), `vN`/`mN` (values) set labels; other
/// texts become the board text of the move on its parent; comments are kept. Returns the
/// records written.
pub fn import_renlib(db: &mut Database, bytes: &[u8], rule: Rule) -> Result<usize, String> {
    let mut written = 0usize;
    let mut full = false;
    renlib::read(bytes, |node| {
        if full {
            return;
        }
        let moves: Vec<Pos> = node
            .moves
            .iter()
            .map(|&(x, y)| Pos::new(x.into(), y.into()))
            .collect();
        let Ok(p) = Position::from_moves(rule, 15, 15, &moves) else {
            return;
        };
        let k = p.key();
        let old = db.get(&k).cloned();
        let mut r = Record::with_label(LABEL_NONE);
        let text = node.text.map(decode);
        if let Some(t) = text.as_deref().filter(|t| !t.is_empty()) {
            if !lib_label(t, &p, &mut r) {
                if let (Some(&last), Some(parent)) = (moves.last(), parent_of(&moves, rule)) {
                    let cell = parent.canonical_cell((last.x() as u8, last.y() as u8));
                    let pk = parent.key();
                    let mut pr = db
                        .get(&pk)
                        .cloned()
                        .unwrap_or(Record::with_label(LABEL_NONE));
                    pr.set_board_text(cell, t);
                    full |= !db.insert(pk, pr);
                }
            }
        }
        if let Some(c) = node.comment.map(decode) {
            let c = c.replace("\r\n", "\n");
            let prior = old.as_ref().map(Record::comment).unwrap_or_default();
            r.set_comment(&if prior.is_empty() {
                c
            } else {
                format!("{prior}\n{c}")
            });
        }
        match old {
            Some(o) if !better_result(&o, &r) => {
                let mut o = o;
                o.update(&r, MASK_TEXT);
                full |= !db.insert(k, o);
            }
            _ => {
                full |= !db.insert(k, r);
                written += 1;
            }
        }
    })
    .map_err(|e| e.to_string())?;
    if full {
        return Err(format!("memory full after {written} records"));
    }
    Ok(written)
}

fn parent_of(moves: &[Pos], rule: Rule) -> Option<Position> {
    Position::from_moves(rule, 15, 15, &moves[..moves.len().checked_sub(1)?]).ok()
}

/// A RenLib text that sets a label or value; `false` for a board text.
fn lib_label(t: &str, p: &Position, r: &mut Record) -> bool {
    let first = t.as_bytes()[0];
    let number = || t[1..].trim().parse::<i32>().ok();
    let ply = p.stone_count() as i32;
    let black_moved = p.white_to_move;
    match first {
        b'W' | b'L' => {
            r.label = if first == b'W' { LABEL_WIN } else { LABEL_LOSE };
            if let Some(n) = number().filter(|&n| n > ply) {
                // the mover won (or lost) at move n from the root: n - ply plies from here
                let v = i32::from(MATE) - (n - ply);
                r.value = if first == b'W' { -v } else { v } as i16;
                r.set_depth_bound(0, BOUND_EXACT);
            }
        }
        // Rapfi's defaults: `a` marks black's win and white's loss, `c` the reverse, read
        // with the side to move as Rapfi reads them, so that a book imports the same
        b'a' if !black_moved => r.label = LABEL_WIN,
        b'c' if black_moved => r.label = LABEL_WIN,
        b'c' if !black_moved => r.label = LABEL_LOSE,
        b'a' if black_moved => r.label = LABEL_LOSE,
        b'v' | b'm' if t.len() > 1 => {
            let Some(n) = number() else { return false };
            let n = n.clamp(-6000, 6000) as i16;
            r.value = if first == b'v' { -n } else { n };
            r.set_depth_bound(0, BOUND_EXACT);
        }
        _ => return false,
    }
    true
}

/// RenLib texts are in the author's code page: UTF-8 when they are valid, else GBK.
fn decode(b: &[u8]) -> String {
    match std::str::from_utf8(b) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::GBK.decode(b).0.into_owned(),
    }
}
