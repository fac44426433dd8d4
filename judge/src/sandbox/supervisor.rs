//! The supervisor: the judge's binary started again, running one slot's programs one at a
//! time for as long as the judge lives. A process apart so that:
//! - its figures are the program's own, never the judge's memory;
//! - as child subreaper it gets every orphan, so it kills, reaps and counts the whole tree
//!   (no double fork or `setsid` escapes);
//! - it sits in the slot's cgroups, so programs are born inside them;
//! - it dies with the judge (its socket end closes), killing the run and removing its folder.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags};

use super::cgroup::Cgroups;
use super::held::{self, IpcLeftovers, Keyrings};
use super::isolation::{Entered, Isolation, View};
use super::load::LoadMark;
use super::protocol::{self, Request, RunReport, SlotReady, ViewReply};
use super::spawner::{Contained, SpawnRequest, Spawner};
use super::tree::{self, Reaped};
use super::Containment;
use super::Rlimit;

pub const ARGUMENT: &str = "--internal-supervisor";

/// Set in the environment of the supervisor that sweeps what earlier judges left.
pub(super) const SWEEP: &str = "JUDGE_SWEEP";

const TICK: Duration = Duration::from_millis(100);

/// Past the wall backstop, a program still computing (starved on a busy machine) or waiting
/// for the judge to read its output is waited for up to this many times its CPU limit (at
/// least `MIN_STARVED_WAIT`): its CPU time decides, not the machine's load.
const STARVED_WAIT_FACTOR: u32 = 10;
const MIN_STARVED_WAIT: Duration = Duration::from_secs(30);

/// The cgroup's hard limit stands this far above the run's, so that a run over its limit is
/// seen (MLE) before the OOM killer stops it.
fn memory_margin(limit: u64) -> u64 {
    limit / 16 + (4 << 20)
}

/// The judge passes the socket as stdin, its pid as `JUDGE_OWNER`, and `JUDGE_SWEEP` to the
/// first supervisor.
pub fn main() -> ! {
    // Moved to a close-on-exec descriptor: programs must not inherit it.
    let socket = match rustix::io::fcntl_dupfd_cloexec(std::io::stdin().as_fd(), 3) {
        Ok(socket) => socket,
        Err(_) => std::process::exit(1),
    };
    let owner = std::env::var("JUDGE_OWNER")
        .ok()
        .and_then(|pid| pid.parse().ok())
        .unwrap_or_else(std::process::id);
    let program_cpus = std::env::var(super::placement::VARIABLE)
        .ok()
        .and_then(|value| super::placement::cpus_from_variable(&value));
    serve_judge(
        socket,
        owner,
        std::env::var_os(SWEEP).is_some(),
        program_cpus,
    )
}

/// Cuts ties to the judge's terminal and session; becomes the OOM-spared subreaper.
fn detach_from_judge() {
    if let Ok(null) = std::fs::File::open("/dev/null") {
        for standard in [0, 1] {
            // SAFETY: replaces a standard descriptor, which std's handles refer to by number.
            unsafe { libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&null), standard) };
        }
    }
    // Its own session: the terminal's Ctrl-C goes to the judge, which decides.
    let _ = rustix::process::setsid();
    let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    // The judge's going is noticed on the socket, not by PR_SET_PDEATHSIG: that fires when
    // the judge *thread* that started it ends, and pool threads come and go.
    // The OOM killer must pick the program, never its reporter (takes effect only where
    // allowed: root with CAP_SYS_RESOURCE).
    let _ = std::fs::write("/proc/self/oom_score_adj", "-1000");
}

/// The spawner of runs outside the view (builds, checkers), when the supervisor gets a
/// thread, and the one of the judged programs, where the slot can take a view.
fn start_spawners(
    isolation: &Isolation,
    gets_a_thread: bool,
    workdir: &Path,
) -> (Option<Spawner>, Option<Spawner>) {
    // It forks, so it must start before the sweep thread; a supervisor without that thread
    // starts it at the first such run, off a one-case run's path.
    let spawner = match gets_a_thread.then(|| Spawner::start(None)) {
        None => None,
        Some(Ok(spawner)) => Some(spawner),
        Some(Err(_)) => {
            let _ = std::fs::remove_dir_all(workdir);
            std::process::exit(1)
        }
    };
    // Forked now so that it readies while the judge sends the view (see `Spawner::start`).
    let awaiting_view = why_no_view(isolation, gets_a_thread)
        .is_none()
        .then(|| start_contained(workdir))
        .and_then(Result::ok);
    (spawner, awaiting_view)
}

/// The keeper, outside the slot's namespaces: leaves the slot's cgroups before the first
/// run, makes the network namespace on another CPU, then goes idle for good (at normal
/// policy it could take the CPU back while the first run starts). Its sweep of what earlier
/// judges left (`sweep_bases`) runs on idle CPU time.
fn keep_slot(
    cgroups: &Cgroups,
    network: OwnedFd,
    program_cpus: Option<&[usize]>,
    (socket, supervisor): (std::os::fd::RawFd, libc::pid_t),
    sweep_bases: Option<&[PathBuf]>,
) -> ! {
    cgroups.leave();
    super::isolation::make_network(network, program_cpus);
    become_idle();
    std::thread::yield_now();
    super::isolation::keep(socket, supervisor, || {
        if let Some(bases) = sweep_bases {
            sweep(bases);
        }
    })
}

