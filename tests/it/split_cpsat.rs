//! The adaptive split: a subproblem whose solution pool fills, or that runs
//! past its time slice, is split one cell deeper, and nothing is lost.

use crate::common;

use std::time::Duration;

use scramble::engines::cpsat::CpSat;
use scramble::puzzle::Puzzle;
use scramble::solve::{self, Outcome, SolveOptions, Split, StopReason};
use scramble::symmetry::Equivalence;

fn sternenhimmel() -> Puzzle {
    Puzzle::load(&common::corpus().join("der-sternenhimmel.yaml")).unwrap()
}

#[test]
fn a_full_pool_splits_deeper() {
    if !common::has_cpsat() {
        return;
    }
    let mut solver = CpSat::new().unwrap();
    solver.limits.pool = 16;
    solver.limits.whole_pool = 16;
    solver.split = Split::Depth(0);
    let opts = SolveOptions {
        threads: 2,
        ..SolveOptions::default()
    };
    let r = solve::run(&solver, &sternenhimmel(), &opts).unwrap();
    assert_eq!(r.outcome, Outcome::Complete);
    assert_eq!((r.raw.len(), r.classes.len()), (224, 56));
    assert!(r.stats.count("subproblems_split").unwrap() >= 1);
    assert!(r.stats.count("max_split_depth").unwrap() >= 1);
}

#[test]
fn a_long_subproblem_splits_deeper() {
    if !common::has_cpsat() {
        return;
    }
    // The whole model's try gets a microsecond, which no solve of it
    // fits in on any machine, so it runs past its slice and splits (the
    // table model: an `edge` try cut short in its presolve is retried
    // longer instead).
    let mut solver = CpSat::new().unwrap();
    solver.encoding = "table".parse().unwrap();
    solver.limits.slice = Duration::from_millis(30);
    solver.limits.whole_slice = Duration::from_micros(1);
    solver.split = Split::Depth(0);
    let opts = SolveOptions {
        threads: 2,
        ..SolveOptions::default()
    };
    let r = solve::run(&solver, &sternenhimmel(), &opts).unwrap();
    assert_eq!(r.outcome, Outcome::Complete);
    assert_eq!((r.raw.len(), r.classes.len()), (224, 56));
    assert!(r.stats.count("subproblems_split").unwrap() >= 1);
}

#[test]
fn split_none_with_a_full_pool_is_incomplete_not_truncated_silently() {
    if !common::has_cpsat() {
        return;
    }
    let mut solver = CpSat::new().unwrap();
    solver.limits.unsplit_pool = 16;
    solver.split = Split::None;
    let none = SolveOptions::default();
    let r = solve::run(&solver, &sternenhimmel(), &none).unwrap();
    assert_eq!(r.outcome, Outcome::Incomplete(StopReason::PoolFull));
    assert!(r.raw.len() >= 16 && r.raw.len() < 224);
}

#[test]
fn range_parts_lose_nothing() {
    if !common::has_cpsat() {
        return;
    }
    // Every board starts cut into range parts, and each part is cut again
    // (into placements) after a short slice.
    let mut solver = CpSat::new().unwrap();
    solver.limits.eager_cells = 1;
    solver.limits.range_parts = 3;
    solver.limits.slice = Duration::from_millis(1);
    for threads in [1, 2] {
        let opts = SolveOptions {
            threads,
            ..SolveOptions::default()
        };
        let r = solve::run(&solver, &sternenhimmel(), &opts).unwrap();
        assert_eq!(r.outcome, Outcome::Complete);
        assert_eq!((r.raw.len(), r.classes.len()), (224, 56));
        assert!(r.stats.count("subproblems").unwrap() >= 3);
    }
}

