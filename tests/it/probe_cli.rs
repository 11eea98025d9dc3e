//! `scramble probe` through the command line: the first partial board at a
//! depth, its nodes, honest ends (time limit, no such board), bad depths.

use crate::common;

use predicates::prelude::*;
use serde_json::Value;

use common::{cmd, e2};

fn probe(args: &[&str], code: i32) -> Value {
    let out = cmd()
        .arg("probe")
        .args(args)
        .args(["--format", "json"])
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn the_eternity2_row_scan_reaches_its_depth_with_a_valid_partial_board() {
    let f = e2("eternity2.txt");
    let v = probe(
        &[f.to_str().unwrap(), "--order", "row-up", "--depth", "40"],
        0,
    );
    assert_eq!(v["end"], "reached");
    assert_eq!(v["deepest"], 40);
    let per_depth: u64 = v["nodes_per_depth"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(v["nodes"].as_u64().unwrap(), per_depth);
    // The bottom two rows and eight cells of the third, from the left.
    let cells = v["partial"].as_array().unwrap();
    assert_eq!(cells.len(), 256);
    for (c, cell) in cells.iter().enumerate() {
        let (i, j) = (c / 16, c % 16);
        let placed = i >= 14 || (i == 13 && j < 8);
        assert_eq!(!cell.is_null(), placed, "cell {c}");
    }
    // The bottom-left corner holds a corner piece turned to face out:
    // pieces 1-4 are the corners.
    let corner = cells[15 * 16].as_array().unwrap();
    assert!((1..=4).contains(&corner[0].as_i64().unwrap()), "{corner:?}");
}

#[test]
fn a_full_depth_probe_is_a_solution_that_render_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let f = e2("clue1.txt");
    let out = cmd()
        .args(["probe", f.to_str().unwrap(), "--order", "frame"])
        .assert()
        .success()
        .stdout(predicate::str::contains("reached depth 36"))
        .get_output()
        .stdout
        .clone();
    // The board lines (after the header) are the seed text format.
    let text = String::from_utf8(out).unwrap();
    let board: String = text.lines().skip(3).map(|l| format!("{l}\n")).collect();
    assert_eq!(board.lines().count(), 6, "{text}");
    let sol = dir.path().join("clue1.txt.sol");
    std::fs::write(&sol, board).unwrap();
    common::draws(&f, &sol, &dir.path().join("clue1.svg"));
}

#[test]
fn a_time_limit_ends_the_probe_with_how_deep_it_got() {
    let f = e2("eternity2.txt");
    let v = probe(
        &[
            f.to_str().unwrap(),
            "--hint",
            "eternity2",
            "--order",
            "row",
            "--time-limit",
            "0.3",
        ],
        1,
    );
    assert_eq!(v["end"], "time_limit");
    assert!(v["deepest"].as_u64().unwrap() > 16, "{v}");
    assert!(v["partial"].is_null());
}

#[test]
fn a_board_that_cannot_be_filled_is_exhausted() {
    // Four tiles whose edges never match.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("none.yaml");
    let tile = "[[a, +], [a, +], [a, +], [a, +]]";
    std::fs::write(&p, format!("1: {tile}\n2: {tile}\n3: {tile}\n4: {tile}\n")).unwrap();
    let v = probe(&[p.to_str().unwrap()], 0);
    assert_eq!(v["end"], "exhausted");
    assert_eq!(v["deepest"], 1);
}

#[test]
fn depths_outside_the_board_are_refused() {
    let f = e2("clue1.txt");
    cmd()
        .args(["probe", f.to_str().unwrap(), "--depth", "37"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--depth 37").and(predicate::str::contains("36 cells")));
    cmd()
        .args(["probe", f.to_str().unwrap(), "--depth", "0"])
        .assert()
        .code(2);
}

/// `--estimate`: Knuth's estimate of the full tree, which the full-tree
/// solve counts exactly; the same seed gives the same estimate.
#[test]
fn the_tree_estimate_brackets_the_full_tree_count() {
    let f = e2("clue1.txt");
    let f = f.to_str().unwrap();
    let v = probe(&[f, "--order", "row-up", "--estimate", "4000"], 0);
    assert_eq!(v["probes"], 4000);
    assert_eq!(v["end"], "complete");
    assert_eq!(v["order"], "row-up");
    assert_eq!(v["nodes_per_depth"].as_array().unwrap().len(), 36);
    let again = probe(&[f, "--order", "row-up", "--estimate", "4000"], 0);
    assert_eq!(again["nodes"], v["nodes"]);
    let other = probe(
        &[f, "--order", "row-up", "--estimate", "4000", "--seed", "2"],
        0,
    );
    assert_ne!(other["nodes"], v["nodes"]);
    // The seed puzzle's full tree in row order, counted by the solver.
    let seed = common::seed();
    let s = seed.to_str().unwrap();
    let out = cmd()
        .args(["solve", s, "--solver", "backtrack", "--order", "row"])
        .args(["--full-tree", "--count", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let exact: Value = serde_json::from_slice(&out).unwrap();
    let nodes = exact["solver_stats"]["nodes"].as_f64().unwrap();
    let est = probe(&[s, "--order", "row", "--estimate", "20000"], 0);
    let (mean, se) = (
        est["nodes"].as_f64().unwrap(),
        est["nodes_std_error"].as_f64().unwrap(),
    );
    assert!((mean - nodes).abs() <= 5.0 * se, "{mean} ± {se} vs {nodes}");
    // The root's children are counted, not sampled.
    assert_eq!(
        est["nodes_per_depth"][0],
        exact["solver_stats"]["nodes_per_depth"][0]
            .as_f64()
            .unwrap()
    );
    let sols = exact["raw_count"].as_f64().unwrap();
    let (mean, se) = (
        est["solutions"].as_f64().unwrap(),
        est["solutions_std_error"].as_f64().unwrap(),
    );
    assert!((mean - sols).abs() <= 5.0 * se, "{mean} ± {se} vs {sols}");
    let lo = est["solutions_interval_95"][0].as_f64().unwrap();
    let hi = est["solutions_interval_95"][1].as_f64().unwrap();
    assert!(
        lo <= mean && mean <= hi && lo >= 0.0,
        "[{lo}, {hi}] around {mean}"
    );
    // Usage errors: --depth with --estimate; --seed alone.
    cmd()
        .args(["probe", s, "--depth", "3", "--estimate", "10"])
        .assert()
        .code(2);
    cmd().args(["probe", s, "--seed", "3"]).assert().code(2);
    cmd()
        .args(["probe", s, "--estimate", "10"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Knuth's estimate of the full tree from 10 probes",
        ));
}

/// Where no probe reaches a full board, the text gives no solution
/// estimate (its mean and error would both be 0, whatever the count).
#[test]
fn no_full_board_reached_gives_no_solution_estimate() {
    let text = common::stdout_ok(
        &cmd()
            .args(["probe", e2("8x8-b.txt").to_str().unwrap()])
            .args(["--order", "row", "--estimate", "500"])
            .output()
            .unwrap(),
    );
    assert!(
        text.contains("labelled solutions: no estimate (no probe reached a full board)"),
        "{text}"
    );
    assert!(text.contains("nodes: "), "{text}");
    // The JSON says the same with nulls, not a count of 0.
    let f = e2("8x8-b.txt");
    let v = probe(
        &[f.to_str().unwrap(), "--order", "row", "--estimate", "500"],
        0,
    );
    assert_eq!(v["complete_probes"], 0);
    for key in ["solutions", "solutions_std_error", "solutions_interval_95"] {
        assert!(v[key].is_null(), "{key}: {v}");
    }
}