/// Sets up, says `SlotReady`, runs requests until the judge goes.
pub(super) fn serve_judge(
    socket: OwnedFd,
    owner: u32,
    sweeps: bool,
    program_cpus: Option<Vec<usize>>,
) -> ! {
    detach_from_judge();
    let sweep_bases = super::cgroup::bases(owner);
    let cgroups = Cgroups::create(owner);
    // Its pid on the machine, read before entering a PID namespace (where it is 1).
    let slot = std::process::id();
    // Made before the keeper sweeps the temporary folder: a `mkdir` there would wait for the
    // sweep's read, on the first run's path.
    let Ok(workdir) = make_workdir(owner, slot) else {
        std::process::exit(1)
    };
    let socket_fd = std::os::fd::AsRawFd::as_raw_fd(&socket);
    let sweep = sweeps.then_some(&sweep_bases[..]);
    let (isolation, network) = enter(&cgroups, socket_fd, program_cpus.as_deref(), sweep);
    let private_tmp = isolation.private_shm;
    let scratch = ScratchWatch::new(&workdir, private_tmp);
    let Ok(output) = OutputPipes::new() else {
        let _ = std::fs::remove_dir_all(&workdir);
        std::process::exit(1)
    };
    if let Some(cpus) = &program_cpus {
        super::placement::remember_program_cpus(cpus);
    }
    let gets_a_thread = sweeps && !isolation.kept;
    let keyrings = Keyrings::new(isolation.user_namespace, run_as());
    let (spawner, awaiting_view) = start_spawners(&isolation, gets_a_thread, &workdir);
    let mut supervisor = Supervisor {
        sweep: None,
        spawner,
        awaiting_view,
        contained: None,
        view: None,
        // Joined before `SlotReady`, where the slot has a keeper to make it.
        network: Err("no network namespace of its own".to_owned()),
        inputs: None,
        ipc: isolation.namespaces.then(IpcLeftovers::new),
        keyrings,
        settings: run_as().is_none().then(|| settings_of(0)),
        isolation,
        me: std::process::id(),
        socket,
        cgroups,
        workdir,
        private_tmp,
        scratch,
        stdout: output.stdout.1,
        stderr: output.stderr.1,
    };
    let begun_view = supervisor.join_network_making_view(network);
    let said_ready = supervisor.say_ready(
        isolation.namespaces,
        (output.stdout.0, output.stderr.0),
        begun_view,
    );
    if said_ready {
        // Swept here, not in the judge: reading cgroup folders waits while a cgroup move is
        // under way. Only the first supervisor sweeps, on idle CPU time, and only without a
        // keeper (a keeper sweeps: it sees the machine's processes).
        if sweeps && !isolation.kept {
            supervisor.sweep = Some(std::thread::spawn(move || sweep_when_idle(&sweep_bases)));
        }
        supervisor.serve();
    }
    supervisor.finish()
}

/// Enters the slot's namespaces (see `isolation::enter`): as the supervisor, with the socket
/// its keeper sends the network namespace on; the keeper never returns.
fn enter(
    cgroups: &Cgroups,
    judge: std::os::fd::RawFd,
    program_cpus: Option<&[usize]>,
    sweep: Option<&[PathBuf]>,
) -> (Isolation, Option<OwnedFd>) {
    match super::isolation::enter() {
        Entered::Inside(isolation, network) => (isolation, network),
        Entered::Keeper {
            supervisor,
            network,
        } => keep_slot(cgroups, network, program_cpus, (judge, supervisor), sweep),
    }
}

/// The run's stdin (its file, or the first descriptor lent) and the stdout lent, if any;
/// `EPROTO` where the judge lent other descriptors than it said.
fn stdio_of(
    request: &Request,
    lent: Vec<OwnedFd>,
    inputs: Option<&OwnedFd>,
) -> std::io::Result<(OwnedFd, Option<OwnedFd>)> {
    let mut lent = lent.into_iter();
    let stdin = match &request.stdin_path {
        Some(path) => Some(super::isolation::open_input(inputs, Path::new(path))?),
        None => lent.next(),
    };
    let stdout = if request.stdout_lent {
        lent.next()
    } else {
        None
    };
    match (stdin, !request.stdout_lent || stdout.is_some(), lent.next()) {
        (Some(stdin), true, None) => Ok((stdin, stdout)),
        _ => Err(std::io::Error::from_raw_os_error(libc::EPROTO)),
    }
}

struct Supervisor {
    /// Joined before this process exits.
    sweep: Option<std::thread::JoinHandle<()>>,
    /// Starts programs outside the view; made at the first such run (see `serve_judge`).
    spawner: Option<Spawner>,
    /// The judged programs' spawner, before it has its view.
    awaiting_view: Option<Spawner>,
    /// The judged programs' spawner, in its view.
    contained: Option<Spawner>,
    view: Option<ViewScratch>,
    /// The slot's network namespace, for the judged programs' spawner that was forked
    /// before it came (see `join_network`); or why there is none.
    network: Result<OwnedFd, String>,
    /// The machine's files read-only, to open inputs through (`isolation::read_only_root`),
    /// made at the first run.
    inputs: Option<Option<OwnedFd>>,
    /// Where the slot has an IPC namespace of its own.
    ipc: Option<IpcLeftovers>,
    keyrings: Keyrings,
    /// This process's settings as it started, which its spawners inherit; `None` when its
    /// programs run as another user (who may change none of them).
    settings: Option<Settings>,
    isolation: Isolation,
    me: u32,
    socket: OwnedFd,
    cgroups: Cgroups,
    workdir: PathBuf,
    private_tmp: bool,
    scratch: ScratchWatch,
    /// Writing ends of the slot's output pipes (stdout unless the judge lends one).
    stdout: OwnedFd,
    stderr: OwnedFd,
}

/// Whether a run may have left something in the working folder, the private `/dev/shm` or
/// the view's `/tmp` and `/dev/shm`: an inotify watch for names made in each (anything deeper
/// needs a folder made there first). Cheaper than reading the folders after every run.
struct ScratchWatch(Option<OwnedFd>);

/// A view's writable folders and the mount points in them (the run folder, a kept folder
/// under `/tmp`), reached through the spawner's `/proc/PID/root`.
struct ViewScratch {
    folders: [PathBuf; 2],
    mount_points: Vec<PathBuf>,
}

impl ViewScratch {
    fn of(spawner: u32, workdir: &Path, view: &View) -> ViewScratch {
        let root = PathBuf::from(format!("/proc/{spawner}/root"));
        let folders = [root.join("tmp"), root.join("dev/shm")];
        let mount_points = std::iter::once(workdir)
            .chain(view.kept.iter().map(PathBuf::as_path))
            .filter(|path| path.starts_with("/tmp") || path.starts_with("/dev/shm"))
            .map(|path| root.join(path.strip_prefix("/").unwrap_or(path)))
            .collect();
        ViewScratch {
            folders,
            mount_points,
        }
    }

    /// The two folders, and those on the way to a mount point in them (made by the spawner;
    /// a program may write beside it).
    fn watched(&self) -> Vec<PathBuf> {
        let mut watched = self.folders.to_vec();
        for mount_point in &self.mount_points {
            let mut on_the_way = mount_point.parent();
            while let Some(folder) =
                on_the_way.filter(|folder| !self.folders.contains(&folder.to_path_buf()))
            {
                if !folder.starts_with(&self.folders[0]) && !folder.starts_with(&self.folders[1]) {
                    break;
                }
                watched.push(folder.to_path_buf());
                on_the_way = folder.parent();
            }
        }
        watched.sort();
        watched.dedup();
        watched
    }

