//! The key tables of the candidate lists (lists.rs), as they are built:
//! dense edge codes, the distinct allowed sets, each step's table and
//! keys, and the lists laid out one after the other.

use super::build::Step;

/// Edge index in the `need` table that requires the wildcard code.
pub(super) const WILD_EDGE: usize = 4;

/// The most edge codes (plus the wildcard) the lists are built for: each
/// key table has `span * span` lists. Puzzles with more codes use the
/// bitset search (a table would take 512 KB or more).
pub(super) const MAX_SPAN: usize = 256;

/// The most distinct allowed sets that get key tables of their own (a
/// framed board has nine: four corners, four sides, the inside; a fixed
/// piece adds one); fewer when the codes are many (a table has `span *
/// span` lists).
pub(super) const MAX_DOMAINS: usize = 24;

/// One step of the placement order: what the walk reads per node.
#[derive(Clone, Copy, Default)]
pub(super) struct Hot {
    /// Offset of this step's key table in `starts`.
    pub(super) table: u32,
    pub(super) cell: u16,
    /// The two key neighbours' cells, and the edge of each that faces
    /// this cell ([`WILD_EDGE`] when there is none).
    pub(super) a: u16,
    pub(super) b: u16,
    pub(super) a_edge: u8,
    pub(super) b_edge: u8,
    /// The first key neighbour is the previous depth's cell: its code
    /// comes from the orientation just placed, not from the board.
    pub(super) a_link: bool,
    /// Some candidates fail a check past the key lists ([`Cold`]).
    pub(super) checks: bool,
}

/// One step of the placement order: the checks past the key lists.
#[derive(Clone, Copy)]
pub(super) struct Cold {
    /// Placed neighbours past the two keys: (cell, its facing edge, this
    /// cell's edge towards it).
    pub(super) extra: [(usize, usize, usize); 2],
    pub(super) n_extra: usize,
    /// Candidates must be in this depth's allowed set (symmetry rules,
    /// turn reduction).
    pub(super) restricted: bool,
    /// Candidates must be above the first placed tile (turn reduction).
    pub(super) above_first: bool,
}

/// One candidate in a list.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    /// The row of the next depth's key table that this orientation gives
    /// as the next cell's link: `need_row` of its edge facing that cell
    /// (each table is built for the steps whose next link faces one way).
    pub(super) key: u16,
    pub(super) o: u16,
}

/// Dense codes (the codes on some edge, and their partners): per
/// orientation and edge its code, per orientation and edge the code a
/// neighbour must show there (8 a row, the wildcard past the four
/// edges), and the wildcard; none past [`MAX_SPAN`] codes.
pub(super) fn dense_codes(
    edges: &[[u16; 4]],
    partner: impl Fn(u16) -> u16,
) -> Option<(Vec<u16>, Vec<u16>, usize)> {
    let mut dense = std::collections::BTreeMap::new();
    for e in edges {
        for &c in e {
            for c in [c, partner(c)] {
                let next = dense.len();
                dense.entry(c).or_insert(next);
            }
        }
    }
    let wild = dense.len();
    if wild + 1 > MAX_SPAN {
        return None;
    }
    let code: Vec<u16> = edges
        .iter()
        .flat_map(|e| e.map(|c| dense[&c] as u16))
        .collect();
    let need: Vec<u16> = edges
        .iter()
        .flat_map(|e| {
            let mut row = [wild as u16; 8];
            for d in 0..4 {
                row[d] = dense[&partner(e[d])] as u16;
            }
            row
        })
        .collect();
    Some((code, need, wild))
}

/// The key tables as the steps ask for them. A table is named by the
/// pair of directions it is keyed by, the edge whose need its entries
/// carry (the next depth's link's), and the allowed set it holds (0:
/// every orientation); per table, the keys its steps read (bits: both
/// neighbours, the first missing, the second missing, both missing).
pub(super) struct KeyTables<'a> {
    /// Per depth, what its tables hold.
    pub(super) allowed: &'a [u64],
    /// Per depth, what it allows (a subset of `allowed`).
    pub(super) exact: &'a [u64],
    pub(super) words: usize,
    pub(super) nori: usize,
    pub(super) max_domains: usize,
    /// The distinct allowed sets of the depths that restrict (the frame,
    /// fixed pieces, symmetry rules, the turn reduction): each gets key
    /// tables of its own, holding only what it allows, so no candidate is
    /// checked against it. Past `max_domains` sets the depth's candidates
    /// are checked one by one instead.
    pub(super) domains: Vec<&'a [u64]>,
    pub(super) pairs: Vec<(usize, usize, usize, usize)>,
    pub(super) variants: Vec<u8>,
}

impl<'a> KeyTables<'a> {
    /// Whether `depth` allows every orientation.
    fn every(&self, depth: usize) -> bool {
        (0..self.words).all(|w| {
            let bits = self.nori.saturating_sub(w * 64).min(64);
            let full = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
            self.allowed[depth * self.words + w] & full == full
        })
    }

