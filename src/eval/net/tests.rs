//! The network's accumulator against from-scratch sums, and the cell tables as a network.

use super::*;
use crate::board::{Classical, Pos};
use crate::cells::net::{network, network_for};
use crate::eval::evaluate;
use std::sync::Arc;

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

/// One step of a random walk on two boards holding the same stones: an undo one time in
/// `undo_one_in` (when there is a move), else a move on a random empty cell (when there is
/// one), on both.
fn step_both<A: Accumulator, B: Accumulator>(
    rnd: &mut Rnd,
    undo_one_in: usize,
    a: &mut Board<A>,
    b: &mut Board<B>,
) {
    if a.ply() > 0 && rnd.below(undo_one_in) == 0 {
        a.undo();
        b.undo();
    } else if a.empty_count() > 0 {
        let empties: Vec<Pos> = a.empty_cells().collect();
        let p = empties[rnd.below(empties.len())];
        a.make(p);
        b.make(p);
    }
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
                assert_eq!(v, evaluate_from_scratch(&b), "{rule:?} {w}x{h}");
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

/// The classical evaluation written as a network ([`NetWeights::from_classical`]) gives
/// exactly the classical values, position by position, on make and on undo: the two
/// evaluators read the same cells through the same seam.
#[test]
fn the_classical_evaluation_is_a_network() {
    let mut rnd = Rnd(0x2545_f491_4f6c_dd1d);
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        let net = Arc::new(NetWeights::from_classical(rule));
        for (w, h) in [(15, 15), (20, 20)] {
            let mut classical = Board::with_accumulator(w, h, rule, Classical::new(rule));
            let mut learned = Board::with_accumulator(w, h, rule, Network::new(net.clone()));
            let mut distinct = std::collections::HashSet::new();
            for _ in 0..120 {
                step_both(&mut rnd, 5, &mut classical, &mut learned);
                let v = evaluate(&classical);
                assert_eq!(
                    v,
                    evaluate(&learned),
                    "{rule:?} {w}x{h} {:?}",
                    classical.history()
                );
                distinct.insert(v);
            }
            assert!(distinct.len() > 30, "{rule:?}: {} values", distinct.len());
        }
    }
}

#[test]
fn weights_survive_bytes() {
    let mut rnd = Rnd(7);
    for rule in [Rule::Freestyle, Rule::Renju] {
        let w = random_weights(rule, &mut rnd);
        let bytes = w.to_bytes();
        assert_eq!(NetWeights::from_bytes(&bytes), Some(w));
        assert_eq!(NetWeights::from_bytes(&bytes[..bytes.len() - 1]), None);
        assert_eq!(NetWeights::from_bytes(&bytes[1..]), None);
    }
}

/// Each rule's shipped network loads and reads the rule's cells with the expected tables (one
/// for both colours: freestyle and standard as their classical tables, caro's fine-tuned from
/// freestyle's, exact-five caro's standard's results-only network itself; renju's fine-tuned
/// from standard's results-only network with a copy for each colour, which differ), and is
/// not the classical evaluation. On random games of each rule and size the board's value is
/// the network's, and its incremental value the from-scratch one.
#[test]
#[cfg_attr(
    feature = "line-net",
    ignore = "the board plays the line-shape network's correction on top"
)]
fn the_shipped_networks_fit_their_rules() {
    let mut rnd = Rnd(0x51ed_270b_2f8e_4c63);
    // exact-five caro plays standard's network from before the search scores, its own file
    assert_ne!(*network(Rule::CaroExact), *network(Rule::Standard));
    for rule in Rule::ALL {
        let net = network(rule);
        assert_eq!(net.per_colour, rule == Rule::Renju, "{rule:?}");
        // renju's and caro's are their own weights, not another rule's network under their
        // name (caro's start, freestyle's results-only network, is not shipped)
        match rule {
            Rule::Renju => {
                assert_ne!(*net, *network(Rule::CaroExact));
                let (black, white) = net.feature.split_at(CODES);
                assert_ne!(black, white, "renju's colours share their rows");
            }
            Rule::Caro => assert_ne!(*net, *network(Rule::Freestyle)),
            _ => {}
        }
        for (w, h) in [(15, 15), (20, 20), (9, 12), (17, 32), (18, 18)] {
            // freestyle of 18 or more a side plays its network fine-tuned on 20×20
            let large = rule == Rule::Freestyle && w.min(h) >= 18;
            let net = network_for(rule, w, h);
            assert_eq!(*net != *network(rule), large, "{rule:?} {w}x{h}");
            let mut shipped = Board::new(w, h, rule);
            let mut learned = Board::with_accumulator(w, h, rule, Network::new(net.clone()));
            let mut classical = Board::with_accumulator(w, h, rule, Classical::new(rule));
            let mut differ = 0;
            for _ in 0..(w * h / 2) {
                let empties: Vec<Pos> = shipped.empty_cells().collect();
                let p = empties[rnd.below(empties.len())];
                shipped.make(p);
                learned.make(p);
                classical.make(p);
                let v = evaluate(&shipped);
                assert_eq!(v, evaluate(&learned), "{rule:?} {w}x{h}");
                assert_eq!(v, evaluate_from_scratch(&learned), "{rule:?} {w}x{h}");
                differ += usize::from(v != evaluate(&classical));
            }
            assert!(differ > w * h / 4, "{rule:?} {w}x{h}: {differ} differ");
        }
    }
}

/// The line-shape network's cells and pools on random make/undo walks over boards of every
/// shape, edges included, flushed at random steps: its value is always the value from the
/// grid read afresh, the flushed pools are the grid's, it is not the cell-code network's
/// alone, and taking every stone back leaves the pools of the empty board.
#[test]
fn the_line_network_follows_make_and_undo() {
    let mut rnd = Rnd(0x3c6e_f372_fe94_f82b);
    let line = crate::cells::line::network(Rule::Freestyle).expect("freestyle has one");
    for (w, h) in [(5, 5), (15, 15), (32, 32), (7, 20)] {
        let rule = Rule::Freestyle;
        let mut b = Board::with_accumulator(w, h, rule, LineNetwork::shipped(rule, w, h));
        assert!(b.accumulator().line().is_some());
        let mut plain = Board::with_accumulator(w, h, rule, Network::shipped(rule, w, h));
        let empty = *b.accumulator().line().unwrap().pools();
        let (mut distinct, mut differ) = (std::collections::HashSet::new(), 0);
        for _ in 0..300 {
            step_both(&mut rnd, 3, &mut b, &mut plain);
            // unflushed (the pools read afresh), then flushed now and then, as the search
            // does before it evaluates: the threat searches make and undo many moves between
            let v = evaluate(&b);
            assert_eq!(
                v,
                evaluate_line_from_scratch(&b),
                "{w}x{h} {:?}",
                b.history()
            );
            if rnd.below(3) == 0 {
                b.flush_evaluation();
                assert!(!b.accumulator().line().unwrap().is_stale());
                let pools = *b.accumulator().line().unwrap().pools();
                assert_eq!(pools, crate::board::pools_from_scratch(&line, b.grid()));
                assert_eq!(v, evaluate(&b), "{w}x{h} {:?}", b.history());
            }
            distinct.insert(v);
            differ += usize::from(v != evaluate(&plain));
        }
        assert!(differ > 100, "{w}x{h}: {differ} differ");
        while b.undo().is_some() {}
        b.flush_evaluation();
        assert_eq!(*b.accumulator().line().unwrap().pools(), empty, "{w}x{h}");
        assert!(distinct.len() > 20, "{w}x{h}: {} values", distinct.len());
    }
}
