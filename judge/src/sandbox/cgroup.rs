//! A run slot's cgroups, made by its supervisor only as children of its own cgroup in each
//! hierarchy (v1 or v2):
//! - `pids` caps processes and threads (RLIMIT_NPROC does not bind root, and counts all the
//!   user's processes);
//! - `memory` gives the whole tree's peak, shared memory, memfd and tmpfs included, and
//!   enforces the limit on what is resident.
//!
//! What the machine does not allow is left out, and the sandbox falls back to rlimits and its
//! watchdog; `JUDGE_NO_CGROUPS=1` leaves all of it out.
//!
//! The judge's own cgroup, asked of systemd (`enter_scope`): on cgroup v2 a user (or root in a login
//! session) starts in a group shared with the shell, where no child group can be made. The
//! judge then starts itself again in a delegated transient scope (`systemd-run [--user]
//! --scope -p Delegate=yes`), waits for it, and ends as it ends.
//!
//! `systemd-run` rather than a D-Bus client: it is wherever systemd is, finds the user's
//! manager on any bus, and a failure costs only its start. Without systemd, or if it refuses,
//! the judge goes on in the group it has, and `judge doctor` says why.

use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::OnceLock;
use std::time::Duration;

/// Tasks one run may have at once: room for a JVM's threads, none for a fork bomb.
pub const MAX_TASKS: u64 = 64;

/// `pids.max` of a slot: a run's tasks, the supervisor and its two spawners.
pub const PIDS_MAX: u64 = MAX_TASKS + 3;

/// Followed by the owner's pid.
const PREFIX: &str = "judge-";

struct Group {
    dir: PathBuf,
    v2: bool,
}

/// Each is `None` where the machine did not allow it.
#[derive(Default)]
pub struct Cgroups {
    pids: Option<Group>,
    memory: Option<Group>,
    /// v1's `cpuacct`; on v2 the one group's `cpu.stat` counts CPU, controller or not.
    cpu: Option<Group>,
    /// v1's `cpuacct.usage`, kept open: read at every tick of a run.
    cpu_usage: Option<File>,
    /// Kept open: on cgroup v2 a write resets the peak seen through this descriptor only.
    memory_peak: Option<File>,
    /// Kept open: read twice a run.
    memory_current: Option<File>,
    memory_limit: Option<u64>,
    /// The limit the last run asked for, and the baseline of the count `ready_next_run`
    /// started for a next run with that limit (most runs share it).
    requested: u64,
    ready: Option<u64>,
    /// `stop_all_but` lowered pids.max: `allow_processes` raises it again.
    stopped: std::cell::Cell<bool>,
    /// Where cgroup v2's `memory.peak` cannot be reset (before Linux 6.12), every count is of
    /// a new group (see `renew`); how many were made.
    renewals: Option<u32>,
}

/// The hard limit is the run's limit above the baseline rounded up to this.
const LIMIT_STEP: u64 = 4 << 20;

impl Cgroups {
    /// Named after `owner` (the judge's pid) and this process, which moves in, so that every
    /// program it starts is born inside.
    pub fn create(owner: u32) -> Cgroups {
        if std::env::var_os("JUDGE_NO_CGROUPS").is_some_and(|value| value != "0") {
            return Cgroups::default();
        }
        let name = format!("{PREFIX}{owner}-{}", std::process::id());
        let mut cgroups = Cgroups {
            pids: make("pids", owner, &name, &[("pids.max", &PIDS_MAX.to_string())]),
            memory: make("memory", owner, &name, &[]),
            cpu: make("cpuacct", owner, &name, &[]).filter(|group| !group.v2),
            cpu_usage: None,
            memory_peak: None,
            memory_current: None,
            memory_limit: None,
            requested: 0,
            ready: None,
            stopped: Default::default(),
            renewals: None,
        };
        let one_thread = single_threaded();
        for group in [&cgroups.pids, &cgroups.memory, &cgroups.cpu]
            .into_iter()
            .flatten()
        {
            if move_into(&group.dir, group.v2, one_thread).is_err() {
                // It would count nothing.
                let _ = std::fs::remove_dir(&group.dir);
            }
        }
        cgroups.pids = cgroups.pids.take().filter(|g| contains_self(&g.dir));
        cgroups.memory = cgroups.memory.take().filter(|g| contains_self(&g.dir));
        cgroups.cpu = cgroups.cpu.take().filter(|g| contains_self(&g.dir));
        cgroups.cpu_usage =
            (cgroups.cpu.as_ref()).and_then(|cpu| File::open(cpu.dir.join("cpuacct.usage")).ok());
        if cgroups.memory.is_some() && !cgroups.open_memory_files() {
            (cgroups.memory, cgroups.memory_peak) = (None, None);
        }
        cgroups
    }

