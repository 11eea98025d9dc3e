//! The compare report: an aligned text table, CSV or JSON of the rows that
//! [`crate::compare`] produces, and its disagreements.

use serde::Serialize;

use super::table;
use crate::compare::Verdict;
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

/// An aligned text table, then each puzzle's verdict, each disagreement
/// spelled out.
pub(crate) fn text(
    rows: &[Run],
    verdicts: &[(String, Verdict)],
    disagreements: &[Disagreement],
) -> String {
    let table: Vec<Vec<String>> = rows.iter().map(cells).collect();
    let mut out = table::text(&HEADER, &table);
    for (puzzle, v) in verdicts {
        let line = match v {
            Verdict::Agree { runs, classes } => {
                let s = if *classes == 1 { "" } else { "es" };
                format!("{puzzle}: agree: {runs} runs, the same {classes} class{s}")
            }
            Verdict::Disagree => {
                let d = disagreements.iter().find(|d| &d.puzzle == puzzle);
                let message = d.map_or("", |d| d.message.trim_end());
                format!("DISAGREEMENT on {puzzle}: {message}")
            }
            Verdict::Unfinished {
                compared,
                unfinished,
            } => {
                let finished = match compared {
                    0 => "no run finished".to_string(),
                    1 => "one run finished, with nothing to compare it with".to_string(),
                    k => format!("the {k} runs that finished agree"),
                };
                let its = if unfinished.len() == 1 {
                    "its"
                } else {
                    "their"
                };
                format!(
                    "{puzzle}: not all compared: {} did not finish ({its} sets are partial); {finished}",
                    unfinished.join(", ")
                )
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// CSV with a header line: the text table's columns, with the board's
/// after the puzzle's.
pub(crate) fn csv(rows: &[Run]) -> String {
    let rows: Vec<_> = rows.iter().map(|r| (&r.board, cells(r))).collect();
    table::csv_with_board(&HEADER, &rows)
}

/// The rows, each puzzle's verdict, the disagreements and whether all
/// agree ([`crate::compare::overall`]; `null` when not known).
pub(crate) fn json(
    rows: &[Run],
    verdicts: &[(String, Verdict)],
    disagreements: &[Disagreement],
) -> String {
    #[derive(Serialize)]
    struct Shown<'a> {
        puzzle: &'a str,
        #[serde(flatten)]
        verdict: &'a Verdict,
    }
    #[derive(Serialize)]
    struct Out<'a> {
        rows: &'a [Run],
        verdicts: Vec<Shown<'a>>,
        disagreements: &'a [Disagreement],
        agree: Option<bool>,
    }
    let agree = crate::compare::overall(verdicts.iter().map(|(_, v)| v));
    serde_json::to_string_pretty(&Out {
        rows,
        verdicts: verdicts
            .iter()
            .map(|(puzzle, verdict)| Shown { puzzle, verdict })
            .collect(),
        disagreements,
        agree,
    })
    .expect("serializable")
        + "\n"
}
