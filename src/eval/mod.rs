//! Static evaluation and move-ordering scores, from the board's threat counts.
//!
//! The evaluation has two parts. The threat-count model ([`count_value`], every weight in
//! this file) is a weighted sum of two histograms the board keeps incrementally for each
//! colour: line patterns over (empty cell, line) pairs and threat classes over empty cells;
//! the side to move gets the larger attack weights because it acts first. On top of it come
//! the fitted corrections of [`crate::cells`]: a value per empty cell by its pattern code
//! (summed by the board on make/undo) and a value for the pair of the two sides' strongest
//! threats ([`threat_bucket`]), which a sum over cells cannot express.
//!
//! The evaluation weights are fitted to game results (logistic regression of the result on
//! the counts, `examples/tune_eval.rs`, see `scripts/tune/README.md`): 2,700 self-play games
//! at 40–70 ms a move over freestyle, standard and renju, 65,145 positions not decided by
//! the static win checks. Only the sums of a pattern weight and the threat weights it
//! implies mean much (an open-two cell is worth about nothing once both are counted), so
//! single negative entries are expected.

use crate::board::{Accumulator, Board, Classical, Color, Pos};
use crate::cells::BUCKETS;
use crate::pattern::{Pattern, Threat, PATTERN_COUNT, THREAT_COUNT};
use crate::rules::Rule;

pub mod net;

/// Score units: about 600 is a 73% expected result for the side ahead (the fitted
/// logistic scale).
pub type Score = i32;

/// A proven win in `n` plies scores `WIN - n`.
pub const WIN: Score = 30_000;
/// Scores beyond this (in absolute value) are proven results.
pub const WIN_MIN: Score = WIN - 1_000;
pub const INFINITE: Score = WIN + 1;

/// Weight of one (empty cell, line) pair with a given pattern, indexed by [`Pattern`].
pub const PATTERN_WEIGHT: [Score; PATTERN_COUNT] = [
    0,   // Dead
    0,   // Overline
    -1,  // Block1
    1,   // Flex1
    2,   // Block2
    44,  // Flex2
    38,  // Block3
    -36, // Flex3
    236, // Block4
    458, // Flex4
    0,   // DoubleFour (renju black: a foul)
    0,   // Five (handled by the win checks)
];

/// Weight of one empty cell with a threat class, for the side to move, by [`Threat`].
pub const THREAT_WEIGHT_TO_MOVE: [Score; THREAT_COUNT] = [
    0,    // None
    0,    // Forbid
    -46,  // Flex2
    -19,  // Block3
    -63,  // Flex2x2
    -10,  // Block3Plus
    112,  // Flex3
    149,  // Flex3Plus
    357,  // Flex3x2
    -100, // Block4
    51,   // Block4Plus
    1089, // Block4Flex3
    1338, // Flex4
    0,    // Five
];

/// The same for the side that has just moved.
pub const THREAT_WEIGHT_WAITING: [Score; THREAT_COUNT] = [
    0,    // None
    0,    // Forbid
    -51,  // Flex2
    -18,  // Block3
    -72,  // Flex2x2
    -23,  // Block3Plus
    85,   // Flex3
    101,  // Flex3Plus
    279,  // Flex3x2
    -127, // Block4
    -12,  // Block4Plus
    393,  // Block4Flex3
    32,   // Flex4
    0,    // Five
];

/// Bonus for simply having the move.
pub const TEMPO: Score = 106;

fn side_value(board: &Board<Classical>, c: Color, weights: &[Score; THREAT_COUNT]) -> Score {
    let acc = board.accumulator();
    let mut v = 0;
    for (i, &w) in PATTERN_WEIGHT.iter().enumerate() {
        v += w * acc.pattern_count(c, Pattern::from_u8(i as u8)) as Score;
    }
    for t in Threat::ALL {
        v += weights[t as usize] * board.count(c, t) as Score;
    }
    v
}

