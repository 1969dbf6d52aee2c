use super::*;

#[test]
fn the_board_has_coordinates_and_marks_the_last_move() {
    let mut e = Engine::new();
    e.new_game(6, 5, Rule::Freestyle);
    e.play(Pos::new(0, 0)).unwrap();
    e.play(Pos::new(5, 4)).unwrap();
    let plain = draw_board(&e, false);
    let lines: Vec<&str> = plain.lines().collect();
    assert_eq!(lines.len(), 5 + 2);
    assert_eq!(lines[0].split_whitespace().collect::<String>(), "abcdef");
    assert_eq!(lines[0], lines[6]);
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["1", "X", ".", ".", ".", ".", ".", "1"]
    );
    assert!(lines[5].ends_with("[O] 5"), "{plain}");
    assert!(!plain.contains('\x1b'));
    let coloured = draw_board(&e, true);
    assert!(coloured.contains("\x1b[1;31mX\x1b[0m") && coloured.contains("[\x1b[1;34mO"));
}

#[test]
fn a_game_runs_in_memory() {
    let opts = PlayOptions {
        width: 7,
        height: 7,
        max_nodes: Some(500),
        ..PlayOptions::default()
    };
    let (mut out, mut status) = (Vec::new(), Vec::new());
    let outcome = run(opts, &mut &b"d4\nswap\nquit\n"[..], &mut out, &mut status).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(outcome, None);
    assert!(text.contains("swapped: you play white (O)"), "{text}");
    // d4, Rensa's answer, then Rensa again, for black, after the swap
    let moves = text.rsplit("moves:").next().unwrap().trim();
    assert_eq!(moves.split_whitespace().count(), 3, "{text}");
    assert!(moves.starts_with("d4 "), "{moves}");
    assert!(String::from_utf8(status)
        .unwrap()
        .contains("thinking: depth"));
}

#[test]
fn records_of_every_format_load_with_their_board_and_rule_and_save_back() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records");
    let dir = std::env::temp_dir().join(format!("rensa-play-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.psq");
    let script = format!(
        "load {data}/cgomokucli-renju.sgf\nsave {}\nnew\nload {}\nquit\n",
        saved.display(),
        saved.display()
    );
    let opts = PlayOptions {
        width: 9,
        height: 9,
        max_nodes: Some(200),
        ..PlayOptions::default()
    };
    let (mut out, mut status) = (Vec::new(), Vec::new());
    run(opts, &mut script.as_bytes(), &mut out, &mut status).unwrap();
    let text = String::from_utf8(out).unwrap();
    let sgf = crate::record::sgf::parse(
        &std::fs::read_to_string(format!("{data}/cgomokucli-renju.sgf")).unwrap(),
    )
    .unwrap()
    .remove(0);
    let n = sgf.moves.len();
    // the SGF's 15x15 renju board replaces the 9x9 freestyle one
    assert!(text.contains("the board is now 15x15, renju"), "{text}");
    assert_eq!(
        text.matches(&format!("loaded {n} moves")).count(),
        2,
        "{text}"
    );
    assert!(text.contains(&format!("saved {n} moves")), "{text}");
    let psq = std::fs::read_to_string(&saved).unwrap();
    assert!(psq.starts_with("Piskvorky 15x15"), "{psq}");
    let back = crate::record::psq::parse(&psq).unwrap();
    let xy = |g: &crate::record::GameRecord| g.moves.iter().map(|m| (m.x, m.y)).collect::<Vec<_>>();
    assert_eq!(xy(&back), xy(&sgf));
    let _ = std::fs::remove_dir_all(&dir);
}
