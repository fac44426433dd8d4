//! Stopping cleanly when asked to: SIGINT, SIGTERM, SIGHUP, and SIGPIPE (the reader of the
//! judge's output has gone). The first such signal is recorded; the runner then starts no new
//! case, every running program is stopped through `wake_fd`, what had finished is reported,
//! and the judge exits with 128 + the signal after removing what it made. A second signal
//! exits at once: the supervisors still clean up, as they do when the judge dies.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// The signal that asked the judge to stop, 0 while none has.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The writing end of the wake-up pipe, for the signal handler (-1 before `install`).
static WAKE_WRITER: AtomicI32 = AtomicI32::new(-1);

/// The signals that stop the judge.
pub const SIGNALS: [i32; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGPIPE];

/// The wake-up pipe: (reading end, writing end).
fn wake_pipe() -> &'static (OwnedFd, OwnedFd) {
    static PIPE: OnceLock<(OwnedFd, OwnedFd)> = OnceLock::new();
    PIPE.get_or_init(|| {
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
            .expect("a pipe can be made at start-up")
    })
}

/// A descriptor that becomes readable once the judge has been asked to stop: the run loops
/// poll it beside their pipes.
pub fn wake_fd() -> BorrowedFd<'static> {
    wake_pipe().0.as_fd()
}

/// Installs the handlers; called once at start-up.
pub fn install() {
    use std::os::fd::AsRawFd;
    WAKE_WRITER.store(wake_pipe().1.as_raw_fd(), Ordering::SeqCst);
    for signal in SIGNALS {
        // SAFETY: installs a handler that only makes async-signal-safe calls (atomics,
        // write, _exit); the sigaction struct is fully initialised.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    if SIGNAL
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
        && signal != libc::SIGPIPE
    {
        // Asked twice: go now.
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(128 + signal) }
    }
    wake();
}

fn wake() {
    let fd = WAKE_WRITER.load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: write of one byte from a static to a descriptor this module owns; a full
        // pipe (already woken) is fine.
        unsafe {
            libc::write(fd, b"!".as_ptr().cast(), 1);
        }
    }
}

/// Asks the judge to stop as if `signal` had come (tests, and callers that know better).
pub fn request(signal: i32) {
    if SIGNAL
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        if WAKE_WRITER.load(Ordering::SeqCst) < 0 {
            use std::os::fd::AsRawFd;
            WAKE_WRITER.store(wake_pipe().1.as_raw_fd(), Ordering::SeqCst);
        }
        wake();
    }
}

/// The signal that asked the judge to stop, if one has.
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}
