//! `scramble count`: the exact numbers of labelled solutions, of classes
//! under board turns and of picture classes, by independent methods that
//! check each other (docs/count.md):
//!
//! - [`Method::Dp`]: a dynamic programme over the board (dp.rs) counts the
//!   pictures, and the pictures each board turn leaves unchanged, without
//!   enumerating them; Burnside's lemma and the labellings per picture give
//!   the three counts;
//! - [`Method::Fourier`]: the same programme's frontier without the kind
//!   counts, evaluated at roots of unity modulo primes (fourier/), for
//!   boards with few kinds of many tiles;
//! - [`Method::Enumerate`]: the backtracker enumerates one board per picture
//!   class and the collector counts, storing nothing;
//! - [`Method::Estimate`]: Knuth's random-probe estimate (estimate.rs), for
//!   puzzles neither exact method finishes, labelled as an estimate.

mod auto;
mod checkpoint;
mod dp;
mod estimate;
mod fourier;
mod methods;
mod orbits;
mod order;
mod plan;
mod request;

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::ValueEnum;
use serde::{Deserialize, Serialize};

use crate::engines::backtrack::{Backtrack, DEFAULT_ORDER, Order};
use crate::generate::Rng;
use crate::puzzle::Puzzle;
use crate::solve::{
    self, Cancel, Counts, Hooks, Keep, Meta, Outcome, Shard, SolveOptions, StopToken, TimeShare,
    UnitCounts,
};
use crate::symmetry::{Equivalence, labellings_per_picture, tile_kinds};

pub use auto::{CheckBudget, auto_methods};
pub use estimate::Estimate;
pub(crate) use methods::check_checkpoint;
use methods::run_method;
use order::enumeration_order;
pub use request::{CountRequest, DEFAULT_MAX_STATES};

use dp::{DpError, Limits, Programme, pictures_fixed_by};

/// A way of counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The dynamic programme over the board with Burnside's lemma.
    Dp,
    /// Backtracking enumeration, counting without storing.
    Enumerate,
    /// The programme's frontier at roots of unity, modulo primes.
    Fourier,
    /// Knuth's random-probe estimate (not exact).
    Estimate,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Dp => "dp",
            Method::Enumerate => "enumerate",
            Method::Fourier => "fourier",
            Method::Estimate => "estimate",
        }
    }
}

/// What a caller asks of a count.
#[derive(Clone, Debug)]
pub struct CountOptions {
    /// The methods, run in this order.
    pub methods: Vec<Method>,
    /// `--method auto`: a method after the first exact one only checks it,
    /// on this budget ([`auto_methods`] chooses the methods).
    pub check: Option<CheckBudget>,
    /// Estimate when no exact method finishes, even if not asked for.
    pub estimate_if_unfinished: bool,
    /// The whole count's time limit, shared among its methods
    /// ([`TimeShare`]).
    pub time_limit: Option<Duration>,
    pub threads: usize,
    pub stop: StopToken,
    /// The most states one step of the dynamic programme may hold.
    pub max_states: usize,
    /// fourier: the grid of points (0: the default).
    pub fourier_grid: u32,
    /// Probes per estimated tree.
    pub probes: u64,
    /// With a time limit: probe until the estimate's share of it ends
    /// (split evenly among its trees) rather than stop at `probes`.
    pub probes_fill_time: bool,
    pub seed: u64,
    /// Record finished work units here, and skip those it already holds.
    pub checkpoint: Option<PathBuf>,
    /// The method that keeps the checkpoint: enumerate or fourier.
    pub checkpoint_by: Method,
    /// enumerate: count only this shard's work units.
    pub shard: Option<Shard>,
    /// enumerate: the backtracker's placement order (work units, and so
    /// checkpoints and shards, belong to one order); `None`: the order
    /// [`enumeration_order`] chooses.
    pub order: Option<Order>,
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            methods: vec![Method::Dp, Method::Enumerate],
            check: None,
            estimate_if_unfinished: true,
            time_limit: None,
            threads: 1,
            stop: StopToken::new(),
            max_states: DEFAULT_MAX_STATES,
            fourier_grid: 0,
            probes: 100_000,
            probes_fill_time: false,
            seed: 1,
            checkpoint: None,
            checkpoint_by: Method::Enumerate,
            shard: None,
            order: None,
        }
    }
}

