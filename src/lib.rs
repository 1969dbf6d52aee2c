//! Rensa: a gomoku engine for every Gomocup rule.
//!
//! Layers, each depending only on those above it: [`board`] and [`rules`] and [`pattern`]
//! (no I/O) → [`eval`] and [`search`] → [`engine`] (the API any front-end uses) →
//! [`protocol`] (Gomocup/Piskvork text) and [`play`] (a game in the terminal) → `main.rs`.
//! [`solve`] (exact m,n,k-games on a bitboard) stands apart and uses no other module.

pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod pattern;
pub mod play;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod solve;
