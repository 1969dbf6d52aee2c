//! Prints, for every self-play position whose game's next record is one stone later (so
//! the move the 40,000-node search played is known), the candidates the search orders,
//! each with the features a learned move ordering could read: the input of
//! `scripts/tune/order_fit.py`, an experiment for issue 11.
//!
//! ```text
//! cargo run --release --example policy_dump -- FILE.rnsp... > moves.txt
//! ```
//! A position is a line `P game played_index candidates`, then one line per candidate:
//! `x y my_code opp_code my_threat opp_threat move_score`.

use anyhow::Result;
use rensa::board::Pos;
use rensa::eval::move_score;
use rensa::selfplay::read_blocks;
use std::io::{BufWriter, Write};
use std::path::Path;

fn main() -> Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut cands = Vec::new();
    for f in std::env::args().skip(1) {
        let mut failed = None;
        read_blocks(Path::new(&f), |game, block| {
            for pair in block.windows(2) {
                let (r, next) = (&pair[0], &pair[1]);
                if next.stones.len() != r.stones.len() + 1 {
                    continue;
                }
                let Some(&(played, _)) = next.stones.iter().find(|s| !r.stones.contains(s)) else {
                    continue;
                };
                let board = r.board();
                board.candidates(&mut cands);
                let me = board.side();
                let rows: Vec<(Pos, String)> = cands
                    .iter()
                    .filter(|&&p| board.is_legal(p))
                    .map(|&p| {
                        let c = board.cell(p);
                        let (mt, ot) = (c.threat(me), c.threat(me.opponent()));
                        let s = move_score(&board, p, mt);
                        let row = format!(
                            "{} {} {} {} {} {} {s}",
                            p.x(),
                            p.y(),
                            c.code[me.index()],
                            c.code[me.opponent().index()],
                            mt as u8,
                            ot as u8
                        );
                        (p, row)
                    })
                    .collect();
                let Some(i) = rows.iter().position(|(p, _)| *p == played) else {
                    continue;
                };
                let mut text = format!("P {game} {i} {}\n", rows.len());
                for (_, row) in &rows {
                    text.push_str(row);
                    text.push('\n');
                }
                if let Err(e) = out.write_all(text.as_bytes()) {
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