    fn empty(&self) {
        for folder in &self.folders {
            empty_folder(folder);
        }
    }
}

impl ScratchWatch {
    fn new(workdir: &Path, private_tmp: bool) -> ScratchWatch {
        use rustix::fs::inotify;
        let watch = || -> rustix::io::Result<OwnedFd> {
            let fd = inotify::init(inotify::CreateFlags::CLOEXEC | inotify::CreateFlags::NONBLOCK)?;
            let made = inotify::WatchFlags::CREATE | inotify::WatchFlags::MOVED_TO;
            inotify::add_watch(&fd, workdir, made)?;
            if private_tmp {
                inotify::add_watch(&fd, "/dev/shm", made)?;
            }
            Ok(fd)
        };
        ScratchWatch(watch().ok())
    }

    /// Watches the view's folders too; without the watch, they are emptied after every run.
    fn watch_view(&mut self, view: &ViewScratch) {
        use rustix::fs::inotify;
        let made = inotify::WatchFlags::CREATE | inotify::WatchFlags::MOVED_TO;
        if let Some(fd) = &self.0 {
            if view
                .watched()
                .iter()
                .any(|folder| inotify::add_watch(fd, folder, made).is_err())
            {
                self.0 = None;
            }
        }
    }

    /// Whether a name was made since the last call (or cannot be known: a lost event).
    fn touched(&self) -> bool {
        let Some(fd) = &self.0 else {
            return true;
        };
        let mut events = [0u8; 4096];
        let mut touched = false;
        loop {
            match rustix::io::read(fd, &mut events) {
                Ok(0) | Err(rustix::io::Errno::AGAIN) => return touched,
                Ok(_) => touched = true,
                Err(rustix::io::Errno::INTR) => {}
                Err(_) => return true,
            }
        }
    }
}

/// The slot's output pipes, made once: (reading end, writing end) each.
struct OutputPipes {
    stdout: (OwnedFd, OwnedFd),
    stderr: (OwnedFd, OwnedFd),
}

impl OutputPipes {
    fn new() -> std::io::Result<OutputPipes> {
        let pipe = || rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC);
        Ok(OutputPipes {
            stdout: pipe()?,
            stderr: pipe()?,
        })
    }
}

enum Ended {
    Exited,
    Stopped,
    JudgeGone,
}

impl Supervisor {
    fn serve(&mut self) {
        while let Ok(Some(message)) = protocol::receive(&self.socket) {
            if message.bytes == protocol::STOP {
                continue; // for a run that has ended already
            }
            if let Some(view) = message.bytes.strip_prefix(protocol::VIEW) {
                let reply = self.take_view(view);
                if protocol::send(self.socket.as_fd(), &reply, &[]).is_err() {
                    return;
                }
                continue;
            }
            let report = match protocol::parse_request(&message.bytes) {
                Ok((request, strings)) => match self.run(&request, strings, message.fds) {
                    Some(report) => report,
                    None => return, // the judge has gone
                },
                Err(_) => RunReport {
                    spawn_errno: Some(libc::EPROTO),
                    ..RunReport::default()
                },
            };
            if protocol::send(self.socket.as_fd(), &report, &[]).is_err() || report.slot_ends {
                return;
            }
            // After the report, so that it is off the run's path.
            self.clean_up();
        }
    }

    /// The run's peak memory: the cgroup's charge above `baseline` (else the watchdog's
    /// samples), at least the largest process's own peak. The cgroup counts in page batches
    /// and sees shared memory; `ru_maxrss` is exact for one process: the larger wins.
    fn peak_of(&mut self, watch: &Watchdog, baseline: u64) -> u64 {
        let charged = self
            .cgroups
            .memory_peak()
            .map(|peak| peak.saturating_sub(baseline));
        // Without a memory cgroup the ticks may have missed a run that wrote files and exited
        // between them: what it left in the slot's folders (emptied after this) counts.
        let left = match charged {
            Some(_) => 0,
            None => self.held_outside_processes(),
        };
        charged
            .unwrap_or(watch.max_resident)
            .max(watch.reaped.max_resident_bytes)
            .max(left)
    }

    /// Pins this process and its spawners to `cpu`.
    fn move_to(&self, cpu: usize) {
        if super::placement::pin_this_thread(cpu) {
            for spawner in self.spawners() {
                super::placement::pin_process(spawner, cpu);
            }
        }
    }

    /// The run folder's `dev` link to `/dev`, there when `wanted`.
    fn link_dev(&mut self, wanted: bool) {
        // Kept from run to run, and its own watch event drained: otherwise every run's
        // folders would be read and emptied. No program runs between runs, so the event
        // drained is the link's alone.
        let dev = self.workdir.join("dev");
        if !wanted {
            let _ = std::fs::remove_file(&dev);
        } else if std::os::unix::fs::symlink("/dev", &dev).is_ok() {
            let _ = self.scratch.touched();
        }
    }

