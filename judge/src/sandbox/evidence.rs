//! What a run leaves behind: how it ended and what it used, the evidence verdicts are
//! decided on.

use std::fmt;
use std::time::Duration;

use super::Load;

/// How a process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it.
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

/// The evidence of one run.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// How the program ended.
    pub termination: Termination,
    /// User + system CPU time of the program and every process it started.
    pub cpu_time: Duration,
    /// Wall-clock time from the start to the end of the run.
    pub wall_time: Duration,
    /// Peak memory of the whole process tree (see the module's notes for how).
    pub peak_memory_bytes: u64,
    /// At most `limits.output_bytes` of standard output; empty when it matched the expected
    /// output it was compared with while it ran.
    pub stdout: Vec<u8>,
    /// Standard output was compared with `Streams::expected` while it ran, and was its bytes
    /// exactly (nothing of it is kept then).
    pub matched_expected: bool,
    /// `stdout` holds the output from `stdout_matched.bytes` on: the bytes before it were
    /// compared with `Streams::expected` while the program ran, matched, and were not kept.
    pub stdout_matched: crate::compare::MatchedStart,
    /// At most `STDERR_CAP_BYTES` of standard error.
    pub stderr: Vec<u8>,
    /// The program wrote more than the output limit and was stopped.
    pub output_limit_exceeded: bool,
    /// Stopped at the wall-clock backstop while not computing.
    pub wall_timeout: bool,
    /// The tree's memory passed the limit while it ran.
    pub memory_limit_seen: bool,
    /// The program died of a failed allocation (told by its language's message on stderr;
    /// filled in by the caller, which knows the language).
    pub out_of_memory: bool,
    /// How long past the wall-clock backstop the run was waited for because it was still
    /// computing (starved of CPU by other load).
    pub starved: Duration,
    /// What the rest of the machine did meanwhile (`None` for a run shorter than the
    /// watchdog's first reading).
    pub load: Option<Load>,
}
