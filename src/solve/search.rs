//! The solver's alpha-beta search, its move ordering, and the root and principal line.

use std::time::Instant;

use super::table::{Bound, Table, KEY_BITS};
use super::{Game, Pos, Report, SolveRule, Stones, Threats, Value, MAX_CELLS};

/// The solver: a game, its transposition table and counters.
pub struct Solver {
    pub game: Game,
    table: Table,
    history: [u32; MAX_CELLS],
    /// `rank[c]`: the place of cell `c` in the static order (nearest the centre first).
    rank: [u8; MAX_CELLS],
    /// Powers of 3, for boards whose two bitboards do not fit a table entry.
    pow3: Vec<u128>,
    pub nodes: u64,
}

/// Moves with their ordering keys, without allocating, and the most any of them adds to the
/// mover's Erdős–Selfridge potential. [`Moves::next`] hands them out best first: most nodes
/// cut off after one or two moves, so picking beats sorting.
struct Moves {
    cells: [u8; MAX_CELLS],
    keys: [u64; MAX_CELLS],
    len: usize,
    max_gain: u64,
}

impl Moves {
    /// The best move not yet handed out.
    fn next(&mut self) -> Option<u8> {
        let n = self.len;
        if n == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..n {
            if self.keys[i] > self.keys[best] {
                best = i;
            }
        }
        let c = self.cells[best];
        self.cells[best] = self.cells[n - 1];
        self.keys[best] = self.keys[n - 1];
        self.len = n - 1;
        Some(c)
    }
}

impl Solver {
    /// A solver whose table holds 2^`table_bits` entries of 16 bytes (fewer on boards too
    /// small to use them: 2^(cells + 6) at most, so tiny boards start at once).
    pub fn new(game: Game, table_bits: u32) -> Solver {
        let cells = game.cells();
        let mut rank = [0u8; MAX_CELLS];
        for (i, &c) in game.order.iter().enumerate() {
            rank[c as usize] = i as u8;
        }
        let pow3 = if 2 * cells as u32 > KEY_BITS {
            (0..MAX_CELLS)
                .scan(1u128, |p, _| {
                    let v = *p;
                    *p *= 3;
                    Some(v)
                })
                .collect()
        } else {
            Vec::new()
        };
        Solver {
            table: Table::new(table_bits.min(cells as u32 + 6)),
            game,
            history: [0; MAX_CELLS],
            rank,
            pow3,
            nodes: 0,
        }
    }

    /// Solves the empty board. `progress(done, total)` is called as the distinct first moves
    /// are solved.
    pub fn solve(&mut self, progress: &mut dyn FnMut(usize, usize)) -> Report {
        let start = Instant::now();
        let root = self.game.pos(0, 0);
        let (value, best) = self.root_moves(&root, progress);
        let pv = self.principal_line(root, value);
        Report {
            value,
            best: best.iter().map(|&c| self.game.xy(c)).collect(),
            pv: pv.iter().map(|&c| self.game.xy(c)).collect(),
            nodes: self.nodes,
            elapsed_ms: start.elapsed().as_millis(),
        }
    }

