//! A position's key in the database: its stones in the canonical one of the board's
//! symmetries, as Yixin's database files store them, so that a position is found whichever
//! way round it was reached.

use std::cmp::Ordering;

use crate::geometry::Color;
use crate::rules::Rule;

/// The rule's number in Yixin's files: 0 to 2 as Yixin and Rapfi number them; caro's are
/// ours (Rapfi skips records of a rule it does not know).
pub fn rule_code(rule: Rule) -> u8 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
        Rule::Caro => 3,
        Rule::CaroExact => 4,
    }
}

/// The rule of a file's rule number.
pub fn rule_of_code(code: u8) -> Option<Rule> {
    Some(match code {
        0 => Rule::Freestyle,
        1 => Rule::Standard,
        2 => Rule::Renju,
        3 => Rule::Caro,
        4 => Rule::CaroExact,
        _ => return None,
    })
}

/// A symmetry of the board: `(x, y)` to a new cell. The first four keep a rectangle's shape;
/// the last four swap the axes and exist only on square boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry(pub u8);

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// The symmetries of a `width`×`height` board.
    pub fn all(width: u8, height: u8) -> impl Iterator<Item = Symmetry> {
        let n = if width == height { 8 } else { 4 };
        (0..n).map(Symmetry)
    }

    pub fn apply(self, (x, y): (u8, u8), width: u8, height: u8) -> (u8, u8) {
        let (fx, fy) = (width - 1 - x, height - 1 - y);
        match self.0 {
            0 => (x, y),
            1 => (fx, y),
            2 => (x, fy),
            3 => (fx, fy),
            // square only: width == height
            4 => (y, x),
            5 => (fy, x),
            6 => (y, fx),
            _ => (fy, fx),
        }
    }
}

/// A position: rule, board size, each side's stones sorted, and the side to move (which a
/// pass can make differ from the count of stones).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub rule: u8,
    pub width: u8,
    pub height: u8,
    /// Black's stones, then white's, each sorted by (x, y).
    stones: Box<[(u8, u8)]>,
    black: u16,
    pub white_to_move: bool,
}

impl Key {
    /// The canonical key of a position given by its stones (any order, on the board,
    /// distinct: the caller checks), and the symmetries that take the position to it.
    pub fn canonical(
        rule: u8,
        width: u8,
        height: u8,
        black: &[(u8, u8)],
        white: &[(u8, u8)],
        white_to_move: bool,
    ) -> (Key, Vec<Symmetry>) {
        let mut best: Option<Key> = None;
        let mut maps = Vec::new();
        for s in Symmetry::all(width, height) {
            let k = Key::transformed(rule, width, height, black, white, white_to_move, s);
            match best.as_ref().map(|b| k.cmp(b)) {
                Some(Ordering::Greater) => {}
                Some(Ordering::Equal) => maps.push(s),
                _ => {
                    best = Some(k);
                    maps = vec![s];
                }
            }
        }
        (best.expect("a board has symmetries"), maps)
    }

    /// The key of the position under one symmetry (not canonical in general).
    pub fn transformed(
        rule: u8,
        width: u8,
        height: u8,
        black: &[(u8, u8)],
        white: &[(u8, u8)],
        white_to_move: bool,
        s: Symmetry,
    ) -> Key {
        let map = |v: &[(u8, u8)]| {
            let mut v: Vec<(u8, u8)> = v.iter().map(|&p| s.apply(p, width, height)).collect();
            v.sort_unstable();
            v
        };
        let mut stones = map(black);
        stones.extend(map(white));
        Key {
            rule,
            width,
            height,
            stones: stones.into_boxed_slice(),
            black: black.len() as u16,
            white_to_move,
        }
    }

    /// The smallest key of a rule, board and stone count (for ranges of keys).
    pub fn first_of(rule: u8, width: u8, height: u8, stones: usize) -> Key {
        Key {
            rule,
            width,
            height,
            stones: vec![(0, 0); stones].into_boxed_slice(),
            black: 0,
            white_to_move: false,
        }
    }

    pub fn black(&self) -> &[(u8, u8)] {
        &self.stones[..self.black as usize]
    }

    pub fn white(&self) -> &[(u8, u8)] {
        &self.stones[self.black as usize..]
    }

    pub fn stone_count(&self) -> usize {
        self.stones.len()
    }

