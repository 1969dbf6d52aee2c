//! Shared by the rule tests (`rules.rs`, `rules_renju.rs`): the engine's answer to a diagram
//! or a GomocupJudge game under a rule, and the rule numbers.

use super::*;

/// Turn time, an upper bound: the searches here are limited by [`NODES`], so that their
/// answers do not depend on the machine or its load (200 ms turns were seen to fail under
/// load when time was the limit).
pub const TURN: u64 = 5000;
/// Nodes a search here may take: every position is decided within a few plies, and a
/// defence that needs a short search (an open three) takes a few thousand.
pub const NODES: u64 = 60_000;

pub const FREESTYLE: u32 = 0;
pub const STANDARD: u32 = 1;
pub const RENJU: u32 = 4;
pub const CARO: u32 = 8;
pub const CARO_EXACT: u32 = 9;
pub const ALL_RULES: [u32; 5] = [FREESTYLE, STANDARD, RENJU, CARO, CARO_EXACT];

/// The engine's answer to `diagram` on a 15×15 board under `rule`.
pub fn answer(rule: u32, diagram: &str) -> (i64, i64) {
    answer_with(rule, TURN, diagram)
}

pub fn answer_with(rule: u32, turn_ms: u64, diagram: &str) -> (i64, i64) {
    let d = Diagram::parse(diagram);
    assert_eq!(d.width, 15, "diagrams here are 15 wide");
    let mut e = local_game(15, rule, turn_ms);
    let m = e.board(&d.board_lines());
    assert!(on_board(m, 15, 15), "rule {rule}: {m:?} is off the board");
    assert!(
        !d.black.contains(&m) && !d.white.contains(&m),
        "rule {rule}: {m:?} is occupied"
    );
    m
}

/// A session in-process with a `size`×`size` game under `rule`: `turn_ms` a move, and at
/// most [`NODES`] nodes a search where the turn is [`TURN`] (a shorter turn is what a test
/// is about, and stays the only limit).
pub fn local_game(size: usize, rule: u32, turn_ms: u64) -> Local {
    let mut e = Local::new();
    assert_eq!(e.send(&format!("START {size}")), ["OK"]);
    e.send(&format!("INFO rule {rule}"));
    e.send(&format!("INFO timeout_turn {turn_ms}"));
    if turn_ms == TURN {
        e.send(&format!("INFO max_node {NODES}"));
    }
    e
}

pub fn expect(rule: u32, diagram: &str, allowed: &[(i64, i64)], why: &str) {
    let m = answer(rule, diagram);
    assert!(
        allowed.contains(&m),
        "rule {rule}: {why}: expected one of {allowed:?}, got {m:?}"
    );
}

/// The engine's answer to a game given as GomocupJudge squares (`h8h9…`, black first).
pub fn judge_answer(rule: u32, size: usize, turn_ms: u64, moves: &str) -> (i64, i64) {
    let ms = squares(moves);
    let mut e = local_game(size, rule, turn_ms);
    let m = e.board(&game_board(&ms));
    assert!(on_board(m, size, size), "rule {rule}: {m:?} off the board");
    assert!(!ms.contains(&m), "rule {rule}: {m:?} is occupied");
    m
}

/// The squares that stop a four closed at one end, whose five would be `near`: under caro
/// (8, 9) a stone on `far`, just beyond the five, also does, since it leaves only a five closed
/// at both ends.
pub fn stops(rule: u32, near: (i64, i64), far: (i64, i64)) -> Vec<(i64, i64)> {
    if rule == CARO || rule == CARO_EXACT {
        vec![near, far]
    } else {
        vec![near]
    }
}

pub fn sq(names: &[&str]) -> Vec<(i64, i64)> {
    names.iter().map(|n| square(n)).collect()
}

/// Black to move; g9 is a double three (the only forbidden point).
pub const JUDGE_RENJU: &str = "h8h9i7i9h10i6i11i12";

/// Black to move. Black's 2..5,7 + 7,7 would become a six at 6,7 (closed at 1,7 so there is
/// no exact five); white threatens an exact five at 10,6.
pub const OVERLINE_TEMPTATION: &str = "
    o . . . . . . . . . . . . . .
    . . . . . . . . . . x . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . . . . . . . . .
    . o x x x x . x . . . . . . .
";
