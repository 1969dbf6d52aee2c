//! `pbrain-rensa play` under a pseudo-terminal, as a person at a keyboard sees it.
//!
//! The `script` utility of util-linux runs the binary on a pty, so its stdin and stdout are
//! terminals, and relays the lines typed here. On Linux `script` must be there (Debian's
//! essential `bsdutils`): a test without it fails. Elsewhere (Windows, the BSD `script` of
//! macOS) each test prints why and passes without running.

use std::io::Write;
use std::process::{Command, Stdio};

const FAST: &str = "--strength 3000 --time 10";

/// Whether util-linux `script` is here to make a pty; if not, says so on stdout.
fn have_pty(test: &str) -> bool {
    let ok = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("util-linux"));
    // where util-linux is the system's, a missing `script` is a broken test machine, not a
    // reason to pass without testing anything
    assert!(
        ok || !cfg!(target_os = "linux"),
        "{test}: no util-linux `script` to run the game on a pseudo-terminal"
    );
    if !ok {
        println!("{test}: skipped, no util-linux `script` to run the game on a pseudo-terminal");
    }
    ok
}

/// Feeds `input` to `child` from a thread (its output is read at the same time) and returns
/// (exit ok, stdout with the terminal's carriage returns removed).
fn run(mut child: std::process::Child, input: &str) -> (bool, String) {
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("run the game");
    writer.join().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    (out.status.success(), text)
}

/// `play ARGS` on a pseudo-terminal, typing `input`.
fn play_in_pty(args: &str, input: &str) -> (bool, String) {
    let bin = env!("CARGO_BIN_EXE_pbrain-rensa").replace('\'', r"'\''");
    let child = Command::new("script")
        .args([
            "-q",
            "-e",
            "-c",
            &format!("'{bin}' play {args}"),
            "/dev/null",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start script");
    run(child, input)
}

/// `play ARGS` with stdin and stdout piped.
fn play_piped(args: &str, input: &str) -> (bool, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .arg("play")
        .args(args.split_whitespace())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pbrain-rensa");
    run(child, input)
}

/// The moves line printed when the game is left.
fn moves_line(out: &str) -> Vec<&str> {
    out.lines()
        .rev()
        .find_map(|l| l.split_once("moves:").map(|(_, m)| m))
        .unwrap_or_else(|| panic!("no moves line: {out}"))
        .split_whitespace()
        .collect()
}

const RED_X: &str = "\x1b[1;31mX\x1b[0m";
const BLUE_O: &str = "\x1b[1;34mO\x1b[0m";

#[test]
fn the_board_is_coloured_on_a_terminal_and_plain_through_a_pipe() {
    if !have_pty("colour") {
        return;
    }
    let args = format!("--size 9 {FAST}");
    let (ok, tty) = play_in_pty(&args, "h8\nquit\n");
    assert!(ok, "{tty}");
    // the person's stone in red, bracketed as the last move; then Rensa's in blue, last
    assert!(tty.contains(&format!("[{RED_X}]")), "{tty:?}");
    assert!(tty.contains(&format!("[{BLUE_O}]")), "{tty:?}");
    assert!(tty.contains(&format!(" {RED_X} ")), "{tty:?}");
    assert_eq!(moves_line(&tty).len(), 2, "{tty}");
    // the same game through a pipe: the same board, no escape codes at all
    let (ok, piped) = play_piped(&args, "h8\nquit\n");
    assert!(ok, "{piped}");
    assert!(piped.contains("[X]") && piped.contains("[O]"), "{piped}");
    assert!(!piped.contains('\x1b'), "{piped:?}");
    // and on a terminal when asked for none
    let (ok, plain) = play_in_pty(&format!("{args} --no-color"), "h8\nquit\n");
    assert!(ok, "{plain}");
    assert!(
        plain.contains("[X]") && !plain.contains('\x1b'),
        "{plain:?}"
    );
}

#[test]
fn a_scripted_game_on_a_terminal_ends_in_a_five() {
    if !have_pty("five") {
        return;
    }
    // the person's stones are never next to each other, so only Rensa can make five
    let mut script = String::new();
    for y in (0..9).step_by(2) {
        for x in (0..9).step_by(2) {
            script += &format!("{x},{y}\n");
        }
    }
    script += "quit\n";
    let (ok, out) = play_in_pty(&format!("--size 9 {FAST}"), &script);
    assert!(ok, "{out}");
    assert!(
        out.contains("white (O) wins with five in a row: Rensa wins."),
        "{out}"
    );
    assert!(out.contains("game over"), "{out}");
    // the final board shows Rensa's winning stone coloured and marked
    assert!(out.contains(&format!("[{BLUE_O}]")), "{out:?}");
    let n = moves_line(&out).len();
    assert!(n % 2 == 0 && (10..=40).contains(&n), "{n} moves: {out}");
}

#[test]
fn bad_input_on_a_terminal_is_refused_and_the_game_goes_on() {
    if !have_pty("bad input") {
        return;
    }
    let (ok, out) = play_in_pty(&format!("--size 9 {FAST}"), "99,99\nfoo\nh8\nh8\nquit\n");
    assert!(ok, "{out}");
    for expected in [
        "99,99 is off the board",
        "'foo' is not a move or a command",
        "h8 (7,7) is taken",
    ] {
        assert!(out.contains(expected), "{expected}: {out}");
    }
    // only the good move and Rensa's answer were played
    let moves = moves_line(&out);
    assert_eq!(moves.len(), 2, "{out}");
    assert_eq!(moves[0], "h8", "{out}");
}
