//! The judge's side of the run supervisors: the run slots, a pool of idle supervisors (one
//! per slot), and each one's handle: starting it, asking for runs, reading their output.

use std::fmt;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags};

use super::capture::Capture;
use super::placement::{self, Placement};
use super::run::millis;
use super::STDERR_CAP_BYTES;
use super::{cpu_cutoff, find_on_path, protocol, supervisor};
use super::{Containment, Limits, RunOutput, RunSpec, Streams, Termination, View};

pub(super) struct SupervisorHandle {
    pid: u32,
    socket: OwnedFd,
    /// Read on first use, so that starting it does not wait.
    ready: Option<Slot>,
    /// The CPU it and the judge thread that talks to it stay on (see `placement`).
    pub(super) cpu: Option<usize>,
    pub(super) last_thread: Option<std::thread::ThreadId>,
    /// The view was sent; its answer is read later (`Slot::view_sent`).
    view_offered: bool,
    /// It said its last run was its last (`RunReport::slot_ends`).
    ended: bool,
}

/// What a supervisor gives when ready. The output pipes every run of the slot writes into
/// are non-blocking: a run's output ends with its report, not with the pipe.
struct Slot {
    workdir: String,
    stdout: OwnedFd,
    stderr: OwnedFd,
    /// `view` once the supervisor took the view.
    containment: Containment,
    /// The view was sent and answered.
    view_sent: bool,
    view_refused: Option<String>,
}

/// The judge's own binary, or `JUDGE_SUPERVISOR` (for tests using the library from a test
/// binary).
fn supervisor_executable() -> io::Result<PathBuf> {
    match std::env::var_os("JUDGE_SUPERVISOR") {
        Some(path) => Ok(PathBuf::from(path)),
        None => std::env::current_exe(),
    }
}

impl SupervisorHandle {
    /// The one that `sweeps` removes what earlier judges left.
    pub(super) fn start(sweeps: bool) -> io::Result<SupervisorHandle> {
        collect_exited(&mut closed());
        let (ours, theirs) = protocol::socket_pair()?;
        let placement = Placement::next();
        // The socket is passed as stdin, so std can use posix_spawn: a fork of a threaded
        // judge would not be safe (see `fork` for the first one).
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
        let cpu = placement.map(|placement| placement.cpu);
        Ok(SupervisorHandle::new(process.id(), ours, cpu))
    }

    /// A supervisor just started, not yet ready.
    fn new(pid: u32, socket: OwnedFd, cpu: Option<usize>) -> SupervisorHandle {
        SupervisorHandle {
            pid,
            socket,
            ready: None,
            cpu,
            last_thread: None,
            view_offered: false,
            ended: false,
        }
    }

    /// A supervisor forked from this process: no exec, dynamic linking or runtime start on the
    /// first run's path.
    ///
    /// # Safety
    /// This process must have a single thread: the child goes on to run Rust code, which
    /// takes locks (the allocator's) that another thread could hold at the fork.
    pub(super) unsafe fn fork(sweeps: bool) -> io::Result<SupervisorHandle> {
        let (ours, theirs) = protocol::socket_pair()?;
        let owner = std::process::id();
        let placement = Placement::next();
        let cpu = placement.as_ref().map(|placement| placement.cpu);
        let parents_cpu = rustix::thread::sched_getcpu();
        // SAFETY: the caller promises a single thread; the child never returns from here.
        match unsafe { libc::fork() } {
            -1 => Err(io::Error::last_os_error()),
            0 => {
                // A forked child starts queued on its parent's CPU, which the judge keeps
                // busy while another idles: the parent yields once, the child moves itself.
                if let Some(placement) = &placement {
                    super::placement::leave_cpu(parents_cpu, &placement.allowed);
                }
                drop(ours);
                let program_cpus = placement.map(|placement| placement.allowed);
                supervisor::serve_judge(theirs, owner, sweeps, program_cpus)
            }
            pid => {
                if placement
                    .as_ref()
                    .is_some_and(|placement| placement.allowed.len() > 1)
                {
                    std::thread::yield_now();
                }
                Ok(SupervisorHandle::new(pid as u32, ours, cpu))
            }
        }
    }

