//! Parsing of protocol lines into commands: a pure function, no state, no panics.

/// One line from the manager, as a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start(i64),
    /// Yixin-Board's `START W H` / `start W H`: W columns and H rows, with coordinates sent
    /// and read as row,column (so the first one runs up to H).
    StartColsRows(i64, i64),
    RectStart(i64, i64),
    Restart,
    Begin,
    Turn(i64, i64),
    /// `BOARD`: stone lines `x,y,f` follow until `DONE`, then we move.
    Board,
    /// `YXBOARD`: like BOARD, but no move afterwards.
    YxBoard,
    /// `SWAP2BOARD`: stone lines `x,y` follow until `DONE`.
    Swap2Board,
    Done,
    /// `INFO key value`, key in lower case.
    Info(String, String),
    End,
    About,
    Takeback(i64, i64),
    Play(i64, i64),
    /// `STOP` or `YXSTOP`: answer now (only meaningful while thinking).
    Stop,
    YxShowForbid,
    YxShowInfo,
    YxHashClear,
    YxShowHashUsage,
    /// `YXBLOCK`: `x,y` lines follow until `DONE`, cells the engine must not play.
    YxBlock,
    /// `YXBLOCKUNDO`: `x,y` lines follow until `DONE`, cells to allow again.
    YxBlockUndo,
    /// `YXBLOCKRESET`: every cell allowed again.
    YxBlockReset,
    /// `YXNBEST N`: the N best moves, then the best played.
    YxNBest(i64),
    /// `YXBALANCEONE B` (1) / `YXBALANCETWO B` (2): stones that leave the position even,
    /// within the bias B.
    YxBalance(usize, i64),
    /// `YXSWAP2STEP1..3`: Yixin-Board's own Swap2 steps.
    YxSwap2Step(u8),
    /// `YXSOOSORVSTEP1..6 [N]`: Yixin-Board's Soosorv-8 steps; after all but the first,
    /// `x,y` lines follow until `DONE`. N (steps 4 and 5) is the number of fifth moves.
    YxSoosorvStep(u8, i64),
    /// `YXSEARCHDEFEND`: every root move searched as a line of its own (multi-PV over all).
    YxSearchDefend,
    /// Yixin-Board's position database commands (see [`DbCommand`]).
    YxDb(DbCommand),
    /// A command we do not know: its name.
    Unknown(String),
}

/// Yixin-Board's database commands. Those with a path read it from the next line; those on
/// a position read its moves (`x,y`, black first, `-1,-1` a pass) until `DONE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbCommand {
    /// `YXSETDATABASE`, path: open (or create) the database.
    Set,
    /// `YXSAVEDATABASE`.
    Save,
    /// `YXDBTOTXTALL` / `YXDBTOTXT`, path: the records (of this rule and board) as CSV.
    ToText { all: bool },
    /// `YXLIBTODB`, path: import a RenLib file.
    LibToDb,
    /// `YXDBSPLIT`, path: copy the branch of the current position into that database.
    Split,
    /// `YXDBMERGE`, path: merge that database into this one.
    Merge,
    /// `YXQUERYDATABASEALL`, position: the records of its moves.
    QueryAll,
    /// `YXQUERYDATABASEONE`, position: its record.
    QueryOne,
    /// `YXQUERYDATABASETEXT`, position: its comment.
    QueryText,
    /// `YXQUERYDATABASEALLT`: both.
    QueryAllText,
    /// `YXEDITTVDDATABASE MASK LABEL VALUE DEPTH`, position.
    EditTvd {
        mask: i64,
        label: i64,
        value: i64,
        depth: i64,
    },
    /// `YXEDITTEXTDATABASE "comment"`, position. The raw text after the name: the quoted
    /// comment may run over several lines, and Yixin-Board sends the first move right after
    /// the closing quote, on the same line.
    EditText(String),
    /// `YXEDITLABELDATABASE x,y text`, position: the label of a move's cell.
    EditLabel { x: i64, y: i64, text: String },
    /// `YXDELETEDATABASEONE`, position.
    DeleteOne,
    /// `YXDELETEDATABASEALL [FILTER [N]]`, position: the records below it.
    DeleteAll { filter: String, step: i64 },
}

