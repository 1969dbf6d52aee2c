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
