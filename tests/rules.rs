//! Rule knowledge through the protocol session in-process: per `INFO rule` (0 freestyle, 1 standard/exact
//! five, 4 renju, 8 caro, 9 exact-five caro), positions where the engine must take a win or
//! must block, with the exact set of acceptable answers; GomocupJudge's four official rule
//! checks; and legal moves on small, rectangular and large boards.
//!
//! Diagrams: `x` black, `o` white, `.` empty; rows top to bottom (y = row), x = column. Only
//! the top rows of a 15×15 board are drawn where the rest is empty. Black is to move when the
//! counts are equal, else white.

mod common;

use common::rules::*;
use common::*;

// ---------------------------------------------------------------- GomocupJudge checks (§4)

#[test]
fn judge_check_all_rules_take_the_five() {
    // black h8 i8 j8 k8 against white h9 i9 j9 k9: black to move wins at g8 or l8
    for rule in ALL_RULES {
        let m = judge_answer(rule, 15, TURN, "h8h9i8i9j8j9k8k9");
        assert!(sq(&["g8", "l8"]).contains(&m), "rule {rule}: {m:?}");
    }
}

#[test]
fn judge_check_all_rules_take_the_five_on_20x20() {
    for rule in [FREESTYLE, STANDARD] {
        let m = judge_answer(rule, 20, TURN, "h8h9i8i9j8j9k8k9");
        assert!(sq(&["g8", "l8"]).contains(&m), "rule {rule}: {m:?}");
    }
}

/// White to move; h13 makes six (h9–h14), which is no win under exact-five rules; black's
/// open three g8 h8 i8 must then be stopped at f8 or j8.
const JUDGE_STANDARD: &str = "h8h9i8h10g8h11j13h12g14h14i15";

#[test]
fn judge_check_standard_does_not_win_with_six() {
    for rule in [STANDARD, CARO_EXACT] {
        let m = judge_answer(rule, 15, TURN, JUDGE_STANDARD);
        assert!(
            sq(&["f8", "j8"]).contains(&m),
            "rule {rule}: {m:?} (h13 is a six)"
        );
    }
}

#[test]
fn judge_standard_position_six_wins_where_overlines_count() {
    // freestyle, caro and white under renju win with the six
    for rule in [FREESTYLE, CARO, RENJU] {
        let m = judge_answer(rule, 15, TURN, JUDGE_STANDARD);
        assert_eq!(m, square("h13"), "rule {rule}");
    }
}

#[test]
fn judge_check_renju_never_g9() {
    let g9 = square("g9");
    for turn in [0, 20, 60, 150, 300, 600] {
        for _ in 0..2 {
            let m = judge_answer(RENJU, 15, turn, JUDGE_RENJU);
            assert_ne!(m, g9, "timeout_turn {turn}: played the forbidden g9");
        }
    }
}

/// Black to move; k8 would make g8–k8 a five closed by white at both ends (f8, l8): no win in
/// caro, so black must stop white's open three f7 f8 f9: the referee accepts f5, f6, f10 or
/// f11 (f5 and f11 still lose to an open four, but the check is about k8).
const JUDGE_CARO: &str = "h8f8g8f9i8f7j8l8";

#[test]
fn judge_check_caro_blocked_five_is_no_win() {
    for rule in [CARO, CARO_EXACT] {
        let m = judge_answer(rule, 15, TURN, JUDGE_CARO);
        assert!(
            sq(&["f5", "f6", "f10", "f11"]).contains(&m),
            "rule {rule}: {m:?}"
        );
    }
}

#[test]
fn judge_caro_position_k8_wins_elsewhere() {
    for rule in [FREESTYLE, STANDARD, RENJU] {
        let m = judge_answer(rule, 15, TURN, JUDGE_CARO);
        assert_eq!(m, square("k8"), "rule {rule}");
    }
}

// ---------------------------------------------------------------- every rule: win or block

/// Black to move with an open four (wins at 1,2 or 6,2); white has a four (6,5).
const WIN_BEFORE_BLOCK: &str = "
    . . . . . . . . . . . . . o .
    . . . . . . . . . . . . . . .
    . . x x x x . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . x o o o o . . . . . . . . .
