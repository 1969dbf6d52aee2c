//! The root: immediate wins and forced blocks, the threat-space probes, then iterative
//! deepening with aspiration windows.

use super::{time, Focus, Iteration, SearchResult, Worker, MAX_DEPTH};
use crate::board::Pos;
use crate::eval::{self, is_mate_score, mate_in, mated_in, Score, INFINITE};
use crate::pattern::Threat;

impl Worker<'_> {
    /// A root search in a narrow window around the last score, widened on failure.
    fn aspiration(&mut self, depth: i32, prev: Score) -> Score {
        if depth < 5 || is_mate_score(prev) {
            return self.search(depth, -INFINITE, INFINITE, 0, true);
        }
        let mut delta = 25;
        let (mut lo, mut hi) = (prev - delta, prev + delta);
        loop {
            let score = self.search(depth, lo, hi, 0, true);
            if self.aborted {
                return score;
            }
            if score <= lo {
                lo = (lo - delta).max(-INFINITE);
            } else if score >= hi {
                hi = (hi + delta).min(INFINITE);
            } else {
                return score;
            }
            delta *= 3;
            if delta > 1000 {
                lo = -INFINITE;
                hi = INFINITE;
            }
        }
    }

    /// The root: immediate wins and forced blocks, a VCF probe, then iterative deepening.
    pub(super) fn root(&mut self, on_iteration: &mut dyn FnMut(&Iteration)) -> SearchResult {
        let me = self.board.side();
        let opp = me.opponent();
        let mut result = SearchResult {
            best: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed_ms: 0,
            pv: Vec::new(),
        };
        let moves = self.ordered_moves(0, Pos::NONE, Focus::All);
        // every legal cell, in case the candidates near stones are all illegal
        let fallback = if moves.is_empty() {
            self.board
                .empty_cells()
                .find(|&p| self.board.is_legal(p) && !self.excluded.contains(&p))
        } else {
            None
        };
        let Some(first) = moves.first().map(|m| m.mv).or(fallback) else {
            return result;
        };
        result.best = Some(first);
        result.pv = vec![first];
        let finish = |w: &Worker, mut r: SearchResult| {
            r.nodes = w.nodes;
            r.elapsed_ms = w.elapsed_ms();
            r.seldepth = r.seldepth.max(w.seldepth);
            r
        };
        // A five now.
        if let Some(m) = moves.iter().find(|m| self.board.is_win_move(me, m.mv)) {
            result.best = Some(m.mv);
            result.pv = vec![m.mv];
            result.score = mate_in(1);
            result.depth = 1;
            return finish(self, result);
        }
        // The opponent's five must be blocked: with one five point there is one move.
        if self.board.count(opp, Threat::Five) > 0 && !self.caro {
            let mut cells = Vec::new();
            self.five_cells(opp, &mut cells);
            let legal: Vec<Pos> = cells
                .iter()
                .copied()
                .filter(|&p| self.board.is_legal(p) && !self.excluded.contains(&p))
                .collect();
            if let Some(&block) = legal.first() {
                result.best = Some(block);
                result.pv = vec![block];
                if cells.len() >= 2 {
                    result.score = mated_in(2);
                    return finish(self, result);
                }
                // The move is forced: a short search only to report its value, and the time
                // saved stays on the game clock.
                let elapsed = self.elapsed_ms();
                self.limits.soft_ms = self.limits.soft_ms.map(|s| elapsed + s / 10);
                self.limits.hard_ms = self.limits.hard_ms.map(|h| h.min(elapsed + h / 5));
            } else {
                result.score = mated_in(2);
                return finish(self, result);
            }
        }
        // A forced win by continuous fours, else by threes and fours.
        if !self.caro && self.board.count(opp, Threat::Five) == 0 {
            let vcf = if self.board.has_four_move(me) {
                self.vcf_root()
            } else {
                None
            };
            let allowed =
                |w: &Self, win: Option<(Pos, u32)>| win.filter(|(mv, _)| !w.excluded.contains(mv));
            let vcf = allowed(self, vcf);
            let win = match vcf {
                Some(w) => Some(w),
                None => {
                    let vct = self.vct_root();
                    allowed(self, vct)
                }
            };
            if let Some((mv, n)) = win {
                result.best = Some(mv);
                result.pv = vec![mv];
                result.score = mate_in(n as usize);
                result.depth = 1;
                return finish(self, result);
            }
        }

        // The opponent's win by continuous fours, or by threats, if we let it: search only
        // the moves that stop it.
        if !self.caro && self.board.count(opp, Threat::Five) == 0 {
            let mut all: Vec<Pos> = moves.iter().map(|m| m.mv).collect();
            if let Some(safe) = self.vcf_defences(&all) {
                all = safe;
            }
            if let Some(safe) = self.vct_defences(&all) {
                all = safe;
            }
            if all.len() < moves.len() {
                result.best = Some(all[0]);
                result.pv = vec![all[0]];
                self.root_moves = all;
            }
        }

        self.iterate(&mut result, first, on_iteration);

        // Belt and braces: never answer an illegal move.
        if !result.best.is_some_and(|p| self.board.is_legal(p)) {
            result.best = moves.first().map(|m| m.mv).or(fallback);
        }
        finish(self, result)
    }

    /// Iterative deepening from depth 1 until a limit, a proven result or a full board.
    fn iterate(
        &mut self,
        result: &mut SearchResult,
        first: Pos,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) {
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best_move = result.best.unwrap_or(first);
        let mut prev_score = 0;
        let mut stable = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let score = self.aspiration(depth, prev_score);
            prev_score = score;
            if self.aborted {
                // a partial iteration still counts if its first move was searched through
                if self.pv_len[0] > 0 && depth > 1 {
                    best_move = self.pv[0][0];
                    result.best = Some(best_move);
                    result.pv = self.pv[0][..self.pv_len[0]].to_vec();
                }
                break;
            }
            let last_score = result.score;
            let new_best = if self.pv_len[0] > 0 {
                self.pv[0][0]
            } else {
                best_move
            };
            stable = if new_best == best_move { stable + 1 } else { 0 };
            best_move = new_best;
            result.best = Some(best_move);
            result.score = score;
            result.depth = depth;
            result.seldepth = self.seldepth;
            result.pv = if self.pv_len[0] > 0 {
                self.pv[0][..self.pv_len[0]].to_vec()
            } else {
                vec![best_move]
            };
            on_iteration(&Iteration {
                depth,
                seldepth: self.seldepth,
                score,
                nodes: self.nodes,
                elapsed_ms: self.elapsed_ms(),
                pv: result.pv.clone(),
            });
            if is_mate_score(score) && depth as Score >= eval::WIN - score.abs() {
                break;
            }
            if let Some(soft) = self.limits.soft_ms {
                // early iterations always differ: judge stability from depth 5 on
                let scale = if depth >= 5 {
                    time::soft_scale_percent(stable, last_score - score)
                } else {
                    100
                };
                let soft = (soft * scale / 100).min(self.limits.hard_ms.unwrap_or(u64::MAX));
                if self.elapsed_ms() >= soft {
                    break;
                }
            }
            if self.board.stone_count() + depth as usize >= self.board.cell_count() + 2 {
                break;
            }
        }
    }
}
