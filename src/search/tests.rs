use super::*;
use crate::board::Board;
use crate::eval::{INFINITE, WIN_MIN};
use ordering::{by_pick_order, pick_best, PICK_BEFORE_SORT};

/// Limits of `depth` plies and nothing else.
fn to_depth(depth: i32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

fn best(board: &Board, depth: i32) -> SearchResult {
    let mut s = Searcher::new(1 << 20);
    let limits = Limits {
        depth: Some(depth),
        nodes: Some(2_000_000),
        ..Limits::default()
    };
    s.think(board, &limits, &SearchControl::default(), &mut |_| {})
}

#[test]
fn takes_a_five() {
    let b = Board::from_diagram(
        "
        . . . . . . . . .
        . x x x x . . . .
        . o o o . . . . .
        . . . . . . o . .
        . . . . . . . . .",
        Rule::Freestyle,
    );
    let r = best(&b, 3);
    let m = r.best.unwrap();
    assert!(m == Pos::new(0, 1) || m == Pos::new(5, 1), "{m:?}");
    assert_eq!(r.score, mate_in(1));
}

#[test]
fn blocks_a_four() {
    let b = Board::from_diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . o x x x x . . .
        . . . . o . . . .
        . . . . . o . . .
        . . . . . . . . .",
        Rule::Freestyle,
    );
    assert_eq!(b.side(), Color::White);
    assert_eq!(best(&b, 3).best, Some(Pos::new(6, 2)));
}

/// Black fours at (4,5); white must block (5,5); then column 4 is an open four: a mate in 5.
fn vcf_board() -> Board {
    Board::from_diagram(
        "
        . . . . . . . . . o
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        o x x x . . . . . .
        . . . . x . . . . .
        . . . . x . . . . .
        . . . . . . . . . .
        o . . . . . . o . o",
        Rule::Freestyle,
    )
}

#[test]
fn finds_a_vcf() {
    let b = vcf_board();
    assert_eq!(b.side(), Color::Black);
    let r = best(&b, 1);
    assert_eq!(r.best, Some(Pos::new(4, 5)), "{r:?}");
    assert_eq!(r.score, mate_in(5), "{r:?}");
}

#[test]
fn stops_an_open_three_or_counters() {
    let b = Board::from_diagram(
        "
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . x x x . . . .
        . . . . o . . . . .
        . . . . . . . . . .
        . . . . . . . . . .",
        Rule::Freestyle,
    );
    assert_eq!(b.side(), Color::White);
    let r = best(&b, 4);
    let m = r.best.unwrap();
    let ok = [
        Pos::new(2, 3),
        Pos::new(6, 3),
        Pos::new(1, 3),
        Pos::new(7, 3),
    ];
    assert!(ok.contains(&m), "{m:?}");
}

#[test]
fn renju_black_cannot_block_on_a_forbidden_point() {
    // White's four in column 5 has one five point, (5,4): a double three for black.
    let b = Board::from_diagram(
        "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . x . . . . . . .
        . . . . x . . . . . .
        . . . x x . . . . . .
        . . . . . o . . . . .
        . . . . . o . . . . .
        . . . . . o . . . . .
        . . . . . o . . . . .
        o . . . . x . . . . .
        . . . . . . . . . . .",
        Rule::Renju,
    );
    assert_eq!(b.side(), Color::Black);
    assert!(b.is_forbidden(Pos::new(5, 4)));
    let r = best(&b, 2);
    assert!(r.score <= -WIN_MIN, "{r:?}");
    assert!(b.is_legal(r.best.unwrap()));
}

/// Black's two open twos cross on (5,5): playing there makes two open threes.
const DOUBLE_THREE: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . x . . . . . . .
    . . . . . x . . . . . . .
    . . . x x . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . o . o
    . . . . . . . . . . . . .
    . . . . . . . . . . o . o
    . . . . . . . . . . . . .";

#[test]
fn vct_finds_a_double_three() {
    // Depth 1 cannot see the win; the threat-space probe at the root does.
    let b = Board::from_diagram(DOUBLE_THREE, Rule::Freestyle);
    assert_eq!(b.side(), Color::Black);
    let r = best(&b, 1);
    assert_eq!(r.best, Some(Pos::new(5, 5)));
    assert!(r.score >= WIN_MIN, "{r:?}");
}

