//! `pbrain-rensa`: the Gomocup/Piskvork protocol on stdin/stdout by default; `bench` for the
//! search benchmark.

use anyhow::{bail, Context, Result};
use rensa::engine::Engine;
use rensa::eval::score_text;
use rensa::protocol::{Flow, Session};
use std::io::{Read, Write};
use std::sync::mpsc;

const HELP: &str = "\
pbrain-rensa - the Rensa gomoku engine

USAGE:
    pbrain-rensa             speak the Gomocup/Piskvork protocol on stdin/stdout
    pbrain-rensa bench [D]   search the benchmark positions to depth D (default 8) on one
                             thread; prints nodes, nodes per second and a signature
    pbrain-rensa --help      this text
    pbrain-rensa --version   the version

Logs go to stderr; set RUST_LOG (error, warn, info, debug, trace) to see them.
See README.md and protocol.md.";

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => run_protocol(),
        Some("bench") => {
            let depth = match args.get(1) {
                Some(d) => d.parse().with_context(|| format!("bad depth '{d}'"))?,
                None => rensa::bench::DEFAULT_DEPTH,
            };
            bench(depth)
        }
        Some("-h" | "--help" | "help") => {
            println!("{HELP}");
            Ok(())
        }
        Some("-V" | "--version" | "version") => {
            println!("pbrain-rensa {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        // GUIs add flags of their own (Yixin-Board passes --force-utf8): play anyway.
        Some(flag) if flag.starts_with('-') => {
            log::warn!("ignoring unknown option '{flag}'");
            run_protocol()
        }
        Some(other) => bail!("unknown argument '{other}'; see --help"),
    }
}

fn bench(depth: i32) -> Result<()> {
    let (lines, nodes, ms, sig) = rensa::bench::run(depth);
    for l in &lines {
        println!(
            "{:<22} nodes {:>10}  time {:>6} ms  best {:>4}  ev {}",
            l.name,
            l.nodes,
            l.ms,
            l.best.map_or("--".to_string(), |p| p.to_string()),
            score_text(l.score)
        );
    }
    println!("depth      {depth}");
    println!("nodes      {nodes}");
    println!("time       {ms} ms");
    println!("nps        {}", nodes * 1000 / ms.max(1));
    println!("signature  {sig:016x}");
    Ok(())
}

/// What the input thread hands the session.
enum Input {
    Line(String),
    Eof,
}

/// Splits input into lines on LF, CR LF or a lone CR.
struct LineSplitter {
    buf: Vec<u8>,
}

impl LineSplitter {
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<String>) {
        for &b in bytes {
            if b == b'\n' || b == b'\r' {
                if !self.buf.is_empty() {
                    out.push(String::from_utf8_lossy(&self.buf).into_owned());
                    self.buf.clear();
                }
            } else {
                self.buf.push(b);
            }
        }
    }
}

fn run_protocol() -> Result<()> {
    let engine = Engine::new();
    let stop = engine.stop_handle();
    let (tx, rx) = mpsc::channel::<Input>();
    // The reader thread keeps END, STOP and YXSTOP working while the search runs.
    {
        std::thread::Builder::new()
            .name("stdin".into())
            .spawn(move || {
                let mut stdin = std::io::stdin().lock();
                let mut chunk = [0u8; 4096];
                let mut split = LineSplitter { buf: Vec::new() };
                let mut lines = Vec::new();
                // numbered as the session will count them, for the stop signal
                let mut line_no = 0u64;
                loop {
                    let n = match stdin.read(&mut chunk) {
                        Ok(0) | Err(_) => 0,
                        Ok(n) => n,
                    };
                    // at the end of input the last line may lack its line break
                    split.feed(if n == 0 { b"\n" } else { &chunk[..n] }, &mut lines);
                    for line in lines.drain(..) {
                        line_no += 1;
                        let word = line.split_whitespace().next().unwrap_or("");
                        if word.eq_ignore_ascii_case("END") {
                            stop.request_end();
                        } else if word.eq_ignore_ascii_case("STOP")
                            || word.eq_ignore_ascii_case("YXSTOP")
                        {
                            stop.request_stop(line_no);
                        }
                        if tx.send(Input::Line(line)).is_err() {
                            return;
                        }
                    }
                    if n == 0 {
                        // End of input: what was read still gets done, then we exit.
                        let _ = tx.send(Input::Eof);
                        return;
                    }
                }
            })
            .context("starting the input thread")?;
    }
    let stdout = std::io::stdout();
    let mut session = Session::new(engine, stdout.lock());
    for input in rx {
        match input {
            Input::Line(line) => {
                if session.handle_line(&line) == Flow::Quit {
                    break;
                }
            }
            Input::Eof => break,
        }
    }
    let _ = std::io::stdout().flush();
    Ok(())
}
