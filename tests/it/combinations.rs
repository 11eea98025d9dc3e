//! Combinations of symmetry formulations: every one accepted as proven
//! keeps what it is proven to keep, on random planted puzzles (identical
//! and rotation-symmetric tiles common), with the backtracker and with
//! CP-SAT, against the run without symmetry breaking.

use crate::common;

use std::collections::BTreeSet;

use proptest::prelude::*;
use scramble::engines::backtrack::Backtrack;
use scramble::engines::cpsat::CpSat;
use scramble::generate::{PlantOptions, Rng, plant_with_duplicates};
use scramble::solve::{self, Outcome, SolveOptions, Solver};
use scramble::symmetry::{Equivalence, Keeps, Symmetry};

const NAMES: [&str; 6] = ["center", "corner", "lex", "anchor", "picture-lex", "tiles"];

/// A combination: up to three distinct formulations in a drawn order.
fn combination() -> impl Strategy<Value = Symmetry> {
    proptest::sample::subsequence(NAMES.to_vec(), 1..=3)
        .prop_shuffle()
        .prop_map(|names| names.join(",").parse().expect("known names"))
}

/// Whether `sym` keeps what it claims under `e`, with `solver`, against the
/// full enumeration `all` of `p` (a complete run with no symmetry).
fn keeps_what_it_claims(
    solver: &dyn Solver,
    p: &scramble::puzzle::Puzzle,
    sym: &Symmetry,
    e: Equivalence,
    all: &solve::SolveResult,
) -> Result<(), TestCaseError> {
    let claim = sym.keeps(e);
    let opts = SolveOptions {
        symmetry: sym.clone(),
        equivalence: e,
        allow_unproven: true,
        ..SolveOptions::default()
    };
    let r = solve::run(solver, p, &opts).unwrap();
    prop_assert!(r.outcome.is_complete(), "{:?}", r.outcome);
    prop_assert_eq!(r.symmetry_proven, claim.is_proven());
    // Without the opt-in, exactly the unproven ones are refused.
    let refused = solve::run(
        solver,
        p,
        &SolveOptions {
            allow_unproven: false,
            ..opts.clone()
        },
    )
    .is_err();
    prop_assert_eq!(refused, !claim.is_proven());
    let want: BTreeSet<_> = all.canonical_under(e).iter().collect();
    let got: BTreeSet<_> = r.canonical_under(e).iter().collect();
    let kept = r.counts.raw;
    match claim {
        Keeps::Every | Keeps::Unproven => {}
        Keeps::AtLeastOne => prop_assert_eq!(&got, &want, "{} under {:?}", sym.name(), e),
        Keeps::ExactlyOne => {
            prop_assert_eq!(&got, &want, "{} under {:?}", sym.name(), e);
            prop_assert_eq!(kept, want.len() as u128, "{} under {:?}", sym.name(), e);
        }
    }
    Ok(())
}

fn planted(
    seed: u64,
    n: usize,
    motifs: usize,
    duplicates: usize,
) -> Option<scramble::puzzle::Puzzle> {
    let o = PlantOptions {
        n,
        motifs,
        self_matching: true,
    };
    plant_with_duplicates(&mut Rng::new(seed), &o, duplicates.min(n * n / 2), 100).map(|(p, _)| p)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn every_accepted_combination_keeps_what_it_is_proven_to_keep(
        seed in any::<u64>(),
        n in 2usize..=3,
        motifs in 2usize..=4,
        duplicates in 0usize..=3,
        sym in combination(),
    ) {
        let Some(p) = planted(seed, n, motifs, duplicates) else { return Ok(()) };
        prop_assume!(sym.check(&p).is_ok());
        let bt = Backtrack::default();
        let all = solve::run(&bt, &p, &SolveOptions::default()).unwrap();
        prop_assert_eq!(&all.outcome, &Outcome::Complete);
        for e in [Equivalence::Rotation, Equivalence::Picture] {
            keeps_what_it_claims(&bt, &p, &sym, e, &all)?;
        }
    }

}

proptest! {
    // CP-SAT's solves cost more: fewer cases, every one still a random list.
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn cp_sat_keeps_what_each_accepted_combination_is_proven_to_keep(
        seed in any::<u64>(),
        motifs in 2usize..=4,
        duplicates in 0usize..=3,
        sym in combination(),
    ) {
        if !common::has_cpsat() {
            return Ok(());
        }
        let Some(p) = planted(seed, 3, motifs, duplicates) else { return Ok(()) };
        prop_assume!(sym.check(&p).is_ok());
        let all = solve::run(&Backtrack::default(), &p, &SolveOptions::default()).unwrap();
        prop_assert_eq!(&all.outcome, &Outcome::Complete);
        // A few hundred classes at most keep each CP-SAT run short.
        prop_assume!(all.counts.classes <= 300);
        let cp = CpSat::new().unwrap();
        for e in [Equivalence::Rotation, Equivalence::Picture] {
            keeps_what_it_claims(&cp, &p, &sym, e, &all)?;
        }
    }
}