";

/// The same with colours swapped: white (to move) has the open four.
const WIN_BEFORE_BLOCK_WHITE: &str = "
    . . . . . . . . . . . . . x .
    . . . . . . . . . . . . . . .
    . . o o o o . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . o x x x x . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . .
";

#[test]
fn every_rule_takes_its_own_win_before_blocking() {
    for rule in ALL_RULES {
        expect(rule, WIN_BEFORE_BLOCK, &[(1, 2), (6, 2)], "black wins");
        expect(
            rule,
            WIN_BEFORE_BLOCK_WHITE,
            &[(1, 2), (6, 2)],
            "white wins",
        );
    }
}

/// Black to move, nothing of its own; white's four must be blocked at 6,5.
const MUST_BLOCK: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . x o o o o . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . x . . . .
";

/// White to move; black's four must be blocked at 6,5.
const MUST_BLOCK_WHITE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . o x x x x . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . o . . . .
";

#[test]
fn caro_four_closed_at_both_ends_is_dead() {
    // the premise of `stops`: a four with an opponent stone at each end can only make a dead
    // five, which is no win in caro. White (to move) has an open three 4..6,10; black's
    // 2..5,5 lies between white 1,5 and 7,5. Caro: white makes its open four; elsewhere
    // white must block 6,5.
    let dead_four = "
    . . . . . . . . . . . . . . x
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . o x x x x . o . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . o o o . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . x
    ";
    for rule in [FREESTYLE, STANDARD, RENJU] {
        expect(rule, dead_four, &[(6, 5)], "the five 2..6,5 still wins");
    }
    for rule in [CARO, CARO_EXACT] {
        expect(
            rule,
            dead_four,
            &[(3, 10), (7, 10)],
            "the dead four is no threat",
        );
    }
}

#[test]
fn every_rule_blocks_a_four() {
    for rule in ALL_RULES {
        expect(
            rule,
            MUST_BLOCK,
            &stops(rule, (6, 5), (7, 5)),
            "black blocks",
        );
        expect(
            rule,
            MUST_BLOCK_WHITE,
            &stops(rule, (6, 5), (7, 5)),
            "white blocks",
        );
    }
}

/// Black to move; white's open three 4,4 5,5 6,6 must be stopped next to it (3,3 or 7,7):
/// after a block one further out, white still makes an open four on the other side.
const BLOCK_OPEN_THREE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . x
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . o . . . . . . . . . .
    . . . . . o . . . . . . . . .
    . . . . . . o . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . x . . . . . . . . . . x .
";

#[test]
fn every_rule_meets_an_open_three() {
    for rule in ALL_RULES {
        expect(
            rule,
            BLOCK_OPEN_THREE,
            &[(3, 3), (7, 7)],
            "open three not stopped",
        );
    }
}

// ---------------------------------------------------------------- exact five (rule 1)

#[test]
fn exact_five_does_not_win_with_an_overline() {
    // standard, exact caro and renju (black overline is forbidden): block white's five
    for rule in [STANDARD, CARO_EXACT, RENJU] {
        let block = stops(rule, (10, 6), (10, 7));
        expect(rule, OVERLINE_TEMPTATION, &block, "six is no win; block");
    }
    // freestyle and caro: the six wins
    for rule in [FREESTYLE, CARO] {
        expect(rule, OVERLINE_TEMPTATION, &[(6, 7)], "the six wins");
    }
}

/// Black to move. White 2..5,7 + 7,7: 1,7 makes an exact five, 6,7 only a six.
const EXACT_FIVE_THREAT: &str = "
    . . . . . . . . . . . . x . x
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . x
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . o o o o . o . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . x . . . . . . . . . . .
";

#[test]
fn exact_five_blocks_the_exact_five_not_the_overline() {
    for rule in [STANDARD, CARO_EXACT] {
        expect(rule, EXACT_FIVE_THREAT, &[(1, 7)], "block the exact five");
    }
}

