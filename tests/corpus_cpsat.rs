//! Every 2x2, 3x3 and 4x4 corpus puzzle, solved with the real CP-SAT solver:
//! raw and canonical counts equal the independent reference in expected.tsv.

mod common;

use std::sync::Mutex;

use scramble::cpsat::CpSat;
use scramble::puzzle::Puzzle;
use scramble::solve::{self, Outcome, SolveOptions};

#[test]
fn corpus_counts_match_expected_tsv() {
    let solver = CpSat::new().expect("CP-SAT runtime (run scripts/install-cpsat)");
    let mut rows: Vec<_> = common::expected()
        .into_iter()
        .filter(|e| e.n <= 4)
        .collect();
    assert!(rows.len() >= 85, "corpus rows: {}", rows.len());
    // Biggest first, so the long ones overlap with the many small ones.
    rows.sort_by_key(|e| std::cmp::Reverse(e.raw.unwrap_or(u64::MAX)));
    let queue = Mutex::new(rows);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let Some(e) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let p = Puzzle::load(&common::corpus().join(&e.file)).unwrap();
                    assert_eq!(p.n, e.n, "{}", e.file);
                    let opts = SolveOptions::default();
                    let r = solve::run(&solver, &p, &opts).unwrap();
                    let got = (r.raw.len() as u64, r.canonical.len() as u64);
                    let want = (e.raw.unwrap(), e.classes.unwrap());
                    let complete = r.outcome
                        == if want.0 == 0 {
                            Outcome::Infeasible
                        } else {
                            Outcome::Complete
                        };
                    if got != want || !complete {
                        failures.lock().unwrap().push(format!(
                            "{}: got raw {} classes {} ({:?}), expected raw {} classes {}",
                            e.file, got.0, got.1, r.outcome, want.0, want.1
                        ));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
