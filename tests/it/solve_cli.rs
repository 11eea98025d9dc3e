//! End-to-end tests of `scramble solve` with the real CP-SAT solver.

use crate::common;

use common::{cmd, seed, solve_json};
use predicates::prelude::*;
use serde_json::json;

const SEED_CANONICAL: &str = "[[1,1],[9,3],[7,2],[4,2],[5,3],[3,2],[8,0],[6,3],[2,2]]";

#[test]
fn seed_puzzle_json() {
    if !common::has_cpsat() {
        return;
    }
    let (v, code) = solve_json(&[seed().to_str().unwrap(), "--all"]);
    assert_eq!(code, 0);
    assert_eq!(v["board"], 3);
    assert_eq!(v["solver"], "cp-sat");
    assert_eq!(v["solver_version"], "9.15.6755");
    assert_eq!(v["model"], "edge");
    assert_eq!(v["symmetry"], "none");
    assert_eq!(v["equivalence"], "rotation");
    assert_eq!(v["complete"], true);
    assert_eq!(v["raw_count"], 4);
    assert_eq!(v["canonical_count"], 1);
    let canonical: serde_json::Value = serde_json::from_str(SEED_CANONICAL).unwrap();
    assert_eq!(v["solutions"], json!([canonical]));
    assert!(v["wall_time_s"].as_f64().unwrap() > 0.0);
    let stats = &v["solver_stats"];
    assert!(stats["branches"].is_u64());
    assert!(stats["conflicts"].is_u64());
    assert!(stats["wall_time_s"].as_f64().unwrap() > 0.0);
    assert!(stats["subproblems"].as_u64().unwrap() >= 1);

    // The four raw solutions are the four turns of the canonical one.
    let raw: Vec<Vec<(i64, u8)>> = serde_json::from_value(v["raw_solutions"].clone()).unwrap();
    assert_eq!(raw.len(), 4);
    let c: Vec<(i64, u8)> = serde_json::from_str(SEED_CANONICAL).unwrap();
    let board = scramble::board::Solution::new(c.into_iter().map(Into::into).collect());
    let mut turns: Vec<Vec<(i64, u8)>> = board
        .turns()
        .iter()
        .map(|t| t.cells().iter().map(|&p| p.into()).collect())
        .collect();
    turns.sort();
    assert_eq!(raw, turns);
}

#[test]
fn seed_puzzle_text() {
    if !common::has_cpsat() {
        return;
    }
    cmd()
        .args(["solve", seed().to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("board: 3x3"))
        .stdout(predicate::str::contains("solver: cp-sat 9.15.6755"))
        .stdout(predicate::str::contains("raw solutions: 4"))
        .stdout(predicate::str::contains("canonical solutions: 1"))
        .stdout(predicate::str::contains("search: complete"))
        .stdout(predicate::str::contains(
            "=== Solution: 1 ===\n[t=1,r=1] [t=9,r=3] [t=7,r=2]\n[t=4,r=2] [t=5,r=3] [t=3,r=2]\n[t=8,r=0] [t=6,r=3] [t=2,r=2]\n",
        ));
}

#[test]
fn all_prints_every_raw_solution() {
    if !common::has_cpsat() {
        return;
    }
    let out = cmd()
        .args(["solve", seed().to_str().unwrap(), "--all"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("=== Solution:").count(), 4);
}

#[test]
fn every_split_mode_and_thread_count_agrees() {
    if !common::has_cpsat() {
        return;
    }
    let p = common::corpus().join("der-sternenhimmel.yaml");
    let p = p.to_str().unwrap();
    let mut seen = Vec::new();
    for args in [
        vec!["--split", "none"],
        vec!["--split", "0"],
        vec!["--split", "2", "--threads", "2"],
        vec!["--split", "auto", "--threads", "3"],
    ] {
        let mut a = vec![p];
        a.extend(args.iter());
        let (v, code) = solve_json(&a);
        assert_eq!(code, 0, "{args:?}");
        assert_eq!(v["raw_count"], 224, "{args:?}");
        assert_eq!(v["canonical_count"], 56, "{args:?}");
        seen.push(v["solutions"].clone());
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn dump_model_writes_the_formulation() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("model.pbtxt");
    cmd()
        .args([
            "solve",
            seed().to_str().unwrap(),
            "--model",
            "table",
            "--dump-model",
        ])
        .arg(&file)
        .assert()
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("variables { name: \"tile_1_1\" domain: [1, 9] }"));
    assert!(text.contains("variables { name: \"rotation_3_3\" domain: [0, 3] }"));
    assert_eq!(text.matches("all_diff {").count(), 1);
    assert_eq!(text.matches("table {").count(), 12);
    assert!(text.contains("name: \"horizontal_1_1\""));
    assert!(text.contains("name: \"vertical_2_3\""));
    // No temporary file left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

    // The file exists now: replaced only with --force.
    cmd()
        .args(["solve", seed().to_str().unwrap(), "--dump-model"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "already exists (--force replaces it)",
        ));
    // The default, edge: a table per cell over (tile, rotation, labels),
    // a label variable per internal edge, and the board-turn reduction
    // (the centre's rotation is 0) unless --full-tree.
    cmd()
        .args(["solve", seed().to_str().unwrap(), "--force", "--dump-model"])
        .arg(&file)
        .assert()
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("table {").count(), 9);
    assert!(text.contains("variables { name: \"h_1_2\""));
    assert!(text.contains("variables { name: \"v_2_3\""));
    assert!(text.contains("name: \"center_rotation_0\""));
    cmd()
        .args([
            "solve",
            seed().to_str().unwrap(),
            "--full-tree",
            "--force",
            "--dump-model",
        ])
        .arg(&file)
        .assert()
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("center_rotation_0"));
}

