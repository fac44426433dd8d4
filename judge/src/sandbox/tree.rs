//! The process tree below the supervisor, read from `/proc`: its CPU, memory and state, and
//! killing and reaping all of it. The supervisor is a child subreaper, so every orphan of a
//! run is re-parented to it: the tree below it is the whole run.

use std::time::Duration;

/// What a run's reaped processes used, from `wait4`.
#[derive(Debug, Default, Clone, Copy)]
pub struct Reaped {
    pub cpu_time: Duration,
    /// The largest `ru_maxrss` among them (each process's own peak, not a sum).
    pub max_resident_bytes: u64,
}

impl Reaped {
    pub fn add(&mut self, usage: &libc::rusage) {
        self.cpu_time += timeval(usage.ru_utime) + timeval(usage.ru_stime);
        // Linux reports ru_maxrss in KiB.
        self.max_resident_bytes = self
            .max_resident_bytes
            .max(usage.ru_maxrss.max(0) as u64 * 1024);
    }
}

/// The live part of the tree now, from `/proc`.
#[derive(Debug, Default, Clone)]
pub struct Snapshot {
    pub resident_bytes: u64,
    /// Some thread is in state `R`.
    pub runnable: bool,
    /// Its threads' time on a CPU or in its run queue (`/proc/PID/task/TID/schedstat`): grows
    /// while the tree wants to compute, even starved, and stands still while it sleeps.
    pub wanted_cpu_ns: u64,
    /// Where asked for (no memory cgroup): pages of memfds held open, which no resident
    /// figure shows until mapped; `resident_bytes` is then the tree's share of what it maps
    /// (see `own_share`), shared memory counted here and in `mapped_shmem_bytes` instead.
    pub memfd_bytes: u64,
    /// Where asked for: the tree's share of the shared memory it maps (`Pss_Shmem`): an
    /// anonymous shared mapping, or a memfd closed but still mapped, which no file shows.
    pub mapped_shmem_bytes: u64,
    /// Each process's CPU time, including the children it has reaped.
    pub processes: Vec<ProcessCpu>,
}

impl Snapshot {
    pub fn cpu_time(&self) -> Duration {
        self.processes.iter().map(|process| process.total).sum()
    }
}

/// One process's CPU time at a tick: its own and its waited-for children's, and the latter
/// alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessCpu {
    pub pid: u32,
    pub total: Duration,
    pub children: Duration,
}

/// The CPU time of processes gone between two ticks that no figure took in: children the
/// kernel reaped itself (their parent ignores `SIGCHLD`), which no `wait4` sees. A process
/// that is waited for moves its time into its parent's children's time, or into what the
/// supervisor reaped (`reaped_meanwhile`): what the gone ones had, less what those took in
/// since, was lost. A floor (what a lost one used after the last tick is not seen), and 0
/// when every process was waited for, whatever the order.
pub fn lost_cpu(before: &[ProcessCpu], now: &[ProcessCpu], reaped_meanwhile: Duration) -> Duration {
    let gone: Duration = before
        .iter()
        .filter(|old| !now.iter().any(|new| new.pid == old.pid))
        .map(|old| old.total)
        .sum();
    let taken_in: Duration = now
        .iter()
        .map(|new| {
            let had = before.iter().find(|old| old.pid == new.pid);
            new.children
                .saturating_sub(had.map_or(Duration::ZERO, |old| old.children))
        })
        .sum();
    gone.saturating_sub(taken_in + reaped_meanwhile)
}

/// The children of all of `pid`'s threads.
pub fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return found;
    };
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            found.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<u32>().ok()),
            );
        }
    }
    found
}

pub fn descendants(root: u32) -> Vec<u32> {
    let mut found = children(root);
    let mut next = 0;
    while next < found.len() {
        let more = children(found[next]);
        found.extend(more);
        next += 1;
    }
    found
}

/// CPU, memory and state of every live descendant of `root` but those in `spare`; with
/// `shared`, its memfds too (see `Snapshot`).
pub fn snapshot(root: u32, spare: &[u32], shared: bool) -> Snapshot {
    let mut snapshot = Snapshot::default();
    let mut memfds: Vec<(u64, u64)> = Vec::new();
    for pid in descendants(root)
        .into_iter()
        .filter(|pid| !spare.contains(pid))
    {
        let Some(stat) = Stat::read(pid) else {
            continue;
        };
        snapshot.processes.push(ProcessCpu {
            pid,
            total: stat.cpu_time,
            children: stat.children_cpu_time,
        });
        snapshot.resident_bytes += match shared {
            true => {
                snapshot.memfd_bytes += held_memfd_bytes(pid, &mut memfds);
                let (own, shmem) = own_share(pid).unwrap_or((stat.resident_bytes, 0));
                snapshot.mapped_shmem_bytes += shmem;
                own
            }
            false => stat.resident_bytes,
        };
        // Every thread, not the process's first alone: a JVM's first thread only waits for
        // the one that runs `main`.
        let (runnable, wanted_cpu_ns) = threads_wanting_cpu(pid);
        snapshot.runnable |= runnable;
        snapshot.wanted_cpu_ns += wanted_cpu_ns;
    }
    snapshot
}

