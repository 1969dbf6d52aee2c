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
    /// No move (also used for a pass in the history).
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
