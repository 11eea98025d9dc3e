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
        .stdout(predicate::str::contains(
            "raw solutions: 1 (the boards --symmetry lex keeps, not every labelled solution)\n",
        ));
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

/// The SAT engine (the formulations as clauses) gives CP-SAT's verdicts
/// row for row, on a puzzle with identical tiles where some combinations
/// lose classes and others keep duplicates.
#[test]
fn symmetry_report_gives_the_same_verdicts_with_cp_sat_and_sat() {
    if !common::has_cpsat() {
        return;
    }
    let p = corpus().join("der-sternenhimmel.yaml");
    let out = cmd()
        .args(["symmetry-report", p.to_str().unwrap()])
        .args(["--solvers", "cp-sat,sat", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&out)).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 2 * 12);
    let (cp, sat) = rows.split_at(12);
    assert!(sat.iter().all(|r| r["model"] == "sat colour-sequential"));
    for (a, b) in cp.iter().zip(sat) {
        assert_eq!(a["formulation"], b["formulation"]);
        for key in ["raw", "classes", "pictures", "rotation", "picture"] {
            assert_eq!(a[key], b[key], "{} {key}", a["formulation"]);
        }
    }
    // Not every verdict is "exact": the comparison has something to tell.
    let wrong = |key: &str| sat.iter().filter(|r| r[key]["verdict"] == "wrong").count();
    assert!(wrong("rotation") >= 4 && wrong("picture") >= 1);
}

/// Only engines that enumerate every solution of a formulation report, and
/// an engine's options need the engine.
#[test]
fn symmetry_report_s_engines_are_checked() {
    for (args, says) in [
        (&["--solvers", "auto"][..], "runs cp-sat, backtrack and sat"),
        (
            &["--solvers", "sat", "--model", "table"],
            "--model applies to the cp-sat solver",
        ),
        (
            &["--solvers", "backtrack", "--encoding", "colour"],
            "--encoding applies to the sat solver",
        ),
    ] {
        cmd()
            .args(["symmetry-report", seed().to_str().unwrap()])
            .args(args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(says));
    }
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

#[test]
fn an_unproven_combination_is_refused_unless_allowed_and_then_marked() {
    if !common::has_cpsat() {
        return;
    }
    // Each of center and lex keeps one member of every class, not the same
    // one: together they keep 20 of der-sternenhimmel's 56 classes.
    let p = corpus().join("der-sternenhimmel.yaml");
    let p = p.to_str().unwrap();
    for command in [&["solve", p][..], &["compare", p], &["bench", p]] {
        cmd()
            .args(command)
            .args(["--symmetry", "center,lex"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "--symmetry center,lex is not proven to keep a member of every rotation class",
            ))
            .stderr(predicate::str::contains("--allow-unproven-symmetry"));
    }
    // Allowed, every report says so: JSON, text, and the rows of compare
    // and bench (text and CSV).
    let (v, code) = solve_json(&[p, "--symmetry", "center,lex", "--allow-unproven-symmetry"]);
    assert_eq!(code, 0);
    assert_eq!(v["symmetry_proven"], false);
    assert!(v["classes_count"].as_u64().unwrap() < 56);
    let out = cmd()
        .args([
            "solve",
            p,
            "--symmetry",
            "center,lex",
            "--allow-unproven-symmetry",
        ])
        .output()
        .unwrap();
    assert!(stdout_ok(&out).contains("UNPROVEN: symmetry center,lex is not proven"));
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("b.csv");
    let out = cmd()
        .args([
            "bench",
            p,
            "--symmetry",
            "center,lex",
            "--allow-unproven-symmetry",
        ])
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    assert!(stdout_ok(&out).contains("center,lex (unproven)"));
    assert!(
        std::fs::read_to_string(&csv)
            .unwrap()
            .contains("center,lex (unproven)")
    );
    let out = cmd()
        .args([
            "compare",
            p,
            "--symmetry",
            "corner,anchor",
            "--allow-unproven-symmetry",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("corner,anchor (unproven)"));
    // A proven one needs nothing and says nothing.
    let (v, code) = solve_json(&[p, "--symmetry", "lex"]);
    assert_eq!((code, v.get("symmetry_proven")), (0, None));
    // Proven for pictures, unproven for labels.
    let (_, code) = solve_json(&[p, "--symmetry", "tiles", "--equivalence", "picture"]);
    assert_eq!(code, 0);
    cmd()
        .args(["solve", p, "--symmetry", "tiles"])
        .assert()
        .code(2);
}

#[test]
fn symmetry_report_takes_combinations_as_rows() {
    if !common::has_cpsat() {
        return;
    }
    let p = corpus().join("der-sternenhimmel.yaml");
    let out = cmd()
        .args(["symmetry-report", p.to_str().unwrap(), "--format", "json"])
        .args(["--symmetry", "center,lex", "--symmetry", "lex"])
        .output()
        .unwrap();
    let rows: serde_json::Value = serde_json::from_str(&stdout_ok(&out)).unwrap();
    let rows = rows.as_array().unwrap();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["formulation"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["none", "center,lex", "lex"]);
    assert_eq!(rows[1]["rotation"]["verdict"], "wrong");
    assert!(rows[1]["rotation"]["lost"].as_u64().unwrap() > 0);
    assert_eq!(rows[1]["documented_exact"], serde_json::json!([]));
    assert_eq!(rows[2]["rotation"]["verdict"], "exact");
}

#[test]
fn symmetry_report_s_time_limit_is_for_the_whole_report() {
    if !common::has_cpsat() {
        return;
    }
    // Twelve rows on crazy-sheep take about 15 s in all: with a limit of
    // 3 s they share it, and their times add up to it (with what stopping
    // takes), not to 3 s a row.
    let out = cmd()
        .args([
            "symmetry-report",
            corpus().join("crazy-sheep.yaml").to_str().unwrap(),
        ])
        .args(["--time-limit", "3", "--format", "json"])
        .output()
        .unwrap();
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let total: f64 = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wall_time_s"].as_f64().unwrap())
        .sum();
    assert!(total < 3.0 + 2.0, "{total} s in all");
}

#[test]
fn compare_s_time_limit_is_for_the_whole_comparison() {
    if !common::has_cpsat() {
        return;
    }
    // No engine counts clue1 in minutes: each runs out its share.
    let out = cmd()
        .args(["compare", common::e2("clue1.txt").to_str().unwrap()])
        .args(["--time-limit", "3", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = v["rows"].as_array().unwrap_or_else(|| panic!("{v}"));
    assert_eq!(runs.len(), 3, "{v}");
    let total: f64 = runs
        .iter()
        .map(|r| r["wall_time_s"].as_f64().unwrap())
        .sum();
    assert!(total < 3.0 + 2.0, "{total} s in all: {v}");
}
