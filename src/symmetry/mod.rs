//! Symmetry: canonical forms of solutions, picture equivalence, and the
//! symmetry-breaking formulations added to the CP model.
//!
//! Turning a solved board a quarter turn gives another solution, so every
//! answer comes in a class of four labelled solutions. The canonical form of a
//! solution is the member of its class whose row-major sequence of
//! `(tile, rotation)` is lexicographically smallest.
//!
//! Each breaking formulation is one file here implementing [`Formulation`];
//! adding one means adding a file and a line in [`ALL`]. docs/symmetry.md
//! states each in math and proves what it keeps.

mod anchor;
mod center;
mod clauses;
mod corner;
mod lex;
mod picture_lex;
mod pictures;
mod reduction;
mod tiles;

pub use clauses::Clauses;
#[cfg(test)]
pub(crate) use pictures::same_picture;
pub(crate) use pictures::{
    Realizer, distinct_rotation, each_same_picture, identical_classes, kind_key, period,
    picture_canonical, tile_kinds, turn_picture,
};
pub use pictures::{labellings_per_picture, picture, pictures_are_labels};
pub(crate) use reduction::{
    picture_representative, picture_turn_representative, picture_turns_reduced, turn_representative,
};

use std::fmt;

use thiserror::Error;

use crate::board::{Placement, Solution, turned_at};
use crate::model::Model;
use crate::puzzle::{Puzzle, Shape, Turning};

/// The canonical representative of a solution's class under board turns.
///
/// The turns are compared cell by cell as they are read, without building
/// them (most comparisons end at the first cell); only the winner is built.
pub fn canonical(s: &Solution) -> Solution {
    let (shape, cells) = (s.shape(), s.cells());
    let turned = |k: usize| (0..cells.len()).map(move |x| turned_at(cells, shape, k, x));
    let best =
        shape.group.turns()[1..].iter().fold(
            0,
            |best, &k| {
                if turned(k).lt(turned(best)) { k } else { best }
            },
        );
    if best == 0 {
        s.clone()
    } else {
        s.turn_by(best)
    }
}

/// What makes two solutions "the same" (`--equivalence rotation|picture`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Equivalence {
    /// Labelled solutions up to whole-board turns.
    Rotation,
    /// Finished pictures up to whole-board turns: identical tiles and the
    /// turns of rotation-symmetric tiles are not told apart.
    Picture,
}

impl Equivalence {
    pub fn name(self) -> &'static str {
        match self {
            Equivalence::Rotation => "rotation",
            Equivalence::Picture => "picture",
        }
    }
}

/// The canonical form under an equivalence.
pub fn canonical_under(puzzle: &Puzzle, e: Equivalence, s: &Solution) -> Solution {
    match e {
        Equivalence::Rotation => canonical(s),
        Equivalence::Picture => picture_canonical(puzzle, s),
    }
}

/// For each cell of the board turned `k` quarter turns, the cell of the
/// original board its tile comes from.
pub(crate) fn turn_sources(shape: Shape, k: usize) -> Vec<usize> {
    let mut src: Vec<usize> = (0..shape.cells()).collect();
    for c in 0..shape.cells() {
        src[shape.turn_cell(k, c)] = c;
    }
    src
}

/// Why a formulation that breaks board turns cannot be used: the board has
/// no turn that maps solutions to solutions, or (`quarter`) it needs all
/// four turns and the board has fewer.
pub(crate) fn needs_turns(puzzle: &Puzzle, quarter: bool) -> Result<(), String> {
    let why = if puzzle.turning() == Turning::None {
        "tiles do not turn, so a turned board is never a solution"
    } else if !puzzle.hints().is_empty() {
        "a piece is fixed, so a turned board moves or turns it and is never a solution"
    } else if quarter && puzzle.rows() != puzzle.cols() {
        "the board is a rectangle: its only symmetry is the half turn"
    } else {
        return Ok(());
    };
    Err(format!(
        "needs {}; {why} ({}x{} board)",
        if quarter {
            "all four board turns"
        } else {
            "a board turn"
        },
        puzzle.rows(),
        puzzle.cols()
    ))
}