    fn ready(&mut self) -> io::Result<&Slot> {
        if self.ready.is_none() {
            let message = protocol::receive(&self.socket)?.ok_or_else(|| {
                io::Error::other("the run supervisor could not start (see its message above)")
            })?;
            let ready: protocol::SlotReady = protocol::parse(&message.bytes)?;
            let [stdout, stderr] = <[OwnedFd; 2]>::try_from(message.fds)
                .map_err(|_| io::Error::other("a supervisor ready without its output pipes"))?;
            for pipe in [&stdout, &stderr] {
                rustix::fs::fcntl_setfl(pipe, rustix::fs::OFlags::NONBLOCK)?;
            }
            self.ready = Some(Slot {
                workdir: ready.workdir,
                stdout,
                stderr,
                containment: ready.containment,
                view_sent: false,
                view_refused: None,
            });
        }
        Ok(self.ready.as_ref().expect("just read"))
    }

    /// Sent early so that the supervisor makes it meanwhile; its answer is read at the first
    /// run that needs it.
    pub(super) fn offer_view(&mut self, view: &View) -> io::Result<()> {
        if !self.view_offered {
            let mut message = protocol::VIEW.to_vec();
            message.extend(serde_json::to_vec(view).map_err(io::Error::other)?);
            protocol::send_bytes(self.socket.as_fd(), &message, &[])?;
            self.view_offered = true;
        }
        Ok(())
    }

    /// Offers the view, if runs like `spec` need it. Its answer is read after the next run is
    /// asked for (see `answer_view`), so the supervisor goes straight from view to run.
    pub(super) fn offer_for(
        &mut self,
        spec: &RunSpec,
        view: impl FnOnce() -> Option<View>,
    ) -> io::Result<()> {
        self.ready()?;
        let answered = self.ready.as_ref().is_some_and(|slot| slot.view_sent);
        if spec.contained && !answered && !self.view_offered {
            if let Some(view) = view() {
                self.offer_view(&view)?;
            }
        }
        Ok(())
    }

    /// Reads the offered view's answer, if not yet read: it comes before any run's report.
    fn answer_view(&mut self) -> io::Result<()> {
        let answered = self.ready.as_ref().is_some_and(|slot| slot.view_sent);
        if self.view_offered && !answered {
            let reply = protocol::receive(&self.socket)?
                .ok_or_else(|| io::Error::other("the run supervisor has gone"))?;
            let reply: protocol::ViewReply = protocol::parse(&reply.bytes)?;
            let slot = self
                .ready
                .as_mut()
                .expect("read before the view was offered");
            slot.containment.view = reply.applied;
            slot.view_refused = reply.refused;
            slot.view_sent = true;
        }
        Ok(())
    }

    /// What holds runs like `spec`, once `offer_for` has given the view it needs.
    pub(super) fn containment(&mut self, spec: &RunSpec) -> io::Result<Containment> {
        self.ready()?;
        self.answer_view()?;
        let slot = self.ready.as_mut().expect("just read");
        let mut containment = slot.containment;
        containment.view &= spec.contained;
        Ok(containment)
    }

    pub(super) fn view_refused(&self) -> Option<&str> {
        self.ready.as_ref()?.view_refused.as_deref()
    }

