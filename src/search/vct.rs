//! VCT: victory by continuous threats. The attacker plays only fours and open threes; the
//! defender answers a four on its five point and an open three on one of the cells where the
//! attacker would make a four, or counters with a four of its own. That defence set is
//! complete (a straight four needs every one of those cells), so a win found here is a win.
//! Renju: black's moves must be legal, and white wins when black's only block is forbidden.
//! Results have their own table: proven wins at any depth, failures by the depth searched.

use super::Worker;
use crate::board::Pos;
use crate::eval::Evaluator;
use crate::pattern::Threat;

/// Attacker moves tried by the root probe, deepening. (Deeper, to 9, with a third of the
/// soft limit instead of an eighth, solved 227 and 238 of the 254 loss positions at 100 and
/// 200 ms a move where this solves 220 and 233, but played -18 [-36, -1]: 500 games,
/// freestyle, 100 ms: the probe's time comes out of the main search (depth 9.8 against 9.9).)
const ROOT_DEPTHS: [i32; 4] = [2, 3, 5, 7];
/// Attacker moves in the probe for the opponent's wins. (7 made no difference to the 189
/// positions before Rensa's losing moves against Rapfi, session 19: the probe's share runs
/// out first. Checking each iteration's best move instead for the opponent's win with
/// these ROOT_DEPTHS, and searching the depth again without it when refuted: a few more
/// of those positions held, but -37 [-51, -24] at 40,000 nodes a move in freestyle, 520
/// pairs, each check given a quarter of what was left: the best move changes often in sharp
/// positions and the checks ate the search. Checked only late in the turn, it solved no
/// more of those positions.)
const DEFENCE_DEPTH: i32 = 4;

/// A table entry: key bits above 16, bit 15 = win, low bits = plies (win) or depth (fail).
const WIN_BIT: u64 = 1 << 15;
const KEY_MASK: u64 = !0xFFFF;

