//! Rensa: a gomoku engine.
