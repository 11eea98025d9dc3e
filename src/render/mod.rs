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

/// Okabe and Ito's colour-blind-safe palette: orange, sky blue, bluish
/// green, yellow, blue, vermillion, reddish purple, black.
pub const OKABE_ITO: [&str; 8] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000",
];

/// Text made safe for XML and HTML, attributes included.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

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
            Incomplete(crate::solve::StopReason::Limit) => {
                "stopped at --limit (more solutions may exist)".into()
            }
            Incomplete(reason) => format!("INCOMPLETE: {reason}"),
            Invalid(m) => format!("INVALID MODEL: {m}"),
        }
    }
}
