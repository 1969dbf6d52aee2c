//! The five Gomocup rules: who wins with which line, and renju's forbidden points.
//!
//! Everything here works on a [`Grid`], the plain padded cell array that the incremental
//! [`crate::board::Board`] also keeps, so these functions are the slow, obviously-correct
//! reference that the pattern tables and the search are checked against.

use crate::geometry::{Color, Grid, Pos, DIR_OFFSETS};

/// A Gomocup rule (`INFO rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// 0: five or more in a row wins.
    Freestyle,
    /// 1: exactly five wins; an overline is just a dead shape.
    Standard,
    /// 4: black wins only with exactly five and may not play double-three, double-four or
    /// overline; white wins with five or more.
    Renju,
    /// 8: five or more wins, but a five blocked by opponent stones at both ends does not.
    Caro,
    /// 9: exactly five wins, and not when blocked by opponent stones at both ends.
    CaroExact,
}

impl Rule {
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// Decodes the `INFO rule` bitmask: 1 exact five, 2 continuous game (ignored), 4 renju,
    /// 8 caro. Returns `None` for masks that name no rule we know (16 and above).
    pub fn from_info(mask: i64) -> Option<Rule> {
        if !(0..16).contains(&mask) {
            return None;
        }
        Some(if mask & 4 != 0 {
            Rule::Renju
        } else if mask & 8 != 0 {
            if mask & 1 != 0 {
                Rule::CaroExact
            } else {
                Rule::Caro
            }
        } else if mask & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        })
    }

    /// A rule by its name (`freestyle`, `standard`, `renju`, `caro`, `caro-exact`, any case)
    /// or its `INFO rule` number: the command line's form.
    pub fn parse(s: &str) -> Result<Rule, String> {
        if let Ok(n) = s.trim().parse::<i64>() {
            return Rule::from_info(n).ok_or_else(|| format!("unknown rule number {n}"));
        }
        Rule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                format!("unknown rule '{s}' (freestyle, standard, renju, caro, caro-exact)")
            })
    }

    /// The Gomocup number of the rule.
    pub fn info_code(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }

    /// Whether a run of `len` stones of `color` whose two end cells hold `ends` wins.
    /// `ends[i]` is true when that end cell holds an opponent stone (walls never block).
    pub fn run_wins(self, color: Color, len: usize, ends_blocked: [bool; 2]) -> bool {
        let both_blocked = ends_blocked[0] && ends_blocked[1];
        match self {
            Rule::Freestyle => len >= 5,
            Rule::Standard => len == 5,
            Rule::Renju => {
                if color == Color::Black {
                    len == 5
                } else {
                    len >= 5
                }
            }
            Rule::Caro => len >= 6 || (len == 5 && !both_blocked),
            Rule::CaroExact => len == 5 && !both_blocked,
        }
    }

    /// Whether the rule limits black's moves (only renju).
    pub fn has_forbidden(self) -> bool {
        self == Rule::Renju
    }
}

/// Why a black move is forbidden under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Foul {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl Foul {
    pub fn name(self) -> &'static str {
        match self {
            Foul::Overline => "overline",
            Foul::DoubleFour => "double-four",
            Foul::DoubleThree => "double-three",
        }
    }
}

/// The run of `color` through `p` along direction offset `d`: (cells before p, cells after p).
fn run(grid: &Grid, p: usize, d: isize, color: u8) -> (usize, usize) {
    let mut lo = 0;
    while grid.at(p as isize - (lo as isize + 1) * d) == color {
        lo += 1;
    }
    let mut hi = 0;
    while grid.at(p as isize + (hi as isize + 1) * d) == color {
        hi += 1;
    }
    (lo, hi)
}

/// Whether the stone of `color` standing on `p` is part of a winning line under `rule`.
pub fn is_five_at(grid: &Grid, rule: Rule, p: Pos, color: Color) -> bool {
    let p = p.index();
    let c = color.cell();
    let opp = color.opponent().cell();
    DIR_OFFSETS.iter().any(|&d| {
        let (lo, hi) = run(grid, p, d, c);
        let before = grid.at(p as isize - (lo as isize + 1) * d);
        let after = grid.at(p as isize + (hi as isize + 1) * d);
        rule.run_wins(color, lo + hi + 1, [before == opp, after == opp])
    })
}

/// Whether playing `color` on the empty point `p` wins at once under `rule`.
pub fn makes_five(grid: &mut Grid, rule: Rule, p: Pos, color: Color) -> bool {
    grid.set(p.index(), color.cell());
    let win = is_five_at(grid, rule, p, color);
    grid.set(p.index(), 0);
    win
}

/// The renju verdict for a black move on the empty point `p`: `None` if it is allowed.
///
/// Follows the Gomocup referee: an exact five always wins; then overline, then two or more
/// fours (two in one line count twice), then two or more threes, where a three must be able
/// to become a straight four on a point that is itself allowed and makes no five.
pub fn renju_foul(grid: &mut Grid, p: Pos) -> Option<Foul> {
    foul_at(grid, p.index())
}

fn foul_at(grid: &mut Grid, p: usize) -> Option<Foul> {
    const BLACK: u8 = 1;
    grid.set(p, BLACK);
    let verdict = (|| {
        let mut longest = 0;
        for &d in &DIR_OFFSETS {
            let (lo, hi) = run(grid, p, d, BLACK);
            let len = lo + hi + 1;
            if len == 5 {
                return None;
            }
            longest = longest.max(len);
        }
        if longest > 5 {
            return Some(Foul::Overline);
        }
        let mut fours = [0usize; 4];
        for (i, &d) in DIR_OFFSETS.iter().enumerate() {
            fours[i] = count_fours(grid, p, d);
        }
        if fours.iter().sum::<usize>() >= 2 {
            return Some(Foul::DoubleFour);
        }
        let mut threes = 0;
        for (i, &d) in DIR_OFFSETS.iter().enumerate() {
            if fours[i] == 0 && has_three(grid, p, d) {
                threes += 1;
            }
        }
        if threes >= 2 {
            Some(Foul::DoubleThree)
        } else {
            None
        }
    })();
    grid.set(p, 0);
    verdict
}

