//! The one way to stop a search: a [`Cancel`] holds a [`StopToken`] that
//! anyone may trigger (Ctrl-C, a coordinator whose workers are done, the
//! caller of the Python package) and the run's deadline. Every phase of a
//! run looks at the same value: building a model, a search, the expansion
//! of its solutions, the waits of a coordinator. A phase that grows
//! memory outside the search's own ceiling (building a CP model, encoding
//! it) also gives its [`Cancel`] a resident-memory ceiling.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A stop anyone holding a clone may ask for; every clone sees it.
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<AtomicBool>);

impl StopToken {
    pub fn new() -> StopToken {
        StopToken::default()
    }
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// What a stop request (a SIGINT) means: the first asks the run to stop
/// with what it found; one within [`Interrupts::BURST`] of it is the same
/// request (GNU `timeout` and a terminal signal the process and its group
/// at once, so one press can arrive twice); a later one quits at once.
#[derive(Debug, Default)]
pub struct Interrupts {
    first: std::sync::Mutex<Option<Instant>>,
}

/// What to do with one stop request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// The first: stop the run and report what was found.
    Stop,
    /// Part of the first one's burst: nothing more to do.
    Same,
    /// A second request, later: quit now.
    Quit,
}

impl Interrupts {
    /// Requests this close to the first are one request.
    pub const BURST: Duration = Duration::from_millis(100);

    pub fn new() -> Interrupts {
        Interrupts::default()
    }

    /// A request arriving at `now`.
    pub fn request(&self, now: Instant) -> Request {
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        match *first {
            None => {
                *first = Some(now);
                Request::Stop
            }
            Some(t) if now.saturating_duration_since(t) < Self::BURST => Request::Same,
            Some(_) => Request::Quit,
        }
    }
}

/// Why a [`Cancel`] says stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The deadline passed.
    TimeLimit,
    /// The token was triggered.
    Interrupted,
    /// The process's resident memory passed the ceiling.
    MemoryLimit,
}

/// A token and a deadline, and for some phases a memory ceiling: what
/// every phase of a run checks.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    token: StopToken,
    deadline: Option<Instant>,
    /// A resident size past which [`Cancel::check`] says stop.
    ceiling: Option<Arc<Ceiling>>,
}

/// A resident-memory ceiling and its last reading, shared by the clones
/// of one [`Cancel`]: the process's memory is read (about 10
/// microseconds) at most every [`Ceiling::EVERY`], so a search may check
/// its cancel as often as it checks the clock.
#[derive(Debug)]
struct Ceiling {
    bytes: u64,
    /// When the memory was last read, in nanoseconds after `since`
    /// (0: never read).
    read_at: AtomicU64,
    since: Instant,
    over: AtomicBool,
}

impl Ceiling {
    /// How stale a reading may be: what a run can touch in this time (a
    /// few tens of megabytes) is within the allowance the promise leaves.
    const EVERY: Duration = Duration::from_millis(5);

    fn new(bytes: u64) -> Ceiling {
        Ceiling {
            bytes,
            read_at: AtomicU64::new(0),
            since: Instant::now(),
            over: AtomicBool::new(false),
        }
    }

    /// Whether the process was past the ceiling at the latest reading,
    /// reading again when that one is stale.
    fn passed(&self) -> bool {
        let now = (self.since.elapsed().as_nanos() as u64).max(1);
        let last = self.read_at.load(Ordering::Relaxed);
        if last == 0 || now.saturating_sub(last) >= Self::EVERY.as_nanos() as u64 {
            self.read_at.store(now, Ordering::Relaxed);
            let over = resident_bytes().is_some_and(|b| b > self.bytes);
            self.over.store(over, Ordering::Relaxed);
        }
        self.over.load(Ordering::Relaxed)
    }
}

impl Cancel {
    /// Stop when `token` is triggered or at `deadline` (None: no deadline).
    pub fn new(token: StopToken, deadline: Option<Instant>) -> Cancel {
        Cancel {
            token,
            deadline,
            ceiling: None,
        }
    }

    /// The same stop, also past a resident size of `ceiling` bytes (read
    /// at most every few milliseconds, [`Ceiling::EVERY`]).
    pub fn with_ceiling(&self, ceiling: u64) -> Cancel {
        Cancel {
            ceiling: Some(Arc::new(Ceiling::new(ceiling))),
            ..self.clone()
        }
    }

    /// Never stops by itself (its own token can still be triggered).
    pub fn never() -> Cancel {
        Cancel::default()
    }

