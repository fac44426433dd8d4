//! Stopping cleanly on SIGINT, SIGTERM, SIGHUP and SIGPIPE (the output's reader has gone).
//!
//! A process-wide handler records the first signal and wakes the run loops (`wake_fd`);
//! blocking would not do, as a process signal goes to any thread not blocking it. Then:
//! - the runner starts no new case, stops running programs, reports what finished;
//! - a corpus command finishes its step (see `Deferred`) and writes nothing more;
//! - the judge ends by the same signal (`finish`), as a shell expects after Ctrl-C.
//!
//! A second signal outside a corpus transaction ends the judge at once; the supervisors still
//! clean up.

use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::OnceLock;

pub const SIGNALS: [i32; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGPIPE];

/// 0 while none has come.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The wake-up pipe's writing end, for the handler (-1 before it exists).
static WAKE_WRITER: AtomicI32 = AtomicI32::new(-1);

/// Open `Deferred` sections: while any is, a second signal waits too.
static DEFERRED: AtomicUsize = AtomicUsize::new(0);

/// (reading end, writing end).
fn wake_pipe() -> &'static (OwnedFd, OwnedFd) {
    static PIPE: OnceLock<(OwnedFd, OwnedFd)> = OnceLock::new();
    let pipe = PIPE.get_or_init(|| {
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
            .expect("a pipe can be made at start-up")
    });
    WAKE_WRITER.store(pipe.1.as_raw_fd(), Ordering::SeqCst);
    pipe
}

/// Readable once the judge is asked to stop: the run loops poll it beside their pipes.
pub fn wake_fd() -> BorrowedFd<'static> {
    wake_pipe().0.as_fd()
}

/// Once; later calls do nothing. A signal set to be ignored by whoever started the judge
/// (`nohup`, `cmd &` in a script) stays ignored.
pub fn install() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        wake_pipe();
        for signal in SIGNALS {
            // SAFETY: reads the current disposition into a zeroed sigaction, then installs a
            // handler that only makes async-signal-safe calls (atomics, write, _exit).
            unsafe {
                let mut current: libc::sigaction = std::mem::zeroed();
                libc::sigaction(signal, std::ptr::null(), &mut current);
                if current.sa_sigaction == libc::SIG_IGN && signal != libc::SIGPIPE {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                // Other threads' system calls carry on undisturbed.
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

extern "C" fn on_signal(signal: libc::c_int) {
    let first = SIGNAL
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok();
    if !first && signal != libc::SIGPIPE && DEFERRED.load(Ordering::SeqCst) == 0 {
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(128 + signal) }
    }
    wake();
}

fn wake() {
    let fd = WAKE_WRITER.load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: writes one byte from a static to a descriptor this module owns; a full pipe
        // (woken already) is fine.
        unsafe {
            libc::write(fd, b"!".as_ptr().cast(), 1);
        }
    }
}

pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// Long work checks this between steps.
pub fn pending() -> bool {
    requested().is_some()
}

/// Ends the judge by the signal that asked it to stop, after the caller has cleaned up; does
/// nothing when none has.
pub fn finish() {
    let Some(signal) = requested() else {
        return;
    };
    // SAFETY: restores a signal's default action (terminate, for all of these) and raises it.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(signal);
    }
}

/// Work a signal must not cut short (a corpus command's renames); a second signal waits too.
/// When the outermost closes after a signal, the judge says every change so far is complete
/// and ends by that signal.
pub struct Deferred(());

impl Deferred {
    pub fn new() -> Deferred {
        install();
        DEFERRED.fetch_add(1, Ordering::SeqCst);
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
        if DEFERRED.fetch_sub(1, Ordering::SeqCst) == 1 && pending() {
            eprintln!("judge: interrupted; every change made so far is complete");
            finish();
        }
    }
}
