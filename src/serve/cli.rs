//! `pbrain-rensa serve`: its options and start-up line.

use super::{Options, Server};
use anyhow::{Context, Result};
use std::net::{IpAddr, SocketAddr};

#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on (0: any free one, printed at start).
    #[arg(long, short, default_value_t = 8073)]
    pub port: u16,
    /// Address to listen on. The default serves this machine only; another address lets
    /// other machines play on this engine.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the page in the system's browser.
    #[arg(long)]
    pub open: bool,
    /// Search threads of each page's engine.
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
    /// Memory for each page's engine, MiB.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(16..=65536))]
    pub memory: u64,
}

pub fn main(a: Args) -> Result<()> {
    let options = Options {
        threads: a.threads.max(1),
        memory: a.memory << 20,
    };
    let server = Server::bind(SocketAddr::new(a.host, a.port), options)?;
    let addr = server.addr();
    let shown = if addr.ip().is_unspecified() {
        SocketAddr::new(IpAddr::from([127, 0, 0, 1]), addr.port())
    } else {
        addr
    };
    let url = format!("http://{shown}/");
    println!("Rensa's board: {url} (Ctrl-C to stop)");
    if !a.host.is_loopback() {
        println!(
            "listening on {}: other machines that reach this address can use the engine",
            addr
        );
    }
    if a.open {
        open_browser(&url).context("opening the browser")?;
    }
    server.run();
    Ok(())
}

fn open_browser(url: &str) -> Result<()> {
    let mut cmd = if cfg!(target_os = "windows") {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else {
        std::process::Command::new("xdg-open")
    };
    cmd.arg(url).spawn()?;
    Ok(())
}