    /// Opens the peak and charge; whether the peak can restart at each run: in place (v1,
    /// v2 from Linux 6.12) or by a new group per count.
    fn open_memory_files(&mut self) -> bool {
        let Some(memory) = &self.memory else {
            return false;
        };
        let (peak, current) = match memory.v2 {
            true => ("memory.peak", "memory.current"),
            false => ("memory.max_usage_in_bytes", "memory.usage_in_bytes"),
        };
        let peak = memory.dir.join(peak);
        self.memory_peak = (std::fs::OpenOptions::new().read(true).write(true))
            .open(&peak)
            .or_else(|_| File::open(&peak))
            .ok();
        self.memory_current = File::open(memory.dir.join(current)).ok();
        let resettable = self.memory_peak.as_mut().is_some_and(|peak| {
            peak.write_all(if memory.v2 { b"reset\n" } else { b"0\n" })
                .is_ok()
        });
        if memory.v2 && !resettable && self.memory_peak.is_some() && self.renewals.is_none() {
            self.renewals = Some(0);
        }
        (resettable || self.renewals.is_some()) && self.memory_current.is_some()
    }

    /// Moves the slot's processes (no run's) into a new group beside the memory group and
    /// removes the old one: a new group's peak starts from nothing. Where that fails, the
    /// memory group is dropped (its limit lifted) and the watchdog measures instead.
    fn renew(&mut self) {
        let (Some(old), Some(count)) = (&self.memory, self.renewals) else {
            return;
        };
        let name = old.dir.file_name().unwrap_or_default().to_string_lossy();
        let stem = name.split_once('.').map_or(&*name, |(stem, _)| stem);
        let dir = old.dir.with_file_name(format!("{stem}.{}", count + 1));
        let shares_pids = self.pids.as_ref().is_some_and(|pids| pids.dir == old.dir);
        let moved = (|| -> std::io::Result<()> {
            std::fs::create_dir(&dir)?;
            if shares_pids {
                std::fs::write(dir.join("pids.max"), PIDS_MAX.to_string())?;
            }
            let procs = std::fs::read_to_string(old.dir.join("cgroup.procs"))?;
            // 0 is a process outside this PID namespace: the keeper has left already.
            for pid in procs.lines().map(str::trim).filter(|pid| *pid != "0") {
                std::fs::write(dir.join("cgroup.procs"), pid)?;
            }
            Ok(())
        })();
        if moved.is_err() {
            if let Ok(procs) = std::fs::read_to_string(dir.join("cgroup.procs")) {
                for pid in procs.lines().map(str::trim) {
                    let _ = std::fs::write(old.dir.join("cgroup.procs"), pid);
                }
            }
            let _ = std::fs::remove_dir(&dir);
            let _ = std::fs::write(old.dir.join("memory.max"), "max");
            (self.memory_peak, self.memory_current, self.renewals) = (None, None, None);
            return;
        }
        remove(&old.dir, std::time::Duration::from_millis(20));
        if shares_pids {
            self.pids = Some(Group {
                dir: dir.clone(),
                v2: true,
            });
        }
        self.memory = Some(Group { dir, v2: true });
        self.renewals = Some(count + 1);
        self.memory_limit = None;
        self.open_memory_files();
    }

    pub fn has_pids(&self) -> bool {
        self.pids.is_some()
    }

    pub fn has_memory(&self) -> bool {
        self.memory.is_some() && self.memory_peak.is_some()
    }

    /// Moves this process back out, leaving the groups to the processes in them (the
    /// supervisor, when this is its keeper).
    pub fn leave(&self) {
        for group in [&self.pids, &self.memory, &self.cpu].into_iter().flatten() {
            if let Some(parent) = group.dir.parent() {
                // The keeper, a fork of a single-threaded process, is single-threaded.
                let _ = move_into(parent, group.v2, true);
            }
        }
    }

    /// Moves this process back out and removes the groups; what the kernel does not let go
    /// yet is left for the next judge's sweep.
    pub fn leave_and_remove(&mut self) {
        self.memory_peak = None;
        self.cpu_usage = None;
        self.memory_current = None;
        let one_thread = single_threaded();
        for group in [self.pids.take(), self.memory.take(), self.cpu.take()]
            .into_iter()
            .flatten()
        {
            if let Some(parent) = group.dir.parent() {
                let _ = move_into(parent, group.v2, one_thread);
            }
            remove(&group.dir, std::time::Duration::from_millis(100));
        }
    }

