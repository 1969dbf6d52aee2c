//! Answer times through the real binary: 100 ms turns in self-play, `timeout_turn 0`, and
//! a negative or tiny `time_left` under a match limit. Times run from writing the command to
//! reading the move.
//!
//! The ceiling for a 100 ms turn is 100 ms plus 150 ms of tolerance for a slow, loaded CI
//! machine; the median must still be under 100 ms, so a systematic overrun fails even where
//! single answers are allowed to be late.
//!
//! They time the machine, so a plain `cargo test` (tests in parallel on a shared machine)
//! skips them; `.ci/run` runs them apart, one at a time:
//!
//! ```text
//! cargo test --release --test timing -- --ignored --test-threads=1
//! ```

mod common;

use common::*;
use std::time::{Duration, Instant};

const TOLERANCE: Duration = Duration::from_millis(150);

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

fn median(v: &[Duration]) -> Duration {
    let mut s = v.to_vec();
    s.sort();
    s[s.len() / 2]
}

/// Sends `line` and returns the move and the time it took to arrive.
fn timed_move(e: &mut Engine, line: &str) -> ((i64, i64), Duration) {
    let t = Instant::now();
    e.send(line);
    let m = e.read_move();
    (m, t.elapsed())
}

fn timed_board(e: &mut Engine, stones: &[String]) -> ((i64, i64), Duration) {
    let t = Instant::now();
    e.send_board(stones);
    let m = e.read_move();
    (m, t.elapsed())
}

/// Two engines play each other with `turn_ms` per move on a `size` board under `rule` until
/// `moves` answers have been timed (a finished game starts again with RESTART). Returns the
/// time of every answer.
fn self_play(size: usize, rule: u32, turn_ms: u64, moves: usize) -> Vec<Duration> {
    let mut a = Engine::binary_game(size, rule, turn_ms);
    let mut b = Engine::binary_game(size, rule, turn_ms);
    let mut times = Vec::new();
    'games: while times.len() < moves {
        let mut g = Grid::new(size, size);
        let (mut m, t) = timed_move(&mut a, "BEGIN");
        times.push(t);
        assert!(g.is_empty(m), "BEGIN gave {m:?}");
        g.set(m, 1);
        let mut colour = 2u8;
        let mut to_move_is_b = true;
        let mut stones = 1;
        while times.len() < moves {
            if g.longest_run(m) >= 5 || stones == size * size {
                // game over: both start again
                a.ok("RESTART");
                b.ok("RESTART");
                continue 'games;
            }
            let e = if to_move_is_b { &mut b } else { &mut a };
            let (n, t) = timed_move(e, &format!("TURN {},{}", m.0, m.1));
            times.push(t);
            assert!(g.is_empty(n), "answer {n:?} to TURN {m:?} is not free");
            g.set(n, colour);
            colour = 3 - colour;
            to_move_is_b = !to_move_is_b;
            stones += 1;
            m = n;
        }
    }
    a.end();
    b.end();
    times
}

