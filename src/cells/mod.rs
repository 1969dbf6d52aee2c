//! Pattern codes of a cell, and the fitted per-cell value tables the board sums up.
//!
//! A cell's *pattern code* for a colour is the unordered combination of the four line
//! patterns a stone of that colour would make there: 12 patterns give C(15, 4) = 1,365
//! codes. The evaluation adds, over every empty cell, a fitted value per code, one table
//! for the side to move and one for the side waiting (renju: black and white apart), so it
//! can tell two open twos crossing on one cell from a lone open two beside a closed three —
//! which the threat classes lump together. The board keeps the sums incrementally; the
//! tables are fitted by `examples/fit_cells.rs` and compiled in (Rensa reads no files).

use crate::rules::Rule;

pub use crate::pattern::{code_index, CODES};

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
pub mod line;
pub mod net;
mod renju;

/// The fitted tables of `rule`, for the classical evaluation (where networks start training).
/// Caro has none: its classical evaluation is the threat-count model alone, and the engine
/// plays caro with a network (`net`). Renju's cell codes stay 0 for now: on the data there
/// is they did not fit the validation positions better than the threat buckets alone.
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
}
