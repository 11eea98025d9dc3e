//! CP-SAT's memory ceiling belongs to the run: a process that already holds
//! more than the ceiling (a notebook with its data, a large host program)
//! solves like a fresh command line.

use crate::common;

use scramble::engines::cpsat::CpSat;
use scramble::puzzle::Puzzle;
use scramble::solve::{self, Outcome, SolveOptions};

/// Set in the child process this test starts: it runs alone there.
const CHILD: &str = "SCRAMBLE_TEST_LARGE_HOST";

/// More than the default ceiling (900 MB added by the run).
const HELD: usize = 1_500 * 1024 * 1024;

#[test]
fn a_process_holding_more_than_the_ceiling_still_solves() {
    if !common::has_cpsat() {
        return;
    }
    if std::env::var_os(CHILD).is_none() {
        // The test binary runs many tests at once; the allocation and the
        // solve get a process of their own, so neither disturbs the others.
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "ceiling::a_process_holding_more_than_the_ceiling_still_solves",
                "--exact",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let text = format!(
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "{text}");
        assert!(text.contains("1 passed"), "the child ran nothing: {text}");
        return;
    }
    // Every page written: resident, as a notebook's data is.
    let mut held = vec![0u8; HELD];
    for i in (0..held.len()).step_by(4096) {
        held[i] = 1;
    }
    let held = std::hint::black_box(held);
    let p = Puzzle::load(&common::seed()).unwrap();
    for opts in [
        SolveOptions::default(),
        SolveOptions {
            limit: Some(10),
            ..SolveOptions::default()
        },
    ] {
        let r = solve::run(&CpSat::new().unwrap(), &p, &opts).unwrap();
        assert_eq!(r.outcome, Outcome::Complete, "{opts:?}");
        assert_eq!((r.counts.raw, r.counts.classes), (4, 1), "{opts:?}");
    }
    drop(std::hint::black_box(held));
}
