//! Writing files whole or not at all: the one place outputs and checkpoints
//! are written, below every layer that writes (render, best, count, cli).

use std::io::Write;
use std::path::Path;

/// Write a file whole or not at all: into a temporary file beside it (mode
/// 0666 less the umask, like any new file), flushed to the disk, then
/// renamed over it; on any error the temporary file is removed, and the
/// old file, if any, is left as it was.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".scramble-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
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
        assert!(write_whole(&missing, b"x").is_err());
        assert!(!missing.exists());
    }
}
