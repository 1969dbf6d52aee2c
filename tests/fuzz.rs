//! Protocol fuzzer (issue 13): random and mutated command sequences against the protocol
//! session in-process, and random lines piped into the binary (`tests/fuzz_engine.rs` fuzzes the
//! engine API).
//!
//! Properties, for every sequence: no panic; no line takes longer than the longest think it can
//! ask for (no hang); a bounded amount of output per line; every reply
//! line well-formed (a move, a swap2 answer, `OK`, `ERROR …`, `UNKNOWN …`, `MESSAGE …`,
//! `FORBID ….`, the ABOUT line) with no control characters; every searched move on the board,
//! on an empty cell, off the YXBLOCK cells while others are open, and not a renju foul for
//! black (checked with the crate's own rules: a consistency check; `scripts/soak.py` judges
//! games independently); the board's incremental data consistent after TAKEBACK and at the
//! end; and afterwards `START 15` + `BEGIN` answers a legal move.
//!
//! `cargo test` runs a few hundred sequences (seconds). For a long campaign:
//!
//! ```text
//! RENSA_FUZZ_CASES=200000 RENSA_FUZZ_SEED=7 cargo test --test fuzz --test fuzz_engine -- --nocapture
//! ```
//!
//! It prints the lines run and lines per second. A failure prints the shrunk sequence.

use fuzz_support::{cases, runner};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestCaseError;
use rensa::board::{Board, Color, Pos};
use rensa::engine::Engine;
use rensa::protocol::{Flow, Session, ABOUT};
use rensa::rules::Rule;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Output allowed for one input line: a think prints one MESSAGE per iteration (four with
/// `show_detail`), each with its PV, and iterations are few at the limits the fuzzer sets.
const MAX_OUTPUT_PER_LINE: usize = 1 << 20;

/// Time allowed for one line: the longest think a sequence can ask for is the default 5 s turn
/// (when no INFO set a shorter one); the rest is slack for a loaded machine.
const MAX_LINE_TIME: std::time::Duration = std::time::Duration::from_secs(15);

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// A number as a manager (or an attacker) might write it.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (-3i64..40).prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec![
            "9007199254740992", "-9007199254740993", "9223372036854775807",
            "-9223372036854775808", "99999999999999999999999", "2147483647", "-2147483648",
            "", " ", "abc", "1e3", "0x10", "+5", "-0", "١٥", "15 15", "15,15", "1.5", "∞",
            "NaN", "15\u{0}", "\u{feff}15",
        ])
        .prop_map(str::to_string),
    ]
}

/// A board coordinate: mostly on or just off a board, sometimes anything.
fn coord() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (-2i64..34).prop_map(|n| n.to_string()),
        1 => number(),
    ]
}

fn pair() -> impl Strategy<Value = String> {
    prop_oneof![
        10 => (coord(), coord()).prop_map(|(x, y)| format!("{x},{y}")),
        1 => (coord(), coord()).prop_map(|(x, y)| format!(" {x} , {y} ")),
        1 => (coord(), coord(), coord()).prop_map(|(x, y, z)| format!("{x},{y},{z}")),
        1 => coord(),
        1 => (coord(), coord()).prop_map(|(x, y)| format!("{x} {y}")),
    ]
}

