//! Two jobs:
//! - `[build-dependencies]` in Cargo.toml gives `syn` (a dependency of
//!   every derive macro the library uses) the features PyO3's macros turn
//!   on: with them the test build and the Python extension's build
//!   (scripts/test-python, maturin) compile the library the same way, and
//!   the second reuses the first's artifacts.
//! - It writes the backtracker's fused walk, one function per depth, into
//!   `OUT_DIR/fused_walk.rs` (src/engines/backtrack/fused.rs includes it):
//!   the template `fused_depth.rs.in` expanded for each depth.

use std::fmt::Write;

const TEMPLATE: &str = "src/engines/backtrack/fused_depth.rs.in";
/// The depths (one per cell of the largest board).
const DEPTHS: usize = 256;
/// The board width whose row scan reads keys at constant offsets.
const WIDTH: usize = 16;
/// Every `BLOCK`-th depth is a function of its own; the others are
/// inlined into it.
const BLOCK: usize = 4;

/// How depth `next`'s key is read.
fn key(next: usize) -> String {
    if next >= WIDTH && !next.is_multiple_of(WIDTH) {
        // The cell above's bottom edge (edge 3) and this entry's key.
        format!(
            "(c.table[{next}] + u32::from(c.need[(usize::from(c.placed[{}]) * 8 + 3) & (NEED - 1)]), !0)",
            next - WIDTH
        )
    } else {
        format!("c.l.next(&c.placed, {next}).parts()")
    }
}

fn main() {
    // Without these lines Cargo reruns the script, and so rebuilds the
    // library, whenever any file of the package changes (a test, a doc).
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed={TEMPLATE}");
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let raw = std::fs::read_to_string(std::path::Path::new(&root).join(TEMPLATE))
        .expect("the fused walk's template");
    // Its leading comment is said once, in fused.rs.
    let template: String = raw
        .lines()
        .filter(|l| !l.starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut out = String::new();
    for d in 0..DEPTHS - 1 {
        let inline = if d.is_multiple_of(BLOCK) {
            "never"
        } else {
            "always"
        };
        out += &template
            .replace("@INLINE@", inline)
            .replace("@KEY@", &key(d + 1))
            .replace("@NEXT@", &(d + 1).to_string())
            .replace("@D@", &d.to_string());
    }
    // The last depth's candidates are boards; the one before it emits
    // them without calling this.
    let last = DEPTHS - 1;
    let _ = writeln!(
        out,
        "fn d{last}(c: &mut Ctx<'_>, r: u64, b: u32) -> bool {{\n    boards(c, {last}, b, r)\n}}"
    );
    let steps: Vec<String> = (0..DEPTHS).map(|d| format!("d{d}")).collect();
    let _ = writeln!(out, "/// Each depth's function.");
    let _ = writeln!(
        out,
        "const STEPS: [Step; {DEPTHS}] = [{}];",
        steps.join(", ")
    );
    let dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(std::path::Path::new(&dir).join("fused_walk.rs"), out).expect("write");
}
