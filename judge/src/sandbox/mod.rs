//! One run of a program: its own process group, a fresh temporary working directory, stdin
//! from a file, stdout and stderr into capped buffers, rlimits, a wall-clock watchdog that
//! kills the whole group, and `wait4` for that one child's CPU time and peak memory.
//!
//! It gathers evidence and decides nothing: verdicts are `verdict::classify`'s job.

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::profile::Limits;

mod pids;
mod spawn;

use pids::MAX_TASKS;

/// How much of stderr is kept, to show when a case fails.
pub const STDERR_CAP_BYTES: usize = 64 * 1024;

/// The variables a program gets from the judge's environment; toolchains need these.
const INHERITED_ENV: [&str; 4] = ["PATH", "HOME", "LANG", "JAVA_HOME"];

type Variables = Vec<(std::ffi::OsString, std::ffi::OsString)>;

/// The inherited variables, read once.
fn inherited_env() -> &'static Variables {
    static ENV: std::sync::OnceLock<Variables> = std::sync::OnceLock::new();
    ENV.get_or_init(|| {
        INHERITED_ENV
            .iter()
            .filter_map(|&key| Some((key.into(), std::env::var_os(key)?)))
            .collect()
    })
}

/// How often the watchdog reads the program's CPU time and memory while it runs.
const CPU_CHECK_INTERVAL: Duration = Duration::from_millis(100);

/// After the program itself has exited, how long its pipes may stay open (held by a
/// descendant that left the process group) before they are abandoned.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

/// What to run, and under which limits.
#[derive(Debug, Clone)]
pub struct RunSpec<'a> {
    pub argv: &'a [OsString],
    pub stdin: &'a Path,
    pub limits: Limits,
    /// Cap on the address space; `None` for runtimes that manage their own heap (the JVM).
    pub address_space_bytes: Option<u64>,
    /// The watchdog kills the process group when this much wall time has passed.
    pub wall_timeout: Duration,
}

impl<'a> RunSpec<'a> {
    /// The usual policy: the address space may reach twice the memory limit plus room for the
    /// runtime, so that a runaway allocation fails instead of swamping the machine while an
    /// honest program is measured by its peak resident memory (a growing vector may reserve
    /// twice what it uses); the wall backstop stops a program that sleeps instead of computing.
    pub fn new(argv: &'a [OsString], stdin: &'a Path, limits: Limits) -> Self {
        RunSpec {
            argv,
            stdin,
            limits,
            address_space_bytes: Some(limits.memory_bytes.saturating_mul(2) + (64 << 20)),
            wall_timeout: limits.cpu_time * 2 + Duration::from_secs(1),
        }
    }
}

/// How a process ended.
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

/// The evidence of one run.
#[derive(Debug, Clone)]
pub struct RunOutput {
    pub termination: Termination,
    /// User + system CPU time of the program and the descendants it waited for.
    pub cpu_time: Duration,
    pub wall_time: Duration,
    pub peak_memory_bytes: u64,
    /// At most `limits.output_bytes` of standard output.
    pub stdout: Vec<u8>,
    /// At most `STDERR_CAP_BYTES` of standard error.
    pub stderr: Vec<u8>,
    /// The program wrote more than the output limit and was stopped.
    pub output_limit_exceeded: bool,
    /// The watchdog stopped the program at the wall-clock backstop.
    pub wall_timeout: bool,
    /// What the kernel counted into `peak_memory_bytes` from the judge at exec: a peak not
    /// above it says nothing about the program (see `spawn`).
    pub inherited_memory_bytes: u64,
    /// The watchdog saw the program's own resident memory above the limit.
    pub memory_limit_seen: bool,
    /// The program died of a failed allocation (told by its language's message on stderr;
    /// filled in by the caller, which knows the language).
    pub out_of_memory: bool,
}