    /// One run, with the descriptors the judge lent (see `Request`); `None` when the judge
    /// went away during it.
    fn run(&mut self, request: &Request, strings: &[u8], lent: Vec<OwnedFd>) -> Option<RunReport> {
        if let Some(cpu) = request.cpu {
            self.move_to(cpu);
        }
        let inputs = self
            .inputs
            .get_or_insert_with(super::isolation::read_only_root);
        let (stdin, stdout) = match stdio_of(request, lent, inputs.as_ref()) {
            Ok(stdio) => stdio,
            Err(error) => return Some(spawn_failure(&error)),
        };
        // A program may have set O_NONBLOCK on the shared pipes, failing the next one's writes.
        for pipe in [&self.stdout, &self.stderr] {
            let _ = rustix::fs::fcntl_setfl(pipe, rustix::fs::OFlags::empty());
        }
        let limit = request.memory_bytes;
        let hard_limit = limit.saturating_add(memory_margin(limit));
        let baseline = self.cgroups.start_run(hard_limit);
        let cpu_mark = self.cgroups.cpu_usage().map(|slot| (slot, own_cpu_time()));
        let contained = request.contained && self.contained.is_some();
        let processes = match self.cgroups.has_pids() {
            true => None,
            false => self.process_limit(contained),
        };
        let rlimits = rlimits(request, self.cgroups.has_memory(), processes);
        self.link_dev(request.dev_in_run_folder);
        // After the link, whose watch event is drained: these make the folder emptied after.
        if let Some(folder) = &request.case_files {
            if let Err(error) = copy_case_files(Path::new(folder), &self.workdir) {
                return Some(spawn_failure(&error));
            }
        }
        let spawn = SpawnRequest {
            argc: request.argc,
            envc: request.envc,
            strings,
            cwd: self.workdir.as_os_str().as_encoded_bytes(),
            rlimits: &rlimits,
            // Above the cgroup's hard limit: filling `/tmp` is an MLE, not a full folder.
            scratch_bytes: hard_limit.saturating_add(limit / 16),
        };
        let spawner = match self.contained.as_ref().filter(|_| request.contained) {
            Some(contained) => contained,
            None => match started(&mut self.spawner) {
                Ok(spawner) => spawner,
                Err(error) => return Some(spawn_failure(&error)),
            },
        };
        let stdio_lent = [
            stdin.as_fd(),
            stdout.as_ref().map_or(self.stdout.as_fd(), AsFd::as_fd),
            self.stderr.as_fd(),
        ];
        let start = Instant::now();
        let pid = match spawner.spawn(&spawn, stdio_lent) {
            Ok(Ok(pid)) => pid,
            Ok(Err(error)) => return Some(spawn_failure(&error)),
            // The spawner is gone. Where the program it had just started killed it (it runs
            // as the judge's user) before it answered, that program is this process's child:
            // its run goes on, and the slot ends after it. Else nothing more can run.
            Err(_) => self.started_unannounced()?,
        };
        // Only the program may hold what was lent: a pipe must end with it.
        drop((stdin, stdout));
        let mut watch = Watchdog::new(request, start, (baseline, cpu_mark));
        let ended = watch.until_end(self, pid);
        self.end_run(watch, (pid, ended), (baseline, limit))
    }

    /// Kills and reaps what is left of the run `pid`, and reports it (`None` when the judge
    /// went away during it).
    fn end_run(
        &mut self,
        mut watch: Watchdog,
        (pid, ended): (libc::pid_t, Ended),
        (baseline, limit): (u64, u64),
    ) -> Option<RunReport> {
        let spare = self.spared();
        let main_status = tree::kill_and_reap_all(
            self.me,
            &mut watch.reaped,
            watch.main.is_none().then_some(pid),
            &spare,
            &|| self.cgroups.stop_all_but(&spare),
        );
        if let Some(status) = main_status {
            watch.main = Some(status);
        }
        let slot_ends = !self.judges_processes_intact();
        let peak = self.peak_of(&watch, baseline);
        if matches!(ended, Ended::JudgeGone) {
            return None;
        }
        let report = watch.report((peak, limit), &self.cgroups);
        Some(RunReport {
            slot_ends,
            ..report
        })
    }

    /// The one child of this process that is no spawner, if there is exactly one: a program
    /// whose spawner died before it said the program had started.
    fn started_unannounced(&self) -> Option<libc::pid_t> {
        let spared = self.spared();
        let children: Vec<u32> = (tree::children(self.me).into_iter())
            .filter(|pid| !spared.contains(pid))
            .collect();
        match children[..] {
            [pid] => Some(pid as libc::pid_t),
            _ => None,
        }
    }

    /// At the `namespaces` level a program runs as the judge's user and may stop or kill the
    /// spawners, and lower their resource limits or priority or this process's (`prlimit`,
    /// `setpriority`): a stopped one goes on. `false` when one was killed or changed: the slot
    /// ends, as no other can take its place (the judged programs' spawner holds the view, a
    /// spawner is forked while the supervisor is single-threaded, and a lowered hard limit
    /// cannot be raised again), so that no later run inherits what this one did.
    fn judges_processes_intact(&self) -> bool {
        let spawners = [self.spawner.as_ref(), self.contained.as_ref()];
        let alive = spawners.into_iter().flatten().all(Spawner::revive);
        let unchanged = |pid: libc::pid_t| Some(settings_of(pid)) == self.settings;
        let mut spawner_pids = self.spawners().into_iter().map(|pid| pid as libc::pid_t);
        alive && (self.settings.is_none() || (unchanged(0) && spawner_pids.all(unchanged)))
    }

    /// Whether a slot output pipe is more than half full: a program blocked on it waits for
    /// a (starved) judge to read, and is not idle. A lent pipe is not looked at: it may be
    /// another program's input, which may never be read.
    fn output_waits_for_judge(&self, stdout_lent: bool) -> bool {
        let slot_pipes = [(!stdout_lent).then_some(&self.stdout), Some(&self.stderr)];
        slot_pipes.into_iter().flatten().any(|pipe| {
            let unread = rustix::io::ioctl_fionread(pipe).unwrap_or(0);
            let size = rustix::pipe::fcntl_getpipe_size(pipe).unwrap_or(usize::MAX);
            unread.saturating_mul(2) > size as u64
        })
    }

    /// Memory a run holds outside any process, for want of a memory cgroup: files in the
    /// private `/dev/shm` and the view's `/tmp` and `/dev/shm` (emptied after every run, so
    /// all the run's), System V shared memory and queued messages of the slot's IPC
    /// namespace, and what its network namespace's Unix sockets queue.
    fn held_outside_processes(&self) -> u64 {
        let mut folders: Vec<&Path> = Vec::new();
        if self.private_tmp {
            folders.push(Path::new("/dev/shm"));
        }
        if let Some(view) = &self.view {
            folders.extend(view.folders.iter().map(PathBuf::as_path));
        }
        let in_files: u64 = folders
            .into_iter()
            .filter_map(|folder| rustix::fs::statvfs(folder).ok())
            .map(|fs| (fs.f_blocks - fs.f_bfree) * fs.f_frsize)
            .sum();
        let system_v = match self.isolation.namespaces {
            true => held::system_v_shared_bytes() + held::queued_message_bytes(),
            false => 0,
        };
        // Only in a network namespace of the slot's own: else they are the machine's.
        let sockets = match self.network.is_ok() {
            true => held::queued_socket_bytes(),
            false => 0,
        };
        in_files + system_v + sockets
    }