    /// Outer `Err`: talking to the supervisor failed; inner: the program could not start. The
    /// run stops when `stop_every_run` (the judge's interrupt) or `streams.stop` is readable.
    pub(super) fn run(
        &mut self,
        spec: &RunSpec,
        streams: Streams,
        cpu: Option<usize>,
        stop_every_run: Option<BorrowedFd>,
    ) -> io::Result<io::Result<RunOutput>> {
        self.ready()?;
        let Streams {
            stdin,
            stdout,
            stop,
            expected,
        } = streams;
        let stdout_lent = stdout.is_some();
        if let Err(error) = self.send_request(spec, stdin, stdout, cpu)? {
            return Ok(Err(error));
        }
        self.answer_view()?;
        let slot = self.ready.as_ref().expect("just read");
        let output_cap = usize::try_from(spec.limits.output_bytes).unwrap_or(usize::MAX);
        let mut stdout = match stdout_lent {
            false => Capture::output(slot.stdout.as_fd(), output_cap, expected),
            true => Capture::closed(),
        };
        let mut stderr = Capture::with_tail(slot.stderr.as_fd(), STDERR_CAP_BYTES);
        let stops: Vec<BorrowedFd> = stop_every_run.into_iter().chain(stop).collect();
        let (report, mut output_limit_exceeded) =
            self.wait_for_report(spec, &mut stdout, &mut stderr, &stops)?;
        // Every process was reaped: all it wrote is in the pipes.
        output_limit_exceeded |= stdout.read_to_end()?;
        stderr.read_to_end()?;
        self.ended = report.slot_ends;
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
            stdout_matched: stdout.matched,
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

    /// Asks for the run, lending the given descriptors. Outer `Err`: talking failed; inner:
    /// the run cannot be asked for (input not opened, command cannot travel).
    fn send_request(
        &self,
        spec: &RunSpec,
        stdin: Option<OwnedFd>,
        stdout: Option<OwnedFd>,
        cpu: Option<usize>,
    ) -> io::Result<io::Result<()>> {
        let slot = self.ready.as_ref().expect("ready before a request");
        // The supervisor opens stdin where its path can travel as text.
        let stdin_path = (stdin.is_none() && spec.stdin.is_absolute())
            .then(|| spec.stdin.to_str().map(str::to_owned))
            .flatten();
        let mut lent: Vec<OwnedFd> = Vec::with_capacity(2);
        if stdin_path.is_none() {
            match stdin {
                Some(given) => lent.push(given),
                None => match File::open(spec.stdin) {
                    Ok(stdin) => lent.push(stdin.into()),
                    Err(error) => return Ok(Err(error)),
                },
            }
        }
        let stdout_lent = stdout.is_some();
        lent.extend(stdout);
        let request = match request(spec, &slot.workdir, stdin_path, stdout_lent, cpu) {
            Ok(request) => request,
            Err(error) => return Ok(Err(error)),
        };
        let lent_fds: Vec<_> = lent.iter().map(AsFd::as_fd).collect();
        protocol::send_bytes(self.socket.as_fd(), &request, &lent_fds)?;
        // The judge's copies drop here, so that a pipe given to the program ends with it.
        Ok(Ok(()))
    }

    /// Reads output until the run's report, asking to stop at the output limit or when a
    /// `stops` descriptor is readable; the report, and whether output passed its limit.
    fn wait_for_report(
        &self,
        spec: &RunSpec,
        stdout: &mut Capture,
        stderr: &mut Capture,
        stops: &[BorrowedFd],
    ) -> io::Result<(protocol::RunReport, bool)> {
        let mut stop_sent = false;
        let mut output_limit_exceeded = false;
        loop {
            let mut fds = Vec::with_capacity(5);
            for fd in [stdout.fd(), stderr.fd()].into_iter().flatten() {
                fds.push(PollFd::from_borrowed_fd(fd, PollFlags::IN));
            }
            fds.push(PollFd::from_borrowed_fd(self.socket.as_fd(), PollFlags::IN));
            if !stop_sent {
                for stop in stops {
                    fds.push(PollFd::from_borrowed_fd(*stop, PollFlags::IN));
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
            let mut report = None;
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
                } else if stops.iter().any(|stop| fd == stop.as_raw_fd()) {
                    // Only stopping matters: the runner drops what ends after the request.
                    stop = true;
                }
            }
            if let Some(report) = report {
                return Ok((report, output_limit_exceeded));
            }
            if stop && !stop_sent {
                protocol::send_bytes(self.socket.as_fd(), protocol::STOP, &[])?;
                stop_sent = true;
            }
        }
    }

    /// Closes the socket, which ends the supervisor (it cleans up after itself). Not waited
    /// for: its exit is collected when a supervisor starts or closes, or by init.
    pub(super) fn close(self) {
        drop(self.socket);
        let mut closed = closed();
        closed.push(self.pid);
        collect_exited(&mut closed);
    }
}

/// Supervisors closed and not yet seen to exit.
fn closed() -> std::sync::MutexGuard<'static, Vec<u32>> {
    static CLOSED: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());
    CLOSED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Collects closed supervisors that have exited, without waiting.