#[test]
fn vct_keeps_renju_black_off_a_double_three() {
    let b = Board::from_diagram(DOUBLE_THREE, Rule::Renju);
    assert!(b.is_forbidden(Pos::new(5, 5)));
    // (Black has other threats there; whatever it plays, it is not the forbidden point.)
    let r = best(&b, 1);
    let m = r.best.unwrap();
    assert_ne!(m, Pos::new(5, 5));
    assert!(b.is_legal(m));
}

/// The quiescence at depth 0 of `board`, with a full window.
fn quiesce_value(board: &Board) -> Score {
    let mut s = Searcher::new(1 << 20);
    let control = SearchControl::default();
    let limits = Limits::default();
    let mut w = s.worker(board, &limits, &control);
    w.quiesce(0, -INFINITE, INFINITE, 0)
}

#[test]
fn quiescence_sees_a_four_three_below_the_horizon() {
    // Black to move: (4,3) makes a four on column 4 and an open three on row 3; once white
    // blocks the four, the three becomes an open four.
    let b = Board::from_diagram(
        "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . x . . . . . o
        . . . . . x x . . . .
        . . . . x . . . . . .
        . . . . x . . . . . .
        . . . . o . . . . . .
        . . . . . . . . . . o
        . . . o . . . . . . o
        . . . . . . . . . . .",
        Rule::Freestyle,
    );
    assert_eq!(b.side(), Color::Black);
    let v = quiesce_value(&b);
    assert!(v >= WIN_MIN, "quiescence gave {v}");
    assert!(eval::evaluate(&b) < WIN_MIN);
}

#[test]
fn quiescence_stands_pat_without_fours() {
    let b = Board::from_diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . x . o . . .
        . . . . x . . . .
        . . . o . . . . .
        . . . . . . . . .",
        Rule::Freestyle,
    );
    // the stand-pat value is the static value the search reads
    assert_eq!(
        quiesce_value(&b),
        eval::evaluate(&b) * Params::for_rule(Rule::Freestyle).eval_share / 100
    );
}

#[test]
fn history_stays_bounded_under_any_updates() {
    let mut h = 0;
    for d in 1..40 {
        history_update(&mut h, history_bonus(d * ONE_PLY));
        assert!(h <= HISTORY_MAX, "{h}");
    }
    assert!(h > HISTORY_MAX / 2);
    for d in 1..40 {
        history_update(&mut h, -history_bonus(d * ONE_PLY));
        assert!(h >= -HISTORY_MAX, "{h}");
    }
    assert!(h < 0);
}

/// The search takes any evaluator the board carries: with a network of zero weights (every
/// quiet position worth nothing) it still finds the same forced win, and its scores of quiet
/// positions are the network's, not the classical evaluation's.
#[test]
fn searches_a_board_with_another_evaluator() {
    use crate::board::Network;
    use crate::eval::net::NetWeights;
    use std::sync::Arc;
    let diagram = "
        . . . . . . . . . o
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        o x x x . . . . . .
        . . . . x . . . . .
        . . . . x . . . . .
        . . . . . . . . . .
        o . . . . . . o . o";
    let zero = Arc::new(NetWeights::zero(Rule::Freestyle));
    let b = Board::from_diagram_with(diagram, Rule::Freestyle, Network::new(zero.clone()));
    let mut s = Searcher::new(1 << 20);
    let limits = to_depth(3);
    let r = s.think(&b, &limits, &SearchControl::default(), &mut |_| {});
    assert_eq!(r.best, Some(Pos::new(4, 5)), "{r:?}");
    assert_eq!(r.score, mate_in(5), "{r:?}");

    // two quiet stones: nothing but the evaluator decides the score
    let quiet = "
        . . . . . . .
        . . . . . . .
        . . . x . . .
        . . . o . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .";
    let b = Board::from_diagram_with(quiet, Rule::Freestyle, Network::new(zero));
    let r = s.think(&b, &limits, &SearchControl::default(), &mut |_| {});
    assert_eq!(r.score, 0, "{r:?}");
    assert_ne!(
        best(&Board::from_diagram(quiet, Rule::Freestyle), 3).score,
        0
    );
}

