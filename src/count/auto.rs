//! `count --method auto` (the default): the two exact methods in the order
//! the counting benchmark favours (docs/count.md, "Which method when"), the
//! second only as a check of the first, on a budget.
//!
//! The benchmark's rule: where the tiles are mostly distinct (each picture
//! stands for few labelled boards), the enumeration is the faster method,
//! by 3x to 700x on the corpus, and the programme's states are subsets of
//! tiles; where many tiles are alike, the solutions are astronomically
//! many and the programme counts them while the enumeration cannot finish.
//! The first method gets the count's time; once it is exact, the second
//! checks it for at most [`CheckBudget`] (ten times the first's time, at
//! least ten seconds): where both finish the report says they agree, and a
//! check past its budget is stopped, so a count the first method settles
//! in seconds never waits hours for its check.

use std::time::Duration;

use crate::puzzle::Puzzle;
use crate::solve::search_pictures;
use crate::symmetry::labellings_per_picture;

use super::Method;

/// The exact methods for `puzzle`, the one the benchmark favours first.
pub fn auto_methods(puzzle: &Puzzle) -> Vec<Method> {
    match search_pictures(labellings_per_picture(puzzle)) {
        true => vec![Method::Dp, Method::Enumerate],
        false => vec![Method::Enumerate, Method::Dp],
    }
}

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
    fn alike_tiles_put_the_programme_first_distinct_ones_the_enumeration() {
        let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/legespiel/");
        let danger = Puzzle::load(format!("{corpus}danger-puzzle.yaml").as_ref()).unwrap();
        assert_eq!(auto_methods(&danger), [Method::Enumerate, Method::Dp]);
        let one_motif = PlantOptions {
            n: 4,
            motifs: 1,
            self_matching: false,
        };
        let (alike, _) = plant(&mut Rng::new(3), &one_motif);
        assert_eq!(auto_methods(&alike), [Method::Dp, Method::Enumerate]);
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
            methods: auto_methods(p),
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
