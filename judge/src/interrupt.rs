//! Ctrl-C (SIGINT), SIGTERM and SIGHUP while a corpus command changes a problem: noted by a
//! handler instead of killing the judge, honoured where the work can stop cleanly, and then
//! re-raised so that the judge still dies by the signal, as the shell expects.
//!
//! Blocking the signals would not do: a process-directed signal goes to any thread that does
//! not block it, and the judge's worker threads (rayon, pipe readers) do not. A handler is
//! process-wide, so whichever thread receives the signal only sets a flag.

use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::Mutex;

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The signal received while deferred (0: none).
static PENDING: AtomicI32 = AtomicI32::new(0);
/// How many `Deferred` guards are alive: only the outermost installs and re-raises.
static DEPTH: AtomicUsize = AtomicUsize::new(0);
/// The dispositions the outermost guard replaced.
static PREVIOUS: Mutex<Vec<(libc::c_int, libc::sigaction)>> = Mutex::new(Vec::new());

extern "C" fn note(signal: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    PENDING.store(signal, Ordering::SeqCst);
}

/// While alive, the interrupting signals only set a flag (see `pending`). When the outermost
/// guard is dropped the old dispositions come back and a noted signal is raised again.
pub struct Deferred(());

impl Deferred {
    pub fn new() -> Deferred {
        if DEPTH.fetch_add(1, Ordering::SeqCst) == 0 {
            let mut previous = PREVIOUS.lock().unwrap_or_else(|e| e.into_inner());
            previous.clear();
            for signal in SIGNALS {
                // SAFETY: a zeroed sigaction with an empty mask and a handler that only does
                // an atomic store; the old action is saved to be restored.
                unsafe {
                    let mut current: libc::sigaction = std::mem::zeroed();
                    libc::sigaction(signal, std::ptr::null(), &mut current);
                    if current.sa_sigaction == libc::SIG_IGN {
                        // Ignored by whoever started the judge (nohup, `cmd &` in a script):
                        // it stays ignored.
                        continue;
                    }
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = note as extern "C" fn(libc::c_int) as usize;
                    // Restart interrupted system calls: other threads carry on undisturbed.
                    action.sa_flags = libc::SA_RESTART;
                    libc::sigemptyset(&mut action.sa_mask);
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, &action, &mut old) == 0 {
                        previous.push((signal, old));
                    }
                }
            }
        }
        Deferred(())
    }
}

impl Default for Deferred {
    fn default() -> Self {
        Deferred::new()
    }
}

impl Drop for Deferred {
    fn drop(&mut self) {
        if DEPTH.fetch_sub(1, Ordering::SeqCst) != 1 {
            return;
        }
        let previous = PREVIOUS.lock().unwrap_or_else(|e| e.into_inner());
        for (signal, old) in previous.iter() {
            // SAFETY: restores an action saved by `new`.
            unsafe {
                libc::sigaction(*signal, old, std::ptr::null_mut());
            }
        }
        let signal = PENDING.swap(0, Ordering::SeqCst);
        if signal != 0 {
            eprintln!("judge: interrupted; every change made so far is complete");
            // SAFETY: raise has no memory-safety preconditions; with the old disposition back
            // (by default: terminate) the judge ends here as the signal asked.
            unsafe {
                libc::raise(signal);
            }
        }
    }
}

/// Whether a signal arrived while deferred: long work checks this between steps.
pub fn pending() -> bool {
    PENDING.load(Ordering::SeqCst) != 0
}
