//! A board in the community's `.et2` notation, for their tools to check.

use crate::board::Solution;
use crate::puzzle::pieces::turns_other_way;

/// One line per row, each square its piece number (right-aligned in four
/// columns) and its clockwise quarter turns, `' 139/2'`.
pub fn board(s: &Solution) -> String {
    let mut out = String::new();
    for row in s.cells().chunks(s.cols().max(1)) {
        for p in row {
            // A space before every square, as the community pads to four.
            out.push_str(&format!(" {:>3}/{}", p.tile, turns_other_way(p.rotation)));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placement;

    #[test]
    fn et2_boards_turn_clockwise() {
        let s = Solution::new(
            [(1, 1), (2, 0), (3, 2), (4, 3)]
                .map(|(tile, rotation)| Placement { tile, rotation })
                .to_vec(),
        );
        assert_eq!(board(&s), "   1/3   2/0\n   3/2   4/1\n");
    }
}