/// A static evaluation: an [`Accumulator`] the board keeps up to date on make and undo,
/// and the value it gives a position.
pub trait Evaluator: Accumulator {
    /// The value of `board` for the side to move, within `-WIN_MIN..WIN_MIN` (the board's
    /// threat counts are there to read as well as the accumulator's sums).
    fn evaluate(board: &Board<Self>) -> Score;
}

/// The static value of the position for the side to move, by the board's evaluator.
#[inline]
pub fn evaluate<E: Evaluator>(board: &Board<E>) -> Score {
    E::evaluate(board)
}

impl Evaluator for Classical {
    /// The threat-count model plus the fitted corrections of [`crate::cells`].
    #[inline]
    fn evaluate(board: &Board<Classical>) -> Score {
        let acc = board.accumulator();
        let me = board.side();
        let opp = me.opponent();
        let bucket = threat_bucket(board, me) * BUCKETS + threat_bucket(board, opp);
        let v = count_value(board) + acc.cell_values(me, true) - acc.cell_values(opp, false)
            + acc.tables().threats[bucket] as Score;
        v.clamp(-WIN_MIN + 1, WIN_MIN - 1)
    }
}

/// The threat-count model alone (what the tables of `crate::cells` correct), for the
/// fitting tools.
pub fn count_value(board: &Board<Classical>) -> Score {
    let me = board.side();
    side_value(board, me, &THREAT_WEIGHT_TO_MOVE)
        - side_value(board, me.opponent(), &THREAT_WEIGHT_WAITING)
        + TEMPO
}

/// The bucket of colour `c`'s strongest threat, for the threat table of
/// [`crate::cells::CellTables`]: 0 nothing from an open three or a four up, then a four,
/// an open three, three plus, four plus, double three, four-three, open four.
pub fn threat_bucket<A: Accumulator>(board: &Board<A>, c: Color) -> usize {
    const ORDER: [Threat; 7] = [
        Threat::Flex4,
        Threat::Block4Flex3,
        Threat::Flex3x2,
        Threat::Block4Plus,
        Threat::Flex3Plus,
        Threat::Flex3,
        Threat::Block4,
    ];
    ORDER
        .iter()
        .position(|&t| board.count(c, t) > 0)
        .map_or(0, |i| ORDER.len() - i)
}

/// Ordering value of making a threat of each class, by [`Threat`].
const ATTACK: [i32; THREAT_COUNT] = [
    0, -1000, 20, 16, 60, 45, 110, 170, 700, 75, 150, 2000, 6000, 100_000,
];
/// Ordering value of occupying a cell where the opponent has a threat of each class.
const DEFEND: [i32; THREAT_COUNT] = [
    0, 0, 14, 10, 45, 32, 70, 110, 450, 55, 110, 1200, 4000, 50_000,
];
/// Ordering value of each line pattern, both for us and for the opponent.
const LINE: [i32; PATTERN_COUNT] = [0, 0, 1, 2, 2, 5, 4, 10, 10, 20, 0, 0];

/// Ordering score of the side to move playing `p` (higher first). `my_threat` is the class
/// to use for the mover (renju black's exact one).
pub fn move_score<A: Accumulator>(board: &Board<A>, p: Pos, my_threat: Threat) -> i32 {
    let me = board.side();
    let opp = me.opponent();
    let cell = board.cell(p);
    let mut s = ATTACK[my_threat as usize] + DEFEND[cell.threat(opp) as usize];
    for d in 0..4 {
        s += LINE[cell.pattern(me, d) as usize] + LINE[cell.pattern(opp, d) as usize];
    }
    s
}

/// Renju: from this many empty cells on, [`renju_fill`] weighs black's forbidden cells.
/// (Of 480 renju games against Rapfi at 200 ms a move, sessions 23-25, all 10 that reached
/// 100 empty cells filled the board, and half of the 20 that reached 120.)
pub const FILL_HORIZON: usize = 100;
/// Renju: what [`renju_fill`] gives a lost fill with one empty cell left...
pub const FILL_LOSS: Score = 1500;
/// ... in per cent by how many lasting fouls black has beyond what it can spare.
const FILL_SHARE: [Score; 4] = [0, 60, 85, 100];

