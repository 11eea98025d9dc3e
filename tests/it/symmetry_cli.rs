//! End-to-end tests of `--symmetry`, `--equivalence` and `symmetry-report`.

use crate::common;

use common::{cmd, corpus, seed, solve_json, stdout_ok};
use predicates::prelude::*;

#[test]
fn symmetry_and_equivalence_are_reported() {
    if !common::has_cpsat() {
        return;
    }
    let p = corpus().join("der-sternenhimmel.yaml");
    let (v, code) = solve_json(&[
        p.to_str().unwrap(),
        "--symmetry",
        "picture-lex,tiles",
        "--equivalence",
        "picture",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["symmetry"], "picture-lex,tiles");
    assert_eq!(v["equivalence"], "picture");
    assert_eq!(v["raw_count"], 28);
    assert_eq!(v["canonical_count"], 28);
    assert_eq!(v["pictures_count"], 28);
    assert_eq!(v["solutions"].as_array().unwrap().len(), 28);

    let (v, _) = solve_json(&[p.to_str().unwrap(), "--symmetry", "center"]);
    assert_eq!(v["symmetry"], "center");
    assert_eq!(v["equivalence"], "rotation");
    assert_eq!(
        (v["raw_count"].as_u64(), v["canonical_count"].as_u64()),
        (Some(56), Some(56))
    );

    cmd()
        .args([
            "solve",
            seed().to_str().unwrap(),
            "--symmetry",
            "lex",
            "--equivalence",
            "picture",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "symmetry: lex, equivalence: picture",
        ))
        .stdout(predicate::str::contains("raw solutions: 1\n"));
}

#[test]
fn a_failed_precondition_is_a_clear_error() {
    if !common::has_cpsat() {
        return;
    }
    let p = corpus().join("quasthoff-example.yaml");
    cmd()
        .args(["solve", p.to_str().unwrap(), "--symmetry", "center"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("quasthoff-example.yaml"))
        .stderr(predicate::str::contains(
            "symmetry formulation center does not apply",
        ))
        .stderr(predicate::str::contains("2x2"));
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.yaml");
    std::fs::write(&one, "7: [[a, '+'], [a, '+'], [a, '+'], [a, '-']]\n").unwrap();
    cmd()
        .args(["solve", one.to_str().unwrap(), "--symmetry", "corner"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("corner does not apply"));
    // lex and anchor work for n = 1.
    for s in ["lex", "anchor", "picture-lex"] {
        let (v, code) = solve_json(&[one.to_str().unwrap(), "--symmetry", s]);
        assert_eq!(code, 0, "{s}");
        assert_eq!(v["raw_count"], 1, "{s}");
        assert_eq!(v["solutions"], serde_json::json!([[[7, 0]]]), "{s}");
    }
}

#[test]
fn unknown_or_repeated_formulations_are_usage_errors() {
    cmd()
        .args(["solve", seed().to_str().unwrap(), "--symmetry", "spin"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unknown symmetry formulation \"spin\"",
        ))
        .stderr(predicate::str::contains(
            "center, corner, lex, anchor, picture-lex, tiles",
        ));
    cmd()
        .args(["solve", seed().to_str().unwrap(), "--symmetry", "lex,lex"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("listed twice"));
    cmd()
        .args(["solve", seed().to_str().unwrap(), "--equivalence", "mirror"])
        .assert()
        .code(2);
}

#[test]
fn symmetry_report_checks_every_formulation() {
    if !common::has_cpsat() {
        return;
    }
    let q = corpus().join("quasthoff-example.yaml");
    let out = cmd()
        .args([
            "symmetry-report",
            seed().to_str().unwrap(),
            q.to_str().unwrap(),
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    let text = stdout_ok(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "puzzle,model,formulation,raw,classes,pictures,wall_time_s,branches,conflicts,variables,constraints,table_tuples,rotation,picture,documented_exact"
    );
    // 12 combinations per puzzle.
    assert_eq!(lines.len(), 1 + 2 * 12);
    let row = |p: &str, f: &str| {
        lines
            .iter()
            .find(|l| l.contains(p) && l.split(',').nth(2) == Some(f))
            .unwrap_or_else(|| panic!("{p} {f}"))
            .to_string()
    };
    assert!(row("3x3-original", "lex").contains(",exact,exact,rotation"));
    assert!(row("3x3-original", "none").contains("keeps 3 duplicates"));
    assert!(row("quasthoff", "center").contains("n/a: needs an odd board side"));

    let out = cmd()
        .args(["symmetry-report", q.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 12);
    let lex = rows.iter().find(|r| r["formulation"] == "lex").unwrap();
    assert_eq!(lex["rotation"]["verdict"], "exact");
    assert_eq!(lex["raw"], 2);
    assert_eq!(lex["contradicts_docs"], false);
    assert_eq!(lex["model"], "edge");
    assert!(lex["size"]["variables"].as_u64().unwrap() > 0);
}

#[test]
fn symmetry_report_has_a_model_axis() {
    if !common::has_cpsat() {
        return;
    }
    let out = cmd()
        .args([
            "symmetry-report",
            seed().to_str().unwrap(),
            "--model",
            "table",
            "--model",
            "boolean",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&out)).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 2 * 12);
    for model in ["table", "boolean"] {
        let none = rows
            .iter()
            .find(|r| r["model"] == model && r["formulation"] == "none")
            .unwrap();
        // The full tree: every labelled solution is searched for.
        assert_eq!(none["raw"], 4);
        let lex = rows
            .iter()
            .find(|r| r["model"] == model && r["formulation"] == "lex")
            .unwrap();
        assert_eq!(lex["rotation"]["verdict"], "exact");
    }
    let table = rows.iter().find(|r| r["model"] == "table").unwrap();
    assert_eq!(table["size"]["table_tuples"], 12 * 146);
    let boolean = rows.iter().find(|r| r["model"] == "boolean").unwrap();
    assert_eq!(boolean["size"]["table_tuples"], 0);
}

#[test]
fn symmetry_report_rejects_bad_input_before_solving() {
    cmd()
        .args([
            "symmetry-report",
            seed().to_str().unwrap(),
            "/nonexistent.yaml",
        ])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("/nonexistent.yaml"));
}
