//! Protocol transcripts, in-process through the binary's own loop (`tests/common`'s
//! `Engine::spawn`; the binary where a test waits for its trace log): every command and its
//! reply, error handling, line endings, END.

mod common;

use common::*;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Turn time for tests that only need some legal move.
const TURN: u64 = 250;

fn game(size: usize) -> Engine {
    Engine::with_game(size, 0, TURN)
}

fn assert_on_board_and_free(m: (i64, i64), w: usize, h: usize, taken: &HashSet<(i64, i64)>) {
    assert!(on_board(m, w, h), "move {m:?} is off the {w}x{h} board");
    assert!(!taken.contains(&m), "move {m:?} is on an occupied square");
}

// ---------------------------------------------------------------- START / RECTSTART / RESTART

#[test]
fn start_accepts_5_to_32() {
    let mut e = Engine::spawn();
    for n in [5, 32, 15, 20] {
        e.ok(&format!("START {n}"));
    }
    e.end();
}

#[test]
fn start_rejects_bad_sizes() {
    let mut e = Engine::spawn();
    for bad in [
        "START 4",
        "START 33",
        "START -1",
        "START 0",
        "START abc",
        "START",
        "START 15,15",
        "START 99999999999999999999999",
    ] {
        e.error(bad);
    }
    // still usable afterwards
    e.start(15);
    e.send("INFO timeout_turn 200");
    let m = e.move_after("BEGIN");
    assert!(on_board(m, 15, 15));
    e.end();
}

#[test]
fn start_size_is_the_board_size() {
    let mut e = game(5);
    // 4,4 is the last square of a 5x5 board, 5,0 is off it
    e.error("TURN 5,0");
    e.error("TURN 0,5");
    let m = e.move_after("TURN 4,4");
    assert!(on_board(m, 5, 5) && m != (4, 4), "{m:?}");
    e.start(32);
    let m = e.move_after("TURN 31,31");
    assert!(on_board(m, 32, 32) && m != (31, 31), "{m:?}");
    e.error("TURN 32,0");
    e.end();
}

#[test]
fn rectstart_plays_a_real_game_on_a_rectangle() {
    let (w, h) = (20usize, 15usize);
    let mut e = Engine::spawn();
    e.ok(&format!("RECTSTART {w},{h}"));
    e.send(&format!("INFO timeout_turn {TURN}"));
    let mut taken = HashSet::new();
    // opponent moves chosen to reach the far edges of the width axis
    let ours = [
        (19, 14),
        (19, 0),
        (18, 13),
        (0, 14),
        (17, 12),
        (16, 11),
        (1, 1),
        (15, 10),
    ];
    let m = e.move_after("BEGIN");
    assert_on_board_and_free(m, w, h, &taken);
    taken.insert(m);
    for &p in &ours {
        if taken.contains(&p) {
            continue;
        }
        taken.insert(p);
        let m = e.move_after(&format!("TURN {},{}", p.0, p.1));
        assert_on_board_and_free(m, w, h, &taken);
        taken.insert(m);
    }
    e.end();
}

#[test]
fn rectstart_width_is_x_and_height_is_y() {
    let mut e = Engine::spawn();
    e.ok("RECTSTART 20,6");
    e.send("INFO timeout_turn 100");
    e.error("TURN 5,19");
    e.error("TURN 20,5");
    let m = e.move_after("TURN 19,5");
    assert!(on_board(m, 20, 6) && m != (19, 5), "{m:?}");
    e.end();
}

#[test]
fn rectstart_rejects_bad_sizes() {
    let mut e = Engine::spawn();
    for bad in [
        "RECTSTART 4,10",
        "RECTSTART 10,4",
        "RECTSTART 33,10",
        "RECTSTART 10,33",
        "RECTSTART 0,0",
        "RECTSTART -20,15",
        "RECTSTART 20",
        "RECTSTART 20,15,1",
        "RECTSTART a,b",
        "RECTSTART",
    ] {
        e.error(bad);
    }
    e.ok("RECTSTART 5,32");
    e.ok("RECTSTART 32,5");
    e.end();
}

