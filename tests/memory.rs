//! `max_memory` at every moment (issue 68): many threads with a small limit, and hostile
//! sessions replayed from a seed. In-process, a counting allocator measures the session's
//! peak heap against the engine's memory plan; on Linux the real binary's peak resident size
//! (`VmHWM`) is read against the limit itself.
//!
//! `cargo test` replays one short session of each kind. The measurement of the issue (40
//! sessions of 3,000 lines at 64 MiB):
//!
//! ```text
//! RENSA_HOSTILE_SESSIONS=40 RENSA_HOSTILE_LINES=3000 cargo test --release --test memory -- --nocapture
//! ```
//!
//! and the binary's peak resident size for 40, 64 and 350 MiB, 15×15 and 32×32, 1 to 64
//! threads, as a table:
//!
//! ```text
//! cargo test --release --test memory -- --ignored --nocapture
//! ```

mod common;

use rensa::engine::memory::RESERVED_BYTES;
use rensa::engine::Engine;
use rensa::protocol::{Flow, Session};
use rensa::rules::Rule;
use rensa::search::THREAD_BYTES;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// The system allocator, counting the bytes it holds for the program and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn took(size: usize) {
    let now = LIVE.fetch_add(size, Relaxed) + size;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is passed to the system allocator unchanged; only counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            took(l.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(l);
        if !p.is_null() {
            took(l.size());
        }
        p
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = System.realloc(p, l, new);
        if !q.is_null() {
            took(new);
            LIVE.fetch_sub(l.size(), Relaxed);
        }
        q
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        LIVE.fetch_sub(l.size(), Relaxed);
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The counts are the whole process's: one measurement at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const MIB: u64 = 1 << 20;

/// What the engine may hold on the heap beyond its plan's table and helpers: the main search
/// thread's tables, boards and stacks of moves, input being handled. The rest of
/// [`RESERVED_BYTES`] is the binary, the pattern tables and the networks, which every test
/// here builds before it measures.
const MAIN_THREAD_BYTES: u64 = THREAD_BYTES;

/// Lets the engine run as many threads as it would on a machine of 64 CPUs.
fn many_cpus() {
    std::env::set_var(rensa::platform::CPUS_VAR, "64");
}

/// Builds every rule's tables once, so that a measurement sees only what a session adds.
fn warm_up() {
    for rule in Rule::ALL {
        let _ = rensa::board::Board::new(15, 15, rule);
    }
}

/// Runs `lines` in a session in-process whose engine has `max_memory` bytes from the start;
/// returns the peak heap it added (bytes) and the most the plan allowed during it.
fn peak_heap(max_memory: u64, lines: &[String]) -> (u64, u64) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let mut engine = Engine::new();
    engine.set_memory_limit(max_memory);
    // the replies go nowhere: the measurement is the engine's
    let mut s = Session::new(engine, std::io::sink());
    let mut allowed = 0u64;
    for l in lines {
        if s.handle_line(l) == Flow::Quit {
            break;
        }
        let plan = s.engine().plan();
        allowed = allowed.max(plan.total_bytes() - RESERVED_BYTES + MAIN_THREAD_BYTES);
    }
    drop(s);
    ((PEAK.load(Relaxed) - base) as u64, allowed)
}

#[test]
fn sixty_four_threads_at_40_mib_on_32x32_stay_in_the_plan() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    many_cpus();
    warm_up();
    let lines = common::hostile::many_threads_game(32, 40 * MIB, 64, 200);
    let (peak, allowed) = peak_heap(40 * MIB, &lines);
    eprintln!(
        "64 threads, 40 MiB, 32x32: peak heap {:.1} MiB of {:.1}",
        mib(peak),
        mib(allowed)
    );
    assert!(allowed <= 40 * MIB - RESERVED_BYTES + MAIN_THREAD_BYTES);
    assert!(peak <= allowed, "peak heap {peak} over {allowed}");
}

#[test]
fn a_database_being_built_by_eight_threads_at_64_mib_stays_in_the_limit() {
    use rensa::database::{Database, Position, Record};
    use rensa::geometry::Pos;
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    many_cpus();
    warm_up();
    // a book of 3,000 positions to start from, grown by every search of the game
    let path = std::env::temp_dir().join(format!("rensa-mem-{}.db", std::process::id()));
    let mut db = Database::open(&path, 1 << 30).unwrap();
    for i in 0..3000usize {
        let moves = [
            Pos::new(i % 15, 14),
            Pos::new((i / 15) % 15, 13),
            Pos::new(i / 225, 12),
        ];
        if let Ok(p) = Position::from_moves(Rule::Freestyle, 15, 15, &moves) {
            db.insert(p.key(), Record::with_label(-1));
        }
    }
    db.save().unwrap();
    let mut lines = common::hostile::many_threads_game(15, 64 * MIB, 8, 200);
    lines.insert(3, "YXSETDATABASE".to_string());
    lines.insert(4, path.display().to_string());
    let (peak, allowed) = peak_heap(64 * MIB, &lines);
    let book = rensa::engine::book::book_bytes(64 * MIB);
    eprintln!(
        "8 threads, 64 MiB, a database: peak heap {:.1} MiB of {:.1} + {:.1} for the database",
        mib(peak),
        mib(allowed),
        mib(book)
    );
    // with the database open, the threads and the table plan with what it leaves
    let mut e = Engine::new();
    e.set_memory_limit(64 * MIB);
    e.set_threads(8);
    let without = e.plan().total_bytes();
    e.open_database(&path).unwrap();
    let with = e.plan().total_bytes();
    drop(e);
    let _ = std::fs::remove_file(&path);
    assert!(
        with + book <= without.max(64 * MIB),
        "{with} + {book} over {without}"
    );
    assert!(with - RESERVED_BYTES + MAIN_THREAD_BYTES + book <= 64 * MIB);
    assert!(
        peak <= 64 * MIB - RESERVED_BYTES,
        "peak heap {peak} (plan {allowed})"
    );
}