    /// RLIMIT_NPROC for want of a pids cgroup; `None` for root (not bound by it). It counts
    /// the user's tasks: per user namespace from Linux 5.14 (so the pids cgroup's cap),
    /// else all of the user's, so it is set above what the user already runs.
    fn process_limit(&self, contained: bool) -> Option<u64> {
        let uid = match contained && rustix::process::getuid().is_root() {
            true => NOBODY,
            false => rustix::process::getuid().as_raw(),
        };
        if uid == 0 {
            return None;
        }
        // Linux 5.14 and later count a user's tasks in each user namespace apart.
        if self.isolation.user_namespace && super::kernel_at_least(5, 14) {
            return Some(super::cgroup::PIDS_MAX);
        }
        let owned = std::fs::read_dir("/proc")
            .ok()?
            .filter_map(|entry| std::fs::metadata(entry.ok()?.path()).ok())
            .filter(|metadata| std::os::unix::fs::MetadataExt::uid(metadata) == uid)
            .count() as u64;
        Some(owned + 8 * super::cgroup::MAX_TASKS)
    }

    fn spawners(&self) -> Vec<u32> {
        [
            self.spawner.as_ref(),
            self.awaiting_view.as_ref(),
            self.contained.as_ref(),
        ]
        .into_iter()
        .flatten()
        .map(Spawner::pid)
        .collect()
    }

    /// Processes that are not a run's: the spawners and this one.
    fn spared(&self) -> Vec<u32> {
        let mut spared = self.spawners();
        spared.push(self.me);
        spared
    }

    /// Starts the judged programs' spawner in `view` (JSON), where the slot has the
    /// namespaces and is still single-threaded (it forks).
    fn take_view(&mut self, view: &[u8]) -> ViewReply {
        match self.begin_view(view) {
            Ok(view) => self.finish_view(view),
            Err(reply) => reply,
        }
    }

    /// Starts making `view` (JSON), which `finish_view` completes; `Err` is the answer to
    /// give at once.
    fn begin_view(&mut self, view: &[u8]) -> Result<View, ViewReply> {
        if self.contained.is_some() {
            return Err(ViewReply {
                applied: true,
                refused: None,
            });
        }
        let view: View = protocol::parse(view).map_err(|error| refused(error.to_string()))?;
        if let Some(why) = why_no_view(&self.isolation, self.sweep.is_some()) {
            return Err(refused(why.into()));
        }
        let spawner = match self.awaiting_view.take() {
            Some(spawner) => spawner,
            None => start_contained(&self.workdir).map_err(|error| refused(error.to_string()))?,
        };
        // Kept where `spawners` and `finish` find it meanwhile.
        match spawner.begin_view(&view) {
            Ok(()) => {
                self.awaiting_view = Some(spawner);
                Ok(view)
            }
            Err(error) => {
                spawner.stop();
                Err(refused(error.to_string()))
            }
        }
    }

    /// Says `SlotReady`, handing over the output pipes' reading ends, then answers the view
    /// begun before. Whether the judge heard it all.
    fn say_ready(
        &mut self,
        namespaces: bool,
        reading: (OwnedFd, OwnedFd),
        begun_view: Option<Result<View, ViewReply>>,
    ) -> bool {
        // Without a network namespace the slot says it has no namespaces, and takes no view.
        let ready = SlotReady {
            workdir: self.workdir.display().to_string(),
            containment: Containment {
                memory_cgroup: self.cgroups.has_memory(),
                pids_cgroup: self.cgroups.has_pids(),
                namespaces: namespaces && self.network.is_ok(),
                view: false,
            },
        };
        let reading_ends = [reading.0.as_fd(), reading.1.as_fd()];
        let said_ready = protocol::send(self.socket.as_fd(), &ready, &reading_ends).is_ok();
        drop(reading);
        said_ready
            && begun_view.is_none_or(|begun| {
                let reply = match begun {
                    Ok(view) => self.finish_view(view),
                    Err(reply) => reply,
                };
                protocol::send(self.socket.as_fd(), &reply, &[]).is_ok()
            })
    }

    /// Gives the spawner making `view` the network namespace and waits for it: from then on
    /// it starts the judged programs.
    fn finish_view(&mut self, view: View) -> ViewReply {
        let Some(spawner) = self.awaiting_view.take() else {
            return refused("no spawner is making the view".into());
        };
        let network = match &self.network {
            Ok(network) => network,
            Err(why) => {
                spawner.stop();
                return refused(why.clone());
            }
        };
        // Root's programs run as nobody, in a run folder nobody may write to.
        if let Some((uid, gid)) = run_as() {
            if let Err(error) = std::os::unix::fs::chown(&self.workdir, Some(uid), Some(gid)) {
                spawner.stop();
                return refused(format!("the run folder cannot be given to nobody: {error}"));
            }
        }
        match spawner.finish_view(network.as_fd()) {
            Ok(spawner) => {
                let view = ViewScratch::of(spawner.pid(), &self.workdir, &view);
                self.scratch.watch_view(&view);
                self.view = Some(view);
                self.contained = Some(spawner);
                ViewReply {
                    applied: true,
                    refused: None,
                }
            }
            Err(error) => refused(error.to_string()),
        }
    }

    /// Joins the network namespace the keeper makes (sent on `keeper`). A view sent
    /// meanwhile is begun at once, made in parallel rather than as the longest step on a
    /// one-case run's path; its answer is sent after `SlotReady`.
    fn join_network_making_view(
        &mut self,
        keeper: Option<OwnedFd>,
    ) -> Option<Result<View, ViewReply>> {
        let keeper = keeper?;
        let mut begun = None;
        // Anything else the judge sends, or its going, waits for `serve`.
        if self.awaiting_view.is_some()
            && judge_first(&keeper, &self.socket)
            && protocol::next_starts_with(&self.socket, protocol::VIEW)
        {
            begun = Some(match protocol::receive(&self.socket) {
                Ok(Some(message)) => self.begin_view(&message.bytes[protocol::VIEW.len()..]),
                _ => Err(refused("the view could not be read".into())),
            });
        }
        self.network = super::isolation::join_network(keeper);
        begun
    }

    fn clean_up(&mut self) {
        if self.scratch.touched() {
            empty_folder(&self.workdir);
            if self.private_tmp {
                empty_folder(Path::new("/dev/shm"));
            }
            if let Some(view) = &self.view {
                view.empty();
            }
        }
        if let Some(ipc) = &self.ipc {
            ipc.remove();
        }
        self.keyrings.remove();
        self.cgroups.allow_processes();
        self.cgroups.ready_next_run();
    }

    /// The judge has gone or closed the slot: nothing of a run may stay.
    fn finish(&mut self) -> ! {
        let spare = self.spared();
        tree::kill_and_reap_all(self.me, &mut Reaped::default(), None, &spare, &|| {
            self.cgroups.stop_all_but(&spare)
        });
        for spawner in [
            self.spawner.take(),
            self.awaiting_view.take(),
            self.contained.take(),
        ]
        .into_iter()
        .flatten()
        {
            spawner.stop();
        }
        let _ = std::fs::remove_dir_all(&self.workdir);
        self.cgroups.leave_and_remove();
        if let Some(sweep) = self.sweep.take() {
            let _ = sweep.join();
        }
        std::process::exit(0)
    }
}

