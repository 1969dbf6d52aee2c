//! `pbrain-rensa analyze`: games already played, judged move by move ([`crate::analysis`]).
//!
//! [`input`] gathers the games (files, folders, ZIPs), [`output`] writes the table, JSON,
//! annotated SGF and the players' report, [`svg`] the win-probability graph, [`cli`] runs a
//! batch over worker threads with a progress bar.

pub mod cli;
pub mod input;
pub mod output;
pub mod svg;
#[cfg(test)]
mod tests;

pub use crate::analysis::{
    analyse_game, assemble, replay_game, search_positions, End, Game, GameAnalysis, Judgement,
    Limits, MoveReport, Replayed, Searched,
};
