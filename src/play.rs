//! `pbrain-rensa play`: a game between a person at the terminal and the engine.
//!
//! A front-end over [`Engine`] only. [`Game`] reads lines from any [`BufRead`] and writes to
//! any [`Write`], so tests drive whole games through pipes or in memory.

use crate::board::{Color, Pos};
use crate::engine::{Clock, SearchResult};
use crate::engine::{Engine, MoveError, ThinkLimits};
use crate::eval::{is_mate_score, score_text, Score};
use crate::geometry::parse_coords;
use crate::record::{self, Defaults, Format, GameRecord};
use crate::rng::SplitMix64;
use crate::rules::Rule;
use std::io::{BufRead, Write};
use std::path::Path;

/// How a game is set up.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    /// The colour the person plays (black moves first).
    pub person: Color,
    /// Time for each engine move, ms.
    pub turn_ms: u64,
    /// Node limit for each engine move (a weaker, repeatable engine).
    pub max_nodes: Option<u64>,
    /// Seed for choosing among near-best moves; `None` always plays the best move.
    pub variety: Option<u64>,
    /// How far below the best move's score another move may be to be chosen by variety.
    pub variety_margin: Score,
    /// ANSI colours in the board.
    pub color: bool,
    /// Repeat each input line after the prompt (for piped input, so the output reads as a
    /// transcript).
    pub echo: bool,
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            person: Color::Black,
            turn_ms: 1000,
            max_nodes: None,
            variety: None,
            variety_margin: 30,
            color: false,
            echo: false,
        }
    }
}

const HELP: &str = "\
Commands:
  x,y     play at column x, row y (0-based, as in the protocol), e.g. 7,7
  h8      the same in PV notation: letter = column from a, number = row from 1
  undo    take back your last move (and the engine's answer)
  hint    the engine's suggestion for you, with its score
  swap    change sides: the engine takes your colour and moves now
  save F  write the moves to file F;  load F  replay the moves in file F
  new     start again;  help  this text;  quit  leave (the moves are printed)";

/// Longer input lines are refused whole.
const MAX_LINE: usize = 1000;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Five(Color),
    /// Black played a forbidden point under renju (only in a loaded game): white wins.
    Foul,
    Draw,
}

/// A game in progress.
pub struct Game<'a> {
    engine: Engine,
    opts: PlayOptions,
    person: Color,
    rng: Option<SplitMix64>,
    outcome: Option<Outcome>,
    out: &'a mut dyn Write,
    /// Where the search's progress goes (stderr in the binary).
    status: &'a mut dyn Write,
}

/// What one input line asks the loop to do.
#[derive(PartialEq, Eq)]
enum Step {
    Continue,
    Quit,
}

