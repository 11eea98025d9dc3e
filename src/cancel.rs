//! The one way to stop a search: a [`Cancel`] holds a [`StopToken`] that
//! anyone may trigger (Ctrl-C, a coordinator whose workers are done, the
//! caller of the Python package) and the run's deadline. Every phase of a
//! run looks at the same value: building a model, a search, the expansion
//! of its solutions, the waits of a coordinator. A phase that grows
//! memory outside the search's own ceiling (building a CP model, encoding
//! it) also gives its [`Cancel`] a resident-memory ceiling.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// A resident size (bytes) past which [`Cancel::check`] says stop.
    ceiling: Option<u64>,
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

    /// The same stop, also past a resident size of `ceiling` bytes. Each
    /// check then reads the process's memory (about 10 microseconds), so
    /// it is for phases that check rarely: per row of a model, per chunk
    /// of its encoding.
    pub fn with_ceiling(&self, ceiling: u64) -> Cancel {
        Cancel {
            ceiling: Some(ceiling),
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
            ceiling: self.ceiling,
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
        } else if self
            .ceiling
            .is_some_and(|c| resident_bytes().is_some_and(|b| b > c))
        {
            Err(Stopped::MemoryLimit)
        } else {
            Ok(())
        }
    }

    pub fn is_stopped(&self) -> bool {
        self.check().is_err()
    }
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
