//! The promises every command keeps (docs/reliability.md, "Promises"):
//! raw counts mean the same with every engine, outputs are checked before
//! the work and never lose a result, a folder of puzzles is taken where
//! many puzzles are, a burst of interrupts is one stop, memory stays
//! bounded where a check needs only to know "more than one", and a time
//! limit is a budget used whole.

use crate::common::{self, cmd, seed, solve_json, stdout_ok};

/// Raw counts are every labelled member of the classes found, with every
/// engine: with --limit too, where the SAT engine reported one board per
/// class found.
#[test]
fn raw_counts_are_the_members_of_the_classes_found_with_every_engine() {
    let star = common::corpus().join("der-sternenhimmel.yaml");
    let mut engines = vec!["backtrack", "sat"];
    if common::has_cpsat() {
        engines.push("cp-sat");
    }
    for engine in engines {
        let (v, code) = solve_json(&[seed().to_str().unwrap(), "--solver", engine, "--limit", "1"]);
        assert_eq!(code, 0, "{engine}");
        assert_eq!(v["raw_count"], 4, "{engine}: {v}");
        let (v, code) = solve_json(&[
            star.to_str().unwrap(),
            "--solver",
            engine,
            "--limit",
            "2",
            "--all",
        ]);
        assert_eq!(code, 0, "{engine}");
        assert_eq!(v["raw_count"], 8, "{engine}");
        assert_eq!(v["raw_solutions"].as_array().unwrap().len(), 8, "{engine}");
        // And a whole run: the same totals.
        let (v, code) = solve_json(&[star.to_str().unwrap(), "--solver", engine, "--count"]);
        assert_eq!(code, 0, "{engine}");
        assert_eq!(v["raw_count"], 224, "{engine}");
        assert_eq!(v["classes_count"], 56, "{engine}");
    }
}

