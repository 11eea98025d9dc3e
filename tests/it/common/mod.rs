//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

use scramble::puzzle::Puzzle;
use scramble::solve::SolveOptions;
use scramble::symmetry::{Equivalence, Symmetry};

/// The combinations documented exact, each with the equivalence it is exact
/// for (docs/symmetry.md).
pub const EXACT: [(&str, Equivalence); 5] = [
    ("center", Equivalence::Rotation),
    ("corner", Equivalence::Rotation),
    ("lex", Equivalence::Rotation),
    ("anchor", Equivalence::Rotation),
    ("picture-lex,tiles", Equivalence::Picture),
];

/// Solve options for each documented-exact combination whose precondition
/// holds on the puzzle (symmetry and equivalence set, defaults otherwise).
pub fn exact_options(p: &Puzzle) -> Vec<(&'static str, SolveOptions)> {
    EXACT
        .iter()
        .filter_map(|&(name, equivalence)| {
            let symmetry: Symmetry = name.parse().unwrap();
            symmetry.check(p).ok()?;
            Some((
                name,
                SolveOptions {
                    symmetry,
                    equivalence,
                    ..SolveOptions::default()
                },
            ))
        })
        .collect()
}

/// The seed puzzle inside the repo.
pub fn seed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/3x3-original")
}

/// The Legespiel corpus, copied into the repo from ../shared.
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/legespiel")
}

/// A file of the Eternity II corpus, copied into the repo from ../shared
/// (`""`: the folder).
pub fn e2(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles/eternity2")
        .join(name)
}

/// One row of the corpus' expected.tsv.
#[derive(Debug, Clone)]
pub struct Expected {
    pub file: String,
    pub n: usize,
    pub raw: Option<u64>,
    pub classes: Option<u64>,
    pub pictures: Option<u64>,
}

///
/// Counts past 2^64 (the-ant-trails-puzzle's 1e34 labelled solutions,
/// found by the programme at roots of unity) read as unknown: no test
/// enumerates them ([`expected_text`] gives the row as written).
pub fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(corpus().join("expected.tsv"))
        .expect("puzzles/legespiel/expected.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("file\t") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n = f[1].split('x').next().unwrap().parse().unwrap();
            let raw: Option<u64> = f[2].parse().ok();
            Expected {
                file: f[0].to_string(),
                n,
                raw,
                classes: raw.and(f[3].parse().ok()),
                pictures: raw.and(f[4].parse().ok()),
            }
        })
        .collect()
}

/// The fields of the corpus' expected.tsv row of `file`, as written.
pub fn expected_text(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(corpus().join("expected.tsv"))
        .expect("puzzles/legespiel/expected.tsv");
    text.lines()
        .map(|l| l.split('\t').map(str::to_string).collect::<Vec<_>>())
        .find(|f| f[0] == file)
        .unwrap_or_else(|| panic!("{file} in expected.tsv"))
}

/// Set by scripts/test (and so by CI): a missing dependency fails the test
/// that needs it instead of skipping it, so a run can never pass by
/// skipping.
pub const REQUIRE_ENV: &str = "SCRAMBLE_TEST_REQUIRE_ALL";

/// A dependency a test needs is missing: say which, why and how to get it,
/// and return false so the test can skip; panic under [`REQUIRE_ENV`].
pub fn missing(what: &str, why: &str, fix: &str) -> bool {
    let message = format!("{what} is missing ({why}); {fix}");
    if std::env::var_os(REQUIRE_ENV).is_some() {
        panic!("{message} ({REQUIRE_ENV} is set: nothing may be skipped)");
    }
    // Straight to stderr, past the test harness's capture, so the reason
    // shows in an ordinary `cargo test` run.
    let _ = writeln!(std::io::stderr(), "SKIPPED: {message}");
    false
}

/// Whether the CP-SAT runtime loads; if not, see [`missing`].
pub fn has_cpsat() -> bool {
    match scramble::engines::cpsat::CpSat::new() {
        Ok(_) => true,
        Err(e) => missing(
            "the CP-SAT runtime",
            &e.to_string(),
            "run `bash scripts/install/cpsat`",
        ),
    }
}

pub fn cmd() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("scramble").unwrap()
}

/// Run `scramble ARGS --format json` and parse stdout.
pub fn solve_json(args: &[&str]) -> (serde_json::Value, i32) {
    let out = cmd()
        .arg("solve")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): stdout {} stderr {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, code)
}

/// Stdout of a run that must have exited 0 (stderr shown if it did not).
pub fn stdout_ok(out: &std::process::Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Send SIGINT (Ctrl-C) to a running child, once it handles SIGINT: on a
/// loaded machine a child may not have installed its handler yet when the
/// caller's sleep ends, and SIGINT would then kill it outright.
pub fn interrupt(child: &std::process::Child) {
    interrupt_burst(child, 1);
}

/// Send `n` SIGINTs to a running child in one instant (one `kill` call,
/// as GNU `timeout` or a terminal signalling the process and its group
/// does), once it handles SIGINT.
pub fn interrupt_burst(child: &std::process::Child, n: usize) {
    wait_for_sigint_handler(child.id());
    let pid = child.id().to_string();
    let sent = std::process::Command::new("kill")
        .arg("-INT")
        .args(std::iter::repeat_n(&pid, n))
        .status()
        .unwrap();
    assert!(sent.success());
}

/// A solve report (JSON) as a sharded run must reproduce it: without its
/// times and CP-SAT's search statistics (which differ between two
/// unsharded runs too), and without the node counts unless `nodes`.
pub fn comparable_report(mut v: serde_json::Value, nodes: bool) -> serde_json::Value {
    let o = v.as_object_mut().unwrap();
    o.remove("wall_time_s");
    o.remove("time_to_first_s");
    let stats = o["solver_stats"].as_object_mut().unwrap();
    for k in [
        "wall_time_s",
        "build_time_s",
        "memory_limit_mb",
        "nodes_per_second",
        "branches",
        "conflicts",
        "subproblems",
        "subproblems_split",
        "max_split_depth",
    ] {
        stats.remove(k);
    }
    if !nodes {
        stats.remove("nodes");
        stats.remove("nodes_per_depth");
    }
    v
}

/// `scramble render PUZZLE --solution SOLUTION -o OUT` succeeds: the board
/// verifies against the puzzle and is drawn.
pub fn draws(puzzle: &Path, solution: &Path, out: &Path) {
    cmd()
        .arg("render")
        .arg(puzzle)
        .arg("--solution")
        .arg(solution)
        .arg("-o")
        .arg(out)
        .assert()
        .success();
}

/// Wait until process `pid` catches SIGINT (bit 2 of `SigCgt` in
/// /proc/PID/status), or has ended; at most a minute (then the signal goes
/// anyway, and the test reports what happened).
fn wait_for_sigint_handler(pid: u32) {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(60) {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            return;
        };
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|m| u64::from_str_radix(m.trim(), 16).ok());
        match caught {
            Some(mask) if mask & (1 << 1) != 0 => return,
            None => return,
            Some(_) => std::thread::sleep(std::time::Duration::from_millis(5)),
        }
    }
}

/// `scramble generate --size N --motifs M --seed S` into a folder of its
/// own: the folder (kept while it lives) and the first puzzle's path.
pub fn generated(size: u32, motifs: u32, seed: u32) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .arg("generate")
        .args(["--size", &size.to_string(), "--motifs", &motifs.to_string()])
        .args(["--seed", &seed.to_string(), "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let p = dir
        .path()
        .join(format!("{size}x{size}-m{motifs}-s{seed}-0001.yaml"));
    (dir, p)
}
