//! Shared by the tuning examples: the referee's game records (`referee.py match
//! --pgn-out`, one JSON object a line), parsed without a JSON dependency, and which positions
//! the search would evaluate statically.

use anyhow::{Context, Result};
use rensa::board::{Accumulator, Board, Color};
use rensa::pattern::Threat;
use rensa::rules::Rule;

/// One game record, reduced to what the fit needs.
pub struct Game {
    pub rule: Rule,
    pub size: usize,
    pub moves: Vec<(usize, usize)>,
    pub opening_plies: usize,
    /// Black's score: 1 win, 0.5 draw, 0 loss.
    pub black_score: f64,
    /// Games of one group (file and opening pair) go to the same side of the
    /// train/validation split.
    pub group: u64,
}

/// The top-level `"key": value` pairs of a one-line JSON object, values as raw text. Nested
/// objects (the referee's `stats` repeats keys such as `moves`) are skipped whole.
fn top_level_fields(line: &str) -> Result<Vec<(&str, &str)>> {
    let s = line.trim();
    let inner = s
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .context("not a JSON object")?;
    let mut parts = Vec::new();
    let (mut depth, mut in_string, mut escaped, mut start) = (0i32, false, false, 0);
    for (i, ch) in inner.char_indices() {
        if in_string {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match ch {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let p = p.trim().strip_prefix('"').context("key is not a string")?;
            let (key, rest) = p.split_once('"').context("unterminated key")?;
            let value = rest.trim_start().strip_prefix(':').context("no ':'")?;
            Ok((key, value.trim()))
        })
        .collect()
}

pub fn parse_game(line: &str, file_no: usize, line_no: usize) -> Result<Game> {
    let fields = top_level_fields(line)?;
    let get = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, v)| v)
            .with_context(|| format!("no \"{key}\""))
    };
    let string = |key: &str| -> Result<&str> {
        let v = get(key)?;
        v.strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .filter(|v| !v.contains('\\'))
            .with_context(|| format!("\"{key}\" is not a plain string"))
    };
    let number = |key: &str| -> Result<usize> {
        get(key)?
            .parse()
            .with_context(|| format!("\"{key}\" is not a count"))
    };
    let rule_code: i64 = get("rule")?.parse().context("\"rule\"")?;
    let rule = Rule::from_info(rule_code).with_context(|| format!("unknown rule {rule_code}"))?;
    let moves = string("moves")?
        .split_whitespace()
        .map(|m| {
            let (x, y) = m.split_once(',').context("move is not x,y")?;
            Ok((x.parse()?, y.parse()?))
        })
        .collect::<Result<Vec<_>>>()
        .context("\"moves\"")?;
    let black_score = match string("result")? {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    };
    // Without a pair number each game is its own group.
    let group = number("pair").unwrap_or(line_no);
    Ok(Game {
        rule,
        size: number("size")?,
        moves,
        opening_plies: number("opening_plies")?,
        black_score,
        group: ((file_no as u64) << 32) | group as u64,
    })
}

pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Whether the threat counts alone decide the position or force the reply, as the search's
/// static verdict judges it (a five to make or to block, or an open four the opponent cannot
/// answer with a four): the search never asks `evaluate` about such positions. With
/// `skip_open_threes`, also any position where either side can make an open four, which
/// leaves the Flex4 weights without data.
pub fn is_decided<A: Accumulator>(board: &Board<A>, skip_open_threes: bool) -> bool {
    let me = board.side();
    let opp = me.opponent();
    let open_four = |c: Color| board.count(c, Threat::Flex4) > 0;
    board.count(me, Threat::Five) > 0
        || board.count(opp, Threat::Five) > 0
        || (open_four(me) && !board.has_four_move(opp))
        || (skip_open_threes && (open_four(me) || open_four(opp)))
}
