//! The session's side of a search: starting it on the engine's thread, what it is for, the
//! replies when it ends, pondering, and input that arrives meanwhile.

use super::parse::{parse, Command};
use super::{coords, pv_text, BlockKind, Event, Flow, Session};
use crate::board::{Color, Pos};
use crate::engine::{
    score_text, Answer, Iteration, Report, SearchResult, SoosorvAnswer, SoosorvStep, Swap2Answer,
    Task,
};
use std::io::Write;

/// What the engine's job is for: how its answer is replied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Thinking {
    /// A move for BEGIN, TURN or BOARD: played and replied.
    Move,
    /// `yxnbest N`: each of the N best reported, the best played and replied.
    NBest(usize),
    /// `yxbalanceone|two B`: the stones replied.
    Balance(usize, i32),
    /// A SWAP2BOARD step on these stones.
    Swap2,
    /// Yixin-Board's `yxswap2stepN`: answered with `MESSAGE SWAP2 …` lines.
    YxSwap2(u8),
    /// Yixin-Board's `yxsoosorvstepN`: answered with `MESSAGE SOOSORV …` lines.
    Soosorv(SoosorvStep),
    /// Thinking on the opponent's time, expecting this move.
    Ponder(Pos),
}

impl Thinking {
    pub(super) fn is_ponder(&self) -> bool {
        matches!(self, Thinking::Ponder(_))
    }
}

/// INFO keys that only change the session's limits: a ponder search goes on through them.
const CLOCK_KEYS: [&str; 7] = [
    "timeout_turn",
    "timeout_match",
    "time_left",
    "time_increment",
    "max_depth",
    "max_node",
    "show_detail",
];

impl<W: Write> Session<W> {
    /// Starts the search a command asks for; its answer is replied when it ends.
    pub(super) fn think(&mut self, kind: Thinking) -> Flow {
        let limits = self.think_limits();
        let spent = self.arrived.elapsed().as_millis();
        if spent >= 5 && !matches!(kind, Thinking::Ponder(_)) {
            log::debug!("{spent} ms of the turn spent before the search");
        }
        let task = match &kind {
            Thinking::Move => Task::Think { limits, nbest: 1 },
            Thinking::NBest(n) => Task::Think { limits, nbest: *n },
            Thinking::Balance(n, bias) => Task::Balance {
                stones: *n,
                bias: *bias,
                limits,
            },
            Thinking::Swap2 | Thinking::YxSwap2(_) => {
                // the stones are on the board (check_swap2 or yxboard), black first
                let b = self.engine.board();
                let of = |c: Color| -> Vec<Pos> {
                    b.history()
                        .iter()
                        .filter(|&&(p, col)| col == c && !p.is_none())
                        .map(|&(p, _)| p)
                        .collect()
                };
                let (black, white) = (of(Color::Black), of(Color::White));
                let mut stones = Vec::new();
                for i in 0..black.len().max(white.len()) {
                    stones.extend(black.get(i));
                    stones.extend(white.get(i));
                }
                Task::Swap2 {
                    stones,
                    limits,
                    allow_two: true,
                }
            }
            Thinking::Soosorv(step) => Task::Soosorv {
                step: step.clone(),
                limits,
            },
            Thinking::Ponder(guess) => Task::Ponder { guess: *guess },
        };
        if matches!(kind, Thinking::NBest(_))
            && self.realtime
            && self.reply("MESSAGE REALTIME REFRESH") == Flow::Quit
        {
            return Flow::Quit;
        }
        self.job += 1;
        let (tx, id) = (self.sender.clone(), self.job);
        self.engine.start(task, move |r| {
            // the session may be gone (END): nothing to tell then
            let _ = tx.send(Event::Search(id, r));
        });
        self.thinking = Some(kind);
        Flow::Continue
    }