impl<E: Evaluator> Worker<'_, E> {
    /// A proven result for the attacker to move here, searched to at least `depth`:
    /// `Some(Some(plies))` a win, `Some(None)` no win within `depth`.
    fn vct_probe(&self, depth: i32) -> Option<Option<u32>> {
        let key = self.board.hash();
        let e = self.vct_cache[key as usize & (self.vct_cache.len() - 1)];
        if e == 0 || e & KEY_MASK != key & KEY_MASK {
            return None;
        }
        let v = (e & 0x7FFF) as u32;
        if e & WIN_BIT != 0 {
            Some(Some(v))
        } else if v as i32 >= depth {
            Some(None)
        } else {
            None
        }
    }

    fn vct_store(&mut self, depth: i32, win: Option<u32>) {
        let key = self.board.hash();
        let n = self.vct_cache.len();
        let e = match win {
            Some(p) => (key & KEY_MASK) | WIN_BIT | p.min(0x7FFF) as u64,
            None => (key & KEY_MASK) | depth.clamp(0, 0x7FFF) as u64,
        };
        self.vct_cache[key as usize & (n - 1)] = e;
    }

    /// The side to move's threat moves (fours and open threes), fours first, then by class
    /// and cell index.
    fn threat_moves(&mut self) -> Vec<(Pos, Threat)> {
        let mut cands = std::mem::take(&mut self.move_buf);
        self.board.candidates(&mut cands);
        let mut out: Vec<(Pos, Threat)> = cands
            .iter()
            .filter_map(|&p| {
                let t = self.legal_threat(p)?;
                (t >= Threat::Flex3).then_some((p, t))
            })
            .collect();
        self.move_buf = cands;
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
        out
    }

    /// Whether the side to move wins by continuous threats within `depth` attacker moves:
    /// the first move and the plies to the five (1 = a five now; no move when the win needs
    /// no new threat).
    pub(super) fn vct_attack(&mut self, depth: i32, ply: usize) -> Option<(Option<Pos>, u32)> {
        self.nodes += 1;
        if self.check_abort() || ply >= super::MAX_PLY - 4 {
            return None;
        }
        let me = self.board.side();
        let opp = me.opponent();
        if self.board.count(me, Threat::Five) > 0 {
            return Some((None, 1));
        }
        let opp_fives = self.board.count(opp, Threat::Five);
        if opp_fives >= 2 {
            return None;
        }
        if opp_fives == 1 {
            // The defender countered with a four: block it; the threat it ignored must
            // still stand after the block.
            let f = self.five_point(opp)?;
            if !self.board.is_legal(f) {
                return None;
            }
            self.board.make(f);
            let r = self.vct_defend(depth, ply + 1);
            self.board.undo();
            return r.map(|n| (Some(f), n + 1));
        }
        if self.board.count(me, Threat::Flex4) > 0 && !self.board.has_four_move(opp) {
            return Some((None, 3));
        }
        if depth <= 0 {
            return None;
        }
        match self.vct_probe(depth) {
            Some(Some(n)) if ply > 0 => return Some((None, n)),
            Some(None) => return None,
            _ => {}
        }
        for (mv, _) in self.threat_moves() {
            self.board.make(mv);
            // only a real threat: a five to block or an open four to stop
            let r = if self.board.count(me, Threat::Five) > 0
                || self.board.count(me, Threat::Flex4) > 0
            {
                self.vct_defend(depth - 1, ply + 1)
            } else {
                None
            };
            self.board.undo();
            if let Some(n) = r {
                self.vct_store(depth, Some(n + 1));
                return Some((Some(mv), n + 1));
            }
            if self.aborted {
                return None;
            }
        }
        self.vct_store(depth, None);
        None
    }

    /// The defender answers the attacker's threat; `Some(plies)` when every answer loses.
    fn vct_defend(&mut self, depth: i32, ply: usize) -> Option<u32> {
        self.nodes += 1;
        if self.check_abort() {
            return None;
        }
        let def = self.board.side();
        let att = def.opponent();
        if self.board.count(def, Threat::Five) > 0 {
            return None;
        }
        let fives = self.board.count(att, Threat::Five);
        if fives >= 2 {
            return Some(2);
        }
        if fives == 1 {
            let f = self.five_point(att)?;
            if !self.board.is_legal(f) {
                return Some(2);
            }
            self.board.make(f);
            let r = self.vct_attack(depth, ply + 1);
            self.board.undo();
            return r.map(|(_, n)| n + 1);
        }
        if self.board.count(att, Threat::Flex4) == 0 {
            return None;
        }
        // The cells where the attacker would make a four, strongest first, and the
        // defender's own fours.
        let mut cands = std::mem::take(&mut self.move_buf);
        self.board.candidates(&mut cands);
        let mut defences: Vec<(Pos, i32)> = cands
            .iter()
            .filter_map(|&p| {
                let ta = self.board.threat(att, p);
                let td = self.board.threat(def, p);
                if ta < Threat::Block4 && td < Threat::Block4 {
                    return None;
                }
                if !self.board.is_legal(p) {
                    return None;
                }
                Some((p, ta.max(td) as i32))
            })
            .collect();
        self.move_buf = cands;
        defences.sort_by_key(|m| std::cmp::Reverse(m.1));
        if defences.is_empty() {
            // nothing stops the open four
            return Some(4);
        }
        let mut longest = 0;
        for (mv, _) in defences {
            self.board.make(mv);
            let r = self.vct_attack(depth, ply + 1);
            self.board.undo();
            match r {
                Some((_, n)) => longest = longest.max(n + 1),
                None => return None,
            }
        }
        Some(longest)
    }

    /// The cell completing `c`'s five (near the last move first).
    fn five_point(&self, c: crate::board::Color) -> Option<Pos> {
        if let Some(f) = self.five_point_near_last(c) {
            return Some(f);
        }
        let mut cells = Vec::with_capacity(2);
        self.five_cells(c, &mut cells);
        cells.first().copied()
    }

    /// The root probe: the first move of a VCT and the plies to the five.
    pub(super) fn vct_root(&mut self) -> Option<(Pos, u32)> {
        self.budgeted(super::vcf::ProbeShare::Eighth, |w| {
            for depth in ROOT_DEPTHS {
                if let Some((Some(mv), n)) = w.vct_attack(depth, 0) {
                    if w.board.is_legal(mv) {
                        return Some((mv, n));
                    }
                }
                if w.aborted {
                    return None;
                }
            }
            None
        })
        .0
    }

    /// When the opponent would win by continuous threats if we passed, the root moves that
    /// leave it no such win (`None` when there is no threat, nothing helps, or the probe ran
    /// out of budget).
    pub(super) fn vct_defences(&mut self, moves: &[Pos]) -> Option<Vec<Pos>> {
        self.defences(super::vcf::ProbeShare::Eighth, moves, |w| {
            w.vct_attack(DEFENCE_DEPTH, 1).is_some()
        })
    }
}
