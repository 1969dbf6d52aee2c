//! `pbrain-rensa`: the Gomocup/Piskvork protocol on stdin/stdout by default; `bench` for the
//! search benchmark; `play` for a game against a person; `solve` for small m,n,k-games.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};

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
    pbrain-rensa analyze ...    analyse played games: .psq, SGF, move lists, folders, ZIPs
                                (analyze --help)
    pbrain-rensa serve ...      a board in the browser at http://127.0.0.1:8073/ (serve --help)
    pbrain-rensa db ...         the position database (Yixin's files): show, merge, split,
                                export, import a RenLib file, build a book (db --help)
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
        None => Ok(rensa::protocol::io::run_stdio()?),
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
            rensa::bench::main(depth, threads);
            Ok(())
        }
        Some("play" | "solve" | "selfplay" | "analyze" | "serve" | "db") => {
            match Cli::parse().command {
                Command::Play(a) => rensa::play::cli::main(a),
                Command::Solve(a) => rensa::solve::cli::main(a),
                Command::Selfplay(a) => rensa::selfplay::cli::main(a),
                Command::Analyze(a) => rensa::analyze::cli::main(a),
                Command::Serve(a) => rensa::serve::cli::main(a),
                Command::Db(a) => rensa::dbtool::main(a),
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
            Ok(rensa::protocol::io::run_stdio()?)
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
    Play(rensa::play::cli::Args),
    /// Prove the value of an m,n,k-game (k in a row on an m x n board) by full search.
    Solve(rensa::solve::cli::Args),
    /// Play Rensa against itself and write training positions (see src/selfplay.rs for the
    /// file format). Resumes the file when it exists.
    Selfplay(rensa::selfplay::cli::Args),
    /// Analyse played games (.psq, SGF, move lists; folders and ZIPs of them): each move
    /// judged, the deciding move named, annotated SGF, a win-probability graph, a report.
    Analyze(rensa::analyze::cli::Args),
    /// Serve a board in the browser (this machine only by default): play and analyse.
    Serve(rensa::serve::cli::Args),
    /// The position database (Yixin's file format): show, merge, split, export, import a
    /// RenLib file, build a book by analysis.
    Db(rensa::dbtool::Args),
}
