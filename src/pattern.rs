//! Line patterns and per-cell threat classes, derived from the rules by a classifier.
//!
//! For an empty cell `c` and one direction, the *line pattern* says what a stone of one colour
//! on `c` makes of the line through it: the cells at offsets −5..=5 decide it (a five through
//! `c` spans at most ±4, and its neighbours ±5 decide whether it is exact or blocked). The
//! classifier is the recursive definition "what does the line become after one more stone?",
//! memoised over every 20-bit window key, so each rule gets its own tables and none is typed
//! by hand. Four line patterns then combine into one [`Threat`] class per cell and colour.

use crate::geometry::Color;
use crate::rules::Rule;
use std::sync::OnceLock;

/// What a stone on the cell makes of one line. Ordered from worst to best, except
/// [`Pattern::Overline`], which sits low because it never helps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made through the cell on this line.
    Dead = 0,
    /// `XXX.XX` + the cell: six or more without a win (exact-five rules, renju black).
    Overline,
    /// One stone short of a closed two: `.X` toward a B2.
    Block1,
    /// One stone short of an open two.
    Flex1,
    /// Two more stones make a closed four: `OXX...`.
    Block2,
    /// Two more stones make an open four: `..XX..`.
    Flex2,
    /// One more stone makes a closed four: `OXXX..`.
    Block3,
    /// One more stone makes an open (straight) four: `..XXX..`.
    Flex3,
    /// One five point: `OXXXX.`.
    Block4,
    /// Two five points (a straight four `.XXXX.`, or for all but renju black two fours).
    Flex4,
    /// Renju black only: two fours in one line, `X.XXX.X`: forbidden.
    DoubleFour,
    /// A winning line under the rule.
    Five,
}

pub const PATTERN_COUNT: usize = 12;

impl Pattern {
    pub fn from_u8(v: u8) -> Pattern {
        use Pattern::*;
        [
            Dead, Overline, Block1, Flex1, Block2, Flex2, Block3, Flex3, Block4, Flex4, DoubleFour,
            Five,
        ][v as usize]
    }
}

/// A cell's combined threat class for one colour, from its four line patterns. The order is
/// the order of urgency: compare with `>=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    None = 0,
    /// Renju black: the move is forbidden (or, for double threes, probably so).
    Forbid,
    /// One open two is made.
    Flex2,
    /// One closed three is made.
    Block3,
    /// Two open twos.
    Flex2x2,
    /// A closed three plus another three-or-two.
    Block3Plus,
    /// One open three.
    Flex3,
    /// An open three plus a closed three or open two.
    Flex3Plus,
    /// Two open threes (double three: wins unless answered by fours).
    Flex3x2,
    /// One closed four.
    Block4,
    /// A closed four plus a closed three or open two.
    Block4Plus,
    /// Four-three: a closed four and an open three.
    Block4Flex3,
    /// An open four or two fours: wins next move unless the opponent has a five.
    Flex4,
    /// Makes a five now.
    Five,
}

pub const THREAT_COUNT: usize = 14;

impl Threat {
    pub const ALL: [Threat; THREAT_COUNT] = [
        Threat::None,
        Threat::Forbid,
        Threat::Flex2,
        Threat::Block3,
        Threat::Flex2x2,
        Threat::Block3Plus,
        Threat::Flex3,
        Threat::Flex3Plus,
        Threat::Flex3x2,
        Threat::Block4,
        Threat::Block4Plus,
        Threat::Block4Flex3,
        Threat::Flex4,
        Threat::Five,
    ];

    pub fn from_u8(v: u8) -> Threat {
        Threat::ALL[v as usize]
    }

    /// Makes a four (or better): the opponent must answer at once.
    pub fn is_four(self) -> bool {
        self >= Threat::Block4
    }
}

/// Bit flag in a combo entry: renju black with two open threes, so only the exact recursive
/// check can tell whether the move is forbidden.
pub const NEEDS_FOUL_CHECK: u8 = 0x80;

