//! The CP model of a puzzle, in solver-neutral terms, and the CP
//! formulations (encodings) that build it: one file each, listed in [`Choice`].
//!
//! Every encoding keeps a tile and a rotation variable per cell
//! ([`Model::cells`]), whatever else it adds, so symmetry-breaking
//! constraints, subproblem prefixes and decoding work on all of them. The
//! `cpsat` module turns a [`Model`] into a `CpModelProto`; nothing here knows
//! about protobuf. docs/model.md describes each encoding and its size.

mod boolean;
mod edge;
mod edge_boolean;
mod table;

use std::sync::Arc;

use std::time::Duration;

use itertools::iproduct;
use thiserror::Error;

use crate::board::Placement;
use crate::cancel::{Cancel, Stopped};
use crate::puzzle::Puzzle;

pub use table::{horizontal_table, vertical_table};

/// Index of a variable in [`Model::vars`].
pub(crate) type VarId = usize;

/// An integer variable with a domain given as sorted, disjoint closed intervals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntVar {
    pub name: String,
    pub domain: Vec<(i64, i64)>,
}

/// A Boolean literal: a 0/1 variable or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lit {
    Pos(VarId),
    Neg(VarId),
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        match self {
            Lit::Pos(v) => Lit::Neg(v),
            Lit::Neg(v) => Lit::Pos(v),
        }
    }
}

/// A bound large enough for every linear expression scramble builds.
pub(crate) const BIG: i64 = 1 << 40;

/// A constraint of the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// All the variables take different values.
    AllDifferent { name: String, vars: Vec<VarId> },
    /// The variables, in order, take one of the listed tuples (or, when
    /// `negated`, none of them). `tuples` is flat: `vars.len()` values a tuple.
    Table {
        name: String,
        vars: Vec<VarId>,
        tuples: Arc<Vec<i64>>,
        negated: bool,
    },
    /// `sum(coeff * var)` lies in `domain`, if every `enforce` literal holds.
    Linear {
        name: String,
        terms: Vec<(VarId, i64)>,
        domain: Vec<(i64, i64)>,
        enforce: Vec<Lit>,
    },
    /// At least one literal holds.
    BoolOr { name: String, lits: Vec<Lit> },
    /// Exactly one literal holds.
    ExactlyOne { name: String, lits: Vec<Lit> },
    /// Every literal holds, if every `enforce` literal holds.
    BoolAnd {
        name: String,
        lits: Vec<Lit>,
        enforce: Vec<Lit>,
    },
}

/// A solver-neutral CP model of a puzzle.
#[derive(Clone, Debug)]
pub struct Model {
    pub rows: usize,
    pub cols: usize,
    pub vars: Vec<IntVar>,
    pub constraints: Vec<Constraint>,
    /// Per cell, row-major: (tile variable, rotation variable).
    pub cells: Vec<(VarId, VarId)>,
    /// Per cell, row-major, the placement literals of the encodings that
    /// have them (`boolean`, `edge-boolean`), indexed by tile index * 4 +
    /// rotation; empty for the others. Symmetry breaking writes its rules
    /// on them where it can (docs/model.md, "Symmetry on placement
    /// literals").
    pub placements: Vec<Vec<Lit>>,
}

/// Compress sorted distinct values into closed intervals.
pub(crate) fn intervals(values: &[i64]) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for &v in values {
        match out.last_mut() {
            Some((_, hi)) if *hi + 1 == v => *hi = v,
            _ => out.push((v, v)),
        }
    }
    out
}

