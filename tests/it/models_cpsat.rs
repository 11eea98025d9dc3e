//! Every CP formulation (encoding) against the corpus' known counts, the
//! documented-exact symmetry formulations and the backtracker, with the real
//! CP-SAT solver. The default encoding is checked on the whole corpus in
//! corpus_cpsat.rs; here every encoding is checked on a representative
//! subset (a 2x2, 3x3 boards with and without identical tiles, many and few
//! solutions, a 4x4) and on random planted puzzles.

use crate::common;

use std::sync::Mutex;

use proptest::prelude::*;
use scramble::engines::backtrack::Backtrack;
use scramble::engines::cpsat::CpSat;
use scramble::generate::{PlantOptions, Rng, plant_with_duplicates};
use scramble::model::Choice;
use scramble::puzzle::Puzzle;
use scramble::solve::{self, Outcome, SolveOptions};
use scramble::symmetry::Equivalence;

const SUBSET: [&str; 6] = [
    "quasthoff-example.yaml",
    "der-sternenhimmel.yaml",
    "die-barenknobelei.yaml",
    "crazy9-ketner-owls.yaml",
    "das-verflixte-hundespiel-artus.yaml",
    "kaleidoscope-lagoon-2001.yaml",
];

fn models() -> Vec<Choice> {
    Choice::ALL.to_vec()
}

fn cp(model: Choice) -> CpSat {
    CpSat::new()
        .expect("CP-SAT runtime (run scripts/install/cpsat)")
        .with_model(model)
}

/// Failures of one encoding on one puzzle against the expected counts:
/// its enumeration, its full tree and the `k`-th documented-exact symmetry
/// formulation (mod their number; the callers turn `k` so every encoding
/// meets every formulation over the subset, and every formulation every
/// encoding, at a third of the cost of all of them everywhere).
fn check(model: Choice, p: &Puzzle, want: (u64, u64, u64), k: usize) -> Vec<String> {
    let mut failures = Vec::new();
    let name = model.name();
    let solver = cp(model);
    // Default enumeration (turn reduction) and the full tree agree: on every
    // board with every encoding, and on the 4x4 with the default one (the
    // boolean encodings' full tree of the 4x4 cost 7 CPU-s of the suite).
    let none = solve::run(&solver, p, &SolveOptions::default()).unwrap();
    let full = (p.rows() < 4 || model == Choice::default()).then(|| {
        solve::run(
            &solver.clone().with_turns(scramble::solve::Turns::Full),
            p,
            &SolveOptions::default(),
        )
        .unwrap()
    });
    for (what, r) in std::iter::once(("none", &none)).chain(full.iter().map(|f| ("full tree", f))) {
        let got = (
            r.raw.len() as u64,
            r.classes.len() as u64,
            r.pictures.len() as u64,
        );
        if got != want || r.outcome != Outcome::Complete {
            failures.push(format!(
                "{} {name} {what}: got {got:?} ({:?}), expected {want:?}",
                p.name(),
                r.outcome
            ));
        }
    }
    if full.as_ref().is_some_and(|f| none.raw != f.raw) {
        failures.push(format!(
            "{} {name}: the turn reduction changed the solutions",
            p.name()
        ));
    }
    let mut formulations = common::exact_options(p);
    if !formulations.is_empty() {
        let pick = k % formulations.len();
        formulations = vec![formulations.swap_remove(pick)];
    }
    for (sym, opts) in formulations {
        let r = solve::run(&solver, p, &opts).unwrap();
        let count = match opts.equivalence {
            Equivalence::Rotation => want.1,
            Equivalence::Picture => want.2,
        };
        if r.outcome != Outcome::Complete
            || r.raw.len() as u64 != count
            || r.canonical() != none.canonical_under(opts.equivalence)
        {
            failures.push(format!(
                "{} {name} {sym}: raw {} ({:?}), expected {count}",
                p.name(),
                r.raw.len(),
                r.outcome
            ));
        }
    }
    failures
}

