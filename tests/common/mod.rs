//! Helpers for the integration tests: drive a protocol session over pipes, in-process
//! ([`Engine::spawn`]: `protocol::io::run`, the binary's own loop, on a thread) or in the
//! real `pbrain-rensa` binary ([`Engine::binary`], for what only a process shows: its log on
//! stderr, environment variables, its exit, its resident memory).
//!
//! Every read has a timeout (a reader thread feeds an mpsc channel that is polled with
//! `recv_timeout`), so an engine that hangs fails the test instead of hanging it.

#![allow(dead_code)]

pub mod boards;
pub mod hostile;
pub mod rules;

pub use boards::*;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Generous limit for replies that need no search (OK, ERROR, ABOUT…).
pub const QUICK: Duration = Duration::from_secs(5);
/// Limit for a move reply when the turn time is a few hundred milliseconds: the turn time
/// plus plenty of slack for a loaded machine. Timing itself is checked in `timing.rs`.
pub const MOVE_WAIT: Duration = Duration::from_secs(10);

/// Runs the binary once with `args` and no input, to its exit: (exit ok, stdout, stderr).
/// For the subcommands and options; the protocol goes through [`Engine`].
pub fn run_binary(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run pbrain-rensa");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// How a session ended: a process's exit status, or an in-process session's return (a
/// panic in it is a failure).
#[derive(Debug)]
pub struct Exit {
    ok: bool,
    what: String,
}

impl Exit {
    pub fn success(&self) -> bool {
        self.ok
    }
}

enum Backend {
    /// The real binary.
    Process {
        child: Child,
        stdin: Option<ChildStdin>,
    },
    /// `protocol::io::run` on a thread, its input an in-memory pipe.
    Thread {
        input: Option<mpsc::Sender<Vec<u8>>>,
        handle: Option<thread::JoinHandle<std::io::Result<()>>>,
        exit: Option<Exit>,
    },
}

/// A protocol session under test, in-process or in the binary (see the module's doc).
pub struct Engine {
    backend: Backend,
    lines: Receiver<String>,
    /// Every stdout line received so far (without line endings), in order.
    pub transcript: Vec<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

/// The reading end of the in-process session's input: what the test sends, until it drops
/// the sender (the end of input).
struct PipeIn {
    rx: Receiver<Vec<u8>>,
    pending: Vec<u8>,
    at: usize,
}

impl Read for PipeIn {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            match self.rx.recv() {
                Ok(bytes) => (self.pending, self.at) = (bytes, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The writing end of the in-process session's output: whole lines to the test's channel.
struct PipeOut {
    tx: mpsc::Sender<String>,
    partial: Vec<u8>,
}

impl Write for PipeOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let s = String::from_utf8_lossy(&line);
            // a test that stopped listening is no error of the session's
            let _ = self.tx.send(s.trim_end_matches(['\n', '\r']).to_string());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Engine {
    /// A session in-process: the binary's protocol loop on a thread, over in-memory pipes.
    pub fn spawn() -> Engine {
        let (in_tx, in_rx) = mpsc::channel();
        let (out_tx, out_rx) = mpsc::channel();
        let input = PipeIn {
            rx: in_rx,
            pending: Vec::new(),
            at: 0,
        };
        let output = PipeOut {
            tx: out_tx,
            partial: Vec::new(),
        };
        let handle = thread::Builder::new()
            .name("session".into())
            .spawn(move || rensa::protocol::io::run(input, output))
            .expect("starting the session thread");
        Engine {
            backend: Backend::Thread {
                input: Some(in_tx),
                handle: Some(handle),
                exit: None,
            },
            lines: out_rx,
            transcript: Vec::new(),
            stderr: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Starts the real `pbrain-rensa` with piped stdin, stdout and stderr.
    pub fn binary() -> Engine {
        Engine::binary_logging("warn")
    }

    /// Starts `pbrain-rensa` with `RUST_LOG` set to `level` (its log goes to stderr).
    pub fn binary_logging(level: &str) -> Engine {
        Engine::spawn_with(level, &[])
    }

    /// Starts `pbrain-rensa` with these environment variables set.
    pub fn binary_with_env(vars: &[(&str, &str)]) -> Engine {
        Engine::spawn_with("warn", vars)
    }

    fn spawn_with(level: &str, vars: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("RUST_LOG", level)
            .envs(vars.iter().copied())
            .spawn()
            .expect("spawning pbrain-rensa");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let s = String::from_utf8_lossy(&buf);
                        let s = s.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(s).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        {
            let mut err = child.stderr.take().expect("stderr");
            let sink = Arc::clone(&stderr);
            thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                loop {
                    match err.read(&mut chunk) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => sink.lock().unwrap().extend_from_slice(&chunk[..n]),
                    }
                }
            });
        }
        let stdin = child.stdin.take();
        Engine {
            backend: Backend::Process { child, stdin },
            lines: rx,
            transcript: Vec::new(),
            stderr,
        }
    }

    /// The process, for what only a process has; panics for an in-process session.
    fn child(&mut self) -> &mut Child {
        match &mut self.backend {
            Backend::Process { child, .. } => child,
            Backend::Thread { .. } => panic!("an in-process session has no process"),
        }
    }

    /// How the session ended, `None` while it runs.
    fn try_exit(&mut self) -> Option<Exit> {
        match &mut self.backend {
            Backend::Process { child, .. } => match child.try_wait() {
                Ok(Some(st)) => Some(Exit {
                    ok: st.success(),
                    what: format!("{st}"),
                }),
                _ => None,
            },
            Backend::Thread { handle, exit, .. } => {
                if handle.as_ref().is_some_and(|h| h.is_finished()) {
                    let r = handle.take().expect("finished").join();
                    *exit = Some(Exit {
                        ok: matches!(r, Ok(Ok(()))),
                        what: format!("{r:?}"),
                    });
                }
                exit.as_ref().map(|e| Exit {
                    ok: e.ok,
                    what: e.what.clone(),
                })
            }
        }
    }

    /// The real binary with an `size`×`size` game under `rule`, `turn_ms` a move.
    pub fn binary_game(size: usize, rule: u32, turn_ms: u64) -> Engine {
        let mut e = Engine::binary();
        e.setup_game(size, rule, turn_ms);
        e
    }

    /// Spawns an engine and starts an `size`×`size` game under `rule` with `turn_ms` per move.
    pub fn with_game(size: usize, rule: u32, turn_ms: u64) -> Engine {
        let mut e = Engine::spawn();
        e.setup_game(size, rule, turn_ms);
        e
    }

    /// `START size` and the INFO lines for `rule` and `turn_ms` per move (no match limit),
    /// then a round trip ([`Engine::sync`]) so the set-up is done before anything is timed.
    pub fn setup_game(&mut self, size: usize, rule: u32, turn_ms: u64) {
        self.start(size);
        self.send(&format!("INFO rule {rule}"));
        self.send(&format!("INFO timeout_turn {turn_ms}"));
        self.send("INFO timeout_match 0");
        self.sync();
    }

    /// Sends ABOUT and waits for its reply: everything sent before has been handled.
    pub fn sync(&mut self) {
        let r = self.cmd("ABOUT");
        assert!(
            r.starts_with("name=\"Rensa\""),
            "sync: expected ABOUT's reply, got {r:?}"
        );
    }

    /// What the engine wrote on stderr so far (for failure messages).
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// How many bytes the engine has written on stderr so far.
    pub fn stderr_len(&self) -> usize {
        self.stderr.lock().unwrap().len()
    }

    /// Waits up to `timeout` for `needle` to appear on stderr after byte `from`.
    pub fn wait_stderr(&self, from: usize, needle: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            {
                let buf = self.stderr.lock().unwrap();
                let tail = String::from_utf8_lossy(&buf[from.min(buf.len())..]);
                if tail.contains(needle) {
                    return true;
                }
            }
            if Instant::now() >= deadline {
                return false;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// For an engine spawned with `RUST_LOG=trace`, which logs each input line as it handles
    /// it: waits until the line `DONE` written after stderr byte `from` has been handled (the
    /// search starts right after it), then `settle` more. Robust on a loaded machine, where
    /// a fixed sleep may end before the engine has even read the command.
    pub fn wait_search_started(&self, from: usize, settle: Duration) {
        let seen = self.wait_stderr(from, "< DONE", Duration::from_secs(10));
        assert!(
            seen,
            "the engine never handled DONE; stderr:\n{}",
            self.stderr_text()
        );
        thread::sleep(settle);
    }

    /// Sends one line, ending it with LF.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends several lines.
    pub fn send_all<S: AsRef<str>>(&mut self, lines: &[S]) {
        let mut s = String::new();
        for l in lines {
            s.push_str(l.as_ref());
            s.push('\n');
        }
        self.send_raw(s.as_bytes());
    }

    /// Writes bytes as they are (the engine may already have exited: errors are ignored).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        match &mut self.backend {
            Backend::Process {
                stdin: Some(stdin), ..
            } => {
                let _ = stdin.write_all(bytes);
                let _ = stdin.flush();
            }
            Backend::Thread {
                input: Some(tx), ..
            } => {
                let _ = tx.send(bytes.to_vec());
            }
            _ => {}
        }
    }

    /// Closes the engine's input.
    pub fn close_stdin(&mut self) {
        match &mut self.backend {
            Backend::Process { stdin, .. } => *stdin = None,
            Backend::Thread { input, .. } => *input = None,
        }
    }

    /// The next stdout line, or `None` after `timeout` or at the end of output.
    pub fn try_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next stdout line; panics after `timeout` or at the end of output.
    pub fn line(&mut self, timeout: Duration) -> String {
        let start = Instant::now();
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                l
            }
            Err(RecvTimeoutError::Timeout) => panic!(
                "no reply within {timeout:?}; transcript {:?}; stderr:\n{}",
                self.transcript,
                self.stderr_text()
            ),
            Err(RecvTimeoutError::Disconnected) => panic!(
                "the engine closed stdout after {:?}; exit {:?}; transcript {:?}; stderr:\n{}",
                start.elapsed(),
                self.try_exit(),
                self.transcript,
                self.stderr_text()
            ),
        }
    }

    /// The next line that is not `MESSAGE …` or `DEBUG …`; panics after `timeout`.
    pub fn reply(&mut self, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.line(left);
            if !is_log_line(&l) {
                return l;
            }
        }
    }

    /// Sends a command and returns its reply (skipping MESSAGE/DEBUG lines).
    pub fn cmd(&mut self, line: &str) -> String {
        self.send(line);
        self.reply(QUICK)
    }

    /// Sends a command whose reply must be `OK`.
    pub fn ok(&mut self, line: &str) {
        let r = self.cmd(line);
        assert_eq!(r, "OK", "reply to {line:?}");
    }

    /// Sends a command whose reply must start with `ERROR`; returns the reply.
    pub fn error(&mut self, line: &str) -> String {
        let r = self.cmd(line);
        assert!(
            r.starts_with("ERROR"),
            "expected ERROR for {line:?}, got {r:?}"
        );
        r
    }

    /// `START size`, expecting OK.
    pub fn start(&mut self, size: usize) {
        self.ok(&format!("START {size}"));
    }

    /// Reads a move reply and parses it.
    pub fn read_move(&mut self) -> (i64, i64) {
        let r = self.reply(MOVE_WAIT);
        parse_move(&r).unwrap_or_else(|| panic!("expected a move x,y, got {r:?}"))
    }

    /// Sends a command that must be answered by a move, and returns the move.
    pub fn move_after(&mut self, line: &str) -> (i64, i64) {
        self.send(line);
        self.read_move()
    }

    /// Sends `BOARD`, the stone lines and `DONE`, and returns the move.
    pub fn board(&mut self, stones: &[String]) -> (i64, i64) {
        self.send_board(stones);
        self.read_move()
    }

    /// Sends `BOARD`, the stone lines and `DONE` without reading the reply.
    pub fn send_board(&mut self, stones: &[String]) {
        let mut all = vec!["BOARD".to_string()];
        all.extend(stones.iter().cloned());
        all.push("DONE".to_string());
        self.send_all(&all);
    }

    /// Sends a board diagram (see [`diagram_board`]) and returns the move.
    pub fn diagram(&mut self, diagram: &str) -> (i64, i64) {
        let d = Diagram::parse(diagram);
        self.board(&d.board_lines())
    }

    /// Checks that the engine is alive and still answers commands in order: sends ABOUT and
    /// expects the ABOUT line as the next reply.
    pub fn assert_responsive(&mut self) {
        let r = self.cmd("ABOUT");
        assert!(
            r.starts_with("name=\"Rensa\""),
            "engine should still answer; got {r:?}; stderr:\n{}",
            self.stderr_text()
        );
    }

    /// Waits up to `timeout` for the session to end.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<Exit> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(st) = self.try_exit() {
                return Some(st);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// A `/proc/PID/status` field in KiB (Linux): `VmHWM` is the peak resident size.
    #[cfg(target_os = "linux")]
    pub fn status_kib(&mut self, field: &str) -> u64 {
        let pid = self.child().id();
        let status =
            std::fs::read_to_string(format!("/proc/{pid}/status")).expect("read /proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {field} in /proc status"))
    }

    /// Whether the session is still running.
    pub fn is_running(&mut self) -> bool {
        self.try_exit().is_none()
    }

    /// Every stdout line still buffered, waiting up to `wait` for the output to end.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.transcript.push(l.clone());
                    out.push(l);
                }
                Err(_) => return out,
            }
        }
    }

    /// Sends END and asserts a clean, prompt exit.
    pub fn end(mut self) {
        self.send("END");
        let st = self.wait_exit(Duration::from_secs(3));
        assert!(st.is_some(), "engine did not exit after END");
        assert!(
            st.as_ref().is_some_and(Exit::success),
            "exit status {st:?}; stderr:\n{}",
            self.stderr_text()
        );
        let rest = self.drain(Duration::from_millis(200));
        assert!(rest.is_empty(), "output after END: {rest:?}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        match &mut self.backend {
            Backend::Process { child, .. } => {
                if let Ok(None) = child.try_wait() {
                    let _ = child.kill();
                }
                let _ = child.wait();
            }
            // END stops a search; the thread ends by itself
            Backend::Thread { input, .. } => {
                if let Some(tx) = input.take() {
                    let _ = tx.send(b"END\n".to_vec());
                }
            }
        }
    }
}

