//! The programme's plan compiled for evaluation at many points: the
//! frontier's states (the labels waiting in its slots, nothing else) step
//! by step, and per state of a step the states of the step before that
//! reach it, each with the weight of the kind and orientation placed.
//! Compiled once per board turn, evaluated millions of times.

use std::collections::HashMap;

use crate::count::dp::{DpError, Limits};
use crate::count::plan::Plan;

/// Bytes a state and its transitions cost in the compiled form, counted
/// against the programme's state cap like the dynamic programme's states.
const BYTES_PER_STATE: usize = 80;
const BYTES_PER_TERM: usize = 8;

/// One step: per output state, the input states reaching it.
struct Gather {
    /// Output state d's terms are `terms[starts[d]..starts[d + 1]]`.
    starts: Vec<u32>,
    /// (input state, weight): the weight's index in [`Frontier::weights`].
    terms: Vec<(u32, u32)>,
}

/// The compiled programme of one turn.
pub(super) struct Frontier {
    steps: Vec<Gather>,
    /// Per weight index: the tile kind placed and how many of its tiles
    /// (the orbit's cells).
    pub weights: Vec<(usize, u32)>,
    /// The most states held at once (a step's input and output).
    pub peak_states: usize,
}

/// The values an evaluation carries per state: residues in lanes, or
/// floating-point numbers for the bound.
pub(super) trait Values {
    type Row: Copy;
    /// The start state's value.
    fn one(&self) -> Self::Row;
    fn zero(&self) -> Self::Row;
    /// The sum over `terms` (input state, weight index) of the input's
    /// value times the weight.
    fn sum(&self, terms: &[(u32, u32)], cur: &[Self::Row], weights: &[Self::Row]) -> Self::Row;
    fn plus(&self, a: Self::Row, b: Self::Row) -> Self::Row;
}

impl Frontier {
    /// Compiles `plan`, within the cap on states (and, at the same bytes,
    /// transitions) and checking `limits.stop` between steps.
    pub(super) fn compile(plan: &Plan, limits: &Limits<'_>) -> Result<Frontier, DpError> {
        let lb = bits_for(plan.labels.saturating_sub(1) as u32);
        if lb as usize * plan.slots > 128 {
            return Err(DpError::TooWide {
                bits: lb * plan.slots as u32,
                kinds: 0,
                labels: plan.labels,
                slots: plan.slots,
            });
        }
        let label_mask = (1u128 << lb) - 1;
        let total = plan.steps.len();
        let budget = limits.max_states.saturating_mul(BYTES_PER_STATE);
        let mut weight_of: HashMap<(usize, u32), u32> = HashMap::new();
        let mut weights = Vec::new();
        let mut cur: Vec<u128> = vec![0];
        let (mut steps, mut peak, mut bytes) = (Vec::new(), 1, 0usize);
        for (i, step) in plan.steps.iter().enumerate() {
            if (limits.stop)() {
                return Err(DpError::Stopped {
                    step: i,
                    steps: total,
                });
            }
            let clear = step
                .checks
                .iter()
                .fold(0u128, |m, &(_, s)| m | (label_mask << (lb * s as u32)));
            let mut next: HashMap<u128, u32> = HashMap::new();
            let mut keys: Vec<u128> = Vec::new();
            let mut raw: Vec<(u32, u32, u32)> = Vec::new();
            for (src, &key) in cur.iter().enumerate() {
                'cand: for c in &step.cands {
                    for &(side, slot) in &step.checks {
                        let waiting = ((key >> (lb * slot as u32)) & label_mask) as usize;
                        if !plan.fits[waiting * plan.labels + c.shown[side as usize] as usize] {
                            continue 'cand;
                        }
                    }
                    let mut new = key & !clear;
                    for &(side, slot) in &step.stores {
                        new |= (c.shown[side as usize] as u128) << (lb * slot as u32);
                    }
                    let dst = *next.entry(new).or_insert_with(|| {
                        keys.push(new);
                        keys.len() as u32 - 1
                    });
                    let w = *weight_of.entry((c.kind, step.take)).or_insert_with(|| {
                        weights.push((c.kind, step.take));
                        weights.len() as u32 - 1
                    });
                    raw.push((dst, src as u32, w));
                }
                if src % 4096 == 4095 && (limits.stop)() {
                    return Err(DpError::Stopped {
                        step: i,
                        steps: total,
                    });
                }
            }
            bytes += keys.len() * BYTES_PER_STATE + raw.len() * BYTES_PER_TERM;
            if cur.len() + keys.len() > limits.max_states || bytes > budget {
                return Err(DpError::TooManyStates {
                    max: limits.max_states,
                    step: i + 1,
                    steps: total,
                    mb: (budget >> 20).max(1),
                });
            }
            peak = peak.max(cur.len() + keys.len());
            raw.sort_unstable();
            let mut starts = vec![0u32; keys.len() + 1];
            for &(d, _, _) in &raw {
                starts[d as usize + 1] += 1;
            }
            for d in 0..keys.len() {
                starts[d + 1] += starts[d];
            }
            steps.push(Gather {
                starts,
                terms: raw.into_iter().map(|(_, s, w)| (s, w)).collect(),
            });
            cur = keys;
        }
        Ok(Frontier {
            steps,
            weights,
            peak_states: peak,
        })
    }

    /// The sum over every picture (with any number of tiles of each kind)
    /// of the product of its placements' weights: `weights[w]` for weight
    /// index `w`. `cur` and `next` are scratch space.
    pub(super) fn evaluate<V: Values>(
        &self,
        v: &V,
        weights: &[V::Row],
        cur: &mut Vec<V::Row>,
        next: &mut Vec<V::Row>,
    ) -> V::Row {
        cur.clear();
        cur.push(v.one());
        for g in &self.steps {
            next.clear();
            for d in 0..g.starts.len() - 1 {
                let terms = &g.terms[g.starts[d] as usize..g.starts[d + 1] as usize];
                next.push(v.sum(terms, cur, weights));
            }
            std::mem::swap(cur, next);
        }
        cur.iter().fold(v.zero(), |a, &b| v.plus(a, b))
    }
}

/// Bits to store values up to `max`.
fn bits_for(max: u32) -> u32 {
    32 - max.leading_zeros()
}
