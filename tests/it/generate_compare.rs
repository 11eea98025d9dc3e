//! `scramble generate` and `scramble compare` end to end.

use crate::common;

use common::{cmd, corpus, e2, seed, stdout_ok};
use predicates::prelude::*;
use scramble::puzzle::Puzzle;

#[test]
fn generate_is_reproducible_and_never_overwrites() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for dir in [a.path(), b.path()] {
        cmd()
            .args([
                "generate", "--size", "3", "--motifs", "4", "--count", "3", "--seed", "42", "--out",
            ])
            .arg(dir)
            .assert()
            .success();
    }
    let names: Vec<_> = (1..=3).map(|k| format!("3x3-m4-s42-{k:04}.yaml")).collect();
    for name in &names {
        let x = std::fs::read_to_string(a.path().join(name)).unwrap();
        let y = std::fs::read_to_string(b.path().join(name)).unwrap();
        assert_eq!(x, y, "{name}");
        let p = Puzzle::load(&a.path().join(name)).unwrap();
        assert_eq!(p.rows(), 3);
        // The planted solution written in the header solves the puzzle.
        let planted = x
            .lines()
            .find_map(|l| l.strip_prefix("# planted: "))
            .unwrap();
        let s = scramble::board::parse_seed_text(planted).unwrap();
        assert_eq!(s.verify(&p), Ok(()));
    }
    // Another seed gives other puzzles.
    let c = tempfile::tempdir().unwrap();
    cmd()
        .args([
            "generate", "--size", "3", "--motifs", "4", "--seed", "43", "--out",
        ])
        .arg(c.path())
        .assert()
        .success();
    let other = std::fs::read_to_string(c.path().join("3x3-m4-s43-0001.yaml")).unwrap();
    assert_ne!(
        other,
        std::fs::read_to_string(a.path().join(&names[0])).unwrap()
    );
    // Running again into the same folder is refused, and nothing changes.
    let before = std::fs::read_to_string(a.path().join(&names[0])).unwrap();
    cmd()
        .args([
            "generate", "--size", "3", "--motifs", "5", "--count", "3", "--seed", "42", "--out",
        ])
        .arg(a.path())
        .assert()
        .success();
    cmd()
        .args([
            "generate", "--size", "3", "--motifs", "4", "--count", "1", "--seed", "42", "--out",
        ])
        .arg(a.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(a.path().join(&names[0])).unwrap(),
        before
    );
}

#[test]
fn generate_duplicates_and_unique() {
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .args([
            "generate",
            "--size",
            "4",
            "--motifs",
            "5",
            "--count",
            "2",
            "--seed",
            "3",
            "--duplicates",
            "4",
            "--unique",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    for k in 1..=2 {
        let path = dir.path().join(format!("4x4-m5-s3-{k:04}.yaml"));
        let p = Puzzle::load(&path).unwrap();
        assert!(scramble::generate::tiles_with_twins(&p) >= 4);
        let r = scramble::solve::run(
            &scramble::engines::backtrack::Backtrack::default(),
            &p,
            &Default::default(),
        )
        .unwrap();
        assert_eq!(r.pictures.len(), 1, "unique picture");
    }
    cmd()
        .args([
            "generate",
            "--size",
            "2",
            "--motifs",
            "3",
            "--duplicates",
            "5",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("more than the 4 tiles"));
}

#[test]
fn compare_agrees_on_real_puzzles() {
    if !common::has_cpsat() {
        return;
    }
    let p = corpus().join("der-sternenhimmel.yaml");
    let out = cmd()
        .args([
            "compare",
            seed().to_str().unwrap(),
            p.to_str().unwrap(),
            "--format",
            "csv",
            "--symmetry",
            "corner",
        ])
        .output()
        .unwrap();
    let text = stdout_ok(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "puzzle,rows,cols,frame,hints,turns,solver,model,symmetry,raw,canonical,complete,wall_time_s,work,work_is"
    );
    assert_eq!(lines.len(), 7);
    assert!(lines[1].contains(",3,3,,,quarter,cp-sat,edge,corner,1,1,true,"));
    assert!(lines[2].contains(",quarter,backtrack,spiral,corner,1,1,true,"));
    assert!(lines[3].contains(",quarter,sat,colour-sequential,corner,1,1,true,"));
    assert!(lines[3].ends_with(",conflicts"));
    assert!(lines[4].contains(",quarter,cp-sat,edge,corner,56,56,true,"));
    assert!(lines[5].contains(",quarter,backtrack,spiral,corner,56,56,true,"));
    assert!(lines[6].contains(",quarter,sat,colour-sequential,corner,56,56,true,"));

    let out = cmd()
        .args([
            "compare",
            p.to_str().unwrap(),
            "--format",
            "json",
            "--equivalence",
            "picture",
            "--order",
            "spiral",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["agree"], true);
    assert_eq!(v["verdicts"][0]["verdict"], "agree");
    assert_eq!(v["verdicts"][0]["classes"], 28);
    assert_eq!(v["rows"][1]["model"], "spiral");
    assert_eq!(v["rows"][0]["canonical"], 28);
}

/// Runs that did not finish are not compared, and the report says so:
/// a verdict line per puzzle, and JSON `agree` null (not known) rather
/// than true.
#[test]
fn compare_says_which_runs_it_could_not_compare() {
    if !common::has_cpsat() {
        return;
    }
    // clue1 has billions of solutions: no run finishes in its share of
    // the 4 s (a sixth each, 0.67 s; the seed's runs take under 0.1 s);
    // the seed's runs then finish in theirs.
    let (clue1, s) = (e2("clue1.txt"), seed());
    let args = [clue1.to_str().unwrap(), s.to_str().unwrap()];
    let out = cmd()
        .arg("compare")
        .args(args)
        .args(["--time-limit", "4", "--threads", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!(
            "{}: not all compared: cp-sat edge, backtrack spiral, sat colour-sequential did not finish (their sets are partial); no run finished",
            args[0]
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}: agree: 3 runs, the same 1 class\n", args[1])),
        "{text}"
    );
    let out = cmd()
        .arg("compare")
        .args(args)
        .args(["--time-limit", "4", "--threads", "1", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["agree"].is_null(), "{v}");
    assert_eq!(v["verdicts"][0]["verdict"], "unfinished");
    assert_eq!(v["verdicts"][0]["compared"], 0);
    assert_eq!(v["verdicts"][1]["verdict"], "agree");
}

#[test]
fn compare_rejects_a_failed_precondition() {
    cmd()
        .args([
            "compare",
            corpus().join("quasthoff-example.yaml").to_str().unwrap(),
            "--symmetry",
            "center",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("center does not apply"));
}

#[test]
fn compare_runs_every_model_given() {
    if !common::has_cpsat() {
        return;
    }
    let out = cmd()
        .args([
            "compare",
            seed().to_str().unwrap(),
            "--model",
            "table",
            "--model",
            "edge-boolean",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    let text = stdout_ok(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[1].contains(",cp-sat,table,none,4,1,true,"), "{text}");
    assert!(
        lines[2].contains(",cp-sat,edge-boolean,none,4,1,true,"),
        "{text}"
    );
    assert!(
        lines[3].contains(",backtrack,spiral,none,4,1,true,"),
        "{text}"
    );
}
