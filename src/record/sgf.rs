//! SGF (FF[4], GM[4]) as c-gomoku-cli and gomoku programs write it: `SZ[15]` or
//! `SZ[20:15]`, `RU[n]` (a Gomocup rule number, or a rule's name), `PB`/`PW`, `RE[B+…]`,
//! `RE[W+…]` or `RE[0]`, then `B[hh]`/`W[hh]` nodes (column letter, then row, from `a`;
//! `A`–`Z` beyond 26). A file may hold several games; variations are read along their first
//! branch (the main line). c-gomoku-cli marks the given opening with `C[opening move]` and
//! a move's time with `C[170ms]`; both are read back.

use super::{check_size, GameRecord, Move, Outcome, ReadError};
use crate::geometry::Color;
use crate::rules::Rule;

/// A property: its name, its values and the line it starts on.
struct Prop {
    name: String,
    values: Vec<String>,
    line: usize,
}

/// A game tree: its node sequence and its variations.
#[derive(Default)]
struct Tree {
    nodes: Vec<Vec<Prop>>,
    children: Vec<Tree>,
}

struct Lexer<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

/// How deeply variations may nest: a record's variations nest once per branch point, and a
/// deeper file is hostile (the parser recurses).
const MAX_NESTING: usize = 2_000;

impl Lexer<'_> {
    fn skip_space(&mut self) {
        while let Some(&c) = self.text.get(self.at) {
            if !c.is_ascii_whitespace() {
                break;
            }
            if c == b'\n' {
                self.line += 1;
            }
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    fn error(&self, reason: impl Into<String>) -> ReadError {
        ReadError::new(self.line, reason)
    }

    /// A tree after its `(`, up to and with its `)`.
    fn tree(&mut self, depth: usize) -> Result<Tree, ReadError> {
        if depth > MAX_NESTING {
            return Err(self.error("variations nested too deeply"));
        }
        let mut t = Tree::default();
        loop {
            match self.peek() {
                Some(b';') => {
                    self.at += 1;
                    t.nodes.push(self.node()?);
                }
                Some(b'(') => {
                    self.at += 1;
                    t.children.push(self.tree(depth + 1)?);
                }
                Some(b')') => {
                    self.at += 1;
                    return Ok(t);
                }
                Some(c) => return Err(self.error(format!("unexpected '{}'", c as char))),
                None => return Err(self.error("the file ends inside a game (a ')' is missing)")),
            }
        }
    }

    fn node(&mut self) -> Result<Vec<Prop>, ReadError> {
        let mut props = Vec::new();
        while let Some(c) = self.peek() {
            if !c.is_ascii_alphabetic() {
                break;
            }
            let line = self.line;
            let start = self.at;
            while self.text.get(self.at).is_some_and(u8::is_ascii_alphabetic) {
                self.at += 1;
            }
            // FF[3]'s lower-case letters in names are ignored (`AddBlack` is `AB`)
            let name: String = self.text[start..self.at]
                .iter()
                .filter(|c| c.is_ascii_uppercase())
                .map(|&c| c as char)
                .collect();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                self.at += 1;
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(self.error(format!("property {name} has no value")));
            }
            props.push(Prop { name, values, line });
        }
        Ok(props)
    }

    /// A value after its `[`, up to and with its `]`; `\` escapes the next character.
    fn value(&mut self) -> Result<String, ReadError> {
        let mut v = Vec::new();
        loop {
            let Some(&c) = self.text.get(self.at) else {
                return Err(self.error("the file ends inside a value (a ']' is missing)"));
            };
            self.at += 1;
            match c {
                b']' => break,
                b'\\' => {
                    if let Some(&n) = self.text.get(self.at) {
                        self.at += 1;
                        if n == b'\n' {
                            self.line += 1;
                        } else {
                            v.push(n);
                        }
                    }
                }
                _ => {
                    if c == b'\n' {
                        self.line += 1;
                    }
                    v.push(c);
                }
            }
        }
        Ok(String::from_utf8_lossy(&v).into_owned())
    }
}

