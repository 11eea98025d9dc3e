//! The Eternity II corpus through the command line: every file loads, clue
//! puzzles are solved and drawn, the 16x16 with its starter piece stops
//! honestly at its time limit, bad input is refused with file and line.

use crate::common;

use predicates::prelude::*;

use common::{cmd, e2};

#[test]
fn every_piece_file_loads_and_draws() {
    let dir = tempfile::tempdir().unwrap();
    for f in std::fs::read_dir(e2("")).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "txt") {
            // One file for all, replaced each time.
            cmd()
                .arg("render")
                .arg(&f)
                .arg("-o")
                .arg(dir.path().join("t.svg"))
                .arg("--force")
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
    common::draws(&e2("clue1.txt"), &board, &dir.path().join("b.svg"));
}

/// The text report says what a class is on each board: four turns on a
/// square, the half turn on a rectangle, none with a fixed piece.
#[test]
fn the_text_report_names_the_boards_own_turns() {
    for (file, hint, says) in [
        ("clue1.txt", None, "(up to board turns)"),
        ("clue2.txt", None, "(up to the half turn)"),
        (
            "clue1.txt",
            Some("14@1,1/3"),
            "(no board turn keeps the rules)",
        ),
    ] {
        let mut c = cmd();
        c.args(["solve", "--solver", "backtrack", "--limit", "1"]);
        if let Some(h) = hint {
            c.args(["--hint", h]);
        }
        c.arg(e2(file))
            .assert()
            .success()
            .stdout(predicate::str::contains(format!("classes: 1 {says}")));
    }
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
        (
            "h.yaml",
            "cols: 0\n1: [[a, '='], [a, '='], [a, '='], [a, '=']]\n",
            "h.yaml:1: cols: a board needs at least one column",
        ),
        (
            "i.yaml",
            "frame: b\n1: [[a, '='], [a, '='], [a, '='], [a, '=']]\n",
            "i.yaml:1: frame: no tile has the motif \"b\"",
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

/// `generate` makes framed, rectangular, hinted and no-turn puzzles whose
/// planted board solves them; `--unique` keeps one picture.
#[test]
fn generate_makes_family_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    cmd()
        .args(["generate", "--rows", "4", "--cols", "6", "--motifs", "4"])
        .args(["--frame-colours", "2", "--hint", "--unique", "--count", "2"])
        .arg("--out")
        .arg(out)
        .assert()
        .success();
    cmd()
        .args([
            "generate", "--size", "3", "--motifs", "5", "--turns", "none",
        ])
        .arg("--out")
        .arg(out)
        .assert()
        .success();
    for (name, board) in [
        ("4x6-m4-f2-h-s1-0001.yaml", "4x6, frame 0, tile "),
        ("4x6-m4-f2-h-s1-0002.yaml", "4x6, frame 0, tile "),
        ("3x3-m5-t0-s1-0001.yaml", "3x3, tiles do not turn"),
    ] {
        let f = out.join(name);
        let text = std::fs::read_to_string(&f).unwrap();
        // The planted board, in the seed format, solves the puzzle.
        let planted = text
            .lines()
            .find_map(|l| l.strip_prefix("# planted: "))
            .unwrap();
        let sol = out.join(format!("{name}.sol"));
        std::fs::write(&sol, planted).unwrap();
        common::draws(&f, &sol, &out.join(format!("{name}.svg")));
        let report = cmd()
            .arg("solve")
            .arg(&f)
            .args(["--solver", "backtrack", "--format", "json"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&report).unwrap();
        assert!(v["raw_count"].as_u64().unwrap() >= 1, "{name}");
        if name.contains("-h-") {
            assert_eq!(v["pictures_count"], 1, "--unique: {name}");
        }
        if name.contains("-t0-") {
            for sol in v["solutions"].as_array().unwrap() {
                for cell in sol.as_array().unwrap() {
                    assert_eq!(cell[1], 0, "{name}: no turns");
                }
            }
        }
        cmd()
            .arg("solve")
            .arg(&f)
            .args(["--solver", "backtrack"])
            .assert()
            .stdout(predicate::str::contains(format!("board: {board}")));
    }
    // The pictures' index names the board as the text report does (one
    // picture is enough for that: drawing the first 100 of the 256
    // solutions cost 12 s of the suite).
    let pics = out.join("pics");
    cmd()
        .arg("solve")
        .arg(out.join("4x6-m4-f2-h-s1-0001.yaml"))
        .args(["--solver", "backtrack", "--pictures", "1", "--out"])
        .arg(&pics)
        .assert()
        .success();
    let index = std::fs::read_to_string(pics.join("index.html")).unwrap();
    assert!(index.contains("<td>4x6, frame 0, tile "), "{index}");
    // bench's CSV rows say which board each run was on.
    let csv = out.join("runs.csv");
    cmd()
        .arg("bench")
        .arg(out.join("4x6-m4-f2-h-s1-0001.yaml"))
        .arg(out.join("3x3-m5-t0-s1-0001.yaml"))
        .args(["--solvers", "backtrack", "--csv"])
        .arg(&csv)
        .assert()
        .success();
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("puzzle,rows,cols,frame,hints,turns,solver,"));
    assert_eq!(lines.len(), 3);
    // The fixed piece in scramble's --hint notation, quoted (it holds a
    // comma): `,4,6,0,"T@I,J/R",quarter,`.
    let (_, rest) = lines[1].split_once(",4,6,0,\"").unwrap();
    let (hint, rest) = rest.split_once('"').unwrap();
    let (tile, at) = hint.split_once('@').unwrap();
    assert!(
        tile.parse::<u32>().is_ok() && at.contains(',') && at.contains('/'),
        "{hint}"
    );
    assert!(rest.starts_with(",quarter,backtrack,"), "{}", lines[1]);
    assert!(lines[2].contains(",3,3,,,none,backtrack,"), "{}", lines[2]);
    // Options that do not combine.
    for args in [
        &[
            "--size",
            "3",
            "--motifs",
            "5",
            "--turns",
            "none",
            "--duplicates",
            "1",
        ][..],
        &["--size", "3", "--motifs", "5", "--hint", "--self-matching"],
        &[
            "--rows",
            "1",
            "--cols",
            "5",
            "--motifs",
            "5",
            "--frame-colours",
            "1",
        ],
        &["--rows", "3", "--motifs", "5"],
        &["--size", "3", "--rows", "3", "--cols", "3", "--motifs", "5"],
    ] {
        cmd()
            .arg("generate")
            .args(args)
            .arg("--out")
            .arg(out)
            .assert()
            .code(2);
    }
}

/// `convert`: every piece file to YAML and back to the same text; what the
/// piece format cannot say is refused; nothing is overwritten.
#[test]
fn convert_round_trips_the_piece_files() {
    let dir = tempfile::tempdir().unwrap();
    for f in std::fs::read_dir(e2("")).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let name = f.file_stem().unwrap().to_str().unwrap().to_string();
        let yaml = dir.path().join(format!("{name}.yaml"));
        let txt = dir.path().join(format!("{name}.txt"));
        cmd()
            .arg("convert")
            .arg(&f)
            .arg("-o")
            .arg(&yaml)
            .assert()
            .success();
        cmd()
            .arg("convert")
            .arg(&yaml)
            .arg("-o")
            .arg(&txt)
            .assert()
            .success();
        assert_eq!(
            std::fs::read_to_string(&txt).unwrap(),
            std::fs::read_to_string(&f).unwrap(),
            "{name}"
        );
        // Not overwritten without --force.
        cmd()
            .arg("convert")
            .arg(&f)
            .arg("-o")
            .arg(&yaml)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("already exists"));
    }
    // With the starter piece: YAML says it, a piece file cannot.
    let yaml = dir.path().join("e2-start.yaml");
    cmd()
        .arg("convert")
        .arg(e2("eternity2.txt"))
        .args(["--hint", "eternity2", "-o"])
        .arg(&yaml)
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&yaml)
            .unwrap()
            .contains("{tile: 139, cell: [9, 8], rotation: 2}")
    );
    cmd()
        .arg("convert")
        .arg(&yaml)
        .arg("-o")
        .arg(dir.path().join("e2-start.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot fix pieces"));
    // Halves are not colours.
    cmd()
        .arg("convert")
        .arg(common::seed())
        .arg("-o")
        .arg(dir.path().join("seed.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has halves"));
    assert!(!dir.path().join("seed.txt").exists());
}

#[test]
fn generate_has_a_default_for_motifs_and_every_writer_says_what_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let out = cmd()
        .args(["generate", "--size", "4", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("wrote 1 puzzle to "), "{text}");
    // Twice the side: 8 motifs on a 4x4 board.
    let file = dir.path().join("4x4-m8-s1-0001.yaml");
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("--motifs 8")
    );
    for (command, output) in [
        ("render", "p.svg"),
        ("graph", "g.svg"),
        ("convert", "p.txt"),
    ] {
        let target = dir.path().join(output);
        let out = cmd()
            .args([command, file.to_str().unwrap(), "--output"])
            .arg(&target)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        if command == "convert" && out.status.code() == Some(2) {
            // A plain board has no piece file: said, nothing written.
            assert!(!target.exists(), "{err}");
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "{command}: {err}");
        assert!(
            err.contains("wrote ") && err.contains(output),
            "{command}: {err}"
        );
    }
}
