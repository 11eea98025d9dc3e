//! The engines: each searches a puzzle's solutions behind `solve::Solver`,
//! one folder (or file) each, siblings that never import one another.
//! CP-SAT (`cpsat/`, the OR-Tools runtime through its C API), the native
//! backtracker (`backtrack/`), CaDiCaL on the puzzle's clauses (`sat/`)
//! and the recording-graph solver for 2x2 boards (`graph.rs`).

pub mod backtrack;
#[allow(unsafe_code)]
pub mod cpsat;
pub mod graph;
pub mod sat;
#[cfg(test)]
pub mod toy;
