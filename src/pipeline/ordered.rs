/*!
Work on many items in parallel, hand the results on in item order as they complete.

Owns the bounded reorder window that lets a fleet stream: `threads` workers take items in order;
a worker may not start item `i` until item `i - window` has been handed on, so at most `window`
results wait for a slow predecessor, whatever the fleet's size. The caller's thread does the
handing on (writing output), overlapping with the workers. When the caller is the only thread of
its rayon pool ([`super::threads`]), it also runs, while it waits, the rayon work the workers
hand to that pool, which nothing else would run.
*/

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, TryRecvError};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Run `work(i)` for `i` in `0..n` on `threads` threads and call `emit(i, result)` for each
/// in order of `i`, on the calling thread. `emit` returning `false` stops the run: items not
/// yet started are skipped and their results never emitted.
pub fn for_each<T, W, E>(n: usize, threads: usize, window: usize, work: W, mut emit: E)
where
    T: Send,
    W: Fn(usize) -> T + Sync,
    E: FnMut(usize, T) -> bool,
{
    let threads = threads.clamp(1, n.max(1));
    // One item, or one thread: no thread is worth starting (one Cluster plans in a few
    // milliseconds, and a thread's start and its heap cost a noticeable part of that).
    if threads == 1 {
        for i in 0..n {
            if !emit(i, work(i)) {
                return;
            }
        }
        return;
    }
    let window = window.max(threads);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // How many results were handed on; workers wait on it to stay within the window.
    let done = Mutex::new(0usize);
    let advanced = Condvar::new();
    let (tx, rx) = mpsc::channel::<(usize, T)>();
    let runs_the_pool =
        rayon::current_thread_index().is_some() && rayon::current_num_threads() == 1;
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, done, advanced, work) = (&next, &stop, &done, &advanced, &work);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= n || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    {
                        let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
                        while i >= *d + window && !stop.load(Ordering::SeqCst) {
                            d = advanced.wait(d).unwrap_or_else(|e| e.into_inner());
                        }
                    }
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    if tx.send((i, work(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut waiting: BTreeMap<usize, T> = BTreeMap::new();
        let mut expected = 0;
        while let Some((i, t)) = receive(&rx, runs_the_pool) {
            if stop.load(Ordering::SeqCst) {
                continue;
            }
            waiting.insert(i, t);
            while let Some(t) = waiting.remove(&expected) {
                let go_on = emit(expected, t);
                expected += 1;
                {
                    let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
                    *d = expected;
                }
                if !go_on {
                    stop.store(true, Ordering::SeqCst);
                    waiting.clear();
                }
                advanced.notify_all();
                if !go_on {
                    break;
                }
            }
        }
    });
}

/// The next result, `None` once every worker is done. `runs_the_pool`: the caller is the only
/// thread of its rayon pool, so rayon work the workers start waits for it: it runs that work
/// between looks at the channel.
fn receive<T>(rx: &mpsc::Receiver<T>, runs_the_pool: bool) -> Option<T> {
    if !runs_the_pool {
        return rx.recv().ok();
    }
    loop {
        match rx.try_recv() {
            Ok(t) => return Some(t),
            Err(TryRecvError::Disconnected) => return None,
            Err(TryRecvError::Empty) => {}
        }
        if rayon::yield_now() == Some(rayon::Yield::Executed) {
            continue;
        }
        match rx.recv_timeout(Duration::from_micros(200)) {
            Ok(t) => return Some(t),
            Err(RecvTimeoutError::Disconnected) => return None,
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_order_whatever_the_timing() {
        let mut seen = Vec::new();
        for_each(
            200,
            4,
            8,
            |i| {
                // Later items finish first within each window.
                std::thread::sleep(std::time::Duration::from_micros(
                    ((200 - i) % 7) as u64 * 50,
                ));
                i * 2
            },
            |i, v| {
                seen.push((i, v));
                true
            },
        );
        assert_eq!(seen, (0..200).map(|i| (i, i * 2)).collect::<Vec<_>>());
    }

    #[test]
    fn no_worker_runs_more_than_a_window_ahead() {
        let emitted = AtomicUsize::new(0);
        let worst = AtomicUsize::new(0);
        for_each(
            100,
            4,
            5,
            |i| {
                let ahead = i.saturating_sub(emitted.load(Ordering::SeqCst));
                worst.fetch_max(ahead, Ordering::SeqCst);
                i
            },
            |_, _| {
                emitted.fetch_add(1, Ordering::SeqCst);
                true
            },
        );
        assert!(worst.load(Ordering::SeqCst) < 5, "{worst:?}");
    }

    #[test]
    fn stopping_skips_the_rest() {
        let started = AtomicUsize::new(0);
        let mut got = Vec::new();
        for_each(
            1000,
            2,
            4,
            |i| {
                started.fetch_add(1, Ordering::SeqCst);
                i
            },
            |i, _| {
                got.push(i);
                i < 9
            },
        );
        assert_eq!(got, (0..10).collect::<Vec<_>>());
        assert!(started.load(Ordering::SeqCst) < 30);
    }

    #[test]
    fn one_thread_runs_on_the_caller_in_order_and_stops() {
        let caller = std::thread::current().id();
        let mut got = Vec::new();
        for_each(
            10,
            1,
            4,
            |i| {
                assert_eq!(std::thread::current().id(), caller);
                i
            },
            |i, _| {
                got.push(i);
                i < 4
            },
        );
        assert_eq!(got, [0, 1, 2, 3, 4]);
    }

    /// Workers whose work uses rayon, under a caller that is its pool's only thread: without
    /// the caller running that work, this never ends.
    #[test]
    fn workers_using_rayon_under_a_one_thread_pool_finish() {
        use rayon::prelude::*;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .use_current_thread()
                .build()
                .unwrap();
            let mut got = Vec::new();
            for_each(
                8,
                4,
                4,
                |i| pool.install(|| (0..=i).into_par_iter().sum::<usize>()),
                |_, v| {
                    got.push(v);
                    true
                },
            );
            let _ = tx.send(got);
        });
        let got = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the run ended");
        assert_eq!(got, [0, 1, 3, 6, 10, 15, 21, 28]);
    }

    #[test]
    fn nothing_to_do() {
        let mut calls = 0;
        for_each(
            0,
            4,
            4,
            |i| i,
            |_, _| {
                calls += 1;
                true
            },
        );
        assert_eq!(calls, 0);
    }
}
