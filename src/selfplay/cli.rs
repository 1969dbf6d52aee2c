//! `pbrain-rensa selfplay`: its options and the progress line.

use crate::engine::Engine;
use crate::rules::Rule;
use anyhow::{anyhow, bail, Context, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The file to write (or resume).
    #[arg(long, short)]
    pub out: std::path::PathBuf,
    /// Games the file holds when done.
    #[arg(long, short, default_value_t = 100)]
    pub games: u64,
    /// Nodes searched for each move.
    #[arg(long, short, default_value_t = 20_000)]
    pub nodes: u64,
    /// Games played at once (default: one per CPU this process may use).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    #[arg(long, short, default_value_t = 1)]
    pub seed: u64,
    /// Rules, comma-separated: freestyle, standard, renju, caro, caro-exact or numbers.
    #[arg(long, default_value = "freestyle,standard,renju,caro")]
    pub rules: String,
    /// Square board sizes, comma-separated.
    #[arg(long, default_value = "15,20")]
    pub sizes: String,
    /// Share of the eligible positions written, per mille.
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub sample: u64,
    /// Also append every game to this SGF file (a collection; `analyze` reads it).
    #[arg(long)]
    pub sgf: Option<std::path::PathBuf>,
}

/// Runs `pbrain-rensa selfplay` with its parsed options.
pub fn main(a: Args) -> Result<()> {
    let rules = a
        .rules
        .split(',')
        .map(|r| Rule::parse(r).map_err(|e| anyhow!(e)))
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
    let jobs = a.jobs.unwrap_or_else(crate::platform::cpus);
    let opts = super::Options {
        games: a.games,
        nodes: a.nodes,
        jobs,
        seed: a.seed,
        rules,
        sizes,
        sample_permille: a.sample,
        games_file: a.sgf,
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
    let n = super::run(&a.out, &opts, &mut progress)
        .with_context(|| format!("writing {}", a.out.display()))?;
    println!("{n} positions in {}", a.out.display());
    Ok(())
}
