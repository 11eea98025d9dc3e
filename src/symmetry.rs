//! Whole-board symmetry: canonical forms of solutions.
//!
//! Turning a solved board a quarter turn gives another solution, so every
//! answer comes in a class of (up to) four labelled solutions. The canonical
//! form of a solution is the member of its class whose row-major sequence of
//! `(tile, rotation)` is lexicographically smallest.

use crate::board::Solution;

/// The canonical representative of a solution's class under board turns.
pub fn canonical(s: &Solution) -> Solution {
    s.turns().into_iter().min().expect("four turns")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placement;
    use proptest::prelude::*;

    fn arb_board() -> impl Strategy<Value = Solution> {
        (1usize..=5)
            .prop_flat_map(|n| {
                (
                    Just(n),
                    Just((1..=(n * n) as i64).collect::<Vec<_>>()).prop_shuffle(),
                    proptest::collection::vec(0u8..4, n * n),
                )
            })
            .prop_map(|(_, tiles, rots)| {
                Solution::new(
                    tiles
                        .into_iter()
                        .zip(rots)
                        .map(|(tile, rotation)| Placement { tile, rotation })
                        .collect(),
                )
            })
    }

    proptest! {
        #[test]
        fn canonical_is_invariant_under_turns(s in arb_board()) {
            let c = canonical(&s);
            for t in s.turns() {
                prop_assert_eq!(canonical(&t), c.clone());
            }
        }

        #[test]
        fn canonical_is_idempotent_and_a_member(s in arb_board()) {
            let c = canonical(&s);
            prop_assert_eq!(canonical(&c), c.clone());
            prop_assert!(s.turns().contains(&c));
            prop_assert!(s.turns().iter().all(|t| &c <= t));
        }
    }
}
