//! `solve --format jsonl` (streaming) and `solve --count`, end to end: lines
//! as found, a summary last, a closed pipe ends quietly, Ctrl-C leaves
//! every line intact and says the run was incomplete.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{cmd, corpus, seed, solve_json, stdout_ok};
use serde_json::Value;

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// A run that finds new pictures for a long time: the-ant-trails-puzzle,
/// pictures, backtracking.
fn endless() -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin!("scramble"));
    c.arg("solve")
        .arg(corpus().join("the-ant-trails-puzzle.yaml"))
        .args(["--solver", "backtrack", "--equivalence", "picture"])
        .args(["--format", "jsonl", "--time-limit", "60", "--threads", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

#[test]
fn jsonl_gives_a_line_per_class_then_a_summary() {
    if !common::has_cpsat() {
        return;
    }
    for solver in ["cp-sat", "backtrack"] {
        let out = cmd()
            .arg("solve")
            .arg(corpus().join("der-sternenhimmel.yaml"))
            .args(["--format", "jsonl", "--solver", solver])
            .output()
            .unwrap();
        let v = lines(&stdout_ok(&out));
        let (summary, solutions) = v.split_last().unwrap();
        assert_eq!(summary["type"], "summary");
        assert_eq!(summary["complete"], true);
        assert_eq!(summary["raw_count"], 224);
        assert_eq!(summary["canonical_count"], 56);
        assert!(summary.get("solutions").is_none());
        assert_eq!(solutions.len(), 56);
        for (k, s) in solutions.iter().enumerate() {
            assert_eq!(s["type"], "solution");
            assert_eq!(s["index"], k + 1);
            assert_eq!(s["solution"].as_array().unwrap().len(), 9);
        }
        // The same classes as the JSON report, in the order found.
        let (json, _) = solve_json(&[
            corpus().join("der-sternenhimmel.yaml").to_str().unwrap(),
            "--solver",
            solver,
        ]);
        let mut streamed: Vec<&Value> = solutions.iter().map(|s| &s["solution"]).collect();
        streamed.sort_by_key(|v| v.to_string());
        let mut listed: Vec<&Value> = json["solutions"].as_array().unwrap().iter().collect();
        listed.sort_by_key(|v| v.to_string());
        assert_eq!(streamed, listed, "{solver}");
    }
}

#[test]
fn count_keeps_no_solutions() {
    if !common::has_cpsat() {
        return;
    }
    let (v, code) = solve_json(&[
        corpus().join("der-sternenhimmel.yaml").to_str().unwrap(),
        "--count",
        "--solver",
        "backtrack",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        (&v["raw_count"], &v["classes_count"], &v["complete"]),
        (&Value::from(224), &Value::from(56), &Value::from(true))
    );
    assert!(v.get("solutions").is_none());
    let out = cmd()
        .arg("solve")
        .arg(seed())
        .arg("--count")
        .output()
        .unwrap();
    let text = stdout_ok(&out);
    assert!(text.contains("raw solutions: 4\n"), "{text}");
    assert!(!text.contains("=== Solution"), "{text}");
}

#[test]
fn jsonl_and_count_refuse_what_they_cannot_do() {
    for extra in [&["--format", "jsonl", "--all"][..], &["--count", "--all"]] {
        cmd().arg("solve").arg(seed()).args(extra).assert().code(2);
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = endless().spawn().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for _ in 0..3 {
        line.clear();
        out.read_line(&mut line).unwrap();
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["type"], "solution");
    }
    drop(out); // `| head -3`
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn ctrl_c_keeps_every_line_and_ends_with_an_incomplete_summary() {
    let mut child = endless().spawn().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    common::interrupt(&child);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let status = child.wait().unwrap();
    let v = lines(&(first + &rest));
    let (summary, solutions) = v.split_last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["complete"], false);
    assert_eq!(summary["stopped_by"], "interrupted");
    assert_eq!(summary["canonical_count"], solutions.len());
    assert!(solutions.iter().all(|s| s["type"] == "solution"));
    assert_eq!(status.code(), Some(1));
}