/// A value for an INFO key. Time and node values stay small so thinks stay cheap; memory
/// values stay at or below the 64 MiB default but for the odd huge one.
fn info_line() -> impl Strategy<Value = String> {
    let small = prop_oneof![
        4 => (-5i64..30).prop_map(|n| n.to_string()),
        // not numbers at all, or too big for one: never a long think (a filter on `number()`
        // rejected so many that a long campaign aborted on proptest's reject limit)
        1 => prop::sample::select(vec![
            "99999999999999999999999", "9223372036854775808", "-9223372036854775809", "", " ",
            "abc", "1e3", "0x10", "١٥", "15 15", "15,15", "1.5", "∞", "NaN", "15\u{0}",
            "\u{feff}15",
        ])
        .prop_map(str::to_string),
    ];
    let memory = prop_oneof![
        3 => prop::sample::select(vec![0i64, 1, 1000, 24 << 20, 25 << 20, 40 << 20, -1])
            .prop_map(|n| n.to_string()),
        1 => number(),
    ];
    prop_oneof![
        2 => small.clone().prop_map(|v| format!("INFO timeout_turn {v}")),
        1 => small.clone().prop_map(|v| format!("INFO timeout_match {v}")),
        2 => number().prop_map(|v| format!("INFO time_left {v}")),
        1 => memory.prop_map(|v| format!("INFO max_memory {v}")),
        1 => (0i64..30000).prop_map(|v| format!("INFO hash_size {v}")),
        3 => prop_oneof![(-2i64..17).prop_map(|n| n.to_string()), number()]
            .prop_map(|v| format!("INFO rule {v}")),
        1 => small.clone().prop_map(|v| format!("INFO max_depth {v}")),
        1 => prop_oneof![(-2i64..3000).prop_map(|n| n.to_string()), number()]
            .prop_map(|v| format!("INFO max_node {v}")),
        1 => number().prop_map(|v| format!("INFO show_detail {v}")),
        1 => number().prop_map(|v| format!("INFO game_type {v}")),
        1 => ".{0,30}".prop_map(|v| format!("INFO folder {v}")),
        1 => prop::sample::select(vec![
            "INFO", "INFO ", "info TIMEOUT_TURN 5", "INFO evaluate 3,3", "INFO thread_num 8",
            "INFO pondering 1", "INFO usedatabase 1", "INFO caution_factor 3",
        ])
        .prop_map(str::to_string),
        1 => ("[a-z_]{1,12}", number()).prop_map(|(k, v)| format!("INFO {k} {v}")),
    ]
}

fn start_line() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (5i64..33).prop_map(|n| format!("START {n}")),
        2 => (5i64..33, 5i64..33).prop_map(|(w, h)| format!("RECTSTART {w},{h}")),
        1 => (5i64..33, 5i64..33).prop_map(|(w, h)| format!("START {w} {h}")),
        2 => number().prop_map(|n| format!("START {n}")),
        1 => prop::sample::select(vec![
            "START 0", "START 4", "START 33", "START -1", "START 15 15", "START 15,15",
            "START", "RECTSTART 15", "RECTSTART 15,15,15", "RECTSTART 4,20", "RECTSTART 20,33",
            "RECTSTART -5,-5", "RECTSTART 99999999999,5", "START 15 15 15", "start 5",
        ])
        .prop_map(str::to_string),
        1 => pair().prop_map(|p| format!("RECTSTART {p}")),
    ]
}

/// A valid block: distinct cells near 7,7 (on every board), in any order, then `DONE`. Such
/// blocks set positions up out of playing order, with walls, for later TAKEBACKs.
fn clean_block() -> impl Strategy<Value = Vec<String>> {
    let cells: Vec<(i64, i64)> = (5..10).flat_map(|x| (5..10).map(move |y| (x, y))).collect();
    let kind = prop::sample::select(vec!["BOARD", "YXBOARD", "SWAP2BOARD", "YXBLOCK"]);
    let field = prop_oneof![4 => Just(1), 4 => Just(2), 1 => Just(3)];
    (
        kind,
        prop::sample::subsequence(cells, 0..12).prop_shuffle(),
        prop::collection::vec(field, 12),
    )
        .prop_map(|(kind, cells, fields)| {
            let mut v = vec![kind.to_string()];
            for (&(x, y), f) in cells.iter().zip(fields) {
                v.push(match kind {
                    "BOARD" | "YXBOARD" => format!("{x},{y},{f}"),
                    _ => format!("{x},{y}"),
                });
            }
            v.push("DONE".into());
            v
        })
}

