//! The search's tunable numbers in one place: each rule's defaults are the shipped values,
//! and a tuner (`examples/spsa.rs`) may hand a searcher other values by name. (SPSA of all
//! eleven at 40,000 nodes a move, session 18, found a plateau in freestyle and renju: the
//! tuned sets verified +2 and -11, see `scripts/tune/README.md`.)

use super::{Depth, ONE_PLY};
use crate::eval::Score;
use crate::rules::Rule;

/// The search's fixed numbers, beside the tunable ones below. Each has been where it is
/// since the search took its shape; the comments at their uses say what was measured.
///
/// Nodes at depth up to this skip their late quiet moves when far below alpha (futility).
pub const FUTILITY_MAX_DEPTH: Depth = 3 * ONE_PLY;
/// Late quiet moves are skipped at up to this many plies, from move 3 + plies² on.
pub const LATE_QUIET_MAX_PLIES: i32 = 6;
/// Once alpha rises at a node deeper than the first and shallower than the second, the
/// moves still to come are searched a ply shallower.
pub const ALPHA_RAISE_MIN_DEPTH: Depth = 2 * ONE_PLY;
pub const ALPHA_RAISE_MAX_DEPTH: Depth = 12 * ONE_PLY;
/// The few answers to an open-four threat are extended up to this ply.
pub const DEFEND_EXT_MAX_PLY: usize = 24;
/// The null move's reduction: this many plies, and one more for every
/// [`NULL_REDUCTION_PER`] plies of depth.
pub const NULL_REDUCTION_BASE: i32 = 2;
pub const NULL_REDUCTION_PER: i32 = 4;

