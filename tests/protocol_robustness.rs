//! Protocol robustness: unknown commands, case, line endings, bytes that are not UTF-8,
//! overlong lines, stray output on stdout, and random command sequences and garbage that must
//! never kill the engine. In-process sessions, but the tests that look for a panic on stderr
//! or for stray bytes on stdout run the real binary, where those show. (The command-by-command
//! transcripts are in `protocol.rs`.)

mod common;

use common::*;
use std::thread::sleep;
use std::time::{Duration, Instant};

#[test]
fn unknown_commands_answer_unknown() {
    let mut e = Engine::spawn();
    for c in [
        "FOO",
        "SUGGEST 7,7",
        "YXSOOSORVSTEP7",
        "YXDBCHECK",
        "HELLO world",
        "BEGINX",
        "RESTARTS",
    ] {
        let r = e.cmd(c);
        assert!(r.starts_with("UNKNOWN"), "{c:?} gave {r:?}");
    }
    e.assert_responsive();
    e.end();
}

#[test]
fn commands_are_case_insensitive() {
    let mut e = Engine::spawn();
    assert_eq!(e.cmd("start 15"), "OK");
    e.send("info Timeout_Turn 200");
    e.send("Info rule 0");
    e.send_all(&["board"]);
    e.send_all(&diagram_board(BLOCK_FOUR));
    e.send("done");
    assert_eq!(e.read_move(), (7, 7));
    assert!(e.cmd("about").starts_with("name=\"Rensa\""));
    assert_eq!(e.cmd("restart"), "OK");
    let m = e.move_after("begin");
    assert!(on_board(m, 15, 15));
    let p = if m == (0, 0) { (1, 1) } else { (0, 0) };
    let m2 = e.move_after(&format!("turn {},{}", p.0, p.1));
    assert!(on_board(m2, 15, 15));
    assert_eq!(e.cmd(&format!("takeback {},{}", m2.0, m2.1)), "OK");
    assert_eq!(e.cmd("Rectstart 20,15"), "OK");
    assert_eq!(e.cmd("yxshowforbid"), "FORBID .");
    e.send("End");
    assert!(e.wait_exit(Duration::from_secs(1)).is_some());
}

#[test]
fn crlf_line_endings() {
    let mut e = Engine::spawn();
    e.send_raw(b"START 15\r\n");
    assert_eq!(e.reply(QUICK), "OK");
    e.send_raw(b"INFO timeout_turn 200\r\nINFO rule 0\r\n");
    let mut s = String::from("BOARD\r\n");
    for l in diagram_board(BLOCK_FOUR) {
        s.push_str(&l);
        s.push_str("\r\n");
    }
    s.push_str("DONE\r\n");
    e.send_raw(s.as_bytes());
    assert_eq!(e.read_move(), (7, 7));
    e.send_raw(b"TURN 0,0\r\n");
    let m = e.read_move();
    assert!(on_board(m, 15, 15));
    e.send_raw(b"ABOUT\r\n");
    assert!(e.reply(QUICK).starts_with("name="));
    e.send_raw(b"END\r\n");
    assert!(e.wait_exit(Duration::from_secs(1)).is_some());
}

#[test]
fn lone_cr_line_endings() {
    let mut e = Engine::spawn();
    e.send_raw(b"START 15\rINFO timeout_turn 200\r");
    assert_eq!(e.reply(QUICK), "OK");
    let mut s = String::from("BOARD\r");
    for l in diagram_board(BLOCK_FOUR) {
        s.push_str(&l);
        s.push('\r');
    }
    s.push_str("DONE\r");
    e.send_raw(s.as_bytes());
    assert_eq!(e.read_move(), (7, 7));
    e.send_raw(b"ABOUT\r");
    assert!(e.reply(QUICK).starts_with("name="));
    e.send_raw(b"END\r");
    assert!(e.wait_exit(Duration::from_secs(1)).is_some());
}

#[test]
fn a_line_split_across_writes_is_one_line() {
    let mut e = Engine::spawn();
    e.send_raw(b"STA");
    sleep(Duration::from_millis(50));
    e.send_raw(b"RT 1");
    sleep(Duration::from_millis(50));
    e.send_raw(b"5\r");
    sleep(Duration::from_millis(50));
    e.send_raw(b"\n");
    assert_eq!(e.reply(QUICK), "OK");
    // the \n after the \r was not a second (blank) command with a reply
    e.assert_responsive();
    e.end();
}

