//! Board geometry: colours, cell positions in the padded grid, and the plain cell array.

use std::fmt;

pub const MAX_SIZE: usize = 32;
pub const MIN_SIZE: usize = 5;
const PAD: usize = 5;
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
pub const GRID_CELLS: usize = STRIDE * STRIDE;
/// Index steps of the four line directions: →, ↓, ↘, ↙.
pub const DIR_OFFSETS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

pub(crate) const EMPTY: u8 = 0;
pub(crate) const WALL: u8 = 3;

/// A colour of stones. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// 0 for black, 1 for white: the index of per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// The grid cell value: 1 black, 2 white.
    #[inline]
    pub fn cell(self) -> u8 {
        self as u8 + 1
    }
}

/// A cell, as its index in the padded grid. Board coordinates are 0-based `x` (column) and
/// `y` (row).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(pub(crate) u16);

impl Pos {
    /// No move, in the packed places where an `Option` would not fit or cost: the
    /// transposition table's 16 bits, the search's fixed killer, PV and tried-move arrays
    /// (filled before use), a null move's pass in the board's history, and the continuation
    /// history's row for "no earlier move". Everywhere else no move is `Option<Pos>`.
    pub const NONE: Pos = Pos(0);

    #[inline]
    pub fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }
    #[inline]
    pub fn from_index(i: usize) -> Pos {
        Pos(i as u16)
    }

    /// Column and row, `None` for [`Pos::NONE`] and the padding around the largest board.
    pub fn coords(self) -> Option<(usize, usize)> {
        let (i, s) = (self.index(), STRIDE);
        let inside = |v: usize| (PAD..PAD + MAX_SIZE).contains(&v);
        (i < GRID_CELLS && inside(i % s) && inside(i / s)).then(|| (i % s - PAD, i / s - PAD))
    }

    /// The cell at column `x`, row `y` (0-based) of the largest board, `None` outside it:
    /// protocol and command-line numbers enter the engine here.
    pub fn at(x: i64, y: i64) -> Option<Pos> {
        let range = 0..MAX_SIZE as i64;
        (range.contains(&x) && range.contains(&y)).then(|| Pos::new(x as usize, y as usize))
    }

    /// Parses a cell as [`Display`](fmt::Display) writes it, or as `x,y` (see
    /// [`parse_coords`]); `None` off the largest board or unreadable.
    pub fn parse(text: &str, width: usize) -> Option<Pos> {
        let (x, y) = parse_coords(text, width)?;
        Pos::at(x, y)
    }
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }
    #[inline]
    pub fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }
    pub fn is_none(self) -> bool {
        self == Pos::NONE
    }
    #[inline]
    pub fn offset(self, delta: isize) -> Pos {
        Pos((self.0 as isize + delta) as u16)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.is_none() {
            write!(f, "none")
        } else {
            write!(f, "{},{}", self.x(), self.y())
        }
    }
}

impl fmt::Display for Pos {
    /// `h8` style: letter = column from `a`, number = row from 1 (no flip).
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.is_none() {
            return write!(f, "--");
        }
        let x = self.x();
        let letter = if x < 26 {
            (b'a' + x as u8) as char
        } else {
            (b'A' + (x - 26) as u8) as char
        };
        write!(f, "{}{}", letter, self.y() + 1)
    }
}

/// The one move-text parser (the command line, records and tests use it): a cell as
/// [`Pos`]'s [`Display`](fmt::Display) writes it (`h8`: column letter from `a`, `A` for column
/// 26 on, row from 1) or as `x,y` (0-based), for a board `width` columns wide: up to 26
/// columns the letters are case-blind. The numbers may lie off any board, so that the caller
/// can say so; `None` when the text is neither form.
pub fn parse_coords(text: &str, width: usize) -> Option<(i64, i64)> {
    let t = text.trim();
    if let Some((a, b)) = t.split_once(',') {
        return Some((a.trim().parse().ok()?, b.trim().parse().ok()?));
    }
    let mut chars = t.chars();
    let c = chars.next()?;
    let x = match c {
        'a'..='z' => c as i64 - 'a' as i64,
        'A'..='Z' if width <= 26 => c as i64 - 'A' as i64,
        'A'..='Z' => c as i64 - 'A' as i64 + 26,
        _ => return None,
    };
    let rest = chars.as_str();
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((x, rest.parse::<i64>().ok()? - 1))
}

impl std::str::FromStr for Pos {
    type Err = String;

    /// [`Pos::parse`] on the largest board: the inverse of [`Display`](fmt::Display).
    fn from_str(s: &str) -> Result<Pos, String> {
        Pos::parse(s, MAX_SIZE).ok_or_else(|| format!("not a cell: {s:?}"))
    }
}

/// The plain padded cell array: 0 empty, 1 black, 2 white, 3 wall.
#[derive(Clone)]
pub struct Grid {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) cells: Vec<u8>,
}

impl Grid {
    pub fn new(width: usize, height: usize) -> Grid {
        assert!((1..=MAX_SIZE).contains(&width) && (1..=MAX_SIZE).contains(&height));
        let mut cells = vec![WALL; GRID_CELLS];
        for y in 0..height {
            for x in 0..width {
                cells[Pos::new(x, y).index()] = EMPTY;
            }
        }
        Grid {
            width,
            height,
            cells,
        }
    }
    /// The cell at a raw index; anything outside the array reads as wall.
    #[inline]
    pub fn at(&self, i: isize) -> u8 {
        if i < 0 || i as usize >= GRID_CELLS {
            WALL
        } else {
            self.cells[i as usize]
        }
    }
    #[inline]
    pub fn set(&mut self, i: usize, v: u8) {
        self.cells[i] = v;
    }
    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_back_as_they_are_written() {
        for x in 0..MAX_SIZE {
            for y in 0..MAX_SIZE {
                let p = Pos::new(x, y);
                assert_eq!(p.to_string().parse::<Pos>(), Ok(p));
                assert_eq!(Pos::parse(&format!("{x},{y}"), 15), Some(p));
                assert_eq!(p.coords(), Some((x, y)));
            }
        }
        assert_eq!(Pos::parse("H8", 15), Some(Pos::new(7, 7)));
        assert_eq!(Pos::parse("A1", 32), Some(Pos::new(26, 0)));
        assert_eq!(Pos::parse(" 3 , 4 ", 15), Some(Pos::new(3, 4)));
        for bad in [
            "",
            "h",
            "h0",
            "8",
            "h8x",
            "-1,2",
            "32,0",
            "1,2,3",
            "G33",
            "€5",
            "x,",
            ",3",
            "h-2",
            "99999999999999999999,1",
        ] {
            assert_eq!(Pos::parse(bad, 32), None, "{bad:?}");
        }
        // numbers off every board still read, for the caller to refuse
        assert_eq!(parse_coords("-1,4", 15), Some((-1, 4)));
        assert_eq!(parse_coords("h99", 15), Some((7, 98)));
        assert_eq!(Pos::at(31, 31), Some(Pos::new(31, 31)));
        assert_eq!(Pos::at(-1, 0), None);
        assert_eq!(Pos::at(0, i64::MAX), None);
        assert_eq!(Pos::NONE.coords(), None);
        assert_eq!(Pos::from_index(GRID_CELLS).coords(), None);
    }
}