/// A CP formulation of a puzzle: how the [`Model`] is built.
///
/// Adding one is adding a file here and a variant of [`Choice`].
pub trait Encoding: Sync {
    /// The name used on the command line and in reports.
    fn name(&self) -> &'static str;
    /// One line for `--help` and reports.
    fn summary(&self) -> &'static str;
    /// The model's size before it is built, computed without building it
    /// (so a model that would not fit is refused first).
    fn size(&self, puzzle: &Puzzle) -> Size;
    /// Build the model; `cancel` is checked as it goes.
    fn build(&self, puzzle: &Puzzle, cancel: &Cancel) -> Result<Model, BuildError>;
    /// How long (in CP-SAT's deterministic time) an enumeration should try
    /// the whole model before cutting it into subproblems. Short by
    /// default: one subproblem per first placement is faster on most boards. Encodings whose presolve does most
    /// of the search (probing on placement literals) want it long, since
    /// every subproblem pays that presolve again (docs/benchmarks.md).
    fn whole_model_slice(&self) -> Duration {
        Duration::from_millis(250)
    }
    /// Whether an enumeration of a big board (5x5 and up) starts cut into a
    /// few ranges of the first cell's tile rather than trying the whole
    /// model first: true where presolve dominates (docs/model.md).
    fn start_in_ranges(&self) -> bool {
        true
    }
    /// Whether CP-SAT enumerates the whole model's solutions faster with
    /// its SAT inprocessing (clause vivification, probing and cleanup
    /// between restarts) than without. Without, by default: on the literal
    /// and edge encodings an enumeration's search spends most of its time
    /// there (crazy-sheep's `boolean` model 1.7 s with it, 0.9 s without;
    /// docs/benchmarks.md). Subproblems, smaller, never run it.
    fn enumerates_with_inprocessing(&self) -> bool {
        false
    }
}

/// The name of the default [`Choice`], for the command line's defaults.
pub(crate) const DEFAULT: &str = "edge";

/// An encoding (`--model`), by name on the command line. The default is
/// the fastest measured on the corpus at one thread (docs/benchmarks.md).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Choice {
    Table,
    #[default]
    Edge,
    Boolean,
    EdgeBoolean,
}

impl Choice {
    /// Every encoding, in the order reports list them.
    pub const ALL: [Choice; 4] = [
        Choice::Table,
        Choice::Edge,
        Choice::Boolean,
        Choice::EdgeBoolean,
    ];

    /// What builds it.
    pub fn encoding(self) -> &'static dyn Encoding {
        match self {
            Choice::Table => &table::Table,
            Choice::Edge => &edge::Edge,
            Choice::Boolean => &boolean::Boolean,
            Choice::EdgeBoolean => &edge_boolean::EdgeBoolean,
        }
    }

    pub fn name(self) -> &'static str {
        self.encoding().name()
    }
}

impl std::fmt::Debug for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Choice {
    type Err = String;
    fn from_str(s: &str) -> Result<Choice, String> {
        Choice::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let known: Vec<&str> = Choice::ALL.iter().map(|c| c.name()).collect();
                format!("unknown model {s:?}: expected one of {}", known.join(", "))
            })
    }
}

/// How big a model is: what `symmetry-report` prints per row and what the
/// size limit is checked against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Size {
    pub variables: u64,
    pub constraints: u64,
    /// Tuples over all table constraints.
    pub table_tuples: u64,
    /// Integers stored in all constraints (table values, literals, terms):
    /// what the memory of the model grows with.
    pub values: u64,
}

/// The most integers a model may hold: beyond this the build is refused
/// with a suggestion instead of exhausting memory: with what CP-SAT
/// measured per integer of a 16x16 `table` model (docs/log.md), this keeps
/// a model under about 2 GB.
pub(crate) const MAX_VALUES: u64 = 20_000_000;

/// A model being built. Dropped unfinished (a stop or the time limit while
/// building), it is freed on a thread of its own: a big board's model is
/// millions of small allocations (a good part of a second to free for a
/// 16x16 `edge-boolean`), and a stop must not wait for them.
pub(super) struct Building(Option<Model>);

impl Building {
    pub(super) fn new(puzzle: &Puzzle) -> Building {
        Building(Some(Model::with_cells(puzzle)))
    }

    /// The finished model.
    pub(super) fn finish(mut self) -> Model {
        self.0.take().expect("a model is finished once")
    }
}

impl std::ops::Deref for Building {
    type Target = Model;
    fn deref(&self) -> &Model {
        self.0.as_ref().expect("a model is finished once")
    }
}

impl std::ops::DerefMut for Building {
    fn deref_mut(&mut self) -> &mut Model {
        self.0.as_mut().expect("a model is finished once")
    }
}

impl Drop for Building {
    fn drop(&mut self) {
        if let Some(unfinished) = self.0.take() {
            drop_later(unfinished);
        }
    }
}

/// Free `value` on a thread of its own: a big board's model is millions of
/// small allocations (a good part of a second for a 16x16
/// `edge-boolean`), which would otherwise come after the time limit or a
/// stop. If no thread can be
/// started, `value` is freed here.
pub(crate) fn drop_later<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new().spawn(move || drop(value));
}

