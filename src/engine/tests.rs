use super::memory::RESERVED_BYTES;
use super::*;
use std::time::Instant;

/// The cell x,y.
fn c(x: i64, y: i64) -> Pos {
    Pos::at(x, y).expect("a cell")
}

#[test]
fn set_position_infers_colours() {
    let mut e = Engine::new();
    e.new_game(15, 15, Rule::Freestyle);
    let me = e
        .set_position(&[
            (c(7, 7), Owner::Opponent),
            (c(8, 8), Owner::Own),
            (c(6, 6), Owner::Opponent),
        ])
        .unwrap();
    assert_eq!(me, Color::White);
    assert_eq!(e.board().side(), Color::White);
    assert_eq!(e.board().stone(Pos::new(7, 7)), Some(Color::Black));
    // a set-up puzzle: more stones of ours than any game gives; we still move
    let me = e
        .set_position(&[(c(1, 1), Owner::Own), (c(2, 2), Owner::Own)])
        .unwrap();
    assert_eq!(me, Color::Black);
    assert_eq!(e.board().side(), Color::Black);
    let me = e
        .set_position(&[(c(1, 1), Owner::Opponent), (c(2, 2), Owner::Opponent)])
        .unwrap();
    assert_eq!(me, Color::White);
    assert_eq!(e.board().stone(Pos::new(2, 2)), Some(Color::Black));
    // a duplicate is an error, and the old position stays
    assert_eq!(
        e.set_position(&[(c(1, 1), Owner::Own), (c(1, 1), Owner::Opponent)]),
        Err(MoveError::Duplicate(Pos::new(1, 1)))
    );
}

#[test]
fn takeback_only_the_last_stone() {
    let mut e = Engine::new();
    e.new_game(15, 15, Rule::Freestyle);
    e.play(c(7, 7)).unwrap();
    e.play(c(8, 8)).unwrap();
    assert_eq!(
        e.takeback(c(7, 7)),
        Err(MoveError::NotLastMove(Pos::new(7, 7)))
    );
    e.takeback(c(8, 8)).unwrap();
    assert_eq!(e.board().stone_count(), 1);
    assert_eq!(e.board().side(), Color::White);
}

/// Limits of a search bound by depth (and a generous clock).
fn depth(d: i32) -> ThinkLimits {
    ThinkLimits {
        clock: turn(600_000),
        max_depth: Some(d),
        max_nodes: None,
    }
}

fn turn(ms: u64) -> Clock {
    Clock {
        turn_ms: ms,
        match_ms: 0,
        left_ms: None,
        increment_ms: 0,
    }
}

/// Starts `task` and collects its reports until it ends.
fn run_job(e: &mut Engine, task: Task, stop_at_once: bool) -> Vec<Report> {
    let (tx, rx) = std::sync::mpsc::channel();
    e.start(task, move |r| {
        let _ = tx.send(r);
    });
    if stop_at_once {
        e.stop();
    }
    let mut out = Vec::new();
    for r in rx.iter() {
        let done = matches!(r, Report::Done(_) | Report::Failed(_));
        out.push(r);
        if done {
            break;
        }
    }
    e.wait();
    out
}

#[test]
fn a_job_runs_on_the_engine_thread_and_stops_on_request() {
    let mut e = Engine::new();
    e.new_game(15, 15, Rule::Freestyle);
    e.play(c(7, 7)).unwrap();
    let long = ThinkLimits {
        clock: turn(60_000),
        max_depth: None,
        max_nodes: None,
    };
    let t0 = Instant::now();
    let reports = run_job(
        &mut e,
        Task::Think {
            limits: long,
            nbest: 1,
        },
        true,
    );
    assert!(
        t0.elapsed().as_secs() < 5,
        "a stopped search took {:?}",
        t0.elapsed()
    );
    match reports.last() {
        Some(Report::Done(Answer::Move(r))) => assert!(r.best.is_some()),
        other => panic!("{other:?}"),
    }
    assert!(!e.busy() && !e.has_job());
    // the next job is not stopped, and reports every iteration before its answer
    let reports = run_job(
        &mut e,
        Task::Think {
            limits: depth(3),
            nbest: 1,
        },
        false,
    );
    let depths: Vec<i32> = reports
        .iter()
        .filter_map(|r| match r {
            Report::Iteration(it) => Some(it.depth),
            _ => None,
        })
        .collect();
    assert_eq!(depths, [1, 2, 3]);
    // the position is the engine's own: unchanged by a search
    assert_eq!(e.board().stone_count(), 1);
}

