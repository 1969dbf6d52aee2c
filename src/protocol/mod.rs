//! The Gomocup/Piskvork protocol (with the Yixin-Board extensions analysis GUIs use): turns
//! lines of text into engine calls and engine answers into replies. See `protocol.md`.

mod database;
pub mod io;
pub mod parse;
mod think;

use crate::board::Pos;
use crate::engine::memory::{Plan, ThreadLimit};
use crate::engine::{Clock, Engine, MoveError, Owner, Report, ThinkLimits};
use crate::rules::Rule;
use parse::{parse, parse_int, parse_pair, parse_triple, Command};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::Instant;
use think::Thinking;

pub const ABOUT: &str = concat!(
    "name=\"Rensa\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"The Rensa developers\", country=\"International\", www=\"",
    env!("CARGO_PKG_REPOSITORY"),
    "\""
);

/// The most stone lines a block keeps: one per cell of the largest board.
const MAX_BLOCK_LINES: usize = crate::board::MAX_SIZE * crate::board::MAX_SIZE;

/// Turn time assumed until the manager sends `INFO timeout_turn`.
const DEFAULT_TURN_MS: u64 = 5000;

/// What a session hears: input from the manager and reports of the engine's searches.
#[derive(Debug)]
pub enum Event {
    /// A line, taken as arriving when it is handled (tests, scripts).
    Line(String),
    /// A line and when the input side read it. The manager's clock for a move runs from
    /// the moment it sent the command, and the commands before it (INFO, a large BOARD, a
    /// rule whose tables are built on first use) are handled on that clock too: the move's
    /// budget counts from the arrival.
    Received(String, Instant),
    /// A line too long to keep, of this many bytes.
    Overlong(usize),
    /// The input ended: finish what is running, then quit.
    Closed,
    /// A report of the engine's job with this number.
    Search(u64, Report),
}

/// The most input held unhandled (bytes, [`Event::cost`]): past this the input side waits,
/// so input sent faster than it is handled (during a search) cannot grow memory. STOP and
/// END may pass a full queue by a little, so that they still act.
pub const MAX_QUEUED: usize = 1 << 20;

impl Event {
    /// What an input event counts against [`MAX_QUEUED`].
    pub fn cost(&self) -> usize {
        match self {
            Event::Line(l) | Event::Received(l, _) => l.len() + 64,
            _ => 64,
        }
    }
}

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
    YxBlock,
    YxBlockUndo,
    /// Yixin-Board's Soosorv step (2 to 6) and its number of fifth moves.
    Soosorv(u8, i64),
    /// The position of a database command (the command waits in `Session::db_op`).
    Database,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
            BlockKind::Soosorv(..) => "YXSOOSORVSTEP",
            BlockKind::Database => "database position",
        }
    }
}

/// A multi-line command being read: its stone lines so far and the first bad one.
struct Block {
    kind: BlockKind,
    stones: Vec<(i64, i64, i64)>,
    error: Option<String>,
}

/// One protocol session: the game settings and the engine, writing replies to `out`.
pub struct Session<W: Write> {
    engine: Engine,
    out: W,
    started: bool,
    rule: Rule,
    clock: Clock,
    max_depth: Option<i32>,
    max_nodes: Option<u64>,
    /// Set after `YXSHOWINFO`: Yixin-Board numbers renju as rule 2.
    yixin: bool,
    /// `INFO show_detail` with its realtime bit: Yixin-Board's `MESSAGE REALTIME` lines.
    realtime: bool,
    block: Option<Block>,
    /// Where input and the engine's reports arrive, and the sending end for both.
    events: Receiver<Event>,
    sender: Sender<Event>,
    /// What the engine's running job is for, if one runs.
    thinking: Option<Thinking>,
    /// Input read while the engine thinks, handled once it has answered.
    pending: VecDeque<Event>,
    /// Bytes of input sent to the session and not yet handled (see [`MAX_QUEUED`]).
    queued: Arc<AtomicUsize>,
    /// How many of the first `pending` events came before a STOP: their searches stop at
    /// once.
    stopped_upto: usize,
    /// `INFO pondering 1`: think on the opponent's time.
    ponder: bool,
    /// The input has ended: quit once idle.
    closing: bool,
    /// The number of the latest job started: reports of older ones are dropped.
    job: u64,
    /// The answer of a ponder search that ended before the opponent moved.
    ponder_answer: Option<crate::engine::SearchResult>,
    /// When the line being handled arrived (see [`Event::Received`]).
    arrived: Instant,
    /// A database command waiting for its path or the rest of its comment.
    db_wait: Option<database::DbWait>,
    /// The database command whose position is being read.
    db_op: Option<parse::DbCommand>,
}

