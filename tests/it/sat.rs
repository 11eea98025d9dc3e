//! The SAT engine against the backtracker: the same solutions with every
//! encoding, on planted puzzles with and without identical tiles, on the
//! family's rules (frames, fixed pieces, rectangles, no turns) and under
//! the symmetry formulations; and its command line.

use crate::common;

use common::cmd;
use predicates::prelude::*;
use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::{Lit, TernaryVal};
use rustsat_cadical::CaDiCaL;
use scramble::engines::backtrack::Backtrack;
use scramble::engines::sat::{Encoding, Sat};
use scramble::generate::{
    FamilyOptions, PlantOptions, Rng, plant, plant_family, plant_with_duplicates,
};
use scramble::puzzle::{Puzzle, Turning};
use scramble::solve::{self, SolveOptions};

fn same_as_backtracking(p: &Puzzle, options: &SolveOptions, what: &str) {
    let bt = solve::run(&Backtrack::default(), p, options).unwrap();
    for encoding in Encoding::ALL {
        let r = solve::run(&Sat::new(encoding), p, options).unwrap();
        assert_eq!(r.outcome, bt.outcome, "{what} {encoding}");
        assert_eq!(r.counts, bt.counts, "{what} {encoding}");
        assert_eq!(r.raw, bt.raw, "{what} {encoding}");
        assert_eq!(r.canonical(), bt.canonical(), "{what} {encoding}");
    }
}

#[test]
fn every_encoding_finds_the_backtracker_s_solutions() {
    for seed in 0..12u64 {
        let o = PlantOptions {
            n: 2 + seed as usize % 3,
            motifs: 4 + seed as usize % 3,
            self_matching: seed % 3 == 0,
        };
        let (p, _) = if seed % 2 == 0 {
            plant(&mut Rng::new(seed), &o)
        } else {
            plant_with_duplicates(&mut Rng::new(seed), &o, 3, 1000).expect("a puzzle with twins")
        };
        // One thread: one search; two: the first cell's placements as units.
        let threads = 1 + (seed as usize / 2) % 2;
        let options = SolveOptions {
            threads,
            ..SolveOptions::default()
        };
        same_as_backtracking(&p, &options, &format!("seed {seed}, {threads} threads"));
    }
}

#[test]
fn the_family_s_rules_hold_frames_hints_rectangles_and_no_turns() {
    for seed in 0..8u64 {
        let o = FamilyOptions {
            rows: 3 + seed as usize % 2,
            cols: 3 + seed as usize % 3,
            frame_colours: (seed % 3) as usize,
            inner_colours: 6,
            turning: if seed % 4 == 3 {
                Turning::None
            } else {
                Turning::Quarter
            },
            hint: seed % 2 == 1,
        };
        let (p, _) = plant_family(&mut Rng::new(seed), &o);
        same_as_backtracking(&p, &SolveOptions::default(), &format!("family seed {seed}"));
    }
}

