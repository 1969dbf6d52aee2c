//! What an analysis is written as: the terminal's table, JSON lines, the annotated SGF and
//! the players' report over a batch.

use super::{End, GameAnalysis, Judgement, MoveReport};
use crate::board::{Color, Pos};
use crate::eval::score_text;
use crate::record::sgf::Note;
use crate::record::{GameRecord, Move};
use serde_json::json;
use std::collections::BTreeMap;

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn pct(p: f64) -> String {
    format!("{:.0}%", p * 100.0)
}

fn line_text(pv: &[Pos], most: usize) -> String {
    let v: Vec<String> = pv.iter().take(most).map(Pos::to_string).collect();
    v.join(" ")
}

/// How the game ended, in words.
pub fn result_text(a: &GameAnalysis) -> String {
    let r = &a.game.record;
    match (&a.end, a.winner) {
        (End::Five(c), _) => format!("{} wins with five", r.player(*c)),
        (End::Foul, _) => format!("{} loses by a renju foul", r.player(Color::Black)),
        (End::Full, _) => "a draw, the board full".to_string(),
        (_, Some(c)) => format!("{} wins (by the record)", r.player(c)),
        (_, None) => "no result".to_string(),
    }
}

/// The deciding move in words, where there is one.
pub fn deciding_text(a: &GameAnalysis) -> Option<String> {
    let m = &a.moves[a.deciding?];
    let how = m
        .judgement
        .map(|j| {
            let vowel = j.name().starts_with(['a', 'e', 'i', 'o', 'u']);
            format!(", {} {}", if vowel { "an" } else { "a" }, j.name())
        })
        .unwrap_or_default();
    let best = match m.before.best {
        Some(b) if b != m.mv => format!("; best was {b} ({})", pct(m.win_best)),
        _ => String::new(),
    };
    Some(format!(
        "decided by move {} ({} {}{how}: {} -> {}{best})",
        m.ply + 1,
        color_name(m.color),
        m.mv,
        pct(m.win_best),
        pct(m.win_played),
    ))
}

/// Why the analysis stopped early, where it did.
pub fn stop_text(a: &GameAnalysis) -> Option<String> {
    match &a.end {
        End::Illegal { ply, reason } => Some(format!(
            "{}: analysis stopped at move {}: {reason}",
            a.game.source,
            ply + 1
        )),
        _ => None,
    }
}

/// One game's table for the terminal.
pub fn table(a: &GameAnalysis) -> String {
    let r = &a.game.record;
    let mut s = format!(
        "== {}: {} (black) - {} (white), {} {}x{}, {} moves; {}\n",
        a.game.source,
        r.player(Color::Black),
        r.player(Color::White),
        a.game.rule.name(),
        r.width,
        r.height,
        r.moves.len(),
        result_text(a)
    );
    s += "move  side   played  value   win | best   value   win |  loss  judgement    line\n";
    for (i, m) in a.moves.iter().enumerate() {
        let best = m.before.best.map(|b| b.to_string()).unwrap_or("--".into());
        let loss = if m.loss() >= 0.005 {
            pct(m.loss())
        } else {
            String::new()
        };
        let mut judgement = m.judgement.map(Judgement::name).unwrap_or("").to_string();
        if a.deciding == Some(i) {
            judgement += " (decisive)";
        }
        s += &format!(
            "{:>4}  {:<5}  {:<6} {:>6} {:>5} | {:<6} {:>5} {:>5} | {:>5}  {:<12} {}\n",
            m.ply + 1,
            color_name(m.color),
            m.mv.to_string(),
            score_text(m.played),
            pct(m.win_played),
            best,
            score_text(m.best),
            pct(m.win_best),
            loss,
            judgement,
            line_text(&m.before.pv, 8)
        );
    }
    for t in [deciding_text(a), stop_text(a)].into_iter().flatten() {
        s += &t;
        s += "\n";
    }
    s
}

/// One JSON object per analysed move.
pub fn json_moves(a: &GameAnalysis) -> Vec<serde_json::Value> {
    a.moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            json!({
                "source": a.game.source,
                "ply": m.ply + 1,
                "color": color_name(m.color),
                "player": a.game.record.player(m.color),
                "move": m.mv.to_string(),
                "x": m.mv.x(),
                "y": m.mv.y(),
                "score": m.played,
                "value": score_text(m.played),
                "win_probability": round3(m.win_played),
                "best": m.before.best.map(|b| b.to_string()),
                "best_score": m.best,
                "best_value": score_text(m.best),
                "best_win_probability": round3(m.win_best),
                "pv": m.before.pv.iter().map(Pos::to_string).collect::<Vec<_>>(),
                "depth": m.before.depth,
                "nodes": m.before.nodes,
                "loss": round3(m.loss()),
                "judgement": m.judgement.map(Judgement::name),
                "decisive": a.deciding == Some(i),
            })
        })
        .collect()
}

fn round3(p: f64) -> f64 {
    (p * 1000.0).round() / 1000.0
}