/// A multi-line block: its opening word, stone lines (some malformed), and usually `DONE`
/// (a missing one leaves the block to the next command).
fn block() -> impl Strategy<Value = Vec<String>> {
    let kind = prop::sample::select(vec![
        "BOARD",
        "YXBOARD",
        "SWAP2BOARD",
        "YXBLOCK",
        "YXBLOCKUNDO",
        "yxsoosorvstep2",
        "yxsoosorvstep3",
        "yxsoosorvstep4 3",
        "yxsoosorvstep5 2",
        "yxsoosorvstep6",
    ]);
    let stone = prop_oneof![
        6 => (-1i64..33, -1i64..33, 0i64..4).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
        4 => (-1i64..33, -1i64..33).prop_map(|(x, y)| format!("{x},{y}")),
        1 => (pair(), coord()).prop_map(|(p, f)| format!("{p},{f}")),
        1 => Just(String::new()),
        1 => garbage(),
        1 => prop::sample::select(vec!["BEGIN", "END", "STOP", "ABOUT", "FOO", "DONE x", "done"])
            .prop_map(str::to_string),
    ];
    (
        kind,
        prop::collection::vec(stone, 0..12),
        prop::bool::weighted(0.85),
    )
        .prop_map(|(kind, stones, done)| {
            let mut v = vec![kind.to_string()];
            v.extend(stones);
            if done {
                v.push("DONE".into());
            }
            v
        })
}

/// Anything a broken pipe or a hostile peer might send: bytes decoded as the binary decodes
/// them (lossy UTF-8), without the line breaks the line splitter would have cut at.
fn garbage() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => prop::collection::vec(any::<u8>(), 0..80)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        2 => any::<String>(),
        1 => "[\\x00-\\x1f\\x7f ]{0,10}",
    ]
    .prop_map(|s| s.replace(['\n', '\r'], " "))
}

/// A valid-looking command with one mutation: a character inserted, deleted or repeated.
fn mutated(base: String) -> impl Strategy<Value = String> {
    let len = base.chars().count().max(1);
    (0..len, 0u8..4, any::<char>()).prop_map(move |(i, how, c)| {
        let mut cs: Vec<char> = base.chars().collect();
        let i = i.min(cs.len());
        match how {
            0 => cs.insert(i, c),
            1 if i < cs.len() => {
                cs.remove(i);
            }
            2 if i < cs.len() => {
                let d = cs[i];
                cs.insert(i, d);
            }
            _ => cs = cs.iter().map(|c| c.to_ascii_lowercase()).collect(),
        }
        cs.into_iter()
            .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
            .collect()
    })
}

/// One step of a sequence: input lines, or an overlong line that the reader dropped.
#[derive(Clone, Debug)]
enum Op {
    Lines(Vec<String>),
    Overlong(usize),
    /// `TAKEBACK` of the last stone on the board (random coordinates rarely hit it).
    TakebackLast,
}

fn simple_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => pair().prop_map(|p| format!("TURN {p}")),
        1 => pair().prop_map(|p| format!("PLAY {p}")),
        1 => pair().prop_map(|p| format!("TAKEBACK {p}")),
        2 => Just("BEGIN".to_string()),
        1 => prop::sample::select(vec![
            "RESTART", "STOP", "YXSTOP", "ABOUT", "YXSHOWFORBID", "YXSHOWINFO", "YXHASHCLEAR",
            "YXSHOWHASHUSAGE", "YXBLOCKRESET", "DONE", "BEGIN now", "SUGGEST", "yxnbest 3",
            "RESTART 1", "about", "YXBOARD x", "SWAP2BOARD 1", "  TURN   3 ,  4  ",
            "yxsoosorvstep1", "yxsearchdefend", "yxswap2step1", "yxsoosorvstep5 0",
        ])
        .prop_map(str::to_string),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        10 => simple_line().prop_map(|l| Op::Lines(vec![l])),
        6 => info_line().prop_map(|l| Op::Lines(vec![l])),
        3 => start_line().prop_map(|l| Op::Lines(vec![l])),
        3 => block().prop_map(Op::Lines),
        3 => clean_block().prop_map(Op::Lines),
        2 => garbage().prop_map(|l| Op::Lines(vec![l])),
        3 => prop_oneof![simple_line(), info_line(), start_line()]
            .prop_flat_map(mutated)
            .prop_map(|l| Op::Lines(vec![l])),
        1 => (0usize..70_000, prop::sample::select(vec!["", "INFO folder ", "TURN 1", "FOO"]))
            .prop_map(|(n, head)| Op::Lines(vec![format!("{head}{}", "9".repeat(n))])),
        1 => (65_537usize..1 << 40).prop_map(Op::Overlong),
        1 => Just(Op::Lines(vec!["END".to_string()])),
        3 => Just(Op::TakebackLast),
    ]
}