    pub fn token(&self) -> &StopToken {
        &self.token
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The same token with the earlier of this deadline and `deadline`.
    pub fn until(&self, deadline: Option<Instant>) -> Cancel {
        let deadline = match (self.deadline, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Cancel {
            token: self.token.clone(),
            deadline,
            ceiling: self.ceiling.clone(),
        }
    }

    /// The time left before the deadline (None: no deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Whether to stop now, and why: the token first, so a stop asked for
    /// as the deadline passes reads as asked, then the deadline, then the
    /// memory.
    pub fn check(&self) -> Result<(), Stopped> {
        if self.token.is_stopped() {
            Err(Stopped::Interrupted)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Err(Stopped::TimeLimit)
        } else if self.past_ceiling() {
            Err(Stopped::MemoryLimit)
        } else {
            Ok(())
        }
    }

    pub fn is_stopped(&self) -> bool {
        self.check().is_err()
    }

    /// Whether the process is past this cancel's memory ceiling (false
    /// without one), whatever the token and the deadline say.
    pub(crate) fn past_ceiling(&self) -> bool {
        self.ceiling.as_ref().is_some_and(|c| c.passed())
    }
}

/// Work still running (or giving its memory back) whose run no longer
/// waits for it: a CP-SAT solve asked to stop that had not returned when
/// its run ended (parts of CP-SAT's presolve never look at the stop
/// flag). It still holds memory, so the next run waits for it
/// ([`settle`]) before it reads what the process holds.
static ABANDONED: AtomicUsize = AtomicUsize::new(0);

/// Count one piece of work its run has stopped waiting for.
pub(crate) fn count_abandoned() {
    ABANDONED.fetch_add(1, Ordering::SeqCst);
}

/// Take back the count of one piece of abandoned work: it has returned
/// and given its memory back.
pub(crate) fn uncount_abandoned() {
    ABANDONED.fetch_sub(1, Ordering::SeqCst);
}

/// How often [`settle`] looks.
const SETTLE_POLL: Duration = Duration::from_millis(10);

/// Wait until no abandoned work is still running (its memory is back), or
/// `give_up()` says to stop waiting; whether none runs. Every run settles
/// before it reads the memory its ceiling counts from, so a run never
/// counts an earlier run's leftovers as its own, and the two never hold
/// their memory at once.
pub(crate) fn settle(give_up: impl Fn() -> bool) -> bool {
    while ABANDONED.load(Ordering::SeqCst) > 0 {
        if give_up() {
            return false;
        }
        std::thread::sleep(SETTLE_POLL);
    }
    true
}

/// The allowance where the machine's available memory cannot be read
/// (not Linux): under 1 GB for a 16x16 board, with room for the solve
/// being stopped to notice.
const FALLBACK_ALLOWANCE: u64 = 900_000_000;

/// The least default allowance, however little the machine has free.
const LEAST_ALLOWANCE: u64 = 256_000_000;

/// The memory (bytes) a run of an engine that watches its memory (CP-SAT,
/// the SAT engine) may add to its process, unless the run asks for
/// another (`--memory-limit`): half the memory available when it starts
/// (`MemAvailable`), at least 256 MB. Half, because a solver stopped at
/// the ceiling still grows while it notices and frees its state, and the
/// machine is shared with the rest of the process and other programs: on
/// a small machine the run stops cleanly as `memory_limit` before the
/// kernel kills it, on a large one it can use most of what is free.
pub(crate) fn default_allowance() -> u64 {
    default_for(available_bytes())
}

/// [`default_allowance`] for a machine with `available` bytes free.
fn default_for(available: Option<u64>) -> u64 {
    available.map_or(FALLBACK_ALLOWANCE, |a| (a / 2).max(LEAST_ALLOWANCE))
}

/// The memory the kernel says is available for new work (`MemAvailable`
/// of /proc/meminfo), or None where it cannot be read.
fn available_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    kilobytes(&info, "MemAvailable:")
}

/// The resident size (bytes) past which a run that starts now and may add
/// `allowance` is stopped: what the process holds now plus the allowance.
/// The ceiling belongs to the run, not to the process: a run inside a
/// process that already holds gigabytes (a notebook, a test binary) gets
/// the same allowance as one from the command line. Where resident memory
/// cannot be read, the allowance alone (the ceiling is then never looked
/// at: every check needs the same reading). An allowance of 0 gives 0:
/// every look finds the run past it.
pub(crate) fn run_ceiling(allowance: u64) -> u64 {
    if allowance == 0 {
        return 0;
    }
    resident_bytes().unwrap_or(0).saturating_add(allowance)
}

/// The process's resident memory in bytes (`VmRSS` of /proc/self/status),
/// or None where that cannot be read (not Linux).
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    kilobytes(&status, "VmRSS:")
}

