//! The examples each `--help` page ends with. Every line that starts with
//! `scramble` is run by the test suite (tests/it/examples.rs), as are the
//! command lines of README.md and docs/cli.md: a documented example cannot
//! fail.

pub(super) const SOLVE: &str = "Examples:
  scramble solve puzzles/3x3-original                       every solution, by CP-SAT
  scramble solve puzzles/legespiel/space-web.yaml --format json
  scramble solve puzzles/eternity2/clue1.txt --solver backtrack --limit 1
  scramble solve puzzles/legespiel/crazy-sheep.yaml --solver sat --count
  scramble solve puzzles/3x3-original --out seed-answer      pictures, texts, index.html";

pub(super) const SYMMETRY_REPORT: &str = "Examples:
  scramble symmetry-report puzzles/legespiel/der-sternenhimmel.yaml
  scramble symmetry-report puzzles/legespiel/der-sternenhimmel.yaml --symmetry center,lex
  scramble symmetry-report puzzles/3x3-original --solvers cp-sat,sat --format markdown";

pub(super) const COMPARE: &str = "Examples:
  scramble compare puzzles/3x3-original puzzles/legespiel/crazy-sheep.yaml
  scramble compare puzzles/legespiel --time-limit 60          a folder: every puzzle in it";

pub(super) const COUNT: &str = "Examples:
  scramble count puzzles/legespiel/der-sternenhimmel.yaml
  scramble count puzzles/eternity2/clue1.txt --method estimate --time-limit 10
  scramble count puzzles/legespiel/crazy-sheep.yaml --format json";

pub(super) const GENERATE: &str = "Examples:
  scramble generate --size 4 --motifs 6 --count 3 --out generated
  scramble generate --size 6 --motifs 5 --frame-colours 3 --out framed
  scramble generate --size 3 --motifs 6 --unique --out unique";

pub(super) const RENDER: &str = "Examples:
  scramble render puzzles/3x3-original --output seed.svg
  scramble render puzzles/eternity2/clue1.txt --output clue1.png";

pub(super) const CONVERT: &str = "Examples:
  scramble convert puzzles/eternity2/clue1.txt --output clue1.yaml";

pub(super) const GRAPH: &str = "Examples:
  scramble graph puzzles/legespiel/crazy-sheep.yaml --output graph.svg
  scramble graph puzzles/legespiel/crazy-sheep.yaml --output graph.dot";

pub(super) const BENCH: &str = "Examples:
  scramble bench --generate 3,4,100,1 --csv runs.csv --plot times.svg
  scramble bench puzzles/3x3-original --solvers cp-sat,backtrack,sat --repeat 3";

pub(super) const PROBE: &str = "Examples:
  scramble probe puzzles/eternity2/eternity2.txt --hint eternity2 --depth 150
  scramble probe puzzles/eternity2/clue1.txt --estimate 1000";

pub(super) const MODEL: &str = "Examples:
  scramble model puzzles/3x3-original --model table
  scramble model puzzles/eternity2/clue1.txt --format dimacs --out clue1.cnf";

pub(super) const BEST: &str = "Examples:
  scramble best puzzles/eternity2/eternity2.txt --hint eternity2 --method depth --time-limit 60
  scramble best puzzles/eternity2/8x8-a.txt --method hybrid --time-limit 30 --svg best.svg";

pub(super) const MERGE: &str = "Examples:
  scramble solve puzzles/3x3-original --shard 0/2 --format json > shard-0.json
  scramble solve puzzles/3x3-original --shard 1/2 --format json > shard-1.json
  scramble merge shard-0.json shard-1.json";
