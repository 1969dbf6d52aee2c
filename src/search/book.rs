//! The position database in the search: moves the book decides at the root, positions it
//! knows near the root (a labelled win or loss prunes, a deep enough value cuts), and what
//! a finished search found written back (bookmaking).

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use super::{SearchResult, Worker, MAX_PLY, ONE_PLY};
use crate::board::{Board, Pos};
use crate::database::ops::{better, to_score, to_value};
use crate::database::record::*;
use crate::database::{Database, Position};
use crate::eval::{mate_in, mated_in, Evaluator, Score, WIN_MIN};
use crate::pattern::Threat;
use crate::rules::Rule;

/// A database the searches use, and how.
#[derive(Clone, Debug)]
pub struct BookLink {
    pub db: Arc<RwLock<Database>>,
    /// Write what the searches find (bookmaking); off in read-only mode.
    pub write: bool,
    /// Positions this many plies below the root are looked up.
    pub probe_ply: usize,
    /// Bookmaking writes the root and this many plies of the principal variation...
    pub write_ply: usize,
    /// ...where the search below them was at least this deep.
    pub write_min_depth: i32,
}

impl BookLink {
    pub fn new(db: Arc<RwLock<Database>>) -> BookLink {
        BookLink {
            db,
            write: true,
            probe_ply: 4,
            write_ply: 1,
            write_min_depth: 4,
        }
    }
}

/// What a record says to the search, from the side to move's view.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    label: i8,
    score: Score,
    depth: i32,
    bound: u8,
}

/// One thread's look into the book: lookups are cached by position hash, so each position
/// is made canonical once per search.
pub(super) struct BookView {
    link: BookLink,
    rule: Rule,
    cache: HashMap<u64, Option<Entry>>,
}

/// The cache holds at most this many positions (a few MiB).
const CACHE_MAX: usize = 1 << 16;

impl BookView {
    /// A view for searches from `board`, or `None` when the book holds nothing near it.
    pub(super) fn new<E: Evaluator>(link: &BookLink, board: &Board<E>) -> Option<BookView> {
        let n = board.stone_count();
        let db = link.db.read().ok()?;
        let code = crate::database::rule_code(board.rule());
        let (w, h) = (board.width() as u8, board.height() as u8);
        if !db.has_records(code, w, h, n + 1..=n + link.probe_ply) {
            return None;
        }
        Some(BookView {
            link: link.clone(),
            rule: board.rule(),
            cache: HashMap::new(),
        })
    }

    fn entry<E: Evaluator>(&mut self, board: &Board<E>) -> Option<Entry> {
        let hash = board.hash();
        if let Some(e) = self.cache.get(&hash) {
            return *e;
        }
        let p = Position::of_board(board);
        let e = self.link.db.read().ok().and_then(|db| {
            db.get_position(&p).map(|r| Entry {
                label: fold(r.label),
                score: to_score(r.value, self.rule),
                depth: r.depth(),
                bound: r.bound(),
            })
        });
        if self.cache.len() < CACHE_MAX {
            self.cache.insert(hash, e);
        }
        e
    }
}

impl<E: Evaluator> Worker<'_, E> {
    /// Step 4b: the book's word on a node near the root, `Some(score)` when it decides it.
    /// A labelled loss is a loss in the longest mate (its distance when the record has
    /// one), a labelled win likewise; a blocked position is one its mover must never choose.
    pub(super) fn probe_book(
        &mut self,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        pv: bool,
    ) -> Option<Score> {
        let book = self.book.as_mut()?;
        if ply == 0 || ply > book.link.probe_ply {
            return None;
        }
        let e = book.entry(&self.board)?;
        let far = MAX_PLY;
        let adjust = |s: Score| {
            // a stored mate counts from this node; the search's from the root
            if s >= WIN_MIN {
                s - ply as Score
            } else if s <= -WIN_MIN {
                s + ply as Score
            } else {
                s
            }
        };
        match e.label {
            LABEL_BLOCKED => Some(WIN_MIN - 1),
            // the mover won: the side to move has lost
            LABEL_WIN => {
                let s = adjust(if e.score <= -WIN_MIN {
                    e.score
                } else {
                    mated_in(far)
                });
                (s <= alpha).then_some(s)
            }
            LABEL_LOSE => {
                let s = adjust(if e.score >= WIN_MIN {
                    e.score
                } else {
                    mate_in(far)
                });
                (s >= beta).then_some(s)
            }
            LABEL_DRAW => Some(0),
            _ => {
                let deep = e.depth * ONE_PLY >= depth;
                let cut = match e.bound {
                    BOUND_EXACT => true,
                    BOUND_LOWER => e.score >= beta,
                    BOUND_UPPER => e.score <= alpha,
                    _ => false,
                };
                (!pv && deep && cut).then(|| adjust(e.score))
            }
        }
    }
}