/// Offsets k (|k| ≤ 4) of the empty points on line `d` where one more black stone makes an
/// exact five that contains `p` (black stands on `p`).
fn five_points(grid: &mut Grid, p: usize, d: isize) -> ([isize; 4], usize) {
    let mut found = [0isize; 4];
    let mut n = 0;
    for k in -4isize..=4 {
        let q = p as isize + k * d;
        if k == 0 || grid.at(q) != 0 {
            continue;
        }
        grid.set(q as usize, 1);
        let (lo, hi) = run(grid, q as usize, d, 1);
        grid.set(q as usize, 0);
        // the five must contain p: p sits at offset -k from q
        if lo + hi + 1 == 5 && -(lo as isize) <= -k && -k <= hi as isize && n < 4 {
            found[n] = k;
            n += 1;
        }
    }
    (found, n)
}

fn count_fours(grid: &mut Grid, p: usize, d: isize) -> usize {
    let (pts, n) = five_points(grid, p, d);
    if n == 2 && pts[1] - pts[0] == 5 {
        1 // a straight four is one four with two completion points
    } else {
        n
    }
}

fn is_straight_four(grid: &mut Grid, p: usize, d: isize) -> bool {
    let (pts, n) = five_points(grid, p, d);
    n == 2 && pts[1] - pts[0] == 5
}

fn has_three(grid: &mut Grid, p: usize, d: isize) -> bool {
    for k in -4isize..=4 {
        let q = p as isize + k * d;
        if k == 0 || grid.at(q) != 0 {
            continue;
        }
        let q = q as usize;
        grid.set(q, 1);
        let straight = is_straight_four(grid, p, d);
        let five = straight
            && DIR_OFFSETS.iter().any(|&dd| {
                let (lo, hi) = run(grid, q, dd, 1);
                lo + hi + 1 == 5
            });
        grid.set(q, 0);
        if straight && !five && foul_at(grid, q).is_none() {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_from(rows: &[&str]) -> Grid {
        let h = rows.len();
        let w = rows[0].split_whitespace().count();
        let mut g = Grid::new(w, h);
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.split_whitespace().enumerate() {
                let c = match ch {
                    "x" | "X" => 1,
                    "o" | "O" => 2,
                    _ => 0,
                };
                if c != 0 {
                    g.set(Pos::new(x, y).index(), c);
                }
            }
        }
        g
    }

    #[test]
    fn rule_masks() {
        assert_eq!(Rule::from_info(0), Some(Rule::Freestyle));
        assert_eq!(Rule::from_info(1), Some(Rule::Standard));
        assert_eq!(Rule::from_info(2), Some(Rule::Freestyle));
        assert_eq!(Rule::from_info(3), Some(Rule::Standard));
        assert_eq!(Rule::from_info(4), Some(Rule::Renju));
        assert_eq!(Rule::from_info(6), Some(Rule::Renju));
        assert_eq!(Rule::from_info(8), Some(Rule::Caro));
        assert_eq!(Rule::from_info(9), Some(Rule::CaroExact));
        assert_eq!(Rule::from_info(16), None);
        assert_eq!(Rule::from_info(-1), None);
    }

    #[test]
    fn overline_wins_only_where_allowed() {
        let mut g = grid_from(&[
            ". . . . . . . . .",
            ". x x x . x x . .",
            ". . . . . . . . .",
        ]);
        let p = Pos::new(4, 1);
        assert!(makes_five(&mut g, Rule::Freestyle, p, Color::Black));
        assert!(!makes_five(&mut g, Rule::Standard, p, Color::Black));
        assert!(!makes_five(&mut g, Rule::Renju, p, Color::Black));
        assert!(makes_five(&mut g, Rule::Caro, p, Color::Black));
        assert!(!makes_five(&mut g, Rule::CaroExact, p, Color::Black));
        assert_eq!(renju_foul(&mut g, p), Some(Foul::Overline));
    }

    #[test]
    fn caro_blocked_five() {
        let mut g = grid_from(&[
            ". . . . . . . . .",
            "o x x x . x o . .",
            ". . . . . . . . .",
        ]);
        let p = Pos::new(4, 1);
        assert!(makes_five(&mut g, Rule::Freestyle, p, Color::Black));
        assert!(!makes_five(&mut g, Rule::Caro, p, Color::Black));
        assert!(!makes_five(&mut g, Rule::CaroExact, p, Color::Black));
        // the edge is not a block
        let mut g = grid_from(&[". . . . .", "x x . x x", ". . . . ."]);
        assert!(makes_five(&mut g, Rule::Caro, Pos::new(2, 1), Color::Black));
    }

    #[test]
    fn renju_double_three_and_four_three() {
        let mut g = grid_from(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . x . . . .",
            ". . . . x . . . .",
            ". . x x . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        assert_eq!(renju_foul(&mut g, Pos::new(4, 4)), Some(Foul::DoubleThree));
        // block one three with white: a single three is fine
        g.set(Pos::new(4, 1).index(), 2);
        g.set(Pos::new(4, 6).index(), 2);
        assert_eq!(renju_foul(&mut g, Pos::new(4, 4)), None);
    }
}
