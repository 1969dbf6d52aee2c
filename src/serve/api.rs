//! The page's requests: JSON in, JSON out. A position is always sent whole (board, rule,
//! moves in order), so the page holds the game and the server only what a search needs.
//!
//! - `position`: the position's state: who moves, renju's forbidden points, whether and how
//!   the game is over (the winning line).
//! - `move`: the engine's move in `time_ms`, with its value and line, and the state after it.
//! - `analyze`: the engine thinks until stopped; its lines (`nbest` of them) come as events.
//! - `stop`: stops the page's search.
//! - `swap2`: the engine's Swap2 step on 0, 3 or 5 stones (its opening, or its choice).
//! - `evaluate`: black's chance to win after each move of a game (`analyze`'s searches),
//!   for the graph of a loaded game.
//! - `load` / `save`: a game record (`.psq`, SGF, move list) to moves and back.

use super::{Page, State};
use crate::board::{Color, Pos};
use crate::engine::{Answer, Clock, Engine, Report, Task, ThinkLimits};
use crate::eval::{score_text, win_probability, Score};
use crate::record::{self, Defaults, Format, GameRecord};
use crate::rules::Rule;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub type Reply = tiny_http::Response<std::io::Cursor<Vec<u8>>>;

fn header(k: &str, v: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).expect("a valid header")
}

pub fn json_reply(code: u16, v: &Value) -> Reply {
    tiny_http::Response::from_data(v.to_string().into_bytes())
        .with_status_code(code)
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"))
}

pub fn error(code: u16, msg: &str) -> Reply {
    json_reply(code, &json!({ "error": msg }))
}

pub fn page() -> Reply {
    tiny_http::Response::from_data(super::PAGE.as_bytes().to_vec())
        .with_header(header("Content-Type", "text/html; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"))
}

/// A page id the page made up: 1 to 64 letters, digits or `-`.
pub fn valid_page_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Most moves a position may list (a 32×32 board's cells).
const MAX_MOVES: usize = 32 * 32;
/// The table of a game's evaluation (a request's own engine; at most [`super::MAX_HANDLERS`]
/// of them at once).
const EVALUATE_TABLE_BYTES: usize = 8 << 20;
/// The longest move the page may ask for.
const MAX_TURN_MS: u64 = 600_000;

pub fn post(state: &State, name: &str, body: &str) -> Reply {
    let v: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => return error(400, &format!("the body is not JSON: {e}")),
    };
    let page = || -> Result<Arc<Page>, Reply> {
        match v["page"].as_str() {
            Some(id) if valid_page_id(id) => Ok(state.page(id)),
            _ => Err(error(400, "a page id is needed")),
        }
    };
    let r = match name {
        "position" => page().and_then(|p| position(&p, &v)),
        "move" => page().and_then(|p| think(&p, &v)),
        "analyze" => page().and_then(|p| analyze(&p, &v)),
        "stop" => page().map(|p| {
            p.stop();
            json_reply(200, &json!({ "stopped": true }))
        }),
        "swap2" => page().and_then(|p| swap2(&p, &v)),
        "evaluate" => evaluate(&v),
        "load" => load(&v),
        "save" => save(&v),
        _ => Err(error(404, &format!("no such request: {name}"))),
    };
    r.unwrap_or_else(|e| e)
}

/// How a game ended.
struct Over {
    winner: Option<Color>,
    line: Vec<Pos>,
    reason: &'static str,
}

/// The position of `v` set up on `engine`, and whether the game is over.
fn setup(engine: &mut Engine, v: &Value) -> Result<Option<Over>, Reply> {
    let bad = |m: String| error(400, &m);
    let w = v["width"].as_i64().unwrap_or(15);
    let h = v["height"].as_i64().unwrap_or(w);
    if !Engine::size_supported(w, h) {
        return Err(bad(format!(
            "board {w}x{h} is not supported (5 to 32 each way)"
        )));
    }
    let rule = match &v["rule"] {
        Value::Null => Rule::Freestyle,
        Value::String(s) => Rule::parse(s).map_err(bad)?,
        Value::Number(n) => Rule::parse(&n.to_string()).map_err(bad)?,
        _ => return Err(bad("bad rule".into())),
    };
    let empty = Vec::new();
    let moves = match &v["moves"] {
        Value::Null => &empty,
        Value::Array(a) if a.len() <= MAX_MOVES => a,
        _ => return Err(bad("moves: a list of [x, y]".into())),
    };
    engine.stop();
    engine.new_game(w as usize, h as usize, rule);
    let mut over: Option<Over> = None;
    for (i, m) in moves.iter().enumerate() {
        let (Some(x), Some(y)) = (m[0].as_i64(), m[1].as_i64()) else {
            return Err(bad(format!("move {}: not [x, y]", i + 1)));
        };
        if over.is_some() {
            return Err(bad(format!("move {}: the game was over", i + 1)));
        }
        let p = engine
            .cell(x, y)
            .and_then(|p| engine.check_move(p).map(|_| p))
            .map_err(|e| bad(format!("move {}: {e}", i + 1)))?;
        let foul = engine.board().side() == Color::Black && engine.foul(p).is_some();
        engine.play(p).expect("checked");
        over = ended(engine, p, foul);
    }
    Ok(over)
}

