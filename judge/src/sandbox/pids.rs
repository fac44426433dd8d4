//! A cap on the number of processes and threads of one run, through a cgroup's `pids`
//! controller where this machine lets the judge make one: RLIMIT_NPROC does not bind root,
//! and counts every process of the user rather than the run's own. The cgroup also finds
//! every process of a run, even one that left the process group, so none outlives it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Processes and threads one run may have at once: room for a JVM's threads, none for a
/// fork bomb.
pub const MAX_TASKS: u64 = 64;

/// A cgroup holding one run.
pub struct PidsGroup {
    dir: PathBuf,
}

impl PidsGroup {
    /// A fresh group capped at `MAX_TASKS`, or `None` where no cgroup can be made.
    pub fn new() -> Option<PidsGroup> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let base = base()?;
        let dir = base.join(format!(
            "judge-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&dir).ok()?;
        let group = PidsGroup { dir };
        std::fs::write(group.dir.join("pids.max"), MAX_TASKS.to_string()).ok()?;
        Some(group)
    }

    /// The file a process writes its pid into to join the group.
    pub fn procs_path(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }

    /// Kills every process still in the group (those that left the process group too);
    /// returns whether there were any.
    pub fn kill_all(&self) -> bool {
        let Ok(text) = std::fs::read_to_string(self.dir.join("cgroup.procs")) else {
            return false;
        };
        let mut any = false;
        for pid in text
            .lines()
            .filter_map(|line| line.trim().parse::<libc::pid_t>().ok())
        {
            any = true;
            // SAFETY: plain syscall on a pid of this group.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        any
    }
}

impl PidsGroup {
    /// Kills what is in the group until nothing is: a process may fork between the reading of
    /// `cgroup.procs` and the kills. Returns whether the group emptied (within two seconds).
    pub fn kill_until_empty(&self) -> bool {
        for _ in 0..1000 {
            if !self.kill_all() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        false
    }
}

impl Drop for PidsGroup {
    fn drop(&mut self) {
        // The kernel lets a cgroup go only some milliseconds after its last process (an RCU
        // grace period, long on an idle machine): waiting here would cost more than a small
        // run. A group that cannot go yet is removed by the next judge's sweep.
        self.kill_all();
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// Removes groups that judges which have since exited left behind.
fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(owner) = name
            .to_str()
            .and_then(|n| n.strip_prefix("judge-"))
            .and_then(|n| n.split('-').next())
        else {
            continue;
        };
        let gone = owner
            .parse::<u32>()
            .is_ok_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
        if gone {
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

/// The folder new groups are made in: the `pids` hierarchy at this process's own place in it,
/// if the judge may write there (found once per process).
fn base() -> Option<&'static Path> {
    static BASE: OnceLock<Option<PathBuf>> = OnceLock::new();
    BASE.get_or_init(|| {
        let base = find_base()?;
        sweep(&base);
        Some(base)
    })
    .as_deref()
}

fn find_base() -> Option<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in own.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let relative = path.trim_start_matches('/');
        let candidate = if controllers.split(',').any(|c| c == "pids") {
            // cgroup v1: a hierarchy of its own.
            Path::new("/sys/fs/cgroup/pids").join(relative)
        } else if controllers.is_empty() {
            // cgroup v2: one hierarchy; pids must be enabled for children here.
            let dir = Path::new("/sys/fs/cgroup").join(relative);
            let enabled = std::fs::read_to_string(dir.join("cgroup.subtree_control")).ok()?;
            if !enabled.split_whitespace().any(|c| c == "pids") {
                continue;
            }
            dir
        } else {
            continue;
        };
        let probe = candidate.join(format!("judge-probe-{}", std::process::id()));
        if std::fs::create_dir(&probe).is_ok() {
            let usable = probe.join("pids.max").exists();
            let _ = std::fs::remove_dir(&probe);
            if usable {
                return Some(candidate);
            }
        }
    }
    None
}
