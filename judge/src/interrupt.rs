//! The process-wide request to stop judging: set from a signal handler (SIGINT, SIGTERM,
//! SIGHUP, a closed stdout), read by the runner before it starts each case.
//!
//! An atomic integer is all a signal handler may safely touch, so that is all this holds.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked the judge to stop; 0 while none has.
static REQUESTED: AtomicI32 = AtomicI32::new(0);

/// Asks the judge to stop because of `signal`: no new case is started. The first request
/// is the one kept, so that the exit status names the signal that stopped the run.
/// Async-signal-safe.
pub fn request(signal: i32) {
    let _ = REQUESTED.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
}

/// The signal that asked the judge to stop, or `None` while none has.
pub fn requested() -> Option<i32> {
    match REQUESTED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The only test that touches the process-wide flag: the runner's tests read an
    /// interruption of their own through the `CaseJudge` seam.
    #[test]
    fn the_first_request_is_kept() {
        assert_eq!(requested(), None);
        request(libc::SIGTERM);
        request(libc::SIGINT);
        assert_eq!(requested(), Some(libc::SIGTERM));
        REQUESTED.store(0, Ordering::SeqCst);
    }
}