/// The game as SGF: every analysed move commented, the best line as a variation where the
/// move played was not the best, and the analysis summed up on the last move.
pub fn annotated_sgf(a: &GameAnalysis) -> String {
    let mut record: GameRecord = a.game.record.clone();
    let legal = match &a.end {
        End::Illegal { ply, .. } => *ply,
        _ => record.moves.len(),
    };
    record.moves.truncate(legal);
    record.rule = Some(a.game.rule);
    let mut notes = vec![Note::default(); record.moves.len()];
    for (i, m) in a.moves.iter().enumerate() {
        let n = &mut notes[m.ply];
        n.comment = move_comment(m, a.deciding == Some(i));
        if m.before.best.is_some_and(|b| b != m.mv) {
            n.variation = m
                .before
                .pv
                .iter()
                .map(|p| (p.x() as i64, p.y() as i64))
                .collect();
            n.variation_comment = format!(
                "Rensa's line: {} ({})",
                score_text(m.before.score),
                pct(m.win_best)
            );
        }
    }
    if let Some(last) = notes.last_mut() {
        for t in [Some(result_text(a)), deciding_text(a), stop_text(a)]
            .into_iter()
            .flatten()
        {
            last.comment += &format!("\n{t}");
        }
    }
    crate::record::sgf::write(&record, &notes)
}

fn move_comment(m: &MoveReport, decisive: bool) -> String {
    let mut c = format!(
        "{}: {} ({} to win)",
        m.mv,
        score_text(m.played),
        pct(m.win_played)
    );
    if let Some(b) = m.before.best.filter(|&b| b != m.mv) {
        c += &format!("; best {b}: {} ({})", score_text(m.best), pct(m.win_best));
    }
    if let Some(j) = m.judgement {
        c += &format!("\n{}: -{}", capitalised(j.name()), pct(m.loss()));
    }
    if decisive {
        c += "\nThe move that decided the game.";
    }
    c
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A player's figures over a batch.
#[derive(Default, Debug)]
pub struct PlayerStats {
    pub games: usize,
    pub moves: usize,
    pub loss_sum: f64,
    /// Counts by [`Judgement`] in its order.
    pub judged: [usize; 5],
    pub decisive: usize,
    /// (loss, source, move number, move, best, the moves before it)
    pub worst: Vec<(f64, String, usize, Pos, Option<Pos>, String)>,
}

impl PlayerStats {
    pub fn average_loss(&self) -> f64 {
        self.loss_sum / self.moves.max(1) as f64
    }

    pub fn blunders_per_game(&self) -> f64 {
        let b = self.judged[Judgement::Blunder as usize]
            + self.judged[Judgement::MissedWin as usize]
            + self.judged[Judgement::Foul as usize];
        b as f64 / self.games.max(1) as f64
    }
}

/// The worst moves kept per player.
const WORST: usize = 5;

/// Figures per player's name over `games`.
pub fn players(games: &[GameAnalysis]) -> BTreeMap<String, PlayerStats> {
    let mut out: BTreeMap<String, PlayerStats> = BTreeMap::new();
    for a in games {
        let r = &a.game.record;
        for c in [Color::Black, Color::White] {
            out.entry(r.player(c).to_string()).or_default().games += 1;
        }
        for (i, m) in a.moves.iter().enumerate() {
            let st = out.entry(r.player(m.color).to_string()).or_default();
            st.moves += 1;
            st.loss_sum += m.loss();
            if let Some(j) = m.judgement {
                st.judged[j as usize] += 1;
            }
            if a.deciding == Some(i) {
                st.decisive += 1;
            }
            if m.loss() > 0.0 {
                let before = moves_text(&r.moves[..m.ply]);
                st.worst.push((
                    m.loss(),
                    a.game.source.clone(),
                    m.ply + 1,
                    m.mv,
                    m.before.best,
                    before,
                ));
                st.worst.sort_by(|a, b| b.0.total_cmp(&a.0));
                st.worst.truncate(WORST);
            }
        }
    }
    out
}

fn moves_text(moves: &[Move]) -> String {
    let v: Vec<String> = moves
        .iter()
        .map(|m| Pos::at(m.x, m.y).map(|p| p.to_string()).unwrap_or_default())
        .collect();
    v.join(" ")
}

/// The players' report of a batch.
pub fn report(games: &[GameAnalysis]) -> String {
    let stats = players(games);
    let mut s = format!("== report: {} games\n", games.len());
    s += "player                  games  moves  avg loss  inacc  mistakes  blunders  missed wins  fouls  decisive  blunders/game\n";
    for (name, st) in &stats {
        let j = &st.judged;
        s += &format!(
            "{:<22} {:>6} {:>6} {:>8.1}% {:>6} {:>9} {:>9} {:>12} {:>6} {:>9} {:>14.2}\n",
            truncate(name, 22),
            st.games,
            st.moves,
            st.average_loss() * 100.0,
            j[0],
            j[1],
            j[2],
            j[3],
            j[4],
            st.decisive,
            st.blunders_per_game()
        );
    }
    for (name, st) in &stats {
        if st.worst.is_empty() {
            continue;
        }
        s += &format!("worst moves of {name}:\n");
        for (loss, source, n, mv, best, before) in &st.worst {
            let best = best.map(|b| format!(", best {b}")).unwrap_or_default();
            s += &format!(
                "  -{} {source} move {n}: {mv}{best}; position: {before}\n",
                pct(*loss)
            );
        }
    }
    s
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