impl DbCommand {
    /// Whether a path line follows.
    pub fn takes_path(&self) -> bool {
        matches!(
            self,
            DbCommand::Set
                | DbCommand::ToText { .. }
                | DbCommand::LibToDb
                | DbCommand::Split
                | DbCommand::Merge
        )
    }

    /// Whether a position follows.
    pub fn takes_position(&self) -> bool {
        !self.takes_path() && *self != DbCommand::Save
    }
}

/// Parses one line (without its line ending). `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let name = word.to_ascii_uppercase();
    let no_args = |c: Command| -> Result<Option<Command>, String> {
        if rest.is_empty() {
            Ok(Some(c))
        } else {
            Err(format!("{name} takes no arguments"))
        }
    };
    if name.starts_with("YX") {
        return parse_yixin(&name, word, rest, no_args);
    }
    match name.as_str() {
        "START" => {
            let nums: Vec<&str> = rest.split_whitespace().collect();
            match nums[..] {
                [w, h] => Ok(Some(Command::StartColsRows(
                    parse_int(w, "board width")?,
                    parse_int(h, "board height")?,
                ))),
                _ => Ok(Some(Command::Start(parse_int(rest, "board size")?))),
            }
        }
        "RECTSTART" => {
            let (w, h) = parse_pair(rest).map_err(|e| format!("RECTSTART: {e}"))?;
            Ok(Some(Command::RectStart(w, h)))
        }
        "RESTART" => no_args(Command::Restart),
        "BEGIN" => no_args(Command::Begin),
        "TURN" => {
            let (x, y) = parse_pair(rest).map_err(|e| format!("TURN: {e}"))?;
            Ok(Some(Command::Turn(x, y)))
        }
        "BOARD" => no_args(Command::Board),
        "SWAP2BOARD" => no_args(Command::Swap2Board),
        "DONE" => no_args(Command::Done),
        "INFO" => {
            let (key, value) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            // an empty key is the session's to report: INFO never gets an ERROR reply
            Ok(Some(Command::Info(
                key.to_ascii_lowercase(),
                value.to_string(),
            )))
        }
        "END" => Ok(Some(Command::End)),
        "ABOUT" => Ok(Some(Command::About)),
        "TAKEBACK" => {
            let (x, y) = parse_pair(rest).map_err(|e| format!("TAKEBACK: {e}"))?;
            Ok(Some(Command::Takeback(x, y)))
        }
        "PLAY" => {
            let (x, y) = parse_pair(rest).map_err(|e| format!("PLAY: {e}"))?;
            Ok(Some(Command::Play(x, y)))
        }
        "STOP" => Ok(Some(Command::Stop)),
        _ => Ok(Some(Command::Unknown(word.to_string()))),
    }
}

