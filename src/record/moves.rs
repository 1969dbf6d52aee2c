//! A plain move list: moves as `h8` (column letter from `a`, row from 1) or `x,y` (0-based,
//! as the protocol), any number a line, also run together (`h8h7i7`); `#` starts a comment.
//! Rensa writes a header of comments that it reads back: `# rensa game WxH rule`, then
//! `# black NAME`, `# white NAME`, `# result 1-0|0-1|1/2-1/2` and `# opening N` where known.

use super::{check_size, Defaults, GameRecord, Move, Outcome, ReadError};
use crate::geometry::{parse_coords, Color, Pos};
use crate::rules::Rule;

pub fn parse(text: &str, defaults: Defaults) -> Result<GameRecord, ReadError> {
    let mut g = GameRecord::new(defaults.width, defaults.height);
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let (body, comment) = match line.split_once('#') {
            Some((b, c)) => (b, Some(c.trim())),
            None => (line, None),
        };
        if let Some(c) = comment {
            header(&mut g, c, n)?;
        }
        for token in body.split_whitespace() {
            for m in split_moves(token) {
                let (x, y) = parse_coords(m, g.width)
                    .ok_or_else(|| ReadError::new(n, format!("'{token}' is not a move")))?;
                g.moves.push(Move::at(x, y));
            }
        }
    }
    Ok(g)
}

/// Reads one of Rensa's header comments; any other comment is free text.
fn header(g: &mut GameRecord, c: &str, n: usize) -> Result<(), ReadError> {
    let (key, value) = c.split_once(char::is_whitespace).unwrap_or((c, ""));
    let value = value.trim();
    match key {
        "rensa" => {
            let mut words = value.split_whitespace();
            if words.next() != Some("game") {
                return Ok(());
            }
            if let Some(size) = words.next() {
                let (w, h) = size
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                    .ok_or_else(|| ReadError::new(n, format!("bad board size '{size}'")))?;
                (g.width, g.height) = check_size(w, h, n)?;
            }
            if let Some(rule) = words.next() {
                g.rule = Some(Rule::parse(rule).map_err(|e| ReadError::new(n, e))?);
            }
        }
        "black" if !value.is_empty() => g.black = Some(value.to_string()),
        "white" if !value.is_empty() => g.white = Some(value.to_string()),
        "result" => {
            g.result = match value {
                "1-0" => Some(Outcome::Won(Color::Black)),
                "0-1" => Some(Outcome::Won(Color::White)),
                "1/2-1/2" => Some(Outcome::Draw),
                _ => return Err(ReadError::new(n, format!("bad result '{value}'"))),
            }
        }
        "opening" => {
            g.opening = value
                .parse()
                .map_err(|_| ReadError::new(n, format!("bad opening length '{value}'")))?
        }
        _ => {}
    }
    Ok(())
}

/// `h8h7i7` as `h8`, `h7`, `i7`; anything else (`7,7`, `h8`) whole.
fn split_moves(token: &str) -> Vec<&str> {
    if token.contains(',') {
        return vec![token];
    }
    let b = token.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..b.len() {
        if b[i].is_ascii_alphabetic() && b[i - 1].is_ascii_digit() {
            out.push(&token[start..i]);
            start = i;
        }
    }
    out.push(&token[start..]);
    out
}

pub fn write(g: &GameRecord) -> String {
    let rule = g.rule.map(|r| format!(" {}", r.name())).unwrap_or_default();
    let mut s = format!("# rensa game {}x{}{rule}\n", g.width, g.height);
    for (key, v) in [("black", &g.black), ("white", &g.white)] {
        if let Some(v) = v {
            s += &format!("# {key} {v}\n");
        }
    }
    if let Some(r) = g.result {
        let r = match r {
            Outcome::Won(Color::Black) => "1-0",
            Outcome::Won(Color::White) => "0-1",
            Outcome::Draw => "1/2-1/2",
        };
        s += &format!("# result {r}\n");
    }
    if g.opening > 0 {
        s += &format!("# opening {}\n", g.opening);
    }
    for m in &g.moves {
        s += &match on_board(m) {
            Some(p) => format!("{p}\n"),
            None => format!("{},{}\n", m.x, m.y),
        };
    }
    s
}

/// `m` as a cell where it can be one (negative or huge coordinates are written as `x,y`).
fn on_board(m: &Move) -> Option<Pos> {
    let ok = |v: i64| (0..crate::geometry::MAX_SIZE as i64).contains(&v);
    (ok(m.x) && ok(m.y)).then(|| Pos::new(m.x as usize, m.y as usize))
}
