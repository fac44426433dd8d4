//! A run as the sandbox's callers see it: what it is asked to be (command, stdin, limits,
//! environment, and how the sandbox holds it to them), and the evidence it gives back (how it
//! ended, what it used), on which verdicts are decided.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::Load;

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

// How a run ended and what it used.

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
    /// Its first and last `STDERR_CAP_BYTES` at most, and a line between them saying how many
    /// bytes were left out (`Capture::with_tail`).
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

// What a program gets from the judge's environment, and where a bare command name is found.

/// Toolchains need these.
const INHERITED_ENV: [&str; 4] = ["PATH", "HOME", "LANG", "JAVA_HOME"];

/// What a build also gets: how toolchains and version managers find themselves (a name, or a
/// prefix when it ends in `_`).
const TOOLCHAIN_ENV: &str = "RUSTUP_ CARGO_HOME PYENV_ JDK_HOME GOROOT GOPATH GOCACHE GOENV \
    GOMODCACHE GOTOOLCHAIN NVM_ VOLTA_HOME ASDF_ MISE_ SDKMAN_ KOTLIN_HOME DOTNET_ROOT \
    XDG_CACHE_HOME XDG_CONFIG_HOME XDG_DATA_HOME USER LOGNAME";

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Environment {
    /// A judged program's: bare, so that nothing of the user's leaks into its behaviour.
    #[default]
    Program,
    /// A compiler's: the bare one and `TOOLCHAIN_ENV`.
    Build,
}

impl Environment {
    /// From the judge's environment, read once (it does not change).
    pub fn variables(self) -> impl Iterator<Item = (&'static str, &'static OsStr)> {
        static BUILD: OnceLock<Vec<(&'static str, OsString)>> = OnceLock::new();
        let build: &[(&'static str, OsString)] = match self {
            Environment::Program => &[],
            Environment::Build => BUILD.get_or_init(|| {
                std::env::vars_os()
                    .filter_map(|(key, value)| {
                        let key = key.into_string().ok()?;
                        let wanted = TOOLCHAIN_ENV.split_whitespace().any(|name| {
                            match name.ends_with('_') {
                                true => key.starts_with(name),
                                false => key == name,
                            }
                        });
                        // Leaked once: they live as long as the judge.
                        wanted.then(|| (&*Box::leak(key.into_boxed_str()), value))
                    })
                    .collect()
            }),
        };
        inherited_env().chain(build.iter().map(|(key, value)| (*key, value.as_os_str())))
    }
}

/// A program's variables from the judge's environment, read once (it does not change).
pub fn inherited_env() -> impl Iterator<Item = (&'static str, &'static OsStr)> {
    static INHERITED: OnceLock<Vec<(&'static str, OsString)>> = OnceLock::new();
    INHERITED
        .get_or_init(|| {
            INHERITED_ENV
                .iter()
                .filter_map(|&key| Some((key, std::env::var_os(key)?)))
                .collect()
        })
        .iter()
        .map(|(key, value)| (*key, value.as_os_str()))
}

/// A bare command name found on PATH (`execve` does not search), once per name.
pub fn find_on_path(program: &OsStr) -> OsString {
    let path = Path::new(program);
    if path.components().count() > 1 {
        return program.to_owned();
    }
    static FOUND: Mutex<Vec<(OsString, OsString)>> = Mutex::new(Vec::new());
    let mut found = FOUND
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, full)) = found.iter().find(|(name, _)| name == program) {
        return full.clone();
    }
    let full = std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(path))
                .find(|candidate| candidate.is_file())
        })
        .map_or_else(|| program.to_owned(), PathBuf::into_os_string);
    found.push((program.to_owned(), full.clone()));
    full
}
