use super::*;
use crate::generate::{PlantOptions, Rng, plant};
use crate::solve::{self, Outcome, StopToken, Units};

/// Every model of a CNF, by brute force over its first `shown` variables.
fn brute_models(cnf: &cnf::Cnf, shown: i32) -> Vec<Vec<bool>> {
    let mut out = Vec::new();
    let clauses: Vec<&[i32]> = cnf.each_clause().collect();
    for bits in 0u32..(1 << cnf.vars) {
        let value = |l: i32| (bits >> (l.unsigned_abs() - 1)) & 1 == 1;
        if clauses
            .iter()
            .all(|c| c.iter().any(|&l| value(l) == (l > 0)))
        {
            let m: Vec<bool> = (1..=shown).map(value).collect();
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out
}

#[test]
fn the_sequential_counter_allows_exactly_k_of_n() {
    for n in 1..=6usize {
        for k in 0..=3usize {
            let mut cnf = cnf::Cnf {
                vars: n as i32,
                ..cnf::Cnf::default()
            };
            let lits: Vec<i32> = (1..=n as i32).collect();
            cnf.at_most(&lits, k).unwrap();
            let models = brute_models(&cnf, n as i32);
            // Every assignment of the n literals with at most k true, once.
            let want = (0u32..1 << n)
                .filter(|b| b.count_ones() as usize <= k)
                .count();
            assert_eq!(models.len(), want, "n = {n}, k = {k}");
            assert!(models.iter().all(|m| m.iter().filter(|&&b| b).count() <= k));
        }
    }
}

#[test]
fn units_add_up_to_the_whole_run() {
    let (p, _) = plant(
        &mut Rng::new(7),
        &PlantOptions {
            n: 3,
            motifs: 2,
            self_matching: true,
        },
    );
    let whole = solve::run(&Sat::default(), &p, &SolveOptions::default()).unwrap();
    let mut raw = Vec::new();
    for index in 0..3 {
        let options = SolveOptions {
            units: Some(std::sync::Arc::new(Units::shard(
                solve::Shard::new(index, 3).unwrap(),
            ))),
            ..SolveOptions::default()
        };
        let r = solve::run(&Sat::default(), &p, &options).unwrap();
        assert!(r.outcome.is_complete());
        raw.extend(r.raw);
    }
    raw.sort();
    assert_eq!(raw, whole.raw);
}

#[test]
fn a_limit_and_a_stop_end_the_run() {
    let (p, _) = plant(
        &mut Rng::new(3),
        &PlantOptions {
            n: 3,
            motifs: 2,
            self_matching: false,
        },
    );
    let first = SolveOptions {
        limit: Some(1),
        ..SolveOptions::default()
    };
    let r = solve::run(&Sat::default(), &p, &first).unwrap();
    assert_eq!(r.outcome, Outcome::Incomplete(StopReason::Limit));
    assert_eq!(r.classes.len(), 1);
    let stop = StopToken::new();
    stop.stop();
    let stopped = SolveOptions {
        stop,
        ..SolveOptions::default()
    };
    let r = solve::run(&Sat::default(), &p, &stopped).unwrap();
    assert_eq!(r.outcome, Outcome::Incomplete(StopReason::Interrupted));
}

#[test]
fn the_dimacs_text_names_its_variables_and_counts_its_clauses() {
    let (p, _) = plant(
        &mut Rng::new(1),
        &PlantOptions {
            n: 2,
            motifs: 2,
            self_matching: false,
        },
    );
    for encoding in Encoding::ALL {
        let text = dimacs(&p, encoding, &Symmetry::none()).unwrap();
        let header = text.lines().find(|l| l.starts_with("p cnf ")).unwrap();
        let counts: Vec<usize> = header[6..].split(' ').map(|n| n.parse().unwrap()).collect();
        let clauses = text
            .lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .count();
        assert_eq!(clauses, counts[1], "{encoding}");
        // 4 cells x 4 tiles x 4 rotations placement variables, less
        // those the turn reduction takes from cell (1,1) (`anchor`: one
        // turn of each class), which the header says.
        assert_eq!(text.lines().filter(|l| l.starts_with("c v ")).count(), 52);
        assert!(text.contains("c each model is one board turn of a class"));
        assert_eq!(
            text.lines().any(|l| l.starts_with("c y ")),
            encoding.matching() == Matching::Colour
        );
    }
}

#[test]
fn every_encoding_is_parsed_back_from_its_name() {
    for e in Encoding::ALL {
        assert_eq!(e.name().parse::<Encoding>(), Ok(e));
    }
    assert!(
        "x".parse::<Encoding>()
            .unwrap_err()
            .contains("colour-sequential")
    );
}
