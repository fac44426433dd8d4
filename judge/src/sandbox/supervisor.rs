//! The supervisor: the judge's own binary started again as a small process of its own, which
//! runs the programs of one slot, one at a time, for as long as the judge lives.
//!
//! Why a process apart from the judge:
//! - its figures are the program's own: the judge's memory never folds into them;
//! - it is a child subreaper, so every orphan of a run is re-parented to it, and it kills and
//!   reaps the whole tree when the program ends (no double fork or `setsid` escapes, with or
//!   without cgroups), counting the CPU time of all of it;
//! - it sits in the slot's cgroups, so programs are born inside them, with no move per run;
//! - it dies with the judge: when the judge's end of the socket closes (an exit, a crash,
//!   SIGKILL) it kills the run, removes its working folder and exits, and a program dies with
//!   it even if it is killed itself (`PR_SET_PDEATHSIG`).

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags};

use super::cgroup::Cgroups;
use super::load::LoadMark;
use super::namespaces::{Entered, Isolation};
use super::protocol::{self, Ready, Request, RunReport, ViewReply};
use super::spawner::{Contained, SpawnRequest, Spawner};
use super::tree::{self, Reaped};
use super::view::View;
use super::Containment;
use super::Rlimit;

/// The first argument that makes the judge's binary a supervisor.
pub const ARGUMENT: &str = "--internal-supervisor";

/// Set in the environment of the supervisor that sweeps what earlier judges left.
pub(super) const SWEEP: &str = "JUDGE_SWEEP";

/// How often the watchdog reads the tree's CPU time and memory while a program runs.
const TICK: Duration = Duration::from_millis(100);

/// Past the wall-clock backstop, a program that is still computing (a starved one on a busy
/// machine), or that waits for the judge to read its output, is waited for, up to this many
/// times its CPU time limit (and at least `MIN_STARVED_WAIT`): its CPU time decides, not the
/// machine's load.
const STARVED_WAIT_FACTOR: u32 = 10;
const MIN_STARVED_WAIT: Duration = Duration::from_secs(30);

/// The hard memory limit of the cgroup stands this far above the run's limit, so that a run
/// over its limit is seen over it (and classified MLE) before the OOM killer stops it.
fn memory_margin(limit: u64) -> u64 {
    limit / 16 + (4 << 20)
}

/// The supervisor's life, as a process of its own binary: the judge passes the socket as
/// stdin, its pid as `JUDGE_OWNER`, and `JUDGE_SWEEP` to the first supervisor.
pub fn main() -> ! {
    // The socket moves to a descriptor that its programs do not inherit.
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

/// Cuts the supervisor's ties to the judge's terminal and session, and makes it the run's
/// subreaper, which the OOM killer spares.
fn detach_from_judge() {
    // Standard input and output are /dev/null: nothing of the judge's terminal or pipes.
    if let Ok(null) = std::fs::File::open("/dev/null") {
        for standard in [0, 1] {
            // SAFETY: replaces a standard descriptor, which std's handles refer to by number.
            unsafe { libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&null), standard) };
        }
    }
    // A session of its own: the terminal's Ctrl-C goes to the judge, which decides.
    let _ = rustix::process::setsid();
    let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    // The judge gone means this process must clean up and go too: noticed when the judge's
    // end of the socket closes. (Not PR_SET_PDEATHSIG: it fires when the judge *thread* that
    // started the supervisor ends, and pool threads come and go.)
    // The OOM killer must pick the program, never the one who reports it.
    // Also lowered where the machine allows it (root with CAP_SYS_RESOURCE).
    let _ = std::fs::write("/proc/self/oom_score_adj", "-1000");
}

