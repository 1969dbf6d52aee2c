use super::sgf::Note;
use super::*;
use crate::geometry::Color;
use crate::rules::Rule;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn xy(g: &GameRecord) -> Vec<(i64, i64)> {
    g.moves.iter().map(|m| (m.x, m.y)).collect()
}

#[test]
fn a_gomocup_psq_reads_with_names_times_and_result() {
    let text = fixture("gomocup-rensa-rapfi.psq");
    assert_eq!(Format::detect(&text), Format::Psq);
    let g = psq::parse(&text).unwrap();
    assert_eq!((g.width, g.height, g.rule), (15, 15, None));
    assert_eq!(g.moves.len(), 32);
    // 1-based in the file: 9,6 is (8, 5)
    assert_eq!(
        (g.moves[0].x, g.moves[0].y, g.moves[0].time_ms),
        (8, 5, Some(0))
    );
    assert_eq!(g.moves[5].time_ms, Some(927));
    assert_eq!(g.black.as_deref(), Some("rensa"));
    assert_eq!(g.white.as_deref(), Some("rapfi"));
    assert_eq!(g.result, Some(Outcome::Won(Color::White)));
    assert_eq!(g.opening, 5);
    let untimed = psq::parse("Piskvorky 15x15, 0:0, 0\n8,8,0\n9,9,0\n").unwrap();
    assert_eq!(untimed.opening, 0);
}

#[test]
fn psq_stops_at_the_first_line_that_is_not_a_move() {
    let g = psq::parse("Piskvorky 20x18, 0:0, 0\n2,10,0\n5,10,31\nBob\nAl\n7,7,7\n-1\n").unwrap();
    assert_eq!((g.width, g.height), (20, 18));
    assert_eq!(xy(&g), vec![(1, 9), (4, 9)]);
    assert_eq!(g.black.as_deref(), Some("Bob"));
    assert_eq!(g.white.as_deref(), Some("Al"));
    assert_eq!(g.result, None);
}

#[test]
fn a_bad_psq_header_is_named_with_its_line() {
    let e = psq::parse("Piskvorky 40x40, 0:0, 0\n1,1,0\n").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.reason.contains("40x40"), "{e}");
    let e = psq::parse("Gomoku 15x15\n").unwrap_err();
    assert!(
        e.to_string().starts_with("line 1: not a Piskvork header"),
        "{e}"
    );
    assert!(psq::parse("").is_err());
}

#[test]
fn c_gomoku_cli_sgf_reads_every_game_of_a_collection() {
    let text = fixture("cgomokucli-3games.sgf");
    assert_eq!(Format::detect(&text), Format::Sgf);
    let games = sgf::parse(&text).unwrap();
    assert_eq!(games.len(), 3);
    let g = &games[0];
    assert_eq!((g.width, g.height, g.rule), (15, 15, Some(Rule::Freestyle)));
    assert_eq!(g.black.as_deref(), Some("Rensa-0.4.0"));
    assert_eq!(g.white.as_deref(), Some("Rensa"));
    assert_eq!(g.result, Some(Outcome::Won(Color::White)));
    assert_eq!(g.opening, 5);
    // ;B[ii]C[opening move];W[gi]...;W[hk]C[729ms]
    assert_eq!((g.moves[0].x, g.moves[0].y), (8, 8));
    assert_eq!((g.moves[1].x, g.moves[1].y), (6, 8));
    assert_eq!(g.moves[0].time_ms, None);
    assert_eq!(g.moves[5].time_ms, Some(729));
    let renju = sgf::parse(&fixture("cgomokucli-renju.sgf")).unwrap();
    assert_eq!(renju[0].rule, Some(Rule::Renju));
    assert_eq!(renju[0].opening, 3);
}

#[test]
fn every_format_round_trips() {
    let mut g = sgf::parse(&fixture("cgomokucli-3games.sgf"))
        .unwrap()
        .remove(0);
    for format in [Format::Sgf, Format::Psq, Format::Moves] {
        let text = write(&g, format);
        assert_eq!(Format::detect(&text), format, "{text}");
        let back = parse(&text, format, Defaults::default()).unwrap().remove(0);
        assert_eq!(xy(&back), xy(&g), "{format:?}");
        assert_eq!((back.width, back.height), (g.width, g.height));
        assert_eq!(
            (&back.black, &back.white),
            (&g.black, &g.white),
            "{format:?}"
        );
        assert_eq!(back.result, g.result, "{format:?}");
        if format != Format::Psq {
            // .psq has no rule and no opening mark
            assert_eq!((back.rule, back.opening), (g.rule, g.opening), "{format:?}");
        }
    }
    // rectangular boards and columns beyond z
    g.width = 32;
    g.height = 20;
    g.moves.push(Move::at(31, 19));
    g.moves.push(Move::at(26, 0));
    for format in [Format::Sgf, Format::Psq, Format::Moves] {
        let back = parse(&write(&g, format), format, Defaults::default())
            .unwrap()
            .remove(0);
        assert_eq!(xy(&back), xy(&g), "{format:?}");
        assert_eq!((back.width, back.height), (32, 20), "{format:?}");
    }
}

