//! Independent verification of full and partial boards.

use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP, cell_name};

use super::{Join, Placement, VerifyError};

/// Check `len` cells (row-major; `at(k)` is cell `k`, `None` when empty)
/// against the puzzle, independently of any solver: the right number of
/// cells, every placed tile once, every cell holding what the rules allow
/// (frame, hints, turning), every join between two placed cells fitting.
pub(super) fn check(
    puzzle: &Puzzle,
    len: usize,
    at: impl Fn(usize) -> Option<Placement>,
) -> Result<(), VerifyError> {
    walk(puzzle, len, at, &mut |join| {
        Err(match join {
            Join::Right { i, j } => VerifyError::Horizontal { i, j },
            Join::Down { i, j } => VerifyError::Vertical { i, j },
        })
    })
}

/// [`check`], every join between two placed cells that does not fit handed
/// to `broken` (which may accept it, or end the walk with an error).
pub(super) fn walk(
    puzzle: &Puzzle,
    len: usize,
    at: impl Fn(usize) -> Option<Placement>,
    broken: &mut dyn FnMut(Join) -> Result<(), VerifyError>,
) -> Result<(), VerifyError> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    if len != rows * cols {
        return Err(VerifyError::WrongSize {
            rows,
            cols,
            found: len,
        });
    }
    // Tiles used so far: a bit per tile index up to 128 tiles (no
    // allocation on the boards people solve), a vector beyond.
    let mut used_bits = 0u128;
    let mut used_vec = if puzzle.len() > 128 {
        vec![false; puzzle.len()]
    } else {
        Vec::new()
    };
    let mut tiles = Vec::with_capacity(rows * cols);
    let rules = puzzle.has_rules();
    for k in 0..len {
        let Some(p) = at(k) else {
            tiles.push(None);
            continue;
        };
        let (i, j) = (k / cols + 1, k % cols + 1);
        let idx = puzzle
            .index_of(p.tile)
            .ok_or(VerifyError::UnknownTile { i, j, tile: p.tile })?;
        if p.rotation > 3 {
            return Err(VerifyError::BadRotation {
                i,
                j,
                rotation: p.rotation,
            });
        }
        let reused = match used_vec.get_mut(idx) {
            Some(u) => std::mem::replace(u, true),
            None => {
                let bit = 1u128 << idx;
                let was = used_bits & bit != 0;
                used_bits |= bit;
                was
            }
        };
        if reused {
            return Err(VerifyError::Reused { tile: p.tile });
        }
        if rules && let Some(why) = puzzle.why_not_alone(k, idx, p.rotation) {
            return Err(VerifyError::Rule {
                cell: cell_name(cols, k),
                tile: p.tile,
                rotation: p.rotation,
                why,
            });
        }
        tiles.push(Some((&puzzle.tiles()[idx], p.rotation)));
    }
    let edge = |i: usize, j: usize, e: usize| tiles[i * cols + j].map(|(t, r)| t.edge(r, e));
    for i in 0..rows {
        for j in 0..cols {
            if j + 1 < cols
                && let (Some(a), Some(b)) = (edge(i, j, RIGHT), edge(i, j + 1, LEFT))
                && !a.fits(b)
            {
                broken(Join::Right { i: i + 1, j: j + 1 })?;
            }
            if i + 1 < rows
                && let (Some(a), Some(b)) = (edge(i, j, BOTTOM), edge(i + 1, j, TOP))
                && !a.fits(b)
            {
                broken(Join::Down { i: i + 1, j: j + 1 })?;
            }
        }
    }
    Ok(())
}
