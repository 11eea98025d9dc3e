//! The bench report: the summary as a text table, one CSV row or JSON line
//! per run (rows and summaries come from [`crate::commands::bench`]; this draws them).

use crate::commands::bench::{Run, Summary};
use crate::render::table;

/// Seconds in the unit that reads best.
pub(crate) fn seconds(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

/// The summary as an aligned text table.
pub(crate) fn summary_text(rows: &[Summary]) -> String {
    const HEADER: [&str; 11] = [
        "solver",
        "model",
        "symmetry",
        "runs",
        "complete",
        "median",
        "first (median)",
        "min",
        "max",
        "total",
        "work/s",
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|s| {
            vec![
                s.solver.to_string(),
                s.model.clone(),
                s.symmetry.clone(),
                s.runs.to_string(),
                s.complete.to_string(),
                seconds(s.median_s),
                s.median_first_s.map(seconds).unwrap_or_else(|| "-".into()),
                seconds(s.min_s),
                seconds(s.max_s),
                seconds(s.total_s),
                format!("{:.3e} {}/s", s.work_per_s, s.work_is),
            ]
        })
        .collect();
    table::text(&HEADER, &cells)
}

const CSV_HEADER: [&str; 13] = [
    "puzzle",
    "solver",
    "model",
    "symmetry",
    "equivalence",
    "repeat",
    "raw",
    "canonical",
    "complete",
    "wall_time_s",
    "first_s",
    "nodes",
    "branches",
];

/// One CSV row per run.
pub(crate) fn csv(runs: &[Run]) -> String {
    let opt = |v: Option<u64>| v.map(|x| x.to_string()).unwrap_or_default();
    let cells: Vec<_> = runs
        .iter()
        .map(|r| {
            let cells = vec![
                r.puzzle.clone(),
                r.solver.to_string(),
                r.model.clone(),
                r.symmetry.clone(),
                r.equivalence.clone(),
                r.repeat.to_string(),
                r.raw.to_string(),
                r.canonical.to_string(),
                r.complete.to_string(),
                format!("{:.6}", r.wall_time_s),
                r.first_s.map(|s| format!("{s:.6}")).unwrap_or_default(),
                opt(r.nodes),
                opt(r.branches),
            ];
            (&r.board, cells)
        })
        .collect();
    table::csv_with_board(&CSV_HEADER, &cells)
}

/// One JSON object per line per run.
pub(crate) fn json_lines(runs: &[Run]) -> String {
    runs.iter()
        .map(|r| serde_json::to_string(r).expect("serializable") + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_read_well() {
        assert_eq!(seconds(2.5), "2.500 s");
        assert_eq!(seconds(0.0125), "12.500 ms");
        assert_eq!(seconds(4.6e-6), "4.6 µs");
    }
}
