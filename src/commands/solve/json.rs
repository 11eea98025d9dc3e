//! The JSON report, written (`render`, the JSON Lines of `--format jsonl`)
//! and read back (`read`, for the merge of shards). Its key names are a
//! contract: other tools and tests read them (README.md lists them).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::board::Solution;
use crate::commands::shards::MergeError;
use crate::render::Report;
use crate::solve::{Engine, Keep, Meta, Outcome, Searched, SolveResult, SolverStats, StopReason};
use crate::symmetry::{Equivalence, Symmetry};

/// What the report says of the puzzle.
pub(crate) struct Head<'a> {
    /// The puzzle path as the user gave it.
    pub path: &'a str,
    pub title: Option<&'a str>,
    pub board: usize,
    pub tiles: usize,
    pub facts: crate::puzzle::Facts,
}

impl<'a> Head<'a> {
    pub(crate) fn of(r: &'a Report<'_>) -> Head<'a> {
        Head {
            path: r.path,
            title: r.puzzle.title(),
            board: r.puzzle.rows(),
            tiles: r.puzzle.len(),
            facts: r.puzzle.facts(),
        }
    }
}

/// What a shard's output, or a merge of shards, adds to the report.
#[derive(Default)]
pub(crate) struct Extra<'a> {
    /// A shard's own output: which share it is.
    pub shard: Option<&'a Meta>,
    /// A merge: the shards it lacks, and those that stopped early.
    pub shards_missing: &'a [usize],
    pub shards_incomplete: &'a [usize],
    /// The lists were cut to what the time left could write: how many
    /// solutions they held ([`Report::cut_from`]).
    pub cut_from: Option<usize>,
}

/// How a run ended, as the report's `outcome` names it (with
/// `stopped_by` and `error` beside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Ended {
    Complete,
    Infeasible,
    Incomplete,
    Invalid,
}

/// solve's JSON report: the one type written (`render`, the summary line
/// of JSON Lines) and read back (`read`, the merge of shards). Written, it
/// borrows the run's result; read, it owns what it read.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct SolveReport<'a> {
    /// `summary` in JSON Lines (the last line); absent in the JSON report.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none", default)]
    pub(super) kind: Option<Cow<'a, str>>,
    pub(super) puzzle: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) title: Option<Cow<'a, str>>,
    pub(super) board: usize,
    #[serde(flatten)]
    pub(super) facts: Cow<'a, crate::puzzle::Facts>,
    pub(super) tiles: usize,
    pub(super) solver: Engine,
    pub(super) solver_version: Cow<'a, str>,
    /// What the engine searched, by its name (read back by its engine).
    pub(super) model: Cow<'a, Searched>,
    #[serde(serialize_with = "symmetry_name", deserialize_with = "symmetry_named")]
    pub(super) symmetry: Symmetry,
    /// Present (false) only where the symmetry is not proven to keep a
    /// member of every class: the counts may then be too low.
    #[serde(skip_serializing_if = "is_true", default = "proven")]
    pub(super) symmetry_proven: bool,
    #[serde(with = "equivalence_name")]
    pub(super) equivalence: Equivalence,
    pub(super) complete: bool,
    pub(super) outcome: Ended,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) stopped_by: Option<StopReason>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) error: Option<Cow<'a, str>>,
    pub(super) raw_count: u128,
    pub(super) canonical_count: u128,
    pub(super) classes_count: u128,
    pub(super) pictures_count: u128,
    /// Absent when the run kept no solutions (`--count`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) solutions: Option<Cow<'a, [Solution]>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) raw_solutions: Option<Cow<'a, [Solution]>>,
    /// Present where the lists were cut to what the time left could
    /// write: how many solutions they held (the counts are whole).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) listed_of: Option<usize>,
    pub(super) wall_time_s: f64,
    /// Seconds from the start to the first solution (absent: none found).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) time_to_first_s: Option<f64>,
    pub(super) solver_stats: Cow<'a, SolverStats>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) shard: Option<Cow<'a, Meta>>,
    #[serde(skip_serializing_if = "<[usize]>::is_empty", default)]
    pub(super) shards_missing: Cow<'a, [usize]>,
    #[serde(skip_serializing_if = "<[usize]>::is_empty", default)]
    pub(super) shards_incomplete: Cow<'a, [usize]>,
}

impl SolveReport<'_> {
    /// The run's outcome, read back.
    pub(super) fn outcome(&self) -> Outcome {
        match self.outcome {
            Ended::Complete => Outcome::Complete,
            Ended::Infeasible => Outcome::Infeasible,
            Ended::Incomplete => {
                Outcome::Incomplete(self.stopped_by.unwrap_or(StopReason::Interrupted))
            }
            Ended::Invalid => Outcome::Invalid(self.error.as_deref().unwrap_or("").into()),
        }
    }
}

/// An equivalence by its name, as a report writes it.
mod equivalence_name {
    use super::*;
    pub(super) fn serialize<S: serde::Serializer>(
        e: &Equivalence,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(e.name())
    }
    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Equivalence, D::Error> {
        let name = String::deserialize(d)?;
        <Equivalence as clap::ValueEnum>::from_str(&name, false).map_err(serde::de::Error::custom)
    }
}

fn symmetry_name<S: serde::Serializer>(y: &Symmetry, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&y.name())
}

