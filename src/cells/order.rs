//! Learned corrections of the move ordering: for the side to move's candidate cell, a value
//! by its pattern code for the mover, one by its code for the opponent, and one by the pair
//! of threat classes, added to the hand-set ordering score (`crate::eval::move_score`).
//! Fitted as a softmax over the candidates to the moves Rensa's 40,000-node search played in
//! its own games (`scripts/tune/order_fit.py`; see `scripts/tune/README.md`), in the ordering
//! score's units.

use super::CODES;
use crate::pattern::THREAT_COUNT;
use crate::rules::Rule;
use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"RNSORD01";

/// One rule's corrections.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderTables {
    /// By the cell's pattern code for the side to move.
    pub mine: Vec<i16>,
    /// By the cell's pattern code for the opponent.
    pub theirs: Vec<i16>,
    /// `threats[mine * THREAT_COUNT + theirs]`, by the cell's threat classes.
    pub threats: Vec<i16>,
}

impl OrderTables {
    /// Tables from the fitter's file; `None` for bytes of another shape.
    pub fn from_bytes(bytes: &[u8]) -> Option<OrderTables> {
        let rest = bytes.strip_prefix(MAGIC)?;
        if rest.len() != 2 * (2 * CODES + THREAT_COUNT * THREAT_COUNT) {
            return None;
        }
        let words: Vec<i16> = rest
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Some(OrderTables {
            mine: words[..CODES].to_vec(),
            theirs: words[CODES..2 * CODES].to_vec(),
            threats: words[2 * CODES..].to_vec(),
        })
    }

    /// The correction of a cell with pattern codes `mine` and `theirs` and threat classes
    /// `my_threat` and `their_threat`.
    #[inline]
    pub fn value(&self, mine: u16, theirs: u16, my_threat: u8, their_threat: u8) -> i32 {
        (self.mine[mine as usize] as i32
            + self.theirs[theirs as usize] as i32
            + self.threats[my_threat as usize * THREAT_COUNT + their_threat as usize] as i32)
            / 4
    }
}

/// The corrections the engine orders `rule`'s moves with, where it has them.
pub fn tables(rule: Rule) -> Option<&'static OrderTables> {
    static FREESTYLE: OnceLock<OrderTables> = OnceLock::new();
    match rule {
        Rule::Freestyle => Some(FREESTYLE.get_or_init(|| {
            OrderTables::from_bytes(include_bytes!("order/freestyle.bin")).expect("freestyle order")
        })),
        _ => None,
    }
}