#[test]
fn restart_clears_the_board_and_keeps_its_size() {
    let mut e = Engine::spawn();
    e.ok("RECTSTART 20,6");
    e.send("INFO timeout_turn 150");
    let m = e.move_after("TURN 19,5");
    e.ok("RESTART");
    // both squares are free again
    let m2 = e.move_after(&format!("TURN {},{}", m.0, m.1));
    assert_ne!(m2, m);
    assert!(on_board(m2, 20, 6));
    e.ok("RESTART");
    let m3 = e.move_after("TURN 19,5");
    assert!(on_board(m3, 20, 6) && m3 != (19, 5));
    // still 20 wide and 6 high
    e.error("TURN 5,19");
    e.end();
}

#[test]
fn restart_before_start_is_an_error() {
    let mut e = Engine::spawn();
    e.error("RESTART");
    e.start(15);
    e.ok("RESTART");
    e.end();
}

// ---------------------------------------------------------------- BEGIN / TURN

#[test]
fn begin_answers_an_on_board_move() {
    for size in [5, 15, 20] {
        let mut e = game(size);
        let m = e.move_after("BEGIN");
        assert!(on_board(m, size, size), "{m:?} on {size}x{size}");
        e.end();
    }
}

#[test]
fn begin_before_start_is_an_error() {
    let mut e = Engine::spawn();
    e.error("BEGIN");
    e.error("TURN 7,7");
    e.end();
}

#[test]
fn turn_answers_an_empty_on_board_square() {
    let mut e = game(15);
    let mut taken = HashSet::new();
    for p in [(7, 7), (0, 0), (14, 14), (8, 6), (6, 8)] {
        if taken.contains(&p) {
            continue;
        }
        taken.insert(p);
        let m = e.move_after(&format!("TURN {},{}", p.0, p.1));
        assert_on_board_and_free(m, 15, 15, &taken);
        taken.insert(m);
    }
    e.end();
}

#[test]
fn bad_turns_are_errors_and_change_nothing() {
    let mut e = game(15);
    let m = e.move_after("TURN 7,7");
    for bad in [
        "TURN 15,3".to_string(),
        "TURN 3,15".to_string(),
        "TURN -1,3".to_string(),
        "TURN 7,7".to_string(),
        format!("TURN {},{}", m.0, m.1),
        "TURN".to_string(),
        "TURN 3".to_string(),
        "TURN 3,4,5".to_string(),
        "TURN a,b".to_string(),
        "TURN 3;4".to_string(),
    ] {
        e.error(&bad);
    }
    // The engine's move is still the last stone, so it can be taken back…
    e.ok(&format!("TAKEBACK {},{}", m.0, m.1));
    // …and then 7,7 is the last stone.
    e.ok("TAKEBACK 7,7");
    // The board is empty again: the next valid TURN works, anywhere.
    let m2 = e.move_after("TURN 7,7");
    assert!(on_board(m2, 15, 15) && m2 != (7, 7));
    let m3 = e.move_after("TURN 0,0");
    assert!(on_board(m3, 15, 15) && ![(7, 7), (0, 0), m2].contains(&m3));
    e.end();
}

#[test]
fn turn_with_spaces_around_the_numbers_is_accepted() {
    let mut e = game(15);
    let m = e.move_after("TURN 7, 7");
    assert!(on_board(m, 15, 15) && m != (7, 7));
    e.error("TURN 7,7");
    e.end();
}

// ---------------------------------------------------------------- BOARD

#[test]
fn board_empty_gives_a_first_move() {
    let mut e = game(15);
    let m = e.board(&[]);
    assert!(on_board(m, 15, 15));
    // the engine's stone is on the board now
    e.error(&format!("TURN {},{}", m.0, m.1));
    e.end();
}

