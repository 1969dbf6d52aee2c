//! Boards for the integration tests: move replies parsed, positions drawn as text
//! ([`Diagram`], [`Grid`]) and the fixtures several tests share.

/// Parses a move reply `x,y` (the whole line, nothing else).
pub fn parse_move(s: &str) -> Option<(i64, i64)> {
    let (a, b) = s.split_once(',')?;
    let x = a.parse::<i64>().ok()?;
    let y = b.parse::<i64>().ok()?;
    if a.starts_with('+') || b.starts_with('+') || a.trim() != a || b.trim() != b {
        return None;
    }
    Some((x, y))
}

/// Parses a line of moves separated by single spaces (`x,y x,y x,y`).
pub fn parse_moves(s: &str) -> Option<Vec<(i64, i64)>> {
    s.split(' ').map(parse_move).collect()
}

/// Whether (x, y) lies on a `w`×`h` board.
pub fn on_board((x, y): (i64, i64), w: usize, h: usize) -> bool {
    x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h
}

/// A position drawn as text: `x` black, `o` white, `.` empty; rows top to bottom (y = row
/// index), columns left to right (x = column index). Whitespace inside a row is ignored, so
/// `x . o` and `x.o` are the same row; blank lines are skipped.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub width: usize,
    pub height: usize,
    pub black: Vec<(i64, i64)>,
    pub white: Vec<(i64, i64)>,
}

impl Diagram {
    /// The crate's own parser ([`rensa::board::diagram::Diagram`]), in the numbers the
    /// protocol speaks.
    pub fn parse(text: &str) -> Diagram {
        let d = rensa::board::diagram::Diagram::parse(text).unwrap_or_else(|e| panic!("{e}"));
        let xy =
            |ps: &[rensa::board::Pos]| ps.iter().map(|p| (p.x() as i64, p.y() as i64)).collect();
        Diagram {
            width: d.width,
            height: d.height,
            black: xy(&d.black),
            white: xy(&d.white),
        }
    }

    /// Whether black is to move: equal counts (else white, which needs one black stone more).
    pub fn black_to_move(&self) -> bool {
        if self.black.len() == self.white.len() {
            true
        } else {
            assert_eq!(
                self.black.len(),
                self.white.len() + 1,
                "diagram stone counts cannot come from a game"
            );
            false
        }
    }

    /// The stones in an order that alternates black and white, black first, where possible.
    pub fn in_order(&self) -> Vec<((i64, i64), bool)> {
        let mut out = Vec::new();
        let n = self.black.len().max(self.white.len());
        for i in 0..n {
            if let Some(&b) = self.black.get(i) {
                out.push((b, true));
            }
            if let Some(&w) = self.white.get(i) {
                out.push((w, false));
            }
        }
        out
    }

    /// The `x,y,f` lines of a BOARD command, relative to the side to move.
    pub fn board_lines(&self) -> Vec<String> {
        let black_moves = self.black_to_move();
        self.in_order()
            .into_iter()
            .map(|((x, y), is_black)| {
                let own = is_black == black_moves;
                format!("{x},{y},{}", if own { 1 } else { 2 })
            })
            .collect()
    }
}

/// `BOARD` lines (without BOARD/DONE) for a diagram; see [`Diagram`].
pub fn diagram_board(text: &str) -> Vec<String> {
    Diagram::parse(text).board_lines()
}

/// A square name as used by GomocupJudge: letter = x from `a` = 0, number = y + 1.
pub fn square(name: &str) -> (i64, i64) {
    rensa::geometry::parse_coords(name, 15).unwrap_or_else(|| panic!("not a square: {name:?}"))
}

/// Splits `h8h9i8…` into squares.
pub fn squares(seq: &str) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    let b = seq.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        out.push(square(&seq[start..i]));
    }
    out
}

/// BOARD lines for moves played alternately black, white, … starting with black, listed in
/// that order, with fields relative to the side to move after them.
pub fn game_board(moves: &[(i64, i64)]) -> Vec<String> {
    let black_moves = moves.len() % 2 == 0;
    moves
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| {
            let is_black = i % 2 == 0;
            format!("{x},{y},{}", if is_black == black_moves { 1 } else { 2 })
        })
        .collect()
}

/// A plain board for the tests' own bookkeeping: 0 empty, 1 black, 2 white.
#[derive(Clone, Debug)]
pub struct Grid {
    pub w: usize,
    pub h: usize,
    cells: Vec<u8>,
}

impl Grid {
    pub fn new(w: usize, h: usize) -> Grid {
        Grid {
            w,
            h,
            cells: vec![0; w * h],
        }
    }

    pub fn get(&self, (x, y): (i64, i64)) -> u8 {
        self.cells[y as usize * self.w + x as usize]
    }

    pub fn is_empty(&self, p: (i64, i64)) -> bool {
        on_board(p, self.w, self.h) && self.get(p) == 0
    }

    pub fn set(&mut self, (x, y): (i64, i64), c: u8) {
        self.cells[y as usize * self.w + x as usize] = c;
    }

    /// Length of the longest run of `p`'s colour through `p`.
    pub fn longest_run(&self, p: (i64, i64)) -> usize {
        let c = self.get(p);
        let mut best = 0;
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut n = 1;
            for s in [1i64, -1] {
                let mut q = (p.0 + s * dx, p.1 + s * dy);
                while on_board(q, self.w, self.h) && self.get(q) == c {
                    n += 1;
                    q = (q.0 + s * dx, q.1 + s * dy);
                }
            }
            best = best.max(n);
        }
        best
    }
}

/// White (o) has a four closed by black on the left: black must take 7,7.
pub const BLOCK_FOUR: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . x o o o o . . . . . . . .
    . . . . . . x . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . x . x . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
";

/// A quiet middle-game position (15×15, black to move) with no forced result, so a long
/// search really runs until it is stopped.
pub const MIDGAME: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . x o . . . . . .
    . . . . . . x . . . . . . . .
    . . . . . . . o . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
";
