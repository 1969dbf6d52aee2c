//! What the database knows of a position: a label, a value with its depth and bound, and a
//! text (a comment, and labels for the cells of its moves), in Yixin's encoding.

/// Labels, as Yixin stores them. A determined label speaks for the side that moved into the
/// position: `w` it won, `l` it lost.
pub const LABEL_NULL: i8 = 0;
/// A record with no label (a value, a comment, or just a place in the tree).
pub const LABEL_NONE: i8 = -1;
pub const LABEL_WIN: i8 = b'w' as i8;
pub const LABEL_LOSE: i8 = b'l' as i8;
pub const LABEL_DRAW: i8 = b'd' as i8;
/// The move into this position must not be played.
pub const LABEL_BLOCKED: i8 = b'x' as i8;
/// The move into this position is the one to play.
pub const LABEL_FORCED: i8 = b'!' as i8;

/// Bounds as Yixin stores them (two bits under the depth).
pub const BOUND_NONE: u8 = 0;
pub const BOUND_UPPER: u8 = 1;
pub const BOUND_LOWER: u8 = 2;
pub const BOUND_EXACT: u8 = 3;

/// Values at or beyond this are wins (`VALUE_MATE - n` is a win in n plies), as in Yixin.
pub const MATE: i16 = 30_000;
pub const MATE_IN_MAX_PLY: i16 = MATE - 500;

/// The start of the board-text section of a record's text, and its separators.
const BOARD_TEXT: &str = "@BTXT@";
const SECTION: char = '\u{8}';

/// Which parts of a record an edit writes (Yixin's mask bits).
pub const MASK_LABEL: u8 = 1;
pub const MASK_VALUE: u8 = 2;
pub const MASK_DEPTH_BOUND: u8 = 4;
pub const MASK_TEXT: u8 = 8;
pub const MASK_ALL: u8 = 15;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub label: i8,
    /// From the side to move's view, in Yixin's units (see `database::value`).
    pub value: i16,
    /// `depth << 2 | bound`.
    pub depth_bound: i16,
    /// UTF-8: an optional board-text section, then the comment.
    pub text: String,
}

/// A label in lower case (Yixin compares labels without case).
pub fn fold(label: i8) -> i8 {
    if (b'A' as i8..=b'Z' as i8).contains(&label) {
        label + 32
    } else {
        label
    }
}

/// Whether a label decides the game: won, lost or drawn.
pub fn is_determined(label: i8) -> bool {
    matches!(fold(label), LABEL_WIN | LABEL_LOSE | LABEL_DRAW)
}

impl Record {
    pub fn with_label(label: i8) -> Record {
        Record {
            label,
            ..Record::default()
        }
    }

    pub fn is_null(&self) -> bool {
        self.label == LABEL_NULL
    }

    pub fn depth(&self) -> i32 {
        i32::from(self.depth_bound) >> 2
    }

    pub fn bound(&self) -> u8 {
        (self.depth_bound & 3) as u8
    }

    pub fn set_depth_bound(&mut self, depth: i32, bound: u8) {
        let d = depth.clamp(-8192, 8191);
        self.depth_bound = ((d << 2) | i32::from(bound & 3)) as i16;
    }

    /// Copies the parts of `other` that `mask` names; a text on a null record makes it a
    /// record (a null record is never saved with text).
    pub fn update(&mut self, other: &Record, mask: u8) {
        if mask & MASK_LABEL != 0 {
            self.label = other.label;
        }
        if mask & MASK_VALUE != 0 {
            self.value = other.value;
        }
        if mask & MASK_DEPTH_BOUND != 0 {
            self.depth_bound = other.depth_bound;
        }
        if mask & MASK_TEXT != 0 {
            self.text = other.text.clone();
            if self.label == LABEL_NULL && !self.text.is_empty() {
                self.label = LABEL_NONE;
            }
        }
    }

    /// The board-text section (without its mark) and the rest.
    fn sections(&self) -> (Option<&str>, &str) {
        match self.text.strip_prefix(BOARD_TEXT) {
            Some(rest) => match rest.find(SECTION) {
                Some(i) => (Some(&rest[..i]), &rest[i + 1..]),
                None => (Some(rest), ""),
            },
            None => (None, &self.text),
        }
    }

    /// The comment, with Yixin's line separators as newlines.
    pub fn comment(&self) -> String {
        self.sections().1.replace(SECTION, "\n")
    }

    pub fn set_comment(&mut self, comment: &str) {
        let comment = comment.replace("\r\n", "\n").replace('\n', "\u{8}");
        let board = self.sections().0.map(str::to_string);
        self.text = match board {
            Some(b) if comment.is_empty() => format!("{BOARD_TEXT}{b}"),
            Some(b) => format!("{BOARD_TEXT}{b}{SECTION}{comment}"),
            None => comment,
        };
    }

