//! `scramble solve --out DIR`: the pictures and texts of a result in one
//! folder. `unsolved.svg`/`.png`, `k.txt`/`.svg`/`.png` per solution shown,
//! `solutions.json` and `index.html`.
//!
//! Safety: a folder scramble did not make (no marker file) that is not empty
//! is refused unless forced; every file is written to a temporary name in
//! the folder and renamed; the only files removed are ones the marker lists
//! from scramble's previous run there; nothing outside the folder is touched.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::commands::solve::json;
use crate::render::images::TileImages;
use crate::render::png::{self, PngError};
use crate::render::{Report, html, svg};

/// The marker file: scramble made this folder, and wrote these files.
pub(crate) const MARKER: &str = ".scramble-output";

#[derive(Debug, Error)]
pub enum FolderError {
    #[error("{}: exists and is not a folder", .0.display())]
    NotAFolder(PathBuf),
    #[error(
        "{}: the folder is not empty and was not made by scramble; choose another folder, or add --force to write into it",
        .0.display()
    )]
    NotOurs(PathBuf),
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },
    #[error(transparent)]
    Png(#[from] PngError),
}

/// One file of the folder.
pub(crate) struct File {
    pub name: String,
    pub bytes: Vec<u8>,
}

fn io(path: &Path, what: &str, e: std::io::Error) -> FolderError {
    FolderError::Io {
        path: path.to_path_buf(),
        message: format!("cannot {what}: {e}"),
    }
}

/// Whether scramble may write into `dir`: it does not exist, is empty, was
/// made by scramble, or `force`. Checked before solving, so a refusal comes
/// at once.
pub(crate) fn check(dir: &Path, force: bool) -> Result<(), FolderError> {
    if !dir.exists() {
        // It will be made: its nearest existing folder must take a new
        // folder (checked by making one there).
        let mut up = dir.parent();
        while let Some(p) = up {
            let p = if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            };
            if p.exists() {
                if !p.is_dir() {
                    return Err(FolderError::NotAFolder(p.to_path_buf()));
                }
                return tempfile::Builder::new()
                    .prefix(".scramble-out-")
                    .tempdir_in(p)
                    .map(drop)
                    .map_err(|e| io(p, "create a folder in", crate::files::plain(e)));
            }
            up = p.parent();
        }
        return Ok(());
    }
    if !dir.is_dir() {
        return Err(FolderError::NotAFolder(dir.to_path_buf()));
    }
    let mut entries = std::fs::read_dir(dir).map_err(|e| io(dir, "read the folder", e))?;
    if force || dir.join(MARKER).is_file() || entries.next().is_none() {
        Ok(())
    } else {
        Err(FolderError::NotOurs(dir.to_path_buf()))
    }
}

/// Every file of the folder for a result. The solutions shown are the
/// canonical ones, or every raw one with `--all`; pictures and texts for
/// the first `max` of them (solutions.json holds them all). `keep_going`
/// is asked before each picture: once it says no, drawing stops, and the
/// files are those pictures drawn so far with every text, solutions.json
/// and index.html (which says how many are drawn); the second value says
/// whether drawing stopped early.
pub(crate) fn files(
    r: &Report<'_>,
    images: Option<&TileImages>,
    max: usize,
    keep_going: &dyn Fn() -> bool,
) -> Result<(Vec<File>, bool), PngError> {
    let p = r.puzzle;
    let mut out = Vec::new();
    let mut picture = |stem: &str, svg: String| -> Result<(), PngError> {
        let png = png::from_svg(&svg)?;
        out.push(File {
            name: format!("{stem}.svg"),
            bytes: svg.into_bytes(),
        });
        out.push(File {
            name: format!("{stem}.png"),
            bytes: png,
        });
        Ok(())
    };
    // The unsolved board too is drawn only while there is time (a 16x16's
    // PNG takes seconds).
    let mut cut = !keep_going();
    if !cut {
        picture("unsolved", svg::unsolved_picture(p, images))?;
    }
    let list = r.shown();
    let list = &list[..list.len().min(max)];
    let mut drawn = 0;
    for (k, s) in list.iter().enumerate() {
        if cut || !keep_going() {
            cut = true;
            break;
        }
        picture(&(k + 1).to_string(), svg::solution_picture(p, s, images))?;
        drawn += 1;
    }
    for (k, s) in list.iter().enumerate() {
        out.push(File {
            name: format!("{}.txt", k + 1),
            bytes: s.to_seed_text().into_bytes(),
        });
    }
    out.push(File {
        name: "solutions.json".into(),
        bytes: json::render(r).into_bytes(),
    });
    out.push(File {
        name: "index.html".into(),
        bytes: html::index(r, drawn).into_bytes(),
    });
    Ok((out, cut))
}

