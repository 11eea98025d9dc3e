//! Sharded runs on a real Slurm cluster (one node, started here with
//! scripts/slurm/local-cluster): 4-task job arrays over one puzzle's work
//! units and over a bench batch, merged by a dependent job, must print what
//! one unsharded process prints, apart from times (and CP-SAT's search
//! statistics, which differ between two unsharded runs too).
//!
//! Needs Debian's slurm-wlm and munge and root; skipped (saying why)
//! without them, except under scripts/test, which installs them.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A one-node cluster, stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    conf: String,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(script("local-cluster"))
            .arg("stop")
            .arg(self.dir.path())
            .status();
    }
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts/slurm")
        .join(name)
}

/// PATH with the daemons' folder.
fn path() -> String {
    format!(
        "{}:/usr/sbin:/sbin",
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Start a cluster, or say why not (and skip, unless skipping is refused).
fn cluster() -> Option<Cluster> {
    for tool in ["sbatch", "sinfo", "slurmctld", "slurmd", "munged"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .env("PATH", path())
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            common::missing(
                "Slurm",
                &format!("{tool} not found"),
                "apt-get install slurm-wlm munge (scripts/test does)",
            );
            return None;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(script("local-cluster"))
        .arg("start")
        .arg(dir.path())
        .env("PATH", path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let Some(conf) = text
        .trim()
        .strip_prefix("export SLURM_CONF=")
        .filter(|_| out.status.success())
    else {
        common::missing(
            "a running Slurm cluster",
            &format!(
                "scripts/slurm/local-cluster could not start one: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            "run the tests as root with slurm-wlm and munge installed",
        );
        return None;
    };
    Some(Cluster {
        conf: conf.to_string(),
        dir,
    })
}

/// Submit with scripts/slurm/submit and wait for the merge job; returns
/// the merge job's exit code.
fn submit(c: &Cluster, args: &[&str]) -> i32 {
    let out = Command::new(script("submit"))
        .args(args)
        .env("PATH", path())
        .env("SLURM_CONF", &c.conf)
        .env("SCRAMBLE", env!("CARGO_BIN_EXE_scramble"))
        .env("SCRAMBLE_SLURM_WAIT", "1")
        .output()
        .unwrap();
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    out.status.code().unwrap_or(-1)
}

/// Two reports with the same keys and values (the keys that differ named,
/// not the whole reports printed).
fn same(a: &Value, b: &Value, what: &str) {
    let (a, b) = (a.as_object().unwrap(), b.as_object().unwrap());
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let differ: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            let show = |v: Option<&Value>| {
                let t = v.map(|v| v.to_string()).unwrap_or("(none)".into());
                t.chars().take(300).collect::<String>()
            };
            format!(
                "{k}: merged {} | one run {}",
                show(a.get(k)),
                show(b.get(k))
            )
        })
        .collect();
    assert!(differ.is_empty(), "{what}: {}", differ.join("\n"));
}

/// Bench text with every time and rate (a number and its unit) masked and
/// the columns' padding dropped.
fn mask_times(text: &str) -> String {
    let units = ["s", "ms", "µs", "nodes/s", "branches/s"];
    text.lines()
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let mut out = Vec::new();
            let mut k = 0;
            while k < t.len() {
                let timed =
                    t[k].parse::<f64>().is_ok() && t.get(k + 1).is_some_and(|u| units.contains(u));
                // A time and its unit (s, ms or µs: the unit varies too).
                out.push(if timed { "T" } else { t[k] });
                k += if timed { 2 } else { 1 };
            }
            out.join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Bench rows (JSON Lines) without their times.
fn rows(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            // Times, and CP-SAT's branches (they differ between two
            // unsharded runs too).
            o.remove("wall_time_s");
            o.remove("first_s");
            if o["solver"] == "cp-sat" {
                o.remove("branches");
            }
            v
        })
        .collect()
}

#[test]
fn slurm_arrays_merge_to_the_unsharded_run() {
    if !common::has_cpsat() {
        return;
    }
    let Some(c) = cluster() else { return };
    let work = tempfile::tempdir().unwrap();
    // A 3x3 with 224 labelled solutions: what its shards check is the
    // same as on a 4x4, and its CP-SAT runs take 0.2 s rather than
    // crazy-sheep's 2 s (the test took 49 s alone with it, 16 s now).
    let puzzle = common::corpus().join("der-sternenhimmel.yaml");
    let puzzle = puzzle.to_str().unwrap();

    // One puzzle's work units, with each solver.
    for solver in ["cp-sat", "backtrack"] {
        let out = work.path().join(format!("solve-{solver}"));
        let code = submit(
            &c,
            &[
                "solve",
                "4",
                out.to_str().unwrap(),
                puzzle,
                "--solver",
                solver,
            ],
        );
        assert_eq!(code, 0, "{solver}: the merge job failed");
        for k in 0..4 {
            assert!(out.join(format!("shard-{k}.json")).exists(), "shard {k}");
        }
        let merged: Value =
            serde_json::from_slice(&std::fs::read(out.join("merged.json")).unwrap()).unwrap();
        // One process with the shards' one thread each.
        let (one, code) = common::solve_json(&[puzzle, "--solver", solver, "--threads", "1"]);
        assert_eq!(code, 0);
        assert_eq!(merged["raw_count"], 224, "{solver}");
        same(
            &common::comparable_report(merged, true),
            &common::comparable_report(one, true),
            solver,
        );
    }

    // A bench over a generated batch and a corpus puzzle (a second corpus
    // puzzle and 18 more generated ones cost 8 s of the suite and checked
    // nothing new).
    let sky = common::corpus().join("der-sternenhimmel.yaml");
    let bench_args: Vec<String> = [
        "--generate",
        "3,4,12,7",
        sky.to_str().unwrap(),
        "--solvers",
        "cp-sat,backtrack",
        "--symmetry",
        "none",
        "--symmetry",
        "lex",
    ]
    .map(String::from)
    .to_vec();
    let out = work.path().join("bench");
    let mut args = vec![
        "bench".to_string(),
        "4".into(),
        out.to_str().unwrap().into(),
    ];
    args.extend(bench_args.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(submit(&c, &args), 0, "the bench merge job failed");
    let one_rows = work.path().join("one.jsonl");
    let one = common::cmd()
        .arg("bench")
        .args(&bench_args)
        .arg("--json")
        .arg(&one_rows)
        .output()
        .unwrap();
    let one_text = common::stdout_ok(&one);
    let merged_text = std::fs::read_to_string(out.join("merged.txt")).unwrap();
    assert_eq!(mask_times(&merged_text), mask_times(&one_text));
    let merged_rows = rows(&std::fs::read_to_string(out.join("runs.jsonl")).unwrap());
    let one_rows = rows(&std::fs::read_to_string(&one_rows).unwrap());
    // 13 puzzles x 2 formulations x 2 solvers.
    assert_eq!(merged_rows.len(), 52);
    assert_eq!(one_rows.len(), 52);
    for (k, (a, b)) in merged_rows.iter().zip(&one_rows).enumerate() {
        same(a, b, &format!("bench row {}", k + 1));
    }
}