/// The search reads the evaluation at its rule's share: 80 % in freestyle, all of it where no
/// other share measured better.
#[test]
fn the_search_reads_the_evaluation_at_its_rules_share() {
    const POSITION: &str = "
        . . . . . . . . .
        . . . x . . . . .
        . . . o x o . . .
        . . . . x . . . .
        . . . . . o . . .";
    for (rule, share) in [
        (Rule::Freestyle, 80),
        (Rule::Standard, 100),
        (Rule::Renju, 100),
    ] {
        let b = Board::from_diagram(POSITION, rule);
        let v = eval::evaluate(&b);
        assert!(
            v.abs() >= 50,
            "{rule:?}: {v} is too small to tell the shares apart"
        );
        let mut s = Searcher::new(0);
        let seen = s.with_worker(&b, &Limits::default(), &SearchControl::default(), |w| {
            w.static_value()
        });
        assert_eq!(seen, v * share / 100, "{rule:?}");
    }
}

/// A quiet freestyle middle-game position with no threat on the board.
fn quiet_position() -> Board {
    Board::from_diagram(
        "
        . . . . . . . . .
        . . . x . . . . .
        . . . o x o . . .
        . . . . x . . . .
        . . . . . o . . .",
        Rule::Freestyle,
    )
}

/// A tuner's values reach the search: the rule's own values given explicitly search the
/// same tree as none, and another share of the evaluation is what the workers read.
#[test]
fn a_tuners_params_reach_the_search() {
    let b = quiet_position();
    let run_to = |params: Option<Params>, depth: i32| {
        let limits = to_depth(depth);
        let mut s = Searcher::new(1 << 20);
        s.set_params(params);
        let r = s.think(&b, &limits, &SearchControl::default(), &mut |_| {});
        let seen = s.with_worker(&b, &limits, &SearchControl::default(), |w| w.static_value());
        (r.nodes, seen)
    };
    let run = |params: Option<Params>| run_to(params, 6);
    let shipped = Params::for_rule(Rule::Freestyle);
    assert_eq!(run(None), run(Some(shipped)));
    let mut wide = shipped;
    assert!(wide.set("eval_share", 100));
    assert!(wide.set("lmr_percent", 40));
    let (nodes, seen) = run(Some(wide));
    assert_eq!(seen, eval::evaluate(&b));
    assert_ne!(nodes, run(None).0, "smaller reductions, another tree");
    // futility by the reduced depth prunes late moves the node-wide test keeps: another tree
    let mut futile = shipped;
    assert!(futile.set("fut_lmr_plies", 3));
    assert_ne!(run_to(Some(futile), 10).0, run_to(None, 10).0);
}

/// Singular extensions, when on (`Params::se_depth`), reach the search (another tree)
/// and keep its answers: the same block of an open three, the same forced win.
#[test]
fn singular_extensions_change_the_tree_not_the_tactics() {
    let mut se = Params::for_rule(Rule::Freestyle);
    assert!(se.set("se_depth", 2));
    let think = |b: &Board, params: Option<Params>, depth: i32| {
        let mut s = Searcher::new(1 << 20);
        s.set_params(params);
        s.think(b, &to_depth(depth), &SearchControl::default(), &mut |_| {})
    };
    let quiet = quiet_position();
    let (on, off) = (think(&quiet, Some(se), 10), think(&quiet, None, 10));
    assert_ne!(on.nodes, off.nodes, "the test fires: another tree");
    assert!(quiet.is_legal(on.best.unwrap()));
    let three = Board::from_diagram(
        "
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . x x x . . . .
        . . . . o . . . . .
        . . . . . . . . . .
        . . . . . . . . . .",
        Rule::Freestyle,
    );
    let m = think(&three, Some(se), 8).best.unwrap();
    assert!([2, 6, 1, 7].map(|x| Pos::new(x, 3)).contains(&m), "{m:?}");
    let vcf = vcf_board();
    let r = think(&vcf, Some(se), 8);
    assert_eq!(
        (r.best, r.score),
        (Some(Pos::new(4, 5)), mate_in(5)),
        "{r:?}"
    );
}

