//! User constraints (`--constraints FILE`): the solutions they leave match
//! the same filter applied to the backtracker's full set, on every CP model
//! (property test); the CLI reads, checks and reports them (solve,
//! symmetry-report, bench) and refuses bad files with their line.

use crate::common;

use std::collections::BTreeSet;

use common::{cmd, seed, solve_json};
use predicates::prelude::*;
use proptest::prelude::*;
use scramble::board::Solution;
use scramble::engines::backtrack::Backtrack;
use scramble::engines::cpsat::CpSat;
use scramble::generate::{PlantOptions, Rng, plant};
use scramble::model::Choice;
use scramble::solve::{self, Outcome, SolveOptions};

/// The centre cell keeps rotation 0: one board turn per class of the seed
/// (the built-in `center` written by hand).
const CENTRE_RULE: &str = "# the centre tile keeps its rotation 0\n\
    variables { name: \"rotation_2_2\" }\n\
    constraints { linear { vars: [0] coeffs: [1] domain: [0, 0] } }\n";

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// A constraint fixing the tile of the top-left cell, one tying the
    /// rotation of the bottom-right cell to a new Boolean, and a free new
    /// variable (whose values must not repeat a board): CP-SAT keeps
    /// exactly the backtracker's solutions that pass the same filter.
    #[test]
    fn user_constraints_keep_exactly_the_filtered_solutions(
        seed in any::<u64>(),
        n in 2usize..=3,
        motifs in 3usize..=5,
        model in 0usize..4,
        rotations in 1u8..=3,
    ) {
        if !common::has_cpsat() {
            return Ok(());
        }
        let (puzzle, planted) = plant(&mut Rng::new(seed), &PlantOptions { n, motifs, self_matching: false });
        let tile = planted.at(0, 0).tile;
        let text = format!(
            "variables {{ name: \"tile_1_1\" }}\n\
             variables {{ name: \"rotation_{n}_{n}\" }}\n\
             variables {{ name: \"low\" domain: [0, 1] }}\n\
             variables {{ name: \"free\" domain: [0, 3] }}\n\
             constraints {{ linear {{ vars: [0] coeffs: [1] domain: [{tile}, {tile}] }} }}\n\
             constraints {{ enforcement_literal: [2] linear {{ vars: [1] coeffs: [1] domain: [0, {}] }} }}\n\
             constraints {{ enforcement_literal: [-3] linear {{ vars: [1] coeffs: [1] domain: [{rotations}, 3] }} }}\n",
            rotations - 1
        );
        let encoding: Choice = ["table", "edge", "boolean", "edge-boolean"][model].parse().unwrap();
        let cp = CpSat::new().unwrap().with_model(encoding);
        let c = cp.parse_constraints("generated", &text).unwrap();
        let cp = cp.with_constraints(Some(std::sync::Arc::new(c)));
        let r = solve::run(&cp, &puzzle, &SolveOptions::default()).unwrap();
        prop_assert_eq!(&r.outcome, &Outcome::Complete);
        let all = solve::run(&Backtrack::default(), &puzzle, &SolveOptions::default()).unwrap();
        let want: BTreeSet<&Solution> = all.raw.iter().filter(|s| s.at(0, 0).tile == tile).collect();
        let got: BTreeSet<&Solution> = r.raw.iter().collect();
        prop_assert_eq!(r.raw.len(), got.len(), "a board reported twice");
        prop_assert_eq!(got, want);
        prop_assert!(r.raw.contains(&planted));
    }
}

#[test]
fn solve_appends_the_constraints_and_names_them() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "centre.txt", CENTRE_RULE);
    for model in ["table", "edge", "boolean", "edge-boolean"] {
        let (v, code) = solve_json(&[
            seed().to_str().unwrap(),
            "--model",
            model,
            "--constraints",
            &file,
        ]);
        assert_eq!(code, 0, "{model}");
        assert_eq!(v["raw_count"], 1, "{model}");
        assert_eq!(v["classes_count"], 1, "{model}");
        assert_eq!(v["model"], format!("{model}+centre.txt"));
    }
    // Without it: the four board turns.
    let (v, _) = solve_json(&[seed().to_str().unwrap(), "--full-tree"]);
    assert_eq!(v["raw_count"], 4);
}