/// Which symmetry a formulation breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Whole-board turns.
    Board,
    /// Identical and rotation-symmetric tiles.
    Tiles,
}

/// A symmetry-breaking formulation: constraints added to the CP model,
/// the same rule as clauses for the SAT engine, and stated directly.
pub trait Formulation: Sync {
    /// The name used on the command line.
    fn name(&self) -> &'static str;
    /// Which symmetry it breaks.
    fn level(&self) -> Level;
    /// One line for `--help` and reports.
    fn summary(&self) -> &'static str;
    /// Why it cannot be used on this puzzle, if it cannot.
    fn precondition(&self, puzzle: &Puzzle) -> Result<(), String>;
    /// Add its constraints to the model.
    fn add(&self, puzzle: &Puzzle, model: &mut Model);
    /// Whether a (verified) solution satisfies it: the same condition as the
    /// constraints, stated directly (the native solver filters with it).
    fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool;
    /// Whether tile `tile` may stand in 0-based cell `cell` with `rotation`,
    /// as far as this formulation can tell from that cell alone (pruning for
    /// the native solver; never stricter than `accepts`).
    fn allows(&self, _puzzle: &Puzzle, _cell: usize, _tile: i64, _rotation: u8) -> bool {
        true
    }
    /// Write its constraints as clauses over the placements (the SAT
    /// engine): the rest of its rule beyond `allows`, whose refused
    /// placements the CNF leaves out.
    fn clauses(&self, puzzle: &Puzzle, out: &mut dyn Clauses);
    /// Whether `next` may follow the placements `prefix` of the first
    /// cells in row-major order, as far as those cells can tell: false
    /// only where no solution starting so satisfies the rule (CP-SAT then
    /// never makes that subproblem). By default what [`Self::allows`]
    /// tells of the cell alone.
    fn allows_after(&self, puzzle: &Puzzle, prefix: &[Placement], next: Placement) -> bool {
        self.allows(puzzle, prefix.len(), next.tile, next.rotation)
    }
}

/// Every formulation, in the order reports list them.
pub static ALL: &[&dyn Formulation] = &[
    &center::Center,
    &corner::Corner,
    &lex::Lex,
    &anchor::ANCHOR,
    &picture_lex::PictureLex,
    &tiles::Tiles,
];

/// Errors choosing or applying formulations.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SymmetryError {
    #[error(
        "unknown symmetry formulation {name:?}: expected none or a comma-separated list of {known}"
    )]
    Unknown { name: String, known: String },
    #[error("symmetry formulation {name} is listed twice")]
    Repeated { name: String },
    #[error("{puzzle}: symmetry formulation {name} does not apply: {reason}")]
    Precondition {
        puzzle: String,
        name: String,
        reason: String,
    },
    #[error(
        "--symmetry {name} is not proven to keep a member of every {equivalence} class \
         (docs/symmetry.md, \"Which combinations are exact\"): its counts may be too low. \
         Proven for {equivalence}: {proven}; pass --allow-unproven-symmetry to run it anyway \
         (every report then marks the result unproven)"
    )]
    Unproven {
        name: String,
        equivalence: &'static str,
        proven: String,
    },
}

/// What a combination of formulations is proven to keep of every class
/// under an equivalence (docs/symmetry.md, "Which combinations are exact").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keeps {
    /// Every solution (`none`).
    Every,
    /// Exactly one member of every class: its raw count is the class count.
    ExactlyOne,
    /// At least one member of every class: the class count is right, the
    /// raw count may hold several members of a class.
    AtLeastOne,
    /// Nothing proven: it may keep no member of some class.
    Unproven,
}

impl Keeps {
    /// Whether the class count of a complete run is proven right.
    pub fn is_proven(self) -> bool {
        self != Keeps::Unproven
    }
}

/// A combination of formulations, e.g. `lex,tiles`; empty is `none`.
#[derive(Clone, Default)]
pub struct Symmetry {
    parts: Vec<Part>,
}

