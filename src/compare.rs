//! `scramble compare`: the same puzzles with every solver, the canonical
//! solution sets checked to be identical (Pumpkin's differential testing, as
//! a command).

use serde::Serialize;

use crate::puzzle::Puzzle;
use crate::render::table;
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
    let rows = results.iter().map(|r| Run::of(label, 1, r)).collect();
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

fn cells(r: &Run) -> Vec<String> {
    let (work, work_is) = r.work();
    vec![
        r.puzzle.clone(),
        r.solver.clone(),
        r.model.clone(),
        r.symmetry.clone(),
        r.raw.to_string(),
        r.canonical.to_string(),
        r.complete.to_string(),
        format!("{:.6}", r.wall_time_s),
        work.to_string(),
        work_is.to_string(),
    ]
}

pub fn text(rows: &[Run], disagreements: &[Disagreement]) -> String {
    let table: Vec<Vec<String>> = rows.iter().map(cells).collect();
    let mut out = table::text(&HEADER, &table);
    for d in disagreements {
        out.push_str(&format!("DISAGREEMENT on {}: {}", d.puzzle, d.message));
    }
    out
}

pub fn csv(rows: &[Run]) -> String {
    table::csv(&HEADER, &rows.iter().map(cells).collect::<Vec<_>>())
}

pub fn json(rows: &[Run], disagreements: &[Disagreement]) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        rows: &'a [Run],
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
