//! `scramble bench`: the grid puzzle x formulation x solver x repeat, one
//! row per run, every run's canonical set (and raw count) checked against
//! the other runs on the same puzzle and formulation, and a summary per
//! solver x formulation.

use std::collections::BTreeMap;
use std::time::Instant;

use serde::Serialize;

use crate::puzzle::Puzzle;
use crate::report::disagreement;
pub use crate::report::{Disagreement, Run};
use crate::solve::{self, Keep, SolveError, SolveOptions, SolveResult, Solver};
use crate::symmetry::Symmetry;

/// What to run.
pub struct Plan<'a> {
    /// (label, puzzle), in the order given.
    pub puzzles: &'a [(String, Puzzle)],
    pub solvers: &'a [&'a dyn Solver],
    pub symmetries: &'a [Symmetry],
    pub repeat: usize,
    /// Threads, time limit, equivalence and stop token for every run.
    pub options: SolveOptions,
}

impl Plan<'_> {
    /// Runs in the grid (skipped ones included).
    pub(crate) fn total(&self) -> usize {
        self.puzzles.len() * self.symmetries.len() * self.solvers.len() * self.repeat
    }
}

/// A formulation whose precondition a puzzle does not meet.
#[derive(Clone, Debug, Serialize)]
pub struct Skip {
    pub puzzle: String,
    pub symmetry: String,
    /// The solver that does not cover the puzzle (the graph solver: 2x2
    /// only); none when the symmetry formulation does not apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solver: Option<String>,
    pub reason: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Bench {
    pub runs: Vec<Run>,
    pub skipped: Vec<Skip>,
    pub disagreements: Vec<Disagreement>,
    /// Stopped early (Ctrl-C).
    pub stopped: bool,
    pub wall_time_s: f64,
}

/// Run the grid; `progress` sees every run as it ends, with the number of
/// runs done (skipped ones count as done) and the total.
pub fn run(
    plan: &Plan<'_>,
    progress: &mut dyn FnMut(&Run, usize, usize),
) -> Result<Bench, SolveError> {
    let start = Instant::now();
    let total = plan.total();
    let mut done = 0;
    let mut bench = Bench::default();
    'grid: for (label, puzzle) in plan.puzzles {
        for symmetry in plan.symmetries {
            if let Err(e) = symmetry.check(puzzle) {
                bench.skipped.push(Skip {
                    puzzle: label.clone(),
                    symmetry: symmetry.name(),
                    solver: None,
                    reason: e.to_string(),
                });
                done += plan.solvers.len() * plan.repeat;
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
                        break 'grid;
                    }
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
                    let run = Run::of(label, k, &r);
                    done += 1;
                    progress(&run, done, total);
                    bench.runs.push(run);
                    if !r.outcome.is_complete() {
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
        }
    }
    bench.wall_time_s = start.elapsed().as_secs_f64();
    Ok(bench)
}

/// One line of the summary: a solver (and model) with a formulation.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub solver: String,
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
pub fn summary(runs: &[Run]) -> Vec<Summary> {
    let mut groups: BTreeMap<(&str, &str, &str), Vec<&Run>> = BTreeMap::new();
    for r in runs {
        groups
            .entry((&r.solver, &r.model, &r.symmetry))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|((solver, model, symmetry), rs)| {
            let mut t: Vec<f64> = rs.iter().map(|r| r.wall_time_s).collect();
            t.sort_by(f64::total_cmp);
            let median_s = median(&t).expect("a group has runs");
            let mut first: Vec<f64> = rs.iter().filter_map(|r| r.first_s).collect();
            first.sort_by(f64::total_cmp);
            let total: f64 = t.iter().sum();
            let nodes = rs.iter().any(|r| r.nodes.is_some());
            let work: u64 = rs.iter().map(|r| r.nodes.or(r.branches).unwrap_or(0)).sum();
            Summary {
                solver: solver.to_string(),
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
                work_is: if nodes { "nodes" } else { "branches" },
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
    use crate::backtrack::Backtrack;
    use crate::board::Placement;
    use crate::generate::{PlantOptions, planted_set};
    use crate::solve::{SolutionCallback, SolverRun, Stands};

    /// A solver that reports the backtracking solver's solutions but the
    /// first: the disagreement the bench must catch.
    struct DropsOne;
    impl Solver for DropsOne {
        fn name(&self) -> &'static str {
            "drops-one"
        }
        fn version(&self) -> String {
            "0".into()
        }
        fn model_name(&self) -> String {
            "test".into()
        }
        fn enumerate(
            &self,
            puzzle: &Puzzle,
            options: &SolveOptions,
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
            Backtrack::default().enumerate(puzzle, options, &mut Skip(callback, false))
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
        assert!(m.contains("raw solutions and drops-one (test)"), "{m}");
        let s = summary(&b.runs);
        assert_eq!(s.len(), 4);
        assert_eq!(s[0].solver, "backtrack");
        assert!(
            s.iter()
                .all(|x| x.runs == 6 && x.min_s <= x.median_s && x.median_s <= x.max_s)
        );
        let csv = crate::render::bench::csv(&b.runs);
        assert_eq!(csv.lines().count(), 25);
        assert_eq!(
            crate::render::bench::json_lines(&b.runs).lines().count(),
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
        let full = Backtrack::full_tree(crate::backtrack::Order::Row);
        let solvers: [&dyn Solver; 2] = [&bt, &full];
        let plan = Plan {
            puzzles: &ps,
            solvers: &solvers,
            symmetries: &["center".parse().unwrap()],
            repeat: 1,
            options: SolveOptions::default(),
        };
        let b = run(&plan, &mut |_, _, _| {}).unwrap();
        assert!(b.disagreements.is_empty(), "{:?}", b.disagreements);
        // `center` needs an odd board: the 2x2 puzzle is skipped.
        assert_eq!(b.skipped.len(), 1);
        assert_eq!(b.runs.len(), 3 * 2);
    }
}