/// One formulation of a combination: a named one ([`ALL`]) or one made
/// for a puzzle (the solvers' reductions, [`reduction`]).
#[derive(Clone)]
enum Part {
    Named(&'static dyn Formulation),
    Made(std::sync::Arc<dyn Formulation + Send>),
}

impl std::ops::Deref for Part {
    type Target = dyn Formulation;
    fn deref(&self) -> &(dyn Formulation + 'static) {
        match self {
            Part::Named(f) => *f,
            Part::Made(f) => f.as_ref(),
        }
    }
}

impl fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Symmetry({})", self.name())
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl PartialEq for Symmetry {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl std::str::FromStr for Symmetry {
    type Err = SymmetryError;
    fn from_str(s: &str) -> Result<Self, SymmetryError> {
        if s.trim() == "none" {
            return Ok(Symmetry::none());
        }
        let mut parts: Vec<Part> = Vec::new();
        for name in s.split(',').map(str::trim) {
            let f =
                ALL.iter()
                    .find(|f| f.name() == name)
                    .ok_or_else(|| SymmetryError::Unknown {
                        name: name.to_string(),
                        known: ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", "),
                    })?;
            if parts.iter().any(|p| p.name() == name) {
                return Err(SymmetryError::Repeated {
                    name: name.to_string(),
                });
            }
            parts.push(Part::Named(*f));
        }
        Ok(Symmetry { parts })
    }
}

impl Symmetry {
    pub fn none() -> Symmetry {
        Symmetry::default()
    }

    pub fn is_none(&self) -> bool {
        self.parts.is_empty()
    }

    pub fn parts(&self) -> impl Iterator<Item = &dyn Formulation> {
        self.parts.iter().map(|p| &**p)
    }

    /// The name as on the command line: `none`, `lex`, `lex,tiles`, ...
    pub fn name(&self) -> String {
        if self.parts.is_empty() {
            "none".into()
        } else {
            self.parts
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(",")
        }
    }

    /// Check every part's precondition on the puzzle.
    pub fn check(&self, puzzle: &Puzzle) -> Result<(), SymmetryError> {
        for p in &self.parts {
            p.precondition(puzzle)
                .map_err(|reason| SymmetryError::Precondition {
                    puzzle: puzzle.source().display().to_string(),
                    name: p.name().to_string(),
                    reason,
                })?;
        }
        Ok(())
    }

    /// Whether a solution satisfies every part.
    pub(crate) fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool {
        self.parts.iter().all(|p| p.accepts(puzzle, s))
    }

    /// Whether every part allows this placement in this cell.
    pub(crate) fn allows(&self, puzzle: &Puzzle, cell: usize, tile: i64, rotation: u8) -> bool {
        self.parts
            .iter()
            .all(|p| p.allows(puzzle, cell, tile, rotation))
    }

    /// Whether every part allows `next` after `prefix`
    /// ([`Formulation::allows_after`]).
    pub(crate) fn allows_after(
        &self,
        puzzle: &Puzzle,
        prefix: &[Placement],
        next: Placement,
    ) -> bool {
        self.parts
            .iter()
            .all(|p| p.allows_after(puzzle, prefix, next))
    }

    /// Write every part's clauses (the SAT engine).
    pub(crate) fn clauses(&self, puzzle: &Puzzle, out: &mut dyn Clauses) {
        for p in &self.parts {
            p.clauses(puzzle, out);
        }
    }

    /// The first part that rules out a (verified) solution, if one does.
    pub(crate) fn rejected_by(&self, puzzle: &Puzzle, s: &Solution) -> Option<&'static str> {
        self.parts
            .iter()
            .find(|p| !p.accepts(puzzle, s))
            .map(|p| p.name())
    }

