//! `pbrain-rensa analyze` end to end, through the binary: what only a process shows (the
//! command line, stdout, the files written, the exit status). The analysis itself is tested
//! in-process in `src/analyze/tests.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name)
}

fn analyze(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .arg("analyze")
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rensa-analyze-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn help_shows_an_example_and_the_thresholds() {
    let out = analyze(&["--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    for s in [
        "pbrain-rensa analyze game.psq",
        "--time-ms",
        "--threads",
        "--out",
        "--json",
        "blunder from 20%",
    ] {
        assert!(help.contains(s), "{s} missing from {help}");
    }
}

#[test]
fn a_batch_writes_tables_files_and_a_report() {
    let out_dir = scratch("out");
    let psq = data("gomocup-rensa-rapfi.psq");
    let sgf = data("cgomokucli-3games.sgf");
    let out = analyze(&[
        "--nodes",
        "1500",
        "--threads",
        "2",
        "--out",
        out_dir.to_str().unwrap(),
        psq.to_str().unwrap(),
        sgf.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // four tables in the files' order, then the report
    let heads: Vec<&str> = stdout.lines().filter(|l| l.starts_with("== ")).collect();
    assert_eq!(heads.len(), 5, "{stdout}");
    assert!(heads[0].contains("gomocup-rensa-rapfi.psq: rensa (black) - rapfi (white)"));
    assert!(heads[1].contains("cgomokucli-3games.sgf#1"), "{}", heads[1]);
    assert!(heads[4].starts_with("== report: 4 games"));
    assert!(stdout.contains("worst moves of rapfi:"), "{stdout}");
    // no progress bar or stray text when stderr is not a terminal
    assert_eq!(text(&out.stderr), "");
    let mut files: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "cgomokucli-3games-1.sgf",
            "cgomokucli-3games-1.svg",
            "cgomokucli-3games-2.sgf",
            "cgomokucli-3games-2.svg",
            "cgomokucli-3games-3.sgf",
            "cgomokucli-3games-3.svg",
            "gomocup-rensa-rapfi.sgf",
            "gomocup-rensa-rapfi.svg",
            "report.txt"
        ]
    );
    let sgf = std::fs::read_to_string(out_dir.join("gomocup-rensa-rapfi.sgf")).unwrap();
    assert!(
        sgf.starts_with("(;FF[4]GM[4]") && sgf.contains("PB[rensa]PW[rapfi]"),
        "{sgf}"
    );
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn json_is_one_object_per_move_and_nothing_else() {
    let psq = data("gomocup-rensa-rapfi.psq");
    let out = analyze(&[
        "--nodes",
        "1000",
        "--threads",
        "1",
        "--json",
        psq.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    // the opening's five stones took 0 ms: given, not judged
    assert_eq!(lines.len(), 27);
    assert_eq!(
        (lines[0]["ply"].as_u64(), lines[0]["move"].as_str()),
        (Some(6), Some("i9"))
    );
    assert_eq!(lines[26]["player"], "rapfi");
    assert_eq!(lines.iter().filter(|v| v["decisive"] == true).count(), 1);
}

#[test]
fn unreadable_records_are_named_and_the_rest_analysed() {
    let dir = scratch("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.psq");
    std::fs::write(&bad, "Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n-1\n").unwrap();
    let broken = dir.join("broken.sgf");
    std::fs::write(&broken, "(;SZ[15];B[hh];W[ii]").unwrap();
    let moves = dir.join("moves.txt");
    std::fs::write(&moves, "h8 i9 j10\n").unwrap();
    let out = analyze(&["--nodes", "500", "--brief", dir.to_str().unwrap()]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("broken.sgf: line 1: the file ends inside a game"),
        "{stderr}"
    );
    assert!(
        stderr.contains("bad.psq: analysis stopped at move 2: h8 is already taken"),
        "{stderr}"
    );
    // the illegal move's game is still analysed up to it, and the move list too
    assert!(stdout.contains("bad.psq: no result"), "{stdout}");
    assert!(stdout.contains("moves.txt: no result"), "{stdout}");
    // nothing readable at all fails
    let out = analyze(&[broken.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no game to analyse"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_are_refused() {
    for args in [
        &["--size", "40", "x.txt"][..],
        &["--rule", "go", "x.txt"],
        &["--memory", "1", "x.txt"],
        &[],
    ] {
        let out = analyze(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