/// Renju near a full board, for the side to move: black cannot fill the board when it
/// has too many lasting forbidden cells (overlines for good, double fours unless white
/// breaks them, which it need not; double threes are left out, as white's ordinary blocks
/// undo them). White need never fill one and each black move takes an allowed cell, so if
/// black is to make the last move of a full board, one such cell leaves it without a move
/// (a foul, not a draw), and two always do. The plain evaluation sees a quiet,
/// drawn-looking board there while the game is white's: session 23's four full-board
/// fouls were lost this way long before the exact end could see it. Worth more the fewer
/// cells remain; 0 on other rules, with room to spare, or when black can still fill.
pub fn renju_fill<A: Accumulator>(board: &Board<A>) -> Score {
    if board.rule() != Rule::Renju {
        return 0;
    }
    let empty = board.empty_count();
    if empty == 0 || empty > FILL_HORIZON {
        return 0;
    }
    // black makes the last move when the moves left end on black's
    let black_to_move = board.side() == Color::Black;
    let black_last = black_to_move == (empty % 2 == 1);
    let excess = board
        .lasting_fouls()
        .saturating_sub(usize::from(!black_last));
    if excess == 0 {
        return 0;
    }
    // white may yet fill or break one (for a threat of its own, or blocking a line of a
    // double four), so each one more makes the loss surer
    let share = FILL_SHARE[excess.min(FILL_SHARE.len() - 1)];
    let v = FILL_LOSS * share / 100 * (FILL_HORIZON + 1 - empty) as Score / FILL_HORIZON as Score;
    if black_to_move {
        -v
    } else {
        v
    }
}

/// The logistic scale of [`win_probability`] by rule: `sigmoid(score / K)` fitted by maximum
/// likelihood to the results of games, on the searches of `pbrain-rensa analyze`
/// (`scripts/calibrate.py`: 300 self-play games at 20,000 nodes a move from balanced
/// openings, analysed at 30,000 nodes a position; freestyle also 100 games against Rapfi at
/// 100 ms). Freestyle 343 (self-play) and 436 (against Rapfi), standard 545, renju 521,
/// caro 1,429 (caro's fives are often blocked, so a lead says less); exact-five caro takes
/// caro's.
pub fn win_probability_scale(rule: Rule) -> f64 {
    match rule {
        Rule::Freestyle => 400.0,
        Rule::Standard => 550.0,
        Rule::Renju => 520.0,
        Rule::Caro | Rule::CaroExact => 1400.0,
    }
}

/// The side to move's chance to win from a search's score under `rule`: 1 or 0 for a
/// proven result, else the fitted logistic curve (a draw counts half).
pub fn win_probability(s: Score, rule: Rule) -> f64 {
    if s >= WIN_MIN {
        1.0
    } else if s <= -WIN_MIN {
        0.0
    } else {
        1.0 / (1.0 + (-(s as f64) / win_probability_scale(rule)).exp())
    }
}

/// Mate-distance helpers.
pub fn mate_in(ply: usize) -> Score {
    WIN - ply as Score
}
pub fn mated_in(ply: usize) -> Score {
    -WIN + ply as Score
}
pub fn is_mate_score(s: Score) -> bool {
    s.abs() >= WIN_MIN
}

