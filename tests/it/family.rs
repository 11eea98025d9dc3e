//! The edge-matching family (frames, rectangles, fixed pieces, no turns):
//! differential property tests on planted puzzles. The three engines, every
//! placement order, every CP model and SAT encoding, the documented-exact
//! symmetry formulations that apply and both exact counting methods must
//! agree; first solutions (with restarts) are among them.

use crate::common;

use proptest::prelude::*;
use scramble::count::{self, CountOptions, Method};
use scramble::engines::backtrack::{Backtrack, Order};
use scramble::engines::cpsat::CpSat;
use scramble::engines::sat::{Encoding, Sat};
use scramble::generate::{FamilyOptions, Rng, plant_family};
use scramble::model::Choice;
use scramble::puzzle::{Group, Puzzle, Turning};
use scramble::solve::{self, Outcome, SolveOptions, SolveResult};
use scramble::symmetry::pictures_are_labels;

fn options() -> impl Strategy<Value = FamilyOptions> {
    (
        2usize..=4,
        2usize..=4,
        0usize..=2,
        1usize..=3,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(rows, cols, frame, inner, still, hint)| FamilyOptions {
            rows,
            cols,
            frame_colours: frame,
            inner_colours: inner,
            turning: if still {
                Turning::None
            } else {
                Turning::Quarter
            },
            hint,
        })
}

/// (labelled, classes, pictures) and the canonical set of a complete run.
fn summary(r: &SolveResult) -> (usize, usize, usize, Vec<scramble::board::Solution>) {
    (
        r.raw.len(),
        r.classes.len(),
        r.pictures.len(),
        r.classes.clone(),
    )
}

/// The exact counts by dp and enumerate (which must agree), or `None` when
/// there are too many labelled solutions to keep them all in a test.
fn small(p: &Puzzle) -> Option<(u128, u128, u128)> {
    let c = count::count(
        p,
        &CountOptions {
            methods: vec![Method::Dp, Method::Enumerate],
            ..CountOptions::default()
        },
    );
    assert_eq!(c.disagreement, None, "{}", p.describe_board());
    let counts = c.counts.expect("exact counts");
    (counts.raw <= 3000).then_some((counts.raw, counts.classes, counts.pictures))
}