/// The supervisor's spawners: the one of runs outside the view (builds, checkers), when it
/// gets a thread, and the one of the programs being judged, where the slot can take a view.
fn start_spawners(
    isolation: &Isolation,
    gets_a_thread: bool,
    workdir: &Path,
) -> (Option<Spawner>, Option<Spawner>) {
    // The spawner of the runs outside the view (builds, checkers) forks, so it is started
    // now, before the thread that a sweeping supervisor outside namespaces starts. Every
    // other supervisor stays single-threaded and starts it at the first such run: a run
    // that builds nothing needs none, and its start would be on a one-case run's path.
    let spawner = match gets_a_thread.then(|| Spawner::start(None)) {
        None => None,
        Some(Ok(spawner)) => Some(spawner),
        Some(Err(_)) => {
            let _ = std::fs::remove_dir_all(workdir);
            std::process::exit(1)
        }
    };
    // The spawner of the programs being judged is forked now, where the slot can take a view,
    // so that it readies its loop while the judge sends the view (see `Spawner::start`).
    let awaiting_view = why_no_view(isolation, gets_a_thread)
        .is_none()
        .then(|| {
            Spawner::start(Some(&Contained {
                workdir,
                run_as: run_as(),
            }))
        })
        .and_then(Result::ok);
    (spawner, awaiting_view)
}

/// The keeper's life, outside the slot's namespaces: it leaves the slot's groups to the
/// supervisor (which removes them when it ends) before its first run can start, makes the
/// slot's network namespace on another CPU, then gives way for good: yielding once at normal
/// policy, it could take the CPU back from the supervisor while the first run starts. The
/// sweep of what earlier judges left (`sweep_bases`, where this slot sweeps) waits for idle
/// CPU time.
fn keep_slot(
    cgroups: &Cgroups,
    network: OwnedFd,
    program_cpus: Option<&[usize]>,
    (socket, supervisor): (std::os::fd::RawFd, libc::pid_t),
    sweep_bases: Option<&[PathBuf]>,
) -> ! {
    cgroups.leave();
    super::namespaces::make_network(network, program_cpus);
    become_idle();
    std::thread::yield_now();
    super::namespaces::keep(socket, supervisor, || {
        if let Some(bases) = sweep_bases {
            sweep(bases);
        }
    })
}

/// The supervisor's life: set up, say `Ready`, run requests until the judge goes.
pub(super) fn serve_judge(
    socket: OwnedFd,
    owner: u32,
    sweeps: bool,
    program_cpus: Option<Vec<usize>>,
) -> ! {
    detach_from_judge();
    let sweep_bases = super::cgroup::bases(owner);
    let cgroups = Cgroups::create(owner);
    // This process's pid on the machine: inside a PID namespace the supervisor is 1.
    let slot = std::process::id();
    // Made before the keeper (which sweeps the temporary folder) is forked: the sweep's read
    // of that folder can wait for the disk, and this `mkdir` in it would wait with it, on the
    // first run's path.
    let Ok(workdir) = make_workdir(owner, slot) else {
        std::process::exit(1)
    };
    let socket_fd = std::os::fd::AsRawFd::as_raw_fd(&socket);
    let (isolation, network) = match super::namespaces::enter() {
        Entered::Inside(isolation, network) => (isolation, network),
        Entered::Keeper {
            supervisor,
            network,
        } => keep_slot(
            &cgroups,
            network,
            program_cpus.as_deref(),
            (socket_fd, supervisor),
            sweeps.then_some(&sweep_bases[..]),
        ),
    };
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
    let (spawner, awaiting_view) = start_spawners(&isolation, gets_a_thread, &workdir);
    let mut supervisor = Supervisor {
        sweep: None,
        spawner,
        awaiting_view,
        contained: None,
        view: None,
        // Joined before Ready, where the slot has a keeper to make it.
        network: Err("no network namespace of its own".to_owned()),
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
        // What judges that are no longer running left behind, swept beside the runs: here
        // rather than in the judge, as reading cgroup folders waits while a cgroup move is
        // under way, and patiently, as a killed run's cgroup is busy until it is reaped.
        // Only the judge's first supervisor sweeps, and only with CPU time nobody else wants:
        // the runs come first.
        // (Its keeper did it, where there is one: it sees the machine's processes.)
        if sweeps && !isolation.kept {
            supervisor.sweep = Some(std::thread::spawn(move || sweep_when_idle(&sweep_bases)));
        }
        supervisor.serve();
    }
    supervisor.finish()
}

