//! What every kind of shard output shares when merged (`scramble merge`,
//! docs/distributed.md): the merge's errors, and the check that shards
//! belong to one run and that each shard is there once. Each command's own
//! merge (solve/merge.rs, count/merge.rs, bench/merge.rs) builds on it.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// A shard output that cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
    #[error("{0}")]
    Mismatch(String),
}

/// Shard numbers, comma-separated.
pub(crate) fn list(v: &[usize]) -> String {
    v.iter()
        .map(|k| k.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What makes shards shares of one run: compared across the files.
pub(crate) struct Identity {
    /// What the shards hold, for the message ("the puzzle crazy-sheep").
    pub(crate) what: String,
    pub(crate) fingerprint: String,
    pub(crate) options: String,
    pub(crate) count: usize,
    pub(crate) version: String,
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
    pub(crate) fn check(
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
pub(crate) fn claim<'a>(
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
