//! Engine API fuzzer (issue 13): random calls with arbitrary arguments on
//! `rensa::engine::Engine`. After every call the board must pass its own consistency check
//! (incremental data against a fresh recomputation); a refused call must leave the position
//! as it was; a think must leave the board alone and return a legal move whenever one exists.
//! `RENSA_FUZZ_CASES` and `RENSA_FUZZ_SEED` as in `tests/fuzz.rs`.

mod fuzz_support;

use fuzz_support::{cases, runner};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rensa::board::Pos;
use rensa::engine::{Engine, Owner, ThinkLimits};
use rensa::rules::Rule;
use rensa::search::time::{budget, Clock};

fn clock(turn_ms: u64, match_ms: u64, left_ms: Option<i64>) -> Clock {
    Clock {
        turn_ms,
        match_ms,
        left_ms,
        increment_ms: 0,
    }
}
use std::sync::atomic::{AtomicU64, Ordering};

// ---------------------------------------------------------------------------------------------

/// One call on [`Engine`] with arbitrary arguments (sizes only within `size_supported`, the
/// documented precondition of `new_game`).
#[derive(Clone, Debug)]
enum Call {
    NewGame(i64, i64, usize),
    SetRule(usize),
    Play(i64, i64),
    Takeback(i64, i64),
    TakebackLast,
    SetPosition(Vec<(i64, i64, u8)>),
    SetAlternating(Vec<(i64, i64)>),
    Block(Vec<(i64, i64)>),
    Unblock(Vec<(i64, i64)>),
    ClearBlocked,
    Memory(u64),
    Threads(usize),
    ClearHash,
    /// Search limits; the hard limit is always set, so every think ends.
    Think(Option<i32>, Option<u64>, u64, u64),
    /// A protocol clock turned into limits (any values), then a think at most 10 ms long.
    Clock(u64, u64, Option<i64>),
    Swap2(Vec<(i64, i64)>, u64),
    Forbidden,
}

fn cell() -> impl Strategy<Value = (i64, i64)> {
    prop_oneof![9 => (-1i64..33, -1i64..33), 1 => (any::<i64>(), any::<i64>())]
}

fn call() -> impl Strategy<Value = Call> {
    let cells = |n| prop::collection::vec(cell(), 0..n);
    prop_oneof![
        2 => (0i64..40, 0i64..40, 0usize..5).prop_map(|(w, h, r)| Call::NewGame(w, h, r)),
        1 => (0usize..5).prop_map(Call::SetRule),
        8 => cell().prop_map(|(x, y)| Call::Play(x, y)),
        2 => cell().prop_map(|(x, y)| Call::Takeback(x, y)),
        2 => Just(Call::TakebackLast),
        2 => prop::collection::vec((-1i64..33, -1i64..33, 0u8..3), 0..30).prop_map(Call::SetPosition),
        1 => cells(8).prop_map(Call::SetAlternating),
        1 => cells(6).prop_map(Call::Block),
        1 => cells(6).prop_map(Call::Unblock),
        1 => Just(Call::ClearBlocked),
        1 => prop_oneof![0u64..(64 << 20), any::<u64>()].prop_map(Call::Memory),
        1 => prop_oneof![0usize..70, any::<usize>()].prop_map(Call::Threads),
        1 => Just(Call::ClearHash),
        4 => (prop::option::of(-2i32..5), prop::option::of(0u64..3000), 0u64..10, 0u64..10)
            .prop_map(|(d, n, s, h)| Call::Think(d, n, s, h)),
        2 => (any::<u64>(), any::<u64>(), prop::option::of(any::<i64>()))
            .prop_map(|(t, m, l)| Call::Clock(t, m, l)),
        1 => (cells(6), 0u64..20).prop_map(|(s, t)| Call::Swap2(s, t)),
        1 => Just(Call::Forbidden),
    ]
}

/// The cells of a list, `None` when one is off the largest board.
fn cells_of(list: &[(i64, i64)]) -> Option<Vec<Pos>> {
    list.iter().map(|&(x, y)| Pos::at(x, y)).collect()
}