/// Text for a score: `+M5` / `-M4` for proven results (plies to the end), else the number.
pub fn score_text(s: Score) -> String {
    if s >= WIN_MIN {
        format!("+M{}", WIN - s)
    } else if s <= -WIN_MIN {
        format!("-M{}", WIN + s)
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_three_is_good_for_its_owner() {
        let b = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . o . . . .
            . . x x x . . . .
            . . . o . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Rule::Freestyle,
        );
        // white to move, black has an open three
        assert_eq!(b.side(), Color::White);
        assert!(evaluate(&b) < 0);
    }

    /// The board's running sums of the cell tables equal a plain sum over the empty cells,
    /// with each code computed from the cell's patterns; so `evaluate` is the threat-count
    /// model plus exactly the corrections the fit describes.
    #[test]
    fn evaluate_adds_the_cell_tables_summed_from_scratch() {
        use crate::cells::{code_index, tables, CellTables};
        let moves = [
            (7, 7),
            (8, 8),
            (7, 8),
            (6, 6),
            (7, 6),
            (8, 7),
            (9, 8),
            (6, 9),
            (5, 9),
        ];
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let mut b = Board::with_accumulator(15, 15, rule, Classical::new(rule));
            for &(x, y) in &moves {
                b.make(Pos::new(x, y));
                let t = tables(rule);
                let me = b.side();
                let mut sum = 0;
                for (role, c) in [(0, me), (1, me.opponent())] {
                    let table = &t.cells[CellTables::table_index(rule, c.index(), role)];
                    let side: i32 = b
                        .empty_cells()
                        .map(|p| {
                            let cell = b.cell(p);
                            table[code_index(std::array::from_fn(|d| cell.pattern(c, d)))] as i32
                        })
                        .sum();
                    sum += if role == 0 { side } else { -side };
                }
                let bucket = threat_bucket(&b, me) * BUCKETS + threat_bucket(&b, me.opponent());
                let expected = count_value(&b) + sum + t.threats[bucket] as Score;
                assert_eq!(evaluate(&b), expected, "{rule:?} after {x},{y}");
            }
        }
    }

    #[test]
    fn score_text_marks_mates() {
        assert_eq!(score_text(mate_in(5)), "+M5");
        assert_eq!(score_text(mated_in(4)), "-M4");
        assert_eq!(score_text(12), "12");
    }

    /// Renju, 7×7, black to move with seven cells left, one of them an overline point:
    /// black must make the last move and white never fills that cell.
    const ONE_OVERLINE: &str = "
        x x x . x x o
        o x o o x x .
        o x . x x o x
        o . x o o . x
        x o o x . o o
        o o . x o o o
        x x x o o x o";

    #[test]
    fn renju_fill_sees_black_short_of_cells() {
        let mut b = Board::from_diagram(ONE_OVERLINE, Rule::Renju);
        assert_eq!((b.side(), b.empty_count()), (Color::Black, 7));
        assert!(b.is_forbidden(Pos::new(3, 0)));
        let lost = renju_fill(&b);
        assert!(lost < 0, "{lost}");
        // two overline points (top and bottom rows), the same count of cells: surer
        let two = Board::from_diagram(
            "
            x x x . x x o
            o o . . x x o
            o o . x o x x
            o x o o o x .
            x o x o . o x
            o o o o x o o
            o x x . x x x",
            Rule::Renju,
        );
        assert_eq!((two.side(), two.empty_count()), (Color::Black, 7));
        assert!(renju_fill(&two) < lost, "{} {lost}", renju_fill(&two));
        // white to move with six left: still black's last move, so white's gain, and more
        // of it with fewer cells to go
        b.make(Pos::new(6, 1));
        assert!(renju_fill(&b) > -lost, "{}", renju_fill(&b));
        // the same cells under a rule without fouls, or with the overline point filled
        assert_eq!(
            renju_fill(&Board::from_diagram(ONE_OVERLINE, Rule::Freestyle)),
            0
        );
        b.make(Pos::new(3, 0));
        assert_eq!(renju_fill(&b), 0);
        // 8×7, six cells left: white makes the last move, so one overline point leaves
        // black enough cells
        let b = Board::from_diagram(
            "
            x x x . x x o o
            o o o x o x x x
            x o . o x o x .
            x o o x x o x o
            o x o o o x o o
            . x x . x o o o
            x x o o x x o .",
            Rule::Renju,
        );
        assert_eq!((b.side(), b.empty_count()), (Color::Black, 6));
        assert!(b.is_forbidden(Pos::new(3, 0)));
        assert_eq!(renju_fill(&b), 0);
    }
}
