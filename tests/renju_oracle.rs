//! Renju forbidden points against the referee's judge: `tests/data/renju_forbidden.txt` holds
//! about 400 positions with every forbidden point and its reason, recorded from the
//! Gomocup referee's algorithm (regenerate with `tests/data/gen_renju_fixtures.py`).

use rensa::board::{Board, Color, Pos};
use rensa::rules::Rule;

struct Case {
    name: String,
    size: usize,
    black: Vec<(usize, usize)>,
    white: Vec<(usize, usize)>,
    forbidden: Vec<(usize, usize, String)>,
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
        match word {
            "case" => {
                cur = Some(Case {
                    name: rest.to_string(),
                    size: 15,
                    black: vec![],
                    white: vec![],
                    forbidden: vec![],
                })
            }
            "size" => cur.as_mut().unwrap().size = rest.parse().unwrap(),
            "black" => cur.as_mut().unwrap().black = rest.split_whitespace().map(coords).collect(),
            "white" => cur.as_mut().unwrap().white = rest.split_whitespace().map(coords).collect(),
            "forbidden" => {
                cur.as_mut().unwrap().forbidden = rest
                    .split_whitespace()
                    .map(|t| {
                        let (p, why) = t.split_once(':').expect("point:reason");
                        let (x, y) = coords(p);
                        (x, y, why.to_string())
                    })
                    .collect()
            }
            "end" => cases.push(cur.take().expect("case before end")),
            other => panic!("unexpected line start '{other}'"),
        }
    }
    cases
}

#[test]
fn forbidden_points_match_the_referee() {
    let cases = parse(include_str!("data/renju_forbidden.txt"));
    assert!(cases.len() >= 400, "only {} cases", cases.len());
    let mut points = 0;
    for case in &cases {
        let mut b = Board::new(case.size, case.size, Rule::Renju);
        for &(x, y) in &case.black {
            b.put(Pos::new(x, y), Color::Black);
        }
        for &(x, y) in &case.white {
            b.put(Pos::new(x, y), Color::White);
        }
        b.set_side(Color::Black);
        let mut got = Vec::new();
        for y in 0..case.size {
            for x in 0..case.size {
                let p = Pos::new(x, y);
                if !b.is_empty(p) {
                    continue;
                }
                let foul = b.foul(p);
                // the fast path (pattern tables, exact check only where needed) agrees
                assert_eq!(
                    b.is_forbidden(p),
                    foul.is_some(),
                    "case {}: fast and exact verdicts differ at {x},{y}",
                    case.name
                );
                assert_eq!(b.is_legal(p), foul.is_none());
                if let Some(f) = foul {
                    got.push((x, y, f.name().to_string()));
                }
            }
        }
        assert_eq!(got, case.forbidden, "case {}", case.name);
        points += got.len();
    }
    assert!(points > 500);
}

#[test]
fn white_is_never_restricted() {
    let cases = parse(include_str!("data/renju_forbidden.txt"));
    for case in cases.iter().take(50) {
        let mut b = Board::new(case.size, case.size, Rule::Renju);
        for &(x, y) in &case.black {
            b.put(Pos::new(x, y), Color::Black);
        }
        for &(x, y) in &case.white {
            b.put(Pos::new(x, y), Color::White);
        }
        b.set_side(Color::White);
        for &(x, y, _) in &case.forbidden {
            assert!(b.is_legal(Pos::new(x, y)), "case {}", case.name);
        }
    }
}
