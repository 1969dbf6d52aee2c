//! Game analysis: a played game judged move by move, for any front-end (`analyze` over
//! record files, `serve`'s graph of a game).
//!
//! Each position of a game is searched once, in playing order on one engine, so that what
//! a search leaves in the table (the line the game then follows) starts the next. A move's
//! value for its player is the next position's value, negated; the best value is its own
//! position's. Their difference in win probability ([`crate::eval::win_probability`]) judges
//! the move ([`Judgement`]); a move that turns a position not yet lost into a proven loss
//! is where the game was decided ([`deciding_move`]).
//!
//! Below the front-ends: `crate::analyze` gathers records and writes what this finds.

#[cfg(test)]
pub(crate) mod tests;

use crate::board::{Color, Pos};
use crate::engine::{Engine, MoveError};
use crate::eval::{is_mate_score, mate_in, mated_in, win_probability, Score, WIN_MIN};
use crate::record::{GameRecord, Outcome};
use crate::rules::Rule;
use std::ops::Range;

/// How many times longer a position is searched at most when its search ended no iteration.
const RETRY_LONGEST: u64 = 4;

/// A loss of win probability from this on is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// … a mistake.
pub const MISTAKE: f64 = 0.10;
/// … a blunder.
pub const BLUNDER: f64 = 0.20;

/// A game to analyse: where it came from and what it holds.
#[derive(Clone, Debug)]
pub struct Game {
    /// The file, and the game's number within it where it holds several (`a.sgf#2`).
    pub source: String,
    pub record: GameRecord,
    pub rule: Rule,
}

/// How long each position is searched.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
}

/// What a search said about a position, for the side to move.
#[derive(Clone, Debug)]
pub struct Searched {
    pub score: Score,
    pub best: Option<Pos>,
    pub pv: Vec<Pos>,
    pub depth: i32,
    pub nodes: u64,
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
    /// A forced win was there and the move let it go.
    MissedWin,
    /// A renju foul: black loses on the spot.
    Foul,
}

impl Judgement {
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
            Judgement::MissedWin => "missed win",
            Judgement::Foul => "foul",
        }
    }
}

/// One move and what the analysis made of it.
#[derive(Clone, Debug)]
pub struct MoveReport {
    /// Index in the record, from 0 (black's first stone).
    pub ply: usize,
    pub color: Color,
    pub mv: Pos,
    /// The position before the move, for its player.
    pub before: Searched,
    /// The played move's value for its player.
    pub played: Score,
    /// The best move's value: the search's, or the played move's where that is higher.
    pub best: Score,
    /// The player's win probability with the best move and with the one played.
    pub win_best: f64,
    pub win_played: f64,
    pub judgement: Option<Judgement>,
}

impl MoveReport {
    /// Win probability lost by the move (0 for the best move).
    pub fn loss(&self) -> f64 {
        (self.win_best - self.win_played).max(0.0)
    }

    /// Black's win probability after the move.
    pub fn black_win(&self) -> f64 {
        match self.color {
            Color::Black => self.win_played,
            Color::White => 1.0 - self.win_played,
        }
    }
}

/// How a game ended on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Five(Color),
    /// Black's renju foul.
    Foul,
    /// The board filled up.
    Full,
    /// The record stops with the game still on.
    Open,
    /// The record's move `ply` (from 0) cannot be played; the analysis stops before it.
    Illegal {
        ply: usize,
        reason: String,
    },
}

/// A game's analysis.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    pub game: Game,
    /// The analysed moves, in order (the opening's stones are not judged).
    pub moves: Vec<MoveReport>,
    pub end: End,
    /// From the board, else from the record's result.
    pub winner: Option<Color>,
    /// Index into `moves` of the move that decided the game.
    pub deciding: Option<usize>,
    pub nodes: u64,
    pub elapsed_ms: u64,
}