/// The move loop picks the first moves one at a time and sorts the rest: both must give
/// the same order (score first, then cell index), or the tree changes with the switch.
#[test]
fn picking_and_sorting_give_the_same_order() {
    // scores with many ties, cells in a scrambled order
    let moves: Vec<Scored> = (0..60u16)
        .map(|i| Scored {
            mv: Pos::new(((i * 37) % 60 % 15) as usize, ((i * 37) % 60 / 15) as usize),
            score: i32::from((i * 7) % 5) * 10 - 15,
        })
        .collect();
    let mut picked = moves.clone();
    for i in 0..picked.len() {
        pick_best(&mut picked, i);
    }
    let mut sorted = moves.clone();
    sorted.sort_unstable_by(by_pick_order);
    let mut mixed = moves;
    for i in 0..PICK_BEFORE_SORT {
        pick_best(&mut mixed, i);
    }
    mixed[PICK_BEFORE_SORT..].sort_unstable_by(by_pick_order);
    let cells = |v: &[Scored]| v.iter().map(|m| (m.score, m.mv)).collect::<Vec<_>>();
    assert_eq!(cells(&picked), cells(&sorted));
    assert_eq!(cells(&mixed), cells(&sorted));
    assert!(sorted.windows(2).all(|w| w[0].score >= w[1].score));
}

/// Session 23's game 73 (renju, Rensa black against Rapfi) with 19 cells left, black to
/// move: one overline point (top left corner) that white need never fill.
const GAME_73_AT_19: &str = "
    . o x o o o x o o o o x . o x
    x x . o x x . o x x x . o o x
    x o o x o . x o . x o x x . o
    o . x x x o o o o x o o . x o
    x x o o o o x x x x o x o o o
    o o x x o x o o x o o o x x x
    o x x x x o x o x x x o x o x
    x x o o o o x o x x o x o o o
    x . x x o . o x o x o x x x x
    o x x o x x o x o o o x x x .
    o x o o o o x x o x x o o . o
    x x o o x x o x x o o x o o o
    o o x x o o x o x x x o x x x
    x o x x x x o o x o x o o . o
    o . o . x x . o x o x o . x o";

/// Renju, 15 cells left, black to move (the game four moves on): white (Rapfi) fills the
/// cells black may play until black has only overline points left, a forced foul. The
/// pruned search saw a full-board draw here (+40) and played into it; with so few cells
/// left every move is searched to the end.
#[test]
fn sees_the_forced_foul_near_a_full_board() {
    let mut b = Board::from_diagram(GAME_73_AT_19, Rule::Renju);
    for (x, y) in [(12, 0), (1, 14), (2, 1), (13, 2)] {
        b.make(Pos::new(x, y));
    }
    assert_eq!(b.side(), Color::Black);
    assert_eq!(b.empty_count(), 15);
    let r = best(&b, 17);
    assert!(r.score <= -WIN_MIN, "{r:?}");
}

/// Game 73 with 19 cells left: lost for black, too far from the end for the exact search at
/// 200 ms; the search scored it about −40 (a quiet board) before [`eval::renju_fill`].
#[test]
fn sees_black_short_of_cells_before_the_exact_end() {
    let b = Board::from_diagram(GAME_73_AT_19, Rule::Renju);
    assert_eq!((b.side(), b.empty_count()), (Color::Black, 19));
    let r = best(&b, 8);
    assert!(r.score <= -500, "{r:?}");
}