    /// Add every part's constraints to the model.
    pub fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        for p in &self.parts {
            p.add(puzzle, model);
        }
    }

    /// What this combination is proven (docs/symmetry.md) to keep of every
    /// class under `e`. The proofs cover single formulations and
    /// `picture-lex,tiles`; any other combination is unproven (two exact
    /// rules keep different members of a class, so together they may keep
    /// none: `center,lex` keeps 33 of 126 classes on a 3x3 puzzle).
    pub fn keeps(&self, e: Equivalence) -> Keeps {
        let names: Vec<&str> = self.parts.iter().map(|p| p.name()).collect();
        match (names.as_slice(), e) {
            ([], _) => Keeps::Every,
            // One labelled member of each rotation class (proved per
            // formulation); a picture class holds one or more of those.
            (["center" | "corner" | "lex" | "anchor"], Equivalence::Rotation) => Keeps::ExactlyOne,
            (["center" | "corner" | "lex" | "anchor"], Equivalence::Picture) => Keeps::AtLeastOne,
            // Every member whose picture is the lex-smallest of its turns:
            // one or more per rotation class, so per picture class.
            (["picture-lex"], _) => Keeps::AtLeastOne,
            // One labelled board per fixed picture: every picture class,
            // up to four of its turns; labelled classes are lost.
            (["tiles"], Equivalence::Picture) => Keeps::AtLeastOne,
            (["picture-lex", "tiles"] | ["tiles", "picture-lex"], Equivalence::Picture) => {
                Keeps::ExactlyOne
            }
            _ => Keeps::Unproven,
        }
    }

    /// An error unless this combination is proven to keep a member of
    /// every class under `e`.
    pub fn proven(&self, e: Equivalence) -> Result<(), SymmetryError> {
        if self.keeps(e).is_proven() {
            return Ok(());
        }
        let proven = ALL
            .iter()
            .map(|f| Symmetry {
                parts: vec![Part::Named(*f)],
            })
            .chain(["picture-lex,tiles".parse().expect("known names")])
            .filter(|s| s.keeps(e).is_proven())
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(", ");
        Err(SymmetryError::Unproven {
            name: self.name(),
            equivalence: e.name(),
            proven,
        })
    }

    /// The equivalences under which this combination is documented (and
    /// proved, docs/symmetry.md) to keep exactly one solution per class.
    pub(crate) fn exact_for(&self) -> Vec<Equivalence> {
        [Equivalence::Rotation, Equivalence::Picture]
            .into_iter()
            .filter(|&e| self.keeps(e) == Keeps::ExactlyOne)
            .collect()
    }
}

