//! The one job pool of the parallel searches: CP-SAT's subproblems, the
//! backtracker's subtrees and restart workers, the SAT engine's units,
//! `best`'s workers and the race's entrants. Workers run on scoped
//! threads, take jobs from one queue and send what they find to the
//! calling thread, which coordinates: it gets each message (and, if asked,
//! a quiet tick when none came for a while, to look at its limits), adds
//! jobs, and closes the queue when no more will come. The pool ends when
//! every worker has returned; each worker's return value comes back in
//! worker order.
//!
//! A pool does not stop anything by itself: the coordinator and the
//! workers share their run's stop (a `Cancel`, a `StopToken` or a flag),
//! the workers look at it between jobs and inside their search, and a
//! worker whose messages go nowhere (the coordinator has returned) is told
//! so by [`Outbox::send`].

use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The queue the workers take jobs from.
pub(crate) struct Jobs<J> {
    queue: Mutex<Queue<J>>,
    ready: Condvar,
}

struct Queue<J> {
    jobs: VecDeque<J>,
    closed: bool,
}

impl<J> Jobs<J> {
    fn new(jobs: VecDeque<J>, closed: bool) -> Jobs<J> {
        Jobs {
            queue: Mutex::new(Queue { jobs, closed }),
            ready: Condvar::new(),
        }
    }

    /// The next job, waiting for one; none once the queue is closed and
    /// empty.
    pub(crate) fn next(&self) -> Option<J> {
        let mut q = self.queue.lock().expect("not poisoned");
        loop {
            if let Some(job) = q.jobs.pop_front() {
                return Some(job);
            }
            if q.closed {
                return None;
            }
            q = self.ready.wait(q).expect("not poisoned");
        }
    }

    /// Add a job (the coordinator's).
    pub(crate) fn push(&self, job: J) {
        self.queue.lock().expect("not poisoned").jobs.push_back(job);
        self.ready.notify_one();
    }

    /// No more jobs will come: workers finish what is queued and return.
    pub(crate) fn close(&self) {
        self.queue.lock().expect("not poisoned").closed = true;
        self.ready.notify_all();
    }

    /// Drop the jobs not yet taken and close: a stopped run.
    fn drain(&self) {
        let mut q = self.queue.lock().expect("not poisoned");
        q.jobs.clear();
        q.closed = true;
        drop(q);
        self.ready.notify_all();
    }
}

/// Where a worker sends what it finds.
pub(crate) struct Outbox<M> {
    tx: Sender<M>,
}

enum Sender<M> {
    Bounded(mpsc::SyncSender<M>),
    Unbounded(mpsc::Sender<M>),
}

impl<M> Clone for Sender<M> {
    fn clone(&self) -> Sender<M> {
        match self {
            Sender::Bounded(tx) => Sender::Bounded(tx.clone()),
            Sender::Unbounded(tx) => Sender::Unbounded(tx.clone()),
        }
    }
}

impl<M> Outbox<M> {
    /// Send a message to the coordinator (waiting while a bounded pool's
    /// coordinator catches up); false once it no longer listens.
    pub(crate) fn send(&self, m: M) -> bool {
        match &self.tx {
            Sender::Bounded(tx) => tx.send(m).is_ok(),
            Sender::Unbounded(tx) => tx.send(m).is_ok(),
        }
    }
}

/// What the coordinator is told.
pub(crate) enum Event<M> {
    /// A worker's message.
    Message(M),
    /// No message came for the pool's tick: time to look at the limits.
    Quiet,
}

/// What the coordinator says after each event.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Flow {
    /// Go on listening.
    Listen,
    /// Stop listening: the workers' further messages are dropped (their
    /// sends fail), the queue is drained and closed.
    Leave,
}

/// How a pool runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Worker threads.
    pub(crate) workers: usize,
    /// At most this many messages wait for the coordinator (workers then
    /// wait): memory stays bounded however much they find. None: no bound.
    pub(crate) bound: Option<usize>,
    /// The coordinator is told [`Event::Quiet`] when no message came for
    /// this long. None: it only hears messages.
    pub(crate) tick: Option<Duration>,
}

/// The jobs a pool starts with.
pub(crate) enum Given<I> {
    /// Every job: the queue is closed from the start.
    All(I),
    /// The first jobs: the coordinator adds the others and closes the
    /// queue.
    First(I),
}

