//! One run of a program, made by a supervisor process (see `supervisor`): stdin from a file,
//! stdout and stderr through pipes into capped buffers here, the limits enforced over the
//! whole process tree the program makes, and nothing of it left when the run ends.
//!
//! It gathers evidence and decides nothing: verdicts are `verdict::classify`'s job.
//!
//! How each limit is enforced and measured, per setup (the README's "Limits and safety"):
//! - CPU time: the whole tree's, from `wait4` of every process (orphans are re-parented to the
//!   supervisor and reaped there); while it runs, the watchdog reads `/proc` every 100 ms and
//!   stops it past 1.1 x the limit (`cpu_cutoff`); RLIMIT_CPU per process as a backstop.
//! - Memory: the larger of the largest process's own peak resident set (`ru_maxrss`, the
//!   figure online judges show) and, with a memory cgroup, the cgroup's peak charge over the
//!   run (every process, shared memory, memfd and tmpfs pages), whose hard limit enforces it;
//!   without a cgroup, the tree's resident sum read by the watchdog every 100 ms, and a loose
//!   address-space cap.
//! - Processes: a pids cgroup, else RLIMIT_NPROC (which does not bind root).
//! - Wall time: a backstop for a program that waits instead of computing; one that is still
//!   computing there (a starved one) is waited for, and its CPU time decides.

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags};

mod capture;
mod cgroup;
mod load;
mod placement;
mod protocol;
mod spawn;
mod spawner;
pub mod supervisor;
mod tree;

pub use capture::recycle;
use capture::Capture;
pub use load::Load;
use placement::Placement;
pub use placement::Unpin;

/// How much of stderr is kept, to show when a case fails.
pub const STDERR_CAP_BYTES: usize = 64 * 1024;

/// Prefix of every run folder, followed by the judge's pid and the supervisor's.
const RUN_FOLDER_PREFIX: &str = "judge-run-";

/// The variables a program gets from the judge's environment; toolchains need these.
const INHERITED_ENV: [&str; 4] = ["PATH", "HOME", "LANG", "JAVA_HOME"];

/// Resource limits for one run of a solution.
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
    /// The JVM runs as Kattis runs it: its whole heap from the start (`-Xms` = `-Xmx`) and
    /// 64 MiB thread stacks, as problemtools and BAPCtools run it too.
    pub kattis_jvm: bool,
}

/// What to run, and under which limits.
#[derive(Debug, Clone)]
pub struct RunSpec<'a> {
    pub argv: &'a [OsString],
    pub stdin: &'a Path,
    pub limits: Limits,
    /// Cap the address space where no memory cgroup enforces the limit; false for runtimes
    /// that reserve far more address space than they use (the JVM).
    pub address_space_backstop: bool,
    /// A program that is not computing is stopped when this much wall time has passed.
    pub wall_timeout: Duration,
    /// Stop the program when its output passes the limit (our judges answer OLE at once);
    /// false to drop the rest of its output and let it run on, as the Kattis package tools
    /// do, so that a program writing forever still times out.
    pub stop_at_output_limit: bool,
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
/// that a time verdict can be past what load explains (`verdict::beyond_load`) without a
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
fn millis(duration: Duration) -> u64 {
    duration.as_millis().try_into().unwrap_or(u64::MAX)
}

