//! A CP-SAT solve on a thread of its own, and how its caller waits for it:
//! stoppable, with a bounded wait once stopped (parts of CP-SAT's presolve
//! never look at the stop flag), and its answer read before its memory is
//! given back.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::proto::CpSolverResponse;
use super::proto::SatParameters;
use super::runtime::{Runtime, RuntimeError, give_back_freed_memory};

/// How long a solve that was asked to stop may take to return before its
/// caller stops waiting for it. CP-SAT's search stops within milliseconds,
/// but parts of its presolve never look at the stop flag: on a 16x16
/// `edge-boolean` model it returned long after being asked (docs/log.md).
pub(crate) const GRACE: Duration = Duration::from_millis(150);

/// How long before a run's deadline CP-SAT's own time limit ends a solve
/// that was given the rest of the run: 1% of that time, at most 2 s. After
/// a long search a solve can take longer than [`GRACE`] to return once
/// stopped (on meta-14x14, so its statistics were lost); one
/// that ends by its own limit this much earlier returns before the run's
/// deadline.
pub(crate) fn own_limit_margin(time: Duration) -> Duration {
    (time / 100).min(Duration::from_secs(2))
}

/// How often a waiting caller looks at its stop condition.
const POLL: Duration = Duration::from_millis(10);

// Solves still running (or giving their memory back) whose caller no
// longer waits for them are counted in `crate::cancel`'s abandoned work.
// Solves that a caller waits for are not counted: runs side by side in
// one process (the Python package, the tests) do not wait for each
// other's searches.

/// A solve's thread is running (or giving its memory back).
const RUNNING: u8 = 0;
/// Its caller stopped waiting while it ran: counted as abandoned.
const LEFT: u8 = 1;
/// It has returned and given its memory back.
const DONE: u8 = 2;

/// One solve running on its own thread.
pub(crate) struct Pending {
    rx: mpsc::Receiver<Result<CpSolverResponse, RuntimeError>>,
    /// Says when the solve's memory is given back (after its answer).
    cleaned: mpsc::Receiver<()>,
    stop: Box<dyn Fn() + Send>,
    /// [`RUNNING`], [`LEFT`] or [`DONE`].
    state: Arc<AtomicU8>,
}

/// How a [`Pending`] solve ended for its caller.
pub(crate) enum Waited {
    /// The solver returned (stopped or not).
    Returned(Result<CpSolverResponse, RuntimeError>),
    /// Asked to stop, it had not returned within [`GRACE`]: it runs on
    /// until CP-SAT notices the stop, then ends by itself, unread.
    GaveUp,
}

impl Pending {
    /// Run `solve` on a thread of its own (`stop` asks it to stop); it
    /// gives its answer and what gives its memory back.
    pub(super) fn spawn<C: FnOnce()>(
        stop: impl Fn() + Send + 'static,
        solve: impl FnOnce() -> (Result<CpSolverResponse, RuntimeError>, C) + Send + 'static,
    ) -> Pending {
        let (tx, rx) = mpsc::channel();
        let (cleaned_tx, cleaned) = mpsc::channel();
        let state = Arc::new(AtomicU8::new(RUNNING));
        let thread_state = Arc::clone(&state);
        std::thread::spawn(move || {
            // Done when the memory is back, or when the solve panicked.
            let done = Finished(thread_state);
            let (r, clean) = solve();
            // The answer goes out before the memory is given back: after a
            // long search, giving it back (malloc_trim) can take longer
            // than a stopped caller waits, and the answer (its statistics,
            // its best board) would be lost with it. The caller may have
            // given up: then nobody reads this.
            let _ = tx.send(r);
            clean();
            drop(done);
            let _ = cleaned_tx.send(());
        });
        Pending {
            rx,
            cleaned,
            stop: Box::new(stop),
            state,
        }
    }
}

/// Marks a solve's thread done when dropped.
struct Finished(Arc<AtomicU8>);

impl Drop for Finished {
    fn drop(&mut self) {
        if self.0.swap(DONE, Ordering::SeqCst) == LEFT {
            crate::cancel::uncount_abandoned();
        }
    }
}

/// A caller that no longer waits (given up on, or its answer read before
/// its memory was back) leaves the solve to [`crate::cancel::settle`].
impl Drop for Pending {
    fn drop(&mut self) {
        // Counted first, so that the thread's end never takes away a count
        // not yet made; taken back if the solve was already done.
        crate::cancel::count_abandoned();
        let left = self
            .state
            .compare_exchange(RUNNING, LEFT, Ordering::SeqCst, Ordering::SeqCst);
        if left.is_err() {
            crate::cancel::uncount_abandoned();
        }
    }
}