#[test]
fn board_stones_in_any_order() {
    let d = Diagram::parse(BLOCK_FOUR);
    assert!(d.black_to_move());
    let lines = d.board_lines();
    let mut orders: Vec<Vec<String>> = vec![lines.clone()];
    let mut rev = lines.clone();
    rev.reverse();
    orders.push(rev);
    // all opponent stones first, then ours
    let mut by_owner: Vec<String> = lines
        .iter()
        .filter(|l| l.ends_with(",2"))
        .cloned()
        .collect();
    by_owner.extend(lines.iter().filter(|l| l.ends_with(",1")).cloned());
    orders.push(by_owner);
    for order in orders {
        let mut e = game(15);
        let m = e.board(&order);
        assert_eq!(m, (7, 7), "must block the four; order {order:?}");
        e.end();
    }
}

#[test]
fn board_as_white_blocks_too() {
    // same four, but now it is black's four and white (the engine) to move
    let mut e = game(15);
    let m = e.board(
        &[
            "3,7,2", "2,7,1", "4,7,2", "9,9,1", "5,7,2", "0,14,1", "6,7,2",
        ]
        .map(String::from),
    );
    assert_eq!(m, (7, 7));
    e.end();
}

#[test]
fn board_field_3_squares_are_not_playable() {
    // 5x5: every square but 2,3 is a field-3 (blocked) stone or an ordinary stone
    let mut e = game(5);
    let mut stones = Vec::new();
    let own = [(0, 0), (4, 1)];
    let opp = [(4, 4), (1, 2)];
    for y in 0..5i64 {
        for x in 0..5i64 {
            if (x, y) == (2, 3) {
                continue;
            }
            let f = if own.contains(&(x, y)) {
                1
            } else if opp.contains(&(x, y)) {
                2
            } else {
                3
            };
            stones.push(format!("{x},{y},{f}"));
        }
    }
    let m = e.board(&stones);
    assert_eq!(m, (2, 3), "the only empty square");
    e.end();
}

#[test]
fn board_with_only_field_3_stones_is_answered() {
    let mut e = game(15);
    let m = e.board(&["7,7,3".to_string(), "8,8,3".to_string()]);
    assert!(on_board(m, 15, 15) && m != (7, 7) && m != (8, 8), "{m:?}");
    e.end();
}

#[test]
fn info_rule_after_board_keeps_field_3_stones() {
    let mut e = game(15);
    let m = e.board(&["7,7,3".to_string(), "0,0,2".to_string()]);
    assert_ne!(m, (7, 7));
    e.send("INFO rule 1");
    // 7,7 still holds a field-3 stone
    e.error("TURN 7,7");
    e.end();
}

#[test]
fn board_with_counts_no_game_reaches_is_still_answered() {
    // a puzzle set up by hand: the side to move still gets a move, on a free cell
    let mut e = game(15);
    for stones in [
        vec!["1,1,1", "2,2,1"],
        vec!["1,1,1", "2,2,1", "3,3,2", "4,4,1"],
        vec!["1,1,2", "2,2,2"],
        vec!["1,1,2", "2,2,2", "3,3,2", "4,4,1"],
    ] {
        let mut all = vec!["BOARD"];
        all.extend(stones.iter());
        all.push("DONE");
        e.send_all(&all);
        let r = e.reply(MOVE_WAIT);
        let taken: Vec<String> = stones.iter().map(|s| s[..3].to_string()).collect();
        assert!(
            !r.starts_with("ERROR") && r.contains(',') && !taken.contains(&r),
            "{stones:?} gave {r:?}"
        );
    }
    e.end();
}

#[test]
fn board_with_bad_lines_is_an_error_and_keeps_the_position() {
    let mut e = game(15);
    let m = e.move_after("TURN 7,7");
    for bad in [
        "1,2", "1,2,3,4", "a,b,1", "1,2,4", "1,2,0", "1,2,-1", "15,3,1", "3,15,2", "-1,0,1",
        "hello",
    ] {
        e.send_all(&["BOARD", "5,5,1", bad, "6,6,2", "DONE"]);
        let r = e.reply(QUICK);
        assert!(r.starts_with("ERROR"), "BOARD with {bad:?} gave {r:?}");
    }
    // a square listed twice
    e.send_all(&["BOARD", "5,5,1", "5,5,2", "DONE"]);
    let r = e.reply(QUICK);
    assert!(r.starts_with("ERROR"), "duplicate square gave {r:?}");
    e.error("TURN 7,7");
    e.ok(&format!("TAKEBACK {},{}", m.0, m.1));
    e.ok("TAKEBACK 7,7");
    e.end();
}

