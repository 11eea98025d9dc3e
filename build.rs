//! No build step. This script exists only so that `[build-dependencies]` in
//! Cargo.toml can give `syn` (a dependency of every derive macro the library
//! uses) the features PyO3's macros turn on: with them the test build and
//! the Python extension's build (scripts/test-python, maturin) compile the
//! library the same way, and the second reuses the first's artifacts.
fn main() {
    // Without this line Cargo reruns the script, and so rebuilds the
    // library, whenever any file of the package changes (a test, a doc).
    println!("cargo::rerun-if-changed=build.rs");
}