#[test]
fn nbest_reports_distinct_moves_best_first() {
    let mut e = Engine::new();
    e.new_game(15, 15, Rule::Freestyle);
    e.play(c(7, 7)).unwrap();
    e.play(c(8, 8)).unwrap();
    let reports = run_job(
        &mut e,
        Task::Think {
            limits: depth(3),
            nbest: 3,
        },
        false,
    );
    let lines: Vec<Pos> = reports
        .iter()
        .filter_map(|r| match r {
            Report::Line(_, r) => r.best,
            _ => None,
        })
        .collect();
    assert_eq!(lines.len(), 3, "{reports:?}");
    // one search to one depth: the lines come best first
    let scores: Vec<Score> = reports
        .iter()
        .filter_map(|r| match r {
            Report::Line(_, r) => Some(r.score),
            _ => None,
        })
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // every iteration reports each line, the best first
    let firsts = reports
        .iter()
        .filter(|r| matches!(r, Report::Iteration(it) if it.line == 0))
        .count();
    let thirds = reports
        .iter()
        .filter(|r| matches!(r, Report::Iteration(it) if it.line == 2))
        .count();
    assert_eq!(firsts, 3, "{reports:?}");
    assert_eq!(thirds, 3, "{reports:?}");
    assert!(lines[0] != lines[1] && lines[1] != lines[2] && lines[0] != lines[2]);
    match reports.last() {
        Some(Report::Done(Answer::Move(r))) => assert_eq!(r.best, Some(lines[0])),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_ponder_search_waits_for_its_hit_then_keeps_the_clock() {
    let mut e = Engine::new();
    e.new_game(15, 15, Rule::Freestyle);
    e.play(c(7, 7)).unwrap();
    e.play(c(8, 8)).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    e.start(
        Task::Ponder {
            guess: Pos::new(6, 6),
        },
        move |r| {
            let _ = tx.send(r);
        },
    );
    // no time limit: it is still thinking after a while
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(e.busy() && e.pondering());
    e.play(c(6, 6)).unwrap();
    let t0 = Instant::now();
    e.ponder_hit(&ThinkLimits {
        clock: turn(400),
        max_depth: None,
        max_nodes: None,
    });
    assert!(!e.pondering());
    let done = rx
        .iter()
        .find(|r| matches!(r, Report::Done(_)))
        .expect("an answer");
    // 300 ms pondered count towards the move: it answers within the turn
    assert!(t0.elapsed().as_millis() < 400, "{:?}", t0.elapsed());
    match done {
        Report::Done(Answer::Move(r)) => {
            let p = r.best.expect("a move");
            assert!(e.board().is_empty(p));
        }
        other => panic!("{other:?}"),
    }
    e.wait();
}

#[test]
fn threads_search_together_and_agree_on_a_forced_move() {
    let mut e = Engine::new();
    let plan = e.set_threads(3);
    assert_eq!(e.threads(), 3);
    // as many run as this machine's CPUs allow
    assert_eq!(plan.threads, 3.min(Engine::max_threads()));
    e.new_game(15, 15, Rule::Freestyle);
    // black has an open three on row 7: white must block one end or lose
    for (x, y) in [(5, 7), (0, 0), (6, 7), (0, 14), (7, 7)] {
        e.play(c(x, y)).unwrap();
    }
    let r = e.think(&depth(6), &mut |_| {});
    let p = r.best.unwrap();
    assert!(
        [(4, 7), (8, 7), (3, 7), (9, 7)].contains(&(p.x(), p.y())),
        "{p:?}"
    );
    // the memory limit counts the helpers' tables
    let plan = e.set_memory_limit(40 << 20);
    let helpers = (plan.threads as u64 - 1) * crate::search::THREAD_BYTES;
    assert!(e.tt_limit() as u64 <= (40 << 20) - RESERVED_BYTES - helpers);
    assert!(plan.total_bytes() <= 40 << 20);
}

#[test]
fn swap2_steps_answer_on_the_engine_thread() {
    let mut e = Engine::new();
    e.new_game(15, 15, Rule::Standard);
    let fast = ThinkLimits {
        clock: turn(600),
        max_depth: Some(4),
        max_nodes: None,
    };
    match e.swap2(&[], &fast, true).unwrap() {
        Swap2Answer::Opening(ps) => {
            assert_eq!(e.board().stone_count(), 3);
            assert!(ps.iter().all(|&p| !e.board().is_empty(p)));
        }
        other => panic!("{other:?}"),
    }
    // three stones: a swap, a move (played) or two stones (played)
    let a = e.swap2(&[c(7, 7), c(8, 7), c(7, 9)], &fast, true).unwrap();
    let stones = e.board().stone_count();
    match a {
        Swap2Answer::Swap => assert_eq!(stones, 3),
        Swap2Answer::Move(_) => assert_eq!(stones, 4),
        Swap2Answer::Two(w, b) => {
            assert_eq!(stones, 5);
            assert_ne!(w, b);
        }
        other => panic!("{other:?}"),
    }
    assert!(e.swap2(&[c(7, 7)], &fast, true).is_err());
}

#[test]
fn balance_places_stones_that_leave_it_even() {
    let mut e = Engine::new();
    e.new_game(15, 15, Rule::Freestyle);
    e.play(c(7, 7)).unwrap();
    let t = ThinkLimits {
        clock: turn(1_000),
        max_depth: Some(3),
        max_nodes: None,
    };
    let reports = run_job(
        &mut e,
        Task::Balance {
            stones: 2,
            bias: 0,
            limits: t,
        },
        false,
    );
    match reports.last() {
        Some(Report::Done(Answer::Balance(stones, v))) => {
            assert_eq!(stones.len(), 2);
            assert!(v.abs() < 400, "{v}");
        }
        other => panic!("{other:?}"),
    }
    // the stones are played: black to move again
    assert_eq!(e.board().stone_count(), 3);
    assert_eq!(e.board().side(), Color::White);
}

#[test]
fn memory_limit_sizes_the_table() {
    let mut e = Engine::new();
    // nothing large before the first search
    assert!(e.tt_bytes() <= 1 << 20);
    e.set_memory_limit(350 << 20);
    assert!(e.tt_bytes() <= 1 << 20);
    assert!(e.tt_limit() as u64 <= (350u64 << 20) - RESERVED_BYTES);
    assert!(e.tt_limit() >= 128 << 20);
    // a search with a depth limit grows the table to its limit at once
    e.new_game(15, 15, Rule::Freestyle);
    e.play(c(7, 7)).unwrap();
    e.think(&depth(2), &mut |_| {});
    assert!(e.tt_bytes() >= 128 << 20);
    assert!(e.tt_bytes() <= e.tt_limit());
    // a lower limit gives memory back at once
    e.set_memory_limit(40 << 20);
    assert!(e.tt_bytes() <= 16 << 20);
    assert!(e.tt_limit() <= 16 << 20);
}

#[test]
fn the_table_grows_by_what_the_clock_allows() {
    let mut e = Engine::new();
    e.set_memory_limit(350 << 20);
    e.new_game(15, 15, Rule::Freestyle);
    e.play(c(7, 7)).unwrap();
    let short = ThinkLimits {
        clock: turn(130),
        max_depth: None,
        max_nodes: None,
    };
    e.think(&short, &mut |_| {});
    // 5 % of 100 ms at no more than a few GB/s
    assert!(e.tt_bytes() <= 32 << 20, "{} bytes", e.tt_bytes());
    // a depth limit takes the whole table, whatever the clock: the same result on any
    // machine
    let deep = ThinkLimits {
        max_depth: Some(2),
        ..short
    };
    e.think(&deep, &mut |_| {});
    assert!(e.tt_bytes() >= 128 << 20, "{} bytes", e.tt_bytes());
}

#[test]
fn an_empty_boards_move_is_known_without_a_search() {
    let mut e = Engine::new();
    e.set_memory_limit(350 << 20);
    for rule in [Rule::Freestyle, Rule::Renju, Rule::Caro] {
        for (w, h) in [(15, 15), (20, 20), (6, 9)] {
            e.new_game(w, h, rule);
            let r = e.think(
                &ThinkLimits {
                    clock: turn(1000),
                    max_depth: None,
                    max_nodes: None,
                },
                &mut |_| panic!("no iteration on an empty board"),
            );
            assert_eq!(r.best, Some(e.board().center()), "{rule:?} {w}x{h}");
            assert_eq!((r.nodes, r.depth), (0, 0));
        }
    }
    // nor does the table grow on its clock
    assert!(e.tt_bytes() <= 1 << 20, "{} bytes", e.tt_bytes());
    // a blocked centre: the legal cell nearest it
    e.new_game(15, 15, Rule::Freestyle);
    e.block(&[c(7, 7)]).unwrap();
    let r = e.think(&depth(3), &mut |_| {});
    let p = r.best.unwrap();
    assert_eq!(e.board().centre_distance2(p), 1, "{p:?}");
    // a wall changes the lines: the board is searched
    e.clear_blocked();
    e.set_position(&[(c(0, 0), Owner::Blocked)]).unwrap();
    let r = e.think(&depth(2), &mut |_| {});
    assert!(r.nodes > 0);
}

#[test]
fn an_opening_step_thinks_a_bounded_total_under_an_unlimited_turn() {
    // Yixin-Board's unlimited level: a 2,000 s turn; Soosorv's first step searches the 26
    // openings and one more
    let t = ThinkLimits {
        clock: Clock {
            turn_ms: 2_000_000,
            match_ms: 100_000_000,
            left_ms: Some(100_000_000),
            increment_ms: 0,
        },
        max_depth: None,
        max_nodes: None,
    };
    let step = task::step_limits(&t);
    let each = task::limits_for(&Board::new(15, 15, Rule::Renju), &task::share_of(&step, 27));
    assert!(27 * each.hard_ms.unwrap() <= task::STEP_MAX_MS, "{each:?}");
    // a turn under the bound is the step's whole time, as before
    let short = ThinkLimits {
        clock: turn(5000),
        ..t
    };
    assert_eq!(task::step_limits(&short).clock.turn_ms, 5000);
}