#[test]
fn hostile_sessions_stay_in_the_plan() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    many_cpus();
    warm_up();
    for seed in common::hostile::seeds() {
        let lines = common::hostile::session(seed, 64 * MIB, common::hostile::lines_per_session());
        let (peak, allowed) = peak_heap(64 * MIB, &lines);
        eprintln!(
            "seed {seed}: peak heap {:.1} MiB of {:.1}",
            mib(peak),
            mib(allowed)
        );
        assert!(
            peak <= allowed,
            "seed {seed}: peak heap {peak} over {allowed}"
        );
    }
}

/// The replies of a session in-process to `lines`.
fn replies(lines: &[&str]) -> Vec<String> {
    let mut s = Session::new(Engine::new(), Vec::new());
    for l in lines {
        s.handle_line(l);
    }
    String::from_utf8_lossy(s.output())
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn threads_that_cannot_run_are_named_in_a_message() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    many_cpus();
    let out = replies(&[
        "START 15",
        "INFO max_memory 41943040",
        "INFO thread_num 64",
        "INFO thread_num 2",
    ]);
    assert_eq!(
        out,
        [
            "OK",
            "MESSAGE thread_num 64: 3 search thread(s) run, the most that fit in max_memory 40 MiB"
        ]
    );
    // a lower limit later says so too; an unchanged count is not repeated
    let out = replies(&[
        "INFO thread_num 8",
        "INFO max_memory 41943040",
        "INFO max_memory 41943040",
        "INFO max_memory 0",
    ]);
    assert_eq!(
        out,
        ["MESSAGE thread_num 8: 3 search thread(s) run, the most that fit in max_memory 40 MiB"]
    );
    std::env::set_var(rensa::platform::CPUS_VAR, "1");
    let out = replies(&[
        "INFO thread_num 4",
        "INFO thread_num 1",
        "INFO thread_num 0",
    ]);
    std::env::set_var(rensa::platform::CPUS_VAR, "64");
    assert_eq!(
        out,
        ["MESSAGE thread_num 4: 1 search thread(s) run, this process may run on 1 CPU(s)"]
    );
}

fn mib(b: u64) -> f64 {
    b as f64 / MIB as f64
}

/// The real binary's peak resident size stays under `max_memory`: what a manager measures.
#[cfg(target_os = "linux")]
mod resident {
    use super::*;
    use common::{Engine as Process, QUICK};

    /// Plays `lines` to the binary (with 64 CPUs assumed) and returns its peak resident size.
    fn peak_rss(lines: &[String]) -> u64 {
        let mut p = Process::binary_with_env(&[(rensa::platform::CPUS_VAR, "64")]);
        p.send_all(lines);
        // ABOUT's answer comes once everything before it was handled
        p.send("ABOUT");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
        while !p
            .line(deadline - std::time::Instant::now())
            .starts_with("name=")
        {}
        let hwm = p.status_kib("VmHWM") * 1024;
        p.send("END");
        assert!(p.wait_exit(QUICK).is_some(), "no exit after END");
        hwm
    }

    /// Gomocup pins each engine to one CPU: the engine sees it and runs one thread.
    #[test]
    fn a_pinned_process_runs_one_thread() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let pinned = std::process::Command::new("taskset")
            .args(["-c", "0", env!("CARGO_BIN_EXE_pbrain-rensa")])
            .env_remove(rensa::platform::CPUS_VAR)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn();
        let Ok(mut child) = pinned else {
            eprintln!("taskset is not here: skipped");
            return;
        };
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        writeln!(input, "START 15\nINFO thread_num 4\nYXSHOWINFO\nEND").unwrap();
        drop(input);
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "OK",
                "MESSAGE thread_num 4: 1 search thread(s) run, this process may run on 1 CPU(s)",
                "MESSAGE INFO MAX_THREAD_NUM 1",
                "MESSAGE INFO MAX_HASH_SIZE 18",
            ]
        );
    }

    #[test]
    #[ignore = "a measurement: about a minute"]
    fn memory_matrix() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        println!("max_memory  board  threads  peak RSS (MiB)");
        for limit in [40, 64, 350] {
            for size in [15, 32] {
                for threads in [1, 2, 4, 8, 16, 64] {
                    let lines = common::hostile::many_threads_game(size, limit * MIB, threads, 300);
                    let rss = peak_rss(&lines);
                    println!(
                        "{limit:>7} MiB  {size:>2}x{size:<2}  {threads:>7}  {:>8.1}",
                        mib(rss)
                    );
                    assert!(rss < limit * MIB);
                }
            }
        }
    }

    #[test]
    fn the_binary_stays_under_max_memory() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let lines = common::hostile::many_threads_game(32, 40 * MIB, 64, 200);
        let rss = peak_rss(&lines);
        eprintln!(
            "binary, 64 threads, 40 MiB, 32x32: peak RSS {:.1} MiB",
            mib(rss)
        );
        assert!(rss < 40 * MIB, "peak RSS {rss}");
        for seed in common::hostile::seeds() {
            let lines =
                common::hostile::session(seed, 64 * MIB, common::hostile::lines_per_session());
            let rss = peak_rss(&lines);
            eprintln!("binary, seed {seed}: peak RSS {:.1} MiB", mib(rss));
            assert!(rss < 64 * MIB, "seed {seed}: peak RSS {rss}");
        }
    }
}
