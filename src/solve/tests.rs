//! Unit tests of the solver's geometry, table keys and search.

use super::*;

fn value(w: usize, h: usize, k: usize) -> Value {
    solve(w, h, k, SolveRule::Freestyle, 16, &mut |_, _| {})
        .unwrap()
        .value
}

#[test]
fn tic_tac_toe_is_a_draw_and_every_first_move_keeps_it() {
    let r = solve(3, 3, 3, SolveRule::Freestyle, 12, &mut |_, _| {}).unwrap();
    assert_eq!(r.value, 0);
    assert_eq!(r.best.len(), 9);
    assert_eq!(r.pv.len(), 9, "a drawn game fills the board: {:?}", r.pv);
}

#[test]
fn small_known_values() {
    assert_eq!(value(3, 3, 2), 1);
    assert_eq!(value(1, 1, 1), 1);
    assert_eq!(value(2, 2, 3), 0);
    assert_eq!(value(4, 3, 3), 1);
    assert_eq!(value(3, 4, 3), 1);
}

#[test]
fn windows_and_lines() {
    let g = Game::new(4, 3, 3, SolveRule::Freestyle).unwrap();
    // rows 2*3, columns 4*1, diagonals 2*1 each way
    assert_eq!(g.windows.len(), 6 + 4 + 2 + 2);
    assert!(g.has_line(0b0111));
    assert!(!g.has_line(0b1011));
    let exact = Game::new(5, 1, 3, SolveRule::Exact).unwrap();
    assert!(exact.has_line(0b00111));
    assert!(!exact.has_line(0b01111), "an overline does not win");
    assert!(Game::new(9, 8, 4, SolveRule::Freestyle).is_err());
}

#[test]
fn symmetric_positions_share_a_key() {
    let g = Game::new(4, 4, 4, SolveRule::Freestyle).unwrap();
    // a stone in each corner, one by one
    let keys: Vec<_> = [0, 3, 12, 15]
        .iter()
        .map(|&c| g.canonical(&g.pos(1 << c, 0)).0)
        .collect();
    assert!(keys.iter().all(|&k| k == keys[0]));
    assert_ne!(g.canonical(&g.pos(1 << 5, 0)).0, keys[0]);
    // a rectangle has no diagonal mirror: (1,0) and (0,1) differ on 4x3
    let r = Game::new(4, 3, 3, SolveRule::Freestyle).unwrap();
    assert_ne!(
        r.canonical(&r.pos(1 << 1, 0)).0,
        r.canonical(&r.pos(1 << 4, 0)).0
    );
}

#[test]
fn a_forced_loss_is_seen() {
    // 4x1, k=2: first plays anywhere, second can block one side only if... first wins
    // by the centre: b1 then a1 or c1
    let g = Game::new(4, 1, 2, SolveRule::Freestyle).unwrap();
    let mut s = Solver::new(g, 8);
    assert_eq!(s.value(Stones::default()), 1);
    // second to move after first took a1 on 3x1: second blocks b1 and draws
    let g = Game::new(3, 1, 2, SolveRule::Freestyle).unwrap();
    let mut s = Solver::new(g, 8);
    let pos = Stones {
        first: 1,
        second: 0,
    };
    assert_eq!(s.value(pos), 0);
}

#[test]
fn an_overline_wins_only_in_freestyle() {
    // 5x2, k=3: first a1 b1 d1, second a2 c2 e2, first to move
    let pos = Stones {
        first: 0b01011,
        second: 1 << 5 | 1 << 7 | 1 << 9,
    };
    let free = Game::new(5, 2, 3, SolveRule::Freestyle).unwrap();
    assert_eq!(Solver::new(free, 8).value(pos), 1, "c1 makes four");
    // c1 is an overline; second then has b2 and d2 for exactly three
    let exact = Game::new(5, 2, 3, SolveRule::Exact).unwrap();
    assert_eq!(Solver::new(exact, 8).value(pos), -1);
}

#[test]
fn the_principal_line_is_played_out_and_short() {
    for (w, h, k, plies) in [(4, 4, 3, 5), (4, 3, 3, 7)] {
        let r = solve(w, h, k, SolveRule::Freestyle, 12, &mut |_, _| {}).unwrap();
        assert_eq!(r.value, 1);
        let g = Game::new(w, h, k, SolveRule::Freestyle).unwrap();
        let mut pos = Stones::default();
        for (i, &(x, y)) in r.pv.iter().enumerate() {
            let c = y * w + x;
            assert_eq!((pos.first | pos.second) >> c & 1, 0, "{:?}", r.pv);
            assert!(!g.has_line(pos.first), "a line before the end: {:?}", r.pv);
            pos = pos.with(c);
            assert_eq!(g.has_line(pos.first), i + 1 == r.pv.len());
        }
        // 4x4: three first-player stones, the fewest a win needs; 4x3: second blocks
        // the first threat, so the win takes a fourth stone
        assert_eq!(r.pv.len(), plies, "{w}x{h}: {:?}", r.pv);
    }
}

