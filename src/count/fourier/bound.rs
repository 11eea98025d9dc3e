//! A proven upper bound on the count, so that the primes' product passes
//! it: every coefficient of F is a number of pictures, never negative, so
//! for any positive t the coefficient of prod x_k^(m_k) is at most
//! F(t) / prod t_k^(m_k) (the saddle-point bound). A few steps of a
//! coordinate search over log t make it tight to a small factor.

use super::frontier::{Frontier, Values};

/// Floating-point values, for F at positive reals.
struct Float;

impl Values for Float {
    type Row = f64;
    fn one(&self) -> f64 {
        1.0
    }
    fn zero(&self) -> f64 {
        0.0
    }
    fn sum(&self, terms: &[(u32, u32)], cur: &[f64], weights: &[f64]) -> f64 {
        terms
            .iter()
            .map(|&(s, w)| cur[s as usize] * weights[w as usize])
            .sum()
    }
    fn plus(&self, a: f64, b: f64) -> f64 {
        a + b
    }
}

/// Evaluations the search may spend.
const SEARCH: usize = 400;

/// Bits added for floating-point rounding: a sum of positive terms is off
/// by far less than a relative 2^-30 at these depths.
const ROUNDING: f64 = 1e-6;

/// log2 of an upper bound on the number of pictures using exactly
/// `multiplicities[k]` tiles of kind k; minus infinity if F is zero;
/// `None` if `stop` says so first.
pub(super) fn log2_count_bound(
    frontier: &Frontier,
    multiplicities: &[u32],
    stop: &dyn Fn() -> bool,
) -> Option<f64> {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut bound = |log_t: &[f64]| -> f64 {
        let w: Vec<f64> = frontier
            .weights
            .iter()
            .map(|&(k, take)| (log_t[k] * take as f64).exp())
            .collect();
        let f = frontier.evaluate(&Float, &w, &mut a, &mut b);
        let shift: f64 = log_t
            .iter()
            .zip(multiplicities)
            .map(|(l, &m)| l * m as f64)
            .sum();
        if f.is_finite() {
            f.log2() - shift / std::f64::consts::LN_2
        } else {
            f64::INFINITY
        }
    };
    let mut log_t = vec![0.0; multiplicities.len()];
    let mut best = bound(&log_t);
    if best == f64::NEG_INFINITY {
        return Some(best);
    }
    let (mut step, mut spent) = (1.0, 1);
    while step > 1.0 / 64.0 && spent < SEARCH {
        let mut improved = false;
        for k in 0..log_t.len() {
            if stop() {
                return None;
            }
            for delta in [step, -step] {
                log_t[k] += delta;
                let b = bound(&log_t);
                spent += 1;
                if b < best {
                    best = b;
                    improved = true;
                    break;
                }
                log_t[k] -= delta;
            }
        }
        if !improved {
            step /= 2.0;
        }
    }
    Some(best + ROUNDING)
}
