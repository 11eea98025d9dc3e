//! The symmetry experiment behind `scramble symmetry-report`: run every
//! formulation (and combination) on a puzzle and check each against the
//! `none` run's canonical sets.

pub(crate) mod command;
pub(crate) mod render;

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use crate::board::Solution;
use crate::puzzle::Puzzle;
use crate::solve::{self, SolveError, SolveOptions, Solver, TimeShare};
use crate::symmetry::{Equivalence, Symmetry};

/// How a formulation's solutions compare with the full enumeration's classes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "verdict")]
pub(crate) enum Verdict {
    /// Exactly one solution per class, no class lost.
    Exact,
    /// Some classes have no solution left, and/or some have more than one.
    Wrong { lost: usize, duplicates: usize },
    /// The run (or the reference run) did not finish.
    Unknown,
}

impl Verdict {
    fn of(reference: &BTreeSet<Solution>, got: &[Solution], raw: u128) -> Verdict {
        let got: BTreeSet<&Solution> = got.iter().collect();
        let lost = reference.iter().filter(|s| !got.contains(s)).count();
        let duplicates = usize::try_from(raw - got.len() as u128).unwrap_or(usize::MAX);
        if lost == 0 && duplicates == 0 {
            Verdict::Exact
        } else {
            Verdict::Wrong { lost, duplicates }
        }
    }
    pub(crate) fn is_exact(&self) -> bool {
        matches!(self, Verdict::Exact)
    }
    /// Some class has no solution left.
    pub(crate) fn loses(&self) -> bool {
        matches!(self, Verdict::Wrong { lost, .. } if *lost > 0)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Exact => f.write_str("exact"),
            Verdict::Unknown => f.write_str("unknown (incomplete)"),
            Verdict::Wrong { lost, duplicates } => {
                let mut parts = Vec::new();
                if *lost > 0 {
                    parts.push(format!("loses {lost} classes"));
                }
                if *duplicates > 0 {
                    parts.push(format!("keeps {duplicates} duplicates"));
                }
                f.write_str(&parts.join(", "))
            }
        }
    }
}

/// One formulation on one puzzle.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Row {
    pub puzzle: String,
    /// The CP formulation (encoding) of the model; for another engine, the
    /// engine and its model.
    pub model: String,
    pub formulation: String,
    /// `None` when the formulation applies; else why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_applicable: Option<String>,
    pub raw: u128,
    pub classes: u128,
    pub pictures: u128,
    pub complete: bool,
    pub wall_time_s: f64,
    pub branches: u64,
    pub conflicts: u64,
    /// The model's size: variables, constraints, table tuples, integers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<crate::model::Size>,
    pub rotation: Verdict,
    pub picture: Verdict,
    /// The equivalences it is documented exact for.
    pub documented_exact: Vec<&'static str>,
    /// It is documented exact for an equivalence where it is not.
    pub contradicts_docs: bool,
}

/// A formulation of the user's own, reported beside the built-in ones: a
/// solver whose model carries the user's constraints, solved with a
/// built-in symmetry breaking (usually none).
pub(crate) struct Own<'a> {
    pub solver: &'a dyn Solver,
    pub symmetry: Symmetry,
    /// Its name in the report.
    pub name: String,
}

