//! `pbrain-rensa`: the Gomocup/Piskvork protocol on stdin/stdout by default; `bench` for the
//! search benchmark; `play` for a game against a person; `solve` for small m,n,k-games.

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use rensa::board::Color;
use rensa::engine::score_text;
use rensa::engine::Engine;
use rensa::play::PlayOptions;
use rensa::protocol::{Inbox, Session};
use rensa::rules::Rule;
use rensa::solve::SolveRule;
use std::io::Write;

const HELP: &str = "\
pbrain-rensa - the Rensa gomoku engine

USAGE:
    pbrain-rensa                speak the Gomocup/Piskvork protocol on stdin/stdout
    pbrain-rensa bench [D] [T]  search the benchmark positions to depth D (default 8) on
                                T threads (default 1); prints nodes, nodes per second and
                                a signature (repeatable with one thread)
    pbrain-rensa play ...       play a game in the terminal (see play --help)
    pbrain-rensa solve ...      solve a small m,n,k-game exactly (see solve --help)
    pbrain-rensa selfplay ...   play itself and write training positions (selfplay --help)
    pbrain-rensa --help         this text
    pbrain-rensa --version      the version

Logs go to stderr; set RUST_LOG (error, warn, info, debug, trace) to see them.
See README.md and protocol.md.";

const BENCH_HELP: &str = "\
pbrain-rensa bench [D] [T]

Searches a fixed set of positions (freestyle 15x15 and 20x20, standard, renju, caro) to
depth D (default 8) on T threads (default 1), with a fresh hash table for each, and prints
per position its nodes, time, best move and score, then the total nodes, nodes per second
and a signature. With one thread the signature is the same on every run and machine, and
a change that alters the search tree alters it; with several threads it varies by run.";

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => run_protocol(),
        Some("bench")
            if args
                .get(1)
                .is_some_and(|a| matches!(a.as_str(), "-h" | "--help")) =>
        {
            println!("{BENCH_HELP}");
            Ok(())
        }
        Some("bench") => {
            let depth = match args.get(1) {
                Some(d) => d.parse().with_context(|| format!("bad depth '{d}'"))?,
                None => rensa::bench::DEFAULT_DEPTH,
            };
            let threads = match args.get(2) {
                Some(t) => t
                    .parse()
                    .with_context(|| format!("bad thread count '{t}'"))?,
                None => 1,
            };
            bench(depth, threads)
        }
        Some("play" | "solve" | "selfplay") => {
            let cli = Cli::parse();
            match cli.command {
                Command::Play(a) => play(a),
                Command::Solve(a) => solve(a),
                Command::Selfplay(a) => selfplay(a),
            }
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

/// The subcommands with options; the protocol and `bench` keep their own plain dispatch, so
/// that GUIs that pass flags of their own still reach the protocol.
#[derive(Parser)]
#[command(name = "pbrain-rensa", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game against the engine in the terminal.
    Play(PlayArgs),
    /// Prove the value of an m,n,k-game (k in a row on an m x n board) by full search.
    Solve(SolveArgs),
    /// Play Rensa against itself and write training positions (see src/selfplay.rs for the
    /// file format). Resumes the file when it exists.
    Selfplay(SelfplayArgs),
}

#[derive(clap::Args)]
struct SelfplayArgs {
    /// The file to write (or resume).
    #[arg(long, short)]
    out: std::path::PathBuf,
    /// Games the file holds when done.
    #[arg(long, short, default_value_t = 100)]
    games: u64,
    /// Nodes searched for each move.
    #[arg(long, short, default_value_t = 20_000)]
    nodes: u64,
    /// Games played at once (default: one per hardware thread).
    #[arg(long, short)]
    jobs: Option<usize>,
    #[arg(long, short, default_value_t = 1)]
    seed: u64,
    /// Rules, comma-separated: freestyle, standard, renju, caro, caro-exact or numbers.
    #[arg(long, default_value = "freestyle,standard,renju,caro")]
    rules: String,
    /// Square board sizes, comma-separated.
    #[arg(long, default_value = "15,20")]
    sizes: String,
    /// Share of the eligible positions written, per mille.
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=1000))]
    sample: u64,
}

