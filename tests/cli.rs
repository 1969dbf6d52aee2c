//! The command line outside the protocol: help texts and refused arguments.

mod common;
use common::run_binary as run;

#[test]
fn bench_help_is_help_not_a_bad_depth() {
    for flag in ["-h", "--help"] {
        let (ok, out, err) = run(&["bench", flag]);
        assert!(ok, "{err}");
        assert!(out.contains("pbrain-rensa bench [D] [T]"), "{out}");
        assert!(out.contains("signature"), "{out}");
        assert!(err.is_empty(), "{err}");
    }
}

#[test]
fn bench_refuses_a_bad_depth_or_thread_count() {
    for args in [&["bench", "deep"][..], &["bench", "4", "many"]] {
        let (ok, out, err) = run(args);
        assert!(!ok, "{args:?}: {out}");
        assert!(
            err.contains("bad depth") || err.contains("bad thread count"),
            "{err}"
        );
        assert!(out.is_empty(), "{out}");
    }
}

#[test]
fn top_level_help_and_version() {
    let (ok, out, _) = run(&["--help"]);
    assert!(
        ok && out.contains("bench [D] [T]") && out.contains("selfplay"),
        "{out}"
    );
    let (ok, out, _) = run(&["--version"]);
    assert!(ok && out.starts_with("pbrain-rensa "), "{out}");
    let (ok, _, err) = run(&["frobnicate"]);
    assert!(
        !ok && err.contains("unknown argument 'frobnicate'"),
        "{err}"
    );
}