/// A `NAME: N kB` line's bytes (the format of /proc/self/status and
/// /proc/meminfo).
pub fn kilobytes(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kb: u64 = line
        .trim_start_matches(name)
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_and_the_deadline_each_stop_and_the_token_reads_first() {
        let c = Cancel::never();
        assert_eq!(c.check(), Ok(()));
        let past = Cancel::new(StopToken::new(), Some(Instant::now()));
        assert_eq!(past.check(), Err(Stopped::TimeLimit));
        past.token().stop();
        assert_eq!(past.check(), Err(Stopped::Interrupted));
        // Clones share the token.
        let a = Cancel::new(StopToken::new(), None);
        let b = a.until(None);
        a.token().stop();
        assert!(b.is_stopped());
    }

    #[test]
    fn a_burst_of_requests_is_one_and_a_later_one_quits() {
        let i = Interrupts::new();
        let t = Instant::now();
        assert_eq!(i.request(t), Request::Stop);
        assert_eq!(i.request(t), Request::Same);
        assert_eq!(i.request(t + Duration::from_millis(99)), Request::Same);
        assert_eq!(i.request(t + Interrupts::BURST), Request::Quit);
        assert_eq!(i.request(t + Duration::from_secs(5)), Request::Quit);
    }

    #[test]
    fn a_ceiling_stops_past_the_resident_memory_and_is_kept_by_until() {
        let held = resident_bytes().expect("Linux has /proc/self/status");
        let c = Cancel::never();
        assert_eq!(c.with_ceiling(held / 2).check(), Err(Stopped::MemoryLimit));
        assert_eq!(
            c.with_ceiling(held / 2).until(None).check(),
            Err(Stopped::MemoryLimit)
        );
        assert_eq!(c.with_ceiling(u64::MAX).check(), Ok(()));
        // The token and the deadline read first.
        let past = Cancel::new(StopToken::new(), Some(Instant::now())).with_ceiling(0);
        assert_eq!(past.check(), Err(Stopped::TimeLimit));
        assert_eq!(
            kilobytes("MemTotal: 10 kB\nMemAvailable:    4 kB\n", "MemAvailable:"),
            Some(4096)
        );
    }

    #[test]
    fn a_reading_serves_the_checks_of_the_next_milliseconds() {
        let c = Cancel::never().with_ceiling(u64::MAX);
        assert_eq!(c.check(), Ok(()));
        let ceiling = c.ceiling.as_ref().unwrap();
        let first = ceiling.read_at.load(Ordering::Relaxed);
        assert!(first > 0);
        // A clone shares the reading: a second check at once reads nothing.
        let twin = c.until(None);
        let started = Instant::now();
        assert_eq!(twin.check(), Ok(()));
        if started.elapsed() < Ceiling::EVERY {
            assert_eq!(ceiling.read_at.load(Ordering::Relaxed), first);
        }
        std::thread::sleep(Ceiling::EVERY);
        assert_eq!(twin.check(), Ok(()));
        assert!(ceiling.read_at.load(Ordering::Relaxed) > first);
    }

    #[test]
    fn the_default_allowance_is_half_the_available_memory_and_at_least_256_mb() {
        assert_eq!(default_for(Some(23_000_000_000)), 11_500_000_000);
        assert_eq!(default_for(Some(300_000_000)), LEAST_ALLOWANCE);
        assert_eq!(default_for(None), FALLBACK_ALLOWANCE);
        assert!(default_allowance() >= LEAST_ALLOWANCE);
    }

    #[test]
    fn a_run_s_ceiling_starts_from_what_the_process_holds() {
        if cfg!(not(target_os = "linux")) {
            return;
        }
        // 64 MB held before the run starts is not the run's: a ceiling of
        // 32 MB added is not passed by it.
        let held = std::hint::black_box(vec![1u8; 64 << 20]);
        let ceiling = run_ceiling(32 << 20);
        assert!(ceiling >= (64 << 20) + (32 << 20), "{ceiling}");
        assert!(run_ceiling(u64::MAX) == u64::MAX);
        assert!(run_ceiling(0) == 0);
        assert_eq!(
            Cancel::never().with_ceiling(0).check(),
            Err(Stopped::MemoryLimit)
        );
        drop(std::hint::black_box(held));
    }

    #[test]
    fn until_keeps_the_earlier_deadline() {
        let now = Instant::now();
        let later = now + Duration::from_secs(60);
        let c = Cancel::new(StopToken::new(), Some(later));
        assert_eq!(c.until(Some(now)).deadline(), Some(now));
        assert_eq!(c.until(None).deadline(), Some(later));
        assert_eq!(Cancel::never().until(Some(now)).deadline(), Some(now));
        assert!(c.remaining().unwrap() <= Duration::from_secs(60));
        assert_eq!(Cancel::never().remaining(), None);
    }
}
