//! `scramble compare`: the same puzzles with every solver, the canonical
//! solution sets checked to be identical (Pumpkin's differential testing, as
//! a command).

use serde::Serialize;

use crate::board::Solution;
use crate::puzzle::Puzzle;
use crate::render::table;
use crate::solve::{self, SolveError, SolveOptions, SolveResult, Solver};

/// One solver on one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub puzzle: String,
    pub solver: String,
    pub model: String,
    pub symmetry: String,
    pub equivalence: String,
    pub raw: u128,
    pub canonical: u128,
    pub complete: bool,
    pub wall_time_s: f64,
    /// Backtracking nodes, or CP-SAT branches.
    pub work: u64,
}

/// Two solvers disagree on a puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Disagreement {
    pub puzzle: String,
    pub message: String,
}

/// Run every solver on one puzzle; rows and any disagreement.
pub fn compare(
    solvers: &[&dyn Solver],
    puzzle: &Puzzle,
    label: &str,
    options: &SolveOptions,
) -> Result<(Vec<Row>, Option<Disagreement>), SolveError> {
    let results: Vec<SolveResult> = solvers
        .iter()
        .map(|s| solve::run(*s, puzzle, options))
        .collect::<Result<_, _>>()?;
    let rows = results
        .iter()
        .map(|r| Row {
            puzzle: label.to_string(),
            solver: r.solver.clone(),
            model: r.model.clone(),
            symmetry: r.symmetry.clone(),
            equivalence: r.equivalence.name().to_string(),
            raw: r.counts.raw,
            canonical: r.counts.under(r.equivalence),
            complete: r.outcome.is_complete(),
            wall_time_s: r.wall_time.as_secs_f64(),
            work: r.stats.nodes.or(r.stats.branches).unwrap_or(0),
        })
        .collect();
    let mut disagreement = None;
    let first = &results[0];
    for other in &results[1..] {
        if !(first.outcome.is_complete() && other.outcome.is_complete()) {
            continue;
        }
        if let Some(message) = first_difference(first, other) {
            disagreement = Some(Disagreement {
                puzzle: label.to_string(),
                message,
            });
            break;
        }
    }
    Ok((rows, disagreement))
}

/// The first canonical solution one result has and the other lacks.
pub(crate) fn first_difference(a: &SolveResult, b: &SolveResult) -> Option<String> {
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

const HEADER: [&str; 10] = [
    "puzzle",
    "solver",
    "model",
    "symmetry",
    "raw",
    "canonical",
    "complete",
    "wall_time_s",
    "work",
    "work_is",
];

fn cells(r: &Row) -> Vec<String> {
    vec![
        r.puzzle.clone(),
        r.solver.clone(),
        r.model.clone(),
        r.symmetry.clone(),
        r.raw.to_string(),
        r.canonical.to_string(),
        r.complete.to_string(),
        format!("{:.6}", r.wall_time_s),
        r.work.to_string(),
        if r.solver == "backtrack" {
            "nodes"
        } else {
            "branches"
        }
        .to_string(),
    ]
}

pub fn text(rows: &[Row], disagreements: &[Disagreement]) -> String {
    let table: Vec<Vec<String>> = rows.iter().map(cells).collect();
    let mut out = table::text(&HEADER, &table);
    for d in disagreements {
        out.push_str(&format!("DISAGREEMENT on {}: {}", d.puzzle, d.message));
    }
    out
}

pub fn csv(rows: &[Row]) -> String {
    table::csv(&HEADER, &rows.iter().map(cells).collect::<Vec<_>>())
}

pub fn json(rows: &[Row], disagreements: &[Disagreement]) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        rows: &'a [Row],
        disagreements: &'a [Disagreement],
        agree: bool,
    }
    serde_json::to_string_pretty(&Out {
        rows,
        disagreements,
        agree: disagreements.is_empty(),
    })
    .expect("serializable")
        + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placement;
    use crate::solve::{Counts, Keep, Outcome, SolverStats};
    use crate::symmetry::Equivalence;

    fn result(solver: &str, sols: Vec<Solution>) -> SolveResult {
        SolveResult {
            solver: solver.into(),
            solver_version: "x".into(),
            model: "m".into(),
            symmetry: "none".into(),
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
        let a = result("cp-sat", vec![one(1), one(2)]);
        let b = result("backtrack", vec![one(1), one(3)]);
        let m = first_difference(&a, &b).unwrap();
        assert!(
            m.starts_with("cp-sat (m) found a solution backtrack (m) did not"),
            "{m}"
        );
        assert!(m.contains("[t=2,r=0]"));
        assert!(first_difference(&a, &a).is_none());
    }
}
