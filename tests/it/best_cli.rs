//! `scramble best`: every streamed board is valid and scored right, the
//! score never goes down, a full board ends the run, limits and Ctrl-C end
//! it with the best board written, a checkpoint resumes, bad input is
//! refused.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{cmd, e2, seed};
use predicates::prelude::*;
use scramble::board::{Placement, Solution};
use scramble::puzzle::Puzzle;

/// The JSON Lines of a run: (improvements, summary).
fn lines(stdout: &[u8]) -> (Vec<serde_json::Value>, serde_json::Value) {
    let text = String::from_utf8_lossy(stdout);
    let mut all: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let summary = all.pop().expect("a summary line");
    assert_eq!(summary["type"], "summary");
    (all, summary)
}

/// Every improvement's board scored again here; scores strictly rise.
fn check_stream(puzzle: &Path, improvements: &[serde_json::Value]) -> usize {
    let p = Puzzle::load(puzzle).unwrap();
    let mut last = None;
    for imp in improvements {
        assert_eq!(imp["type"], "improvement");
        let cells: Vec<Placement> = serde_json::from_value(imp["board"].clone()).unwrap();
        let board = Solution::shaped(cells, p.shape());
        let score = board.score(&p).expect("a board that keeps the rules");
        assert_eq!(imp["score"], score.valid, "{imp}");
        assert_eq!(imp["broken"].as_array().unwrap().len(), score.broken.len());
        let s = score.valid;
        assert!(
            last.is_none_or(|l| s > l),
            "the score went down or stayed: {imp}"
        );
        last = Some(s);
    }
    last.unwrap_or(0)
}

