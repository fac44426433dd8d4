//! What one run is asked to be: command, stdin, limits, and how the sandbox holds it to them.

use std::ffi::OsString;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::path::Path;
use std::time::Duration;

use super::Environment;

/// Resource limits for one run: a problem's for its solution, a checker's own, ...
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// User + system, per case.
    pub cpu_time: Duration,
    /// Peak resident, per case.
    pub memory_bytes: u64,
    /// Standard output kept before the run is stopped as OLE.
    pub output_bytes: u64,
    /// The main thread's.
    pub stack_bytes: u64,
    /// The CPU limit verdicts are decided at, when the run goes on to `cpu_time` to see
    /// whether they depend on it (`judge verify`'s margin). The wall backstop and the bound
    /// on what load did to a time verdict follow this limit.
    pub decided_at: Option<Duration>,
}

#[derive(Debug, Clone)]
pub struct RunSpec<'a> {
    /// A bare program name is found on `PATH`.
    pub argv: &'a [OsString],
    pub stdin: &'a Path,
    pub limits: Limits,
    pub environment: Environment,
    /// Cap the address space without a memory cgroup; false for runtimes that reserve far
    /// more address space than they use (the JVM).
    pub address_space_backstop: bool,
    /// A program not computing is stopped after this much wall time.
    pub wall_timeout: Duration,
    /// Stop the program when its output passes the limit (OLE at once); false drops the rest
    /// and lets it run on, as the Kattis package tools do, so that a program writing forever
    /// still times out.
    pub stop_at_output_limit: bool,
    /// A judged program: it sees the view (see `View`), where the machine allows one.
    pub contained: bool,
    /// The run folder holds `dev`, a link to `/dev`, so that a relative `dev/stdin` opens
    /// stdin as on Baekjoon (published JavaScript answers read it).
    pub dev_in_run_folder: bool,
}

/// The wall backstop's slack over twice the CPU limit, for a program whose partner was kept
/// from a CPU briefly.
pub const BACKSTOP_SLACK: Duration = Duration::from_secs(1);

/// When a program not computing is stopped: twice the decided CPU limit, plus the slack.
pub fn wall_backstop(limits: &Limits) -> Duration {
    limits.decided_at.unwrap_or(limits.cpu_time) * 2 + BACKSTOP_SLACK
}

/// When the watchdog ends a computing run: a tenth and a slack past the CPU limit, so that a
/// time verdict can be past what load explains (`judging::verdict::beyond_load`) without a
/// re-run alone. With `decided_at` the run is far past that already, and stops just past its
/// own limit.
pub fn cpu_cutoff(limits: &Limits) -> Duration {
    let slack = Duration::from_millis(50);
    match limits.decided_at {
        Some(_) => limits.cpu_time + slack,
        None => limits.cpu_time.mul_f64(1.1) + slack,
    }
}

/// As the supervisor's request carries a duration.
pub(super) fn millis(duration: Duration) -> u64 {
    duration.as_millis().try_into().unwrap_or(u64::MAX)
}

impl<'a> RunSpec<'a> {
    /// The usual policy: the wall backstop stops a program that sleeps instead of computing.
    pub fn new(argv: &'a [OsString], stdin: &'a Path, limits: Limits) -> Self {
        RunSpec {
            argv,
            stdin,
            limits,
            environment: Environment::Program,
            address_space_backstop: true,
            wall_timeout: wall_backstop(&limits),
            stop_at_output_limit: true,
            contained: false,
            dev_in_run_folder: false,
        }
    }
}

/// Descriptors instead of the defaults, for programs that talk to each other (an interactive
/// problem's submission and validator). Moved, not lent: a judge's copy of a pipe's end would
/// keep the other side from seeing its end.
#[derive(Debug, Default)]
pub struct Streams<'a> {
    /// Instead of the file `spec.stdin`.
    pub stdin: Option<OwnedFd>,
    /// Instead of a captured pipe; nothing is captured then.
    pub stdout: Option<OwnedFd>,
    /// Stops this run when readable.
    pub stop: Option<BorrowedFd<'a>>,
    /// Compare stdout with this file as it arrives: a matching output is not kept (see
    /// `capture`).
    pub expected: Option<&'a Path>,
}
