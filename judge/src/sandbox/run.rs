//! A run as the sandbox's callers see it: what it is asked to be (command, stdin, limits,
//! environment, and how the sandbox holds it to them), and the evidence it gives back (how it
//! ended, what it used, and what held it: how far it can be trusted, named as the reports
//! name it), on which verdicts are decided.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};

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
    /// A folder whose files are copied into the run folder before the program starts.
    pub case_files: Option<&'a Path>,
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
            case_files: None,
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

/// What held a slot's runs (or, met over slots, every run of a judge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Containment {
    /// The whole tree's peak (shared memory, memfd and tmpfs included), and a hard limit.
    pub memory_cgroup: bool,
    /// At most `MAX_TASKS` tasks, root or not.
    pub pids_cgroup: bool,
    /// Network, IPC, PID and mount namespaces of the slot's own.
    pub namespaces: bool,
    /// Judged programs saw the view (see `View`).
    pub view: bool,
}

impl Containment {
    /// What root gets on a machine with cgroups and namespaces.
    pub const FULL: Containment = Containment {
        memory_cgroup: true,
        pids_cgroup: true,
        namespaces: true,
        view: true,
    };

    /// The level's name: `cgroup+namespaces` (full), `namespaces`, `cgroup` or `rlimits`.
    pub fn level(&self) -> &'static str {
        let cgroup = self.memory_cgroup && self.pids_cgroup;
        let namespaces = self.namespaces && self.view;
        match (cgroup, namespaces) {
            (true, true) => "cgroup+namespaces",
            (false, true) => "namespaces",
            (true, false) => "cgroup",
            (false, false) => "rlimits",
        }
    }

    pub fn is_full(&self) -> bool {
        *self == Containment::FULL
    }

    pub fn meet(self, other: Containment) -> Containment {
        Containment {
            memory_cgroup: self.memory_cgroup && other.memory_cgroup,
            pids_cgroup: self.pids_cgroup && other.pids_cgroup,
            namespaces: self.namespaces && other.namespaces,
            view: self.view && other.view,
        }
    }

    /// What is weaker than at the full level, one phrase each.
    pub fn weaker(&self) -> Vec<&'static str> {
        let mut weaker = Vec::new();
        if !self.memory_cgroup {
            weaker.push("memory sampled every 100 ms, not a cgroup's exact peak");
        }
        if !self.pids_cgroup {
            weaker.push("processes capped by RLIMIT_NPROC, not a pids cgroup");
        }
        if !self.namespaces {
            weaker.push("no namespaces: programs see the machine's processes and network");
        }
        if !self.view {
            weaker.push("programs can read and write your files, expected outputs included");
        }
        weaker
    }
}

/// For `judge doctor`: how each part is had here, or why it is not.
pub fn diagnose(owner: u32) -> Vec<(&'static str, Result<String, String>)> {
    let turned_off = |variable: &str| {
        std::env::var_os(variable)
            .is_some_and(|value| value != "0")
            .then(|| format!("turned off by {variable}=1"))
    };
    let mut parts = Vec::new();
    if let Some(how) = super::cgroup::scope_made() {
        parts.push(("own cgroup", how.clone()));
    }
    for (part, controller) in [("memory cgroup", "memory"), ("pids cgroup", "pids")] {
        let found = match turned_off("JUDGE_NO_CGROUPS") {
            Some(why) => Err(why),
            None => super::cgroup::where_groups_go(
                std::path::Path::new("/sys/fs/cgroup"),
                controller,
                owner,
            )
            .and_then(|(dir, v2, how)| {
                let writable = rustix::fs::access(&dir, rustix::fs::Access::WRITE_OK).is_ok();
                if !writable {
                    return Err(format!("{}: not writable by this user", dir.display()));
                }
                if v2 && controller == "memory" && !peak_resettable(&dir) {
                    return Ok(format!(
                        "{how}, a new group each run (memory.peak cannot be reset before \
                         Linux 6.12): {}",
                        dir.display()
                    ));
                }
                Ok(format!("{how}: {}", dir.display()))
            }),
        };
        parts.push((part, found));
    }
    parts.push((
        "user namespaces",
        user_namespaces(turned_off("JUDGE_NO_NAMESPACES")),
    ));
    parts
}

/// Whether cgroup v2's `memory.peak` can be reset: the kernel makes it writable only then. A
/// group without one yet (controller not on) is judged by its parent's.
fn peak_resettable(dir: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    [Some(dir), dir.parent()]
        .into_iter()
        .flatten()
        .find_map(|dir| std::fs::metadata(dir.join("memory.peak")).ok())
        .is_some_and(|peak| peak.permissions().mode() & 0o222 != 0)
}

/// By the kernel's switches.
fn user_namespaces(turned_off: Option<String>) -> Result<String, String> {
    if let Some(why) = turned_off {
        return Err(why);
    }
    if rustix::process::getuid().is_root() {
        return Ok("not needed: root makes the namespaces itself".into());
    }
    let switch = |file: &str| -> Option<u64> {
        std::fs::read_to_string(format!("/proc/sys/{file}"))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    if switch("user/max_user_namespaces") == Some(0) {
        return Err(
            "user.max_user_namespaces is 0 (sysctl -w user.max_user_namespaces=15000)".into(),
        );
    }
    if switch("kernel/unprivileged_userns_clone") == Some(0) {
        return Err(
            "kernel.unprivileged_userns_clone is 0 (sysctl -w kernel.unprivileged_userns_clone=1)"
                .into(),
        );
    }
    if switch("kernel/apparmor_restrict_unprivileged_userns") == Some(1) {
        return Err(
            "AppArmor restricts unprivileged user namespaces (Ubuntu 23.10 on): \
            sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile \
            for the judge's binary that allows userns"
                .into(),
        );
    }
    Ok("allowed by the kernel's switches".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_is_the_weakest_part_of_each_half() {
        let no_view = Containment {
            view: false,
            ..Containment::FULL
        };
        let no_memory_cgroup = Containment {
            memory_cgroup: false,
            ..Containment::FULL
        };
        assert_eq!(Containment::FULL.level(), "cgroup+namespaces");
        assert_eq!(no_view.level(), "cgroup");
        assert_eq!(no_memory_cgroup.level(), "namespaces");
        assert_eq!(no_view.meet(no_memory_cgroup).level(), "rlimits");
        assert_eq!(no_view.weaker().len(), 1);
        assert!(Containment::FULL.weaker().is_empty());
    }
}