#[test]
fn board_replaces_the_whole_position() {
    let mut e = Local::new();
    assert_eq!(e.send("START 15"), ["OK"]);
    e.send("INFO max_node 20000");
    let first = e.move_after("TURN 7,7");
    // the new position has none of the old stones: the opponent's four down the left edge
    // leaves one answer, 0,4, so the engine cannot be the one to fill 7,7 again
    let board: Vec<String> = [
        "0,0,2", "0,1,2", "0,2,2", "0,3,2", "10,10,1", "12,12,1", "14,10,1",
    ]
    .map(String::from)
    .to_vec();
    assert_eq!(e.board(&board), (0, 4));
    // the engine's first answer and 7,7 are free again: a stone on each is accepted
    let (x, y) = first;
    assert_eq!(e.send(&format!("PLAY {x},{y}")), [format!("{x},{y}")]);
    let m = e.move_after("TURN 7,7");
    assert!(
        on_board(m, 15, 15) && ![(7, 7), (0, 4), first].contains(&m),
        "{m:?}"
    );
}

#[test]
fn done_without_board_is_an_error() {
    let mut e = game(15);
    e.error("DONE");
    e.end();
}

#[test]
fn blank_lines_inside_board_are_ignored() {
    let mut e = game(15);
    let mut lines = vec!["BOARD".to_string(), String::new()];
    for l in diagram_board(BLOCK_FOUR) {
        lines.push(l);
        lines.push("   ".into());
    }
    lines.push("DONE".into());
    e.send_all(&lines);
    assert_eq!(e.read_move(), (7, 7));
    e.end();
}

// ---------------------------------------------------------------- INFO

#[test]
fn an_overlong_line_gets_one_bounded_error_and_play_goes_on() {
    let mut e = Engine::spawn();
    // 8 MB with no line break, control bytes inside
    let mut big = vec![b'A'; 8 << 20];
    big[100] = 0x07;
    big.push(b'\n');
    e.send_raw(&big);
    let r = e.reply(QUICK);
    assert!(
        r.starts_with("ERROR") && r.len() < 200,
        "{}",
        &r[..r.len().min(200)]
    );
    assert!(!r.chars().any(char::is_control));
    e.send("UNKNOWNCMD\u{1b}[2J");
    let r = e.reply(QUICK);
    assert!(
        r.starts_with("UNKNOWN") && !r.chars().any(char::is_control),
        "{r:?}"
    );
    e.ok("START 15");
    let m = e.move_after("BEGIN");
    assert!(on_board(m, 15, 15));
    e.end();
}

#[test]
fn info_keys_give_no_reply() {
    let mut e = Engine::spawn();
    e.start(15);
    e.send_all(&[
        "INFO timeout_turn 300",
        "INFO timeout_match 100000",
        "INFO time_left 100000",
        "INFO time_left 2147483647",
        "INFO time_left -300",
        "INFO max_memory 367001600",
        "INFO max_memory 0",
        "INFO max_memory 2147483647",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO rule 1",
        "INFO rule 4",
        "INFO rule 8",
        "INFO rule 9",
        "INFO rule 2",
        "INFO rule 3",
        "INFO rule 0",
        "INFO evaluate 7,7",
        "INFO folder C:\\Users\\someone\\Piskvork files",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
    ]);
    // the first line back must be ABOUT's reply
    assert_next_is_about(e, false);
}

/// Sends ABOUT and asserts that its answer is the next line (with `skip_messages`, the next
/// line that is not a MESSAGE): nothing sent before it got a reply.
fn assert_next_is_about(mut e: Engine, skip_messages: bool) {
    e.send("ABOUT");
    let first = if skip_messages {
        e.reply(QUICK)
    } else {
        e.line(QUICK)
    };
    assert!(first.starts_with("name=\"Rensa\""), "got {first:?}");
    e.end();
}

