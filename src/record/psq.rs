//! Piskvork's `.psq`, as Piskvork and Gomocup's manager write it: a header
//! `Piskvorky WxH, L1:L2, h`, one `x,y,ms` line a move (1-based, black first), then
//! optionally the players' names (one a line), an end code line (`-1` from the manager) and,
//! on the Gomocup server, a `result,tournament` line (1: the first player won, 2: the second).
//! Piskvork takes moves up to the first line that is not three numbers; so do we. The
//! leading moves that took 0 ms are the given opening (Gomocup's), unless no move took any.

use super::{check_size, GameRecord, Move, Outcome, ReadError};
use crate::geometry::Color;

pub fn parse(text: &str) -> Result<GameRecord, ReadError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let (_, header) = lines
        .next()
        .ok_or_else(|| ReadError::new(1, "empty file"))?;
    let mut game = header_size(header)?;
    let mut rest: Vec<(usize, &str)> = Vec::new();
    for (n, l) in lines.by_ref() {
        match three_numbers(l) {
            Some([x, y, t]) => game.moves.push(Move {
                x: x - 1,
                y: y - 1,
                time_ms: u64::try_from(t).ok(),
                comment: None,
            }),
            None => {
                rest.push((n, l));
                break;
            }
        }
    }
    rest.extend(lines);
    // the given opening's stones take no time; a file without times has none
    let untimed = game
        .moves
        .iter()
        .take_while(|m| m.time_ms == Some(0))
        .count();
    if untimed < game.moves.len() {
        game.opening = untimed;
    }
    let mut names = Vec::new();
    for (_, l) in rest.into_iter().filter(|(_, l)| !l.is_empty()) {
        if l.parse::<i64>().is_ok() {
            continue; // the end code
        }
        if let Some((code, tail)) = l.split_once(',') {
            // the tournament's name is text: `7,7,7` is a stray move, not a result
            let named = tail.trim().parse::<i64>().is_err() && three_numbers(l).is_none();
            if let (Ok(code), true, false) =
                (code.trim().parse::<i64>(), named, tail.trim().is_empty())
            {
                game.result = Some(match code {
                    1 => Outcome::Won(Color::Black),
                    2 => Outcome::Won(Color::White),
                    _ => Outcome::Draw,
                });
                continue;
            }
        }
        if names.len() < 2 {
            names.push(l.to_string());
        }
    }
    let mut names = names.into_iter();
    game.black = names.next();
    game.white = names.next();
    Ok(game)
}

/// The board of `Piskvorky 20x20, 11:11, 0`.
fn header_size(header: &str) -> Result<GameRecord, ReadError> {
    let bad = || ReadError::new(1, format!("not a Piskvork header: {header:?}"));
    let h = header.trim_start_matches('\u{feff}');
    if !h
        .get(..9)
        .is_some_and(|w| w.eq_ignore_ascii_case("piskvorky"))
    {
        return Err(bad());
    }
    let size = h[9..].trim_start().split(',').next().ok_or_else(bad)?;
    let (w, ht) = size.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: i64 = w.trim().parse().map_err(|_| bad())?;
    let ht: i64 = ht.trim().parse().map_err(|_| bad())?;
    let (w, h) = check_size(w, ht, 1)?;
    Ok(GameRecord::new(w, h))
}

fn three_numbers(l: &str) -> Option<[i64; 3]> {
    let mut it = l.split(',').map(|f| f.trim().parse::<i64>());
    let v = [it.next()?.ok()?, it.next()?.ok()?, it.next()?.ok()?];
    it.next().is_none().then_some(v)
}

pub fn write(g: &GameRecord) -> String {
    let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", g.width, g.height);
    for m in &g.moves {
        s += &format!("{},{},{}\n", m.x + 1, m.y + 1, m.time_ms.unwrap_or(0));
    }
    if g.black.is_some() || g.white.is_some() {
        s += &format!("{}\n{}\n", g.player(Color::Black), g.player(Color::White));
    }
    s += "-1\n";
    if let Some(r) = g.result {
        let code = match r {
            Outcome::Won(Color::Black) => 1,
            Outcome::Won(Color::White) => 2,
            Outcome::Draw => 0,
        };
        s += &format!("{code},rensa\n");
    }
    s
}