/// Settings that keep thinks cheap (a few hundred nodes), sent first in most sequences, so
/// that a campaign runs millions of lines. Later INFO lines may lift the node limit; the
/// turn time stays short.
fn prelude() -> impl Strategy<Value = Vec<String>> {
    (1u64..20, 1u64..400, 1i32..5, 0u8..4).prop_map(|(turn, nodes, depth, which)| {
        let mut v = vec![
            format!("INFO timeout_turn {turn}"),
            "INFO max_memory 26214400".to_string(),
        ];
        if which < 3 {
            v.push(format!("INFO max_node {nodes}"));
        }
        if which < 2 {
            v.push(format!("INFO max_depth {depth}"));
        }
        v
    })
}

fn sequence() -> impl Strategy<Value = (Vec<String>, Vec<Op>)> {
    (
        prop_oneof![19 => prelude(), 1 => Just(vec!["INFO max_node 20000".to_string()])],
        prop::collection::vec(op(), 1..60),
    )
}

// ---------------------------------------------------------------------------------------------
// The session properties
// ---------------------------------------------------------------------------------------------

fn is_move(s: &str) -> Option<(i64, i64)> {
    let (x, y) = s.split_once(',')?;
    let ok = |t: &str| !t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit());
    if ok(x) && ok(y) {
        Some((x.parse().ok()?, y.parse().ok()?))
    } else {
        None
    }
}

/// Whether one output line is a reply form protocol.md lists.
fn well_formed(line: &str) -> bool {
    if line.chars().any(char::is_control) {
        return false;
    }
    let words: Vec<&str> = line.split(' ').collect();
    is_move(line).is_some()
        // three stones of a swap2 opening; two of a swap2 answer or of YXBALANCETWO
        || ((words.len() == 2 || words.len() == 3) && words.iter().all(|w| is_move(w).is_some()))
        || matches!(line, "OK" | "SWAP" | ABOUT)
        || line.starts_with("ERROR ")
        || line.starts_with("UNKNOWN command ")
        || line.starts_with("MESSAGE ")
        || line.strip_prefix("FORBID ").is_some_and(|f| {
            f.ends_with('.')
                && (f.len() - 1) % 4 == 0
                && f[..f.len() - 1].bytes().all(|b| b.is_ascii_digit())
        })
}

/// A move the engine answered must be the stone it now holds last, and must have been
/// legal: on the board, on an empty cell, not a renju foul for black and, for a searched
/// move, off the YXBLOCK cells while open ones remained.
fn check_move(
    after: &Board,
    blocked: &[Pos],
    mv: (i64, i64),
    searched: bool,
) -> Result<(), String> {
    let (x, y) = mv;
    if !after.on_board(x, y) {
        return Err(format!(
            "move {x},{y} off the {}x{} board",
            after.width(),
            after.height()
        ));
    }
    let p = Pos::new(x as usize, y as usize);
    let Some((q, color)) = after.last_move() else {
        return Err(format!("move {x},{y} but the board has no stone"));
    };
    if q != p {
        return Err(format!("move {x},{y} but the last stone is {q:?}"));
    }
    if after.stone_count() == 0 || after.stone(p) != Some(color) {
        return Err(format!("move {x},{y} is not on the board as {color:?}"));
    }
    // the position before the move, only where a rule needs it (a clone is dear)
    let renju_black = color == Color::Black && after.rule() == Rule::Renju;
    if !renju_black && (!searched || blocked.is_empty()) {
        return Ok(());
    }
    let mut before = after.clone();
    before.undo();
    if !before.is_empty(p) {
        return Err(format!("move {x},{y} on an occupied cell"));
    }
    if renju_black && before.foul(p).is_some() {
        return Err(format!(
            "move {x},{y} is a renju foul: {:?}",
            before.foul(p)
        ));
    }
    let open = before
        .empty_cells()
        .any(|c| before.is_legal(c) && !blocked.contains(&c));
    if searched && open && blocked.contains(&p) {
        return Err(format!("move {x},{y} is a blocked cell"));
    }
    Ok(())
}