/// Why a model was not built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BuildError {
    #[error("the time limit was reached while building the model")]
    TimeLimit,
    #[error("interrupted while building the model")]
    Interrupted,
    /// The memory limit was reached while the model was built, or (with
    /// `need_mb`) loading it would pass it.
    #[error("the memory limit was reached while building the model")]
    MemoryLimit { need_mb: Option<u64> },
    #[error(
        "{puzzle}: the {model} model would hold {values} integers ({tuples} table tuples), more than the limit of {limit}; {hint}"
    )]
    TooLarge {
        puzzle: String,
        model: &'static str,
        values: u64,
        tuples: u64,
        limit: u64,
        hint: String,
    },
}

impl From<Stopped> for BuildError {
    fn from(why: Stopped) -> BuildError {
        match why {
            Stopped::TimeLimit => BuildError::TimeLimit,
            Stopped::Interrupted => BuildError::Interrupted,
            Stopped::MemoryLimit => BuildError::MemoryLimit { need_mb: None },
        }
    }
}

/// Check the size of an encoding on a puzzle, then build it.
pub(crate) fn build(
    encoding: &dyn Encoding,
    puzzle: &Puzzle,
    cancel: &Cancel,
) -> Result<Model, BuildError> {
    let size = encoding.size(puzzle);
    let size = Size {
        values: size.values + domain_values(puzzle),
        ..size
    };
    if size.values > MAX_VALUES {
        let lighter: Vec<String> = Choice::ALL
            .iter()
            .map(|c| c.encoding())
            .filter(|e| e.name() != encoding.name() && e.size(puzzle).values <= MAX_VALUES)
            .map(|e| format!("--model {}", e.name()))
            .collect();
        return Err(BuildError::TooLarge {
            puzzle: puzzle.source().display().to_string(),
            model: encoding.name(),
            values: size.values,
            tuples: size.table_tuples,
            limit: MAX_VALUES,
            hint: if lighter.is_empty() {
                "no encoding fits: try the backtracking solver (--solver backtrack)".into()
            } else {
                format!("try {}", lighter.join(" or "))
            },
        });
    }
    cancel.check()?;
    encoding.build(puzzle, cancel)
}

/// The integers the rules' domain tables hold (see [`Model::with_cells`]):
/// at most two per tile and rotation per cell. [`Encoding::size`] counts
/// the encoding alone.
fn domain_values(puzzle: &Puzzle) -> u64 {
    if puzzle.has_rules() {
        (puzzle.cells() * puzzle.len() * 8) as u64
    } else {
        0
    }
}

impl Model {
    /// A model with a tile variable (domain: the tile ids) and a rotation
    /// variable (0..3) per cell, row-major, and no constraints yet.
    ///
    /// The puzzle's rules (frame, fixed pieces, no turns) are domains: each
    /// cell's tile and rotation variables hold only the tiles and rotations
    /// it may take, and where those do not combine freely (a frame piece
    /// fits a border cell in one rotation) a table `domain_i_j` lists the
    /// allowed (tile, rotation) pairs. Every encoding starts here, so every
    /// encoding gets them.
    pub(crate) fn with_cells(puzzle: &Puzzle) -> Model {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let tile_domain = intervals(&puzzle.ids());
        let mut vars = Vec::with_capacity(2 * rows * cols);
        let mut cells = Vec::with_capacity(rows * cols);
        let mut constraints = Vec::new();
        let rules = puzzle.has_rules();
        for (i, j) in iproduct!(0..rows, 0..cols) {
            let t = vars.len();
            let (mut tiles, mut rotations, mut pairs) = (vec![], vec![], vec![]);
            if rules {
                let c = i * cols + j;
                for (k, tile) in puzzle.tiles().iter().enumerate() {
                    for r in 0..4u8 {
                        if puzzle.allows(c, k, r) {
                            pairs.extend([tile.id, r as i64]);
                            if tiles.last() != Some(&tile.id) {
                                tiles.push(tile.id);
                            }
                            rotations.push(r as i64);
                        }
                    }
                }
                rotations.sort_unstable();
                rotations.dedup();
            }
            vars.push(IntVar {
                name: format!("tile_{}_{}", i + 1, j + 1),
                domain: if rules {
                    intervals(&tiles)
                } else {
                    tile_domain.clone()
                },
            });
            vars.push(IntVar {
                name: format!("rotation_{}_{}", i + 1, j + 1),
                domain: if rules {
                    intervals(&rotations)
                } else {
                    vec![(0, 3)]
                },
            });
            cells.push((t, t + 1));
            if rules && pairs.len() / 2 < tiles.len() * rotations.len() {
                constraints.push(Constraint::Table {
                    name: format!("domain_{}_{}", i + 1, j + 1),
                    vars: vec![t, t + 1],
                    tuples: Arc::new(pairs),
                    negated: false,
                });
            }
        }
        Model {
            rows,
            cols,
            vars,
            constraints,
            cells,
            placements: Vec::new(),
        }
    }

