//! Finding, loading and calling OR-Tools' CP-SAT C API at run time.
//!
//! `libortools.so.9` from the `ortools` Python wheel exports the C API that
//! OR-Tools' Go binding uses: protobuf bytes in, protobuf bytes out.
//!
//! Discovery order (the first that exists wins; see docs/cpsat-runtime.md):
//! 1. `SCRAMBLE_CPSAT_LIB`: the library file, or a directory holding it;
//! 2. the project-local install made by `scripts/install/cpsat`:
//!    `.cpsat/ortools-VERSION/ortools/.libs/libortools.so.9` under the
//!    checkout (the directory scramble was built from) or any ancestor of the
//!    running executable;
//! 3. the `ortools` package of the Python found as `python3` (or
//!    `SCRAMBLE_PYTHON`).
//!
//! This module and `descriptor` are the only ones with `unsafe` code.

use std::ffi::{c_int, c_void};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

use prost::Message;
use thiserror::Error;

use super::proto::{CpSolverResponse, SatParameters};

/// The OR-Tools release scramble is built and tested against.
pub const PINNED_VERSION: &str = "9.15.6755";
/// The library file inside the wheel.
pub(crate) const LIB_NAME: &str = "libortools.so.9";
/// Environment variable naming the library (or its directory).
pub(crate) const LIB_ENV: &str = "SCRAMBLE_CPSAT_LIB";
/// Environment variable naming the Python interpreter to ask.
pub(crate) const PYTHON_ENV: &str = "SCRAMBLE_PYTHON";

/// The checkout scramble was built from (holds `scripts/install/cpsat`).
const CHECKOUT: &str = env!("CARGO_MANIFEST_DIR");

/// Errors finding or using the runtime.
#[derive(Clone, Debug, Error)]
pub enum RuntimeError {
    #[error(
        "the CP-SAT runtime ({LIB_NAME} from OR-Tools {PINNED_VERSION}) was not found.\nLooked in:\n{looked}\nFix: run\n    {fix}\nor set {LIB_ENV}=/path/to/{LIB_NAME}"
    )]
    NotFound { looked: String, fix: String },
    #[error(
        "{LIB_ENV}={path}: {reason}\nFix: point it at {LIB_NAME} of OR-Tools {PINNED_VERSION}, or unset it and run\n    {fix}"
    )]
    BadEnv {
        path: String,
        reason: String,
        fix: String,
    },
    #[error("cannot load the CP-SAT runtime {path}: {reason}\nFix: run\n    {fix}")]
    Load {
        path: PathBuf,
        reason: String,
        fix: String,
    },
    #[error(
        "the CP-SAT runtime {path} is OR-Tools {found}, but scramble needs {PINNED_VERSION}.\nFix: run\n    {fix}\nor set {LIB_ENV}=/path/to/{LIB_NAME} of OR-Tools {PINNED_VERSION}"
    )]
    WrongVersion {
        path: PathBuf,
        found: String,
        fix: String,
    },
    #[error("the CP-SAT runtime returned a response that does not decode: {0}")]
    Decode(String),
    #[error("a CP-SAT solve thread ended without a response")]
    Lost,
}

/// The command that installs the pinned runtime into this checkout.
pub(crate) fn install_command() -> String {
    format!("bash {CHECKOUT}/scripts/install/cpsat")
}

/// Where `scripts/install/cpsat` puts the library, relative to a checkout.
pub(crate) fn local_install_relpath() -> PathBuf {
    PathBuf::from(format!(
        ".cpsat/ortools-{PINNED_VERSION}/ortools/.libs/{LIB_NAME}"
    ))
}

type NewEnvFn = unsafe extern "C" fn() -> *mut c_void;
type VersionFn = unsafe extern "C" fn() -> c_int;
type EnvFn = unsafe extern "C" fn(*mut c_void);
type SolveFn = unsafe extern "C" fn(
    *mut c_void,
    *const c_void,
    c_int,
    *const c_void,
    c_int,
    *mut *mut c_void,
    *mut c_int,
);

unsafe extern "C" {
    /// The C library's `free`: the runtime allocates responses with `malloc`.
    fn free(p: *mut c_void);
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
unsafe extern "C" {
    /// glibc's `malloc_trim`: hands the free pages of every malloc arena
    /// back to the system.
    fn malloc_trim(pad: usize) -> c_int;
}

/// Give the memory a finished solve freed back to the system. glibc keeps
/// freed pages in its arenas, and a solve's state (tens of MB on a 6x6,
/// docs/benchmarks.md) is freed in pieces the arenas mostly keep: without
/// this the process stays at its high-water mark after every subproblem.
pub(super) fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointers and only walks the allocator's
    // own free lists under its locks; any thread may call it at any time.
    unsafe {
        malloc_trim(0);
    }
}

