//! Sharded runs merged (`--shard I/N`, `scramble merge`) against one
//! unsharded run: the same report apart from times (and CP-SAT's search
//! statistics, which differ between two unsharded runs too), on the whole
//! corpus, under both equivalences, as JSON, JSON Lines and counts; and
//! the errors for shards that do not belong together.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Run `scramble solve PUZZLE ARGS --shard I/N` for every shard into
/// `dir`; returns the files.
fn shards(dir: &Path, puzzle: &str, args: &[&str], n: usize) -> Vec<PathBuf> {
    (0..n)
        .map(|i| {
            let out = common::cmd()
                .args(["solve", puzzle])
                .args(args)
                .args(["--shard", &format!("{i}/{n}")])
                .output()
                .unwrap();
            assert!(
                out.status.code() == Some(0),
                "shard {i}/{n} of {puzzle}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let path = dir.join(format!("shard-{i}.out"));
            std::fs::write(&path, &out.stdout).unwrap();
            path
        })
        .collect()
}

/// `scramble merge FILES`: its stdout and exit code.
fn merge(files: &[PathBuf]) -> (String, i32, String) {
    let out = common::cmd().arg("merge").args(files).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// One unsharded run's stdout (exit 0).
fn one(puzzle: &str, args: &[&str]) -> String {
    let out = common::cmd()
        .args(["solve", puzzle])
        .args(args)
        .output()
        .unwrap();
    common::stdout_ok(&out)
}

/// A report as text, as a sharded run must reproduce it (see
/// [`common::comparable_report`]).
fn comparable(text: &str, nodes: bool) -> Value {
    common::comparable_report(serde_json::from_str(text).unwrap(), nodes)
}

/// The corpus puzzles whose counts are known (all but the-ant-trails,
/// which has too many solutions to enumerate), with those counts.
fn corpus_files() -> Vec<(String, [u64; 3])> {
    common::expected()
        .into_iter()
        .filter_map(|e| {
            let counts = [e.raw?, e.classes?, e.pictures?];
            let path = common::corpus().join(&e.file);
            Some((path.to_str().unwrap().to_string(), counts))
        })
        .collect()
}

/// The counts of a report: raw, classes, pictures.
fn counts(text: &str) -> [u64; 3] {
    let v: Value = serde_json::from_str(text).unwrap();
    ["raw_count", "classes_count", "pictures_count"].map(|k| v[k].as_u64().unwrap())
}

/// Whether the unsharded backtracker searches tile kinds on this puzzle
/// (identical tiles: a smaller tree than the shards' labelled search).
fn searches_kinds(puzzle: &str) -> bool {
    let p = scramble::puzzle::Puzzle::load(Path::new(puzzle)).unwrap();
    scramble::symmetry::labellings_per_picture(&p).is_none_or(|l| l > 4)
}

#[test]
fn backtracking_shards_merge_to_one_run_on_the_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = corpus_files();
    assert!(corpus.len() >= 90);
    for (puzzle, want) in corpus {
        let args = [
            "--solver",
            "backtrack",
            "--format",
            "json",
            "--threads",
            "1",
        ];
        let files = shards(dir.path(), &puzzle, &args, 3);
        let (merged, code, err) = merge(&files);
        assert_eq!(code, 0, "{puzzle}: {err}");
        assert_eq!(counts(&merged), want, "{puzzle}");
        let nodes = !searches_kinds(&puzzle);
        assert_eq!(
            comparable(&merged, nodes),
            comparable(&one(&puzzle, &args), nodes),
            "{puzzle}"
        );
    }
}

#[test]
fn sat_shards_merge_to_the_known_counts() {
    let dir = tempfile::tempdir().unwrap();
    // Every sixth corpus puzzle: the first cell's placements are the units.
    for (puzzle, want) in corpus_files().into_iter().step_by(6) {
        let args = ["--solver", "sat", "--format", "json", "--threads", "1"];
        let files = shards(dir.path(), &puzzle, &args, 3);
        let (merged, code, err) = merge(&files);
        assert_eq!(code, 0, "{puzzle}: {err}");
        assert_eq!(counts(&merged), want, "{puzzle}");
    }
}

#[test]
fn cpsat_shards_merge_to_one_run_on_the_corpus() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Every third corpus puzzle, but those with over 1,000 solutions: the
    // backtracking test above merges shards on all of them, corpus_cpsat.rs
    // checks CP-SAT's counts on all of them and the test below merges
    // CP-SAT's shards on two with many solutions; the whole corpus three
    // times over here took a minute.
    let few = |(_, want): &(String, [u64; 3])| want[0] <= 1000;
    for (puzzle, want) in corpus_files().into_iter().step_by(3).filter(few) {
        let args = ["--format", "json", "--threads", "1"];
        let files = shards(dir.path(), &puzzle, &args, 2);
        let (merged, code, err) = merge(&files);
        assert_eq!(code, 0, "{puzzle}: {err}");
        assert_eq!(counts(&merged), want, "{puzzle}");
        assert_eq!(
            comparable(&merged, true),
            comparable(&one(&puzzle, &args), true),
            "{puzzle}"
        );
    }
}