    /// Every board text: (canonical cell, text).
    pub fn board_texts(&self) -> Vec<((u8, u8), String)> {
        let Some(section) = self.sections().0 else {
            return Vec::new();
        };
        section
            .split('\n')
            .filter_map(|pair| {
                let mut c = pair.chars();
                let x = from_hex(c.next()?)?;
                let y = from_hex(c.next()?)?;
                Some(((x, y), c.as_str().to_string()))
            })
            .collect()
    }

    /// Sets (or with an empty text, removes) the text of one canonical cell.
    pub fn set_board_text(&mut self, cell: (u8, u8), text: &str) {
        // the section's separators may not appear in a label
        let text: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != SECTION)
            .collect();
        let mut texts: Vec<((u8, u8), String)> = self
            .board_texts()
            .into_iter()
            .filter(|(c, t)| *c != cell && !t.is_empty())
            .collect();
        if !text.is_empty() {
            texts.push((cell, text));
        }
        let comment = self.sections().1.to_string();
        self.text = if texts.is_empty() {
            comment
        } else {
            let pairs: Vec<String> = texts
                .iter()
                .map(|((x, y), t)| format!("{}{}{t}", to_hex(*x), to_hex(*y)))
                .collect();
            let board = format!("{BOARD_TEXT}{}", pairs.join("\n"));
            if comment.is_empty() {
                board
            } else {
                format!("{board}{SECTION}{comment}")
            }
        };
    }

    pub fn clear_board_texts(&mut self) {
        self.text = self.sections().1.to_string();
    }

    /// The label Yixin-Board shows on the move into this position: `w3` (won in 3 moves),
    /// `w*` (won, distance unknown), `57%` (a winning chance from an exact value, for the
    /// side that moved), or the label's own character. `win_rate` turns a value of the side
    /// to move into its winning chance.
    pub fn display_label(&self, win_rate: impl Fn(i16) -> f64) -> String {
        let label = fold(self.label);
        if self.label > 0 {
            let mut s = String::new();
            s.push(self.label as u8 as char);
            if label == LABEL_WIN || label == LABEL_LOSE {
                let mover = -i32::from(self.value);
                let won = label == LABEL_WIN && mover > i32::from(MATE_IN_MAX_PLY);
                let lost = label == LABEL_LOSE && mover < -i32::from(MATE_IN_MAX_PLY);
                if won || lost {
                    // Yixin's count: the plies to the five, counting the move into this
                    // position
                    s.push_str(&(i32::from(MATE) + 1 - mover.abs()).to_string());
                } else {
                    s.push('*');
                }
            }
            return s;
        }
        if self.label == LABEL_NONE && self.bound() == BOUND_EXACT {
            let p = (1.0 - win_rate(self.value)) * 100.0;
            return format!("{}%", (p as i32).clamp(0, 99));
        }
        String::new()
    }
}

/// Yixin's cell digits: 0-9 then A-V.
fn to_hex(v: u8) -> char {
    if v < 10 {
        (b'0' + v) as char
    } else {
        (b'A' + v - 10) as char
    }
}

fn from_hex(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        'A'..='V' => Some(c as u8 - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_board_texts_share_the_text() {
        let mut r = Record::with_label(LABEL_NONE);
        r.set_comment("first line\nsecond");
        assert_eq!(r.text, "first line\u{8}second");
        r.set_board_text((7, 10), "A");
        r.set_board_text((3, 4), "b c");
        assert_eq!(r.text, "@BTXT@7AA\n34bc\u{8}first line\u{8}second");
        assert_eq!(r.comment(), "first line\nsecond");
        assert_eq!(
            r.board_texts(),
            vec![((7, 10), "A".to_string()), ((3, 4), "bc".to_string())]
        );
        r.set_board_text((7, 10), "");
        r.set_comment("");
        assert_eq!(r.text, "@BTXT@34bc");
        assert_eq!(r.comment(), "");
        r.clear_board_texts();
        assert_eq!(r.text, "");
    }

    #[test]
    fn depth_and_bound_share_two_bytes() {
        let mut r = Record::default();
        r.set_depth_bound(20, BOUND_EXACT);
        assert_eq!(r.depth_bound, 83);
        assert_eq!((r.depth(), r.bound()), (20, BOUND_EXACT));
        r.set_depth_bound(-3, BOUND_LOWER);
        assert_eq!((r.depth(), r.bound()), (-3, BOUND_LOWER));
    }

    #[test]
    fn labels_show_as_yixin_board_shows_them() {
        let rate = |v: i16| 1.0 / (1.0 + (-f64::from(v) / 200.0).exp());
        let mut r = Record::with_label(LABEL_WIN);
        r.value = 123;
        assert_eq!(r.display_label(rate), "w*");
        r.value = -(MATE - 5);
        assert_eq!(r.display_label(rate), "w6");
        r.label = LABEL_NONE;
        r.value = 0;
        assert_eq!(r.display_label(rate), "");
        r.set_depth_bound(10, BOUND_EXACT);
        assert_eq!(r.display_label(rate), "50%");
        r.value = -400;
        assert_eq!(r.display_label(rate), "88%");
        assert!(is_determined(b'W' as i8));
        assert!(!is_determined(LABEL_FORCED));
    }
}
