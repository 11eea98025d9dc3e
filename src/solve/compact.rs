//! A compact set of boards: each board packed into a fixed-width record of
//! `cells x bits` bits (bits = enough for `4 x tiles` orientation codes; one
//! byte per cell up to 64 tiles), the records in fixed-size blocks and a hash
//! table of record indices. What the collector keeps to tell a new class from
//! one seen before when it does not keep the boards themselves: about
//! `cells x bits / 8 + 10` bytes per board (docs/benchmarks.md, "Memory").

use std::collections::BTreeSet;

use hashbrown::HashTable;

use crate::board::Solution;
use crate::puzzle::Puzzle;

/// Records per block (blocks never grow, so there is no doubling slack).
const BLOCK_RECORDS: usize = if cfg!(test) { 4 } else { 1 << 14 };

/// Packs boards of one puzzle into records: per cell (row-major) the code
/// `tile index * 4 + rotation`, most significant bit first, so records
/// compare like the boards they pack.
#[derive(Clone, Debug)]
pub(crate) struct Codec {
    bits: u32,
    bytes: usize,
    /// Tile ids in index order (the puzzle's tiles are sorted by id).
    ids: Vec<i64>,
}

impl Codec {
    pub(crate) fn new(puzzle: &Puzzle) -> Codec {
        let codes = (puzzle.len() * 4).max(2);
        let bits = usize::BITS - (codes - 1).leading_zeros();
        Codec {
            bits,
            bytes: (puzzle.cells() * bits as usize).div_ceil(8),
            ids: puzzle.ids(),
        }
    }

    /// The bytes one board takes.
    #[cfg(test)]
    pub(crate) fn record_len(&self) -> usize {
        self.bytes
    }

    /// Pack a board of this puzzle (verified: every tile id is known).
    pub(crate) fn encode(&self, s: &Solution, out: &mut Vec<u8>) {
        out.clear();
        out.resize(self.bytes, 0);
        let mut at = 0usize;
        for p in s.cells() {
            let k = self
                .ids
                .binary_search(&p.tile)
                .expect("a tile of the puzzle");
            let code = (k as u64) * 4 + u64::from(p.rotation);
            for b in (0..self.bits).rev() {
                if code >> b & 1 == 1 {
                    out[at / 8] |= 0x80 >> (at % 8);
                }
                at += 1;
            }
        }
    }
}

/// FxHash-style hashing of a record (deterministic across runs).
fn hash(record: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = record.len() as u64;
    let mut chunks = record.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    for &b in chunks.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
    }
    h
}

/// A set of packed boards.
pub(crate) struct CompactSet {
    codec: Codec,
    blocks: Vec<Box<[u8]>>,
    len: usize,
    table: HashTable<usize>,
    scratch: Vec<u8>,
}

impl CompactSet {
    pub(crate) fn new(codec: Codec) -> CompactSet {
        CompactSet {
            codec,
            blocks: Vec::new(),
            len: 0,
            table: HashTable::new(),
            scratch: Vec::new(),
        }
    }

    fn record(&self, k: usize) -> &[u8] {
        let w = self.codec.bytes;
        let block = &self.blocks[k / BLOCK_RECORDS];
        &block[(k % BLOCK_RECORDS) * w..][..w]
    }

    pub(crate) fn contains(&mut self, s: &Solution) -> bool {
        let mut rec = std::mem::take(&mut self.scratch);
        self.codec.encode(s, &mut rec);
        let h = hash(&rec);
        let found = self.table.find(h, |&k| self.record(k) == rec).is_some();
        self.scratch = rec;
        found
    }

