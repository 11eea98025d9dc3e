//! scramble: solve and study edge-matching puzzles such as Scramble Squares.
//!
//! Layers, each depending only on those above it:
//! [`puzzle`] -> [`board`] -> [`symmetry`] -> [`model`] -> [`cpsat`] ->
//! [`solve`] -> [`render`] -> [`cli`]. See docs/architecture.md.

pub mod backtrack;
pub mod bench;
pub mod best;
pub mod board;
pub mod cli;
pub mod compare;
pub mod count;
pub mod cpsat;
pub mod experiment;
pub(crate) mod files;
pub mod generate;
pub mod graph;
pub mod merge;
pub mod model;
pub mod puzzle;
pub mod render;
pub mod report;
pub mod rng;
pub mod solve;
pub mod symmetry;
