use super::cli::run;
use super::input::{gather, Settings};
use super::*;
use crate::analysis::tests::{analyse, fixture, game};
use crate::board::Color;
use crate::record::{self, Defaults};
use crate::rules::Rule;

#[test]
fn outputs_carry_every_move() {
    let a = analyse(&fixture("gomocup-rensa-rapfi.psq"), 3_000);
    // the opening's five stones took 0 ms: given, not judged
    assert_eq!(a.moves.len(), 27);
    // the SVG: well-formed XML, one point per move, the deciding move ringed
    let svg = svg::graph(&a);
    let mut reader = quick_xml::Reader::from_str(&svg);
    let (mut points, mut rings) = (Vec::new(), 0);
    loop {
        match reader.read_event().expect("well-formed SVG") {
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e)
                if e.name().as_ref() == b"circle" =>
            {
                let attr = |k: &[u8]| {
                    e.try_get_attribute(k)
                        .unwrap()
                        .map(|a| String::from_utf8(a.value.to_vec()).unwrap())
                };
                if attr(b"class").is_some_and(|c| c.starts_with("point")) {
                    points.push(attr(b"data-move").unwrap().parse::<usize>().unwrap());
                }
                if attr(b"class").as_deref() == Some("decisive") {
                    rings += 1;
                }
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(points, (6..=32).collect::<Vec<_>>());
    assert_eq!(rings, usize::from(a.deciding.is_some()));
    // the annotated SGF reads back as the game, every move with its comment
    let sgf = output::annotated_sgf(&a);
    let back = record::sgf::parse(&sgf).unwrap().remove(0);
    let xy = |g: &record::GameRecord| g.moves.iter().map(|m| (m.x, m.y)).collect::<Vec<_>>();
    assert_eq!(xy(&back), xy(&a.game.record));
    for m in &a.moves {
        let c = back.moves[m.ply].comment.as_deref().unwrap_or("");
        assert!(
            c.starts_with(&format!("{}: ", m.mv)),
            "move {}: {c:?}",
            m.ply + 1
        );
    }
    assert!(back
        .moves
        .last()
        .unwrap()
        .comment
        .as_deref()
        .unwrap()
        .contains("rapfi wins"));
    // JSON: one object per move with its judgement
    let json = output::json_moves(&a);
    assert_eq!(json.len(), 27);
    for (v, m) in json.iter().zip(&a.moves) {
        assert_eq!(v["ply"], m.ply + 1);
        assert_eq!(v["move"], m.mv.to_string());
        assert_eq!(v["judgement"].as_str(), m.judgement.map(Judgement::name));
    }
    // the table: a row per move and the deciding move named
    let t = output::table(&a);
    assert_eq!(t.lines().filter(|l| l.starts_with("  ")).count(), 27);
    assert_eq!(t.contains("decided by move"), a.deciding.is_some());
}

#[test]
fn a_split_game_comes_back_whole_and_in_order() {
    let g = game(&fixture("gomocup-rensa-rapfi.psq"));
    let limits = Limits {
        time_ms: None,
        nodes: Some(2_000),
    };
    let games = vec![g.clone(), g];
    for threads in [1, 4] {
        let mut got = Vec::new();
        run(&games, limits, threads, 4 << 20, &mut |a| {
            got.push(a);
            Ok(())
        })
        .unwrap();
        assert_eq!(got.len(), 2);
        for a in &got {
            let plies: Vec<usize> = a.moves.iter().map(|m| m.ply).collect();
            assert_eq!(plies, (5..32).collect::<Vec<_>>(), "{threads} threads");
            assert_eq!(a.winner, Some(Color::White));
        }
    }
}

#[test]
fn folders_and_zips_are_read_and_bad_files_named() {
    let dir = std::env::temp_dir().join(format!("rensa-analyze-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.psq"), fixture("gomocup-rensa-rapfi.psq")).unwrap();
    std::fs::write(dir.join("sub/b.sgf"), fixture("cgomokucli-3games.sgf")).unwrap();
    std::fs::write(dir.join("sub/bad.sgf"), "(;SZ[15]\n;B[hh]\n;B[ii])").unwrap();
    std::fs::write(dir.join("notes.md"), "not a record").unwrap();
    let zip_path = dir.join("t.zip");
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
        let o = zip::write::SimpleFileOptions::default();
        z.start_file("round1/1_a_b_1.psq", o).unwrap();
        std::io::Write::write_all(&mut z, fixture("gomocup-rensa-rapfi.psq").as_bytes()).unwrap();
        z.start_file("round1/broken.psq", o).unwrap();
        std::io::Write::write_all(&mut z, b"Piskvorky 99x99, 0:0, 0\n").unwrap();
        z.start_file("readme.txt.bak", o).unwrap();
        z.finish().unwrap();
    }
    let s = Settings {
        defaults: Defaults::default(),
        rule: Some(Rule::Standard),
    };
    let found = gather(std::slice::from_ref(&dir), &s);
    let sources: Vec<String> = found
        .games
        .iter()
        .map(|g| {
            g.source
                .strip_prefix(&dir.display().to_string())
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        sources,
        [
            "/a.psq",
            "/sub/b.sgf#1",
            "/sub/b.sgf#2",
            "/sub/b.sgf#3",
            "/t.zip:round1/1_a_b_1.psq"
        ]
    );
    assert!(found.games.iter().all(|g| g.rule == Rule::Standard));
    assert_eq!(found.errors.len(), 2, "{:?}", found.errors);
    assert!(
        found.errors[0].ends_with("bad.sgf: line 3: the colours do not alternate"),
        "{:?}",
        found.errors
    );
    assert!(
        found.errors[1].contains("t.zip:round1/broken.psq: line 1"),
        "{:?}",
        found.errors
    );
    let missing = gather(&[dir.join("nothing.psq")], &s);
    assert!(missing.games.is_empty() && missing.errors.len() == 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_deciding_move_is_named_in_words() {
    let mut a = analyse(&fixture("rapfi_std_s13-g24-p7.txt"), 20_000);
    let i = a.deciding.expect("a deciding move");
    a.moves[i].judgement = Some(Judgement::Inaccuracy);
    let t = output::deciding_text(&a).unwrap();
    assert!(
        t.starts_with(&format!("decided by move {} (", a.moves[i].ply + 1)),
        "{t}"
    );
    assert!(t.contains(", an inaccuracy: "), "{t}");
    a.moves[i].judgement = Some(Judgement::Blunder);
    assert!(output::deciding_text(&a).unwrap().contains(", a blunder: "));
}