    /// AllDifferent over the tile variables.
    pub(crate) fn all_different_tiles(&mut self) {
        self.constraints.push(Constraint::AllDifferent {
            name: "all_different_tiles".into(),
            vars: self.cells.iter().map(|c| c.0).collect(),
        });
    }

    /// The size of the model as built.
    pub fn size(&self) -> Size {
        let mut s = Size {
            variables: self.vars.len() as u64,
            constraints: self.constraints.len() as u64,
            ..Size::default()
        };
        for c in &self.constraints {
            s.values += match c {
                Constraint::AllDifferent { vars, .. } => vars.len() as u64,
                Constraint::Table { tuples, vars, .. } => {
                    s.table_tuples += (tuples.len() / vars.len().max(1)) as u64;
                    tuples.len() as u64
                }
                Constraint::Linear { terms, enforce, .. } => (terms.len() + enforce.len()) as u64,
                Constraint::BoolOr { lits, .. } | Constraint::ExactlyOne { lits, .. } => {
                    lits.len() as u64
                }
                Constraint::BoolAnd { lits, enforce, .. } => (lits.len() + enforce.len()) as u64,
            };
        }
        s
    }

    /// Add an integer variable; returns its id.
    pub(crate) fn add_var(&mut self, name: String, domain: Vec<(i64, i64)>) -> VarId {
        self.vars.push(IntVar { name, domain });
        self.vars.len() - 1
    }

    /// Add a 0/1 variable; returns its positive literal.
    pub(crate) fn add_bool(&mut self, name: String) -> Lit {
        Lit::Pos(self.add_var(name, vec![(0, 1)]))
    }

    /// `lit <=> (var == value)`.
    pub(crate) fn channel_eq(&mut self, name: &str, lit: Lit, var: VarId, value: i64) {
        self.constraints.push(Constraint::Linear {
            name: format!("{name}_eq"),
            terms: vec![(var, 1)],
            domain: vec![(value, value)],
            enforce: vec![lit],
        });
        self.constraints.push(Constraint::Linear {
            name: format!("{name}_ne"),
            terms: vec![(var, 1)],
            domain: vec![(-BIG, value - 1), (value + 1, BIG)],
            enforce: vec![!lit],
        });
    }

    /// The tile and rotation variables of 0-based cell (i, j).
    pub fn cell(&self, i: usize, j: usize) -> (VarId, VarId) {
        self.cells[i * self.cols + j]
    }

    /// Read a board from a full assignment of the variables (indexed like `vars`).
    pub fn decode(&self, values: &[i64]) -> Option<Vec<Placement>> {
        self.cells
            .iter()
            .map(|&(t, r)| {
                Some(Placement {
                    tile: *values.get(t)?,
                    rotation: u8::try_from(*values.get(r)?).ok()?,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_is_parsed_back_from_its_name_and_edge_is_the_default() {
        for c in Choice::ALL {
            assert_eq!(c.name().parse::<Choice>(), Ok(c));
        }
        assert_eq!(Choice::default().name(), DEFAULT);
        let names: Vec<&str> = Choice::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names, ["table", "edge", "boolean", "edge-boolean"]);
        let e = "tables".parse::<Choice>().unwrap_err();
        assert!(e.contains("expected one of table, edge"), "{e}");
    }

    #[test]
    fn intervals_compress_runs() {
        assert_eq!(intervals(&[1, 2, 3, 5, 7, 8]), vec![(1, 3), (5, 5), (7, 8)]);
        assert_eq!(intervals(&[]), vec![]);
    }
}