struct Run {
    session: Session<Vec<u8>>,
    seen: usize,
    quit: bool,
    lines: u64,
}

impl Run {
    /// Feeds one line and checks what it printed.
    fn line(&mut self, line: &str) -> Result<(), String> {
        let blocked = self.session.engine().blocked().to_vec();
        let t = Instant::now();
        let flow = self.session.handle_line(line);
        if t.elapsed() > MAX_LINE_TIME {
            return Err(format!("{line:?} took {:?}", t.elapsed()));
        }
        self.lines += 1;
        let out = self.new_output()?;
        if flow == Flow::Quit {
            self.quit = true;
            return Ok(());
        }
        // the board's incremental data against a recomputation (dear: after TAKEBACK, where
        // undo meets set-up positions, and at the end of a sequence)
        let word = line.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("TAKEBACK") {
            let b = self.session.engine().board();
            b.check_consistency()
                .map_err(|m| format!("after {line:?}: {m}"))?;
        }
        if let Some(mv) = out.last().and_then(|l| is_move(l)) {
            let play = line
                .trim_start()
                .get(..4)
                .is_some_and(|w| w.eq_ignore_ascii_case("PLAY"));
            check_move(self.session.engine().board(), &blocked, mv, !play)?;
        }
        Ok(())
    }

    /// The lines printed since the last call, checked for form and size.
    fn new_output(&mut self) -> Result<Vec<String>, String> {
        let all = self.session.output();
        let new = &all[self.seen..];
        self.seen = all.len();
        if new.len() > MAX_OUTPUT_PER_LINE {
            return Err(format!("{} bytes of output for one line", new.len()));
        }
        if new.is_empty() {
            return Ok(Vec::new());
        }
        let text = std::str::from_utf8(new).map_err(|e| format!("output not UTF-8: {e}"))?;
        if !text.ends_with('\n') {
            return Err(format!("output does not end with a line break: {text:?}"));
        }
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        if let Some(bad) = lines.iter().find(|l| !well_formed(l)) {
            return Err(format!("malformed reply line {bad:?}"));
        }
        Ok(lines)
    }
}

/// Runs one sequence and then the closing check; returns the lines fed.
fn run_sequence(prelude: &[String], ops: &[Op]) -> Result<u64, String> {
    let mut r = Run {
        session: Session::new(Engine::new(), Vec::new()),
        seen: 0,
        quit: false,
        lines: 0,
    };
    let all = prelude
        .iter()
        .map(|l| Op::Lines(vec![l.clone()]))
        .chain(ops.iter().cloned());
    for op in all {
        match op {
            Op::Lines(ls) => {
                for l in &ls {
                    r.line(l)?;
                    if r.quit {
                        return Ok(r.lines);
                    }
                }
            }
            Op::TakebackLast => {
                let last = r
                    .session
                    .engine()
                    .board()
                    .history()
                    .iter()
                    .rev()
                    .find(|m| !m.0.is_none());
                let (x, y) = last.map_or((0, 0), |m| (m.0.x(), m.0.y()));
                r.line(&format!("TAKEBACK {x},{y}"))?;
                if r.quit {
                    return Ok(r.lines);
                }
            }
            Op::Overlong(n) => {
                let flow = r.session.handle_overlong_line(n);
                r.lines += 1;
                let out = r.new_output()?;
                if flow == Flow::Quit || out.len() > 1 {
                    return Err(format!("overlong line: {flow:?}, {out:?}"));
                }
            }
        }
    }
    let b = r.session.engine().board();
    b.check_consistency()
        .map_err(|m| format!("at the end: {m}"))?;
    // whatever came before, a new game still gets a legal move
    r.line("START 15")?;
    let blocked = r.session.engine().blocked().to_vec();
    let stones = r.session.engine().board().stone_count();
    if stones != 0 || r.session.engine().board().width() != 15 {
        return Err(format!("START 15 left a board with {stones} stones"));
    }
    r.session.handle_line("BEGIN");
    r.lines += 1;
    let out = r.new_output()?;
    let mv = out
        .last()
        .and_then(|l| is_move(l))
        .ok_or(format!("BEGIN got {out:?}"))?;
    check_move(r.session.engine().board(), &blocked, mv, true)?;
    if r.session.engine().board().stone_count() != 1 {
        return Err("BEGIN on an empty board left more than one stone".into());
    }
    Ok(r.lines)
}

