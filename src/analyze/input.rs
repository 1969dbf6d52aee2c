//! The games named on the command line: record files, folders of them (searched
//! recursively, in name order) and ZIPs of them as Gomocup publishes a tournament. A file
//! that cannot be read is reported with its reason (and line) and the others go on.

use super::Game;
use crate::record::{self, Defaults, Format, GameRecord, MAX_FILE_BYTES};
use crate::rules::Rule;
use std::io::Read;
use std::path::{Path, PathBuf};

/// How records become games: the board of a bare move list, and the rule where given.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub defaults: Defaults,
    /// `--rule`: wins over the file's; without it, the file's, else freestyle.
    pub rule: Option<Rule>,
}

/// The games found, and a line for each file (or ZIP entry) that could not be read.
#[derive(Debug, Default)]
pub struct Found {
    pub games: Vec<Game>,
    pub errors: Vec<String>,
}

/// At most this many games from one command: each is kept until the report is written.
pub const MAX_GAMES: usize = 100_000;

pub fn gather(paths: &[PathBuf], s: &Settings) -> Found {
    let mut found = Found::default();
    for p in paths {
        if p.is_dir() {
            let mut files = Vec::new();
            walk(p, &mut files, &mut found.errors);
            files.sort();
            for f in files {
                file(&f, s, &mut found);
            }
        } else {
            file(p, s, &mut found);
        }
    }
    if found.games.len() > MAX_GAMES {
        found.errors.push(format!(
            "{} games found; only the first {MAX_GAMES} are analysed",
            found.games.len()
        ));
        found.games.truncate(MAX_GAMES);
    }
    found
}

/// Files under `dir` that are records or ZIPs.
fn walk(dir: &Path, out: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => return errors.push(format!("{}: {e}", dir.display())),
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out, errors);
        } else if Format::from_path(&p).is_some() || is_zip_name(&p) {
            out.push(p);
        }
    }
}

fn is_zip_name(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

fn file(path: &Path, s: &Settings, found: &mut Found) {
    let name = path.display().to_string();
    let bytes = match read_bounded(std::fs::File::open(path), &name) {
        Ok(b) => b,
        Err(e) => return found.errors.push(e),
    };
    if is_zip_name(path) || bytes.starts_with(b"PK\x03\x04") {
        return zip(&bytes, &name, s, found);
    }
    text(&bytes, Format::from_path(path), &name, s, found);
}

fn read_bounded(f: std::io::Result<impl Read>, name: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    f.and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("{name}: larger than {} MiB", MAX_FILE_BYTES >> 20));
    }
    Ok(bytes)
}

fn zip(bytes: &[u8], name: &str, s: &Settings, found: &mut Found) {
    let mut archive = match zip::ZipArchive::new(std::io::Cursor::new(bytes)) {
        Ok(a) => a,
        Err(e) => {
            return found
                .errors
                .push(format!("{name}: not a readable ZIP: {e}"))
        }
    };
    let mut entries: Vec<(String, usize)> = (0..archive.len())
        .filter_map(|i| Some((archive.name_for_index(i)?.to_string(), i)))
        .filter(|(n, _)| !n.ends_with('/') && Format::from_path(Path::new(n)).is_some())
        .collect();
    entries.sort();
    for (entry, i) in entries {
        let label = format!("{name}:{entry}");
        let bytes = match archive.by_index(i) {
            Ok(f) => read_bounded(Ok(f), &label),
            Err(e) => Err(format!("{label}: {e}")),
        };
        match bytes {
            Ok(b) => text(&b, Format::from_path(Path::new(&entry)), &label, s, found),
            Err(e) => found.errors.push(e),
        }
    }
}

fn text(bytes: &[u8], format: Option<Format>, name: &str, s: &Settings, found: &mut Found) {
    let Ok(t) = std::str::from_utf8(bytes) else {
        return found.errors.push(format!("{name}: not text (UTF-8)"));
    };
    let format = match (format, Format::detect(t)) {
        // a .txt that is really a .psq or an SGF
        (Some(Format::Moves) | None, detected) => detected,
        (Some(f), _) => f,
    };
    match record::parse(t, format, s.defaults) {
        Ok(records) => {
            let several = records.len() > 1;
            for (i, r) in records.into_iter().enumerate() {
                let source = if several {
                    format!("{name}#{}", i + 1)
                } else {
                    name.to_string()
                };
                found.games.push(game(source, r, s));
            }
        }
        Err(e) => found.errors.push(format!("{name}: {e}")),
    }
}

fn game(source: String, record: GameRecord, s: &Settings) -> Game {
    let rule = s.rule.or(record.rule).unwrap_or(Rule::Freestyle);
    Game {
        source,
        record,
        rule,
    }
}
