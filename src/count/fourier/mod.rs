//! The programme at roots of unity (`count --method fourier`,
//! docs/count.md): the dynamic programme's frontier without the kind
//! counts, evaluated once per point of a grid of roots of unity, modulo a
//! few primes, and the count read off by the discrete Fourier transform.
//!
//! Give kind k the variable x_k and a picture the product of its cells'
//! variables; the sum over all pictures that use any number of tiles of
//! each kind is a polynomial F whose coefficient of prod x_k^(m_k) is the
//! number of pictures using exactly the puzzle's m_k tiles of each kind.
//! The frontier alone computes F at any point. At the points where x_k
//! runs over the (m_k + 1)-th roots of unity the sum of F times
//! prod x_k^(-m_k), divided by the number of points, keeps exactly the
//! monomials whose exponents e_k are m_k modulo m_k + 1; as the exponents
//! add up to the board's cells, sum m_k, all are then m_k. One kind of the
//! fewest tiles need not vary (its exponent is the cells less the others',
//! at most its m and so exactly m), which saves its factor of points.
//! Modulo a prime p = 1 (mod every m_k + 1) the roots exist and the
//! arithmetic is exact; enough primes for a proven upper bound on the
//! count (bound.rs) give the count by the Chinese remainder theorem.
//!
//! Memory is the frontier's alone (3^7 states on a 6x6 board with three
//! motifs), and the work is the points times the frontier's transitions:
//! the method for boards with few kinds of many tiles, where the dynamic
//! programme's kind counts explode.

mod bound;
mod frontier;
mod modp;
mod units;

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::puzzle::Puzzle;

use super::dp::{DpError, DpRun, Limits};
use super::plan::Plan;
use frontier::{Frontier, Values};
use modp::{PRODUCTS_PER_REDUCTION, Prime};
use units::Units;
pub(crate) use units::search as checkpoint_search;

use super::checkpoint::Checkpoint;

/// Evaluations run side by side, one per lane.
const LANES: usize = 8;

/// Bits by which the primes' product passes the bound: residues that do
/// not belong to one number (an arithmetic fault) give a number past the
/// bound but for a chance of 2^-MARGIN.
const MARGIN: f64 = 20.0;

/// The most points the method takes on (far past any run's time).
const MAX_POINTS: u64 = 1 << 48;

/// The number of pictures of `puzzle` that `turns` counterclockwise board
/// turns leave unchanged, by the programme at roots of unity.
/// `grid` chooses the grid of points and the primes: 0 the first kind of
/// the fewest tiles fixed and the largest primes, k the (k+1)-th such kind
/// (round the kinds of the fewest tiles) and the next primes down. With a
/// checkpoint (made for this grid) the finished work units are read from it
/// and each unit is recorded in it as it ends.
pub(crate) fn pictures_fixed_by(
    puzzle: &Puzzle,
    turns: usize,
    limits: &Limits<'_>,
    grid: u32,
    checkpoint: Option<&Mutex<Checkpoint>>,
) -> Result<DpRun, DpError> {
    let variant = grid as usize;
    let plan = narrowest_plan(puzzle, turns % 4);
    if !every_kind_can_be_used_up(&plan) {
        return Ok(DpRun {
            count: 0,
            peak_states: 0,
        });
    }
    let grid = Grid::new(&plan.multiplicities, variant)?;
    let frontier = Frontier::compile(&plan, limits)?;
    let bits = bound::log2_count_bound(&frontier, &plan.multiplicities, limits.stop).ok_or(
        DpError::Stopped {
            step: plan.steps.len(),
            steps: plan.steps.len(),
        },
    )?;
    let count = if bits == f64::NEG_INFINITY {
        0 // no picture at all, whatever its kinds
    } else {
        // Primes whose product passes the bound by 2^MARGIN (each is above
        // 2^29), so that a wrong residue shows as a number past the bound.
        let needed = ((bits + MARGIN) / 29.0).ceil().max(1.0) as usize;
        if bits >= 128.0 {
            return Err(DpError::Overflow);
        }
        let primes = modp::primes(grid.lcm, needed * (variant + 1))
            .ok_or(DpError::NoPrimes { modulus: grid.lcm })?;
        let primes = &primes[needed * variant..];
        let mut residues = Vec::new();
        for (i, &q) in primes.iter().enumerate() {
            let units = Units::new(grid.points.div_ceil(LANES as u64), turns % 4, i, checkpoint);
            let r = coefficient(&frontier, &grid, q, limits, &units).map_err(|done| {
                DpError::StoppedEvaluating {
                    done: i as u64 * grid.points + done,
                    of: needed as u64 * grid.points,
                }
            })?;
            residues.push((q, r));
        }
        let count = modp::crt(&residues).ok_or(DpError::Inconsistent)?;
        if count as f64 > bits.exp2() {
            return Err(DpError::Inconsistent);
        }
        count
    };
    Ok(DpRun {
        count,
        peak_states: frontier.peak_states,
    })
}