/// Every game of an SGF collection.
pub fn parse(text: &str) -> Result<Vec<GameRecord>, ReadError> {
    let mut lx = Lexer {
        text: text.as_bytes(),
        at: 0,
        line: 1,
    };
    let mut games = Vec::new();
    while let Some(c) = lx.peek() {
        if c != b'(' {
            return Err(lx.error(format!(
                "expected '(' to start a game, found '{}'",
                c as char
            )));
        }
        lx.at += 1;
        let tree = lx.tree(0)?;
        games.push(game(&tree, lx.line)?);
    }
    if games.is_empty() {
        return Err(lx.error("no game in the file"));
    }
    Ok(games)
}

/// The main line of `tree` as a game.
fn game(tree: &Tree, last_line: usize) -> Result<GameRecord, ReadError> {
    let mut nodes: Vec<&Vec<Prop>> = Vec::new();
    let mut t = tree;
    loop {
        nodes.extend(t.nodes.iter());
        match t.children.first() {
            Some(c) => t = c,
            None => break,
        }
    }
    let root = nodes
        .first()
        .ok_or_else(|| ReadError::new(last_line, "a game without nodes"))?;
    let mut g = root_info(root)?;
    let mut opening_done = false;
    for node in &nodes {
        let mut comment = None;
        let mut moved = false;
        for p in node.iter() {
            match p.name.as_str() {
                "B" | "W" => {
                    let color = if p.name == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let expected = if g.moves.len() % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    if color != expected || moved {
                        return Err(ReadError::new(p.line, "the colours do not alternate"));
                    }
                    let (x, y) = cell(&p.values[0], g.width.max(g.height))
                        .map_err(|e| ReadError::new(p.line, e))?;
                    g.moves.push(Move::at(x, y));
                    moved = true;
                }
                "C" => comment = Some(p.values[0].trim().to_string()),
                "AB" | "AW" | "AE" => {
                    return Err(ReadError::new(
                        p.line,
                        "stones set up with AB/AW/AE are not supported: give the moves in order",
                    ))
                }
                _ => {}
            }
        }
        if let (true, Some(c)) = (moved, comment) {
            let last = g.moves.last_mut().expect("just pushed");
            if c == "opening move" && !opening_done {
                g.opening = g.moves.len();
            } else if let Some(ms) = c.strip_suffix("ms").and_then(|n| n.trim().parse().ok()) {
                last.time_ms = Some(ms);
                opening_done = true;
            } else {
                last.comment = Some(c);
                opening_done = true;
            }
        } else if moved {
            opening_done = true;
        }
    }
    Ok(g)
}

fn root_info(root: &[Prop]) -> Result<GameRecord, ReadError> {
    let mut g = GameRecord::new(15, 15);
    for p in root {
        let v = p.values[0].trim();
        match p.name.as_str() {
            "GM" if v != "4" && v != "5" => {
                return Err(ReadError::new(
                    p.line,
                    format!("GM[{v}] is not a gomoku game (GM[4])"),
                ))
            }
            "SZ" => {
                let (w, h) = match v.split_once(':') {
                    Some((w, h)) => (w.trim().parse(), h.trim().parse()),
                    None => (v.parse(), v.parse()),
                };
                let (Ok(w), Ok(h)) = (w, h) else {
                    return Err(ReadError::new(p.line, format!("bad board size SZ[{v}]")));
                };
                (g.width, g.height) = check_size(w, h, p.line)?;
            }
            "RU" => match Rule::parse(v) {
                Ok(r) => g.rule = Some(r),
                Err(e) => log::warn!("line {}: RU[{v}] ignored: {e}", p.line),
            },
            "PB" if !v.is_empty() => g.black = Some(v.to_string()),
            "PW" if !v.is_empty() => g.white = Some(v.to_string()),
            "RE" => g.result = result(v),
            _ => {}
        }
    }
    Ok(g)
}

fn result(v: &str) -> Option<Outcome> {
    let u = v.to_ascii_uppercase();
    if u.starts_with("B+") {
        Some(Outcome::Won(Color::Black))
    } else if u.starts_with("W+") {
        Some(Outcome::Won(Color::White))
    } else if u == "0" || u == "DRAW" || u == "D" {
        Some(Outcome::Draw)
    } else {
        None
    }
}