    /// The value of `pos` for the side to move, and every move that reaches it. Once a
    /// value is found, later moves are only asked whether they reach it (a narrower window).
    fn root_moves(
        &mut self,
        pos: &Pos,
        progress: &mut dyn FnMut(usize, usize),
    ) -> (Value, Vec<usize>) {
        let empty = self.game.full() & !(pos.first | pos.second);
        let cells: Vec<usize> = self
            .game
            .order
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| empty >> c & 1 == 1)
            .collect();
        if cells.is_empty() {
            return (0, Vec::new());
        }
        // one search per first move up to symmetry
        let keys: Vec<u128> = cells
            .iter()
            .map(|&c| self.game.canonical(&self.game.play(pos, c)).0)
            .collect();
        let total = keys
            .iter()
            .enumerate()
            .filter(|(i, k)| !keys[..*i].contains(k))
            .count();
        let mut seen: Vec<(u128, Value)> = Vec::new();
        let mut value = -1;
        for (&c, &key) in cells.iter().zip(&keys) {
            if seen.iter().any(|(k, _)| *k == key) {
                continue;
            }
            // first ask whether it wins (a null window is cheaper than a full one), then, if
            // a win is not already known, whether it draws
            let mut v = -self.value_after(pos, c, 0, 1);
            if v <= 0 && value < 1 {
                v = -self.value_after(pos, c, -1, 0);
            }
            value = value.max(v);
            seen.push((key, v));
            progress(seen.len(), total);
        }
        let best = cells
            .iter()
            .zip(&keys)
            .filter(|(_, k)| seen.iter().any(|(sk, v)| sk == *k && *v >= value))
            .map(|(&c, _)| c)
            .collect();
        (value, best)
    }

    /// The value for the opponent after the side to move in `pos` plays `c`, searched with
    /// the window (`alpha`, `beta`) of the side to move: exact inside it, else a bound.
    fn value_after(&mut self, pos: &Pos, c: usize, alpha: Value, beta: Value) -> Value {
        let (me, _) = pos.sides();
        if self.game.has_line(me | 1 << c) {
            return -1;
        }
        let child = self.game.play(pos, c);
        self.search(&child, -beta, -alpha)
    }

    /// The exact value of `stones` for the side to move.
    pub fn value(&mut self, stones: Stones) -> Value {
        let pos = self.game.pos(stones.first, stones.second);
        let (_, op) = pos.sides();
        if self.game.has_line(op) {
            return -1;
        }
        self.search(&pos, -1, 1)
    }

    /// A line of best play from `pos` (worth `value` to the side to move). To keep wins
    /// short, the winner tries first the moves that leave it the most completing cells, and
    /// the loser plays the move that leaves the winner the fewest (every loser's move loses,
    /// so that one needs no search).
    fn principal_line(&mut self, mut pos: Pos, mut value: Value) -> Vec<usize> {
        let mut line = Vec::new();
        let full = self.game.full();
        let wins = |g: &Game, me: u64, op: u64| g.threats(me, op, 64, 64).my_wins;
        loop {
            let empty = full & !(pos.first | pos.second);
            if empty == 0 {
                return line;
            }
            let (me, op) = pos.sides();
            let my_wins = wins(&self.game, me, op);
            if my_wins != 0 {
                line.push(my_wins.trailing_zeros() as usize);
                return line;
            }
            // the winner's completing cells after each move, nearest the centre first
            let g = &self.game;
            let mut moves: Vec<(usize, u32)> = g
                .order
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| empty >> c & 1 == 1)
                .map(|c| {
                    let (after_me, after_op) = g.play(&pos, c).sides();
                    let (mover, other) = if value < 0 {
                        (after_me, after_op)
                    } else {
                        (after_op, after_me)
                    };
                    (c, wins(g, mover, other).count_ones())
                })
                .collect();
            let c = if value < 0 {
                moves.iter().min_by_key(|m| m.1).map(|m| m.0)
            } else {
                moves.sort_by_key(|m| std::cmp::Reverse(m.1));
                moves
                    .iter()
                    .map(|m| m.0)
                    .find(|&c| -self.value_after(&pos, c, value - 1, value) >= value)
            };
            let Some(c) = c else { return line };
            line.push(c);
            pos = self.game.play(&pos, c);
            value = -value;
        }
    }

    /// The canonical key as a table key: as it is when it fits, else in base 3.
    pub(super) fn table_key(&self, key: u128) -> u128 {
        if self.pow3.is_empty() {
            return key;
        }
        let cells = self.game.cells();
        let mut out = 0u128;
        for (bits, digit) in [
            (key as u64 & self.game.full(), 1),
            ((key >> cells) as u64, 2),
        ] {
            let mut b = bits;
            while b != 0 {
                out += digit * self.pow3[b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        out
    }

    /// Negamax alpha-beta over -1, 0, 1 for the side to move; the last move did not win.
    fn search(&mut self, pos: &Pos, mut alpha: Value, mut beta: Value) -> Value {
        self.nodes += 1;
        let g = &self.game;
        let empty = g.full() & !(pos.first | pos.second);
        let empties = empty.count_ones();
        if empties == 0 {
            return 0;
        }
        let (me, op) = pos.sides();
        let (my_moves, op_moves) = (empties.div_ceil(2), empties / 2);
        let t: Threats = g.threats(me, op, my_moves, op_moves);
        if t.my_wins != 0 {
            return 1;
        }
        if t.op_wins.count_ones() >= 2 {
            return -1;
        }
        // Erdős–Selfridge: the other side, with us to move, cannot win below 2^k; we, to
        // move, cannot below 2^(k-1)
        let lo = if t.op_pot < Game::pow2(g.k) { 0 } else { -1 };
        let hi = if t.my_pot < Game::pow2(g.k - 1) { 0 } else { 1 };
        if hi <= alpha || lo >= beta || lo == hi {
            return if hi <= alpha { hi } else { lo };
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let (key, sym) = g.canonical(pos);
        let key = self.table_key(key);
        let mut hint = None;
        if let Some(h) = self.table.probe(key) {
            match h.bound {
                Bound::Exact => return h.value,
                Bound::Lower if h.value >= beta => return h.value,
                Bound::Upper if h.value <= alpha => return h.value,
                Bound::Lower => alpha = alpha.max(h.value),
                Bound::Upper => beta = beta.min(h.value),
            }
            hint = h.best.map(|c| self.game.inv_cell[sym][c as usize]);
        }
        let cells = if t.op_wins != 0 { t.op_wins } else { empty };
        let k = self.game.k;
        // Erdős–Selfridge after our best move: below 2^k the other side stops every line
        let gains = hi == 1 && t.my_pot < Game::pow2(k);
        let attack = alpha >= 0;
        let mut moves = self.ordered_moves(attack, (me, op), cells, empties, hint, gains);
        if gains && t.my_pot.saturating_add(moves.max_gain) < Game::pow2(k) {
            if alpha >= 0 {
                return 0;
            }
            beta = beta.min(0);
        }
        let alpha0 = alpha;
        let mut best = -1;
        let mut best_move = None;
        while let Some(c) = moves.next() {
            let child = self.game.play(pos, c as usize);
            // no move completes our line here (my_wins is empty)
            let v = -self.search(&child, -beta, -alpha);
            if v > best || best_move.is_none() {
                best = best.max(v);
                best_move = Some(c);
                if v > alpha {
                    alpha = v;
                }
                if v >= beta {
                    let h = &mut self.history[c as usize];
                    *h = h.saturating_add(empties * empties);
                    break;
                }
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let canonical_move = best_move.map(|c| self.game.sym_cell[sym][c as usize]);
        self.table.store(key, best, bound, empties, canonical_move);
        best
    }

    /// The moves among `cells` with their ordering keys: the table's move first, then cells
    /// in many lines that either side can still complete, weighted by the stones already in
    /// them (more to our own lines when `attack`: the mover needs a win), then by history
    /// and centre. Under freestyle a cell in no such line is a pass in
    /// effect, and a stone more never hurts there, so such cells are dropped while another
    /// move is left (exact). The Erdős–Selfridge gains are summed only when `gains` asks.
    fn ordered_moves(
        &self,
        attack: bool,
        (me, op): (u64, u64),
        cells: u64,
        empties: u32,
        hint: Option<u8>,
        gains: bool,
    ) -> Moves {
        let g = &self.game;
        let k = g.k as u32;
        let (my_moves, op_moves) = (empties.div_ceil(2), empties / 2);
        // weights per stone already in a line: 4^n, our own lines counted 4:1 over the
        // other side's when we need a win, 3:2 when a draw will do (measured on 6,6,4,
        // 6,5,4, 5,5,4 and 6,6,5: attacking wins proofs, blocking draws)
        let (mine, theirs) = if attack { (4u64, 1u64) } else { (3, 2) };
        let mut score = [0u64; MAX_CELLS];
        let mut gain = [0u64; MAX_CELLS];
        for w in &g.windows {
            if g.open_for(w, me, op) {
                let n = (w.cells & me).count_ones();
                if k - n <= my_moves {
                    let mut m = w.cells & cells & !me;
                    while m != 0 {
                        let c = m.trailing_zeros() as usize;
                        score[c] += mine << (2 * n.min(20));
                        if gains {
                            gain[c] = gain[c].saturating_add(1 << n);
                        }
                        m &= m - 1;
                    }
                }
            }
            if g.open_for(w, op, me) {
                let n = (w.cells & op).count_ones();
                if k - n <= op_moves {
                    let mut m = w.cells & cells & !op;
                    while m != 0 {
                        score[m.trailing_zeros() as usize] += theirs << (2 * n.min(20));
                        m &= m - 1;
                    }
                }
            }
        }
        let mut moves = Moves {
            cells: [0; MAX_CELLS],
            keys: [0; MAX_CELLS],
            len: 0,
            max_gain: 0,
        };
        let keep_dead = g.rule == SolveRule::Exact
            || !g
                .order
                .iter()
                .any(|&c| cells >> c & 1 == 1 && score[c as usize] > 0);
        let mut m = cells;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            if keep_dead || score[c] > 0 {
                // hint 1 bit, score 32 bits, history 24 bits, centre 6 bits
                moves.keys[moves.len] = ((hint == Some(c as u8)) as u64) << 62
                    | score[c].min(u32::MAX as u64) << 30
                    | (self.history[c].min((1 << 24) - 1) as u64) << 6
                    | (63 - self.rank[c] as u64);
                moves.cells[moves.len] = c as u8;
                moves.len += 1;
                moves.max_gain = moves.max_gain.max(gain[c]);
            }
        }
        moves
    }
}
