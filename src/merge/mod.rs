//! `scramble merge`: the outputs of sharded runs joined into what one
//! unsharded run reports (docs/distributed.md), one file per kind of
//! shard: solve.rs (`solve --shard`, JSON or JSON Lines), count.rs
//! (`count --shard`), bench.rs (`bench --shard`). Here: what they share,
//! telling the kinds apart, and checking that shards belong together.

mod bench;
mod count;
mod solve;

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::count::CountReport;

pub use bench::BenchMerged;
pub use solve::{Format, SolveMerged};

/// A shard output that cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
    #[error("{0}")]
    Mismatch(String),
}

/// What the shards merged into.
pub enum Merged {
    Solve(Box<SolveMerged>),
    Bench(BenchMerged),
    Count(Box<CountReport>),
}

/// Merge the shard outputs in `paths`: of `solve`, `count` or `bench`.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, MergeError> {
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
        bench::merge(paths).map(Merged::Bench)
    } else if has("methods") && has("shard") {
        count::merge(paths).map(|c| Merged::Count(Box::new(c)))
    } else {
        solve::merge(paths).map(|m| Merged::Solve(Box::new(m)))
    }
}

/// Shard numbers, comma-separated.
pub fn list(v: &[usize]) -> String {
    v.iter()
        .map(|k| k.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What makes shards shares of one run: compared across the files.
pub(super) struct Identity {
    /// What the shards hold, for the message ("the puzzle crazy-sheep").
    pub(super) what: String,
    pub(super) fingerprint: String,
    options: String,
    count: usize,
    version: String,
}

impl Identity {
    /// How `self` differs from `first`, if it does.
    fn differs(&self, first: &Identity) -> Option<String> {
        if self.fingerprint != first.fingerprint {
            Some(format!("{} against {}", self.what, first.what))
        } else if self.options != first.options {
            Some(format!(
                "other options ({} against {})",
                self.options, first.options
            ))
        } else if self.count != first.count {
            Some(format!(
                "another shard count ({} against {})",
                self.count, first.count
            ))
        } else if self.version != first.version {
            Some(format!(
                "another version ({} against {})",
                self.version, first.version
            ))
        } else {
            None
        }
    }

    /// An error if the shard in `path` is not of the same run as the one in
    /// `first_path`.
    pub(super) fn check(
        &self,
        path: &Path,
        first: &Identity,
        first_path: &Path,
    ) -> Result<(), MergeError> {
        match self.differs(first) {
            Some(what) => Err(MergeError::Mismatch(format!(
                "{} and {} are shards of different runs: {what}",
                first_path.display(),
                path.display()
            ))),
            None => Ok(()),
        }
    }
}

/// Record that `path` is shard `index` of `count`: an error if another
/// file is, or there is no such shard.
pub(super) fn claim<'a>(
    seen: &mut [Option<&'a Path>],
    path: &'a Path,
    index: usize,
    count: usize,
) -> Result<(), MergeError> {
    match seen.get_mut(index) {
        Some(Some(other)) => Err(MergeError::Mismatch(format!(
            "{} and {} are both shard {index}/{count}",
            other.display(),
            path.display(),
        ))),
        Some(slot) => {
            *slot = Some(path);
            Ok(())
        }
        None => Err(MergeError::Mismatch(format!(
            "{}: shard {index}/{count} does not exist",
            path.display(),
        ))),
    }
}