/// An upper estimate of the work of counting `puzzle`'s pictures this way,
/// in frontier transitions summed over the points, before any is
/// compiled or evaluated (the frontier's states at most labels^slots, each
/// taking a few orientations per step); `None` where the grid is refused.
/// One prime; each more adds the same again.
pub(crate) fn work(puzzle: &Puzzle) -> Option<f64> {
    let plan = narrowest_plan(puzzle, 0);
    let grid = Grid::new(&plan.multiplicities, 0).ok()?;
    let states = (plan.labels as f64).powi(plan.slots as i32);
    Some(grid.points as f64 * states * plan.steps.len() as f64)
}

/// An upper bound on the dynamic programme's states at one step: every
/// frontier with every vector of kinds left.
pub(crate) fn dp_states_bound(puzzle: &Puzzle) -> f64 {
    let plan = narrowest_plan(puzzle, 0);
    let kinds: f64 = plan
        .multiplicities
        .iter()
        .map(|&m| m as f64 + 1.0)
        .product();
    (plan.labels as f64).powi(plan.slots as i32) * kinds
}

/// The plan whose frontier is smallest: on a framed board the ring first
/// keeps the whole inner ring waiting, so there the row-major plan.
fn narrowest_plan(puzzle: &Puzzle, turns: usize) -> Plan {
    let row = Plan::new(puzzle, turns, false);
    if puzzle.frame().is_none() {
        return row;
    }
    let ring = Plan::new(puzzle, turns, true);
    if ring.slots < row.slots { ring } else { row }
}

/// Whether each kind's tiles can be placed exactly: its multiplicity is a
/// sum of the orbit sizes of steps that may take it (a quarter turn's
/// orbits take four tiles at a time, so a kind of five tiles cannot be
/// used up). Where it cannot, no picture exists and nothing need be
/// evaluated.
fn every_kind_can_be_used_up(plan: &Plan) -> bool {
    (0..plan.multiplicities.len()).all(|k| {
        let m = plan.multiplicities[k] as usize;
        let takes: Vec<usize> = plan
            .steps
            .iter()
            .filter(|s| s.cands.iter().any(|c| c.kind == k))
            .map(|s| s.take as usize)
            .collect();
        // reach[x]: some steps' takes add up to x (each step at most once).
        let mut reach = vec![false; m + 1];
        reach[0] = true;
        for t in takes {
            for x in (t..=m).rev() {
                reach[x] |= reach[x - t];
            }
        }
        reach[m]
    })
}

/// The grid of points: per kind its number of roots (1 for the kind that
/// need not vary), and the number of points.
struct Grid {
    radices: Vec<u64>,
    multiplicities: Vec<u64>,
    points: u64,
    /// The least common multiple of the radices: every prime is 1 modulo it.
    lcm: u64,
}

impl Grid {
    /// The grid with the `variant`-th kind of the fewest tiles (round
    /// them) fixed.
    fn new(multiplicities: &[u32], variant: usize) -> Result<Grid, DpError> {
        let fewest = multiplicities.iter().min().copied().unwrap_or(0);
        let candidates: Vec<usize> = (0..multiplicities.len())
            .filter(|&k| multiplicities[k] == fewest)
            .collect();
        let fixed = (!candidates.is_empty()).then(|| candidates[variant % candidates.len()]);
        let radices: Vec<u64> = multiplicities
            .iter()
            .enumerate()
            .map(|(k, &m)| if Some(k) == fixed { 1 } else { m as u64 + 1 })
            .collect();
        let points = radices
            .iter()
            .try_fold(1u64, |a, &r| a.checked_mul(r).filter(|&p| p <= MAX_POINTS));
        let Some(points) = points else {
            let points = radices.iter().map(|&r| r as f64).product();
            return Err(DpError::TooManyPoints { points });
        };
        let lcm = radices.iter().fold(1u64, |a, &r| a / gcd(a, r) * r);
        Ok(Grid {
            radices,
            multiplicities: multiplicities.iter().map(|&m| m as u64).collect(),
            points,
            lcm,
        })
    }

