//! `scramble bench` end to end: rows, consistency, the summary, the plot,
//! progress and bad input.

use crate::common;

use std::collections::BTreeMap;

use common::{cmd, stdout_ok};
use predicates::prelude::*;

#[test]
fn rows_summary_and_plot_for_generated_puzzles() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (csv, json, plot) = (
        dir.path().join("runs.csv"),
        dir.path().join("runs.jsonl"),
        dir.path().join("plot.svg"),
    );
    let out = cmd()
        .args([
            "bench",
            "--generate",
            "3,3,4,7",
            "--solvers",
            "cp-sat,backtrack",
            "--repeat",
            "2",
            "--csv",
        ])
        .arg(&csv)
        .arg("--json")
        .arg(&json)
        .arg("--plot")
        .arg(&plot)
        .output()
        .unwrap();
    let stdout = stdout_ok(&out);
    assert!(stdout.starts_with("4 puzzles, 16 runs in "), "{stdout}");
    assert!(stdout.contains("backtrack  spiral  none"), "{stdout}");
    // Not a terminal: plain progress lines.
    assert!(String::from_utf8_lossy(&out.stderr).contains("bench: 16/16 runs (100%)"));

    // One row per run, and every run on a puzzle found the same counts.
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "puzzle,rows,cols,frame,hints,turns,solver,model,symmetry,equivalence,repeat,raw,canonical,complete,wall_time_s,first_s,nodes,branches"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 16);
    let mut counts: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for row in &rows {
        // The board: 3x3, no frame, no hints, quarter turns.
        assert_eq!(row[1..6], ["3", "3", "", "", "quarter"]);
        let r = [&row[..1], &row[6..]].concat();
        assert_eq!(r[8], "true");
        let c = counts.entry(r[0]).or_insert((r[6], r[7]));
        assert_eq!(*c, (r[6], r[7]), "{}", r[0]);
        // Time to the first solution, never past the time to all.
        let (all, first): (f64, f64) = (r[9].parse().unwrap(), r[10].parse().unwrap());
        assert!(first > 0.0 && first <= all, "{first} {all}");
        // Nodes for backtracking, branches for CP-SAT.
        assert_eq!(r[1] == "backtrack", !r[11].is_empty());
        assert_eq!(r[1] == "cp-sat", !r[12].is_empty());
    }
    assert_eq!(counts.len(), 4);
    assert!(counts.keys().all(|k| k.starts_with("3x3-m3-s7-000")));
    let jl = std::fs::read_to_string(&json).unwrap();
    assert_eq!(jl.lines().count(), 16);
    for l in jl.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(
            counts[v["puzzle"].as_str().unwrap()].0,
            v["raw"].to_string()
        );
    }

    // The plot is a valid SVG with one marker per puzzle and series.
    let svg = std::fs::read_to_string(&plot).unwrap();
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default());
    assert!(tree.is_ok(), "invalid SVG");
    // Series 1 in circles, series 2 in triangles: a marker per point and
    // one in the legend.
    assert_eq!(svg.matches("<circle").count(), 4 + 1);
    assert_eq!(svg.matches("<polygon").count(), 4 + 1);
}

/// The summary without its time columns.
fn summary_shape(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().take(5).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn the_summary_is_deterministic_apart_from_times() {
    let run = || {
        let out = cmd()
            .args([
                "bench",
                "--generate",
                "3,4,20,3",
                "--generate",
                "4,6,5,3",
                "--solvers",
                "backtrack",
                "--symmetry",
                "none",
                "--symmetry",
                "lex,tiles",
                "--allow-unproven-symmetry",
                "--order",
                "row",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(summary_shape(&a), summary_shape(&b));
    assert_eq!(
        summary_shape(&a),
        [
            "solver model symmetry runs complete",
            "backtrack row lex,tiles (unproven) 25",
            "backtrack row none 25 25",
        ]
    );
}

#[test]
fn skipped_formulations_and_bad_input() {
    // `center` needs an odd board.
    cmd()
        .args(["bench", "--generate", "2,3,2,1", "--solvers", "backtrack"])
        .args(["--symmetry", "center"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "skipped 2x2-m3-s1-0001 with center",
        ));
    cmd()
        .arg("bench")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nothing to bench"));
    cmd()
        .args(["bench", "--generate", "3,4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected SIZE,MOTIFS,COUNT,SEED"));
    cmd()
        .args(["bench", "--generate", "3,4,1,1", "--solvers", "minizinc"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("minizinc"));
    cmd()
        .args(["bench", "no/such/puzzle.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/puzzle.yaml"));
}

#[test]
fn models_are_an_axis_of_the_grid() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("runs.csv");
    let out = cmd()
        .args([
            "bench",
            "--generate",
            "3,4,3,5",
            "--solvers",
            "cp-sat",
            "--model",
            "table",
            "--model",
            "boolean",
            "--model",
            "table",
            "--csv",
        ])
        .arg(&csv)
        .output()
        .unwrap();
    let stdout = stdout_ok(&out);
    // Each model once: 3 puzzles x 2 models.
    assert!(stdout.starts_with("3 puzzles, 6 runs in "), "{stdout}");
    assert!(stdout.contains("cp-sat  table    none"), "{stdout}");
    assert!(stdout.contains("cp-sat  boolean  none"), "{stdout}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let models: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(7).unwrap())
        .collect();
    assert_eq!(models.iter().filter(|m| **m == "table").count(), 3);
    assert_eq!(models.iter().filter(|m| **m == "boolean").count(), 3);

    // --model without cp-sat is a usage error.
    cmd()
        .args([
            "bench",
            "--generate",
            "3,4,1,5",
            "--solvers",
            "backtrack",
            "--model",
            "edge",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--model applies to the cp-sat solver",
        ));
}

#[test]
fn a_memory_limit_reaches_every_cp_sat_run() {
    if !common::has_cpsat() {
        return;
    }
    // CP-SAT enumerates neither board in less than hours: each run ends
    // only at its 1 MB ceiling, whatever the machine.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("runs.csv");
    let out = cmd()
        .arg("bench")
        .args([common::e2("8x8-a.txt"), common::e2("8x8-b.txt")])
        .args(["--solvers", "cp-sat"])
        .args(["--memory-limit", "1", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    stdout_ok(&out);
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!((row[6], row[13]), ("cp-sat", "false"), "{row:?}");
    }
}

#[test]
fn bench_s_time_limit_is_for_the_whole_bench() {
    if !common::has_cpsat() {
        return;
    }
    // Four runs, none of which ends by itself within minutes.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("runs.csv");
    let out = cmd()
        .arg("bench")
        .args([common::e2("clue1.txt"), common::e2("clue2.txt")])
        .args(["--time-limit", "3", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    stdout_ok(&out);
    let text = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let wall = header.iter().position(|h| *h == "wall_time_s").unwrap();
    let times: Vec<f64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(wall).unwrap().parse().unwrap())
        .collect();
    assert_eq!(times.len(), 4);
    let total: f64 = times.iter().sum();
    assert!(total < 3.0 + 2.0, "{total} s in all: {times:?}");
}