/// The loaded library and the C API entry points.
pub(crate) struct Runtime {
    _lib: libloading::Library,
    new_env: NewEnvFn,
    destroy_env: EnvFn,
    stop_search: EnvFn,
    solve_interruptible: SolveFn,
    /// The OR-Tools version the library reports.
    pub version: String,
    /// `ortools/sat/cp_model.proto` as the library holds it: a serialized
    /// `FileDescriptorProto` (the schema `--constraints` files are read
    /// with), or why it could not be read.
    pub cp_model_descriptor: Result<Vec<u8>, String>,
}

static RUNTIME: OnceLock<Result<Runtime, RuntimeError>> = OnceLock::new();

/// The process-wide runtime, found and checked on first use.
pub(crate) fn runtime() -> Result<&'static Runtime, RuntimeError> {
    RUNTIME
        .get_or_init(Runtime::discover)
        .as_ref()
        .map_err(Clone::clone)
}

/// The candidate locations that need no other program, in discovery order,
/// with where each came from (the Python package is asked only when none of
/// them exists: starting Python costs more than the whole seed solve).
fn candidates() -> Result<Vec<(PathBuf, &'static str)>, RuntimeError> {
    if let Some(v) = std::env::var_os(LIB_ENV).filter(|v| !v.is_empty()) {
        let p = PathBuf::from(&v);
        let file = if p.is_dir() { p.join(LIB_NAME) } else { p };
        if !file.is_file() {
            return Err(RuntimeError::BadEnv {
                path: v.to_string_lossy().into_owned(),
                reason: "no such file".into(),
                fix: install_command(),
            });
        }
        return Ok(vec![(file, "environment")]);
    }
    let mut out = Vec::new();
    let rel = local_install_relpath();
    out.push((Path::new(CHECKOUT).join(&rel), "checkout"));
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1) {
            let p = dir.join(&rel);
            if !out.iter().any(|(q, _)| q == &p) {
                out.push((p, "next to the executable"));
            }
        }
    }
    Ok(out)
}

/// The `ortools` package directory of the Python interpreter, if it has one.
fn python_ortools_dir() -> Option<PathBuf> {
    let python = std::env::var(PYTHON_ENV).unwrap_or_else(|_| "python3".into());
    let out = Command::new(python)
        .args([
            "-c",
            "import importlib.util as u; s = u.find_spec('ortools'); print(s.submodule_search_locations[0] if s else '')",
        ])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let dir = text.trim();
    (!dir.is_empty()).then(|| PathBuf::from(dir))
}

impl Runtime {
    fn discover() -> Result<Runtime, RuntimeError> {
        let mut candidates = candidates()?;
        if let Some((path, _)) = candidates.iter().find(|(p, _)| p.is_file()) {
            return Runtime::open(path);
        }
        if let Some(dir) = python_ortools_dir() {
            let path = dir.join(".libs").join(LIB_NAME);
            if path.is_file() {
                return Runtime::open(&path);
            }
            candidates.push((path, "python"));
        } else {
            let python = std::env::var(PYTHON_ENV).unwrap_or_else(|_| "python3".into());
            candidates.push((
                PathBuf::from(format!("{python}: no ortools package")),
                "python",
            ));
        }
        let looked = candidates
            .iter()
            .map(|(p, from)| format!("  {} ({from})", p.display()))
            .collect::<Vec<_>>()
            .join("\n");
        Err(RuntimeError::NotFound {
            looked,
            fix: install_command(),
        })
    }

