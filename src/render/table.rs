//! Tables for reports: aligned text, CSV and Markdown from the same rows.

use crate::puzzle::Facts;

/// An aligned text table (columns separated by two spaces).
pub(crate) fn text(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cols: Vec<&str>| {
        let padded: Vec<String> = cols
            .iter()
            .zip(&width)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(header.to_vec());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

/// CSV with a header line; fields quoted where needed.
pub(crate) fn csv(header: &[&str], rows: &[Vec<String>]) -> String {
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = header.join(",") + "\n";
    for r in rows {
        out.push_str(&r.iter().map(|s| quote(s)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

/// The columns that say what board a row ran on (after its puzzle column).
const BOARD_HEADER: [&str; 5] = ["rows", "cols", "frame", "hints", "turns"];

/// [`csv`] of rows whose first column names a puzzle, with the board's
/// columns ([`BOARD_HEADER`]) after it, each row with its board's facts.
pub(crate) fn csv_with_board(header: &[&str], rows: &[(&Facts, Vec<String>)]) -> String {
    let header: Vec<&str> = header[..1]
        .iter()
        .chain(&BOARD_HEADER)
        .chain(&header[1..])
        .copied()
        .collect();
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|(facts, cells)| {
            let mut c = cells.clone();
            c.splice(1..1, board_cells(facts));
            c
        })
        .collect();
    csv(&header, &rows)
}

/// [`BOARD_HEADER`]'s cells: the frame motif (empty without one), the fixed
/// pieces as `TILE@I,J/R` (1-based cell, counterclockwise turns; `;`
/// between them) and the turning rule.
fn board_cells(f: &Facts) -> [String; 5] {
    let hints: Vec<String> = f
        .hints
        .iter()
        .map(|h| format!("{}@{},{}/{}", h.tile, h.cell.0, h.cell.1, h.rotation))
        .collect();
    [
        f.rows.to_string(),
        f.cols.to_string(),
        f.frame.clone().unwrap_or_default(),
        hints.join(";"),
        f.turns.name().to_string(),
    ]
}

/// A Markdown table.
pub(crate) fn markdown(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n", header.join(" | "));
    out.push_str(&format!("|{}\n", " --- |".repeat(header.len())));
    for r in rows {
        out.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats() {
        let rows = vec![vec!["a,b".to_string(), "1".to_string()]];
        assert_eq!(super::csv(&["x", "y"], &rows), "x,y\n\"a,b\",1\n");
        assert_eq!(super::text(&["x", "y"], &rows), "x    y\na,b  1\n");
        assert_eq!(
            super::markdown(&["x", "y"], &rows),
            "| x | y |\n| --- | --- |\n| a,b | 1 |\n"
        );
    }
}
