//! The score of a full board whose joins may not all fit (`scramble best`):
//! how many of its joins are valid, counted independently of any search.

use serde::Serialize;

use crate::puzzle::Puzzle;

use super::{Solution, VerifyError, verify};

/// A join between two cells, named by the cell on its left or upper side
/// (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "join", rename_all = "snake_case")]
pub enum Join {
    /// Between (i, j) and (i, j + 1).
    Right { i: usize, j: usize },
    /// Between (i, j) and (i + 1, j).
    Down { i: usize, j: usize },
}

/// As people read it: `(i, j)|(i, j+1)` across a column, `(i, j)/(i+1, j)`
/// across a row.
impl std::fmt::Display for Join {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Join::Right { i, j } => write!(f, "({i}, {j})|({i}, {})", j + 1),
            Join::Down { i, j } => write!(f, "({i}, {j})/({}, {j})", i + 1),
        }
    }
}

/// A board's score: its valid joins out of all, and the broken ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Joins whose two edges fit.
    pub valid: usize,
    /// Every join between two cells: `rows * (cols - 1) + cols * (rows - 1)`
    /// (480 on Eternity II's 16x16).
    pub joins: usize,
    /// The joins that do not fit, row-major.
    pub broken: Vec<Join>,
}

impl Score {
    /// Every join of a board of this puzzle's size.
    pub fn joins_of(puzzle: &Puzzle) -> usize {
        let (r, c) = (puzzle.rows(), puzzle.cols());
        r * c.saturating_sub(1) + c * r.saturating_sub(1)
    }

    /// Whether every join fits (the board is a solution).
    pub fn is_full(&self) -> bool {
        self.broken.is_empty()
    }
}

impl Solution {
    /// The board's score, after checking everything but the joins
    /// independently of any solver: every tile exactly once, every cell
    /// holding what the rules allow (frame, hints, turning).
    pub fn score(&self, puzzle: &Puzzle) -> Result<Score, VerifyError> {
        let mut broken = Vec::new();
        verify::walk(
            puzzle,
            self.cells.len(),
            |k| Some(self.cells[k]),
            &mut |j| {
                broken.push(j);
                Ok(())
            },
        )?;
        let joins = Score::joins_of(puzzle);
        Ok(Score {
            valid: joins - broken.len(),
            joins,
            broken,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placement;

    fn seed() -> Puzzle {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/3x3-original");
        Puzzle::load(&path).unwrap()
    }

    fn board(cells: &[(i64, u8)]) -> Solution {
        Solution::new(cells.iter().map(|&c| Placement::from(c)).collect())
    }

    /// The seed's solution with its first two cells replaced.
    fn solution_with(first: (i64, u8), second: (i64, u8)) -> Solution {
        board(&[
            first,
            second,
            (7, 2),
            (4, 2),
            (5, 3),
            (3, 2),
            (8, 0),
            (6, 3),
            (2, 2),
        ])
    }

    #[test]
    fn a_solution_scores_every_join() {
        let p = seed();
        let s = solution_with((1, 1), (9, 3));
        let score = s.score(&p).unwrap();
        assert_eq!((score.valid, score.joins), (12, 12));
        assert!(score.is_full());
    }

    #[test]
    fn broken_joins_are_named_and_rules_still_checked() {
        let p = seed();
        // The solution with its top-left tile turned: its right and bottom
        // joins break (its own edges no longer face the same way).
        let s = solution_with((1, 3), (9, 3));
        let score = s.score(&p).unwrap();
        assert_eq!(score.joins, 12);
        assert!(score.broken.contains(&Join::Right { i: 1, j: 1 }));
        assert!(score.broken.contains(&Join::Down { i: 1, j: 1 }));
        assert_eq!(score.valid, 12 - score.broken.len());
        assert!(s.verify(&p).is_err());
        // A tile twice is still an error, not a score.
        let twice = solution_with((1, 1), (1, 3));
        assert!(matches!(
            twice.score(&p),
            Err(VerifyError::Reused { tile: 1 })
        ));
    }
}
