//! Shared by the fits: the positions of game records and self-play files that the search
//! would evaluate statically, with each game's result and the train/validation split.

use super::games::{is_decided, parse_game, splitmix64};
use anyhow::{bail, Context, Result};
use rensa::board::{Board, Classical, Color, Pos};
use rensa::rules::Rule;
use rensa::selfplay::{self, Record};
use std::fs;
use std::path::Path;

/// One position handed to a fit.
pub struct Position<'a> {
    pub board: &'a Board<Classical>,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
    /// The search's score, when the data has one (self-play files).
    pub search: Option<f64>,
    pub validation: bool,
    /// Which game the position comes from (unique over the files read), and its stones:
    /// a game's positions come one after another, in playing order. (Read by `train_net`.)
    #[allow(dead_code)]
    pub game: u64,
    #[allow(dead_code)]
    pub stones: usize,
}

/// Hands every position of `rule` in `files` (referee `.jsonl` records after their opening,
/// or `pbrain-rensa selfplay` files) that the search would evaluate statically to `take`.
/// Games go 90/10 to training and validation by opening (`seed` picks another split), so a
/// game's positions stay on one side.
///
/// The games of each rule in `also` are read too, set up on boards of `rule`, and all go to
/// training: the shapes of one rule's games teach another rule's evaluation where that rule
/// has few games of its own (their results may read differently under `rule`: a freestyle
/// overline win is no standard win).
pub fn read_positions(
    files: &[String],
    rule: Rule,
    also: &[Rule],
    seed: u64,
    mut take: impl FnMut(Position),
) -> Result<()> {
    for &source in std::iter::once(&rule).chain(also) {
        read_source(files, source, rule, seed, &mut take)?;
    }
    Ok(())
}

/// A number for game `n` (block number or line) of file `file_no` read as `source`'s.
fn game_key(source: Rule, file_no: usize, n: usize) -> u64 {
    (source.info_code() as u64) << 56 | (file_no as u64) << 32 | n as u64
}

fn read_source(
    files: &[String],
    source: Rule,
    rule: Rule,
    seed: u64,
    take: &mut impl FnMut(Position),
) -> Result<()> {
    let (mut games, mut positions) = (0, 0);
    for (file_no, file) in files.iter().enumerate() {
        if fs::read(file)
            .map(|b| b.starts_with(b"RNSP"))
            .unwrap_or(false)
        {
            let before = positions;
            selfplay::read_blocks(Path::new(file), |game_no, block| {
                for r in block {
                    if r.rule != source {
                        continue;
                    }
                    let board = Record { rule, ..r.clone() }.board_with(Classical::new(rule));
                    if is_decided(&board, false) {
                        continue;
                    }
                    let opening = r.stones.iter().take(4).fold(0u64, |h, &(p, c)| {
                        splitmix64(h ^ ((p.index() as u64) << 1 | c.index() as u64))
                    });
                    let validation =
                        source == rule && splitmix64(opening ^ splitmix64(seed)) % 10 == 0;
                    positions += 1;
                    take(Position {
                        board: &board,
                        result: (r.result as f64 + 1.0) / 2.0,
                        search: Some(r.score as f64),
                        validation,
                        game: game_key(source, file_no, game_no as usize),
                        stones: r.stones.len(),
                    });
                }
            })
            .with_context(|| format!("reading {file}"))?;
            println!("{file}: {} positions of {source:?}", positions - before);
            continue;
        }
        let text = fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
        for (line_no, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{file}:{}", line_no + 1);
            let game = parse_game(line, file_no, line_no).with_context(at)?;
            if game.rule != source {
                continue;
            }
            let validation = source == rule && splitmix64(game.group ^ splitmix64(seed)) % 10 == 0;
            let mut board =
                Board::with_accumulator(game.size, game.size, rule, Classical::new(rule));
            for (ply, &(x, y)) in game.moves.iter().enumerate() {
                if x >= game.size || y >= game.size || !board.is_empty(Pos::new(x, y)) {
                    bail!("{}: move {} is off the board or taken", at(), ply + 1);
                }
                if ply >= game.opening_plies && !is_decided(&board, false) {
                    let result = if board.side() == Color::Black {
                        game.black_score
                    } else {
                        1.0 - game.black_score
                    };
                    positions += 1;
                    take(Position {
                        board: &board,
                        result,
                        search: None,
                        validation,
                        game: game_key(source, file_no, line_no),
                        stones: ply,
                    });
                }
                board.make(Pos::new(x, y));
            }
            games += 1;
        }
    }
    println!("{games} games of {source:?}, {positions} positions");
    Ok(())
}
