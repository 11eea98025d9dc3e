//! The fuzz campaign, on stable Rust: corpus files mutated at
//! the byte level and YAML generated from a puzzle grammar, each input at
//! most 64 KB, driven through the loader and what the subcommands do with a
//! loaded puzzle (model sizes, symmetry checks, a time-limited backtracking
//! solve, the unsolved picture), and every 500th input through the binary
//! itself. Fails on a panic, on a solve whose verdict does not hold, on a
//! run over 10 s (a guard against hangs), or on an exit code outside
//! 0-2. Seeded: a failure names its case, and `FUZZ_SEED` + `FUZZ_CASES`
//! replay it.
//!
//! `bash scripts/test` runs 10,000 cases. The campaign (docs/reliability.md):
//! `FUZZ_CASES=1000000 cargo test --release --test it fuzz:: -- --nocapture`

use crate::common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{cmd, corpus};
use scramble::engines::backtrack::Backtrack;
use scramble::generate::Rng;
use scramble::puzzle::Puzzle;
use scramble::solve::{self, Keep, Outcome, SolveOptions, StopReason};
use scramble::symmetry::Symmetry;

const MAX_INPUT: usize = 64 * 1024;
/// A guard against hangs (a loader or limit that never returns), not a speed
/// goal: a case takes milliseconds; 1 s flaked once on a loaded machine.
const SLOW: Duration = Duration::from_secs(10);

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Pieces of YAML worth splicing in: anchors, aliases, merge keys, tags,
/// flow and block syntax, odd numbers and strings.
const TOKENS: &[&str] = &[
    "&a ",
    "*a",
    "<<: *a",
    "!!binary ",
    "!!str ",
    "!!int ",
    "- ",
    ": ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\n",
    "\n  ",
    "#",
    "'",
    "\"",
    "|",
    ">",
    "~",
    "null",
    "-1",
    "0",
    "99999999999999999999",
    "1e400",
    ".nan",
    "-.inf",
    "0x1F",
    "+",
    "-",
    "=",
    "==",
    "é",
    "\u{feff}",
    "\t",
    "---",
    "...",
    "? ",
    "%YAML 1.2",
    "[a, +]",
    "[1, -]",
    "[[0, +], [0, -], [1, =], [1, =]]",
];

/// A corpus file with a few byte-level mutations.
fn mutate(rng: &mut Rng, files: &[Vec<u8>]) -> Vec<u8> {
    let mut b = files[rng.below(files.len())].clone();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(b.len() + 1);
        match rng.below(7) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            1 => b.insert(at, rng.below(256) as u8),
            2 if at < b.len() => {
                let end = (at + 1 + rng.below(64)).min(b.len());
                b.drain(at..end);
            }
            3 if at < b.len() => {
                let end = (at + 1 + rng.below(256)).min(b.len());
                let piece = b[at..end].to_vec();
                let to = rng.below(b.len() + 1);
                b.splice(to..to, piece);
            }
            4 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                b.splice(at..at, t.iter().copied());
            }
            5 => {
                // Splice from another file.
                let o = &files[rng.below(files.len())];
                let from = rng.below(o.len());
                let end = (from + rng.below(512)).min(o.len());
                b.splice(at..at, o[from..end].iter().copied());
            }
            _ => {
                // A line repeated (duplicate ids, longer boards).
                let start = b[..at]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |p| p + 1);
                let end = b[at..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| at + p + 1);
                let line = b[start..end].to_vec();
                b.splice(end..end, line);
            }
        }
    }
    b.truncate(MAX_INPUT);
    b
}

/// A puzzle-like YAML document from a small grammar: well formed about
/// two times in three, else with one kind of defect (counts, ids, types,
/// halves, edges) somewhere.
fn grammar(rng: &mut Rng) -> Vec<u8> {
    let n = [1, 2, 2, 3, 3, 3, 4, 4, 5, 6][rng.below(10)];
    let motifs = 1 + rng.below(2 * n + 2);
    // 0..=5: one kind of defect; otherwise none.
    let defect = rng.below(18);
    let tiles = if defect == 0 { rng.below(40) } else { n * n };
    let bad = |rng: &mut Rng, kind: usize| defect == kind && rng.below(tiles.max(1)) == 0;
    let mut out = String::new();
    if rng.below(4) == 0 {
        out.push_str("title: fuzz\n");
    }
    for k in 0..tiles {
        let id = if bad(rng, 1) {
            ["-3", "x", "99999999999999999999", "1"][rng.below(4)].to_string()
        } else {
            format!("{}", k + 1)
        };
        let edges = if bad(rng, 2) {
            [0, 3, 5][rng.below(3)]
        } else {
            4
        };
        let list: Vec<String> = (0..edges)
            .map(|_| {
                let motif = format!("m{}", rng.below(motifs));
                let half = ["+", "-", "="][rng.below(3)];
                if bad(rng, 3) {
                    ["[x]", "7", "[~, +]", "[m0]", "[m0, +, -]"][rng.below(5)].to_string()
                } else if bad(rng, 4) {
                    format!("[{motif}, {}]", ["?", "''", "null", "++"][rng.below(4)])
                } else {
                    format!("[{motif}, '{half}']")
                }
            })
            .collect();
        if rng.below(2) == 0 {
            out.push_str(&format!("{id}: [{}]\n", list.join(", ")));
        } else {
            out.push_str(&format!("{id}:\n"));
            for e in list {
                out.push_str(&format!("  - {e}\n"));
            }
        }
    }
    if defect == 5 {
        out.push_str(["&a [1]", "x: *a\n", "\t- bad\n", "{", "1: [[m0, +]]\n"][rng.below(5)]);
    }
    let mut b = out.into_bytes();
    b.truncate(MAX_INPUT);
    b
}

