//! The solvers' own reductions, used where no symmetry breaking is asked
//! for: one board turn of each class (`center` or `anchor`), or one board
//! per picture (`tiles`) and, where a tile has no twin, per picture class
//! (the anchor rule on that tile). The collector gives back what each
//! reduction leaves out (docs/model.md, "The board-turn reduction").

use std::sync::Arc;

use super::{Formulation, Part, Symmetry, anchor, center, tiles};
use crate::puzzle::Puzzle;

/// The formulation the solvers' board-turn reduction uses: `center` on odd
/// boards, `anchor` on even ones. Both keep exactly one of the four turns of
/// every solution (docs/symmetry.md), so the solutions kept, each with its
/// four turns, are all the solutions. Both only take values out of domains,
/// which CP-SAT's presolve propagates at once: `anchor` measured faster
/// than `corner` (an order between four tile variables) in every encoding
/// (docs/model.md).
/// On a rectangle, `anchor` over the half turn; on a board without turn
/// symmetry, nothing (`None`).
pub(crate) fn turn_representative(puzzle: &Puzzle) -> Option<Symmetry> {
    let f: &'static dyn Formulation = match puzzle.group() {
        crate::puzzle::Group::Identity => return None,
        crate::puzzle::Group::Quarter if puzzle.rows() % 2 == 1 => &center::Center,
        _ => &anchor::ANCHOR,
    };
    Some(Symmetry {
        parts: vec![Part::Named(f)],
    })
}

/// The solvers' picture reduction: `tiles` keeps exactly one labelled
/// board per picture ([`same_picture`] gives back the others) and, where
/// a tile has no twin ([`picture_turns_reduced`]), the anchor rule on it
/// keeps one turn of each picture: one board per picture class.
pub(crate) fn picture_representative(puzzle: &Puzzle) -> Symmetry {
    let mut s = picture_turn_representative(puzzle);
    s.parts.push(Part::Named(&tiles::Tiles));
    s
}

/// The anchor of [`picture_representative`] alone, for a search that
/// places tile kinds (one board per picture already): nothing where no
/// tile lacks a twin.
pub(crate) fn picture_turn_representative(puzzle: &Puzzle) -> Symmetry {
    let parts = anchor::Anchor::unique(puzzle)
        .map(|a| Part::Made(Arc::new(a)))
        .into_iter()
        .collect();
    Symmetry { parts }
}

/// Whether [`picture_representative`] also keeps one board turn of each
/// picture (a tile without a twin to anchor), not only one labelling.
pub(crate) fn picture_turns_reduced(puzzle: &Puzzle) -> bool {
    anchor::unique_tile(puzzle).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Solution;
    use crate::generate::{PlantOptions, Rng};
    use crate::symmetry::{labellings_per_picture, picture, same_picture};
    use proptest::prelude::*;

    proptest! {
        /// The solvers' picture reduction keeps exactly one labelled board
        /// of each picture class where a tile without a twin anchors the
        /// turns, and one per picture of the class otherwise.
        #[test]
        fn the_picture_reduction_keeps_one_board_per_class(
            seed in any::<u64>(),
            n in 1usize..=4,
            motifs in 1usize..=3,
            duplicates in 0usize..=5,
        ) {
            let o = PlantOptions { n, motifs, self_matching: n % 2 == 1 };
            let Some((p, s)) = crate::generate::plant_with_duplicates(
                &mut Rng::new(seed), &o, duplicates.min(n * n), 100,
            ) else {
                return Ok(());
            };
            if labellings_per_picture(&p).is_none_or(|l| l > 2_000) {
                return Ok(());
            }
            let class: std::collections::BTreeSet<Solution> =
                s.turns().iter().flat_map(|t| same_picture(&p, t)).collect();
            let pictures: std::collections::BTreeSet<_> =
                class.iter().map(|t| picture(&p, t)).collect();
            let rep = picture_representative(&p);
            let kept: Vec<&Solution> = class.iter().filter(|t| rep.accepts(&p, t)).collect();
            let want = if picture_turns_reduced(&p) { 1 } else { pictures.len() };
            prop_assert_eq!(kept.len(), want);
        }
    }

    #[test]
    fn the_unique_anchor_takes_the_smallest_tile_without_a_twin() {
        let parse =
            |text: &str| Puzzle::parse(text, std::path::Path::new("t.yaml"), "t".into()).unwrap();
        // Tiles 1 and 2 are identical, 3 is symmetric (period 2), 4 has no
        // twin: on a board without a centre the anchor is 3.
        let p = parse(
            "1: [[a, '+'], [b, '+'], [c, '+'], [d, '+']]\n\
             2: [[b, '+'], [c, '+'], [d, '+'], [a, '+']]\n\
             3: [[a, '+'], [b, '+'], [a, '+'], [b, '+']]\n\
             4: [[a, '+'], [a, '+'], [b, '+'], [c, '+']]\n",
        );
        assert_eq!(anchor::unique_tile(&p), Some(3));
        assert!(picture_turns_reduced(&p));
        // In the centre a symmetric tile cannot tell the turns apart.
        let centre = parse("7: [[a, '+'], [b, '+'], [a, '+'], [b, '+']]\n");
        assert_eq!(anchor::unique_tile(&centre), None);
        let centre = parse("7: [[a, '+'], [b, '+'], [c, '+'], [b, '+']]\n");
        assert_eq!(anchor::unique_tile(&centre), Some(7));
    }
}
