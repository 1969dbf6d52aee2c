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
    /// A line longer than [`MAX_LINE`]: only its length was kept.
    TooLong(usize),
    Eof,
}

/// The longest line kept. The longest real command (a BOARD line, an INFO folder path) is
/// far shorter; past this a line is counted and dropped, so no input grows memory.
const MAX_LINE: usize = 64 << 10;

/// Splits input into lines on LF, CR LF or a lone CR.
struct LineSplitter {
    buf: Vec<u8>,
    /// Bytes of the current line, kept or not.
    len: usize,
}

/// One line of input, as the splitter hands it over.
enum Piece {
    Line(String),
    TooLong(usize),
}

impl LineSplitter {
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<Piece>) {
        for &b in bytes {
            if b == b'\n' || b == b'\r' {
                if self.len > MAX_LINE {
                    out.push(Piece::TooLong(self.len));
                } else if !self.buf.is_empty() {
                    out.push(Piece::Line(String::from_utf8_lossy(&self.buf).into_owned()));
                }
                self.buf.clear();
                self.len = 0;
            } else {
                self.len += 1;
                if self.len <= MAX_LINE {
                    self.buf.push(b);
                } else if !self.buf.is_empty() {
                    self.buf = Vec::new();
                }
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
                let mut split = LineSplitter {
                    buf: Vec::new(),
                    len: 0,
                };
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
                    for piece in lines.drain(..) {
                        line_no += 1;
                        let line = match piece {
                            Piece::Line(l) => l,
                            Piece::TooLong(n) => {
                                if tx.send(Input::TooLong(n)).is_err() {
                                    return;
                                }
                                continue;
                            }
                        };
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
            Input::TooLong(n) => {
                if session.handle_overlong_line(n) == Flow::Quit {
                    break;
                }
            }
            Input::Eof => break,
        }
    }
    let _ = std::io::stdout().flush();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> (Vec<String>, Vec<usize>, usize) {
        let mut s = LineSplitter {
            buf: Vec::new(),
            len: 0,
        };
        let mut out = Vec::new();
        let mut kept = 0;
        for c in chunks {
            s.feed(c, &mut out);
            kept = kept.max(s.buf.capacity());
        }
        let mut lines = Vec::new();
        let mut long = Vec::new();
        for p in out {
            match p {
                Piece::Line(l) => lines.push(l),
                Piece::TooLong(n) => long.push(n),
            }
        }
        (lines, long, kept)
    }

    #[test]
    fn lines_split_on_any_line_ending() {
        let (lines, long, _) = split(&[b"START 15\r\nBEG", b"IN\rTURN 1,2\n\n"]);
        assert_eq!(lines, ["START 15", "BEGIN", "TURN 1,2"]);
        assert!(long.is_empty());
    }

    #[test]
    fn an_overlong_line_is_counted_not_kept() {
        let big = vec![b'x'; 3 * MAX_LINE];
        let (lines, long, kept) = split(&[b"ABOUT\n", &big, &big, b"\nEND\n"]);
        assert_eq!(lines, ["ABOUT", "END"]);
        assert_eq!(long, [6 * MAX_LINE]);
        assert!(kept <= 2 * MAX_LINE, "kept {kept} bytes");
    }
}