    /// Before a run: the peak restarts and the hard limit is `limit` above the charge now,
    /// which is returned (earlier runs' page cache, the supervisor's pages: not the run's).
    pub fn start_run(&mut self, limit_bytes: u64) -> u64 {
        match self.ready.take() {
            Some(baseline) if self.requested == limit_bytes => baseline,
            _ => {
                self.requested = limit_bytes;
                self.start_count(limit_bytes)
            }
        }
    }

    /// After a run, off the next run's path: starts its count with the same limit.
    pub fn ready_next_run(&mut self) {
        if self.memory.is_some() {
            self.ready = Some(self.start_count(self.requested));
        }
    }

    fn start_count(&mut self, limit_bytes: u64) -> u64 {
        self.renew();
        let Some(memory) = self.memory.as_ref().filter(|_| self.memory_peak.is_some()) else {
            return 0;
        };
        let baseline = self
            .memory_current
            .as_ref()
            .and_then(read_number)
            .unwrap_or(0);
        if let Some(peak) = self
            .memory_peak
            .as_mut()
            .filter(|_| self.renewals.is_none())
        {
            let _ = peak.write_all(if memory.v2 { b"reset\n" } else { b"0\n" });
        }
        let max = if memory.v2 {
            "memory.max"
        } else {
            "memory.limit_in_bytes"
        };
        // Rounded, so that it is rarely rewritten: a lowering write makes the kernel reclaim.
        let limit = baseline.div_ceil(LIMIT_STEP) * LIMIT_STEP + limit_bytes;
        if self.memory_limit != Some(limit) {
            let _ = std::fs::write(memory.dir.join(max), limit.to_string());
            self.memory_limit = Some(limit);
        }
        baseline
    }

    /// The CPU time of every process in the slot's groups so far (its supervisor's and
    /// spawners' too): v1's `cpuacct.usage`, v2's `cpu.stat` `usage_usec`.
    pub fn cpu_usage(&self) -> Option<Duration> {
        if self.cpu.is_some() {
            return read_number(self.cpu_usage.as_ref()?).map(Duration::from_nanos);
        }
        let unified = [&self.memory, &self.pids]
            .into_iter()
            .flatten()
            .find(|g| g.v2)?;
        let stat = std::fs::read_to_string(unified.dir.join("cpu.stat")).ok()?;
        let usage = stat
            .lines()
            .find_map(|line| line.strip_prefix("usage_usec "))?;
        usage.trim().parse().ok().map(Duration::from_micros)
    }

    /// The highest charge since `start_run`, if there is a memory cgroup.
    pub fn memory_peak(&mut self) -> Option<u64> {
        read_number(self.memory_peak.as_ref()?)
    }

    /// Kills every process of the pids group but `spare`, first stopping them from forking
    /// (a fork bomb racing its killer).
    pub fn stop_all_but(&self, spare: &[u32]) {
        let Some(pids) = &self.pids else {
            return;
        };
        let _ = std::fs::write(pids.dir.join("pids.max"), spare.len().to_string());
        self.stopped.set(true);
        let Ok(text) = std::fs::read_to_string(pids.dir.join("cgroup.procs")) else {
            return;
        };
        for pid in text
            .lines()
            .filter_map(|line| line.trim().parse::<i32>().ok())
        {
            if !spare.contains(&(pid as u32)) {
                super::tree::kill(pid);
            }
        }
    }

    pub fn allow_processes(&self) {
        if let (Some(pids), true) = (&self.pids, self.stopped.replace(false)) {
            let _ = std::fs::write(pids.dir.join("pids.max"), PIDS_MAX.to_string());
        }
    }
}