/// Starts the spawner of runs outside the view at the first of them (see `serve_judge`).
fn started(spawner: &mut Option<Spawner>) -> std::io::Result<&Spawner> {
    if spawner.is_none() {
        *spawner = Some(Spawner::start(None)?);
    }
    Ok(spawner.as_ref().expect("started above"))
}

struct Watchdog {
    reaped: Reaped,
    /// The program's wait status, once reaped.
    main: Option<libc::c_int>,
    exited_at: Option<Instant>,
    start: Instant,
    deadline: Instant,
    /// The latest the backstop waits for a program still computing.
    starved_cap: Instant,
    starved: Duration,
    cpu_cutoff: Duration,
    memory_limit: u64,
    baseline: u64,
    max_resident: u64,
    last_wanted_cpu_ns: u64,
    /// The last tick saw the program computing or waiting for the judge.
    busy_at_last_tick: bool,
    /// The machine's CPU use at the first tick, to tell the run's load at its end.
    load_mark: Option<LoadMark>,
    wall_timeout: bool,
    memory_limit_seen: bool,
    stdout_lent: bool,
    /// The slot cgroup's CPU count and the supervisor's own at the start, where there is one.
    cpu_mark: Option<(Duration, Duration)>,
    /// The processes' CPU times at the last tick, and what was reaped by then: for what
    /// processes the kernel reaped took with them (`tree::lost_cpu`).
    last_tick: (Vec<tree::ProcessCpu>, Duration),
    lost_cpu: Duration,
    /// The most a tick saw: the tree used that much, whatever its end takes away (a child
    /// the kernel reaps as the run is killed).
    cpu_seen: Duration,
}

impl Watchdog {
    /// The report of the ended run: `peak` bytes at most, against `limit`; its CPU time
    /// the slot cgroup's count where that shows more than the processes' own figures.
    fn report(&self, (peak, limit): (u64, u64), cgroups: &Cgroups) -> RunReport {
        let start = self.start;
        let status = self.main.unwrap_or(0);
        let counted = (self.reaped.cpu_time + self.lost_cpu).max(self.cpu_seen);
        let cpu = with_hidden_cpu(counted, self.tree_cpu(cgroups));
        let signaled = libc::WIFSIGNALED(status);
        RunReport {
            spawn_errno: None,
            exit_code: (!signaled).then(|| libc::WEXITSTATUS(status)),
            signal: signaled.then(|| libc::WTERMSIG(status)),
            cpu_time_us: cpu.as_micros() as u64,
            wall_time_us: (self.exited_at.unwrap_or_else(Instant::now) - start).as_micros() as u64,
            peak_memory_bytes: peak,
            wall_timeout: self.wall_timeout,
            memory_limit_seen: self.memory_limit_seen || peak > limit,
            starved_ms: self.starved.as_millis() as u64,
            load: self
                .load_mark
                .as_ref()
                .and_then(|mark| mark.load_until_now(start, self.reaped.cpu_time)),
            slot_ends: false,
        }
    }

    /// The run's tree's CPU time by the slot's cgroup, the supervisor's share taken out.
    fn tree_cpu(&self, cgroups: &Cgroups) -> Duration {
        let Some(((slot, own), now)) = self.cpu_mark.zip(cgroups.cpu_usage()) else {
            return Duration::ZERO;
        };
        (now.saturating_sub(slot)).saturating_sub(own_cpu_time().saturating_sub(own))
    }

    /// `cpu_mark`: the slot cgroup's CPU count and the supervisor's own at `start`.
    fn new(
        request: &Request,
        start: Instant,
        (baseline, cpu_mark): (u64, Option<(Duration, Duration)>),
    ) -> Watchdog {
        let cpu_limit = Duration::from_millis(request.cpu_time_ms);
        let wall = Duration::from_millis(request.wall_timeout_ms);
        Watchdog {
            reaped: Reaped::default(),
            main: None,
            exited_at: None,
            start,
            deadline: start + wall,
            starved_cap: start + wall + (cpu_limit * STARVED_WAIT_FACTOR).max(MIN_STARVED_WAIT),
            starved: Duration::ZERO,
            // RLIMIT_CPU acts only on whole seconds, per process.
            cpu_cutoff: Duration::from_millis(request.cpu_cutoff_ms),
            memory_limit: request.memory_bytes,
            baseline,
            max_resident: 0,
            last_wanted_cpu_ns: 0,
            busy_at_last_tick: false,
            load_mark: None,
            wall_timeout: false,
            memory_limit_seen: false,
            stdout_lent: request.stdout_lent,
            cpu_mark,
            last_tick: (Vec::new(), Duration::ZERO),
            lost_cpu: Duration::ZERO,
            cpu_seen: Duration::ZERO,
        }
    }

    /// Until the program exits, passes a limit, or the judge asks to stop or goes.
    fn until_end(&mut self, supervisor: &mut Supervisor, pid: libc::pid_t) -> Ended {
        let Ok(pidfd) = rustix::process::pidfd_open(
            rustix::process::Pid::from_raw(pid).expect("spawn returns a real pid"),
            rustix::process::PidfdFlags::empty(),
        ) else {
            return Ended::Exited;
        };
        let mut next_tick = self.start + TICK;
        loop {
            let now = Instant::now();
            let wake = next_tick.min(self.deadline.max(now));
            let timeout = wake.saturating_duration_since(now);
            let (exited, message) = wait_for(pidfd.as_fd(), supervisor.socket.as_fd(), timeout);
            if message {
                match protocol::receive(&supervisor.socket) {
                    Ok(Some(message)) if message.bytes == protocol::STOP => return Ended::Stopped,
                    Ok(Some(_)) => {}
                    _ => return Ended::JudgeGone,
                }
            }
            if exited {
                self.exited_at = Some(Instant::now());
                if let Some((_, status)) = tree::reap(pid, true, &mut self.reaped) {
                    self.main = Some(status);
                }
                return Ended::Exited;
            }
            // Orphans that ended meanwhile; the program too, if it ended after the poll.
            while let Some((reaped, status)) = tree::reap(-1, false, &mut self.reaped) {
                if reaped == pid {
                    self.main = Some(status);
                    self.exited_at = Some(Instant::now());
                    return Ended::Exited;
                }
            }
            let now = Instant::now();
            if now >= next_tick || now >= self.deadline {
                next_tick = now + TICK;
                if self.over_a_limit(supervisor, now) {
                    return Ended::Stopped;
                }
            }
        }
    }