/// The evaluation corrections: a verdict the searches keep giving moves the position's
/// correction towards it, capped; the other side to move has tables of its own; a new game
/// forgets them.
#[test]
fn corrections_follow_the_search() {
    let b = quiet_position();
    let mut s = Searcher::new(0);
    let limits = Limits::default();
    let control = SearchControl::default();
    s.with_worker(&b, &limits, &control, |w| {
        assert_eq!(w.eval_correction(), 0);
        for _ in 0..300 {
            w.update_correction(300, 8 * ONE_PLY);
        }
        let c = w.eval_correction();
        assert!((290..=300).contains(&c), "{c}");
        for _ in 0..300 {
            w.update_correction(5_000, 8 * ONE_PLY);
        }
        let c = w.eval_correction();
        assert!((CORRECTION_MAX - 10..=CORRECTION_MAX).contains(&c), "{c}");
        // the same stones with the other side to move
        w.board.pass();
        assert_eq!(w.eval_correction(), 0);
    });
    // kept across searches, forgotten by a new game
    let kept = s.with_worker(&b, &limits, &control, |w| w.eval_correction());
    assert!(kept > 0);
    s.clear();
    assert_eq!(
        s.with_worker(&b, &limits, &control, |w| w.eval_correction()),
        0
    );
}

/// The table marks the nodes of the principal variation (Stockfish's `ttPv`), and not
/// every node it stores.
#[test]
fn the_table_marks_the_principal_variation() {
    let b = quiet_position();
    let limits = to_depth(6);
    let mut s = Searcher::new(1 << 20);
    let r = s.think(&b, &limits, &SearchControl::default(), &mut |_| {});
    let mut after = b.clone();
    after.make(r.pv[0]);
    let (root, child) = s.with_worker(&b, &limits, &SearchControl::default(), |w| {
        (w.tt.probe(b.hash(), 0), w.tt.probe(after.hash(), 1))
    });
    assert!(root.expect("the root is stored").pv);
    assert!(child.expect("the PV's first node is stored").pv);
    // a sibling of the PV's first move that the search refuted is not marked
    let unmarked = b
        .empty_cells()
        .filter(|&p| p != r.pv[0] && b.is_legal(p))
        .filter_map(|p| {
            let mut c = b.clone();
            c.make(p);
            s.with_worker(&b, &limits, &SearchControl::default(), |w| {
                w.tt.probe(c.hash(), 1)
            })
        })
        .filter(|h| !h.pv)
        .count();
    assert!(unmarked > 0);
}

/// A quiet move that the two static values say gained its mover more than the usual tempo
/// gains history, one that gained less loses it (`Params::eval_hist`).
#[test]
fn a_quiet_moves_history_follows_the_static_values() {
    let b = quiet_position();
    let (prev, c) = b.last_move().unwrap();
    let mut params = Params::for_rule(Rule::Freestyle);
    assert!(params.set("eval_hist", 32));
    let mut s = Searcher::new(1 << 20);
    s.set_params(Some(params));
    s.with_worker(&b, &to_depth(1), &SearchControl::default(), |w| {
        let mut after = |before: Score, now: Score| {
            (w.evals[0], w.evals[1]) = (before, now);
            w.reward_by_eval(1);
            w.history[prev.index()][c.index()]
        };
        // the first pair only sets the mean: no change
        let h0 = after(300, -100);
        assert_eq!(h0, 0);
        // the mover's opponent now stands 300 worse than usual: a good move
        let h1 = after(300, -400);
        assert!(h1 > h0, "{h1} {h0}");
        // and now 300 better: a poor one
        let h2 = after(300, 200);
        assert!(h2 < h1, "{h2} {h1}");
        // a threatened node (no static value) changes nothing
        assert_eq!(after(300, NO_EVAL), h2);
    });
}

#[test]
fn the_move_count_table_gives_the_formulas_limits() {
    let mut steep = Params::for_rule(Rule::Freestyle);
    assert!(steep.set("move_count_exp", 300));
    for params in [
        Params::for_rule(Rule::Freestyle),
        Params::for_rule(Rule::Renju),
        steep,
    ] {
        let table = MoveCounts::new(&params);
        // past the table, and at depths whose limit does not fit its entries, it computes
        for depth in -ONE_PLY..(MOVE_COUNT_DEPTHS as Depth + 3 * ONE_PLY) {
            for improving in [false, true] {
                assert_eq!(
                    table.get(depth, improving),
                    move_count_limit(&params, depth, improving),
                    "depth {depth}, improving {improving}"
                );
            }
        }
    }
}

