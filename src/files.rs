//! Writing files whole or not at all: the one place outputs and checkpoints
//! are written, below every layer that writes (render, best, count, cli).

use std::io::Write;
use std::path::Path;

/// A checkpoint (of `best` or `count`) that cannot be used or written,
/// naming its file.
#[derive(Debug, thiserror::Error)]
#[error("checkpoint {path}: {message}")]
pub(crate) struct CheckpointError {
    pub path: std::path::PathBuf,
    pub message: String,
}

/// The folder a file at `path` goes into.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Whether a file can be written at `path`, checked before the work that
/// ends with writing it: its folder exists and takes a new file (one is
/// made there and removed). Errors name no temporary file.
pub(crate) fn can_write_in(path: &Path) -> std::io::Result<()> {
    let dir = folder_of(path);
    if !dir.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("no folder {}", dir.display()),
        ));
    }
    tempfile::Builder::new()
        .prefix(".scramble-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map(drop)
        .map_err(plain)
}

/// The same error without the temporary file's name that `tempfile` adds
/// (its message is the system's, then ` at path "..."`).
pub(crate) fn plain(e: std::io::Error) -> std::io::Error {
    if let Some(code) = e.raw_os_error() {
        return std::io::Error::from_raw_os_error(code);
    }
    let message = e.to_string();
    match message.find(" at path ") {
        Some(at) => std::io::Error::new(e.kind(), &message[..at]),
        None => e,
    }
}

/// Write a file whole or not at all: into a temporary file beside it (mode
/// 0666 less the umask, like any new file), flushed to the disk, then
/// renamed over it; on any error the temporary file is removed, and the
/// old file, if any, is left as it was.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = folder_of(path);
    if !dir.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("no folder {}", dir.display()),
        ));
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(".scramble-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(plain)?;
    tmp.write_all(bytes).map_err(plain)?;
    tmp.as_file().sync_all().map_err(plain)?;
    tmp.persist(path).map_err(|e| plain(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        write_whole(&path, b"first").unwrap();
        write_whole(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.json")]);
        // A folder that does not exist: an error, nothing written.
        let missing = dir.path().join("no").join("out.json");
        let e = write_whole(&missing, b"x").unwrap_err();
        assert!(!missing.exists());
        assert!(e.to_string().contains("no folder"), "{e}");
        assert!(can_write_in(&missing).is_err());
        assert!(can_write_in(&path).is_ok());
        // A folder that takes no new file: the error names no temporary file.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let locked = dir.path().join("locked");
            std::fs::create_dir(&locked).unwrap();
            std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o500)).unwrap();
            let inside = locked.join("out.json");
            // Root writes anyway; only an unprivileged user sees the error.
            if let Err(e) = write_whole(&inside, b"x") {
                assert!(!e.to_string().contains(".scramble-"), "{e}");
                assert!(can_write_in(&inside).is_err());
            }
        }
    }
}
