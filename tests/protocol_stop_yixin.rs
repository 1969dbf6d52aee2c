//! Protocol transcripts, continued (in-process; the binary where a test waits for its trace
//! log to know that a search runs): SWAP2BOARD, STOP and YXSTOP during a search, and the Yixin-Board extensions (YXBOARD, YXSHOWFORBID,
//! YXSHOWINFO). The other commands are in `protocol.rs`.

mod common;

use common::*;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Turn time for tests that only need some legal move.
const TURN: u64 = 250;

fn game(size: usize) -> Engine {
    Engine::with_game(size, 0, TURN)
}

// ---------------------------------------------------------------- SWAP2BOARD

fn swap2(e: &mut Engine, stones: &[(i64, i64)]) -> String {
    let mut lines = vec!["SWAP2BOARD".to_string()];
    lines.extend(stones.iter().map(|(x, y)| format!("{x},{y}")));
    lines.push("DONE".into());
    e.send_all(&lines);
    e.reply(MOVE_WAIT)
}

#[test]
fn swap2_empty_board_gives_three_distinct_moves() {
    for size in [15, 20] {
        let mut e = Engine::with_game(size, 1, 350);
        let r = swap2(&mut e, &[]);
        let ms = parse_moves(&r).unwrap_or_else(|| panic!("not three moves: {r:?}"));
        assert_eq!(ms.len(), 3, "{r:?}");
        let set: HashSet<_> = ms.iter().collect();
        assert_eq!(set.len(), 3, "moves not distinct: {r:?}");
        assert!(ms.iter().all(|&m| on_board(m, size, size)), "{r:?}");
        e.end();
    }
}

/// Checks a swap2 answer to `stones` (3 or 5) against what protocol.md allows: `SWAP`, one
/// move, or (three stones only) two more stones; every stone new, distinct and on the board.
fn assert_swap2_answer(r: &str, stones: &[(i64, i64)]) {
    if r == "SWAP" {
        return;
    }
    let ms = parse_moves(r).unwrap_or_else(|| panic!("neither SWAP nor moves: {r:?}"));
    let allowed = if stones.len() == 3 { 1..=2 } else { 1..=1 };
    assert!(allowed.contains(&ms.len()), "{r:?} for {stones:?}");
    let set: HashSet<_> = ms.iter().collect();
    assert_eq!(set.len(), ms.len(), "stones not distinct: {r:?}");
    for m in ms {
        assert!(
            on_board(m, 15, 15) && !stones.contains(&m),
            "{r:?} for {stones:?}"
        );
    }
}

// (which answer each position gets is checked in-process: tests/session.rs)

#[test]
fn swap2_answers_are_checked_as_protocol_md_allows() {
    let three = [(7, 7), (8, 7), (6, 9)];
    for ok in ["SWAP", "9,9", "9,9 7,9"] {
        assert_swap2_answer(ok, &three);
    }
    for bad in ["9,9 7,9 5,5", "7,7", "9,9 9,9", "15,3", "PASS"] {
        let caught = std::panic::catch_unwind(|| assert_swap2_answer(bad, &three));
        assert!(caught.is_err(), "{bad:?} passed for three stones");
    }
    let five = [(7, 7), (8, 8), (9, 7), (7, 9), (6, 7)];
    let caught = std::panic::catch_unwind(|| assert_swap2_answer("9,9 7,10", &five));
    assert!(caught.is_err(), "two stones passed for five stones");
}

#[test]
fn swap2_with_wrong_stone_counts_is_an_error() {
    let mut e = Engine::with_game(15, 1, 300);
    for stones in [
        vec![(7, 7), (8, 8)],
        vec![(7, 7)],
        vec![(7, 7), (8, 8), (9, 9), (10, 10)],
        vec![(7, 7), (7, 7), (8, 8)],
        vec![(7, 7), (8, 8), (15, 3)],
    ] {
        let r = swap2(&mut e, &stones);
        assert!(r.starts_with("ERROR"), "{stones:?} gave {r:?}");
    }
    e.send_all(&["SWAP2BOARD", "7,7,1", "DONE"]);
    assert!(e.reply(QUICK).starts_with("ERROR"));
    e.end();
}