/// Waits up to `patience` for the kernel to let the group go (busy until its last process
/// is reaped); else it is left for the next judge's sweep.
fn remove(folder: &Path, patience: std::time::Duration) {
    let start = std::time::Instant::now();
    while std::fs::remove_dir(folder).is_err() && folder.exists() && start.elapsed() < patience {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Removes the cgroups of judges no longer running (a SIGKILLed supervisor cannot).
pub fn sweep(bases: &[PathBuf]) {
    for base in bases {
        let Ok(entries) = std::fs::read_dir(base) else {
            continue;
        };
        for entry in entries.flatten() {
            if super::tree::left_by_a_dead_judge(&entry.file_name(), PREFIX) {
                let procs =
                    std::fs::read_to_string(entry.path().join("cgroup.procs")).unwrap_or_default();
                for pid in procs.lines().filter_map(|line| line.trim().parse().ok()) {
                    super::tree::kill(pid);
                }
                remove(&entry.path(), std::time::Duration::from_secs(2));
            }
        }
    }
}

/// The folders a sweep looks in; read before the process moves into groups of its own.
pub fn bases(owner: u32) -> Vec<PathBuf> {
    if std::env::var_os("JUDGE_NO_CGROUPS").is_some_and(|value| value != "0") {
        return Vec::new();
    }
    ["pids", "memory", "cpuacct"]
        .into_iter()
        .filter_map(|controller| Some(base(controller, owner)?.0))
        .collect()
}

fn make(controller: &str, owner: u32, name: &str, settings: &[(&str, &str)]) -> Option<Group> {
    let (base, v2) = base(controller, owner)?;
    let dir = base.join(name);
    match std::fs::create_dir(&dir) {
        Ok(()) => {}
        // cgroup v2 has one tree: the pids group just made is the memory group too.
        Err(error) if v2 && error.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(_) => return None,
    }
    let group = Group { dir, v2 };
    for (file, value) in settings {
        if std::fs::write(group.dir.join(file), value).is_err() {
            let _ = std::fs::remove_dir(&group.dir);
            return None;
        }
    }
    Some(group)
}

fn base(controller: &str, owner: u32) -> Option<(PathBuf, bool)> {
    where_groups_go(Path::new("/sys/fs/cgroup"), controller, owner)
        .ok()
        .map(|(dir, v2, _)| (dir, v2))
}

/// The folder a slot's `controller` group is made in: (folder, cgroup v2, how it was found),
/// or why there is none.
///
/// v1: the process's own group of that hierarchy. v2: its own group when the controller is on
/// for its children; or a group delegated to the judge alone (`systemd-run --user --scope -p
/// Delegate=yes`, a container), taken over: its processes move into a leaf
/// `judge-OWNER-leaf` (a group with processes cannot hand controllers to children).
pub(super) fn where_groups_go(
    root: &Path,
    controller: &str,
    owner: u32,
) -> Result<(PathBuf, bool, &'static str), String> {
    let own = std::fs::read_to_string("/proc/self/cgroup")
        .map_err(|error| format!("/proc/self/cgroup: {error}"))?;
    where_groups_go_from(root, &own, controller, owner, &|pid| {
        is_of_judge(pid, owner)
    })
}

/// `own`: `/proc/self/cgroup`; `ours` tells the judge's processes from others.
pub(super) fn where_groups_go_from(
    root: &Path,
    own: &str,
    controller: &str,
    owner: u32,
    ours: &dyn Fn(u32) -> bool,
) -> Result<(PathBuf, bool, &'static str), String> {
    let mut v2_path = None;
    for line in own.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let relative = path.trim_start_matches('/');
        if controllers.split(',').any(|c| c == controller) {
            return Ok((root.join(controller).join(relative), false, "cgroup v1"));
        }
        if controllers.is_empty() {
            v2_path = Some(relative.to_owned());
        }
    }
    let Some(relative) = v2_path else {
        return Err(format!(
            "no {controller} controller in this process's cgroups"
        ));
    };
    let dir = root.join(&relative);
    let has = |file: &str, dir: &Path| {
        std::fs::read_to_string(dir.join(file))
            .is_ok_and(|text| text.split_whitespace().any(|c| c == controller))
    };
    if has("cgroup.subtree_control", &dir) {
        return Ok((dir, true, "cgroup v2, on for this group's children"));
    }
    // Taken over already (another controller, another supervisor): a controller the group
    // has but has not turned on is turned on there (it holds no process now).
    let leaf = format!("{PREFIX}{owner}-leaf");
    if dir.file_name().is_some_and(|name| name == leaf.as_str()) {
        let parent = dir.parent().expect("a leaf has a parent").to_path_buf();
        if has("cgroup.subtree_control", &parent) {
            return Ok((parent, true, "cgroup v2, delegated to this judge"));
        }
        if has("cgroup.controllers", &parent) {
            std::fs::write(
                parent.join("cgroup.subtree_control"),
                format!("+{controller}"),
            )
            .map_err(|error| {
                format!("cgroup v2: {controller} cannot be turned on for /{relative}: {error}")
            })?;
            return Ok((parent, true, "cgroup v2, delegated to this judge"));
        }
    }
    if !has("cgroup.controllers", &dir) {
        return Err(format!(
            "cgroup v2: the group /{relative} was not given the {controller} controller \
             (not delegated)"
        ));
    }
    take_over(&dir, &relative, controller, &leaf, ours)?;
    Ok((dir, true, "cgroup v2, delegated to this judge"))
}

/// Moves `dir`'s processes into `leaf` and turns `controller` on for its children.
fn take_over(
    dir: &Path,
    relative: &str,
    controller: &str,
    leaf: &str,
    ours: &dyn Fn(u32) -> bool,
) -> Result<(), String> {
    let processes = std::fs::read_to_string(dir.join("cgroup.procs"))
        .map_err(|error| format!("cgroup v2: /{relative}: {error}"))?;
    let pids: Vec<u32> = processes
        .lines()
        .filter_map(|line| line.trim().parse().ok())
        .collect();
    // A cgroup namespace's root (`--cgroupns=private`) is the container's alone: its other
    // processes (the judge's shell) move too. Elsewhere a stranger's group is left alone.
    let namespace_root = relative.is_empty();
    if let Some(stranger) = pids.iter().find(|pid| !ours(**pid) && !namespace_root) {
        return Err(format!(
            "cgroup v2: the group /{relative} holds process {stranger}, not the judge's: run \
             the judge in a group of its own (systemd-run --user --scope -p Delegate=yes)"
        ));
    }
    let leaf_dir = dir.join(leaf);
    let taken = (|| -> std::io::Result<()> {
        match std::fs::create_dir(&leaf_dir) {
            Err(error) if error.kind() != std::io::ErrorKind::AlreadyExists => return Err(error),
            _ => {}
        }
        for pid in &pids {
            std::fs::write(leaf_dir.join("cgroup.procs"), pid.to_string())?;
        }
        std::fs::write(dir.join("cgroup.subtree_control"), format!("+{controller}"))
    })();
    taken.map_err(|error| format!("cgroup v2: /{relative} cannot be taken over: {error}"))?;
    Ok(())
}

/// Whether `pid` is the judge `owner` or one of its descendants.
fn is_of_judge(pid: u32, owner: u32) -> bool {
    let mut current = pid;
    for _ in 0..64 {
        if current == owner {
            return true;
        }
        let stat = std::fs::read_to_string(format!("/proc/{current}/stat")).unwrap_or_default();
        let parent = stat
            .rsplit_once(") ")
            .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
        match parent {
            // The judge may be pid 1 (a container's only process).
            Some(parent) if parent == owner => return true,
            Some(parent) if parent > 1 => current = parent,
            _ => return false,
        }
    }
    false
}

/// Moves this process into the group at `dir`.
///
/// Writing `cgroup.procs` takes a lock that first waits for an RCU grace period, stalling
/// other processes' forks. On v1 a single thread moving itself (`0` into `tasks`) needs no
/// such lock (Linux 5.19 on), so a single-threaded process moves that way.
fn move_into(dir: &Path, v2: bool, one_thread: bool) -> std::io::Result<()> {
    if !v2 && one_thread && std::fs::write(dir.join("tasks"), "0").is_ok() {
        return Ok(());
    }
    std::fs::write(dir.join("cgroup.procs"), std::process::id().to_string())
}

fn single_threaded() -> bool {
    std::fs::read_dir("/proc/self/task").is_ok_and(|tasks| tasks.count() == 1)
}

fn contains_self(dir: &Path) -> bool {
    let me = std::process::id().to_string();
    std::fs::read_to_string(dir.join("cgroup.procs"))
        .is_ok_and(|procs| procs.lines().any(|line| line.trim() == me))
}

/// Read from the file's start in one system call.
fn read_number(file: &File) -> Option<u64> {
    let mut text = [0u8; 32];
    let length = rustix::io::pread(file, &mut text, 0).ok()?;
    std::str::from_utf8(&text[..length])
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Set in the judge started inside the scope: the descriptor to tell its start on.
const STARTED_FD: &str = "JUDGE_SCOPE_STARTED_FD";

/// As `judge doctor` tells it.
static HOW: OnceLock<Result<String, String>> = OnceLock::new();

/// The scope `enter_scope` made or why there is none; `None` where it was not asked for.
pub fn scope_made() -> Option<&'static Result<String, String>> {
    HOW.get()
}

/// Runs the judge in a delegated scope where it needs one and systemd makes it: `Some(code)`
/// is the scoped judge's end, for this process to end with; `None`: this process goes on
/// (scoped already, no scope needed, or none to be had: `scope_made` says which).
pub fn enter_scope() -> Option<ExitCode> {
    if let Some(fd) = std::env::var(STARTED_FD)
        .ok()
        .and_then(|fd| fd.parse().ok())
    {
        std::env::remove_var(STARTED_FD);
        // SAFETY: the descriptor was passed for this, and nothing else in this process owns it.
        let told = unsafe { OwnedFd::from_raw_fd(fd) };
        // If the waiting parent is killed (SIGKILL cannot be passed on), stop as at Ctrl-C.
        let _ =
            rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::TERM));
        let _ = rustix::io::write(&told, b"1");
        let _ = HOW.set(Ok(
            "a systemd scope the judge asked for, delegated to it".into()
        ));
        return None;
    }
    // cgroup v1 (or a hybrid): the judge's groups go in each hierarchy, no scope needed.
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let relative = own.strip_prefix("0::/")?.trim_end();
    let systemd_run = match needed(&Path::new("/sys/fs/cgroup").join(relative)) {
        Ok(Some(program)) => program,
        Ok(None) => {
            let _ = HOW.set(Ok(
                "not needed: the group the judge is in can hold its groups".into(),
            ));
            return None;
        }
        Err(why) => {
            let _ = HOW.set(Err(why));
            return None;
        }
    };
    match run_scoped(&systemd_run) {
        Ok(code) => Some(code),
        Err(why) => {
            let _ = HOW.set(Err(why));
            None
        }
    }
}

