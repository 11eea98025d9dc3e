//! Every 2x2, 3x3 and 4x4 corpus puzzle, solved with the real CP-SAT solver:
//! raw, class and picture counts equal the independent reference in
//! expected.tsv, and the symmetry-breaking formulations keep exactly one
//! solution per class (the same canonical sets as the full enumeration).
//!
//! The test suite checks one formulation per puzzle, in turn, so each
//! formulation meets about a fifth of the corpus (the whole sweep, every
//! formulation on every puzzle, cost 95 s of the suite's 10 minutes); the
//! ignored test runs the whole sweep:
//! `cargo test --release --test it corpus_cpsat -- --ignored`.

use crate::common;

use std::sync::Mutex;

use scramble::backtrack::Backtrack;
use scramble::cpsat::CpSat;
use scramble::puzzle::Puzzle;
use scramble::solve::{self, Outcome, SolveOptions};
use scramble::symmetry::Equivalence;

/// Which formulations a puzzle's check runs.
#[derive(Clone, Copy)]
enum Sweep {
    /// The `k`-th puzzle (in file order) runs formulation `k mod count`.
    InTurn,
    /// Every formulation on every puzzle.
    All,
}

fn check_puzzle(solver: &CpSat, k: usize, e: &common::Expected, sweep: Sweep) -> Vec<String> {
    let mut failures = Vec::new();
    let p = Puzzle::load(&common::corpus().join(&e.file)).unwrap();
    assert_eq!(p.rows, e.n, "{}", e.file);
    let none = solve::run(solver, &p, &SolveOptions::default()).unwrap();
    let got = (
        none.raw.len() as u64,
        none.classes.len() as u64,
        none.pictures.len() as u64,
    );
    let want = (e.raw.unwrap(), e.classes.unwrap(), e.pictures.unwrap());
    if got != want || none.outcome != Outcome::Complete {
        failures.push(format!(
            "{} none: got raw/classes/pictures {got:?} ({:?}), expected {want:?}",
            e.file, none.outcome
        ));
        return failures;
    }
    // The native solver enumerates exactly the same labelled solutions.
    let bt = solve::run(&Backtrack::default(), &p, &SolveOptions::default()).unwrap();
    if bt.raw != none.raw {
        failures.push(format!(
            "{}: backtrack and CP-SAT solution sets differ",
            e.file
        ));
    }
    let mut formulations = common::exact_options(&p);
    if let (Sweep::InTurn, false) = (sweep, formulations.is_empty()) {
        let pick = k % formulations.len();
        formulations = vec![formulations.swap_remove(pick)];
    }
    for (name, opts) in formulations {
        let r = solve::run(solver, &p, &opts).unwrap();
        let count = match opts.equivalence {
            Equivalence::Rotation => want.1,
            Equivalence::Picture => want.2,
        };
        let reference = none.canonical_under(opts.equivalence);
        let kept = r.canonical();
        if r.outcome != Outcome::Complete || r.raw.len() as u64 != count || kept != reference {
            failures.push(format!(
                "{} {name}: raw {} ({:?}), expected {count}; same canonical set: {}",
                e.file,
                r.raw.len(),
                r.outcome,
                kept == reference
            ));
        }
    }
    failures
}

#[test]
fn corpus_counts_and_formulations_in_turn_match_expected_tsv() {
    check_corpus(Sweep::InTurn);
}

#[test]
#[ignore = "the whole sweep: every formulation on every puzzle (about 95 s on 2 cores)"]
fn corpus_counts_and_every_formulation_match_expected_tsv() {
    check_corpus(Sweep::All);
}

fn check_corpus(sweep: Sweep) {
    if !common::has_cpsat() {
        return;
    }
    let solver = CpSat::new().expect("CP-SAT runtime (run scripts/install-cpsat)");
    let mut rows: Vec<_> = common::expected()
        .into_iter()
        .filter(|e| e.n <= 4)
        .collect();
    assert!(rows.len() >= 85, "corpus rows: {}", rows.len());
    // Number them in file order, so the formulation a puzzle meets does not
    // depend on the work order below.
    rows.sort_by(|a, b| a.file.cmp(&b.file));
    let mut rows: Vec<_> = rows.into_iter().enumerate().collect();
    // Smallest last: pop() takes the biggest first, so the long ones overlap
    // with the many small ones.
    rows.sort_by_key(|(_, e)| e.raw.unwrap_or(u64::MAX));
    let queue = Mutex::new(rows);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let Some((k, e)) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let f = check_puzzle(&solver, k, &e, sweep);
                    failures.lock().unwrap().extend(f);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
