//! Solve shards (`solve --shard I/N --format json|jsonl`): counts summed
//! over shards (each class lies in exactly one shard's units), picture
//! classes from the shards' picture weights, canonical solutions
//! deduplicated, completeness naming the missing or stopped shards, times
//! maxed (the run's wall time) and summed (the solver's).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::json::{Format, Input, read};
use crate::board::Solution;
use crate::commands::shards::{Identity, MergeError, claim};
use crate::solve::{Counts, Keep, Outcome, SolveResult, SolverStats, StopReason};
use crate::symmetry::Equivalence;

/// The merged report of a sharded solve and how to print it.
pub(crate) struct SolveMerged {
    pub format: Format,
    pub puzzle: String,
    pub title: Option<String>,
    pub board: usize,
    pub facts: crate::puzzle::Facts,
    pub tiles: usize,
    /// Printed with `raw_solutions` (`solve --all`).
    pub all: bool,
    pub result: SolveResult,
    /// Shards not among the files (0-based).
    pub missing: Vec<usize>,
    /// Shards that stopped early.
    pub incomplete: Vec<usize>,
}

/// Merge the outputs of a sharded solve.
pub(crate) fn merge(paths: &[PathBuf]) -> Result<SolveMerged, MergeError> {
    let mut inputs = Vec::new();
    let mut format = None;
    for p in paths {
        let (f, input) = read(p)?;
        if format.is_some_and(|g| g != f) {
            return Err(MergeError::Mismatch(format!(
                "{}: JSON Lines and JSON shards mixed",
                p.display()
            )));
        }
        format = Some(f);
        inputs.push(input);
    }
    let (Some(format), Some(first)) = (format, inputs.first()) else {
        return Err(MergeError::Mismatch("no shard outputs to merge".into()));
    };
    // Every shard of one run: the same puzzle, options, version and count.
    let id = |i: &Input| Identity {
        what: format!("the puzzle {}", i.report.puzzle),
        fingerprint: i.meta.fingerprint.clone(),
        options: i.meta.options.clone(),
        count: i.meta.count,
        version: format!(
            "scramble {} with {} {}",
            i.meta.version, i.report.solver, i.report.solver_version
        ),
    };
    let mut seen: Vec<Option<&Path>> = vec![None; first.meta.count];
    for i in &inputs {
        id(i).check(&i.path, &id(first), &first.path)?;
        claim(&mut seen, &i.path, i.meta.index, i.meta.count)?;
    }
    let missing: Vec<usize> = (0..seen.len()).filter(|&k| seen[k].is_none()).collect();
    inputs.sort_by_key(|i| i.meta.index);
    Ok(join(format, &inputs, missing))
}

/// How the merged run ended: invalid if a shard was, incomplete if a
/// shard is missing or stopped (with their one reason, else `shards`),
/// else complete or infeasible.
fn outcome(
    inputs: &[Input],
    missing: &[usize],
    invalid: Option<&str>,
    complete: bool,
    raw: u128,
) -> Outcome {
    if let Some(m) = invalid {
        Outcome::Invalid(m.to_string())
    } else if !complete {
        // One reason if every stopped shard gives the same, else `shards`.
        let reasons: BTreeSet<String> = inputs
            .iter()
            .filter_map(|i| i.report.stopped_by.map(|r| format!("{r:?}")))
            .collect();
        let reason = match inputs.iter().find_map(|i| i.report.stopped_by) {
            Some(r) if missing.is_empty() && reasons.len() == 1 => r,
            _ => StopReason::Shards,
        };
        Outcome::Incomplete(reason)
    } else if raw == 0 {
        Outcome::Infeasible
    } else {
        Outcome::Complete
    }
}

fn join(format: Format, inputs: &[Input], missing: Vec<usize>) -> SolveMerged {
    let first = &inputs[0];
    let meta = &first.meta;
    let equivalence = first.report.equivalence;
    let incomplete: Vec<usize> = inputs
        .iter()
        .filter(|i| !i.report.outcome().is_complete())
        .map(|i| i.meta.index)
        .collect();
    let invalid = inputs.iter().find_map(|i| i.report.error.clone());
    let complete = missing.is_empty() && incomplete.is_empty();
    // Each class lies in exactly one shard's units (the solvers report one
    // turn of each, never a picture class, under `--shard`).
    let raw: u128 = inputs.iter().map(|i| i.report.raw_count).sum();
    let classes: u128 = inputs.iter().map(|i| i.report.classes_count).sum();
    let weight: u128 = inputs.iter().map(|i| i.meta.picture_weight).sum();
    let all = inputs.iter().any(|i| i.report.raw_solutions.is_some());
    let union = |lists: &mut dyn Iterator<Item = &[Solution]>| -> Vec<Solution> {
        lists
            .flatten()
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    let shown = union(&mut inputs.iter().flat_map(|i| {
        i.report
            .solutions
            .as_deref()
            .into_iter()
            .chain(Some(i.streamed.as_slice()).filter(|s| !s.is_empty()))
    }));
    let raw_list = union(
        &mut inputs
            .iter()
            .filter_map(|i| i.report.raw_solutions.as_deref()),
    );
    let pictures = if complete && meta.picture_divisor > 0 {
        weight / meta.picture_divisor
    } else if equivalence == Equivalence::Picture && meta.keep != Keep::Count {
        shown.len() as u128
    } else {
        // Stopped early: the picture classes some shard found, at least.
        inputs
            .iter()
            .map(|i| i.report.pictures_count)
            .max()
            .unwrap_or(0)
    };
    // Streamed classes are listed too: the merge prints them as lines.
    let (classes_list, pictures_list) = match (meta.keep, equivalence) {
        (Keep::Count, _) => (Vec::new(), Vec::new()),
        (_, Equivalence::Rotation) => (shown, Vec::new()),
        (_, Equivalence::Picture) => (Vec::new(), shown),
    };
    let outcome = outcome(inputs, &missing, invalid.as_deref(), complete, raw);
    let secs = Duration::from_secs_f64;
    let result = SolveResult {
        solver: first.report.solver,
        solver_version: first.report.solver_version.to_string(),
        model: first.model.clone(),
        symmetry: first.report.symmetry.clone(),
        symmetry_proven: first.report.symmetry_proven,
        equivalence,
        outcome,
        counts: Counts {
            raw,
            classes,
            pictures,
        },
        keep: meta.keep,
        raw: raw_list,
        classes: classes_list,
        pictures: pictures_list,
        wall_time: secs(
            inputs
                .iter()
                .map(|i| i.report.wall_time_s)
                .fold(0.0, f64::max),
        ),
        time_to_first: inputs
            .iter()
            .filter_map(|i| i.report.time_to_first_s)
            .min_by(f64::total_cmp)
            .map(secs),
        stats: stats(inputs),
    };
    SolveMerged {
        format,
        puzzle: first.report.puzzle.to_string(),
        title: first.report.title.as_deref().map(String::from),
        board: first.report.board,
        facts: first.report.facts.clone().into_owned(),
        tiles: first.report.tiles,
        all,
        result,
        missing,
        incomplete,
    }
}

/// The solver statistics of the whole run, joined as the engine says
/// (its work summed over shards, each shard's unit counts dropped).
fn stats(inputs: &[Input]) -> SolverStats {
    let all: Vec<&SolverStats> = inputs
        .iter()
        .map(|i| i.report.solver_stats.as_ref())
        .collect();
    let engine = inputs
        .first()
        .map_or(crate::solve::Engine::named(""), |i| i.report.solver);
    crate::registry::merge_stats(engine, &all)
}
