//! Count shards (`count --method enumerate --shard I/N`).

use std::path::{Path, PathBuf};

use crate::commands::shards::{Identity, MergeError, claim, list};
use crate::count::{CountReport, MethodResult, ShardCount, Status as CountStatus};
use crate::solve::{Counts, Meta};

/// Merge the reports of a sharded count (`count --shard`): the enumeration's
/// counts summed, picture classes from the picture weights, the nodes above
/// the units counted once.
pub(crate) fn merge(paths: &[PathBuf]) -> Result<CountReport, MergeError> {
    let mut shards: Vec<(PathBuf, CountReport, ShardCount)> = Vec::new();
    for p in paths {
        let err = |message: String| MergeError::File {
            path: p.clone(),
            message,
        };
        let text = std::fs::read_to_string(p).map_err(|e| err(format!("cannot read: {e}")))?;
        let mut r: CountReport = serde_json::from_str(&text).map_err(|e| {
            err(format!(
                "not the report of a count shard (scramble count --shard I/N --format json): {e}"
            ))
        })?;
        let s = r
            .shard
            .take()
            .ok_or_else(|| err("not the report of a count shard".into()))?;
        if s.meta.format != Meta::FORMAT || r.methods.len() != 1 {
            return Err(err("not the report of a count shard".into()));
        }
        shards.push((p.clone(), r, s));
    }
    let count = shards[0].2.meta.count;
    let mut seen: Vec<Option<&Path>> = vec![None; count];
    let id = |r: &CountReport, s: &ShardCount| Identity {
        what: format!("the puzzle {}", r.puzzle),
        fingerprint: s.meta.fingerprint.clone(),
        options: s.meta.options.clone(),
        count: s.meta.count,
        version: s.meta.version.clone(),
    };
    for (path, r, s) in &shards {
        let m = &s.meta;
        id(r, s).check(path, &id(&shards[0].1, &shards[0].2), &shards[0].0)?;
        claim(&mut seen, path, m.index, count)?;
    }
    let missing: Vec<usize> = (0..count).filter(|&k| seen[k].is_none()).collect();
    let incomplete: Vec<usize> = shards
        .iter()
        .filter(|(_, r, _)| r.methods[0].status != CountStatus::Complete)
        .map(|(_, _, s)| s.meta.index)
        .collect();
    let complete = missing.is_empty() && incomplete.is_empty();
    let found = |f: fn(&Counts) -> u128| -> u128 {
        shards
            .iter()
            .filter_map(|(_, r, _)| r.methods[0].counts.as_ref())
            .map(f)
            .sum()
    };
    let (raw, classes) = (found(|c| c.raw), found(|c| c.classes));
    let weight: u128 = shards.iter().map(|(_, _, s)| s.meta.picture_weight).sum();
    let divisor = shards[0].2.meta.picture_divisor;
    let pictures = if complete && divisor > 0 {
        weight / divisor
    } else {
        // Stopped early: the picture classes some shard found, at least.
        shards
            .iter()
            .filter_map(|(_, r, _)| r.methods[0].counts.map(|c| c.pictures))
            .max()
            .unwrap_or(0)
    };
    let nodes: Option<u64> = {
        let all: Vec<(u64, u64)> = shards
            .iter()
            .filter_map(|(_, r, s)| r.methods[0].nodes.map(|n| (n, s.prefix_nodes)))
            .collect();
        (!all.is_empty()).then(|| {
            let above = all[0].1;
            all.iter().map(|(n, p)| n - p).sum::<u64>() + above
        })
    };
    let first = &shards[0].1;
    let mut message = Vec::new();
    if !missing.is_empty() {
        message.push(format!("shards {} missing", list(&missing)));
    }
    if !incomplete.is_empty() {
        message.push(format!("shards {} stopped early", list(&incomplete)));
    }
    let failed = shards
        .iter()
        .find(|(_, r, _)| r.methods[0].status == CountStatus::Failed);
    let method = MethodResult {
        status: match failed {
            Some(_) => CountStatus::Failed,
            None if complete => CountStatus::Complete,
            None => CountStatus::Stopped,
        },
        message: match failed {
            Some((_, r, _)) => r.methods[0].message.clone(),
            None => (!message.is_empty()).then(|| message.join("; ")),
        },
        counts: Some(Counts {
            raw,
            classes,
            pictures,
        }),
        nodes,
        time_s: shards
            .iter()
            .map(|(_, r, _)| r.methods[0].time_s)
            .fold(0.0, f64::max),
        ..first.methods[0].clone()
    };
    let methods = vec![method];
    let (counts, agreed_by, disagreement) = crate::count::agree(&methods);
    Ok(CountReport {
        methods,
        counts,
        agreed_by,
        disagreement,
        shard: None,
        shards_missing: missing,
        shards_incomplete: incomplete,
        ..first.clone()
    })
}