/// Whether a stdout line is a log line a manager skips.
pub fn is_log_line(l: &str) -> bool {
    let u = l.to_ascii_uppercase();
    u.starts_with("MESSAGE ") || u.starts_with("DEBUG ") || u == "MESSAGE" || u == "DEBUG"
}

/// An engine (trace log) searching [`MIDGAME`] on a 30 s turn, checked to be still
/// searching: for STOP and END mid-search.
pub fn searching_midgame() -> Engine {
    let mut e = Engine::binary_logging("trace");
    e.setup_game(15, 0, 30_000);
    let mark = e.stderr_len();
    e.send_board(&diagram_board(MIDGAME));
    e.wait_search_started(mark, Duration::from_millis(200));
    let before = e.drain(Duration::ZERO);
    assert!(
        before.iter().all(|l| is_log_line(l)),
        "the search should still be running: {before:?}"
    );
    e
}

/// A protocol session in-process: the same lines and replies as the binary's, without a
/// process or pipes. Each command is handled to its end (a move's search included) before
/// the next.
pub struct Local {
    session: rensa::protocol::Session<Vec<u8>>,
    /// Output bytes already handed out.
    seen: usize,
}

impl Default for Local {
    fn default() -> Self {
        Local::new()
    }
}

impl Local {
    pub fn new() -> Local {
        Local {
            session: rensa::protocol::Session::new(rensa::engine::Engine::new(), Vec::new()),
            seen: 0,
        }
    }

