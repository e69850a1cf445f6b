/*!
Work on many items in parallel, hand the results on in item order as they complete.

Owns the bounded reorder window that lets a fleet stream: `threads` workers take items in order;
a worker may not start item `i` until item `i - window` has been handed on, so at most `window`
results wait for a slow predecessor, whatever the fleet's size. The caller's thread does the
handing on (writing output), overlapping with the workers.
*/

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

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
        for (i, t) in rx.iter() {
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