/// Runs one program to completion (or to its limits) and returns the evidence.
pub fn run(spec: &RunSpec) -> io::Result<RunOutput> {
    let (program, args) = spec
        .argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
    let stdin = File::open(spec.stdin)?;
    let slot = Slot::take()?;
    let (workdir, group) = (&slot.workdir, &slot.group);
    let (stdout, stdout_end) = pipe()?;
    let (stderr, stderr_end) = pipe()?;
    // A judge's environment is bare: nothing like RUST_BACKTRACE leaks in from the user's.
    let mut env = inherited_env().to_vec();
    env.push(("TMPDIR".into(), workdir.path().as_os_str().to_owned()));
    let launch = spawn::Launch::new(
        Path::new(&resolve(program)),
        args,
        &env,
        workdir.path(),
        [
            stdin.as_raw_fd(),
            stdout_end.as_raw_fd(),
            stderr_end.as_raw_fd(),
        ],
        rlimits(spec, group.is_some()),
        group.as_ref().map(|group| group.procs_path()).as_deref(),
    )?;
    let start = Instant::now();
    let (pid, inherited_memory_bytes) = match launch.spawn() {
        Ok(spawned) => spawned,
        Err(error) => {
            slot.give_back();
            return Err(error);
        }
    };
    // The child has its copies; the judge keeps only the reading ends.
    drop((stdin, stdout_end, stderr_end));
    let (stdout, stderr) = (Some(stdout), Some(stderr));
    if let Some(pipe) = &stdout {
        // A larger pipe: fewer wake-ups for programs that write a lot.
        // SAFETY: fcntl on a descriptor we own; failure only leaves the default size.
        unsafe {
            libc::fcntl(pipe.as_raw_fd(), libc::F_SETPIPE_SZ, 1 << 20);
        }
    }

    // Everything the run started: its process group, and its cgroup for any that left it.
    let kill_all = || {
        kill_group(pid);
        if let Some(group) = &group {
            group.kill_all();
        }
    };
    let watched = watch(pid, start, spec, stdout, stderr, &kill_all);
    if watched.is_err() {
        kill_all();
    }
    let (status, usage) = wait4(pid)?;
    slot.give_back();
    let watched = watched?;
    let wall_time = watched.exited_at.unwrap_or_else(Instant::now) - start;
    Ok(RunOutput {
        termination: termination(status),
        cpu_time: timeval(usage.ru_utime) + timeval(usage.ru_stime),
        wall_time,
        // Linux reports ru_maxrss in KiB.
        peak_memory_bytes: (usage.ru_maxrss.max(0) as u64) * 1024,
        stdout: watched.stdout,
        stderr: watched.stderr,
        output_limit_exceeded: watched.output_limit_exceeded,
        wall_timeout: watched.wall_timeout,
        inherited_memory_bytes,
        memory_limit_seen: watched.memory_limit_seen,
        out_of_memory: false,
    })
}

/// What a run needs besides its process: a working folder and a pids cgroup. Creating and
/// removing them costs more than a small case, so they are reused: a slot goes back to the
/// idle list only when both are empty again, and idle slots are released by
/// `release_idle_slots` (at the end of a judging run) or at exit.
struct Slot {
    workdir: tempfile::TempDir,
    group: Option<pids::PidsGroup>,
}

static IDLE_SLOTS: std::sync::Mutex<Vec<Slot>> = std::sync::Mutex::new(Vec::new());

impl Slot {
    fn take() -> io::Result<Slot> {
        if let Some(slot) = idle_slots().pop() {
            return Ok(slot);
        }
        static AT_EXIT: std::sync::Once = std::sync::Once::new();
        AT_EXIT.call_once(|| {
            extern "C" fn release() {
                release_idle_slots();
            }
            // SAFETY: registers a plain function to run at exit.
            unsafe {
                libc::atexit(release);
            }
        });
        Ok(Slot {
            workdir: tempfile::Builder::new().prefix("judge-run-").tempdir()?,
            group: pids::PidsGroup::new(),
        })
    }

    /// Returns the slot for reuse if nothing of the run is left in it; otherwise drops it,
    /// which removes the folder and the cgroup.
    fn give_back(self) {
        // Nothing of the run may outlive it: whatever is left in the cgroup is killed now.
        let group_empty = self.group.as_ref().is_none_or(|group| !group.kill_all());
        if !group_empty {
            if let Some(group) = &self.group {
                group.kill_until_empty();
            }
        }
        let folder_empty = std::fs::read_dir(self.workdir.path())
            .is_ok_and(|mut entries| entries.next().is_none());
        if group_empty && folder_empty {
            idle_slots().push(self);
        }
    }
}

fn idle_slots() -> std::sync::MutexGuard<'static, Vec<Slot>> {
    IDLE_SLOTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Removes the working folders and cgroups kept for reuse.
pub fn release_idle_slots() {
    let slots = std::mem::take(&mut *idle_slots());
    drop(slots);
}

pub(crate) type Rlimit = (libc::__rlimit_resource_t, (libc::rlim_t, libc::rlim_t));

