//! `pbrain-rensa solve` against published values of m,n,k-games.

use std::process::Command;

/// Runs `solve` and returns (exit ok, stdout, stderr).
fn solve(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .arg("solve")
        .args(args)
        .output()
        .expect("run pbrain-rensa");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn field<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(name))
        .unwrap_or_else(|| panic!("no {name} in {out}"))
        .trim()
}

fn value(m: usize, n: usize, k: usize) -> String {
    let (m, n, k) = (m.to_string(), n.to_string(), k.to_string());
    let (ok, out, err) = solve(&["-m", &m, "-n", &n, "-k", &k]);
    assert!(ok, "{err}");
    field(&out, "value").to_string()
}

#[test]
fn published_values() {
    // tic-tac-toe; k = 3 is a first-player win from 4x3 on; 4-in-a-row on 4x4 and on 5x5
    // (C. Y. Lee) is a draw
    for (m, n, k, v) in [
        (3, 3, 3, "draw"),
        (4, 3, 3, "first player wins"),
        (3, 4, 3, "first player wins"),
        (4, 4, 3, "first player wins"),
        (4, 4, 4, "draw"),
        (5, 5, 4, "draw"),
    ] {
        assert_eq!(value(m, n, k), v, "{m},{n},{k}");
    }
}

#[test]
fn the_report_has_best_moves_a_line_and_counts() {
    let (ok, out, err) = solve(&["--width", "4", "--height", "3", "--k", "3", "--progress"]);
    assert!(ok, "{err}");
    assert_eq!(field(&out, "game"), "4x3 k=3 freestyle");
    // the winning line ends in three in a row for the first player, who moves last
    let pv: Vec<&str> = field(&out, "pv").split_whitespace().collect();
    assert!(pv.len() % 2 == 1 && pv.len() >= 5, "{out}");
    assert!(
        field(&out, "best").split_whitespace().any(|m| m == "b2"),
        "{out}"
    );
    assert!(field(&out, "nodes").parse::<u64>().unwrap() > 0);
    assert!(field(&out, "time").ends_with("ms"));
    // 4x3 has 4 symmetries: 12 cells are 4 distinct first moves
    assert!(err.contains("4/4"), "progress: {err}");
    // tic-tac-toe: every first move draws, and the drawn line fills the board
    let (_, out, _) = solve(&["-m", "3", "-n", "3", "-k", "3"]);
    assert_eq!(field(&out, "best").split_whitespace().count(), 9);
    assert_eq!(field(&out, "pv").split_whitespace().count(), 9);
}

#[test]
fn exact_rule_is_accepted() {
    let (ok, out, _) = solve(&["-m", "3", "-n", "3", "-k", "3", "--rule", "exact"]);
    assert!(ok);
    assert_eq!(field(&out, "game"), "3x3 k=3 exact");
    assert_eq!(field(&out, "value"), "draw");
}

#[test]
fn boards_too_big_or_empty_are_refused() {
    for args in [
        &["-m", "9", "-n", "8", "-k", "4"][..],
        &["-m", "3", "-n", "3", "-k", "0"],
        &["-m", "3", "-n", "3"],
        &["-m", "3", "-n", "3", "-k", "3", "--rule", "renju"],
    ] {
        let (ok, _, err) = solve(args);
        assert!(!ok, "{args:?}");
        assert!(!err.is_empty(), "{args:?}");
    }
}
