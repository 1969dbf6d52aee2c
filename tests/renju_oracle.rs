//! Renju forbidden points against the referee's judge: `tests/data/renju_forbidden.txt` holds
//! about 400 positions with every forbidden point and its reason, recorded from the
//! Gomocup referee's algorithm (regenerate with `tests/data/gen_renju_fixtures.py`).

use rensa::board::{Color, Pos};
use rensa::pattern::Threat;
use rensa::rules::Rule;

mod fixture;

struct Case {
    record: fixture::Record,
    forbidden: Vec<(usize, usize, String)>,
}

fn parse(text: &str) -> Vec<Case> {
    fixture::records(text)
        .into_iter()
        .map(|record| {
            let forbidden = record
                .value("forbidden")
                .split_whitespace()
                .map(|t| {
                    let (p, why) = t.split_once(':').expect("point:reason");
                    let (x, y) = fixture::coords(p);
                    (x, y, why.to_string())
                })
                .collect();
            Case { record, forbidden }
        })
        .collect()
}

#[test]
fn forbidden_points_match_the_referee() {
    let cases = parse(include_str!("data/renju_forbidden.txt"));
    assert!(cases.len() >= 400, "only {} cases", cases.len());
    let mut points = 0;
    for case in &cases {
        let b = case.record.position(Rule::Renju, Color::Black);
        let size = case.record.size();
        let mut got = Vec::new();
        for y in 0..size {
            for x in 0..size {
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
                    case.record.name
                );
                assert_eq!(b.is_legal(p), foul.is_none());
                if let Some(f) = foul {
                    got.push((x, y, f.name().to_string()));
                }
            }
        }
        assert_eq!(got, case.forbidden, "case {}", case.record.name);
        points += got.len();
    }
    assert!(points > 500);
}

#[test]
fn white_is_never_restricted() {
    // on every cell where black is forbidden, white to move may play, its threat class is
    // never "forbidden", and playing there leaves a consistent board
    let cases = parse(include_str!("data/renju_forbidden.txt"));
    let mut checked = 0;
    for case in &cases {
        let b = case.record.position(Rule::Renju, Color::White);
        assert_eq!(b.side(), Color::White);
        for &(x, y, _) in &case.forbidden {
            let p = Pos::new(x, y);
            assert!(b.is_legal(p), "case {}: {x},{y}", case.record.name);
            assert_ne!(
                b.threat(Color::White, p),
                Threat::Forbid,
                "case {}: {x},{y}",
                case.record.name
            );
            let mut after = b.clone();
            after.make(p);
            assert_eq!(after.stone(p), Some(Color::White));
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked} cells");
}
