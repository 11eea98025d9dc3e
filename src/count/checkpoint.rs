//! Checkpoints of a counting enumeration: which work units are finished and
//! what each counted, so a long count survives a restart, and the wall time
//! all runs have spent on it (as of each write, so a run that is killed
//! still leaves its time up to its last write). The file is JSON,
//! rewritten whole (`files::write_whole`) at most once a second
//! and when the run ends.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::files::CheckpointError;
use crate::puzzle::Puzzle;
use crate::solve::UnitCounts;

const FORMAT: &str = "scramble-count-checkpoint/1";

#[derive(Debug, Serialize, Deserialize)]
struct File {
    format: String,
    puzzle: String,
    /// A hash of the board size and every tile's id and edges.
    fingerprint: String,
    /// The solver and its search order, and the scramble version: the
    /// work units are only the same for the same search.
    search: String,
    version: String,
    /// Finished units: [labelled, classes, picture weight] each.
    done: BTreeMap<usize, [u128; 3]>,
    /// Wall seconds of all runs up to the last write (absent in files
    /// written before it was recorded: 0).
    #[serde(default)]
    seconds: f64,
}

/// An open checkpoint.
pub(super) struct Checkpoint {
    path: PathBuf,
    file: File,
    /// When this run opened it, and the seconds of the runs before.
    opened: Instant,
    before: f64,
    last_write: Instant,
    /// The first error writing it, reported when the run ends.
    pub(super) write_error: Option<CheckpointError>,
}

impl Checkpoint {
    /// The search an existing checkpoint at `path` was made by, if it
    /// reads as one.
    pub(super) fn search_of(path: &Path) -> Option<String> {
        let bytes = std::fs::read(path).ok()?;
        serde_json::from_slice::<File>(&bytes)
            .ok()
            .map(|f| f.search)
    }

    /// Opens `path` for `puzzle` and `search`: its finished units if it
    /// exists, none if not; an error if it belongs to another count.
    pub(super) fn open(
        path: &Path,
        puzzle: &Puzzle,
        search: &str,
    ) -> Result<Checkpoint, CheckpointError> {
        let err = |message: String| CheckpointError {
            path: path.to_path_buf(),
            message,
        };
        let fresh = File {
            format: FORMAT.into(),
            puzzle: puzzle.name().to_string(),
            fingerprint: puzzle.fingerprint(),
            search: search.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            done: BTreeMap::new(),
            seconds: 0.0,
        };
        let file = match std::fs::read(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => fresh,
            Err(e) => return Err(err(format!("cannot read: {e}"))),
            Ok(bytes) => {
                let f: File = serde_json::from_slice(&bytes)
                    .map_err(|e| err(format!("not a count checkpoint: {e}")))?;
                let mismatch = if f.format != FORMAT {
                    Some(format!("format {:?}, expected {FORMAT:?}", f.format))
                } else if f.fingerprint != fresh.fingerprint {
                    Some(format!(
                        "made for another puzzle ({}), not {}",
                        f.puzzle,
                        puzzle.name()
                    ))
                } else if f.search != fresh.search || f.version != fresh.version {
                    Some(format!(
                        "made by another search ({} in scramble {}), not {} in scramble {}",
                        f.search, f.version, fresh.search, fresh.version
                    ))
                } else {
                    None
                };
                if let Some(m) = mismatch {
                    return Err(err(format!("{m}; remove it or name another file")));
                }
                f
            }
        };
        Ok(Checkpoint {
            path: path.to_path_buf(),
            before: file.seconds,
            file,
            opened: Instant::now(),
            last_write: Instant::now(),
            write_error: None,
        })
    }