/// Margins and reduction terms of the search. Integers, so that a tuner's values round
/// the same way every time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Reverse futility: a non-PV node whose static value beats beta by this much per ply of
    /// depth left (less one, and one more when improving) returns it. (About a third of a
    /// win-rate logit step: see the eval's scale.)
    pub rfp_margin: Score,
    /// Razoring: at depth <= 2 plies, a node this far below alpha per ply asks the quiescence.
    pub razor_margin: Score,
    /// Late quiet moves are skipped at depth <= 3 plies when the static value plus this per
    /// ply does not reach alpha. Freestyle boards of 18 or more a side take 190 (with
    /// `eval_share` 60 then, session 42; 190 alone on 20×20 +8 [-3, +19], 1,072 pairs at 40,000
    /// nodes a move, and 110 -8 [-23, +8]).
    pub futility_margin: Score,
    /// Late-move reduction factor, percent: ln(depth) × ln(move number + 1) × this / 100.
    /// Freestyle at 115 played +11 [-10, +33] before its evaluation share and -6 [-25, +13]
    /// after (500 games at 100 ms). Freestyle 20×20, 40,000 nodes a move, level openings:
    /// 115 -14 [-32, +4] (663 pairs, session 42); 85 with `eval_share` 50 on both sides +14
    /// [-1, +29] (1,076 pairs, session 43) and against Rapfi at 200 ms 50.0 % of 478 games
    /// against 49.0 % without it, but in self-play at 200 ms -42 [-84, -1] (200 games, where
    /// 50 % alone scored +21 [-20, +62]): 100 stays.
    pub lmr_percent: i32,
    /// Reduction taken off at PV nodes, added when not improving, added at cut nodes, in
    /// sixteenths of a ply.
    pub lmr_pv: Depth,
    pub lmr_not_improving: Depth,
    pub lmr_cut: Depth,
    /// A move's history score over this is a ply less reduction (negative: a ply more).
    pub lmr_history_div: i32,
    /// Move-count pruning: moves searched before it, base + depth^(exp / 100) in plies,
    /// halved when not improving.
    pub move_count_base: i32,
    pub move_count_exp: i32,
    /// The share (percent) of the static evaluation the search reads. Its margins were set
    /// against the classical evaluation; the trained networks score positions further apart.
    /// In freestyle 80 % against 100 %: +33 [+11, +55] over 500 games at 100 ms a move, +23
    /// [+0, +45] over 400 at 200 ms (+16 [-3, +36] over 500 at 40,000 nodes a move); 70 %
    /// against 80 %: +4 [-18, +26] over 500 at 100 ms. The other rules keep all (perhaps
    /// because only freestyle's network was fitted to deep search scores): standard at 80 %
    /// +4 [-16, +25], renju at 80 % +5 [-15, +26] (400 games, 200 ms) and at 125 % -11 [-31,
    /// +9], renju's deep-label network (not shipped) at 80 % -4 [-24, +15] (500 games at 100
    /// ms unless said). Caro was not measured. Freestyle 20×20 at 70 against 80 (session
    /// 42, 40,000 nodes a move, level openings): +16 [-2, +33] (681 pairs) and +18 [+5, +30]
    /// (1,331); against Rapfi at 200 ms, 46.1 % of 477 games against 45.4 % of 480 on the
    /// same openings. Then 60 against 70 +8 [-6, +22] (1,022 pairs), and 60 with
    /// `futility_margin` 190 +19 [+8, +30] (1,578); against Rapfi 47.0 % of 479. Session 43,
    /// against 60: 50 +15 [+2, +28] (1,100 pairs); against 50, 40 -12 [-26, +1] (1,040);
    /// against Rapfi 49.0 % of 478 with 50 (47.0 % with 60, same openings), and in self-play
    /// at 200 ms +21 [-20, +62] (200 games). So freestyle boards of 18 or more a side take 50
    /// ([`Params::for_board`]).
    pub eval_share: Score,
    /// The null move is tried from this depth on, in plies. Freestyle from 6 against 3, at
    /// 40,000 nodes a move: +23.6 [+11.5, +35.8] (656 pairs), from 10 (where Rapfi keeps its
    /// own) +9.4 [-2.1, +21.0] (664 pairs); but from 6 at 200 ms a move +9 [-11, +28] and -21
    /// [-41, -1] (400 games each, session 22), and -23 [-54, +8] on the level openings
    /// (`freestyle-15-v2.txt`, session 23), so 3 stays.
    pub null_min_depth: i32,
    /// Internal iterative reduction, in sixteenths of a ply: taken off a node from 4 plies
    /// on that the table knows nothing of, at PV nodes and (`iir_nonpv`) elsewhere. At PV
    /// nodes, freestyle, 40,000 nodes a move on the level openings (about 440 pairs each,
    /// session 24): 5 (Rapfi's 0.32 ply) -20 [-41, +1], with 11 elsewhere -19 [-40, +2];
    /// 32 +13 [-9, +34]; 48 -1 [-21, +19]; 32 with 32 elsewhere -4 [-26, +18]. A plateau.
    pub iir_pv: Depth,
    pub iir_nonpv: Depth,
    /// How far below zero a late move's reduction may go (sixteenths of a ply): a move with
    /// a good history searched deeper than the others. 0: never deeper. (A ply, as Rapfi
    /// allows: +3 [-18, +24], 452 pairs at 40,000 nodes a move, session 24.)
    pub lmr_deeper: Depth,
    /// How much of the evaluation correction learned during the search (`Worker::
    /// eval_correction`) the static value takes, per cent (0: none). Freestyle 15×15 on the
    /// level openings, against 0 (session 29, 400 games each, pentanomial 95 %): +23 [-6,
    /// +53] at 40,000 nodes a move, +10 [-19, +39] and +23 [-8, +53] at 200 ms. Standard 15×15:
    /// +36 [+4, +68] at 40,000 nodes, +5 [-23, +34], +37 [+5, +69] and +22 [-8, +51] at 200 ms.
    /// Renju -10 [-42, +23] at 40,000 nodes and -8 [-38, +22] at 200 ms: renju and caro keep 0.
    pub corr_weight: Score,
    /// Continuation history ([`super::cont`]): how much of it (per cent) the move ordering
    /// and the late-move reductions add to the history's score; with both 0 it is not kept.
    /// Both at 100 against none, freestyle 15×15 on the level openings (session 31, 400
    /// games each, pentanomial 95 %): +61 [+29, +95] at 40,000 nodes a move and +16 [-13,
    /// +44] at 200 ms (with a window of 7 cells around the earlier move instead of 4: +45
    /// [+12, +78] and +13 [-17, +44]). `cont_lmr` 50 against 100 (session 32): +20 [+1, +39]
    /// at 40,000 nodes (535 pairs); at 200 ms +13 and -3 in 400 games each, +5 [-16, +26]
    /// over the 800, 0.4 ply deeper. Standard and renju at (100, 50) against none (session
    /// 33): standard +57 [+38, +76] at 40,000 nodes (575 pairs); at 200 ms, standard +32 [+10,
    /// +54] (695 games) and renju +42 [+18, +66] (668 games). Caro keeps none (no anchor to
    /// check it against). `cont_lmr` 25 against 50 at 40,000 nodes: freestyle -4 [-26, +18]
    /// (session 33), renju +5 [-14, +24] and standard +8 [-10, +27] (session 34): 50 stays.
    pub cont_order: i32,
    pub cont_lmr: i32,
    /// The share (per cent) of the history that a new search keeps from the game's last one
    /// (0 to 100). Freestyle 75 against a quarter (session 35, level openings, pentanomial
    /// 95 %): +13 [-3, +30] at 40,000 nodes a move (518 pairs) and +6 [-19, +31] over 400
    /// games at 200 ms, so freestyle keeps 75. Standard -5 [-29, +20] (312 pairs) and renju
    /// -7 [-27, +13] (393 pairs) at 40,000 nodes: they keep a quarter, as caro.
    pub hist_keep: i32,
    /// Facing an open-four threat with at most this many answers, a node is extended a ply.
    /// 3 against 4, freestyle at 40,000 nodes a move (session 35): +8 [-12, +27], 504 pairs.
    /// 6 against 4 (session 39): 15×15 +21 [+6, +35] (1,029 pairs) but 20×20 -36 [-49, -24]
    /// (1,317 pairs), so 4 stays. Session 41, 20×20: 3 -17 [-31, -3] (1,076 pairs), 2 +13
    /// [+0, +26] and +12 [-1, +25] (1,077 and 1,114); 15×15: 2 -19 [-34, -4] (851). Against
    /// Rapfi on 20×20 at 200 ms, 2 scored 45.4 % of 480 games, 4 44.1 % of 478 (four pairs on
    /// the same openings). So freestyle boards of 18 or more a side take 2
    /// ([`Params::for_board`]). Session 48, 6 again on 15×15 (now that 20×20 has its own):
    /// -19 [-34, -5] (1,031 pairs); renju 6 -28 [-42, -15] (1,082), 3 -25 [-40, -10] (934), 2
    /// -5 [-19, +10] (1,008): 4 stays in both.
    pub defend_ext_moves: i32,
    /// The quiescence: levels below the horizon where any four is tried (past them only
    /// fours with a second threat), and the most levels it searches.
    pub q_plain_levels: i32,
    pub q_max_levels: i32,
    /// Reduction taken off late moves at nodes that are or were on a principal variation
    /// (the table keeps the mark, Stockfish's and Rapfi's `ttPv`; Rapfi takes 0.97 ply), in
    /// sixteenths of a ply, on top of `lmr_pv` at PV nodes. Freestyle at 40,000 nodes a move
    /// (session 36, level openings): 16 -7 [-22, +9] (804 pairs), 8 -23 [-45, -1] (394), so 0.
    pub lmr_ttpv: Depth,
    /// 1: reverse futility is not tried at non-PV nodes that are or were on a principal
    /// variation (as Stockfish); 0: it is. Freestyle 1 against 0 (session 36, level
    /// openings): +34 [+12, +56] at 40,000 nodes a move (366 pairs) and +42 [+13, +72] over
    /// 400 games at 200 ms. Standard +54 [+32, +75] (373 pairs) and +40 [+10, +71] (400
    /// games); renju +18 [-3, +40] (445 pairs) and +10 [-22, +42] (400 games): both
    /// positive, so renju takes it too. Caro, not measured, keeps 0.
    pub rfp_no_ttpv: i32,
    /// How far a quiet move's change of the static value moves its history, in sixteenths
    /// (0: not at all; `Worker::reward_by_eval`). Freestyle 32 against 0 (session 38, level
    /// openings, 40,000 nodes a move): +18 [-0, +37] on 15×15 (525 pairs) and +36 [+19,
    /// +54] on 20×20 (662 pairs), +39 [-1, +80] over 250 self-play games at 200 ms on 20×20;
    /// but against Rapfi at 200 ms, on the same openings as the build without it, 38.7 %
    /// against 42.9 % (fs15, 119 games each) and 40.7 % against 46.7 % (fs20, 118 and 120):
    /// every rule keeps 0.
    pub eval_hist: i32,
    /// Per cent of a cut-off's history bonus that the table's move gets when the table's
    /// bound cuts the node (Stockfish's), when it is quiet. 0: none. Freestyle 100 against 0
    /// (session 39, level openings, 40,000 nodes a move): -2 [-17, +13] (832 pairs), so 0.
    pub tt_hist: i32,
    /// Per cent of a cut-off's history bonus that the quiet move leading to a node gets
    /// when the node fails low (no answer reached alpha: Stockfish's prior-move bonus).
    /// Freestyle 100 against 0 (session 39, level openings, 40,000 nodes a move): +30 [+15,
    /// +46] on 15×15 (825 pairs); against Rapfi at 200 ms, on the same openings as the build
    /// without it, 54.2 % against 40.4 % and 46.7 % against 52.1 % (fs15), 47.5 % against
    /// 42.5 % (fs20), 120 games each. Freestyle 100. Session 40, 40,000 nodes a move:
    /// renju +15 [+2, +29] (1,128 pairs), against Rapfi 50.2 % against 49.4 % of 240 games
    /// (two pairs), so renju 100; standard -0 [-15, +15] (874 pairs), so 0, as caro (not
    /// measured).
    pub prior_bonus: i32,
    /// Weight, per cent, of a history kept apart for the first four plies of each search
    /// and cleared when it starts (Stockfish's low-ply history), in move ordering there;
    /// 0: none. Freestyle 100 against 0 (session 40, level openings, 40,000 nodes a move):
    /// -30 [-48, -13] (682 pairs), so 0.
    pub low_ply: i32,
    /// Plies taken off the root's re-search after each fail-high of its aspiration window
    /// (at most three, never below half the depth; a fail-low restores the depth), as
    /// Stockfish; 0: none. Freestyle 1 against 0 (session 40, as `low_ply`): -21 [-39, -4]
    /// (642 pairs), so 0.
    pub asp_fh: i32,
    /// Stockfish's hindsight depth (`Worker::hindsight`): the static value the move into
    /// a node reduced two plies or more must have cost its mover for the node to lose a ply;
    /// one reduced three or more that cost nothing gains a ply. 0: off. Freestyle 150
    /// against 0 (session 40, as `low_ply`): -27 [-45, -10] (648 pairs), so 0.
    pub hindsight: i32,
    /// Futility of each late quiet move by the depth its reduction leaves it (Stockfish's
    /// `lmrDepth`): at a non-PV node, a quiet move whose reduced depth is at most this many
    /// plies is skipped when the static value plus `futility_margin` per ply of that depth
    /// (plus one) does not reach alpha. 0: off (only whole nodes of 3 plies or less are
    /// futile). Makes the pruning grow with depth, where the node-wide test stops at 3 plies.
    /// Freestyle 3 against 0 (issue 70, level openings): +2 [-10, +15] at 40,000 nodes a move
    /// (1,339 pairs) and -17 [-41, +6] at 160,000 (280 pairs), so 0 in every rule.
    pub fut_lmr_plies: i32,
    /// Singular extensions (Stockfish's, `Worker::singular_test`): from this depth in
    /// plies, a node searches itself without the table's move at half depth, against the
    /// table's score less `se_margin` a ply; when nothing else gets there the move is a ply
    /// deeper, when something else beats beta the node fails high (multi-cut), and a move
    /// not singular whose bound is at beta gets a ply less. 0: off. Session 20 (commit
    /// d0d593e, from 7 plies, margin 3 a ply, with double extensions): no gain at 40,000
    /// nodes a move, off +6 [-7, +19] (622 pairs). Issue 70, this form from 6 plies against
    /// off, freestyle 15×15 at 160,000 nodes a move: +28 [+14, +43] (701 pairs, two seeds);
    /// not yet measured at a time control, so off (see `scripts/tune/README.md`).
    pub se_depth: i32,
    pub se_margin: Score,
}

