//! `pbrain-rensa solve` against published values of m,n,k-games: in-process, its options
//! parsed as the command line parses them.

use clap::Parser;

#[derive(Parser)]
struct SolveCommand {
    #[command(flatten)]
    args: rensa::solve::cli::Args,
}

/// Runs `solve` and returns (ok, the report, the error).
fn solve(args: &[&str]) -> (bool, String, String) {
    let parsed = SolveCommand::try_parse_from(std::iter::once("solve").chain(args.iter().copied()));
    let args = match parsed {
        Ok(c) => c.args,
        Err(e) => return (false, String::new(), e.to_string()),
    };
    let (mut out, mut status) = (Vec::new(), Vec::new());
    let r = rensa::solve::cli::report(&args, &mut out, &mut status);
    let mut err = String::from_utf8_lossy(&status).into_owned();
    if let Err(e) = r.as_ref() {
        err += &format!("{e:#}");
    }
    (r.is_ok(), String::from_utf8_lossy(&out).into_owned(), err)
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

/// Published values of m,n,k-games (Wikipedia, "m,n,k-game", Specific results, and the
/// results it cites): k = 1 and 2 win except on 1x1 and 2x1 (k = 2); k = 3 is a draw on
/// 3x3 and a first-player win from 4x3 on; 4-in-a-row is a draw on 5x5 (C. Y. Lee) and so on
/// smaller boards, and a win on 6x5 (so on 6x6 and larger); n-in-a-row on n x n is a draw for
/// n > 4 (Hales and Jewett); 5-in-a-row is a draw on 6x6.
#[test]
fn published_values() {
    for (m, n, k, v) in [
        (1, 1, 1, "first player wins"),
        (1, 1, 2, "draw"),
        (2, 1, 2, "draw"),
        (3, 1, 2, "first player wins"),
        (2, 2, 2, "first player wins"),
        (3, 3, 3, "draw"),
        (4, 3, 3, "first player wins"),
        (3, 4, 3, "first player wins"),
        (4, 4, 3, "first player wins"),
        (5, 5, 3, "first player wins"),
        (4, 4, 4, "draw"),
        (5, 4, 4, "draw"),
        (5, 5, 4, "draw"),
        (6, 5, 4, "first player wins"),
        (5, 6, 4, "first player wins"),
        (6, 6, 4, "first player wins"),
        (5, 5, 5, "draw"),
        (6, 6, 5, "draw"),
        (6, 6, 6, "draw"),
        (7, 7, 7, "draw"),
        (8, 8, 8, "draw"),
    ] {
        assert_eq!(value(m, n, k), v, "{m},{n},{k}");
    }
}

/// The slower published values. Run them with
/// `cargo test --release --test solve -- --ignored` (times in the README).
#[test]
#[ignore = "slow in the test profile: about a minute each on two cores"]
fn published_values_slow() {
    for (m, n, k, v) in [
        (6, 6, 4, "first player wins"),
        (7, 7, 4, "first player wins"),
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
