use super::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::time::Instant;

/// A server on a free port, running on its own thread, and its shared state.
fn start_with_state() -> (SocketAddr, Arc<State>) {
    let o = Options {
        threads: 1,
        memory: 64 << 20,
    };
    let s = Server::bind("127.0.0.1:0".parse().unwrap(), o).unwrap();
    let (addr, state) = (s.addr(), Arc::clone(&s.state));
    std::thread::spawn(move || s.run());
    (addr, state)
}

fn start() -> SocketAddr {
    start_with_state().0
}

/// Black makes five on the bottom row with its fifth stone.
fn five() -> Value {
    json!([
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
        [2, 0],
        [2, 1],
        [3, 0],
        [3, 1],
        [4, 0]
    ])
}

/// A request and its (status, body).
fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, body.to_string())
}

fn post(addr: SocketAddr, name: &str, v: Value) -> (u16, Value) {
    let (status, body) = request(addr, "POST", &format!("/api/{name}"), &v.to_string());
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

#[test]
fn the_page_is_served_whole_with_its_hooks() {
    let addr = start();
    let (status, page) = request(addr, "GET", "/", "");
    assert_eq!(status, 200);
    // self-contained: no script, style or font from elsewhere
    assert!(!page.contains("http://") && !page.contains("https://"));
    for hook in [
        "data-cell",
        "data-stone",
        "data-forbidden",
        "/api/events",
        "EventSource",
    ] {
        assert!(page.contains(hook), "{hook}");
    }
    assert_eq!(request(addr, "GET", "/nothing", "").0, 404);
    assert_eq!(request(addr, "PUT", "/", "").0, 405);
}

#[test]
fn positions_say_who_moves_what_is_forbidden_and_how_it_ended() {
    let addr = start();
    // renju: j8 would make two open threes for black
    let moves = json!([
        [7, 7],
        [0, 0],
        [8, 7],
        [0, 2],
        [9, 8],
        [0, 4],
        [9, 9],
        [14, 14]
    ]);
    let (s, v) = post(
        addr,
        "position",
        json!({"page": "a", "rule": "renju", "moves": moves}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["next"], "black");
    assert!(
        v["forbidden"].as_array().unwrap().contains(&json!([9, 7])),
        "{v}"
    );
    // a five: the line to draw
    let five = five();
    let (_, v) = post(addr, "position", json!({"page": "a", "moves": five}));
    assert_eq!(v["over"]["winner"], "black");
    assert_eq!(
        v["over"]["line"],
        json!([[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]])
    );
    // bad positions get a reason
    for (body, why) in [
        (json!({"page": "a", "moves": [[7, 7], [7, 7]]}), "move 2"),
        (json!({"page": "a", "moves": [[7, 70]]}), "off the board"),
        (json!({"page": "a", "width": 40}), "not supported"),
        (json!({"page": "a", "rule": "go"}), "rule"),
        (json!({"page": "a", "moves": "h8"}), "moves"),
        (json!({"moves": []}), "page id"),
        (json!({"page": "a b"}), "page id"),
    ] {
        let (s, v) = post(addr, "position", body.clone());
        assert_eq!(s, 400, "{body}");
        assert!(v["error"].as_str().unwrap().contains(why), "{body}: {v}");
    }
    let (s, body) = request(addr, "POST", "/api/position", "{not json");
    assert_eq!(s, 400);
    assert!(body.contains("not JSON"));
    let huge = "x".repeat(MAX_BODY as usize + 10);
    assert_eq!(request(addr, "POST", "/api/load", &huge).0, 413);
}

#[test]
fn the_engine_answers_within_its_time() {
    let addr = start();
    let t = Instant::now();
    let (s, v) = post(
        addr,
        "move",
        json!({"page": "m", "moves": [[7, 7]], "time_ms": 200}),
    );
    let ms = t.elapsed().as_millis() as u64;
    assert_eq!(s, 200, "{v}");
    assert!(v["move"].is_array() && v["eval"]["win"].is_number(), "{v}");
    assert_eq!(v["state"]["next"], "black");
    assert!(v["elapsed"].as_u64().unwrap() <= 400, "{v}");
    assert!(ms < 200 + 2_000, "{ms} ms");
    let over = five();
    assert_eq!(
        post(addr, "move", json!({"page": "m", "moves": over})).0,
        409
    );
}

/// The events of a page's stream, as they come.
fn events(addr: SocketAddr, page: &str) -> (TcpStream, std::sync::mpsc::Receiver<Value>) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET /api/events?page={page} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let reader = BufReader::new(s.try_clone().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in reader.lines() {
            let Ok(line) = line else { return };
            if let Some(data) = line.strip_prefix("data: ") {
                if tx.send(serde_json::from_str(data).unwrap()).is_err() {
                    return;
                }
            }
        }
    });
    std::thread::sleep(Duration::from_millis(100));
    (s, rx)
}