/// Whether the game ended with `p`.
fn ended(engine: &Engine, p: Pos, foul: bool) -> Option<Over> {
    let b = engine.board();
    if foul {
        Some(Over {
            winner: Some(Color::White),
            line: vec![p],
            reason: "foul",
        })
    } else if b.is_five_at(p) {
        Some(Over {
            winner: b.stone(p),
            line: five_line(engine, p),
            reason: "five",
        })
    } else if b.is_full() {
        Some(Over {
            winner: None,
            line: Vec::new(),
            reason: "full",
        })
    } else {
        None
    }
}

/// The longest run through `p` of its colour (the winning line to draw).
fn five_line(engine: &Engine, p: Pos) -> Vec<Pos> {
    let b = engine.board();
    let c = b.stone(p);
    let mut best = vec![p];
    for (dx, dy) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
        let mut run = vec![p];
        for sign in [1, -1] {
            let (mut x, mut y) = (p.x() as i64, p.y() as i64);
            loop {
                x += dx * sign;
                y += dy * sign;
                match engine.cell(x, y) {
                    Ok(q) if b.stone(q) == c => run.push(q),
                    _ => break,
                }
            }
        }
        if run.len() > best.len() {
            best = run;
        }
    }
    best.sort_by_key(|q| (q.y(), q.x()));
    best
}