fn check_group(p: &Puzzle) {
    let want = if p.turning() == Turning::None || !p.hints().is_empty() {
        Group::Identity
    } else if p.rows() == p.cols() {
        Group::Quarter
    } else {
        Group::Half
    };
    assert_eq!(p.group(), want);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Every backtracking order, reduced and full tree, finds the planted
    /// solution and the same sets, and so does every SAT encoding;
    /// `count`'s dp and enumerate agree with them; a first solution of the
    /// backtracker with restarts and of `--solver auto` is one of them.
    #[test]
    fn backtracking_sat_and_count_agree(seed in any::<u64>(), o in options()) {
        let (p, planted) = plant_family(&mut Rng::new(seed), &o);
        check_group(&p);
        let Some(counts) = small(&p) else { return Ok(()) };
        let base = solve::run(&Backtrack::full_tree(Order::Row), &p, &SolveOptions::default()).unwrap();
        prop_assert_eq!(&base.outcome, &Outcome::Complete);
        prop_assert!(base.raw.contains(&planted), "{:?}", o);
        prop_assert_eq!(base.raw.len(), p.group().order() * base.classes.len());
        for order in Order::ALL {
            for solver in [Backtrack::new(order), Backtrack::full_tree(order)] {
                let r = solve::run(&solver, &p, &SolveOptions::default()).unwrap();
                prop_assert_eq!(summary(&r), summary(&base), "{} {:?}", order, o);
            }
        }
        for e in Encoding::ALL {
            let r = solve::run(&Sat::new(e), &p, &SolveOptions::default()).unwrap();
            prop_assert_eq!(summary(&r), summary(&base), "sat {} {:?}", e, o);
        }
        let first = SolveOptions { limit: Some(1), threads: 2, ..SolveOptions::default() };
        for r in [
            solve::run(&Backtrack::first_solutions(), &p, &first).unwrap(),
            solve::run(&scramble::race::Auto::new(), &p, &first).unwrap(),
        ] {
            prop_assert_eq!(r.classes.len(), 1, "{:?}", o);
            prop_assert!(base.classes.contains(&r.classes[0]), "{:?}", o);
        }
        prop_assert_eq!(
            counts,
            (base.raw.len() as u128, base.classes.len() as u128, base.pictures.len() as u128),
            "{:?}", o
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    /// Every CP model, with the board-turn reduction and with each exact
    /// formulation that applies, gives the backtracker's sets.
    #[test]
    fn cp_models_agree_with_backtracking(seed in any::<u64>(), o in options()) {
        if !common::has_cpsat() {
            return Ok(());
        }
        let (p, _) = plant_family(&mut Rng::new(seed), &o);
        if small(&p).is_none() {
            return Ok(());
        }
        let base = solve::run(&Backtrack::default(), &p, &SolveOptions::default()).unwrap();
        for e in Choice::ALL {
            let cp = CpSat::new().expect("CP-SAT runtime").with_model(e);
            let r = solve::run(&cp, &p, &SolveOptions::default()).unwrap();
            prop_assert_eq!(&r.outcome, &Outcome::Complete);
            prop_assert_eq!(summary(&r), summary(&base), "{} {:?}", e.name(), o);
        }
        let cp = CpSat::new().expect("CP-SAT runtime");
        for (name, opts) in common::exact_options(&p) {
            let r = solve::run(&cp, &p, &opts).unwrap();
            let b = solve::run(&Backtrack::default(), &p, &opts).unwrap();
            let want = match opts.equivalence {
                scramble::symmetry::Equivalence::Rotation => base.classes.len(),
                scramble::symmetry::Equivalence::Picture => base.pictures.len(),
            };
            prop_assert_eq!(r.raw.len(), want, "{} {:?}", name, o);
            prop_assert_eq!(b.raw.len(), want, "{} backtrack {:?}", name, o);
        }
    }
}

/// A framed board in the community's style: with many inner colours its
/// pieces are all distinct (the labelled search proper), with two they
/// repeat (the default search then places tile kinds and the collector
/// expands each picture lazily into its labelled boards).
fn framed(seed: u64, rows: usize, cols: usize, many: bool) -> (Puzzle, scramble::board::Solution) {
    let o = FamilyOptions {
        rows,
        cols,
        frame_colours: if many { 6 } else { 2 },
        inner_colours: if many { 12 } else { 2 },
        turning: Turning::Quarter,
        hint: false,
    };
    plant_family(&mut Rng::new(seed), &o)
}

#[test]
fn framed_draws_come_with_and_without_identical_pieces() {
    // What the property below relies on to cover both paths.
    let distinct = |many| {
        (1..=8)
            .map(|seed| framed(seed, 4, 4, many).0)
            .filter(pictures_are_labels)
            .count()
    };
    assert!(distinct(true) >= 4, "{}", distinct(true));
    assert_eq!(distinct(false), 0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// With and without identical pieces, the backtracker's default search
    /// and CP-SAT's default model give the same labelled solutions, classes
    /// and pictures on framed boards, the planted board among them.
    #[test]
    fn framed_boards_with_and_without_identical_pieces(
        seed in any::<u64>(),
        rows in 3usize..=4,
        cols in 3usize..=5,
        many in any::<bool>(),
    ) {
        if !common::has_cpsat() {
            return Ok(());
        }
        let (p, planted) = framed(seed, rows, cols, many);
        let Some(counts) = small(&p) else { return Ok(()) };
        let bt = solve::run(&Backtrack::default(), &p, &SolveOptions::default()).unwrap();
        let cp = solve::run(&CpSat::new().expect("CP-SAT runtime"), &p, &SolveOptions::default()).unwrap();
        prop_assert_eq!(&bt.outcome, &Outcome::Complete);
        prop_assert_eq!(&cp.outcome, &Outcome::Complete);
        prop_assert!(bt.raw.contains(&planted));
        prop_assert_eq!(&bt.raw, &cp.raw, "{}", p.describe_board());
        prop_assert_eq!(summary(&bt), summary(&cp));
        prop_assert_eq!(
            counts,
            (bt.raw.len() as u128, bt.classes.len() as u128, bt.pictures.len() as u128)
        );
    }
}

/// Formulations that need board turns are refused, with the reason, where
/// the board has none (or only the half turn).
#[test]
fn formulations_follow_the_board() {
    let mk = |rows, cols, turning, hint| {
        plant_family(
            &mut Rng::new(5),
            &FamilyOptions {
                rows,
                cols,
                frame_colours: 1,
                inner_colours: 2,
                turning,
                hint,
            },
        )
        .0
    };
    let rect = mk(3, 5, Turning::Quarter, false);
    let check = |p: &Puzzle, name: &str| {
        name.parse::<scramble::symmetry::Symmetry>()
            .unwrap()
            .check(p)
            .map_err(|e| e.to_string())
    };
    assert!(check(&rect, "lex").is_ok());
    assert!(check(&rect, "anchor").is_ok());
    assert!(
        check(&rect, "center")
            .unwrap_err()
            .contains("the half turn")
    );
    assert!(check(&rect, "corner").unwrap_err().contains("rectangle"));
    let hinted = mk(4, 4, Turning::Quarter, true);
    assert!(
        check(&hinted, "lex")
            .unwrap_err()
            .contains("a piece is fixed")
    );
    let still = mk(4, 4, Turning::None, false);
    assert!(
        check(&still, "anchor")
            .unwrap_err()
            .contains("tiles do not turn")
    );
    assert!(check(&still, "tiles").is_ok());
}
