//! Backtracking benchmarks (issue 4's performance goals). Run with
//! `cargo bench --features bench --bench backtrack`; figures and their reading are in
//! docs/benchmarks.md. Criterion reports medians; the node rates are printed
//! by the `nodes_per_second` group.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use scramble::board::Placement;
use scramble::engines::backtrack::{Backtrack, Order};
use scramble::generate::{PlantOptions, Rng, plant, planted_set};
use scramble::puzzle::Puzzle;
use scramble::solve::{SolutionCallback, SolveOptions, Solver, Stands};

/// Counts labelled solutions (the search's own cost, without the collector).
#[derive(Default)]
struct Count(u64);
impl SolutionCallback for Count {
    fn on_solution(&mut self, _: &[Placement], stands: Stands) {
        self.0 += match stands {
            Stands::Turns => 4,
            _ => 1,
        };
    }
}

fn options(threads: usize) -> SolveOptions {
    SolveOptions {
        threads,
        ..SolveOptions::default()
    }
}

fn count(solver: &dyn Solver, p: &Puzzle, opts: &SolveOptions) -> (u64, u64) {
    let mut c = Count::default();
    let run = solver
        .enumerate(p, opts, &scramble::solve::Cancel::never(), &mut c)
        .unwrap();
    (c.0, run.stats.count("nodes").unwrap_or(0))
}

fn corpus(name: &str) -> Puzzle {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let p = if name == "seed" {
        root.join("puzzles/3x3-original")
    } else {
        root.join("puzzles/legespiel").join(name)
    };
    Puzzle::load(&p).unwrap()
}

fn seed_puzzle(c: &mut Criterion) {
    let p = corpus("seed");
    let one = options(1);
    let mut g = c.benchmark_group("seed");
    for order in [Order::Row, Order::Spiral, Order::Constrained] {
        for bt in [Backtrack::new(order), Backtrack::full_tree(order)] {
            assert_eq!(count(&bt, &p, &one).0, 4);
            g.bench_function(format!("backtrack-{}", bt.searched()), |b| {
                b.iter(|| count(&bt, black_box(&p), &one))
            });
        }
    }
    if let Ok(cp) = scramble::engines::cpsat::CpSat::new() {
        g.sample_size(10);
        g.bench_function("cp-sat", |b| b.iter(|| count(&cp, black_box(&p), &one)));
    }
    g.finish();
}

fn saegesser(c: &mut Criterion) {
    // 10,000 random solvable 3x3 puzzles with 4 motifs, every solution of
    // each: the puzzles of `scramble bench --generate 3,4,10000,1`.
    let o = PlantOptions {
        n: 3,
        motifs: 4,
        self_matching: false,
    };
    let puzzles: Vec<Puzzle> = planted_set(&o, 10_000, 1)
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let mut g = c.benchmark_group("saegesser");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let one = options(1);
    for order in [Order::Row, Order::Spiral, Order::Constrained] {
        let bt = Backtrack::new(order);
        g.bench_function(format!("10000x3x3-m4-{order}"), |b| {
            b.iter(|| puzzles.iter().map(|p| count(&bt, p, &one).0).sum::<u64>())
        });
    }
    g.finish();
}

fn nodes_per_second(c: &mut Criterion) {
    // Not a criterion measurement: one timed run each, nodes / seconds.
    let mut rng = Rng::new(6);
    let mut big: Vec<(String, Puzzle)> = vec![
        ("danger-puzzle 6x6".into(), corpus("danger-puzzle.yaml")),
        ("warning-puzzle 6x6".into(), corpus("warning-puzzle.yaml")),
        (
            "kaleidoscope 4x4".into(),
            corpus("kaleidoscope-lagoon-2001.yaml"),
        ),
    ];
    for (n, m) in [(6, 7), (7, 12)] {
        let o = PlantOptions {
            n,
            motifs: m,
            self_matching: false,
        };
        big.push((format!("random {n}x{n} m{m}"), plant(&mut rng, &o).0));
    }
    for order in [Order::Row, Order::Spiral, Order::Constrained] {
        let bt = Backtrack::new(order);
        for (name, p) in &big {
            if order == Order::Row && p.rows() == 7 {
                // About two billion nodes: half a minute for one figure.
                continue;
            }
            // The best of three runs (the machine is shared).
            let mut best = f64::MAX;
            let (mut sols, mut nodes) = (0, 0);
            for _ in 0..3 {
                let t = Instant::now();
                (sols, nodes) = count(&bt, p, &options(1));
                best = best.min(t.elapsed().as_secs_f64());
            }
            println!(
                "nodes/s {order:<11} {name:<20} {sols:>6} solutions {nodes:>12} nodes {best:>8.3} s {:>7.1} M nodes/s",
                nodes as f64 / best / 1e6
            );
        }
    }
    // Threads: a search of over a second on one core.
    let bt = Backtrack::new(Order::Row);
    for (name, p) in big.iter().filter(|(_, p)| p.rows() == 6) {
        let t1 = Instant::now();
        let a = count(&bt, p, &options(1));
        let s1 = t1.elapsed().as_secs_f64();
        if s1 < 1.0 {
            continue;
        }
        let t2 = Instant::now();
        let b = count(&bt, p, &options(2));
        let s2 = t2.elapsed().as_secs_f64();
        assert_eq!(a, b);
        println!(
            "threads {name:<20} 1 thread {s1:.3} s, 2 threads {s2:.3} s: {:.2}x",
            s1 / s2
        );
    }
    let _ = c;
}

criterion_group!(benches, seed_puzzle, saegesser, nodes_per_second);
criterion_main!(benches);
