//! scramble: solve and study edge-matching puzzles such as Scramble Squares.
//!
//! Laid out by role, each part depending only on those above it: the core
//! ([`cancel`] -> [`puzzle`] -> [`board`] -> [`model`] -> [`symmetry`], [`generate`] ->
//! [`solve`]), the [`engines`] (siblings behind `solve::Solver`), the
//! engines together ([`race`]: `--solver auto`), the one list of engines
//! ([`registry`]), drawing ([`render`]) and the [`commands`] (one folder or file per
//! subcommand). See docs/architecture.md for every module and why.
//!
//! `pub` reaches outside the crate (the binary, the Python package, the
//! tests and benchmarks); an item used only inside is `pub(crate)` or
//! narrower, which `unreachable_pub` checks.
//!
//! Only [`engines::cpsat`] has `unsafe` (its C API binding), each block with a
//! `SAFETY` note: the compiler and clippy hold both rules. The house test
//! (tests/it/house.rs) holds the layers' order.

#![warn(unreachable_pub)]
#![deny(unsafe_code)]

pub mod best;
pub mod board;
pub mod cancel;
pub mod commands;
pub mod count;
pub mod engines;
pub(crate) mod files;
pub mod generate;
pub mod model;
pub mod puzzle;
pub mod race;
pub mod registry;
pub mod render;
pub(crate) mod rng;
pub mod solve;
pub mod symmetry;
