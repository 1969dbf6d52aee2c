//! `pbrain-rensa db`: the position database without a GUI: show, merge, split, export,
//! import a RenLib file, and build a book by Rensa's own analysis ([`build`]).

pub mod build;

use crate::database::record::*;
use crate::database::{ops, Database, Position};
use crate::geometry::Pos;
use crate::record::{self, Defaults};
use crate::rules::Rule;
use anyhow::{anyhow, bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

const AFTER_HELP: &str = "\
Examples:
  pbrain-rensa db show book.db
  pbrain-rensa db show book.db h8 i9           the record of a position and of its moves
  pbrain-rensa db merge book.db other.db       other.db's records into book.db
  pbrain-rensa db split book.db --out branch.db h8 i9
  pbrain-rensa db export book.db --out book.csv
  pbrain-rensa db import-lib opening.lib book.db --rule renju
  pbrain-rensa db build book.db --openings openings.txt --time-ms 200 --plies 4

Databases are Yixin's files (as Yixin-Board, Yixin and Rapfi keep them, plain or
LZ4-compressed). A position is found under every symmetry of the board. Moves are h8 or
x,y (0-based), black first. Every write is atomic: a crash keeps the old file.";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: DbCommand,
}

#[derive(clap::Subcommand)]
pub enum DbCommand {
    /// Counts by rule, board and label; with moves, the position's record and its moves'.
    Show {
        file: PathBuf,
        moves: Vec<String>,
        #[command(flatten)]
        board: BoardArgs,
    },
    /// Merges databases into the first (made when missing): a record where it has none or
    /// a worse one; comments and board labels of both are kept.
    Merge {
        into: PathBuf,
        #[arg(required = true)]
        from: Vec<PathBuf>,
    },
    /// Copies a position's branch (and the records on the way to it) into another database.
    Split {
        file: PathBuf,
        #[arg(long)]
        out: PathBuf,
        moves: Vec<String>,
        #[command(flatten)]
        board: BoardArgs,
    },
    /// Writes the records as CSV (Rapfi's columns) or as readable text.
    Export {
        file: PathBuf,
        /// Where to write (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
        /// csv or text.
        #[arg(long, default_value = "csv")]
        format: String,
        /// Only this rule (with --size, only this board).
        #[arg(long, short)]
        rule: Option<String>,
        #[arg(long)]
        size: Option<String>,
    },
    /// Imports a RenLib .lib file (15x15) into a database (made when missing).
    ImportLib {
        lib: PathBuf,
        into: PathBuf,
        #[arg(long, short, default_value = "renju")]
        rule: String,
    },
    /// Grows a book by analysis: each position is searched, its value and its best moves
    /// written, and the best moves expanded in turn, to a number of plies.
    Build(build::BuildArgs),
}

/// The board of positions given as moves.
#[derive(clap::Args, Clone)]
pub struct BoardArgs {
    /// The rule: freestyle, standard, renju, caro, caro-exact, or a Gomocup number.
    #[arg(long, short, default_value = "freestyle")]
    pub rule: String,
    /// The board: N or WxH.
    #[arg(long, default_value = "15")]
    pub size: String,
}

impl BoardArgs {
    /// The position after `moves` (each argument may hold several: `h8h7 i9`).
    pub fn position(&self, moves: &[String]) -> Result<(Position, Vec<Pos>)> {
        let rule = Rule::parse(&self.rule).map_err(|e| anyhow!(e))?;
        let (w, h) = record::parse_size(&self.size).map_err(|e| anyhow!(e))?;
        let text = moves.join(" ");
        let g = record::moves::parse(
            &text,
            Defaults {
                width: w,
                height: h,
            },
        )
        .map_err(|e| anyhow!("moves: {e}"))?;
        let cells: Vec<Pos> = g
            .moves
            .iter()
            .map(|m| Pos::at(m.x, m.y).ok_or_else(|| anyhow!("{},{} is off the board", m.x, m.y)))
            .collect::<Result<_>>()?;
        let p = Position::from_moves(rule, w, h, &cells).map_err(|e| anyhow!(e))?;
        Ok((p, cells))
    }
}

/// Memory a command-line database may take.
const LIMIT: usize = 4 << 30;

pub fn open(path: &Path) -> Result<Database> {
    Database::open(path, LIMIT).map_err(|e| anyhow!(e))
}