#[test]
fn blank_lines_are_ignored() {
    let mut e = Engine::spawn();
    e.send_raw(b"\n\n   \n\t\n\r\n\r\r\n");
    e.send("ABOUT");
    let first = e.line(QUICK);
    assert!(first.starts_with("name=\"Rensa\""), "got {first:?}");
    e.end();
}

#[test]
fn non_utf8_bytes_do_not_kill_the_engine() {
    let mut e = Engine::spawn();
    e.send_raw(b"\xff\xfe\x80garbage\xc3\n");
    let r = e.reply(QUICK);
    assert!(r.starts_with("UNKNOWN") || r.starts_with("ERROR"), "{r:?}");
    e.send_raw(b"START 15\xff\n");
    let r = e.reply(QUICK);
    assert!(r.starts_with("ERROR"), "{r:?}");
    e.send_raw(b"START \xe2\x80\xaf15\n");
    let _ = e.reply(QUICK);
    e.start(15);
    e.send("INFO timeout_turn 200");
    e.send_raw(b"BOARD\n7,7,\xff1\n\xfe\xfe\nDONE\n");
    let r = e.reply(QUICK);
    assert!(r.starts_with("ERROR"), "{r:?}");
    e.send_raw(b"INFO \xff\xff 12\n");
    let m = e.move_after("BEGIN");
    assert!(on_board(m, 15, 15));
    e.end();
}

#[test]
fn very_long_lines_are_survived() {
    let mut e = Engine::spawn();
    // under the 64 KiB line limit: read as a command
    let long = "A".repeat(60_000);
    e.send(&long);
    let r = e.reply(QUICK);
    assert!(
        r.starts_with("UNKNOWN") && r.len() < 100,
        "{}",
        &r[..r.len().min(80)]
    );
    e.send(&format!("TURN {}", "9".repeat(60_000)));
    assert!(e.reply(QUICK).starts_with("ERROR"));
    // over it: one bounded ERROR, whatever the line was
    for line in [
        "A".repeat(200_000),
        format!("TURN {}", "9".repeat(100_000)),
        format!("INFO {} 1", "k".repeat(100_000)),
    ] {
        e.send(&line);
        let r = e.reply(QUICK);
        assert!(r.starts_with("ERROR line of") && r.len() < 100, "{r}");
    }
    e.assert_responsive();
    e.end();
}

#[test]
fn i64_min_numbers_are_errors_not_panics() {
    let mut e = Engine::binary();
    e.error("START -9223372036854775808");
    e.start(15);
    e.error("TURN -9223372036854775808,0");
    e.send("INFO timeout_turn -9223372036854775808");
    e.assert_responsive();
    assert!(!e.stderr_text().contains("panicked"), "{}", e.stderr_text());
    e.end();
}

/// Whether a stdout line is a well-formed engine line of some kind.
fn well_formed(l: &str) -> bool {
    if let Some(text) = l.strip_prefix("MESSAGE ") {
        return !text.trim().is_empty();
    }
    if let Some(text) = l.strip_prefix("DEBUG ") {
        return !text.trim().is_empty();
    }
    l == "OK"
        || l == "SWAP"
        || l.starts_with("ERROR")
        || l.starts_with("UNKNOWN")
        || l.starts_with("FORBID ")
        || l.starts_with("name=\"Rensa\"")
        || parse_moves(l).is_some()
}

