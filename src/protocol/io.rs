//! The input side of a session: a thread that reads any byte stream, splits it into lines,
//! stamps each with the moment it was read and hands it to the session at once, so that
//! STOP and END reach a running search and a move's clock starts when the manager sent it.
//! Input sent faster than the session handles it waits (back-pressure), so a flood cannot
//! grow memory.

use super::parse::{parse, Command};
use super::{Event, Inbox, Session, MAX_QUEUED};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest line kept. The longest real command (a BOARD line, an INFO folder path) is
/// far shorter; past this a line is counted and dropped, so no input grows memory.
pub const MAX_LINE: usize = 64 << 10;

/// STOP and END may pass a full queue by this much, so that they still reach a search
/// behind a flood.
const PRIORITY_ROOM: usize = 1 << 20;

/// Starts the thread that reads `input` until it ends or the session is gone, sending each
/// line to `tx` and counting it in `queued` (see [`super::Session::queued`]). The end of
/// input is sent as [`Event::Closed`].
pub fn spawn_reader<R: Read + Send + 'static>(
    input: R,
    tx: Sender<Event>,
    queued: Arc<AtomicUsize>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || read_lines(input, &tx, &queued))
}

/// The protocol on stdin and stdout: the engine's normal life.
pub fn run_stdio() -> std::io::Result<()> {
    let stdout = std::io::stdout();
    run(std::io::stdin(), stdout.lock())
}

/// A whole session: the protocol read from `input` and answered on `output` until END, the
/// end of input or a closed output. The binary runs it on stdin and stdout; the tests on
/// in-memory pipes, the same code line for line.
pub fn run<R: Read + Send + 'static, W: Write>(input: R, output: W) -> std::io::Result<()> {
    // The input side starts first, so each line is stamped when it arrives: a manager that
    // suspends the engine right after START charges building the engine to move 1, and the
    // move's budget must count it.
    let inbox = Inbox::default();
    spawn_reader(input, inbox.sender(), inbox.queued())?;
    let mut session = Session::with_inbox(crate::engine::Engine::new(), output, inbox);
    session.run();
    // the searches end with the session; what it wrote is out
    // a manager that closed the pipe first is a normal end, as a closed output is above
    let _ = session.into_output().flush();
    Ok(())
}

/// The reader's loop (see [`spawn_reader`]), on the calling thread.
pub fn read_lines<R: Read>(mut input: R, tx: &Sender<Event>, queued: &AtomicUsize) {
    let mut chunk = [0u8; 4096];
    let mut split = LineSplitter::default();
    let mut lines = Vec::new();
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => 0,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => 0,
        };
        if n == 0 {
            split.finish(&mut lines);
        } else {
            split.feed(&chunk[..n], &mut lines);
        }
        for input in lines.drain(..) {
            let ev = match input {
                Input::Line(l) => Event::Received(l, Instant::now()),
                Input::TooLong(n) => Event::Overlong(n),
            };
            // wait while the session is far behind
            let room = if is_stop_or_end(&ev) {
                MAX_QUEUED + PRIORITY_ROOM
            } else {
                MAX_QUEUED
            };
            while queued.load(Ordering::Acquire) > room {
                std::thread::sleep(Duration::from_millis(1));
            }
            queued.fetch_add(ev.cost(), Ordering::AcqRel);
            if tx.send(ev).is_err() {
                return;
            }
        }
        if n == 0 {
            // what was read still gets done, then the session quits
            let _ = tx.send(Event::Closed);
            return;
        }
    }
}

/// What the reader hands on.
#[derive(Debug, PartialEq, Eq)]
enum Input {
    Line(String),
    /// A line longer than [`MAX_LINE`]: only its length was kept.
    TooLong(usize),
}

/// Whether a line is STOP, YXSTOP or END.
fn is_stop_or_end(ev: &Event) -> bool {
    let (Event::Line(l) | Event::Received(l, _)) = ev else {
        return false;
    };
    matches!(parse(l), Ok(Some(Command::Stop | Command::End)))
}

/// Splits input into lines on LF, CR LF or a lone CR. A blank line is a line too (a quoted
/// database comment keeps its blank lines); CR LF is one line end, not two.
#[derive(Default)]
struct LineSplitter {
    buf: Vec<u8>,
    /// Bytes of the current line, kept or not.
    len: usize,
    /// The last byte ended a line with CR: an LF now completes that line end.
    after_cr: bool,
}

