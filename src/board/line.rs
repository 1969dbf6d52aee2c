//! What a line-shape network (`crate::cells::line`) keeps on the board: every cell's
//! unclipped sum of its four window vectors, and the pool of the clipped sums, for both
//! colours' views. A stone changes the windows of the cells within the radius on its four
//! lines and all four of its own. Make and undo only mark those (cell, direction) pairs;
//! [`LineState::flush`], before an evaluation, swaps the vector of each marked window whose
//! shape differs from the one in its cell's sum, and the pool takes the difference of the
//! cell's clipped sums. So the moves that the threat searches make and take back without
//! evaluating cost a mark each, and a move taken back before the next evaluation nothing
//! more.
//!
//! [`LineNetwork`] is the accumulator of the cell-code network with a line-shape network's
//! correction on top: an experiment of issue 11 (see `scripts/tune/README.md`, "The
//! line-shape network in the engine"). It fits the search's scores better but played no
//! better at equal nodes and costs speed, so the engine plays it only when built with the
//! `line-net` feature.

use super::{Accumulator, CellInfo, Network};
use crate::cells::line::{self, LineWeights, DIM};
use crate::geometry::{Grid, DIR_OFFSETS, GRID_CELLS, WALL};
use crate::rules::Rule;
use std::sync::Arc;

/// The cell-code network's sums and, where the rule has a line-shape network, its state.
#[derive(Clone)]
pub struct LineNetwork {
    net: Network,
    line: Option<LineState>,
}

impl LineNetwork {
    pub fn new(net: Network, line: Option<Arc<LineWeights>>) -> LineNetwork {
        LineNetwork {
            net,
            line: line.map(LineState::new),
        }
    }

    /// The rule's shipped network, with its line-shape network where it has one.
    pub fn shipped(rule: Rule, width: usize, height: usize) -> LineNetwork {
        LineNetwork::new(Network::shipped(rule, width, height), line::network(rule))
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
    type Saved = <Network as Accumulator>::Saved;

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
    fn stone_put(&mut self, p: usize, grid: &Grid, _keys: &[[u32; 4]]) {
        if let Some(line) = &mut self.line {
            line.mark(p, grid);
        }
    }

    #[inline]
    fn stone_taken(&mut self, p: usize, grid: &Grid, _keys: &[[u32; 4]]) {
        if let Some(line) = &mut self.line {
            line.mark(p, grid);
        }
    }

    #[inline]
    fn flush(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        if let Some(line) = &mut self.line {
            line.flush(grid, keys);
        }
    }

    fn rebuild(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        if let Some(line) = &mut self.line {
            line.rebuild(grid, keys);
        }
    }

    // the line state needs nothing saved: its sums follow the windows they were made from
    #[inline]
    fn save(&self) -> Self::Saved {
        self.net.save()
    }

    #[inline]
    fn restore(&mut self, saved: Self::Saved) {
        self.net.restore(saved);
    }
}

/// The pools of both views: `[view][entry]`, view 0 black's.
pub type Pools = [[i32; DIM]; 2];

#[derive(Clone)]
pub struct LineState {
    weights: Arc<LineWeights>,
    /// `cells[grid index][view]`: the unclipped sum of the cell's four window vectors.
    cells: Vec<[[i16; DIM]; 2]>,
    /// `windows[grid index][direction]`: the packed window whose vector is in the sums.
    windows: Vec<[u32; 4]>,
    /// The (cell, direction) pairs a stone touched since the last flush, `cell * 4 + dir`,
    /// each once (`marked`).
    dirty: Vec<u32>,
    marked: Vec<bool>,
    pools: Pools,
    /// Whether the CPU runs AVX2 (the update has a build for it).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
}

impl LineState {
    pub fn new(weights: Arc<LineWeights>) -> LineState {
        LineState {
            weights,
            cells: vec![[[0; DIM]; 2]; GRID_CELLS],
            windows: vec![[0; 4]; GRID_CELLS],
            dirty: Vec::new(),
            marked: vec![false; 4 * GRID_CELLS],
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

    /// The pools, as of the last flush.
    #[inline]
    pub fn pools(&self) -> &Pools {
        &self.pools
    }

    /// Whether a stone changed since the last flush (the pools may be out of date).
    #[inline]
    pub fn is_stale(&self) -> bool {
        !self.dirty.is_empty()
    }

    /// Every cell's sums and the pools from the grid and the line keys.
    pub fn rebuild(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        self.pools = [[0; DIM]; 2];
        for e in self.dirty.drain(..) {
            self.marked[e as usize] = false;
        }
        let w = &*self.weights;
        let cells = self.cells.iter_mut().zip(&mut self.windows);
        for (((cell, windows), &centre), lines) in cells.zip(&grid.cells).zip(keys) {
            *cell = [[0; DIM]; 2];
            *windows = lines.map(|key| window(w.radius, centre, key) as u32);
            if centre == WALL {
                continue;
            }
            for (view, (sum, pool)) in cell.iter_mut().zip(&mut self.pools).enumerate() {
                for &win in windows.iter() {
                    add(sum, &w.vectors[w.shape_of(view, win as usize)]);
                }
                for (p, &s) in pool.iter_mut().zip(sum.iter()) {
                    *p += (s as i32).clamp(0, w.one);
                }
            }
        }
    }

    /// A stone landed on `p` or is leaving it: marks the windows it is in.
    #[inline]
    pub fn mark(&mut self, p: usize, grid: &Grid) {
        let r = self.weights.radius as isize;
        for (d, &off) in DIR_OFFSETS.iter().enumerate() {
            for k in -r..=r {
                let q = (p as isize + k * off) as usize;
                let e = 4 * q + d;
                if grid.cells[q] != WALL && !self.marked[e] {
                    self.marked[e] = true;
                    self.dirty.push(e as u32);
                }
            }
        }
    }

    /// Brings the sums and the pools up to date with the grid and the line keys.
    #[inline]
    pub fn flush(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        if self.dirty.is_empty() {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: the CPU has AVX2 (checked in `new`)
            unsafe { self.flush_avx2(grid, keys) };
            return;
        }
        self.flush_any(grid, keys);
    }

    /// [`LineState::flush`] compiled for AVX2 (16 lanes of `i16` where SSE2 has 8).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn flush_avx2(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        self.flush_any(grid, keys);
    }

    #[inline(always)]
    fn flush_any(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        let w = &*self.weights;
        let one = w.one as i16;
        for e in self.dirty.drain(..) {
            let (q, d) = (e as usize / 4, e as usize % 4);
            self.marked[e as usize] = false;
            let new = window(w.radius, grid.cells[q], keys[q][d]);
            let old = std::mem::replace(&mut self.windows[q][d], new as u32) as usize;
            if new == old {
                continue;
            }
            for (view, pool) in self.pools.iter_mut().enumerate() {
                let was = &w.vectors[w.shape_of(view, old)];
                let now = &w.vectors[w.shape_of(view, new)];
                let cell = &mut self.cells[q][view];
                for i in 0..DIM {
                    let before = cell[i];
                    let after = before.wrapping_add(now[i]).wrapping_sub(was[i]);
                    cell[i] = after;
                    pool[i] += (after.clamp(0, one) - before.clamp(0, one)) as i32;
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