#[test]
fn unknown_info_keys_are_silent() {
    let mut e = Engine::spawn();
    e.start(15);
    e.send_all(&[
        "INFO show_detail 3",
        "INFO thread_num 1",
        "INFO hash_size 0",
        "INFO caution_factor 2",
        "INFO pondering 0",
        "INFO some_future_key",
        "INFO some_future_key with several words",
        "INFO usedatabase 1",
    ]);
    assert_next_is_about(e, false);
}

/// GomocupJudge's standard check (reference §4): white to move; h13 would be a six, which
/// wins only in freestyle; in standard white must stop black's open three at f8 or j8.
const STANDARD_CHECK: &str = "h8h9i8h10g8h11j13h12g14h14i15";

#[test]
fn info_rule_before_start_is_kept() {
    let mut e = Engine::spawn();
    e.send("INFO rule 1");
    e.send("INFO timeout_turn 400");
    e.start(15);
    let m = e.board(&game_board(&squares(STANDARD_CHECK)));
    assert!(
        [square("f8"), square("j8")].contains(&m),
        "standard rule lost: played {m:?}"
    );
    e.end();
}

#[test]
fn info_rule_changes_take_effect() {
    // the same position under freestyle: h13 wins
    let mut e = Engine::with_game(15, 0, 400);
    let m = e.board(&game_board(&squares(STANDARD_CHECK)));
    assert_eq!(m, square("h13"), "freestyle: the six wins");
    e.send("INFO rule 1");
    let m = e.board(&game_board(&squares(STANDARD_CHECK)));
    assert!(
        [square("f8"), square("j8")].contains(&m),
        "after INFO rule 1: {m:?}"
    );
    e.end();
}

#[test]
fn tiny_max_memory_still_plays() {
    for mem in ["1", "1000000", "30000000", "0"] {
        let mut e = game(15);
        e.send(&format!("INFO max_memory {mem}"));
        let m = e.board(&diagram_board(MIDGAME));
        assert!(on_board(m, 15, 15), "max_memory {mem}");
        let m = e.board(&diagram_board(BLOCK_FOUR));
        assert_eq!(m, (7, 7), "max_memory {mem}");
        e.end();
    }
}

#[test]
fn malformed_info_values_do_not_reply() {
    let mut e = Engine::spawn();
    e.start(15);
    e.send_all(&[
        "INFO timeout_turn abc",
        "INFO rule 99",
        "INFO max_memory lots",
        "INFO time_left",
    ]);
    // a MESSAGE about the bad values is fine (managers skip it); any other line is not
    assert_next_is_about(e, true);
}

// ---------------------------------------------------------------- END

#[test]
fn end_exits_promptly_and_silently() {
    let mut e = game(15);
    let _ = e.move_after("BEGIN");
    let t = Instant::now();
    e.send("END");
    let st = e.wait_exit(Duration::from_millis(1000));
    assert!(st.is_some(), "no exit within 1 s of END");
    assert!(st.as_ref().is_some_and(Exit::success), "{st:?}");
    eprintln!("END took {:?}", t.elapsed());
    assert!(e.drain(Duration::from_millis(100)).is_empty());
}

#[test]
fn end_inside_a_board_block_prints_nothing() {
    for block in ["BOARD", "SWAP2BOARD"] {
        let mut e = game(15);
        e.send_all(&[block, if block == "BOARD" { "7,7,1" } else { "7,7" }, "END"]);
        assert!(
            e.wait_exit(Duration::from_secs(1)).is_some(),
            "{block}: no exit"
        );
        let out = e.drain(Duration::from_millis(100));
        assert!(out.is_empty(), "{block}: printed {out:?} after END");
    }
}

#[test]
fn end_before_start_exits() {
    let mut e = Engine::spawn();
    e.send("END");
    assert!(e.wait_exit(Duration::from_secs(1)).is_some());
    assert!(e.drain(Duration::from_millis(100)).is_empty());
}

