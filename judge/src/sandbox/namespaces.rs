//! The namespaces of a slot's runs, made once by its supervisor where the machine allows:
//! as root directly, else in a user namespace mapping the user to itself (files keep their
//! owner).
//!
//! - network: only a loopback that is down. The keeper makes it beside the supervisor's
//!   set-up (it is the slowest to make) and hands it over (`make_network`);
//! - IPC: System V shared memory and message queues of the slot alone;
//! - PID: the supervisor is init, so every process of a run is its descendant or orphan, and
//!   a run sees (and can signal) no process of the machine's;
//! - mount: the PID namespace's `/proc`, a private `/dev/shm`, and for judged programs the
//!   `view`.
//!
//! A PID namespace is entered by a child: the process forks, the child goes on as the
//! supervisor (PID 1), the parent stays outside as its keeper, which sweeps (it sees the
//! machine's processes) and waits for it. What the machine refuses is left out.

use std::os::fd::{AsFd, OwnedFd, RawFd};

use rustix::mount::{mount, mount_change, MountFlags, MountPropagationFlags};
use rustix::thread::UnshareFlags;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Isolation {
    /// IPC, PID and mount namespaces of the slot's own (the network one is joined later:
    /// see `join_network`).
    pub(super) namespaces: bool,
    /// They are owned by a user namespace made for them (the judge is not root).
    pub(super) user_namespace: bool,
    /// `/dev/shm` is a tmpfs of the slot's own, emptied after every run.
    pub(super) private_shm: bool,
    /// A keeper stays outside the PID namespace (see `keep`): it did the sweep.
    pub(super) kept: bool,
}

pub(super) enum Entered {
    /// The supervisor goes on here, with the socket its keeper (if any) sends the network
    /// namespace on (`join_network`).
    Inside(Isolation, Option<OwnedFd>),
    /// The supervisor's parent, outside its PID namespace: it must `make_network` on
    /// `network`, then `keep`.
    Keeper {
        supervisor: libc::pid_t,
        network: OwnedFd,
    },
}

/// With a PID namespace this process forks: the child is `Inside` (PID 1) and goes on as the
/// supervisor, this process is its `Keeper`.
pub(super) fn enter() -> Entered {
    if std::env::var_os("JUDGE_NO_NAMESPACES").is_some_and(|value| value != "0") {
        return Entered::Inside(Isolation::default(), None);
    }
    let root = rustix::process::getuid().is_root();
    let (uid, gid) = (rustix::process::getuid(), rustix::process::getgid());
    let wanted = UnshareFlags::NEWNS | UnshareFlags::NEWIPC;
    let user = (!root).then_some(UnshareFlags::NEWUSER);
    let all = wanted | UnshareFlags::NEWPID | user.unwrap_or(UnshareFlags::empty());
    // SAFETY: this process is single-threaded and shares no file table: the new namespaces
    // are its and its children's alone.
    let namespaces = unsafe { rustix::thread::unshare_unsafe(all) }.is_ok();
    if !namespaces {
        // Root may still get a mount namespace, for a private `/dev/shm`.
        // SAFETY: as above.
        let mounts = root && unsafe { rustix::thread::unshare_unsafe(UnshareFlags::NEWNS) }.is_ok();
        return Entered::Inside(
            Isolation {
                private_shm: mounts && private_mounts() && private_shm(),
                ..Isolation::default()
            },
            None,
        );
    }
    if !root && !map_user(uid.as_raw(), gid.as_raw()) {
        return Entered::Inside(Isolation::default(), None);
    }
    // Mounts made here must not propagate back to the machine.
    let _ = private_mounts();
    // No fork or socket to hand the network over: the rest still holds, in this process,
    // which makes its network namespace itself.
    let on_its_own = || {
        // SAFETY: single-threaded, as above.
        let _ = unsafe { rustix::thread::unshare_unsafe(UnshareFlags::NEWNET) };
        let isolation = Isolation {
            user_namespace: !root,
            private_shm: private_shm(),
            ..Isolation::default()
        };
        Entered::Inside(isolation, None)
    };
    let Ok((network, keepers_network)) = super::protocol::socket_pair() else {
        return on_its_own();
    };
    // SAFETY: a plain fork of a single-threaded process; the child goes on as the
    // supervisor, the parent never returns from `keep`.
    match unsafe { libc::fork() } {
        0 => drop(keepers_network),
        -1 => return on_its_own(),
        supervisor => {
            return Entered::Keeper {
                supervisor,
                network: keepers_network,
            }
        }
    }
    inside_the_pid_namespace(root, network)
}

