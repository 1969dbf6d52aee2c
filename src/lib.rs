//! Rensa: a gomoku engine for every Gomocup rule.
//!
//! Layers, each depending only on those above it: [`geometry`] (colours, cells, directions,
//! the plain grid) → [`rules`] and [`pattern`] → [`board`] (no I/O) → [`eval`] →
//! [`search`] → [`engine`] (the API any front-end uses) → [`protocol`] (Gomocup/Piskvork
//! text) and [`bench`] → `main.rs`.

pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod geometry;
pub mod pattern;
pub mod protocol;
pub mod rules;
pub mod search;
