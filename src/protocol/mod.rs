//! The Gomocup/Piskvork protocol (with the Yixin-Board extensions analysis GUIs use): turns
//! lines of text into engine calls and engine answers into replies. See `protocol.md`.

pub mod parse;

use crate::board::Pos;
use crate::engine::{Engine, Owner, Swap2Answer, ThinkLimits};
use crate::eval::score_text;
use crate::rules::Rule;
use crate::search::time::Clock;
use crate::search::SearchResult;
use parse::{parse, parse_int, parse_pair, parse_triple, Command};
use std::io::Write;

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
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
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
    /// Lines handled so far: the number of the current request for the engine's stop signal
    /// (the input thread counts the same lines).
    line_no: u64,
}

impl<W: Write> Session<W> {
    pub fn new(engine: Engine, out: W) -> Session<W> {
        Session {
            engine,
            out,
            started: false,
            rule: Rule::Freestyle,
            clock: Clock {
                turn_ms: DEFAULT_TURN_MS,
                match_ms: 0,
                left_ms: None,
            },
            max_depth: None,
            max_nodes: None,
            yixin: false,
            realtime: false,
            block: None,
            line_no: 0,
        }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn output(&self) -> &W {
        &self.out
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

    /// Handles one input line (non-empty lines only: they are what the stop signal counts).
    pub fn handle_line(&mut self, line: &str) -> Flow {
        log::trace!("< {line}");
        self.line_no += 1;
        self.engine.set_request(self.line_no);
        if self.block.is_some() {
            return self.block_line(line);
        }
        match parse(line) {
            Err(why) => self.error(why),
            Ok(None) => Flow::Continue,
            Ok(Some(cmd)) => self.command(cmd),
        }
    }

    /// A line too long to keep (the input side dropped it, counting `len` bytes): one
    /// bounded ERROR, or the block it was part of fails.
    pub fn handle_overlong_line(&mut self, len: usize) -> Flow {
        self.line_no += 1;
        self.engine.set_request(self.line_no);
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
            BlockKind::Swap2 | BlockKind::YxBlock | BlockKind::YxBlockUndo => {
                parse_pair(t).map(|(x, y)| (x, y, 0))
            }
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
            Command::Restart => {
                if !self.started {
                    return self.error("no board yet: send START first");
                }
                let (w, h) = (self.engine.board().width(), self.engine.board().height());
                self.engine.new_game(w, h, self.rule);
                self.reply("OK")
            }
            Command::Begin => {
                if !self.started {
                    return self.error("no board yet: send START first");
                }
                self.think_and_reply()
            }
            Command::Turn(x, y) => {
                if !self.started {
                    return self.error("no board yet: send START first");
                }
                match self.engine.play(x, y) {
                    Ok(_) => self.think_and_reply(),
                    Err(e) => self.error(e),
                }
            }
            Command::Board => self.open_block(BlockKind::Board),
            Command::YxBoard => self.open_block(BlockKind::YxBoard),
            Command::Swap2Board => self.open_block(BlockKind::Swap2),
            Command::YxBlock => self.open_block(BlockKind::YxBlock),
            Command::YxBlockUndo => self.open_block(BlockKind::YxBlockUndo),
            Command::YxBlockReset => {
                self.engine.clear_blocked();
                Flow::Continue
            }
            Command::Done => self.error("DONE without BOARD"),
            Command::Info(key, value) => self.info(&key, &value),
            Command::End => Flow::Quit,
            Command::About => self.reply(ABOUT),
            Command::Takeback(x, y) => {
                if !self.started {
                    return self.error("no board yet: send START first");
                }
                match self.engine.takeback(x, y) {
                    Ok(()) => self.reply("OK"),
                    Err(e) => self.error(e),
                }
            }
            Command::Play(x, y) => {
                if !self.started {
                    return self.error("no board yet: send START first");
                }
                match self.engine.check_move(x, y) {
                    Err(e) => self.error(e),
                    Ok(p) => {
                        if self.engine.board().side() == crate::board::Color::Black {
                            if let Some(foul) = self.engine.foul(p) {
                                return self.error(format!(
                                    "{x},{y} is forbidden for black ({})",
                                    foul.name()
                                ));
                            }
                        }
                        self.engine.commit(p);
                        self.reply(&format!("{x},{y}"))
                    }
                }
            }
            // Nothing is running: nothing to stop.
            Command::Stop => Flow::Continue,
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
                if self.reply("MESSAGE INFO MAX_THREAD_NUM 1") == Flow::Quit {
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
            Command::Unknown(name) => {
                // echo a bounded part of the name: the line may be anything
                let shown: String = name.chars().take(40).collect();
                let more = if shown.len() < name.len() { "…" } else { "" };
                self.reply(&format!("UNKNOWN command {shown}{more}"))
            }
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
                let cells: Vec<(i64, i64)> = block.stones.iter().map(|s| (s.0, s.1)).collect();
                let r = if block.kind == BlockKind::YxBlock {
                    self.engine.block(&cells)
                } else {
                    self.engine.unblock(&cells)
                };
                match r {
                    Ok(()) => Flow::Continue,
                    Err(e) => self.error(format!("{}: {e}", block.kind.name())),
                }
            }
            BlockKind::Board | BlockKind::YxBoard => {
                let mut stones = Vec::with_capacity(block.stones.len());
                for &(x, y, f) in &block.stones {
                    let owner = match f {
                        1 => Owner::Own,
                        2 => Owner::Opponent,
                        3 => Owner::Blocked,
                        _ => return self.error(format!("bad field {f} in {x},{y},{f}")),
                    };
                    stones.push((x, y, owner));
                }
                if let Err(e) = self.engine.set_position(&stones) {
                    return self.error(e);
                }
                if block.kind == BlockKind::Board {
                    self.think_and_reply()
                } else {
                    Flow::Continue
                }
            }
            BlockKind::Swap2 => {
                let stones: Vec<(i64, i64)> = block.stones.iter().map(|s| (s.0, s.1)).collect();
                let t = self.think_limits();
                match self.engine.swap2(&stones, &t) {
                    Err(_) => self.error(format!(
                        "SWAP2BOARD needs 0, 3 or 5 distinct stones on the board, got {}",
                        stones.len()
                    )),
                    Ok(_) if self.engine.stop_handle().ended() => Flow::Quit,
                    Ok(Swap2Answer::Swap) => self.reply("SWAP"),
                    Ok(Swap2Answer::Move(p)) => self.reply(&coords(p)),
                    Ok(Swap2Answer::Opening(ps)) => {
                        let s: Vec<String> = ps.iter().map(|&p| coords(p)).collect();
                        self.reply(&s.join(" "))
                    }
                }
            }
        }
    }

    fn info(&mut self, key: &str, value: &str) -> Flow {
        let int = |what: &str| parse_int(value, what);
        // sizes and limits: a negative one is refused (and the old value kept), not
        // silently read as 0, which means something else for each key
        let count = |what: &str| -> Result<u64, String> {
            let v = parse_int(value, what)?;
            u64::try_from(v).map_err(|_| format!("{what} must not be negative: {v}"))
        };
        let result: Result<(), String> = (|| {
            match key {
                "timeout_turn" => self.clock.turn_ms = count("timeout_turn")?,
                "timeout_match" => self.clock.match_ms = count("timeout_match")?,
                "time_left" => self.clock.left_ms = Some(int("time_left")?),
                "max_memory" => {
                    let v = count("max_memory")?;
                    self.engine.set_memory_limit(v);
                }
                "hash_size" => {
                    // Yixin-Board: KiB, 0 = default
                    let kib = count("hash_size")?;
                    self.engine.set_memory_limit(if kib == 0 {
                        0
                    } else {
                        (kib << 10) + (24 << 20)
                    });
                }
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
                "game_type" => {
                    int("game_type")?;
                }
                "" => return Err("no key".into()),
                // folder, evaluate, thread_num and any other key: ignored
                _ => {}
            }
            Ok(())
        })();
        match result {
            Ok(()) => Flow::Continue,
            Err(why) => {
                // Managers read no reply to INFO: an ERROR line here would be taken as the
                // answer to the next move request and lose the game. A MESSAGE is skipped.
                log::warn!("INFO {key}: {why}; ignored");
                let name = if key.is_empty() { "(no key)" } else { key };
                self.reply(&format!("MESSAGE INFO {name} ignored: {why}"))
            }
        }
    }

    fn think_limits(&self) -> ThinkLimits {
        ThinkLimits {
            clock: self.clock,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
        }
    }

    fn think_and_reply(&mut self) -> Flow {
        let limits = self.engine.limits(&self.think_limits());
        let out = &mut self.out;
        let realtime = self.realtime;
        let r = self.engine.think(&limits, &mut |it| {
            // one line per finished iteration, as GUIs and client libraries stream them
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
            let mut text = format!("MESSAGE {line}\n");
            if realtime {
                if let Some(&best) = it.pv.first() {
                    // Yixin-Board draws these; it reads the value as a plain number
                    text += &format!(
                        "MESSAGE REALTIME BEST {}\nMESSAGE REALTIME VAL {}\nMESSAGE REALTIME PV {}\n",
                        coords(best),
                        it.score,
                        pv_text(&it.pv)
                    );
                }
            }
            // a failed write shows again at the move's reply
            let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
        });
        if self.engine.stop_handle().ended() {
            return Flow::Quit;
        }
        match r.best {
            None => self.error("no legal move"),
            Some(p) => {
                self.engine.commit(p);
                let msg = summary(&r);
                log::info!("{msg}");
                if self.reply(&format!("MESSAGE {msg}")) == Flow::Quit {
                    return Flow::Quit;
                }
                self.reply(&coords(p))
            }
        }
    }
}

fn coords(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

fn pv_text(pv: &[Pos]) -> String {
    pv.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
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
