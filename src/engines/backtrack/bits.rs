//! The bits and codes every part of the backtracker reads: edge codes
//! and their partners, orientation sets as 64-bit words.
#![allow(clippy::needless_range_loop, clippy::manual_memcpy)]

use super::MAX_TILES;
use crate::puzzle::{Edge, Half};

/// The edge code of an edge: motif * 4 + half (0 `+`, 1 `-`, 2 `=`).
pub(super) fn code(e: Edge) -> u16 {
    e.motif * 4
        + match e.half {
            Half::Plus => 0,
            Half::Minus => 1,
            Half::Same => 2,
        }
}

/// The code an adjacent edge must have (`+` and `-` swap, `=` stays):
/// bit 0 flips unless bit 1 (`=`) is set.
pub(super) fn partner(c: u16) -> u16 {
    c ^ (!c >> 1 & 1)
}

/// No next copy.
pub(super) const NO_COPY: u16 = u16::MAX;

/// The most 64-bit words a set of orientations takes (`MAX_TILES * 4` bits).
pub(super) const MAX_WORDS: usize = MAX_TILES * 4 / 64;

/// Word `w` of the set of bits from `bit` on.
pub(super) fn from_bit(bit: usize, w: usize) -> u64 {
    match bit.checked_sub(w * 64) {
        None => !0,
        Some(k) if k >= 64 => 0,
        Some(k) => !0 << k,
    }
}

/// The words per set the search is compiled for: exact up to 8 (boards of
/// up to 128 tiles), then 16, 32 or 64 (the unused words stay empty).
pub(super) fn word_bucket(words: usize) -> usize {
    match words {
        0..=8 => words.max(1),
        9..=16 => 16,
        17..=32 => 32,
        _ => MAX_WORDS,
    }
}

pub(super) fn set_bit(set: &mut [u64], bit: usize) {
    set[bit / 64] |= 1 << (bit % 64);
}

/// The bits of the four orientations of the tile of orientation `o`, within
/// its word.
#[inline(always)]
pub(super) fn tile_bits(o: usize) -> u64 {
    0xF << ((o % 64) & !3)
}

/// `W` words of a flat bitset table from word `at`.
#[inline(always)]
pub(super) fn words<const W: usize>(table: &[u64], at: usize) -> [u64; W] {
    let s = &table[at..at + W];
    let mut out = [0; W];
    for w in 0..W {
        out[w] = s[w];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partner_codes() {
        let e = |motif, half| code(Edge { motif, half });
        assert_eq!(partner(e(5, Half::Plus)), e(5, Half::Minus));
        assert_eq!(partner(e(5, Half::Minus)), e(5, Half::Plus));
        assert_eq!(partner(e(5, Half::Same)), e(5, Half::Same));
        assert_eq!(partner(e(0, Half::Plus)), e(0, Half::Minus));
        assert_eq!(partner(e(0, Half::Same)), e(0, Half::Same));
    }

    #[test]
    fn bit_ranges() {
        assert_eq!(from_bit(0, 0), !0);
        assert_eq!(from_bit(4, 0), !0 << 4);
        assert_eq!(from_bit(64, 0), 0);
        assert_eq!(from_bit(64, 1), !0);
        assert_eq!(from_bit(70, 1), !0 << 6);
        assert_eq!(from_bit(70, 2), !0);
    }
}
