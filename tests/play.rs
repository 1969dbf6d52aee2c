//! `pbrain-rensa play` fed as a person would type through a pipe: in-process, its options
//! parsed as the command line parses them; one test runs the binary for its exit status and
//! help (`play_pty.rs` runs it on a terminal).

use clap::Parser;
use std::process::{Command, Stdio};

#[derive(Parser)]
struct PlayCommand {
    #[command(flatten)]
    args: rensa::play::cli::Args,
}

/// Runs `play` with `args`, feeding `input` (a pipe: no colour, moves echoed); returns
/// (ended without an error, what it printed).
fn play(args: &[&str], input: &[u8]) -> (bool, String) {
    let parsed = PlayCommand::try_parse_from(std::iter::once("play").chain(args.iter().copied()));
    let Ok(PlayCommand { args }) = parsed else {
        return (false, String::new());
    };
    let Ok(opts) = rensa::play::cli::options(&args, false, true) else {
        return (false, String::new());
    };
    let mut out = Vec::new();
    let ok = rensa::play::run(opts, &mut &input[..], &mut out, &mut std::io::sink()).is_ok();
    (ok, String::from_utf8_lossy(&out).into_owned())
}

/// A move list file in the temp folder, unique to this test.
fn game_file(name: &str, moves: &[(usize, usize)]) -> String {
    let path = std::env::temp_dir().join(format!("rensa-play-{}-{name}.txt", std::process::id()));
    let text: String = moves.iter().map(|(x, y)| format!("{x},{y}\n")).collect();
    std::fs::write(&path, format!("# test game\n{text}")).unwrap();
    path.to_string_lossy().into_owned()
}

/// The moves line printed when the game is left.
fn moves_line(out: &str) -> &str {
    out.lines()
        .rev()
        .find_map(|l| l.strip_prefix("moves:"))
        .expect("a moves line")
        .trim()
}

const FAST: [&str; 4] = ["--strength", "3000", "--time", "10"];

#[test]
fn a_scripted_game_ends_in_rensas_five() {
    // the person's stones are never next to each other, so only Rensa can make five
    let mut script = String::new();
    for y in (0..9).step_by(2) {
        for x in (0..9).step_by(2) {
            script += &format!("{x},{y}\n");
        }
    }
    let (ok, out) = play(&[&["--size", "9"][..], &FAST].concat(), script.as_bytes());
    assert!(ok);
    assert!(
        out.contains("white (O) wins with five in a row: Rensa wins."),
        "{out}"
    );
    assert!(out.contains("game over"), "{out}");
    // after the five the remaining script lines are refused, not played
    assert!(out.contains("the game is over"), "{out}");
    let n = moves_line(&out).split_whitespace().count();
    assert!(n % 2 == 0 && (10..=40).contains(&n), "{n} moves: {out}");
}

#[test]
fn the_person_wins_with_five_from_a_loaded_game() {
    // black a1 b1 c1 d1, white far off; black (the person) to move
    let f = game_file(
        "five",
        &[
            (0, 0),
            (9, 9),
            (1, 0),
            (9, 10),
            (2, 0),
            (10, 9),
            (3, 0),
            (12, 12),
        ],
    );
    let (ok, out) = play(&FAST, format!("load {f}\ne1\nquit\n").as_bytes());
    std::fs::remove_file(&f).ok();
    assert!(ok);
    assert!(out.contains("loaded 8 moves"), "{out}");
    assert!(
        out.contains("black (X) wins with five in a row: you win."),
        "{out}"
    );
    assert!(
        out.contains("  1  X  X  X  X [X]"),
        "last move marked: {out}"
    );
}

