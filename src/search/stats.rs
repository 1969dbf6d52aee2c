//! How well the move ordering does where the tree grows: of the nodes that fail high, the
//! share whose first move did it, by the plies of depth left (issue 70). A count per cut,
//! so it costs nothing measurable; `bench` prints it.

use super::{Depth, ONE_PLY};

/// Rows by plies of depth left: 0 (the quiescence's edge) to `ROWS - 1` or more.
pub const ROWS: usize = 16;

/// Fail-highs and first-move fail-highs of one thread's last search, by plies of depth left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CutoffStats {
    pub cutoffs: [u64; ROWS],
    /// Of `cutoffs`, those where the first move searched failed high.
    pub first: [u64; ROWS],
}

impl CutoffStats {
    /// A fail-high at `depth` (sixteenths of a ply), by the first move or a later one.
    #[inline]
    pub(super) fn record(&mut self, depth: Depth, first: bool) {
        let row = ((depth.max(0) / ONE_PLY) as usize).min(ROWS - 1);
        self.cutoffs[row] += 1;
        self.first[row] += u64::from(first);
    }

    /// `other`'s counts added to these.
    pub fn add(&mut self, other: &CutoffStats) {
        for r in 0..ROWS {
            self.cutoffs[r] += other.cutoffs[r];
            self.first[r] += other.first[r];
        }
    }

    /// The fail-highs and first-move fail-highs at `lo..=hi` plies of depth left.
    pub fn in_rows(&self, lo: usize, hi: usize) -> (u64, u64) {
        let rows = lo.min(ROWS - 1)..=hi.min(ROWS - 1);
        (
            self.cutoffs[rows.clone()].iter().sum(),
            self.first[rows].iter().sum(),
        )
    }

    /// One line: the first-move share of the fail-highs in a few bands of depth left, as
    /// `1-2 93.1% 3-4 88.0% ...`; bands without a fail-high are left out.
    pub fn summary(&self) -> String {
        let bands = [(0, 2), (3, 4), (5, 6), (7, 9), (10, ROWS - 1)];
        let mut parts = Vec::new();
        for (lo, hi) in bands {
            let (all, first) = self.in_rows(lo, hi);
            if all > 0 {
                let label = if hi == ROWS - 1 {
                    format!("{lo}+")
                } else {
                    format!("{lo}-{hi}")
                };
                parts.push(format!("{label} {:.1}%", first as f64 * 100.0 / all as f64));
            }
        }
        parts.join("  ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_by_plies_and_the_share_by_band() {
        let mut s = CutoffStats::default();
        s.record(0, true);
        s.record(ONE_PLY / 2, false); // half a ply: row 0
        s.record(3 * ONE_PLY, true);
        s.record(3 * ONE_PLY + 5, true);
        s.record(40 * ONE_PLY, false); // deep: the last row
        assert_eq!((s.cutoffs[0], s.first[0]), (2, 1));
        assert_eq!((s.cutoffs[3], s.first[3]), (2, 2));
        assert_eq!(s.cutoffs[ROWS - 1], 1);
        assert_eq!(s.in_rows(0, 4), (4, 3));
        assert_eq!(s.summary(), "0-2 50.0%  3-4 100.0%  10+ 0.0%");
        let mut t = s;
        t.add(&s);
        assert_eq!(t.in_rows(0, ROWS), (10, 6));
    }
}