/// Window slot of offset `k` (−5..=5, k ≠ 0) in a 20-bit line key.
#[inline]
pub const fn slot(k: isize) -> u32 {
    if k < 0 {
        (k + 5) as u32
    } else {
        (k + 4) as u32
    }
}

/// Pattern tables for one rule.
pub struct PatternTables {
    pub rule: Rule,
    /// `pair[(key >> pair_shift) & pair_mask]`: the [`Pattern`]s of a black stone (low 4 bits)
    /// and of a white stone (high 4 bits) on the centre. Both colours in one byte make one
    /// load per line on every move. Where no pattern depends on the outermost cells (±5),
    /// as in freestyle, the table covers the inner ±4 only: 64 KiB instead of 1 MiB, which
    /// stays in cache (the line update is the engine's hottest loop).
    pair: Vec<u8>,
    pair_shift: u32,
    pair_mask: u32,
    /// `cell[color][dense_index(patterns)]`: the threat class byte (class plus
    /// [`NEEDS_FOUL_CHECK`]) in the low 8 bits and the pattern code ([`code_index`]) in the
    /// high 16, for the four patterns of a cell: one load gives both (20,736 entries, 81 KiB).
    cell: [Vec<u32>; 2],
}

/// Unordered combinations of four line patterns: C(15, 4).
pub const CODES: usize = 1365;