    /// Load the library at `path` and check its version.
    pub(crate) fn open(path: &Path) -> Result<Runtime, RuntimeError> {
        let load_err = |reason: String| RuntimeError::Load {
            path: path.to_path_buf(),
            reason,
            fix: install_command(),
        };
        // A cut-short file would be mapped past its end and crash the
        // loader (SIGBUS) instead of failing: check its extent first.
        check_extent(path).map_err(load_err)?;
        // SAFETY: loading runs the library's initialisers; libortools is a
        // well-behaved C++ library whose dependencies sit beside it ($ORIGIN).
        let lib = unsafe { libloading::Library::new(path) }.map_err(|e| load_err(e.to_string()))?;
        // SAFETY: each symbol is looked up with the type of its declaration:
        // the C API in ortools/sat/c_api/cp_solver_c.h (9.15), and
        // `int operations_research::OrToolsMajorVersion()` (and Minor, Patch)
        // in ortools/base/version.h, plain functions without arguments that
        // return an int (the C calling convention). The pointers are used
        // only while `lib` is loaded: it is kept in the same `Runtime`.
        let (new_env, destroy_env, stop_search, solve_interruptible, version) = unsafe {
            fn sym<T: Copy>(
                lib: &libloading::Library,
                name: &str,
                err: &dyn Fn(String) -> RuntimeError,
            ) -> Result<T, RuntimeError> {
                // SAFETY: the caller names the symbol's true type as T.
                unsafe { lib.get::<T>(name.as_bytes()) }
                    .map(|s| *s)
                    .map_err(|e| {
                        err(format!(
                            "missing {name}: {e} (not an OR-Tools {PINNED_VERSION} library?)"
                        ))
                    })
            }
            let api = (
                sym::<NewEnvFn>(&lib, "SolveCpNewEnv", &load_err)?,
                sym::<EnvFn>(&lib, "SolveCpDestroyEnv", &load_err)?,
                sym::<EnvFn>(&lib, "SolveCpStopSearch", &load_err)?,
                sym::<SolveFn>(&lib, "SolveCpInterruptible", &load_err)?,
            );
            let major: VersionFn = sym(
                &lib,
                "_ZN19operations_research19OrToolsMajorVersionEv",
                &load_err,
            )?;
            let minor: VersionFn = sym(
                &lib,
                "_ZN19operations_research19OrToolsMinorVersionEv",
                &load_err,
            )?;
            let patch: VersionFn = sym(
                &lib,
                "_ZN19operations_research19OrToolsPatchVersionEv",
                &load_err,
            )?;
            (
                api.0,
                api.1,
                api.2,
                api.3,
                format!("{}.{}.{}", major(), minor(), patch()),
            )
        };
        if version != PINNED_VERSION {
            return Err(RuntimeError::WrongVersion {
                path: path.to_path_buf(),
                found: version,
                fix: install_command(),
            });
        }
        let cp_model_descriptor = super::descriptor::cp_model_descriptor(&lib);
        Ok(Runtime {
            cp_model_descriptor,
            _lib: lib,
            new_env,
            destroy_env,
            stop_search,
            solve_interruptible,
            version,
        })
    }

    /// A fresh solver environment (one per solve), usable only while this
    /// runtime (its library) is loaded.
    pub(crate) fn new_env(&self) -> Env<'_> {
        // SAFETY: SolveCpNewEnv takes nothing and returns an owned pointer.
        let ptr = unsafe { (self.new_env)() };
        Env(Arc::new(EnvInner { rt: self, ptr }))
    }

    /// Solve the encoded model `m` with `params` in `env`, blocking until
    /// the solver returns.
    pub(crate) fn solve_encoded(
        &self,
        env: &Env<'_>,
        m: &[u8],
        params: &SatParameters,
    ) -> Result<CpSolverResponse, RuntimeError> {
        let p = params.encode_to_vec();
        let mut out: *mut c_void = std::ptr::null_mut();
        let mut out_len: c_int = 0;
        // SAFETY: the buffers are valid for the given lengths during the call;
        // the library writes a malloc'ed buffer and its length, which we copy
        // and free. `env.ptr` is a live environment (freed only on drop).
        let bytes = unsafe {
            (self.solve_interruptible)(
                env.0.ptr,
                m.as_ptr().cast(),
                m.len() as c_int,
                p.as_ptr().cast(),
                p.len() as c_int,
                &mut out,
                &mut out_len,
            );
            if out.is_null() {
                Vec::new()
            } else {
                let v = std::slice::from_raw_parts(out as *const u8, out_len as usize).to_vec();
                free(out);
                v
            }
        };
        CpSolverResponse::decode(bytes.as_slice()).map_err(|e| RuntimeError::Decode(e.to_string()))
    }
}

