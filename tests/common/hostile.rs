//! Protocol sessions as a hostile client sends them, replayed from a seed (issue 68): valid
//! commands with random arguments, thread counts up to 2^31, table sizes past any limit,
//! Yixin-Board's analysis and opening commands, broken blocks, long lines, garbage. Thinks
//! stay short (10 to 150 ms turns) so that a session of a few hundred lines runs in seconds.
//!
//! `RENSA_HOSTILE_SEED` (default 1) is the first seed, `RENSA_HOSTILE_SESSIONS` (default 1)
//! how many sessions from it, `RENSA_HOSTILE_LINES` (default 150) the lines of each.

/// The crate's seeded generator, with the helpers a session generator needs.
pub struct Rng(rensa::rng::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(rensa::rng::SplitMix64::new(seed))
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The seeds of the sessions to replay.
pub fn seeds() -> Vec<u64> {
    let first = env_or("RENSA_HOSTILE_SEED", 1);
    (first..first + env_or("RENSA_HOSTILE_SESSIONS", 1)).collect()
}

pub fn lines_per_session() -> usize {
    env_or("RENSA_HOSTILE_LINES", 150) as usize
}

/// A game on a `size`×`size` board at `max_memory` bytes with `threads` asked for: the
/// engine opens, then answers six moves and one N-best search. Depth-limited searches take
/// the whole table at once, and clearing it touches every thread's tables: the most the
/// engine can hold.
pub fn many_threads_game(
    size: usize,
    max_memory: u64,
    threads: usize,
    turn_ms: u64,
) -> Vec<String> {
    let mut lines = vec![
        format!("START {size}"),
        format!("INFO max_memory {max_memory}"),
        format!("INFO thread_num {threads}"),
        format!("INFO timeout_turn {turn_ms}"),
        "INFO max_depth 40".to_string(),
        "BEGIN".to_string(),
        "YXHASHCLEAR".to_string(),
    ];
    // the opponent plays along the top edge, far from the engine's stones
    for i in 0..6 {
        lines.push(format!("TURN {},0", 2 * i));
    }
    lines.push("YXNBEST 3".to_string());
    lines
}

/// A hostile session of about `n` lines at `max_memory` bytes.
pub fn session(seed: u64, max_memory: u64, n: usize) -> Vec<String> {
    let mut g = Gen {
        rng: Rng::new(seed),
        size: 15,
        lines: vec![
            "START 15".to_string(),
            format!("INFO max_memory {max_memory}"),
            "INFO timeout_turn 100".to_string(),
        ],
    };
    while g.lines.len() < n {
        g.step();
    }
    g.lines
}

struct Gen {
    rng: Rng,
    /// The board size the engine has, as far as the session knows.
    size: u64,
    lines: Vec<String>,
}

impl Gen {
    fn push(&mut self, l: impl Into<String>) {
        self.lines.push(l.into());
    }

    /// A cell, mostly on the board.
    fn cell(&mut self) -> (i64, i64) {
        let r = self.size as i64 + 2;
        (
            self.rng.below(r as u64) as i64 - 1,
            self.rng.below(r as u64) as i64 - 1,
        )
    }

    fn stones(&mut self, kind: &str, n: u64, colours: bool) {
        self.push(kind);
        for _ in 0..n {
            let (x, y) = self.cell();
            if colours {
                let c = *self.rng.pick(&[1, 2, 1, 2, 3]);
                self.push(format!("{x},{y},{c}"));
            } else {
                self.push(format!("{x},{y}"));
            }
        }
        // a block left open is ended by the next command
        if !self.rng.chance(5) {
            self.push("DONE");
        }
    }

    fn info(&mut self) {
        let r = &mut self.rng;
        let line = match r.below(12) {
            0 | 1 => {
                let n = *r.pick(&[1, 2, 3, 4, 8, 16, 64, 65, 1000, 2_147_483_647]);
                format!("INFO thread_num {n}")
            }
            2 => format!("INFO thread_num {}", r.below(1 << 31)),
            3 => format!("INFO timeout_turn {}", 10 + r.below(140)),
            4 => format!("INFO timeout_match {}", r.below(100_000)),
            5 => format!("INFO time_left {}", r.below(20_000) as i64 - 1000),
            6 => {
                let kib = *r.pick(&[0, 1, 1024, 65_536, 524_288, 1 << 30, u64::MAX >> 11]);
                format!("INFO hash_size {kib}")
            }
            7 => format!("INFO rule {}", r.pick(&[0, 1, 2, 4, 8, 9, 12])),
            8 => format!("INFO max_node {}", *r.pick(&[-1i64, 0, 500, 5_000, 30_000])),
            9 => format!("INFO max_depth {}", r.below(12)),
            10 => format!("INFO pondering {}", u64::from(r.chance(20))),
            _ => format!("INFO show_detail {}", r.below(4)),
        };
        self.push(line);
    }

    fn yixin(&mut self) {
        match self.rng.below(9) {
            0 => {
                let n = self.rng.below(12);
                self.stones("YXBOARD", n, true);
                let k = 1 + self.rng.below(6);
                self.push(format!("YXNBEST {k}"));
            }
            1 => {
                let n = self.rng.below(6);
                self.stones("YXBOARD", n, true);
                let v = self.rng.below(400) as i64 - 200;
                let which = if self.rng.chance(50) { "ONE" } else { "TWO" };
                self.push(format!("YXBALANCE{which} {v}"));
            }
            2 => self.push("YXSWAP2STEP1"),
            3 => {
                let n = *self.rng.pick(&[3, 5]);
                self.stones("YXBOARD", n, true);
                self.push(format!("YXSWAP2STEP{}", if n == 3 { 2 } else { 3 }));
            }
            4 => {
                self.push("INFO rule 4");
                let step = 1 + self.rng.below(6);
                let stones = [0, 0, 3, 3, 4, 4, 6][step as usize];
                let arg = if matches!(step, 4 | 5) {
                    format!(" {}", 1 + self.rng.below(9))
                } else {
                    String::new()
                };
                if stones == 0 {
                    self.push(format!("YXSOOSORVSTEP{step}{arg}"));
                } else {
                    self.stones(&format!("YXSOOSORVSTEP{step}{arg}"), stones, false);
                }
            }
            5 => {
                let n = self.rng.below(10);
                self.stones("YXBOARD", n, true);
                self.push("YXSEARCHDEFEND");
            }
            6 => {
                let n = self.rng.below(4);
                self.stones("YXBLOCK", n, false);
            }
            7 => {
                let c = *self.rng.pick(&[
                    "YXHASHCLEAR",
                    "YXSHOWFORBID",
                    "YXSHOWHASHUSAGE",
                    "YXSHOWINFO",
                    "YXBLOCKRESET",
                    "YXSTOP",
                ]);
                self.push(c);
            }
            _ => {
                let n = *self.rng.pick(&[0, 3, 5, 4]);
                self.stones("SWAP2BOARD", n, false);
            }
        }
    }

    fn step(&mut self) {
        match self.rng.below(20) {
            0..=3 => self.info(),
            4 | 5 => self.yixin(),
            6..=8 => {
                let (x, y) = self.cell();
                self.push(format!("TURN {x},{y}"));
            }
            9 => self.push("BEGIN"),
            10 | 11 => {
                let n = self.rng.below(40);
                self.stones("BOARD", n, true);
            }
            12 => {
                let size = *self.rng.pick(&[5, 15, 15, 20, 32, 33, 0, 4]);
                if (5..=32).contains(&size) {
                    self.size = size;
                }
                self.push(format!("START {size}"));
            }
            13 => {
                let (w, h) = (5 + self.rng.below(28), 5 + self.rng.below(28));
                self.size = w.min(h);
                self.push(format!("RECTSTART {w},{h}"));
            }
            14 => {
                let (x, y) = self.cell();
                let what = *self.rng.pick(&["TAKEBACK", "PLAY"]);
                self.push(format!("{what} {x},{y}"));
            }
            15 => {
                let c = *self.rng.pick(&["RESTART", "ABOUT", "DONE", "STOP"]);
                self.push(c);
            }
            16 => {
                // a long line: kept by nobody
                let n = 1 << (10 + self.rng.below(8));
                self.push(format!("INFO folder {}", "x".repeat(n)));
            }
            _ => {
                // garbage: random printable text and the odd non-ASCII character
                let n = 1 + self.rng.below(40);
                let s: String = (0..n)
                    .map(|_| match self.rng.below(30) {
                        0 => 'é',
                        1 => '∞',
                        _ => char::from(b' ' + self.rng.below(95) as u8),
                    })
                    .collect();
                self.push(s);
            }
        }
    }
}