/// The run's standard input (its file, or the first descriptor lent) and the standard output
/// lent with it, if any; an error where the judge lent other descriptors than it said.
fn stdio_of(request: &Request, lent: Vec<OwnedFd>) -> std::io::Result<(OwnedFd, Option<OwnedFd>)> {
    let mut lent = lent.into_iter();
    let stdin = match &request.stdin_path {
        Some(path) => Some(OwnedFd::from(std::fs::File::open(path)?)),
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
    /// The sweep of what earlier judges left, finished before this supervisor exits.
    sweep: Option<std::thread::JoinHandle<()>>,
    /// Starts the programs outside the view; made at the first such run (see `serve_judge`).
    spawner: Option<Spawner>,
    /// The spawner that starts the programs being judged, before it has its view.
    awaiting_view: Option<Spawner>,
    /// Starts the programs being judged, in their view, once the judge gave one.
    contained: Option<Spawner>,
    /// The writable folders of its view.
    view: Option<ViewScratch>,
    /// The slot's network namespace, which this process is in, for the spawner of the
    /// programs being judged, forked before it came (see `join_network`); or why there is none.
    network: Result<OwnedFd, String>,
    isolation: Isolation,
    /// This process's pid, asked for once.
    me: u32,
    socket: OwnedFd,
    cgroups: Cgroups,
    workdir: PathBuf,
    private_tmp: bool,
    scratch: ScratchWatch,
    /// The writing ends of the slot's output pipes, every run's standard output (unless the
    /// judge lends another) and standard error.
    stdout: OwnedFd,
    stderr: OwnedFd,
}

/// Tells whether a run may have left something in the working folder or the private
/// `/dev/shm` (and the view's `/tmp` and `/dev/shm`): an inotify watch on each for a name
/// made in them (created, linked or moved in; what is made deeper needs a folder made there
/// first). Reading an empty folder after every run was a sixth of the supervisor's time per
/// run; one read of the watch replaces it.
struct ScratchWatch(Option<OwnedFd>);

/// The folders of a view that its programs may write to, as this process reaches them
/// (through `/proc/PID/root` of the spawner that has the view), and the mount points in
/// them (the run folder, a kept folder under `/tmp`), as reached the same way.
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

    /// The folders an inotify watch must see names made in: the two, and those on the way
    /// to a mount point in them (made by the spawner; a program may write beside it).
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
        // Without a watch, the folders are read after every run.
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

/// The slot's two output pipes, made once: (reading end, writing end) each.
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

/// Why the watch loop ended.
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
            if protocol::send(self.socket.as_fd(), &report, &[]).is_err() {
                return;
            }
            // After the report, while the judge reads it: the clean-up and the next run's
            // set-up are off the run's path.
            self.clean_up();
        }
    }

    /// The run's peak memory: the cgroup's charge above `baseline` where there is one, else
    /// the watchdog's samples, and at least the largest process's own peak. The cgroup counts
    /// in whole batches of pages and sees shared memory; `ru_maxrss` is exact for one process:
    /// the larger of them.
    fn peak_of(&mut self, watch: &Watchdog, baseline: u64) -> u64 {
        let charged = self
            .cgroups
            .memory_peak()
            .map(|peak| peak.saturating_sub(baseline));
        // Without a memory cgroup the watchdog's ticks may all have missed a run that wrote
        // its files and exited between two of them: what it left in the slot's own folders
        // (emptied only after this) is read now, once every process of it is gone.
        let left = match charged {
            Some(_) => 0,
            None => self.shared_files_bytes(),
        };
        charged
            .unwrap_or(watch.max_resident)
            .max(watch.reaped.max_resident_bytes)
            .max(left)
    }

    /// Pins this process to `cpu`, and the spawners with it: they follow wherever it moves.
    fn move_to(&self, cpu: usize) {
        if super::placement::pin_this_thread(cpu) {
            for spawner in self.spawners() {
                super::placement::pin_process(spawner, cpu);
            }
        }
    }

    /// The run folder's `dev` link to `/dev`, there when the run is `wanted` it.
    fn link_dev(&mut self, wanted: bool) {
        // The link stays from run to run: made, it set off the watch, and every run's folders
        // were read and emptied (an eighth of the judge's time on a thousand tiny cases).
        // No program runs between runs, so what the watch saw since the last clean-up is
        // this link alone. A run that does not ask for it does not get it.
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
        let (stdin, stdout) = match stdio_of(request, lent) {
            Ok(stdio) => stdio,
            Err(error) => return Some(spawn_failure(&error)),
        };
        // A program may have changed the shared pipes' status flags (O_NONBLOCK would make the
        // next one's writes fail): each run starts from none.
        for pipe in [&self.stdout, &self.stderr] {
            let _ = rustix::fs::fcntl_setfl(pipe, rustix::fs::OFlags::empty());
        }
        let limit = request.memory_bytes;
        let hard_limit = limit.saturating_add(memory_margin(limit));
        let baseline = self.cgroups.start_run(hard_limit);
        let contained = request.contained && self.contained.is_some();
        let processes = match self.cgroups.has_pids() {
            true => None,
            false => self.process_limit(contained),
        };
        let rlimits = rlimits(request, self.cgroups.has_memory(), processes);
        self.link_dev(request.dev_in_run_folder);
        let spawn = SpawnRequest {
            argc: request.argc,
            envc: request.envc,
            strings,
            cwd: self.workdir.as_os_str().as_encoded_bytes(),
            rlimits: &rlimits,
            // Above the cgroup's hard limit: a program that fills its `/tmp` is stopped as
            // over its memory limit, not by a full folder.
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
            // The spawner is gone: this supervisor can run nothing more.
            Err(_) => return None,
        };
        // Only the program may hold what the judge lent now: a pipe ends when it is gone.
        drop((stdin, stdout));
        let mut watch = Watchdog::new(request, start, baseline);
        let ended = watch.until_end(self, pid);
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
        let peak = self.peak_of(&watch, baseline);
        if matches!(ended, Ended::JudgeGone) {
            return None;
        }
        Some(watch.report(start, peak, limit))
    }

    /// Whether one of the slot's output pipes is more than half full: a program blocked
    /// writing to it waits for the judge to read (a judge kept from a CPU by the machine's
    /// load), and is not idle. A pipe the judge lent is not looked at: it may be another
    /// program's input, which that program may never read.
    fn output_waits_for_judge(&self, stdout_lent: bool) -> bool {
        let slot_pipes = [(!stdout_lent).then_some(&self.stdout), Some(&self.stderr)];
        slot_pipes.into_iter().flatten().any(|pipe| {
            let unread = rustix::io::ioctl_fionread(pipe).unwrap_or(0);
            let size = rustix::pipe::fcntl_getpipe_size(pipe).unwrap_or(usize::MAX);
            unread.saturating_mul(2) > size as u64
        })
    }

    /// What the slot's runs hold in memory outside any process, where no memory cgroup
    /// counts it: the files of the private `/dev/shm` and of the view's `/tmp` and `/dev/shm`
    /// (emptied after every run, so all of it is the run's), and the System V shared memory
    /// of the slot's own IPC namespace.
    fn shared_files_bytes(&self) -> u64 {
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
            true => system_v_shared_bytes(),
            false => 0,
        };
        in_files + system_v
    }

    /// Without a pids cgroup, RLIMIT_NPROC caps a run's tasks; `None` where it cannot (it does
    /// not bind root). It counts the tasks of the run's user: in the slot's own user
    /// namespace (Linux 5.14 on counts per namespace) those are the run's and the slot's
    /// three, the same cap as the pids cgroup's; elsewhere all of the user's, so it is set
    /// above what the user already runs.
    fn process_limit(&self, contained: bool) -> Option<u64> {
        let uid = match contained && rustix::process::getuid().is_root() {
            true => NOBODY,
            false => rustix::process::getuid().as_raw(),
        };
        if uid == 0 {
            return None;
        }
        if self.isolation.user_namespace && counts_tasks_per_user_namespace() {
            return Some(super::cgroup::PIDS_MAX);
        }
        let owned = std::fs::read_dir("/proc")
            .ok()?
            .filter_map(|entry| std::fs::metadata(entry.ok()?.path()).ok())
            .filter(|metadata| std::os::unix::fs::MetadataExt::uid(metadata) == uid)
            .count() as u64;
        Some(owned + 8 * super::cgroup::MAX_TASKS)
    }

    /// The pids of the spawners.
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

    /// The processes below this one that are not a run's: the spawners (and this one).
    fn spared(&self) -> Vec<u32> {
        let mut spared = self.spawners();
        spared.push(self.me);
        spared
    }

    /// Starts the spawner of the programs being judged, in `view` (JSON), where the slot
    /// has the namespaces for it and is still single-threaded (it forks).
    fn take_view(&mut self, view: &[u8]) -> ViewReply {
        match self.begin_view(view) {
            Ok(view) => self.finish_view(view),
            Err(reply) => reply,
        }
    }

    /// Has the spawner of the programs being judged start making `view` (JSON), which
    /// `finish_view` completes; `Err` is the answer to give at once.
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
            None => Spawner::start(Some(&Contained {
                workdir: &self.workdir,
                run_as: run_as(),
            }))
            .map_err(|error| refused(error.to_string()))?,
        };
        // Kept where `spawners` and `finish` find it while it makes the view.
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

    /// Says `Ready` with the slot's containment and hands the judge the output pipes' reading
    /// ends, then answers the view begun before. Whether the judge heard it all.
    fn say_ready(
        &mut self,
        namespaces: bool,
        reading: (OwnedFd, OwnedFd),
        begun_view: Option<Result<View, ViewReply>>,
    ) -> bool {
        // A slot that cannot have a network namespace says it has no namespaces, and takes no view.
        let ready = Ready {
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
        // The judge holds the reading ends now; this process keeps the writing ends only.
        drop(reading);
        // The view begun before, answered after Ready, where the judge reads its answer.
        said_ready
            && begun_view.is_none_or(|begun| {
                let reply = match begun {
                    Ok(view) => self.finish_view(view),
                    Err(reply) => reply,
                };
                protocol::send(self.socket.as_fd(), &reply, &[]).is_ok()
            })
    }

    /// Gives the spawner that is making `view` the slot's network namespace, and waits for
    /// it: from then on it starts the programs being judged.
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

    /// Joins the network namespace that the keeper makes (sent on `keeper`, where the slot
    /// has one). A view the judge sends meanwhile is begun at once, so that the spawner makes
    /// it while the keeper makes the namespace: made after the namespace had come, the view
    /// would be the longest step on a one-case run's path. Returns the begun view, whose
    /// answer the judge reads after `Ready`.
    fn join_network_making_view(
        &mut self,
        keeper: Option<OwnedFd>,
    ) -> Option<Result<View, ViewReply>> {
        let keeper = keeper?;
        let mut begun = None;
        // Whatever else the judge sends waits for `serve`, as does the judge's going.
        if self.awaiting_view.is_some()
            && judge_first(&keeper, &self.socket)
            && protocol::next_starts_with(&self.socket, protocol::VIEW)
        {
            begun = Some(match protocol::receive(&self.socket) {
                Ok(Some(message)) => self.begin_view(&message.bytes[protocol::VIEW.len()..]),
                _ => Err(refused("the view could not be read".into())),
            });
        }
        self.network = super::namespaces::join_network(keeper);
        begun
    }

    /// Readies the slot for the next run: empties the working folder and the private
    /// temporary folders, allows processes again, and starts the memory cgroup's next count.
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

/// The spawner of the runs outside the view, started at the first of them (see `serve_judge`:
/// the supervisor has no thread then).
fn started(spawner: &mut Option<Spawner>) -> std::io::Result<&Spawner> {
    if spawner.is_none() {
        *spawner = Some(Spawner::start(None)?);
    }
    Ok(spawner.as_ref().expect("started above"))
}

/// The watch over one running program.
struct Watchdog {
    reaped: Reaped,
    /// The program's wait status, once reaped.
    main: Option<libc::c_int>,
    exited_at: Option<Instant>,
    start: Instant,
    deadline: Instant,
    /// The latest the backstop waits for a program that is still computing.
    starved_cap: Instant,
    starved: Duration,
    cpu_cutoff: Duration,
    memory_limit: u64,
    baseline: u64,
    max_resident: u64,
    /// The tree's `wanted_cpu_ns` at the last tick.
    last_wanted_cpu_ns: u64,
    /// The last tick saw the program computing or waiting for the judge.
    busy_at_last_tick: bool,
    /// The machine's CPU use at the first tick, to tell the run's load at its end.
    load_mark: Option<LoadMark>,
    wall_timeout: bool,
    memory_limit_seen: bool,
    /// The program's stdout is a pipe the judge lent, not the slot's.
    stdout_lent: bool,
}

impl Watchdog {
    /// What the run left, once it ended: `peak` bytes at most, against `limit`.
    fn report(&self, start: Instant, peak: u64, limit: u64) -> RunReport {
        let status = self.main.unwrap_or(0);
        let signaled = libc::WIFSIGNALED(status);
        RunReport {
            spawn_errno: None,
            exit_code: (!signaled).then(|| libc::WEXITSTATUS(status)),
            signal: signaled.then(|| libc::WTERMSIG(status)),
            cpu_time_us: self.reaped.cpu_time.as_micros() as u64,
            wall_time_us: (self.exited_at.unwrap_or_else(Instant::now) - start).as_micros() as u64,
            peak_memory_bytes: peak,
            wall_timeout: self.wall_timeout,
            memory_limit_seen: self.memory_limit_seen || peak > limit,
            starved_ms: self.starved.as_millis() as u64,
            load: self
                .load_mark
                .as_ref()
                .and_then(|mark| mark.load_until_now(start, self.reaped.cpu_time)),
        }
    }

    fn new(request: &Request, start: Instant, baseline: u64) -> Watchdog {
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
            // RLIMIT_CPU only acts on whole seconds (and per process): past this, the
            // watchdog ends the run itself.
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
        }
    }

    /// Waits until the program exits, a limit is passed, the judge asks to stop or goes.
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
            // Orphans that ended meanwhile: their figures count, their zombies go. The program
            // itself may be among them, if it ended after the poll.
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

    /// Reads the tree's figures; true when the run must be stopped now.
    fn over_a_limit(&mut self, supervisor: &mut Supervisor, now: Instant) -> bool {
        let counts_shared = !supervisor.cgroups.has_memory();
        let snapshot = tree::snapshot(supervisor.me, &supervisor.spared(), counts_shared);
        let cpu = self.reaped.cpu_time + snapshot.cpu_time;
        // Only a run that lasts a tick can come near a time limit: shorter ones need no mark.
        if self.load_mark.is_none() {
            self.load_mark = LoadMark::now(cpu);
        }
        // The cgroup's peak, not its charge now: an OOM kill frees the killed process's
        // memory, and what stays (files in tmpfs) may then be below the limit.
        let resident = match supervisor.cgroups.memory_peak() {
            Some(peak) => peak.saturating_sub(self.baseline),
            None => {
                snapshot.resident_bytes + snapshot.memfd_bytes + supervisor.shared_files_bytes()
            }
        };
        self.max_resident = self.max_resident.max(resident);
        self.memory_limit_seen |= resident > self.memory_limit;
        // Runnable now, or ran or waited for a CPU since the last tick: a starved program,
        // not an idle one (CPU time alone moves in 10 ms ticks, too coarse under load).
        let computing = snapshot.runnable || snapshot.wanted_cpu_ns > self.last_wanted_cpu_ns;
        self.last_wanted_cpu_ns = snapshot.wanted_cpu_ns;
        if cpu > self.cpu_cutoff || self.memory_limit_seen {
            return true;
        }
        let busy = computing || supervisor.output_waits_for_judge(self.stdout_lent);
        // Idle only when seen idle twice: the readings are not taken at one instant, and a
        // judge that drains the pipe between them (it just got a CPU back) leaves a writer
        // that has not run yet beside a pipe that is no longer full.
        let busy_lately = std::mem::replace(&mut self.busy_at_last_tick, busy) || busy;
        if now >= self.deadline {
            if busy_lately && now < self.starved_cap {
                // Runnable but not given the CPU, or waiting for the judge that is not: its
                // CPU time will decide.
                self.starved = now - self.deadline;
                return false;
            }
            self.wall_timeout = true;
            return true;
        }
        false
    }
}