fn check_100ms(what: &str, times: &[Duration]) {
    let limit = Duration::from_millis(100) + TOLERANCE;
    let worst = times.iter().max().copied().unwrap_or_default();
    let med = median(times);
    let all: Vec<u128> = times.iter().map(|&d| ms(d)).collect();
    eprintln!(
        "{what}: median {} ms, worst {} ms: {all:?}",
        ms(med),
        ms(worst)
    );
    assert!(
        worst <= limit,
        "{what}: an answer took {} ms: {all:?}",
        ms(worst)
    );
    assert!(
        med < Duration::from_millis(100),
        "{what}: median {} ms: {all:?}",
        ms(med)
    );
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn self_play_freestyle_15_answers_inside_100ms_turns() {
    let times = self_play(15, 0, 100, 30);
    check_100ms("freestyle 15x15", &times);
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn self_play_renju_15_answers_inside_100ms_turns() {
    let times = self_play(15, 4, 100, 20);
    check_100ms("renju 15x15", &times);
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn self_play_32x32_answers_inside_100ms_turns() {
    let times = self_play(32, 1, 100, 12);
    check_100ms("standard 32x32", &times);
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn timeout_turn_0_answers_within_200ms() {
    let limit = Duration::from_millis(200);
    for rule in [0, 4] {
        let mut e = Engine::binary_game(15, rule, 0);
        let (m, t) = timed_board(&mut e, &diagram_board(MIDGAME));
        assert!(on_board(m, 15, 15));
        assert!(t <= limit, "rule {rule}: BOARD answered after {} ms", ms(t));
        let (_, t) = timed_move(&mut e, "TURN 0,0");
        assert!(t <= limit, "rule {rule}: TURN answered after {} ms", ms(t));
        e.ok("RESTART");
        let (_, t) = timed_move(&mut e, "BEGIN");
        assert!(t <= limit, "rule {rule}: BEGIN answered after {} ms", ms(t));
        e.end();
    }
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn first_move_with_rule_set_up_is_quick() {
    // START, INFO rule and the first BOARD back to back, as a manager sends them: any
    // per-rule set-up the engine does is charged to this first move
    for rule in [0, 1, 4, 8, 9] {
        let mut e = Engine::binary();
        e.start(15);
        e.send(&format!("INFO rule {rule}"));
        e.send("INFO timeout_turn 0");
        let (_, t) = timed_board(&mut e, &diagram_board(MIDGAME));
        assert!(
            t <= Duration::from_millis(1000),
            "rule {rule}: first move after {} ms",
            ms(t)
        );
        e.end();
    }
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn the_first_move_from_start_up_takes_at_most_half_the_turn() {
    // Gomocup's manager starts the engine, writes START and the INFO lines and suspends it
    // until move 1: start-up, the rule's tables and the move all land on that move's clock
    for turn in [200u64, 1000] {
        for rule in [0, 1, 4] {
            let t = Instant::now();
            let mut e = Engine::binary();
            e.send_all(&[
                "START 15".to_string(),
                format!("INFO timeout_turn {turn}"),
                "INFO timeout_match 180000".to_string(),
                "INFO max_memory 367001600".to_string(),
                format!("INFO rule {rule}"),
                "INFO time_left 180000".to_string(),
                "BEGIN".to_string(),
            ]);
            assert_eq!(e.reply(MOVE_WAIT), "OK");
            let m = e.read_move();
            let took = t.elapsed();
            assert_eq!(m, (7, 7));
            assert!(
                took <= Duration::from_millis(turn / 2) + TOLERANCE / 2,
                "rule {rule}, {turn} ms turn: the first move after {} ms",
                ms(took)
            );
            e.end();
        }
    }
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn negative_time_left_with_a_match_limit_answers_quickly() {
    let mut e = Engine::binary_game(15, 0, 5000);
    e.send("INFO timeout_match 120000");
    e.send("INFO time_left -300");
    let (m, t) = timed_board(&mut e, &diagram_board(MIDGAME));
    assert!(on_board(m, 15, 15));
    assert!(
        t <= Duration::from_millis(200),
        "answered after {} ms",
        ms(t)
    );
    e.send("INFO time_left -5000");
    let (_, t) = timed_move(&mut e, "TURN 0,0");
    assert!(
        t <= Duration::from_millis(200),
        "answered after {} ms",
        ms(t)
    );
    e.end();
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn small_time_left_limits_the_move() {
    // 30 s turns, but only 1 s left for the rest of the game: the move must come well
    // inside that second (the budget spreads it over many moves)
    let mut e = Engine::binary_game(15, 0, 30_000);
    e.send("INFO timeout_match 180000");
    e.send("INFO time_left 1000");
    let (_, t) = timed_board(&mut e, &diagram_board(MIDGAME));
    eprintln!("1 s left: {} ms", ms(t));
    assert!(
        t <= Duration::from_millis(400),
        "answered after {} ms with 1 s left",
        ms(t)
    );
    e.end();
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn time_left_without_a_match_limit_is_still_respected() {
    // Some managers send time_left with timeout_match 0; a positive value is still a limit
    let mut e = Engine::binary_game(15, 0, 30_000);
    e.send("INFO time_left 800");
    let (_, t) = timed_board(&mut e, &diagram_board(MIDGAME));
    eprintln!("0.8 s left, no match limit: {} ms", ms(t));
    assert!(
        t <= Duration::from_millis(800),
        "answered after {} ms with 0.8 s left",
        ms(t)
    );
    e.end();
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn unlimited_time_left_does_not_shorten_a_turn_limit() {
    // time_left 2147483647 means "no match limit": the turn limit alone governs, so a
    // 300 ms turn is answered within 300 ms + tolerance (and not instantly broken)
    let mut e = Engine::binary_game(15, 0, 300);
    e.send("INFO timeout_match 0");
    e.send("INFO time_left 2147483647");
    let (m, t) = timed_board(&mut e, &diagram_board(MIDGAME));
    assert!(on_board(m, 15, 15));
    eprintln!("300 ms turn, unlimited time_left: {} ms", ms(t));
    assert!(t <= Duration::from_millis(300) + TOLERANCE, "{} ms", ms(t));
    e.end();
}

#[test]
#[ignore = "timing: run apart, one at a time (.ci/run)"]
fn turn_limit_is_kept_at_1_second() {
    let mut e = Engine::binary_game(15, 0, 1000);
    let (_, t) = timed_board(&mut e, &diagram_board(MIDGAME));
    eprintln!("1 s turn answered after {} ms", ms(t));
    // the quiet position is searched for a while: the move is not instant
    assert!(
        t >= Duration::from_millis(100),
        "{} ms: did it search at all?",
        ms(t)
    );
    assert!(t <= Duration::from_millis(1000) + TOLERANCE, "{} ms", ms(t));
    e.end();
}