impl<'a> Game<'a> {
    pub fn new(opts: PlayOptions, out: &'a mut dyn Write, status: &'a mut dyn Write) -> Game<'a> {
        let mut engine = Engine::new();
        engine.new_game(opts.width, opts.height, opts.rule);
        Game {
            engine,
            person: opts.person,
            rng: opts.variety.map(SplitMix64::new),
            opts,
            outcome: None,
            out,
            status,
        }
    }

    /// Plays until `quit` or the end of input.
    pub fn run(&mut self, input: &mut dyn BufRead) -> std::io::Result<Option<Outcome>> {
        let o = &self.opts;
        writeln!(
            self.out,
            "Rensa {}x{} {}: you play {}. Type help for the commands.",
            o.width,
            o.height,
            o.rule.name(),
            color_name(self.person)
        )?;
        if let Some(seed) = o.variety {
            writeln!(self.out, "variety on, seed {seed}")?;
        }
        self.draw()?;
        let mut line = String::new();
        loop {
            if self.outcome.is_none() && self.engine.board().side() != self.person {
                self.engine_move()?;
            }
            if self.outcome.is_none() {
                write!(self.out, "{} to move > ", color_name(self.person))?;
            } else {
                write!(self.out, "game over (undo, save F, new, quit) > ")?;
            }
            self.out.flush()?;
            line.clear();
            // a line that is not UTF-8 is just a bad line
            match input.read_line(&mut line) {
                Ok(0) => {
                    writeln!(self.out)?;
                    break;
                }
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    writeln!(self.out, "could not read that line")?;
                    continue;
                }
                Err(e) => return Err(e),
            }
            if line.len() > MAX_LINE {
                writeln!(self.out, "that line is too long ({} bytes)", line.len())?;
                continue;
            }
            if self.opts.echo {
                writeln!(self.out, "{}", line.trim_end())?;
            }
            if self.handle(line.trim())? == Step::Quit {
                break;
            }
        }
        writeln!(self.out, "moves: {}", self.record())?;
        Ok(self.outcome)
    }

    /// The moves so far in `h8` notation.
    pub fn record(&self) -> String {
        let h = self.engine.board().history();
        let v: Vec<String> = h.iter().map(|(p, _)| p.to_string()).collect();
        v.join(" ")
    }

    fn handle(&mut self, line: &str) -> std::io::Result<Step> {
        let (word, arg) = match line.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(Step::Quit),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "undo" => self.undo()?,
            "hint" => self.hint()?,
            "swap" => self.swap()?,
            "new" => {
                self.engine
                    .new_game(self.opts.width, self.opts.height, self.opts.rule);
                self.outcome = None;
                self.draw()?;
            }
            "save" => self.save(arg)?,
            "load" => self.load(arg)?,
            _ => self.person_move(line)?,
        }
        Ok(Step::Continue)
    }

    fn person_move(&mut self, text: &str) -> std::io::Result<()> {
        let Some((x, y)) = parse_coords(text, self.opts.width) else {
            return writeln!(
                self.out,
                "'{text}' is not a move or a command: type a move as 7,7 or h8, or help"
            );
        };
        if self.outcome.is_some() {
            return writeln!(self.out, "the game is over: undo, new or quit");
        }
        let p = match self
            .engine
            .cell(x, y)
            .and_then(|p| self.engine.check_move(p).map(|_| p))
        {
            Ok(p) => p,
            Err(MoveError::Occupied(p)) => {
                return writeln!(self.out, "{p} ({p:?}) is taken; try another move")
            }
            Err(e) => return writeln!(self.out, "{e}; try another move"),
        };
        if self.engine.board().side() == Color::Black {
            if let Some(foul) = self.engine.foul(p) {
                return writeln!(
                    self.out,
                    "{p} ({p:?}) is forbidden for black under renju ({}); try another move",
                    foul.name()
                );
            }
        }
        self.apply(p)
    }

    /// Plays a checked move, draws the board and announces a result.
    fn apply(&mut self, p: Pos) -> std::io::Result<()> {
        let black_foul = self.black_foul(p);
        if let Err(e) = self.engine.play(p) {
            return writeln!(self.out, "{e}");
        }
        self.draw()?;
        self.outcome = if black_foul {
            Some(Outcome::Foul)
        } else {
            self.result_after(p)
        };
        match self.outcome {
            Some(o) => self.announce(o),
            None => Ok(()),
        }
    }

    fn announce(&mut self, o: Outcome) -> std::io::Result<()> {
        let who = |c: Color, person: Color| {
            if c == person {
                "you win"
            } else {
                "Rensa wins"
            }
        };
        match o {
            Outcome::Five(c) => writeln!(
                self.out,
                "{} wins with five in a row: {}.",
                color_name(c),
                who(c, self.person)
            ),
            Outcome::Foul => writeln!(
                self.out,
                "black played a forbidden point: white wins ({}).",
                who(Color::White, self.person)
            ),
            Outcome::Draw => writeln!(self.out, "the board is full: a draw."),
        }
    }

    fn limits(&self) -> ThinkLimits {
        ThinkLimits {
            clock: Clock {
                turn_ms: self.opts.turn_ms,
                match_ms: 0,
                left_ms: None,
                increment_ms: 0,
            },
            max_depth: None,
            max_nodes: self.opts.max_nodes,
        }
    }

    /// Searches the position, showing the depth reached on the status stream.
    fn think(&mut self) -> SearchResult {
        let limits = self.limits();
        let status = &mut *self.status;
        let r = self.engine.think(&limits, &mut |it| {
            let pv: Vec<String> = it.pv.iter().take(6).map(|p| p.to_string()).collect();
            let _ = write!(
                status,
                "\rthinking: depth {:>2} ev {:>6} pv {:<24}",
                it.depth,
                score_text(it.score),
                pv.join(" ")
            );
            let _ = status.flush();
        });
        let _ = write!(status, "\r{:60}\r", "");
        r
    }

    fn engine_move(&mut self) -> std::io::Result<()> {
        let r = self.think();
        let Some(mut best) = r.best else {
            self.outcome = Some(Outcome::Draw);
            return self.announce(Outcome::Draw);
        };
        let mut score = r.score;
        if let Some((p, s)) = self.variety(best, score) {
            (best, score) = (p, s);
        }
        writeln!(
            self.out,
            "Rensa plays {best} ({},{}), ev {}",
            best.x(),
            best.y(),
            score_text(score)
        )?;
        self.apply(best)
    }

    /// With variety on and no forced result, the best move found with `best` excluded, when
    /// its score is within the margin and a coin toss of the seeded generator picks it.
    fn variety(&mut self, best: Pos, score: Score) -> Option<(Pos, Score)> {
        let rng = self.rng.as_mut()?;
        if is_mate_score(score) || rng.next_u64() & 1 == 0 {
            return None;
        }
        self.engine.block(&[best]).ok()?;
        let r = self.think();
        self.engine.clear_blocked();
        let p = r.best.filter(|&p| p != best)?;
        (r.score >= score - self.opts.variety_margin && !is_mate_score(r.score))
            .then_some((p, r.score))
    }

    fn hint(&mut self) -> std::io::Result<()> {
        if self.outcome.is_some() {
            return writeln!(self.out, "the game is over");
        }
        let r = self.think();
        match r.best {
            Some(p) => writeln!(
                self.out,
                "hint: {p} ({},{}), ev {} at depth {}",
                p.x(),
                p.y(),
                score_text(r.score),
                r.depth
            ),
            None => writeln!(self.out, "no legal move"),
        }
    }

    fn undo(&mut self) -> std::io::Result<()> {
        let h = self.engine.board().history();
        let Some(i) = h.iter().rposition(|&(_, c)| c == self.person) else {
            return writeln!(self.out, "nothing of yours to undo");
        };
        let n = h.len() - i;
        for _ in 0..n {
            let h = self.engine.board().history();
            let (p, _) = h[h.len() - 1];
            if let Err(e) = self.engine.takeback(p) {
                return writeln!(self.out, "cannot undo: {e}");
            }
        }
        self.outcome = None;
        writeln!(self.out, "taken back")?;
        self.draw()
    }

    fn swap(&mut self) -> std::io::Result<()> {
        if self.outcome.is_some() {
            return writeln!(self.out, "the game is over");
        }
        self.person = self.person.opponent();
        writeln!(
            self.out,
            "swapped: you play {}, Rensa moves",
            color_name(self.person)
        )
    }

    fn save(&mut self, path: &str) -> std::io::Result<()> {
        if path.is_empty() {
            return writeln!(self.out, "save needs a file name");
        }
        let format = Format::from_path(Path::new(path)).unwrap_or(Format::Moves);
        match std::fs::write(path, record::write(&self.game_record(), format)) {
            Ok(()) => writeln!(
                self.out,
                "saved {} moves to {path}",
                self.engine.board().ply()
            ),
            Err(e) => writeln!(self.out, "cannot save to {path}: {e}"),
        }
    }

    /// The game so far as a record.
    fn game_record(&self) -> GameRecord {
        let o = &self.opts;
        let mut g = GameRecord::new(o.width, o.height);
        g.rule = Some(o.rule);
        let (you, rensa) = (Some("you".to_string()), Some("Rensa".to_string()));
        (g.black, g.white) = match self.person {
            Color::Black => (you, rensa),
            Color::White => (rensa, you),
        };
        g.result = self.outcome.map(|o| match o {
            Outcome::Five(c) => record::Outcome::Won(c),
            Outcome::Foul => record::Outcome::Won(Color::White),
            Outcome::Draw => record::Outcome::Draw,
        });
        g.moves = (self.engine.board().history().iter())
            .map(|(p, _)| record::Move::at(p.x() as i64, p.y() as i64))
            .collect();
        g
    }

    /// Replays a game record (`.psq`, SGF, or a move list: `x,y` or `h8`, `#` starts a
    /// comment), on its own board and rule where it names them. Nothing changes unless every
    /// move is on the board and on an empty cell.
    fn load(&mut self, path: &str) -> std::io::Result<()> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return writeln!(self.out, "cannot read {path}: {e}"),
        };
        let format = match Format::from_path(Path::new(path)) {
            Some(Format::Moves) | None => Format::detect(&text),
            Some(f) => f,
        };
        let defaults = Defaults {
            width: self.opts.width,
            height: self.opts.height,
        };
        let g = match record::parse(&text, format, defaults) {
            Ok(mut games) => games.remove(0),
            Err(e) => return writeln!(self.out, "{path}: {e}"),
        };
        let rule = g.rule.unwrap_or(self.opts.rule);
        let mut trial = Engine::new();
        trial.new_game(g.width, g.height, rule);
        let mut cells = Vec::with_capacity(g.moves.len());
        for m in &g.moves {
            match trial.cell(m.x, m.y).and_then(|p| trial.play(p).map(|_| p)) {
                Ok(p) => cells.push(p),
                Err(e) => return writeln!(self.out, "{path} is not a game on its board: {e}"),
            }
        }
        let o = &mut self.opts;
        if (o.width, o.height, o.rule) != (g.width, g.height, rule) {
            (o.width, o.height, o.rule) = (g.width, g.height, rule);
            writeln!(
                self.out,
                "the board is now {}x{}, {}",
                g.width,
                g.height,
                rule.name()
            )?;
        }
        self.engine
            .new_game(self.opts.width, self.opts.height, self.opts.rule);
        self.outcome = None;
        for &p in &cells {
            if self.outcome.is_some() {
                writeln!(self.out, "moves after the end of the game are ignored")?;
                break;
            }
            let foul = self.black_foul(p);
            self.engine.play(p).expect("checked above");
            self.outcome = if foul {
                Some(Outcome::Foul)
            } else {
                self.result_after(p)
            };
        }
        writeln!(
            self.out,
            "loaded {} moves from {path}",
            self.engine.board().ply()
        )?;
        self.draw()?;
        match self.outcome {
            Some(o) => self.announce(o),
            None => Ok(()),
        }
    }

    /// Whether black, to move, would play a renju foul on `p`.
    fn black_foul(&self, p: Pos) -> bool {
        self.engine.board().side() == Color::Black
            && self.engine.check_move(p).is_ok()
            && self.engine.foul(p).is_some()
    }

    /// The result once `p` was played (a foul is judged before the move, by `black_foul`).
    fn result_after(&self, p: Pos) -> Option<Outcome> {
        let b = self.engine.board();
        if b.is_five_at(p) {
            Some(Outcome::Five(b.stone(p)?))
        } else if b.is_full() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn draw(&mut self) -> std::io::Result<()> {
        let text = draw_board(&self.engine, self.opts.color);
        self.out.write_all(text.as_bytes())
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black (X)",
        Color::White => "white (O)",
    }
}

