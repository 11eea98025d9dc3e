//! The symmetry-report: an aligned text table, Markdown, CSV or JSON of the
//! rows that [`crate::experiment`] produces.

use super::table;
use crate::experiment::Row;

const HEADER: [&str; 15] = [
    "puzzle",
    "model",
    "formulation",
    "raw",
    "classes",
    "pictures",
    "wall_time_s",
    "branches",
    "conflicts",
    "variables",
    "constraints",
    "table_tuples",
    "rotation",
    "picture",
    "documented_exact",
];

fn cells(r: &Row) -> [String; 15] {
    let dash = || "-".to_string();
    let size = |f: fn(&crate::model::Size) -> u64| r.size.map_or_else(dash, |s| f(&s).to_string());
    let (variables, constraints, tuples) = (
        size(|s| s.variables),
        size(|s| s.constraints),
        size(|s| s.table_tuples),
    );
    let ran = |v: String| {
        if r.not_applicable.is_some() {
            dash()
        } else {
            v
        }
    };
    let (rot, pic) = match &r.not_applicable {
        Some(why) => (format!("n/a: {why}"), "n/a".into()),
        None => (r.rotation.to_string(), r.picture.to_string()),
    };
    [
        r.puzzle.clone(),
        r.model.clone(),
        r.formulation.clone(),
        ran(r.raw.to_string()),
        ran(r.classes.to_string()),
        ran(r.pictures.to_string()),
        ran(format!("{:.3}", r.wall_time_s)),
        ran(r.branches.to_string()),
        ran(r.conflicts.to_string()),
        ran(variables),
        ran(constraints),
        ran(tuples),
        rot,
        pic,
        r.documented_exact.join("+"),
    ]
}

/// An aligned text table, then a line for each contradiction of the docs.
pub(crate) fn text(rows: &[Row]) -> String {
    let table: Vec<Vec<String>> = rows.iter().map(|r| cells(r).to_vec()).collect();
    let mut out = table::text(&HEADER, &table);
    for r in rows.iter().filter(|r| r.contradicts_docs) {
        out.push_str(&match r.documented_exact.is_empty() {
            false => format!(
                "NOT EXACT: {} on {} is documented exact for {}\n",
                r.formulation,
                r.puzzle,
                r.documented_exact.join(" and ")
            ),
            true => format!(
                "LOSES CLASSES: {} on {} is documented to keep a member of every class\n",
                r.formulation, r.puzzle
            ),
        });
    }
    out
}

/// A Markdown table (for docs/symmetry.md).
pub(crate) fn markdown(rows: &[Row]) -> String {
    let table: Vec<Vec<String>> = rows.iter().map(|r| cells(r).to_vec()).collect();
    table::markdown(&HEADER, &table)
}

/// CSV with a header line.
pub(crate) fn csv(rows: &[Row]) -> String {
    let table: Vec<Vec<String>> = rows.iter().map(|r| cells(r).to_vec()).collect();
    table::csv(&HEADER, &table)
}

/// A JSON array of rows.
pub(crate) fn json(rows: &[Row]) -> String {
    serde_json::to_string_pretty(rows).expect("serializable") + "\n"
}