/// The `systemd-run` to ask where the cgroup v2 group `dir` cannot hold the judge's groups
/// (`None`: it can); else why no scope can be asked for.
fn needed(dir: &Path) -> Result<Option<std::path::PathBuf>, String> {
    if std::env::var_os("JUDGE_NO_CGROUPS").is_some_and(|value| value != "0") {
        return Err("turned off by JUDGE_NO_CGROUPS=1".into());
    }
    if usable(dir) {
        return Ok(None);
    }
    let manager = match rustix::process::getuid().is_root() {
        true => Path::new("/run/systemd/system").to_path_buf(),
        false => std::env::var_os("XDG_RUNTIME_DIR")
            .map(|run| Path::new(&run).join("systemd/private"))
            .unwrap_or_default(),
    };
    if !manager.exists() {
        return Err(format!(
            "no systemd manager to ask for a scope ({} is not there)",
            manager.display()
        ));
    }
    let found = std::path::PathBuf::from(super::find_on_path("systemd-run".as_ref()));
    match found.is_absolute() {
        true => Ok(Some(found)),
        false => Err("systemd-run is not on PATH".into()),
    }
}

/// Whether the judge may make its groups below `dir`: the controllers are on for its
/// children, or the group is its own (a leaf it made, or one it alone is in and may write to).
fn usable(dir: &Path) -> bool {
    let listed = |file: &str, word: &str| {
        std::fs::read_to_string(dir.join(file))
            .is_ok_and(|text| text.split_whitespace().any(|w| w == word))
    };
    if listed("cgroup.subtree_control", "memory") && listed("cgroup.subtree_control", "pids") {
        return true;
    }
    if dir
        .file_name()
        .is_some_and(|name| name.to_string_lossy().ends_with("-leaf"))
    {
        return true;
    }
    let me = std::process::id().to_string();
    let alone = std::fs::read_to_string(dir.join("cgroup.procs"))
        .is_ok_and(|procs| procs.lines().all(|pid| pid.trim() == me));
    alone && rustix::fs::access(dir.join("cgroup.procs"), rustix::fs::Access::WRITE_OK).is_ok()
}