/// The board with coordinates on all four sides; the last move is bracketed.
pub fn draw_board(engine: &Engine, color: bool) -> String {
    let b = engine.board();
    let (w, h) = (b.width(), b.height());
    let last = b.last_move().map(|m| m.0);
    let letters: String = (0..w)
        .map(|x| {
            format!(
                " {} ",
                Pos::new(x, 0).to_string().chars().next().unwrap_or('?')
            )
        })
        .collect();
    let mut s = format!("    {letters}\n");
    for y in 0..h {
        s += &format!("{:>3} ", y + 1);
        for x in 0..w {
            let p = Pos::new(x, y);
            let (mark, paint) = match b.stone(p) {
                Some(Color::Black) => ("X", "\x1b[1;31m"),
                Some(Color::White) => ("O", "\x1b[1;34m"),
                None => (".", ""),
            };
            let (l, r) = if Some(p) == last {
                ("[", "]")
            } else {
                (" ", " ")
            };
            if color && !paint.is_empty() {
                s += &format!("{l}{paint}{mark}\x1b[0m{r}");
            } else {
                s += &format!("{l}{mark}{r}");
            }
        }
        s += &format!(" {}\n", y + 1);
    }
    s += &format!("    {letters}\n");
    s
}

/// Runs a game on the given streams until `quit` or the end of input.
pub fn run(
    opts: PlayOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    status: &mut dyn Write,
) -> std::io::Result<Option<Outcome>> {
    Game::new(opts, out, status).run(input)
}

pub mod cli;
#[cfg(test)]
mod tests;
