//! Bad input: a clear error naming the file and the place, exit code 2, no
//! panic, nothing written.

use crate::common;

use common::cmd;
use predicates::prelude::*;

const TILE: &str = "[[a, '+'], [b, '-'], [a, '-'], [b, '+']]";

fn check(yaml: &str, wants: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.yaml");
    std::fs::write(&file, yaml).unwrap();
    let dump = dir.path().join("model.txt");
    let mut a = cmd()
        .arg("solve")
        .arg(&file)
        .arg("--dump-model")
        .arg(&dump)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(file.display().to_string()))
        .stderr(predicate::str::contains("panicked").not())
        .stdout(predicate::str::is_empty());
    for w in wants {
        a = a.stderr(predicate::str::contains(*w));
    }
    assert!(!dump.exists(), "nothing written for bad input");
}

#[test]
fn tile_count_not_a_square() {
    check(
        &format!("1: {TILE}\n2: {TILE}\n"),
        &["2 tiles is not a square number"],
    );
}

#[test]
fn tile_without_four_edges() {
    check(
        &format!("1: {TILE}\n2: [[a, '+'], [a, '+'], [a, '+']]\n3: {TILE}\n4: {TILE}\n"),
        &[
            "bad.yaml:2:",
            "tile 2 must have exactly 4 edges",
            "found 3 edges",
        ],
    );
    check(
        "1: 7\n",
        &["tile 1 must have exactly 4 edges", "the number 7"],
    );
}

#[test]
fn edge_not_a_motif_half_pair() {
    check(
        &format!("1: {TILE}\n2: {TILE}\n3: [[a, '+'], [b, '-'], a, [b, '+']]\n4: {TILE}\n"),
        &[
            "bad.yaml:3:",
            "tile 3, edge 3 (left): expected [motif, half]",
        ],
    );
    check(
        "1: [[a, '+', x], [b, '-'], [a, '-'], [b, '+']]\n",
        &["tile 1, edge 1 (right): expected [motif, half], found a list of 3 items"],
    );
}

#[test]
fn unknown_half() {
    check(
        "1: [[a, '+'], [b, 'x'], [a, '-'], [b, '+']]\n",
        &["bad.yaml:1:", "tile 1, edge 2 (top): unknown half \"x\""],
    );
}

#[test]
fn non_integer_id() {
    check(
        &format!("1: {TILE}\nfour: {TILE}\n"),
        &["bad.yaml:2:", "tile id four is not an integer"],
    );
    check(
        &format!("1.5: {TILE}\n"),
        &["tile id 1.5 is not an integer"],
    );
    check(
        &format!("1.0: {TILE}\n"),
        &["tile id 1.0 is not an integer"],
    );
    check(
        &format!("'1': {TILE}\n"),
        &["bad.yaml:1:1:", "tile id 1 is not an integer"],
    );
}

#[test]
fn duplicate_id() {
    check(
        &format!("1: {TILE}\n2: {TILE}\n1: {TILE}\n"),
        &["bad.yaml:3:1: duplicate tile id 1"],
    );
}

#[test]
fn empty_file() {
    check("", &["empty"]);
    check("# only a comment\n", &["empty"]);
    check("{}\n", &["empty"]);
}

#[test]
fn not_a_map() {
    check(
        "- 1\n- 2\n",
        &["expected a map of tile id -> 4 edges, found a list of 2 items"],
    );
    check(
        "just text\n",
        &["expected a map", "the string \"just text\""],
    );
}

#[test]
fn invalid_yaml() {
    check("1: [[a, '+'\n", &["invalid YAML"]);
}

#[test]
fn missing_puzzle() {
    cmd()
        .args(["solve", "/nonexistent/puzzle.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/puzzle.yaml"));
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .arg("solve")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("input/tile_dict.yaml"));
}

#[test]
fn ids_are_kept_and_printed_as_given() {
    if !common::has_cpsat() {
        return;
    }
    // A 1x1 puzzle whose only tile is 42: four raw solutions (rotations), one class.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.yaml");
    std::fs::write(&file, format!("42: {TILE}\n")).unwrap();
    let (v, code) = common::solve_json(&[file.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(v["raw_count"], 4);
    assert_eq!(v["canonical_count"], 1);
    assert_eq!(v["solutions"], serde_json::json!([[[42, 0]]]));
}

#[test]
fn dump_model_refuses_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .args(["solve", common::seed().to_str().unwrap(), "--dump-model"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
}

#[test]
fn no_output_replaces_one_of_the_commands_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = dir.path().join("seed.yaml");
    let original = common::seed().join("input").join("tile_dict.yaml");
    std::fs::copy(&original, &yaml).unwrap();
    let before = std::fs::read(&yaml).unwrap();
    let p = yaml.to_str().unwrap();
    // A puzzle folder names its YAML inside: that file is the input.
    let folder = dir.path().join("seed");
    std::fs::create_dir_all(folder.join("input")).unwrap();
    let inner = folder.join("input").join("tile_dict.yaml");
    std::fs::copy(&original, &inner).unwrap();
    let runs: [Vec<&str>; 5] = [
        vec!["solve", p, "--solver", "backtrack", "--dump-model", p],
        vec!["bench", p, "--solvers", "backtrack", "--csv", p],
        vec!["bench", p, "--solvers", "backtrack", "--json", p],
        vec!["best", p, "--time-limit", "5", "--et2", p],
        vec![
            "solve",
            folder.to_str().unwrap(),
            "--dump-model",
            inner.to_str().unwrap(),
        ],
    ];
    for args in runs {
        cmd()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is an input of this command"))
            .stderr(predicate::str::contains("panicked").not())
            // Refused before any solving: no report, no rows.
            .stdout(predicate::str::is_empty());
        assert_eq!(std::fs::read(&yaml).unwrap(), before, "{args:?}");
        assert_eq!(std::fs::read(&inner).unwrap(), before, "{args:?}");
    }
    // Another name for the same file is the same file.
    let dotted = dir.path().join(".").join("seed.yaml");
    cmd()
        .args(["solve", p, "--solver", "backtrack", "--dump-model"])
        .arg(&dotted)
        .assert()
        .code(2);
    assert_eq!(std::fs::read(&yaml).unwrap(), before);
}

#[test]
fn a_misspelt_motif_is_warned_of_with_its_file_tile_and_edge() {
    // The seed puzzle with one motif misspelt (tile 1's right edge): still
    // a puzzle, answered as the file says (that edge can only face out),
    // but stderr names the edge that nothing can meet.
    let seed = std::fs::read_to_string(common::seed().join("input/tile_dict.yaml")).unwrap();
    let typo = seed.replacen("['ylw', '+']", "['ylow', '+']", 1);
    assert_ne!(typo, seed);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("typo.yaml");
    std::fs::write(&file, &typo).unwrap();
    let out = cmd()
        .args(["solve", file.to_str().unwrap(), "--solver", "backtrack"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "warning: {}: tile 1, edge 1 (right): [ylow, +] matches no edge of another tile",
            file.display()
        )),
        "{err}"
    );
    // The clean seed says nothing.
    let out = cmd()
        .args([
            "solve",
            common::seed().to_str().unwrap(),
            "--solver",
            "backtrack",
        ])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
}