/// Where a session's events arrive: made before the session, so that the input side can
/// read (and stamp) lines while the engine is still being built.
pub struct Inbox {
    sender: Sender<Event>,
    events: Receiver<Event>,
    queued: Arc<AtomicUsize>,
}

impl Default for Inbox {
    fn default() -> Self {
        let (sender, events) = channel();
        Inbox {
            sender,
            events,
            queued: Arc::new(AtomicUsize::new(0)),
        }
    }
}

impl Inbox {
    /// Where the input side sends what it reads.
    pub fn sender(&self) -> Sender<Event> {
        self.sender.clone()
    }

    /// The count of input bytes sent and not yet handled (see [`Session::queued`]).
    pub fn queued(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.queued)
    }
}

impl<W: Write> Session<W> {
    pub fn new(engine: Engine, out: W) -> Session<W> {
        Session::with_inbox(engine, out, Inbox::default())
    }

    /// A session reading its events from `inbox`.
    pub fn with_inbox(engine: Engine, out: W, inbox: Inbox) -> Session<W> {
        let Inbox {
            sender,
            events,
            queued,
        } = inbox;
        Session {
            engine,
            out,
            started: false,
            rule: Rule::Freestyle,
            clock: Clock {
                turn_ms: DEFAULT_TURN_MS,
                match_ms: 0,
                left_ms: None,
                increment_ms: 0,
            },
            max_depth: None,
            max_nodes: None,
            yixin: false,
            realtime: false,
            block: None,
            events,
            sender,
            thinking: None,
            pending: VecDeque::new(),
            queued,
            stopped_upto: 0,
            ponder: false,
            closing: false,
            job: 0,
            ponder_answer: None,
            arrived: Instant::now(),
            db_wait: None,
            db_op: None,
        }
    }

    /// Where the input side sends what it reads (see [`Session::run`]).
    pub fn sender(&self) -> Sender<Event> {
        self.sender.clone()
    }