impl<'a> RunSpec<'a> {
    /// The usual policy: the wall backstop stops a program that sleeps instead of computing.
    pub fn new(argv: &'a [OsString], stdin: &'a Path, limits: Limits) -> Self {
        RunSpec {
            argv,
            stdin,
            limits,
            address_space_backstop: true,
            wall_timeout: wall_backstop(&limits),
            stop_at_output_limit: true,
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
    /// User + system CPU time of the program and every process it started.
    pub cpu_time: Duration,
    pub wall_time: Duration,
    /// Peak memory of the whole process tree (see the module's notes for how).
    pub peak_memory_bytes: u64,
    /// At most `limits.output_bytes` of standard output; empty when it matched the expected
    /// output it was compared with while it ran.
    pub stdout: Vec<u8>,
    /// Standard output was compared with `Streams::expected` while it ran, and was its bytes
    /// exactly (nothing of it is kept then).
    pub matched_expected: bool,
    /// `stdout` holds the output from this byte on: the bytes before it were compared with
    /// `Streams::expected` while the program ran, matched, and were not kept.
    pub stdout_offset: usize,
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
    pub stop: Option<std::os::fd::BorrowedFd<'a>>,
    /// Compare standard output with this file while it arrives: an output that matches it is
    /// not kept (see `capture`).
    pub expected: Option<&'a Path>,
}

/// The judge's run slots: idle supervisors, one per slot, started when a run finds none idle.
/// Dropping it ends them: each kills what is left of its runs, removes its working folder and
/// cgroups, and exits, without the judge waiting for it. (A judge that dies without dropping
/// it ends them too: each sees its socket close.)
#[derive(Default)]
pub struct Sandbox {
    idle: Mutex<Vec<Supervisor>>,
    /// A supervisor has been started: the first one sweeps what earlier judges left.
    started: std::sync::atomic::AtomicBool,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox::default()
    }

    /// Runs one program to completion (or to its limits) and returns the evidence.
    pub fn run(&self, spec: &RunSpec) -> io::Result<RunOutput> {
        self.run_with(spec, Streams::default())
    }

    /// `run`, with the given descriptors. Runs on different threads take different supervisors
    /// (one is started when none is idle), so two programs can run at once and talk.
    pub fn run_with(&self, spec: &RunSpec, streams: Streams) -> io::Result<RunOutput> {
        // The supervisor this thread used last, if idle: the thread stays on its CPU.
        let taken = {
            let mut idle = self.idle();
            let me = std::thread::current().id();
            match idle.iter().rposition(|idle| idle.last_thread == Some(me)) {
                Some(index) => Some(idle.remove(index)),
                None => idle.pop(),
            }
        };
        let mut supervisor = match taken {
            Some(supervisor) => supervisor,
            None => Supervisor::start(self.first_start())?,
        };
        let cpu = placement::slot_cpu(supervisor.cpu);
        if let Some(cpu) = cpu {
            let _ = placement::pin_this_thread(cpu);
        }
        match supervisor.run(spec, streams, cpu) {
            // A program that could not be started (a missing toolchain) says nothing against
            // its supervisor, which stays; only a broken conversation ends it.
            Ok(run) => {
                supervisor.last_thread = Some(std::thread::current().id());
                self.idle().push(supervisor);
                run
            }
            Err(error) => {
                supervisor.close();
                Err(error)
            }
        }
    }

    /// Starts a supervisor now, so that its set-up (a process start, cgroups, a mount
    /// namespace) overlaps with the judge's own start instead of delaying the first run.
    pub fn prepare(&self) {
        let mut idle = self.idle();
        if idle.is_empty() {
            if let Ok(supervisor) = Supervisor::start(self.first_start()) {
                idle.push(supervisor);
            }
        }
    }

    /// `prepare`, forking this process for the supervisor instead of starting the binary
    /// again (0.7 ms less before the first run can start).
    ///
    /// # Safety
    /// Only while this process has a single thread: at the start of `main`.
    pub unsafe fn prepare_by_fork(&self) {
        let first = self.first_start();
        // SAFETY: the caller promises a single thread.
        if let Ok(supervisor) = unsafe { Supervisor::fork(first) } {
            self.idle().push(supervisor);
        }
    }

    fn first_start(&self) -> bool {
        !self
            .started
            .swap(true, std::sync::atomic::Ordering::Relaxed)
    }

    fn idle(&self) -> MutexGuard<'_, Vec<Supervisor>> {
        self.idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sandbox({} idle)", self.idle().len())
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        for supervisor in std::mem::take(&mut *self.idle()) {
            supervisor.close();
        }
    }
}