/// Starts this judge again, same arguments, in a scope, and waits for it: its exit code, or
/// why it did not start (this process then goes on itself).
fn run_scoped(systemd_run: &Path) -> Result<ExitCode, String> {
    let (told, tell) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
        .map_err(|error| format!("a pipe: {error}"))?;
    // The scoped judge inherits this end alone (no CLOEXEC on the copy).
    let tell = rustix::io::dup(&tell).map_err(|error| format!("a pipe: {error}"))?;
    let exe = std::env::current_exe().map_err(|error| format!("the judge's binary: {error}"))?;
    let mut command = Command::new(systemd_run);
    if !rustix::process::getuid().is_root() {
        command.arg("--user");
    }
    command
        .args([
            "--scope",
            "--quiet",
            "--collect",
            "-p",
            "Delegate=yes",
            "--",
        ])
        .arg(exe)
        .args(std::env::args_os().skip(1))
        .env(STARTED_FD, tell.as_raw_fd().to_string());
    let mut child = command
        .spawn()
        .map_err(|error| format!("{}: {error}", systemd_run.display()))?;
    drop(tell);
    let forwarding = Forwarding::block();
    let mut byte = [0u8];
    if !matches!(rustix::io::read(&told, &mut byte), Ok(1)) {
        let status = child.wait().map_err(|error| error.to_string())?;
        drop(forwarding);
        return Err(format!("systemd-run made no scope ({status})"));
    }
    loop {
        if let Some(status) = child.try_wait().map_err(|error| error.to_string())? {
            drop(forwarding);
            return Ok(end_as(status));
        }
        forwarding.pass_on(child.id() as i32, Duration::from_millis(100));
    }
}