/// One JSON object (pretty-printed, newline-terminated).
pub(crate) fn render(r: &Report<'_>) -> String {
    let extra = Extra {
        cut_from: r.cut_from,
        ..Extra::default()
    };
    render_with(&Head::of(r), r.result, r.all, &extra)
}

/// The report of [`render`] into any serializer (the Python package's
/// objects).
pub(crate) fn serialize<S: serde::Serializer>(r: &Report<'_>, s: S) -> Result<S::Ok, S::Error> {
    let extra = Extra {
        cut_from: r.cut_from,
        ..Extra::default()
    };
    object(&Head::of(r), r.result, r.all, &extra, None).serialize(s)
}

/// [`render`] from its parts, with what a shard or a merge adds.
pub(crate) fn render_with(head: &Head, res: &SolveResult, all: bool, extra: &Extra) -> String {
    let mut s = crate::render::json::to_string(&object(head, res, all, extra, None));
    s.push('\n');
    s
}

/// The report as one line of JSON Lines, `"type": "summary"`, without the
/// solutions (they were streamed before it).
pub(crate) fn summary_line(head: &Head, res: &SolveResult, extra: &Extra) -> String {
    let mut s = serde_json::to_string(&object(head, res, false, extra, Some("summary")))
        .expect("serializable");
    s.push('\n');
    s
}

/// One streamed solution as a line of JSON Lines: its number (from 1) and
/// its cells, row-major `[tile, rotation]` pairs.
pub(crate) fn solution_line(k: u64, s: &Solution) -> String {
    #[derive(Serialize)]
    struct Line<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        index: u64,
        solution: &'a Solution,
    }
    let mut out = serde_json::to_string(&Line {
        kind: "solution",
        index: k,
        solution: s,
    })
    .expect("serializable");
    out.push('\n');
    out
}

fn object<'a>(
    head: &'a Head<'a>,
    res: &'a SolveResult,
    all: bool,
    extra: &Extra<'a>,
    kind: Option<&'static str>,
) -> SolveReport<'a> {
    let (outcome, stopped_by, error) = match &res.outcome {
        Outcome::Complete => (Ended::Complete, None, None),
        Outcome::Infeasible => (Ended::Infeasible, None, None),
        Outcome::Incomplete(reason) => (Ended::Incomplete, Some(*reason), None),
        Outcome::Invalid(m) => (Ended::Invalid, None, Some(Cow::Borrowed(m.as_str()))),
    };
    SolveReport {
        kind: kind.map(Cow::Borrowed),
        puzzle: Cow::Borrowed(head.path),
        title: head.title.map(Cow::Borrowed),
        board: head.board,
        facts: Cow::Borrowed(&head.facts),
        tiles: head.tiles,
        solver: res.solver,
        solver_version: Cow::Borrowed(&res.solver_version),
        model: Cow::Borrowed(&res.model),
        symmetry: res.symmetry.clone(),
        symmetry_proven: res.symmetry_proven,
        equivalence: res.equivalence,
        complete: res.outcome.is_complete(),
        outcome,
        stopped_by,
        error,
        raw_count: res.counts.raw,
        canonical_count: res.counts.under(res.equivalence),
        classes_count: res.counts.classes,
        pictures_count: res.counts.pictures,
        solutions: (matches!(res.keep, Keep::All | Keep::Canonical) && kind.is_none())
            .then(|| Cow::Borrowed(res.canonical())),
        raw_solutions: all.then_some(Cow::Borrowed(res.raw.as_slice())),
        listed_of: extra.cut_from,
        wall_time_s: res.wall_time.as_secs_f64(),
        time_to_first_s: res.time_to_first.map(|d| d.as_secs_f64()),
        solver_stats: Cow::Borrowed(&res.stats),
        shard: extra.shard.map(Cow::Borrowed),
        shards_missing: Cow::Borrowed(extra.shards_missing),
        shards_incomplete: Cow::Borrowed(extra.shards_incomplete),
    }
}

fn is_true(b: &bool) -> bool {
    *b
}

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

/// One shard output read from a file.
pub(super) struct Input {
    pub(super) path: PathBuf,
    pub(super) report: SolveReport<'static>,
    /// The report's model, read with its solver.
    pub(super) model: Searched,
    pub(super) meta: Meta,
    /// JSON Lines: the streamed solutions.
    pub(super) streamed: Vec<Solution>,
}

/// A symmetry by its name, as a report writes it.
fn symmetry_named<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Symmetry, D::Error> {
    let name = String::deserialize(d)?;
    name.parse().map_err(serde::de::Error::custom)
}

pub(super) fn read(path: &Path) -> Result<(Format, Input), MergeError> {
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
        let r: SolveReport = serde_json::from_str(&text)
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
    let meta = report.shard.clone().map(Cow::into_owned).ok_or_else(|| {
        err("not the output of a shard (scramble solve --shard I/N --format json)".into())
    })?;
    if meta.format != Meta::FORMAT {
        return Err(err(format!(
            "shard format {:?}, expected {:?}",
            meta.format,
            Meta::FORMAT
        )));
    }
    let model =
        crate::registry::read_searched(report.solver, report.model.as_str()).map_err(err)?;
    // Boards are read as squares; each takes the board's shape.
    let shape = report.facts.shape();
    let mut report = report;
    let mut streamed = streamed;
    for list in [&mut report.solutions, &mut report.raw_solutions]
        .into_iter()
        .flatten()
        .map(Cow::to_mut)
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
            model,
            meta,
            streamed,
        },
    ))
}
