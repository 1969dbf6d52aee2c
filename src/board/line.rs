//! What a line-shape network (`crate::cells::line`) keeps on the board: every cell's
//! unclipped sum of its four window vectors, and the pool of the clipped sums, for both
//! colours' views. A stone changes the windows of the cells within the radius on its four
//! lines and all four of its own; each changed window swaps one vector for another in its
//! cell's sum, and the pool takes the difference of the cell's clipped sums. Undo swaps the
//! vectors back and restores the pool saved with the move.
//!
//! [`LineNetwork`] is the accumulator of the cell-code network with a line-shape network's
//! correction on top: an experiment of issue 11 (see `scripts/tune/README.md`, "The
//! line-shape network in the engine"). It fits the search's scores better but played no
//! better at equal nodes, and every make and undo pays its update (the threat searches'
//! too), a third of the speed in games; so the engine plays it only when built with the
//! `line-net` feature.

use super::{Accumulator, CellInfo, Network};
use crate::cells::line::{self, LineWeights, DIM};
use crate::geometry::{Grid, DIR_OFFSETS, GRID_CELLS, WALL};
use crate::pattern::slot;
use crate::rules::Rule;
use std::sync::Arc;

/// The cell-code network's sums and, where the rule has a line-shape network, its state.
#[derive(Clone)]
pub struct LineNetwork {
    net: Network,
    line: Option<LineState>,
}

/// What [`LineNetwork`] saves for undo.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LineSaved {
    net: <Network as Accumulator>::Saved,
    pools: Pools,
}

impl LineNetwork {
    pub fn new(net: Network, line: Option<Arc<LineWeights>>) -> LineNetwork {
        LineNetwork {
            net,
            line: line.map(LineState::new),
        }
    }

    /// The rule's shipped network, with its line-shape network where it has one.
    pub fn shipped(rule: Rule) -> LineNetwork {
        LineNetwork::new(Network::shipped(rule), line::network(rule))
    }

    #[inline]
    pub fn network(&self) -> &Network {
        &self.net
    }

    #[inline]
    pub fn line(&self) -> Option<&LineState> {
        self.line.as_ref()
    }
}

impl Accumulator for LineNetwork {
    type Saved = LineSaved;

    fn clear(&mut self) {
        self.net.clear();
    }

    #[inline]
    fn cell_added(&mut self, q: usize, info: &CellInfo) {
        self.net.cell_added(q, info);
    }

    #[inline]
    fn cell_removed(&mut self, q: usize, info: &CellInfo) {
        self.net.cell_removed(q, info);
    }

    #[inline]
    fn cell_changed(&mut self, q: usize, line: usize, old: &CellInfo, new: &CellInfo) {
        self.net.cell_changed(q, line, old, new);
    }

    #[inline]
    fn stone_put(&mut self, p: usize, grid: &Grid, keys: &[[u32; 4]]) {
        if let Some(line) = &mut self.line {
            line.stone(p, grid, keys, true);
        }
    }

    #[inline]
    fn stone_taken(&mut self, p: usize, grid: &Grid, keys: &[[u32; 4]]) {
        if let Some(line) = &mut self.line {
            line.stone(p, grid, keys, false);
        }
    }

    fn rebuild(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        if let Some(line) = &mut self.line {
            line.rebuild(grid, keys);
        }
    }

    #[inline]
    fn save(&self) -> LineSaved {
        LineSaved {
            net: self.net.save(),
            pools: self.line.as_ref().map_or([[0; DIM]; 2], |l| l.pools),
        }
    }

    #[inline]
    fn restore(&mut self, saved: LineSaved) {
        self.net.restore(saved.net);
        if let Some(line) = &mut self.line {
            line.pools = saved.pools;
        }
    }
}

/// The pools of both views: `[view][entry]`, view 0 black's.
pub type Pools = [[i32; DIM]; 2];

#[derive(Clone)]
pub struct LineState {
    weights: Arc<LineWeights>,
    /// `cells[grid index][view]`: the unclipped sum of the cell's four window vectors.
    cells: Vec<[[i16; DIM]; 2]>,
    pools: Pools,
    /// Whether the CPU runs AVX2 (the update has a build for it).
    avx2: bool,
}

impl LineState {
    pub fn new(weights: Arc<LineWeights>) -> LineState {
        LineState {
            weights,
            cells: vec![[[0; DIM]; 2]; GRID_CELLS],
            pools: [[0; DIM]; 2],
            #[cfg(target_arch = "x86_64")]
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            avx2: false,
        }
    }

    pub fn weights(&self) -> &LineWeights {
        &self.weights
    }

    #[inline]
    pub fn pools(&self) -> &Pools {
        &self.pools
    }

