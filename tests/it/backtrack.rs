//! The native backtracking solver: every corpus puzzle of every size against
//! expected.tsv, the same canonical sets as CP-SAT on random puzzles, the same
//! symmetry semantics, and the CLI.

use crate::common;

use common::{cmd, corpus, seed, solve_json};
use predicates::prelude::*;
use proptest::prelude::*;
use scramble::engines::backtrack::{Backtrack, Order};
use scramble::engines::cpsat::CpSat;
use scramble::engines::sat::{Encoding, Sat};
use scramble::generate::{PlantOptions, Rng, plant_with_duplicates, tiles_with_twins};
use scramble::puzzle::Puzzle;
use scramble::solve::{self, Keep, Outcome, SolveOptions, Solver, StopReason};
use scramble::symmetry::Equivalence;

#[test]
fn a_limit_stops_every_order_at_that_many_classes() {
    let p = Puzzle::load(&corpus().join("crazy-sheep.yaml")).unwrap();
    for threads in [1, 2] {
        for order in Order::ALL {
            let opts = SolveOptions {
                limit: Some(5),
                threads,
                ..SolveOptions::default()
            };
            let r = solve::run(&Backtrack::new(order), &p, &opts).unwrap();
            assert_eq!(r.outcome, Outcome::Incomplete(StopReason::Limit));
            assert_eq!(r.classes.len(), 5);
        }
    }
}

