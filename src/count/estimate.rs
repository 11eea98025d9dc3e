//! Knuth's estimator: the size of a search tree from random probes
//! (D. E. Knuth, "Estimating the efficiency of backtrack programs", 1975).
//!
//! A probe walks from the root, at each level picks one child uniformly at
//! random and multiplies the numbers of children it saw. The product (zero
//! at a dead end) is an unbiased estimate of the number of leaves at full
//! depth; the mean over probes converges to it, with the standard error
//! the sample's.

use serde::{Deserialize, Serialize};

use crate::engines::backtrack::{Mean, Sums};
use crate::generate::Rng;

use super::dp::Programme;

/// An estimate of a count, from independent probes. Written with its 95%
/// interval (`interval_95`, null where no probe reached a full board), so
/// a reader of the JSON need not decide that again; read back without it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "Shown")]
pub struct Estimate {
    pub mean: f64,
    /// The standard error of the mean.
    pub std_error: f64,
    pub probes: u64,
    /// Probes that reached a full board.
    pub complete_probes: u64,
    /// A count proven meanwhile (what a stopped exact method found): the
    /// interval never reaches below it.
    #[serde(default)]
    pub at_least: f64,
}

/// How an [`Estimate`] is written.
#[derive(Serialize)]
struct Shown {
    mean: f64,
    std_error: f64,
    probes: u64,
    complete_probes: u64,
    #[serde(skip_serializing_if = "is_zero")]
    at_least: f64,
    interval_95: Option<[f64; 2]>,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl From<Estimate> for Shown {
    fn from(e: Estimate) -> Shown {
        Shown {
            mean: e.mean,
            std_error: e.std_error,
            probes: e.probes,
            complete_probes: e.complete_probes,
            at_least: e.at_least,
            interval_95: e.interval().map(|(lo, hi)| [lo, hi]),
        }
    }
}

impl Estimate {
    /// The 95% confidence interval (normal approximation), clipped at 0
    /// and at the proven count [`Estimate::at_least`]; none when no probe
    /// reached a full board ([`Mean::if_reached`]).
    pub(crate) fn interval(&self) -> Option<(f64, f64)> {
        let m = Mean {
            mean: self.mean,
            std_error: self.std_error,
        };
        m.if_reached(self.complete_probes)
            .map(|m| m.interval_95())
            .map(|(lo, hi)| (lo.max(self.at_least), hi.max(self.at_least)))
    }

    /// With a count proven meanwhile.
    pub(crate) fn at_least(self, proven: u128) -> Estimate {
        Estimate {
            at_least: self.at_least.max(proven as f64),
            ..self
        }
    }

    /// `a * self` (a >= 0).
    pub fn scaled(self, a: f64) -> Estimate {
        Estimate {
            mean: a * self.mean,
            std_error: a * self.std_error,
            ..self
        }
    }

    /// `a * self + b * other` for independent estimates.
    pub(crate) fn combine(self, a: f64, other: Estimate, b: f64) -> Estimate {
        Estimate {
            mean: a * self.mean + b * other.mean,
            std_error: ((a * self.std_error).powi(2) + (b * other.std_error).powi(2)).sqrt(),
            probes: self.probes + other.probes,
            complete_probes: self.complete_probes + other.complete_probes,
            at_least: 0.0,
        }
    }
}

/// Estimates the number of full boards of `p` with `probes` probes; stops
/// early (with the probes made so far) when `stop` says so.
pub(super) fn knuth(
    p: &Programme,
    probes: u64,
    rng: &mut Rng,
    stop: &dyn Fn() -> bool,
) -> Estimate {
    let mut sums = Sums::default();
    let (mut made, mut complete) = (0u64, 0u64);
    let mut children: Vec<u128> = Vec::new();
    while made < probes {
        if made % 1024 == 0 && stop() {
            break;
        }
        let mut key = p.start();
        let mut weight = 1.0f64;
        for i in 0..p.len() {
            children.clear();
            p.successors(i, key, |k| children.push(k));
            if children.is_empty() {
                weight = 0.0;
                break;
            }
            weight *= children.len() as f64;
            key = children[rng.below(children.len())];
        }
        if weight > 0.0 {
            complete += 1;
        }
        sums.add(weight);
        made += 1;
    }
    let Mean { mean, std_error } = sums.mean(made);
    Estimate {
        mean,
        std_error,
        probes: made,
        complete_probes: complete,
        at_least: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::dp::{Limits, pictures_fixed_by};
    use crate::puzzle::Puzzle;
    use std::path::Path;

    #[test]
    fn the_estimate_brackets_the_exact_count() {
        // quadromino-haba: many pictures, so probes reach full boards often.
        let p = Puzzle::load(Path::new("puzzles/legespiel/quadromino-haba.yaml")).unwrap();
        let never = || false;
        let exact = pictures_fixed_by(
            &p,
            0,
            &Limits {
                max_states: 1 << 24,
                stop: &never,
                threads: 2,
            },
        )
        .unwrap()
        .count as f64;
        let prog = Programme::new(&p, 0).unwrap();
        let e = knuth(&prog, 20_000, &mut Rng::new(1), &never);
        assert_eq!(e.probes, 20_000);
        assert!(e.complete_probes > 0);
        // Within five standard errors (deterministic: the seed is fixed).
        assert!(
            (e.mean - exact).abs() <= 5.0 * e.std_error,
            "{e:?} vs {exact}"
        );
        // Same seed, same estimate.
        assert_eq!(e, knuth(&prog, 20_000, &mut Rng::new(1), &never));
    }

    #[test]
    fn no_full_board_reached_gives_no_interval() {
        let e = Estimate {
            mean: 0.0,
            std_error: 0.0,
            probes: 1_000,
            complete_probes: 0,
            at_least: 0.0,
        };
        assert_eq!(e.interval(), None);
        // The JSON says so, and reads back.
        let json = serde_json::to_value(e).unwrap();
        assert_eq!(json["interval_95"], serde_json::Value::Null);
        assert_eq!(serde_json::from_value::<Estimate>(json).unwrap(), e);
        // A few lucky probes: no interval claimed either.
        let few = Estimate {
            mean: 10.0,
            std_error: 2.0,
            complete_probes: 3,
            ..e
        };
        assert_eq!(few.interval(), None);
        let e = Estimate {
            complete_probes: 30,
            ..few
        };
        let (lo, hi) = e.interval().unwrap();
        assert!((lo - 6.08).abs() < 1e-9 && (hi - 13.92).abs() < 1e-9);
        let json = serde_json::to_value(e).unwrap();
        assert_eq!(json["interval_95"], serde_json::json!([lo, hi]));
        assert_eq!(serde_json::from_value::<Estimate>(json).unwrap(), e);
        // A count proven meanwhile lifts the interval, never below it.
        let proven = e.at_least(8);
        assert_eq!(proven.interval(), Some((8.0, hi)));
        assert_eq!(e.at_least(20).interval(), Some((20.0, 20.0)));
        let json = serde_json::to_value(proven).unwrap();
        assert_eq!(json["at_least"], serde_json::json!(8.0));
        assert_eq!(serde_json::from_value::<Estimate>(json).unwrap(), proven);
    }

    #[test]
    fn a_stop_ends_the_probes() {
        let p = Puzzle::load(Path::new("puzzles/legespiel/danger-puzzle.yaml")).unwrap();
        let prog = Programme::new(&p, 0).unwrap();
        let e = knuth(&prog, 1_000_000, &mut Rng::new(1), &|| true);
        assert_eq!(e.probes, 0);
        assert_eq!(e.mean, 0.0);
    }
}
