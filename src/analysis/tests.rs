use super::*;
use crate::record::{self, Defaults, Format};

pub(crate) fn game(text: &str) -> Game {
    let record = record::parse(text, Format::detect(text), Defaults::default())
        .unwrap()
        .remove(0);
    let rule = record.rule.unwrap_or(Rule::Freestyle);
    Game {
        source: "test".into(),
        record,
        rule,
    }
}

pub(crate) fn analyse(text: &str, nodes: u64) -> GameAnalysis {
    let mut engine = Engine::new();
    engine.set_table_bytes(8 << 20);
    let limits = Limits {
        time_ms: None,
        nodes: Some(nodes),
    };
    analyse_game(&mut engine, &game(text), limits, &mut || {})
}

pub(crate) fn fixture(name: &str) -> String {
    let path = format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Black has four in a row with both ends open and plays elsewhere; white makes five.
const MISSED: &str = "h8 a1 i8 a2 j8 a3 k8 a4 o15 a5";

#[test]
fn a_five_let_go_is_a_missed_win_and_decides_the_game() {
    let a = analyse(MISSED, 5_000);
    assert_eq!(a.end, End::Five(Color::White));
    assert_eq!(a.winner, Some(Color::White));
    assert_eq!(a.moves.len(), 10);
    let m = &a.moves[8];
    assert_eq!(
        (m.ply, m.color, m.mv.to_string()),
        (8, Color::Black, "o15".to_string())
    );
    assert_eq!(m.judgement, Some(Judgement::MissedWin));
    assert!(m
        .before
        .best
        .is_some_and(|b| ["g8", "l8"].contains(&b.to_string().as_str())));
    assert_eq!((m.win_best, m.win_played), (1.0, 0.0));
    assert_eq!(a.deciding, Some(8));
    // white's fours were its best moves
    assert!(a.moves[7].judgement.is_none(), "{:?}", a.moves[7]);
    assert_eq!(a.moves[9].played, crate::eval::mate_in(1));
}

#[test]
fn a_renju_foul_loses_on_the_spot() {
    // j8 makes two open threes (h8 i8 j8 and j8 j9 j10) for black
    let a = analyse(
        "# rensa game 15x15 renju\nh8 a1 i8 a3 j9 a5 j10 o15 j8",
        5_000,
    );
    assert_eq!(a.end, End::Foul);
    assert_eq!(a.winner, Some(Color::White));
    let last = a.moves.last().unwrap();
    assert_eq!(last.mv.to_string(), "j8");
    assert_eq!(last.judgement, Some(Judgement::Foul));
    assert_eq!(last.win_played, 0.0);
    assert_eq!(a.deciding, Some(a.moves.len() - 1));
}

#[test]
fn an_illegal_move_stops_the_analysis_there() {
    let a = analyse("h8 i9 j10 i9 k11", 2_000);
    assert_eq!(
        a.end,
        End::Illegal {
            ply: 3,
            reason: "i9 is already taken".into()
        }
    );
    assert_eq!(a.moves.len(), 3);
    let a = analyse("h8\n7,40\n", 2_000);
    assert!(matches!(&a.end, End::Illegal { ply: 1, reason } if reason.contains("off the 15x15")));
    let a = analyse(&format!("{MISSED} b5"), 2_000);
    assert!(
        matches!(&a.end, End::Illegal { ply: 10, reason } if reason.contains("over after move 10"))
    );
    assert_eq!(a.moves.len(), 10);
    // the moves before it are still judged, and the record's winner stands
    assert_eq!(a.deciding, None);
}

#[test]
fn the_given_opening_is_not_judged() {
    let a = analyse(&format!("# opening 4\n{MISSED}"), 2_000);
    assert_eq!(a.moves.first().map(|m| m.ply), Some(4));
    assert_eq!(a.moves.len(), 6);
}

#[test]
fn win_probability_is_the_fitted_curve_and_certain_when_proven() {
    use crate::eval::{mate_in, mated_in, win_probability};
    let free = Rule::Freestyle;
    assert_eq!(win_probability(0, free), 0.5);
    assert!((win_probability(400, free) - 0.731).abs() < 0.001);
    assert!((win_probability(-300, free) + win_probability(300, free) - 1.0).abs() < 1e-12);
    // a lead says less in caro
    assert!(win_probability(400, Rule::Caro) < win_probability(400, Rule::Renju));
    let proven = (
        win_probability(mate_in(9), free),
        win_probability(mated_in(4), free),
    );
    assert_eq!(proven, (1.0, 0.0));
}

#[test]
fn the_deciding_move_is_the_last_unforced_step_into_a_proven_loss() {
    let searched = |score: Score, best: &str| Searched {
        score,
        best: Some(best.parse().unwrap()),
        pv: Vec::new(),
        depth: 1,
        nodes: 1,
    };
    let m = |ply: usize, mv: &str, before: Searched, played: Score| {
        let color = if ply % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        judge(
            ply,
            color,
            mv.parse().unwrap(),
            before,
            played,
            false,
            Rule::Standard,
        )
    };
    let won = crate::eval::mate_in(9);
    // black errs at ply 2 (not its search's choice), then plays its search's choices; only
    // white's search at ply 5 proves the win
    let moves = vec![
        m(0, "h8", searched(50, "h8"), 40),
        m(1, "i9", searched(-40, "i9"), -60),
        m(2, "j10", searched(60, "g7"), -600),
        m(3, "g7", searched(300, "g7"), 350),
        m(4, "k11", searched(-350, "k11"), -700),
        m(5, "f6", searched(won, "f6"), won),
    ];
    assert_eq!(deciding_move(&moves, Color::Black), Some(2));
    assert_eq!(moves[2].judgement, Some(Judgement::Blunder));
    // without a proof: the last fall below one half that lasted
    let unproven: Vec<_> = moves[..5].to_vec();
    assert_eq!(deciding_move(&unproven, Color::Black), Some(2));
}

#[test]
fn rensas_losses_to_rapfi_are_decided_where_the_long_search_saw_it() {
    // games Rensa lost to Rapfi: tests/data/tactics_avoid*.txt name the move after which a
    // 1 s search first saw Rapfi's forced win (the file's name gives its move number)
    for name in [
        "rapfi_fs15_s14-g33-p8.txt",
        "rapfi_std_s13-g24-p7.txt",
        "rapfi_renju_s13-g77-p4.txt",
    ] {
        let text = fixture(name);
        let want: usize = name
            .rsplit("-p")
            .next()
            .unwrap()
            .trim_end_matches(".txt")
            .parse()
            .unwrap();
        let a = analyse(&text, 60_000);
        let got = a.deciding.map(|i| a.moves[i].ply);
        let judged: Vec<_> = a
            .moves
            .iter()
            .map(|m| (m.ply, m.mv.to_string(), m.played, m.before.score))
            .collect();
        assert_eq!(got, Some(want), "{name}: {judged:?}");
    }
}