/// A small puzzle of one of the kinds the formulations meet: a square
/// (1x1 to 3x3: odd and even, a centre or none) with or without identical
/// tiles and self-matching motifs, or a framed rectangle (only the half
/// turn).
fn symmetry_case(seed: u64, kind: u8) -> Option<Puzzle> {
    let n = 1 + seed as usize % 3;
    let o = PlantOptions {
        n,
        motifs: 2 + seed as usize % 3,
        self_matching: seed.is_multiple_of(3),
    };
    match kind {
        0 => Some(plant(&mut Rng::new(seed), &o).0),
        1 => plant_with_duplicates(&mut Rng::new(seed), &o, 2.min(n * n), 100).map(|(p, _)| p),
        _ => {
            let o = FamilyOptions {
                rows: 2 + seed as usize % 2,
                cols: 4,
                frame_colours: 2,
                inner_colours: 2,
                turning: Turning::Quarter,
                hint: false,
            };
            Some(plant_family(&mut Rng::new(seed), &o).0)
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

    /// Each formulation as clauses keeps exactly the labelled solutions
    /// the backtracker keeps with the formulation stated directly: every
    /// combination that applies, in every encoding in turn.
    #[test]
    fn symmetry_clauses_keep_what_the_direct_statement_keeps(
        seed in 0u64..1_000_000,
        kind in 0u8..3,
    ) {
        let Some(p) = symmetry_case(seed, kind) else { return Ok(()) };
        let few = SolveOptions { limit: Some(100), keep: solve::Keep::Count, ..SolveOptions::default() };
        let r = solve::run(&Backtrack::default(), &p, &few).unwrap();
        if !r.outcome.is_complete() || r.counts.raw > 300 {
            return Ok(());
        }
        // Every combination `symmetry-report` runs, proven or not.
        let combinations = scramble::symmetry::report_combinations();
        for (k, symmetry) in combinations.into_iter().filter(|s| !s.is_none()).enumerate() {
            let name = symmetry.name();
            if symmetry.check(&p).is_err() {
                continue;
            }
            let options = SolveOptions {
                symmetry,
                allow_unproven: true,
                ..SolveOptions::default()
            };
            let encoding = Encoding::ALL[(seed as usize + k) % Encoding::ALL.len()];
            let bt = solve::run(&Backtrack::default(), &p, &options).unwrap();
            let sat = solve::run(&Sat::new(encoding), &p, &options).unwrap();
            proptest::prop_assert!(sat.outcome.is_complete());
            proptest::prop_assert_eq!(&sat.raw, &bt.raw, "{} {} {}", name, encoding, p.describe_board());
        }
    }
}

/// Every 2x2 to 4x4 corpus puzzle's counts, each with an encoding in turn
/// (puzzle k in file order gets encoding k mod 4).
#[test]
fn the_corpus_counts_match_expected_tsv() {
    let mut rows: Vec<_> = common::expected()
        .into_iter()
        .filter(|e| e.n <= 4 && e.raw.is_some())
        .collect();
    assert!(rows.len() >= 85, "corpus rows: {}", rows.len());
    rows.sort_by(|a, b| a.file.cmp(&b.file));
    let mut failures = Vec::new();
    for (k, e) in rows.iter().enumerate() {
        let p = Puzzle::load(&common::corpus().join(&e.file)).unwrap();
        let encoding = Encoding::ALL[k % Encoding::ALL.len()];
        let options = SolveOptions {
            keep: solve::Keep::Count,
            ..SolveOptions::default()
        };
        let r = solve::run(&Sat::new(encoding), &p, &options).unwrap();
        let got = (r.counts.raw, r.counts.classes, r.counts.pictures);
        let want = (
            e.raw.unwrap() as u128,
            e.classes.unwrap() as u128,
            e.pictures.unwrap() as u128,
        );
        if got != want || !r.outcome.is_complete() {
            failures.push(format!(
                "{} {encoding}: got {got:?} ({:?}), expected {want:?}",
                e.file, r.outcome
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn solve_names_the_engine_its_encoding_and_its_effort() {
    let (v, code) = common::solve_json(&[
        common::seed().to_str().unwrap(),
        "--solver",
        "sat",
        "--encoding",
        "support",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["solver"], "sat");
    assert_eq!(v["model"], "support");
    assert!(
        v["solver_version"]
            .as_str()
            .unwrap()
            .starts_with("CaDiCaL ")
    );
    assert_eq!(v["classes_count"], 1);
    let stats = &v["solver_stats"];
    assert!(stats["variables"].as_u64().unwrap() > 0);
    assert!(stats["clauses"].as_u64().unwrap() > 0);
    assert!(stats["sat_solves"].as_u64().unwrap() >= 2);
}

#[test]
fn an_encoding_given_to_another_engine_is_refused() {
    cmd()
        .args(["solve", common::seed().to_str().unwrap()])
        .args(["--solver", "backtrack", "--encoding", "colour"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--encoding applies to --solver sat only",
        ));
    cmd()
        .args(["solve", common::seed().to_str().unwrap()])
        .args(["--solver", "sat", "--encoding", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("colour-sequential"));
}

/// A CNF past the variables CaDiCaL can take on and still stop on time
/// is refused before CaDiCaL sees a clause: exit 2, the file named, what
/// to use instead; a 24x24 (4,062,192 variables) is still searched.
#[test]
fn a_cnf_past_the_variable_limit_is_refused_up_front() {
    let (_dir, big) = common::generated(28, 20, 3);
    for extra in [&[][..], &["--limit", "1"][..]] {
        cmd()
            .args(["solve", big.to_str().unwrap(), "--solver", "sat"])
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(big.to_str().unwrap()))
            .stderr(predicate::str::contains(
                "more than the limit of 4194304 variables",
            ))
            .stderr(predicate::str::contains("--solver backtrack"));
    }
    let (_dir, under) = common::generated(24, 20, 3);
    let out = cmd()
        .args(["solve", under.to_str().unwrap(), "--solver", "sat"])
        .args(["--time-limit", "0.5", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["stopped_by"], "time_limit", "{report}");
}

#[test]
fn the_model_command_writes_the_cnf_cadical_reads() {
    let out = cmd()
        .args(["model", common::seed().to_str().unwrap()])
        .args(["--format", "dimacs", "--encoding", "support"])
        .output()
        .unwrap();
    let text = common::stdout_ok(&out);
    assert!(text.starts_with("c scramble "));
    assert!(text.contains("c v 1 (1,1) 1 0\n"));
    let header = text.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let clauses: usize = header.rsplit(' ').next().unwrap().parse().unwrap();
    assert_eq!(
        text.lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .count(),
        clauses
    );
    // The CNF has a model, and the variables the header names decode to
    // the seed's solution (one of its four turns).
    let mut sat = CaDiCaL::default();
    let lit = |l: &str| Lit::from_ipasir(l.parse().unwrap()).unwrap();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
    {
        let lits: Vec<Lit> = line
            .strip_suffix(" 0")
            .unwrap()
            .split(' ')
            .map(lit)
            .collect();
        sat.add_clause_ref(lits.as_slice()).unwrap();
    }
    assert_eq!(sat.solve().unwrap(), SolverResult::Sat);
    let placed = text
        .lines()
        .filter_map(|l| l.strip_prefix("c v "))
        .filter(|l| sat.lit_val(lit(l.split(' ').next().unwrap())).unwrap() == TernaryVal::True)
        .count();
    assert_eq!(placed, 9);
    // --full-tree is the CP model's.
    cmd()
        .args(["model", common::seed().to_str().unwrap()])
        .args(["--format", "dimacs", "--full-tree"])
        .assert()
        .code(2);
}

/// The DIMACS header says what each model stands for: one board turn of
/// a class on the seed puzzle, one picture class where twins are placed
/// as kinds and a tile without a twin anchors the turns.
#[test]
fn the_dimacs_header_says_what_a_model_stands_for() {
    let header = |p: &std::path::Path| {
        let out = cmd()
            .args(["model", p.to_str().unwrap(), "--format", "dimacs"])
            .output()
            .unwrap();
        common::stdout_ok(&out)
            .lines()
            .take_while(|l| !l.starts_with("c v "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let seed = header(&common::seed());
    assert!(seed.contains("one board turn of a class"), "{seed}");
    let twins = header(&common::corpus().join("kaleidoscope-lagoon-2001.yaml"));
    assert!(
        twins.contains("c symmetry breaking unique-anchor"),
        "{twins}"
    );
    assert!(twins.contains("each model is one picture class"), "{twins}");
}

/// The clue puzzles (frames, identical and symmetric pieces, rectangles):
/// each engine's first solution is verified by the collector, and all
/// three find one.
#[test]
fn the_clue_puzzles_are_solved_by_all_three_engines() {
    let cp = common::has_cpsat();
    for clue in ["clue1.txt", "clue2.txt", "clue3.txt", "clue4.txt"] {
        let mut engines = vec!["sat", "backtrack"];
        if cp {
            engines.push("cp-sat");
        }
        for engine in engines {
            let (v, code) = common::solve_json(&[
                common::e2(clue).to_str().unwrap(),
                "--solver",
                engine,
                "--limit",
                "1",
            ]);
            assert_eq!(code, 0, "{clue} {engine}");
            assert_eq!(v["classes_count"], 1, "{clue} {engine}");
        }
    }
}