#[test]
fn stdout_carries_only_replies_and_log_lines() {
    let mut e = Engine::binary();
    e.send("INFO show_detail 3");
    // (command, expected kind of reply; None = no reply)
    let script: Vec<(&str, Option<&str>)> = vec![
        ("START 15", Some("OK")),
        ("INFO timeout_turn 200", None),
        ("INFO timeout_match 100000", None),
        ("INFO time_left 100000", None),
        ("INFO max_memory 367001600", None),
        ("INFO game_type 1", None),
        ("INFO rule 1", None),
        ("INFO folder /tmp", None),
        ("BEGIN", Some("move")),
        ("TURN 0,0", Some("move")),
        ("TURN 0,0", Some("ERROR")),
        ("TURN 1,0", Some("move")),
        ("ABOUT", Some("about")),
        ("PLAY 14,14", Some("14,14")),
        ("TAKEBACK 14,14", Some("OK")),
        ("RESTART", Some("OK")),
        ("BOARD", None),
        ("7,7,2", None),
        ("DONE", Some("move")),
        ("SWAP2BOARD", None),
        ("DONE", Some("moves")),
        ("START 20", Some("OK")),
        ("INFO rule 4", None),
        ("YXBOARD", None),
        ("7,7,2", None),
        ("DONE", None),
        ("YXSHOWFORBID", Some("FORBID")),
        ("YXHASHCLEAR", None),
        ("YXSHOWHASHUSAGE", None),
        ("STOP", None),
        ("FROBNICATE", Some("UNKNOWN")),
        ("START 4", Some("ERROR")),
        ("TURN 19,19", Some("move")),
        ("ABOUT", Some("about")),
    ];
    let mut expected = Vec::new();
    for (line, kind) in &script {
        e.send(line);
        if let Some(k) = kind {
            expected.push(*k);
            // wait for each reply, so they cannot be attributed to the wrong command
            let r = e.reply(MOVE_WAIT);
            let fits = match *k {
                "move" => parse_move(&r).is_some(),
                "moves" => parse_moves(&r).is_some_and(|v| v.len() == 3),
                "about" => r.starts_with("name=\"Rensa\""),
                "UNKNOWN" | "ERROR" | "FORBID" => r.starts_with(k),
                exact => r == exact,
            };
            assert!(fits, "{line:?}: expected {k}, got {r:?}");
        }
    }
    e.send("END");
    assert!(e.wait_exit(Duration::from_secs(2)).is_some());
    e.drain(Duration::from_millis(200));
    let replies: Vec<&String> = e.transcript.iter().filter(|l| !is_log_line(l)).collect();
    assert_eq!(
        replies.len(),
        expected.len(),
        "extra replies: {:?}",
        e.transcript
    );
    for l in &e.transcript {
        assert!(
            well_formed(l),
            "stray stdout line {l:?} in {:?}",
            e.transcript
        );
        assert!(!l.contains('\r'), "{l:?}");
    }
    assert!(!e.stderr_text().contains("panicked"), "{}", e.stderr_text());
}

/// A small deterministic generator (64-bit LCG) for the random command test.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n) as i64
    }

    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.next(v.len() as u64) as usize]
    }
}

/// One random command (possibly a multi-line block) for a board of about `n` squares a side.
fn random_command(r: &mut Lcg, n: i64) -> Vec<String> {
    let xy = |r: &mut Lcg| format!("{},{}", r.next(n as u64 + 2) - 1, r.next(n as u64 + 2) - 1);
    let c = r.next(30);
    let one = |s: String| vec![s];
    match c {
        0 => one(format!(
            "START {}",
            r.pick(&["5", "6", "7", "9", "15", "20", "32", "4", "33"])
        )),
        1 => one(format!(
            "RECTSTART {},{}",
            r.pick(&["5", "7", "20", "32"]),
            r.pick(&["5", "9", "15", "32"])
        )),
        2 => one("RESTART".into()),
        3 => one("BEGIN".into()),
        4..=8 => one(format!("TURN {}", xy(r))),
        9 | 16 => {
            let mut v = vec![if c == 9 { "BOARD" } else { "YXBOARD" }.to_string()];
            for _ in 0..r.next(12) {
                let f = r.pick(&["1", "2", "1", "2", "3"]);
                v.push(format!("{},{f}", xy(r)));
            }
            v.push("DONE".into());
            v
        }
        10 => one(format!(
            "INFO rule {}",
            r.pick(&["0", "1", "4", "8", "9", "2", "3", "12"])
        )),
        11 => one(format!(
            "INFO timeout_turn {}",
            r.pick(&["0", "1", "5", "10", "20"])
        )),
        12 => one(format!("TAKEBACK {}", xy(r))),
        13 => one(format!("PLAY {}", xy(r))),
        14 => {
            let mut v = vec!["SWAP2BOARD".to_string()];
            for _ in 0..[0, 3, 5, 2][r.next(4) as usize] {
                v.push(xy(r));
            }
            v.push("DONE".into());
            v
        }
        15 => one("YXSHOWFORBID".into()),
        17 => one("STOP".into()),
        18 => one(format!(
            "INFO max_memory {}",
            r.pick(&["0", "1", "1000000", "367001600"])
        )),
        19 => one(format!(
            "INFO time_left {}",
            r.pick(&["-1000", "0", "50", "2147483647"])
        )),
        20 => one(format!(
            "INFO timeout_match {}",
            r.pick(&["0", "1000", "100000"])
        )),
        21 => one("YXSHOWINFO".into()),
        22 => one(format!("INFO max_depth {}", r.pick(&["0", "1", "3"]))),
        23 => one("YXHASHCLEAR".into()),
        24 => one("ABOUT".into()),
        25 => one(format!(
            "INFO max_node {}",
            r.pick(&["0", "1", "100", "10000"])
        )),
        _ => one(format!("TURN {},{}", r.next(n as u64), r.next(n as u64))),
    }
}