    /// Handles `line` and returns the lines it was answered with.
    pub fn send(&mut self, line: &str) -> Vec<String> {
        self.session.handle_line(line);
        let out = &self.session.output()[self.seen..];
        self.seen += out.len();
        String::from_utf8_lossy(out)
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Handles every line; returns all they were answered with.
    pub fn send_all<S: AsRef<str>>(&mut self, lines: &[S]) -> Vec<String> {
        lines.iter().flat_map(|l| self.send(l.as_ref())).collect()
    }

    /// Handles a command that must be answered by a move (MESSAGE lines aside).
    pub fn move_after(&mut self, line: &str) -> (i64, i64) {
        let out = self.send(line);
        Local::the_move(&out)
    }

    /// Sends `BOARD`, the stone lines and `DONE`; returns the move.
    pub fn board(&mut self, stones: &[String]) -> (i64, i64) {
        self.send("BOARD");
        self.send_all(stones);
        let out = self.send("DONE");
        Local::the_move(&out)
    }

    fn the_move(out: &[String]) -> (i64, i64) {
        let replies: Vec<&String> = out.iter().filter(|l| !is_log_line(l)).collect();
        match replies[..] {
            [r] => parse_move(r).unwrap_or_else(|| panic!("expected a move x,y, got {r:?}")),
            _ => panic!("expected one move, got {out:?}"),
        }
    }
}
