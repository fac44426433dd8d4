//! What a run holds in the kernel outside its processes, in the slot's own IPC and network
//! namespaces: memory no process's figures show (counted for want of a memory cgroup), and
//! objects that would outlive the run (removed after it): IPC objects and keys.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// What runs leave in the slot's IPC namespace, which outlives them: System V shared memory,
/// message queues and semaphore sets, and POSIX message queues (seen through a mount of the
/// namespace's own `mqueue` file system, where it may be made).
pub(super) struct IpcLeftovers {
    queues: Option<OwnedFd>,
}

/// Keys a run adds to the kernel's keyrings, which outlive it: its user's keyrings (user,
/// user-session, persistent) where they are the slot's alone, or where its programs run as
/// `nobody`, whose keyrings are cleared after a run that changed their keys. (The session
/// keyring is the judged programs' spawner's own: see `own_session_keyring`.)
pub(super) struct Keyrings {
    /// The programs' user keyrings are this process's, in the slot's user namespace
    /// (keyrings are per user namespace from Linux 5.3).
    own: bool,
    /// Root's programs run as `nobody` (uid, gid): its line of `/proc/key-users` as the slot
    /// started, and that file, kept open.
    nobody: Option<((u32, u32), String, std::fs::File)>,
}

const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;
const KEYCTL_CLEAR: libc::c_long = 7;
const KEYCTL_GET_PERSISTENT: libc::c_long = 22;
const KEY_SPEC_PROCESS_KEYRING: libc::c_long = -2;
const KEY_SPEC_SESSION_KEYRING: libc::c_long = -3;
const KEY_SPEC_USER_KEYRING: libc::c_long = -4;
const KEY_SPEC_USER_SESSION_KEYRING: libc::c_long = -5;

impl Keyrings {
    pub(super) fn new(user_namespace: bool, nobody: Option<(u32, u32)>) -> Keyrings {
        let key_users = std::fs::File::open("/proc/key-users").ok();
        Keyrings {
            own: user_namespace && super::kernel_at_least(5, 3),
            nobody: nobody.zip(key_users).map(|((uid, gid), file)| {
                let before = key_user(&file, uid);
                ((uid, gid), before, file)
            }),
        }
    }

    /// Empties what the run's programs could add keys to.
    pub(super) fn remove(&self) {
        if self.own {
            // SAFETY: plain system calls on this process's own keyrings.
            unsafe { clear_user_keyrings() };
        }
        if let Some(((uid, gid), before, file)) = &self.nobody {
            if key_user(file, *uid) != *before {
                clear_keyrings_as(*uid, *gid);
            }
        }
    }
}

/// A new session keyring for the calling process and the programs it starts, instead of the
/// user's login session's (some 0.2-0.5 ms: the judged programs' spawner makes it while it
/// waits for its view).
pub(super) fn own_session_keyring() {
    // SAFETY: a plain system call.
    unsafe { libc::syscall(libc::SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, 0usize) };
}

/// Empties the calling process's session keyring: what the last program added.
///
/// # Safety
/// A plain system call: the spawner's loop makes it before each start.
pub(super) unsafe fn clear_session_keyring() {
    let (clear, session) = (KEYCTL_CLEAR as usize, KEY_SPEC_SESSION_KEYRING as usize);
    let _ = super::launch::sys(libc::SYS_keyctl, [clear, session, 0, 0]);
}

/// Clears the calling process's user, user-session and persistent keyrings.
///
/// # Safety
/// System calls only: also called in a forked child.
unsafe fn clear_user_keyrings() {
    for keyring in [KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING] {
        libc::syscall(libc::SYS_keyctl, KEYCTL_CLEAR, keyring);
    }
    // Linked into this process's own keyring: the session keyring may be the user's.
    let persistent = libc::syscall(
        libc::SYS_keyctl,
        KEYCTL_GET_PERSISTENT,
        -1 as libc::c_long,
        KEY_SPEC_PROCESS_KEYRING,
    );
    if persistent > 0 {
        libc::syscall(libc::SYS_keyctl, KEYCTL_CLEAR, persistent);
    }
}

/// Clears `uid`'s keyrings from a child that becomes it (only a process of that user may
/// name them).
fn clear_keyrings_as(uid: u32, gid: u32) {
    // SAFETY: the child makes system calls only, then ends; the parent waits for it.
    unsafe {
        let child = libc::fork();
        if child == 0 {
            let became = libc::syscall(libc::SYS_setgroups, 0usize, 0usize) == 0
                && libc::syscall(libc::SYS_setresgid, gid, gid, gid) == 0
                && libc::syscall(libc::SYS_setresuid, uid, uid, uid) == 0;
            if became {
                clear_user_keyrings();
            }
            libc::_exit(0);
        }
        if child > 0 {
            let mut status = 0;
            libc::waitpid(child, &mut status, libc::__WALL);
        }
    }
}

