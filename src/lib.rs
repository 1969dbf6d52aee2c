//! Rensa: a gomoku engine for every Gomocup rule.
//!
//! Layers, each depending only on those above it: [`geometry`] (colours, cells, directions,
//! the plain grid) → [`rules`], [`pattern`] and [`cells`] → [`board`] (no I/O) → [`eval`] →
//! [`search`] → [`engine`] (the API any front-end uses) → [`analysis`] (a played game judged
//! move by move) → the front-ends, siblings: [`protocol`] (Gomocup/Piskvork text), [`play`]
//! (a game in the terminal), [`analyze`] (record files judged), [`serve`] (a board in the
//! browser), [`selfplay`] and [`bench`] → `main.rs`. [`record`] (game records: `.psq`, SGF,
//! move lists) uses only `geometry` and `rules`, for whoever reads or writes a game.
//! [`database`] (Yixin's position database: keys under the board's symmetries, the file
//! format, merge, split, RenLib import) sits between [`eval`] and [`search`], which reads
//! it and writes what it finds; [`dbtool`] is its command-line front-end. [`solve`]
//! (exact m,n,k-games on a bitboard) stands apart, using only `geometry` to name cells in
//! its report; [`platform`] (the CPUs this process may use, giving memory back) and [`rng`]
//! (the one seeded generator) are below them all.

pub mod analysis;
pub mod analyze;
pub mod bench;
pub mod board;
pub mod cells;
pub mod database;
pub mod dbtool;
pub mod engine;
pub mod eval;
pub mod geometry;
pub mod pattern;
pub mod platform;
pub mod play;
pub mod protocol;
pub mod record;
pub mod rng;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod serve;
pub mod solve;