    /// Add a board; whether it was new.
    pub(crate) fn insert(&mut self, s: &Solution) -> bool {
        let mut rec = std::mem::take(&mut self.scratch);
        self.codec.encode(s, &mut rec);
        let h = hash(&rec);
        let new = self.table.find(h, |&k| self.record(k) == rec).is_none();
        if new {
            let w = self.codec.bytes;
            if self.len.is_multiple_of(BLOCK_RECORDS) {
                self.blocks
                    .push(vec![0u8; (BLOCK_RECORDS * w).max(1)].into_boxed_slice());
            }
            let k = self.len;
            let block = &mut self.blocks[k / BLOCK_RECORDS];
            block[(k % BLOCK_RECORDS) * w..][..w].copy_from_slice(&rec);
            self.len += 1;
            let (blocks, w) = (&self.blocks, w);
            self.table.insert_unique(h, k, |&j| {
                hash(&blocks[j / BLOCK_RECORDS][(j % BLOCK_RECORDS) * w..][..w])
            });
        }
        self.scratch = rec;
        new
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

/// One kind of thing counted: its count, and the things themselves when
/// kept, or a compact set when repeats must be caught without keeping them.
pub(super) struct Tally {
    pub(super) count: u128,
    pub(super) kept: Option<BTreeSet<Solution>>,
    seen: Option<CompactSet>,
}

impl Tally {
    pub(super) fn new(keep: bool) -> Tally {
        Tally {
            count: 0,
            kept: keep.then(BTreeSet::new),
            seen: None,
        }
    }

    /// Whether `s` was added before. Without a kept list and with `dedup`
    /// false, nothing is remembered and everything is new.
    pub(super) fn seen_before(&mut self, s: &Solution, dedup: bool, codec: &Codec) -> bool {
        match (&self.kept, dedup) {
            (Some(k), _) => k.contains(s),
            (None, true) => self
                .seen
                .get_or_insert_with(|| CompactSet::new(codec.clone()))
                .contains(s),
            (None, false) => false,
        }
    }

    /// Count `s` (new: the caller checked) and remember it as asked.
    pub(super) fn add(&mut self, s: Solution, dedup: bool, codec: &Codec) {
        self.count += 1;
        match (&mut self.kept, dedup) {
            (Some(k), _) => {
                k.insert(s);
            }
            (None, true) => {
                self.seen
                    .get_or_insert_with(|| CompactSet::new(codec.clone()))
                    .insert(&s);
            }
            (None, false) => {}
        }
    }

    pub(super) fn list(self) -> Vec<Solution> {
        self.kept
            .map(|k| k.into_iter().collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantOptions, Rng, plant};
    use std::collections::BTreeSet;

    #[test]
    fn records_compare_like_boards_and_the_set_deduplicates() {
        for (n, seed) in [(1, 1), (2, 2), (3, 3), (5, 4), (9, 5)] {
            let (p, s) = plant(
                &mut Rng::new(seed),
                &PlantOptions {
                    n,
                    motifs: 4,
                    self_matching: false,
                },
            );
            let codec = Codec::new(&p);
            let boards: Vec<Solution> = s.turns().to_vec();
            let mut set = CompactSet::new(codec.clone());
            let mut reference = BTreeSet::new();
            for b in boards.iter().chain(&boards) {
                assert_eq!(set.contains(b), reference.contains(b));
                assert_eq!(set.insert(b), reference.insert(b.clone()));
            }
            assert_eq!(set.len(), reference.len());
            let (mut x, mut y) = (Vec::new(), Vec::new());
            for a in &boards {
                for b in &boards {
                    codec.encode(a, &mut x);
                    codec.encode(b, &mut y);
                    assert_eq!(x.cmp(&y), a.cmp(b), "n = {n}");
                    assert_eq!(x.len(), codec.record_len());
                }
            }
        }
    }

    #[test]
    fn blocks_fill_and_roll_over() {
        let (p, s) = plant(
            &mut Rng::new(7),
            &PlantOptions {
                n: 2,
                motifs: 2,
                self_matching: false,
            },
        );
        // 256 distinct "boards" by rotations (the set does not verify), in
        // blocks of 4 records under test.
        let mut set = CompactSet::new(Codec::new(&p));
        let mut made = 0;
        for r in 0..256u16 {
            let cells = s
                .cells()
                .iter()
                .enumerate()
                .map(|(c, x)| crate::board::Placement {
                    tile: x.tile,
                    rotation: ((r >> (2 * c)) & 3) as u8,
                })
                .collect();
            assert!(set.insert(&Solution::new(cells)));
            made += 1;
        }
        assert_eq!(set.len(), made);
        assert!(set.contains(&s));
    }
}