/// `hh` as (7, 7); `A`–`Z` are 26–51.
fn cell(v: &str, size: usize) -> Result<(i64, i64), String> {
    let b = v.trim().as_bytes();
    if b.is_empty() || (b == b"tt" && size <= 19) {
        return Err("a pass is not a gomoku move".into());
    }
    let coord = |c: u8| match c {
        b'a'..=b'z' => Some(i64::from(c - b'a')),
        b'A'..=b'Z' => Some(i64::from(c - b'A') + 26),
        _ => None,
    };
    match b {
        [x, y] => match (coord(*x), coord(*y)) {
            (Some(x), Some(y)) => Ok((x, y)),
            _ => Err(format!("'{v}' is not a cell")),
        },
        _ => Err(format!("'{v}' is not a cell")),
    }
}

/// What [`write`] adds to a move: a comment, and another line from the position before it
/// (shown as a variation), with a comment on its first move.
#[derive(Clone, Debug, Default)]
pub struct Note {
    pub comment: String,
    pub variation: Vec<(i64, i64)>,
    pub variation_comment: String,
}

/// `g` as one SGF game; `notes[i]`, where given, annotates move `i`.
pub fn write(g: &GameRecord, notes: &[Note]) -> String {
    let mut s = String::from("(;FF[4]GM[4]CA[UTF-8]");
    s += &format!("AP[Rensa:{}]", env!("CARGO_PKG_VERSION"));
    if g.width == g.height {
        s += &format!("SZ[{}]", g.width);
    } else {
        s += &format!("SZ[{}:{}]", g.width, g.height);
    }
    if let Some(r) = g.rule {
        s += &format!("RU[{}]", r.info_code());
    }
    for (key, v) in [("PB", &g.black), ("PW", &g.white)] {
        if let Some(v) = v {
            s += &format!("{key}[{}]", escape(v));
        }
    }
    if let Some(r) = g.result {
        s += match r {
            Outcome::Won(Color::Black) => "RE[B+]",
            Outcome::Won(Color::White) => "RE[W+]",
            Outcome::Draw => "RE[0]",
        };
    }
    s += "\n";
    s += &tail(g, notes, 0);
    s += ")\n";
    s
}

/// The moves from `i` on: a move with a variation ends the sequence in two branches, the
/// game's own first, so that a reader along first branches reads the game.
fn tail(g: &GameRecord, notes: &[Note], from: usize) -> String {
    // built from the end, so that nesting costs no recursion
    let mut out = String::new();
    for i in (from..g.moves.len()).rev() {
        let m = &g.moves[i];
        let note = notes.get(i);
        let comment = match note {
            Some(n) if !n.comment.is_empty() => n.comment.clone(),
            _ if i < g.opening => "opening move".to_string(),
            _ => match (&m.comment, m.time_ms) {
                (Some(c), _) => c.clone(),
                (None, Some(t)) => format!("{t}ms"),
                (None, None) => String::new(),
            },
        };
        let mut node = format!(";{}", move_prop(i, m.x, m.y));
        if !comment.is_empty() {
            node += &format!("C[{}]", escape(&comment));
        }
        match note.filter(|n| !n.variation.is_empty()) {
            Some(n) => {
                let mut alt = String::new();
                for (k, &(x, y)) in n.variation.iter().enumerate() {
                    alt += &format!(";{}", move_prop(i + k, x, y));
                    if k == 0 && !n.variation_comment.is_empty() {
                        alt += &format!("C[{}]", escape(&n.variation_comment));
                    }
                }
                out = format!("({node}\n{out})({alt})\n");
            }
            None => out = format!("{node}\n{out}"),
        }
    }
    out
}

fn move_prop(ply: usize, x: i64, y: i64) -> String {
    let c = if ply % 2 == 0 { 'B' } else { 'W' };
    format!("{c}[{}{}]", letter(x), letter(y))
}

fn letter(v: i64) -> char {
    match v {
        0..=25 => (b'a' + v as u8) as char,
        26..=51 => (b'A' + (v - 26) as u8) as char,
        _ => '?',
    }
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}
