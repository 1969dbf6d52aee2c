//! Prints, for every position of self-play files (`src/selfplay.rs`), its game number, the
//! file's search score and the shipped evaluation of the position, both for the side to
//! move: the baseline `scripts/tune/line_net.py` compares its fits with.
//!
//! ```text
//! cargo run --release --example eval_dump -- FILE.rnsp... > shipped.txt
//! ```

use anyhow::Result;
use rensa::eval::evaluate;
use rensa::selfplay::read_blocks;
use std::io::{BufWriter, Write};
use std::path::Path;

fn main() -> Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    for f in std::env::args().skip(1) {
        let mut failed = None;
        read_blocks(Path::new(&f), |game, block| {
            for r in block {
                if let Err(e) = writeln!(out, "{game} {} {}", r.score, evaluate(&r.board())) {
                    failed.get_or_insert(e);
                }
            }
        })?;
        if let Some(e) = failed {
            return Err(e.into());
        }
    }
    Ok(())
}