    pub fn side_to_move(&self) -> Color {
        if self.white_to_move {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Whether the side to move is not the one the stone counts give (a pass was made).
    pub fn passed(&self) -> bool {
        let normal_white = self.stones.len() % 2 == 1;
        normal_white != self.white_to_move
    }

    /// Approximate bytes this key takes in memory (for the memory bound).
    pub fn heap_bytes(&self) -> usize {
        self.stones.len() * 2
    }

    /// A short readable form, as Rapfi prints keys: `f-15-15-h8i9-h9-b` (rule, width,
    /// height, black's stones, white's stones, side to move).
    pub fn text(&self) -> String {
        let rule = match self.rule {
            0 => "f".to_string(),
            1 => "s".to_string(),
            2 => "r".to_string(),
            3 => "c".to_string(),
            4 => "ce".to_string(),
            n => format!("?{n}"),
        };
        let cells = |v: &[(u8, u8)]| -> String {
            v.iter()
                .map(|&(x, y)| format!("{}{}", cell_letter(x), y as u32 + 1))
                .collect()
        };
        format!(
            "{rule}-{}-{}-{}-{}-{}",
            self.width,
            self.height,
            cells(self.black()),
            cells(self.white()),
            if self.white_to_move { 'w' } else { 'b' }
        )
    }
}

/// Columns as letters a…z, then A…F for boards up to 32.
fn cell_letter(x: u8) -> char {
    if x < 26 {
        (b'a' + x) as char
    } else {
        (b'A' + x - 26) as char
    }
}

/// Yixin's order: rule, width, height, number of stones, the stones bytewise, side to move.
impl Ord for Key {
    fn cmp(&self, o: &Key) -> Ordering {
        (self.rule, self.width, self.height, self.stones.len())
            .cmp(&(o.rule, o.width, o.height, o.stones.len()))
            .then_with(|| self.stones.cmp(&o.stones))
            .then_with(|| self.white_to_move.cmp(&o.white_to_move))
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Key) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetric_copy_of_a_position_has_one_key() {
        let black = [(7, 7), (8, 6)];
        let white = [(7, 8)];
        let (k, _) = Key::canonical(0, 15, 15, &black, &white, false);
        for s in Symmetry::all(15, 15) {
            let b: Vec<_> = black.iter().map(|&p| s.apply(p, 15, 15)).collect();
            let w: Vec<_> = white.iter().map(|&p| s.apply(p, 15, 15)).collect();
            assert_eq!(Key::canonical(0, 15, 15, &b, &w, false).0, k, "{s:?}");
        }
        // another side to move, rule or size is another position
        assert_ne!(Key::canonical(0, 15, 15, &black, &white, true).0, k);
        assert_ne!(Key::canonical(2, 15, 15, &black, &white, false).0, k);
        assert_ne!(Key::canonical(0, 16, 16, &black, &white, false).0, k);
        // the colours matter
        assert_ne!(Key::canonical(0, 15, 15, &white, &black, false).0, k);
    }

    #[test]
    fn a_rectangle_keeps_its_shape() {
        // on 20x15 a transposed position is not the same one
        let (a, maps) = Key::canonical(0, 20, 15, &[(2, 3)], &[], true);
        assert_eq!(maps.len(), 1);
        let (b, _) = Key::canonical(0, 20, 15, &[(17, 11)], &[], true);
        assert_eq!(a, b);
        let (c, _) = Key::canonical(0, 20, 15, &[(3, 2)], &[], true);
        assert_ne!(a, c);
        assert_eq!(a.black(), &[(2, 3)]);
    }

    #[test]
    fn the_canonical_key_is_the_smallest_copy() {
        // the centre stone alone is its own copy under all eight symmetries
        let (_, maps) = Key::canonical(0, 15, 15, &[(7, 7)], &[], true);
        assert_eq!(maps.len(), 8);
        let (k, maps) = Key::canonical(0, 15, 15, &[(13, 9)], &[], true);
        assert_eq!(k.black(), &[(1, 5)]);
        assert_eq!(maps.len(), 1);
        assert_eq!(k.text(), "f-15-15-b6--w");
        assert!(!k.passed());
        let (p, _) = Key::canonical(0, 15, 15, &[(13, 9)], &[], false);
        assert!(p.passed());
    }
}