/// Removes what judges that are no longer running left behind: cgroups and run folders.
/// A judge's first supervisor does this when it starts.
fn sweep(cgroup_bases: &[PathBuf]) {
    cgroup::sweep(cgroup_bases);
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        if tree::left_by_a_dead_judge(&entry.file_name(), RUN_FOLDER_PREFIX) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The judge's handle on one supervisor process.
struct Supervisor {
    pid: u32,
    socket: OwnedFd,
    /// What it said when ready; read on first use, so that starting it does not wait.
    ready: Option<Slot>,
    /// The CPU it and the judge thread that talks to it stay on (see `placement`).
    cpu: Option<usize>,
    last_thread: Option<std::thread::ThreadId>,
}

/// What a supervisor gives when ready: its runs' working folder, and the reading ends of the
/// output pipes every run of the slot writes into (non-blocking: a run's output ends with its
/// report, not with the pipe).
struct Slot {
    workdir: String,
    stdout: OwnedFd,
    stderr: OwnedFd,
}

/// The executable that becomes a supervisor: the judge's own binary, or `JUDGE_SUPERVISOR`
/// (for tests that use the library from a test binary).
fn supervisor_executable() -> io::Result<PathBuf> {
    match std::env::var_os("JUDGE_SUPERVISOR") {
        Some(path) => Ok(PathBuf::from(path)),
        None => std::env::current_exe(),
    }
}

impl Supervisor {
    /// Starts a supervisor; the one that `sweeps` removes what earlier judges left.
    fn start(sweeps: bool) -> io::Result<Supervisor> {
        let (ours, theirs) = protocol::socket_pair()?;
        let placement = Placement::next();
        // The socket is the supervisor's stdin: with no code to run between fork and exec,
        // std starts it with posix_spawn (a vfork): a fork of a judge with threads would not
        // be safe (see `fork` for the first one).
        let mut command = std::process::Command::new(supervisor_executable()?);
        command
            .arg(supervisor::ARGUMENT)
            .env("JUDGE_OWNER", std::process::id().to_string())
            .stdin(std::process::Stdio::from(theirs))
            .stdout(std::process::Stdio::null());
        if sweeps {
            command.env(supervisor::SWEEP, "1");
        }
        if let Some(placement) = &placement {
            command.env(placement::VARIABLE, placement.allowed_variable());
        }
        let process = command.spawn()?;
        Ok(Supervisor {
            pid: process.id(),
            socket: ours,
            ready: None,
            cpu: placement.map(|placement| placement.cpu),
            last_thread: None,
        })
    }

    /// A supervisor made by forking this process instead of starting the binary again: no
    /// exec, dynamic linking or runtime start on the first run's path.
    ///
    /// # Safety
    /// This process must have a single thread: the child goes on to run Rust code, which
    /// takes locks (the allocator's) that another thread could hold at the fork.
    unsafe fn fork(sweeps: bool) -> io::Result<Supervisor> {
        let (ours, theirs) = protocol::socket_pair()?;
        let owner = std::process::id();
        let placement = Placement::next();
        let cpu = placement.as_ref().map(|placement| placement.cpu);
        // SAFETY: the caller promises a single thread; the child never returns from here.
        match unsafe { libc::fork() } {
            -1 => Err(io::Error::last_os_error()),
            0 => {
                drop(ours);
                let program_cpus = placement.map(|placement| placement.allowed);
                supervisor::serve_judge(theirs, owner, sweeps, program_cpus)
            }
            pid => Ok(Supervisor {
                pid: pid as u32,
                socket: ours,
                ready: None,
                cpu,
                last_thread: None,
            }),
        }
    }

    fn ready(&mut self) -> io::Result<&Slot> {
        if self.ready.is_none() {
            let message = protocol::receive(&self.socket)?.ok_or_else(|| {
                io::Error::other("the run supervisor could not start (see its message above)")
            })?;
            let ready: protocol::Ready = protocol::parse(&message.bytes)?;
            let [stdout, stderr] = <[OwnedFd; 2]>::try_from(message.fds)
                .map_err(|_| io::Error::other("a supervisor ready without its output pipes"))?;
            for pipe in [&stdout, &stderr] {
                rustix::fs::fcntl_setfl(pipe, rustix::fs::OFlags::NONBLOCK)?;
            }
            self.ready = Some(Slot {
                workdir: ready.workdir,
                stdout,
                stderr,
            });
        }
        Ok(self.ready.as_ref().expect("just read"))
    }

    /// Outer `Err`: the conversation with the supervisor failed; inner: the program could not
    /// be started.
    fn run(
        &mut self,
        spec: &RunSpec,
        streams: Streams,
        cpu: Option<usize>,
    ) -> io::Result<io::Result<RunOutput>> {
        self.ready()?;
        let slot = self.ready.as_ref().expect("just read");
        // The standard input is opened by the supervisor where its path can travel as text.
        let stdin_path = (streams.stdin.is_none() && spec.stdin.is_absolute())
            .then(|| spec.stdin.to_str().map(str::to_owned))
            .flatten();
        let mut lent: Vec<OwnedFd> = Vec::with_capacity(2);
        if stdin_path.is_none() {
            match streams.stdin {
                Some(given) => lent.push(given),
                None => match File::open(spec.stdin) {
                    Ok(stdin) => lent.push(stdin.into()),
                    Err(error) => return Ok(Err(error)),
                },
            }
        }
        let stdout_lent = streams.stdout.is_some();
        lent.extend(streams.stdout);
        let request = match request(spec, &slot.workdir, stdin_path, stdout_lent, cpu) {
            Ok(request) => request,
            Err(error) => return Ok(Err(error)),
        };
        let lent_fds: Vec<_> = lent.iter().map(AsFd::as_fd).collect();
        protocol::send_bytes(self.socket.as_fd(), &request, &lent_fds)?;
        // The supervisor and the program have their copies: the judge keeps none, so that a
        // pipe given to the program ends with it.
        drop(lent_fds);
        drop(lent);
        let output_cap = usize::try_from(spec.limits.output_bytes).unwrap_or(usize::MAX);
        let mut stdout = match stdout_lent {
            false => Capture::output(slot.stdout.as_fd(), output_cap, streams.expected),
            true => Capture::closed(),
        };
        let mut stderr = Capture::new(slot.stderr.as_fd(), STDERR_CAP_BYTES);
        let mut report: Option<protocol::Report> = None;
        let mut stop_sent = false;
        let mut output_limit_exceeded = false;
        while report.is_none() {
            let interrupt = crate::runner::interrupt::wake_fd();
            let mut fds = Vec::with_capacity(5);
            for fd in [stdout.fd(), stderr.fd()].into_iter().flatten() {
                fds.push(PollFd::from_borrowed_fd(fd, PollFlags::IN));
            }
            fds.push(PollFd::from_borrowed_fd(self.socket.as_fd(), PollFlags::IN));
            if !stop_sent {
                fds.push(PollFd::from_borrowed_fd(interrupt, PollFlags::IN));
                if let Some(stop) = streams.stop {
                    fds.push(PollFd::from_borrowed_fd(stop, PollFlags::IN));
                }
            }
            match rustix::event::poll(&mut fds, None) {
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(error) => return Err(error.into()),
            }
            let ready: Vec<RawFd> = fds
                .iter()
                .filter(|fd| !fd.revents().is_empty())
                .map(|fd| fd.as_fd().as_raw_fd())
                .collect();
            drop(fds);
            let mut stop = false;
            for fd in ready {
                if Some(fd) == stdout.raw_fd() {
                    if stdout.read_some()? {
                        output_limit_exceeded = true;
                        stop |= spec.stop_at_output_limit;
                    }
                } else if Some(fd) == stderr.raw_fd() {
                    stderr.read_some()?;
                } else if fd == self.socket.as_raw_fd() {
                    let message = protocol::receive(&self.socket)?.ok_or_else(|| {
                        io::Error::other("the run supervisor ended during the run")
                    })?;
                    report = Some(protocol::parse(&message.bytes)?);
                } else if fd == interrupt.as_raw_fd()
                    || streams.stop.is_some_and(|stop| fd == stop.as_raw_fd())
                {
                    // The runner drops what ends after the request: only stopping matters.
                    stop = true;
                }
            }
            if stop && !stop_sent && report.is_none() {
                protocol::send_bytes(self.socket.as_fd(), protocol::STOP, &[])?;
                stop_sent = true;
            }
        }
        // Every process of the run has been reaped: what it wrote is all in the pipes.
        output_limit_exceeded |= stdout.read_to_end()?;
        stderr.read_to_end()?;
        let report = report.expect("the loop ends with a report");
        if let Some(errno) = report.spawn_errno {
            return Ok(Err(io::Error::from_raw_os_error(errno)));
        }
        Ok(Ok(RunOutput {
            termination: match (report.signal, report.exit_code) {
                (Some(signal), _) => Termination::Signaled(signal),
                (None, code) => Termination::Exited(code.unwrap_or(0)),
            },
            cpu_time: Duration::from_micros(report.cpu_time_us),
            wall_time: Duration::from_micros(report.wall_time_us),
            peak_memory_bytes: report.peak_memory_bytes,
            matched_expected: stdout.matched_expected,
            stdout_offset: stdout.offset,
            stdout: stdout.into_buffer(),
            stderr: stderr.into_buffer(),
            output_limit_exceeded,
            wall_timeout: report.wall_timeout,
            memory_limit_seen: report.memory_limit_seen,
            out_of_memory: false,
            starved: Duration::from_millis(report.starved_ms),
            load: report.load,
        }))
    }

    /// Closes the socket, which ends the supervisor: it cleans up after itself. Its exit is
    /// collected by a thread, so that the judge does not wait for it.
    fn close(self) {
        drop(self.socket);
        let pid = rustix::process::Pid::from_raw(self.pid as i32);
        std::thread::spawn(move || {
            rustix::process::waitpid(pid, rustix::process::WaitOptions::empty())
        });
    }
}

/// The variables a program gets from the judge's environment (read once: it does not change
/// while the judge runs).
pub(crate) fn inherited_env() -> impl Iterator<Item = (&'static str, &'static std::ffi::OsStr)> {
    static INHERITED: std::sync::OnceLock<Vec<(&'static str, OsString)>> =
        std::sync::OnceLock::new();
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

/// The message of the request for `spec`: the program found on PATH, a bare environment.
fn request(
    spec: &RunSpec,
    workdir: &str,
    stdin_path: Option<String>,
    stdout_lent: bool,
    cpu: Option<usize>,
) -> io::Result<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    let (program, args) = spec
        .argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
    let mut strings = Vec::new();
    let mut add = |parts: &[&[u8]]| {
        if parts.iter().any(|part| part.contains(&0)) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a NUL byte in a command, path or variable",
            ));
        }
        parts
            .iter()
            .for_each(|part| strings.extend_from_slice(part));
        strings.push(0);
        Ok(())
    };
    add(&[resolve(program).as_bytes()])?;
    for arg in args {
        add(&[arg.as_bytes()])?;
    }
    // A judge's environment is bare: nothing like RUST_BACKTRACE leaks in from the user's.
    let mut envc = 1;
    for (key, value) in inherited_env() {
        add(&[key.as_bytes(), b"=", value.as_bytes()])?;
        envc += 1;
    }
    add(&[b"TMPDIR=", workdir.as_bytes()])?;
    let limits = &spec.limits;
    let request = protocol::Request {
        argc: spec.argv.len() as u32,
        envc,
        cpu_time_ms: millis(limits.cpu_time),
        cpu_cutoff_ms: millis(cpu_cutoff(limits)),
        memory_bytes: limits.memory_bytes,
        stack_bytes: limits.stack_bytes,
        output_bytes: limits.output_bytes,
        wall_timeout_ms: millis(spec.wall_timeout),
        address_space_backstop: spec.address_space_backstop,
        stdin_path,
        stdout_lent,
        cpu,
    };
    protocol::request_message(&request, &strings)
}

pub(crate) type Rlimit = (libc::__rlimit_resource_t, (libc::rlim_t, libc::rlim_t));

/// A bare command name found on PATH: `execve` does not search. Searched once per name and
/// judge run (a search is a file status per folder of PATH, and PATH does not change).
pub(crate) fn resolve(program: &std::ffi::OsStr) -> std::ffi::OsString {
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