/// The combinations `scramble symmetry-report` runs, in order.
pub fn report_combinations() -> Vec<Symmetry> {
    [
        "none",
        "center",
        "corner",
        "lex",
        "anchor",
        "picture-lex",
        "tiles",
        "center,tiles",
        "corner,tiles",
        "lex,tiles",
        "anchor,tiles",
        "picture-lex,tiles",
    ]
    .iter()
    .map(|s| s.parse().expect("known names"))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placement;
    use crate::generate::{PlantOptions, Rng, plant};
    use proptest::prelude::*;

    fn arb_board() -> impl Strategy<Value = Solution> {
        (1usize..=5)
            .prop_flat_map(|n| {
                (
                    Just(n),
                    Just((1..=(n * n) as i64).collect::<Vec<_>>()).prop_shuffle(),
                    proptest::collection::vec(0u8..4, n * n),
                )
            })
            .prop_map(|(_, tiles, rots)| {
                Solution::new(
                    tiles
                        .into_iter()
                        .zip(rots)
                        .map(|(tile, rotation)| Placement { tile, rotation })
                        .collect(),
                )
            })
    }

    proptest! {
        #[test]
        fn canonical_is_invariant_under_turns(s in arb_board()) {
            let c = canonical(&s);
            for t in s.turns() {
                prop_assert_eq!(canonical(&t), c.clone());
            }
        }

        #[test]
        fn canonical_is_idempotent_and_a_member(s in arb_board()) {
            let c = canonical(&s);
            prop_assert_eq!(canonical(&c), c.clone());
            prop_assert!(s.turns().contains(&c));
            prop_assert!(s.turns().iter().all(|t| &c <= t));
        }

        /// The picture canonical form is invariant under board turns, shows
        /// the same picture class, and is idempotent.
        #[test]
        fn picture_canonical_is_invariant(seed in any::<u64>(), n in 1usize..=4, motifs in 1usize..=3) {
            let (p, s) = plant(&mut Rng::new(seed), &PlantOptions { n, motifs, self_matching: true });
            let c = picture_canonical(&p, &s);
            prop_assert_eq!(c.verify(&p), Ok(()));
            for t in s.turns() {
                prop_assert_eq!(picture_canonical(&p, &t), c.clone());
            }
            prop_assert_eq!(picture_canonical(&p, &c), c.clone());
            if pictures_are_labels(&p) {
                prop_assert_eq!(canonical(&s), c.clone());
            }
            let pics: Vec<_> = (0..4).map(|k| turn_picture(p.shape(), k, &picture(&p, &s))).collect();
            prop_assert!(pics.contains(&picture(&p, &c)));
        }
    }

    #[test]
    fn turning_a_picture_matches_turning_the_board() {
        let (p, s) = plant(
            &mut Rng::new(3),
            &PlantOptions {
                n: 4,
                motifs: 5,
                self_matching: true,
            },
        );
        assert_eq!(
            turn_picture(p.shape(), 1, &picture(&p, &s)),
            picture(&p, &s.turn())
        );
    }

    #[test]
    fn periods_and_identical_tiles() {
        let text = "1: [[a, '+'], [a, '+'], [a, '+'], [a, '+']]\n\
                    2: [[a, '+'], [b, '+'], [a, '+'], [b, '+']]\n\
                    3: [[a, '+'], [b, '+'], [c, '+'], [d, '+']]\n\
                    4: [[b, '+'], [c, '+'], [d, '+'], [a, '+']]\n";
        let p = Puzzle::parse(text, std::path::Path::new("t.yaml"), "t".into()).unwrap();
        let periods: Vec<u8> = p.tiles().iter().map(period).collect();
        assert_eq!(periods, vec![1, 2, 4, 4]);
        assert_eq!(identical_classes(&p), vec![vec![3, 4]]);
        // 2! for tiles 3 and 4, 4/1 for tile 1, 4/2 for tile 2.
        assert_eq!(labellings_per_picture(&p), Some(16));
    }

    proptest! {
        /// The labelled boards showing a solution's picture: exactly
        /// `labellings_per_picture` distinct solutions, each showing the same
        /// picture, `s` among them; and `tiles` keeps exactly one of them.
        #[test]
        fn same_picture_lists_every_labelling(
            seed in any::<u64>(),
            n in 1usize..=3,
            motifs in 1usize..=3,
            duplicates in 0usize..=4,
        ) {
            let o = PlantOptions { n, motifs, self_matching: false };
            let Some((p, s)) = crate::generate::plant_with_duplicates(
                &mut Rng::new(seed), &o, duplicates.min(n * n), 100,
            ) else {
                return Ok(());
            };
            let all = same_picture(&p, &s);
            prop_assert_eq!(Some(all.len() as u128), labellings_per_picture(&p));
            prop_assert!(all.contains(&s));
            prop_assert!(all.windows(2).all(|w| w[0] < w[1]));
            for t in &all {
                prop_assert_eq!(t.verify(&p), Ok(()));
                prop_assert_eq!(picture(&p, t), picture(&p, &s));
            }
            let kept = all.iter().filter(|t| tiles::Tiles.accepts(&p, t)).count();
            prop_assert_eq!(kept, 1);
        }

    }

    #[test]
    fn parses_combinations() {
        assert!("none".parse::<Symmetry>().unwrap().is_none());
        assert_eq!("lex,tiles".parse::<Symmetry>().unwrap().name(), "lex,tiles");
        assert!(matches!(
            "lex,lex".parse::<Symmetry>(),
            Err(SymmetryError::Repeated { .. })
        ));
        assert!(matches!(
            "spin".parse::<Symmetry>(),
            Err(SymmetryError::Unknown { .. })
        ));
    }
}