#[test]
fn annotated_sgf_keeps_the_game_as_its_main_line_and_every_comment() {
    let g = sgf::parse(&fixture("cgomokucli-3games.sgf"))
        .unwrap()
        .remove(1);
    let notes: Vec<Note> = (0..g.moves.len())
        .map(|i| Note {
            comment: format!("move {i}: it's [a] \\ test"),
            variation: if i % 3 == 0 {
                vec![(0, 0), (1, 1), (2, 2)]
            } else {
                vec![]
            },
            variation_comment: "best".into(),
        })
        .collect();
    let text = sgf::write(&g, &notes);
    let back = sgf::parse(&text).unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!(xy(&back[0]), xy(&g));
    for i in 0..g.moves.len() {
        assert!(
            text.contains(&format!("C[move {i}: it's [a\\] \\\\ test]")),
            "comment {i} missing"
        );
    }
    assert_eq!(text.matches("C[best]").count(), g.moves.len().div_ceil(3));
}

#[test]
fn sgf_errors_name_their_line() {
    let e = sgf::parse("(;GM[4]SZ[15]\n;B[hh]\n;B[ii])").unwrap_err();
    assert_eq!(
        (e.line, e.reason.as_str()),
        (3, "the colours do not alternate")
    );
    let e = sgf::parse("(;GM[1]SZ[19];B[dd])").unwrap_err();
    assert!(e.reason.contains("not a gomoku game"), "{e}");
    let e = sgf::parse("(;SZ[15]\n;B[hh];W[]\n)").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.reason.contains("pass"), "{e}");
    assert!(sgf::parse("(;SZ[15];B[hh]")
        .unwrap_err()
        .reason
        .contains("')' is missing"));
    assert!(sgf::parse("(;SZ[15];B[hh")
        .unwrap_err()
        .reason
        .contains("']' is missing"));
    assert!(sgf::parse("(;SZ[99])")
        .unwrap_err()
        .reason
        .contains("99x99"));
    assert!(sgf::parse("(;AB[aa][bb])")
        .unwrap_err()
        .reason
        .contains("AB"));
    assert!(sgf::parse("").is_err());
    let deep = "(".repeat(100_000);
    assert!(sgf::parse(&deep).unwrap_err().reason.contains("nested"));
}

#[test]
fn variations_are_read_along_their_first_branch() {
    let g = sgf::parse("(;SZ[15];B[hh](;W[ii];B[jj])(;W[aa]))").unwrap();
    assert_eq!(xy(&g[0]), vec![(7, 7), (8, 8), (9, 9)]);
}

#[test]
fn move_lists_take_h8_x_y_and_run_together_moves() {
    let g = moves::parse(
        "h8 i9\n# a comment h1\n7,8\nh7h6j10 # more\n",
        Defaults::default(),
    )
    .unwrap();
    assert_eq!(xy(&g), vec![(7, 7), (8, 8), (7, 8), (7, 6), (7, 5), (9, 9)]);
    assert_eq!((g.width, g.height, g.rule), (15, 15, None));
    let e = moves::parse("h8\nh8x\n", Defaults::default()).unwrap_err();
    assert_eq!((e.line, e.reason.as_str()), (2, "'h8x' is not a move"));
    // play's save format
    let g = moves::parse("# rensa game 20x20 renju\n10,10\n", Defaults::default()).unwrap();
    assert_eq!((g.width, g.height, g.rule), (20, 20, Some(Rule::Renju)));
    let d = Defaults {
        width: 19,
        height: 19,
    };
    assert_eq!(moves::parse("a1", d).unwrap().width, 19);
}

#[test]
fn formats_come_from_the_name_or_the_text() {
    use std::path::Path;
    assert_eq!(Format::from_path(Path::new("a/B.PSQ")), Some(Format::Psq));
    assert_eq!(Format::from_path(Path::new("x.sgf")), Some(Format::Sgf));
    assert_eq!(Format::from_path(Path::new("x.txt")), Some(Format::Moves));
    assert_eq!(Format::from_path(Path::new("x.zip")), None);
    assert_eq!(Format::detect("\u{feff}  (;FF[4])"), Format::Sgf);
    assert_eq!(Format::detect("piskvorky 15x15, 0:0, 0"), Format::Psq);
    assert_eq!(Format::detect("h8 h9"), Format::Moves);
}