/// The signals that stop a judge, blocked here while the scoped one runs: a terminal's
/// reach it directly (same process group); one sent here alone (`kill`, `timeout`) is passed
/// on.
struct Forwarding(libc::sigset_t);

impl Forwarding {
    fn block() -> Forwarding {
        // SAFETY: a zeroed sigset_t is filled by sigemptyset before use; these calls only
        // change this thread's mask (the judge has no other thread yet).
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
                libc::sigaddset(&mut set, signal);
            }
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            Forwarding(set)
        }
    }

    /// Waits up to `patience` for a signal, and passes one a process sent on to `pid`.
    fn pass_on(&self, pid: i32, patience: Duration) {
        let timeout = libc::timespec {
            tv_sec: 0,
            tv_nsec: patience.as_nanos() as libc::c_long,
        };
        // SAFETY: waits on the blocked set; `info` is written by the kernel.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let signal = libc::sigtimedwait(&self.0, &mut info, &timeout);
            if signal > 0 && info.si_code <= 0 {
                libc::kill(pid, signal);
            }
        }
    }
}

impl Drop for Forwarding {
    fn drop(&mut self) {
        // SAFETY: unblocks the set this value blocked.
        unsafe {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &self.0, std::ptr::null_mut());
        }
    }
}

/// The same code, or the same signal, as the scoped judge's.
fn end_as(status: std::process::ExitStatus) -> ExitCode {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => ExitCode::from(code as u8),
        (None, Some(signal)) => {
            // SAFETY: the default action of a signal the judge ends by; then the code a shell
            // would show, should it not end this process.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
            ExitCode::from((128 + signal) as u8)
        }
        _ => ExitCode::FAILURE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cgroup v2 file system in miniature: `scope` below `root`, with these files.
    fn scope(root: &Path, files: &[(&str, &str)]) -> PathBuf {
        let scope = root.join("user.slice/app.slice/judge.scope");
        std::fs::create_dir_all(&scope).unwrap();
        for (name, text) in files {
            std::fs::write(scope.join(name), text).unwrap();
        }
        scope
    }

    const OWN: &str = "0::/user.slice/app.slice/judge.scope\n";
    const OWNER: u32 = 100;

    fn ours(pid: u32) -> bool {
        pid == OWNER || pid == 101
    }

    #[test]
    fn cgroup_v1_groups_go_in_the_own_group_of_the_controllers_hierarchy() {
        let root = tempfile::tempdir().unwrap();
        let own = "12:pids:/ci/job\n11:memory:/ci/job\n0::/ci/job\n";
        let (dir, v2, _) = where_groups_go_from(root.path(), own, "memory", OWNER, &ours).unwrap();
        assert_eq!((dir, v2), (root.path().join("memory/ci/job"), false));
    }

    #[test]
    fn a_group_delegated_to_the_judge_alone_is_taken_over() {
        let root = tempfile::tempdir().unwrap();
        let scope = scope(
            root.path(),
            &[
                ("cgroup.controllers", "cpu memory pids"),
                ("cgroup.subtree_control", ""),
                ("cgroup.procs", "100\n101\n"),
            ],
        );
        let (dir, v2, how) =
            where_groups_go_from(root.path(), OWN, "memory", OWNER, &ours).unwrap();
        assert_eq!((&dir, v2), (&scope, true), "{how}");
        assert!(scope.join("judge-100-leaf").is_dir());
        let enabled = std::fs::read_to_string(scope.join("cgroup.subtree_control")).unwrap();
        assert_eq!(enabled, "+memory");
        // A supervisor that starts after the move finds itself in the leaf: the same folder.
        std::fs::write(scope.join("cgroup.subtree_control"), "memory pids").unwrap();
        let in_leaf = "0::/user.slice/app.slice/judge.scope/judge-100-leaf\n";
        let (again, _, _) =
            where_groups_go_from(root.path(), in_leaf, "pids", OWNER, &ours).unwrap();
        assert_eq!(again, scope);
    }

    /// As the kernel has it, a child's controllers are those its parent turned on: once the
    /// judge sits in its leaf with memory on, pids is turned on in the group as well.
    #[test]
    fn every_controller_of_a_delegated_group_is_turned_on_whatever_the_order() {
        let root = tempfile::tempdir().unwrap();
        let scope = scope(
            root.path(),
            &[
                ("cgroup.controllers", "cpu memory pids"),
                ("cgroup.subtree_control", ""),
                ("cgroup.procs", "100\n"),
            ],
        );
        where_groups_go_from(root.path(), OWN, "memory", OWNER, &ours).unwrap();
        // What the kernel then shows: memory on in the group, so the leaf has memory alone.
        std::fs::write(scope.join("cgroup.subtree_control"), "memory").unwrap();
        std::fs::write(scope.join("judge-100-leaf/cgroup.controllers"), "memory").unwrap();
        let in_leaf = "0::/user.slice/app.slice/judge.scope/judge-100-leaf\n";
        let (dir, v2, how) =
            where_groups_go_from(root.path(), in_leaf, "pids", OWNER, &ours).unwrap();
        assert_eq!((&dir, v2), (&scope, true), "{how}");
        let enabled = std::fs::read_to_string(scope.join("cgroup.subtree_control")).unwrap();
        assert_eq!(enabled, "+pids");
        // A controller the group was not given stays refused.
        let refused =
            where_groups_go_from(root.path(), in_leaf, "hugetlb", OWNER, &ours).unwrap_err();
        assert!(refused.contains("not delegated"), "{refused}");
    }

    #[test]
    fn a_group_shared_with_other_processes_or_not_delegated_is_left_alone() {
        let root = tempfile::tempdir().unwrap();
        let scope = scope(
            root.path(),
            &[
                ("cgroup.controllers", "memory pids"),
                ("cgroup.subtree_control", ""),
                ("cgroup.procs", "100\n555\n"),
            ],
        );
        let shared = where_groups_go_from(root.path(), OWN, "pids", OWNER, &ours).unwrap_err();
        assert!(
            shared.contains("process 555") && shared.contains("systemd-run"),
            "{shared}"
        );
        assert!(!scope.join("judge-100-leaf").exists());
        std::fs::write(scope.join("cgroup.controllers"), "cpu").unwrap();
        let closed = where_groups_go_from(root.path(), OWN, "pids", OWNER, &ours).unwrap_err();
        assert!(closed.contains("not delegated"), "{closed}");
    }

    #[test]
    fn the_root_of_a_cgroup_namespace_is_taken_over_with_the_shell_that_started_the_judge() {
        let root = tempfile::tempdir().unwrap();
        for (file, text) in [
            ("cgroup.controllers", "memory pids"),
            ("cgroup.subtree_control", ""),
            ("cgroup.procs", "1\n100\n"),
        ] {
            std::fs::write(root.path().join(file), text).unwrap();
        }
        let (dir, v2, _) = where_groups_go_from(root.path(), "0::/\n", "pids", OWNER, &ours)
            .expect("a container's own group");
        assert!(v2 && dir == root.path());
        let leaf = root.path().join("judge-100-leaf/cgroup.procs");
        // The fake tree keeps the last pid written: the shell's and the judge's both were.
        assert_eq!(std::fs::read_to_string(leaf).unwrap(), "100");
    }

    fn group(files: &[(&str, &str)], name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        (root, dir)
    }

    #[test]
    fn a_group_shared_with_the_shell_needs_a_scope_and_one_of_the_judges_does_not() {
        let me = std::process::id().to_string();
        let shell = format!("1\n{me}\n");
        let (_root, session) = group(&[("cgroup.procs", &shell)], "session-3.scope");
        assert!(!usable(&session));
        let (_root, on) = group(
            &[
                ("cgroup.subtree_control", "cpu memory pids\n"),
                ("cgroup.procs", &shell),
            ],
            "payload",
        );
        assert!(usable(&on));
        let (_root, half) = group(&[("cgroup.subtree_control", "pids\n")], "x");
        assert!(!usable(&half));
        let (_root, alone) = group(&[("cgroup.procs", &format!("{me}\n"))], "run-u7.scope");
        assert!(usable(&alone));
        let (_root, leaf) = group(&[("cgroup.procs", &shell)], "judge-12-leaf");
        assert!(usable(&leaf));
    }
}
