//! `scramble bench`: the grid puzzle x formulation x solver x repeat, one
//! row per run, every run's canonical set (and raw count) checked against
//! the other runs on the same puzzle and formulation, and a summary per
//! solver x formulation.

pub(crate) mod command;
pub(crate) mod merge;
pub(crate) mod plot;
pub(crate) mod render;

use std::collections::BTreeMap;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::commands::report::disagreement;
pub(crate) use crate::commands::report::{Disagreement, Run};
use crate::puzzle::Puzzle;
use crate::solve::{self, Engine, Keep, SolveError, SolveOptions, SolveResult, Solver, TimeShare};
use crate::symmetry::Symmetry;

/// What to run.
pub(crate) struct Plan<'a> {
    /// (label, puzzle), in the order given.
    pub puzzles: &'a [(String, Puzzle)],
    pub solvers: &'a [&'a dyn Solver],
    pub symmetries: &'a [Symmetry],
    pub repeat: usize,
    /// Threads, time limit, equivalence and stop token for every run.
    pub options: SolveOptions,
    /// Only these groups (puzzle x formulation, in grid order: puzzle by
    /// puzzle, each with every formulation) are run: a shard's share.
    pub groups: Option<Vec<bool>>,
}

impl Plan<'_> {
    /// Runs in the grid (skipped ones included), of the groups to run.
    pub(crate) fn total(&self) -> usize {
        let groups = match &self.groups {
            Some(g) => g.iter().filter(|&&x| x).count(),
            None => self.group_count(),
        };
        groups * self.solvers.len() * self.repeat
    }

    /// The groups of the grid: every run of one puzzle with one
    /// formulation (all solvers, all repeats), so that runs compared with
    /// each other stay together.
    pub(crate) fn group_count(&self) -> usize {
        self.puzzles.len() * self.symmetries.len()
    }

    /// Each group's estimated work: the puzzle's search tree (Knuth's
    /// estimate, a few seeded probes) times the runs in the group.
    pub(crate) fn group_estimates(&self) -> Vec<u64> {
        let runs = (self.solvers.len() * self.repeat) as f64;
        self.puzzles
            .iter()
            .flat_map(|(_, p)| {
                let e = tree_estimate(p) * runs;
                std::iter::repeat_n(e.min(u64::MAX as f64) as u64, self.symmetries.len())
            })
            .collect()
    }
}

/// Knuth's estimate of the nodes of a row-major search tree of `p` (every
/// consistent placement of each cell in turn), from 16 probes with a fixed
/// seed: the same puzzle gives the same estimate everywhere.
fn tree_estimate(p: &Puzzle) -> f64 {
    const PROBES: u64 = 16;
    let mut rng = crate::generate::Rng::new(0x5eed);
    let mut total = 0.0;
    for _ in 0..PROBES {
        let (mut prefix, mut width) = (Vec::new(), 1.0);
        total += 1.0;
        while prefix.len() < p.len() {
            let next = crate::board::extensions(p, &prefix);
            if next.is_empty() {
                break;
            }
            width *= next.len() as f64;
            total += width;
            prefix.push(next[rng.below(next.len())]);
        }
    }
    total / PROBES as f64
}

/// What a bench shard's output records about it, so that `scramble merge`
/// joins only shares of one bench.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ShardMeta {
    /// [`ShardMeta::FORMAT`].
    pub format: String,
    pub index: usize,
    pub count: usize,
    /// Of the puzzles: their labels and fingerprints, in order.
    pub fingerprint: String,
    /// The options that decide what is run.
    pub options: String,
    pub version: String,
}

impl ShardMeta {
    pub(crate) const FORMAT: &'static str = "scramble-bench-shard/1";
}

/// A bench shard's output: what it is, the puzzle labels of the whole
/// grid (for the plot), and its share of the bench.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ShardOutput {
    pub shard: ShardMeta,
    pub puzzles: Vec<String>,
    pub bench: Bench,
}

