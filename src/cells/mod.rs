//! Pattern codes of a cell, and the fitted per-cell value tables the board sums up.
//!
//! A cell's *pattern code* for a colour is the unordered combination of the four line
//! patterns a stone of that colour would make there: 12 patterns give C(15, 4) = 1,365
//! codes. The evaluation adds, over every empty cell, a fitted value per code, one table
//! for the side to move and one for the side waiting (renju: black and white apart), so it
//! can tell two open twos crossing on one cell from a lone open two beside a closed three —
//! which the threat classes lump together. The board keeps the sums incrementally; the
//! tables are fitted by `examples/fit_cells.rs` and compiled in (Rensa reads no files).

use crate::pattern::{Pattern, PATTERN_COUNT};
use crate::rules::Rule;
use std::sync::OnceLock;

/// Unordered combinations of four line patterns.
pub const CODES: usize = 1365;

/// `C(n, k)` for the small arguments of the combinatorial number system.
const fn choose(n: usize, k: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < k {
        if n < i {
            return 0;
        }
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The index of four patterns in any order, in 0..[`CODES`]; four `Dead` lines give 0.
pub fn code_index(p: [Pattern; 4]) -> usize {
    let mut v = p.map(|p| p as usize);
    v.sort_unstable_by(|a, b| b.cmp(a));
    // combinations with repetition: a >= b >= c >= d maps to a 4-subset of 0..15
    choose(v[0] + 3, 4) + choose(v[1] + 2, 3) + choose(v[2] + 1, 2) + v[3]
}

/// [`code_index`] by the board's packed form (four 4-bit patterns, direction 0 lowest).
pub fn packed_index(packed: u16) -> usize {
    code_map()[packed as usize] as usize
}

/// The map behind [`packed_index`], built once (the board keeps a reference).
pub fn code_map() -> &'static [u16] {
    static MAP: OnceLock<Vec<u16>> = OnceLock::new();
    MAP.get_or_init(|| {
        (0..=u16::MAX as usize)
            .map(|k| {
                let p: [usize; 4] = std::array::from_fn(|d| (k >> (4 * d)) & 15);
                if p.iter().all(|&x| x < PATTERN_COUNT) {
                    code_index(p.map(|x| Pattern::from_u8(x as u8))) as u16
                } else {
                    0
                }
            })
            .collect()
    })
}

/// Buckets of a side's strongest threat for [`CellTables::threats`].
pub const BUCKETS: usize = 8;

/// Fitted values of one rule, in evaluation units.
pub struct CellTables {
    /// `cells[colour * 2 + role][code]`: role 0 the side to move, 1 the side waiting
    /// (colour 0 serves both colours except in renju).
    pub cells: [[i16; CODES]; 4],
    /// `threats[to-move bucket * BUCKETS + waiting bucket]`.
    pub threats: [i16; BUCKETS * BUCKETS],
}

/// No correction: the rules without fitted tables.
pub const ZERO: CellTables = CellTables {
    cells: [[0; CODES]; 4],
    threats: [0; BUCKETS * BUCKETS],
};

static NONE: CellTables = ZERO;

mod freestyle;
mod renju;

/// The fitted tables of `rule`. Caro has none (no data yet): it keeps the threat-count model
/// alone. Renju's cell codes stay 0 for now: on the data there is they did not fit the
/// validation positions better than the threat buckets alone.
pub fn tables(rule: Rule) -> &'static CellTables {
    match rule {
        Rule::Freestyle => &freestyle::TABLES,
        // Standard's own tables (fitted on self-play at 20,000 nodes) lost 28 Elo in
        // self-play at 200 ms; freestyle's, fitted on five times the data, serve it.
        Rule::Standard => &freestyle::TABLES,
        Rule::Renju => &renju::TABLES,
        Rule::Caro | Rule::CaroExact => &NONE,
    }
}

impl CellTables {
    /// The table of colour index `c` (0 black) in `role`.
    #[inline]
    pub fn table_index(rule: Rule, c: usize, role: usize) -> usize {
        let colour = if rule == Rule::Renju { c } else { 0 };
        colour * 2 + role
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fitted rules have tables (else the board's incremental sums are never tested).
    #[test]
    fn fitted_rules_have_tables() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let t = tables(rule);
            // renju's cell codes did not fit better than nothing on the data there is
            if rule != Rule::Renju {
                assert!(t.cells[0].iter().any(|&v| v != 0), "{rule:?}");
            }
            assert!(t.threats.iter().any(|&v| v != 0), "{rule:?}");
            assert!(
                t.cells.iter().all(|c| c[0] == 0),
                "four dead lines are worth 0"
            );
        }
    }

    #[test]
    fn codes_are_dense_and_unordered() {
        let mut seen = vec![false; CODES];
        for k in 0..PATTERN_COUNT.pow(4) {
            let p: [Pattern; 4] = std::array::from_fn(|d| {
                Pattern::from_u8(((k / PATTERN_COUNT.pow(d as u32)) % PATTERN_COUNT) as u8)
            });
            let i = code_index(p);
            seen[i] = true;
            let mut q = p;
            q.reverse();
            assert_eq!(code_index(q), i);
            let packed = p
                .iter()
                .enumerate()
                .map(|(d, &x)| (x as u16) << (4 * d))
                .sum();
            assert_eq!(packed_index(packed), i);
        }
        assert!(seen.iter().all(|&s| s), "every index is some combination");
        assert_eq!(code_index([Pattern::Dead; 4]), 0);
        assert_eq!(code_index([Pattern::Five; 4]), CODES - 1);
    }
}