/// The plain minimax value of `pos` for the side to move: every move, no pruning, a memo
/// of exact values only. The reference the pruned search must agree with.
fn reference(
    g: &Game,
    pos: Stones,
    memo: &mut std::collections::HashMap<(u64, u64), Value>,
) -> Value {
    let first_to_move = pos.first.count_ones() == pos.second.count_ones();
    let (me, op) = if first_to_move {
        (pos.first, pos.second)
    } else {
        (pos.second, pos.first)
    };
    if g.has_line(op) {
        return -1;
    }
    let empty = g.full() & !(me | op);
    if empty == 0 {
        return 0;
    }
    if let Some(&v) = memo.get(&(pos.first, pos.second)) {
        return v;
    }
    let mut best = -1;
    let mut m = empty;
    while m != 0 && best < 1 {
        let c = m.trailing_zeros() as usize;
        best = best.max(-reference(g, pos.with(c), memo));
        m &= m - 1;
    }
    memo.insert((pos.first, pos.second), best);
    best
}

/// A deterministic pseudo-random stream (xorshift), so the positions repeat.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
fn the_pruned_search_agrees_with_plain_minimax() {
    // every pruning rule (threats, dead lines, Erdős–Selfridge, dead cells, the table with
    // symmetries) against the full tree, from the empty board and from random positions
    // without a line, under both rules, on boards small enough for the full tree
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut checked = [0usize; 3];
    for (w, h) in [
        (3, 3),
        (4, 3),
        (3, 4),
        (4, 4),
        (5, 3),
        (5, 2),
        (6, 2),
        (7, 1),
    ] {
        for k in 2..=4 {
            for rule in [SolveRule::Freestyle, SolveRule::Exact] {
                let g = Game::new(w, h, k, rule).unwrap();
                let mut memo = std::collections::HashMap::new();
                let mut solver = Solver::new(g.clone(), 12);
                // at most 12 empty cells: the full tree stays small
                let stones = (w * h).saturating_sub(12) as u32;
                for trial in 0..16 {
                    let mut pos = Stones::default();
                    let placed = stones + trial % 4;
                    while (pos.first | pos.second).count_ones() < placed {
                        let c = (next(&mut seed) % (w * h) as u64) as usize;
                        if (pos.first | pos.second) >> c & 1 == 0 {
                            pos = pos.with(c);
                        }
                    }
                    if g.has_line(pos.first) || g.has_line(pos.second) {
                        continue;
                    }
                    let want = reference(&g, pos, &mut memo);
                    assert_eq!(solver.value(pos), want, "{w}x{h} k={k} {rule:?} {pos:?}");
                    checked[(want + 1) as usize] += 1;
                }
            }
        }
    }
    // the positions cover losses, draws and wins
    assert!(checked.iter().all(|&n| n > 20), "{checked:?}");
}

#[test]
fn boards_over_55_cells_use_base_3_table_keys() {
    // 8x8: the two bitboards (128 bits) do not fit an entry, base 3 (under 2^102) does
    let s = Solver::new(Game::new(8, 8, 5, SolveRule::Freestyle).unwrap(), 10);
    let g = &s.game;
    let a = g.canonical(&g.pos(1 << 63 | 1, 1 << 9)).0;
    let b = g.canonical(&g.pos(1 << 63 | 1 << 9, 1)).0;
    let (ka, kb) = (s.table_key(a), s.table_key(b));
    assert_ne!(ka, kb);
    assert!(ka >> table::KEY_BITS == 0 && kb >> table::KEY_BITS == 0);
    // a full board is the largest key: still in range
    let full = g
        .canonical(&g.pos(0xAAAA_AAAA_AAAA_AAAA, 0x5555_5555_5555_5555))
        .0;
    assert!(s.table_key(full) < 3u128.pow(64));
    // and a 7x7 key is the packed bitboards as they are
    let s7 = Solver::new(Game::new(7, 7, 4, SolveRule::Freestyle).unwrap(), 10);
    assert_eq!(s7.table_key(12345), 12345);
}

#[test]
fn erdos_selfridge_settles_five_on_five_at_once() {
    // 12 lines of 5, each worth 2^-5, sum to 12/32 < 1/2 with the first player to move:
    // the second player can block them all, and the search needs no tree for it
    let r = solve(5, 5, 5, SolveRule::Freestyle, 12, &mut |_, _| {}).unwrap();
    assert_eq!(r.value, 0);
    assert!(r.nodes < 100, "{} nodes", r.nodes);
    // 6x6 k=5: 32 lines, 1 on the empty board; the bound works deeper in the tree
    let r = solve(6, 6, 5, SolveRule::Freestyle, 16, &mut |_, _| {}).unwrap();
    assert_eq!(r.value, 0);
    assert!(r.nodes < 2_000_000, "{} nodes", r.nodes);
}
