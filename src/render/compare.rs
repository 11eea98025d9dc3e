//! The compare report: an aligned text table, CSV or JSON of the rows that
//! [`crate::compare`] produces, and its disagreements.

use serde::Serialize;

use super::table;
use crate::report::{Disagreement, Run};

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

/// An aligned text table, then a line for each disagreement.
pub(crate) fn text(rows: &[Run], disagreements: &[Disagreement]) -> String {
    let table: Vec<Vec<String>> = rows.iter().map(cells).collect();
    let mut out = table::text(&HEADER, &table);
    for d in disagreements {
        out.push_str(&format!("DISAGREEMENT on {}: {}", d.puzzle, d.message));
    }
    out
}

/// CSV with a header line: the text table's columns, with the board's
/// after the puzzle's.
pub(crate) fn csv(rows: &[Run]) -> String {
    let rows: Vec<_> = rows.iter().map(|r| (&r.board, cells(r))).collect();
    table::csv_with_board(&HEADER, &rows)
}

/// The rows, the disagreements and whether all agree, as JSON.
pub(crate) fn json(rows: &[Run], disagreements: &[Disagreement]) -> String {
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