#[test]
fn bad_constraint_files_are_input_errors_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "unknown.txt",
            "variables { name: \"rotation_2_2\" }\nvariables { name: \"tile_9_9\" }\n",
            ":2: unknown variable \"tile_9_9\"",
        ),
        (
            "parse.txt",
            "variables { name: \"rotation_2_2\" }\n\nconstraints { linear { vars: [0] coefs: [1] } }\n",
            ":3: not a CpModelProto in text format",
        ),
        (
            "index.txt",
            "variables { name: \"rotation_2_2\" }\nconstraints { bool_or { literals: [1] } }\n",
            ":2: constraint 0 uses variable 1",
        ),
    ];
    let out = dir.path().join("out");
    for (name, text, message) in cases {
        let file = write(&dir, name, text);
        if !common::has_cpsat() {
            return;
        }
        cmd()
            .args(["solve", seed().to_str().unwrap(), "--constraints", &file])
            .args(["--out", out.to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("{name}{message}")));
        assert!(!out.exists(), "{name}: nothing is written");
    }
    cmd()
        .args(["solve", seed().to_str().unwrap(), "--solver", "backtrack"])
        .args(["--constraints", "whatever.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--solver cp-sat only"));
}

#[test]
fn symmetry_report_gives_the_constraints_their_verdict() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Right: one board turn per class (as the built-in `center`).
    let right = write(&dir, "right.txt", CENTRE_RULE);
    // Wrong on purpose: tile 1 never lies in the centre.
    let wrong = write(
        &dir,
        "wrong.txt",
        "variables { name: \"tile_2_2\" }\n\
         constraints { linear { vars: [0] coeffs: [1] domain: [1, 1] } }\n",
    );
    let report = |file: &str, extra: &[&str]| -> Vec<serde_json::Value> {
        let out = cmd()
            .args([
                "symmetry-report",
                seed().to_str().unwrap(),
                "--format",
                "json",
            ])
            .args(["--constraints", file])
            .args(extra)
            .output()
            .unwrap();
        serde_json::from_str(&common::stdout_ok(&out)).unwrap()
    };
    let rows = report(&right, &["--constraints-only"]);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["formulation"], "none");
    let own = &rows[1];
    assert_eq!(own["formulation"], "constraints:right.txt");
    assert_eq!(own["model"], "edge+right.txt");
    assert_eq!(own["rotation"]["verdict"], "exact");
    assert_eq!(
        own["size"]["constraints"],
        rows[0]["size"]["constraints"].as_u64().unwrap() + 1
    );

    let rows = report(&wrong, &[]);
    assert!(
        rows.len() > 2,
        "every built-in formulation, then the file's"
    );
    let own = rows.last().unwrap();
    assert_eq!(own["rotation"]["verdict"], "wrong");
    assert_eq!(own["rotation"]["lost"], 1);

    // On top of a built-in formulation: with `tiles` (no identical tiles
    // here) still exact; with `lex`, which keeps another board turn than the
    // file's, the class is lost.
    let rows = report(
        &right,
        &["--constraints-only", "--constraints-symmetry", "tiles"],
    );
    assert_eq!(rows[1]["formulation"], "tiles+constraints:right.txt");
    assert_eq!(rows[1]["rotation"]["verdict"], "exact");
    let rows = report(
        &right,
        &["--constraints-only", "--constraints-symmetry", "lex"],
    );
    assert_eq!(rows[1]["rotation"]["lost"], 1);
}

#[test]
fn bench_runs_the_constrained_model_beside_the_plain_one() {
    if !common::has_cpsat() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let right = write(&dir, "right.txt", CENTRE_RULE);
    let out = cmd()
        .args(["bench", seed().to_str().unwrap(), "--solvers", "cp-sat"])
        .args(["--constraints", &right])
        .output()
        .unwrap();
    let text = common::stdout_ok(&out);
    assert!(text.contains("edge+right.txt"), "{text}");
    assert!(text.starts_with("1 puzzle, 2 runs in "), "{text}");
    assert!(!text.contains("DISAGREEMENT"), "{text}");
    cmd()
        .args(["bench", seed().to_str().unwrap(), "--solvers", "backtrack"])
        .args(["--constraints", &right])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cp-sat solver"));
}