/// [`parse`] for Yixin-Board's commands (`YX…`, `name` in capitals); `no_args` is the
/// command when nothing follows its name.
fn parse_yixin(
    name: &str,
    word: &str,
    rest: &str,
    no_args: impl Fn(Command) -> Result<Option<Command>, String>,
) -> Result<Option<Command>, String> {
    match name {
        "YXSTOP" => Ok(Some(Command::Stop)),
        "YXBOARD" => no_args(Command::YxBoard),
        "YXSHOWFORBID" => Ok(Some(Command::YxShowForbid)),
        "YXSHOWINFO" => Ok(Some(Command::YxShowInfo)),
        "YXHASHCLEAR" => Ok(Some(Command::YxHashClear)),
        "YXSHOWHASHUSAGE" => Ok(Some(Command::YxShowHashUsage)),
        "YXBLOCK" => no_args(Command::YxBlock),
        "YXBLOCKUNDO" => no_args(Command::YxBlockUndo),
        "YXBLOCKRESET" => no_args(Command::YxBlockReset),
        "YXNBEST" => Ok(Some(Command::YxNBest(if rest.is_empty() {
            2
        } else {
            parse_int(rest, "YXNBEST count")?
        }))),
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let n = if name == "YXBALANCEONE" { 1 } else { 2 };
            let bias = if rest.is_empty() {
                0
            } else {
                parse_int(rest, "bias")?
            };
            Ok(Some(Command::YxBalance(n, bias)))
        }
        "YXSWAP2STEP1" => no_args(Command::YxSwap2Step(1)),
        "YXSWAP2STEP2" => no_args(Command::YxSwap2Step(2)),
        "YXSWAP2STEP3" => no_args(Command::YxSwap2Step(3)),
        "YXSEARCHDEFEND" => no_args(Command::YxSearchDefend),
        _ if name.contains("DATABASE") || name.starts_with("YXDB") || name == "YXLIBTODB" => {
            match parse_db(name, rest)? {
                Some(c) => Ok(Some(Command::YxDb(c))),
                None => Ok(Some(Command::Unknown(word.to_string()))),
            }
        }
        _ if name.starts_with("YXSOOSORVSTEP") => {
            let step = match &name["YXSOOSORVSTEP".len()..] {
                s @ ("1" | "2" | "3" | "4" | "5" | "6") => s.as_bytes()[0] - b'0',
                _ => return Ok(Some(Command::Unknown(word.to_string()))),
            };
            if matches!(step, 4 | 5) {
                let n = parse_int(rest, "number of fifth moves")?;
                Ok(Some(Command::YxSoosorvStep(step, n)))
            } else {
                no_args(Command::YxSoosorvStep(step, 0))
            }
        }
        _ => Ok(Some(Command::Unknown(word.to_string()))),
    }
}

/// The database commands; `None` for a name that is not one.
fn parse_db(name: &str, rest: &str) -> Result<Option<DbCommand>, String> {
    let ints = |n: usize| -> Result<Vec<i64>, String> {
        let v: Vec<&str> = rest.split_whitespace().collect();
        if v.len() != n {
            return Err(format!("{name} takes {n} numbers, got '{rest}'"));
        }
        v.iter().map(|t| parse_int(t, "number")).collect()
    };
    Ok(Some(match name {
        "YXSETDATABASE" => DbCommand::Set,
        "YXSAVEDATABASE" => DbCommand::Save,
        "YXDBTOTXTALL" => DbCommand::ToText { all: true },
        "YXDBTOTXT" => DbCommand::ToText { all: false },
        "YXLIBTODB" => DbCommand::LibToDb,
        "YXDBSPLIT" => DbCommand::Split,
        "YXDBMERGE" => DbCommand::Merge,
        "YXQUERYDATABASEALL" => DbCommand::QueryAll,
        "YXQUERYDATABASEONE" => DbCommand::QueryOne,
        "YXQUERYDATABASETEXT" => DbCommand::QueryText,
        "YXQUERYDATABASEALLT" => DbCommand::QueryAllText,
        "YXEDITTVDDATABASE" => {
            let v = ints(4)?;
            DbCommand::EditTvd {
                mask: v[0],
                label: v[1],
                value: v[2],
                depth: v[3],
            }
        }
        "YXEDITTEXTDATABASE" => DbCommand::EditText(rest.to_string()),
        "YXEDITLABELDATABASE" => {
            let (cell, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let (x, y) = parse_pair(cell).map_err(|e| format!("{name}: {e}"))?;
            DbCommand::EditLabel {
                x,
                y,
                text: text.trim().to_string(),
            }
        }
        "YXDELETEDATABASEONE" => DbCommand::DeleteOne,
        "YXDELETEDATABASEALL" => {
            let mut it = rest.split_whitespace();
            let filter = it.next().unwrap_or("").to_string();
            let step = match it.next() {
                Some(n) => parse_int(n, "step")?,
                None => 1,
            };
            DbCommand::DeleteAll { filter, step }
        }
        _ => return Ok(None),
    }))
}

/// A whole integer; bounded so arithmetic on it cannot overflow.
pub fn parse_int(s: &str, what: &str) -> Result<i64, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err(format!("missing {what}"));
    }
    match s.parse::<i64>() {
        // (i64::MIN has no absolute value: compare against the range instead)
        Ok(v) if (-(1 << 53)..1 << 53).contains(&v) => Ok(v),
        Ok(_) => Err(format!("{what} out of range: {s}")),
        Err(_) => Err(format!("bad {what}: {s}")),
    }
}

