//! VCF: victory by continuous fours. The attacker plays only fours, so every defender reply
//! is forced (block the five point), which keeps the tree narrow enough to search deep.
//! Renju: the defender loses when its only block is forbidden for black.

use super::Worker;
use crate::board::{Pos, DIR_OFFSETS};
use crate::eval::Evaluator;
use crate::pattern::Threat;

/// Attacker moves the root probe may use.
const ROOT_DEPTH: i32 = 24;
/// Node budget of a root probe, so a bushy position cannot eat the move's time.
const ROOT_NODES: u64 = 400_000;
/// Attacker moves in the probe for the opponent's wins.
const DEFENCE_DEPTH: i32 = 10;

/// The part of the move's soft time a root probe may take (the divisor).
#[derive(Clone, Copy)]
pub(super) enum ProbeShare {
    Third = 3,
    Eighth = 8,
}

impl<E: Evaluator> Worker<'_, E> {
    /// Cells where the side to move makes a four (or better), strongest first, then by index.
    fn four_moves(&self) -> Vec<(Pos, Threat)> {
        let mut cands = Vec::new();
        self.board.candidates(&mut cands);
        let mut out: Vec<(Pos, Threat)> = cands
            .into_iter()
            .filter_map(|p| {
                let t = self.board.threat(self.board.side(), p);
                (t >= Threat::Block4).then_some((p, t))
            })
            .collect();
        // strongest first; the sort is stable, so equal classes stay in cell order
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
        out
    }

    fn vcf_cache_hit(&self, depth: i32) -> bool {
        let key = self.board.hash();
        let e = self.vcf_cache[key as usize & (self.vcf_cache.len() - 1)];
        e & !0xFF == key & !0xFF && (e & 0xFF) as i32 >= depth
    }

    fn vcf_cache_fail(&mut self, depth: i32) {
        let key = self.board.hash();
        let n = self.vcf_cache.len();
        self.vcf_cache[key as usize & (n - 1)] = (key & !0xFF) | depth.clamp(0, 255) as u64;
    }

    /// Whether the side to move wins by continuous fours within `depth` fours; the plies to
    /// the five (1 = a five now).
    pub(super) fn vcf_attack(&mut self, depth: i32, ply: usize) -> Option<u32> {
        self.nodes += 1;
        if self.check_abort() || ply >= super::MAX_PLY - 2 {
            return None;
        }
        let me = self.board.side();
        let opp = me.opponent();
        if self.board.count(me, Threat::Five) > 0 {
            return Some(1);
        }
        let opp_fives = self.board.count(opp, Threat::Five);
        if opp_fives >= 2 || depth <= 0 {
            return None;
        }
        let moves: Vec<(Pos, Threat)> = if opp_fives == 1 {
            // the opponent's four must be blocked; go on only if the block is a four too
            let mut cells = Vec::new();
            self.five_cells(opp, &mut cells);
            match cells.first() {
                Some(&f)
                    if self.board.threat(me, f) >= Threat::Block4 && self.board.is_legal(f) =>
                {
                    vec![(f, self.board.threat(me, f))]
                }
                _ => return None,
            }
        } else {
            if self.board.count(me, Threat::Flex4) > 0 && !self.board.has_four_move(opp) {
                return Some(3);
            }
            if self.vcf_cache_hit(depth) {
                return None;
            }
            self.four_moves()
        };
        for (mv, _) in moves {
            if !self.board.is_legal(mv) {
                continue;
            }
            self.board.make(mv);
            let r = self.vcf_defend(depth - 1, ply + 1);
            self.board.undo();
            if let Some(n) = r {
                return Some(n + 1);
            }
            if self.aborted {
                return None;
            }
        }
        if opp_fives == 0 {
            self.vcf_cache_fail(depth);
        }
        None
    }

    /// The defender answers the attacker's four.
    fn vcf_defend(&mut self, depth: i32, ply: usize) -> Option<u32> {
        self.nodes += 1;
        let def = self.board.side();
        let att = def.opponent();
        if self.board.count(def, Threat::Five) > 0 {
            return None;
        }
        let fives = self.board.count(att, Threat::Five);
        if fives == 0 {
            return None;
        }
        if fives >= 2 {
            return Some(2);
        }
        let f = self.five_point_near_last(att)?;
        if !self.board.is_legal(f) {
            return Some(2);
        }
        self.board.make(f);
        let r = self.vcf_attack(depth, ply + 1);
        self.board.undo();
        r.map(|n| n + 1)
    }

    pub(super) fn five_point_near_last(&self, c: crate::board::Color) -> Option<Pos> {
        let (last, _) = self.board.last_move()?;
        for &d in &DIR_OFFSETS {
            for k in (-4isize..=4).filter(|&k| k != 0) {
                let q = last.offset(k * d);
                if self.board.grid().at(q.index() as isize) == 0 && self.board.is_win_move(c, q) {
                    return Some(q);
                }
            }
        }
        None
    }

    /// Runs a root probe within its own budget: at most [`ROOT_NODES`] nodes and a share of
    /// the move's soft time (and of a node limit), so a bushy probe leaves room to search.
    /// Returns the probe's answer and whether it ran to the end; running out of its own
    /// budget is not a reason to stop the search.
    pub(super) fn budgeted<T>(
        &mut self,
        share: ProbeShare,
        probe: impl FnOnce(&mut Self) -> T,
    ) -> (T, bool) {
        let div = share as u64;
        let saved = self.limits.nodes;
        let budget = match saved {
            Some(n) if div > 3 => self.nodes + (n.saturating_sub(self.nodes) / div).min(ROOT_NODES),
            _ => self.nodes + ROOT_NODES,
        };
        self.limits.nodes = Some(saved.map_or(budget, |n| n.min(budget)));
        let saved_hard = self.limits.hard_ms;
        let time_version = self.time_version;
        if let Some(soft) = self.limits.soft_ms {
            let cap = self.elapsed_ms() + (soft / div).max(1);
            self.limits.hard_ms = Some(saved_hard.map_or(cap, |h| h.min(cap)));
        }
        let out = probe(self);
        let complete = !self.aborted;
        self.limits.nodes = saved;
        self.limits.hard_ms = saved_hard;
        if self.time_version != time_version {
            // new limits came in during the probe: they replace the saved ones
            self.time_version = time_version;
            self.sync_time();
        }
        let saved_hard = self.limits.hard_ms;
        if self.aborted
            && !self.control.stopped()
            && saved.is_none_or(|n| self.nodes < n)
            && saved_hard.is_none_or(|h| self.elapsed_ms() < h)
        {
            self.aborted = false;
            self.next_check = self.nodes;
        }
        (out, complete)
    }

    /// The root probe: the first move of a VCF and the plies to the five.
    pub(super) fn vcf_root(&mut self) -> Option<(Pos, u32)> {
        self.budgeted(ProbeShare::Third, |w| {
            for depth in [4, 8, ROOT_DEPTH] {
                for (mv, _) in w.four_moves() {
                    if !w.board.is_legal(mv) {
                        continue;
                    }
                    w.board.make(mv);
                    let r = w.vcf_defend(depth - 1, 1);
                    w.board.undo();
                    if let Some(n) = r {
                        return Some((mv, n + 1));
                    }
                    if w.aborted {
                        return None;
                    }
                }
            }
            None
        })
        .0
    }

    /// When the opponent would win by continuous fours if we passed, the root moves that
    /// leave it no such win (`None` when there is no threat, nothing helps, or the probe ran
    /// out of budget: then the search decides alone).
    pub(super) fn vcf_defences(&mut self, moves: &[Pos]) -> Option<Vec<Pos>> {
        let opp = self.board.side().opponent();
        if !self.board.has_four_move(opp) {
            return None;
        }
        self.defences(ProbeShare::Third, moves, |w| {
            w.vcf_attack(DEFENCE_DEPTH, 1).is_some()
        })
    }

    /// The root moves after which `wins` (a solver for the opponent, who is then to move)
    /// finds nothing, when it finds a win for the opponent if we passed; `None` when there
    /// is no such threat, every move or none stops it, or the probe ran out of `share`.
    pub(super) fn defences(
        &mut self,
        share: ProbeShare,
        moves: &[Pos],
        mut wins: impl FnMut(&mut Self) -> bool,
    ) -> Option<Vec<Pos>> {
        let (safe, complete) = self.budgeted(share, |w| {
            w.board.pass();
            let threat = wins(w);
            w.board.undo();
            if !threat {
                return None;
            }
            let mut safe = Vec::new();
            for &mv in moves {
                w.board.make(mv);
                let lost = wins(w);
                w.board.undo();
                if w.aborted {
                    return None;
                }
                if !lost {
                    safe.push(mv);
                }
            }
            Some(safe)
        });
        match safe {
            Some(s) if complete && !s.is_empty() && s.len() < moves.len() => Some(s),
            _ => None,
        }
    }
}