/// A pipe whose ends close on exec: (reading end, writing end).
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two descriptors that nobody else owns.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A bare command name found on PATH: `execve` does not search.
pub(crate) fn resolve(program: &std::ffi::OsStr) -> std::ffi::OsString {
    let path = Path::new(program);
    if path.components().count() > 1 {
        return program.to_owned();
    }
    std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(path))
                .find(|candidate| candidate.is_file())
        })
        .map_or_else(|| program.to_owned(), PathBuf::into_os_string)
}

fn rlimits(spec: &RunSpec, in_pids_group: bool) -> Vec<Rlimit> {
    // SIGXCPU comes at the first whole second past the limit, SIGKILL a second later, so a
    // busy loop dies at most about a second past its limit even if it ignores SIGXCPU.
    let cpu_seconds = spec.limits.cpu_time.as_secs() + 1;
    let stack = spec.limits.stack_bytes;
    let mut limits = vec![
        (libc::RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1)),
        (libc::RLIMIT_STACK, (stack, stack)),
        // Files the program writes in its working directory; stdout is a pipe, capped apart.
        (
            libc::RLIMIT_FSIZE,
            (spec.limits.output_bytes, spec.limits.output_bytes),
        ),
        (libc::RLIMIT_CORE, (0, 0)),
    ];
    if let Some(bytes) = spec.address_space_bytes {
        limits.push((libc::RLIMIT_AS, (bytes, bytes)));
    }
    if !in_pids_group {
        if let Some(tasks) = process_limit_fallback() {
            limits.push((libc::RLIMIT_NPROC, (tasks, tasks)));
        }
    }
    limits
}

/// Without a cgroup, RLIMIT_NPROC caps processes; it counts all of the user's processes, so it
/// is set above what the user already runs. It does not bind root: `None` there.
fn process_limit_fallback() -> Option<u64> {
    static LIMIT: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        if uid == 0 {
            return None;
        }
        let owned = std::fs::read_dir("/proc")
            .ok()?
            .filter_map(|entry| std::fs::metadata(entry.ok()?.path()).ok())
            .filter(|metadata| std::os::unix::fs::MetadataExt::uid(metadata) == uid)
            .count() as u64;
        Some(owned + 8 * MAX_TASKS)
    })
}

/// What the watchdog loop gathered while the program ran.
struct Watched {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    output_limit_exceeded: bool,
    wall_timeout: bool,
    memory_limit_seen: bool,
    exited_at: Option<Instant>,
}

/// Reads both pipes until they close while watching the program: it kills the group when the
/// output limit or the wall backstop is passed, and once the program has exited (so that a
/// descendant keeping a pipe open cannot hold the run).
fn watch(
    pid: libc::pid_t,
    start: Instant,
    spec: &RunSpec,
    stdout: Option<OwnedFd>,
    stderr: Option<OwnedFd>,
    kill_all: &dyn Fn(),
) -> io::Result<Watched> {
    let pidfd = pidfd_open(pid)?;
    let output_cap = usize::try_from(spec.limits.output_bytes).unwrap_or(usize::MAX);
    let mut stdout = Capture::new(stdout, output_cap);
    let mut stderr = Capture::new(stderr, STDERR_CAP_BYTES);
    let mut watched = Watched {
        stdout: Vec::new(),
        stderr: Vec::new(),
        output_limit_exceeded: false,
        wall_timeout: false,
        memory_limit_seen: false,
        exited_at: None,
    };
    let mut deadline = start + spec.wall_timeout;
    // RLIMIT_CPU only acts on whole seconds: past this, the watchdog ends the run itself.
    let cpu_cutoff = spec.limits.cpu_time.mul_f64(1.1) + Duration::from_millis(50);
    let mut next_cpu_check = start + CPU_CHECK_INTERVAL;
    let mut chunk = vec![0u8; 64 * 1024];
    while stdout.is_open() || stderr.is_open() || watched.exited_at.is_none() {
        let now = Instant::now();
        if now >= deadline {
            if watched.exited_at.is_none() {
                watched.wall_timeout = true;
                kill_all();
            }
            break;
        }
        if watched.exited_at.is_none() && now >= next_cpu_check {
            next_cpu_check = now + CPU_CHECK_INTERVAL;
            // A run already past a limit has its verdict: stop it instead of letting it burn
            // on to the rlimits (its peak memory or CPU time shows why).
            if let Some((cpu, resident)) = usage_so_far(pid) {
                watched.memory_limit_seen |= resident > spec.limits.memory_bytes;
                if cpu > cpu_cutoff || watched.memory_limit_seen {
                    kill_all();
                }
            }
        }
        let mut fds = Vec::with_capacity(3);
        for fd in [stdout.raw_fd(), stderr.raw_fd()].into_iter().flatten() {
            fds.push(pollfd(fd));
        }
        if watched.exited_at.is_none() {
            fds.push(pollfd(pidfd.as_raw_fd()));
        }
        let wake = if watched.exited_at.is_none() {
            deadline.min(next_cpu_check)
        } else {
            deadline
        };
        let timeout_ms = (wake.saturating_duration_since(now))
            .as_millis()
            .clamp(1, i32::MAX as u128) as i32;
        // SAFETY: `fds` is a valid, exclusively borrowed array of pollfd.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
        if ready < 0 {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error);
        }
        for fd in fds.iter().filter(|fd| fd.revents != 0) {
            if Some(fd.fd) == stdout.raw_fd() {
                if stdout.read_some(&mut chunk)? {
                    watched.output_limit_exceeded = true;
                    kill_all();
                }
            } else if Some(fd.fd) == stderr.raw_fd() {
                stderr.read_some(&mut chunk)?;
            } else {
                // The program has exited (it is a zombie until wait4, so its group id is
                // still ours to kill): end whatever it left behind in its group. Anything
                // that left the group is found in the cgroup when the slot is given back.
                watched.exited_at = Some(Instant::now());
                kill_group(pid);
                deadline = deadline.min(Instant::now() + DRAIN_GRACE);
            }
        }
    }
    watched.stdout = stdout.buffer;
    watched.stderr = stderr.buffer;
    Ok(watched)
}

