//! Solve shards (`solve --shard I/N --format json|jsonl`): counts summed
//! over shards (each class lies in exactly one shard's units), picture
//! classes from the shards' picture weights, canonical solutions
//! deduplicated, completeness naming the missing or stopped shards, times
//! maxed (the run's wall time) and summed (the solver's).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::board::Solution;
use crate::commands::shards::{Identity, MergeError, claim};
use crate::solve::{Counts, Engine, Keep, Meta, Outcome, SolveResult, SolverStats, StopReason};
use crate::symmetry::{Equivalence, Symmetry};

/// A report without `symmetry_proven` ran a proven symmetry.
fn proven() -> bool {
    true
}

/// How the shards were written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Json,
    Jsonl,
}

/// One shard's report, as `solve --shard --format json` writes it (the
/// summary line of JSON Lines has the same keys, less the solutions).
#[derive(Debug, Deserialize)]
struct ShardReport {
    puzzle: String,
    title: Option<String>,
    board: usize,
    #[serde(flatten)]
    facts: crate::puzzle::Facts,
    tiles: usize,
    solver: Engine,
    solver_version: String,
    model: String,
    #[serde(deserialize_with = "symmetry_named")]
    symmetry: Symmetry,
    /// Absent where the symmetry is proven.
    #[serde(default = "proven")]
    symmetry_proven: bool,
    equivalence: String,
    outcome: String,
    stopped_by: Option<StopReason>,
    error: Option<String>,
    raw_count: u128,
    classes_count: u128,
    pictures_count: u128,
    solutions: Option<Vec<Solution>>,
    raw_solutions: Option<Vec<Solution>>,
    wall_time_s: f64,
    time_to_first_s: Option<f64>,
    solver_stats: SolverStats,
    shard: Option<Meta>,
}

/// One shard output read from a file.
struct Input {
    path: PathBuf,
    report: ShardReport,
    meta: Meta,
    /// JSON Lines: the streamed solutions.
    streamed: Vec<Solution>,
}

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

/// A symmetry by its name, as a report writes it.
fn symmetry_named<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Symmetry, D::Error> {
    let name = String::deserialize(d)?;
    name.parse().map_err(serde::de::Error::custom)
}

fn read(path: &Path) -> Result<(Format, Input), MergeError> {
    let err = |message: String| MergeError::File {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
    // JSON Lines: the first line is an object with a "type".
    let lines = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .is_some_and(|v| v.get("type").is_some());
    let (format, report, streamed) = if !lines {
        let r: ShardReport = serde_json::from_str(&text)
            .map_err(|e| err(format!("not a JSON report of scramble solve: {e}")))?;
        (Format::Json, r, Vec::new())
    } else {
        #[derive(Deserialize)]
        struct Line {
            #[serde(rename = "type")]
            kind: String,
            solution: Option<Solution>,
        }
        let mut streamed = Vec::new();
        let mut summary = None;
        for (k, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = |e: serde_json::Error| err(format!("line {}: {e}", k + 1));
            let l: Line = serde_json::from_str(line).map_err(at)?;
            match (l.kind.as_str(), l.solution) {
                ("solution", Some(s)) => streamed.push(s),
                ("summary", _) => summary = Some(serde_json::from_str(line).map_err(at)?),
                (kind, _) => {
                    return Err(err(format!(
                        "line {}: a {kind:?} line is not scramble solve's JSON Lines",
                        k + 1
                    )));
                }
            }
        }
        let summary = summary.ok_or_else(|| {
            err("no summary line: the shard did not finish writing (run it again)".into())
        })?;
        (Format::Jsonl, summary, streamed)
    };
    let meta = report.shard.clone().ok_or_else(|| {
        err("not the output of a shard (scramble solve --shard I/N --format json)".into())
    })?;
    if meta.format != Meta::FORMAT {
        return Err(err(format!(
            "shard format {:?}, expected {:?}",
            meta.format,
            Meta::FORMAT
        )));
    }
    // Boards are read as squares; each takes the board's shape.
    let shape = report.facts.shape();
    let mut report = report;
    let mut streamed = streamed;
    for list in [&mut report.solutions, &mut report.raw_solutions]
        .into_iter()
        .flatten()
        .chain(Some(&mut streamed))
    {
        for s in list.iter_mut() {
            *s = s.clone().reshaped(shape).ok_or_else(|| {
                err(format!(
                    "a solution of {} cells on a {}x{} board",
                    s.cells().len(),
                    shape.rows,
                    shape.cols
                ))
            })?;
        }
    }
    Ok((
        format,
        Input {
            path: path.to_path_buf(),
            report,
            meta,
            streamed,
        },
    ))
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
    let equivalence = match first.report.equivalence.as_str() {
        "picture" => Equivalence::Picture,
        _ => Equivalence::Rotation,
    };
    let incomplete: Vec<usize> = inputs
        .iter()
        .filter(|i| !matches!(i.report.outcome.as_str(), "complete" | "infeasible"))
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
    let union = |lists: &mut dyn Iterator<Item = &Vec<Solution>>| -> Vec<Solution> {
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
            .as_ref()
            .into_iter()
            .chain(Some(&i.streamed).filter(|s| !s.is_empty()))
    }));
    let raw_list = union(
        &mut inputs
            .iter()
            .filter_map(|i| i.report.raw_solutions.as_ref()),
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
        solver_version: first.report.solver_version.clone(),
        model: first.report.model.clone(),
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
        puzzle: first.report.puzzle.clone(),
        title: first.report.title.clone(),
        board: first.report.board,
        facts: first.report.facts.clone(),
        tiles: first.report.tiles,
        all,
        result,
        missing,
        incomplete,
    }
}