/// How a method ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Exact counts.
    Complete,
    /// Stopped by a limit or an interrupt; `found` holds lower bounds.
    Stopped,
    /// An estimate, not a count.
    Estimated,
    /// The method cannot count this puzzle (its message says why).
    Failed,
}

/// The dynamic programme's numbers: pictures in total and left unchanged
/// by each turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixed {
    /// All pictures (not merged under board turns).
    pub pictures: u128,
    /// Pictures a half turn leaves unchanged.
    pub half_turn: u128,
    /// Pictures a quarter turn leaves unchanged (as many as the three
    /// quarter turns).
    pub quarter_turn: u128,
    /// The most states one step held, over the three programmes.
    pub peak_states: usize,
}

/// Estimates of the three counts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimates {
    pub raw: Estimate,
    pub classes: Estimate,
    pub pictures: Estimate,
}

/// One method's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodResult {
    pub method: Method,
    pub status: Status,
    /// Why it stopped or failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Exact counts (complete), or what was found before stopping (lower
    /// bounds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed: Option<Fixed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimates>,
    /// Backtracking nodes (enumerate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    pub time_s: f64,
    /// enumerate in a shard: the picture weight of its finished units and
    /// the nodes above the units (moved into the report's shard).
    #[serde(skip)]
    pub(crate) shard_weight: Option<(u128, u64)>,
}

/// What `count` found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountReport {
    pub puzzle: String,
    /// Board rows (`n` on the square boards it was first written for).
    pub n: usize,
    /// Board columns.
    #[serde(default)]
    pub cols: usize,
    pub tiles: usize,
    pub kinds: usize,
    /// Labelled boards per picture (`None`: past 2^128).
    pub labellings_per_picture: Option<u128>,
    pub methods: Vec<MethodResult>,
    /// The exact counts, when at least one method finished and none
    /// disagrees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    /// The methods that found `counts`.
    pub agreed_by: Vec<Method>,
    /// Two methods that contradict each other (a bug in one of them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disagreement: Option<String>,
    /// A shard's count (`count --shard`): which share, and what merging
    /// needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardCount>,
    /// A merge of shards: those missing and those stopped early.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards_missing: Vec<usize>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards_incomplete: Vec<usize>,
}

/// What a shard's count records besides its report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardCount {
    /// As in a solve shard's output (not flattened: serde's flattening
    /// cannot hold the u128 picture weight).
    pub meta: Meta,
    /// The nodes of the levels above the work units, which every shard
    /// searches to find its units: counted once when merged.
    pub prefix_nodes: u64,
}