/// Whether a 64-bit little-endian ELF file holds everything its headers
/// say it does (the section headers and every loaded segment); other files
/// are left to the loader to judge.
fn check_extent(path: &Path) -> Result<(), String> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let len = f.metadata().map_err(|e| e.to_string())?.len();
    let mut head = vec![0u8; 64];
    if f.read_exact(&mut head).is_err() || &head[..4] != b"\x7fELF" || head[4] != 2 || head[5] != 1
    {
        return Ok(());
    }
    let u16_at = |b: &[u8], o: usize| u16::from_le_bytes([b[o], b[o + 1]]) as u64;
    let u64_at = |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
    let (phoff, shoff) = (u64_at(&head, 0x20), u64_at(&head, 0x28));
    let (phentsize, phnum) = (u16_at(&head, 0x36), u16_at(&head, 0x38));
    let (shentsize, shnum) = (u16_at(&head, 0x3a), u16_at(&head, 0x3c));
    let short = |needed: u64| {
        format!(
            "the file is cut short: {len} bytes, where its headers need {needed} (a copy or download that did not finish?)"
        )
    };
    let mut needed = shoff.saturating_add(shentsize * shnum);
    let ph_end = phoff.saturating_add(phentsize * phnum);
    if ph_end > len || phentsize < 56 {
        return Err(short(needed.max(ph_end)));
    }
    let mut ph = vec![0u8; (phentsize * phnum) as usize];
    std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(phoff)).map_err(|e| e.to_string())?;
    f.read_exact(&mut ph).map_err(|e| e.to_string())?;
    for entry in ph.chunks(phentsize as usize) {
        const PT_LOAD: u32 = 1;
        if u32::from_le_bytes(entry[..4].try_into().expect("4 bytes")) == PT_LOAD {
            needed = needed.max(u64_at(entry, 8).saturating_add(u64_at(entry, 32)));
        }
    }
    if needed > len {
        return Err(short(needed));
    }
    Ok(())
}

/// A CP-SAT solver environment: one solve, stoppable from another thread.
/// It borrows the runtime, so the library cannot be unloaded while it
/// lives; it is shared with its [`Stopper`]s and destroyed with the last of
/// them, so a stopper can never reach a destroyed environment.
pub(crate) struct Env<'rt>(Arc<EnvInner<'rt>>);

struct EnvInner<'rt> {
    rt: &'rt Runtime,
    ptr: *mut c_void,
}

impl<'rt> Env<'rt> {
    /// A handle that can stop this environment's search from another thread.
    pub(crate) fn stopper(&self) -> Stopper<'rt> {
        Stopper(Arc::clone(&self.0))
    }
}

impl Drop for EnvInner<'_> {
    fn drop(&mut self) {
        // SAFETY: ptr came from SolveCpNewEnv, is destroyed once (the last
        // owner drops it), and the library is loaded ('rt borrows it).
        unsafe { (self.rt.destroy_env)(self.ptr) }
    }
}

/// Stops a running search (or does nothing once it has ended).
#[derive(Clone)]
pub(crate) struct Stopper<'rt>(Arc<EnvInner<'rt>>);

// SAFETY: the environment is solved by one thread at a time (`Env` is not
// Clone, and a solve borrows it), and SolveCpStopSearch, the only call a
// `Stopper` makes, sets an atomic flag in the environment's shared time
// limit: it is meant to be called from another thread.
unsafe impl Send for EnvInner<'_> {}
// SAFETY: as above.
unsafe impl Sync for EnvInner<'_> {}

impl Stopper<'_> {
    pub(crate) fn stop(&self) {
        // SAFETY: the environment is alive (this handle owns a share of it)
        // and the library loaded (its 'rt borrow).
        unsafe { (self.0.rt.stop_search)(self.0.ptr) }
    }
}

/// The runtime for a unit test that needs CP-SAT: none (the test skips,
/// saying so) when it is missing, unless `SCRAMBLE_TEST_REQUIRE_ALL` is set
/// (scripts/test), which makes a missing runtime a failure.
#[cfg(test)]
pub(crate) fn runtime_for_tests() -> Option<&'static Runtime> {
    match runtime() {
        Ok(rt) => Some(rt),
        Err(e) if std::env::var_os("SCRAMBLE_TEST_REQUIRE_ALL").is_some() => {
            panic!("the CP-SAT runtime is missing: {e}")
        }
        Err(e) => {
            eprintln!("SKIPPED: the CP-SAT runtime is missing ({e})");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopper_outliving_its_solve_is_harmless() {
        let Some(rt) = runtime_for_tests() else {
            return;
        };
        let env = rt.new_env();
        let stopper = env.stopper();
        let other = stopper.clone();
        drop(env);
        // The environment lives on in its stoppers: stopping an idle one
        // only sets its flag.
        stopper.stop();
        drop(stopper);
        other.stop();
        let r = rt.solve_encoded(&rt.new_env(), &[], &SatParameters::default());
        assert!(r.is_ok());
    }
}
