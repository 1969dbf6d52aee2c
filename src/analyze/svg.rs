//! The win-probability graph of a game as SVG: black's chance after each analysed move, one
//! point per move (`<circle class="point" data-move="N">`), the judged moves marked in their
//! colour with a tooltip, the deciding move ringed.
//!
//! Written by hand rather than with a plotting crate: the graph is one line and its points,
//! and the tests (and anyone scripting over the file) rely on exactly one element per move
//! with its move number, which a general plotting library does not promise.

use super::{GameAnalysis, Judgement};
use crate::board::Color;
use std::fmt::Write;

const W: f64 = 760.0;
const H: f64 = 300.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 36.0;

fn colour(j: Option<Judgement>) -> &'static str {
    match j {
        None => "#4a6fa5",
        Some(Judgement::Inaccuracy) => "#e0b000",
        Some(Judgement::Mistake) => "#e07000",
        Some(Judgement::Blunder | Judgement::MissedWin | Judgement::Foul) => "#d01010",
    }
}

pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub fn graph(a: &GameAnalysis) -> String {
    let r = &a.game.record;
    let plot_w = W - LEFT - RIGHT;
    let plot_h = H - TOP - BOTTOM;
    let first = a.moves.first().map_or(0, |m| m.ply);
    let last = a.moves.last().map_or(1, |m| m.ply).max(first + 1);
    let x_of = |ply: usize| LEFT + (ply - first) as f64 * plot_w / (last - first) as f64;
    let y_of = |p: f64| TOP + (1.0 - p) * plot_h;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let title = format!(
        "{}: {} (black) - {} (white), black's chance to win",
        a.game.source,
        r.player(Color::Black),
        r.player(Color::White)
    );
    let _ = writeln!(s, "<title>{}</title>", escape(&title));
    let _ = writeln!(s, "<rect width=\"{W}\" height=\"{H}\" fill=\"white\"/>");
    let _ = writeln!(
        s,
        "<text x=\"{LEFT}\" y=\"20\" font-size=\"13\">{}</text>",
        escape(&title)
    );
    // the frame, the 50% line and the axes' labels
    let _ = writeln!(
        s,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"#f6f6f6\" stroke=\"#999\"/>"
    );
    for (p, label) in [(1.0, "100%"), (0.5, "50%"), (0.0, "0%")] {
        let y = y_of(p);
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#ccc\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{label}</text>",
            LEFT + plot_w,
            LEFT - 6.0,
            y + 4.0
        );
    }
    let step = ((last - first) / 10).max(1).div_ceil(5) * 5;
    let mut n = (first + 1).div_ceil(step) * step;
    while n <= last + 1 {
        let x = x_of(n - 1);
        let _ = writeln!(
            s,
            "<text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{n}</text>",
            H - BOTTOM + 16.0
        );
        n += step;
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">move</text>",
        LEFT + plot_w / 2.0,
        H - 4.0
    );
    let points: Vec<String> = a
        .moves
        .iter()
        .map(|m| format!("{:.1},{:.1}", x_of(m.ply), y_of(m.black_win())))
        .collect();
    let _ = writeln!(
        s,
        "<polyline fill=\"none\" stroke=\"#4a6fa5\" stroke-width=\"1.5\" points=\"{}\"/>",
        points.join(" ")
    );
    for (i, m) in a.moves.iter().enumerate() {
        let (x, y) = (x_of(m.ply), y_of(m.black_win()));
        let decisive = a.deciding == Some(i);
        if decisive {
            let _ = writeln!(
                s,
                "<circle class=\"decisive\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"8\" fill=\"none\" stroke=\"#d01010\" stroke-width=\"2\"/>"
            );
        }
        let class = match m.judgement {
            Some(j) => format!("point {}", j.name().replace(' ', "-")),
            None => "point".to_string(),
        };
        let r = if m.judgement.is_some() { 4.5 } else { 2.5 };
        let tip = format!(
            "{} {} {}: black {:.0}%{}",
            m.ply + 1,
            if m.color == Color::Black {
                "black"
            } else {
                "white"
            },
            m.mv,
            m.black_win() * 100.0,
            m.judgement
                .map(|j| format!(" ({}, -{:.0}%)", j.name(), m.loss() * 100.0))
                .unwrap_or_default()
        );
        let _ = writeln!(
            s,
            "<circle class=\"{class}\" data-move=\"{}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r}\" fill=\"{}\"><title>{}</title></circle>",
            m.ply + 1,
            colour(m.judgement),
            escape(&tip)
        );
    }
    s += "</svg>\n";
    s
}
