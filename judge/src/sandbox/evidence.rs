//! How a run ended and what it used: the evidence verdicts are decided on.

use std::fmt;
use std::time::Duration;

use super::Load;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    Exited(i32),
    Signaled(i32),
}

/// `exit 101` or the signal's name, `SIGSEGV`.
impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Termination::Exited(code) => write!(f, "exit {code}"),
            Termination::Signaled(signal) => match signal_name(signal) {
                Some(name) => f.write_str(name),
                None => write!(f, "signal {signal}"),
            },
        }
    }
}

fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return None,
    })
}

#[derive(Debug, Clone)]
pub struct RunOutput {
    pub termination: Termination,
    /// User + system, of the program and every process it started.
    pub cpu_time: Duration,
    pub wall_time: Duration,
    /// Of the whole process tree (see the module's notes for how).
    pub peak_memory_bytes: u64,
    /// At most `limits.output_bytes`; empty when it matched `Streams::expected`.
    pub stdout: Vec<u8>,
    /// Stdout was exactly `Streams::expected` (nothing of it is kept then).
    pub matched_expected: bool,
    /// `stdout` holds the output from `stdout_matched.bytes` on: the bytes before matched
    /// `Streams::expected` and were not kept.
    pub stdout_matched: crate::compare::MatchedStart,
    /// At most `STDERR_CAP_BYTES`.
    pub stderr: Vec<u8>,
    pub output_limit_exceeded: bool,
    /// Stopped at the wall-clock backstop while not computing.
    pub wall_timeout: bool,
    pub memory_limit_seen: bool,
    /// Died of a failed allocation (told by its language's message on stderr; set by the
    /// caller, which knows the language).
    pub out_of_memory: bool,
    /// How long past the wall backstop the run was waited for while still computing
    /// (starved of CPU by other load).
    pub starved: Duration,
    /// `None` for a run shorter than the watchdog's first reading.
    pub load: Option<Load>,
}