/// `uid`'s line of `/proc/key-users` (its keys' count and size; empty if it has none), read
/// from its start.
fn key_user(file: &std::fs::File, uid: u32) -> String {
    use std::os::unix::fs::FileExt;
    let mut table = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    while let Ok(read) = file.read_at(&mut chunk, table.len() as u64) {
        if read == 0 {
            break;
        }
        table.extend_from_slice(&chunk[..read]);
    }
    let prefix = format!("{uid}:");
    let table = String::from_utf8_lossy(&table);
    let line = table
        .lines()
        .find(|line| line.trim_start().starts_with(&prefix));
    line.unwrap_or_default().to_owned()
}

/// Each kind of System V object: how many there are, its `/proc/sysvipc` table, and the
/// call that removes one.
type SystemV = (
    unsafe fn() -> libc::c_int,
    &'static str,
    unsafe fn(libc::c_int),
);

const SYSTEM_V: [SystemV; 3] = [
    (count_shm, "/proc/sysvipc/shm", remove_shm),
    (count_msg, "/proc/sysvipc/msg", remove_msg),
    (count_sem, "/proc/sysvipc/sem", remove_sem),
];

impl IpcLeftovers {
    /// In the slot's IPC namespace (not the machine's: all would be removed).
    pub(super) fn new() -> IpcLeftovers {
        use rustix::mount::{fsconfig_create, fsmount, fsopen, FsMountFlags, FsOpenFlags};
        let queues = (|| {
            let fs = fsopen("mqueue", FsOpenFlags::FSOPEN_CLOEXEC).ok()?;
            fsconfig_create(&fs).ok()?;
            let flags = FsMountFlags::FSMOUNT_CLOEXEC;
            fsmount(&fs, flags, rustix::mount::MountAttrFlags::empty()).ok()
        })();
        IpcLeftovers { queues }
    }

    /// Removes every object. A count first, so that a run that made none costs a few
    /// system calls.
    pub(super) fn remove(&self) {
        for (count, table, remove) in SYSTEM_V {
            // SAFETY: each call writes only into a buffer of its own.
            if unsafe { count() } <= 0 {
                continue;
            }
            // Each table's second column is the object's id.
            let listed = std::fs::read_to_string(table).unwrap_or_default();
            for line in listed.lines().skip(1) {
                if let Some(id) = line
                    .split_whitespace()
                    .nth(1)
                    .and_then(|id| id.parse().ok())
                {
                    // SAFETY: removing an object by id touches no memory of this process.
                    unsafe { remove(id) }
                }
            }
        }
        if let Some(queues) = &self.queues {
            remove_queues(queues);
        }
    }
}

/// The `*_INFO` answers (`struct shm_info`, `msginfo`, `seminfo`) are at most ten C ints and
/// five longs; each count is the number of objects of the namespace (`used_ids`, `msgpool`,
/// `semusz`), or -1 when refused.
unsafe fn count_shm() -> libc::c_int {
    const SHM_INFO: libc::c_int = 14;
    let mut answer = [0 as libc::c_int; 32];
    match libc::shmctl(0, SHM_INFO, answer.as_mut_ptr().cast()) {
        -1 => -1,
        _ => answer[0],
    }
}

unsafe fn count_msg() -> libc::c_int {
    msg_info().map_or(-1, |answer| answer[0])
}

/// `MSG_INFO`'s answer: queues (0), messages (1) and their bytes (6) among the limits.
unsafe fn msg_info() -> Option<[libc::c_int; 32]> {
    let mut answer = [0 as libc::c_int; 32];
    match libc::msgctl(0, libc::MSG_INFO, answer.as_mut_ptr().cast()) {
        -1 => None,
        _ => Some(answer),
    }
}

unsafe fn count_sem() -> libc::c_int {
    let mut answer = [0 as libc::c_int; 32];
    match libc::semctl(0, 0, libc::SEM_INFO, answer.as_mut_ptr()) {
        -1 => -1,
        _ => answer[7],
    }
}

unsafe fn remove_shm(id: libc::c_int) {
    libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
}

unsafe fn remove_msg(id: libc::c_int) {
    libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut());
}

unsafe fn remove_sem(id: libc::c_int) {
    libc::semctl(id, 0, libc::IPC_RMID);
}

/// Unlinks every queue of the `mqueue` mount `root`; its size counts them (20 bytes each).
fn remove_queues(root: &OwnedFd) {
    use rustix::fs::{AtFlags, Mode, OFlags};
    // An empty one's is two entries' (`.` and `..`).
    if rustix::fs::fstat(root).is_ok_and(|stat| stat.st_size <= 40) {
        return;
    }
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let Ok(dir) = rustix::fs::openat(root, ".", flags, Mode::empty()) else {
        return;
    };
    let Ok(entries) = rustix::fs::Dir::read_from(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name != c"." && name != c".." {
            let _ = rustix::fs::unlinkat(&dir, name, AtFlags::empty());
        }
    }
}