#[test]
fn end_of_input_exits() {
    let mut e = game(15);
    e.close_stdin();
    let st = e.wait_exit(Duration::from_secs(2));
    assert!(st.as_ref().is_some_and(|s| s.success()), "{st:?}");
}

#[test]
fn end_mid_search_exits_within_500ms_without_a_move() {
    let mut e = searching_midgame();
    let t = Instant::now();
    e.send("END");
    let st = e.wait_exit(Duration::from_millis(2000));
    let took = t.elapsed();
    assert!(st.is_some(), "still running 2 s after END");
    assert!(took <= Duration::from_millis(500), "exit took {took:?}");
    let after = e.drain(Duration::from_millis(100));
    assert!(
        after.iter().all(|l| is_log_line(l)),
        "printed something after END: {after:?}"
    );
}

#[test]
fn end_mid_swap2_opening_exits_within_500ms() {
    let mut e = Engine::binary_logging("trace");
    e.setup_game(15, 1, 30_000);
    let mark = e.stderr_len();
    e.send_all(&["SWAP2BOARD", "DONE"]);
    e.wait_search_started(mark, Duration::from_millis(200));
    let t = Instant::now();
    e.send("END");
    let st = e.wait_exit(Duration::from_millis(10_000));
    let took = t.elapsed();
    assert!(st.is_some(), "still running 10 s after END");
    assert!(took <= Duration::from_millis(500), "exit took {took:?}");
}

// ---------------------------------------------------------------- ABOUT

#[test]
fn about_has_the_recommended_keys() {
    let mut e = Engine::spawn();
    let r = e.cmd("ABOUT");
    let mut keys = Vec::new();
    for part in r.split(", ") {
        let (k, v) = part
            .split_once('=')
            .unwrap_or_else(|| panic!("no key=value in {part:?}"));
        assert!(
            v.len() >= 2 && v.starts_with('"') && v.ends_with('"'),
            "value of {k} is not quoted: {v:?}"
        );
        assert!(!v[1..v.len() - 1].contains('"'), "{v:?}");
        keys.push(k.to_string());
        if k == "name" {
            assert_eq!(v, "\"Rensa\"");
        }
        if k == "version" {
            assert!(v.len() > 2, "empty version");
        }
    }
    for k in ["name", "version", "author", "country", "www"] {
        assert!(keys.iter().any(|x| x == k), "ABOUT lacks {k}: {r}");
    }
    e.end();
}

// ---------------------------------------------------------------- TAKEBACK / PLAY

#[test]
fn takeback_only_the_last_stone() {
    let mut e = game(15);
    e.error("TAKEBACK 7,7");
    let m = e.move_after("TURN 7,7");
    e.error("TAKEBACK 7,7");
    e.error("TAKEBACK 15,15");
    e.error("TAKEBACK x");
    e.ok(&format!("TAKEBACK {},{}", m.0, m.1));
    e.error(&format!("TAKEBACK {},{}", m.0, m.1));
    e.ok("TAKEBACK 7,7");
    e.error("TAKEBACK 7,7");
    // the board is empty: 7,7 may be played again, and it is the engine's turn as black
    let m = e.move_after("BEGIN");
    assert!(on_board(m, 15, 15));
    e.ok(&format!("TAKEBACK {},{}", m.0, m.1));
    e.end();
}

#[test]
fn takeback_before_start_is_an_error() {
    let mut e = Engine::spawn();
    e.error("TAKEBACK 7,7");
    e.end();
}

#[test]
fn play_answers_the_same_square() {
    let mut e = game(15);
    let m = e.move_after("TURN 7,7");
    let p = if m == (8, 8) { (6, 6) } else { (8, 8) };
    let r = e.cmd(&format!("PLAY {},{}", p.0, p.1));
    assert_eq!(r, format!("{},{}", p.0, p.1));
    // the stone stands: the square is taken, and it is the last move
    e.error(&format!("TURN {},{}", p.0, p.1));
    e.ok(&format!("TAKEBACK {},{}", p.0, p.1));
    e.error("PLAY 7,7");
    e.error("PLAY 15,0");
    e.error("PLAY");
    e.end();
}