/// Run every combination on one puzzle, then the user's formulation if
/// given, each checked against the first. The first combination must be
/// `none`.
pub(crate) fn run(
    solver: &dyn Solver,
    puzzle: &Puzzle,
    label: &str,
    combinations: &[Symmetry],
    base: &SolveOptions,
    own: Option<&Own>,
    time: &mut TimeShare,
) -> Result<Vec<Row>, SolveError> {
    let mut rows = Vec::new();
    let mut reference: Option<(BTreeSet<Solution>, BTreeSet<Solution>, bool)> = None;
    let own_run = own.map(|o| (o.solver, &o.symmetry, o.name.clone(), true));
    let runs = combinations
        .iter()
        .map(|sym| (solver, sym, sym.name(), false))
        .chain(own_run);
    for (solver, sym, formulation, is_own) in runs {
        let exact_for = if is_own { vec![] } else { sym.exact_for() };
        let documented_exact: Vec<&'static str> = exact_for.iter().map(|e| e.name()).collect();
        let mut row = Row {
            puzzle: label.to_string(),
            model: if is_own {
                own.map(|o| o.solver.searched().to_string())
                    .unwrap_or_default()
            } else {
                model_label(solver)
            },
            formulation,
            not_applicable: None,
            raw: 0,
            classes: 0,
            pictures: 0,
            complete: false,
            wall_time_s: 0.0,
            branches: 0,
            conflicts: 0,
            size: None,
            rotation: Verdict::Unknown,
            picture: Verdict::Unknown,
            documented_exact,
            contradicts_docs: false,
        };
        // Every row counts against the command's time, run or not.
        let time_limit = time.next_limit();
        if let Err(e) = sym.check(puzzle) {
            row.not_applicable = Some(match e {
                crate::symmetry::SymmetryError::Precondition { reason, .. } => reason,
                other => other.to_string(),
            });
            rows.push(row);
            continue;
        }
        // Every combination is run, proven or not: the verdicts are the
        // point.
        let options = SolveOptions {
            symmetry: sym.clone(),
            allow_unproven: true,
            time_limit,
            ..base.clone()
        };
        let r = solve::run(solver, puzzle, &options)?;
        let complete = r.outcome.is_complete();
        if sym.is_none() && !is_own {
            reference = Some((
                r.classes.iter().cloned().collect(),
                r.pictures.iter().cloned().collect(),
                complete,
            ));
        }
        row.raw = r.counts.raw;
        row.classes = r.counts.classes;
        row.pictures = r.counts.pictures;
        row.complete = complete;
        row.wall_time_s = r.wall_time.as_secs_f64();
        row.branches = r.stats.count("branches").unwrap_or(0);
        row.conflicts = r.stats.count("conflicts").unwrap_or(0);
        row.size = solver.model_size(puzzle, sym);
        if let Some((classes, pictures, true)) = &reference
            && complete
        {
            row.rotation = Verdict::of(classes, &r.classes, row.raw);
            row.picture = Verdict::of(pictures, &r.pictures, row.raw);
            // Documented exact and not, or documented to keep every class
            // and losing one.
            row.contradicts_docs = [Equivalence::Rotation, Equivalence::Picture]
                .into_iter()
                .any(|e| {
                    let verdict = match e {
                        Equivalence::Rotation => &row.rotation,
                        Equivalence::Picture => &row.picture,
                    };
                    let proven = !is_own && sym.keeps(e).is_proven();
                    (exact_for.contains(&e) && !verdict.is_exact()) || (proven && verdict.loses())
                });
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The engines the report runs unless told (`--solvers`).
pub(crate) const DEFAULT_SOLVERS: &str = "cp-sat";

/// The model column: the default engine's model (`edge`), or another
/// engine and its model (`sat colour-sequential`, `backtrack spiral`).
fn model_label(solver: &dyn Solver) -> String {
    match solver.engine().name() == DEFAULT_SOLVERS {
        true => solver.searched().to_string(),
        false => format!("{} {}", solver.engine(), solver.searched()),
    }
}

/// Which formulations were exact on every puzzle and model they ran on,
/// per equivalence, and which were not somewhere: the report's closing
/// line. A formulation whose runs did not all finish is in neither.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    pub exact_rotation: Vec<String>,
    pub exact_picture: Vec<String>,
    pub not_exact: Vec<String>,
}

pub(crate) fn summary(rows: &[Row]) -> Summary {
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if r.formulation != "none" && !names.contains(&r.formulation.as_str()) {
            names.push(&r.formulation);
        }
    }
    let mut out = Summary::default();
    for name in names {
        let ran: Vec<&Row> = rows
            .iter()
            .filter(|r| r.formulation == name && r.not_applicable.is_none())
            .collect();
        if ran.is_empty() || ran.iter().any(|r| r.rotation == Verdict::Unknown) {
            continue;
        }
        let rotation = ran.iter().all(|r| r.rotation.is_exact());
        let picture = ran.iter().all(|r| r.picture.is_exact());
        if rotation {
            out.exact_rotation.push(name.to_string());
        }
        if picture {
            out.exact_picture.push(name.to_string());
        }
        if !rotation && !picture {
            out.not_exact.push(name.to_string());
        }
    }
    out
}