/// Whether some thread of `pid` is runnable, and its threads' time on a CPU plus time
/// waiting for one (0 without schedstats).
fn threads_wanting_cpu(pid: u32) -> (bool, u64) {
    let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return (false, 0);
    };
    let (mut runnable, mut wanted_ns) = (false, 0);
    for thread in threads.flatten() {
        let path = thread.path();
        let stat = std::fs::read_to_string(path.join("stat")).unwrap_or_default();
        runnable |= after_name(&stat).next().is_some_and(|state| state == "R");
        let schedstat = std::fs::read_to_string(path.join("schedstat")).unwrap_or_default();
        let ran_and_waited = schedstat.split_whitespace().take(2);
        wanted_ns += ran_and_waited
            .filter_map(|n| n.parse::<u64>().ok())
            .sum::<u64>();
    }
    (runnable, wanted_ns)
}

/// The fields of a `stat` file after the command name, which is in parentheses and may hold
/// spaces and parentheses: the state first.
fn after_name(stat: &str) -> std::str::SplitWhitespace<'_> {
    stat.rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
}

/// `Pss_Anon` + `Pss_File`, and apart `Pss_Shmem`: shared pages counted in proportion, so
/// that a tree adds them up once.
fn own_share(pid: u32) -> Option<(u64, u64)> {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = rollup.lines().find_map(|line| line.strip_prefix(name))?;
        line.trim()
            .trim_end_matches("kB")
            .trim()
            .parse::<u64>()
            .ok()
    };
    let own = field("Pss_Anon:")? + field("Pss_File:")?;
    Some((own * 1024, field("Pss_Shmem:").unwrap_or(0) * 1024))
}

/// The bytes of the memfds `pid` holds open that are not in `seen` (device, inode) yet,
/// which are added to it.
fn held_memfd_bytes(pid: u32, seen: &mut Vec<(u64, u64)>) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return 0;
    };
    let mut bytes = 0;
    for fd in fds.flatten() {
        let is_memfd = std::fs::read_link(fd.path()).is_ok_and(|target| {
            target
                .as_os_str()
                .as_encoded_bytes()
                .starts_with(b"/memfd:")
        });
        if !is_memfd {
            continue;
        }
        if let Ok(file) = std::fs::metadata(fd.path()) {
            if !seen.contains(&(file.dev(), file.ino())) {
                seen.push((file.dev(), file.ino()));
                bytes += file.blocks() * 512;
            }
        }
    }
    bytes
}

/// From `/proc/PID/stat`: the whole process's.
struct Stat {
    /// Its own and its waited-for children's.
    cpu_time: Duration,
    children_cpu_time: Duration,
    resident_bytes: u64,
}

impl Stat {
    fn read(pid: u32) -> Option<Stat> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let fields: Vec<&str> = after_name(&text).collect();
        let number = |index: usize| fields.get(index)?.parse::<u64>().ok();
        // utime, stime, cutime, cstime: fields 14 to 17 of proc(5), 11 to 14 here.
        let children = number(13)? + number(14)?;
        let time = |ticks: u64| Duration::from_nanos(ticks * 1_000_000_000 / clock_ticks());
        Some(Stat {
            cpu_time: time(number(11)? + number(12)? + children),
            children_cpu_time: time(children),
            resident_bytes: number(21)? * page_size(),
        })
    }
}

/// Kills and reaps every descendant of `me` but `spare` (the spawners) until none is left,
/// adding what they used to `reaped`. `also_kill` runs before every pass (the cgroup's view).
/// `main` is the program if not reaped yet; its status if reaped here. (`wait4(-1)` without
/// `__WALL` never sees the spawner: see `spawner`.)
pub fn kill_and_reap_all(
    me: u32,
    reaped: &mut Reaped,
    mut main: Option<i32>,
    spare: &[u32],
    also_kill: &dyn Fn(),
) -> Option<libc::c_int> {
    let mut main_status = None;
    loop {
        // Most runs leave nothing: with the program reaped and no orphan, there is no tree.
        match reap_ready(reaped) {
            Children::Reaped(pid, status) => {
                if Some(pid) == main {
                    main_status = Some(status);
                    main = None;
                }
                continue;
            }
            Children::None if main.is_none() => return main_status,
            _ => {}
        }
        // All at once, so that none lives on to fork; one forked meanwhile dies next pass.
        also_kill();
        for pid in descendants(me) {
            if !spare.contains(&pid) {
                kill(pid as i32);
            }
        }
        match reap(-1, true, reaped) {
            Some((pid, status)) if Some(pid) == main => {
                main_status = Some(status);
                main = None;
            }
            Some(_) => {}
            None => return main_status,
        }
    }
}