/// The fingerprint of a list of puzzles: FNV-1a over each one's label and
/// fingerprint.
pub(crate) fn batch_fingerprint(puzzles: &[(String, Puzzle)]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (label, p) in puzzles {
        for b in label.bytes().chain([0xff]).chain(p.fingerprint().bytes()) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Where one group's rows are in a [`Bench`]: it holds this many runs,
/// skips and disagreements, after those of the groups before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct GroupSpan {
    pub group: usize,
    pub runs: usize,
    pub skipped: usize,
    pub disagreements: usize,
}

/// A formulation whose precondition a puzzle does not meet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Skip {
    pub puzzle: String,
    pub symmetry: String,
    /// The solver that does not cover the puzzle (the graph solver: 2x2
    /// only); none when the symmetry formulation does not apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solver: Option<String>,
    pub reason: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Bench {
    pub runs: Vec<Run>,
    pub skipped: Vec<Skip>,
    pub disagreements: Vec<Disagreement>,
    /// Stopped early (Ctrl-C).
    pub stopped: bool,
    pub wall_time_s: f64,
    /// The groups run, in order.
    pub groups: Vec<GroupSpan>,
}

/// Run the grid; `progress` sees every run as it ends, with the number of
/// runs done (skipped ones count as done) and the total.
pub(crate) fn run(
    plan: &Plan<'_>,
    progress: &mut dyn FnMut(&Run, usize, usize),
) -> Result<Bench, SolveError> {
    let start = Instant::now();
    let total = plan.total();
    let mut done = 0;
    let mut bench = Bench::default();
    let mut group = 0;
    'grid: for (label, puzzle) in plan.puzzles {
        for symmetry in plan.symmetries {
            let g = group;
            group += 1;
            if plan.groups.as_ref().is_some_and(|only| !only[g]) {
                continue;
            }
            let before = (
                bench.runs.len(),
                bench.skipped.len(),
                bench.disagreements.len(),
            );
            let span = |b: &Bench| GroupSpan {
                group: g,
                runs: b.runs.len() - before.0,
                skipped: b.skipped.len() - before.1,
                disagreements: b.disagreements.len() - before.2,
            };
            if let Err(e) = symmetry.check(puzzle) {
                bench.skipped.push(Skip {
                    puzzle: label.clone(),
                    symmetry: symmetry.name(),
                    solver: None,
                    reason: e.to_string(),
                });
                done += plan.solvers.len() * plan.repeat;
                bench.groups.push(span(&bench));
                continue;
            }
            // Canonical sets are compared and counts checked: nothing else
            // is kept.
            let options = SolveOptions {
                symmetry: symmetry.clone(),
                keep: Keep::Canonical,
                ..plan.options.clone()
            };
            // The first complete run is the reference for the others.
            let mut reference: Option<SolveResult> = None;
            let mut disagreed = false;
            'solvers: for solver in plan.solvers {
                for k in 1..=plan.repeat {
                    if plan.options.stop.is_stopped() {
                        bench.stopped = true;
                        bench.groups.push(span(&bench));
                        break 'grid;
                    }
                    // --time-limit is the whole bench's: this run gets an
                    // equal share of the time left among the runs left.
                    let mut share = TimeShare::new(plan.options.time_limit, start, total - done);
                    let options = SolveOptions {
                        time_limit: share.next_limit(),
                        ..options.clone()
                    };
                    let r = match solve::run(*solver, puzzle, &options) {
                        Err(SolveError::Unsupported(reason)) => {
                            bench.skipped.push(Skip {
                                puzzle: label.clone(),
                                symmetry: symmetry.name(),
                                solver: Some(solver.name().to_string()),
                                reason,
                            });
                            done += plan.repeat;
                            continue 'solvers;
                        }
                        r => r?,
                    };
                    let run = Run::of(puzzle, label, k, &r);
                    done += 1;
                    progress(&run, done, total);
                    bench.runs.push(run);
                    if !r.outcome.is_complete() || solver.has_user_constraints() {
                        continue;
                    }
                    match &reference {
                        None => reference = Some(r),
                        Some(first) if !disagreed => {
                            if let Some(message) = disagreement(first, &r) {
                                disagreed = true;
                                bench.disagreements.push(Disagreement {
                                    puzzle: label.clone(),
                                    symmetry: Some(symmetry.name()),
                                    message,
                                });
                            }
                        }
                        Some(_) => {}
                    }
                }
            }
            bench.groups.push(span(&bench));
        }
    }
    bench.wall_time_s = start.elapsed().as_secs_f64();
    Ok(bench)
}