/// Polls the program's pidfd and the judge's socket: (the program exited, a message or the
/// judge's end of the stream is there).
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

/// The rlimits of a run. Memory is enforced on what is resident (by the memory cgroup, or the
/// watchdog's readings); the address-space cap is only a loose backstop where no memory
/// cgroup acts, set so high that a pool of threads with full-size stacks never meets it.
fn rlimits(request: &Request, memory_cgroup: bool, processes: Option<u64>) -> Vec<Rlimit> {
    // SIGXCPU comes at the first whole second past the limit, SIGKILL a second later, so a
    // busy loop dies at most about a second past its limit even if it ignores SIGXCPU.
    let cpu_seconds = request.cpu_time_ms.div_ceil(1000) + 1;
    let stack = request.stack_bytes;
    let mut limits = vec![
        (libc::RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1)),
        (libc::RLIMIT_STACK, (stack, stack)),
        // Files the program writes; stdout is a pipe, capped by the judge.
        (
            libc::RLIMIT_FSIZE,
            (request.output_bytes, request.output_bytes),
        ),
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

/// Linux 5.14 and later count a user's tasks for RLIMIT_NPROC in each user namespace apart.
fn counts_tasks_per_user_namespace() -> bool {
    let release = rustix::system::uname()
        .release()
        .to_string_lossy()
        .into_owned();
    let mut numbers = release
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|part| part.parse::<u32>().ok());
    (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0)) >= (5, 14)
}