    /// Every cell's sums and the pools from the grid and the line keys.
    pub fn rebuild(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        self.pools = [[0; DIM]; 2];
        let w = &*self.weights;
        for ((cell, &centre), lines) in self.cells.iter_mut().zip(&grid.cells).zip(keys) {
            *cell = [[0; DIM]; 2];
            if centre == WALL {
                continue;
            }
            for (view, (sum, pool)) in cell.iter_mut().zip(&mut self.pools).enumerate() {
                for &key in lines {
                    add(
                        sum,
                        &w.vectors[w.shape_of(view, window(w.radius, centre, key))],
                    );
                }
                for (p, &s) in pool.iter_mut().zip(sum.iter()) {
                    *p += (s as i32).clamp(0, w.one);
                }
            }
        }
    }

    /// A stone landed on `p` (`put`: the grid and the keys show it) or is about to leave
    /// it (the pools come back from the saved value then, so only the cells change).
    #[inline]
    pub fn stone(&mut self, p: usize, grid: &Grid, keys: &[[u32; 4]], put: bool) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: the CPU has AVX2 (checked in `new`)
            unsafe { self.stone_avx2(p, grid, keys, put) };
            return;
        }
        match put {
            true => self.stone_any::<true>(p, grid, keys),
            false => self.stone_any::<false>(p, grid, keys),
        }
    }

    /// [`LineState::stone`] compiled for AVX2 (16 lanes of `i16` where SSE2 has 8).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn stone_avx2(&mut self, p: usize, grid: &Grid, keys: &[[u32; 4]], put: bool) {
        match put {
            true => self.stone_any::<true>(p, grid, keys),
            false => self.stone_any::<false>(p, grid, keys),
        }
    }

    /// `PUT`: the stone lands (cells and pools change); else it leaves (cells only).
    #[inline(always)]
    fn stone_any<const PUT: bool>(&mut self, p: usize, grid: &Grid, keys: &[[u32; 4]]) {
        let r = self.weights.radius as isize;
        let w = &*self.weights;
        let one = w.one as i16;
        // the pools' change: at most 4 * (2r + 1) cells' clipped sums, which fits an i16
        let mut delta = [[0i16; DIM]; 2];
        for (d, &off) in DIR_OFFSETS.iter().enumerate() {
            for k in -r..=r {
                let q = (p as isize + k * off) as usize;
                let centre = grid.cells[q];
                if centre == WALL {
                    continue;
                }
                let with = window(r as usize, centre, keys[q][d]);
                // the same window without the stone: the centre, or p's cell seen from q
                let bit = if k == 0 {
                    4 * r
                } else {
                    2 * (slot(-k) as isize - (5 - r))
                };
                let without = with & !(3 << bit);
                let (old, new) = if PUT {
                    (without, with)
                } else {
                    (with, without)
                };
                for (view, delta) in delta.iter_mut().enumerate() {
                    let was = &w.vectors[w.shape_of(view, old)];
                    let now = &w.vectors[w.shape_of(view, new)];
                    let cell = &mut self.cells[q][view];
                    for i in 0..DIM {
                        let before = cell[i];
                        let after = before.wrapping_add(now[i]).wrapping_sub(was[i]);
                        cell[i] = after;
                        if PUT {
                            delta[i] += after.clamp(0, one) - before.clamp(0, one);
                        }
                    }
                }
            }
        }
        if PUT {
            for (pool, delta) in self.pools.iter_mut().zip(&delta) {
                for (p, &x) in pool.iter_mut().zip(delta) {
                    *p += x as i32;
                }
            }
        }
    }
}

/// The packed window of a cell holding `centre` with line key `key`.
#[inline(always)]
fn window(r: usize, centre: u8, key: u32) -> usize {
    let neighbours = (key >> (2 * (5 - r))) & ((1 << (4 * r)) - 1);
    ((centre as usize) << (4 * r)) | neighbours as usize
}

#[inline]
fn add(sum: &mut [i16; DIM], v: &[i16; DIM]) {
    for (s, &x) in sum.iter_mut().zip(v) {
        *s = s.wrapping_add(x);
    }
}

/// Both views' pools of `grid` read cell by cell, without keys or sums kept: what the
/// board's incremental pools must agree with.
pub fn pools_from_scratch(w: &LineWeights, grid: &Grid) -> Pools {
    let mut pools = [[0; DIM]; 2];
    let r = w.radius as isize;
    for q in 0..GRID_CELLS {
        if grid.cells[q] == WALL {
            continue;
        }
        for (view, pool) in pools.iter_mut().enumerate() {
            let mut sum = [0i32; DIM];
            for &off in &DIR_OFFSETS {
                let mut window = (grid.cells[q] as usize) << (4 * r);
                for (j, k) in (-r..0).chain(1..=r).enumerate() {
                    window |= (grid.at(q as isize + k * off) as usize) << (2 * j);
                }
                for (s, &x) in sum.iter_mut().zip(&w.vectors[w.shape_of(view, window)]) {
                    *s += x as i32;
                }
            }
            for (p, s) in pool.iter_mut().zip(sum) {
                *p += s.clamp(0, w.one);
            }
        }
    }
    pools
}
