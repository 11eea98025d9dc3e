//! Drawing, shared by the commands: pictures (SVG, PNG, tile images, the
//! HTML index), tables, the community's board notation and the recording
//! graph. Each command formats its own reports in its folder.

mod font;
pub(crate) mod graph;
pub(crate) mod html;
pub(crate) mod images;
pub(crate) mod json;
mod outlined;
pub mod png;
pub mod svg;
pub(crate) mod table;
mod triangles;

use crate::puzzle::{Group, Puzzle};
use crate::solve::SolveResult;

/// What a class is on a board of this group, for the reports' "classes"
/// line: a rectangle has only the half turn, and a board with a fixed
/// piece or unturned tiles none (each solution is its own class).
pub(crate) fn classes_under(group: Group) -> &'static str {
    match group {
        Group::Quarter => "up to board turns",
        Group::Half => "up to the half turn",
        Group::Identity => "no board turn keeps the rules",
    }
}

/// The line every text report of a run gives when its symmetry is not
/// proven to keep a member of every class.
pub(crate) fn unproven_warning(res: &SolveResult) -> String {
    format!(
        "UNPROVEN: symmetry {} is not proven to keep a member of every {} class; \
         the counts may be too low (docs/symmetry.md)",
        res.symmetry,
        res.equivalence.name()
    )
}

/// Okabe and Ito's colour-blind-safe palette: orange, sky blue, bluish
/// green, yellow, blue, vermillion, reddish purple, black.
pub(crate) const OKABE_ITO: [&str; 8] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000",
];

/// Text made safe for XML and HTML, attributes included.
pub(crate) fn escape(s: &str) -> String {
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
    /// The lists were cut to what could be written before the time limit
    /// (or the stop) ended the output: how many solutions they held.
    pub cut_from: Option<usize>,
}

impl Report<'_> {
    /// The solutions shown: every raw one with `--all`, else the canonical
    /// ones.
    pub fn shown(&self) -> &[crate::board::Solution] {
        if self.all {
            &self.result.raw
        } else {
            self.result.canonical()
        }
    }

    /// The completeness of the result in words.
    pub(crate) fn completeness(&self) -> String {
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
