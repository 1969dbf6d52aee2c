//! The browser board (`pbrain-rensa serve`) driven in a real browser: `tests/browser/drive.py`
//! with Debian's chromium and chromedriver. Without them (or without python3) the test says
//! so and passes, unless RENSA_BROWSER_REQUIRED is set (as `.ci/run` sets it, after
//! installing them), where their absence fails.

use std::path::Path;
use std::process::Command;

fn found(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_board_plays_and_analyses_in_a_real_browser() {
    let missing: Vec<&str> = ["chromium", "chromedriver", "python3"]
        .into_iter()
        .filter(|p| !found(p))
        .collect();
    if !missing.is_empty() {
        let msg = format!(
            "browser test skipped: {} not found (Debian: apt-get install chromium chromium-driver)",
            missing.join(", ")
        );
        assert!(
            std::env::var_os("RENSA_BROWSER_REQUIRED").is_none(),
            "{msg}"
        );
        eprintln!("{msg}");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = root.join("target/browser");
    let run = Command::new("python3")
        .arg(root.join("tests/browser/drive.py"))
        .arg("--engine")
        .arg(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .arg("--out")
        .arg(&out)
        .output()
        .expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    eprintln!("{text}");
    assert!(run.status.success(), "{text}");
    assert!(text.contains("browser test: all steps passed"), "{text}");
    assert!(out.join("board.png").exists());
}
