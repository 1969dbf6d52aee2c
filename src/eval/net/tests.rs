//! The network's accumulator against from-scratch sums, and the cell tables as a network.

use super::*;
use crate::board::{Classical, Pos};
use crate::cells::{tables, CellTables};
use crate::eval::{count_value, evaluate};

/// A tiny seeded generator (xorshift64), so the tests need nothing above this layer.
struct Rnd(u64);

impl Rnd {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn weight(&mut self, span: i32) -> i16 {
        (self.below(2 * span as usize + 1) as i32 - span) as i16
    }
}

fn random_weights(rule: Rule, rnd: &mut Rnd) -> NetWeights {
    let mut w = NetWeights::zero(rule);
    for row in w.feature.iter_mut() {
        for x in row.iter_mut() {
            *x = rnd.weight(40);
        }
    }
    for h in 0..HIDDEN {
        w.bias[h] = rnd.weight(200) as i32;
        w.out[0][h] = rnd.weight(100);
        w.out[1][h] = rnd.weight(100);
    }
    for t in w.threats.iter_mut() {
        *t = rnd.weight(500);
    }
    w.clip = 400;
    w.out_bias = rnd.weight(1000) as i32;
    w
}

/// Random make/undo/pass walks: after every step the board's sums equal a fresh
/// recomputation, and the incremental value equals the value summed from the cells.
#[test]
fn incremental_sums_match_scratch_on_random_games() {
    let mut rnd = Rnd(0x9e37_79b9_7f4a_7c15);
    let mut checks = 0;
    for rule in [Rule::Freestyle, Rule::Renju, Rule::Caro] {
        let weights = Arc::new(random_weights(rule, &mut rnd));
        for (w, h) in [(15, 15), (20, 20), (7, 9)] {
            let mut b = Board::with_accumulator(w, h, rule, Network::new(weights.clone()));
            let mut distinct = std::collections::HashSet::new();
            for _ in 0..(w * h).min(300) {
                if b.ply() > 0 && (rnd.below(4) == 0 || b.is_full()) {
                    b.undo();
                } else if rnd.below(15) == 0 {
                    b.pass();
                } else {
                    let empties: Vec<Pos> = b.empty_cells().collect();
                    b.make(empties[rnd.below(empties.len())]);
                }
                b.check_consistency()
                    .unwrap_or_else(|e| panic!("{rule:?} {w}x{h} after {:?}: {e}", b.history()));
                let v = evaluate(&b);
                assert_eq!(v, Network::evaluate_from_scratch(&b), "{rule:?} {w}x{h}");
                distinct.insert(v);
                checks += 1;
            }
            // the walk really moved the value around (random weights, not a constant)
            assert!(
                distinct.len() > 20,
                "{rule:?} {w}x{h}: {} values",
                distinct.len()
            );
        }
    }
    assert!(checks > 1500);
}

/// The fitted cell tables written as a network: two hidden units, one per role, with a bias
/// large enough that nothing clips. The classical evaluation must then equal the threat-count
/// model plus this network's value, position by position: the two evaluators read the same
/// cells through the same seam.
fn tables_as_network(rule: Rule) -> NetWeights {
    const LIFT: i32 = 1 << 20;
    let t = tables(rule);
    let mut w = NetWeights::zero(rule);
    for c in 0..1 + w.per_colour as usize {
        for code in 0..CODES {
            for role in 0..2 {
                w.feature[c * CODES + code][role] =
                    t.cells[CellTables::table_index(rule, c, role)][code];
            }
        }
    }
    w.bias[0] = LIFT;
    w.bias[1] = LIFT;
    w.clip = i32::MAX;
    w.out[0][0] = 1; // the mover's role-0 sum
    w.out[1][1] = -1; // minus the opponent's role-1 sum
    w.shift = 0;
    w.threats = t.threats;
    w
}

#[test]
fn the_cell_tables_are_a_network() {
    let moves = [
        (7, 7),
        (8, 8),
        (7, 8),
        (6, 6),
        (7, 6),
        (8, 7),
        (9, 8),
        (6, 9),
        (5, 9),
        (10, 9),
    ];
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let net = Arc::new(tables_as_network(rule));
        let mut classical = Board::with_accumulator(15, 15, rule, Classical::new(rule));
        let mut learned = Board::with_accumulator(15, 15, rule, Network::new(net));
        for &(x, y) in &moves {
            classical.make(Pos::new(x, y));
            learned.make(Pos::new(x, y));
            assert_eq!(
                evaluate(&classical),
                (count_value(&classical) + evaluate(&learned)).clamp(-WIN_MIN + 1, WIN_MIN - 1),
                "{rule:?} after {x},{y}"
            );
        }
        // and back: undo restores both alike
        while classical.undo().is_some() {
            learned.undo();
            assert_eq!(
                evaluate(&classical),
                count_value(&classical) + evaluate(&learned),
                "{rule:?} after undo"
            );
        }
    }
}