    /// Point `e`'s exponent of kind `k`'s root (mixed radix, kind 0 first).
    fn exponents(&self, mut e: u64, out: &mut [u64]) {
        for (k, &r) in self.radices.iter().enumerate() {
            out[k] = e % r;
            e /= r;
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Residues in lanes, one evaluation per lane, reduced modulo one prime.
/// Each residue sits in a 64-bit lane, below 2^30, so that a product is
/// the processor's 32-by-32-bit multiply of each lane's low half.
struct Lanes(Prime);

/// The low half of a lane.
const LOW: u64 = 0xffff_ffff;

impl Values for Lanes {
    type Row = [u64; LANES];
    fn one(&self) -> [u64; LANES] {
        [1; LANES]
    }
    fn zero(&self) -> [u64; LANES] {
        [0; LANES]
    }
    #[inline(always)]
    fn sum(
        &self,
        terms: &[(u32, u32)],
        cur: &[[u64; LANES]],
        weights: &[[u64; LANES]],
    ) -> [u64; LANES] {
        let mut acc = [0u64; LANES];
        // Reduced after each run of products that cannot overflow.
        for run in terms.chunks(PRODUCTS_PER_REDUCTION - 1) {
            for &(s, w) in run {
                let (v, w) = (&cur[s as usize], &weights[w as usize]);
                for l in 0..LANES {
                    acc[l] += (v[l] & LOW) * (w[l] & LOW);
                }
            }
            acc = acc.map(|a| self.0.reduce(a));
        }
        acc
    }
    fn plus(&self, a: [u64; LANES], b: [u64; LANES]) -> [u64; LANES] {
        std::array::from_fn(|l| self.0.reduce(a[l] + b[l]))
    }
}

/// The coefficient modulo `q`: the transform's sum over every point,
/// divided by the number of points; `Err(points done)` if stopped.
fn coefficient(
    frontier: &Frontier,
    grid: &Grid,
    q: Prime,
    limits: &Limits<'_>,
    units: &Units<'_>,
) -> Result<u64, u64> {
    // Powers of each kind's root: roots[k][a] = g_k^a.
    let roots: Vec<Vec<u64>> = grid
        .radices
        .iter()
        .map(|&r| {
            let g = q.root_of_order(r);
            (0..r)
                .scan(1, |x, _| Some(std::mem::replace(x, q.mul(*x, g))))
                .collect()
        })
        .collect();
    let share = Share {
        frontier,
        grid,
        q,
        roots: &roots,
        units,
        next: AtomicU64::new(0),
        batches_done: AtomicU64::new(units.batches_earlier()),
    };
    let threads = limits.threads.max(1);
    let sums: Vec<Result<u64, ()>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| s.spawn(|| share.evaluate(limits)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an evaluation thread"))
            .collect()
    });
    let mut sum = 0;
    for s in sums {
        match s {
            Ok(v) => sum = q.reduce(sum + v),
            Err(()) => {
                let done = share.batches_done.load(Ordering::Relaxed) * LANES as u64;
                return Err(done.min(grid.points));
            }
        }
    }
    Ok(q.mul(sum, q.inv(grid.points % q.p)))
}

/// What the threads evaluating one prime share.
struct Share<'a> {
    frontier: &'a Frontier,
    grid: &'a Grid,
    q: Prime,
    roots: &'a [Vec<u64>],
    units: &'a Units<'a>,
    /// The next unit to take.
    next: AtomicU64,
    /// Lane batches whose sums are in (earlier runs' included).
    batches_done: AtomicU64,
}

impl Share<'_> {
    /// One thread's share of the points: units taken until none is left,
    /// and the sum of their transformed values (an earlier run's sum where
    /// it finished the unit).
    fn evaluate(&self, limits: &Limits<'_>) -> Result<u64, ()> {
        let q = self.q;
        let mut scratch = Scratch {
            cur: Vec::new(),
            next: Vec::new(),
            weights: vec![[0u64; LANES]; self.frontier.weights.len()],
            exps: vec![vec![0u64; self.grid.radices.len()]; LANES],
        };
        let mut sum = 0u64;
        loop {
            let unit = self.next.fetch_add(1, Ordering::Relaxed);
            if unit >= self.units.count() {
                return Ok(sum);
            }
            if let Some(v) = self.units.earlier(unit) {
                sum = q.reduce(sum + v % q.p);
                continue;
            }
            let mut part = 0u64;
            let batches = self.units.batches(unit);
            for b in batches.clone() {
                if (limits.stop)() {
                    return Err(());
                }
                part = q.reduce(part + self.batch(b, &mut scratch));
            }
            self.units.finish(unit, part);
            self.batches_done
                .fetch_add(batches.count() as u64, Ordering::Relaxed);
            sum = q.reduce(sum + part);
        }
    }

    /// The transformed values of lane batch `b`'s points, summed.
    fn batch(&self, b: u64, s: &mut Scratch) -> u64 {
        let (q, grid, roots) = (self.q, self.grid, self.roots);
        let kinds = grid.radices.len();
        let mut factor = [0u64; LANES];
        for (l, e) in s.exps.iter_mut().enumerate() {
            let point = b * LANES as u64 + l as u64;
            if point < grid.points {
                grid.exponents(point, e);
                // prod over kinds of g_k^(-e_k m_k).
                factor[l] = (0..kinds).fold(1, |f, k| {
                    let r = grid.radices[k];
                    q.mul(
                        f,
                        roots[k][((r - e[k] * grid.multiplicities[k] % r) % r) as usize],
                    )
                });
            }
        }
        for (row, &(k, take)) in s.weights.iter_mut().zip(&self.frontier.weights) {
            let r = grid.radices[k];
            for l in 0..LANES {
                row[l] = roots[k][(s.exps[l][k] * take as u64 % r) as usize];
            }
        }
        let lanes = Lanes(q);
        let value = self
            .frontier
            .evaluate(&lanes, &s.weights, &mut s.cur, &mut s.next);
        (0..LANES).fold(0, |sum, l| q.reduce(sum + q.mul(value[l], factor[l])))
    }
}

/// One thread's buffers.
struct Scratch {
    cur: Vec<[u64; LANES]>,
    next: Vec<[u64; LANES]>,
    weights: Vec<[u64; LANES]>,
    exps: Vec<Vec<u64>>,
}

#[cfg(test)]
mod tests;