    /// The count of input bytes sent and not yet handled: the input side adds each event's
    /// [`Event::cost`] before sending it and waits while it is over [`MAX_QUEUED`].
    pub fn queued(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.queued)
    }

    /// Serves events until END, the end of input or a closed output.
    pub fn run(&mut self) {
        while let Ok(ev) = self.events.recv() {
            if self.dispatch(ev) == Flow::Quit {
                return;
            }
        }
    }

    /// Handles one event: input is served at once while nothing is thinking (STOP and END
    /// always at once), else queued until the answer is out.
    pub fn dispatch(&mut self, ev: Event) -> Flow {
        match ev {
            Event::Search(id, r) => self.report(id, r),
            Event::Closed => {
                self.closing = true;
                // nobody will answer: a ponder search would run for ever
                self.stop_pondering();
                self.idle_flow()
            }
            input => {
                if self.thinking.is_some() {
                    return self.input_while_thinking(input);
                }
                self.input(input)
            }
        }
    }

    /// An input event is handled (not queued): its bytes leave the count.
    fn handled(&self, ev: &Event) {
        let cost = ev.cost();
        // events from handle_line were never counted
        let _ = self
            .queued
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |q| {
                Some(q.saturating_sub(cost))
            });
    }

    /// Quit when the input has ended and nothing is left to do.
    fn idle_flow(&self) -> Flow {
        if self.closing && self.thinking.is_none() && self.pending.is_empty() {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    fn input(&mut self, ev: Event) -> Flow {
        self.handled(&ev);
        match ev {
            Event::Line(l) => {
                self.arrived = Instant::now();
                self.line(&l)
            }
            Event::Received(l, at) => {
                self.arrived = at;
                self.line(&l)
            }
            Event::Overlong(n) => {
                self.arrived = Instant::now();
                self.overlong_line(n)
            }
            _ => Flow::Continue,
        }
    }

    /// Waits for the engine's answer, if it is thinking (not pondering), and handles what
    /// was queued behind it.
    fn settle(&mut self) -> Flow {
        while self.thinking.as_ref().is_some_and(|t| !t.is_ponder()) {
            let Ok(ev) = self.events.recv() else {
                return Flow::Quit;
            };
            if self.dispatch(ev) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn output(&self) -> &W {
        &self.out
    }

    /// Ends the session (its searches stopped and waited for) and hands back its output.
    pub fn into_output(self) -> W {
        self.out
    }

    fn reply(&mut self, line: &str) -> Flow {
        // replies echo parts of the input: no control byte may reach the manager
        let clean: std::borrow::Cow<str> = if line.chars().any(char::is_control) {
            line.chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect::<String>()
                .into()
        } else {
            line.into()
        };
        let ok = writeln!(self.out, "{clean}").and_then(|_| self.out.flush());
        if ok.is_err() {
            // nobody is listening any more
            return Flow::Quit;
        }
        Flow::Continue
    }

    fn error(&mut self, why: impl std::fmt::Display) -> Flow {
        log::warn!("ERROR {why}");
        self.reply(&format!("ERROR {why}"))
    }

    /// Handles one input line and waits for any answer it asks for (tests, scripts).
    pub fn handle_line(&mut self, line: &str) -> Flow {
        if self.dispatch(Event::Line(line.to_string())) == Flow::Quit {
            return Flow::Quit;
        }
        self.settle()
    }

    /// A line too long to keep (the input side dropped it, counting `len` bytes), handled as
    /// [`Session::handle_line`] does.
    pub fn handle_overlong_line(&mut self, len: usize) -> Flow {
        if self.dispatch(Event::Overlong(len)) == Flow::Quit {
            return Flow::Quit;
        }
        self.settle()
    }

    fn line(&mut self, line: &str) -> Flow {
        log::trace!("< {line}");
        if self.block.is_some() {
            return self.block_line(line);
        }
        if self.db_wait.is_some() {
            return self.db_wait_line(line);
        }
        match parse(line) {
            Err(why) => self.error(why),
            Ok(None) => Flow::Continue,
            Ok(Some(cmd)) => self.command(cmd),
        }
    }

    /// A line too long to keep: one bounded ERROR, or the block it was part of fails.
    fn overlong_line(&mut self, len: usize) -> Flow {
        let why = format!("line of {len} bytes is too long, ignored");
        match self.block.as_mut() {
            Some(block) => {
                block.error.get_or_insert(why);
                Flow::Continue
            }
            None => self.error(why),
        }
    }

    fn block_line(&mut self, line: &str) -> Flow {
        let t = line.trim();
        if t.is_empty() {
            return Flow::Continue;
        }
        let block = self.block.as_mut().expect("in a block");
        if t.eq_ignore_ascii_case("DONE") {
            let block = self.block.take().expect("in a block");
            return self.finish_block(block);
        }
        let stone = match block.kind {
            BlockKind::Swap2
            | BlockKind::YxBlock
            | BlockKind::YxBlockUndo
            | BlockKind::Soosorv(..)
            | BlockKind::Database => parse_pair(t).map(|(x, y)| (x, y, 0)),
            _ => parse_triple(t),
        };
        match stone {
            Ok(s) if block.stones.len() < MAX_BLOCK_LINES => block.stones.push(s),
            // no board has more cells: keeping more would let input grow memory without end
            Ok(_) => {
                block
                    .error
                    .get_or_insert_with(|| format!("more than {MAX_BLOCK_LINES} stone lines"));
            }
            Err(why) => {
                // A command inside the block means the manager gave up on it.
                if let Ok(Some(cmd)) = parse(t) {
                    if cmd == Command::End {
                        // nothing more may be printed after END
                        return Flow::Quit;
                    }
                    if !matches!(cmd, Command::Unknown(_)) {
                        let name = block.kind.name();
                        self.block = None;
                        if self.error(format!("{name} ended without DONE")) == Flow::Quit {
                            return Flow::Quit;
                        }
                        return self.command(cmd);
                    }
                }
                if block.error.is_none() {
                    block.error = Some(why);
                }
            }
        }
        Flow::Continue
    }

    fn command(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Start(n) => self.start(n, n),
            // Yixin-Board's first coordinate is the row: it runs up to H, so it is our x.
            // (Gomoku is the same game transposed, so the board need not know.)
            Command::StartColsRows(cols, rows) => {
                if !Engine::size_supported(cols, rows) {
                    return self.error(format!(
                        "unsupported board size {cols}x{rows} (5 to 32 on each side)"
                    ));
                }
                self.start(rows, cols)
            }
            Command::RectStart(w, h) => self.start(w, h),
            c @ (Command::Restart
            | Command::Begin
            | Command::Turn(..)
            | Command::Takeback(..)
            | Command::Play(..)
            | Command::YxNBest(_)
            | Command::YxBalance(..)
            | Command::YxSwap2Step(_)
            | Command::YxSoosorvStep(..)
            | Command::YxSearchDefend) => {
                if !self.started {
                    return self.error("no board yet: send START first");
                }
                self.game_command(c)
            }
            Command::Board => self.open_block(BlockKind::Board),
            Command::YxBoard => self.open_block(BlockKind::YxBoard),
            Command::Swap2Board => self.open_block(BlockKind::Swap2),
            Command::YxBlock => self.open_block(BlockKind::YxBlock),
            Command::YxBlockUndo => self.open_block(BlockKind::YxBlockUndo),
            Command::Done => self.error("DONE without BOARD"),
            Command::Info(key, value) => self.info(&key, &value),
            Command::End => Flow::Quit,
            Command::About => self.reply(ABOUT),
            // Nothing is thinking: nothing to stop (a ponder search just goes on).
            Command::Stop => Flow::Continue,
            Command::Unknown(name) => {
                // echo a bounded part of the name: the line may be anything
                let shown: String = name.chars().take(40).collect();
                let more = if shown.len() < name.len() { "…" } else { "" };
                self.reply(&format!("UNKNOWN command {shown}{more}"))
            }
            c @ (Command::YxShowForbid
            | Command::YxShowInfo
            | Command::YxHashClear
            | Command::YxShowHashUsage
            | Command::YxBlockReset) => self.yixin_query(c),
            Command::YxDb(c) => self.db_command(c),
        }
    }

    /// A command on the game under way (START came first).
    fn game_command(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Restart => {
                let (w, h) = (self.engine.board().width(), self.engine.board().height());
                self.engine.new_game(w, h, self.rule);
                self.reply("OK")
            }
            Command::Begin => self.think(Thinking::Move),
            Command::Turn(x, y) => match self.engine.cell(x, y).and_then(|p| self.engine.play(p)) {
                Ok(()) => self.think(Thinking::Move),
                Err(e) => self.error(e),
            },
            Command::Takeback(x, y) => {
                match self.engine.cell(x, y).and_then(|p| self.engine.takeback(p)) {
                    Ok(()) => self.reply("OK"),
                    Err(e) => self.error(e),
                }
            }
            Command::Play(x, y) => {
                match self.engine.cell(x, y).and_then(|p| self.engine.play_own(p)) {
                    Ok(()) => self.reply(&format!("{x},{y}")),
                    Err(e) => self.error(e),
                }
            }
            c => self.analysis_command(c),
        }
    }

    /// Yixin-Board's commands that ask or reset something and search nothing.
    fn yixin_query(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::YxShowForbid => {
                let pts: String = self
                    .engine
                    .forbidden_points()
                    .iter()
                    .map(|p| format!("{:02}{:02}", p.x(), p.y()))
                    .collect();
                self.reply(&format!("FORBID {pts}."))
            }
            Command::YxShowInfo => {
                self.yixin = true;
                let max = format!("MESSAGE INFO MAX_THREAD_NUM {}", Engine::max_threads());
                if self.reply(&max) == Flow::Quit {
                    return Flow::Quit;
                }
                // log2 of the largest table in KiB
                self.reply("MESSAGE INFO MAX_HASH_SIZE 18")
            }
            Command::YxHashClear => {
                self.engine.clear_hash();
                Flow::Continue
            }
            Command::YxShowHashUsage => {
                let mib = self.engine.tt_bytes() >> 20;
                self.reply(&format!("MESSAGE hash size {mib} MiB"))
            }
            Command::YxBlockReset => {
                self.engine.clear_blocked();
                Flow::Continue
            }
            // (`command` sends only the commands above here)
            _ => Flow::Continue,
        }
    }

    fn start(&mut self, w: i64, h: i64) -> Flow {
        if !Engine::size_supported(w, h) {
            return self.error(format!(
                "unsupported board size {w}x{h} (5 to 32 on each side)"
            ));
        }
        self.engine.new_game(w as usize, h as usize, self.rule);
        self.started = true;
        self.reply("OK")
    }

    fn open_block(&mut self, kind: BlockKind) -> Flow {
        self.block = Some(Block {
            kind,
            stones: Vec::new(),
            error: None,
        });
        Flow::Continue
    }

    fn finish_block(&mut self, block: Block) -> Flow {
        if !self.started {
            return self.error("no board yet: send START first");
        }
        if let Some(why) = block.error {
            return self.error(format!("{}: {why}", block.kind.name()));
        }
        match block.kind {
            BlockKind::YxBlock | BlockKind::YxBlockUndo => {
                let r = self.cells(&block.stones).and_then(|cells| {
                    if block.kind == BlockKind::YxBlock {
                        self.engine.block(&cells)
                    } else {
                        self.engine.unblock(&cells)
                    }
                });
                match r {
                    Ok(()) => Flow::Continue,
                    Err(e) => self.error(format!("{}: {e}", block.kind.name())),
                }
            }
            BlockKind::Board | BlockKind::YxBoard => {
                let mut owners = Vec::with_capacity(block.stones.len());
                for &(x, y, f) in &block.stones {
                    owners.push(match f {
                        1 => Owner::Own,
                        2 => Owner::Opponent,
                        3 => Owner::Blocked,
                        _ => return self.error(format!("bad field {f} in {x},{y},{f}")),
                    });
                }
                let stones = self
                    .cells(&block.stones)
                    .map(|cells| cells.into_iter().zip(owners).collect::<Vec<(Pos, Owner)>>());
                if let Err(e) = stones.and_then(|s| self.engine.set_position(&s)) {
                    return self.error(e);
                }
                if block.kind == BlockKind::Board {
                    self.think(Thinking::Move)
                } else {
                    Flow::Continue
                }
            }
            BlockKind::Swap2 => {
                let set = self
                    .cells(&block.stones)
                    .and_then(|stones| self.engine.check_swap2(&stones));
                if set.is_err() {
                    return self.error(format!(
                        "SWAP2BOARD needs 0, 3 or 5 distinct stones on the board, got {}",
                        block.stones.len()
                    ));
                }
                self.think(Thinking::Swap2)
            }
            BlockKind::Soosorv(step, n) => match self.cells(&block.stones) {
                Ok(stones) => self.soosorv(step, n, &stones),
                Err(e) => self.error(format!("YXSOOSORVSTEP{step}: {e}")),
            },
            BlockKind::Database => self.db_position_command(&block.stones),
        }
    }

    /// The cells of a block's lines on the current board.
    fn cells(&self, lines: &[(i64, i64, i64)]) -> Result<Vec<Pos>, MoveError> {
        lines
            .iter()
            .map(|&(x, y, _)| self.engine.cell(x, y))
            .collect()
    }

    fn info(&mut self, key: &str, value: &str) -> Flow {
        let int = |what: &str| parse_int(value, what);
        // sizes and limits: a negative one is refused (and the old value kept), not
        // silently read as 0, which means something else for each key
        let count = |what: &str| -> Result<u64, String> {
            let v = parse_int(value, what)?;
            u64::try_from(v).map_err(|_| format!("{what} must not be negative: {v}"))
        };
        let running = self.engine.plan().threads;
        let mut plan = None;
        let result: Result<(), String> = (|| {
            match key {
                "timeout_turn" => self.clock.turn_ms = count("timeout_turn")?,
                "timeout_match" => self.clock.match_ms = count("timeout_match")?,
                "time_left" => self.clock.left_ms = Some(int("time_left")?),
                "max_memory" => plan = Some(self.engine.set_memory_limit(count("max_memory")?)),
                // Yixin-Board: the table in KiB, 0 = default
                "hash_size" => plan = Some(self.engine.set_hash_size(count("hash_size")?)),
                "rule" => {
                    let v = int("rule")?;
                    let rule = if self.yixin && v == 2 {
                        Some(Rule::Renju)
                    } else {
                        Rule::from_info(v)
                    };
                    let rule = rule.ok_or_else(|| format!("unsupported rule {v}"))?;
                    self.rule = rule;
                    self.engine.set_rule(rule);
                }
                "max_depth" => {
                    let v = int("max_depth")?;
                    self.max_depth = (v > 0).then_some(v.min(1000) as i32);
                }
                "max_node" => {
                    let v = int("max_node")?;
                    self.max_nodes = (v > 0).then_some(v as u64);
                }
                "show_detail" => self.realtime = int("show_detail")? & 1 != 0,
                "thread_num" => {
                    let n = count("thread_num")?;
                    plan = Some(
                        self.engine
                            .set_threads(usize::try_from(n).unwrap_or(usize::MAX)),
                    );
                }
                "pondering" => self.ponder = int("pondering")? != 0,
                "usedatabase" => self.db_use(int("usedatabase")? != 0)?,
                "database_readonly" => self
                    .engine
                    .set_database_readonly(int("database_readonly")? != 0),
                "time_increment" => self.clock.increment_ms = count("time_increment")?,
                "start_depth" | "nbestsym" => {
                    // accepted: every search starts at depth 1, N-best is not symmetric
                    int(key)?;
                }
                "game_type" => {
                    int("game_type")?;
                }
                "" => return Err("no key".into()),
                // folder, evaluate and any other key: ignored
                _ => {}
            }
            Ok(())
        })();
        match result {
            // fewer threads than asked for: say so once, when the count is set or changes
            Ok(()) => match plan {
                Some(p)
                    if p.threads < self.engine.threads()
                        && (key == "thread_num" || p.threads != running) =>
                {
                    let line = threads_message(self.engine.threads(), &p);
                    log::info!("{line}");
                    self.reply(&format!("MESSAGE {line}"))
                }
                _ => Flow::Continue,
            },
            Err(why) => {
                // Managers read no reply to INFO: an ERROR line here would be taken as the
                // answer to the next move request and lose the game. A MESSAGE is skipped.
                log::warn!("INFO {key}: {why}; ignored");
                let name = if key.is_empty() { "(no key)" } else { key };
                self.reply(&format!("MESSAGE INFO {name} ignored: {why}"))
            }
        }
    }

    /// The limits of a search started now for the line being handled: its clock is what
    /// is left since that line arrived.
    fn think_limits(&self) -> ThinkLimits {
        let spent = self.arrived.elapsed().as_millis() as u64;
        ThinkLimits {
            clock: self.clock.after(spent),
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
        }
    }
}

/// Why `plan` runs fewer than the `asked` threads, in one line.
fn threads_message(asked: usize, plan: &Plan) -> String {
    let why = match plan.limit {
        ThreadLimit::Cpus(n) => format!("this process may run on {n} CPU(s)"),
        ThreadLimit::Memory(bytes) => {
            format!("the most that fit in max_memory {} MiB", bytes >> 20)
        }
        ThreadLimit::None => "as asked".to_string(),
    };
    format!(
        "thread_num {asked}: {} search thread(s) run, {why}",
        plan.threads
    )
}

pub(crate) fn coords(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

pub(crate) fn pv_text(pv: &[Pos]) -> String {
    pv.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