/// The solver statistics of the whole run: work summed over shards, the
/// nodes of the levels every shard searched to find its units counted
/// once, the deepest split, and no unit counts (one run has none).
fn stats(inputs: &[Input]) -> SolverStats {
    let all: Vec<&SolverStats> = inputs.iter().map(|i| &i.report.solver_stats).collect();
    fn sum<T: Copy + std::iter::Sum<T>>(
        all: &[&SolverStats],
        f: impl Fn(&SolverStats) -> Option<T>,
    ) -> Option<T> {
        let v: Vec<T> = all.iter().filter_map(|s| f(s)).collect();
        (!v.is_empty()).then(|| v.into_iter().sum())
    }
    fn max<T: Copy + PartialOrd>(
        all: &[&SolverStats],
        f: impl Fn(&SolverStats) -> Option<T>,
    ) -> Option<T> {
        all.iter()
            .filter_map(|s| f(s))
            .reduce(|a, b| if b > a { b } else { a })
    }
    let depth = all.iter().find_map(|s| s.unit_depth).unwrap_or(0);
    let per_depth = all.iter().fold(None::<Vec<u64>>, |acc, s| {
        let Some(v) = &s.nodes_per_depth else {
            return acc;
        };
        Some(match acc {
            None => v.clone(),
            Some(mut a) => {
                for (d, (x, y)) in a.iter_mut().zip(v).enumerate() {
                    if d >= depth {
                        *x += y;
                    }
                }
                a
            }
        })
    });
    let nodes = per_depth.as_ref().map(|v| v.iter().sum::<u64>());
    let wall = sum(&all, |s| s.wall_time_s);
    SolverStats {
        branches: sum(&all, |s| s.branches),
        conflicts: sum(&all, |s| s.conflicts),
        wall_time_s: wall,
        build_time_s: max(&all, |s| s.build_time_s),
        subproblems: sum(&all, |s| s.subproblems),
        subproblems_split: sum(&all, |s| s.subproblems_split),
        max_split_depth: max(&all, |s| s.max_split_depth),
        workers: all.first().and_then(|s| s.workers),
        nodes,
        nodes_per_depth: per_depth,
        nodes_per_second: nodes
            .zip(wall)
            .map(|(n, w)| if w > 0.0 { n as f64 / w } else { 0.0 }),
        units: None,
        units_run: None,
        unit_depth: None,
    }
}
