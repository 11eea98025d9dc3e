//! Property tests with the real CP-SAT solver on random planted puzzles.

use crate::common;

use proptest::prelude::*;
use scramble::engines::cpsat::CpSat;
use scramble::generate::{PlantOptions, Rng, plant};
use scramble::solve::{self, Outcome, SolveOptions};
use scramble::symmetry::canonical;

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// A planted solution is always found; every class has exactly 4 members.
    #[test]
    fn a_planted_solution_is_always_found(
        seed in any::<u64>(),
        n in 1usize..=3,
        motifs in 3usize..=6,
        self_matching in any::<bool>(),
    ) {
        if !common::has_cpsat() {
            return Ok(());
        }
        let solver = CpSat::new().expect("CP-SAT runtime (run scripts/install/cpsat)");
        let (puzzle, planted) = plant(&mut Rng::new(seed), &PlantOptions { n, motifs, self_matching });
        let r = solve::run(&solver, &puzzle, &SolveOptions::default()).unwrap();
        prop_assert_eq!(&r.outcome, &Outcome::Complete);
        prop_assert!(r.raw.contains(&planted));
        prop_assert!(r.classes.contains(&canonical(&planted)));
        prop_assert_eq!(r.raw.len(), 4 * r.classes.len());
        for s in &r.raw {
            prop_assert!(r.classes.contains(&canonical(s)));
        }
    }
}

mod symmetry {
    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// On random puzzles (few motifs make identical and rotation-symmetric
        /// tiles likely), every board-level formulation keeps exactly one
        /// solution per class, and picture-lex,tiles exactly one per picture.
        #[test]
        fn formulations_keep_one_solution_per_class(
            seed in any::<u64>(),
            (n, motifs) in prop_oneof![(1usize..=2, 1usize..=3), (3usize..=3, 3usize..=5)],
            self_matching in any::<bool>(),
        ) {
            if !common::has_cpsat() {
                return Ok(());
            }
            let solver = CpSat::new().expect("CP-SAT runtime");
            let (puzzle, _) = plant(&mut Rng::new(seed), &PlantOptions { n, motifs, self_matching });
            let none = solve::run(&solver, &puzzle, &SolveOptions::default()).unwrap();
            prop_assert_eq!(&none.outcome, &Outcome::Complete);
            for (name, opts) in common::exact_options(&puzzle) {
                let r = solve::run(&solver, &puzzle, &opts).unwrap();
                prop_assert_eq!(&r.outcome, &Outcome::Complete);
                let reference = none.canonical_under(opts.equivalence);
                let kept = r.canonical();
                prop_assert_eq!(r.raw.len(), reference.len(), "{}", name);
                prop_assert_eq!(kept, reference, "{}", name);
            }
        }
    }
}