/// Run `worker` on `shape.workers` threads (each gets its index, the job
/// queue and its outbox) over the `given` jobs; `coordinate` gets every
/// message and tick on the calling thread, with the queue to add jobs to.
/// Returns the workers' results in worker order.
pub(crate) fn run<J, M, R>(
    shape: Shape,
    given: Given<impl IntoIterator<Item = J>>,
    worker: impl Fn(usize, &Jobs<J>, &Outbox<M>) -> R + Sync,
    mut coordinate: impl FnMut(Event<M>, &Jobs<J>) -> Flow,
) -> Vec<R>
where
    J: Send,
    M: Send,
    R: Send,
{
    let jobs = match given {
        Given::All(jobs) => Jobs::new(jobs.into_iter().collect(), true),
        Given::First(jobs) => Jobs::new(jobs.into_iter().collect(), false),
    };
    let (tx, rx) = channel(shape.bound);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..shape.workers)
            .map(|i| {
                let (jobs, worker) = (&jobs, &worker);
                let out = Outbox { tx: tx.clone() };
                scope.spawn(move || worker(i, jobs, &out))
            })
            .collect();
        drop(tx);
        loop {
            let event = match shape.tick {
                Some(tick) => match rx.recv_timeout(tick) {
                    Ok(m) => Event::Message(m),
                    Err(mpsc::RecvTimeoutError::Timeout) => Event::Quiet,
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                },
                None => match rx.recv() {
                    Ok(m) => Event::Message(m),
                    Err(_) => break,
                },
            };
            if coordinate(event, &jobs) == Flow::Leave {
                jobs.drain();
                break;
            }
        }
        // Workers blocked on a full channel go on once it is gone.
        drop(rx);
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker of the pool panicked"))
            .collect()
    })
}

/// The workers' side and the coordinator's side of the messages.
fn channel<M>(bound: Option<usize>) -> (Sender<M>, mpsc::Receiver<M>) {
    match bound {
        Some(n) => {
            let (tx, rx) = mpsc::sync_channel(n);
            (Sender::Bounded(tx), rx)
        }
        None => {
            let (tx, rx) = mpsc::channel();
            (Sender::Unbounded(tx), rx)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    fn shape(workers: usize, bound: Option<usize>, tick: Option<Duration>) -> Shape {
        Shape {
            workers,
            bound,
            tick,
        }
    }

    #[test]
    fn every_job_is_done_once_and_results_come_in_worker_order() {
        let mut seen = Vec::new();
        let results = run(
            shape(3, Some(2), None),
            Given::All(0..100u32),
            |i, jobs, out| {
                let mut n = 0;
                while let Some(j) = jobs.next() {
                    assert!(out.send(j * 2));
                    n += 1;
                }
                (i, n)
            },
            |e, _| {
                if let Event::Message(m) = e {
                    seen.push(m);
                }
                Flow::Listen
            },
        );
        seen.sort_unstable();
        assert_eq!(seen, (0..100).map(|j| j * 2).collect::<Vec<_>>());
        assert_eq!(results.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(results.iter().map(|r| r.1).sum::<u32>(), 100);
    }

    #[test]
    fn the_coordinator_adds_jobs_and_closes_the_queue() {
        // Each job k < 20 asks for job k + 1: the coordinator pushes it,
        // and closes the queue after the last answer.
        let mut answers = 0;
        run(
            shape(2, None, None),
            Given::First([0u32]),
            |_, jobs, out| {
                while let Some(j) = jobs.next() {
                    out.send(j);
                }
            },
            |e, jobs| {
                if let Event::Message(k) = e {
                    answers += 1;
                    match k < 20 {
                        true => jobs.push(k + 1),
                        false => jobs.close(),
                    }
                }
                Flow::Listen
            },
        );
        assert_eq!(answers, 21);
    }

    #[test]
    fn leaving_drains_the_queue_and_frees_blocked_workers() {
        // A bound of one and workers that would send forever: leaving
        // after three messages ends the pool, and no job is taken after.
        let stop = AtomicBool::new(false);
        let mut heard = 0;
        let taken = run(
            shape(2, Some(1), None),
            Given::All(0..1000u32),
            |_, jobs, out| {
                let mut taken = 0;
                while let Some(j) = jobs.next() {
                    taken += 1;
                    if !out.send(j) || stop.load(Ordering::Relaxed) {
                        break;
                    }
                }
                taken
            },
            |_, _| {
                heard += 1;
                match heard < 3 {
                    true => Flow::Listen,
                    false => {
                        stop.store(true, Ordering::Relaxed);
                        Flow::Leave
                    }
                }
            },
        );
        assert_eq!(heard, 3);
        assert!(taken.iter().sum::<u32>() < 1000, "{taken:?}");
    }

    #[test]
    fn a_quiet_pool_ticks() {
        // No worker sends for a while: the coordinator hears ticks, and
        // its closing of the queue ends the pool.
        let mut ticks = 0;
        run(
            shape(1, None, Some(Duration::from_millis(1))),
            Given::First(std::iter::empty::<()>()),
            |_, jobs, _: &Outbox<()>| while jobs.next().is_some() {},
            |e, jobs| {
                if let Event::Quiet = e {
                    ticks += 1;
                    if ticks == 3 {
                        jobs.close();
                    }
                }
                Flow::Listen
            },
        );
        assert!(ticks >= 3);
    }
}
