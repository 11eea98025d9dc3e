//! Every board format, each read and written here: the seed text (one
//! line per row of `[t=1,r=1]` placements, `scramble solve`'s text
//! output), the Eternity II community's `.et2` notation (rows of
//! `PIECE/TURNS`, turns clockwise) and the boards of a saved JSON report
//! (a list of `[tile, rotation]` pairs per board, as `Solution`
//! serializes).

use std::fmt;

use serde::Deserialize;

use super::{Placement, Solution};
use crate::puzzle::Shape;
use crate::puzzle::pieces::turns_other_way;

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[t={},r={}]", self.tile, self.rotation)
    }
}

impl Solution {
    /// The seed text format: one line per row, `[t=1,r=1] [t=9,r=3] ...`.
    pub(crate) fn to_seed_text(&self) -> String {
        let mut out = String::new();
        for row in self.cells.chunks(self.cols().max(1)) {
            let line: Vec<String> = row.iter().map(|p| p.to_string()).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }
}

/// One line per row, each square its piece number (right-aligned in four
/// columns) and its clockwise quarter turns, `' 139/2'`.
pub(crate) fn et2(s: &Solution) -> String {
    let mut out = String::new();
    for row in s.cells().chunks(s.cols().max(1)) {
        for p in row {
            // A space before every square, as the community pads to four.
            out.push_str(&format!(" {:>3}/{}", p.tile, turns_other_way(p.rotation)));
        }
        out.push('\n');
    }
    out
}

/// Parse the seed text format back into a board (used by tests and `render`):
/// one line per row, all rows as long (or one line of n * n placements,
/// an n x n board). The board is returned square (all four turns) when it
/// is square, else with the half turn; [`Solution::reshaped`] gives it its
/// puzzle's shape.
pub fn parse_seed_text(text: &str) -> Option<Solution> {
    let mut cells = Vec::new();
    let mut widths = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let before = cells.len();
        for tok in line.split_whitespace() {
            let inner = tok.strip_prefix("[t=")?.strip_suffix(']')?;
            let (t, r) = inner.split_once(",r=")?;
            cells.push(Placement {
                tile: t.parse().ok()?,
                rotation: r.parse().ok()?,
            });
        }
        widths.push(cells.len() - before);
    }
    let cols = *widths.first()?;
    if cols == 0 || widths.iter().any(|&w| w != cols) {
        return None;
    }
    let mut rows = widths.len();
    let mut cols = cols;
    // One line of n * n placements: an n x n board, as the format was
    // first read.
    let n = cols.isqrt();
    if rows == 1 && n > 1 && n * n == cols {
        (rows, cols) = (n, n);
    }
    let shape = if rows == cols {
        Shape::square(rows)
    } else {
        Shape {
            rows,
            cols,
            group: crate::puzzle::Group::Half,
        }
    };
    Some(Solution::shaped(cells, shape))
}

/// A board in the Eternity II community's `.et2` notation (rows of
/// `PIECE/TURNS`, turns clockwise), if the text is one.
fn parse_et2(text: &str) -> Option<Solution> {
    let mut rows: Vec<Vec<Placement>> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row = line
            .split_whitespace()
            .map(|tok| {
                let (t, r) = tok.split_once('/')?;
                let cw: u8 = r.parse().ok().filter(|&r| r < 4)?;
                Some(Placement {
                    tile: t.parse().ok()?,
                    rotation: (4 - cw) % 4,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        rows.push(row);
    }
    let cols = rows.first()?.len();
    if cols == 0 || rows.iter().any(|r| r.len() != cols) {
        return None;
    }
    let shape = Shape {
        rows: rows.len(),
        cols,
        group: crate::puzzle::Group::Identity,
    };
    Some(Solution::shaped(rows.concat(), shape))
}

/// Every board in a text: runs of consecutive lines made only of
/// `[t=..,r=..]` tokens (the seed format, and `scramble solve`'s text output,
/// whose header lines are skipped).
pub(crate) fn parse_seed_boards(text: &str) -> Vec<Solution> {
    let mut out = Vec::new();
    let mut block = String::new();
    let flush = |block: &mut String, out: &mut Vec<Solution>| {
        if let Some(s) = parse_seed_text(block) {
            out.push(s);
        }
        block.clear();
    };
    for line in text.lines() {
        let is_row = !line.trim().is_empty()
            && line
                .split_whitespace()
                .all(|t| t.starts_with("[t=") && t.ends_with(']'));
        if is_row {
            block.push_str(line);
            block.push('\n');
        } else {
            flush(&mut block, &mut out);
        }
    }
    flush(&mut block, &mut out);
    out
}

/// The boards of a saved result: the JSON report of `scramble solve` (its
/// `solutions` list of `[tile, rotation]` pairs) or any text in the seed
/// format ([`parse_seed_boards`]). The error says what is wrong.
pub(crate) fn parse_saved(text: &str) -> Result<Vec<Solution>, String> {
    if let Some(b) = parse_et2(text) {
        return Ok(vec![b]);
    }
    if !text.trim_start().starts_with('{') {
        return Ok(parse_seed_boards(text));
    }
    #[derive(Deserialize)]
    struct Saved {
        solutions: Option<Vec<serde_json::Value>>,
    }
    let saved: Saved = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let list = saved
        .solutions
        .ok_or("no \"solutions\" list: expected the JSON of scramble solve")?;
    list.into_iter()
        .map(|s| {
            serde_json::from_value::<Vec<Placement>>(s)
                .map(Solution::new)
                .map_err(|e| format!("a solution is not a list of [tile, rotation] pairs: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn et2_boards_turn_clockwise() {
        let s = Solution::new(
            [(1, 1), (2, 0), (3, 2), (4, 3)]
                .map(|(tile, rotation)| Placement { tile, rotation })
                .to_vec(),
        );
        assert_eq!(et2(&s), "   1/3   2/0\n   3/2   4/1\n");
    }
}