/// Pictures, counts, --all and JSON Lines, on puzzles with identical tiles
/// (space-web) and without (the 4x4 crazy-sheep; for CP-SAT the 3x3
/// pippi-langstrumpf-absolut-knifflig, 0.25 s a run against crazy-sheep's
/// 2 s), with both solvers. The backtracker meets every kind of output on
/// both puzzles; CP-SAT meets each kind on one of them, in turn.
#[test]
fn every_kind_of_output_merges() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (p, name) in ["space-web", "crazy-sheep"].into_iter().enumerate() {
        for solver in ["cp-sat", "backtrack"] {
            let name = match (name, solver) {
                ("crazy-sheep", "cp-sat") => "pippi-langstrumpf-absolut-knifflig",
                _ => name,
            };
            let puzzle = common::corpus().join(format!("{name}.yaml"));
            let puzzle = puzzle.to_str().unwrap();
            let nodes = solver == "cp-sat" || !searches_kinds(puzzle);
            // Kind k runs here unless CP-SAT meets it on the other puzzle.
            let runs = |k: usize| solver == "backtrack" || (k + p).is_multiple_of(2);
            for (_, extra) in [
                &["--equivalence", "picture"][..],
                &["--count"],
                &["--count", "--equivalence", "picture"],
                &["--all"],
            ]
            .into_iter()
            .enumerate()
            .filter(|&(k, _)| runs(k))
            {
                let mut args = vec!["--solver", solver, "--format", "json", "--threads", "1"];
                args.extend_from_slice(extra);
                let files = shards(dir.path(), puzzle, &args, 3);
                let (merged, code, err) = merge(&files);
                assert_eq!(code, 0, "{name} {args:?}: {err}");
                assert_eq!(
                    comparable(&merged, nodes),
                    comparable(&one(puzzle, &args), nodes),
                    "{name} {args:?}"
                );
            }
            // JSON Lines: the same classes (in canonical order, numbered
            // from 1) and the same summary.
            for (_, e) in ["rotation", "picture"]
                .into_iter()
                .enumerate()
                .filter(|&(k, _)| runs(k))
            {
                let args = [
                    "--solver",
                    solver,
                    "--format",
                    "jsonl",
                    "--threads",
                    "1",
                    "--equivalence",
                    e,
                ];
                let files = shards(dir.path(), puzzle, &args, 3);
                let (merged, code, err) = merge(&files);
                assert_eq!(code, 0, "{err}");
                let lines = |t: &str| -> (Vec<Value>, Value) {
                    let mut v: Vec<Value> = t
                        .lines()
                        .map(|l| serde_json::from_str(l).unwrap())
                        .collect();
                    let summary = v.pop().unwrap();
                    (v, summary)
                };
                let (m_sol, m_sum) = lines(&merged);
                let (o_sol, o_sum) = lines(&one(puzzle, &args));
                let key = |v: &Vec<Value>| {
                    let mut s: Vec<String> = v.iter().map(|x| x["solution"].to_string()).collect();
                    s.sort();
                    s
                };
                assert_eq!(key(&m_sol), key(&o_sol), "{name} {solver} {e}");
                for (k, line) in m_sol.iter().enumerate() {
                    assert_eq!(line["index"], k + 1);
                }
                let strip = |v: Value| comparable(&v.to_string(), nodes);
                assert_eq!(strip(m_sum), strip(o_sum), "{name} {solver} {e}");
            }
        }
    }
}

