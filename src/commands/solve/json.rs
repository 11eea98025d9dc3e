//! The JSON report, written (`render`, the JSON Lines of `--format jsonl`)
//! and read back (`read`, for the merge of shards). Its key names are a
//! contract: other tools and tests read them (README.md lists them).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::board::Solution;
use crate::commands::shards::MergeError;
use crate::render::Report;
use crate::solve::{Engine, Keep, Meta, Outcome, Searched, SolveResult, SolverStats, StopReason};
use crate::symmetry::Symmetry;

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

#[derive(Serialize)]
struct Json<'a> {
    /// `summary` in JSON Lines (the last line); absent in the JSON report.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    puzzle: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    board: usize,
    #[serde(flatten)]
    facts: &'a crate::puzzle::Facts,
    tiles: usize,
    solver: Engine,
    solver_version: &'a str,
    model: &'a Searched,
    symmetry: String,
    /// Present (false) only where the symmetry is not proven to keep a
    /// member of every class: the counts may then be too low.
    #[serde(skip_serializing_if = "is_true")]
    symmetry_proven: bool,
    equivalence: &'a str,
    complete: bool,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<StopReason>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    raw_count: u128,
    canonical_count: u128,
    classes_count: u128,
    pictures_count: u128,
    /// Absent when the run kept no solutions (`--count`).
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<&'a [Solution]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    raw_solutions: Option<&'a [Solution]>,
    /// Present where the lists were cut to what the time left could
    /// write: how many solutions they held (the counts are whole).
    #[serde(skip_serializing_if = "Option::is_none")]
    listed_of: Option<usize>,
    wall_time_s: f64,
    /// Seconds from the start to the first solution (absent: none found).
    #[serde(skip_serializing_if = "Option::is_none")]
    time_to_first_s: Option<f64>,
    solver_stats: &'a SolverStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<&'a Meta>,
    #[serde(skip_serializing_if = "<[usize]>::is_empty")]
    shards_missing: &'a [usize],
    #[serde(skip_serializing_if = "<[usize]>::is_empty")]
    shards_incomplete: &'a [usize],
}

/// One JSON object (pretty-printed, newline-terminated).
pub(crate) fn render(r: &Report<'_>) -> String {
    let extra = Extra {
        cut_from: r.cut_from,
        ..Extra::default()
    };
    render_with(&Head::of(r), r.result, r.all, &extra)
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
) -> Json<'a> {
    let (outcome, stopped_by, error) = match &res.outcome {
        Outcome::Complete => ("complete", None, None),
        Outcome::Infeasible => ("infeasible", None, None),
        Outcome::Incomplete(reason) => ("incomplete", Some(*reason), None),
        Outcome::Invalid(m) => ("invalid", None, Some(m.as_str())),
    };
    Json {
        kind,
        puzzle: head.path,
        title: head.title,
        board: head.board,
        facts: &head.facts,
        tiles: head.tiles,
        solver: res.solver,
        solver_version: &res.solver_version,
        model: &res.model,
        symmetry: res.symmetry.name(),
        symmetry_proven: res.symmetry_proven,
        equivalence: res.equivalence.name(),
        complete: res.outcome.is_complete(),
        outcome,
        stopped_by,
        error,
        raw_count: res.counts.raw,
        canonical_count: res.counts.under(res.equivalence),
        classes_count: res.counts.classes,
        pictures_count: res.counts.pictures,
        solutions: (matches!(res.keep, Keep::All | Keep::Canonical) && kind.is_none())
            .then(|| res.canonical()),
        raw_solutions: all.then_some(res.raw.as_slice()),
        listed_of: extra.cut_from,
        wall_time_s: res.wall_time.as_secs_f64(),
        time_to_first_s: res.time_to_first.map(|d| d.as_secs_f64()),
        solver_stats: &res.stats,
        shard: extra.shard,
        shards_missing: extra.shards_missing,
        shards_incomplete: extra.shards_incomplete,
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

/// One shard's report, as `solve --shard --format json` writes it (the
/// summary line of JSON Lines has the same keys, less the solutions).
#[derive(Debug, Deserialize)]
pub(super) struct ShardReport {
    pub(super) puzzle: String,
    pub(super) title: Option<String>,
    pub(super) board: usize,
    #[serde(flatten)]
    pub(super) facts: crate::puzzle::Facts,
    pub(super) tiles: usize,
    pub(super) solver: Engine,
    pub(super) solver_version: String,
    pub(super) model: String,
    #[serde(deserialize_with = "symmetry_named")]
    pub(super) symmetry: Symmetry,
    /// Absent where the symmetry is proven.
    #[serde(default = "proven")]
    pub(super) symmetry_proven: bool,
    pub(super) equivalence: String,
    pub(super) outcome: String,
    pub(super) stopped_by: Option<StopReason>,
    pub(super) error: Option<String>,
    pub(super) raw_count: u128,
    pub(super) classes_count: u128,
    pub(super) pictures_count: u128,
    pub(super) solutions: Option<Vec<Solution>>,
    pub(super) raw_solutions: Option<Vec<Solution>>,
    pub(super) wall_time_s: f64,
    pub(super) time_to_first_s: Option<f64>,
    pub(super) solver_stats: SolverStats,
    pub(super) shard: Option<Meta>,
}

/// One shard output read from a file.
pub(super) struct Input {
    pub(super) path: PathBuf,
    pub(super) report: ShardReport,
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
    let model = crate::registry::read_searched(report.solver, &report.model).map_err(err)?;
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
            model,
            meta,
            streamed,
        },
    ))
}
