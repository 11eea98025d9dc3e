//! `count --method auto` (the default): two exact methods in the order the
//! counting benchmark favours (docs/count.md, "Which method when"), the
//! second only as a check of the first, on a budget.
//!
//! The benchmark's rule: where the tiles are mostly distinct (each picture
//! stands for few labelled boards), the enumeration is the faster method,
//! by 3x to 700x on the corpus, and the programme's states are subsets of
//! tiles; where many tiles are alike, the solutions are astronomically
//! many and the programme counts them while the enumeration cannot finish.
//! Among alike tiles, the programme at roots of unity goes first where its
//! work is small (a second), or where it is the only one that can finish
//! (the dynamic programme's states past their cap, its work within half
//! an hour: the-ant-trails-puzzle), the dynamic programme then its check.
//! The first method gets the count's time; once it is exact, the second
//! checks it for at most [`CheckBudget`] (ten times the first's time, at
//! least ten seconds): where both finish the report says they agree, and a
//! check past its budget is stopped, so a count the first method settles
//! in seconds never waits hours for its check.

use std::time::Duration;

use crate::puzzle::Puzzle;
use crate::solve::search_pictures;
use crate::symmetry::labellings_per_picture;

use super::{Method, fourier};

/// The programme at roots of unity's estimated work (frontier transitions
/// over its points, [`fourier::work`]) it finishes in about a second
/// (the-ant-trails-puzzle's 3.1e11 a prime, four primes, took 1,447 s on
/// two threads: about 8.6e8 a second; an estimate above the work done,
/// as the frontier holds fewer states than labels^slots).
const FOURIER_AT_ONCE: f64 = 1e9;

/// The most estimated work for which it is tried first where the dynamic
/// programme's states could not fit its cap: about half an hour.
const FOURIER_AT_ALL: f64 = 1e12;

/// The exact methods for `puzzle`, the one the benchmark favours first.
pub fn auto_methods(puzzle: &Puzzle) -> Vec<Method> {
    let alike = search_pictures(labellings_per_picture(puzzle));
    let fourier = fourier::work(puzzle).unwrap_or(f64::INFINITY);
    if alike
        && (fourier <= FOURIER_AT_ONCE
            || (fourier <= FOURIER_AT_ALL && fourier::dp_states_bound(puzzle) > CAP))
    {
        return vec![Method::Fourier, Method::Dp];
    }
    match alike {
        true => vec![Method::Dp, Method::Enumerate],
        false => vec![Method::Enumerate, Method::Dp],
    }
}

/// The dynamic programme's default cap on states, as a float.
const CAP: f64 = super::DEFAULT_MAX_STATES as f64;

/// How long a method that only checks an exact count may run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckBudget {
    /// Times the first exact method's time.
    pub factor: f64,
    /// At least this long.
    pub floor: Duration,
}

impl Default for CheckBudget {
    fn default() -> Self {
        CheckBudget {
            factor: 10.0,
            floor: Duration::from_secs(10),
        }
    }
}

impl CheckBudget {
    /// The check's time after a first exact count that took `first_s`.
    pub(super) fn after(self, first_s: f64) -> Duration {
        Duration::from_secs_f64(first_s * self.factor).max(self.floor)
    }

    /// What a check stopped at this budget says.
    pub(super) fn note(self, first: Method) -> String {
        format!(
            "stopped at its budget as a check ({} times the time {} took, at least {} s); \
             the count is {}'s (--method {} alone runs to the end)",
            self.factor,
            first.name(),
            self.floor.as_secs_f64(),
            first.name(),
            first.name(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantOptions, Rng, plant};

    #[test]
    fn alike_tiles_put_a_programme_first_distinct_ones_the_enumeration() {
        let root = env!("CARGO_MANIFEST_DIR");
        let load = |f: &str| Puzzle::load(format!("{root}/puzzles/{f}").as_ref()).unwrap();
        let danger = load("legespiel/danger-puzzle.yaml");
        assert_eq!(auto_methods(&danger), [Method::Enumerate, Method::Dp]);
        // Few kinds, a narrow frontier: the programme at roots of unity in
        // a moment.
        let one_motif = PlantOptions {
            n: 4,
            motifs: 1,
            self_matching: false,
        };
        let (alike, _) = plant(&mut Rng::new(3), &one_motif);
        assert!(fourier::work(&alike).unwrap() <= FOURIER_AT_ONCE);
        assert_eq!(auto_methods(&alike), [Method::Fourier, Method::Dp]);
        // The only method that finishes there.
        let ants = load("legespiel/the-ant-trails-puzzle.yaml");
        assert!(fourier::work(&ants).unwrap() > FOURIER_AT_ONCE);
        assert_eq!(auto_methods(&ants), [Method::Fourier, Method::Dp]);
        // Alike pieces, but far too many points: the dynamic programme.
        let clue1 = load("eternity2/clue1.txt");
        assert!(fourier::work(&clue1).unwrap() > FOURIER_AT_ALL);
        assert_eq!(auto_methods(&clue1), [Method::Dp, Method::Enumerate]);
    }

    /// The check of a count the programme settles at once: stopped at its
    /// budget, the count the programme's; and a check that finishes agrees.
    #[test]
    fn a_check_past_its_budget_is_stopped_and_the_count_stands() {
        use super::super::{CountOptions, Status, count};
        let one_motif = PlantOptions {
            n: 4,
            motifs: 1,
            self_matching: false,
        };
        let (alike, _) = plant(&mut Rng::new(3), &one_motif);
        let options = |p: &Puzzle| CountOptions {
            methods: match auto_methods(p)[0] {
                // The programme first, the enumeration its check.
                Method::Fourier => vec![Method::Dp, Method::Enumerate],
                _ => auto_methods(p),
            },
            check: Some(CheckBudget {
                factor: 1.0,
                floor: Duration::from_millis(300),
            }),
            estimate_if_unfinished: false,
            ..CountOptions::default()
        };
        let r = count(&alike, &options(&alike));
        assert_eq!(r.methods[0].status, Status::Complete);
        // Tens of millions of pictures: no enumeration ends in 0.3 s.
        assert!(r.counts.unwrap().pictures > 10_000_000, "{:?}", r.counts);
        assert_eq!(r.methods[1].status, Status::Stopped);
        let note = r.methods[1].message.as_deref().unwrap();
        assert!(note.contains("budget as a check"), "{note}");
        assert_eq!(r.agreed_by, [Method::Dp]);
        let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/legespiel/");
        let small = Puzzle::load(format!("{corpus}der-sternenhimmel.yaml").as_ref()).unwrap();
        let r = count(&small, &options(&small));
        assert_eq!(r.agreed_by, [Method::Enumerate, Method::Dp]);
    }

    #[test]
    fn a_check_gets_ten_times_the_first_at_least_the_floor() {
        let b = CheckBudget::default();
        assert_eq!(b.after(0.002), Duration::from_secs(10));
        assert_eq!(b.after(34.5), Duration::from_secs_f64(345.0));
    }
}
