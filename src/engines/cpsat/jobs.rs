//! The work of an enumeration: subproblems (a prefix of fixed cells and
//! maybe a range of the next cell's tile), how one is split, and the work
//! units that do not depend on the thread count.

use crate::board::{Placement, extensions};
use crate::puzzle::Puzzle;
use crate::symmetry::Symmetry;

#[derive(Clone)]
pub(super) struct Job {
    /// The work unit it belongs to (see `SolveOptions::units`; 0 without).
    pub(super) unit: usize,
    pub(super) prefix: Vec<Placement>,
    /// The tile of the cell after the prefix lies in this inclusive range.
    pub(super) range: Option<(i64, i64)>,
    /// Whether this job may be split further (false for `--split none`).
    pub(super) adaptive: bool,
    /// The whole model solved beside its parts, without a slice, until it
    /// ends or the parts' projected rest is shorter than it has run
    /// (policy.rs, `keep_whole`): if it completes, it holds every solution.
    pub(super) beside: bool,
    /// The share of its run's tree it stands for (1: the whole model): its
    /// parent's shared equally among its parts. What ended parts add up to
    /// tells how far the parts have come (policy.rs, `keep_whole`).
    pub(super) weight: f64,
}

impl Job {
    /// The whole model as one job that may be split.
    pub(super) fn whole() -> Job {
        Job {
            unit: 0,
            prefix: vec![],
            range: None,
            adaptive: true,
            beside: false,
            weight: 1.0,
        }
    }

    /// How deep it is cut: a range part weighs like the cell it cuts, not
    /// like its prefix.
    pub(super) fn depth(&self) -> usize {
        self.prefix.len() + usize::from(self.range.is_some())
    }
}

/// The parts of a subproblem: a subproblem without a range is cut into at
/// most `parts` ranges of its next cell's tile (holding about as many
/// consistent placements each); a subproblem with a range (or with too few
/// candidate tiles to cut) into the placements of that cell.
/// Each part's weight is an equal share of the job's.
/// Placements the model's symmetry breaking `searched` refuses after the
/// prefix are left out (their subproblems hold no solution).
pub(super) fn split_job(puzzle: &Puzzle, searched: &Symmetry, job: &Job, parts: usize) -> Vec<Job> {
    let placements: Vec<Placement> = allowed_extensions(puzzle, searched, &job.prefix)
        .into_iter()
        .filter(|p| job.range.is_none_or(|(lo, hi)| (lo..=hi).contains(&p.tile)))
        .collect();
    let mut tiles: Vec<(i64, usize)> = Vec::new();
    for p in &placements {
        match tiles.iter_mut().find(|(t, _)| *t == p.tile) {
            Some((_, n)) => *n += 1,
            None => tiles.push((p.tile, 1)),
        }
    }
    tiles.sort_unstable();
    if job.range.is_some() || parts < 2 || tiles.len() <= parts {
        let weight = share(job.weight, placements.len());
        return placements
            .into_iter()
            .map(|p| {
                let mut prefix = job.prefix.clone();
                prefix.push(p);
                Job {
                    unit: job.unit,
                    prefix,
                    range: None,
                    adaptive: true,
                    beside: false,
                    weight,
                }
            })
            .collect();
    }
    // Contiguous groups of tiles; group g ends at the first tile where the
    // running count of placements reaches g/parts of them.
    let total = placements.len();
    let mut ends = Vec::with_capacity(parts);
    let mut held = 0;
    for (k, &(_, n)) in tiles.iter().enumerate() {
        held += n;
        let g = ends.len() + 1;
        if held * parts >= total * g || tiles.len() - k == parts - ends.len() {
            ends.push(k);
        }
    }
    let weight = share(job.weight, ends.len());
    let mut start = 0;
    ends.into_iter()
        .map(|end| {
            let range = Some((tiles[start].0, tiles[end].0));
            start = end + 1;
            Job {
                unit: job.unit,
                prefix: job.prefix.clone(),
                range,
                adaptive: true,
                beside: false,
                weight,
            }
        })
        .collect()
}

/// One of `parts` equal shares of `weight` (a job's share of the tree).
pub(super) fn share(weight: f64, parts: usize) -> f64 {
    weight / parts.max(1) as f64
}

/// Work units when they must not depend on the thread count: the
/// consistent assignments of the first cells (row-major), at the first
/// depth with at least this many.
pub(crate) const UNITS: usize = 64;

/// The prefixes of the work units: every consistent assignment of the
/// first cells, deep enough for [`UNITS`] of them (fewer on a small or
/// infeasible board).
/// They do not depend on the symmetry breaking, so that a unit names the
/// same prefix whatever the run adds.
pub(super) fn unit_prefixes(puzzle: &Puzzle) -> Vec<Vec<Placement>> {
    let mut level = vec![Vec::new()];
    let mut depth = 0;
    while level.len() < UNITS && depth < puzzle.len() && !level.is_empty() {
        depth += 1;
        level = deeper(puzzle, &Symmetry::none(), level);
    }
    level
}

/// The estimated work of a unit: the consistent assignments two cells
/// deeper than its prefix.
pub(super) fn estimate(puzzle: &Puzzle, prefix: &[Placement]) -> u64 {
    if prefix.len() + 2 > puzzle.len() {
        return 1;
    }
    let mut next = prefix.to_vec();
    extensions(puzzle, prefix)
        .into_iter()
        .map(|p| {
            next.truncate(prefix.len());
            next.push(p);
            extensions(puzzle, &next).len() as u64
        })
        .sum()
}

/// Every consistent assignment of the first `depth` cells (row-major)
/// that the model's symmetry breaking `searched` allows.
pub(super) fn prefixes(puzzle: &Puzzle, searched: &Symmetry, depth: usize) -> Vec<Vec<Placement>> {
    (0..depth).fold(vec![Vec::new()], |level, _| deeper(puzzle, searched, level))
}