#[test]
fn a_quiet_move_that_leaves_no_good_answer_gains_history() {
    let b = quiet_position();
    let (prev, c) = b.last_move().unwrap();
    for (bonus, want) in [(100, history_bonus(3 * ONE_PLY)), (0, 0)] {
        with_freestyle_worker(&b, "prior_bonus", bonus, |w| {
            let mut after = |before: Score, now: Score| {
                (w.evals[0], w.evals[1]) = (before, now);
                w.history[prev.index()][c.index()] = 0;
                w.reward_prior(1, 3 * ONE_PLY);
                w.history[prev.index()][c.index()]
            };
            // a quiet move: both nodes have a static value
            assert_eq!(after(100, -50), want, "prior_bonus {bonus}");
            // a four or an open three before or after it: no change
            assert_eq!(after(NO_EVAL, -50), 0);
            assert_eq!(after(100, NO_EVAL), 0);
        });
    }
}

#[test]
fn a_cut_off_near_the_root_orders_the_move_first_there_only() {
    let b = quiet_position();
    fn score_of<E: Evaluator>(w: &mut Worker<'_, E>, ply: usize, mv: Pos) -> Option<i32> {
        let moves = w.scored_moves(ply, None, Focus::All);
        moves.iter().find(|s| s.mv == mv).map(|s| s.score)
    }
    for weight in [100, 0] {
        with_freestyle_worker(&b, "low_ply", weight, |w| {
            let moves = w.scored_moves(1, None, Focus::All);
            let (mv, tried) = (moves[0].mv, moves[1].mv);
            let before = [1, 2, LOW_PLY].map(|ply| score_of(w, ply, mv).unwrap());
            let tried_before = score_of(w, 1, tried).unwrap();
            w.reward_low_ply(1, mv, &[tried], history_bonus(6 * ONE_PLY));
            let after = [1, 2, LOW_PLY].map(|ply| score_of(w, ply, mv).unwrap());
            if weight > 0 {
                assert!(after[0] > before[0], "{after:?} {before:?}");
                assert!(score_of(w, 1, tried).unwrap() < tried_before);
            } else {
                assert_eq!(after[0], before[0]);
            }
            // another ply, and the plies past the low ones, keep their order
            assert_eq!(after[1..], before[1..]);
        });
    }
}

#[test]
fn a_reduced_move_gets_its_ply_back_or_loses_another_by_what_it_cost() {
    let b = quiet_position();
    for margin in [150, 0] {
        with_freestyle_worker(&b, "hindsight", margin, |w| {
            let d = 6 * ONE_PLY;
            let mut at = |r: Depth, parent: Score, here: Score| {
                (w.prior_r[2], w.evals[1], w.evals[2]) = (r, parent, here);
                w.hindsight(d, 2)
            };
            let on = margin > 0;
            // the move kept its mover's value: a ply back after three off, not after two
            assert_eq!(at(3 * ONE_PLY, 100, -100), d + ONE_PLY * Depth::from(on));
            assert_eq!(at(2 * ONE_PLY, 100, -100), d);
            // it cost its mover more than the margin: a ply more off after two
            assert_eq!(at(2 * ONE_PLY, 100, 100), d - ONE_PLY * Depth::from(on));
            assert_eq!(at(2 * ONE_PLY, 100, -40), d);
            // not reduced, or the parent threatened: as it was
            assert_eq!(at(0, 100, 100), d);
            assert_eq!(at(3 * ONE_PLY, NO_EVAL, -100), d);
        });
    }
}

/// Runs `f` on a freestyle worker for `b` with the tunable `name` at `value`.
fn with_freestyle_worker<E: Evaluator>(
    b: &Board<E>,
    name: &str,
    value: i32,
    f: impl FnOnce(&mut Worker<E>),
) {
    let mut params = Params::for_rule(Rule::Freestyle);
    assert!(params.set(name, value));
    let mut s = Searcher::new(1 << 20);
    s.set_params(Some(params));
    s.with_worker(b, &to_depth(1), &SearchControl::default(), f);
}