fn selfplay(a: SelfplayArgs) -> Result<()> {
    let rules = a
        .rules
        .split(',')
        .map(|r| parse_rule(r.trim()))
        .collect::<Result<Vec<_>>>()?;
    let sizes = a
        .sizes
        .split(',')
        .map(|s| {
            let n: usize = s
                .trim()
                .parse()
                .with_context(|| format!("bad size '{s}'"))?;
            if !Engine::size_supported(n as i64, n as i64) {
                bail!("board size {n} is not supported (5 to 32)");
            }
            Ok(n)
        })
        .collect::<Result<Vec<_>>>()?;
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = rensa::selfplay::Options {
        games: a.games,
        nodes: a.nodes,
        jobs,
        seed: a.seed,
        rules,
        sizes,
        sample_permille: a.sample,
    };
    let start = std::time::Instant::now();
    let mut first: Option<u64> = None;
    let mut progress = |done: u64, of: u64, records: u64| {
        let since = *first.get_or_insert(done);
        let secs = start.elapsed().as_secs_f64().max(0.001);
        let rate = (done - since) as f64 / secs * 3600.0;
        let bar = "#".repeat((done * 30 / of.max(1)) as usize);
        eprint!(
            "\rselfplay [{bar:<30}] {done}/{of} games, {records} positions, {rate:.0} games/h "
        );
        if done >= of {
            eprintln!();
        }
    };
    let n = rensa::selfplay::run(&a.out, &opts, &mut progress)
        .with_context(|| format!("writing {}", a.out.display()))?;
    println!("{n} positions in {}", a.out.display());
    Ok(())
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Columns (m).
    #[arg(long, short = 'm')]
    width: usize,
    /// Rows (n).
    #[arg(long, short = 'n')]
    height: usize,
    /// Stones in a row that win.
    #[arg(long, short)]
    k: usize,
    /// freestyle: k or more in a row wins; exact: exactly k (a longer run does not win).
    #[arg(long, value_enum, default_value_t = SolveRuleArg::Freestyle)]
    rule: SolveRuleArg,
    /// Transposition table size: 2^BITS entries of 16 bytes (at most 2^(cells + 6)).
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(8..=30))]
    hash_bits: u32,
    /// Show on stderr how many first moves are solved.
    #[arg(long)]
    progress: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum SolveRuleArg {
    Freestyle,
    Exact,
}