/// The consistent placements of the cell after `prefix` that `searched`
/// allows there ([`Symmetry::allows_after`]).
fn allowed_extensions(
    puzzle: &Puzzle,
    searched: &Symmetry,
    prefix: &[Placement],
) -> Vec<Placement> {
    let mut out = extensions(puzzle, prefix);
    out.retain(|&p| searched.allows_after(puzzle, prefix, p));
    out
}

/// Each prefix extended by one cell in every consistent way.
fn deeper(puzzle: &Puzzle, searched: &Symmetry, level: Vec<Vec<Placement>>) -> Vec<Vec<Placement>> {
    level
        .into_iter()
        .flat_map(|prefix: Vec<Placement>| {
            allowed_extensions(puzzle, searched, &prefix)
                .into_iter()
                .map(move |p| {
                    let mut next = prefix.clone();
                    next.push(p);
                    next
                })
        })
        .collect()
}

/// A CP-SAT domain (sorted closed intervals, flattened) cut to `[lo, hi]`.
pub(super) fn intersect(domain: &[i64], lo: i64, hi: i64) -> Vec<i64> {
    domain
        .chunks_exact(2)
        .filter_map(|iv| {
            let (a, b) = (iv[0].max(lo), iv[1].min(hi));
            (a <= b).then_some([a, b])
        })
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantOptions, Rng, plant};

    /// The parts of a split cover every placement of the next cell once.
    fn covered(puzzle: &Puzzle, job: &Job, parts: &[Job]) -> Vec<Placement> {
        let mut got: Vec<Placement> = parts
            .iter()
            .flat_map(|p| match p.range {
                Some((lo, hi)) => {
                    assert_eq!(p.prefix, job.prefix);
                    extensions(puzzle, &p.prefix)
                        .into_iter()
                        .filter(|x| (lo..=hi).contains(&x.tile))
                        .collect()
                }
                None => vec![*p.prefix.last().unwrap()],
            })
            .collect();
        got.sort_by_key(|p| (p.tile, p.rotation));
        got
    }

    #[test]
    fn range_parts_partition_the_next_cell() {
        for seed in 0..20 {
            let (puzzle, _) = plant(
                &mut Rng::new(seed),
                &PlantOptions {
                    n: 4,
                    motifs: 3,
                    self_matching: seed % 2 == 0,
                },
            );
            let whole = Job::whole();
            let mut all = extensions(&puzzle, &[]);
            all.sort_by_key(|p| (p.tile, p.rotation));
            for k in 2..=6 {
                let parts = split_job(&puzzle, &Symmetry::none(), &whole, k);
                assert_eq!(parts.len(), k, "seed {seed}: {k} parts of 16 tiles");
                assert_eq!(covered(&puzzle, &whole, &parts), all);
                // Ranges are disjoint and increasing.
                let ranges: Vec<(i64, i64)> = parts.iter().map(|p| p.range.unwrap()).collect();
                assert!(ranges.windows(2).all(|w| w[0].1 < w[1].0), "{ranges:?}");
                // A range part splits into the placements it holds.
                for part in &parts {
                    let (lo, hi) = part.range.unwrap();
                    let sub = split_job(&puzzle, &Symmetry::none(), part, k);
                    assert!(sub.iter().all(|j| j.range.is_none() && j.prefix.len() == 1));
                    assert!(sub.iter().all(|j| (lo..=hi).contains(&j.prefix[0].tile)));
                    // Its share of the tree, shared equally among its parts.
                    let shares: f64 = sub.iter().map(|j| j.weight).sum();
                    assert!((shares - part.weight).abs() < 1e-12, "{shares}");
                }
                assert!(parts.iter().all(|p| p.weight == 1.0 / k as f64));
            }
            // Fewer candidate tiles than parts: placements at once.
            let parts = split_job(&puzzle, &Symmetry::none(), &whole, 16);
            assert_eq!(parts.len(), all.len());
        }
    }

    /// The prefixes the model's symmetry breaking allows keep the start
    /// of every board it accepts (here every labelled board of a planted
    /// solution's picture class, under the picture reduction), and leave
    /// out some where tiles have twins.
    #[test]
    fn symmetry_breaking_prefixes_keep_every_accepted_board() {
        let mut fewer = 0;
        for seed in 0..24 {
            let o = PlantOptions {
                n: 3,
                motifs: 2,
                self_matching: seed % 2 == 0,
            };
            let Some((puzzle, s)) =
                crate::generate::plant_with_duplicates(&mut Rng::new(seed), &o, 3, 100)
            else {
                continue;
            };
            let searched = crate::symmetry::picture_representative(&puzzle);
            let boards: Vec<_> = s
                .turns()
                .iter()
                .flat_map(|t| crate::symmetry::same_picture(&puzzle, t))
                .filter(|b| searched.accepts(&puzzle, b))
                .collect();
            assert!(!boards.is_empty(), "seed {seed}");
            for depth in 1..=3 {
                let kept = prefixes(&puzzle, &searched, depth);
                for b in &boards {
                    assert!(kept.contains(&b.cells()[..depth].to_vec()), "seed {seed}");
                }
                fewer +=
                    usize::from(kept.len() < prefixes(&puzzle, &Symmetry::none(), depth).len());
            }
        }
        assert!(fewer > 0);
    }

    #[test]
    fn domains_are_cut_to_ranges() {
        assert_eq!(intersect(&[1, 36], 5, 9), vec![5, 9]);
        assert_eq!(intersect(&[1, 3, 7, 9], 2, 8), vec![2, 3, 7, 8]);
        assert_eq!(intersect(&[1, 3], 4, 8), Vec::<i64>::new());
    }
}