impl LineSplitter {
    /// The end of input: the last line may lack its line break.
    fn finish(&mut self, out: &mut Vec<Input>) {
        if self.len > 0 {
            self.feed(b"\n", out);
        }
    }

    fn feed(&mut self, bytes: &[u8], out: &mut Vec<Input>) {
        for &b in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, b == b'\r');
            if b == b'\n' && after_cr {
                continue;
            }
            if b == b'\n' || b == b'\r' {
                if self.len > MAX_LINE {
                    out.push(Input::TooLong(self.len));
                } else {
                    out.push(Input::Line(String::from_utf8_lossy(&self.buf).into_owned()));
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    fn split(chunks: &[&[u8]]) -> (Vec<String>, Vec<usize>, usize) {
        let mut s = LineSplitter::default();
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
                Input::Line(l) => lines.push(l),
                Input::TooLong(n) => long.push(n),
            }
        }
        (lines, long, kept)
    }

    #[test]
    fn lines_split_on_any_line_ending() {
        let (lines, long, _) = split(&[b"START 15\r", b"\nBEG", b"IN\rTURN 1,2\n\n\r\n\r\rX"]);
        // CR LF is one line end, even split between two reads; blank lines are lines
        assert_eq!(lines, ["START 15", "BEGIN", "TURN 1,2", "", "", "", ""]);
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

    /// A reader that hands out its bytes a few at a time, as a pipe does.
    struct Trickle(Vec<u8>, usize);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(3).min(self.0.len() - self.1);
            buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 += n;
            Ok(n)
        }
    }

    #[test]
    fn every_line_arrives_stamped_and_counted_then_the_end() {
        let (tx, rx) = channel();
        let queued = AtomicUsize::new(0);
        let before = Instant::now();
        read_lines(
            Trickle(b"START 15\r\nINFO x 1\nEND".to_vec(), 0),
            &tx,
            &queued,
        );
        let events: Vec<Event> = rx.try_iter().collect();
        assert_eq!(events.len(), 4, "{events:?}");
        let mut cost = 0;
        for (ev, want) in events.iter().zip(["START 15", "INFO x 1", "END"]) {
            match ev {
                Event::Received(l, at) => {
                    assert_eq!(l, want);
                    assert!(*at >= before);
                }
                other => panic!("{other:?}"),
            }
            cost += ev.cost();
        }
        assert!(matches!(events[3], Event::Closed));
        // nothing handled them: the count holds them all
        assert_eq!(queued.load(Ordering::Acquire), cost);
        assert!(is_stop_or_end(&events[2]));
        assert!(!is_stop_or_end(&events[0]));
        assert!(is_stop_or_end(&Event::Line("yxstop".into())));
    }

    #[test]
    fn a_full_queue_holds_the_reader_back_until_the_session_catches_up() {
        let (tx, rx) = channel();
        let queued = Arc::new(AtomicUsize::new(MAX_QUEUED + 1));
        let q = Arc::clone(&queued);
        let reader = std::thread::spawn(move || read_lines(&b"ABOUT\nEND\n"[..], &tx, &q));
        // ABOUT waits for room; END may pass the full queue by a little, but comes after it
        std::thread::sleep(Duration::from_millis(50));
        assert!(rx.try_recv().is_err(), "a line passed a full queue");
        queued.store(0, Ordering::Release);
        reader.join().unwrap();
        let lines: Vec<String> = rx
            .try_iter()
            .filter_map(|e| match e {
                Event::Received(l, _) => Some(l),
                _ => None,
            })
            .collect();
        assert_eq!(lines, ["ABOUT", "END"]);
    }

    /// Input that never ends.
    struct Endless;

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let line = b"ABOUT\n";
            let n = buf.len().min(line.len());
            buf[..n].copy_from_slice(&line[..n]);
            Ok(n)
        }
    }

    #[test]
    fn the_reader_stops_when_the_session_is_gone() {
        let (tx, rx) = channel();
        drop(rx);
        let queued = AtomicUsize::new(0);
        // returns at the first line instead of reading for ever
        read_lines(Endless, &tx, &queued);
        assert_eq!(
            queued.load(Ordering::Acquire),
            Event::Line("ABOUT".into()).cost()
        );
    }
}