fn solve(a: SolveArgs) -> Result<()> {
    let rule = match a.rule {
        SolveRuleArg::Freestyle => SolveRule::Freestyle,
        SolveRuleArg::Exact => SolveRule::Exact,
    };
    let mut progress = |done: usize, total: usize| {
        if a.progress {
            let bar = "#".repeat(done * 30 / total.max(1));
            eprint!("\rsolving first moves [{bar:<30}] {done}/{total}");
            if done == total {
                eprintln!();
            }
        }
    };
    let r = rensa::solve::solve(a.width, a.height, a.k, rule, a.hash_bits, &mut progress)
        .map_err(|e| anyhow!(e))?;
    let cells = |v: &[(usize, usize)]| {
        v.iter()
            .map(|&(x, y)| rensa::board::Pos::new(x, y).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let rule_name = match a.rule {
        SolveRuleArg::Freestyle => "freestyle",
        SolveRuleArg::Exact => "exact",
    };
    println!("game   {}x{} k={} {rule_name}", a.width, a.height, a.k);
    println!("value  {}", rensa::solve::value_name(r.value));
    println!("best   {}", cells(&r.best));
    println!("pv     {}", cells(&r.pv));
    println!("nodes  {}", r.nodes);
    println!("time   {} ms", r.elapsed_ms);
    Ok(())
}

#[derive(clap::Args)]
struct PlayArgs {
    /// Board size: N for N x N, or WxH (columns x rows), 5 to 32.
    #[arg(long, short, default_value = "15")]
    size: String,
    /// The rule: freestyle, standard, renju, caro, caro-exact, or a Gomocup number (0, 1, 4, 8, 9).
    #[arg(long, short, default_value = "freestyle")]
    rule: String,
    /// Who moves first (plays black): you or rensa.
    #[arg(long, value_enum, default_value_t = First::You)]
    first: First,
    /// Time for each engine move, in seconds.
    #[arg(long, short, default_value_t = 1.0)]
    time: f64,
    /// Node limit for each engine move: lower is weaker (and repeatable with one thread).
    #[arg(long, alias = "nodes")]
    strength: Option<u64>,
    /// Choose at random among moves whose score is within --margin of the best; the seed is
    /// printed so a game can be replayed (with --strength, the same moves come back).
    #[arg(long)]
    variety: bool,
    /// Seed for --variety (default: from the clock).
    #[arg(long, requires = "variety")]
    seed: Option<u64>,
    /// Score margin for --variety.
    #[arg(long, default_value_t = 30, requires = "variety")]
    margin: i32,
    /// Plain text even on a terminal.
    #[arg(long)]
    no_color: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum First {
    You,
    Rensa,
}

fn parse_size(s: &str) -> Result<(usize, usize)> {
    let (w, h) = match s.split_once(['x', 'X', ',']) {
        Some((w, h)) => (w.trim().parse()?, h.trim().parse()?),
        None => {
            let n = s.trim().parse()?;
            (n, n)
        }
    };
    if !Engine::size_supported(w as i64, h as i64) {
        bail!("board size {w}x{h} is not supported (5 to 32 each way)");
    }
    Ok((w, h))
}

fn parse_rule(s: &str) -> Result<Rule> {
    if let Ok(n) = s.parse::<i64>() {
        return Rule::from_info(n).ok_or_else(|| anyhow!("unknown rule number {n}"));
    }
    Rule::ALL
        .into_iter()
        .find(|r| r.name().eq_ignore_ascii_case(s))
        .ok_or_else(|| anyhow!("unknown rule '{s}' (freestyle, standard, renju, caro, caro-exact)"))
}

fn play(a: PlayArgs) -> Result<()> {
    use std::io::IsTerminal;
    let (width, height) =
        parse_size(&a.size).with_context(|| format!("bad --size '{}'", a.size))?;
    if !(a.time.is_finite() && a.time >= 0.0) {
        bail!("bad --time {}", a.time);
    }
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let opts = PlayOptions {
        width,
        height,
        rule: parse_rule(&a.rule)?,
        person: match a.first {
            First::You => Color::Black,
            First::Rensa => Color::White,
        },
        // a day is more than any game needs; larger values only risk overflow downstream
        turn_ms: ((a.time * 1000.0) as u64).min(86_400_000),
        max_nodes: a.strength,
        variety: a.variety.then_some(seed),
        variety_margin: a.margin,
        color: !a.no_color && std::io::stdout().is_terminal(),
        echo: !std::io::stdin().is_terminal(),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut status: Box<dyn Write> = if stderr.is_terminal() {
        Box::new(stderr.lock())
    } else {
        Box::new(std::io::sink())
    };
    rensa::play::run(opts, &mut stdin.lock(), &mut stdout.lock(), &mut status)?;
    Ok(())
}

fn bench(depth: i32, threads: usize) -> Result<()> {
    let (lines, nodes, ms, sig) = rensa::bench::run(depth, threads);
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
    if threads > 1 {
        // helpers make the tree depend on timing: no signature to compare
        println!("threads    {threads} (the signature is for one thread only)");
    }
    println!("nodes      {nodes}");
    println!("time       {ms} ms");
    println!("nps        {}", nodes * 1000 / ms.max(1));
    println!("signature  {sig:016x}");
    Ok(())
}

fn run_protocol() -> Result<()> {
    // The input side starts first, so each line is stamped when it arrives: a manager that
    // suspends the engine right after START charges building the engine to move 1, and the
    // move's budget must count it.
    let inbox = Inbox::default();
    rensa::protocol::io::spawn_reader(std::io::stdin(), inbox.sender(), inbox.queued())
        .context("starting the input thread")?;
    let stdout = std::io::stdout();
    let mut session = Session::with_inbox(Engine::new(), stdout.lock(), inbox);
    session.run();
    drop(session);
    let _ = std::io::stdout().flush();
    Ok(())
}