/// `C(n, k)` for the small arguments of the combinatorial number system.
const fn choose(n: usize, k: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < k {
        if n < i {
            return 0;
        }
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The *pattern code* of four line patterns in any order, in 0..[`CODES`]; four `Dead`
/// lines give 0. The fitted cell tables of `crate::cells` are indexed by it.
pub fn code_index(p: [Pattern; 4]) -> usize {
    let mut v = p.map(|p| p as usize);
    v.sort_unstable_by(|a, b| b.cmp(a));
    // combinations with repetition: a >= b >= c >= d maps to a 4-subset of 0..15
    choose(v[0] + 3, 4) + choose(v[1] + 2, 3) + choose(v[2] + 1, 2) + v[3]
}

/// Four patterns (direction 0 first) as one index in 0..12^4.
#[inline]
pub fn dense_index(p: [u8; 4]) -> usize {
    const N: usize = PATTERN_COUNT;
    p[0] as usize + N * (p[1] as usize + N * (p[2] as usize + N * p[3] as usize))
}

impl PatternTables {
    /// The shared, lazily built tables of `rule`.
    pub fn get(rule: Rule) -> &'static PatternTables {
        static TABLES: [OnceLock<PatternTables>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        let i = Rule::ALL.iter().position(|&r| r == rule).unwrap_or(0);
        TABLES[i].get_or_init(|| PatternTables::build(rule))
    }

    fn build(rule: Rule) -> PatternTables {
        // the colours on two threads where there are two CPUs: a rule's tables are built on
        // a move's clock (16 ms a colour here)
        let line = std::thread::scope(|scope| {
            let white = std::thread::Builder::new()
                .name("rensa-patterns".into())
                .spawn_scoped(scope, || Classifier::new(rule, Color::White).run());
            let black = Classifier::new(rule, Color::Black).run();
            let white = match white.map(|h| h.join()) {
                Ok(Ok(w)) => w,
                _ => Classifier::new(rule, Color::White).run(),
            };
            [black, white]
        });
        let (pair, pair_shift, pair_mask) = pair_table(&line);
        let cell = [0, 1].map(|c| {
            let renju_black = rule == Rule::Renju && c == 0;
            (0..PATTERN_COUNT.pow(4))
                .map(|k| {
                    let pats: [Pattern; 4] = std::array::from_fn(|d| {
                        Pattern::from_u8(((k / PATTERN_COUNT.pow(d as u32)) % PATTERN_COUNT) as u8)
                    });
                    combine(pats, renju_black) as u32 | (code_index(pats) as u32) << 16
                })
                .collect()
        });
        PatternTables {
            rule,
            pair,
            pair_shift,
            pair_mask,
            cell,
        }
    }

    /// The patterns of a black and of a white stone on the centre of window `key`.
    #[inline]
    pub fn patterns(&self, key: u32) -> [u8; 2] {
        let both = self.pair[((key >> self.pair_shift) & self.pair_mask) as usize];
        [both & 15, both >> 4]
    }

    /// The pattern of a stone of `color` (0 black) on the centre of window `key`.
    #[inline]
    pub fn pattern(&self, color: usize, key: u32) -> u8 {
        self.patterns(key)[color]
    }

    /// Whether the table covers only the inner ±4 cells of a window.
    pub fn is_narrow(&self) -> bool {
        self.pair_shift != 0
    }
}

/// The two colours' line tables as one table of pairs, narrowed to the inner ±4 cells when
/// no pattern of either colour depends on the outer two (checked over every window, so the
/// narrow table is exact by construction, not by an argument about the rule).
fn pair_table(line: &[Vec<u8>; 2]) -> (Vec<u8>, u32, u32) {
    let outer = 3 << (2 * slot(-5)) | 3 << (2 * slot(5));
    let narrow = (0..1u32 << 20).all(|key| {
        let inner = key & !outer;
        line[0][key as usize] == line[0][inner as usize]
            && line[1][key as usize] == line[1][inner as usize]
    });
    let both = |key: u32| line[0][key as usize] | line[1][key as usize] << 4;
    if narrow {
        // slots 1..=8 hold offsets -4..=4: shift out slot 0 and keep 16 bits
        let shift = 2 * (slot(-5) + 1);
        let table = (0..1u32 << 16).map(|k| both(k << shift)).collect();
        (table, shift, 0xFFFF)
    } else {
        ((0..1u32 << 20).map(both).collect(), 0, (1 << 20) - 1)
    }
}

impl PatternTables {
    /// The threat class byte (class plus [`NEEDS_FOUL_CHECK`]) and the pattern code of a
    /// cell whose four line patterns for `color` are `p`.
    #[inline]
    pub fn cell(&self, color: usize, p: [u8; 4]) -> (u8, u16) {
        let v = self.cell[color][dense_index(p)];
        (v as u8, (v >> 16) as u16)
    }

    /// Threat class byte (class plus [`NEEDS_FOUL_CHECK`]) for four packed patterns (4 bits
    /// each, direction 0 lowest): the tests' notation.
    #[cfg(test)]
    pub fn combo(&self, color: usize, code: u16) -> u8 {
        self.cell(
            color,
            std::array::from_fn(|d| ((code >> (4 * d)) & 15) as u8),
        )
        .0
    }
}

/// Combines the four line patterns of a cell into its threat class.
fn combine(pats: [Pattern; 4], renju_black: bool) -> u8 {
    let mut n = [0u8; PATTERN_COUNT];
    for p in pats {
        n[p as usize] += 1;
    }
    let c = |p: Pattern| n[p as usize];
    use Pattern as P;
    use Threat as T;
    if c(P::Five) > 0 {
        return T::Five as u8;
    }
    let mut flag = 0;
    if renju_black {
        let fours = c(P::Flex4) + c(P::Block4) + 2 * c(P::DoubleFour);
        if c(P::Overline) > 0 || fours >= 2 {
            return T::Forbid as u8;
        }
        if c(P::Flex3) >= 2 {
            flag = NEEDS_FOUL_CHECK;
        }
    }
    let plus = c(P::Block3) + c(P::Flex2);
    let t = if c(P::Flex4) + c(P::DoubleFour) > 0 || c(P::Block4) >= 2 {
        T::Flex4
    } else if c(P::Block4) == 1 {
        if c(P::Flex3) > 0 {
            T::Block4Flex3
        } else if plus > 0 {
            T::Block4Plus
        } else {
            T::Block4
        }
    } else if c(P::Flex3) >= 2 {
        T::Flex3x2
    } else if c(P::Flex3) == 1 {
        if plus > 0 {
            T::Flex3Plus
        } else {
            T::Flex3
        }
    } else if c(P::Block3) >= 1 && plus >= 2 {
        T::Block3Plus
    } else if c(P::Flex2) >= 2 {
        T::Flex2x2
    } else if c(P::Block3) == 1 {
        T::Block3
    } else if c(P::Flex2) == 1 {
        T::Flex2
    } else {
        T::None
    };
    t as u8 | flag
}

/// The memoised recursive line classifier for one rule and colour.
struct Classifier {
    rule: Rule,
    color: Color,
    memo: Vec<u8>,
}

const UNKNOWN: u8 = 0xFF;
const EMPTY: u8 = 0;
const WALL: u8 = 3;

impl Classifier {
    fn new(rule: Rule, color: Color) -> Classifier {
        Classifier {
            rule,
            color,
            memo: vec![UNKNOWN; 1 << 20],
        }
    }

    fn run(mut self) -> Vec<u8> {
        for key in 0..1u32 << 20 {
            self.shape(key);
        }
        self.memo
    }

    /// Cells of the window, index 0..=10, centre 5 holding our stone.
    fn decode(&self, key: u32) -> [u8; 11] {
        let mut line = [0u8; 11];
        for (i, cell) in line.iter_mut().enumerate() {
            if i == 5 {
                *cell = self.color.cell();
            } else {
                let s = slot(i as isize - 5);
                *cell = ((key >> (2 * s)) & 3) as u8;
            }
        }
        line
    }

    fn shape(&mut self, key: u32) -> u8 {
        if self.memo[key as usize] != UNKNOWN {
            return self.memo[key as usize];
        }
        let result = self.classify(key);
        self.memo[key as usize] = result;
        result
    }

    fn classify(&mut self, key: u32) -> u8 {
        let me = self.color.cell();
        let opp = self.color.opponent().cell();
        let line = self.decode(key);
        // A wall inside the window (a blocked cell, BOARD field 3) hides what lies beyond it,
        // as the board's edge does: classify the window with everything past it walled.
        let mut walled = key;
        for side in [[4, 3, 2, 1, 0], [6, 7, 8, 9, 10]] {
            if let Some(w) = side.iter().position(|&i| line[i] == WALL) {
                for &i in &side[w + 1..] {
                    walled |= (WALL as u32) << (2 * slot(i as isize - 5));
                }
            }
        }
        if walled != key {
            return self.shape(walled);
        }
        let mut lo = 0;
        while lo < 5 && line[4 - lo] == me {
            lo += 1;
        }
        let mut hi = 0;
        while hi < 5 && line[6 + hi] == me {
            hi += 1;
        }
        let len = lo + hi + 1;
        let end = |i: isize| -> u8 {
            if (0..11).contains(&i) {
                line[i as usize]
            } else {
                EMPTY
            }
        };
        let before = end(4 - lo as isize);
        let after = end(6 + hi as isize);
        if self
            .rule
            .run_wins(self.color, len, [before == opp, after == opp])
        {
            return Pattern::Five as u8;
        }
        if len >= 6 {
            return Pattern::Overline as u8;
        }
        let mut fives = [0usize; 10];
        let mut n5 = 0;
        let mut best = Pattern::Dead;
        for i in (0..11).filter(|&i| i != 5 && line[i] == EMPTY) {
            let sub = self.shape(key | (me as u32) << (2 * slot(i as isize - 5)));
            let sub = Pattern::from_u8(sub);
            if sub == Pattern::Five {
                fives[n5] = i;
                n5 += 1;
            }
            let next = match sub {
                Pattern::Flex4 => Pattern::Flex3,
                Pattern::Block4 => Pattern::Block3,
                Pattern::Flex3 => Pattern::Flex2,
                Pattern::Block3 => Pattern::Block2,
                Pattern::Flex2 => Pattern::Flex1,
                Pattern::Block2 => Pattern::Block1,
                _ => Pattern::Dead,
            };
            best = best.max(next);
        }
        let renju_black = self.rule == Rule::Renju && self.color == Color::Black;
        let p = if n5 >= 2 {
            if renju_black && !(n5 == 2 && fives[1] - fives[0] == 5) {
                Pattern::DoubleFour
            } else {
                Pattern::Flex4
            }
        } else if n5 == 1 {
            Pattern::Block4
        } else {
            best
        };
        p as u8
    }
}

/// Builds the 20-bit key of a window from text, for tests: 11 chars, centre `_`,
/// `x` black, `o` white, `#` wall, `.` empty.
#[cfg(test)]
pub fn key_from_text(s: &str) -> u32 {
    let chars: Vec<char> = s.chars().collect();
    assert_eq!(chars.len(), 11);
    let mut key = 0;
    for (i, ch) in chars.iter().enumerate() {
        if i == 5 {
            continue;
        }
        let v = match ch {
            'x' => 1,
            'o' => 2,
            '#' => 3,
            _ => 0,
        };
        key |= v << (2 * slot(i as isize - 5));
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern of a stone on the centre of `left` + centre + `right` (5 cells each side).
    fn pat(rule: Rule, color: Color, left: &str, right: &str) -> Pattern {
        let key = key_from_text(&format!("{left}_{right}"));
        Pattern::from_u8(PatternTables::get(rule).pattern(color.index(), key))
    }

    #[test]
    fn codes_are_dense_and_unordered() {
        let mut seen = vec![false; CODES];
        for k in 0..PATTERN_COUNT.pow(4) {
            let p: [Pattern; 4] = std::array::from_fn(|d| {
                Pattern::from_u8(((k / PATTERN_COUNT.pow(d as u32)) % PATTERN_COUNT) as u8)
            });
            let i = code_index(p);
            seen[i] = true;
            let mut q = p;
            q.reverse();
            assert_eq!(code_index(q), i);
            let t = PatternTables::get(Rule::Freestyle);
            assert_eq!(t.cell(1, p.map(|x| x as u8)).1 as usize, i);
        }
        assert!(seen.iter().all(|&s| s), "every index is some combination");
        assert_eq!(code_index([Pattern::Dead; 4]), 0);
        assert_eq!(code_index([Pattern::Five; 4]), CODES - 1);
    }

    /// The one-byte pair table gives, for every window, exactly the patterns the classifier
    /// gives; freestyle's is narrowed to ±4 (its speed-up), the exact-five rules' cannot be
    /// (an overline or a caro block needs the fifth cell).
    #[test]
    fn pair_table_matches_the_classifier() {
        for rule in Rule::ALL {
            let t = PatternTables::get(rule);
            assert_eq!(t.is_narrow(), rule == Rule::Freestyle, "{rule:?}");
            let line = [
                Classifier::new(rule, Color::Black).run(),
                Classifier::new(rule, Color::White).run(),
            ];
            for key in 0..1u32 << 20 {
                let both = t.patterns(key);
                assert_eq!(both[0], line[0][key as usize], "{rule:?} black {key:#x}");
                assert_eq!(both[1], line[1][key as usize], "{rule:?} white {key:#x}");
            }
        }
    }

    #[test]
    fn freestyle_shapes() {
        let r = Rule::Freestyle;
        let b = Color::Black;
        assert_eq!(pat(r, b, "...xx", "xx..."), Pattern::Five);
        assert_eq!(pat(r, b, ".xxxx", "x...."), Pattern::Five);
        assert_eq!(pat(r, b, "...xx", "x...."), Pattern::Flex4);
        assert_eq!(pat(r, b, "..oxx", "x...."), Pattern::Block4);
        assert_eq!(pat(r, b, "..x.x", "x...."), Pattern::Block4);
        assert_eq!(pat(r, b, "....x", "x...."), Pattern::Flex3);
        assert_eq!(pat(r, b, "...ox", "x...."), Pattern::Block3);
        assert_eq!(pat(r, b, ".....", "x...."), Pattern::Flex2);
        assert_eq!(pat(r, b, "....o", "x...."), Pattern::Block2);
        assert_eq!(pat(r, b, "....o", "xo..."), Pattern::Dead);
        assert_eq!(pat(r, b, "##...", "x...."), Pattern::Flex2);
        assert_eq!(pat(r, b, "#####", "xxx.."), Pattern::Block4);
        // white sees black stones as blocks
        assert_eq!(pat(r, Color::White, "...oo", "o...."), Pattern::Flex4);
        assert_eq!(pat(r, Color::White, "...xx", "x...."), Pattern::Dead);
    }

    #[test]
    fn exact_five_shapes() {
        let s = Rule::Standard;
        let b = Color::Black;
        assert_eq!(pat(s, b, ".xxxx", "x...."), Pattern::Overline);
        assert_eq!(pat(s, b, ".xxxx", "....."), Pattern::Five);
        // .XXXX. with a stone just beyond one end: only one exact five point
        assert_eq!(pat(s, b, ".x.xx", "x...."), Pattern::Block4);
        assert_eq!(pat(Rule::Freestyle, b, ".x.xx", "x...."), Pattern::Flex4);
        // renju: white's overline wins, black's does not
        assert_eq!(
            pat(Rule::Renju, Color::White, ".oooo", "o...."),
            Pattern::Five
        );
        assert_eq!(pat(Rule::Renju, b, ".xxxx", "x...."), Pattern::Overline);
        // renju: same-line double four X.X_X.X
        assert_eq!(pat(Rule::Renju, b, "..x.x", "x.x.."), Pattern::DoubleFour);
        assert_eq!(pat(Rule::Freestyle, b, "..x.x", "x.x.."), Pattern::Flex4);
        assert_eq!(pat(Rule::Renju, b, "....x", "xx..."), Pattern::Flex4);
    }

    #[test]
    fn caro_shapes() {
        let b = Color::Black;
        assert_eq!(pat(Rule::Caro, b, "..oxx", "xxo.."), Pattern::Dead);
        assert_eq!(pat(Rule::Freestyle, b, "..oxx", "xxo.."), Pattern::Five);
        assert_eq!(pat(Rule::Caro, b, "..oxx", "xx..."), Pattern::Five);
        assert_eq!(pat(Rule::Caro, b, "#xxxx", "o...."), Pattern::Five);
        assert_eq!(pat(Rule::Caro, b, "oxxxx", "xo..."), Pattern::Five);
        assert_eq!(pat(Rule::CaroExact, b, "oxxxx", "xo..."), Pattern::Overline);
        assert_eq!(pat(Rule::Caro, b, "...ox", "xx..."), Pattern::Block4);
        assert_eq!(pat(Rule::Caro, b, "...ox", "x.o.."), Pattern::Dead);
    }

    #[test]
    fn threat_classes() {
        let t = PatternTables::get(Rule::Freestyle);
        let code = |ps: [Pattern; 4]| {
            ps.iter()
                .enumerate()
                .fold(0u16, |acc, (i, &p)| acc | (p as u16) << (4 * i))
        };
        use Pattern as P;
        let cls = |ps| Threat::from_u8(t.combo(0, code(ps)) & 0x7f);
        assert_eq!(
            cls([P::Block4, P::Flex3, P::Dead, P::Dead]),
            Threat::Block4Flex3
        );
        assert_eq!(cls([P::Block4, P::Block4, P::Dead, P::Dead]), Threat::Flex4);
        assert_eq!(cls([P::Flex3, P::Flex3, P::Dead, P::Dead]), Threat::Flex3x2);
        assert_eq!(cls([P::Five, P::Overline, P::Dead, P::Dead]), Threat::Five);
        let r = PatternTables::get(Rule::Renju);
        let rc = |ps| r.combo(0, code(ps));
        assert_eq!(
            rc([P::Block4, P::Block4, P::Dead, P::Dead]),
            Threat::Forbid as u8
        );
        assert_eq!(
            rc([P::Flex3, P::Flex3, P::Dead, P::Dead]),
            Threat::Flex3x2 as u8 | NEEDS_FOUL_CHECK
        );
        assert_eq!(
            rc([P::Five, P::Overline, P::Dead, P::Dead]),
            Threat::Five as u8
        );
        // white is never restricted
        assert_eq!(
            r.combo(1, code([P::Block4, P::Block4, P::Dead, P::Dead])),
            Threat::Flex4 as u8
        );
    }
}
