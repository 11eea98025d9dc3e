//! Every integration test in one binary: one link instead of one per file
//! (docs/architecture.md, "Tests"). Each file below is one area of tests.

mod backtrack;
mod bench_cli;
mod best_cli;
mod ceiling;
mod combinations;
mod common;
mod constraints_cli;
mod corpus_cpsat;
mod count;
mod count_fourier;
mod examples;
mod family;
mod family_cli;
mod faults;
mod fuzz;
mod generate_compare;
mod graph;
mod house;
mod input_errors;
mod models_cpsat;
mod pictures;
mod probe_cli;
mod promises;
mod props_cpsat;
mod race;
mod render_cli;
mod sat;
mod shard_cli;
mod slurm;
mod solve_cli;
mod split_cpsat;
mod stream_cli;
mod symmetry_cli;
