//! `scramble compare`: the same puzzles with every solver, the canonical
//! solution sets checked to be identical (Pumpkin's differential testing, as
//! a command).

use crate::puzzle::Puzzle;
use crate::report::{Disagreement, Run, disagreement};
use crate::solve::{self, Keep, SolveError, SolveOptions, SolveResult, Solver};

/// Run every solver on one puzzle; rows and any disagreement.
pub fn compare(
    solvers: &[&dyn Solver],
    puzzle: &Puzzle,
    label: &str,
    options: &SolveOptions,
) -> Result<(Vec<Run>, Option<Disagreement>), SolveError> {
    // The canonical sets are compared, the counts checked: nothing else is
    // kept.
    let options = SolveOptions {
        keep: Keep::Canonical,
        ..options.clone()
    };
    let results: Vec<SolveResult> = solvers
        .iter()
        .map(|s| solve::run(*s, puzzle, &options))
        .collect::<Result<_, _>>()?;
    let rows = results
        .iter()
        .map(|r| Run::of(puzzle, label, 1, r))
        .collect();
    let mut found = None;
    let first = &results[0];
    for other in &results[1..] {
        if !(first.outcome.is_complete() && other.outcome.is_complete()) {
            continue;
        }
        if let Some(message) = disagreement(first, other) {
            found = Some(Disagreement {
                puzzle: label.to_string(),
                symmetry: None,
                message,
            });
            break;
        }
    }
    Ok((rows, found))
}