#[test]
fn protocol_session_survives_hostile_input() {
    let n = cases(150);
    let lines = AtomicU64::new(0);
    let t = Instant::now();
    let result = runner(n).run(&sequence(), |(prelude, ops)| {
        let fed = run_sequence(&prelude, &ops).map_err(TestCaseError::fail)?;
        lines.fetch_add(fed, Ordering::Relaxed);
        Ok(())
    });
    let secs = t.elapsed().as_secs_f64();
    let lines = lines.into_inner();
    eprintln!(
        "protocol fuzz: {n} sequences, {lines} lines in {secs:.1} s ({:.0} lines/s)",
        lines as f64 / secs
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(
        lines >= u64::from(n),
        "only {lines} lines for {n} sequences"
    );
}

// ---------------------------------------------------------------------------------------------
// The binary
// ---------------------------------------------------------------------------------------------

mod common;
mod fuzz_support;

/// A few hundred random lines and raw bytes through the real binary (its line splitter and
/// reader thread included), then a new game must still get a legal move, and END must end
/// the process at once with status 0.
#[test]
fn binary_survives_hostile_input() {
    let mut runner = runner(1);
    let lines = prop::collection::vec(op(), 150..250)
        .new_tree(&mut runner)
        .expect("generating lines")
        .current();
    let raw = prop::collection::vec(any::<u8>(), 2000)
        .new_tree(&mut runner)
        .expect("generating bytes")
        .current();
    let mut e = common::Engine::binary();
    e.send_all(&[
        "INFO timeout_turn 10",
        "INFO max_node 3000",
        "INFO max_memory 26214400",
    ]);
    let mut sent = 0;
    for op in &lines {
        let Op::Lines(ls) = op else { continue };
        for l in ls {
            // END would end the test early; the session fuzz covers it
            let first = l.split_whitespace().next().unwrap_or("");
            if !first.eq_ignore_ascii_case("END") {
                e.send_raw(format!("{l}\n").as_bytes());
                sent += 1;
            }
        }
    }
    let raw: Vec<u8> = raw
        .split(|&b| b == b'\n' || b == b'\r')
        .filter(|l| {
            !String::from_utf8_lossy(l)
                .split_whitespace()
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case("END"))
        })
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    e.send_raw(&raw);
    // close any open block, then a marker to know where the replies to what follows start
    e.send_all(&[
        "",
        "DONE",
        "FUZZMARKER",
        "START 15",
        "INFO timeout_turn 100",
        "BEGIN",
    ]);
    let mut seen = Vec::new();
    loop {
        let l = e.line(std::time::Duration::from_secs(120));
        let done = l == "UNKNOWN command FUZZMARKER";
        seen.push(l);
        if done {
            break;
        }
    }
    assert!(sent >= 150, "only {sent} lines sent");
    if let Some(bad) = seen.iter().find(|l| !well_formed(l)) {
        panic!("malformed reply {bad:?} in {seen:?}");
    }
    assert_eq!(e.reply(common::QUICK), "OK");
    let mv = e.read_move();
    assert!(common::on_board(mv, 15, 15), "{mv:?}");
    let t = Instant::now();
    e.send("END");
    let status = e
        .wait_exit(std::time::Duration::from_secs(5))
        .expect("no exit after END");
    assert!(status.success(), "{status:?}");
    assert!(
        t.elapsed().as_secs_f64() < 2.0,
        "END took {:?}",
        t.elapsed()
    );
}