/// Reaps `target`, blocking when `block`; `None` when there is nothing to reap. A pid is
/// waited for whatever its exit signal; -1 is any process of the run, never the spawner.
pub fn reap(target: libc::pid_t, block: bool, reaped: &mut Reaped) -> Option<(i32, libc::c_int)> {
    let any_exit_signal = if target > 0 { libc::__WALL } else { 0 };
    let options = any_exit_signal | if block { 0 } else { libc::WNOHANG };
    loop {
        let mut status = 0;
        // SAFETY: rusage is plain data, which wait4 fills.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 writes only into the two locals it is given.
        let pid = unsafe { libc::wait4(target, &mut status, options, &mut usage) };
        if pid > 0 {
            reaped.add(&usage);
            return Some((pid, status));
        }
        if pid < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        return None;
    }
}

enum Children {
    None,
    Reaped(i32, libc::c_int),
    Running,
}

fn reap_ready(reaped: &mut Reaped) -> Children {
    let mut status = 0;
    // SAFETY: rusage is plain data, which wait4 fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 writes only into the two locals it is given.
    let pid = unsafe { libc::wait4(-1, &mut status, libc::WNOHANG, &mut usage) };
    match pid {
        0 => Children::Running,
        pid if pid > 0 => {
            reaped.add(&usage);
            Children::Reaped(pid, status)
        }
        _ if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) => {
            Children::Running
        }
        _ => Children::None,
    }
}

/// SIGKILL to one process; one already gone is fine.
pub fn kill(pid: i32) {
    if let Some(pid) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
}

/// Whether `name` (a run folder's or cgroup's) is `prefix`, a dead judge's pid, `-...`.
pub fn left_by_a_dead_judge(name: &std::ffi::OsStr, prefix: &str) -> bool {
    name.to_str()
        .and_then(|name| name.strip_prefix(prefix))
        .and_then(|rest| rest.split('-').next())
        .and_then(|pid| pid.parse::<u32>().ok())
        .is_some_and(|pid| !alive(pid))
}

pub fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

pub fn timeval(time: libc::timeval) -> Duration {
    Duration::from_secs(time.tv_sec.max(0) as u64)
        + Duration::from_micros(time.tv_usec.max(0) as u64)
}

fn clock_ticks() -> u64 {
    rustix::param::clock_ticks_per_second().max(1)
}

fn page_size() -> u64 {
    rustix::param::page_size() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;

    fn process(pid: u32, total_ms: u64, children_ms: u64) -> ProcessCpu {
        ProcessCpu {
            pid,
            total: Duration::from_millis(total_ms),
            children: Duration::from_millis(children_ms),
        }
    }

    #[test]
    fn cpu_of_processes_waited_for_is_never_lost() {
        let ms = Duration::from_millis;
        // (before, now, reaped by the supervisor meanwhile)
        let waited = [
            // by its parent
            (
                vec![process(1, 100, 0), process(2, 300, 0)],
                vec![process(1, 500, 350)],
                0,
            ),
            // by the supervisor
            (vec![process(2, 300, 0)], vec![], 320),
            // a parent that waited for its child, itself by the supervisor
            (vec![process(1, 100, 0), process(2, 300, 0)], vec![], 450),
            // ... or by its own parent
            (
                vec![process(1, 0, 0), process(2, 100, 0), process(3, 300, 0)],
                vec![process(1, 450, 450)],
                0,
            ),
            // born and waited for after the last tick, beside one that goes on
            (vec![process(1, 100, 0)], vec![process(1, 300, 150)], 0),
        ];
        for (before, now, reaped) in waited {
            assert_eq!(
                lost_cpu(&before, &now, ms(reaped)),
                ms(0),
                "{before:?} {now:?}"
            );
        }
    }

    #[test]
    fn cpu_of_children_the_kernel_reaped_is_lost_as_last_seen() {
        let ms = Duration::from_millis;
        let before = [process(1, 100, 0), process(2, 300, 0)];
        assert_eq!(lost_cpu(&before, &[process(1, 150, 0)], ms(0)), ms(300));
        // One child waited for, the other reaped by the kernel.
        let before = [process(1, 0, 0), process(2, 300, 0), process(3, 200, 0)];
        assert_eq!(lost_cpu(&before, &[process(1, 250, 250)], ms(0)), ms(250));
    }

    #[test]
    fn a_thread_computing_while_the_first_one_waits_is_seen_computing() {
        // As a JVM runs a program: its first thread only waits for the one that computes.
        let script = "import threading\n\
                      def spin():\n    while True:\n        pass\n\
                      t = threading.Thread(target=spin, daemon=True)\n\
                      t.start()\nprint('spinning', flush=True)\nt.join()\n";
        let mut shell = std::process::Command::new("sh")
            .args(["-c", "python3 -c \"$0\"; :", script])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        let stdout = shell.stdout.take().unwrap();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "spinning\n");
        let first = snapshot(shell.id(), &[], false);
        std::thread::sleep(Duration::from_millis(100));
        let second = snapshot(shell.id(), &[], false);
        let _ = std::process::Command::new("pkill")
            .args(["-P", &shell.id().to_string()])
            .status();
        let _ = shell.kill();
        let _ = shell.wait();
        assert!(first.runnable && second.runnable, "{first:?} {second:?}");
        assert!(
            second.wanted_cpu_ns > first.wanted_cpu_ns,
            "{first:?} {second:?}"
        );
    }
}
