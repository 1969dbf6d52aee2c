//! The board's self-check: everything it keeps up to date on make and undo, against a
//! fresh recomputation from the stones (the random-games and fuzz tests run it).

use super::*;

impl<A: Accumulator> Board<A> {
    /// Recomputes all derived data from the stones and compares it with the incremental
    /// data. Returns a description of the first difference.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut fresh =
            Board::with_accumulator(self.width(), self.height(), self.rule, self.acc.clone());
        for &p in &self.walls {
            fresh.grid.cells[p.index()] = WALL;
        }
        for &(p, c) in &self.moves {
            if !p.is_none() {
                fresh.grid.cells[p.index()] = c.cell();
            }
        }
        fresh.stones = self.stones;
        fresh.recompute_all();
        for q in 0..GRID_CELLS {
            let on_board = self.grid.cells[q] != WALL;
            if on_board && self.keys[q] != fresh.keys[q] {
                return Err(format!("key of {:?} differs", Pos(q as u16)));
            }
            if self.grid.cells[q] == EMPTY && self.info[q] != fresh.info[q] {
                return Err(format!(
                    "cell {:?}: incremental {:?} vs fresh {:?}",
                    Pos(q as u16),
                    self.info[q],
                    fresh.info[q]
                ));
            }
        }
        if self.acc.save() != fresh.acc.save() {
            return Err(format!(
                "accumulator sums differ: {:?} vs {:?}",
                self.acc.save(),
                fresh.acc.save()
            ));
        }
        if self.counts != fresh.counts {
            return Err(format!(
                "counts differ: {:?} vs {:?}",
                self.counts, fresh.counts
            ));
        }
        let scanned = self
            .empty_cells()
            .filter(|&p| self.info[p.index()].raw_black == Threat::Forbid as u8)
            .count();
        if (self.fouls, fresh.fouls) != (scanned as u16, scanned as u16) {
            return Err(format!(
                "lasting fouls: incremental {}, fresh {}, {scanned} on the board",
                self.fouls, fresh.fouls
            ));
        }
        let mut near = vec![0u8; GRID_CELLS];
        for &(p, _) in &self.moves {
            if !p.is_none() {
                for &(dx, dy) in &NEAR_REACH {
                    near[(p.index() as isize + dy * STRIDE as isize + dx) as usize] += 1;
                }
            }
        }
        if near != self.near {
            return Err("near counts differ".into());
        }
        let mut hash = 0;
        let mut colour_hash = [0; 2];
        for &(p, c) in &self.moves {
            if !p.is_none() {
                hash ^= zobrist().stones[p.index()][c.index()];
                colour_hash[c.index()] ^= zobrist().stones[p.index()][c.index()];
            }
        }
        if colour_hash != self.colour_hash {
            return Err("colour hashes differ".into());
        }
        if self.side == Color::White {
            hash ^= zobrist().side;
        }
        if hash != self.hash {
            return Err("hash differs".into());
        }
        Ok(())
    }
}