fn collect_exited(closed: &mut Vec<u32>) {
    closed.retain(|&pid| {
        // Kept only while still running.
        rustix::process::Pid::from_raw(pid as i32).is_some_and(|pid| {
            matches!(
                rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::NOHANG),
                Ok(None)
            )
        })
    });
}

/// The program is found on PATH; the environment is bare.
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
    add(&[find_on_path(program).as_bytes()])?;
    for arg in args {
        add(&[arg.as_bytes()])?;
    }
    // Bare: nothing like RUST_BACKTRACE leaks in from the user's.
    let mut envc = 1;
    for (key, value) in spec.environment.variables() {
        add(&[key.as_bytes(), b"=", value.as_bytes()])?;
        envc += 1;
    }
    add(&[b"TMPDIR=", workdir.as_bytes()])?;
    let case_files = match spec.case_files.map(std::path::absolute).transpose()? {
        Some(folder) => Some(folder.into_os_string().into_string().map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "a case's files folder is not UTF-8",
            )
        })?),
        None => None,
    };
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
        contained: spec.contained,
        dev_in_run_folder: spec.dev_in_run_folder,
        case_files,
    };
    protocol::request_message(&request, &strings)
}

/// Enough for `true`.
const PROBE: Limits = Limits {
    cpu_time: std::time::Duration::from_secs(2),
    memory_bytes: 64 << 20,
    output_bytes: 1 << 20,
    stack_bytes: 8 << 20,
    decided_at: None,
};

/// Idle supervisors, one per slot, started when a run finds none idle. Dropping it ends them
/// without waiting: each kills what is left of its runs, removes its folder and cgroups, and
/// exits (as it does when a judge dies: its socket closes).
#[derive(Default)]
pub struct Sandbox {
    idle: Mutex<Vec<SupervisorHandle>>,
    /// Every run stops when this is readable (the judge's interrupt, see `runner::interrupt`):
    /// the sandbox knows nothing of signals.
    stop_every_run: Option<BorrowedFd<'static>>,
    /// The first supervisor sweeps what earlier judges left.
    started: std::sync::atomic::AtomicBool,
    /// What judged programs see of the files: as given, and as settled (once, at first use).
    view: Mutex<(Option<View>, Option<View>)>,
    /// What held every judged run so far (`None` before the first), and why a slot refused
    /// the view, if one did.
    held: Mutex<Option<(Containment, Option<String>)>>,
}

impl Sandbox {
    /// Every run stops once `stop` is readable.
    pub fn stopped_by(stop: BorrowedFd<'static>) -> Sandbox {
        let mut sandbox = Sandbox::default();
        sandbox.stop_every_run = Some(stop);
        sandbox
    }

    pub fn run(&self, spec: &RunSpec) -> io::Result<RunOutput> {
        self.run_with(spec, Streams::default())
    }

