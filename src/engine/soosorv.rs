//! The Soosorv-8 opening rule as Yixin-Board runs it (`yxsoosorvstep1..6`): black opens
//! with one of the 26 standard renju openings, white may swap; white plays the fourth
//! stone and names how many fifth moves black must offer, black may swap; black offers
//! that many fifth moves, no two alike by symmetry, and white picks one.
//!
//! Every decision is a search: the side that proposes aims for an even position (the
//! other side may swap), the side that chooses takes what its search likes best.

use super::task::{limits_for, share_of, ThinkLimits};
use super::work::Work;
use crate::board::{Board, Pos};
use crate::eval::Score;
use crate::search::Limits;

/// The most fifth moves black may be asked to offer (the "8" of Soosorv-8).
pub const MAX_FIFTHS: usize = 8;

/// What a Soosorv step asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoosorvStep {
    /// On an empty board: the three opening stones.
    Opening,
    /// After three stones, as white: take black or not.
    SwapFirst,
    /// After three stones, as white: the fourth stone and how many fifth moves to ask for.
    Fourth,
    /// After four stones, as black asked for `n` fifth moves: take white or not.
    SwapSecond(usize),
    /// After four stones, as black: the `n` fifth moves to offer.
    Offer(usize),
    /// After four stones, as white: the best of black's offered fifth moves.
    Choose(Vec<Pos>),
}

/// The answer to a Soosorv step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoosorvAnswer {
    /// Three stones: black, white, black.
    Opening([Pos; 3]),
    /// Whether we take the other colour.
    Swap(bool),
    /// The fourth stone and how many fifth moves black must offer.
    Fourth(Pos, usize),
    /// The offered fifth moves, best first.
    Offer(Vec<Pos>),
    /// The chosen fifth move (played on the board).
    Choose(Pos),
}

/// A symmetry of the board about its centre: transpose first, then mirror x and y.
type Symmetry = (bool, bool, bool);

/// Where `p` goes under symmetry `s`.
fn map(b: &Board, s: Symmetry, p: Pos) -> Pos {
    let (mut x, mut y) = (p.x(), p.y());
    if s.0 {
        (x, y) = (y, x);
    }
    if s.1 {
        x = b.width() - 1 - x;
    }
    if s.2 {
        y = b.height() - 1 - y;
    }
    Pos::new(x, y)
}