/// A plain file name (no folder part), as scramble writes.
fn plain(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\']) && name != MARKER
}

/// Write `files` into `dir`, after `check`. Every file is first written
/// whole into a temporary folder beside `dir`, so a failure there (a full
/// disk) leaves `dir` as it was and no folder that looks written. Then a
/// new folder is that temporary folder renamed; into an existing one (an
/// empty one, scramble's own, or someone else's with `--force`) the files
/// are renamed one by one, the marker last, and the files the previous run
/// there listed and this one does not write are removed. Other files in it
/// are left alone.
pub(crate) fn write(dir: &Path, files: &[File], force: bool) -> Result<(), FolderError> {
    check(dir, force)?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| io(&parent, "create the folder", e))?;
    // rwxr-xr-x less the umask, like any new folder (not the private
    // mode temporary folders get).
    let tmp = tempfile::Builder::new()
        .prefix(".scramble-out-")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .tempdir_in(&parent)
        .map_err(|e| {
            io(
                &parent,
                "create a temporary folder in",
                crate::files::plain(e),
            )
        })?;
    let mut names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    for f in files {
        assert!(plain(&f.name), "an output file name with a path in it");
        let path = tmp.path().join(&f.name);
        std::fs::write(&path, &f.bytes).map_err(|e| io(&dir.join(&f.name), "write", e))?;
    }
    let path = tmp.path().join(MARKER);
    std::fs::write(&path, marker(files)).map_err(|e| io(&dir.join(MARKER), "write", e))?;
    if !dir.exists() {
        std::fs::rename(tmp.path(), dir).map_err(|e| io(dir, "rename the written folder to", e))?;
        // The temporary folder is now `dir`: nothing left to remove.
        let _ = tmp.keep();
        return Ok(());
    }
    let before: Vec<String> = std::fs::read_to_string(dir.join(MARKER))
        .map(|s| s.lines().skip(1).map(str::to_string).collect())
        .unwrap_or_default();
    names.push(MARKER);
    for name in &names {
        let to = dir.join(name);
        std::fs::rename(tmp.path().join(name), &to).map_err(|e| io(&to, "write", e))?;
    }
    for old in before.iter().filter(|n| plain(n)) {
        if !files.iter().any(|f| &f.name == old) {
            let path = dir.join(old);
            if path.is_file() {
                std::fs::remove_file(&path).map_err(|e| io(&path, "remove", e))?;
            }
        }
    }
    Ok(())
}

/// The marker file's text for a run that wrote `files`.
fn marker(files: &[File]) -> String {
    let mut list = String::from("scramble output folder; files of its last run:\n");
    for f in files {
        list.push_str(&f.name);
        list.push('\n');
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> File {
        File {
            name: name.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn makes_refuses_and_reuses() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        write(&dir, &[file("1.txt", "a"), file("2.txt", "b")], false).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("2.txt")).unwrap(), "b");
        // Ours: rewritten, and the file this run does not write is removed;
        // a file the user put there stays.
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        write(&dir, &[file("1.txt", "c")], false).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("1.txt")).unwrap(), "c");
        assert!(!dir.join("2.txt").exists());
        assert_eq!(
            std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
            "mine"
        );
        // No temporary folder left beside it.
        let beside: Vec<String> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(beside, ["out"]);
        // No temporary files left.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.contains(".tmp-")), "{names:?}");

        // Someone else's folder: refused, untouched; --force writes.
        let theirs = tmp.path().join("theirs");
        std::fs::create_dir(&theirs).unwrap();
        std::fs::write(theirs.join("1.txt"), "mine").unwrap();
        assert!(matches!(
            write(&theirs, &[file("1.txt", "x")], false),
            Err(FolderError::NotOurs(_))
        ));
        assert_eq!(
            std::fs::read_to_string(theirs.join("1.txt")).unwrap(),
            "mine"
        );
        write(&theirs, &[file("2.txt", "x")], true).unwrap();
        assert_eq!(
            std::fs::read_to_string(theirs.join("1.txt")).unwrap(),
            "mine"
        );

        // A file is not a folder.
        let f = tmp.path().join("file");
        std::fs::write(&f, "x").unwrap();
        assert!(matches!(check(&f, true), Err(FolderError::NotAFolder(_))));
    }

    #[test]
    fn only_plain_names_are_removed() {
        assert!(plain("3.png"));
        for bad in ["", ".", "..", "../x", "a/b", MARKER] {
            assert!(!plain(bad), "{bad}");
        }
    }
}
