//! The compare report: an aligned text table, CSV or JSON of the rows that
//! [`crate::commands::compare`] produces, and its disagreements.

use serde::Serialize;

use crate::commands::compare::Verdict;
use crate::commands::report::{Disagreement, Run};
use crate::render::table;

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
        r.solver.to_string(),
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
pub(crate) fn text(rows: &[Run], verdicts: &[(String, Verdict)]) -> String {
    let table: Vec<Vec<String>> = rows.iter().map(cells).collect();
    let mut out = table::text(&HEADER, &table);
    for (puzzle, v) in verdicts {
        let line = match v {
            Verdict::Agree { runs, classes } => {
                let s = if *classes == 1 { "" } else { "es" };
                format!("{puzzle}: agree: {runs} runs, the same {classes} class{s}")
            }
            Verdict::Disagree { message } => {
                format!("DISAGREEMENT on {puzzle}: {}", message.trim_end())
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
/// agree ([`crate::commands::compare::overall`]; `null` when not known).
pub(crate) fn json(rows: &[Run], verdicts: &[(String, Verdict)]) -> String {
    crate::render::json::to_string(&Report { rows, verdicts }) + "\n"
}

/// The JSON report into any serializer (the Python package's objects).
pub(crate) fn serialize<S: serde::Serializer>(
    rows: &[Run],
    verdicts: &[(String, Verdict)],
    s: S,
) -> Result<S::Ok, S::Error> {
    Report { rows, verdicts }.serialize(s)
}

/// What the JSON report holds.
struct Report<'a> {
    rows: &'a [Run],
    verdicts: &'a [(String, Verdict)],
}

impl Serialize for Report<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (rows, verdicts) = (self.rows, self.verdicts);
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
            disagreements: Vec<Disagreement>,
            agree: Option<bool>,
        }
        let agree = crate::commands::compare::overall(verdicts.iter().map(|(_, v)| v));
        Out {
            rows,
            verdicts: verdicts
                .iter()
                .map(|(puzzle, verdict)| Shown { puzzle, verdict })
                .collect(),
            disagreements: crate::commands::compare::disagreements(verdicts),
            agree,
        }
        .serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_verdict_line_carries_its_own_message() {
        // One label given twice: each line shows its own verdict, and the
        // JSON lists the one disagreement with its message.
        let verdicts = [
            (
                "p".to_string(),
                Verdict::Agree {
                    runs: 2,
                    classes: 3,
                },
            ),
            (
                "p".to_string(),
                Verdict::Disagree {
                    message: "backtrack lacks one\n".into(),
                },
            ),
        ];
        let t = text(&[], &verdicts);
        assert!(t.contains("p: agree: 2 runs, the same 3 classes\n"), "{t}");
        assert!(
            t.contains("DISAGREEMENT on p: backtrack lacks one\n"),
            "{t}"
        );
        let j: serde_json::Value = serde_json::from_str(&json(&[], &verdicts)).unwrap();
        assert_eq!(j["agree"], false);
        assert_eq!(j["verdicts"][1]["verdict"], "disagree");
        assert_eq!(j["verdicts"][1]["message"], "backtrack lacks one\n");
        assert_eq!(j["disagreements"].as_array().unwrap().len(), 1);
    }
}
