//! Regression tests for what the fuzzer (`tests/fuzz.rs`) and the soak (`scripts/soak.py`)
//! found, one test per bug.

use rensa::board::Pos;
use rensa::search::time::{budget, Clock};

/// A session that has handled `lines`, one by one.
fn session_after(lines: &[&str]) -> rensa::protocol::Session<Vec<u8>> {
    let mut s = rensa::protocol::Session::new(rensa::engine::Engine::new(), Vec::new());
    for l in lines {
        s.handle_line(l);
    }
    s
}

/// The engine API takes any `u64` turn time: the soft limit (85 % of the hard one) overflowed
/// for turns above about 2^64 / 85 ms and panicked in debug builds.
#[test]
fn a_huge_turn_time_gives_a_budget_not_an_overflow() {
    for turn_ms in [u64::MAX, u64::MAX / 85 + 1, 1 << 60] {
        let b = budget(
            &Clock {
                turn_ms,
                match_ms: 0,
                left_ms: None,
                increment_ms: 0,
            },
            25,
            200,
        );
        assert!(b.soft_ms <= b.hard_ms && b.hard_ms <= turn_ms, "{b:?}");
        assert!(b.soft_ms >= b.hard_ms / 100 * 84, "{b:?}");
    }
}

/// A block kept every stone line until DONE: a BOARD block of a few million lines took
/// hundreds of MiB. No board has more than 1024 cells, so no valid block has more lines.
#[test]
fn a_block_keeps_at_most_one_line_per_cell() {
    use rensa::engine::Engine;
    use rensa::protocol::Session;
    let mut s = Session::new(Engine::new(), Vec::new());
    s.handle_line("RECTSTART 32,32");
    s.handle_line("YXBOARD");
    for i in 0..1024 {
        // a full 32x32 board, 512 stones each, is still a valid block
        s.handle_line(&format!("{},{},{}", i % 32, i / 32, 1 + (i + i / 32) % 2));
    }
    s.handle_line("DONE");
    assert_eq!(s.engine().board().stone_count(), 1024);
    s.handle_line("YXBOARD");
    for _ in 0..1025 {
        s.handle_line("1,1,1");
    }
    s.handle_line("DONE");
    let out = String::from_utf8(s.output().clone()).unwrap();
    assert_eq!(out, "OK\nERROR YXBOARD: more than 1024 stone lines\n");
    assert_eq!(s.engine().board().stone_count(), 1024);
}

/// The same through the binary: its peak memory stays small under millions of block lines.
#[cfg(target_os = "linux")]
#[test]
fn the_binary_does_not_grow_with_a_long_block() {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"START 15\nBOARD\n").unwrap();
    let chunk = "1,1,1\n".repeat(100_000);
    for _ in 0..30 {
        stdin.write_all(chunk.as_bytes()).unwrap();
    }
    // ABOUT ends the block (with an ERROR) and answers once every line before it is read
    stdin.write_all(b"ABOUT\n").unwrap();
    stdin.flush().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("name=") {
        let n = stdout.read(&mut buf).unwrap();
        assert!(n > 0, "output ended: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let hwm_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap();
    stdin.write_all(b"END\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    // 3 million lines kept as stones took about 130 MiB
    assert!(hwm_kib < 48 << 10, "peak RSS {hwm_kib} KiB");
}

/// The reader thread read ahead without limit: 100 MB of input sent during a search were
/// all kept until the search ended (175 MiB resident). Now it reads at most a few MiB ahead.
#[cfg(target_os = "linux")]
#[test]
fn input_sent_during_a_search_does_not_grow_memory() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin
            .write_all(b"START 15\nINFO timeout_turn 1500\nBEGIN\n")
            .unwrap();
        let line = format!("INFO folder {}\n", "x".repeat(1000));
        let chunk = line.repeat(1000);
        for _ in 0..60 {
            stdin.write_all(chunk.as_bytes()).unwrap();
        }
        stdin.write_all(b"ABOUT\n").unwrap();
        stdin
    });
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    loop {
        let mut l = String::new();
        assert!(out.read_line(&mut l).unwrap() > 0, "output ended: {seen:?}");
        if l.starts_with("name=") {
            break;
        }
        seen.push(l);
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let hwm_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap();
    let mut stdin = writer.join().unwrap();
    stdin.write_all(b"END\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert!(
        seen.iter()
            .any(|l| l.trim().split(',').count() == 2 && !l.starts_with("MESSAGE")),
        "no move in {seen:?}"
    );
    // 60 MB queued took about 110 MiB before the limit
    assert!(hwm_kib < 48 << 10, "peak RSS {hwm_kib} KiB");
}

