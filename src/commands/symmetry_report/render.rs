//! The symmetry-report: an aligned text table, Markdown, CSV or JSON of the
//! rows that [`crate::commands::symmetry_report`] produces.

use crate::commands::symmetry_report::Row;
use crate::render::table;

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

/// The text table's columns: what fits a terminal (the model's sizes and
/// the conflicts are in the CSV, JSON and Markdown).
const TEXT_HEADER: [&str; 11] = [
    "puzzle",
    "model",
    "formulation",
    "raw",
    "classes",
    "pictures",
    "time_s",
    "branches",
    "rotation classes",
    "picture classes",
    "documented exact",
];

/// A puzzle as the text table names it: its file name without folders.
fn short(puzzle: &str) -> String {
    std::path::Path::new(puzzle.trim_end_matches('/'))
        .file_name()
        .map_or(puzzle.to_string(), |s| s.to_string_lossy().into_owned())
}

fn text_cells(r: &Row) -> Vec<String> {
    let c = cells(r);
    let pick = |k: usize| c[k].clone();
    vec![
        short(&r.puzzle),
        pick(1),
        pick(2),
        pick(3),
        pick(4),
        pick(5),
        pick(6),
        pick(7),
        pick(12),
        pick(13),
        pick(14),
    ]
}

/// An aligned text table, a line for each contradiction of the docs, and
/// a closing line: which formulations were exact, which were not.
pub(crate) fn text(rows: &[Row]) -> String {
    let table: Vec<Vec<String>> = rows.iter().map(text_cells).collect();
    let mut out = table::text(&TEXT_HEADER, &table);
    let s = crate::commands::symmetry_report::summary(rows);
    // Not `none`, which names a formulation.
    let list = |v: &[String]| match v.is_empty() {
        true => "no formulation".to_string(),
        false => v.join("; "),
    };
    let closing = format!(
        "exact for rotation classes: {}. exact for picture classes: {}. exact for neither: {}.\n",
        list(&s.exact_rotation),
        list(&s.exact_picture),
        list(&s.not_exact)
    );
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
    out.push_str(&closing);
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
    crate::render::json::to_string(rows) + "\n"
}