    /// Reads the tree's figures; true when the run must stop now.
    fn over_a_limit(&mut self, supervisor: &mut Supervisor, now: Instant) -> bool {
        let counts_shared = !supervisor.cgroups.has_memory();
        let mut snapshot = tree::snapshot(supervisor.me, &supervisor.spared(), counts_shared);
        let (last, reaped) = std::mem::take(&mut self.last_tick);
        let reaped_meanwhile = self.reaped.cpu_time.saturating_sub(reaped);
        self.lost_cpu += tree::lost_cpu(&last, &snapshot.processes, reaped_meanwhile);
        let cpu = self.reaped.cpu_time + snapshot.cpu_time() + self.lost_cpu;
        self.last_tick = (
            std::mem::take(&mut snapshot.processes),
            self.reaped.cpu_time,
        );
        self.cpu_seen = self.cpu_seen.max(cpu);
        let cpu = with_hidden_cpu(cpu, self.tree_cpu(&supervisor.cgroups));
        // Only a run that lasts a tick can near a time limit: shorter ones need no mark.
        if self.load_mark.is_none() {
            self.load_mark = LoadMark::now(cpu);
        }
        // The peak, not the charge now: an OOM kill frees memory, and what stays (tmpfs
        // files) may be below the limit.
        let resident = match supervisor.cgroups.memory_peak() {
            Some(peak) => peak.saturating_sub(self.baseline),
            // Shared memory is seen twice, held (files, memfds) and mapped; either may hide
            // from the other's count, and what is both must not count twice: the larger.
            None => {
                let held = snapshot.memfd_bytes + supervisor.held_outside_processes();
                snapshot.resident_bytes + held.max(snapshot.mapped_shmem_bytes)
            }
        };
        self.max_resident = self.max_resident.max(resident);
        self.memory_limit_seen |= resident > self.memory_limit;
        // Runnable, or ran or waited for a CPU since the last tick: starved, not idle (CPU
        // time alone moves in ticks too coarse under load).
        let computing = snapshot.runnable || snapshot.wanted_cpu_ns > self.last_wanted_cpu_ns;
        self.last_wanted_cpu_ns = snapshot.wanted_cpu_ns;
        if cpu > self.cpu_cutoff || self.memory_limit_seen {
            return true;
        }
        let busy = computing || supervisor.output_waits_for_judge(self.stdout_lent);
        // Idle only when seen idle twice: the readings are not atomic, and a judge draining
        // the pipe between them leaves a writer not yet run beside a pipe no longer full.
        let busy_lately = std::mem::replace(&mut self.busy_at_last_tick, busy) || busy;
        if now >= self.deadline {
            if busy_lately && now < self.starved_cap {
                // Starved, or waiting for a starved judge: its CPU time will decide.
                self.starved = now - self.deadline;
                return false;
            }
            self.wall_timeout = true;
            return true;
        }
        false
    }
}

/// The supervisor's own CPU time (its threads', not its children's): what of the slot's
/// cgroup count is not the run's.
fn own_cpu_time() -> Duration {
    // SAFETY: a rusage is plain integers, for which all zeroes is a value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes the struct it is given, which lives through the call.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    tree::timeval(usage.ru_utime) + tree::timeval(usage.ru_stime)
}

/// The cgroup's count of the run's tree where it shows CPU time that the processes' own
/// figures (`counted`) miss: children the kernel reaped itself (the program ignores
/// `SIGCHLD`) are in no one's. Else `counted`: the spawners' share stays out of an honest
/// run's time.
fn with_hidden_cpu(counted: Duration, tree: Duration) -> Duration {
    let slack = (counted / 10).max(Duration::from_millis(50));
    match tree > counted + slack {
        true => tree,
        false => counted,
    }
}

/// Polls the program's pidfd and the judge's socket: (exited, a message or EOF is there).
fn wait_for(pidfd: BorrowedFd, socket: BorrowedFd, timeout: Duration) -> (bool, bool) {
    let mut fds = [
        PollFd::new(&pidfd, PollFlags::IN),
        PollFd::new(&socket, PollFlags::IN),
    ];
    let timeout = rustix::time::Timespec {
        tv_sec: timeout.as_secs() as i64,
        tv_nsec: timeout.subsec_nanos() as i64,
    };
    match rustix::event::poll(&mut fds, Some(&timeout)) {
        Ok(_) => (!fds[0].revents().is_empty(), !fds[1].revents().is_empty()),
        Err(_) => (false, false),
    }
}

fn spawn_failure(error: &std::io::Error) -> RunReport {
    RunReport {
        spawn_errno: Some(error.raw_os_error().unwrap_or(libc::EINVAL)),
        ..RunReport::default()
    }
}

/// A run's rlimits. Memory is enforced on what is resident (cgroup or watchdog); the
/// address-space cap is a loose backstop without a memory cgroup, high enough that a pool of
/// threads with full-size stacks never meets it.
fn rlimits(request: &Request, memory_cgroup: bool, processes: Option<u64>) -> Vec<Rlimit> {
    // SIGXCPU at the first whole second past the limit, SIGKILL a second later, even for a
    // loop that ignores SIGXCPU.
    let cpu_seconds = request.cpu_time_ms.div_ceil(1000) + 1;
    let stack = request.stack_bytes.min(stack_ceiling());
    let file_bytes = request.output_bytes.max(request.memory_bytes);
    let mut limits = vec![
        (libc::RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1)),
        (libc::RLIMIT_STACK, (stack, stack)),
        // Files written (stdout is a pipe, capped by the judge): a file may be as large as
        // what the run may hold in memory or print, so that a file on tmpfs meets the memory
        // limit (MLE) and a program's scratch file is not held to the output limit.
        (libc::RLIMIT_FSIZE, (file_bytes, file_bytes)),
        (libc::RLIMIT_CORE, (0, 0)),
    ];
    if request.address_space_backstop && !memory_cgroup {
        let backstop = request
            .memory_bytes
            .saturating_mul(4)
            .saturating_add(stack.saturating_mul(16))
            .saturating_add(1 << 30);
        limits.push((libc::RLIMIT_AS, (backstop, backstop)));
    }
    if let Some(tasks) = processes {
        limits.push((libc::RLIMIT_NPROC, (tasks, tasks)));
    }
    limits
}

