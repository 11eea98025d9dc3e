//! Faults from outside (docs/reliability.md): a CP-SAT library that is
//! truncated or of another version, standard output on a full disk, an
//! output folder on a full disk or without write permission, a puzzle file
//! that changes or disappears while a batch runs. Each gets a clear error
//! (or, for the batch, the puzzle as it was checked), never a panic, and
//! nothing half-written left looking complete.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{cmd, seed};
use predicates::prelude::*;

/// The CP-SAT library scramble loads here, if any.
fn library() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SCRAMBLE_CPSAT_LIB") {
        let p = PathBuf::from(p);
        let p = if p.is_dir() {
            p.join("libortools.so.9")
        } else {
            p
        };
        return p.is_file().then_some(p);
    }
    let local = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".cpsat/ortools-9.15.6755/ortools/.libs/libortools.so.9");
    local.is_file().then_some(local)
}

#[test]
fn a_truncated_library_is_a_clear_error() {
    let Some(lib) = library() else {
        common::missing(
            "the CP-SAT runtime",
            "a truncated copy of it is loaded",
            "run `bash scripts/install/cpsat`",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("libortools.so.9");
    let bytes = std::fs::read(&lib).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    cmd()
        .env("SCRAMBLE_CPSAT_LIB", &cut)
        .args(["solve", seed().to_str().unwrap()])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("cannot load the CP-SAT runtime"))
        .stderr(predicate::str::contains(cut.to_str().unwrap()))
        .stderr(predicate::str::contains("scripts/install/cpsat"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn a_library_of_another_version_is_a_clear_error() {
    // A stand-in for OR-Tools 9.14: the C API's entry points (never called)
    // and the version functions scramble reads, compiled with the system's C
    // compiler (the one Rust links with).
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("stub.c");
    std::fs::write(
        &src,
        "void *SolveCpNewEnv(void) { return 0; }\n\
         void SolveCpDestroyEnv(void *e) { (void)e; }\n\
         void SolveCpStopSearch(void *e) { (void)e; }\n\
         void SolveCpInterruptible(void *e, const void *m, int ml, const void *p, int pl,\n\
                                   void **o, int *ol) { (void)e; (void)m; (void)ml; (void)p;\n\
                                   (void)pl; *o = 0; *ol = 0; }\n\
         int _ZN19operations_research19OrToolsMajorVersionEv(void) { return 9; }\n\
         int _ZN19operations_research19OrToolsMinorVersionEv(void) { return 14; }\n\
         int _ZN19operations_research19OrToolsPatchVersionEv(void) { return 6206; }\n",
    )
    .unwrap();
    let lib = dir.path().join("libortools.so.9");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let built = Command::new(&cc)
        .args(["-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(&src)
        .status();
    if !matches!(built, Ok(s) if s.success()) {
        common::missing(
            "a C compiler",
            &format!("`{cc}` builds a stand-in library of another OR-Tools version"),
            "apt install gcc",
        );
        return;
    }
    cmd()
        .env("SCRAMBLE_CPSAT_LIB", &lib)
        .args(["solve", seed().to_str().unwrap()])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "is OR-Tools 9.14.6206, but scramble needs 9.15.6755",
        ))
        .stderr(predicate::str::contains("scripts/install/cpsat"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn standard_output_on_a_full_disk_is_an_error() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        common::missing("/dev/full", "it stands for a full disk", "run on Linux");
        return;
    }
    for format in ["text", "json", "jsonl"] {
        let out = Command::new(assert_cmd::cargo::cargo_bin!("scramble"))
            .args(["solve", seed().to_str().unwrap(), "--solver", "backtrack"])
            .args(["--format", format])
            .stdout(std::fs::File::create(full).unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{format}: {stderr}");
        assert!(
            stderr.contains("standard output: cannot write: No space left on device"),
            "{format}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{format}: {stderr}");
    }
}

/// `scramble ARGS` run by bash after `prefix` (e.g. limits), the ignored
/// signals and limits passing on to scramble through `exec`.
fn under_shell(prefix: &str, args: &[&str]) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin!("scramble");
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    Command::new("bash")
        .arg("-c")
        .arg(format!(
            "{prefix}; exec '{}' {}",
            bin.display(),
            quoted.join(" ")
        ))
        .output()
        .unwrap()
}

#[test]
fn an_output_folder_on_a_full_disk_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pictures");
    let out_s = out.to_str().unwrap();
    // A file size limit of 16 KB stands for a disk that fills while the
    // folder is written (its SVG and HTML files are bigger); SIGXFSZ is
    // ignored so the write fails with an error instead of killing the
    // process, as on a full disk.
    let seed = seed();
    let args = [
        "solve",
        seed.to_str().unwrap(),
        "--solver",
        "backtrack",
        "--out",
        out_s,
    ];
    let r = under_shell("trap '' XFSZ; ulimit -f 16", &args);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    assert!(stderr.contains("pictures"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // No folder that looks written, and no temporary folder left beside it.
    assert!(!out.join("index.html").exists());
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        left.is_empty() || left == [std::ffi::OsString::from("pictures")],
        "{left:?}"
    );
    // The same run without the limit writes the folder.
    let r = under_shell("true", &args);
    assert_eq!(r.status.code(), Some(0));
    assert!(out.join("index.html").exists());
}

#[test]
fn an_output_folder_without_write_permission_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    let out = locked.join("pictures");
    let file = locked.join("model.txt");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root ignores permissions: run as nobody (setpriv, util-linux) then.
    let prefix = if is_root() {
        if Command::new("setpriv").arg("--version").output().is_err() {
            common::missing(
                "setpriv",
                "the tests run as root, which ignores permissions; setpriv runs scramble as nobody",
                "apt install util-linux",
            );
            return;
        }
        "exec setpriv --reuid=65534 --regid=65534 --clear-groups --"
    } else {
        ""
    };
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // nobody may not reach the checkout (under /root, say): the binary and
    // the puzzle are copied beside the locked folder, readable by anyone.
    let bin = dir.path().join("scramble");
    std::fs::copy(assert_cmd::cargo::cargo_bin!("scramble"), &bin).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let puzzle = dir.path().join("seed.yaml");
    std::fs::copy(seed().join("input/tile_dict.yaml"), &puzzle).unwrap();
    std::fs::set_permissions(&puzzle, std::fs::Permissions::from_mode(0o644)).unwrap();
    let run = |extra: &[&str]| {
        Command::new("bash")
            .arg("-c")
            .arg(format!(
                "{prefix} '{}' solve '{}' --solver backtrack {}",
                bin.display(),
                puzzle.display(),
                extra.join(" ")
            ))
            .output()
            .unwrap()
    };
    for extra in [
        vec!["--out", out.to_str().unwrap()],
        vec!["--dump-model", file.to_str().unwrap()],
    ] {
        let r = run(&extra);
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains("Permission denied"), "{extra:?}: {stderr}");
        assert!(stderr.contains("locked"), "{extra:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{extra:?}: {stderr}");
    }
    assert_eq!(std::fs::read_dir(&locked).unwrap().count(), 0);
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

#[test]
fn a_batch_runs_the_puzzles_as_they_were_checked() {
    // A batch loads and checks every puzzle before its first run; a file
    // changed into garbage or removed while an earlier run is searching
    // does not change what the batch solves, and nothing fails.
    let dir = tempfile::tempdir().unwrap();
    let slow = dir.path().join("a-slow.yaml");
    std::fs::copy(common::corpus().join("the-ant-trails-puzzle.yaml"), &slow).unwrap();
    let changed = dir.path().join("b-changed.yaml");
    let removed = dir.path().join("c-removed.yaml");
    let seed_yaml = std::fs::read_to_string(seed().join("input/tile_dict.yaml")).unwrap();
    std::fs::write(&changed, &seed_yaml).unwrap();
    std::fs::write(&removed, &seed_yaml).unwrap();
    let json = dir.path().join("runs.json");
    let child = Command::new(assert_cmd::cargo::cargo_bin!("scramble"))
        .arg("bench")
        .args([&slow, &changed, &removed])
        .args([
            "--solvers",
            "backtrack",
            "--time-limit",
            "9",
            "--threads",
            "1",
        ])
        .arg("--json")
        .arg(&json)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Loading takes milliseconds; the first run searches for its share of
    // the limit, 3 s.
    std::thread::sleep(std::time::Duration::from_millis(1000));
    std::fs::write(&changed, "1: [[a, '+']]\nnot yaml: [\n").unwrap();
    std::fs::remove_file(&removed).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // One JSON object per line, a run each.
    let runs: Vec<serde_json::Value> = std::fs::read_to_string(&json)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(runs.len(), 3);
    for r in &runs[1..] {
        assert_eq!(r["complete"], true, "{r}");
        assert_eq!(r["raw"], 4, "{r}");
    }
    assert_eq!(runs[0]["complete"], false);
}