impl Pending {
    /// Wait for the solve and then for its memory to be given back. Once
    /// `stop()` says so, ask it to stop and wait at most [`GRACE`] more for
    /// its answer, and not for its memory ([`crate::cancel::settle`] waits for that). Once
    /// `yield_now()` says so (the memory ceiling), ask it to stop but wait
    /// however long it takes (its memory is back when it returns), unless
    /// `stop()` says so too.
    pub(crate) fn wait(self, stop: impl Fn() -> bool, yield_now: impl Fn() -> bool) -> Waited {
        let mut asked: Option<Instant> = None;
        let mut yielding = false;
        loop {
            match self.rx.recv_timeout(POLL) {
                Ok(r) => {
                    while !stop() {
                        match self.cleaned.recv_timeout(POLL) {
                            Err(mpsc::RecvTimeoutError::Timeout) => {}
                            _ => break,
                        }
                    }
                    return Waited::Returned(r);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Waited::Returned(Err(RuntimeError::Lost));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            match asked {
                None if stop() => {
                    (self.stop)();
                    asked = Some(Instant::now());
                }
                None if !yielding && yield_now() => {
                    (self.stop)();
                    yielding = true;
                }
                Some(t) if t.elapsed() >= GRACE => return Waited::GaveUp,
                _ => {}
            }
        }
    }
}

impl Runtime {
    /// Start solving the encoded model `m` on a thread of its own, in a
    /// fresh environment.
    pub(crate) fn spawn_solve(&'static self, m: Vec<u8>, params: SatParameters) -> Pending {
        let env = self.new_env();
        let stopper = env.stopper();
        Pending::spawn(
            move || stopper.stop(),
            move || {
                let r = self.solve_encoded(&env, &m, &params);
                (r, move || {
                    drop(env);
                    drop(m);
                    give_back_freed_memory();
                })
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize;

    /// A solve whose answer is ready at once and whose memory is given back
    /// only when `release` says so; `freed` is set then.
    fn slow_to_clean(release: mpsc::Receiver<()>, freed: Arc<AtomicUsize>) -> Pending {
        Pending::spawn(
            || {},
            move || {
                let answer = CpSolverResponse {
                    num_branches: 7,
                    ..Default::default()
                };
                (Ok(answer), move || {
                    let _ = release.recv();
                    freed.store(1, Ordering::SeqCst);
                })
            },
        )
    }

    /// A solve that runs until `release` says so.
    fn blocked(release: mpsc::Receiver<()>) -> Pending {
        Pending::spawn(
            || {},
            move || {
                let _ = release.recv();
                (Ok(CpSolverResponse::default()), || {})
            },
        )
    }

    /// `settle` with a limit: whether no solve left by its caller runs.
    fn settled_within(limit: Duration) -> bool {
        let start = Instant::now();
        crate::cancel::settle(|| start.elapsed() > limit)
    }

    #[test]
    fn a_solve_still_waited_for_does_not_hold_other_runs() {
        let (release, released) = mpsc::channel();
        let pending = blocked(released);
        // Other tests' given-up solves end within seconds; this one runs
        // until settle has returned.
        assert!(settled_within(Duration::from_secs(120)));
        release.send(()).unwrap();
        assert!(matches!(
            pending.wait(|| false, || false),
            Waited::Returned(Ok(_))
        ));
    }

    #[test]
    fn a_given_up_solve_holds_other_runs_until_it_ends() {
        let (release, released) = mpsc::channel();
        let pending = blocked(released);
        assert!(matches!(pending.wait(|| true, || false), Waited::GaveUp));
        assert!(!settled_within(Duration::from_millis(50)));
        release.send(()).unwrap();
        assert!(settled_within(Duration::from_secs(120)));
    }

    #[test]
    fn the_solver_stops_itself_a_little_before_the_deadline() {
        let ms = |m| Duration::from_millis(m);
        assert_eq!(own_limit_margin(ms(1000)), ms(10));
        assert_eq!(own_limit_margin(ms(60_000)), ms(600));
        assert_eq!(own_limit_margin(ms(600_000)), ms(2000));
        assert_eq!(own_limit_margin(Duration::ZERO), Duration::ZERO);
    }

    #[test]
    fn a_stopped_caller_reads_the_answer_without_waiting_for_the_memory() {
        let (release, released) = mpsc::channel();
        let freed = Arc::new(AtomicUsize::new(0));
        let pending = slow_to_clean(released, Arc::clone(&freed));
        // Stopped: the answer (its statistics) is read although the memory
        // is not back, and will not be until released.
        match pending.wait(|| true, || false) {
            Waited::Returned(Ok(r)) => assert_eq!(r.num_branches, 7),
            _ => panic!("the answer was lost"),
        }
        assert_eq!(freed.load(Ordering::SeqCst), 0);
        release.send(()).unwrap();
    }

    #[test]
    fn a_running_caller_waits_for_the_memory_too() {
        let (release, released) = mpsc::channel();
        let freed = Arc::new(AtomicUsize::new(0));
        let pending = slow_to_clean(released, Arc::clone(&freed));
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            release.send(()).unwrap();
        });
        assert!(matches!(
            pending.wait(|| false, || false),
            Waited::Returned(Ok(_))
        ));
        assert_eq!(freed.load(Ordering::SeqCst), 1);
    }
}