/// The most stack a run may be given: only root may raise a hard limit, so another user's
/// runs get at most the hard limit the supervisor has. Asked once.
fn stack_ceiling() -> u64 {
    static CEILING: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *CEILING.get_or_init(|| {
        let hard = rustix::process::getrlimit(rustix::process::Resource::Stack).maximum;
        match rustix::process::getuid().is_root() {
            true => u64::MAX,
            false => hard.unwrap_or(u64::MAX),
        }
    })
}

fn sweep_when_idle(bases: &[PathBuf]) {
    become_idle();
    sweep(bases)
}

/// The idle policy: the calling thread runs only on CPU time nobody else wants.
fn become_idle() {
    let idle = libc::sched_param { sched_priority: 0 };
    // SAFETY: sets the calling thread's own policy from a local parameter.
    unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &idle) };
}

/// `nobody`/`nogroup`, for root's judged programs: owns no file, reads what everybody may.
const NOBODY: u32 = 65534;

/// Waits until the keeper or the judge has something to say: whether the judge spoke first.
fn judge_first(keeper: &OwnedFd, judge: &OwnedFd) -> bool {
    loop {
        let mut fds = [
            PollFd::new(keeper, PollFlags::IN),
            PollFd::new(judge, PollFlags::IN),
        ];
        match rustix::event::poll(&mut fds, None) {
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return false,
            Ok(_) => return fds[0].revents().is_empty(),
        }
    }
}

fn refused(why: String) -> ViewReply {
    ViewReply {
        applied: false,
        refused: Some(why),
    }
}

/// Why the slot cannot take a view, if so: it needs a mount namespace of its own and an
/// unthreaded supervisor (`threaded`), as a spawner is forked for it.
fn why_no_view(isolation: &Isolation, threaded: bool) -> Option<&'static str> {
    if !isolation.namespaces || !isolation.private_shm {
        return Some("no mount namespace of its own");
    }
    threaded.then_some("the supervisor has a thread")
}

/// Whom judged programs run as, if not the judge's user: root's as nobody.
/// A process's resource limits (soft and hard), nice value and scheduling policy: what
/// another process of its user may change.
#[derive(Debug, PartialEq, Eq)]
struct Settings([(u64, u64); 16], libc::c_int, libc::c_int);

/// `pid` 0: this process.
fn settings_of(pid: libc::pid_t) -> Settings {
    let mut limits = [(0, 0); 16];
    for (resource, limit) in limits.iter_mut().enumerate() {
        let mut value = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: prlimit writes only the struct it is given, which lives through the call.
        #[allow(clippy::unnecessary_cast)]
        let read = unsafe {
            libc::prlimit(
                pid,
                resource as libc::__rlimit_resource_t,
                std::ptr::null(),
                &mut value,
            )
        };
        if read == 0 {
            *limit = (value.rlim_cur, value.rlim_max);
        }
    }
    // SAFETY: a plain system call; -1 (an error, or nice -1) reads alike every time.
    let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, pid as libc::id_t) };
    // SAFETY: a plain system call.
    let policy = unsafe { libc::sched_getscheduler(pid) };
    Settings(limits, nice, policy)
}

fn run_as() -> Option<(u32, u32)> {
    rustix::process::getuid()
        .is_root()
        .then_some((NOBODY, NOBODY))
}

/// The judged programs' spawner, forked to make a view in `workdir`.
fn start_contained(workdir: &Path) -> std::io::Result<Spawner> {
    Spawner::start(Some(&Contained {
        workdir,
        run_as: run_as(),
    }))
}

/// Prefix of every run folder, followed by the judge's pid and the supervisor's.
const RUN_FOLDER_PREFIX: &str = "judge-run-";

/// Removes the cgroups and run folders of judges no longer running.
fn sweep(cgroup_bases: &[PathBuf]) {
    super::cgroup::sweep(cgroup_bases);
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        if tree::left_by_a_dead_judge(&entry.file_name(), RUN_FOLDER_PREFIX) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// `judge-run-OWNER-SLOT` in the temporary folder (`SLOT`: the supervisor's machine pid).
fn make_workdir(owner: u32, slot: u32) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = std::env::temp_dir().join(format!("{RUN_FOLDER_PREFIX}{owner}-{slot}"));
    std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
    Ok(dir)
}

/// Empties `dir`, staying on its file system: a mount point below it (the run folder or the
/// build cache bound into a view's `/tmp`) stays, with the folders on the way.
/// Copies what `from` holds, folders and all, into the run folder, owned as that folder is so
/// that the program may change it. A link stays a link: what it points to outside is not the
/// program's to read.
fn copy_case_files(from: &Path, workdir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let owner = std::fs::metadata(workdir)?;
    let give = owner.uid() != rustix::process::geteuid().as_raw();
    for entry in walkdir::WalkDir::new(from).min_depth(1) {
        let entry = entry.map_err(std::io::Error::from)?;
        let Ok(relative) = entry.path().strip_prefix(from) else {
            continue;
        };
        let to = workdir.join(relative);
        let kind = entry.file_type();
        if kind.is_dir() {
            std::fs::create_dir(&to)?;
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path())?, &to)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &to)?;
        } else {
            // A pipe would hold the copy, and so the run, forever.
            let what = format!("{}: not a file, folder or link", entry.path().display());
            return Err(std::io::Error::other(what));
        }
        if give {
            std::os::unix::fs::lchown(&to, Some(owner.uid()), Some(owner.gid()))?;
        }
    }
    Ok(())
}

fn empty_folder(dir: &Path) {
    use std::os::unix::fs::MetadataExt;
    if let Ok(folder) = std::fs::metadata(dir) {
        empty_on(dir, folder.dev());
    }
}

/// Whether all of `dir` on `device` went.
fn empty_on(dir: &Path, device: u64) -> bool {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut all = true;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(found) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if found.dev() != device {
            all = false;
            continue;
        }
        let gone = match found.is_dir() {
            true => {
                // Reopened to its owner, if the program closed it.
                let mode = found.permissions().mode();
                if mode & 0o700 != 0o700 {
                    let opened = std::fs::Permissions::from_mode(mode | 0o700);
                    let _ = std::fs::set_permissions(&path, opened);
                }
                empty_on(&path, device) && std::fs::remove_dir(&path).is_ok()
            }
            false => std::fs::remove_file(&path).is_ok(),
        };
        all &= gone;
    }
    all
}
