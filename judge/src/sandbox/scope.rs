//! A cgroup of the judge's own, asked of systemd: on cgroup v2 a user (or root in a login
//! session) starts in a group shared with the shell, where no child group can be made. The
//! judge then starts itself again in a delegated transient scope (`systemd-run [--user]
//! --scope -p Delegate=yes`), waits for it, and ends as it ends.
//!
//! `systemd-run` rather than a D-Bus client: it is wherever systemd is, finds the user's
//! manager on any bus, and a failure costs only its start. Without systemd, or if it refuses,
//! the judge goes on in the group it has, and `judge doctor` says why.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Command, ExitCode};
use std::sync::OnceLock;
use std::time::Duration;

/// Set in the judge started inside the scope: the descriptor to tell its start on.
const STARTED_FD: &str = "JUDGE_SCOPE_STARTED_FD";

/// As `judge doctor` tells it.
static HOW: OnceLock<Result<String, String>> = OnceLock::new();

/// The scope `enter` made or why there is none; `None` where it was not asked for.
pub fn how() -> Option<&'static Result<String, String>> {
    HOW.get()
}

/// Runs the judge in a delegated scope where it needs one and systemd makes it: `Some(code)`
/// is the scoped judge's end, for this process to end with; `None`: this process goes on
/// (scoped already, no scope needed, or none to be had: `how` says which).
pub fn enter() -> Option<ExitCode> {
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
