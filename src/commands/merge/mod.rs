//! `scramble merge`: the outputs of sharded runs joined into what one
//! unsharded run reports (docs/distributed.md). Each kind of shard is
//! merged by its own command's merge.rs (`solve --shard`, JSON or JSON
//! Lines; `count --shard`; `bench --shard`), on what they share
//! (commands/shards.rs); here the kinds are told apart.

pub(crate) mod command;

use std::path::PathBuf;

use crate::count::CountReport;

pub(crate) use crate::commands::bench::merge::BenchMerged;
pub(crate) use crate::commands::shards::MergeError;
pub(crate) use crate::commands::solve::json::Format;
pub(crate) use crate::commands::solve::merge::SolveMerged;

/// What the shards merged into.
pub(crate) enum Merged {
    Solve(Box<SolveMerged>),
    Bench(BenchMerged),
    Count(Box<CountReport>),
}

/// Merge the shard outputs in `paths`: of `solve`, `count` or `bench`.
pub(crate) fn merge(paths: &[PathBuf]) -> Result<Merged, MergeError> {
    let Some(first) = paths.first() else {
        return Err(MergeError::Mismatch("no shard outputs to merge".into()));
    };
    let text = std::fs::read_to_string(first).map_err(|e| MergeError::File {
        path: first.clone(),
        message: format!("cannot read: {e}"),
    })?;
    let v = serde_json::from_str::<serde_json::Value>(&text).ok();
    let has = |k: &str| v.as_ref().is_some_and(|v| v.get(k).is_some());
    if has("bench") && has("shard") {
        crate::commands::bench::merge::merge(paths).map(Merged::Bench)
    } else if has("methods") && has("shard") {
        crate::commands::count::merge::merge(paths).map(|c| Merged::Count(Box::new(c)))
    } else {
        crate::commands::solve::merge::merge(paths).map(|m| Merged::Solve(Box::new(m)))
    }
}
