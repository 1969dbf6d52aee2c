//! `pbrain-rensa serve`: a board in the browser, served by the engine on the person's own
//! machine. One self-contained page (`page.html`, compiled in: no network, no CDN) talks to
//! the engine API over JSON requests ([`api`]) and hears live analysis as server-sent events.
//!
//! Each open page has its own engine (found by the id the page makes up), and runs one search
//! at a time: a new request stops the page's search first, and the search stops when the
//! page's event stream closes (the page went away). Bounded everywhere: request bodies,
//! handler threads, pages (the oldest goes when a new one comes), an engine's memory.
//!
//! Built on `tiny_http`: a small synchronous HTTP/1.1 server with no async runtime, which is
//! all one local page needs; the event stream writes its response by hand on the request's
//! own connection, flushed event by event.

pub mod api;
pub mod cli;
#[cfg(test)]
mod tests;

use crate::engine::Engine;
use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The page, compiled in.
pub const PAGE: &str = include_str!("page.html");

/// The largest request body taken (a loaded record is a few KiB).
pub const MAX_BODY: u64 = 1 << 20;
/// Requests handled at once; more wait in the kernel's queue or get 503.
pub const MAX_HANDLERS: usize = 32;
/// Pages with an engine at once: a new page's engine replaces the least recently used.
pub const MAX_PAGES: usize = 4;
/// How often a running analysis says it is alive (the page shows the time and the lines).
pub const TICK: Duration = Duration::from_millis(200);

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    /// Memory for one page's engine, bytes (0 = the engine's default).
    pub memory: u64,
}

/// A page's engine and its event stream.
pub struct Page {
    pub engine: Mutex<Engine>,
    /// The page's open event stream, if any.
    events: Mutex<Option<Sender<String>>>,
    /// Bumped by every new search, so that an old search's reports and ticks stop.
    pub generation: AtomicU64,
}

impl Page {
    fn new(o: &Options) -> Page {
        let mut engine = Engine::new();
        if o.memory > 0 {
            engine.set_memory_limit(o.memory);
        }
        engine.set_threads(o.threads.max(1));
        Page {
            engine: Mutex::new(engine),
            events: Mutex::new(None),
            generation: AtomicU64::new(0),
        }
    }

    /// Sends one event to the page; false when no stream is open or it has closed.
    pub fn send(&self, json: &serde_json::Value) -> bool {
        let mut ev = self.events.lock().unwrap_or_else(|e| e.into_inner());
        match ev.as_ref().map(|tx| tx.send(json.to_string())) {
            Some(Ok(())) => true,
            Some(Err(_)) => {
                *ev = None;
                false
            }
            None => false,
        }
    }

    /// Stops the page's search, if one runs (it reports `done` when it has stopped).
    pub fn stop(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.engine.lock().unwrap_or_else(|e| e.into_inner()).stop();
    }
}

/// The pages by id, and their ids from the least recently used.
type Pages = (HashMap<String, Arc<Page>>, VecDeque<String>);

/// What every handler shares.
pub struct State {
    pub options: Options,
    pages: Mutex<Pages>,
    handlers: AtomicUsize,
}

impl State {
    pub fn new(options: Options) -> State {
        State {
            options,
            pages: Mutex::new((HashMap::new(), VecDeque::new())),
            handlers: AtomicUsize::new(0),
        }
    }

    /// The page `id`'s engine, made on first use.
    pub fn page(&self, id: &str) -> Arc<Page> {
        let mut guard = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        let (map, order) = &mut *guard;
        order.retain(|p| p != id);
        order.push_back(id.to_string());
        if let Some(p) = map.get(id) {
            return Arc::clone(p);
        }
        while map.len() >= MAX_PAGES {
            let Some(old) = order.pop_front() else { break };
            if let Some(p) = map.remove(&old) {
                p.stop();
                // its event stream ends too, and frees its handler
                *p.events.lock().unwrap_or_else(|e| e.into_inner()) = None;
            }
        }
        let p = Arc::new(Page::new(&self.options));
        map.insert(id.to_string(), Arc::clone(&p));
        p
    }
}