/// Resident bytes of this IPC namespace's System V shared memory (`/proc/sysvipc/shm`).
pub(super) fn system_v_shared_bytes() -> u64 {
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

/// The bytes queued in this IPC namespace's System V message queues: memory of the kernel's
/// that a run holds, which no process's figures show.
pub(super) fn queued_message_bytes() -> u64 {
    // SAFETY: the call writes only into a buffer of its own.
    unsafe { msg_info() }.map_or(0, |answer| answer[6].max(0) as u64)
}

/// The bytes the Unix sockets of this network namespace hold in their queues (`sock_diag`'s
/// memory figures, as `ss -xm` shows them): kernel memory a run holds, which no process's
/// figures show. 0 where refused.
pub(super) fn queued_socket_bytes() -> u64 {
    const NETLINK_SOCK_DIAG: libc::c_int = 4;
    const SOCK_DIAG_BY_FAMILY: u16 = 20;
    const DUMP_REQUEST: u16 = 0x301; // NLM_F_REQUEST | NLM_F_DUMP
    const UDIAG_SHOW_MEMINFO: u32 = 0x20;
    // SAFETY: plain system calls on a socket of this function's own, closed at its end,
    // and buffers that live through them.
    unsafe {
        let flags = libc::SOCK_DGRAM | libc::SOCK_CLOEXEC;
        let fd = libc::socket(libc::AF_NETLINK, flags, NETLINK_SOCK_DIAG);
        if fd < 0 {
            return 0;
        }
        let socket = OwnedFd::from_raw_fd(fd);
        // nlmsghdr (length, type, flags, sequence, port), then unix_diag_req (family,
        // protocol, padding, states, inode, what to show, cookie).
        let mut request = Vec::with_capacity(40);
        request.extend_from_slice(&40u32.to_ne_bytes());
        request.extend_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
        request.extend_from_slice(&DUMP_REQUEST.to_ne_bytes());
        request.extend_from_slice(&[0; 8]);
        request.extend_from_slice(&[libc::AF_UNIX as u8, 0, 0, 0]);
        request.extend_from_slice(&u32::MAX.to_ne_bytes());
        request.extend_from_slice(&0u32.to_ne_bytes());
        request.extend_from_slice(&UDIAG_SHOW_MEMINFO.to_ne_bytes());
        request.extend_from_slice(&[0; 8]);
        let fd = socket.as_raw_fd();
        if libc::send(fd, request.as_ptr().cast(), request.len(), 0) < 0 {
            return 0;
        }
        let mut buffer = vec![0u8; 32 * 1024];
        let mut total = 0;
        loop {
            let length = libc::recv(fd, buffer.as_mut_ptr().cast(), buffer.len(), 0);
            if length <= 0 {
                return total;
            }
            match socket_memory(&buffer[..length as usize]) {
                Answer::More(bytes) => total += bytes,
                Answer::Done(bytes) => return total + bytes,
                Answer::Refused => return 0,
            }
        }
    }
}

enum Answer {
    More(u64),
    Done(u64),
    Refused,
}

/// The sockets' queued bytes (`SK_MEMINFO_RMEM_ALLOC` and `_WMEM_ALLOC` of each message's
/// `UNIX_DIAG_MEMINFO`) in one datagram of a `sock_diag` dump.
fn socket_memory(datagram: &[u8]) -> Answer {
    const DONE: u16 = 3;
    const ERROR: u16 = 2;
    const UNIX_DIAG_MEMINFO: u16 = 5;
    let u16_at = |bytes: &[u8], at: usize| {
        bytes
            .get(at..at + 2)
            .map(|b| u16::from_ne_bytes([b[0], b[1]]))
    };
    let u32_at = |bytes: &[u8], at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut total = 0u64;
    let mut at = 0;
    while let (Some(length), Some(kind)) = (u32_at(datagram, at), u16_at(datagram, at + 4)) {
        let length = length as usize;
        match kind {
            DONE => return Answer::Done(total),
            ERROR => return Answer::Refused,
            _ => {}
        }
        let Some(message) = datagram.get(at..at + length).filter(|_| length >= 32) else {
            break;
        };
        // After the header (16 bytes) and unix_diag_msg (16), attributes of (length, type).
        let mut attribute = 32;
        while let (Some(size), Some(kind)) =
            (u16_at(message, attribute), u16_at(message, attribute + 2))
        {
            let size = size as usize;
            if size < 4 {
                break;
            }
            if kind == UNIX_DIAG_MEMINFO {
                let figure = |index: usize| u32_at(message, attribute + 4 + 4 * index).unwrap_or(0);
                total += u64::from(figure(0)) + u64::from(figure(2));
            }
            attribute += (size + 3) & !3;
        }
        at += (length + 3) & !3;
    }
    Answer::More(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_unix_sockets_queue_is_read() {
        use std::os::unix::net::UnixDatagram;
        let before = queued_socket_bytes();
        let (sender, _receiver) = UnixDatagram::pair().unwrap();
        for _ in 0..4 {
            sender.send(&[7u8; 32 * 1024]).unwrap();
        }
        // The machine's other sockets may queue more or less meanwhile.
        let after = queued_socket_bytes();
        assert!(after >= before + 100 * 1024, "{before} then {after}");
    }
}