/// Counts `puzzle` by every method asked for.
pub fn count(puzzle: &Puzzle, options: &CountOptions) -> CountReport {
    let labellings = labellings_per_picture(puzzle);
    let mut results: Vec<MethodResult> = Vec::new();
    // The time limit is the whole count's: the methods share it (the
    // estimate run when nothing exact finishes has a share kept for it).
    let fallback = options.estimate_if_unfinished && !options.methods.contains(&Method::Estimate);
    let mut share = TimeShare::new(
        options.time_limit,
        Instant::now(),
        options.methods.len() + usize::from(fallback),
    );
    let with_share = |share: &mut TimeShare| CountOptions {
        time_limit: share.next_limit(),
        ..options.clone()
    };
    // The enumeration's order, chosen when it is about to run.
    let mut chosen = None;
    for &m in &options.methods {
        if options.stop.is_stopped() {
            break;
        }
        let mut o = with_share(&mut share);
        // A check of an exact count: its budget, unless the share is less.
        let first = results.iter().find(|r| r.status == Status::Complete);
        let budget = options
            .check
            .zip(first)
            .map(|(b, r)| (b, r.method, b.after(r.time_s)))
            .filter(|&(_, _, t)| o.time_limit.is_none_or(|share| t < share));
        if let Some((_, _, t)) = budget {
            o.time_limit = Some(t);
        }
        if m == Method::Enumerate && o.order.is_none() {
            let (order, why) = enumeration_order(puzzle, &o);
            o.order = Some(order);
            chosen = Some((order, why));
        }
        let mut r = run_method(puzzle, m, labellings, &o);
        if let Some((b, first, _)) = budget
            && r.status == Status::Stopped
            && !options.stop.is_stopped()
        {
            let note = b.note(first);
            r.message = Some(match r.message.take() {
                Some(m) => format!("{m}; {note}"),
                None => note,
            });
        }
        results.push(r);
    }
    let exact = |r: &MethodResult| r.status == Status::Complete;
    if fallback && !results.iter().any(exact) && !options.stop.is_stopped() {
        let o = with_share(&mut share);
        results.push(run_method(puzzle, Method::Estimate, labellings, &o));
    }
    if let Some((order, why)) = chosen.filter(|c| c.0 != DEFAULT_ORDER)
        && let Some(r) = results.iter_mut().find(|r| r.method == Method::Enumerate)
    {
        let note = format!("order {}: {why}", order.name());
        r.message = Some(match r.message.take() {
            Some(m) => format!("{m}; {note}"),
            None => note,
        });
    }
    let (counts, agreed_by, disagreement) = agree(&results);
    // An estimate never reaches below what a stopped method proved.
    if let Some(found) = found_before_stopping(&results) {
        for e in results.iter_mut().filter_map(|r| r.estimate.as_mut()) {
            e.raw = e.raw.at_least(found.raw);
            e.classes = e.classes.at_least(found.classes);
            e.pictures = e.pictures.at_least(found.pictures);
        }
    }
    CountReport {
        puzzle: puzzle.name().to_string(),
        n: puzzle.rows(),
        cols: puzzle.cols(),
        tiles: puzzle.len(),
        kinds: tile_kinds(puzzle).len(),
        labellings_per_picture: labellings,
        methods: results,
        counts,
        agreed_by,
        disagreement,
        shard: None,
        shards_missing: Vec::new(),
        shards_incomplete: Vec::new(),
    }
}

/// A shard's count: the enumeration of its share of the work units, and
/// what merging needs (the picture weight of its finished units, the nodes
/// above the units).
pub fn count_shard(puzzle: &Puzzle, shard: Shard, options: &CountOptions) -> CountReport {
    let options = CountOptions {
        // Every shard must choose alike: no time limit cuts the probes.
        order: Some(options.order.unwrap_or_else(|| {
            let whole = CountOptions {
                time_limit: None,
                ..options.clone()
            };
            enumeration_order(puzzle, &whole).0
        })),
        methods: vec![Method::Enumerate],
        estimate_if_unfinished: false,
        checkpoint: None,
        shard: Some(shard),
        ..options.clone()
    };
    let mut report = count(puzzle, &options);
    let (picture_weight, prefix_nodes) = report
        .methods
        .first_mut()
        .and_then(|r| r.shard_weight.take())
        .unwrap_or((0, 0));
    report.shard = Some(ShardCount {
        meta: Meta::new(
            shard,
            puzzle,
            format!(
                "count --method enumerate --order {}",
                options.order.unwrap_or(DEFAULT_ORDER).name()
            ),
            Keep::Count,
            picture_weight,
        ),
        prefix_nodes,
    });
    report
}

/// The most each count reached in the methods that stopped (lower bounds),
/// count by count.
fn found_before_stopping(results: &[MethodResult]) -> Option<Counts> {
    results
        .iter()
        .filter(|m| m.status == Status::Stopped)
        .filter_map(|m| m.counts)
        .reduce(|a, b| Counts {
            raw: a.raw.max(b.raw),
            classes: a.classes.max(b.classes),
            pictures: a.pictures.max(b.pictures),
        })
}

impl CountReport {
    /// Whether the report holds an exact count its methods agree on.
    pub fn is_exact(&self) -> bool {
        self.counts.is_some() && self.disagreement.is_none()
    }

    /// The lower bounds the stopped methods proved, if any.
    pub(crate) fn found_before_stopping(&self) -> Option<Counts> {
        found_before_stopping(&self.methods)
    }
}