/// The resident pages of the System V shared memory segments this IPC namespace has
/// (`/proc/sysvipc/shm`, whose `rss` column is in bytes).
fn system_v_shared_bytes() -> u64 {
    let table = std::fs::read_to_string("/proc/sysvipc/shm").unwrap_or_default();
    let mut lines = table.lines();
    let Some(rss) = lines
        .next()
        .and_then(|header| header.split_whitespace().position(|name| name == "rss"))
    else {
        return 0;
    };
    lines
        .filter_map(|line| line.split_whitespace().nth(rss)?.parse::<u64>().ok())
        .sum()
}

/// The sweep, with CPU time nobody else wants: the runs come first.
fn sweep_when_idle(bases: &[PathBuf]) {
    become_idle();
    sweep(bases)
}

/// Puts the calling thread under the idle policy: it runs only on CPU time nobody else wants.
fn become_idle() {
    let idle = libc::sched_param { sched_priority: 0 };
    // SAFETY: sets the calling thread's own policy from a local parameter.
    unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &idle) };
}

/// The user and group (`nobody`, `nogroup`) that root's programs being judged run as: one
/// that owns no file and may read only what everybody may.
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

/// A view not taken, and why.
fn refused(why: String) -> ViewReply {
    ViewReply {
        applied: false,
        refused: Some(why),
    }
}