/// `x,y` (spaces around the numbers allowed).
pub fn parse_pair(s: &str) -> Result<(i64, i64), String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != 2 {
        return Err(format!("expected x,y, got '{s}'"));
    }
    Ok((
        parse_int(parts[0], "coordinate")?,
        parse_int(parts[1], "coordinate")?,
    ))
}

/// `x,y,f` of a BOARD block.
pub fn parse_triple(s: &str) -> Result<(i64, i64, i64), String> {
    let parts: Vec<&str> = s.trim().split(',').collect();
    if parts.len() != 3 {
        return Err(format!("expected x,y,field, got '{}'", s.trim()));
    }
    Ok((
        parse_int(parts[0], "coordinate")?,
        parse_int(parts[1], "coordinate")?,
        parse_int(parts[2], "field")?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_case_insensitive() {
        assert_eq!(parse("start 15"), Ok(Some(Command::Start(15))));
        assert_eq!(
            parse("START 15 20"),
            Ok(Some(Command::StartColsRows(15, 20)))
        );
        assert_eq!(
            parse("start  20\t15 "),
            Ok(Some(Command::StartColsRows(20, 15)))
        );
        assert!(parse("START 15 x").is_err());
        assert!(parse("START 15 15 15").is_err());
        assert_eq!(parse("Turn 3,4"), Ok(Some(Command::Turn(3, 4))));
        assert_eq!(parse("TURN 3, 4"), Ok(Some(Command::Turn(3, 4))));
        assert_eq!(parse("  board "), Ok(Some(Command::Board)));
        assert_eq!(parse("yxstop"), Ok(Some(Command::Stop)));
        assert_eq!(parse("yxnbest 3"), Ok(Some(Command::YxNBest(3))));
        assert_eq!(parse("yxnbest"), Ok(Some(Command::YxNBest(2))));
        assert_eq!(
            parse("yxbalancetwo -20"),
            Ok(Some(Command::YxBalance(2, -20)))
        );
        assert_eq!(parse("yxswap2step2"), Ok(Some(Command::YxSwap2Step(2))));
        assert_eq!(
            parse("yxsoosorvstep1"),
            Ok(Some(Command::YxSoosorvStep(1, 0)))
        );
        assert_eq!(
            parse("yxsoosorvstep5 3"),
            Ok(Some(Command::YxSoosorvStep(5, 3)))
        );
        assert!(parse("yxsoosorvstep4").is_err());
        assert!(parse("yxsoosorvstep2 1").is_err());
        assert_eq!(
            parse("yxsoosorvstep7"),
            Ok(Some(Command::Unknown("yxsoosorvstep7".into())))
        );
        assert_eq!(parse("yxsearchdefend"), Ok(Some(Command::YxSearchDefend)));
        assert!(parse("yxnbest x").is_err());
        assert_eq!(parse(""), Ok(None));
    }

    #[test]
    fn info_keeps_the_value_whole() {
        assert_eq!(
            parse("INFO folder C:\\My Games\\x"),
            Ok(Some(Command::Info(
                "folder".into(),
                "C:\\My Games\\x".into()
            )))
        );
        assert_eq!(
            parse("INFO TIMEOUT_TURN 1000"),
            Ok(Some(Command::Info("timeout_turn".into(), "1000".into())))
        );
        assert_eq!(
            parse("INFO"),
            Ok(Some(Command::Info(String::new(), String::new())))
        );
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(parse("START").is_err());
        assert!(parse("START abc").is_err());
        assert!(parse("START 99999999999999999999999").is_err());
        assert!(parse("START -9223372036854775808").is_err());
        assert!(parse("TURN 1").is_err());
        assert!(parse("TURN 1,2,3").is_err());
        assert!(parse("TURN a,b").is_err());
        assert!(parse("RECTSTART 20").is_err());
        assert!(parse("BEGIN now").is_err());
        assert_eq!(parse("FOO 1"), Ok(Some(Command::Unknown("FOO".into()))));
        assert!(parse_triple("1,2").is_err());
        assert_eq!(parse_triple(" 1,2,3 "), Ok((1, 2, 3)));
    }
}
