//! The weights of a line-shape network (the shape of Rapfi's Mix6 evaluators), and its
//! arithmetic. Every cell of the board, stones included, reads four *windows*: itself and
//! `radius` cells each side along each line, from the side to move's view (empty, own,
//! opponent; the edge reads as the opponent). A window and its mirror image are one *shape*,
//! and each shape has a learned vector. A cell's four vectors are summed and clipped to
//! `0..=one`, the cells' clipped vectors pooled over the board, and a small MLP turns the
//! pool into a correction of the cell-code network's value (`crate::cells::net`), in
//! evaluation units. The board keeps each cell's unclipped sum and the pools for both
//! colours' views on make and undo (`crate::board::LineState`).
//!
//! Trained by `scripts/tune/line_net.py --residual --export` (see `scripts/tune/README.md`).
//! The vectors are integers (`one` is 1.0), so the pools are exact in every build; the MLP
//! runs in `f32` without fused operations, the same on every target.

use crate::rules::Rule;
use std::sync::{Arc, OnceLock};

/// Entries of a window's vector.
pub const DIM: usize = 32;
/// Most units of the hidden layer.
pub const MAX_HIDDEN: usize = 64;
/// Largest window radius a board's line keys hold.
pub const MAX_RADIUS: usize = 4;

const MAGIC: &[u8; 8] = b"RNSLINE1";

/// The weights of one rule's line-shape network.
#[derive(Clone, Debug, PartialEq)]
pub struct LineWeights {
    /// Cells each side of a window's centre.
    pub radius: usize,
    /// A cell's clip, and 1.0 in a window vector's units.
    pub one: i32,
    /// `vectors[shape]`.
    pub vectors: Vec<[i16; DIM]>,
    /// `shape[view][window]`: the shape of a window packed as the board's line keys pack
    /// it (2 bits a cell: the centre highest, then the far end of one side to the far end
    /// of the other), from black's view (0) and white's (1).
    pub shape: [Vec<u16>; 2],
    /// The hidden layer, by pool entry: `l1[entry * hidden + unit]` (already divided by
    /// `32 * one`), so that the units' sums run side by side in SIMD lanes.
    pub l1: Vec<f32>,
    pub b1: Vec<f32>,
    pub l2: Vec<f32>,
    pub b2: f32,
    /// Evaluation units of one logit of the correction.
    pub scale_out: f32,
    /// The factor on the cell-code network's value (1.0: a pure correction).
    pub base_scale: f32,
    /// Whether the CPU runs AVX2 (the forward pass has a build for it).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
}

impl LineWeights {
    /// Weights from the trainer's file; `None` for bytes of another shape.
    pub fn from_bytes(bytes: &[u8]) -> Option<LineWeights> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let word = |i: usize| -> Option<u32> {
            Some(u32::from_le_bytes(
                rest.get(4 * i..4 * i + 4)?.try_into().ok()?,
            ))
        };
        let [radius, dim, hidden, shapes, one] =
            [0, 1, 2, 3, 4].map(|i| word(i).unwrap_or(0) as usize);
        if !(1..=MAX_RADIUS).contains(&radius)
            || dim != DIM
            || !(1..=MAX_HIDDEN).contains(&hidden)
            || one == 0
        {
            return None;
        }
        let float = |i: usize| f32::from_bits(word(i).unwrap_or(0));
        let (scale_out, base_scale) = (float(5), float(6));
        let body = rest.get(28..)?;
        let want = 2 * shapes * DIM + 4 * (hidden * DIM + 2 * hidden + 1);
        if body.len() != want || shapes != shape_count(radius) {
            return None;
        }
        let (ints, floats) = body.split_at(2 * shapes * DIM);
        let ints: Vec<i16> = ints
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let floats: Vec<f32> = floats
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let (l1, rest) = floats.split_at(hidden * DIM);
        let (b1, rest) = rest.split_at(hidden);
        let (l2, b2) = rest.split_at(hidden);
        let pool = 1.0 / (32.0 * one as f32);
        Some(LineWeights {
            radius,
            one: one as i32,
            vectors: ints
                .chunks_exact(DIM)
                .map(|r| r.try_into().unwrap())
                .collect(),
            shape: [0, 1].map(|view| shape_table(radius, view)),
            l1: (0..DIM * hidden)
                .map(|k| l1[(k % hidden) * DIM + k / hidden] * pool)
                .collect(),
            b1: b1.to_vec(),
            l2: l2.to_vec(),
            b2: b2[0],
            scale_out,
            base_scale,
            #[cfg(target_arch = "x86_64")]
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            avx2: false,
        })
    }

    /// The shape index of a packed window from `view`'s side (see [`LineWeights::shape`]).
    #[inline]
    pub fn shape_of(&self, view: usize, window: usize) -> usize {
        self.shape[view][window] as usize
    }

    /// The correction, in evaluation units, from the side to move's pool.
    #[inline]
    pub fn forward(&self, pool: &[i32; DIM]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: the CPU has AVX2 (checked in `from_bytes`)
            return unsafe { self.forward_avx2(pool) };
        }
        self.forward_any(pool)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn forward_avx2(&self, pool: &[i32; DIM]) -> f32 {
        self.forward_any(pool)
    }

    /// Each unit's sum in the order of the pool's entries, the units side by side (the same
    /// additions in the same order in every build: no reassociation, no fused operations).
    #[inline(always)]
    fn forward_any(&self, pool: &[i32; DIM]) -> f32 {
        let mut all = [0f32; MAX_HIDDEN];
        let units = &mut all[..self.b1.len()];
        units.copy_from_slice(&self.b1);
        for (&x, row) in pool.iter().zip(self.l1.chunks_exact(units.len())) {
            let x = x as f32;
            for (u, &w) in units.iter_mut().zip(row) {
                *u += w * x;
            }
        }
        let mut out = self.b2;
        for (&u, &o) in units.iter().zip(&self.l2) {
            out += u.clamp(0.0, 1.0) * o;
        }
        out * self.scale_out
    }
}

