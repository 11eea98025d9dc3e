//! `scramble count`: the dynamic programme and the enumeration agree with
//! every known count of the corpus and with each other on generated
//! puzzles; the CLI reports methods, estimates and errors.

use crate::common;

use common::{cmd, corpus, stdout_ok};
use predicates::prelude::*;
use proptest::prelude::*;
use scramble::count::{self, CountOptions, Method, Status};
use scramble::generate::{PlantOptions, Rng, plant_with_duplicates};
use scramble::puzzle::Puzzle;
use scramble::solve::Counts;

fn exact_only() -> CountOptions {
    CountOptions {
        estimate_if_unfinished: false,
        threads: 2,
        ..CountOptions::default()
    }
}

#[test]
fn both_methods_match_every_known_corpus_count() {
    let mut failures = Vec::new();
    let rows = common::expected();
    let known: Vec<_> = rows.iter().filter(|e| e.raw.is_some()).collect();
    assert!(known.len() >= 92);
    for e in known {
        let p = Puzzle::load(&corpus().join(&e.file)).unwrap();
        let r = count::count(&p, &exact_only());
        let want = Counts {
            raw: e.raw.unwrap() as u128,
            classes: e.classes.unwrap() as u128,
            pictures: e.pictures.unwrap() as u128,
        };
        if r.counts != Some(want) || r.agreed_by != [Method::Dp, Method::Enumerate] {
            failures.push(format!(
                "{}: {:?} by {:?}, expected {want:?} ({:?})",
                e.file, r.counts, r.agreed_by, r.disagreement
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// On planted puzzles with identical tiles, self-matching motifs and
    /// few motifs (so many solutions and turn-symmetric pictures; 4x4
    /// boards get more motifs, so enumerating stays quick), the
    /// programme with Burnside's lemma, the enumeration and (on boards of
    /// up to 9 tiles) the programme at roots of unity give the same three
    /// counts.
    #[test]
    fn dp_and_enumeration_agree_on_generated_puzzles(
        seed in any::<u64>(),
        (n, motifs) in prop_oneof![(2usize..=3, 1usize..=3), (Just(4usize), 4usize..=6)],
        self_matching in any::<bool>(),
        duplicates in 0usize..=6,
    ) {
        let o = PlantOptions { n, motifs, self_matching };
        let mut rng = Rng::new(seed);
        let Some((p, _)) = plant_with_duplicates(&mut rng, &o, duplicates.min(n * n), 20) else {
            return Ok(());
        };
        let r = count::count(&p, &exact_only());
        prop_assert_eq!(r.disagreement.clone(), None);
        prop_assert_eq!(&r.agreed_by, &vec![Method::Dp, Method::Enumerate], "{:?}", r.methods);
        // A planted puzzle has a solution.
        prop_assert!(r.counts.unwrap().raw > 0);
        // The programme at roots of unity, where its grid is small.
        if n <= 3 {
            let o = CountOptions { methods: vec![Method::Fourier], ..exact_only() };
            prop_assert_eq!(count::count(&p, &o).counts, r.counts);
        }
        // Enumerated in work units with a checkpoint, then again with every
        // other unit forgotten (as if stopped there): the same counts. (Work
        // units enumerate labelled classes: only where they are few.)
        if r.counts.unwrap().raw > 20_000 {
            return Ok(());
        }
        let dir = tempfile::tempdir().unwrap();
        let ck = dir.path().join("ck.json");
        let with_ck = CountOptions {
            methods: vec![Method::Enumerate],
            checkpoint: Some(ck.clone()),
            ..exact_only()
        };
        prop_assert_eq!(count::count(&p, &with_ck).counts, r.counts);
        let mut saved: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&ck).unwrap()).unwrap();
        let done = saved["done"].as_object_mut().unwrap();
        let keys: Vec<String> = done.keys().cloned().collect();
        for k in keys.iter().step_by(2) {
            done.remove(k);
        }
        std::fs::write(&ck, saved.to_string()).unwrap();
        let resumed = count::count(&p, &with_ck);
        prop_assert_eq!(resumed.counts, r.counts, "{:?}", resumed.methods);
    }
}

#[test]
fn turn_symmetric_pictures_are_counted_by_burnside() {
    // Every tile alike and self-matching: each cell in any orientation of
    // the one kind, all pictures the same, so one picture class; Burnside
    // must see it fixed by every turn.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("same.yaml");
    let tile = "[[a, '='], [a, '='], [a, '='], [a, '=']]";
    let text: String = (1..=9).map(|k| format!("{k}: {tile}\n")).collect();
    std::fs::write(&path, text).unwrap();
    let p = Puzzle::load(&path).unwrap();
    let r = count::count(&p, &exact_only());
    // 9! * 4^9 labelled boards, a quarter of them classes, one picture.
    let raw = (1..=9u128).product::<u128>() * 4u128.pow(9);
    assert_eq!(
        r.counts,
        Some(Counts {
            raw,
            classes: raw / 4,
            pictures: 1
        })
    );
    let f = r.methods[0].fixed.unwrap();
    assert_eq!((f.pictures, f.half_turn, f.quarter_turn), (1, 1, 1));
}

#[test]
fn cli_reports_both_methods_and_the_agreed_counts() {
    let out = cmd()
        .args(["count", "--threads", "2"])
        .arg(corpus().join("crazy-sheep.yaml"))
        .output()
        .unwrap();
    let text = stdout_ok(&out);
    assert!(
        text.starts_with("crazy-sheep: 4x4, 16 tiles of 14 kinds"),
        "{text}"
    );
    assert!(text.contains("exact (enumerate and dp agree): 880 labelled solutions, 220 classes under board turns, 55 picture classes"), "{text}");
    assert!(text.ends_with("classes under board turns: 220\n"), "{text}");
    let out = cmd()
        .args([
            "count",
            "--equivalence",
            "picture",
            "--method",
            "dp",
            "--format",
            "json",
        ])
        .arg(corpus().join("crazy-sheep.yaml"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&out)).unwrap();
    assert_eq!(v["counts"]["pictures"], 55);
    assert_eq!(v["agreed_by"], serde_json::json!(["dp"]));
    assert_eq!(v["methods"].as_array().unwrap().len(), 1);
    assert_eq!(v["methods"][0]["fixed"]["pictures"], 220);
}

#[test]
fn cli_without_an_exact_count_estimates_and_exits_1() {
    let out = cmd()
        .args([
            "count",
            "--time-limit",
            "0.3",
            "--max-states",
            "1000",
            "--probes",
            "3000",
            "--equivalence",
            "picture",
        ])
        .arg(corpus().join("the-ant-trails-puzzle.yaml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("more than 1000 states"), "{text}");
    // A few thousand probes reach a full board only a few times: too few
    // for an interval, and the report says how many it needs.
    assert!(text.contains("no exact count; no estimate: "), "{text}");
    assert!(text.contains("30 are needed for an interval"), "{text}");
    // The programme at roots of unity went first (its compiled frontier
    // under the same cap).
    assert!(text.contains("\nfourier   failed"), "{text}");
}

#[test]
fn cli_estimate_where_no_probe_reaches_a_full_board_gives_no_interval() {
    // clue2 is 6x12 (a rectangle: two trees, no quarter turn), and its full
    // boards are far too rare for a thousand random probes to meet one.
    let out = cmd()
        .args(["count", "--method", "estimate", "--probes", "1000"])
        .arg(common::e2("clue2.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("clue2: 6x12, 72 tiles"), "{text}");
    assert!(
        text.contains(
            "1000 probes of the full tree, 2000 with the trees of turned pictures; \
             0 reached a full board"
        ),
        "{text}"
    );
    assert!(!text.contains("stopped after"), "{text}");
    assert!(!text.contains("95% interval"), "{text}");
    assert!(
        text.contains("no estimate: 0 of 1000 probes reached a full board, 30 are needed"),
        "{text}"
    );
}

#[test]
fn a_board_too_wide_for_the_programme_says_what_to_run_instead() {
    // meta-16x16: 256 kinds, no programme state fits 128 bits.
    for (method, advice) in [
        ("dp", "count by enumeration instead"),
        (
            "estimate",
            "`scramble probe PUZZLE --estimate N` estimates the backtracking tree",
        ),
    ] {
        cmd()
            .args(["count", "--method", method])
            .arg(common::e2("meta-16x16.txt"))
            .assert()
            .code(1)
            .stdout(predicate::str::contains("more than 128"))
            .stdout(predicate::str::contains(advice));
    }
}

#[test]
fn cli_estimate_alone_is_seeded() {
    let run = |seed: &str| {
        let out = cmd()
            .args([
                "count", "--method", "estimate", "--probes", "2000", "--format", "json", "--seed",
                seed,
            ])
            .arg(corpus().join("quadromino-haba.yaml"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["methods"][0]["status"], "estimated");
        v["methods"][0]["estimate"].clone()
    };
    assert_eq!(run("5"), run("5"));
    assert_ne!(run("5"), run("6"));
}

#[test]
fn cli_refuses_bad_input_clearly() {
    cmd()
        .args(["count", "no/such/puzzle.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/puzzle.yaml"));
    cmd()
        .args(["count", "--method", "guess"])
        .arg(corpus().join("crazy-sheep.yaml"))
        .assert()
        .code(2);
    cmd()
        .args(["count", "--max-states", "0"])
        .arg(corpus().join("crazy-sheep.yaml"))
        .assert()
        .code(2);
}

#[test]
fn a_stopped_method_says_so() {
    let p = Puzzle::load(&corpus().join("the-ant-trails-puzzle.yaml")).unwrap();
    let options = CountOptions {
        methods: vec![Method::Dp],
        time_limit: Some(std::time::Duration::from_millis(100)),
        ..exact_only()
    };
    let r = count::count(&p, &options);
    assert_eq!(r.methods[0].status, Status::Stopped);
    assert!(
        r.methods[0]
            .message
            .as_ref()
            .unwrap()
            .starts_with("time limit reached")
    );
    assert!(r.methods[0].time_s < 1.0, "{}", r.methods[0].time_s);
}

/// A planted 5x5 puzzle, two of its tiles twins of others, whose
/// enumeration in work units (spiral order) takes about 5 s on 2 cores
/// (9 CPU-s): ten times the first run's limit, so that run stops part way.
fn slow_puzzle(dir: &std::path::Path) -> std::path::PathBuf {
    cmd()
        .args([
            "generate",
            "--size",
            "5",
            "--motifs",
            "4",
            "--duplicates",
            "2",
            "--seed",
            "5",
            "--out",
        ])
        .arg(dir)
        .assert()
        .success();
    dir.join("5x5-m4-s5-0001.yaml")
}

#[test]
fn a_stopped_enumeration_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = slow_puzzle(dir.path());
    let ck = dir.path().join("count.ckpt");
    let json = |extra: &[&str]| {
        let out = cmd()
            .args([
                "count",
                "--method",
                "enumerate",
                "--format",
                "json",
                "--threads",
                "2",
            ])
            .args(extra)
            .arg(&puzzle)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), v)
    };
    let ck_arg = ck.to_str().unwrap();
    // Stopped early: some work units done and recorded, exit 1. The order
    // given: left to the estimate, the order would depend on how many
    // orders the limit's share lets it estimate (the row scan's units take
    // three times as long on this puzzle). The resumed run takes the
    // checkpoint's order.
    let (code, first) = json(&[
        "--checkpoint",
        ck_arg,
        "--time-limit",
        "0.5",
        "--order",
        "spiral",
    ]);
    assert_eq!(code, Some(1), "{first}");
    assert_eq!(first["methods"][0]["status"], "stopped");
    let note = first["methods"][0]["message"].as_str().unwrap().to_string();
    assert!(note.contains("run again to resume"), "{note}");
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&ck).unwrap()).unwrap();
    let done = saved["done"].as_object().unwrap().len();
    assert!(done > 0 && done < 4096, "{done} units");
    // Resumed: the same counts as one uninterrupted run.
    let (code, resumed) = json(&["--checkpoint", ck_arg]);
    assert_eq!(code, Some(0), "{resumed}");
    let note = resumed["methods"][0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        note.contains(&format!("{done} of them in earlier runs")),
        "{note}"
    );
    // The counts of one uninterrupted run (`scramble count` on this
    // generated puzzle; the dp runs out of states on it). Written down
    // rather than counted again here.
    assert_eq!(
        resumed["counts"],
        serde_json::json!({"raw": 130112, "classes": 32528, "pictures": 2033})
    );
}

#[test]
fn a_checkpoint_of_another_puzzle_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("count.ckpt");
    cmd()
        .args(["count", "--method", "enumerate", "--checkpoint"])
        .arg(&ck)
        .arg(corpus().join("crazy-sheep.yaml"))
        .assert()
        .success();
    cmd()
        .args(["count", "--checkpoint"])
        .arg(&ck)
        .arg(corpus().join("der-sternenhimmel.yaml"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "made for another puzzle (crazy-sheep)",
        ));
    cmd()
        .args(["count", "--method", "dp", "--checkpoint"])
        .arg(&ck)
        .arg(corpus().join("crazy-sheep.yaml"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("add --method enumerate"));
}

#[test]
fn ctrl_c_stops_the_count_and_reports_what_was_found() {
    // The programme at roots of unity on the-ant-trails-puzzle runs for
    // 24 minutes; Ctrl-C stops it, its check is not started, and the
    // report says so (exit 1, no exact count).
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.json");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("scramble"))
        .args(["count", "--threads", "2", "--checkpoint"])
        .arg(&ck)
        .arg(corpus().join("the-ant-trails-puzzle.yaml"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    common::interrupt(&child);
    let run = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{out}");
    let first = out.lines().nth(2).unwrap();
    assert!(
        first.starts_with("fourier ") && first.contains(" stopped "),
        "{out}"
    );
    assert!(out.contains("interrupted ("), "{out}");
    assert!(!out.contains("enumerate "), "{out}");
    assert!(out.ends_with("no exact count\n"), "{out}");
    let first_time: f64 = out
        .lines()
        .nth(2)
        .unwrap()
        .split_whitespace()
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    assert!(first_time < 10.0, "{out}");
    // The checkpoint is the programme's, written as it stopped.
    assert!(out.contains("run again to resume"), "{out}");
    let saved = std::fs::read_to_string(&ck).unwrap();
    assert!(saved.contains("\"search\":\"fourier grid 0\""), "{saved}");
}

/// `--order`: every placement order counts the same; a checkpoint belongs
/// to the order that made it; the order is the enumeration's only.
#[test]
fn every_order_counts_the_same_and_keeps_its_checkpoint() {
    let puzzle = corpus().join("crazy-sheep.yaml");
    let counts = |order: &str| {
        let out = stdout_ok(
            &cmd()
                .args([
                    "count",
                    "--method",
                    "enumerate",
                    "--format",
                    "json",
                    "--order",
                    order,
                ])
                .arg(&puzzle)
                .output()
                .unwrap(),
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["counts"].clone()
    };
    let spiral = counts("spiral");
    assert!(spiral["raw"].as_u64().unwrap() > 0, "{spiral}");
    for order in ["row", "row-up", "frame", "constrained"] {
        assert_eq!(counts(order), spiral, "{order}");
    }
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("count.ckpt");
    // A checkpointed enumeration, in `order` or the one it chooses.
    let checkpointed = |order: Option<&str>| {
        let mut c = cmd();
        c.args(["count", "--method", "enumerate"]);
        if let Some(o) = order {
            c.args(["--order", o]);
        }
        c.arg("--checkpoint").arg(&ck).arg(&puzzle);
        c.assert()
    };
    checkpointed(Some("row-up")).success();
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&ck).unwrap()).unwrap();
    assert_eq!(saved["search"], "row-up units r2");
    // Without --order a count resumes in its checkpoint's order; another
    // order is refused, naming the checkpoint's.
    checkpointed(None).success();
    checkpointed(Some("spiral"))
        .code(2)
        .stderr(predicate::str::contains("row-up"));
    cmd()
        .args(["count", "--method", "dp", "--order", "row"])
        .arg(&puzzle)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--method enumerate"));
}

#[test]
fn a_count_s_time_limit_is_for_the_whole_count() {
    // clue1 is far out of reach of every exact method: each runs until its
    // share of the limit is up. The methods' times add up to the limit
    // (with what stopping takes), not to a limit per method.
    let out = cmd()
        .args(["count", common::e2("clue1.txt").to_str().unwrap()])
        .args(["--time-limit", "4", "--threads", "1", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let methods = v["methods"].as_array().unwrap();
    assert_eq!(methods.len(), 3, "{v}");
    let total: f64 = methods.iter().map(|m| m["time_s"].as_f64().unwrap()).sum();
    assert!(total < 4.0 + 2.0, "{total} s in all: {v}");
}

/// A number after `key` in `text` (digits, dots, signs and exponents).
fn number_after(text: &str, key: &str) -> f64 {
    let at = text
        .find(key)
        .unwrap_or_else(|| panic!("{key:?} not in {text}"))
        + key.len();
    let s: String = text[at..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || ".e+-".contains(*c))
        .collect();
    s.parse()
        .unwrap_or_else(|_| panic!("no number after {key:?} in {text}"))
}

#[test]
fn a_count_report_s_text_agrees_with_its_json() {
    // Seeded, so the text and the JSON runs are the same run twice.
    let clue = common::e2("clue2.txt");
    let sternenhimmel = corpus().join("der-sternenhimmel.yaml");
    let cases: [(&std::path::Path, &[&str]); 3] = [
        (&clue, &["--method", "estimate", "--probes", "20000"]),
        (
            &sternenhimmel,
            &["--method", "estimate", "--probes", "20000"],
        ),
        (&sternenhimmel, &[]),
    ];
    for (p, extra) in cases {
        let run = |format: &str| {
            let out = cmd()
                .args(["count", p.to_str().unwrap(), "--format", format])
                .args(extra)
                .output()
                .unwrap();
            String::from_utf8(out.stdout).unwrap()
        };
        let (text, json) = (run("text"), run("json"));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        for m in v["methods"].as_array().unwrap() {
            if let Some(e) = m.get("estimate") {
                let per_tree = e["classes"]["probes"].as_u64().unwrap();
                let all = e["pictures"]["probes"].as_u64().unwrap();
                let reached = e["pictures"]["complete_probes"].as_u64().unwrap();
                let note = match per_tree == all {
                    true => format!("{all} probes; {reached} reached a full board"),
                    false => format!(
                        "{per_tree} probes of the full tree, {all} with the trees of turned \
                         pictures; {reached} reached a full board"
                    ),
                };
                assert!(text.contains(&note), "{note:?} not in {text}");
                if e["classes"]["interval_95"].is_array() {
                    assert!(text.contains(&format!("{per_tree} probes")), "{text}");
                }
            }
            if let Some(f) = m.get("fixed") {
                let pictures = f["pictures"].as_u64().unwrap();
                assert!(
                    text.contains(&format!("{pictures} pictures before board turns")),
                    "{text}"
                );
                // The column is the classes of pictures: a quarter of those
                // (Burnside, no picture fixed by a turn here).
                assert_eq!(m["counts"]["pictures"].as_u64().unwrap() * 4, pictures);
            }
        }
    }
}

#[test]
fn an_estimate_s_interval_never_reaches_below_a_proven_count() {
    // The enumeration stops with millions of boards found; the estimate's
    // interval starts at that count or above, in the JSON and in the text.
    let out = cmd()
        .args(["count", common::e2("clue1.txt").to_str().unwrap()])
        .args(["--time-limit", "3", "--threads", "1", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = v["methods"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["status"] == "stopped")
        .filter_map(|m| m["counts"]["classes"].as_f64())
        .fold(0.0, f64::max);
    let estimate = v["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|m| m.get("estimate"))
        .expect("an estimate when nothing exact finished");
    if let Some(lo) = estimate["classes"]["interval_95"][0].as_f64() {
        assert!(lo >= found, "{lo} below {found}: {v}");
    }
    assert!(found > 0.0, "{v}");
    let out = cmd()
        .args(["count", common::e2("clue1.txt").to_str().unwrap()])
        .args(["--time-limit", "3", "--threads", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    if text.contains("95% interval") {
        let lo = number_after(&text, "95% interval");
        let least = number_after(&text, "at least");
        assert!(lo >= least, "{text}");
    }
}