/// The symmetries of the board that map its stones onto stones of the same colour.
fn symmetries(b: &Board) -> Vec<Symmetry> {
    let mut out = Vec::new();
    for t in [false, true] {
        if t && b.width() != b.height() {
            continue;
        }
        for mx in [false, true] {
            for my in [false, true] {
                let s = (t, mx, my);
                if b.history()
                    .iter()
                    .all(|&(p, c)| b.stone(map(b, s, p)) == Some(c))
                {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// Whether `p` is the image of one of `taken` under a symmetry of the position.
fn alike(b: &Board, syms: &[Symmetry], taken: &[Pos], p: Pos) -> bool {
    taken
        .iter()
        .any(|&q| syms.iter().any(|&s| map(b, s, q) == p))
}

/// The 26 standard renju openings on `b`'s size: black in the centre, white next to it
/// (straight or diagonal), black within two cells of the centre, one of each symmetric
/// pair. Fewer where the board is too small to hold them.
pub fn standard_openings(b: &Board) -> Vec<[Pos; 3]> {
    let c = b.center();
    let at = |dx: i64, dy: i64| -> Option<Pos> {
        let (x, y) = (c.x() as i64 + dx, c.y() as i64 + dy);
        b.on_board(x, y).then(|| Pos::new(x as usize, y as usize))
    };
    let mut out = Vec::new();
    for second in [(0, -1), (1, -1)] {
        let Some(w) = at(second.0, second.1) else {
            continue;
        };
        let mut two = Board::new(b.width(), b.height(), b.rule());
        two.make(c);
        two.make(w);
        let syms = symmetries(&two);
        let mut thirds: Vec<Pos> = Vec::new();
        for dy in -2..=2 {
            for dx in -2..=2 {
                match at(dx, dy) {
                    Some(p) if two.is_empty(p) && !alike(&two, &syms, &thirds, p) => thirds.push(p),
                    _ => {}
                }
            }
        }
        out.extend(thirds.into_iter().map(|t| [c, w, t]));
    }
    out
}

impl Work {
    /// Answers a Soosorv step on the position set up for it (see [`SoosorvStep`]).
    pub(super) fn soosorv(&mut self, step: &SoosorvStep, t: &ThinkLimits) -> SoosorvAnswer {
        match step {
            SoosorvStep::Opening => self.soosorv_opening(t),
            SoosorvStep::SwapFirst => {
                // as white: black's side if white's value is below even
                let r = self.think(&limits_for(&self.board, t), &[], &mut |_| {});
                SoosorvAnswer::Swap(r.score < 0)
            }
            SoosorvStep::Fourth => self.soosorv_fourth(t),
            SoosorvStep::SwapSecond(n) => {
                // black offers its n best, white takes the worst of them for black
                let lines = self.lines(*n, &limits_for(&self.board, t));
                let v = lines.get(n - 1).or(lines.last()).map_or(0, |l| l.0);
                SoosorvAnswer::Swap(v < 0)
            }
            SoosorvStep::Offer(n) => SoosorvAnswer::Offer(self.soosorv_offer(*n, t)),
            SoosorvStep::Choose(options) => {
                let share = share_of(t, options.len() as u64);
                let mut best: Option<(Pos, Score)> = None;
                for &p in options {
                    self.board.make(p);
                    let r = self.think(&limits_for(&self.board, &share), &[], &mut |_| {});
                    self.board.undo();
                    if best.is_none_or(|(_, v)| r.score > v) {
                        best = Some((p, r.score));
                    }
                }
                let p = best.map_or(options[0], |b| b.0);
                self.board.make(p);
                SoosorvAnswer::Choose(p)
            }
        }
    }

    /// The `n` best moves with their values, best first, from one multi-PV search (fewer
    /// when fewer moves make sense, at least one).
    fn lines(&mut self, n: usize, limits: &Limits) -> Vec<(Score, Pos)> {
        let limits = Limits {
            multipv: n.max(1),
            ..*limits
        };
        let r = self.think(&limits, &[], &mut |_| {});
        let mut lines: Vec<(Score, Pos)> = r
            .lines
            .iter()
            .filter_map(|(s, pv)| pv.first().map(|&p| (*s, p)))
            .collect();
        if lines.is_empty() {
            lines.extend(r.best.map(|p| (r.score, p)));
        }
        lines
    }

    /// The standard opening whose value for white is nearest even: white may swap.
    fn soosorv_opening(&mut self, t: &ThinkLimits) -> SoosorvAnswer {
        let empty = Board::new(self.board.width(), self.board.height(), self.board.rule());
        let openings = standard_openings(&empty);
        let share = share_of(t, openings.len() as u64 + 1);
        let mut best: Option<([Pos; 3], Score)> = None;
        for o in openings {
            self.board = empty.clone();
            o.iter().for_each(|&p| self.board.make(p));
            let r = self.think(&limits_for(&self.board, &share), &[], &mut |_| {});
            if best.is_none_or(|(_, v)| r.score.abs() < v.abs()) {
                best = Some((o, r.score));
            }
            if self.control.stopped() {
                break;
            }
        }
        // every board from 5x5 up holds the standard openings
        let c = empty.center();
        let (o, _) = best.unwrap_or(([c; 3], 0));
        self.board = empty;
        o.iter().for_each(|&p| self.board.make(p));
        SoosorvAnswer::Opening(o)
    }

    /// White's fourth stone and the number of fifth moves that leave black's value nearest
    /// even (black may swap): after each candidate, black's best lines are searched, and
    /// with `n` offered black is worth its `n`-th best.
    fn soosorv_fourth(&mut self, t: &ThinkLimits) -> SoosorvAnswer {
        let candidates = crate::search::ranked_moves(&self.board, super::swap2::BALANCE_CANDIDATES);
        let share = share_of(t, candidates.len() as u64 + 1);
        let mut best: Option<(Pos, usize, Score)> = None;
        for &p in &candidates {
            self.board.make(p);
            let lines = self.lines(MAX_FIFTHS, &limits_for(&self.board, &share));
            self.board.undo();
            for (i, &(v, _)) in lines.iter().enumerate() {
                if best.is_none_or(|(_, _, b)| v.abs() < b.abs()) {
                    best = Some((p, i + 1, v));
                }
            }
            if self.control.stopped() {
                break;
            }
        }
        let (p, n) = best.map_or((self.board.center(), 1), |b| (b.0, b.1));
        let p = if self.board.is_legal(p) {
            p
        } else {
            // nothing searched (stopped at once): any free cell nearest the centre
            nearest_free(&self.board)
        };
        self.board.make(p);
        SoosorvAnswer::Fourth(p, n)
    }

    /// Black's `n` best fifth moves, no two alike by a symmetry of the position; where the
    /// search finds fewer, the legal cells nearest the centre fill up.
    fn soosorv_offer(&mut self, n: usize, t: &ThinkLimits) -> Vec<Pos> {
        let syms = symmetries(&self.board);
        let want = (2 * n).clamp(1, 64);
        let lines = self.lines(want, &limits_for(&self.board, t));
        let mut offer: Vec<Pos> = Vec::new();
        let b = &self.board;
        let mut by_distance: Vec<Pos> = b.empty_cells().filter(|&p| b.is_legal(p)).collect();
        by_distance.sort_by_key(|&p| (b.centre_distance2(p), p));
        for p in lines.iter().map(|l| l.1).chain(by_distance) {
            if offer.len() == n {
                break;
            }
            if b.is_legal(p) && !offer.contains(&p) && !alike(b, &syms, &offer, p) {
                offer.push(p);
            }
        }
        offer
    }
}

/// The free legal cell nearest the centre.
fn nearest_free(b: &Board) -> Pos {
    b.empty_cells()
        .filter(|&p| b.is_legal(p))
        .min_by_key(|&p| (b.centre_distance2(p), p))
        .unwrap_or(b.center())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn there_are_26_standard_openings_and_none_alike() {
        let b = Board::new(15, 15, Rule::Renju);
        let openings = standard_openings(&b);
        assert_eq!(openings.len(), 26);
        let c = b.center();
        for o in &openings {
            assert_eq!(o[0], c);
            assert!(o[1].x().abs_diff(c.x()) <= 1 && o[1].y().abs_diff(c.y()) <= 1);
            assert!(o[2].x().abs_diff(c.x()) <= 2 && o[2].y().abs_diff(c.y()) <= 2);
        }
        // no two are the same position up to a symmetry of the board
        let canon = |o: &[Pos; 3]| -> Vec<Vec<usize>> {
            let all: Vec<Symmetry> = [false, true]
                .iter()
                .flat_map(|&t| {
                    [false, true]
                        .iter()
                        .flat_map(move |&x| [false, true].map(move |y| (t, x, y)))
                })
                .collect();
            let mut forms: Vec<Vec<usize>> = all
                .iter()
                .map(|&s| o.iter().map(|&p| map(&b, s, p).index()).collect())
                .collect();
            forms.sort();
            forms
        };
        for i in 0..openings.len() {
            for j in 0..i {
                assert_ne!(
                    canon(&openings[i])[0],
                    canon(&openings[j])[0],
                    "{i} and {j}"
                );
            }
        }
    }

    #[test]
    fn symmetries_of_a_position_keep_colours() {
        let mut b = Board::new(15, 15, Rule::Renju);
        assert_eq!(symmetries(&b).len(), 8);
        b.make(Pos::new(7, 7));
        assert_eq!(symmetries(&b).len(), 8);
        b.make(Pos::new(7, 6));
        // only the mirror through the vertical axis is left (and the identity)
        assert_eq!(
            symmetries(&b),
            vec![(false, false, false), (false, true, false)]
        );
        let rect = Board::new(15, 11, Rule::Freestyle);
        assert_eq!(symmetries(&rect).len(), 4);
    }

    #[test]
    fn a_small_board_still_has_its_openings() {
        let b = Board::new(5, 5, Rule::Renju);
        assert_eq!(standard_openings(&b).len(), 26);
    }
}