// ---------------------------------------------------------------- STOP / YXSTOP

fn stop_mid_search(stop: &str) {
    let mut e = searching_midgame();
    let t = Instant::now();
    e.send(stop);
    let r = e.reply(Duration::from_secs(30));
    let took = t.elapsed();
    let m = parse_move(&r).unwrap_or_else(|| panic!("expected a move after {stop}: {r:?}"));
    let d = Diagram::parse(MIDGAME);
    assert!(on_board(m, 15, 15) && !d.black.contains(&m) && !d.white.contains(&m));
    assert!(
        took <= Duration::from_millis(500),
        "{stop}: move came {took:?} after it"
    );
    // STOP itself has no reply of its own
    e.assert_responsive();
    e.end();
}

#[test]
fn stop_mid_search_answers_within_500ms() {
    stop_mid_search("STOP");
}

#[test]
fn yxstop_mid_search_answers_within_500ms() {
    stop_mid_search("YXSTOP");
}

#[test]
fn stop_mid_swap2_opening_answers_within_500ms() {
    let mut e = Engine::binary_logging("trace");
    e.setup_game(15, 1, 30_000);
    let mark = e.stderr_len();
    e.send_all(&["SWAP2BOARD", "DONE"]);
    e.wait_search_started(mark, Duration::from_millis(200));
    let t = Instant::now();
    e.send("YXSTOP");
    let r = e.reply(Duration::from_secs(40));
    let took = t.elapsed();
    assert_eq!(parse_moves(&r).map(|v| v.len()), Some(3), "{r:?}");
    assert!(
        took <= Duration::from_millis(500),
        "answer came {took:?} after YXSTOP"
    );
}

#[test]
fn stop_mid_swap2_step_answers_within_500ms() {
    let mut e = Engine::binary_logging("trace");
    e.setup_game(15, 1, 30_000);
    let mark = e.stderr_len();
    e.send_all(&["SWAP2BOARD", "7,7", "8,7", "6,9", "DONE"]);
    e.wait_search_started(mark, Duration::from_millis(200));
    let before = e.drain(Duration::ZERO);
    assert!(
        before.iter().all(|l| is_log_line(l)),
        "already answered: {before:?}"
    );
    let t = Instant::now();
    e.send("STOP");
    let r = e.reply(Duration::from_secs(40));
    let took = t.elapsed();
    // STOP may catch it in any of its searches: each answer the step allows is fine
    assert_swap2_answer(&r, &[(7, 7), (8, 7), (6, 9)]);
    assert!(
        took <= Duration::from_millis(500),
        "answer came {took:?} after STOP"
    );
    e.end();
}

#[test]
fn stop_sent_with_the_board_is_not_lost() {
    let mut e = Engine::with_game(15, 0, 30_000);
    let mut lines = vec!["BOARD".to_string()];
    lines.extend(diagram_board(MIDGAME));
    lines.push("DONE".into());
    lines.push("YXSTOP".into());
    let t = Instant::now();
    e.send_all(&lines);
    let r = e.reply(Duration::from_secs(40));
    let took = t.elapsed();
    assert!(parse_move(&r).is_some(), "{r:?}");
    assert!(
        took <= Duration::from_millis(1000),
        "answer came {took:?} after BOARD+YXSTOP"
    );
}

#[test]
fn stop_when_idle_is_silent_and_harmless() {
    let mut e = game(15);
    e.send("STOP");
    e.send("YXSTOP");
    e.assert_responsive();
    // a later search is not cut short to nothing: it still answers a sensible move
    let m = e.diagram(BLOCK_FOUR);
    assert_eq!(m, (7, 7));
    e.end();
}

// ---------------------------------------------------------------- Yixin extensions

/// GomocupJudge's renju check (reference §4): black to move, g9 is the only forbidden point.
const RENJU_CHECK: &str = "h8h9i7i9h10i6i11i12";

fn yxboard(e: &mut Engine, stones: &[String]) {
    let mut lines = vec!["YXBOARD".to_string()];
    lines.extend(stones.iter().cloned());
    lines.push("DONE".into());
    e.send_all(&lines);
}