/// White to move. White 2..5,7 + 7,7 makes a six at 6,7; black threatens 12,6.
const WHITE_OVERLINE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . . . .
    . x o o o o . o . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . x
";

#[test]
fn white_overline_wins_in_renju_freestyle_and_caro_only() {
    for rule in [RENJU, FREESTYLE, CARO] {
        expect(rule, WHITE_OVERLINE, &[(6, 7)], "white's six wins");
    }
    for rule in [STANDARD, CARO_EXACT] {
        let block = stops(rule, (12, 6), (12, 7));
        expect(rule, WHITE_OVERLINE, &block, "six is no win; block");
    }
}

// ---------------------------------------------------------------- caro (rules 8 and 9)

/// Black to move. 7,7 would make 3..7,7 a five closed by white at 2,7 and 8,7; white
/// threatens 12,6.
const CARO_DEAD_FIVE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . . . .
    . . o x x x x . o . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . .
";

#[test]
fn caro_five_blocked_at_both_ends_is_no_win() {
    for rule in [CARO, CARO_EXACT] {
        expect(
            rule,
            CARO_DEAD_FIVE,
            &stops(rule, (12, 6), (12, 7)),
            "dead five; block",
        );
    }
    for rule in [FREESTYLE, STANDARD, RENJU] {
        expect(rule, CARO_DEAD_FIVE, &[(7, 7)], "the five wins");
    }
}

/// Black to move: 0,7 makes 0..4,7 a five between the edge and white 5,7, which wins in
/// caro (the edge is no block); white threatens 12,6.
const CARO_EDGE_FIVE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . . . .
    . x x x x o . . . . . . . . .
";

#[test]
fn caro_five_at_the_edge_wins() {
    for rule in ALL_RULES {
        expect(rule, CARO_EDGE_FIVE, &[(0, 7)], "edge five wins");
    }
}

/// Black to move: 6,7 makes 2..7,7 a six closed by white at both ends (1,7 and 8,7): a win
/// under rule 8 (overlines win), not under rule 9; white threatens 12,6.
const CARO_DEAD_SIX: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . . . .
    . o x x x x . x o . . . . . .
";

#[test]
fn caro_overline_wins_only_under_rule_8() {
    expect(
        CARO,
        CARO_DEAD_SIX,
        &[(6, 7)],
        "caro: six wins even when closed",
    );
    expect(FREESTYLE, CARO_DEAD_SIX, &[(6, 7)], "freestyle: six wins");
    for rule in [CARO_EXACT, STANDARD, RENJU] {
        expect(
            rule,
            CARO_DEAD_SIX,
            &stops(rule, (12, 6), (12, 7)),
            "six is no win; block",
        );
    }
}

/// Black to move. White's 3..6,7 can only make a five closed by black at 2,7 and 8,7; black
/// has an open three 4..6,10. Under caro black makes an open four (3,10 or 7,10); elsewhere
/// black must block 7,7.
const CARO_DEAD_FOUR: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . x o o o o . x . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . x x x . . . . . . . .
";

#[test]
fn caro_ignores_a_four_that_can_only_make_a_dead_five() {
    for rule in [CARO, CARO_EXACT] {
        expect(
            rule,
            CARO_DEAD_FOUR,
            &[(3, 10), (7, 10)],
            "make the open four",
        );
    }
    for rule in [FREESTYLE, STANDARD, RENJU] {
        expect(rule, CARO_DEAD_FOUR, &[(7, 7)], "block the five");
    }
}

// ---------------------------------------------------------------- board sizes