    /// The allowed set `depth`'s tables hold (0: every orientation), or
    /// none when its candidates are checked one by one.
    fn domain_of(&mut self, depth: usize) -> Option<usize> {
        if self.every(depth) {
            return Some(0);
        }
        let set = &self.allowed[depth * self.words..(depth + 1) * self.words];
        match self.domains.iter().position(|&d| d == set) {
            Some(i) => Some(i + 1),
            None if self.domains.len() < self.max_domains => {
                self.domains.push(set);
                Some(self.domains.len())
            }
            None => None,
        }
    }

    fn table_of(&mut self, pair: (usize, usize, usize, usize), variant: u8) -> usize {
        match self.pairs.iter().position(|&p| p == pair) {
            Some(i) => {
                self.variants[i] |= variant;
                i
            }
            None => {
                self.pairs.push(pair);
                self.variants.push(variant);
                self.pairs.len() - 1
            }
        }
    }

    /// Step `s` at `depth`: its table (by index until [`KeyTables::fill`]
    /// gives offsets), its keys and checks.
    pub(super) fn step(&mut self, steps: &[Step], depth: usize, s: &Step) -> (Hot, Cold) {
        // The previous depth's cell first: its code is the freshest.
        let mut nbs: Vec<(usize, usize)> = Vec::with_capacity(4);
        if let Some(dir) = s.link {
            nbs.push(
                s.nbs[..s.k]
                    .iter()
                    .copied()
                    .find(|nb| nb.0 == dir)
                    .expect("link"),
            );
        }
        nbs.extend_from_slice(&s.older[..s.n_older]);
        let key = |k: usize, other: usize| match nbs.get(k) {
            Some(&(dir, cell)) => (dir, (cell, (dir + 2) % 4)),
            // No neighbour: any direction but the other key's.
            None => ((other + 1) % 4, (0, WILD_EDGE)),
        };
        let (da, a) = key(0, 3);
        let (db, b) = key(1, da);
        let mut extra = [(0, 0, 0); 2];
        for (x, &(dir, cell)) in extra.iter_mut().zip(nbs.iter().skip(2)) {
            *x = (cell, (dir + 2) % 4, dir);
        }
        let domain = self.domain_of(depth);
        let at = depth * self.words..(depth + 1) * self.words;
        let restricted = domain.is_none() || self.allowed[at.clone()] != self.exact[at];
        let next_link_edge = steps
            .get(depth + 1)
            .and_then(|n| n.link.map(|dir| (dir + 2) % 4))
            .unwrap_or(0);
        let variant = match nbs.len() {
            0 => 8,
            1 => 4,
            _ => 1,
        };
        let hot = Hot {
            table: self.table_of((da, db, next_link_edge, domain.unwrap_or(0)), variant) as u32,
            cell: s.cell as u16,
            a: a.0 as u16,
            b: b.0 as u16,
            a_edge: a.1 as u8,
            b_edge: b.1 as u8,
            a_link: s.link.is_some(),
            checks: restricted || s.above_first || nbs.len() > 2,
        };
        let cold = Cold {
            extra,
            n_extra: nbs.len().saturating_sub(2),
            restricted,
            above_first: s.above_first,
        };
        (hot, cold)
    }

    /// The tables' lists, one after the other (their starts and entries),
    /// and each step's table index turned into its offset.
    pub(super) fn fill(
        &self,
        code: &[u16],
        need: &[u16],
        wild: usize,
        hot: &mut [Hot],
    ) -> (Vec<u32>, Vec<Entry>) {
        let span = wild + 1;
        let mut starts = Vec::with_capacity(self.pairs.len() * span * span + 1);
        let mut entries = Vec::new();
        for (i, &(da, db, back, domain)) in self.pairs.iter().enumerate() {
            let mut lists = vec![Vec::new(); span * span];
            let holds =
                |o: usize| domain == 0 || self.domains[domain - 1][o / 64] >> (o % 64) & 1 != 0;
            for o in (0..self.nori).filter(|&o| holds(o)) {
                let (ca, cb) = (code[o * 4 + da] as usize, code[o * 4 + db] as usize);
                let keys = [(ca, cb), (wild, cb), (ca, wild), (wild, wild)];
                // Only the wildcard keys some step of this table reads.
                for (k, (ka, kb)) in keys.into_iter().enumerate() {
                    if self.variants[i] >> k & 1 != 0 {
                        lists[ka * span + kb].push(o as u16);
                    }
                }
            }
            for l in &lists {
                starts.push(entries.len() as u32);
                entries.extend(l.iter().map(|&o| Entry {
                    key: (need[o as usize * 8 + back] as usize * span) as u16,
                    o,
                }));
            }
            for h in hot.iter_mut().filter(|h| h.table == i as u32) {
                h.table = (i * span * span) as u32;
            }
        }
        starts.push(entries.len() as u32);
        (starts, entries)
    }
}
