//! `--solver auto`: the race for first solutions names its winner and every
//! entrant's effort, stops with the run's limits, and a complete run goes
//! to the backtracker with the same answer as the engines alone.

use crate::common;

use common::{e2, seed, solve_json};

#[test]
fn a_first_solution_names_the_winner_and_every_entrant() {
    for clue in ["clue1.txt", "clue4.txt"] {
        let (v, code) = solve_json(&[
            e2(clue).to_str().unwrap(),
            "--solver",
            "auto",
            "--limit",
            "1",
        ]);
        assert_eq!(code, 0, "{clue}");
        assert_eq!(v["classes_count"], 1);
        let race = v["solver_stats"]["race"].as_array().unwrap();
        let engines: Vec<&str> = race.iter().map(|e| e["engine"].as_str().unwrap()).collect();
        assert_eq!(engines, ["sat", "backtrack"]);
        let won: Vec<&serde_json::Value> = race.iter().filter(|e| e["ended"] == "won").collect();
        assert_eq!(won.len(), 1, "{race:?}");
        // The report's solver is the winner.
        assert_eq!(v["solver"], won[0]["engine"]);
        assert_eq!(v["model"], won[0]["model"]);
    }
}

#[test]
fn a_complete_run_goes_to_the_backtracker_with_its_answer() {
    let (auto, code) = solve_json(&[seed().to_str().unwrap(), "--solver", "auto", "--all"]);
    assert_eq!(code, 0);
    let (bt, _) = solve_json(&[seed().to_str().unwrap(), "--solver", "backtrack", "--all"]);
    assert_eq!(auto["solver"], "backtrack");
    assert_eq!(auto["solutions"], bt["solutions"]);
    assert_eq!(
        auto["solver_stats"]["race"][0]["ended"],
        "chosen for a complete run"
    );
}

#[test]
fn the_race_stops_at_the_time_limit() {
    let (v, code) = solve_json(&[
        e2("eternity2.txt").to_str().unwrap(),
        "--solver",
        "auto",
        "--limit",
        "1",
        "--time-limit",
        "2",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["outcome"], "incomplete");
    assert_eq!(v["stopped_by"], "time_limit");
    // The backtracker ran from the start; the SAT engine joined after its
    // head start (unless the machine was too slow to start it in time).
    let race = v["solver_stats"]["race"].as_array().unwrap();
    assert_eq!(race[1]["ended"], "stopped", "{race:?}");
    let sat = race[0]["ended"].as_str().unwrap();
    assert!(
        sat == "stopped" || sat.starts_with("not started"),
        "{race:?}"
    );
}

#[test]
fn the_text_report_names_how_each_entrant_ended() {
    let out = common::cmd()
        .args(["solve", "--solver", "auto", "--limit", "1"])
        .arg(e2("clue1.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("--solver auto: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains(" won after "), "{line}");
    // The SAT engine joins after the head start, if the race lasts: it
    // never started, or ran and says for how long.
    let sat = line["--solver auto: ".len()..]
        .split("; ")
        .find(|e| e.starts_with("sat (colour-sequential) "))
        .unwrap_or_else(|| panic!("{line}"));
    assert!(
        sat.ends_with(" not started (the race ended within the head start)")
            || sat.contains(" after "),
        "{line}"
    );
}