    /// The finished units.
    pub(super) fn done(&self) -> impl Iterator<Item = usize> + '_ {
        self.file.done.keys().copied()
    }

    /// Wall seconds of all runs so far, this one included.
    pub(super) fn seconds(&self) -> f64 {
        self.before + self.opened.elapsed().as_secs_f64()
    }

    /// What the finished units counted, summed.
    pub(super) fn counted(&self) -> UnitCounts {
        self.file
            .done
            .values()
            .fold(UnitCounts::default(), |a, &[raw, classes, w]| UnitCounts {
                raw: a.raw.saturating_add(raw),
                classes: a.classes.saturating_add(classes),
                picture_weight: a.picture_weight.saturating_add(w),
            })
    }

    /// Records a finished unit; writes the file if a second has passed.
    pub(super) fn finish(&mut self, unit: usize, c: UnitCounts) {
        self.record(unit, [c.raw, c.classes, c.picture_weight]);
    }

    /// What a finished unit recorded, if it is finished.
    pub(super) fn get(&self, unit: usize) -> Option<[u128; 3]> {
        self.file.done.get(&unit).copied()
    }

    /// Records a finished unit's numbers (a method's own three); writes
    /// the file if a second has passed.
    pub(super) fn record(&mut self, unit: usize, numbers: [u128; 3]) {
        self.file.done.insert(unit, numbers);
        if self.last_write.elapsed() >= Duration::from_secs(1) {
            self.write();
        }
    }

    /// Writes the file whole (keeps the first error).
    pub(super) fn write(&mut self) {
        self.last_write = Instant::now();
        self.file.seconds = self.seconds();
        if let Err(e) = self.try_write() {
            self.write_error.get_or_insert(CheckpointError {
                path: self.path.clone(),
                message: format!("cannot write: {e}"),
            });
        }
    }

    fn try_write(&self) -> std::io::Result<()> {
        let mut text = serde_json::to_string(&self.file).map_err(std::io::Error::other)?;
        text.push('\n');
        crate::files::write_whole(&self.path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(name: &str) -> Puzzle {
        Puzzle::load(Path::new(&format!("puzzles/legespiel/{name}.yaml"))).unwrap()
    }

    #[test]
    fn a_checkpoint_round_trips_and_refuses_another_puzzle() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.json");
        let p = puzzle("crazy-sheep");
        let mut c = Checkpoint::open(&path, &p, "spiral").unwrap();
        assert_eq!(c.done().count(), 0);
        let one = UnitCounts {
            raw: 8,
            classes: 2,
            picture_weight: 8,
        };
        c.finish(3, one);
        c.finish(5, one);
        c.write();
        assert!(c.write_error.is_none());
        let again = Checkpoint::open(&path, &p, "spiral").unwrap();
        assert_eq!(again.done().collect::<Vec<_>>(), vec![3, 5]);
        assert_eq!(
            again.counted(),
            UnitCounts {
                raw: 16,
                classes: 4,
                picture_weight: 16
            }
        );
        let other = Checkpoint::open(&path, &puzzle("der-sternenhimmel"), "spiral");
        let e = other.err().unwrap().to_string();
        assert!(e.contains("made for another puzzle (crazy-sheep)"), "{e}");
        let e = Checkpoint::open(&path, &p, "row")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("another search"), "{e}");
        std::fs::write(&path, "{").unwrap();
        let e = Checkpoint::open(&path, &p, "spiral")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("not a count checkpoint"), "{e}");
    }

    #[test]
    fn the_seconds_of_all_runs_add_up_and_older_files_start_at_zero() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.json");
        let p = puzzle("crazy-sheep");
        let mut c = Checkpoint::open(&path, &p, "spiral").unwrap();
        std::thread::sleep(Duration::from_millis(20));
        c.write();
        let first = c.file.seconds;
        assert!(first >= 0.02, "{first}");
        let mut again = Checkpoint::open(&path, &p, "spiral").unwrap();
        assert_eq!(again.before, first);
        std::thread::sleep(Duration::from_millis(20));
        again.write();
        assert!(again.file.seconds >= first + 0.02, "{}", again.file.seconds);
        // A file from before the field: its time is unknown, counted as 0.
        let mut v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        std::fs::write(&path, v.to_string()).unwrap();
        let old = Checkpoint::open(&path, &p, "spiral").unwrap();
        assert_eq!(old.before, 0.0);
    }

    #[test]
    fn a_write_error_is_kept_not_raised() {
        let p = puzzle("crazy-sheep");
        let mut c = Checkpoint::open(Path::new("/no/such/dir/c.json"), &p, "spiral").unwrap();
        c.write();
        let e = c.write_error.unwrap().to_string();
        assert!(
            e.starts_with("checkpoint /no/such/dir/c.json: cannot write"),
            "{e}"
        );
    }
}
