//! The protocol session in-process: replies as a manager reads them, no process, no pipes.

use rensa::engine::Engine;
use rensa::protocol::{Flow, Session};

fn run(lines: &[&str]) -> Vec<String> {
    let mut s = Session::new(Engine::new(), Vec::new());
    for l in lines {
        assert_eq!(s.handle_line(l), Flow::Continue, "{l}");
    }
    String::from_utf8(s.output().clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn every_finished_iteration_gets_a_message_before_the_move() {
    let out = run(&[
        "START 15",
        "INFO max_depth 5",
        "INFO timeout_turn 100000",
        "BOARD",
        "7,7,2",
        "8,8,1",
        "6,7,2",
        "DONE",
    ]);
    assert_eq!(out[0], "OK");
    let (msgs, rest) = out[1..].split_at(out.len() - 2);
    assert_eq!(rest.len(), 1);
    assert!(
        rest[0].split(',').all(|n| n.parse::<u32>().is_ok()),
        "{out:?}"
    );
    // depths 1..=5 in order, then the summary of the whole search
    let depths: Vec<&str> = msgs
        .iter()
        .map(|m| {
            assert!(m.starts_with("MESSAGE depth "), "{m}");
            m["MESSAGE depth ".len()..].split('-').next().unwrap()
        })
        .collect();
    assert_eq!(depths, ["1", "2", "3", "4", "5", "5"], "{out:?}");
}

use rensa::protocol::Event;
use std::time::{Duration, Instant};

/// The reply lines of a session so far.
fn lines_of(s: &Session<Vec<u8>>) -> Vec<String> {
    String::from_utf8(s.output().clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The move replies (`x,y`) of a session so far.
fn moves_of(s: &Session<Vec<u8>>) -> Vec<String> {
    lines_of(s)
        .into_iter()
        .filter(|l| {
            l.split(',').count() == 2 && l.split(',').all(|n| n.trim().parse::<u32>().is_ok())
        })
        .collect()
}

/// A session that has handled `lines`.
fn session_after(lines: &[&str]) -> Session<Vec<u8>> {
    let mut s = Session::new(Engine::new(), Vec::new());
    for l in lines {
        s.handle_line(l);
    }
    s
}

#[test]
fn stop_ends_a_long_think_with_a_move_while_it_runs() {
    let mut s = session_after(&[
        "START 15",
        "INFO timeout_turn 60000",
        "INFO timeout_match 0",
    ]);
    // the input side sends STOP while the session waits for the move
    let tx = s.sender();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        tx.send(Event::Line("STOP".into())).unwrap();
    });
    let t0 = Instant::now();
    assert_eq!(s.handle_line("BEGIN"), Flow::Continue);
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    t.join().unwrap();
    assert_eq!(moves_of(&s).len(), 1, "{:?}", lines_of(&s));
}

#[test]
fn end_while_thinking_quits_at_once_without_a_move() {
    let mut s = session_after(&[
        "START 15",
        "INFO timeout_turn 60000",
        "INFO timeout_match 0",
    ]);
    assert_eq!(s.dispatch(Event::Line("BEGIN".into())), Flow::Continue);
    assert!(s.engine().busy());
    let t0 = Instant::now();
    assert_eq!(s.dispatch(Event::Line("END".into())), Flow::Quit);
    drop(s);
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
}

#[test]
fn input_during_a_think_waits_for_its_move() {
    let mut s = Session::new(Engine::new(), Vec::new());
    for l in ["START 15", "INFO max_depth 4", "INFO timeout_turn 60000"] {
        s.handle_line(l);
    }
    s.dispatch(Event::Line("BEGIN".into()));
    // a TURN read while the engine thinks is served after its move, in order
    s.dispatch(Event::Line("TURN 0,0".into()));
    s.dispatch(Event::Line("ABOUT".into()));
    s.handle_line("INFO max_depth 4");
    let lines: Vec<String> = lines_of(&s)
        .into_iter()
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[1].contains(',') && lines[2].contains(','),
        "{lines:?}"
    );
    assert!(lines[3].starts_with("name="), "{lines:?}");
}

#[test]
fn pondering_answers_the_expected_move_and_drops_a_wrong_guess() {
    let mut s = Session::new(Engine::new(), Vec::new());
    for l in [
        "START 15",
        "INFO timeout_turn 500",
        "INFO timeout_match 0",
        "INFO pondering 1",
        "BOARD",
        "7,7,2",
        "8,8,1",
        "7,8,2",
        "DONE",
    ] {
        s.handle_line(l);
    }
    // after its move the engine ponders on the reply it expects
    assert!(s.engine().busy() && s.engine().pondering());
    let (x, y) = expected_reply(&s);
    std::thread::sleep(Duration::from_millis(600));
    // the expected move: answered at once, it pondered longer than the turn
    let t0 = Instant::now();
    s.handle_line(&format!("TURN {x},{y}"));
    assert!(
        t0.elapsed() < Duration::from_millis(300),
        "{:?}",
        t0.elapsed()
    );
    assert_eq!(moves_of(&s).len(), 2, "{:?}", lines_of(&s));
    // another move: the ponder search is dropped and a new one answers
    let free = (0..15)
        .flat_map(|x| (0..15).map(move |y| (x, y)))
        .find(|&(x, y)| s.engine().board().is_empty(rensa::board::Pos::new(x, y)))
        .unwrap();
    s.handle_line(&format!("TURN {},{}", free.0, free.1));
    assert_eq!(moves_of(&s).len(), 3, "{:?}", lines_of(&s));
    assert_eq!(s.engine().board().stone_count(), 3 + 5);
    // INFO about the clock leaves the ponder search running
    s.handle_line("INFO time_left 100000");
    assert!(s.engine().pondering());
    assert_eq!(s.handle_line("END"), Flow::Quit);
}

#[test]
fn a_stop_also_stops_the_searches_of_commands_read_before_it() {
    let mut s = session_after(&[
        "START 15",
        "INFO timeout_turn 60000",
        "INFO timeout_match 0",
    ]);
    let t0 = Instant::now();
    s.dispatch(Event::Line("BEGIN".into()));
    s.dispatch(Event::Line("TURN 0,0".into()));
    s.dispatch(Event::Line("STOP".into()));
    s.dispatch(Event::Line("ABOUT".into()));
    s.handle_line("INFO max_depth 3");
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    assert_eq!(moves_of(&s).len(), 2, "{:?}", lines_of(&s));
    assert!(lines_of(&s).last().unwrap().starts_with("name="));
    // a later search is not stopped
    s.handle_line("TURN 0,1");
    assert!(lines_of(&s)
        .iter()
        .any(|l| l.starts_with("MESSAGE depth 3-")));
}

/// A session pondering after its move in a 3-stone position.
fn pondering_session(extra: &[&str]) -> Session<Vec<u8>> {
    let mut s = Session::new(Engine::new(), Vec::new());
    for l in ["START 15", "INFO timeout_turn 5000", "INFO pondering 1"] {
        s.handle_line(l);
    }
    for l in extra {
        s.handle_line(l);
    }
    for l in ["BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE"] {
        s.handle_line(l);
    }
    assert!(s.engine().pondering());
    s
}

/// The opponent's move the last summary expects.
fn expected_reply(s: &Session<Vec<u8>>) -> (i64, i64) {
    let pv = lines_of(s)
        .into_iter()
        .rev()
        .find(|l| l.starts_with("MESSAGE depth"))
        .unwrap();
    let guess = pv.split(" pv ").nth(1).unwrap().split(' ').nth(1).unwrap();
    (
        (guess.as_bytes()[0] - b'a') as i64,
        guess[1..].parse::<i64>().unwrap() - 1,
    )
}

#[test]
fn the_end_of_input_ends_a_ponder_search() {
    let mut s = pondering_session(&[]);
    // blank lines, unknown commands and ABOUT leave it pondering
    s.handle_line("");
    s.handle_line("FOO");
    s.handle_line("ABOUT");
    assert!(s.engine().pondering());
    let t0 = Instant::now();
    assert_eq!(s.dispatch(Event::Closed), Flow::Quit);
    assert!(!s.engine().busy());
    assert!(t0.elapsed() < Duration::from_secs(2));
}

#[test]
fn with_a_depth_limit_the_expected_move_is_searched_anew() {
    let mut s = pondering_session(&["INFO max_depth 3"]);
    let (x, y) = expected_reply(&s);
    std::thread::sleep(Duration::from_millis(200));
    s.handle_line(&format!("TURN {x},{y}"));
    let last = lines_of(&s)
        .into_iter()
        .rev()
        .find(|l| l.starts_with("MESSAGE depth"))
        .unwrap();
    let depth: i32 = last["MESSAGE depth ".len()..]
        .split('-')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(depth <= 3, "{last}");
}

/// The move's clock runs from the moment its command arrived, not from when the session got
/// to it: a DONE that arrived 59.8 s into a 60 s turn (the session was busy, or the machine
/// stalled) gets a move at once, where the same position searched fresh runs for most of
/// the minute (it has no forced line to settle on).
#[test]
fn a_command_that_waited_is_answered_on_the_time_left() {
    let mut s = session_after(&[
        "START 15",
        "INFO timeout_turn 60000",
        "INFO timeout_match 0",
        "BOARD",
        "7,7,1",
        "6,8,1",
        "8,7,2",
        "7,9,2",
    ]);
    let t0 = Instant::now();
    let arrived = t0 - Duration::from_millis(59_800);
    s.dispatch(Event::Received("DONE".into(), arrived));
    assert_eq!(s.handle_line("ABOUT"), Flow::Continue);
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    assert_eq!(moves_of(&s).len(), 1, "{:?}", lines_of(&s));
}

/// Renju, black to move, and the one empty cell (3,0) would make black an overline: the
/// foul is played (a loss by the rules) rather than no move (a loss on time).
#[test]
fn black_with_only_forbidden_cells_plays_the_foul() {
    const ROWS: [&str; 7] = [
        "XXX.XXO", "OOXOOXO", "XXOXOOX", "XXOXOOX", "OXOXXXX", "OOXOXXO", "OOOOXOO",
    ];
    let mut lines = vec![
        "START 7".to_string(),
        "INFO rule 4".to_string(),
        "INFO timeout_turn 1000".to_string(),
        "BOARD".to_string(),
    ];
    for (y, row) in ROWS.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            // Rensa plays black here: its stones are field 1
            match c {
                'X' => lines.push(format!("{x},{y},1")),
                'O' => lines.push(format!("{x},{y},2")),
                _ => {}
            }
        }
    }
    lines.push("DONE".to_string());
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = run(&lines);
    assert_eq!(out.last().map(String::as_str), Some("3,0"), "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("ERROR")), "{out:?}");
}