#[test]
fn random_command_sequences_never_kill_the_engine() {
    for seed in 1..=12u64 {
        let mut r = Lcg(seed);
        let mut e = Engine::binary();
        e.send("INFO timeout_turn 5");
        let mut sent = Vec::new();
        for _ in 0..150 {
            let n = [5, 7, 9, 15, 20, 32][r.next(6) as usize];
            let cmd = random_command(&mut r, n);
            e.send_all(&cmd);
            sent.extend(cmd);
        }
        e.send("SENTINEL_4471");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(l) = e.try_line(left) else {
                panic!(
                    "seed {seed}: no sentinel reply; alive {}; input {sent:?}; stderr:\n{}",
                    e.is_running(),
                    e.stderr_text()
                );
            };
            if l.starts_with("UNKNOWN") && l.contains("SENTINEL_4471") {
                break;
            }
            assert!(well_formed(&l), "seed {seed}: stray line {l:?}");
        }
        assert!(
            !e.stderr_text().contains("panicked"),
            "seed {seed}: {}",
            e.stderr_text()
        );
        e.end();
    }
}

#[test]
fn garbage_never_kills_the_engine() {
    let mut e = Engine::binary();
    let garbage: Vec<Vec<u8>> = [
        "",
        " ",
        "\t",
        ",",
        ",,",
        "1,2",
        "1,2,3",
        "-1,-1",
        "x",
        "TURN",
        "TURN ,",
        "TURN 1,",
        "TURN ,1",
        "TURN 99999999999999999999,1",
        "TURN -9223372036854775807,0",
        "TURN 9007199254740993,0",
        "START 2147483648",
        "START -9223372036854775807",
        "START 1e3",
        "START 0x10",
        "START +15",
        "RECTSTART 0,0",
        "RECTSTART ,",
        "RECTSTART 5,",
        "RESTART",
        "RESTART now",
        "BEGIN",
        "BEGIN 1",
        "DONE",
        "INFO",
        "INFO rule",
        "INFO rule -1",
        "INFO rule 99999999999999999999",
        "INFO rule 16",
        "INFO timeout_turn -5",
        "INFO timeout_turn 99999999999999999",
        "INFO max_memory -1",
        "INFO time_left abc",
        "INFO max_depth -3",
        "INFO max_node 0",
        "TAKEBACK",
        "TAKEBACK -1,-1",
        "PLAY",
        "PLAY 1,1",
        "STOP",
        "YXSTOP",
        "YXSHOWFORBID",
        "YXSHOWINFO",
        "YXHASHCLEAR",
        "YXSHOWHASHUSAGE",
        "ＳＴＡＲＴ 15",
        "START 15 15",
        "ABOUT please",
        "\u{1b}[2J",
        "\u{0}\u{0}\u{0}",
        "BOARD",
        "1,1,1",
        "DONE",
        "YXBOARD",
        "garbage",
        "DONE",
        "SWAP2BOARD",
        "1,1,1",
        "DONE",
        "SWAP2BOARD",
        "DONE",
        "BOARD",
        "START 15",
        "BOARD",
        "BOARD",
        "DONE",
        "END_OF_LINE",
        "ENDLESS",
        "INFO rule 2",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .chain([
        b"\xff\xff\xff".to_vec(),
        b"TURN \xff,1".to_vec(),
        b"START \x00\x01".to_vec(),
        "9".repeat(5000).into_bytes(),
    ])
    .collect();
    for g in &garbage {
        let mut bytes = g.clone();
        bytes.push(b'\n');
        e.send_raw(&bytes);
    }
    // a sentinel, to know when the garbage has been read
    e.send("SENTINEL_7311");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let l = e.line(deadline.saturating_duration_since(Instant::now()));
        if l.starts_with("UNKNOWN") && l.contains("SENTINEL_7311") {
            break;
        }
    }
    assert!(e.is_running(), "the engine exited on garbage");
    e.start(15);
    e.send("INFO timeout_turn 200");
    e.send("INFO rule 0");
    let m = e.move_after("BEGIN");
    assert!(on_board(m, 15, 15));
    assert!(!e.stderr_text().contains("panicked"), "{}", e.stderr_text());
    e.end();
}
