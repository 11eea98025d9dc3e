//! The Eternity II corpus through the command line: every file loads, clue
//! puzzles are solved and drawn, the 16x16 with its starter piece stops
//! honestly at its time limit, bad input is refused with file and line.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::PathBuf;

fn cmd() -> Command {
    Command::cargo_bin("scramble").unwrap()
}

fn e2(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles/eternity2")
        .join(name)
}

#[test]
fn every_piece_file_loads_and_draws() {
    let dir = tempfile::tempdir().unwrap();
    for f in std::fs::read_dir(e2("")).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "txt") {
            cmd()
                .arg("render")
                .arg(&f)
                .arg("-o")
                .arg(dir.path().join("t.svg"))
                .assert()
                .success();
        }
    }
}

#[test]
fn clue1_is_solved_by_the_backtracker_verified_and_written_as_et2() {
    let out = cmd()
        .args([
            "solve",
            "--solver",
            "backtrack",
            "--limit",
            "1",
            "--format",
            "et2",
        ])
        .arg(e2("clue1.txt"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");
    // Read back as a board the community's tools load, then drawn.
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.et2");
    std::fs::write(&board, &text).unwrap();
    cmd()
        .arg("render")
        .arg(e2("clue1.txt"))
        .arg("--solution")
        .arg(&board)
        .arg("-o")
        .arg(dir.path().join("b.svg"))
        .assert()
        .success();
}

#[test]
fn clue2_is_solved_by_cp_sat() {
    if !common::has_cpsat() {
        return;
    }
    cmd()
        .args(["solve", "--limit", "1", "--format", "json"])
        .arg(e2("clue2.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("\"rows\": 6"))
        .stdout(predicate::str::contains("\"cols\": 12"))
        .stdout(predicate::str::contains("\"frame\": \"0\""));
}

#[test]
fn eternity2_with_its_starter_piece_stops_at_the_time_limit() {
    cmd()
        .args([
            "solve",
            "--solver",
            "backtrack",
            "--hint",
            "eternity2",
            "--time-limit",
            "1",
            "--format",
            "json",
        ])
        .arg(e2("eternity2.txt"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\"stopped_by\": \"time_limit\""))
        .stdout(predicate::str::contains("\"raw_count\": 0"))
        .stdout(predicate::str::contains("\"tile\": 139"));
}

#[test]
fn bad_family_input_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str)] = &[
        (
            "a.txt",
            "2 2\n0 0 1 2\n0 2 1 0\n2 0 0 1\n",
            ":1: the header says 2x2 = 4 pieces, the file has 3",
        ),
        (
            "b.txt",
            "2 2\n0 0 1 2\n0 2 1 0\n2 0 0 1\n1 0 0 x\n",
            ":5: \"x\" is not a colour number",
        ),
        (
            "c.txt",
            "2 2\n0 0 1 2\n0 2 1 0\n2 0 0 1\n1 0 2 2\n",
            "3 corner pieces",
        ),
        (
            "d.yaml",
            "rows: 1\ncols: 2\nhints:\n  - {tile: 1, cell: [2, 1], rotation: 0}\n1: [[a, '='], [a, '='], [a, '='], [a, '=']]\n2: [[a, '='], [a, '='], [a, '='], [a, '=']]\n",
            "d.yaml:3: hint: tile 1 on (2, 1), outside the 1x2 board",
        ),
        (
            "e.yaml",
            "rows: 1\nhints:\n  - {tile: 1, cell: [1, 1], rotation: 0}\n  - {tile: 1, cell: [1, 2], rotation: 0}\n1: [[a, '='], [a, '='], [a, '='], [a, '=']]\n2: [[a, '='], [a, '='], [a, '='], [a, '=']]\n",
            "tile 1 is fixed twice",
        ),
        (
            "f.yaml",
            "rows: 1\nhints:\n  - {tile: 1, cell: [1, 1], rotation: 0}\n  - {tile: 2, cell: [1, 1], rotation: 0}\n1: [[a, '='], [a, '='], [a, '='], [a, '=']]\n2: [[a, '='], [a, '='], [a, '='], [a, '=']]\n",
            "two pieces fixed on (1, 1)",
        ),
        (
            "g.yaml",
            "turns: sideways\n1: [[a, '='], [a, '='], [a, '='], [a, '=']]\n",
            "g.yaml:1",
        ),
    ];
    for (name, text, want) in cases {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        cmd()
            .arg("solve")
            .arg("--solver")
            .arg("backtrack")
            .arg(&f)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*name))
            .stderr(predicate::str::contains(*want))
            .stderr(predicate::str::contains("panicked").not());
    }
    cmd()
        .args(["solve", "--solver", "backtrack", "--hint", "139@Q1/2"])
        .arg(e2("clue1.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a square of the 6x6 board"));
}