/// A bound server.
pub struct Server {
    http: tiny_http::Server,
    state: Arc<State>,
}

impl Server {
    pub fn bind(addr: SocketAddr, options: Options) -> anyhow::Result<Server> {
        let http = tiny_http::Server::http(addr)
            .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        Ok(Server {
            http,
            state: Arc::new(State::new(options)),
        })
    }

    /// The address bound (its port, where 0 was asked).
    pub fn addr(&self) -> SocketAddr {
        self.http.server_addr().to_ip().expect("an IP listener")
    }

    /// Serves until the process ends.
    pub fn run(self) {
        for request in self.http.incoming_requests() {
            let state = Arc::clone(&self.state);
            if state.handlers.fetch_add(1, Ordering::SeqCst) >= MAX_HANDLERS {
                state.handlers.fetch_sub(1, Ordering::SeqCst);
                let _ = request.respond(api::error(503, "too many requests at once"));
                continue;
            }
            let spawned = std::thread::Builder::new()
                .name("rensa-serve".into())
                .spawn(move || {
                    handle(&state, request);
                    state.handlers.fetch_sub(1, Ordering::SeqCst);
                });
            if spawned.is_err() {
                self.state.handlers.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
}

fn handle(state: &Arc<State>, mut request: tiny_http::Request) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().clone();
    use tiny_http::Method::{Get, Post};
    let response = match (&method, path) {
        (Get, "/") | (Get, "/index.html") => api::page(),
        (Get, "/api/events") => {
            let id = query_value(query, "page").unwrap_or_default();
            return events(state, request, &id);
        }
        (Post, p) if p.starts_with("/api/") => match read_body(&mut request) {
            Ok(body) => api::post(state, &p["/api/".len()..], &body),
            Err(r) => r,
        },
        (Get, "/favicon.ico") => api::error(404, "no icon"),
        (Get, _) | (Post, _) => api::error(404, &format!("no such page: {path}")),
        _ => api::error(405, "only GET and POST"),
    };
    let _ = request.respond(response);
}

fn query_value(query: &str, key: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.to_string())
}

fn read_body(request: &mut tiny_http::Request) -> Result<String, api::Reply> {
    if request.body_length().is_some_and(|n| n as u64 > MAX_BODY) {
        return Err(api::error(413, "request too large"));
    }
    let mut body = String::new();
    let read = request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_string(&mut body);
    match read {
        Ok(n) if n as u64 > MAX_BODY => Err(api::error(413, "request too large")),
        Ok(_) => Ok(body),
        Err(_) => Err(api::error(400, "the body is not UTF-8 text")),
    }
}

/// The page's event stream: `text/event-stream` on this connection until either side closes.
/// A page has one; a new one replaces the old.
fn events(state: &Arc<State>, request: tiny_http::Request, id: &str) {
    if !api::valid_page_id(id) {
        let _ = request.respond(api::error(400, "a page id is needed: /api/events?page=ID"));
        return;
    }
    let page = state.page(id);
    let (tx, rx): (Sender<String>, Receiver<String>) = mpsc::channel();
    *page.events.lock().unwrap_or_else(|e| e.into_inner()) = Some(tx.clone());
    let mut w = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
    if w.write_all(head.as_bytes())
        .and_then(|_| w.flush())
        .is_err()
    {
        return;
    }
    drop(tx);
    // a comment line now and then finds a closed connection even when nothing runs
    loop {
        let msg = match rx.recv_timeout(Duration::from_secs(5)) {
            Ok(json) => format!("data: {json}\n\n"),
            Err(mpsc::RecvTimeoutError::Timeout) => ": alive\n\n".to_string(),
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        if w.write_all(msg.as_bytes()).and_then(|_| w.flush()).is_err() {
            // the page went away: its search stops with it
            *page.events.lock().unwrap_or_else(|e| e.into_inner()) = None;
            page.stop();
            return;
        }
    }
}
