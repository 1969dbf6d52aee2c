//! Board tests: make/undo and the incremental data against a fresh recomputation.

use super::*;

#[test]
fn pos_roundtrip() {
    for y in 0..MAX_SIZE {
        for x in 0..MAX_SIZE {
            let p = Pos::new(x, y);
            assert_eq!((p.x(), p.y()), (x, y));
        }
    }
    assert_eq!(Pos::new(7, 7).to_string(), "h8");
}

#[test]
fn make_undo_restores_everything() {
    let mut b = Board::new(15, 15, Rule::Freestyle);
    let fresh_hash = b.hash();
    let moves = [(7, 7), (8, 8), (7, 8), (6, 6), (7, 9)];
    for &(x, y) in &moves {
        b.make(Pos::new(x, y));
        b.check_consistency().unwrap();
    }
    assert_eq!(b.threat(Color::Black, Pos::new(7, 10)), Threat::Flex4);
    assert_eq!(b.threat(Color::Black, Pos::new(7, 6)), Threat::Flex4);
    while b.undo().is_some() {
        b.check_consistency().unwrap();
    }
    assert_eq!(b.hash(), fresh_hash);
    assert_eq!(b.count(Color::Black, Threat::None), 225);
}

/// Random make/undo sequences: the incremental data always equals a fresh recomputation.
#[test]
fn incremental_matches_scratch_on_random_games() {
    let mut seed: u64 = 0x1234_5678;
    let mut rnd = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut checks = 0;
    // states with an overline or double-four cell for renju black, so that count is tested
    let mut foul_states = 0;
    for rule in Rule::ALL {
        for (w, h) in [(15, 15), (20, 20), (5, 5), (9, 13)] {
            let mut b = Board::new(w, h, rule);
            for _ in 0..(w * h * 2).min(400) {
                // mostly moves, sometimes undo, so deep and shallow states both occur
                if b.ply() > 0 && (rnd(4) == 0 || b.is_full()) {
                    b.undo();
                } else {
                    let empties: Vec<Pos> = b.empty_cells().collect();
                    let p = empties[rnd(empties.len())];
                    if rnd(15) == 0 {
                        b.pass();
                    } else {
                        b.make(p);
                    }
                }
                b.check_consistency()
                    .unwrap_or_else(|e| panic!("{rule:?} {w}x{h} after {:?}: {e}", b.history()));
                checks += 1;
                foul_states += usize::from(b.lasting_fouls() > 0);
            }
        }
    }
    assert!(checks > 5000);
    assert!(foul_states > 100, "{foul_states}");
}

#[test]
fn win_moves_by_rule() {
    let text = "
        . . . . . . . . .
        . x x x x . x . .
        . o o o o . . . .
        . . . . . . . . .
        . . . . . . . . .";
    let b = Board::from_diagram(text, Rule::Freestyle);
    assert!(b.is_win_move(Color::Black, Pos::new(5, 1)));
    assert!(b.is_win_move(Color::Black, Pos::new(0, 1)));
    let b = Board::from_diagram(text, Rule::Standard);
    assert!(!b.is_win_move(Color::Black, Pos::new(5, 1)));
    assert!(b.is_win_move(Color::Black, Pos::new(0, 1)));
    assert!(b.is_win_move(Color::White, Pos::new(5, 2)));
}