/// Plays up to 12 opponent moves (each the first free square from `picks`, then in scan
/// order) against the engine on a `w`×`h` board and checks every answer is a free, on-board
/// square. Stops when someone has five or the board is nearly full.
fn play_on(w: usize, h: usize, rule: u32, picks: &[(i64, i64)], engine_first: bool) {
    let mut e = Local::new();
    let started = if w == h {
        e.send(&format!("START {w}"))
    } else {
        e.send(&format!("RECTSTART {w},{h}"))
    };
    assert_eq!(started, ["OK"]);
    e.send(&format!("INFO rule {rule}"));
    e.send("INFO timeout_turn 2000");
    e.send("INFO max_node 20000");
    let mut g = Grid::new(w, h);
    let mut colour = 1u8; // black moves first
    if engine_first {
        let m = e.move_after("BEGIN");
        assert!(g.is_empty(m), "{w}x{h}: BEGIN gave {m:?}");
        g.set(m, colour);
        colour = 3 - colour;
    }
    let mut picks = picks
        .iter()
        .copied()
        .chain((0..h as i64).flat_map(|y| (0..w as i64).map(move |x| (x, y))));
    let rounds = (w * h / 2).saturating_sub(3).min(12);
    let (mut answers, mut ended) = (0, false);
    for _ in 0..rounds {
        let Some(p) = picks.by_ref().find(|&p| on_board(p, w, h) && g.is_empty(p)) else {
            break;
        };
        g.set(p, colour);
        colour = 3 - colour;
        if g.longest_run(p) >= 5 || !g_has_empty(&g) {
            ended = true;
            break;
        }
        let m = e.move_after(&format!("TURN {},{}", p.0, p.1));
        assert!(
            g.is_empty(m),
            "{w}x{h} rule {rule}: answer {m:?} to {p:?} is not free"
        );
        g.set(m, colour);
        colour = 3 - colour;
        answers += 1;
        if g.longest_run(m) >= 5 || !g_has_empty(&g) {
            ended = true;
            break;
        }
    }
    // every round got its answer, unless the game ended first
    assert!(answers > 0, "{w}x{h} rule {rule}: no move answered");
    assert!(
        ended || answers == rounds,
        "{w}x{h} rule {rule}: {answers} of {rounds} rounds answered"
    );
}

fn g_has_empty(g: &Grid) -> bool {
    (0..g.h as i64).any(|y| (0..g.w as i64).any(|x| g.is_empty((x, y))))
}

#[test]
fn boards_5x5_answer_legal_moves() {
    for rule in ALL_RULES {
        play_on(
            5,
            5,
            rule,
            &[(0, 0), (4, 4), (2, 2), (0, 4), (4, 0)],
            rule % 2 == 0,
        );
    }
}

#[test]
fn board_7x9_answers_legal_moves() {
    for rule in [FREESTYLE, RENJU] {
        play_on(7, 9, rule, &[(6, 8), (0, 8), (6, 0), (3, 4), (5, 7)], false);
        play_on(9, 7, rule, &[(8, 6), (0, 6), (8, 0), (4, 3)], true);
    }
}

#[test]
fn boards_20x20_and_32x32_answer_legal_moves() {
    play_on(20, 20, FREESTYLE, &[(19, 19), (0, 19), (10, 10)], false);
    play_on(
        32,
        32,
        FREESTYLE,
        &[(31, 31), (0, 31), (31, 0), (16, 16)],
        false,
    );
    play_on(32, 20, STANDARD, &[(31, 19), (30, 18)], true);
}

#[test]
fn wins_in_the_far_corner_of_every_size() {
    // black (to move) has four in the last column ending next to the far corner, blocked by
    // white at the other end (or by the edge on 5-high boards): the corner is the only win
    for (w, h) in [(5, 5), (7, 9), (9, 7), (20, 20), (32, 32), (32, 5)] {
        let (x, y) = (w as i64 - 1, h as i64 - 1);
        let mut lines: Vec<String> = (1..=4).map(|i| format!("{x},{},1", y - i)).collect();
        let mut white = [(0, 0), (0, 2), (2, 0), (2, 2)];
        if y >= 5 {
            white[3] = (x, y - 5);
        }
        lines.extend(white.iter().map(|(a, b)| format!("{a},{b},2")));
        let mut e = Local::new();
        let start = if w == h {
            format!("START {w}")
        } else {
            format!("RECTSTART {w},{h}")
        };
        assert_eq!(e.send(&start), ["OK"]);
        e.send("INFO max_node 20000");
        let m = e.board(&lines);
        assert_eq!(m, (x, y), "{w}x{h}: {lines:?}");
    }
}