/// Taking back a stone of a position set up out of playing order (BOARD lines may come in any
/// order) left the hash encoding the wrong side to move: the board failed its consistency
/// check, and the transposition table mixed the two sides' positions.
#[test]
fn takeback_after_a_set_up_position_keeps_the_hash_right() {
    use rensa::engine::{Engine, Owner};
    use rensa::rules::Rule;
    let mut e = Engine::new();
    e.new_game(15, 15, Rule::Freestyle);
    // the fuzzer's case: two own stones, a puzzle no game reaches
    e.set_position(&[(Pos::new(0, 0), Owner::Own), (Pos::new(0, 1), Owner::Own)])
        .unwrap();
    e.takeback(Pos::new(0, 1)).unwrap();
    e.board().check_consistency().unwrap();
    // a game position listed own stones first
    let mut s = session_after(&[
        "START 15", "YXBOARD", "7,7,1", "8,8,1", "7,8,2", "8,7,2", "6,6,2", "DONE",
    ]);
    s.handle_line("TAKEBACK 6,6");
    assert_eq!(String::from_utf8_lossy(s.output()), "OK\nOK\n");
    s.engine().board().check_consistency().unwrap();
    // the same stones played in order give the same hash
    let mut e = Engine::new();
    e.new_game(15, 15, Rule::Freestyle);
    for (x, y) in [(7, 8), (7, 7), (8, 7), (8, 8)] {
        e.play(Pos::new(x, y)).unwrap();
    }
    assert_eq!(e.board().hash(), s.engine().board().hash());
    assert_eq!(e.board().side(), s.engine().board().side());
}

/// A BOARD with a blocked cell (field 3) listed after a stone: taking that stone back
/// restored cell data saved before the wall, so the board's threat data forgot the wall.
/// Found by the engine API fuzzer (seed 2004).
#[test]
fn takeback_of_a_stone_listed_before_a_wall_keeps_the_wall() {
    use rensa::engine::{Engine, Owner};
    use rensa::rules::Rule;
    let mut e = Engine::new();
    e.new_game(21, 19, Rule::Freestyle);
    e.set_position(&[
        (Pos::new(0, 0), Owner::Own),
        (Pos::new(0, 1), Owner::Blocked),
    ])
    .unwrap();
    e.takeback(Pos::new(0, 0)).unwrap();
    e.board().check_consistency().unwrap();
    // through the protocol: the stone listed first, then the wall; Rensa moves, and both
    // stones are taken back
    let mut s = session_after(&[
        "START 15",
        "INFO max_depth 2",
        "BOARD",
        "7,7,2",
        "7,8,3",
        "DONE",
    ]);
    let out = String::from_utf8_lossy(s.output()).into_owned();
    let mv = out.lines().last().unwrap().to_string();
    s.handle_line(&format!("TAKEBACK {mv}"));
    s.handle_line("TAKEBACK 7,7");
    assert!(String::from_utf8_lossy(s.output()).ends_with("OK\nOK\n"));
    assert_eq!(s.engine().board().stone_count(), 0);
    s.engine().board().check_consistency().unwrap();
}

/// A blocked cell (BOARD field 3) with empty cells beyond it made every line through it
/// "dead" in the pattern tables (such windows were thought impossible), so a renju foul next
/// to it passed as legal and the search played it. Found by the protocol fuzzer (seed 4060).
#[test]
fn a_wall_inside_a_line_keeps_renju_fouls_forbidden() {
    let setup = "INFO max_node 118\nINFO max_depth 1\nSTART 11\nINFO rule 4\nYXBOARD\n\
                 8,7,1\n5,7,1\n7,5,1\n8,6,2\n9,7,2\n6,7,1\n7,7,2\n9,9,1\n6,5,1\n6,9,3\nDONE";
    let mut s = session_after(&setup.lines().collect::<Vec<_>>());
    let b = s.engine().board();
    let p = rensa::board::Pos::new(6, 6);
    assert!(
        b.foul(p).is_some() && !b.is_legal(p),
        "6,6 is a double-three"
    );
    s.handle_line("BEGIN");
    let out = String::from_utf8_lossy(s.output()).into_owned();
    let mv = out.lines().last().unwrap();
    assert_ne!(mv, "6,6", "{out}");
    s.engine().board().check_consistency().unwrap();
}