#[test]
fn analysis_streams_lines_and_ticks_until_stopped() {
    let addr = start();
    let (_stream, rx) = events(addr, "e");
    let (s, v) = post(
        addr,
        "analyze",
        json!({"page": "e", "moves": [[7, 7]], "nbest": 2}),
    );
    assert_eq!(s, 200, "{v}");
    let gen = v["gen"].clone();
    let until = Instant::now() + Duration::from_millis(1200);
    let (mut lines, mut ticks, mut at) = (std::collections::HashSet::new(), 0, Vec::new());
    while Instant::now() < until {
        if let Ok(e) = rx.recv_timeout(Duration::from_millis(50)) {
            assert_eq!(e["gen"], gen);
            at.push(Instant::now());
            match e["type"].as_str() {
                Some("line") => {
                    lines.insert(e["line"].as_u64().unwrap());
                }
                Some("tick") => ticks += 1,
                other => panic!("{other:?} before the stop"),
            }
        }
    }
    assert_eq!(lines, [0, 1].into_iter().collect());
    assert!(ticks >= 4, "{ticks} ticks");
    let gap = at.windows(2).map(|w| w[1] - w[0]).max().unwrap();
    assert!(gap < Duration::from_millis(250), "{gap:?} without an event");
    assert_eq!(post(addr, "stop", json!({"page": "e"})).0, 200);
    let done = (0..200)
        .filter_map(|_| rx.recv_timeout(Duration::from_millis(50)).ok())
        .find(|e| e["type"] == "done");
    assert!(done.is_some_and(|d| d["gen"] == gen));
}

#[test]
fn a_page_that_goes_away_stops_its_search() {
    let (addr, state) = start_with_state();
    let (stream, _rx) = events(addr, "gone");
    let (code, _) = post(addr, "analyze", json!({"page": "gone", "moves": [[7, 7]]}));
    assert_eq!(code, 200);
    let page = state.page("gone");
    assert!(page.engine.lock().unwrap().busy());
    drop(stream);
    drop(_rx);
    let t = Instant::now();
    while page.engine.lock().unwrap().busy() {
        assert!(t.elapsed() < Duration::from_secs(5), "still searching");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn pages_are_bounded() {
    let s = State::new(Options {
        threads: 1,
        memory: 32 << 20,
    });
    let first = s.page("p0");
    let (tx, rx) = mpsc::channel();
    *first.events.lock().unwrap() = Some(tx);
    for i in 1..=MAX_PAGES {
        s.page(&format!("p{i}"));
    }
    let map = s.pages.lock().unwrap();
    assert_eq!(map.0.len(), MAX_PAGES);
    assert!(!map.0.contains_key("p0"));
    assert!(
        first.generation.load(Ordering::SeqCst) > 0,
        "the dropped page was stopped"
    );
    // and its event stream ended
    let ended: Result<String, _> = rx.try_recv();
    assert!(matches!(ended, Err(mpsc::TryRecvError::Disconnected)));
}

#[test]
fn records_load_and_save_and_games_evaluate() {
    let addr = start();
    let psq = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/records/gomocup-rensa-rapfi.psq"
    ))
    .unwrap();
    let (s, g) = post(addr, "load", json!({"text": psq, "name": "g.psq"}));
    assert_eq!(s, 200, "{g}");
    assert_eq!(
        (g["width"].as_u64(), g["moves"].as_array().unwrap().len()),
        (Some(15), 32)
    );
    assert_eq!(
        (&g["black"], &g["white"]),
        (&json!("rensa"), &json!("rapfi"))
    );
    let (s, v) = post(
        addr,
        "load",
        json!({"text": "(;SZ[15];B[hh];B[ii])", "name": "x.sgf"}),
    );
    assert_eq!(s, 400);
    assert!(
        v["error"].as_str().unwrap().contains("x.sgf: line 1"),
        "{v}"
    );
    let (s, v) = post(addr, "load", json!({"text": "h8 h8", "name": "x.txt"}));
    assert_eq!(s, 400, "{v}");
    for (format, start) in [
        ("sgf", "(;FF[4]"),
        ("psq", "Piskvorky 15x15"),
        ("txt", "# rensa game"),
    ] {
        let body =
            json!({"moves": g["moves"], "format": format, "black": "rensa", "white": "rapfi"});
        let (s, v) = post(addr, "save", body);
        assert_eq!(s, 200);
        let text = v["text"].as_str().unwrap();
        assert!(text.starts_with(start), "{text}");
        let back = crate::record::parse(
            text,
            crate::record::Format::detect(text),
            Default::default(),
        )
        .unwrap()
        .remove(0);
        assert_eq!(back.moves.len(), 32);
        assert_eq!(
            back.result,
            Some(crate::record::Outcome::Won(crate::board::Color::White))
        );
    }
    let (s, v) = post(addr, "evaluate", json!({"moves": g["moves"], "time_ms": 5}));
    assert_eq!(s, 200);
    let black = v["black"].as_array().unwrap();
    assert_eq!(black.len(), 33);
    assert!(black[0].is_null() && black[1..].iter().all(Value::is_number));
    assert_eq!(black[32], json!(0.0), "white made five with move 32");
}

#[test]
fn swap2_steps_answer_in_kind() {
    let addr = start();
    let (s, v) = post(
        addr,
        "swap2",
        json!({"page": "s", "moves": [], "time_ms": 100}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["kind"], "opening");
    let three = v["stones"].clone();
    assert_eq!(three.as_array().unwrap().len(), 3);
    let (s, v) = post(
        addr,
        "swap2",
        json!({"page": "s", "moves": three, "time_ms": 100}),
    );
    assert_eq!(s, 200, "{v}");
    assert!(
        ["swap", "move", "two"].contains(&v["kind"].as_str().unwrap()),
        "{v}"
    );
    let (s, _) = post(addr, "swap2", json!({"page": "s", "moves": [[7, 7]]}));
    assert_eq!(s, 400);
}