#[test]
fn yxshowforbid_lists_the_forbidden_points() {
    let mut e = Engine::with_game(15, 4, 300);
    yxboard(&mut e, &game_board(&squares(RENJU_CHECK)));
    let r = e.cmd("YXSHOWFORBID");
    let g9 = square("g9");
    assert_eq!(r, format!("FORBID {:02}{:02}.", g9.0, g9.1));
    assert_eq!(r, "FORBID 0608.");
    e.end();
}

#[test]
fn yxshowforbid_format_with_several_and_no_points() {
    let mut e = Engine::with_game(15, 4, 300);
    // 7,7 is a black double four (row 7 and column 7); white stones far away
    let d = Diagram::parse(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . o
        . . . . . . . . . . . . . o .
        . . . . . . . x . . . . . . .
        . . . . . . . x . . . . . . .
        . . . . . . . x . . . . o . .
        . . . . . . . . . . . o . . .
        . . o x x x . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        o . . . . . . . . . . . . . .
        ",
    );
    // black: 3,7 4,7 5,7 7,3 7,4 7,5 (6 stones); white 6 stones; black to move
    assert!(d.black_to_move());
    yxboard(&mut e, &d.board_lines());
    let r = e.cmd("YXSHOWFORBID");
    assert!(r.starts_with("FORBID ") && r.ends_with('.'), "{r:?}");
    let body = &r["FORBID ".len()..r.len() - 1];
    assert_eq!(body.len() % 4, 0, "{r:?}");
    assert!(body.chars().all(|c| c.is_ascii_digit()), "{r:?}");
    let pts: Vec<(i64, i64)> = (0..body.len() / 4)
        .map(|i| {
            let s = &body[i * 4..i * 4 + 4];
            (s[..2].parse().unwrap(), s[2..].parse().unwrap())
        })
        .collect();
    assert!(pts.contains(&(7, 7)), "7,7 is a double four: {r:?}");
    // no stone is listed, nothing off the board
    for p in &pts {
        assert!(
            on_board(*p, 15, 15) && !d.black.contains(p) && !d.white.contains(p),
            "{r:?}"
        );
    }
    // outside renju there are no forbidden points
    e.send("INFO rule 0");
    assert_eq!(e.cmd("YXSHOWFORBID"), "FORBID .");
    e.send("INFO rule 1");
    assert_eq!(e.cmd("YXSHOWFORBID"), "FORBID .");
    e.end();
}

#[test]
fn yxboard_sets_the_position_without_a_move() {
    let mut e = game(15);
    yxboard(&mut e, &diagram_board(BLOCK_FOUR));
    e.assert_responsive();
    // the position is set: its stones are taken
    e.error("TURN 3,7");
    e.end();
}

#[test]
fn yxshowinfo_answers_message_lines_and_makes_rule_2_renju() {
    let mut e = Engine::spawn();
    e.send("YXSHOWINFO");
    e.send("ABOUT");
    let mut lines = Vec::new();
    loop {
        let l = e.line(QUICK);
        if l.starts_with("name=") {
            break;
        }
        lines.push(l);
    }
    assert!(lines.iter().all(|l| l.starts_with("MESSAGE ")), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("MESSAGE INFO MAX_THREAD_NUM ")
                && l["MESSAGE INFO MAX_THREAD_NUM ".len()..]
                    .parse::<u32>()
                    .is_ok_and(|n| n >= 1)),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("MESSAGE INFO MAX_HASH_SIZE ")
                && l["MESSAGE INFO MAX_HASH_SIZE ".len()..]
                    .parse::<u32>()
                    .is_ok()),
        "{lines:?}"
    );
    // in Yixin mode rule 2 is renju
    e.start(15);
    e.send("INFO rule 2");
    yxboard(&mut e, &game_board(&squares(RENJU_CHECK)));
    assert_eq!(e.cmd("YXSHOWFORBID"), "FORBID 0608.");
    e.end();
}

#[test]
fn rule_2_without_yixin_mode_is_not_renju() {
    let mut e = Engine::spawn();
    e.start(15);
    e.send("INFO rule 2");
    yxboard(&mut e, &game_board(&squares(RENJU_CHECK)));
    assert_eq!(e.cmd("YXSHOWFORBID"), "FORBID .");
    e.end();
}
