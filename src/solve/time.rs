//! A command's time limit shared among the solves it runs one after
//! another.

use std::time::{Duration, Instant};

/// A command's `--time-limit` shared among the solves (methods, rows,
/// runs) it runs one after another: each gets an equal share of the time
/// left, so one that ends early leaves its time to the ones after it, and
/// the last ends at the command's deadline.
#[derive(Clone, Copy, Debug)]
pub struct TimeShare {
    deadline: Option<Instant>,
    left: usize,
}

impl TimeShare {
    /// `limit` from `start` shared among `solves`.
    pub fn new(limit: Option<Duration>, start: Instant, solves: usize) -> TimeShare {
        TimeShare {
            deadline: limit.map(|l| start + l),
            left: solves,
        }
    }

    /// The time limit of the next solve (None: no limit); counts it.
    pub fn next_limit(&mut self) -> Option<Duration> {
        let deadline = self.deadline?;
        let rest = deadline.saturating_duration_since(Instant::now());
        let share = rest / self.left.max(1) as u32;
        self.left = self.left.saturating_sub(1);
        Some(share)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_limit_is_shared_among_the_solves_left() {
        // Far from the deadline: the shares are fractions of what is left.
        let start = Instant::now();
        let mut share = TimeShare::new(Some(Duration::from_secs(3000)), start, 3);
        let first = share.next_limit().unwrap();
        assert!(first <= Duration::from_secs(1000) && first > Duration::from_secs(990));
        let second = share.next_limit().unwrap();
        assert!(second <= Duration::from_secs(1500) && second > Duration::from_secs(1490));
        // The last share is the rest, and so is any past the count.
        assert!(share.next_limit().unwrap() > Duration::from_secs(2990));
        assert!(share.next_limit().unwrap() > Duration::from_secs(2990));
        let mut none = TimeShare::new(None, start, 2);
        assert_eq!(none.next_limit(), None);
        // Past the deadline every share is nothing.
        let mut over = TimeShare::new(Some(Duration::ZERO), start, 1);
        assert_eq!(over.next_limit(), Some(Duration::ZERO));
    }
}