/// One line of the summary: a solver (and model) with a formulation.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Summary {
    pub solver: Engine,
    pub model: String,
    pub symmetry: String,
    pub runs: usize,
    pub complete: usize,
    pub median_s: f64,
    /// Median time to the first solution over the runs that found one.
    pub median_first_s: Option<f64>,
    pub min_s: f64,
    pub max_s: f64,
    pub total_s: f64,
    /// Nodes (backtracking) or branches (CP-SAT), summed.
    pub work: u64,
    pub work_is: &'static str,
    pub work_per_s: f64,
}

/// The summary, sorted by solver, model and formulation.
pub(crate) fn summary(runs: &[Run]) -> Vec<Summary> {
    // By the solver's name: the order the reports have always had.
    let mut groups: BTreeMap<(&str, &str, &str), Vec<&Run>> = BTreeMap::new();
    for r in runs {
        groups
            .entry((r.solver.name(), &r.model, &r.symmetry))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|((_, model, symmetry), rs)| {
            let mut t: Vec<f64> = rs.iter().map(|r| r.wall_time_s).collect();
            t.sort_by(f64::total_cmp);
            let median_s = median(&t).expect("a group has runs");
            let mut first: Vec<f64> = rs.iter().filter_map(|r| r.first_s).collect();
            first.sort_by(f64::total_cmp);
            let total: f64 = t.iter().sum();
            let work_is = rs[0].work().1;
            let work: u64 = rs.iter().map(|r| r.work().0).sum();
            Summary {
                solver: rs[0].solver,
                model: model.to_string(),
                symmetry: symmetry.to_string(),
                runs: rs.len(),
                complete: rs.iter().filter(|r| r.complete).count(),
                median_s,
                median_first_s: median(&first),
                min_s: t[0],
                max_s: t[t.len() - 1],
                total_s: total,
                work,
                work_is,
                work_per_s: if total > 0.0 {
                    work as f64 / total
                } else {
                    0.0
                },
            }
        })
        .collect()
}

/// One series of the time plot: (puzzle index, seconds) points.
pub(crate) struct TimeSeries {
    pub name: String,
    pub points: Vec<(usize, f64)>,
}

/// Time per puzzle, one series per solver, model and formulation, repeats
/// by their median; `puzzles` are the labels in bench order.
pub(crate) fn time_series(puzzles: &[&str], runs: &[Run]) -> Vec<TimeSeries> {
    let index: BTreeMap<&str, usize> = puzzles.iter().enumerate().map(|(k, &l)| (l, k)).collect();
    let mut groups: BTreeMap<String, BTreeMap<usize, Vec<f64>>> = BTreeMap::new();
    for r in runs {
        groups
            .entry(format!(
                "{} ({}), symmetry {}",
                r.solver, r.model, r.symmetry
            ))
            .or_default()
            .entry(index[r.puzzle.as_str()])
            .or_default()
            .push(r.wall_time_s);
    }
    groups
        .into_iter()
        .map(|(name, by_puzzle)| TimeSeries {
            name,
            points: by_puzzle
                .into_iter()
                .map(|(i, mut t)| {
                    t.sort_by(f64::total_cmp);
                    (i, t[t.len() / 2])
                })
                .collect(),
        })
        .collect()
}