#[test]
fn missing_and_mismatched_shards_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let seed = common::seed();
    let seed = seed.to_str().unwrap();
    let args = ["--solver", "backtrack", "--format", "json"];
    let files = shards(dir.path(), seed, &args, 3);

    // A missing shard: incomplete (exit 1), named in the report and on
    // stderr.
    let (out, code, err) = merge(&files[..2]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["stopped_by"], "shards");
    assert_eq!(v["shards_missing"], serde_json::json!([2]));
    assert!(err.contains("shards 2 missing"), "{err}");

    // The same shard twice, shards of another puzzle or other options,
    // and a file that is not a shard: input errors naming the files.
    let (_, code, err) = merge(&[files[0].clone(), files[0].clone()]);
    assert_eq!(code, 2);
    assert!(err.contains("are both shard 0/3"), "{err}");
    let other_dir = tempfile::tempdir().unwrap();
    let sheep = common::corpus().join("crazy-sheep.yaml");
    let other = shards(other_dir.path(), sheep.to_str().unwrap(), &args, 3);
    let (_, code, err) = merge(&[files[0].clone(), other[1].clone()]);
    assert_eq!(code, 2);
    assert!(err.contains("different runs: the puzzle"), "{err}");
    let picture_dir = tempfile::tempdir().unwrap();
    let mut pic_args = args.to_vec();
    pic_args.extend(["--equivalence", "picture"]);
    let pic = shards(picture_dir.path(), seed, &pic_args, 3);
    let (_, code, err) = merge(&[files[0].clone(), pic[1].clone()]);
    assert_eq!(code, 2);
    assert!(err.contains("other options"), "{err}");
    let plain = dir.path().join("plain.json");
    std::fs::write(&plain, one(seed, &args)).unwrap();
    let (_, code, err) = merge(std::slice::from_ref(&plain));
    assert_eq!(code, 2);
    assert!(err.contains("plain.json") && err.contains("not the output of a shard"));
    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, &std::fs::read(&files[1]).unwrap()[..40]).unwrap();
    let (_, code, err) = merge(&[files[0].clone(), cut]);
    assert_eq!(code, 2);
    assert!(err.contains("cut.json"), "{err}");
}

#[test]
fn shard_options_are_checked() {
    let seed = common::seed();
    let seed = seed.to_str().unwrap();
    for (args, says) in [
        (&["--shard", "0/2"][..], "add --format json"),
        (&["--shard", "2/2", "--format", "json"], "0 <= I < N"),
        (
            &["--shard", "0/2", "--format", "json", "--limit", "1"],
            "--limit",
        ),
        (
            &["--shard", "0/2", "--format", "json", "--symmetry", "lex"],
            "no --symmetry",
        ),
        (
            &["--shard", "--format", "json"],
            "SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT",
        ),
        (
            &["--shard", "0/2", "--format", "json", "--solver", "graph"],
            "the graph solver has no work units",
        ),
    ] {
        let out = common::cmd()
            .args(["solve", seed])
            .args(args)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("SLURM_ARRAY_TASK_COUNT")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // `--shard` alone reads a Slurm array task's variables.
    let out = common::cmd()
        .args(["solve", seed, "--solver", "backtrack", "--format", "json"])
        .arg("--shard")
        .env("SLURM_ARRAY_TASK_ID", "5")
        .env("SLURM_ARRAY_TASK_MIN", "4")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&common::stdout_ok(&out)).unwrap();
    assert_eq!(v["shard"]["index"], 1);
    assert_eq!(v["shard"]["count"], 3);
}