    /// Runs on different threads take different supervisors, so two programs can run at once
    /// and talk.
    pub fn run_with(&self, spec: &RunSpec, streams: Streams) -> io::Result<RunOutput> {
        // The one this thread used last, if idle: the thread stays on its CPU.
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
            None => SupervisorHandle::start(self.first_start())?,
        };
        if let Err(error) = supervisor.offer_for(spec, || self.settled_view()) {
            supervisor.close();
            return Err(error);
        }
        let cpu = placement::slot_cpu(supervisor.cpu);
        if let Some(cpu) = cpu {
            let _ = placement::pin_this_thread(cpu);
        }
        // A program that could not start (a missing toolchain) does not end the supervisor;
        // only a broken conversation does.
        let run = supervisor.run(spec, streams, cpu, self.stop_every_run);
        let containment = run.and_then(|run| Ok((run, supervisor.containment(spec)?)));
        let (run, containment) = match containment {
            Ok(both) => both,
            Err(error) => {
                supervisor.close();
                return Err(error);
            }
        };
        if spec.contained {
            let refused = supervisor.view_refused().map(str::to_owned);
            let mut held = self
                .held
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            *held = Some(match held.take() {
                Some((before, why)) => (before.meet(containment), why.or(refused)),
                None => (containment, refused),
            });
        }
        supervisor.last_thread = Some(std::thread::current().id());
        match supervisor.ended {
            true => supervisor.close(),
            false => self.idle().push(supervisor),
        }
        run
    }

    /// Starts a supervisor now, so that its set-up overlaps with the judge's own start.
    pub fn prepare(&self) {
        let mut idle = self.idle();
        if idle.is_empty() {
            if let Ok(supervisor) = SupervisorHandle::start(self.first_start()) {
                idle.push(supervisor);
            }
        }
    }

    /// `prepare` by forking rather than starting the binary again, which the first run would
    /// wait for.
    ///
    /// # Safety
    /// Only while this process has a single thread: at the start of `main`.
    pub unsafe fn prepare_by_fork(&self) {
        let first = self.first_start();
        // SAFETY: the caller promises a single thread.
        if let Ok(supervisor) = unsafe { SupervisorHandle::fork(first) } {
            self.idle().push(supervisor);
        }
    }

    /// From the first judged run on (a slot takes the view once).
    pub fn set_view(&self, view: View) {
        *self.view() = (Some(view), None);
    }

    /// Gives the view to idle slots now, so that they make it while the judge builds; call
    /// once every folder it names (the build cache) exists.
    pub fn offer_view(&self) {
        let Some(view) = self.settled_view() else {
            return;
        };
        for supervisor in self.idle().iter_mut() {
            let _ = supervisor.offer_view(&view);
        }
    }

    fn settled_view(&self) -> Option<View> {
        let mut view = self.view();
        if view.1.is_none() {
            view.1 = view.0.clone().map(View::settle);
        }
        view.1.clone()
    }

    fn view(&self) -> MutexGuard<'_, (Option<View>, Option<View>)> {
        self.view
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Hides `folder` too (a problem named by its path, outside the repository).
    pub fn hide(&self, folder: &std::path::Path) {
        let mut view = self.view();
        if let Some(given) = view.0.as_mut() {
            given.hide(folder);
            view.1 = None;
        }
    }

    /// What held the judged runs so far, and why the view was refused if it was; `None`
    /// before the first.
    pub fn containment(&self) -> Option<(Containment, Option<String>)> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// `containment`, learnt by running `true` as a judged program if none ran yet.
    pub fn containment_probed(&self) -> Option<(Containment, Option<String>)> {
        if let Some(known) = self.containment() {
            return Some(known);
        }
        let argv = [std::ffi::OsString::from("true")];
        let mut probe = RunSpec::new(&argv, std::path::Path::new("/dev/null"), PROBE);
        probe.contained = true;
        self.run(&probe).ok()?;
        self.containment()
    }

    fn first_start(&self) -> bool {
        !self
            .started
            .swap(true, std::sync::atomic::Ordering::Relaxed)
    }

    fn idle(&self) -> MutexGuard<'_, Vec<SupervisorHandle>> {
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
