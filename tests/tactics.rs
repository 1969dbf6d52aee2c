//! Tactics suite: `tests/data/tactics.txt` holds positions over freestyle, standard and
//! renju where the side to move has a forced win by VCF (every winning first move listed)
//! or exactly one move that stops the opponent's VCF.  The verdicts come from the
//! exhaustive threat solver in `tests/data/gen_tactics.py` (regenerate with
//! `python3 tests/data/gen_tactics.py [/path/to/renju.py] > tests/data/tactics.txt`).
//!
//! Every position is searched at two node budgets (never a time budget, so the result does
//! not depend on the machine).  A position is solved when the engine's move is one of the
//! recorded answers.  Run with `--nocapture` to see one line per position and the summary.
//!
//! `tests/data/tactics_vct.txt` adds wins by VCT (threes and fours, no VCF: every winning
//! first move listed) and the only moves that stop the opponent's VCT, from the independent
//! solver in `tests/data/gen_tactics_vct.py`.  `scripts/tactics_time.py` runs both files
//! through the binary at a fixed time per move instead.

use rensa::board::{Board, Color, Pos};
use rensa::rules::Rule;
use rensa::search::{Limits, SearchControl, Searcher};

const DATA: &str = include_str!("data/tactics.txt");
/// Forced wins by VCT (threes and fours) and single defences against the opponent's VCT,
/// from `tests/data/gen_tactics_vct.py`.
const DATA_VCT: &str = include_str!("data/tactics_vct.txt");

/// Node budgets: about 100 ms and about 1 s of search on a slow machine.
const SMALL: u64 = 20_000;
const LARGE: u64 = 200_000;
/// Solved at the larger budget must not fall below this (a little under today's count).
const FLOOR_LARGE: usize = 186;

mod fixture;

struct Case {
    name: String,
    rule: Rule,
    to_move: Color,
    kind: String,
    answers: Vec<(usize, usize)>,
    record: fixture::Record,
}

fn parse(text: &str) -> Vec<Case> {
    fixture::records(text)
        .into_iter()
        .map(|r| {
            let rule = match r.value("rule") {
                "0" => Rule::Freestyle,
                "1" => Rule::Standard,
                "4" => Rule::Renju,
                x => panic!("{}: unknown rule {x}", r.name),
            };
            let to_move = match r.value("tomove") {
                "black" => Color::Black,
                "white" => Color::White,
                s => panic!("{}: bad side {s}", r.name),
            };
            Case {
                name: r.name.clone(),
                rule,
                to_move,
                kind: r.value("kind").to_string(),
                answers: r.points("answers"),
                record: r,
            }
        })
        .collect()
}

fn build(c: &Case) -> Board {
    c.record.position(c.rule, c.to_move)
}

fn fmt(p: Option<Pos>) -> String {
    match p {
        Some(p) => format!("{},{}", p.x(), p.y()),
        None => "none".to_string(),
    }
}

/// The file itself: consistent positions and legal answers.
fn check_consistent(cases: &[Case]) {
    for c in cases {
        assert!(
            matches!(c.kind.as_str(), "vcf" | "vct" | "defend" | "avoid"),
            "{}: kind '{}'",
            c.name,
            c.kind
        );
        assert!(!c.answers.is_empty(), "{}: no answers", c.name);
        let diff = c.record.points("black").len() as i64 - c.record.points("white").len() as i64;
        let expect = if diff == 0 {
            Color::Black
        } else {
            Color::White
        };
        assert!(diff == 0 || diff == 1, "{}: stone counts", c.name);
        assert_eq!(
            c.to_move, expect,
            "{}: side to move vs stone counts",
            c.name
        );
        let b = build(c);
        assert_eq!(b.side(), c.to_move);
        for &(x, y) in &c.answers {
            assert!(
                x < c.record.size() && y < c.record.size(),
                "{}: answer {x},{y} off the board",
                c.name
            );
            assert!(
                b.is_legal(Pos::new(x, y)),
                "{}: answer {x},{y} is not legal",
                c.name
            );
        }
    }
}

