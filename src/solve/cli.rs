//! `pbrain-rensa solve`: its options and the report.

use super::SolveRule;
use anyhow::{anyhow, Result};
use clap::ValueEnum;

#[derive(clap::Args)]
pub struct Args {
    /// Columns (m).
    #[arg(long, short = 'm')]
    pub width: usize,
    /// Rows (n).
    #[arg(long, short = 'n')]
    pub height: usize,
    /// Stones in a row that win.
    #[arg(long, short)]
    pub k: usize,
    /// freestyle: k or more in a row wins; exact: exactly k (a longer run does not win).
    #[arg(long, value_enum, default_value_t = SolveRuleArg::Freestyle)]
    pub rule: SolveRuleArg,
    /// Transposition table size: 2^BITS entries of 16 bytes (at most 2^(cells + 6)).
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(8..=30))]
    pub hash_bits: u32,
    /// Show on stderr how many first moves are solved.
    #[arg(long)]
    pub progress: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum SolveRuleArg {
    Freestyle,
    Exact,
}

/// Runs `pbrain-rensa solve` with its parsed options.
pub fn main(a: Args) -> Result<()> {
    report(&a, &mut std::io::stdout().lock(), &mut std::io::stderr())
}

/// Solves the game `a` names and writes the report to `out`, the progress bar (when asked
/// for) to `status`.
pub fn report(
    a: &Args,
    out: &mut dyn std::io::Write,
    status: &mut dyn std::io::Write,
) -> Result<()> {
    let rule = match a.rule {
        SolveRuleArg::Freestyle => SolveRule::Freestyle,
        SolveRuleArg::Exact => SolveRule::Exact,
    };
    let mut progress = |done: usize, total: usize| {
        if a.progress {
            let bar = "#".repeat(done * 30 / total.max(1));
            let _ = write!(status, "\rsolving first moves [{bar:<30}] {done}/{total}");
            if done == total {
                let _ = writeln!(status);
            }
        }
    };
    let r = super::solve(a.width, a.height, a.k, rule, a.hash_bits, &mut progress)
        .map_err(|e| anyhow!(e))?;
    let cells = |v: &[(usize, usize)]| {
        v.iter()
            .map(|&(x, y)| crate::geometry::Pos::new(x, y).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let rule_name = match a.rule {
        SolveRuleArg::Freestyle => "freestyle",
        SolveRuleArg::Exact => "exact",
    };
    writeln!(out, "game   {}x{} k={} {rule_name}", a.width, a.height, a.k)?;
    writeln!(out, "value  {}", super::value_name(r.value))?;
    writeln!(out, "best   {}", cells(&r.best))?;
    writeln!(out, "pv     {}", cells(&r.pv))?;
    writeln!(out, "nodes  {}", r.nodes)?;
    writeln!(out, "time   {} ms", r.elapsed_ms)?;
    Ok(())
}