/// The supervisor's side of the fork, as PID 1. `network` is where the keeper sends the
/// network namespace.
fn inside_the_pid_namespace(root: bool, network: OwnedFd) -> Entered {
    // A killed keeper takes the slot with it: init's end ends every process of its runs.
    // SAFETY: a plain prctl on this process.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) };
    // Its own mount namespace, so that the keeper keeps the machine's `/proc` (it sweeps by
    // the machine's pids).
    // SAFETY: single-threaded, as above.
    let _ = unsafe { rustix::thread::unshare_unsafe(UnshareFlags::NEWNS) };
    let proc_mounted = mount(
        "proc",
        "/proc",
        "proc",
        MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC,
        None,
    )
    .is_ok();
    if !proc_mounted {
        // The machine's `/proc` would name other processes by this namespace's pids.
        // SAFETY: ends the child at once; the keeper reports it to the judge by ending too.
        unsafe { libc::_exit(1) }
    }
    let isolation = Isolation {
        namespaces: true,
        user_namespace: !root,
        private_shm: private_shm(),
        kept: true,
    };
    Entered::Inside(isolation, Some(network))
}

/// Makes a network namespace on another CPU (of `cpus`) while the supervisor sets up, and
/// sends it (or why not) on `socket`. Made in the slot's user namespace, the slot may join it.
pub(super) fn make_network(socket: OwnedFd, cpus: Option<&[usize]>) {
    if let Some(cpus) = cpus {
        super::placement::leave_cpu(rustix::thread::sched_getcpu(), cpus);
    }
    // SAFETY: the keeper has a single thread and shares no file table.
    let made = unsafe { rustix::thread::unshare_unsafe(UnshareFlags::NEWNET) }
        .map_err(std::io::Error::from)
        .and_then(|()| std::fs::File::open("/proc/self/ns/net"));
    let _ = match made {
        Ok(namespace) => super::protocol::send_bytes(socket.as_fd(), b"", &[namespace.as_fd()]),
        Err(error) => {
            let why = format!("no network namespace: {error}");
            super::protocol::send_bytes(socket.as_fd(), why.as_bytes(), &[])
        }
    };
}

/// The supervisor's side of `make_network`: joins the namespace, returned for the spawner
/// forked before (see `Spawner::finish_view`).
pub(super) fn join_network(socket: OwnedFd) -> Result<OwnedFd, String> {
    let message = super::protocol::receive(&socket)
        .map_err(|error| error.to_string())?
        .ok_or("the keeper sent no network namespace")?;
    let Some(namespace) = message.fds.into_iter().next() else {
        return Err(String::from_utf8_lossy(&message.bytes).into_owned());
    };
    enter_network(&namespace)?;
    Ok(namespace)
}

pub(super) fn enter_network(namespace: &OwnedFd) -> Result<(), String> {
    rustix::thread::move_into_link_name_space(
        namespace.as_fd(),
        Some(rustix::thread::LinkNameSpaceType::Network),
    )
    .map_err(|error| format!("the network namespace could not be joined: {error}"))
}

/// Maps the user and group to themselves (`setgroups` denied, as an unprivileged map needs).
fn map_user(uid: u32, gid: u32) -> bool {
    std::fs::write("/proc/self/setgroups", "deny").is_ok()
        && std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1")).is_ok()
        && std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1")).is_ok()
}

fn private_mounts() -> bool {
    mount_change(
        "/",
        MountPropagationFlags::PRIVATE | MountPropagationFlags::REC,
    )
    .is_ok()
}

/// A fresh tmpfs on `/dev/shm`: emptied after each run, gone with the supervisor, its pages
/// counted as the run's memory.
fn private_shm() -> bool {
    let flags = MountFlags::NOSUID | MountFlags::NODEV;
    mount("judge-shm", "/dev/shm", "tmpfs", flags, Some(c"mode=1777")).is_ok()
}

/// Closes its copy of the judge's socket (the judge must see it close when the supervisor
/// goes), runs `before` (the sweep), then waits for the supervisor and ends as it did.
pub(super) fn keep(socket: RawFd, supervisor: libc::pid_t, before: impl FnOnce()) -> ! {
    // SAFETY: closes this process's copy of a descriptor it owns; the supervisor has its own.
    unsafe { libc::close(socket) };
    before();
    let mut status = 0;
    // SAFETY: waits for this process's own child into a local.
    while unsafe { libc::waitpid(supervisor, &mut status, 0) } == -1
        && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
    {}
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        1
    };
    // SAFETY: ends this forked process at once, without running the judge's exit handlers
    // twice.
    unsafe { libc::_exit(code) }
}

#[cfg(test)]
mod tests {
    use super::super::protocol;
    use super::*;

    #[test]
    fn a_supervisor_whose_keeper_made_no_network_namespace_gets_the_reason() {
        let (supervisors, keepers) = protocol::socket_pair().unwrap();
        let why = b"no network namespace: Operation not permitted (os error 1)";
        protocol::send_bytes(keepers.as_fd(), why, &[]).unwrap();
        assert_eq!(join_network(supervisors).unwrap_err().as_bytes(), why);
        // A keeper gone without a word.
        let (supervisors, keepers) = protocol::socket_pair().unwrap();
        drop(keepers);
        let gone = join_network(supervisors).unwrap_err();
        assert!(gone.contains("sent no network namespace"), "{gone}");
    }
}
