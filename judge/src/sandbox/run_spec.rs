//! What one run is asked to be: the command, its standard input, its limits and how the
//! sandbox holds it to them.

use std::ffi::OsString;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::path::Path;
use std::time::Duration;

use super::Environment;

/// Resource limits for one run of a program: a problem's for its solution, a checker's own, ...
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// CPU time (user + system) allowed per case.
    pub cpu_time: Duration,
    /// Peak resident memory allowed per case.
    pub memory_bytes: u64,
    /// Bytes of standard output kept before the run is stopped as OLE.
    pub output_bytes: u64,
    /// Size of the main thread's stack.
    pub stack_bytes: u64,
    /// The CPU time limit the verdicts are decided at, when the run goes on past it to
    /// `cpu_time` to see whether they depend on it (`judge verify`'s margin). The extra time
    /// is CPU time: the wall-clock backstop follows this limit, and so does the bound on what
    /// load can have done to a time verdict.
    pub decided_at: Option<Duration>,
}

/// What to run, and under which limits.
#[derive(Debug, Clone)]
pub struct RunSpec<'a> {
    /// The program and its arguments; a bare name is found on `PATH`.
    pub argv: &'a [OsString],
    /// The file the program reads on standard input.
    pub stdin: &'a Path,
    /// The limits the run is held to.
    pub limits: Limits,
    /// The environment it gets from the judge's.
    pub environment: Environment,
    /// Cap the address space where no memory cgroup enforces the limit; false for runtimes
    /// that reserve far more address space than they use (the JVM).
    pub address_space_backstop: bool,
    /// A program that is not computing is stopped when this much wall time has passed.
    pub wall_timeout: Duration,
    /// Stop the program when its output passes the limit (our judges answer OLE at once);
    /// false to drop the rest of its output and let it run on, as the Kattis package tools
    /// do, so that a program writing forever still times out.
    pub stop_at_output_limit: bool,
    /// A program being judged: it sees the view (see `View`), where the machine allows one.
    pub contained: bool,
    /// The run folder holds `dev`, a link to `/dev`, so that a relative `dev/stdin` opens
    /// the standard input as it does on Baekjoon (published JavaScript answers read it).
    pub dev_in_run_folder: bool,
}

/// The wall-clock backstop's slack over twice the CPU time limit: a program still waits
/// longer than that when something it waited on was kept from a CPU for less than this.
pub const BACKSTOP_SLACK: Duration = Duration::from_secs(1);

/// When a program that is not computing is stopped, under `limits`: at twice the CPU time
/// limit its verdicts are decided at, and the slack.
pub fn wall_backstop(limits: &Limits) -> Duration {
    limits.decided_at.unwrap_or(limits.cpu_time) * 2 + BACKSTOP_SLACK
}

/// When the watchdog ends a run that computes: a tenth past the CPU time limit and 50 ms, so
/// that a time verdict can be past what load explains (`judging::verdict::beyond_load`) without a
/// re-run alone. A run past the limit its verdicts are decided at is far past it already, and
/// stops just past its own.
pub fn cpu_cutoff(limits: &Limits) -> Duration {
    let slack = Duration::from_millis(50);
    match limits.decided_at {
        Some(_) => limits.cpu_time + slack,
        None => limits.cpu_time.mul_f64(1.1) + slack,
    }
}

/// Whole milliseconds, as the supervisor's request carries a duration.
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

/// Descriptors a run gets instead of its defaults, for programs that talk to each other (an
/// interactive problem's submission and validator). Moved, not lent: the judge must keep no
/// copy of a pipe's end once the program has it, or the other side never sees its end.
#[derive(Debug, Default)]
pub struct Streams<'a> {
    /// Standard input instead of the file `spec.stdin`.
    pub stdin: Option<OwnedFd>,
    /// Standard output instead of a captured pipe; nothing is captured then.
    pub stdout: Option<OwnedFd>,
    /// Stops this run when it becomes readable, as the judge's interrupt stops every run.
    pub stop: Option<BorrowedFd<'a>>,
    /// Compare standard output with this file while it arrives: an output that matches it is
    /// not kept (see `capture`).
    pub expected: Option<&'a Path>,
}