#[test]
fn tactics_suite() {
    let mut cases = parse(DATA);
    cases.extend(parse(DATA_VCT));
    assert!(cases.len() >= 100, "only {} positions", cases.len());

    check_consistent(&cases);

    // every search starts from cleared tables, so the cases split over threads freely and
    // each gives the same answer as alone
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4);
    let mut results: Vec<(usize, (String, [bool; 2]))> = std::thread::scope(|scope| {
        let cases = &cases;
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                scope.spawn(move || {
                    let mut searcher = Searcher::new(16 << 20);
                    (w..cases.len())
                        .step_by(workers)
                        .map(|i| (i, solve(&mut searcher, &cases[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a tactics worker"))
            .collect()
    });
    results.sort_by_key(|r| r.0);
    let results: Vec<(String, [bool; 2])> = results.into_iter().map(|r| r.1).collect();
    let mut solved = [0usize; 2];
    // (rule, kind) -> [total, solved small, solved large]
    let mut groups: Vec<((Rule, String), [usize; 3])> = Vec::new();
    for (c, (line, ok)) in cases.iter().zip(&results) {
        println!("{line}");
        for k in 0..2 {
            solved[k] += ok[k] as usize;
        }
        let key = (c.rule, c.kind.clone());
        let g = match groups.iter_mut().find(|(k, _)| *k == key) {
            Some(g) => g,
            None => {
                groups.push((key, [0; 3]));
                groups.last_mut().unwrap()
            }
        };
        g.1[0] += 1;
        g.1[1] += ok[0] as usize;
        g.1[2] += ok[1] as usize;
    }
    for ((rule, kind), [n, a, b]) in &groups {
        println!(
            "  {:<9} {:<6} {n:>3} positions, solved at 20k: {a:>3}, at 200k: {b:>3}",
            rule.name(),
            kind
        );
    }
    let n = cases.len();
    println!(
        "solved at {}k: {}/{n}, at {}k: {}/{n}",
        SMALL / 1000,
        solved[0],
        LARGE / 1000,
        solved[1]
    );
    assert!(
        solved[1] >= FLOOR_LARGE.min(n),
        "tactics regression: solved {} at {}k nodes, floor {FLOOR_LARGE}",
        solved[1],
        LARGE / 1000
    );
}

/// One case at both budgets: its report line and whether each solved it.
fn solve(searcher: &mut Searcher, c: &Case) -> (String, [bool; 2]) {
    let b = build(c);
    let mut line = format!("{:<18} {:<9} {:<6}", c.name, c.rule.name(), c.kind);
    let mut ok = [false; 2];
    let mut pv = String::new();
    for (k, &nodes) in [SMALL, LARGE].iter().enumerate() {
        searcher.clear();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let r = searcher.think(&b, &limits, &SearchControl::default(), &mut |_| {});
        ok[k] = r.best.is_some_and(|p| c.answers.contains(&(p.x(), p.y())));
        pv =
            r.pv.iter()
                .take(7)
                .map(|&p| fmt(Some(p)))
                .collect::<Vec<_>>()
                .join(" ");
        line += &format!(
            "  {}k: {:<7} {:<4} score {:>6} nodes {:>7}",
            nodes / 1000,
            fmt(r.best),
            if ok[k] { "ok" } else { "MISS" },
            r.score,
            r.nodes
        );
    }
    (format!("{line}  pv {pv}"), ok)
}

/// The suites from lost games (`tests/data/gen_tactics_losses.py`, and
/// `gen_tactics_avoid.py`'s longer losses judged by long searches) are measured through the
/// binary only (`scripts/tactics_time.py`), but their positions are checked here.
#[test]
fn loss_suites_are_well_formed() {
    for (file, text, at_least) in [
        (
            "tactics_losses.txt",
            include_str!("data/tactics_losses.txt"),
            150,
        ),
        (
            "tactics_losses_fs20.txt",
            include_str!("data/tactics_losses_fs20.txt"),
            60,
        ),
        (
            "tactics_losses_r2_fs15.txt",
            include_str!("data/tactics_losses_r2_fs15.txt"),
            45,
        ),
        (
            "tactics_losses_r2_renju.txt",
            include_str!("data/tactics_losses_r2_renju.txt"),
            45,
        ),
        (
            "tactics_avoid.txt",
            include_str!("data/tactics_avoid.txt"),
            50,
        ),
        (
            "tactics_avoid_2.txt",
            include_str!("data/tactics_avoid_2.txt"),
            50,
        ),
    ] {
        let cases = parse(text);
        assert!(
            cases.len() >= at_least,
            "{file}: only {} positions",
            cases.len()
        );
        check_consistent(&cases);
        for c in cases.iter().filter(|c| c.kind == "avoid") {
            // the game's losing move and any other judged lost: legal, and never an answer
            let losing = c.record.points("losing");
            assert!(!losing.is_empty(), "{}: no losing move", c.name);
            let b = build(c);
            for &(x, y) in &losing {
                assert!(b.is_legal(Pos::new(x, y)), "{}: {x},{y} not legal", c.name);
                assert!(!c.answers.contains(&(x, y)), "{}: {x},{y} both", c.name);
            }
        }
    }
}
