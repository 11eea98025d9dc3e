//! Showing results: one exporter per format.

pub mod folder;
pub mod html;
pub mod images;
pub mod json;
pub mod plot;
pub mod png;
pub mod svg;
pub mod table;
pub mod text;

use crate::puzzle::Puzzle;
use crate::solve::SolveResult;

/// What every exporter gets: the puzzle, how it was solved, the result.
pub struct Report<'a> {
    /// The puzzle path as the user gave it.
    pub path: &'a str,
    pub puzzle: &'a Puzzle,
    pub result: &'a SolveResult,
    /// Print every raw solution, not only the canonical ones.
    pub all: bool,
}

impl Report<'_> {
    /// The completeness of the result in words.
    pub fn completeness(&self) -> String {
        use crate::solve::Outcome::*;
        match &self.result.outcome {
            Complete => "complete".into(),
            Infeasible => "complete (no solution)".into(),
            Incomplete(reason) => format!("INCOMPLETE: {reason}"),
            Invalid(m) => format!("INVALID MODEL: {m}"),
        }
    }
}
