//! `scramble compare`: the same puzzles with every solver, the canonical
//! solution sets checked to be identical (Pumpkin's differential testing, as
//! a command), and a verdict per puzzle that says what was compared.

pub(crate) mod command;
pub(crate) mod render;

use serde::Serialize;

use crate::commands::report::{Disagreement, Run, disagreement};
use crate::puzzle::Puzzle;
use crate::solve::{self, Keep, SolveError, SolveOptions, SolveResult, Solver, TimeShare};

/// What one puzzle's runs say together. Only finished runs are compared
/// (a stopped run's sets are partial), each with the first finished one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "verdict")]
pub(crate) enum Verdict {
    /// Every run finished, all with the same canonical set and raw count.
    Agree { runs: usize, classes: u128 },
    /// Two finished runs differ: the first difference found.
    Disagree { message: String },
    /// Some runs did not finish (time limit, `--limit`, Ctrl-C), so their
    /// sets were not compared; the `compared` runs that finished agree.
    Unfinished {
        compared: usize,
        unfinished: Vec<String>,
    },
}

/// Whether all puzzles' runs agree: `Some(true)` when every run finished
/// and none differ, `Some(false)` on a disagreement, `None` when some runs
/// did not finish and the finished ones agree (not known).
pub(crate) fn overall<'a>(verdicts: impl IntoIterator<Item = &'a Verdict>) -> Option<bool> {
    let mut all_agree = true;
    for v in verdicts {
        match v {
            Verdict::Disagree { .. } => return Some(false),
            Verdict::Unfinished { .. } => all_agree = false,
            Verdict::Agree { .. } => {}
        }
    }
    all_agree.then_some(true)
}

/// One puzzle compared: its rows and verdict.
pub(crate) struct Compared {
    pub rows: Vec<Run>,
    pub verdict: Verdict,
}

/// The disagreements among labelled verdicts, in order: what the JSON
/// report lists and stderr prints.
pub(crate) fn disagreements(verdicts: &[(String, Verdict)]) -> Vec<Disagreement> {
    verdicts
        .iter()
        .filter_map(|(puzzle, v)| match v {
            Verdict::Disagree { message } => Some(Disagreement {
                puzzle: puzzle.clone(),
                symmetry: None,
                message: message.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// Run every solver on one puzzle and compare the finished runs.
pub(crate) fn compare(
    solvers: &[&dyn Solver],
    puzzle: &Puzzle,
    label: &str,
    options: &SolveOptions,
    time: &mut TimeShare,
) -> Result<Compared, SolveError> {
    // The canonical sets are compared, the counts checked: nothing else is
    // kept. Each solver's run gets its share of the command's time.
    let results: Vec<SolveResult> = solvers
        .iter()
        .map(|s| {
            let options = SolveOptions {
                keep: Keep::Canonical,
                time_limit: time.next_limit(),
                ..options.clone()
            };
            solve::run(*s, puzzle, &options)
        })
        .collect::<Result<_, _>>()?;
    let rows = results
        .iter()
        .map(|r| Run::of(puzzle, label, 1, r))
        .collect();
    Ok(Compared {
        rows,
        verdict: judge(&results),
    })
}

/// The verdict on one puzzle's results.
fn judge(results: &[SolveResult]) -> Verdict {
    let finished: Vec<&SolveResult> = results.iter().filter(|r| r.outcome.is_complete()).collect();
    if let Some((first, others)) = finished.split_first() {
        for other in others {
            if let Some(message) = disagreement(first, other) {
                return Verdict::Disagree { message };
            }
        }
    }
    let unfinished: Vec<String> = results
        .iter()
        .filter(|r| !r.outcome.is_complete())
        .map(|r| format!("{} {}", r.solver, r.model))
        .collect();
    match finished.first() {
        Some(first) if unfinished.is_empty() => Verdict::Agree {
            runs: finished.len(),
            classes: first.counts.under(first.equivalence),
        },
        _ => Verdict::Unfinished {
            compared: finished.len(),
            unfinished,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::backtrack::Backtrack;
    use crate::generate::{PlantOptions, Rng, plant};

    fn puzzle() -> Puzzle {
        let options = PlantOptions {
            n: 3,
            motifs: 4,
            self_matching: false,
        };
        plant(&mut Rng::new(7), &options).0
    }

    #[test]
    fn finished_runs_agree_and_a_stopped_one_is_named_not_compared() {
        let p = puzzle();
        let bt = Backtrack::default();
        let all = SolveOptions::default();
        let c = compare(
            &[&bt, &bt],
            &p,
            "p",
            &all,
            &mut TimeShare::new(None, std::time::Instant::now(), 2),
        )
        .unwrap();
        assert!(
            matches!(c.verdict, Verdict::Agree { runs: 2, classes } if classes > 0),
            "{:?}",
            c.verdict
        );
        assert!(disagreements(&[("p".into(), c.verdict.clone())]).is_empty());
        assert_eq!(overall([&c.verdict]), Some(true));
        // One labelled solution, then stopped: not finished, not compared.
        let (done, stopped) = (
            solve::run(&bt, &p, &all).unwrap(),
            solve::run(
                &bt,
                &p,
                &SolveOptions {
                    limit: Some(1),
                    ..all.clone()
                },
            )
            .unwrap(),
        );
        assert!(!stopped.outcome.is_complete());
        let v = judge(&[done.clone(), stopped.clone()]);
        assert_eq!(
            v,
            Verdict::Unfinished {
                compared: 1,
                unfinished: vec![format!("{} {}", stopped.solver, stopped.model)],
            }
        );
        assert_eq!(overall([&c.verdict, &v]), None);
        // A finished run that differs from the first finished one is caught,
        // whichever comes first.
        let mut fewer = done.clone();
        fewer.counts.raw -= 1;
        for order in [[&stopped, &done, &fewer], [&fewer, &stopped, &done]] {
            let rs: Vec<SolveResult> = order.into_iter().cloned().collect();
            let v = judge(&rs);
            assert!(
                matches!(&v, Verdict::Disagree { message } if message.contains("raw solutions")),
                "{v:?}"
            );
            assert_eq!(overall([&c.verdict, &v]), Some(false));
            // Two puzzles given under one label keep their own messages.
            let both = [("p".to_string(), c.verdict.clone()), ("p".to_string(), v)];
            let ds = disagreements(&both);
            assert_eq!(ds.len(), 1);
            assert!(ds[0].message.contains("raw solutions"));
        }
    }
}