#[test]
fn a_limit_stops_at_that_many_classes() {
    if !common::has_cpsat() {
        return;
    }
    let solver = CpSat::new().unwrap();
    for (equivalence, n) in [(Equivalence::Rotation, 3), (Equivalence::Picture, 2)] {
        let opts = SolveOptions {
            limit: Some(n),
            equivalence,
            threads: 2,
            ..SolveOptions::default()
        };
        let r = solve::run(&solver, &sternenhimmel(), &opts).unwrap();
        assert_eq!(r.outcome, Outcome::Incomplete(StopReason::Limit));
        assert_eq!(r.canonical().len(), n);
        // Every class kept is whole: its four turns.
        if equivalence == Equivalence::Rotation {
            assert_eq!(r.raw.len(), 4 * n);
        }
    }
}

#[test]
fn a_limit_past_the_count_finds_everything() {
    if !common::has_cpsat() {
        return;
    }
    // One solve per class, each forbidding the boards found: the rounds end
    // when the model has no solution left, with every class (a board whose
    // pictures are fewer than its classes).
    let solver = CpSat::new().unwrap();
    let p = Puzzle::load(
        &common::corpus().join("japanisches-kartenratsel-sechsecke-schwierige-variante.yaml"),
    )
    .unwrap();
    for (equivalence, classes) in [(Equivalence::Rotation, 22), (Equivalence::Picture, 11)] {
        let opts = SolveOptions {
            limit: Some(1000),
            equivalence,
            ..SolveOptions::default()
        };
        let r = solve::run(&solver, &p, &opts).unwrap();
        assert_eq!(r.outcome, Outcome::Complete);
        assert_eq!(r.canonical().len(), classes);
        assert_eq!(r.raw.len(), 88);
    }
}

/// A board CP-SAT neither enumerates nor solves in minutes: a search on it
/// ends at the ceiling, never by itself, on any machine.
fn endless() -> Puzzle {
    Puzzle::load(&common::e2("8x8-a.txt")).unwrap()
}

#[test]
fn a_presolve_alone_past_the_memory_ceiling_stops_the_run() {
    if !common::has_cpsat() {
        return;
    }
    // A run with no memory to add is past its ceiling at every look, with
    // or without a solve running (whatever the tests beside it hold): the
    // build, the check that CP-SAT can load the model, or its first solve's
    // first poll stops it, whichever looks first, and nothing smaller would
    // fit.
    let mut solver = CpSat::new().unwrap();
    solver.limits.memory_ceiling = 0;
    for threads in [1, 2] {
        let opts = SolveOptions {
            threads,
            ..SolveOptions::default()
        };
        let r = solve::run(&solver, &endless(), &opts).unwrap();
        assert_eq!(r.outcome, Outcome::Incomplete(StopReason::MemoryLimit));
    }
}

#[test]
fn stops_at_the_memory_ceiling_report_only_real_solutions() {
    if !common::has_cpsat() {
        return;
    }
    // Parts small enough to end before their first poll may finish; the
    // first stop ends the run. Whatever ended, only real solutions.
    let all = solve::run(
        &CpSat::new().unwrap(),
        &sternenhimmel(),
        &SolveOptions::default(),
    )
    .unwrap();
    assert_eq!(all.outcome, Outcome::Complete);
    let mut solver = CpSat::new().unwrap();
    solver.limits.memory_ceiling = 0;
    solver.split = Split::Depth(0);
    let opts = SolveOptions {
        threads: 2,
        ..SolveOptions::default()
    };
    let r = solve::run(&solver, &sternenhimmel(), &opts).unwrap();
    match r.outcome {
        Outcome::Complete => assert_eq!(r.classes, all.classes),
        Outcome::Incomplete(StopReason::MemoryLimit) => {
            assert!(r.classes.iter().all(|c| all.classes.contains(c)));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_first_solutions_stop_at_the_memory_ceiling() {
    if !common::has_cpsat() {
        return;
    }
    let mut solver = CpSat::new().unwrap();
    solver.limits.memory_ceiling = 0;
    let opts = SolveOptions {
        limit: Some(1),
        threads: 2,
        ..SolveOptions::default()
    };
    let p = Puzzle::load(&common::e2("meta-10x10.txt")).unwrap();
    let r = solve::run(&solver, &p, &opts).unwrap();
    assert_eq!(r.outcome, Outcome::Incomplete(StopReason::MemoryLimit));
    assert!(r.classes.is_empty());
}
