//! Tactics suite: `tests/data/tactics.txt` holds positions over freestyle, standard and
//! renju where the side to move has a forced win by VCF (every winning first move listed)
//! or exactly one move that stops the opponent's VCF.  The verdicts come from the
//! exhaustive threat solver in `tests/data/gen_tactics.py` (regenerate with
//! `python3 tests/data/gen_tactics.py [/path/to/renju.py] > tests/data/tactics.txt`).
//!
//! Every position is searched at two node budgets (never a time budget, so the result does
//! not depend on the machine).  A position is solved when the engine's move is one of the
//! recorded answers.  Run with `--nocapture` to see one line per position and the summary.

use rensa::board::{Board, Color, Pos};
use rensa::rules::Rule;
use rensa::search::{Limits, Searcher};

const DATA: &str = include_str!("data/tactics.txt");

/// Node budgets: about 100 ms and about 1 s of search on a slow machine.
const SMALL: u64 = 20_000;
const LARGE: u64 = 200_000;
/// Solved at the larger budget must not fall below this (a little under today's count).
const FLOOR_LARGE: usize = 114;

struct Case {
    name: String,
    rule: Rule,
    size: usize,
    black: Vec<(usize, usize)>,
    white: Vec<(usize, usize)>,
    to_move: Color,
    kind: String,
    answers: Vec<(usize, usize)>,
}

fn coords(s: &str) -> (usize, usize) {
    let (x, y) = s.split_once(',').expect("x,y");
    (x.parse().expect("x"), y.parse().expect("y"))
}

fn parse(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if word == "case" {
            assert!(cur.is_none(), "case {rest} inside another case");
            cur = Some(Case {
                name: rest.to_string(),
                rule: Rule::Freestyle,
                size: 15,
                black: vec![],
                white: vec![],
                to_move: Color::Black,
                kind: String::new(),
                answers: vec![],
            });
            continue;
        }
        if word == "end" {
            cases.push(cur.take().expect("case before end"));
            continue;
        }
        let c = cur
            .as_mut()
            .unwrap_or_else(|| panic!("'{line}' outside a case"));
        match word {
            "rule" => {
                c.rule = match rest {
                    "0" => Rule::Freestyle,
                    "1" => Rule::Standard,
                    "4" => Rule::Renju,
                    r => panic!("{}: unknown rule {r}", c.name),
                }
            }
            "size" => c.size = rest.parse().expect("size"),
            "black" => c.black = rest.split_whitespace().map(coords).collect(),
            "white" => c.white = rest.split_whitespace().map(coords).collect(),
            "tomove" => {
                c.to_move = match rest {
                    "black" => Color::Black,
                    "white" => Color::White,
                    s => panic!("{}: bad side {s}", c.name),
                }
            }
            "kind" => c.kind = rest.to_string(),
            "answers" => c.answers = rest.split_whitespace().map(coords).collect(),
            other => panic!("unexpected line start '{other}'"),
        }
    }
    assert!(cur.is_none(), "unterminated case");
    cases
}

fn build(c: &Case) -> Board {
    let mut b = Board::new(c.size, c.size, c.rule);
    for &(x, y) in &c.black {
        assert!(
            x < c.size && y < c.size,
            "{}: black stone off the board",
            c.name
        );
        b.put(Pos::new(x, y), Color::Black);
    }
    for &(x, y) in &c.white {
        assert!(
            x < c.size && y < c.size,
            "{}: white stone off the board",
            c.name
        );
        assert!(
            b.is_empty(Pos::new(x, y)),
            "{}: two stones on {x},{y}",
            c.name
        );
        b.put(Pos::new(x, y), Color::White);
    }
    b.set_side(c.to_move);
    b
}

fn fmt(p: Option<Pos>) -> String {
    match p {
        Some(p) => format!("{},{}", p.x(), p.y()),
        None => "none".to_string(),
    }
}

#[test]
fn tactics_suite() {
    let cases = parse(DATA);
    assert!(cases.len() >= 100, "only {} positions", cases.len());

    // The file itself: consistent positions and legal answers.
    for c in &cases {
        assert!(
            matches!(c.kind.as_str(), "vcf" | "defend"),
            "{}: kind '{}'",
            c.name,
            c.kind
        );
        assert!(!c.answers.is_empty(), "{}: no answers", c.name);
        let diff = c.black.len() as i64 - c.white.len() as i64;
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
                x < c.size && y < c.size,
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

    let mut searcher = Searcher::new(16 << 20);
    let mut solved = [0usize; 2];
    // (rule, kind) -> [total, solved small, solved large]
    let mut groups: Vec<((Rule, String), [usize; 3])> = Vec::new();
    for c in &cases {
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
            let r = searcher.think(&b, &limits, &|| false, &mut |_| {});
            ok[k] = r.best.is_some_and(|p| c.answers.contains(&(p.x(), p.y())));
            if ok[k] {
                solved[k] += 1;
            }
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
        println!("{line}  pv {pv}");
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