/// The median of sorted values.
fn median(t: &[f64]) -> Option<f64> {
    match t.len() {
        0 => None,
        n if n % 2 == 1 => Some(t[n / 2]),
        n => Some((t[n / 2 - 1] + t[n / 2]) / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placement;
    use crate::engines::backtrack::Backtrack;
    use crate::generate::{PlantOptions, planted_set};
    use crate::solve::{SolutionCallback, SolverRun, Stands};

    /// A solver that reports the backtracking solver's solutions but the
    /// first: the disagreement the bench must catch.
    struct DropsOne;
    impl Solver for DropsOne {
        fn engine(&self) -> crate::solve::Engine {
            crate::solve::Engine::named("backtrack")
        }
        fn version(&self) -> String {
            "0".into()
        }
        fn searched(&self) -> crate::solve::Searched {
            crate::solve::Searched::new("test")
        }
        fn enumerate(
            &self,
            puzzle: &Puzzle,
            options: &SolveOptions,
            cancel: &crate::cancel::Cancel,
            callback: &mut dyn SolutionCallback,
        ) -> Result<SolverRun, SolveError> {
            struct Skip<'a>(&'a mut dyn SolutionCallback, bool);
            impl SolutionCallback for Skip<'_> {
                fn on_solution(&mut self, cells: &[Placement], stands: Stands) {
                    if std::mem::replace(&mut self.1, true) {
                        self.0.on_solution(cells, stands);
                    } else if stands == Stands::Turns {
                        // The first labelled board dropped, its turns kept.
                        let s = crate::board::Solution::new(cells.to_vec());
                        for t in &s.turns()[1..] {
                            self.0.on_solution(t.cells(), Stands::Board);
                        }
                    }
                }
            }
            Backtrack::default().enumerate(puzzle, options, cancel, &mut Skip(callback, false))
        }
    }

    fn puzzles() -> Vec<(String, Puzzle)> {
        let o = PlantOptions {
            n: 3,
            motifs: 3,
            self_matching: false,
        };
        planted_set(&o, 3, 5)
    }

    #[test]
    fn rows_summary_and_a_caught_disagreement() {
        let ps = puzzles();
        let bt = Backtrack::default();
        let solvers: [&dyn Solver; 2] = [&bt, &DropsOne];
        let plan = Plan {
            puzzles: &ps,
            solvers: &solvers,
            symmetries: &[Symmetry::none(), "center".parse().unwrap()],
            repeat: 2,
            options: SolveOptions::default(),
            groups: None,
        };
        let mut seen = Vec::new();
        let b = run(&plan, &mut |_, done, total| seen.push((done, total))).unwrap();
        assert_eq!(b.runs.len(), 3 * 2 * 2 * 2);
        assert_eq!(seen.last(), Some(&(24, 24)));
        // Every puzzle and formulation: the solver that drops a solution is
        // caught (one disagreement per group): by the canonical sets with
        // `center`, by the raw count without (the other three turns keep
        // the class).
        assert_eq!(b.disagreements.len(), 6, "{:?}", b.disagreements);
        let m = &b.disagreements[0].message;
        assert!(
            m.starts_with("the same canonical solutions, but backtrack (spiral) found"),
            "{m}"
        );
        assert!(m.contains("raw solutions and backtrack (test)"), "{m}");
        let s = summary(&b.runs);
        assert_eq!(s.len(), 4);
        assert_eq!(s[0].solver.name(), "backtrack");
        assert!(
            s.iter()
                .all(|x| x.runs == 6 && x.min_s <= x.median_s && x.median_s <= x.max_s)
        );
        let csv = crate::commands::bench::render::csv(&b.runs);
        assert_eq!(csv.lines().count(), 25);
        assert_eq!(
            crate::commands::bench::render::json_lines(&b.runs)
                .lines()
                .count(),
            24
        );
    }

    #[test]
    fn agreeing_solvers_and_skipped_preconditions() {
        let mut ps = puzzles();
        let even = planted_set(
            &PlantOptions {
                n: 2,
                motifs: 3,
                self_matching: false,
            },
            1,
            1,
        );
        ps.extend(even);
        let bt = Backtrack::default();
        let full = Backtrack::full_tree(crate::engines::backtrack::Order::Row);
        let solvers: [&dyn Solver; 2] = [&bt, &full];
        let plan = Plan {
            puzzles: &ps,
            solvers: &solvers,
            symmetries: &["center".parse().unwrap()],
            repeat: 1,
            options: SolveOptions::default(),
            groups: None,
        };
        let b = run(&plan, &mut |_, _, _| {}).unwrap();
        assert!(b.disagreements.is_empty(), "{:?}", b.disagreements);
        // `center` needs an odd board: the 2x2 puzzle is skipped.
        assert_eq!(b.skipped.len(), 1);
        assert_eq!(b.runs.len(), 3 * 2);
    }
}
