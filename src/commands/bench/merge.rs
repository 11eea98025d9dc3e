//! Bench shards (`bench --shard I/N`): each shard's groups of rows put
//! back in grid order.

use std::path::{Path, PathBuf};

use crate::commands::bench::{Bench, GroupSpan, ShardMeta, ShardOutput};
use crate::commands::shards::{Identity, MergeError, claim};

/// The merged bench: its rows in grid order, as one run would give them.
pub(crate) struct BenchMerged {
    /// Every puzzle label of the grid, in order.
    pub puzzles: Vec<String>,
    pub bench: Bench,
    /// Shards not among the files.
    pub missing: Vec<usize>,
    /// Shards stopped early.
    pub stopped: Vec<usize>,
}

pub(crate) fn merge(paths: &[PathBuf]) -> Result<BenchMerged, MergeError> {
    let mut shards: Vec<(PathBuf, ShardOutput)> = Vec::new();
    for p in paths {
        let err = |message: String| MergeError::File {
            path: p.clone(),
            message,
        };
        let text = std::fs::read_to_string(p).map_err(|e| err(format!("cannot read: {e}")))?;
        let out: ShardOutput = serde_json::from_str(&text).map_err(|e| {
            err(format!(
                "not the output of a bench shard (scramble bench --shard I/N): {e}"
            ))
        })?;
        if out.shard.format != ShardMeta::FORMAT {
            return Err(err(format!(
                "shard format {:?}, expected {:?}",
                out.shard.format,
                ShardMeta::FORMAT
            )));
        }
        shards.push((p.clone(), out));
    }
    let (path0, first) = &shards[0];
    let count = first.shard.count;
    let mut seen: Vec<Option<&Path>> = vec![None; count];
    // The fingerprint covers every puzzle's label and content.
    let id = |s: &ShardOutput| Identity {
        what: format!("other puzzles ({} of them)", s.puzzles.len()),
        fingerprint: s.shard.fingerprint.clone(),
        options: s.shard.options.clone(),
        count: s.shard.count,
        version: s.shard.version.clone(),
    };
    for (path, s) in &shards {
        let m = &s.shard;
        id(s).check(path, &id(first), path0)?;
        claim(&mut seen, path, m.index, count)?;
    }
    let missing: Vec<usize> = (0..count).filter(|&k| seen[k].is_none()).collect();
    let stopped: Vec<usize> = shards
        .iter()
        .filter(|(_, s)| s.bench.stopped)
        .map(|(_, s)| s.shard.index)
        .collect();
    // Each shard's rows, group by group, then all groups in grid order.
    let mut groups: Vec<(GroupSpan, &Bench, [usize; 3])> = Vec::new();
    for (path, s) in &shards {
        let b = &s.bench;
        let mut at = [0usize; 3];
        for g in &b.groups {
            let end = [at[0] + g.runs, at[1] + g.skipped, at[2] + g.disagreements];
            if end[0] > b.runs.len() || end[1] > b.skipped.len() || end[2] > b.disagreements.len() {
                return Err(MergeError::File {
                    path: path.clone(),
                    message: format!("group {} holds more rows than the shard has", g.group),
                });
            }
            groups.push((*g, b, at));
            at = end;
        }
    }
    groups.sort_by_key(|(g, _, _)| g.group);
    let mut bench = Bench {
        stopped: !missing.is_empty() || !stopped.is_empty(),
        wall_time_s: shards
            .iter()
            .map(|(_, s)| s.bench.wall_time_s)
            .fold(0.0, f64::max),
        ..Bench::default()
    };
    for (g, b, at) in groups {
        bench.runs.extend_from_slice(&b.runs[at[0]..at[0] + g.runs]);
        bench
            .skipped
            .extend_from_slice(&b.skipped[at[1]..at[1] + g.skipped]);
        bench
            .disagreements
            .extend_from_slice(&b.disagreements[at[2]..at[2] + g.disagreements]);
    }
    Ok(BenchMerged {
        puzzles: first.puzzles.clone(),
        bench,
        missing,
        stopped,
    })
}
