//! What the commands that run many solves report: one row per run and the
//! disagreements between runs, defined once. `bench` and `compare` fill
//! them; `render` and their own exporters only draw them.

use serde::{Deserialize, Serialize};

use crate::board::Solution;
use crate::puzzle::{Facts, Puzzle};
use crate::solve::{Engine, SolveResult};

/// One solver run on one puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Run {
    pub puzzle: String,
    /// The board: rows, cols, frame, hints, turning rule.
    #[serde(flatten)]
    pub board: Facts,
    pub solver: Engine,
    pub model: String,
    pub symmetry: String,
    pub equivalence: String,
    /// 1-based.
    pub repeat: usize,
    pub raw: u128,
    pub canonical: u128,
    pub complete: bool,
    pub wall_time_s: f64,
    /// Seconds to the first solution (none found: None).
    pub first_s: Option<f64>,
    /// Backtracking nodes.
    pub nodes: Option<u64>,
    /// CP-SAT branches.
    pub branches: Option<u64>,
    /// SAT conflicts (CaDiCaL's own count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
}

impl Run {
    /// The row of a result on `puzzle`, labelled `label`.
    pub(crate) fn of(puzzle: &Puzzle, label: &str, repeat: usize, r: &SolveResult) -> Run {
        Run {
            puzzle: label.to_string(),
            board: puzzle.facts(),
            solver: r.solver,
            model: r.model.to_string(),
            // Every table, CSV and JSON row says so where the symmetry is
            // not proven to keep every class.
            symmetry: match r.symmetry_proven {
                true => r.symmetry.name(),
                false => format!("{} (unproven)", r.symmetry),
            },
            equivalence: r.equivalence.name().to_string(),
            repeat,
            raw: r.counts.raw,
            canonical: r.counts.under(r.equivalence),
            complete: r.outcome.is_complete(),
            wall_time_s: r.wall_time.as_secs_f64(),
            first_s: r.time_to_first.map(|d| d.as_secs_f64()),
            nodes: r.stats.count("nodes"),
            branches: if r.stats.count("nodes").is_none() {
                r.stats.count("branches")
            } else {
                None
            },
            // SAT's conflicts, also when it won a race. Only CaDiCaL
            // reports decisions; CP-SAT reports conflicts too, but its
            // work is its branches.
            conflicts: r.stats.count("decisions").and(r.stats.count("conflicts")),
        }
    }

    /// The search work: nodes (backtracking), conflicts (SAT) or
    /// branches (CP-SAT), and which.
    pub(crate) fn work(&self) -> (u64, &'static str) {
        match (self.nodes, self.conflicts) {
            (Some(n), _) => (n, "nodes"),
            (None, Some(c)) => (c, "conflicts"),
            (None, None) => (self.branches.unwrap_or(0), "branches"),
        }
    }
}

/// Two runs of one puzzle disagree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Disagreement {
    pub puzzle: String,
    /// The symmetry formulation both ran with (`bench`, which varies it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<String>,
    pub message: String,
}

/// How two complete results of one puzzle differ, if they do: first a
/// canonical solution one has and the other lacks, else the raw counts.
pub(crate) fn disagreement(a: &SolveResult, b: &SolveResult) -> Option<String> {
    first_difference(a, b).or_else(|| {
        (a.counts.raw != b.counts.raw).then(|| {
            format!(
                "the same canonical solutions, but {} ({}) found {} raw solutions and {} ({}) {}",
                a.solver, a.model, a.counts.raw, b.solver, b.model, b.counts.raw
            )
        })
    })
}

/// The first canonical solution one result has and the other lacks.
fn first_difference(a: &SolveResult, b: &SolveResult) -> Option<String> {
    let only = |x: &SolveResult, y: &SolveResult| -> Option<Solution> {
        x.canonical()
            .iter()
            .find(|s| y.canonical().binary_search(s).is_err())
            .cloned()
    };
    let describe = |s: Solution, has: &SolveResult, lacks: &SolveResult| {
        format!(
            "{} ({}) found a solution {} ({}) did not:\n{}",
            has.solver,
            has.model,
            lacks.solver,
            lacks.model,
            s.to_seed_text()
        )
    };
    match (only(a, b), only(b, a)) {
        (None, None) => None,
        (Some(s), None) => Some(describe(s, a, b)),
        (None, Some(s)) => Some(describe(s, b, a)),
        (Some(s), Some(t)) => Some(if s <= t {
            describe(s, a, b)
        } else {
            describe(t, b, a)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placement;
    use crate::solve::{Counts, Keep, Outcome, SolverStats};
    use crate::symmetry::Equivalence;
    use crate::symmetry::Symmetry;

    fn result(solver: Engine, sols: Vec<Solution>) -> SolveResult {
        SolveResult {
            solver,
            solver_version: "x".into(),
            model: crate::solve::Searched::new("m"),
            symmetry: Symmetry::none(),
            symmetry_proven: true,
            equivalence: Equivalence::Rotation,
            outcome: Outcome::Complete,
            counts: Counts {
                raw: sols.len() as u128,
                classes: sols.len() as u128,
                pictures: sols.len() as u128,
            },
            keep: Keep::All,
            raw: sols.clone(),
            classes: sols.clone(),
            pictures: sols,
            wall_time: std::time::Duration::ZERO,
            time_to_first: None,
            stats: SolverStats::default(),
        }
    }

    fn one(t: i64) -> Solution {
        Solution::new(vec![Placement {
            tile: t,
            rotation: 0,
        }])
    }

    #[test]
    fn names_the_first_differing_solution() {
        let a = result(Engine::named("cp-sat"), vec![one(1), one(2)]);
        let b = result(Engine::named("backtrack"), vec![one(1), one(3)]);
        let m = disagreement(&a, &b).unwrap();
        assert!(
            m.starts_with("cp-sat (m) found a solution backtrack (m) did not"),
            "{m}"
        );
        assert!(m.contains("[t=2,r=0]"));
        assert!(disagreement(&a, &a).is_none());
        // The same classes, other raw counts.
        let mut c = result(Engine::named("backtrack"), vec![one(1), one(2)]);
        c.counts.raw = 8;
        let m = disagreement(&a, &c).unwrap();
        assert!(
            m.starts_with("the same canonical solutions, but cp-sat (m) found 2"),
            "{m}"
        );
    }
}
