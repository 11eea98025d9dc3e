//! scramble: solve and study edge-matching puzzles such as Scramble Squares.
//!
//! Layers, each depending only on those above it:
//! [`puzzle`] -> [`board`] -> [`model`] -> [`symmetry`] (beside it
//! [`generate`]) -> [`solve`] -> [`cpsat`] / [`backtrack`] -> [`render`],
//! [`compare`], [`experiment`], [`bench`], [`count`], [`best`] -> [`cli`].
//! See docs/architecture.md for every module and why.
//!
//! `pub` reaches outside the crate (the binary, the Python package, the
//! tests and benchmarks); an item used only inside is `pub(crate)` or
//! narrower, which `unreachable_pub` checks.
//!
//! Only [`cpsat`] has `unsafe` (its C API binding), each block with a
//! `SAFETY` note: the compiler and clippy hold both rules. The house test
//! (tests/it/house.rs) holds the layers' order.

#![warn(unreachable_pub)]
#![deny(unsafe_code)]

pub mod backtrack;
pub mod bench;
pub mod best;
pub mod board;
pub mod cli;
pub mod compare;
pub mod count;
#[allow(unsafe_code)]
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