/// One output pipe and the bytes kept from it.
struct Capture {
    pipe: Option<File>,
    buffer: Vec<u8>,
    cap: usize,
}

impl Capture {
    fn new(fd: Option<OwnedFd>, cap: usize) -> Self {
        Capture {
            pipe: fd.map(File::from),
            buffer: Vec::new(),
            cap,
        }
    }

    fn is_open(&self) -> bool {
        self.pipe.is_some()
    }

    fn raw_fd(&self) -> Option<RawFd> {
        self.pipe.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// Reads what is ready; closes the pipe at its end. Returns true when the cap was passed.
    fn read_some(&mut self, chunk: &mut [u8]) -> io::Result<bool> {
        let Some(pipe) = self.pipe.as_mut() else {
            return Ok(false);
        };
        let count = match pipe.read(chunk) {
            Ok(count) => count,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => return Ok(false),
            Err(error) => return Err(error),
        };
        if count == 0 {
            self.pipe = None;
            return Ok(false);
        }
        let room = self.cap - self.buffer.len();
        self.buffer.extend_from_slice(&chunk[..count.min(room)]);
        Ok(count > room)
    }
}

fn pollfd(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

fn pidfd_open(pid: libc::pid_t) -> io::Result<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor was just created and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// The CPU time (all threads) and resident memory of a running process so far, from /proc.
fn usage_so_far(pid: libc::pid_t) -> Option<(Duration, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let field = |index: usize| fields.get(index)?.parse::<u64>().ok();
    let ticks = field(11)? + field(12)?;
    // SAFETY: sysconf has no preconditions.
    let (per_second, page) = unsafe {
        (
            libc::sysconf(libc::_SC_CLK_TCK),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let cpu = Duration::from_millis(ticks * 1000 / per_second.max(1) as u64);
    Some((cpu, field(21)? * page.max(1) as u64))
}

fn kill_group(pgid: libc::pid_t) {
    // SAFETY: plain syscall; ESRCH (group already gone) is fine.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

fn wait4(pid: libc::pid_t) -> io::Result<(libc::c_int, libc::rusage)> {
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: valid pointers to local status and usage.
        let result = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if result == pid {
            return Ok((status, usage));
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

fn termination(status: libc::c_int) -> Termination {
    if libc::WIFSIGNALED(status) {
        Termination::Signaled(libc::WTERMSIG(status))
    } else {
        Termination::Exited(libc::WEXITSTATUS(status))
    }
}

fn timeval(time: libc::timeval) -> Duration {
    Duration::from_secs(time.tv_sec.max(0) as u64)
        + Duration::from_micros(time.tv_usec.max(0) as u64)
}