pub fn main(args: Args) -> Result<()> {
    match args.command {
        DbCommand::Show { file, moves, board } => show(&file, &moves, &board),
        DbCommand::Merge { into, from } => {
            let mut db = open(&into)?;
            for f in &from {
                let src = open(f)?;
                let n = ops::merge(&mut db, &src).map_err(|e| anyhow!(e))?;
                println!("{}: {n} of {} records merged", f.display(), src.len());
            }
            db.save().map_err(|e| anyhow!(e))?;
            println!("{}: {} records", into.display(), db.len());
            Ok(())
        }
        DbCommand::Split {
            file,
            out,
            moves,
            board,
        } => {
            let src = open(&file)?;
            let (p, cells) = board.position(&moves)?;
            let mut dst = open(&out)?;
            let n = ops::split(&src, &mut dst, &cells, &p);
            dst.save().map_err(|e| anyhow!(e))?;
            println!(
                "{}: {n} records written, {} in all",
                out.display(),
                dst.len()
            );
            Ok(())
        }
        DbCommand::Export {
            file,
            out,
            format,
            rule,
            size,
        } => export(
            &file,
            out.as_deref(),
            &format,
            rule.as_deref(),
            size.as_deref(),
        ),
        DbCommand::ImportLib { lib, into, rule } => {
            let rule = Rule::parse(&rule).map_err(|e| anyhow!(e))?;
            let bytes =
                std::fs::read(&lib).with_context(|| format!("reading {}", lib.display()))?;
            let mut db = open(&into)?;
            let n = ops::import_renlib(&mut db, &bytes, rule).map_err(|e| anyhow!(e))?;
            db.save().map_err(|e| anyhow!(e))?;
            println!(
                "{}: {n} records imported, {} in all",
                into.display(),
                db.len()
            );
            Ok(())
        }
        DbCommand::Build(a) => build::main(a),
    }
}

fn show(file: &Path, moves: &[String], board: &BoardArgs) -> Result<()> {
    if !file.exists() {
        bail!("{}: no such file", file.display());
    }
    let db = open(file)?;
    if moves.is_empty() {
        print!("{}", summary(&db));
        return Ok(());
    }
    let (p, _) = board.position(moves)?;
    let mut out = String::new();
    match db.get_position(&p) {
        Some(r) => out.push_str(&format!("position: {}\n", describe(r))),
        None => out.push_str("position: no record\n"),
    }
    for (m, r) in db.children(&p) {
        out.push_str(&format!("  {:<4} {}\n", m.to_string(), describe(r)));
    }
    print!("{out}");
    Ok(())
}

/// One record in words: label, value (with the winning chance of the side that moved into
/// it), depth and bound, comment.
fn describe(r: &Record) -> String {
    let label = match r.label {
        LABEL_NULL => "-".to_string(),
        LABEL_NONE => ".".to_string(),
        l => (l as u8 as char).to_string(),
    };
    let bound = ["none", "upper", "lower", "exact"][r.bound() as usize];
    let shown = r.display_label(ops::win_rate);
    let mut s = format!(
        "label {label:<2} value {:>6} depth {:>3} {bound:<5} {shown}",
        r.value,
        r.depth()
    );
    let c = r.comment();
    if !c.is_empty() {
        s.push_str(&format!("  \"{}\"", c.replace('\n', " / ")));
    }
    s
}

/// Records by rule and board, and by label.
pub fn summary(db: &Database) -> String {
    use std::collections::BTreeMap;
    let mut boards: BTreeMap<(u8, u8, u8), usize> = BTreeMap::new();
    let mut labels: BTreeMap<String, usize> = BTreeMap::new();
    for (k, r) in db.iter() {
        *boards.entry((k.rule, k.width, k.height)).or_default() += 1;
        let l = match fold(r.label) {
            LABEL_NULL => "null",
            LABEL_NONE if r.bound() == BOUND_EXACT => "valued",
            LABEL_NONE => "none",
            LABEL_WIN => "win",
            LABEL_LOSE => "loss",
            LABEL_DRAW => "draw",
            LABEL_BLOCKED => "blocked",
            LABEL_FORCED => "forced",
            _ => "other",
        };
        *labels.entry(l.to_string()).or_default() += 1;
    }
    let mut s = format!(
        "{} records, about {:.1} MiB in memory\n",
        db.len(),
        db.bytes() as f64 / f64::from(1 << 20)
    );
    for ((rule, w, h), n) in boards {
        let name = crate::database::key::rule_of_code(rule).map_or("?", |r| r.name());
        s.push_str(&format!("  {name} {w}x{h}: {n}\n"));
    }
    let parts: Vec<String> = labels.iter().map(|(l, n)| format!("{l} {n}")).collect();
    s.push_str(&format!("  labels: {}\n", parts.join(", ")));
    s
}

fn export(
    file: &Path,
    out: Option<&Path>,
    format: &str,
    rule: Option<&str>,
    size: Option<&str>,
) -> Result<()> {
    let db = open(file)?;
    let only = match rule {
        Some(r) => {
            let rule = Rule::parse(r).map_err(|e| anyhow!(e))?;
            let (w, h) = record::parse_size(size.unwrap_or("15")).map_err(|e| anyhow!(e))?;
            Some((crate::database::rule_code(rule), w as u8, h as u8))
        }
        None => None,
    };
    let mut buf = Vec::new();
    match format {
        "csv" => {
            ops::to_csv(&db, only, &mut buf)?;
        }
        "text" => {
            for (k, r) in db.iter() {
                if only.is_none_or(|o| o == (k.rule, k.width, k.height)) {
                    writeln!(buf, "{}  {}", k.text(), describe(r))?;
                }
            }
        }
        f => bail!("unknown format '{f}' (csv or text)"),
    }
    match out {
        Some(p) => std::fs::write(p, buf).with_context(|| format!("writing {}", p.display()))?,
        None => std::io::stdout().write_all(&buf)?,
    }
    Ok(())
}