fn xy(p: Pos) -> Value {
    json!([p.x(), p.y()])
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// What the page draws for a position.
fn state_json(engine: &Engine, over: &Option<Over>) -> Value {
    let b = engine.board();
    let forbidden: Vec<Value> = match (over, b.side()) {
        (None, Color::Black) => engine.forbidden_points().into_iter().map(xy).collect(),
        _ => Vec::new(),
    };
    json!({
        "next": color_name(b.side()),
        "ply": b.ply(),
        "forbidden": forbidden,
        "over": over.as_ref().map(|o| json!({
            "winner": o.winner.map(color_name),
            "line": o.line.iter().map(|&p| xy(p)).collect::<Vec<_>>(),
            "reason": o.reason,
        })),
    })
}

fn score_json(score: Score, rule: Rule) -> Value {
    json!({
        "score": score,
        "value": score_text(score),
        "win": (win_probability(score, rule) * 1000.0).round() / 1000.0,
    })
}

fn position(page: &Page, v: &Value) -> Result<Reply, Reply> {
    page.stop();
    let mut e = page.engine.lock().unwrap_or_else(|e| e.into_inner());
    let over = setup(&mut e, v)?;
    Ok(json_reply(200, &state_json(&e, &over)))
}

fn clock(turn_ms: u64) -> ThinkLimits {
    ThinkLimits {
        clock: Clock {
            turn_ms,
            match_ms: 0,
            left_ms: None,
            increment_ms: 0,
        },
        max_depth: None,
        max_nodes: None,
    }
}

/// Stops the page's search, sets up the task `make` builds on its engine (with the turn of
/// `v`'s `time_ms`) and waits for the answer without holding the page, so that a `stop`
/// gets through; the engine is idle again when this returns.
fn run_task(
    page: &Page,
    v: &Value,
    make: impl FnOnce(&mut Engine, ThinkLimits) -> Result<Task, Reply>,
) -> Result<Answer, Reply> {
    let turn = v["time_ms"].as_u64().unwrap_or(1000).clamp(10, MAX_TURN_MS);
    page.stop();
    let (tx, rx) = mpsc::channel();
    {
        let mut e = page.engine.lock().unwrap_or_else(|e| e.into_inner());
        let task = make(&mut e, clock(turn))?;
        e.start(task, move |r| {
            if matches!(r, Report::Done(_) | Report::Failed(_)) {
                let _ = tx.send(r);
            }
        });
    }
    let answer = match rx.recv_timeout(Duration::from_millis(turn + 60_000)) {
        Ok(Report::Done(a)) => a,
        Ok(Report::Failed(why)) => return Err(error(500, &format!("the search failed: {why}"))),
        _ => return Err(error(500, "no answer from the search")),
    };
    page.engine.lock().unwrap_or_else(|e| e.into_inner()).wait();
    Ok(answer)
}

/// The engine's move: searched on its thread, the request waiting without holding the page,
/// so that a `stop` gets through.
fn think(page: &Page, v: &Value) -> Result<Reply, Reply> {
    let answer = run_task(page, v, |e, limits| {
        if setup(e, v)?.is_some() {
            return Err(error(409, "the game is over"));
        }
        Ok(Task::Think { limits, nbest: 1 })
    })?;
    let Answer::Move(r) = answer else {
        return Err(error(500, "not a move"));
    };
    let mut e = page.engine.lock().unwrap_or_else(|e| e.into_inner());
    let Some(best) = r.best else {
        return Err(error(409, "no legal move"));
    };
    let foul = e.board().side() == Color::Black && e.foul(best).is_some();
    e.play(best).map_err(|err| error(500, &err.to_string()))?;
    let over = ended(&e, best, foul);
    let mut reply = json!({
        "move": xy(best),
        "name": best.to_string(),
        "depth": r.depth,
        "nodes": r.nodes,
        "elapsed": r.elapsed_ms,
        "pv": r.pv.iter().map(|&p| xy(p)).collect::<Vec<_>>(),
        "state": state_json(&e, &over),
    });
    reply["eval"] = score_json(r.score, e.rule());
    Ok(json_reply(200, &reply))
}

/// Analysis until stopped: `line` events for each iteration of each of the `nbest` lines,
/// a `tick` every [`super::TICK`] with the time so far, and `done` at the end. Every event
/// carries the search's `gen`, so that the page can drop an older search's late events.
fn analyze(page: &Arc<Page>, v: &Value) -> Result<Reply, Reply> {
    let nbest = v["nbest"].as_u64().unwrap_or(1).clamp(1, 10) as usize;
    page.stop();
    let gen = page.generation.fetch_add(1, Ordering::SeqCst) + 1;
    let finished = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let state;
    {
        let mut e = page.engine.lock().unwrap_or_else(|e| e.into_inner());
        let over = setup(&mut e, v)?;
        if over.is_some() {
            return Err(error(409, "the game is over"));
        }
        state = state_json(&e, &over);
        let rule = e.rule();
        let (p, fin) = (Arc::clone(page), Arc::clone(&finished));
        let task = Task::Think {
            limits: clock(24 * 3_600_000),
            nbest,
        };
        e.start(task, move |r| match r {
            Report::Iteration(it) => {
                let mut ev = json!({
                    "type": "line", "gen": gen, "line": it.line, "depth": it.depth,
                    "seldepth": it.seldepth, "nodes": it.nodes, "elapsed": it.elapsed_ms,
                    "pv": it.pv.iter().map(|&q| xy(q)).collect::<Vec<_>>(),
                });
                ev["eval"] = score_json(it.score, rule);
                p.send(&ev);
            }
            Report::Done(_) | Report::Failed(_) => {
                fin.store(true, Ordering::SeqCst);
                p.send(&json!({ "type": "done", "gen": gen }));
            }
            Report::Line(..) => {}
        });
    }
    let p = Arc::clone(page);
    std::thread::spawn(move || loop {
        std::thread::sleep(super::TICK);
        if finished.load(Ordering::SeqCst) || p.generation.load(Ordering::SeqCst) != gen {
            return;
        }
        let tick =
            json!({ "type": "tick", "gen": gen, "elapsed": start.elapsed().as_millis() as u64 });
        if !p.send(&tick) {
            // no page hears it: it went away
            p.stop();
            return;
        }
    });
    Ok(json_reply(200, &json!({ "gen": gen, "state": state })))
}

fn load(v: &Value) -> Result<Reply, Reply> {
    let text = v["text"]
        .as_str()
        .ok_or_else(|| error(400, "text: the record"))?;
    let name = v["name"].as_str().unwrap_or("");
    let format = match Format::from_path(std::path::Path::new(name)) {
        Some(Format::Moves) | None => Format::detect(text),
        Some(f) => f,
    };
    let mut games = record::parse(text, format, Defaults::default())
        .map_err(|e| error(400, &format!("{name}: {e}")))?;
    let count = games.len();
    let g = games.remove(0);
    let rule = g.rule.unwrap_or(Rule::Freestyle);
    let moves: Vec<Value> = g.moves.iter().map(|m| json!([m.x, m.y])).collect();
    let game = json!({
        "width": g.width, "height": g.height, "rule": rule.name(), "moves": moves,
        "black": g.black, "white": g.white, "games": count,
    });
    // the moves must be playable: the page shows the error rather than a broken board
    let mut e = Engine::new();
    e.set_table_bytes(1 << 20);
    setup(&mut e, &game)?;
    Ok(json_reply(200, &game))
}

fn save(v: &Value) -> Result<Reply, Reply> {
    let mut e = Engine::new();
    e.set_table_bytes(1 << 20);
    let over = setup(&mut e, v)?;
    let b = e.board();
    let mut g = GameRecord::new(b.width(), b.height());
    g.rule = Some(b.rule());
    g.black = v["black"].as_str().map(str::to_string);
    g.white = v["white"].as_str().map(str::to_string);
    g.result = over.map(|o| match o.winner {
        Some(c) => record::Outcome::Won(c),
        None => record::Outcome::Draw,
    });
    g.moves = b
        .history()
        .iter()
        .map(|(p, _)| record::Move::at(p.x() as i64, p.y() as i64))
        .collect();
    let (format, ext) = match v["format"].as_str().unwrap_or("sgf") {
        "psq" => (Format::Psq, "psq"),
        "txt" => (Format::Moves, "txt"),
        _ => (Format::Sgf, "sgf"),
    };
    Ok(json_reply(
        200,
        &json!({ "text": record::write(&g, format), "ext": ext }),
    ))
}

/// The engine's Swap2 step on the position's stones (0, 3 or 5 of them).
fn swap2(page: &Page, v: &Value) -> Result<Reply, Reply> {
    let answer = run_task(page, v, |e, limits| {
        setup(e, v)?;
        let stones: Vec<Pos> = e.board().history().iter().map(|&(p, _)| p).collect();
        if ![0, 3, 5].contains(&stones.len()) {
            return Err(error(400, "Swap2 is decided on 0, 3 or 5 stones"));
        }
        let allow_two = stones.len() == 3;
        Ok(Task::Swap2 {
            stones,
            limits,
            allow_two,
        })
    })?;
    let Answer::Swap2(answer) = answer else {
        return Err(error(500, "not a Swap2 answer"));
    };
    use crate::engine::Swap2Answer as A;
    let reply = match answer {
        A::Opening(s) => {
            json!({ "kind": "opening", "stones": s.iter().map(|&p| xy(p)).collect::<Vec<_>>() })
        }
        A::Swap => json!({ "kind": "swap" }),
        A::Move(p) => json!({ "kind": "move", "move": xy(p) }),
        A::Two(w, b) => json!({ "kind": "two", "stones": [xy(w), xy(b)] }),
    };
    Ok(json_reply(200, &reply))
}

/// Black's chance to win after each move (index 0: the empty board), by `analyze`'s searches
/// of `time_ms` (at most 200) a position, from the last back.
fn evaluate(v: &Value) -> Result<Reply, Reply> {
    let ms = v["time_ms"].as_u64().unwrap_or(50).clamp(5, 200);
    let mut e = Engine::new();
    e.set_table_bytes(EVALUATE_TABLE_BYTES);
    setup(&mut e, v)?;
    let b = e.board();
    let mut g = GameRecord::new(b.width(), b.height());
    g.moves = b
        .history()
        .iter()
        .map(|(p, _)| record::Move::at(p.x() as i64, p.y() as i64))
        .collect();
    let game = crate::analysis::Game {
        source: "page".into(),
        record: g,
        rule: b.rule(),
    };
    let limits = crate::analysis::Limits {
        time_ms: Some(ms),
        nodes: None,
    };
    let a = crate::analysis::analyse_game(&mut e, &game, limits, &mut || {});
    let mut black = vec![Value::Null; a.game.record.moves.len() + 1];
    for m in &a.moves {
        black[m.ply + 1] = json!((m.black_win() * 1000.0).round() / 1000.0);
    }
    Ok(json_reply(200, &json!({ "black": black })))
}
