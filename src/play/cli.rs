//! `pbrain-rensa play`: its options, turned into [`super::PlayOptions`].

use crate::board::Color;
use crate::rules::Rule;
use anyhow::{anyhow, bail, Result};
use clap::ValueEnum;
use std::io::Write;

#[derive(clap::Args)]
pub struct Args {
    /// Board size: N for N x N, or WxH (columns x rows), 5 to 32.
    #[arg(long, short, default_value = "15")]
    pub size: String,
    /// The rule: freestyle, standard, renju, caro, caro-exact, or a Gomocup number (0, 1, 4, 8, 9).
    #[arg(long, short, default_value = "freestyle")]
    pub rule: String,
    /// Who moves first (plays black): you or rensa.
    #[arg(long, value_enum, default_value_t = First::You)]
    pub first: First,
    /// Time for each engine move, in seconds.
    #[arg(long, short, default_value_t = 1.0)]
    pub time: f64,
    /// Node limit for each engine move: lower is weaker (and repeatable with one thread).
    #[arg(long, alias = "nodes")]
    pub strength: Option<u64>,
    /// Choose at random among moves whose score is within --margin of the best; the seed is
    /// printed so a game can be replayed (with --strength, the same moves come back).
    #[arg(long)]
    pub variety: bool,
    /// Seed for --variety (default: from the clock).
    #[arg(long, requires = "variety")]
    pub seed: Option<u64>,
    /// Score margin for --variety.
    #[arg(long, default_value_t = 30, requires = "variety")]
    pub margin: i32,
    /// Plain text even on a terminal.
    #[arg(long)]
    pub no_color: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum First {
    You,
    Rensa,
}

/// Runs `pbrain-rensa play` with its parsed options.
pub fn main(a: Args) -> Result<()> {
    use std::io::IsTerminal;
    let color = !a.no_color && std::io::stdout().is_terminal();
    let opts = options(&a, color, !std::io::stdin().is_terminal())?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut status: Box<dyn Write> = if stderr.is_terminal() {
        Box::new(stderr.lock())
    } else {
        Box::new(std::io::sink())
    };
    super::run(opts, &mut stdin.lock(), &mut stdout.lock(), &mut status)?;
    Ok(())
}

/// The game `a` asks for; `color` when the output is a terminal, `echo` (the person's
/// moves printed back) when the input is not.
pub fn options(a: &Args, color: bool, echo: bool) -> Result<super::PlayOptions> {
    let (width, height) = crate::record::parse_size(&a.size).map_err(|e| anyhow!(e))?;
    if !(a.time.is_finite() && a.time >= 0.0) {
        bail!("bad --time {}", a.time);
    }
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    Ok(super::PlayOptions {
        width,
        height,
        rule: Rule::parse(&a.rule).map_err(|e| anyhow!(e))?,
        person: match a.first {
            First::You => Color::Black,
            First::Rensa => Color::White,
        },
        // a day is more than any game needs; larger values only risk overflow downstream
        turn_ms: ((a.time * 1000.0) as u64).min(86_400_000),
        max_nodes: a.strength,
        variety: a.variety.then_some(seed),
        variety_margin: a.margin,
        color,
        echo,
    })
}