#[test]
fn bad_input_is_explained_and_the_game_goes_on() {
    let mut input = Vec::new();
    for l in [
        "",
        "foo",
        "99,99",
        "-1,0",
        "h0",
        "z99",
        "7,",
        "h8x",
        "h8",
        "h8",
        "7,7",
        "save",
        "load /no/such/rensa/file",
    ] {
        input.extend_from_slice(l.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(&[0xff, 0xfe, b'\n']);
    input.extend(std::iter::repeat_n(b'x', 100_000));
    input.extend_from_slice(b"\nhelp\nquit\n");
    let (ok, out) = play(&FAST, &input);
    assert!(ok, "{out}");
    for expected in [
        "'foo' is not a move or a command",
        "99,99 is off the board",
        "-1,0 is off the board",
        "7,-1 is off the board",
        "that line is too long",
        "could not read that line",
        "25,98 is off the board",
        "'7,' is not a move",
        "'h8x' is not a move",
        "h8 (7,7) is taken",
        "save needs a file name",
        "cannot read /no/such/rensa/file",
        "Commands:",
    ] {
        assert!(out.contains(expected), "missing '{expected}' in:\n{out}");
    }
    // the one good move and Rensa's answer are all that was played
    assert_eq!(moves_line(&out).split_whitespace().count(), 2, "{out}");
    assert!(moves_line(&out).starts_with("h8 "), "{out}");
}

#[test]
fn undo_takes_back_the_persons_move_and_the_answer() {
    let (ok, out) = play(&FAST, b"undo\nh8\nundo\nh8\nundo\nundo\nquit\n");
    assert!(ok);
    assert!(out.contains("nothing of yours to undo"), "{out}");
    assert_eq!(out.matches("taken back").count(), 2, "{out}");
    assert_eq!(moves_line(&out), "", "{out}");
}

/// Plays `args` on a game file holding `moves`, then types `typed`; returns (exit ok, stdout).
fn play_loaded(name: &str, args: &[&str], moves: &[(usize, usize)], typed: &str) -> (bool, String) {
    let f = game_file(name, moves);
    let r = play(args, format!("load {f}\n{typed}").as_bytes());
    std::fs::remove_file(&f).ok();
    r
}

#[test]
fn renju_forbidden_points_are_refused_for_the_person() {
    // black 6,7 7,7 and 8,5 8,6: 8,7 makes two open threes
    let setup = [
        (6, 7),
        (0, 0),
        (7, 7),
        (14, 0),
        (8, 5),
        (0, 14),
        (8, 6),
        (14, 14),
    ];
    let renju = [&["--rule", "renju"][..], &FAST].concat();
    let (ok, out) = play_loaded("renju", &renju, &setup, "8,7\ni8\nquit\n");
    assert!(ok);
    assert_eq!(
        out.matches("i8 (8,7) is forbidden for black under renju (double-three)")
            .count(),
        2,
        "{out}"
    );
    assert_eq!(moves_line(&out).split_whitespace().count(), 8, "{out}");
    // a loaded game in which black played it is lost by the foul
    let fouled = [&setup[..], &[(8, 7)]].concat();
    let (ok, out) = play_loaded("foul", &renju, &fouled, "quit\n");
    assert!(ok);
    assert!(
        out.contains("black played a forbidden point: white wins (Rensa wins)."),
        "{out}"
    );
    // freestyle takes the same move
    let (_, out) = play_loaded("free", &FAST, &setup, "8,7\nquit\n");
    assert!(!out.contains("forbidden"), "{out}");
    assert_eq!(moves_line(&out).split_whitespace().count(), 10, "{out}");
}

#[test]
fn a_full_board_is_a_draw_and_games_save_and_load() {
    // 5x5 filled with no five: black where (x / 2 + y) is even
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for y in 0..5 {
        for x in 0..5 {
            if (x / 2 + y) % 2 == 0 {
                black.push((x, y));
            } else {
                white.push((x, y));
            }
        }
    }
    assert_eq!((black.len(), white.len()), (13, 12));
    let last = black.pop().unwrap();
    let moves: Vec<_> = black
        .iter()
        .zip(&white)
        .flat_map(|(&b, &w)| [b, w])
        .collect();
    let f = game_file("full", &moves);
    let saved = f.replace(".txt", "-saved.txt");
    let input = format!(
        "load {f}\n{},{}\nsave {saved}\nnew\nload {saved}\nquit\n",
        last.0, last.1
    );
    let (ok, out) = play(&[&["--size", "5"][..], &FAST].concat(), input.as_bytes());
    let saved_text = std::fs::read_to_string(&saved).unwrap_or_default();
    std::fs::remove_file(&f).ok();
    std::fs::remove_file(&saved).ok();
    assert!(ok);
    assert_eq!(
        out.matches("the board is full: a draw.").count(),
        2,
        "{out}"
    );
    assert!(out.contains("saved 25 moves"), "{out}");
    assert!(out.contains("loaded 25 moves"), "{out}");
    let saved = rensa::record::parse(
        &saved_text,
        rensa::record::Format::Moves,
        Default::default(),
    )
    .unwrap()
    .remove(0);
    assert_eq!((saved.width, saved.height, saved.moves.len()), (5, 5, 25));
    assert_eq!(saved.result, Some(rensa::record::Outcome::Draw));
}

#[test]
fn rensa_can_move_first_and_variety_prints_its_seed() {
    let (ok, out) = play(
        &[
            &["--first", "rensa", "--variety", "--seed", "42"][..],
            &FAST,
        ]
        .concat(),
        b"quit\n",
    );
    assert!(ok);
    assert!(out.contains("you play white (O)"), "{out}");
    assert!(out.contains("variety on, seed 42"), "{out}");
    assert!(out.contains("Rensa plays"), "{out}");
    assert_eq!(moves_line(&out).split_whitespace().count(), 1, "{out}");
}

#[test]
fn bad_options_are_refused_with_help() {
    for args in [
        &["--size", "4"][..],
        &["--rule", "go"],
        &["--bogus"],
        &["--time", "-1"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
            .arg("play")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(!play(args, b"").0, "{args:?} in-process");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .args(["play", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("--strength") && help.contains("--variety"),
        "{help}"
    );
}

#[test]
fn variety_replays_by_seed_and_varies_across_seeds() {
    let run = |seed: &str| {
        let args = ["--variety", "--seed", seed, "--margin", "200"];
        let (ok, out) = play(&[&args[..], &FAST].concat(), b"h8\ng7\nquit\n");
        assert!(ok);
        moves_line(&out).to_string()
    };
    assert_eq!(run("3"), run("3"), "the same seed replays the same game");
    let games: std::collections::HashSet<String> = ["1", "2", "3", "4", "5", "6"]
        .into_iter()
        .map(run)
        .collect();
    assert!(games.len() >= 2, "{games:?}");
    // without --variety every run is the same
    let plain = || moves_line(&play(&FAST, b"h8\ng7\nquit\n").1).to_string();
    assert_eq!(plain(), plain());
}