#[test]
fn the_backtracker_reaches_the_full_score_on_small_boards() {
    for (puzzle, joins) in [(seed(), 12), (e2("clue1.txt"), 2 * 6 * 5)] {
        let out = cmd()
            .args(["best", puzzle.to_str().unwrap(), "--format", "jsonl"])
            .args(["--time-limit", "60", "--threads", "2"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (improvements, summary) = lines(&out.stdout);
        assert_eq!(check_stream(&puzzle, &improvements), joins);
        assert_eq!(summary["score"], joins);
        assert_eq!(summary["joins"], joins);
        assert_eq!(summary["ended"], "full");
        // The breaks or, beside them, the complete search (exact.rs).
        let by = improvements.last().unwrap()["method"].as_str().unwrap();
        assert!(["backtrack", "exact"].contains(&by), "{by}");
    }
}

#[test]
fn the_depth_search_reaches_the_full_score_on_small_boards() {
    for (puzzle, joins) in [(seed(), 12), (e2("clue1.txt"), 2 * 6 * 5)] {
        let out = cmd()
            .args(["best", puzzle.to_str().unwrap(), "--format", "jsonl"])
            .args(["--method", "depth", "--time-limit", "120", "--threads", "2"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (improvements, summary) = lines(&out.stdout);
        assert_eq!(check_stream(&puzzle, &improvements), joins);
        assert_eq!(summary["ended"], "full");
        // The depth search or, beside it, the complete search (exact.rs).
        let by = improvements.last().unwrap()["method"].as_str().unwrap();
        assert!(["depth", "exact"].contains(&by), "{by}");
    }
}

#[test]
fn a_limit_stops_the_complete_search_too() {
    // 8x8-a's tree is within the complete search's reach, and holds far
    // more than a second of it: the limit must stop that thread as well.
    let out = cmd()
        .args([
            "best",
            e2("8x8-a.txt").to_str().unwrap(),
            "--format",
            "jsonl",
        ])
        .args(["--time-limit", "1", "--threads", "2"])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let (improvements, summary) = lines(&out.stdout);
    assert!(check_stream(&e2("8x8-a.txt"), &improvements) < 112);
    assert_eq!(summary["ended"], "time_limit");
}

#[test]
fn cp_sat_and_the_hybrid_reach_the_full_score_on_the_seed() {
    if !common::has_cpsat() {
        return;
    }
    for method in ["cp-sat", "hybrid"] {
        let out = cmd()
            .args(["best", seed().to_str().unwrap(), "--format", "jsonl"])
            .args(["--method", method, "--time-limit", "60", "--threads", "2"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{method}");
        let (improvements, summary) = lines(&out.stdout);
        assert_eq!(check_stream(&seed(), &improvements), 12, "{method}");
        assert!(["full", "optimal"].contains(&summary["ended"].as_str().unwrap()));
    }
}

/// The seed puzzle with one motif half changed: no board has every join,
/// so the run ends at its limit.
fn unsolvable(dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(seed().join("input/tile_dict.yaml")).unwrap();
    // The centre tile's first edge (inside on every board turn of the
    // solution) turns into the other half of its motif.
    let mut out = String::new();
    let mut done = false;
    for line in text.lines() {
        if !done && line.trim_start().starts_with("5:") {
            let changed = if line.contains("'+'") {
                line.replacen("'+'", "'-'", 1)
            } else {
                line.replacen("'-'", "'+'", 1)
            };
            assert_ne!(changed, line, "{line}");
            out.push_str(&changed);
            done = true;
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    assert!(done, "{text}");
    let path = dir.join("unsolvable.yaml");
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn a_limit_ends_the_run_with_the_best_board_written_and_a_checkpoint_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = unsolvable(dir.path());
    let checkpoint = dir.path().join("best.json");
    let svg = dir.path().join("best.svg");
    let et2 = dir.path().join("best.et2");
    let out = cmd()
        .args(["best", puzzle.to_str().unwrap(), "--format", "jsonl"])
        .args(["--time-limit", "1", "--threads", "2"])
        .arg("--checkpoint")
        .arg(&checkpoint)
        .arg("--svg")
        .arg(&svg)
        .arg("--et2")
        .arg(&et2)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "a limit: incomplete");
    let (improvements, summary) = lines(&out.stdout);
    let reached = check_stream(&puzzle, &improvements);
    assert!((1..12).contains(&reached), "{reached}");
    assert_eq!(summary["ended"], "time_limit");
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .contains("broken join")
    );
    assert!(et2.exists());
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(saved["score"], reached);
    // Resumed: it starts from the checkpoint's board, so it never reports
    // less, and the checkpoint keeps the best.
    let out = cmd()
        .args(["best", puzzle.to_str().unwrap(), "--format", "jsonl"])
        .args(["--time-limit", "1", "--seed", "7"])
        .arg("--checkpoint")
        .arg(&checkpoint)
        .output()
        .unwrap();
    let (improvements, summary) = lines(&out.stdout);
    for imp in &improvements {
        assert!(imp["score"].as_u64().unwrap() > reached as u64, "{imp}");
    }
    assert!(summary["score"].as_u64().unwrap() >= reached as u64);
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(again["score"], summary["score"]);
}

#[test]
fn ctrl_c_ends_the_run_with_the_best_board_written() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("best.svg");
    let checkpoint = dir.path().join("best.json");
    let bin = assert_cmd::cargo::cargo_bin!("scramble");
    let mut child = std::process::Command::new(bin)
        .args([
            "best",
            e2("eternity2.txt").to_str().unwrap(),
            "--hint",
            "eternity2",
        ])
        .args(["--time-limit", "600", "--threads", "2"])
        .arg("--svg")
        .arg(&svg)
        .arg("--checkpoint")
        .arg(&checkpoint)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first board's line, then Ctrl-C: a board exists to write,
    // whatever the machine's speed.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    assert!(first.contains(" of 480 joins after "), "{first}");
    common::interrupt(&child);
    let mut text = first;
    std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text.contains("(interrupted;"), "{text}");
    assert!(svg.exists() && checkpoint.exists());
}

#[test]
fn bad_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // An option that would do nothing here is refused, not ignored.
    cmd()
        .args(["best", seed().to_str().unwrap(), "--memory-limit", "100"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--memory-limit applies to the CP-SAT enumeration",
        ));
    cmd()
        .args(["best", seed().to_str().unwrap(), "--svg"])
        .arg(dir.path().join("x.png"))
        .assert()
        .code(2);
    // A checkpoint of another puzzle.
    let checkpoint = dir.path().join("c.json");
    cmd()
        .args(["best", seed().to_str().unwrap(), "--time-limit", "5"])
        .arg("--checkpoint")
        .arg(&checkpoint)
        .assert()
        .success();
    cmd()
        .args(["best", e2("clue1.txt").to_str().unwrap()])
        .arg("--checkpoint")
        .arg(&checkpoint)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("another puzzle"));
}

#[test]
fn cp_sat_proves_the_best_score_of_an_unsolvable_board() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let puzzle = unsolvable(dir.path());
    let out = cmd()
        .args(["best", puzzle.to_str().unwrap(), "--format", "jsonl"])
        .args(["--method", "cp-sat", "--threads", "2", "--time-limit", "60"])
        .output()
        .unwrap();
    let (improvements, summary) = lines(&out.stdout);
    assert!(check_stream(&puzzle, &improvements) < 12);
    // Proved optimal: the run ends by itself, exit 0.
    assert_eq!(summary["ended"], "optimal", "{summary}");
    assert_eq!(out.status.code(), Some(0));
}

/// A join beside a fixed piece may break like any other: a best board is
/// scored, not refused. On the unsolvable seed with its centre tile fixed
/// where the seed's solution has it, that solution breaks one join beside
/// it (the changed edge) and scores 11 of 12, so CP-SAT's proved best is
/// 11, and the backtracker reaches it too.
#[test]
fn a_join_beside_a_fixed_piece_may_break() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = unsolvable(dir.path());
    let hint = scramble::puzzle::pieces::parse_hints("5@2,2/3", 3, 3).unwrap();
    let fixed = Puzzle::load(&puzzle).unwrap().with_hints(&hint).unwrap();
    let cells = [
        (1, 1),
        (9, 3),
        (7, 2),
        (4, 2),
        (5, 3),
        (3, 2),
        (8, 0),
        (6, 3),
        (2, 2),
    ]
    .map(|(tile, rotation)| Placement { tile, rotation })
    .to_vec();
    let score = Solution::shaped(cells, fixed.shape())
        .score(&fixed)
        .unwrap();
    assert_eq!(score.valid, 11, "{:?}", score.broken);
    let mut methods = vec!["backtrack", "depth"];
    if common::has_cpsat() {
        methods.push("cp-sat");
    }
    for method in methods {
        let out = cmd()
            .args(["best", puzzle.to_str().unwrap(), "--hint", "5@2,2/3"])
            .args(["--format", "jsonl", "--method", method])
            // CP-SAT ends by itself; the searches at the limit, long after
            // they have gone through this tiny tree.
            .args(["--time-limit", "5"])
            .output()
            .unwrap();
        let (improvements, summary) = lines(&out.stdout);
        assert_eq!(summary["score"], 11, "{method}: {summary}");
        if method == "cp-sat" {
            assert_eq!(summary["ended"], "optimal", "{summary}");
        }
        for imp in &improvements {
            let cells: Vec<Placement> = serde_json::from_value(imp["board"].clone()).unwrap();
            let board = Solution::shaped(cells, fixed.shape());
            assert_eq!(board.score(&fixed).unwrap().valid, imp["score"]);
        }
    }
}