/// A SWAP2BOARD step in-process, searched to a fixed depth: the answer line.
fn swap2_answer(stones: &[(i64, i64)]) -> String {
    let mut lines = vec![
        "INFO rule 1",
        "START 15",
        "INFO timeout_turn 20000",
        "INFO max_depth 6",
    ];
    let cells: Vec<String> = stones.iter().map(|(x, y)| format!("{x},{y}")).collect();
    lines.push("SWAP2BOARD");
    lines.extend(cells.iter().map(String::as_str));
    lines.push("DONE");
    let out = run(&lines);
    assert_eq!(out[0], "OK");
    out.last().cloned().unwrap_or_default()
}

#[test]
fn swap2_takes_black_when_black_is_better_and_stays_white_when_white_is() {
    // black's three stones scattered to the corners, white's in the centre: white stays
    let r = swap2_answer(&[(0, 0), (7, 7), (14, 14)]);
    assert!(r != "SWAP" && r.split(',').count() == 2, "{r:?}");
    // black's open three in the centre, white's stones in the corners: black is far better
    assert_eq!(
        swap2_answer(&[(7, 7), (0, 0), (8, 7), (0, 14), (9, 7)]),
        "SWAP"
    );
    // black's stones in three corners, white's two in the centre: white stays and plays
    let r = swap2_answer(&[(0, 0), (7, 7), (14, 0), (8, 8), (0, 14)]);
    assert!(r != "SWAP" && r.split(',').count() == 2, "{r:?}");
}