/// The shortest side from which a board counts as large in [`Params::for_board`]: where
/// freestyle plays its large-board network too.
pub use crate::cells::net::LARGE_SIDE;

/// A tunable value: its name, and where it sits in [`Params`].
type Field = (&'static str, fn(&mut Params) -> &mut i32);

/// Every tunable value, by name.
const FIELDS: [Field; 33] = [
    ("rfp_margin", |p| &mut p.rfp_margin),
    ("razor_margin", |p| &mut p.razor_margin),
    ("futility_margin", |p| &mut p.futility_margin),
    ("lmr_percent", |p| &mut p.lmr_percent),
    ("lmr_pv", |p| &mut p.lmr_pv),
    ("lmr_not_improving", |p| &mut p.lmr_not_improving),
    ("lmr_cut", |p| &mut p.lmr_cut),
    ("lmr_history_div", |p| &mut p.lmr_history_div),
    ("move_count_base", |p| &mut p.move_count_base),
    ("move_count_exp", |p| &mut p.move_count_exp),
    ("eval_share", |p| &mut p.eval_share),
    ("null_min_depth", |p| &mut p.null_min_depth),
    ("iir_pv", |p| &mut p.iir_pv),
    ("iir_nonpv", |p| &mut p.iir_nonpv),
    ("lmr_deeper", |p| &mut p.lmr_deeper),
    ("corr_weight", |p| &mut p.corr_weight),
    ("cont_order", |p| &mut p.cont_order),
    ("cont_lmr", |p| &mut p.cont_lmr),
    ("hist_keep", |p| &mut p.hist_keep),
    ("defend_ext_moves", |p| &mut p.defend_ext_moves),
    ("q_plain_levels", |p| &mut p.q_plain_levels),
    ("q_max_levels", |p| &mut p.q_max_levels),
    ("lmr_ttpv", |p| &mut p.lmr_ttpv),
    ("rfp_no_ttpv", |p| &mut p.rfp_no_ttpv),
    ("eval_hist", |p| &mut p.eval_hist),
    ("tt_hist", |p| &mut p.tt_hist),
    ("prior_bonus", |p| &mut p.prior_bonus),
    ("low_ply", |p| &mut p.low_ply),
    ("asp_fh", |p| &mut p.asp_fh),
    ("hindsight", |p| &mut p.hindsight),
    ("fut_lmr_plies", |p| &mut p.fut_lmr_plies),
    ("se_depth", |p| &mut p.se_depth),
    ("se_margin", |p| &mut p.se_margin),
];

impl Params {
    /// The shipped values for `rule`.
    pub fn for_rule(rule: Rule) -> Params {
        let (lmr_percent, eval_share, corr_weight, (cont_order, cont_lmr), hist_keep) = match rule {
            Rule::Freestyle => (100, 80, 100, (100, 50), 75),
            Rule::Caro | Rule::CaroExact => (100, 100, 0, (0, 0), 25),
            Rule::Standard => (78, 100, 100, (100, 50), 25),
            // Rapfi's 0.75; 1.0 scored +15 twice at equal nodes, then -7 [-29, +15] over 400
            // games at 200 ms a move
            Rule::Renju => (75, 100, 0, (100, 50), 25),
        };
        Params {
            rfp_margin: 190,
            razor_margin: 300,
            futility_margin: 150,
            lmr_percent,
            lmr_pv: ONE_PLY,
            lmr_not_improving: ONE_PLY,
            lmr_cut: ONE_PLY,
            lmr_history_div: 8192,
            move_count_base: 3,
            move_count_exp: 132,
            eval_share,
            null_min_depth: 3,
            iir_pv: ONE_PLY,
            iir_nonpv: ONE_PLY,
            lmr_deeper: 0,
            corr_weight,
            cont_order,
            cont_lmr,
            hist_keep,
            defend_ext_moves: 4,
            q_plain_levels: 2,
            q_max_levels: 8,
            lmr_ttpv: 0,
            rfp_no_ttpv: i32::from(!matches!(rule, Rule::Caro | Rule::CaroExact)),
            eval_hist: 0,
            tt_hist: 0,
            prior_bonus: if matches!(rule, Rule::Freestyle | Rule::Renju) {
                100
            } else {
                0
            },
            low_ply: 0,
            asp_fh: 0,
            hindsight: 0,
            fut_lmr_plies: 0,
            se_depth: 0,
            se_margin: 3,
        }
    }

    /// The shipped values for a `width`×`height` board of `rule`: the rule's, but freestyle
    /// boards of [`LARGE_SIDE`] or more a side extend fewer defences, read less of the static
    /// evaluation and prune late quiet moves with a wider futility margin (measured on 15×15
    /// and 20×20 only; the cut sits between them).
    pub fn for_board(rule: Rule, width: usize, height: usize) -> Params {
        let mut p = Params::for_rule(rule);
        if rule == Rule::Freestyle && width.min(height) >= LARGE_SIDE {
            p.defend_ext_moves = 2;
            p.eval_share = 50;
            p.futility_margin = 190;
        }
        p
    }

    /// The names of the tunable values.
    pub fn names() -> impl Iterator<Item = &'static str> {
        FIELDS.iter().map(|f| f.0)
    }

    /// The value called `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<i32> {
        let mut p = *self;
        FIELDS.iter().find(|f| f.0 == name).map(|f| *(f.1)(&mut p))
    }

    /// Sets the value called `name`; false (and nothing changed) when there is none, or the
    /// value would break the search (a zero divisor, a negative margin or share).
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        let ok = match name {
            "lmr_history_div" => value != 0,
            "move_count_exp" => (0..=300).contains(&value),
            // more than all would push the history past its bound
            "hist_keep" => (0..=100).contains(&value),
            _ => value >= 0,
        };
        match FIELDS.iter().find(|f| f.0 == name) {
            Some(f) if ok => {
                *(f.1)(self) = value;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_and_writes_its_own_field() {
        let base = Params::for_rule(Rule::Freestyle);
        for name in Params::names() {
            let mut p = base;
            let v = p.get(name).expect("a listed name reads") + 7;
            assert!(p.set(name, v), "{name}");
            assert_eq!(p.get(name), Some(v), "{name}");
            // exactly one field changed
            let changed = Params::names()
                .filter(|n| p.get(n) != base.get(n))
                .collect::<Vec<_>>();
            assert_eq!(changed, [name]);
        }
    }

    #[test]
    fn large_freestyle_boards_take_their_own_values() {
        let fs = Params::for_rule(Rule::Freestyle);
        assert_eq!(fs.defend_ext_moves, 4);
        assert_eq!(Params::for_board(Rule::Freestyle, 15, 15), fs);
        assert_eq!(Params::for_board(Rule::Freestyle, 17, 20), fs);
        let large = Params::for_board(Rule::Freestyle, 20, 20);
        let values = (
            large.defend_ext_moves,
            large.eval_share,
            large.futility_margin,
        );
        assert_eq!(values, (2, 50, 190));
        assert_eq!(Params::for_board(Rule::Freestyle, 18, 32), large);
        // only those values differ
        let changed = Params::names()
            .filter(|n| large.get(n) != fs.get(n))
            .collect::<Vec<_>>();
        assert_eq!(
            changed,
            ["futility_margin", "eval_share", "defend_ext_moves"]
        );
        for rule in [Rule::Standard, Rule::Renju, Rule::Caro, Rule::CaroExact] {
            assert_eq!(Params::for_board(rule, 20, 20), Params::for_rule(rule));
        }
    }

    #[test]
    fn bad_names_and_values_are_refused() {
        let mut p = Params::for_rule(Rule::Renju);
        let before = p;
        assert!(!p.set("no_such_value", 1));
        assert!(!p.set("lmr_history_div", 0));
        assert!(!p.set("rfp_margin", -1));
        assert!(!p.set("move_count_exp", 301));
        assert!(!p.set("hist_keep", 101));
        assert_eq!(p, before);
        assert_eq!(p.get("no_such_value"), None);
    }

    #[test]
    fn rules_keep_their_own_defaults() {
        assert_eq!(Params::for_rule(Rule::Freestyle).eval_share, 80);
        assert_eq!(Params::for_rule(Rule::Caro).eval_share, 100);
        assert_eq!(Params::for_rule(Rule::Standard).lmr_percent, 78);
        assert_eq!(Params::for_rule(Rule::Renju).lmr_percent, 75);
        assert_eq!(Params::for_rule(Rule::Freestyle).corr_weight, 100);
        assert_eq!(Params::for_rule(Rule::Standard).corr_weight, 100);
        assert_eq!(Params::for_rule(Rule::Renju).corr_weight, 0);
        assert_eq!(Params::for_rule(Rule::Freestyle).cont_order, 100);
        assert_eq!(Params::for_rule(Rule::Freestyle).cont_lmr, 50);
        assert_eq!(Params::for_rule(Rule::Standard).cont_lmr, 50);
        assert_eq!(Params::for_rule(Rule::Renju).cont_order, 100);
        assert_eq!(Params::for_rule(Rule::Caro).cont_order, 0);
        assert_eq!(Params::for_rule(Rule::Freestyle).hist_keep, 75);
        assert_eq!(Params::for_rule(Rule::Standard).hist_keep, 25);
        assert_eq!(Params::for_rule(Rule::Renju).hist_keep, 25);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            assert_eq!(Params::for_rule(rule).rfp_no_ttpv, 1, "{rule:?}");
        }
        assert_eq!(Params::for_rule(Rule::Caro).rfp_no_ttpv, 0);
        assert_eq!(Params::for_rule(Rule::CaroExact).rfp_no_ttpv, 0);
        for rule in [
            Rule::Freestyle,
            Rule::Standard,
            Rule::Renju,
            Rule::Caro,
            Rule::CaroExact,
        ] {
            assert_eq!(Params::for_rule(rule).eval_hist, 0, "{rule:?}");
            assert_eq!(Params::for_rule(rule).tt_hist, 0, "{rule:?}");
            assert_eq!(Params::for_rule(rule).low_ply, 0, "{rule:?}");
            assert_eq!(Params::for_rule(rule).asp_fh, 0, "{rule:?}");
            assert_eq!(Params::for_rule(rule).hindsight, 0, "{rule:?}");
            assert_eq!(Params::for_rule(rule).fut_lmr_plies, 0, "{rule:?}");
            let prior = if matches!(rule, Rule::Freestyle | Rule::Renju) {
                100
            } else {
                0
            };
            assert_eq!(Params::for_rule(rule).prior_bonus, prior, "{rule:?}");
        }
    }
}
