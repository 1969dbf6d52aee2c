//! Positions drawn as text, the one parser for them (the tests' fixtures, the board's own
//! tests, tools): `x` black, `o` white, `.` (or `-`, `+`) empty; rows top to bottom (y = row),
//! columns left to right (x = column). Whitespace inside a row is ignored, so `x . o` and
//! `x.o` are the same row; blank lines are skipped.

use crate::geometry::{Color, Pos, MAX_SIZE};

/// A parsed diagram: its size and each colour's stones, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pub width: usize,
    pub height: usize,
    pub black: Vec<Pos>,
    pub white: Vec<Pos>,
}

impl Diagram {
    pub fn parse(text: &str) -> Result<Diagram, String> {
        let (mut black, mut white) = (Vec::new(), Vec::new());
        let mut width = None;
        let mut y = 0;
        for row in text.lines() {
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if cells.is_empty() {
                continue;
            }
            match width {
                None if cells.len() > MAX_SIZE => return Err(format!("row {y} is too wide")),
                None => width = Some(cells.len()),
                Some(w) if w != cells.len() => {
                    return Err(format!("row {y} has {} cells, not {w}", cells.len()))
                }
                Some(_) => {}
            }
            if y == MAX_SIZE {
                return Err(format!("more than {MAX_SIZE} rows"));
            }
            for (x, &c) in cells.iter().enumerate() {
                match c {
                    'x' | 'X' => black.push(Pos::new(x, y)),
                    'o' | 'O' => white.push(Pos::new(x, y)),
                    '.' | '-' | '+' => {}
                    _ => return Err(format!("bad cell {c:?} at {x},{y}")),
                }
            }
            y += 1;
        }
        Ok(Diagram {
            width: width.ok_or("an empty diagram")?,
            height: y,
            black,
            white,
        })
    }

    /// Black when the counts are equal, else white.
    pub fn side_to_move(&self) -> Color {
        if self.black.len() == self.white.len() {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The stones in an order that alternates black and white, black first, where possible.
    pub fn in_order(&self) -> Vec<(Pos, Color)> {
        let mut out = Vec::with_capacity(self.black.len() + self.white.len());
        for i in 0..self.black.len().max(self.white.len()) {
            out.extend(self.black.get(i).map(|&p| (p, Color::Black)));
            out.extend(self.white.get(i).map(|&p| (p, Color::White)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagrams_read_as_drawn() {
        let d = Diagram::parse("\n  x . o\n  . x -\n").unwrap();
        assert_eq!((d.width, d.height), (3, 2));
        assert_eq!(d.black, [Pos::new(0, 0), Pos::new(1, 1)]);
        assert_eq!(d.white, [Pos::new(2, 0)]);
        assert_eq!(d.side_to_move(), Color::White);
        let order: Vec<Color> = d.in_order().iter().map(|s| s.1).collect();
        assert_eq!(order, [Color::Black, Color::White, Color::Black]);
        for bad in ["", "x.\nx", "x?", &".".repeat(33)] {
            assert!(Diagram::parse(bad).is_err(), "{bad:?}");
        }
    }
}