/// The exact counts the complete methods agree on, and a contradiction if
/// two complete methods differ or a stopped one found more than a complete
/// one counted.
pub(crate) fn agree(results: &[MethodResult]) -> (Option<Counts>, Vec<Method>, Option<String>) {
    let complete: Vec<(Method, Counts)> = results
        .iter()
        .filter(|r| r.status == Status::Complete)
        .filter_map(|r| Some((r.method, r.counts?)))
        .collect();
    let Some(&(first, c)) = complete.first() else {
        return (None, Vec::new(), None);
    };
    for &(m, d) in &complete[1..] {
        if d != c {
            return (
                None,
                Vec::new(),
                Some(format!(
                    "{} counts {} but {} counts {}",
                    first.name(),
                    show(&c),
                    m.name(),
                    show(&d)
                )),
            );
        }
    }
    for r in results.iter().filter(|r| r.status == Status::Stopped) {
        if let Some(f) = r.counts
            && (f.raw > c.raw || f.classes > c.classes || f.pictures > c.pictures)
        {
            return (
                None,
                Vec::new(),
                Some(format!(
                    "{} found {} before stopping, more than {} counts ({})",
                    r.method.name(),
                    show(&f),
                    first.name(),
                    show(&c)
                )),
            );
        }
    }
    (Some(c), complete.iter().map(|&(m, _)| m).collect(), None)
}

fn show(c: &Counts) -> String {
    format!(
        "{} labelled, {} classes, {} picture classes",
        c.raw, c.classes, c.pictures
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn corpus(name: &str) -> Puzzle {
        Puzzle::load(Path::new(&format!("puzzles/legespiel/{name}.yaml"))).expect("corpus")
    }

    #[test]
    fn both_methods_agree_on_a_puzzle_with_identical_tiles() {
        // crazy-sheep: 880 labelled solutions, 220 classes, 55 picture
        // classes (expected.tsv).
        let r = count(&corpus("crazy-sheep"), &CountOptions::default());
        assert_eq!(r.disagreement, None);
        assert_eq!(r.agreed_by, vec![Method::Dp, Method::Enumerate]);
        assert_eq!(
            r.counts,
            Some(Counts {
                raw: 880,
                classes: 220,
                pictures: 55
            })
        );
    }

    #[test]
    fn a_contradiction_is_reported() {
        let c = |raw| Counts {
            raw,
            classes: raw / 4,
            pictures: 1,
        };
        let res = |method, status, counts| MethodResult {
            method,
            status,
            message: None,
            counts: Some(counts),
            fixed: None,
            estimate: None,
            nodes: None,
            time_s: 0.0,
            shard_weight: None,
        };
        let (counts, _, d) = agree(&[
            res(Method::Dp, Status::Complete, c(8)),
            res(Method::Enumerate, Status::Complete, c(4)),
        ]);
        assert_eq!(counts, None);
        assert!(d.unwrap().contains("dp counts 8 labelled"));
        let (counts, _, d) = agree(&[
            res(Method::Dp, Status::Complete, c(4)),
            res(Method::Enumerate, Status::Stopped, c(8)),
        ]);
        assert_eq!(counts, None);
        assert!(d.unwrap().contains("before stopping"));
        let (counts, by, d) = agree(&[
            res(Method::Dp, Status::Complete, c(8)),
            res(Method::Enumerate, Status::Stopped, c(4)),
        ]);
        assert_eq!((counts, by, d), (Some(c(8)), vec![Method::Dp], None));
    }

    #[test]
    fn an_unfinished_count_falls_back_to_an_estimate() {
        let options = CountOptions {
            max_states: 100,
            time_limit: Some(Duration::from_secs(1)),
            probes: 2_000,
            ..CountOptions::default()
        };
        let r = count(&corpus("the-ant-trails-puzzle"), &options);
        assert_eq!(r.counts, None);
        let kinds: Vec<(Method, Status)> = r
            .methods
            .iter()
            .map(|m| (m.method, m.status.clone()))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (Method::Dp, Status::Failed),
                (Method::Enumerate, Status::Stopped),
                (Method::Estimate, Status::Estimated)
            ]
        );
        assert!(
            r.methods[0]
                .message
                .as_ref()
                .unwrap()
                .contains("more than 100 states")
        );
        // The enumeration's finds are lower bounds, however many its share
        // of the second let it find (none on a slow enough machine).
        assert!(r.methods[1].counts.is_some());
        let e = r.methods[2].estimate.unwrap();
        assert!(e.pictures.mean > 1e10, "{e:?}");
    }
}
