//! Partial boards: some cells placed, the others empty (what a search has
//! placed when it is stopped at a depth).

use serde::Serialize;

use crate::puzzle::Puzzle;

use super::{Placement, VerifyError, verify};

/// A board with empty cells: `rows * cols` cells in row-major order, each a
/// placement or empty. It serializes as the list of cells, `null` where
/// empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    rows: usize,
    cols: usize,
    cells: Vec<Option<Placement>>,
}

impl Serialize for Partial {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.cells.serialize(s)
    }
}

impl Partial {
    /// `cells` must hold `rows * cols` cells.
    pub fn new(rows: usize, cols: usize, cells: Vec<Option<Placement>>) -> Partial {
        assert_eq!(cells.len(), rows * cols, "a partial board of {rows}x{cols}");
        Partial { rows, cols, cells }
    }

    pub fn cells(&self) -> &[Option<Placement>] {
        &self.cells
    }

    /// How many cells hold a tile.
    pub fn placed(&self) -> usize {
        self.cells.iter().flatten().count()
    }

    /// Check the placed cells against the puzzle, independently of any
    /// solver: every placed tile once, every placed cell holding what the
    /// rules allow, every join between two placed cells fitting.
    pub fn verify(&self, puzzle: &Puzzle) -> Result<(), VerifyError> {
        verify::check(puzzle, self.cells.len(), |k| self.cells[k])
    }

    /// The seed text format, one line per row, with `[ ]` for an empty
    /// cell.
    pub fn to_seed_text(&self) -> String {
        let mut out = String::new();
        for row in self.cells.chunks(self.cols.max(1)).take(self.rows) {
            let line: Vec<String> = row
                .iter()
                .map(|c| c.map_or_else(|| "[ ]".to_string(), |p| p.to_string()))
                .collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantOptions, Rng, plant};

    #[test]
    fn a_partial_board_is_checked_where_placed() {
        let (p, planted) = plant(
            &mut Rng::new(3),
            &PlantOptions {
                n: 3,
                motifs: 4,
                self_matching: false,
            },
        );
        let mut cells: Vec<Option<Placement>> = planted.cells().iter().copied().map(Some).collect();
        for c in [2, 4, 8] {
            cells[c] = None;
        }
        let partial = Partial::new(3, 3, cells.clone());
        assert_eq!(partial.placed(), 6);
        assert_eq!(partial.verify(&p), Ok(()));
        let text = partial.to_seed_text();
        assert_eq!(text.lines().count(), 3);
        assert!(text.lines().next().unwrap().ends_with("[ ]"), "{text}");
        // A tile twice, and a join that does not fit.
        let mut twice = cells.clone();
        twice[2] = cells[0];
        assert!(matches!(
            Partial::new(3, 3, twice).verify(&p),
            Err(VerifyError::Reused { .. })
        ));
        let mut turned = cells;
        let first = turned[0].unwrap();
        turned[0] = Some(Placement {
            rotation: (first.rotation + 1) % 4,
            ..first
        });
        let (tile, next) = (p.tile(first.tile).unwrap(), cells_1(&planted));
        let right = tile.edge((first.rotation + 1) % 4, crate::puzzle::RIGHT);
        let left = p
            .tile(next.tile)
            .unwrap()
            .edge(next.rotation, crate::puzzle::LEFT);
        assert_eq!(
            Partial::new(3, 3, turned).verify(&p).is_ok(),
            right.fits(left)
                && tile
                    .edge((first.rotation + 1) % 4, crate::puzzle::BOTTOM)
                    .fits(below(&p, &planted))
        );
    }

    fn cells_1(s: &crate::board::Solution) -> Placement {
        s.cells()[1]
    }

    fn below(p: &Puzzle, s: &crate::board::Solution) -> crate::puzzle::Edge {
        let c = s.cells()[3];
        p.tile(c.tile).unwrap().edge(c.rotation, crate::puzzle::TOP)
    }
}