/// The record's moves as cells, until one cannot be played (or the game is over), and how
/// the game ended. Leaves the position after them on `engine`.
fn replay(engine: &mut Engine, g: &Game) -> (Vec<Pos>, End) {
    let r = &g.record;
    engine.new_game(r.width, r.height, g.rule);
    let mut cells = Vec::with_capacity(r.moves.len());
    for (ply, m) in r.moves.iter().enumerate() {
        let illegal = |reason: String| End::Illegal { ply, reason };
        let p = match engine.cell(m.x, m.y) {
            Ok(p) => p,
            Err(_) => {
                let reason = format!(
                    "({}, {}) is off the {}x{} board",
                    m.x, m.y, r.width, r.height
                );
                return (cells, illegal(reason));
            }
        };
        if let Err(e) = engine.check_move(p) {
            let reason = match e {
                MoveError::Occupied(_) => format!("{p} is already taken"),
                e => e.to_string(),
            };
            return (cells, illegal(reason));
        }
        let foul = engine.board().side() == Color::Black && engine.foul(p).is_some();
        engine.play(p).expect("checked above");
        cells.push(p);
        let end = if foul {
            Some(End::Foul)
        } else if engine.board().is_five_at(p) {
            Some(End::Five(engine.board().stone(p).expect("just played")))
        } else if engine.board().is_full() {
            Some(End::Full)
        } else {
            None
        };
        if let Some(end) = end {
            if ply + 1 < r.moves.len() {
                let after = format!("the game was over after move {}", ply + 1);
                return (
                    cells,
                    End::Illegal {
                        ply: ply + 1,
                        reason: after,
                    },
                );
            }
            return (cells, end);
        }
    }
    (cells, End::Open)
}

/// A game replayed: its legal moves as cells, how it ended, where the judged moves begin.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub cells: Vec<Pos>,
    pub end: End,
    /// The first judged move (the opening's stones are given, not chosen).
    pub first: usize,
}

impl Replayed {
    /// The positions to search, by the number of moves before them: before each judged
    /// move, and after the last one while the game is still on.
    pub fn positions(&self) -> Range<usize> {
        let open = matches!(self.end, End::Open | End::Illegal { .. });
        self.first..self.cells.len() + usize::from(open)
    }
}

pub fn replay_game(engine: &mut Engine, g: &Game) -> Replayed {
    let (cells, end) = replay(engine, g);
    let first = g.record.opening.min(cells.len());
    Replayed { cells, end, first }
}

/// Searches the positions `range` of a replayed game (see [`Replayed::positions`]) on
/// `engine`, one thread, its table cleared first (so a game's analysis does not depend on
/// what the engine did before) and kept from one position to the next. From the last
/// position back to the first: what the later searches proved (a forced win near the end)
/// is in the table when an earlier position's search reaches it, so a win is seen from
/// further back than a search of that length alone would see it. `progress` hears of each
/// position searched. The searches come back in the positions' order.
pub fn search_positions(
    engine: &mut Engine,
    g: &Game,
    r: &Replayed,
    range: Range<usize>,
    limits: Limits,
    progress: &mut dyn FnMut(),
) -> Vec<Searched> {
    engine.new_game(g.record.width, g.record.height, g.rule);
    engine.clear_hash();
    let Some(last) = range.clone().next_back() else {
        return Vec::new();
    };
    for &p in &r.cells[..last] {
        engine.play(p).expect("replayed");
    }
    let mut out = Vec::with_capacity(range.len());
    for i in range.rev() {
        // a search whose root probes took it all ends no iteration and has no value: search
        // again, longer (up to 4 times)
        let mut k = 1;
        let s = loop {
            let times = |v: Option<u64>| v.map(|v| v * k);
            let s = engine.analyse(times(limits.time_ms), times(limits.nodes), &mut |_| {});
            if s.depth > 0 || is_mate_score(s.score) || k >= RETRY_LONGEST {
                break s;
            }
            k *= 2;
        };
        out.push(Searched {
            score: s.score,
            best: s.best,
            pv: s.pv,
            depth: s.depth,
            nodes: s.nodes,
        });
        progress();
        if i > 0 {
            engine.takeback(r.cells[i - 1]).expect("replayed");
        }
    }
    out.reverse();
    out
}

/// Analyses `g` on `engine`, every position in turn.
pub fn analyse_game(
    engine: &mut Engine,
    g: &Game,
    limits: Limits,
    progress: &mut dyn FnMut(),
) -> GameAnalysis {
    let start = std::time::Instant::now();
    let r = replay_game(engine, g);
    let searched = search_positions(engine, g, &r, r.positions(), limits, progress);
    assemble(g, r, searched, start.elapsed().as_millis() as u64)
}