/// An output file in a folder that does not exist is refused before the
/// work, naming the file and no temporary file.
#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    let star = common::corpus().join("der-sternenhimmel.yaml");
    let e2 = common::e2("eternity2.txt");
    let runs: Vec<(Vec<String>, std::path::PathBuf)> = vec![
        (
            // A bench that would run for a minute.
            vec![
                "bench".into(),
                star.display().to_string(),
                "--solvers".into(),
                "backtrack".into(),
                "--repeat".into(),
                "1000".into(),
                "--csv".into(),
            ],
            missing.join("runs.csv"),
        ),
        (
            vec![
                "best".into(),
                e2.display().to_string(),
                "--time-limit".into(),
                "60".into(),
                "--svg".into(),
            ],
            missing.join("best.svg"),
        ),
        (
            vec![
                "count".into(),
                star.display().to_string(),
                "--method".into(),
                "enumerate".into(),
                "--checkpoint".into(),
            ],
            missing.join("c.json"),
        ),
    ];
    for (args, path) in runs {
        let start = std::time::Instant::now();
        let out = cmd().args(&args).arg(&path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(&path.display().to_string()), "{args:?}: {err}");
        assert!(!err.contains(".scramble-"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        // Refused at once, not after the work (a minute at least).
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
    }
    // solve --out under a file: refused before solving.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "mine").unwrap();
    let out = cmd()
        .args(["solve", star.to_str().unwrap(), "--solver", "backtrack"])
        .arg("--out")
        .arg(file.join("pictures"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a-file"));
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}

/// A search stopped by its time limit still writes what it found into
/// --out, and says the folder is partial.
#[test]
fn a_stopped_search_still_writes_what_it_found() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("pictures");
    // A 6x6 board of three motifs: its first solution 82 nodes into the
    // search (found on any machine within the second), and far too many
    // solutions to finish in a second (about 78,000 classes a second).
    let made = dir.path().join("made");
    cmd()
        .args([
            "generate", "--size", "6", "--motifs", "3", "--seed", "1", "--out",
        ])
        .arg(&made)
        .assert()
        .success();
    let many = made.join("6x6-m3-s1-0001.yaml");
    let out = cmd()
        .args(["solve", many.to_str().unwrap(), "--solver", "backtrack"])
        .args(["--time-limit", "1", "--threads", "1", "--pictures", "2"])
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("partial"), "{err}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("solutions.json")).unwrap()).unwrap();
    assert_eq!(json["complete"], false);
    assert!(json["classes_count"].as_u64().unwrap() > 0, "{json}");
    assert!(out_dir.join("index.html").is_file());
    assert!(out_dir.join("1.txt").is_file());
}

/// compare, symmetry-report and bench take a folder of puzzle files, as
/// README's `scramble compare puzzles/legespiel` does.
#[test]
fn a_folder_of_puzzles_is_every_puzzle_in_it() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["der-sternenhimmel.yaml", "die-barenknobelei.yaml"] {
        std::fs::copy(common::corpus().join(name), dir.path().join(name)).unwrap();
    }
    std::fs::write(dir.path().join("README.md"), "not a puzzle").unwrap();
    let csv = dir.path().join("runs.csv");
    let out = cmd()
        .arg("bench")
        .arg(dir.path())
        .args(["--solvers", "backtrack", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    stdout_ok(&out);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.contains("die-barenknobelei"), "{text}");
    assert!(text.contains("der-sternenhimmel"), "{text}");
    // A folder with no puzzle in it: a clear error.
    let empty = tempfile::tempdir().unwrap();
    let out = cmd().arg("compare").arg(empty.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no puzzle"));
    if !common::has_cpsat() {
        return;
    }
    let out = cmd()
        .arg("compare")
        .arg(dir.path())
        .args(["--model", "table"])
        .output()
        .unwrap();
    let text = stdout_ok(&out);
    assert!(text.contains("die-barenknobelei"), "{text}");
}

/// `generate --unique` stops each check at the second picture: with one
/// motif (every puzzle has countless answers) it gives up after its tries
/// with a clear error, in seconds and megabytes, where it grew to 24 GB.
#[test]
fn generate_unique_stops_each_check_at_the_second_picture() {
    let dir = tempfile::tempdir().unwrap();
    let out = cmd()
        .args(["generate", "--size", "4", "--motifs", "1", "--unique"])
        .arg("--out")
        .arg(dir.path().join("g"))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no puzzle found"), "{err}");
    // And a puzzle that has one answer is still found.
    let out = cmd()
        .args(["generate", "--size", "3", "--motifs", "6", "--unique"])
        .arg("--out")
        .arg(dir.path().join("h"))
        .output()
        .unwrap();
    stdout_ok(&out);
}

/// `count --time-limit` uses its whole budget (the estimate probes until
/// its share ends), and claims no interval from a few lucky probes.
#[test]
fn count_uses_its_time_and_claims_no_interval_from_few_hits() {
    let out = cmd()
        .args(["count", common::e2("clue1.txt").to_str().unwrap()])
        .args(["--time-limit", "3", "--threads", "1", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let methods = v["methods"].as_array().unwrap();
    let spent: f64 = methods.iter().map(|m| m["time_s"].as_f64().unwrap()).sum();
    // Every method ends at its share's deadline, never before it.
    assert!(spent >= 2.7, "{spent} s of 3");
    let estimate = methods.iter().find(|m| m["method"] == "estimate").unwrap();
    let pictures = &estimate["estimate"]["pictures"];
    if pictures["complete_probes"].as_u64().unwrap() < 30 {
        assert!(pictures["interval_95"].is_null(), "{pictures}");
    }
}

/// One overwrite rule: a file that exists is replaced only with --force,
/// by every command that writes one; checkpoints are rewritten on purpose.
#[test]
fn no_command_replaces_a_file_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("mine.svg");
    let seed = seed();
    let s = seed.to_str().unwrap();
    let runs: Vec<Vec<&str>> = vec![
        vec!["render", s, "-o"],
        vec!["graph", s, "-o"],
        vec!["model", s, "--out"],
        vec!["solve", s, "--solver", "backtrack", "--dump-model"],
        vec!["bench", s, "--solvers", "backtrack", "--plot"],
        vec!["best", s, "--svg"],
    ];
    for args in runs {
        std::fs::write(&mine, "mine").unwrap();
        let out = cmd().args(&args).arg(&mine).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("already exists (--force replaces it)"),
            "{args:?}: {err}"
        );
        assert_eq!(std::fs::read_to_string(&mine).unwrap(), "mine", "{args:?}");
        let out = cmd()
            .args(&args)
            .arg(&mine)
            .arg("--force")
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_ne!(std::fs::read_to_string(&mine).unwrap(), "mine", "{args:?}");
    }
}

/// Small promises of the reports: --limit 0 says what it needs, input
/// that holds no board says so, a race without an answer names the race,
/// raw counts under symmetry breaking say what they count.
#[test]
fn reports_say_what_they_mean() {
    let out = cmd()
        .args(["solve", seed().to_str().unwrap(), "--limit", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("must be at least 1"));
    let out = cmd()
        .args(["render", seed().to_str().unwrap(), "--solution", "-", "-o"])
        .arg(tempfile::tempdir().unwrap().path().join("x.svg"))
        .write_stdin("nothing here\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("standard input: holds no board"), "{err}");
    // Eternity II in a tenth of a second: no engine answers.
    let (v, code) = solve_json(&[
        common::e2("eternity2.txt").to_str().unwrap(),
        "--solver",
        "auto",
        "--limit",
        "1",
        "--time-limit",
        "0.1",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["solver"], "auto", "{v}");
    assert_eq!(v["model"], "race", "{v}");
    let out = cmd()
        .args(["solve", seed().to_str().unwrap(), "--solver", "backtrack"])
        .args(["--symmetry", "lex"])
        .output()
        .unwrap();
    let text = stdout_ok(&out);
    assert!(
        text.contains("raw solutions: 1 (the boards --symmetry lex keeps"),
        "{text}"
    );
}

/// `--time-limit` holds on a large board in every engine's first-solution
/// search: the backtracker's row-end checks and CaDiCaL's preprocessing
/// each held a 1 s limit for seconds (the backtracker 5.2 s, computing all
/// along). The run's CPU time is the measure, not its wall time: a run that
/// honours a 1 s limit on two threads computes for at most about 2 s plus
/// its start, however loaded the machine (load stretches the clock, not
/// the work), and one that ignores it computes for as long as it ignores
/// it. scripts/conformance records the wall times (about 1.0 s each here).
#[test]
fn a_time_limit_holds_on_a_16x16_in_every_first_solution_engine() {
    let (_dir, p) = generated_16x16();
    for engine in ["backtrack", "sat", "auto"] {
        let p = p.to_str().unwrap();
        let (out, cpu) = with_cpu_seconds(&[
            "solve",
            p,
            "--solver",
            engine,
            "--limit",
            "1",
            "--time-limit",
            "1",
            "--threads",
            "2",
            "--format",
            "json",
        ]);
        assert_eq!(out.status.code(), Some(1), "{engine}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["stopped_by"], "time_limit", "{engine}");
        assert!(cpu < 4.0, "{engine}: {cpu} CPU-s for a 1 s limit");
    }
}

/// Runs `scramble ARGS` under `sh`, whose `times` gives the CPU seconds
/// (user + system) of its child: the run's output (its standard error
/// ending in the shell's report) and those seconds.
fn with_cpu_seconds(args: &[&str]) -> (std::process::Output, f64) {
    let out = std::process::Command::new("sh")
        .args(["-c", "\"$0\" \"$@\"; rc=$?; times >&2; exit $rc"])
        .arg(assert_cmd::cargo::cargo_bin!("scramble"))
        .args(args)
        .output()
        .unwrap();
    // `times`: the shell's own user and system time, then its children's.
    let err = String::from_utf8_lossy(&out.stderr);
    let children = err.lines().last().expect("the shell's times");
    let seconds = |t: &str| -> f64 {
        let (m, s) = t.trim_end_matches('s').split_once('m').expect(t);
        m.parse::<f64>().unwrap() * 60.0 + s.parse::<f64>().unwrap()
    };
    let cpu = children.split_whitespace().map(seconds).sum();
    (out, cpu)
}

#[test]
fn cp_sat_s_memory_limit_holds_while_its_model_is_built_and_loaded() {
    if !common::has_cpsat() {
        return;
    }
    // The 16x16 `edge-boolean` model: 0.4 GB built, 63 MB encoded, 1.5 GB
    // once CP-SAT has loaded it, a phase in which CP-SAT does not stop when
    // asked. Under 300 MB the build stops; under 1,000 MB the build fits but
    // the model is not handed to CP-SAT. Either way no solve starts and the
    // report names the allowance.
    let (_dir, p) = generated_16x16();
    for (mb, mode) in [("300", "--count"), ("1000", "--count"), ("1000", "--limit")] {
        let mut args = vec![p.to_str().unwrap(), "--model", "edge-boolean"];
        args.extend(["--memory-limit", mb, mode]);
        if mode == "--limit" {
            args.push("1");
        }
        let (v, code) = solve_json(&args);
        assert_eq!(code, 1, "{mb} {mode}");
        assert_eq!(v["stopped_by"], "memory_limit", "{mb} {mode}");
        assert_eq!(
            v["solver_stats"]["memory_limit_mb"],
            mb.parse::<u64>().unwrap()
        );
        assert!(v["solver_stats"]["branches"].as_u64().unwrap_or(0) == 0);
        // Refused after the build, it says what loading would need.
        if mb == "1000" {
            let need = v["solver_stats"]["memory_needed_mb"].as_u64().unwrap();
            assert!(need > 1000, "{need}");
        }
    }
}

/// `--memory-limit` holds on a large board in every command that takes
/// it, with every engine it runs: CP-SAT, the SAT engine (whose clauses
/// and search grew a 16x16 run to 930 MB in 2 s) and the backtracker, and
/// in `compare`, which runs all three one after another (its peak was 754
/// to 874 MB: the SAT engine ignored the limit, and a CP-SAT solve asked
/// to stop still grew while the next run began). The peak is the
/// process's high-water mark (`VmHWM`), read while it runs; the bound is
/// the limit plus the allowance scripts/conformance gives CP-SAT to
/// notice (300 MB) and the process's own start (tens of MB), whatever
/// stops each run first.
#[test]
fn a_memory_limit_holds_on_a_16x16_in_every_command_and_engine() {
    let (dir, p) = generated_16x16();
    let p = p.to_str().unwrap();
    let csv = dir.path().join("runs.csv");
    let mut cases: Vec<Vec<&str>> = vec![
        vec!["solve", p, "--count", "--solver", "sat"],
        vec!["solve", p, "--count", "--solver", "backtrack"],
        vec!["solve", p, "--limit", "1", "--solver", "sat"],
    ];
    if common::has_cpsat() {
        cases.extend([
            vec!["solve", p, "--count", "--solver", "cp-sat"],
            vec!["solve", p, "--limit", "1", "--solver", "cp-sat"],
            vec!["solve", p, "--limit", "1", "--solver", "auto"],
            vec!["compare", p],
            vec!["symmetry-report", p],
            vec![
                "bench",
                p,
                "--solvers",
                "cp-sat",
                "--csv",
                csv.to_str().unwrap(),
            ],
        ]);
    }
    for case in cases {
        let mut args = case.clone();
        args.extend(["--memory-limit", "300", "--time-limit", "2"]);
        let (out, peak) = with_peak_mb(&args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{case:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{case:?}: no report");
        assert!(peak < 650.0, "{case:?}: {peak:.0} MB for a 300 MB limit");
    }
}

/// Runs `scramble ARGS`: its output and the peak of its resident memory
/// in MB (`VmHWM`, read every 10 ms while it runs).
fn with_peak_mb(args: &[&str]) -> (std::process::Output, f64) {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("scramble"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watching = std::sync::Arc::clone(&done);
    let watcher = std::thread::spawn(move || {
        let mut peak = 0.0f64;
        while !watching.load(std::sync::atomic::Ordering::SeqCst) {
            let text = std::fs::read_to_string(&status).unwrap_or_default();
            if let Some(line) = text.lines().find(|l| l.starts_with("VmHWM:")) {
                let kb: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
                peak = peak.max(kb / 1024.0);
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        peak
    });
    let out = child.wait_with_output().unwrap();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    (out, watcher.join().unwrap())
}

/// A generated 16x16 board (20 motifs, seed 3) in a folder of its own,
/// kept while the folder is.
fn generated_16x16() -> (tempfile::TempDir, std::path::PathBuf) {
    common::generated(16, 20, 3)
}