#[test]
fn every_corpus_puzzle_matches_expected_tsv() {
    let mut failures = Vec::new();
    let rows = common::expected();
    assert!(rows.iter().any(|e| e.n == 6 && e.raw.is_some()));
    for e in rows.iter().filter(|e| e.raw.is_some()) {
        let p = Puzzle::load(&corpus().join(&e.file)).unwrap();
        for bt in [
            Backtrack::new(Order::Row),
            Backtrack::new(Order::Spiral),
            Backtrack::new(Order::Constrained),
            Backtrack::full_tree(Order::Spiral),
        ] {
            let r = solve::run(&bt, &p, &SolveOptions::default()).unwrap();
            let got = (
                r.raw.len() as u64,
                r.classes.len() as u64,
                r.pictures.len() as u64,
            );
            let want = (e.raw.unwrap(), e.classes.unwrap(), e.pictures.unwrap());
            if got != want || !r.outcome.is_complete() {
                failures.push(format!(
                    "{} {}: got {got:?}, expected {want:?}",
                    e.file, r.model
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn symmetry_formulations_keep_the_same_classes_as_without() {
    // Board-level rules as pruning, and picture-lex,tiles, on puzzles with
    // identical tiles and thousands of solutions, every size.
    for file in [
        "der-sternenhimmel.yaml",
        "quadromino-haba.yaml",
        "crazy-sheep.yaml",
        "kaleidoscope-lagoon-2001.yaml",
        "quasthoff-example.yaml",
        "danger-puzzle.yaml",
    ] {
        let p = Puzzle::load(&corpus().join(file)).unwrap();
        let bt = Backtrack::default();
        let none = solve::run(&bt, &p, &SolveOptions::default()).unwrap();
        for (name, opts) in common::exact_options(&p) {
            let opts = SolveOptions { threads: 2, ..opts };
            let r = solve::run(&bt, &p, &opts).unwrap();
            let reference = none.canonical_under(opts.equivalence);
            assert_eq!(r.raw.len(), reference.len(), "{file} {name}");
            assert_eq!(r.canonical(), reference, "{file} {name}");
        }
    }
}

#[test]
fn threads_give_the_same_solutions_and_node_counts() {
    let p = Puzzle::load(&corpus().join("crazy-sheep.yaml")).unwrap();
    let one = solve::run(&Backtrack::default(), &p, &SolveOptions::default()).unwrap();
    let two = solve::run(
        &Backtrack::default(),
        &p,
        &SolveOptions {
            threads: 2,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    assert_eq!(one.raw, two.raw);
    assert_eq!(one.stats.count("nodes"), two.stats.count("nodes"));
    assert_eq!(
        one.stats
            .own::<scramble::engines::backtrack::kind::Stats>()
            .nodes_per_depth,
        two.stats
            .own::<scramble::engines::backtrack::kind::Stats>()
            .nodes_per_depth
    );
    let per_depth = one
        .stats
        .own::<scramble::engines::backtrack::kind::Stats>()
        .nodes_per_depth
        .unwrap();
    assert_eq!(per_depth.len(), 16);
    assert_eq!(
        per_depth.iter().sum::<u64>(),
        one.stats.count("nodes").unwrap()
    );
    // One board turn of each of the 880 raw solutions is searched.
    assert_eq!(*per_depth.last().unwrap(), 220);
    let full = solve::run(
        &Backtrack::full_tree(Order::Spiral),
        &p,
        &SolveOptions {
            threads: 2,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    assert_eq!(full.raw, one.raw);
    assert_eq!(full.model.to_string(), "spiral+full-tree");
    assert_eq!(
        *full
            .stats
            .own::<scramble::engines::backtrack::kind::Stats>()
            .nodes_per_depth
            .unwrap()
            .last()
            .unwrap(),
        880
    );
    assert!(full.stats.count("nodes").unwrap() > 3 * one.stats.count("nodes").unwrap());
}

#[test]
fn cli_backtrack_json() {
    let (v, code) = solve_json(&[
        seed().to_str().unwrap(),
        "--solver",
        "backtrack",
        "--order",
        "spiral",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["solver"], "backtrack");
    assert_eq!(v["model"], "spiral");
    assert_eq!(v["raw_count"], 4);
    assert_eq!(v["canonical_count"], 1);
    assert_eq!(
        v["solutions"],
        serde_json::json!([[
            [1, 1],
            [9, 3],
            [7, 2],
            [4, 2],
            [5, 3],
            [3, 2],
            [8, 0],
            [6, 3],
            [2, 2]
        ]])
    );
    let stats = &v["solver_stats"];
    assert!(stats["nodes"].as_u64().unwrap() > 0);
    assert_eq!(stats["nodes_per_depth"].as_array().unwrap().len(), 9);
    assert!(stats["nodes_per_second"].as_f64().is_some());
    cmd()
        .args(["solve", seed().to_str().unwrap(), "--order", "row"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "applies to --solver backtrack only",
        ));
}

#[test]
fn row_order_lists_count_the_reference_nodes_on_any_thread_count() {
    // danger-puzzle (36 tiles) in row order walks candidate lists: the
    // full tree has the nodes the C reference counts (fastref.c: 2,130,903
    // placements, 4 labelled solutions), split over threads or not.
    let p = Puzzle::load(&corpus().join("danger-puzzle.yaml")).unwrap();
    let mut depths = Vec::new();
    for threads in [1, 2] {
        let opts = SolveOptions {
            threads,
            ..SolveOptions::default()
        };
        let r = solve::run(&Backtrack::full_tree(Order::Row), &p, &opts).unwrap();
        assert_eq!(r.raw.len(), 4);
        assert_eq!(r.stats.count("nodes"), Some(2_130_903), "{threads} threads");
        depths.push(
            r.stats
                .own::<scramble::engines::backtrack::kind::Stats>()
                .nodes_per_depth
                .unwrap(),
        );
    }
    assert_eq!(depths[0], depths[1]);
}

#[test]
fn a_row_order_time_limit_stops_the_lists() {
    // A planted 7x7 in row order over the full tree takes over a second.
    let (_dir, p) = common::generated(7, 14, 1);
    for threads in ["1", "2"] {
        let out = cmd()
            .arg("solve")
            .arg(&p)
            .args(["--solver", "backtrack", "--order", "row", "--full-tree"])
            .args([
                "--time-limit",
                "0.2",
                "--threads",
                threads,
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{threads} threads");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["complete"], false);
        assert_eq!(v["stopped_by"], "time_limit");
        assert!(v["wall_time_s"].as_f64().unwrap() < 1.0);
    }
}

#[test]
fn backtrack_time_limit_is_incomplete() {
    // The Ant Trails puzzle has astronomically many labelled solutions.
    let p = corpus().join("the-ant-trails-puzzle.yaml");
    let out = cmd()
        .args([
            "solve",
            p.to_str().unwrap(),
            "--solver",
            "backtrack",
            "--time-limit",
            "0.5",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["stopped_by"], "time_limit");
    // The default labelled search places tile kinds and expands each
    // picture into its labelled boards lazily: solutions come at once.
    assert!(v["raw_count"].as_u64().unwrap() > 0, "{}", v["raw_count"]);
    assert_eq!(
        v["raw_count"].as_u64().unwrap(),
        4 * v["classes_count"].as_u64().unwrap()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// The three engines enumerate the same solutions of random planted
    /// puzzles, some with tiles made identical (up to rotation) to others
    /// (the SAT engine with an encoding chosen by the case's seed).
    #[test]
    fn backtrack_and_cpsat_agree(
        seed in any::<u64>(),
        (n, motifs) in prop_oneof![(1usize..=2, 2usize..=6), (3usize..=3, 3usize..=6), (4usize..=4, 6usize..=6)],
        self_matching in any::<bool>(),
        duplicates in 0usize..=4,
    ) {
        if !common::has_cpsat() {
            return Ok(());
        }
        // At most half the tiles (a 2x2 board has two non-touching pairs).
        let duplicates = duplicates.min(n * n / 2);
        let made = plant_with_duplicates(
            &mut Rng::new(seed),
            &PlantOptions { n, motifs, self_matching },
            duplicates,
            200,
        );
        prop_assume!(made.is_some());
        let (puzzle, planted) = made.unwrap();
        prop_assert!(tiles_with_twins(&puzzle) >= duplicates);
        let cp = solve::run(&CpSat::new().unwrap(), &puzzle, &SolveOptions::default()).unwrap();
        // Two result sets compare only once both runs are complete.
        prop_assert_eq!(&cp.outcome, &Outcome::Complete);
        // CP-SAT's one-class-per-solve rounds (--limit past the count) end
        // complete with the same solutions.
        if cp.classes.len() <= 40 {
            let opts = SolveOptions { limit: Some(1000), ..SolveOptions::default() };
            let first = solve::run(&CpSat::new().unwrap(), &puzzle, &opts).unwrap();
            prop_assert_eq!(&first.outcome, &cp.outcome);
            prop_assert_eq!(&first.classes, &cp.classes);
            prop_assert_eq!(&first.raw, &cp.raw);
        }
        // The frame order's ring has one placed neighbour per cell: too many
        // nodes in the full tree of an unframed 4x4.
        for order in Order::ALL.into_iter().filter(|&o| o != Order::Frame || n < 4) {
            for solver in [Backtrack::new(order), Backtrack::full_tree(order)] {
            let bt = solve::run(&solver, &puzzle, &SolveOptions::default()).unwrap();
            prop_assert_eq!(&bt.outcome, &Outcome::Complete);
            prop_assert!(bt.raw.contains(&planted));
            prop_assert_eq!(&bt.raw, &cp.raw);
            prop_assert_eq!(&bt.classes, &cp.classes);
            prop_assert_eq!(&bt.pictures, &cp.pictures);
            }
        }
        let sat = Sat::new(Encoding::ALL[(seed % 4) as usize]);
        let r = solve::run(&sat, &puzzle, &SolveOptions::default()).unwrap();
        prop_assert_eq!(&r.outcome, &Outcome::Complete);
        prop_assert_eq!(&r.raw, &cp.raw);
        prop_assert_eq!(&r.classes, &cp.classes);
        prop_assert_eq!(&r.pictures, &cp.pictures);
        // What is kept changes what is searched (tile kinds, one board per
        // picture), never the counts or the classes. The backtracker runs
        // every combination; CP-SAT a third of them, chosen by the case's
        // seed, so the cases cover them all (every one on each case cost
        // 15 s of the suite).
        let combinations = [Keep::Canonical, Keep::Stream, Keep::Count]
            .into_iter()
            .flat_map(|keep| [Equivalence::Rotation, Equivalence::Picture].map(|e| (keep, e)))
            .flat_map(|(keep, e)| [1, 2].map(|threads| (keep, e, threads)));
        for (k, (keep, equivalence, threads)) in combinations.enumerate() {
            let opts = SolveOptions { keep, equivalence, threads, ..SolveOptions::default() };
            let (bt, cpsat) = (Backtrack::default(), CpSat::new().unwrap());
            let mut solvers: Vec<&dyn Solver> = vec![&bt];
            if k % 3 == (seed % 3) as usize {
                solvers.push(&cpsat);
            }
            if k % 3 == ((seed + 1) % 3) as usize {
                solvers.push(&sat);
            }
            for solver in solvers {
                let r = solve::run(solver, &puzzle, &opts).unwrap();
                let what = format!("{} {keep:?} {equivalence:?} {threads}", r.solver);
                prop_assert_eq!(&r.outcome, &Outcome::Complete, "{}", what);
                prop_assert_eq!(r.counts, cp.counts, "{}", what);
                if keep == Keep::Canonical {
                    prop_assert_eq!(r.canonical(), cp.canonical_under(equivalence), "{}", what);
                }
                // A limit past the count: the same, though pictures
                // are then searched and expanded lazily (CP-SAT
                // solves once per class: only with few).
                if keep == Keep::Canonical && threads == 1 && cp.counts.classes <= 40 {
                    let opts = SolveOptions { limit: Some(100_000), ..opts.clone() };
                    let l = solve::run(solver, &puzzle, &opts).unwrap();
                    prop_assert_eq!(l.canonical(), cp.canonical_under(equivalence), "{} limit", what);
                    prop_assert_eq!(l.counts, cp.counts, "{} limit", what);
                }
            }
        }
    }
}

#[test]
fn a_limit_under_board_turns_on_identical_tiles_is_fast() {
    if !common::has_cpsat() {
        return;
    }
    // the-ant-trails-puzzle: each picture stands for about 4e15 labelled
    // boards; three classes come from the first picture, expanded lazily.
    let p = Puzzle::load(&corpus().join("the-ant-trails-puzzle.yaml")).unwrap();
    let opts = SolveOptions {
        limit: Some(3),
        keep: Keep::Canonical,
        time_limit: Some(std::time::Duration::from_secs(60)),
        ..SolveOptions::default()
    };
    let solvers: [&dyn Solver; 2] = [&Backtrack::default(), &CpSat::new().unwrap()];
    for solver in solvers {
        let r = solve::run(solver, &p, &opts).unwrap();
        assert_eq!(
            r.outcome,
            Outcome::Incomplete(StopReason::Limit),
            "{}",
            r.solver
        );
        assert_eq!(r.classes.len(), 3, "{}", r.solver);
        assert_eq!(r.counts.classes, 3, "{}", r.solver);
    }
}

#[test]
fn kinds_count_the_corpus_puzzles_with_identical_tiles() {
    // Every corpus puzzle with identical or symmetric tiles and a known
    // count, counted without keeping anything (the backtracker then places
    // tile kinds): the same counts as expected.tsv.
    let rows = common::expected();
    let mut checked = 0;
    for e in rows
        .iter()
        .filter(|e| e.raw.is_some() && e.raw != e.pictures.map(|p| 4 * p))
    {
        let p = Puzzle::load(&corpus().join(&e.file)).unwrap();
        if scramble::symmetry::pictures_are_labels(&p) {
            continue;
        }
        // Every order: spiral reduces turns by the centre (odd boards) or
        // the first cell's orbit, row and constrained by the orbit only.
        for (keep, equivalence, order) in [
            (Keep::Count, Equivalence::Rotation, Order::Spiral),
            (Keep::Canonical, Equivalence::Picture, Order::Spiral),
            (Keep::Count, Equivalence::Picture, Order::Row),
            (Keep::Count, Equivalence::Picture, Order::Constrained),
        ] {
            let opts = SolveOptions {
                keep,
                equivalence,
                threads: 2,
                ..SolveOptions::default()
            };
            let r = solve::run(&Backtrack::new(order), &p, &opts).unwrap();
            let got = (r.counts.raw, r.counts.classes, r.counts.pictures);
            let want = (
                e.raw.unwrap() as u128,
                e.classes.unwrap() as u128,
                e.pictures.unwrap() as u128,
            );
            assert_eq!(got, want, "{} {keep:?} {order}", e.file);
            if keep == Keep::Canonical {
                assert_eq!(r.pictures.len() as u128, want.2);
            }
        }
        checked += 1;
    }
    assert!(
        checked >= 3,
        "only {checked} corpus puzzles with identical tiles"
    );
}

#[test]
fn boards_past_128_tiles() {
    // 12x12 (144 tiles), many motifs: solved to the end (CP-SAT takes about
    // 10 s on it, too long for the suite; the solvers are compared on small
    // boards above).
    let (puzzle, planted) = scramble::generate::plant(
        &mut Rng::new(7),
        &PlantOptions {
            n: 12,
            motifs: 40,
            self_matching: false,
        },
    );
    let bt = solve::run(
        &Backtrack::new(Order::Spiral),
        &puzzle,
        &SolveOptions::default(),
    )
    .unwrap();
    assert_eq!(bt.outcome, Outcome::Complete);
    assert!(bt.raw.contains(&planted));
    assert_eq!(bt.raw.len(), 4 * bt.classes.len());
    for s in &bt.raw {
        assert!(s.verify(&puzzle).is_ok());
    }
    // 16x16 (256 tiles, Eternity II's size), few motifs: both stop at the
    // time limit with an incomplete result, not an error.
    let (puzzle, _) = scramble::generate::plant(
        &mut Rng::new(7),
        &PlantOptions {
            n: 16,
            motifs: 22,
            self_matching: false,
        },
    );
    let opts = SolveOptions {
        time_limit: Some(std::time::Duration::from_millis(500)),
        threads: 2,
        ..SolveOptions::default()
    };
    for order in Order::ALL {
        let r = solve::run(&Backtrack::new(order), &puzzle, &opts).unwrap();
        assert_eq!(r.outcome, Outcome::Incomplete(StopReason::TimeLimit));
        assert!(r.stats.count("nodes").unwrap() > 0);
    }
}

#[test]
fn a_board_past_the_limit_is_an_input_error() {
    // 33x33 = 1,089 tiles, one past 32x32.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.yaml");
    let yaml: String = (1..=33 * 33)
        .map(|k| format!("{k}: [[a, '+'], [a, '-'], [a, '+'], [a, '-']]\n"))
        .collect();
    std::fs::write(&p, yaml).unwrap();
    cmd()
        .args(["solve", p.to_str().unwrap(), "--solver", "backtrack"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("big.yaml"))
        .stderr(predicate::str::contains("at most 1024"));
}

#[test]
fn first_solutions_restart_as_asked_and_the_options_are_checked() {
    let seed = seed();
    let p = seed.to_str().unwrap();
    // Restarts (the default) and one search in one order both find a
    // first class; the report counts the attempts and names the order.
    for extra in [
        &["--restart-seed", "7"][..],
        &["--no-restarts"],
        &["--no-lookahead"],
    ] {
        let mut args = vec![p, "--solver", "backtrack", "--limit", "1"];
        args.extend_from_slice(extra);
        let (v, code) = solve_json(&args);
        assert_eq!((code, &v["classes_count"]), (0, &1.into()), "{extra:?}");
        assert_eq!(v["model"], "row");
        assert_eq!(
            v["solver_stats"]["attempts"].is_u64(),
            extra[0] != "--no-restarts"
        );
    }
    // Restart options without --limit, or for another engine, are refused.
    for (args, says) in [
        (
            vec![p, "--solver", "backtrack", "--no-restarts"],
            "--no-restarts applies to first-solution runs only",
        ),
        (
            vec![p, "--limit", "1", "--restart-unit", "100"],
            "--restart-unit applies to --solver backtrack only",
        ),
        (
            vec![p, "--solver", "backtrack", "--no-lookahead"],
            "--no-lookahead applies to first-solution runs only",
        ),
    ] {
        cmd()
            .arg("solve")
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

#[test]
fn the_lookahead_finds_the_same_first_board_after_fewer_nodes() {
    // A framed 7x7 board of the family benchmark, one search in the row
    // order: the lookahead only cuts dead ends.
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .args([
            "generate",
            "--size",
            "7",
            "--frame-colours",
            "4",
            "--motifs",
            "9",
        ])
        .args(["--seed", "1", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let p = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![p, "--solver", "backtrack", "--limit", "1", "--no-restarts"];
        args.extend_from_slice(&["--threads", "1"]);
        args.extend_from_slice(extra);
        let (v, code) = solve_json(&args);
        assert_eq!(code, 0, "{extra:?}");
        (
            v["solutions"].clone(),
            v["solver_stats"]["nodes"].as_u64().unwrap(),
        )
    };
    let (with, without) = (run(&[]), run(&["--no-lookahead"]));
    assert_eq!(with.0, without.0);
    assert!(with.1 < without.1, "{} against {} nodes", with.1, without.1);
}