/// Why a slot cannot take a view, if it cannot (`threaded`: the supervisor has a thread): the
/// view is made in a mount namespace of the slot's own, by a spawner forked for it.
fn why_no_view(isolation: &Isolation, threaded: bool) -> Option<&'static str> {
    if !isolation.namespaces || !isolation.private_shm {
        return Some("no mount namespace of its own");
    }
    threaded.then_some("the supervisor has a thread")
}

/// Whom the programs being judged run as, when not as the judge's user: root's as nobody.
fn run_as() -> Option<(u32, u32)> {
    rustix::process::getuid()
        .is_root()
        .then_some((NOBODY, NOBODY))
}

/// Prefix of every run folder, followed by the judge's pid and the supervisor's.
const RUN_FOLDER_PREFIX: &str = "judge-run-";

/// Removes what judges that are no longer running left behind: cgroups and run folders.
/// A judge's first supervisor does this when it starts.
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

/// The run's working folder, `judge-run-OWNER-SLOT` in the temporary folder (`SLOT`: the
/// supervisor's pid on the machine).
fn make_workdir(owner: u32, slot: u32) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = std::env::temp_dir().join(format!("{RUN_FOLDER_PREFIX}{owner}-{slot}"));
    std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
    Ok(dir)
}

/// Empties `dir`, staying on its file system: a mount point below it (the run folder or the
/// build cache, bound into a view's `/tmp`) stays, with the folders on the way to it.
fn empty_folder(dir: &Path) {
    use std::os::unix::fs::MetadataExt;
    if let Ok(folder) = std::fs::metadata(dir) {
        empty_on(dir, folder.dev());
    }
}

/// Removes what is in `dir` on `device`; whether all of it went.
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
                // A folder the program closed to its owner is opened again, no more.
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