/// What the subcommands do with a loaded puzzle, cheaply.
fn exercise(p: &Puzzle) {
    for m in scramble::model::Choice::ALL {
        let _ = m.encoding().size(p);
    }
    for name in ["center", "corner", "lex", "anchor", "picture-lex", "tiles"] {
        let s: Symmetry = name.parse().expect("a formulation");
        let _ = s.check(p);
    }
    let _ = scramble::symmetry::labellings_per_picture(p);
    if p.rows() <= 12 {
        let _ = scramble::render::svg::unsolved_picture(p, None);
    }
    // A small board's solutions are kept and each checked; a larger one
    // is counted. Either way the run ends with a verdict it can stand by.
    let small = p.len() <= 9;
    let opts = SolveOptions {
        time_limit: Some(Duration::from_millis(5)),
        keep: if small { Keep::All } else { Keep::Count },
        ..SolveOptions::default()
    };
    let r = solve::run(&Backtrack::default(), p, &opts)
        .unwrap_or_else(|e| panic!("the backtracker failed on a loaded puzzle: {e}"));
    match &r.outcome {
        Outcome::Complete => assert!(r.counts.raw > 0 && r.counts.classes > 0),
        Outcome::Infeasible => assert_eq!(r.counts.raw, 0),
        Outcome::Incomplete(StopReason::TimeLimit) => {}
        other => panic!("the backtracker ended {other:?}"),
    }
    assert!(r.counts.classes <= r.counts.raw && r.counts.pictures <= r.counts.classes);
    if small {
        assert_eq!(r.raw.len() as u128, r.counts.raw);
        for s in &r.raw {
            assert_eq!(s.verify(p), Ok(()), "{s:?}");
        }
    }
}

#[test]
fn fuzz_the_loader_and_the_subcommands() {
    let cases = env_u64("FUZZ_CASES", 10_000);
    let seed = env_u64("FUZZ_SEED", 1);
    let files: Vec<Vec<u8>> = std::fs::read_dir(corpus())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert!(files.len() > 50);
    let dir = tempfile::tempdir().unwrap();
    let file: PathBuf = dir.path().join("fuzz.yaml");
    let (mut loaded, mut slowest) = (0u64, Duration::ZERO);
    let start = Instant::now();
    for case in 0..cases {
        let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9).wrapping_add(case));
        let input = if rng.below(2) == 0 {
            mutate(&mut rng, &files)
        } else {
            grammar(&mut rng)
        };
        let t = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| {
            let text = String::from_utf8_lossy(&input);
            match Puzzle::parse(&text, Path::new("fuzz.yaml"), "fuzz".into()) {
                Ok(p) => {
                    exercise(&p);
                    true
                }
                Err(e) => {
                    // Every error names the file.
                    assert!(e.to_string().contains("fuzz.yaml"), "{e}");
                    false
                }
            }
        }));
        let took = t.elapsed();
        match result {
            Ok(ok) => loaded += u64::from(ok),
            Err(_) => panic!(
                "case {case} (FUZZ_SEED={seed}) panicked on input:\n{}",
                String::from_utf8_lossy(&input)
            ),
        }
        assert!(
            took < SLOW,
            "case {case} (FUZZ_SEED={seed}) took {took:?} on input:\n{}",
            String::from_utf8_lossy(&input)
        );
        slowest = slowest.max(took);
        if case % 500 == 0 {
            // Through the binary: a clear exit code, never a panic.
            std::fs::write(&file, &input).unwrap();
            let out = cmd()
                .args(["solve", file.to_str().unwrap(), "--solver", "backtrack"])
                .args(["--time-limit", "0.2", "--count", "--threads", "1"])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(out.status.code(), Some(0..=2)) && !err.contains("panicked"),
                "case {case}: exit {:?}, stderr {err}",
                out.status.code()
            );
        }
    }
    eprintln!(
        "fuzz: {cases} inputs ({loaded} loaded as puzzles), 0 panics, slowest {slowest:?}, {:?} in all",
        start.elapsed()
    );
    // Both kinds of input reach the solver, not only the error paths.
    assert!(
        loaded > cases / 20,
        "only {loaded} of {cases} inputs loaded"
    );
}