    /// Yixin-Board's own Swap2 steps: 1 on an empty board, 2 after three stones, 3 after
    /// five (set with `yxboard`).
    /// Yixin-Board's analysis and opening commands, once a board is set up.
    pub(super) fn analysis_command(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::YxNBest(n) if !(1..=64).contains(&n) => {
                self.error(format!("YXNBEST takes 1 to 64 moves, got {n}"))
            }
            Command::YxNBest(n) => self.think(Thinking::NBest(n as usize)),
            Command::YxBalance(n, bias) => {
                self.think(Thinking::Balance(n, bias.clamp(-5000, 5000) as i32))
            }
            Command::YxSwap2Step(step) => self.yx_swap2(step),
            Command::YxSoosorvStep(1, _) => {
                self.new_game_same_board();
                self.soosorv(1, 0, &[])
            }
            Command::YxSoosorvStep(step, n) => self.open_block(BlockKind::Soosorv(step, n)),
            Command::YxSearchDefend => {
                let b = self.engine.board();
                let moves = b.empty_cells().filter(|&p| b.is_legal(p)).count();
                self.think(Thinking::NBest(moves.max(1)))
            }
            other => {
                log::error!("not an analysis command: {other:?}");
                self.error("internal: not an analysis command")
            }
        }
    }

    /// The first step of an opening rule comes right after New Game, with no start or
    /// board: the old game is over.
    fn new_game_same_board(&mut self) {
        let b = self.engine.board();
        let (w, h) = (b.width(), b.height());
        self.engine.new_game(w, h, self.rule);
    }

    fn yx_swap2(&mut self, step: u8) -> Flow {
        if step == 1 {
            self.new_game_same_board();
        }
        let want = [0, 0, 3, 5][step as usize];
        let n = self.engine.board().stone_count();
        if n != want {
            return self.error(format!(
                "YXSWAP2STEP{step} needs {want} stones on the board, got {n}"
            ));
        }
        self.think(Thinking::YxSwap2(step))
    }

    /// Yixin-Board's Soosorv step `step` on `stones` (black first; see
    /// [`crate::engine::Engine::check_soosorv`]).
    pub(super) fn soosorv(&mut self, step: u8, n: i64, stones: &[Pos]) -> Flow {
        let n = usize::try_from(n).unwrap_or(0);
        match self.engine.check_soosorv(step, n, stones) {
            Ok(s) => self.think(Thinking::Soosorv(s)),
            Err(e) => self.error(format!("YXSOOSORVSTEP{step}: {e}")),
        }
    }

    /// Input while the engine thinks: STOP and END act at once, the rest waits for the
    /// answer. While pondering, the expected TURN turns the ponder search into the move's
    /// search; anything else but the clock's INFO ends it first.
    pub(super) fn input_while_thinking(&mut self, ev: Event) -> Flow {
        let ponder = match &self.thinking {
            Some(Thinking::Ponder(g)) => Some(*g),
            _ => None,
        };
        let cmd = match &ev {
            Event::Line(l) | Event::Received(l, _) if self.block.is_none() => {
                parse(l).ok().flatten()
            }
            _ => None,
        };
        if matches!(cmd, Some(Command::End | Command::Stop)) {
            self.handled(&ev);
        }
        match (&cmd, ponder) {
            (Some(Command::End), _) => {
                self.engine.stop();
                Flow::Quit
            }
            (Some(Command::Stop), None) => {
                // it also stops the searches of the commands read before it
                self.engine.stop();
                self.stopped_upto = self.pending.len();
                Flow::Continue
            }
            (_, None) => {
                self.pending.push_back(ev);
                Flow::Continue
            }
            (Some(Command::Stop), Some(_)) => Flow::Continue,
            // nothing that needs the engine: the ponder search goes on
            (None | Some(Command::Unknown(_) | Command::About), Some(_))
                if matches!(ev, Event::Line(_) | Event::Received(..)) =>
            {
                self.input(ev)
            }
            (Some(Command::Info(key, _)), Some(_)) if CLOCK_KEYS.contains(&key.as_str()) => {
                self.input(ev)
            }
            // (a depth or node limit is a strength setting: a ponder search may be past it)
            (&Some(Command::Turn(x, y)), Some(guess))
                if (x, y) == (guess.x() as i64, guess.y() as i64)
                    && self.max_depth.is_none()
                    && self.max_nodes.is_none() =>
            {
                self.ponder_hit(x, y)
            }
            _ => {
                self.stop_pondering();
                self.input(ev)
            }
        }
    }

    /// The opponent played the expected move.
    fn ponder_hit(&mut self, x: i64, y: i64) -> Flow {
        if let Err(e) = self.engine.cell(x, y).and_then(|p| self.engine.play(p)) {
            self.stop_pondering();
            return self.error(e);
        }
        log::debug!("ponder hit on {x},{y}");
        match self.ponder_answer.take() {
            // the ponder search had ended already: its answer stands
            Some(r) => {
                self.thinking = None;
                self.engine.wait();
                self.answer(Thinking::Move, Answer::Move(r))
            }
            None => {
                let t = self.think_limits();
                self.engine.ponder_hit(&t);
                self.thinking = Some(Thinking::Move);
                Flow::Continue
            }
        }
    }

    /// Ends a ponder search and forgets it.
    pub(super) fn stop_pondering(&mut self) {
        if self.thinking.as_ref().is_some_and(Thinking::is_ponder) {
            self.engine.stop();
            self.engine.wait();
            self.thinking = None;
            self.ponder_answer = None;
            // its last reports are still on the way: a new job number drops them
            self.job += 1;
        }
    }

    /// A report of job `id` (older jobs' reports are dropped).
    pub(super) fn report(&mut self, id: u64, r: Report) -> Flow {
        if id != self.job {
            return Flow::Continue;
        }
        let pondering = self.thinking.as_ref().is_some_and(Thinking::is_ponder);
        match r {
            Report::Iteration(it) if !pondering => self.iteration(&it),
            Report::Iteration(_) => Flow::Continue,
            Report::Line(i, r) => self.nbest_line(i, &r),
            Report::Done(a) if pondering => {
                // the guess still has to come: keep the answer for it
                if let Answer::Move(r) = a {
                    self.ponder_answer = Some(r);
                }
                Flow::Continue
            }
            Report::Done(a) => {
                let kind = self.thinking.take().unwrap_or(Thinking::Move);
                // a move goes out at once; the answers that set up a position need it back
                // from the engine's thread first
                if !matches!(kind, Thinking::Move | Thinking::NBest(_)) {
                    self.engine.wait();
                }
                if self.answer(kind, a) == Flow::Quit {
                    return Flow::Quit;
                }
                // (a ponder search the answer started is the engine's job now: not that)
                if !self.engine.pondering() {
                    self.engine.wait();
                }
                self.drain()
            }
            Report::Failed(why) => {
                self.engine.wait();
                log::error!("search failed: {why}");
                let kind = self.thinking.take();
                let flow = match kind {
                    Some(Thinking::Ponder(_)) | None => Flow::Continue,
                    // a move is still owed: the engine's plain fallback, not a lost game
                    Some(_) => {
                        let t = self.think_limits();
                        let mut quick = t;
                        quick.max_depth = Some(1);
                        let r = self.engine.think(&quick, &mut |_| {});
                        self.answer(Thinking::Move, Answer::Move(r))
                    }
                };
                if flow == Flow::Quit {
                    return Flow::Quit;
                }
                self.drain()
            }
        }
    }

    /// Handles the input queued while the engine thought, until it thinks again.
    fn drain(&mut self) -> Flow {
        while self.thinking.as_ref().is_none_or(Thinking::is_ponder) {
            let Some(ev) = self.pending.pop_front() else {
                break;
            };
            let stopped = self.stopped_upto > 0;
            self.stopped_upto = self.stopped_upto.saturating_sub(1);
            if self.dispatch(ev) == Flow::Quit {
                return Flow::Quit;
            }
            if stopped && self.thinking.as_ref().is_some_and(|t| !t.is_ponder()) {
                // a STOP came after this command: its search answers at once
                self.engine.stop();
            }
        }
        self.idle_flow()
    }

    /// One line per finished iteration, as GUIs and client libraries stream them, and
    /// Yixin-Board's realtime lines when asked for.
    fn iteration(&mut self, it: &Iteration) -> Flow {
        let line = format!(
            "depth {}-{} ev {} nodes {} nps {} time {} pv {}",
            it.depth,
            it.seldepth,
            score_text(it.score),
            it.nodes,
            it.nodes * 1000 / it.elapsed_ms.max(1),
            it.elapsed_ms,
            pv_text(&it.pv)
        );
        log::debug!("{line}");
        if it.line > 0 {
            // a multi-PV search's other lines
            return self.reply(&format!("MESSAGE line {} {line}", it.line + 1));
        }
        if self.reply(&format!("MESSAGE {line}")) == Flow::Quit {
            return Flow::Quit;
        }
        match it.pv.first() {
            // Yixin-Board draws these; it reads the value as a plain number
            Some(&best) if self.realtime => {
                for l in [
                    format!("MESSAGE REALTIME BEST {}", coords(best)),
                    format!("MESSAGE REALTIME VAL {}", it.score),
                    format!("MESSAGE REALTIME PV {}", pv_text(&it.pv)),
                ] {
                    if self.reply(&l) == Flow::Quit {
                        return Flow::Quit;
                    }
                }
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }

    /// The `i`-th best move of `yxnbest`.
    fn nbest_line(&mut self, i: usize, r: &SearchResult) -> Flow {
        let Some(p) = r.best else {
            return Flow::Continue;
        };
        let mut lines = vec![format!("MESSAGE nbest {} {}", i + 1, summary(r))];
        if self.realtime {
            lines.push(format!("MESSAGE REALTIME POS {}", coords(p)));
            lines.push(format!("MESSAGE REALTIME DONE {}", coords(p)));
            // Yixin-Board marks a proven loss on the board
            if r.score <= -crate::engine::WIN_MIN {
                lines.push(format!("MESSAGE REALTIME LOSE {}", coords(p)));
            }
        }
        for l in lines {
            if self.reply(&l) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// The reply to a finished job.
    pub(super) fn answer(&mut self, kind: Thinking, a: Answer) -> Flow {
        match (kind, a) {
            (Thinking::Move | Thinking::NBest(_), Answer::Move(r)) => self.move_reply(&r),
            (Thinking::Balance(..), Answer::Balance(stones, v)) => {
                if stones.is_empty() {
                    return self.error("no legal move to balance with");
                }
                let msg = format!("MESSAGE balance ev {}", score_text(v));
                if self.reply(&msg) == Flow::Quit {
                    return Flow::Quit;
                }
                let s: Vec<String> = stones.iter().map(|&p| coords(p)).collect();
                self.reply(&s.join(" "))
            }
            (Thinking::Swap2, Answer::Swap2(a)) => self.reply(&match a {
                Swap2Answer::Swap => "SWAP".to_string(),
                Swap2Answer::Move(p) => coords(p),
                Swap2Answer::Two(w, b) => format!("{} {}", coords(w), coords(b)),
                Swap2Answer::Opening(ps) => {
                    let s: Vec<String> = ps.iter().map(|&p| coords(p)).collect();
                    s.join(" ")
                }
            }),
            (Thinking::YxSwap2(step), Answer::Swap2(a)) => {
                let yx = |n: usize, p: Pos| format!("MESSAGE SWAP2 MOVE{n} {} {}", p.x(), p.y());
                if let Swap2Answer::Move(p) = a {
                    // Yixin-Board sends the position again and asks for the move: not played
                    let _ = self.engine.takeback(p);
                }
                let lines = match (step, a) {
                    (_, Swap2Answer::Opening(ps)) => {
                        vec![yx(1, ps[0]), yx(2, ps[1]), yx(3, ps[2])]
                    }
                    (_, Swap2Answer::Two(w, b)) => vec![yx(4, w), yx(5, b)],
                    (2, Swap2Answer::Swap) => vec!["MESSAGE SWAP2 SWAP1 YES".to_string()],
                    (2, _) => vec!["MESSAGE SWAP2 SWAP1 NO".to_string()],
                    (_, Swap2Answer::Swap) => vec!["MESSAGE SWAP2 SWAP2 YES".to_string()],
                    (_, _) => vec!["MESSAGE SWAP2 SWAP2 NO".to_string()],
                };
                for l in lines {
                    if self.reply(&l) == Flow::Quit {
                        return Flow::Quit;
                    }
                }
                Flow::Continue
            }
            (Thinking::Soosorv(step), Answer::Soosorv(a)) => {
                let yx = |what: &str, p: Pos| format!("MESSAGE SOOSORV {what} {} {}", p.x(), p.y());
                let lines = match a {
                    SoosorvAnswer::Opening(ps) => {
                        vec![yx("MOVE1", ps[0]), yx("MOVE2", ps[1]), yx("MOVE3", ps[2])]
                    }
                    SoosorvAnswer::Swap(yes) => {
                        let which = if step == SoosorvStep::SwapFirst { 1 } else { 2 };
                        let yes = if yes { "YES" } else { "NO" };
                        vec![format!("MESSAGE SOOSORV SWAP{which} {yes}")]
                    }
                    SoosorvAnswer::Fourth(p, n) => vec![format!("{} {n}", yx("MOVE4", p))],
                    SoosorvAnswer::Offer(ps) => {
                        let mut v: Vec<String> = ps.iter().map(|&p| yx("MOVE5", p)).collect();
                        v.push("MESSAGE SOOSORV MOVE5 DONE".to_string());
                        v
                    }
                    SoosorvAnswer::Choose(p) => vec![yx("MOVE5C", p)],
                };
                for l in lines {
                    if self.reply(&l) == Flow::Quit {
                        return Flow::Quit;
                    }
                }
                Flow::Continue
            }
            (kind, a) => {
                log::error!("{kind:?} got {a:?}");
                self.error("internal: unexpected search answer")
            }
        }
    }

    /// Plays and replies a searched move, then ponders when asked to.
    fn move_reply(&mut self, r: &SearchResult) -> Flow {
        let best = r.best.or_else(|| {
            let foul = self.engine.forced_foul();
            if let Some(p) = foul {
                log::warn!(
                    "every empty cell is forbidden: playing the foul {}",
                    coords(p)
                );
            }
            foul
        });
        let Some(p) = best else {
            return self.error("no legal move");
        };
        self.engine.commit(p);
        let msg = summary(r);
        log::info!("{msg}");
        if self.reply(&format!("MESSAGE {msg}")) == Flow::Quit {
            return Flow::Quit;
        }
        if self.reply(&coords(p)) == Flow::Quit {
            return Flow::Quit;
        }
        // the opponent's expected reply is the second move of the line
        let guess =
            r.pv.get(1)
                .copied()
                .filter(|&g| self.engine.check_move(g).is_ok());
        match guess {
            Some(g) if self.ponder && !self.closing => self.think(Thinking::Ponder(g)),
            _ => Flow::Continue,
        }
    }
}

/// The one-line search summary sent as a MESSAGE before each move.
fn summary(r: &SearchResult) -> String {
    let nps = r.nodes * 1000 / r.elapsed_ms.max(1);
    format!(
        "depth {}-{} ev {} nodes {} nps {} time {} pv {}",
        r.depth,
        r.seldepth,
        score_text(r.score),
        r.nodes,
        nps,
        r.elapsed_ms,
        pv_text(&r.pv)
    )
}
