//! Fitted move-ordering tables: a *policy* by pattern code, fitted by `examples/fit_order.rs`
//! to the moves Rensa's search chose in its games (softmax regression).

use crate::pattern::CODES;
use crate::rules::Rule;

mod freestyle;

/// Distance buckets of [`OrderTables::near_opponent`] and [`OrderTables::near_own`].
pub const DIST_BUCKETS: usize = 8;

/// Fitted move-ordering values of one rule, by pattern code: `attack[code]` for the cell's
/// code of the side to move, `defend[code]` for the opponent's, in the units of the
/// hand-set ordering of `eval::move_score` (history and killer bonuses add to them).
pub struct OrderTables {
    pub attack: [i32; CODES],
    pub defend: [i32; CODES],
    /// By Chebyshev distance to the opponent's last stone (the last bucket: farther, or none).
    pub near_opponent: [i32; DIST_BUCKETS],
    /// By Chebyshev distance to the mover's own last stone.
    pub near_own: [i32; DIST_BUCKETS],
    /// Ordering units per logit of the fitted softmax.
    pub temperature: i32,
}

/// The fitted ordering tables of `rule`, or `None` where the hand-set ordering serves.
pub fn tables(rule: Rule) -> Option<&'static OrderTables> {
    match rule {
        Rule::Freestyle => Some(&freestyle::ORDER),
        Rule::Standard | Rule::Renju | Rule::Caro | Rule::CaroExact => None,
    }
}