#[test]
fn bench_shards_merge_to_one_bench() {
    let dir = tempfile::tempdir().unwrap();
    let seed = common::seed();
    let args = [
        "--generate",
        "3,4,25,3",
        seed.to_str().unwrap(),
        "--solvers",
        "backtrack",
        "--symmetry",
        "none",
        "--symmetry",
        "center",
        "--repeat",
        "2",
    ];
    let files: Vec<PathBuf> = (0..3)
        .map(|i| {
            let out = common::cmd()
                .arg("bench")
                .args(args)
                .args(["--shard", &format!("{i}/3")])
                .output()
                .unwrap();
            let path = dir.path().join(format!("b{i}.json"));
            std::fs::write(&path, common::stdout_ok(&out)).unwrap();
            path
        })
        .collect();
    let rows_of = |path: &Path| -> Vec<Value> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("wall_time_s");
                v.as_object_mut().unwrap().remove("first_s");
                v
            })
            .collect()
    };
    let merged_rows = dir.path().join("merged.jsonl");
    let out = common::cmd()
        .arg("merge")
        .args(&files)
        .arg("--json")
        .arg(&merged_rows)
        .output()
        .unwrap();
    let merged_text = common::stdout_ok(&out);
    let one_rows = dir.path().join("one.jsonl");
    let out = common::cmd()
        .arg("bench")
        .args(args)
        .arg("--json")
        .arg(&one_rows)
        .output()
        .unwrap();
    let one_text = common::stdout_ok(&out);
    // 26 puzzles x 2 formulations x 2 repeats, in grid order.
    assert_eq!(rows_of(&merged_rows).len(), 104);
    assert_eq!(rows_of(&merged_rows), rows_of(&one_rows));
    let head = |t: &str| {
        t.lines()
            .next()
            .unwrap()
            .split(" in ")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(head(&merged_text), head(&one_text));
    assert_eq!(merged_text.lines().count(), one_text.lines().count());
    // Every shard has work: balanced by estimate, not all in one.
    for f in &files {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        assert!(!v["bench"]["runs"].as_array().unwrap().is_empty());
    }
    // One missing: incomplete, exit 1, named.
    let out = common::cmd()
        .arg("merge")
        .args(&files[1..])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shards 0 missing"));
}

/// `count --shard`: the enumeration's counts, merged, equal one count's
/// on the corpus (and the known counts); the nodes too where both search
/// labelled boards.
#[test]
fn count_shards_merge_to_one_count() {
    let dir = tempfile::tempdir().unwrap();
    let strip = |text: &str, nodes: bool| -> Value {
        let mut v: Value = serde_json::from_str(text).unwrap();
        for m in v["methods"].as_array_mut().unwrap() {
            let m = m.as_object_mut().unwrap();
            m.remove("time_s");
            if !nodes {
                m.remove("nodes");
            }
        }
        v
    };
    for (puzzle, want) in corpus_files() {
        let args = [
            "--method",
            "enumerate",
            "--format",
            "json",
            "--threads",
            "1",
        ];
        let files: Vec<PathBuf> = (0..3)
            .map(|i| {
                let out = common::cmd()
                    .args(["count", &puzzle])
                    .args(args)
                    .args(["--shard", &format!("{i}/3")])
                    .output()
                    .unwrap();
                let path = dir.path().join(format!("c{i}.json"));
                std::fs::write(&path, common::stdout_ok(&out)).unwrap();
                path
            })
            .collect();
        let (merged, code, err) = merge(&files);
        assert_eq!(code, 0, "{puzzle}: {err}");
        let v: Value = serde_json::from_str(&merged).unwrap();
        let got = ["raw", "classes", "pictures"].map(|k| v["counts"][k].as_u64().unwrap());
        assert_eq!(got, want, "{puzzle}");
        let out = common::cmd()
            .args(["count", &puzzle])
            .args(args)
            .output()
            .unwrap();
        let nodes = !searches_kinds(&puzzle);
        assert_eq!(
            strip(&merged, nodes),
            strip(&common::stdout_ok(&out), nodes),
            "{puzzle}"
        );
        // A missing shard: no exact count, exit 1, named.
        let (merged, code, _) = merge(&files[..2]);
        assert_eq!(code, 1, "{puzzle}");
        let v: Value = serde_json::from_str(&merged).unwrap();
        assert_eq!(v["shards_missing"], serde_json::json!([2]));
        assert_eq!(v["methods"][0]["status"], "stopped");
        assert!(v.get("counts").is_none());
    }
}