/// The analysis from the searches of every position of [`Replayed::positions`], in order.
pub fn assemble(g: &Game, r: Replayed, searched: Vec<Searched>, elapsed_ms: u64) -> GameAnalysis {
    let Replayed { cells, end, first } = r;
    let winner = match &end {
        End::Five(c) => Some(*c),
        End::Foul => Some(Color::White),
        End::Full => None,
        _ => match g.record.result {
            Some(Outcome::Won(c)) => Some(c),
            _ => None,
        },
    };
    let nodes = searched.iter().map(|s| s.nodes).sum();
    let mut moves = Vec::new();
    for (k, i) in (first..cells.len()).enumerate() {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let last = i + 1 == cells.len();
        let played = match (searched.get(k + 1), last, &end) {
            (_, true, End::Five(_)) => mate_in(1),
            (_, true, End::Foul) => mated_in(0),
            (_, true, End::Full) => 0,
            (Some(next), _, _) => -next.score,
            (None, _, _) => unreachable!("a search after every move of a game still on"),
        };
        let foul = last && end == End::Foul;
        moves.push(judge(
            i,
            color,
            cells[i],
            searched[k].clone(),
            played,
            foul,
            g.rule,
        ));
    }
    let deciding = winner.and_then(|w| deciding_move(&moves, w.opponent()));
    GameAnalysis {
        game: g.clone(),
        moves,
        end,
        winner,
        deciding,
        nodes,
        elapsed_ms,
    }
}

/// A move's report from its position's search and its own value.
fn judge(
    ply: usize,
    color: Color,
    mv: Pos,
    before: Searched,
    played: Score,
    foul: bool,
    rule: Rule,
) -> MoveReport {
    let best_played = before.best == Some(mv);
    // the best move is the best: a deeper look at the next position does not make it worse
    let played = if best_played {
        played.max(before.score)
    } else {
        played
    };
    let best = before.score.max(played);
    let win_best = win_probability(best, rule);
    let win_played = win_probability(played, rule);
    let loss = win_best - win_played;
    let judgement = if foul {
        Some(Judgement::Foul)
    } else if best_played {
        None
    } else if before.score >= WIN_MIN && played < WIN_MIN {
        Some(Judgement::MissedWin)
    } else if loss >= BLUNDER {
        Some(Judgement::Blunder)
    } else if loss >= MISTAKE {
        Some(Judgement::Mistake)
    } else if loss >= INACCURACY {
        Some(Judgement::Inaccuracy)
    } else {
        None
    };
    MoveReport {
        ply,
        color,
        mv,
        before,
        played,
        best,
        win_best,
        win_played,
        judgement,
    }
}

/// The loser's move that decided the game, as an index into `moves`. Where a search proved
/// the loss (a forced win for the winner, or a foul), from the first move where one did
/// back to the last of the loser's moves that was not already lost and cost something by
/// the searches (not their own choice, and an inaccuracy at least): a short search proves a
/// long win a few moves late, and the moves it would have played itself are not the ones
/// to blame. Failing a proof, the last move after
/// which the loser's win probability fell below one half and stayed there; failing that,
/// the loser's costliest move.
pub fn deciding_move(moves: &[MoveReport], loser: Color) -> Option<usize> {
    let mine = || moves.iter().enumerate().filter(|(_, m)| m.color == loser);
    let proof = moves.iter().position(|m| {
        let (before, after) = (m.before.score, m.played);
        if m.color == loser {
            before <= -WIN_MIN || after <= -WIN_MIN
        } else {
            before >= WIN_MIN || after >= WIN_MIN
        }
    });
    if let Some(p) = proof {
        let blamed = mine()
            .filter(|&(k, m)| {
                let costly = m.before.best != Some(m.mv) && m.loss() >= INACCURACY;
                k <= p && m.before.score > -WIN_MIN && (k == p || costly)
            })
            .map(|(k, _)| k)
            .next_back();
        if blamed.is_some() {
            return blamed;
        }
    }
    // the loser's chance before each of their moves, and after their last
    let crossed = mine()
        .filter(|(i, m)| {
            m.win_best >= 0.5
                && m.win_played < 0.5
                && mine()
                    .filter(|(j, _)| j > i)
                    .all(|(_, later)| later.win_best < 0.5)
        })
        .map(|(i, _)| i)
        .next_back();
    if crossed.is_some() {
        return crossed;
    }
    mine()
        .filter(|(_, m)| m.loss() > 0.0)
        .max_by(|(i, a), (j, b)| a.loss().total_cmp(&b.loss()).then(j.cmp(i)))
        .map(|(i, _)| i)
}