/// Applies one call and checks its result against the board before and after.
fn apply(e: &mut Engine, c: &Call) -> Result<(), String> {
    let before = e.board().clone();
    let unchanged =
        |e: &Engine| e.board().hash() == before.hash() && e.board().ply() == before.ply();
    match c {
        &Call::NewGame(w, h, r) => {
            let ok = (5..=32).contains(&w) && (5..=32).contains(&h);
            if Engine::size_supported(w, h) != ok {
                return Err(format!("size_supported({w}, {h}) is not {ok}"));
            }
            if ok {
                e.new_game(w as usize, h as usize, Rule::ALL[r]);
            }
        }
        &Call::SetRule(r) => e.set_rule(Rule::ALL[r]),
        &Call::Play(x, y) => {
            let legal = before.on_board(x, y) && before.is_empty(Pos::new(x as usize, y as usize));
            match e.cell(x, y).and_then(|p| e.play(p)) {
                Ok(_) if !legal => return Err(format!("play({x}, {y}) accepted")),
                Err(_) if legal => return Err(format!("play({x}, {y}) refused")),
                Ok(_) if e.board().stone_count() != before.stone_count() + 1 => {
                    return Err("play added no stone".into())
                }
                Err(_) if !unchanged(e) => return Err("a refused play changed the board".into()),
                _ => {}
            }
        }
        &Call::Takeback(x, y) => {
            if e.cell(x, y).and_then(|p| e.takeback(p)).is_err() && !unchanged(e) {
                return Err("a refused takeback changed the board".into());
            }
        }
        Call::TakebackLast => {
            if let Some((p, _)) = before.history().iter().rev().find(|(p, _)| !p.is_none()) {
                e.takeback(*p).map_err(|m| format!("takeback: {m}"))?;
                if e.board().stone_count() + 1 != before.stone_count() {
                    return Err("takeback removed no stone".into());
                }
            }
        }
        Call::SetPosition(stones) => {
            let owners = [Owner::Own, Owner::Opponent, Owner::Blocked];
            // cells off the largest board never reach the engine (the protocol refuses them)
            let s: Option<Vec<_>> = stones
                .iter()
                .map(|&(x, y, o)| Some((Pos::at(x, y)?, owners[o as usize])))
                .collect();
            if s.is_none_or(|s| e.set_position(&s).is_err()) && !unchanged(e) {
                return Err("a refused set_position changed the board".into());
            }
        }
        Call::SetAlternating(s) => {
            if cells_of(s).is_none_or(|s| e.set_alternating(&s).is_err()) && !unchanged(e) {
                return Err("a refused set_alternating changed the board".into());
            }
        }
        Call::Block(cells) => {
            if let Some(c) = cells_of(cells) {
                let _ = e.block(&c);
            }
        }
        Call::Unblock(cells) => {
            if let Some(c) = cells_of(cells) {
                let _ = e.unblock(&c);
            }
        }
        Call::ClearBlocked => e.clear_blocked(),
        &Call::Memory(m) => {
            let plan = e.set_memory_limit(m);
            // (below the reserve plus a small table nothing fits; the engine does its best)
            if m >= 26 << 20 && plan.total_bytes() > m {
                return Err(format!("plan {plan:?} over max_memory {m}"));
            }
        }
        &Call::Threads(n) => {
            let plan = e.set_threads(n);
            if plan.threads < 1 || plan.threads > n.max(1) || plan.threads > Engine::max_threads() {
                return Err(format!("{n} threads asked for: {plan:?}"));
            }
        }
        Call::ClearHash => e.clear_hash(),
        &Call::Think(depth, nodes, soft, hard) => {
            // (the engine API takes a clock: soft is covered by the budget's own tests)
            let _ = soft;
            let limits = ThinkLimits {
                clock: clock(hard, 0, None),
                max_depth: depth,
                max_nodes: nodes,
            };
            think_checked(e, &limits)?;
        }
        &Call::Clock(turn_ms, match_ms, left_ms) => {
            let b = e.board();
            let empties = b.cell_count() - b.stone_count();
            let budget = budget(&clock(turn_ms, match_ms, left_ms), b.stone_count(), empties);
            let (soft, hard) = (budget.soft_ms, budget.hard_ms);
            if soft > hard || (turn_ms > 0 && hard > turn_ms.max(10)) {
                return Err(format!("budget soft {soft} hard {hard} for turn {turn_ms}"));
            }
            let limits = ThinkLimits {
                clock: clock(turn_ms.min(40), match_ms, left_ms),
                max_depth: None,
                max_nodes: Some(5000),
            };
            think_checked(e, &limits)?;
        }
        Call::Swap2(stones, turn_ms) => {
            let t = ThinkLimits {
                clock: clock(*turn_ms, 0, None),
                max_depth: None,
                max_nodes: Some(2000),
            };
            if let Some(stones) = cells_of(stones) {
                let _ = e.swap2(&stones, &t, true);
            }
        }
        Call::Forbidden => {
            for p in e.forbidden_points() {
                if !e.board().is_empty(p) || e.board().foul(p).is_none() {
                    return Err(format!("{p:?} listed as forbidden"));
                }
            }
        }
    }
    e.board()
        .check_consistency()
        .map_err(|m| format!("after {c:?}: {m}"))
}

/// A think must leave the board as it was and return a legal move whenever one exists.
fn think_checked(e: &mut Engine, limits: &ThinkLimits) -> Result<(), String> {
    let before = e.board().clone();
    let r = e.think(limits, &mut |_| {});
    if e.board().hash() != before.hash() {
        return Err("think changed the board".into());
    }
    let any_legal = before.empty_cells().any(|p| before.is_legal(p));
    match r.best {
        None if any_legal => Err("no move though a legal one exists".into()),
        Some(p) if !before.is_legal(p) => Err(format!("think chose the illegal {p:?}")),
        Some(p)
            if e.blocked().contains(&p)
                && before
                    .empty_cells()
                    .any(|q| before.is_legal(q) && !e.blocked().contains(&q)) =>
        {
            Err(format!("think chose the blocked {p:?}"))
        }
        _ => Ok(()),
    }
}

#[test]
fn engine_api_survives_random_calls() {
    let n = cases(40);
    let calls = AtomicU64::new(0);
    let result = runner(n).run(&prop::collection::vec(call(), 1..60), |seq| {
        let mut e = Engine::new();
        e.set_memory_limit(25 << 20);
        for c in &seq {
            apply(&mut e, c).map_err(TestCaseError::fail)?;
        }
        calls.fetch_add(seq.len() as u64, Ordering::Relaxed);
        Ok(())
    });
    eprintln!("engine fuzz: {n} sequences, {} calls", calls.into_inner());
    if let Err(e) = result {
        panic!("{e}");
    }
}