#[test]
fn every_model_matches_expected_counts_on_a_corpus_subset() {
    if !common::has_cpsat() {
        return;
    }
    let expected = common::expected();
    let mut jobs = Vec::new();
    for (f, file) in SUBSET.into_iter().enumerate() {
        let e = expected.iter().find(|e| e.file == file).expect(file);
        let p = Puzzle::load(&common::corpus().join(file)).unwrap();
        let want = (e.raw.unwrap(), e.classes.unwrap(), e.pictures.unwrap());
        for (m, model) in models().into_iter().enumerate() {
            // The table model takes minutes on this 4x4 (docs/benchmarks.md):
            // it is checked on the 2x2 and 3x3 boards.
            if model.name() == "table" && p.rows() >= 4 {
                continue;
            }
            jobs.push((model, p.clone(), want, f + m));
        }
    }
    let queue = Mutex::new(jobs);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                while let Some((model, p, want, k)) = queue.lock().unwrap().pop() {
                    let f = check(model, &p, want, k);
                    failures.lock().unwrap().extend(f);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn six_by_six_corpus_puzzles_match_expected_counts() {
    if !common::has_cpsat() {
        return;
    }
    // The corpus' 6x6 boards with known counts, with the encoding that is
    // fastest on them (docs/benchmarks.md).
    let solver = cp("edge-boolean".parse().unwrap());
    for e in common::expected()
        .iter()
        .filter(|e| e.n == 6 && e.raw.is_some())
    {
        let p = Puzzle::load(&common::corpus().join(&e.file)).unwrap();
        let opts = SolveOptions {
            threads: 2,
            ..SolveOptions::default()
        };
        let r = solve::run(&solver, &p, &opts).unwrap();
        assert_eq!(r.outcome, Outcome::Complete, "{}", e.file);
        assert_eq!(
            (
                r.raw.len() as u64,
                r.classes.len() as u64,
                r.pictures.len() as u64
            ),
            (e.raw.unwrap(), e.classes.unwrap(), e.pictures.unwrap()),
            "{}",
            e.file
        );
    }
}

/// A 2x3 board (a hint, identical and rotation-symmetric pieces) that
/// OR-Tools 9.15's presolve proved infeasible under the `boolean` and
/// `edge-boolean` models while the picture rule (`tiles`) stood on the
/// cells' tile and rotation variables (docs/model.md). Every model finds
/// the backtracker's boards with the default reduction, and its pictures
/// with `tiles` asked for.
#[test]
fn every_model_solves_a_board_the_presolve_once_refuted() {
    if !common::has_cpsat() {
        return;
    }
    let p = Puzzle::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/puzzles/presolve-refuted.yaml"),
    )
    .unwrap();
    let bt = solve::run(&Backtrack::default(), &p, &SolveOptions::default()).unwrap();
    assert_eq!(bt.raw.len(), 64);
    let tiles = SolveOptions {
        symmetry: "tiles".parse().unwrap(),
        equivalence: Equivalence::Picture,
        ..SolveOptions::default()
    };
    for model in models() {
        let r = solve::run(&cp(model), &p, &SolveOptions::default()).unwrap();
        assert_eq!(r.outcome, Outcome::Complete, "{}", model.name());
        assert_eq!(r.raw.len(), 64, "{}", model.name());
        assert_eq!(r.canonical(), bt.canonical(), "{}", model.name());
        let r = solve::run(&cp(model), &p, &tiles).unwrap();
        assert_eq!(r.raw.len(), bt.pictures.len(), "{} tiles", model.name());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// On random planted puzzles (few motifs and duplicated tiles make
    /// identical and rotation-symmetric tiles common), every encoding finds
    /// exactly the backtracker's labelled solutions, and with a
    /// documented-exact symmetry formulation (one per encoding and draw, in
    /// turn) keeps exactly one per class.
    #[test]
    fn every_model_agrees_with_the_backtracker(
        seed in any::<u64>(),
        (n, motifs) in prop_oneof![(1usize..=2, 1usize..=3), (3usize..=3, 2usize..=5)],
        duplicates in 0usize..=3,
        self_matching in any::<bool>(),
    ) {
        if !common::has_cpsat() {
            return Ok(());
        }
        let o = PlantOptions { n, motifs, self_matching };
        let Some((puzzle, planted)) =
            plant_with_duplicates(&mut Rng::new(seed), &o, duplicates.min(n * n), 100)
        else {
            return Ok(());
        };
        let bt = solve::run(&Backtrack::default(), &puzzle, &SolveOptions::default()).unwrap();
        prop_assert_eq!(&bt.outcome, &Outcome::Complete);
        prop_assert!(bt.raw.contains(&planted));
        // Many labelled solutions cost every encoding seconds of
        // enumeration (with the suite's seed, two draws with 176 and 284
        // took 5.3 s of this test's 7.5 s alone; thousands once took 105 s
        // of 120); the corpus subset above covers boards with many
        // solutions.
        if bt.raw.len() > 150 {
            return Ok(());
        }
        let formulations = common::exact_options(&puzzle);
        for (m, model) in models().into_iter().enumerate() {
            let solver = cp(model);
            let r = solve::run(&solver, &puzzle, &SolveOptions::default()).unwrap();
            prop_assert_eq!(&r.outcome, &Outcome::Complete, "{}", model.name());
            prop_assert_eq!(&r.raw, &bt.raw, "{}", model.name());
            // One formulation per encoding, turned with the draw's seed so
            // every pair meets over the cases.
            let turn = (seed as usize).wrapping_add(m) % formulations.len().max(1);
            if let Some((name, opts)) = formulations.get(turn).cloned() {
                let r = solve::run(&solver, &puzzle, &opts).unwrap();
                prop_assert_eq!(&r.outcome, &Outcome::Complete);
                let reference = bt.canonical_under(opts.equivalence);
                prop_assert_eq!(r.raw.len(), reference.len(), "{} {}", model.name(), name);
                prop_assert_eq!(r.canonical(), reference, "{} {}", model.name(), name);
            }
        }
    }
}
