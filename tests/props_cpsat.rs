//! Property tests with the real CP-SAT solver on random planted puzzles.

use proptest::prelude::*;
use scramble::cpsat::CpSat;
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
        let solver = CpSat::new().expect("CP-SAT runtime (run scripts/install-cpsat)");
        let (puzzle, planted) = plant(&mut Rng::new(seed), &PlantOptions { n, motifs, self_matching });
        let r = solve::run(&solver, &puzzle, &SolveOptions::default()).unwrap();
        prop_assert_eq!(&r.outcome, &Outcome::Complete);
        prop_assert!(r.raw.contains(&planted));
        prop_assert!(r.canonical.contains(&canonical(&planted)));
        prop_assert_eq!(r.raw.len(), 4 * r.canonical.len());
        for s in &r.raw {
            prop_assert!(r.canonical.contains(&canonical(s)));
        }
    }
}