/// The move the book plays without a search: a child labelled won for its mover (the
/// quickest), else one marked as the move to play (the highest valued). Never an excluded
/// or illegal move.
pub(super) fn book_move<E: Evaluator>(
    link: &BookLink,
    board: &Board<E>,
    excluded: &[Pos],
) -> Option<SearchResult> {
    // a five to make or to stop is the search's: a wrong label must not cost the game
    let me = board.side();
    if board.count(me, Threat::Five) > 0 || board.count(me.opponent(), Threat::Five) > 0 {
        return None;
    }
    let db = link.db.read().ok()?;
    if db.is_empty() {
        return None;
    }
    let p = Position::of_board(board);
    let rule = board.rule();
    let mut win: Option<(Score, Pos)> = None;
    let mut forced: Option<(Score, Pos)> = None;
    for (m, r) in db.children(&p) {
        if !board.is_legal(m) || excluded.contains(&m) {
            continue;
        }
        // the record's value is the opponent's: ours is its negation
        let ours = -to_score(r.value, rule);
        let pick = |best: &mut Option<(Score, Pos)>, s: Score| {
            if best.is_none_or(|(b, _)| s > b) {
                *best = Some((s, m));
            }
        };
        match fold(r.label) {
            // a win of unknown length reads as the longest
            LABEL_WIN => pick(&mut win, ours.max(WIN_MIN)),
            LABEL_FORCED => pick(&mut forced, ours),
            _ => {}
        }
    }
    let (score, m) = match win.or(forced) {
        Some(found) => found,
        None if !link.write => best_valued(&db, &p, board, excluded)?,
        None => return None,
    };
    let score = if score >= WIN_MIN {
        score.min(mate_in(1))
    } else {
        score
    };
    Some(SearchResult {
        best: Some(m),
        score,
        depth: 0,
        seldepth: 0,
        nodes: 0,
        elapsed_ms: 0,
        pv: vec![m],
        lines: Vec::new(),
    })
}

/// Played from a read-only book (an opening book in play; a book being made searches on,
/// so that it grows): the move of the root's value, when the root has an exact value of
/// at least [`PLAY_MIN_DEPTH`] and a move's position holds it (within [`PLAY_MARGIN`]).
fn best_valued<E: Evaluator>(
    db: &Database,
    p: &Position,
    board: &Board<E>,
    excluded: &[Pos],
) -> Option<(Score, Pos)> {
    let root = db.get_position(p)?;
    if root.bound() != BOUND_EXACT || root.depth() < PLAY_MIN_DEPTH || is_determined(root.label) {
        return None;
    }
    let want = to_score(root.value, board.rule());
    db.children(p)
        .into_iter()
        .filter(|(m, r)| {
            board.is_legal(*m)
                && !excluded.contains(m)
                && r.bound() == BOUND_EXACT
                && r.depth() + 1 >= PLAY_MIN_DEPTH
                && !matches!(fold(r.label), LABEL_BLOCKED | LABEL_LOSE)
        })
        .map(|(m, r)| (-to_score(r.value, board.rule()), m))
        .filter(|&(s, _)| s >= want - PLAY_MARGIN)
        .max_by_key(|&(s, m)| (s, std::cmp::Reverse(m)))
}

/// A book's value is played only from this depth...
const PLAY_MIN_DEPTH: i32 = 8;
/// ...by a move whose own value is this close to it.
const PLAY_MARGIN: Score = 30;

/// A score `plies` further down the line it was found on, from that position's side to
/// move: negated each ply, a mate one ply nearer.
fn down(score: Score, plies: usize) -> Score {
    let s = if score >= WIN_MIN {
        score + plies as Score
    } else if score <= -WIN_MIN {
        score - plies as Score
    } else {
        score
    };
    if plies % 2 == 1 {
        -s
    } else {
        s
    }
}

/// Writes a record where it is better than the one there; a label the user set (forced,
/// blocked) and the text stay.
fn write(db: &mut Database, p: &Position, score: Score, depth: i32) {
    let k = p.key();
    let old = db.get(&k).cloned();
    let mut r = Record::with_label(if score >= WIN_MIN {
        LABEL_LOSE
    } else if score <= -WIN_MIN {
        LABEL_WIN
    } else {
        match &old {
            Some(o) if !is_determined(o.label) && !o.is_null() => o.label,
            _ => LABEL_NONE,
        }
    });
    r.value = to_value(score, p.rule);
    r.set_depth_bound(depth, BOUND_EXACT);
    if old.as_ref().is_none_or(|o| better(o, &r)) {
        db.set(k, &r, MASK_LABEL | MASK_VALUE | MASK_DEPTH_BOUND);
    }
}

/// Bookmaking: the root's value and the principal variation's first plies (and each line's
/// first move of a multi-PV search) go into the book. Nothing for a move the book itself
/// gave, or a search that finished no iteration.
pub(super) fn record<E: Evaluator>(link: &BookLink, board: &Board<E>, r: &SearchResult) {
    if !link.write || r.depth < 1 || r.best.is_none() {
        return;
    }
    let Ok(mut db) = link.db.write() else { return };
    let mut p = Position::of_board(board);
    write(&mut db, &p, r.score, r.depth);
    for (i, &m) in r.pv.iter().enumerate().take(link.write_ply) {
        let depth = r.depth - 1 - i as i32;
        if depth < link.write_min_depth || p.play(m).is_err() {
            break;
        }
        write(&mut db, &p, down(r.score, i + 1), depth);
    }
    let root = Position::of_board(board);
    for (score, pv) in &r.lines {
        let child = pv.first().and_then(|&m| root.child(m));
        if let Some(c) = child.filter(|_| r.depth > link.write_min_depth) {
            write(&mut db, &c, down(*score, 1), r.depth - 1);
        }
    }
}