/// Shapes of windows of `radius`: windows up to mirror images (the trainer's count).
fn shape_count(radius: usize) -> usize {
    let canon = canonical(radius);
    let mut v: Vec<u32> = canon.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

/// For every ternary window code (the centre the most significant digit, then the cells
/// from the far end of one side to the far end of the other; 0 empty, 1 own, 2 opponent)
/// the smaller of it and its mirror image's code.
fn canonical(radius: usize) -> Vec<u32> {
    let side = 2 * radius as u32;
    let count = 3u32.pow(side + 1);
    (0..count)
        .map(|code| {
            let centre = code / 3u32.pow(side);
            let mirror = (0..side).fold(centre, |m, i| m * 3 + code / 3u32.pow(i) % 3);
            code.min(mirror)
        })
        .collect()
}

/// [`LineWeights::shape`] for one view: the trainer numbers shapes by their smallest code.
fn shape_table(radius: usize, view: usize) -> Vec<u16> {
    let canon = canonical(radius);
    let mut sorted = canon.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let cells = 2 * radius + 1;
    (0..1usize << (2 * cells))
        .map(|packed| {
            // the centre is the highest 2 bits; neighbours from the lowest up
            let digit = |v: usize| -> u32 {
                match v {
                    0 => 0,
                    1 | 2 if v - 1 == view => 1,
                    _ => 2, // the opponent's stone, or the edge
                }
            };
            let centre = digit(packed >> (2 * (cells - 1)) & 3);
            let code = (0..cells - 1).fold(centre, |c, j| c * 3 + digit(packed >> (2 * j) & 3));
            sorted.binary_search(&canon[code as usize]).unwrap() as u16
        })
        .collect()
}

/// The line-shape network the engine plays `rule` with, where it has one.
pub fn network(rule: Rule) -> Option<Arc<LineWeights>> {
    static FREESTYLE: OnceLock<Arc<LineWeights>> = OnceLock::new();
    match rule {
        Rule::Freestyle => Some(
            FREESTYLE
                .get_or_init(|| {
                    let bytes = include_bytes!("line/freestyle.bin");
                    Arc::new(LineWeights::from_bytes(bytes).expect("freestyle line network"))
                })
                .clone(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs a window as the board does: `cells` from the far end of one side to the far end
    /// of the other, the centre in the middle (0 empty, 1 black, 2 white, 3 edge).
    fn pack(cells: &[usize]) -> usize {
        let r = cells.len() / 2;
        let mut w = cells[r] << (4 * r);
        for (j, &c) in cells[..r].iter().chain(&cells[r + 1..]).enumerate() {
            w |= c << (2 * j);
        }
        w
    }

    #[test]
    fn a_window_and_its_mirror_are_one_shape_and_the_views_swap_colours() {
        for radius in 1..=MAX_RADIUS {
            let table = [shape_table(radius, 0), shape_table(radius, 1)];
            let shapes = shape_count(radius);
            assert!(table[0].iter().all(|&s| (s as usize) < shapes));
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..2000 {
                let cells: Vec<usize> = (0..2 * radius + 1)
                    .map(|i| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // the centre holds no edge
                        (x % if i == radius { 3 } else { 4 }) as usize
                    })
                    .collect();
                let mirror: Vec<usize> = cells.iter().rev().copied().collect();
                let swapped: Vec<usize> = cells.iter().map(|&c| [0, 2, 1, 3][c]).collect();
                let (w, m, s) = (pack(&cells), pack(&mirror), pack(&swapped));
                assert_eq!(table[0][w], table[0][m], "{cells:?}");
                assert_eq!(table[1][w], table[0][s], "{cells:?}");
                // the edge reads as the opponent's stone
                let walled: Vec<usize> =
                    cells.iter().map(|&c| if c == 3 { 2 } else { c }).collect();
                assert_eq!(table[0][w], table[0][pack(&walled)], "{cells:?}");
            }
        }
        // radius 3: the trainer's count of shapes
        assert_eq!(shape_count(3), 1134);
        assert_eq!(shape_count(4), 9963);
    }

    #[test]
    fn weights_of_another_shape_are_refused() {
        let bytes = include_bytes!("line/freestyle.bin");
        let w = LineWeights::from_bytes(bytes).expect("the shipped file reads");
        assert_eq!((w.radius, w.one, w.vectors.len()), (3, 512, 1134));
        assert!(LineWeights::from_bytes(&bytes[..bytes.len() - 1]).is_none());
        assert!(LineWeights::from_bytes(&bytes[1..]).is_none());
        let mut other = bytes.to_vec();
        other[12] = 64; // a 64-wide vector
        assert!(LineWeights::from_bytes(&other).is_none());
        assert!(LineWeights::from_bytes(&[]).is_none());
    }
}