#[test]
fn time_limit_reports_an_incomplete_result() {
    if !common::has_cpsat() {
        return;
    }
    // CP-SAT enumerates 8x8-a for hours: only the limit ends it.
    let p = common::e2("8x8-a.txt");
    let (v, code) = solve_json(&[p.to_str().unwrap(), "--time-limit", "0.3", "--threads", "1"]);
    assert_eq!(code, 1);
    assert_eq!(v["complete"], false);
    assert_eq!(v["outcome"], "incomplete");
    assert_eq!(v["stopped_by"], "time_limit");
    assert!(v["raw_count"].as_u64().unwrap() < 52 * 4);
}

#[test]
fn limit_gives_the_first_solutions_and_exits_0() {
    if !common::has_cpsat() {
        return;
    }
    // ant-trails: too many solutions to enumerate; its first comes at once.
    let ants = common::corpus().join("the-ant-trails-puzzle.yaml");
    let (v, code) = solve_json(&[ants.to_str().unwrap(), "--limit", "1"]);
    assert_eq!(code, 0);
    assert_eq!(v["complete"], false);
    assert_eq!(v["stopped_by"], "limit");
    assert_eq!(v["classes_count"], 1);
    assert_eq!(v["raw_count"], 4);
    // With the backtracker, and past the count (then complete).
    let seed = seed();
    let (v, code) = solve_json(&[
        seed.to_str().unwrap(),
        "--limit",
        "1",
        "--solver",
        "backtrack",
    ]);
    assert_eq!(
        (code, &v["stopped_by"], &v["classes_count"]),
        (0, &"limit".into(), &1.into())
    );
    let (v, code) = solve_json(&[seed.to_str().unwrap(), "--limit", "5"]);
    assert_eq!(
        (code, &v["outcome"], &v["classes_count"]),
        (0, &"complete".into(), &1.into())
    );
    let out = cmd()
        .args(["solve", ants.to_str().unwrap(), "--limit", "1"])
        .output()
        .unwrap();
    assert!(common::stdout_ok(&out).contains("search: stopped at --limit"));
    cmd()
        .args(["solve", seed.to_str().unwrap(), "--limit", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--limit"));
}

#[test]
fn bad_time_and_memory_limits_are_usage_errors() {
    let cases = [
        ("--time-limit", &["0", "-1", "abc", "inf"][..]),
        (
            "--memory-limit",
            &["0", "-5", "1.5", "lots", "1000000001"][..],
        ),
    ];
    for (flag, bads) in cases {
        for bad in bads {
            cmd()
                .args(["solve", seed().to_str().unwrap(), &format!("{flag}={bad}")])
                .assert()
                .code(2)
                .stderr(predicate::str::contains(flag));
        }
    }
}

#[test]
fn a_memory_limit_below_the_run_stops_cp_sat_with_its_reason() {
    if !common::has_cpsat() {
        return;
    }
    // 1 MB is less than any CP-SAT run adds to its process, and these
    // searches cannot end by themselves (CP-SAT enumerates 8x8-a for hours
    // and finds no first solution of meta-10x10 in ten minutes): the only
    // way they end is the ceiling, on any machine. The enumeration's one
    // solve cannot be cut smaller (--split none).
    let all = common::e2("8x8-a.txt");
    let first = common::e2("meta-10x10.txt");
    let cases = [
        (&all, &["--all", "--split", "none"][..]),
        (&first, &["--limit", "1"][..]),
    ];
    for (puzzle, extra) in cases {
        let mut args = vec![puzzle.to_str().unwrap(), "--memory-limit", "1"];
        args.extend_from_slice(extra);
        let (v, code) = solve_json(&args);
        assert_eq!(code, 1, "{extra:?}");
        assert_eq!(v["outcome"], "incomplete", "{extra:?}");
        assert_eq!(v["stopped_by"], "memory_limit", "{extra:?}");
    }
    // The text report says what stopped it and how to raise it.
    cmd()
        .args(["solve", all.to_str().unwrap(), "--split", "none"])
        .args(["--memory-limit", "1"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "INCOMPLETE: memory ceiling reached: the solver's model or clauses, a solve \
             that cannot be cut smaller, or the solutions kept would pass it (raise it with \
             --memory-limit MB)",
        ));
    let seed = seed();
    // A ceiling above the run changes nothing.
    let (v, code) = solve_json(&[seed.to_str().unwrap(), "--memory-limit", "100000"]);
    assert_eq!(code, 0);
    assert_eq!(v["complete"], true);
    assert_eq!(v["raw_count"], 4);
    // The backtracker's search holds a fixed amount: four solutions kept
    // pass no ceiling.
    let (v, code) = solve_json(&[
        seed.to_str().unwrap(),
        "--solver",
        "backtrack",
        "--memory-limit",
        "1",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["raw_count"], 4);
}

#[test]
fn a_memory_limit_below_the_run_stops_the_sat_engine_and_what_is_kept() {
    // The SAT engine enumerates 8x8-a for hours, and listing the 4x4 with
    // one motif (trillions of classes) never ends: the only way these
    // runs end is the ceiling of 1 MB, on any machine. The SAT engine
    // passes it with its clauses, the backtracker with the solutions it
    // keeps to list them.
    let all = common::e2("8x8-a.txt");
    let (_dir, identical) = common::generated(4, 1, 1);
    let cases = [
        (all.to_str().unwrap(), &["--solver", "sat", "--all"][..]),
        (
            identical.to_str().unwrap(),
            &["--solver", "backtrack", "--all"][..],
        ),
    ];
    for (puzzle, extra) in cases {
        let mut args = vec![puzzle, "--memory-limit", "1"];
        args.extend_from_slice(extra);
        let (v, code) = solve_json(&args);
        assert_eq!(code, 1, "{extra:?}");
        assert_eq!(v["outcome"], "incomplete", "{extra:?}");
        assert_eq!(v["stopped_by"], "memory_limit", "{extra:?}");
    }
}

#[test]
fn ctrl_c_stops_with_what_was_found() {
    if !common::has_cpsat() {
        return;
    }
    // Far too many solutions to finish before the interrupt.
    let p = common::corpus().join("the-ant-trails-puzzle.yaml");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("scramble"))
        .args([
            "solve",
            p.to_str().unwrap(),
            "--format",
            "json",
            "--threads",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    common::interrupt(&child);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["stopped_by"], "interrupted");
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
}

#[test]
fn a_burst_of_interrupts_is_one_stop_with_what_was_found() {
    // Far too many solutions to count before the interrupts; the
    // backtracker, so nothing but the binary is needed.
    let p = common::corpus().join("the-ant-trails-puzzle.yaml");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("scramble"))
        .args(["solve", p.to_str().unwrap(), "--solver", "backtrack"])
        .args(["--count", "--format", "json", "--threads", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    common::interrupt_burst(&child, 3);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stopped_by"], "interrupted");
}

#[test]
fn missing_runtime_says_how_to_fix_it() {
    cmd()
        .env("SCRAMBLE_CPSAT_LIB", "/nonexistent/libortools.so.9")
        .args(["solve", seed().to_str().unwrap()])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "SCRAMBLE_CPSAT_LIB=/nonexistent/libortools.so.9",
        ))
        .stderr(predicate::str::contains("scripts/install/cpsat"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn a_library_that_is_not_ortools_is_rejected() {
    // Any shared library without the CP-SAT C API.
    let libc = [
        "/lib/x86_64-linux-gnu/libc.so.6",
        "/usr/lib/x86_64-linux-gnu/libc.so.6",
    ]
    .into_iter()
    .find(|p| std::path::Path::new(p).exists());
    let Some(libc) = libc else { return };
    cmd()
        .env("SCRAMBLE_CPSAT_LIB", libc)
        .args(["solve", seed().to_str().unwrap()])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("missing SolveCpNewEnv"))
        .stderr(predicate::str::contains("scripts/install/cpsat"));
}

#[test]
fn dump_model_needs_no_runtime() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.txt");
    cmd()
        .env("SCRAMBLE_CPSAT_LIB", "/nonexistent")
        .args(["solve", seed().to_str().unwrap(), "--dump-model"])
        .arg(&file)
        .assert()
        .code(3);
    assert!(file.exists());
}

#[test]
fn a_model_too_big_is_refused_before_it_is_built() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .args(["generate", "--size", "20", "--motifs", "22", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let p = dir.path().join("20x20-m22-s1-0001.yaml");
    cmd()
        .args(["solve", p.to_str().unwrap(), "--model", "table"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("20x20-m22-s1-0001.yaml"))
        .stderr(predicate::str::contains("the table model would hold"))
        .stderr(predicate::str::contains("try --model edge"));
    // "would hold" is said from its size alone, before anything is built
    // (building it takes seconds and GBs).
    // The edge model of the same board is built and searched until the
    // time limit: an incomplete result, not an error.
    let (v, code) = solve_json(&[p.to_str().unwrap(), "--time-limit", "1", "--threads", "1"]);
    assert_eq!(code, 1);
    assert_eq!(v["model"], "edge");
    assert_eq!(v["outcome"], "incomplete");
    assert_eq!(v["stopped_by"], "time_limit");
}

#[test]
fn a_first_solution_search_stopped_by_its_time_limit_reports_its_search() {
    if !common::has_cpsat() {
        return;
    }
    // No solution of meta-10x10 in 4 s: CP-SAT's own time limit ends the
    // search just before the run's, and the statistics of every solve that
    // came back are reported (a number, 0 on a machine so loaded that the
    // presolve took it all). On a machine so loaded that the solve did not
    // come back within its grace after the limit, none came back, and the
    // sums are not known: absent, never a made-up 0.
    let p = common::e2("meta-10x10.txt");
    let (v, code) = solve_json(&[
        p.to_str().unwrap(),
        "--solver",
        "cp-sat",
        "--limit",
        "1",
        "--time-limit",
        "4",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["stopped_by"], "time_limit");
    let stats = &v["solver_stats"];
    // One round at most: it finds nothing, so none follows it.
    let came_back = stats["subproblems"].as_u64().unwrap() >= 1;
    assert_eq!(stats["branches"].as_u64().is_some(), came_back, "{v}");
    assert_eq!(stats["conflicts"].as_u64().is_some(), came_back, "{v}");
    // The run's time limit holds (the margin is for a loaded machine).
    assert!(v["wall_time_s"].as_f64().unwrap() < 5.5, "{v}");
}

/// A 16x16 whose `edge-boolean` model CP-SAT presolves for seconds without
/// looking at its stop flag (1,021,440 clauses).
fn presolve_bound(dir: &std::path::Path) -> std::path::PathBuf {
    cmd()
        .args(["generate", "--size", "16", "--motifs", "20", "--seed", "3"])
        .arg("--out")
        .arg(dir)
        .assert()
        .success();
    dir.join("16x16-m20-s3-0001.yaml")
}

#[test]
fn a_presolve_that_ignores_the_stop_does_not_hold_the_run() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let p = presolve_bound(dir.path());
    // One cause at a time: the memory ceiling far out of reach (the
    // default one, derived from the machine, could be met near the time
    // limit by this model's presolve).
    let args = [
        "solve",
        p.to_str().unwrap(),
        "--model",
        "edge-boolean",
        "--memory-limit",
        "1000000",
    ];
    // The time limit, and the time limit with --limit (one solve per class).
    // With --limit the solve must have started before the limit to be
    // given up on: the build and encoding take about 1 s on a loaded
    // machine, so that run gets 3 s (the presolve alone takes longer).
    for (extra, limit) in [(&[][..], 1), (&["--limit", "1"][..], 3)] {
        let out = cmd()
            .args(args)
            .args(["--time-limit", &limit.to_string(), "--threads", "1"])
            .args(["--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        assert_eq!(v["stopped_by"], "time_limit", "{extra:?}");
        // Waiting for the presolve took 1.8 s past the limit; now the run
        // gives the solve 0.15 s once asked to stop, and leaves it.
        assert!(no_response_waited_for(&v), "{extra:?}: {v}");
        // The one solve of --limit was given up on in its presolve: its
        // statistics are not known, and not reported as 0. On a loaded
        // machine the limit can pass while the model is still built and
        // encoded (1.7 s on a fresh clone beside the build of the Python
        // package): then no solve began, and the sums over none are 0.
        if !extra.is_empty() {
            let stats = &v["solver_stats"];
            let never_began = stats["subproblems"] == 0 && stats["wall_time_s"] == 0.0;
            assert!(stats["branches"].is_null() || never_began, "{v}");
            if !stats["branches"].is_null() {
                assert_eq!(stats["branches"], 0, "{v}");
            }
        }
    }
    // Ctrl-C while the model is built or encoded (about 0.6 s from the
    // start), and in the middle of the presolve (it takes seconds).
    for after in [300, 1200] {
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("scramble"))
            .args(args)
            .args(["--threads", "1", "--format", "json"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(after));
        common::interrupt(&child);
        let out = child.wait_with_output().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(1), "{after} ms");
        assert_eq!(v["stopped_by"], "interrupted", "{after} ms");
        assert!(no_response_waited_for(&v), "{after} ms: {v}");
    }
}

/// The run did not wait for CP-SAT's answer: its one solve was given up on
/// (or had not begun), so no CP-SAT wall time is in the report. A solve
/// waited for until its presolve ended reports the seconds it ran. This
/// holds whatever the machine's speed, where a bound on the run's own
/// time would not.
fn no_response_waited_for(v: &serde_json::Value) -> bool {
    v["solver_stats"]["wall_time_s"]
        .as_f64()
        .is_none_or(|t| t == 0.0)
}

#[test]
fn every_model_solves_the_seed_puzzle_from_the_command_line() {
    if !common::has_cpsat() {
        return;
    }
    for model in ["table", "edge", "boolean", "edge-boolean"] {
        let (v, code) = solve_json(&[seed().to_str().unwrap(), "--model", model]);
        assert_eq!(code, 0, "{model}");
        assert_eq!(v["model"], model);
        assert_eq!(v["raw_count"], 4);
        let canonical: serde_json::Value = serde_json::from_str(SEED_CANONICAL).unwrap();
        assert_eq!(v["solutions"], json!([canonical]));
    }
    let out = cmd()
        .args(["solve", seed().to_str().unwrap(), "--model", "sat"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown model \"sat\""), "{err}");
    assert!(err.contains("table, edge, boolean, edge-boolean"), "{err}");
    let out = cmd()
        .args(["solve", seed().to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("model: edge"), "{text}");
}

#[test]
fn split_with_the_backtracker_is_a_usage_error() {
    // --split cuts CP-SAT's enumeration; the backtracker would ignore it.
    cmd()
        .args(["solve", seed().to_str().unwrap(), "--solver", "backtrack"])
        .args(["--split", "none"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--split applies to --solver cp-sat only",
        ));
}

/// `scramble model`: the model a solve would dump, without solving (and
/// without the CP-SAT runtime); `--full-tree` leaves out the turn reduction.
#[test]
fn model_prints_what_dump_model_writes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("model.pbtxt");
    let mut solve = cmd();
    solve.args([
        "solve",
        seed().to_str().unwrap(),
        "--model",
        "table",
        "--dump-model",
    ]);
    solve.arg(&file);
    if common::has_cpsat() {
        solve.assert().success();
        let printed = cmd()
            .args(["model", seed().to_str().unwrap(), "--model", "table"])
            .output()
            .unwrap();
        assert!(printed.status.success());
        assert_eq!(
            String::from_utf8(printed.stdout).unwrap(),
            std::fs::read_to_string(&file).unwrap()
        );
    }
    let full = dir.path().join("full.pbtxt");
    cmd()
        .args([
            "model",
            seed().to_str().unwrap(),
            "--full-tree",
            "--symmetry",
            "lex",
            "--out",
        ])
        .arg(&full)
        .env("SCRAMBLE_CPSAT_LIB", dir.path().join("missing.so"))
        .assert()
        .success()
        .stdout("");
    let text = std::fs::read_to_string(&full).unwrap();
    assert!(text.contains("variables { name: \"tile_1_1\" domain: [1, 9] }"));
    cmd()
        .args(["model", seed().to_str().unwrap(), "--symmetry", "nonsense"])
        .assert()
        .code(2);
    cmd()
        .args(["model", "no-such-puzzle.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-puzzle.yaml"));
}
