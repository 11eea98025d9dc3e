//! Warnings for puzzle files that load but look mistaken: an edge whose
//! motif and half no edge of another tile can ever meet (a misspelt motif,
//! a `+` where `-` was meant). Not an error: a Scramble Squares border may
//! legitimately show a picture nothing meets.

use std::fmt;
use std::path::PathBuf;

use super::{EDGE_NAMES, Puzzle};

/// An edge that no edge of another tile matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lonely {
    pub file: PathBuf,
    pub tile: i64,
    /// 0-based: right, top, left, bottom.
    pub edge: usize,
    pub motif: String,
    pub half: &'static str,
}

impl fmt::Display for Lonely {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: tile {}, edge {} ({}): [{}, {}] matches no edge of another tile \
             (a misspelt motif or half?)",
            self.file.display(),
            self.tile,
            self.edge + 1,
            EDGE_NAMES[self.edge],
            self.motif,
            self.half
        )
    }
}

impl Puzzle {
    /// Every edge that no edge of another tile can meet, in tile and edge
    /// order. The frame's edges face out and meet nothing by design; a
    /// one-tile board has no neighbours to meet.
    pub fn lonely_edges(&self) -> Vec<Lonely> {
        if self.tiles.len() < 2 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (k, tile) in self.tiles.iter().enumerate() {
            for (e, edge) in tile.edges.iter().enumerate() {
                if Some(edge.motif) == self.frame {
                    continue;
                }
                let met = self
                    .tiles
                    .iter()
                    .enumerate()
                    .any(|(o, other)| o != k && other.edges.iter().any(|x| x.fits(*edge)));
                if !met {
                    out.push(Lonely {
                        file: self.source.clone(),
                        tile: tile.id,
                        edge: e,
                        motif: self.motifs[edge.motif as usize].clone(),
                        half: edge.half.symbol(),
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn puzzle(text: &str) -> Puzzle {
        Puzzle::parse(text, Path::new("p.yaml"), "p".into()).unwrap()
    }

    #[test]
    fn a_misspelt_motif_is_named_with_its_file_tile_and_edge() {
        let p = puzzle(
            "1: [[blue, '+'], [red, '+'], [blue, '-'], [red, '-']]\n\
             2: [[blue, '+'], [red, '+'], [blu, '-'], [red, '-']]\n\
             3: [[blue, '+'], [red, '+'], [blue, '-'], [red, '-']]\n\
             4: [[blue, '+'], [red, '+'], [blue, '-'], [red, '-']]\n",
        );
        let lonely = p.lonely_edges();
        assert_eq!(lonely.len(), 1, "{lonely:?}");
        assert_eq!(
            lonely[0].to_string(),
            "p.yaml: tile 2, edge 3 (left): [blu, -] matches no edge of another tile \
             (a misspelt motif or half?)"
        );
    }

    #[test]
    fn an_edge_met_only_by_its_own_tile_is_lonely_and_a_clean_puzzle_is_quiet() {
        // Tile 1's `=` edges meet only each other: no other tile shows one.
        let p = puzzle(
            "1: [[a, '='], [a, '='], [b, '+'], [b, '-']]\n\
             2: [[b, '+'], [b, '-'], [b, '+'], [b, '-']]\n\
             3: [[b, '+'], [b, '-'], [b, '+'], [b, '-']]\n\
             4: [[b, '+'], [b, '-'], [b, '+'], [b, '-']]\n",
        );
        let edges: Vec<usize> = p.lonely_edges().iter().map(|l| l.edge).collect();
        assert_eq!(edges, vec![0, 1]);
        let p = puzzle(
            "1: [[b, '+'], [b, '-'], [b, '+'], [b, '-']]\n\
             2: [[b, '+'], [b, '-'], [b, '+'], [b, '-']]\n\
             3: [[b, '+'], [b, '-'], [b, '+'], [b, '-']]\n\
             4: [[b, '+'], [b, '-'], [b, '+'], [b, '-']]\n",
        );
        assert!(p.lonely_edges().is_empty());
    }
}
