//! The spawner: a small process forked once from the supervisor, starting its runs' programs
//! as the supervisor's children.
//!
//! Not the supervisor itself: a program inherits in its `ru_maxrss` the high-water mark of the
//! memory it leaves at `execve`, and the supervisor holds several MiB. A forked copy holds none
//! of the supervisor's code pages until it runs them, and the spawner runs only its loop (see
//! `launch`), so the mark each child passes on (`clear_refs` 5, right before `execve`) stays
//! small: a program's figure is its own, or that floor.
//!
//! Programs start with `CLONE_PARENT`, so the supervisor waits for and reaps them and gets
//! their orphans. The spawner has no exit signal, so `wait4` without `__WALL` never sees it;
//! its programs get `SIGCHLD` back at `execve`, and orphans when re-parented: "no child to
//! wait for" keeps meaning "no process of the run is left".

use std::ffi::CStr;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};

use std::path::Path;
use std::time::Duration;

use super::isolation::{Builds, ShownBuilds, View};
use super::launch::{confine, confinement, set_signal_mask, sys, Fixed, Launch};
use super::protocol;
use super::Rlimit;

/// One program to start, sent as plain bytes that the spawner reads in place (four counts, the
/// scratch size, the rlimits, then NUL-terminated strings: the arguments, the environment, the
/// working folder and the builds to show): its loop, and so its memory mark, stays a few pages
/// of code.
pub struct SpawnRequest<'a> {
    /// `argc` arguments (the first is the program's path) and `envc` `KEY=VALUE` variables,
    /// each NUL-terminated.
    pub argc: u32,
    pub envc: u32,
    pub strings: &'a [u8],
    pub cwd: &'a [u8],
    pub rlimits: &'a [Rlimit],
    /// The size of a view's `/tmp` and `/dev/shm` for this run (0: as they are).
    pub scratch_bytes: u64,
}

impl SpawnRequest<'_> {
    /// Strings are checked by the judge (no empty command, no NUL); a message that does not
    /// match its counts is refused by the spawner (EPROTO).
    /// `builds`: the keys of the builds to show from this run on, where they change
    /// (`ShownBuilds`).
    fn encode(&self, builds: Option<&[Vec<u8>]>) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(64 + self.strings.len() + self.cwd.len());
        let shown = builds.map_or(BUILDS_UNCHANGED, |keys| keys.len() as u32);
        for count in [self.argc, self.envc, self.rlimits.len() as u32, shown] {
            bytes.extend_from_slice(&count.to_ne_bytes());
        }
        bytes.extend_from_slice(&self.scratch_bytes.to_ne_bytes());
        for &(resource, (soft, hard)) in self.rlimits {
            // The resource type is u32 in glibc, a C int elsewhere.
            #[allow(clippy::unnecessary_cast)]
            bytes.extend_from_slice(&(resource as u32).to_ne_bytes());
            bytes.extend_from_slice(&soft.to_ne_bytes());
            bytes.extend_from_slice(&hard.to_ne_bytes());
        }
        bytes.extend_from_slice(self.strings);
        bytes.extend_from_slice(self.cwd);
        bytes.push(0);
        for key in builds.unwrap_or_default() {
            bytes.extend_from_slice(key);
            bytes.push(0);
        }
        bytes
    }
}

/// In place of a count of builds: the run shows the builds the last one did.
const BUILDS_UNCHANGED: u32 = u32::MAX;

/// A request read in place, kept between requests so that a start allocates nothing.
#[derive(Default)]
struct Decoded {
    /// argv, a null pointer, envp, a null pointer.
    pointers: Vec<*const libc::c_char>,
    argc: usize,
    rlimits: Vec<Rlimit>,
    scratch_bytes: u64,
    /// Where the keys of the builds to show start in the message, and how many there are;
    /// `None` when they are the last run's.
    builds: Option<(usize, usize)>,
}

/// The NUL-terminated string at the start of `bytes`, and the rest.
fn c_str(bytes: &[u8]) -> Option<(&CStr, &[u8])> {
    let mut end = 0;
    while *bytes.get(end)? != 0 {
        end += 1;
    }
    // SAFETY: bytes[..=end] holds exactly one NUL, at its end.
    let string = unsafe { CStr::from_bytes_with_nul_unchecked(&bytes[..=end]) };
    Some((string, &bytes[end + 1..]))
}

/// The `size`-byte number (4 or 8) at `at`.
fn number(message: &[u8], at: usize, size: usize) -> Option<u64> {
    let mut value = [0u8; 8];
    let bytes = message.get(at..at + size)?;
    let mut index = 0;
    while index < size {
        value[index] = bytes[index];
        index += 1;
    }
    Some(u64::from_ne_bytes(value))
}

impl Decoded {
    /// Reads `message`; `None` if it is not a request. The cwd borrows from it.
    fn read<'m>(&mut self, message: &'m [u8]) -> Option<&'m CStr> {
        let argc = number(message, 0, 4)? as usize;
        let envc = number(message, 4, 4)? as usize;
        let limits = number(message, 8, 4)? as usize;
        let builds = number(message, 12, 4)? as u32;
        self.scratch_bytes = number(message, 16, 8)?;
        self.rlimits.clear();
        let mut at = 24;
        for _ in 0..limits {
            let resource = number(message, at, 4)? as libc::__rlimit_resource_t;
            let soft = number(message, at + 4, 8)?;
            let hard = number(message, at + 12, 8)?;
            self.rlimits.push((resource, (soft, hard)));
            at += 20;
        }
        self.pointers.clear();
        let mut rest = message.get(at..)?;
        for count in [argc, envc] {
            for _ in 0..count {
                let (string, after) = c_str(rest)?;
                self.pointers.push(string.as_ptr());
                rest = after;
            }
            self.pointers.push(std::ptr::null());
        }
        self.argc = argc;
        if argc == 0 {
            return None;
        }
        let (cwd, keys) = c_str(rest)?;
        self.builds = None;
        if builds != BUILDS_UNCHANGED {
            let mut rest = keys;
            for _ in 0..builds {
                rest = c_str(rest)?.1;
            }
            self.builds = Some((message.len() - keys.len(), builds as usize));
        }
        Some(cwd)
    }
}

/// The program's pid, or the errno of the step that failed and the pid of the child that
/// failed it (exited: the supervisor's to reap), or 0.
fn reply(pid: libc::pid_t, errno: i32, failed_child: libc::pid_t) -> [i32; 3] {
    [pid, errno, failed_child]
}

pub struct Spawner {
    pid: libc::pid_t,
    socket: OwnedFd,
    /// A contained one's builds, once its view is begun.
    builds: std::cell::RefCell<Option<ShownBuilds>>,
}

/// What makes a spawner the judged programs' one: a view around the run folder (given later,
/// see `begin_view`) in its own mount namespace, and the user they run as.
pub struct Contained<'a> {
    pub workdir: &'a Path,
    /// Instead of the judge's (root's programs run as nobody).
    pub run_as: Option<(u32, u32)>,
}

/// A contained spawner's answer when its view is made (else it says why not).
const VIEW_MADE: &str = "made";

/// The size of a fresh view's `/tmp` and `/dev/shm`, until a run asks for its own.
const FIRST_SCRATCH_BYTES: u64 = 64 << 20;

impl Spawner {
    /// Called while the supervisor is single-threaded, inside its cgroups and namespaces, so
    /// that every program is born inside them. A `contained` spawner readies its loop, then
    /// waits for its view (`begin_view`): its set-up is off the first run's path.
    pub fn start(contained: Option<&Contained>) -> io::Result<Spawner> {
        let (ours, theirs) = protocol::socket_pair()?;
        // SAFETY: a fork with no exit signal (see the module's notes). The caller has a single
        // thread, so the child's copy of the memory is consistent (no lock held elsewhere),
        // and the child never returns from `serve`.
        let pid = unsafe { libc::syscall(libc::SYS_clone, 0, 0, 0, 0, 0) };
        match pid {
            0 => {
                drop(ours);
                serve(theirs, contained)
            }
            pid if pid > 0 => Ok(Spawner {
                pid: pid as libc::pid_t,
                socket: ours,
                builds: Default::default(),
            }),
            _ => Err(io::Error::last_os_error()),
        }
    }

    /// The spawner starts making the view at once (see `finish_view`).
    pub fn begin_view(&self, view: &View) -> io::Result<()> {
        let message = serde_json::to_vec(view).map_err(io::Error::other)?;
        *self.builds.borrow_mut() = ShownBuilds::of(view);
        protocol::send_bytes(self.socket.as_fd(), &message, &[])
    }

    /// Sends the network namespace to join and waits until the view is made; a spawner that
    /// could not make it has ended (and is reaped here). Apart from the view, so that the
    /// view is made before the namespace exists (`Supervisor::join_network_making_view`).
    pub fn finish_view(self, network: BorrowedFd) -> io::Result<Spawner> {
        let sent = match protocol::send_bytes(self.socket.as_fd(), b"", &[network]) {
            // It could not make the view: it said why and ended.
            Err(error) if matches!(error.raw_os_error(), Some(libc::EPIPE | libc::ECONNRESET)) => {
                Ok(())
            }
            sent => sent,
        };
        let refused = match sent.and_then(|()| protocol::receive(&self.socket)) {
            Ok(Some(answer)) if answer.bytes == VIEW_MADE.as_bytes() => return Ok(self),
            Ok(Some(answer)) => String::from_utf8_lossy(&answer.bytes).into_owned(),
            Ok(None) => "the spawner ended before its view was made".to_owned(),
            Err(error) => error.to_string(),
        };
        self.stop();
        Err(io::Error::other(refused))
    }

    pub fn pid(&self) -> u32 {
        self.pid as u32
    }

    /// Starts a program; the outer `Err` means the spawner is gone.
    pub fn spawn(
        &self,
        request: &SpawnRequest,
        stdio: [BorrowedFd; 3],
    ) -> io::Result<io::Result<libc::pid_t>> {
        let mut builds = self.builds.borrow_mut();
        let message = request.encode(builds.as_mut().and_then(|b| b.change_for(request.strings)));
        protocol::send_bytes(self.socket.as_fd(), &message, &stdio)?;
        // The program may stop this spawner before it answers: one that keeps silent is
        // continued, and one killed is gone.
        while !answered_within(self.socket.as_fd(), Duration::from_millis(100)) {
            if !self.revive() {
                return Err(io::Error::other("the spawner has gone"));
            }
        }
        let answer = protocol::receive(&self.socket)?
            .ok_or_else(|| io::Error::other("the spawner has gone"))?;
        let field = |at: usize| {
            answer
                .bytes
                .get(at..at + 4)
                .and_then(|bytes| bytes.try_into().ok())
                .map(i32::from_ne_bytes)
                .ok_or_else(|| io::Error::other("a spawner answer that does not parse"))
        };
        let (pid, errno, failed_child) = (field(0)?, field(4)?, field(8)?);
        if errno == 0 {
            return Ok(Ok(pid));
        }
        if let Some(builds) = builds.as_mut() {
            builds.forget();
        }
        if failed_child > 0 {
            let _ = super::tree::reap(failed_child, true, &mut super::tree::Reaped::default());
        }
        Ok(Err(io::Error::from_raw_os_error(errno)))
    }

    /// Continues the spawner if a program stopped it; `false` (and reaped) if one killed it.
    pub fn revive(&self) -> bool {
        if let Some(pid) = rustix::process::Pid::from_raw(self.pid) {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::CONT);
        }
        let mut reaped = super::tree::Reaped::default();
        super::tree::reap(self.pid, false, &mut reaped).is_none()
    }

    /// Ends the spawner and reaps it, before the cgroups it is in are removed.
    pub fn stop(self) {
        super::tree::kill(self.pid);
        let _ = super::tree::reap(self.pid, true, &mut super::tree::Reaped::default());
    }
}

/// Whether `socket` has something to read within `timeout`.
fn answered_within(socket: BorrowedFd, timeout: Duration) -> bool {
    let mut fds = [rustix::event::PollFd::new(
        &socket,
        rustix::event::PollFlags::IN,
    )];
    let timeout = rustix::event::Timespec::try_from(timeout).unwrap_or_default();
    loop {
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Err(rustix::io::Errno::INTR) => continue,
            Ok(ready) => return ready > 0,
            Err(_) => return true,
        }
    }
}

/// Enters a mount namespace of its own with the view sent, then the network namespace that
/// comes after (see `Spawner::finish_view`). Read into the loop's buffer (`message`): what
/// the spawner holds is the floor of every program's memory figure.
fn enter_view(
    socket: &OwnedFd,
    workdir: &Path,
    message: &mut [u8],
) -> Result<Option<Builds>, String> {
    let Ok(Some((length, _))) = protocol::receive_in(socket, message) else {
        return Err("the supervisor sent no view".into());
    };
    let view: View = protocol::parse(&message[..length]).map_err(|error| error.to_string())?;
    // SAFETY: this forked child has a single thread and shares no file table.
    unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWNS) }
        .map_err(|error| io::Error::from(error).to_string())?;
    let builds = super::isolation::apply(&view, workdir, FIRST_SCRATCH_BYTES)
        .map_err(|error| error.to_string())?;
    let network = match protocol::receive_in(socket, message) {
        Ok(Some((_, fds))) => fds.into_iter().next(),
        _ => None,
    };
    super::isolation::enter_network(&network.ok_or("no network namespace came after the view")?)?;
    Ok(builds)
}

/// Starts programs until the supervisor goes. A `contained` one makes its view first, and
/// sizes its scratch folders as each run asks.
fn serve(socket: OwnedFd, contained: Option<&Contained>) -> ! {
    let run_as = contained.and_then(|contained| contained.run_as);
    // SAFETY: plain system calls. It dies with the supervisor, and keeps only the socket
    // and the standard descriptors open: the supervisor's are none of the programs'.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
        let keep = socket.as_raw_fd() as u32;
        if keep > 3 {
            libc::syscall(libc::SYS_close_range, 3u32, keep - 1, 0u32);
        }
        libc::syscall(libc::SYS_close_range, keep + 1, u32::MAX, 0u32);
        // A program of the `namespaces` level runs as this user and may signal this process:
        // every signal that can wait does, for good (children unblock them before `execve`,
        // see `launch`). SIGSTOP and SIGKILL are the supervisor's to undo (`revive`).
        set_signal_mask(!0);
    }
    // Where the kernel has it: each child resets the mark it passes on (see `launch`).
    let clear_refs = std::fs::OpenOptions::new()
        .write(true)
        .open("/proc/self/clear_refs")
        .ok();
    let mut loop_state = Loop {
        socket: socket.as_raw_fd(),
        message: vec![0u8; 64 * 1024],
        decoded: Decoded {
            pointers: Vec::with_capacity(256),
            argc: 0,
            rlimits: Vec::with_capacity(16),
            scratch_bytes: 0,
            builds: None,
        },
        fixed: Fixed::new(clear_refs.as_ref().map(AsRawFd::as_raw_fd), run_as),
        scratch_bytes: contained.is_some().then_some(FIRST_SCRATCH_BYTES),
        builds: None,
    };
    if let Some(contained) = contained {
        super::held::own_session_keyring();
        let answer = match enter_view(&socket, contained.workdir, &mut loop_state.message) {
            Ok(builds) => {
                loop_state.builds = builds;
                VIEW_MADE.to_owned()
            }
            Err(why) => format!("the view could not be made: {why}"),
        };
        let sent = protocol::send_bytes(socket.as_fd(), answer.as_bytes(), &[]);
        if answer != VIEW_MADE || sent.is_err() {
            // SAFETY: ends this forked child at once (see below).
            unsafe { libc::_exit(1) }
        }
        // Where the kernel refuses (no seccomp), its programs go on without the filter.
        // SAFETY: system calls on a filter that lives through them.
        let _ = unsafe { confine(&confinement()) };
    }
    // The set-up's code is not the loop's: let go of it, so that the first program's mark is
    // as small as the next ones'.
    loop_state.fixed.let_go_of_code();
    loop_state.run();
    // SAFETY: ends this process at once, as a forked child must (no exit handlers of the
    // supervisor's may run twice).
    unsafe { libc::_exit(0) }
}

struct Loop {
    socket: libc::c_int,
    message: Vec<u8>,
    decoded: Decoded,
    fixed: Fixed,
    /// Of the view's `/tmp` and `/dev/shm` now; `None` without a view.
    scratch_bytes: Option<u64>,
    /// The view's builds folder, where it has one.
    builds: Option<Builds>,
}

impl Loop {
    fn run(&mut self) {
        loop {
            let mut stdio = [-1; 3];
            // SAFETY: receives into this loop's own buffers.
            let Some(length) = (unsafe { self.receive(&mut stdio) }) else {
                return;
            };
            let answer = match (self.decoded.read(&self.message[..length]), stdio[2] >= 0) {
                (Some(cwd), true) => {
                    size_scratch(&mut self.scratch_bytes, self.decoded.scratch_bytes);
                    let (argv, envp) = self.decoded.pointers.split_at(self.decoded.argc + 1);
                    let shown = match (&mut self.builds, self.decoded.builds) {
                        (Some(builds), Some((at, count))) => {
                            let mut rest = &self.message[at..length];
                            let keys = (0..count).map_while(|_| {
                                let (key, after) = c_str(rest)?;
                                rest = after;
                                Some(key.to_bytes())
                            });
                            builds.show(keys).map(|()| true)
                        }
                        _ => Ok(false),
                    };
                    if let Ok(true) = shown {
                        // The mounts' code is not the loop's: the mark stays the loop's own.
                        self.fixed.let_go_of_code();
                    }
                    // The judged programs' spawner (the one with a view) has a session
                    // keyring of its own, which the last program may have added keys to.
                    if self.scratch_bytes.is_some() {
                        // SAFETY: a plain system call on this spawner's own session keyring.
                        unsafe { super::held::clear_session_keyring() };
                    }
                    let launch = Launch {
                        argv,
                        envp,
                        cwd,
                        stdio,
                        rlimits: &self.decoded.rlimits,
                        fixed: &self.fixed,
                    };
                    match shown.map(|_| launch.spawn()) {
                        Ok(Ok(pid)) => reply(pid, 0, 0),
                        Ok(Err((errno, child))) => reply(0, errno, child.unwrap_or(0)),
                        Err(error) => reply(0, error.raw_os_error().unwrap_or(libc::EIO), 0),
                    }
                }
                _ => reply(0, libc::EPROTO, 0),
            };
            // SAFETY: closes the descriptors this request lent, and sends from a local.
            unsafe {
                for fd in stdio.into_iter().filter(|&fd| fd >= 0) {
                    let _ = sys(libc::SYS_close, [fd as usize, 0, 0, 0]);
                }
                let message = libc::iovec {
                    iov_base: answer.as_ptr() as *mut libc::c_void,
                    iov_len: std::mem::size_of_val(&answer),
                };
                let mut header: libc::msghdr = std::mem::zeroed();
                header.msg_iov = &message as *const libc::iovec as *mut libc::iovec;
                header.msg_iovlen = 1;
                let header = &header as *const libc::msghdr as usize;
                let flags = libc::MSG_NOSIGNAL as usize;
                if sys(libc::SYS_sendmsg, [self.socket as usize, header, flags, 0]).is_err() {
                    return;
                }
            }
        }
    }
}

/// Resizes the view's `/tmp` and `/dev/shm` (empty between runs) to what a request asks for
/// (its memory limit); `now` is `None` without a view.
fn size_scratch(now: &mut Option<u64>, wanted: u64) {
    if now.is_none_or(|now| now == wanted) || wanted == 0 {
        return;
    }
    // `size=N` written from its end, with no allocation (no leading zero: it would be octal).
    let mut option = [0u8; 32];
    let mut at = option.len() - 1;
    let mut rest = wanted;
    loop {
        at -= 1;
        option[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    at -= 5;
    option[at..at + 5].copy_from_slice(b"size=");
    let Ok(option) = CStr::from_bytes_until_nul(&option[at..]) else {
        return;
    };
    let flags = rustix::mount::MountFlags::NOSUID | rustix::mount::MountFlags::NODEV;
    let all = [c"/tmp", c"/dev/shm"]
        .into_iter()
        .all(|target| rustix::mount::mount_remount(target, flags, option).is_ok());
    if all {
        *now = Some(wanted);
    }
}

impl Loop {
    /// One request into `message`, its lent descriptors into `stdio`; `None` when the
    /// supervisor has gone.
    ///
    /// # Safety
    /// Only in the spawner's loop: it makes raw system calls on the loop's own socket and
    /// buffers, and the descriptors it receives are the caller's to close.
    unsafe fn receive(&mut self, stdio: &mut [libc::c_int; 3]) -> Option<usize> {
        // Room for one SCM_RIGHTS message of three descriptors, aligned for cmsghdr.
        let mut control = [0u64; 8];
        let mut message = libc::iovec {
            iov_base: self.message.as_mut_ptr().cast(),
            iov_len: self.message.len(),
        };
        let mut header: libc::msghdr = std::mem::zeroed();
        header.msg_iov = &mut message;
        header.msg_iovlen = 1;
        header.msg_control = control.as_mut_ptr().cast();
        header.msg_controllen = std::mem::size_of_val(&control) as _;
        let length = loop {
            let header = &mut header as *mut libc::msghdr as usize;
            let flags = libc::MSG_CMSG_CLOEXEC as usize;
            match sys(libc::SYS_recvmsg, [self.socket as usize, header, flags, 0]) {
                Err(libc::EINTR) => continue,
                Err(_) | Ok(0) => return None,
                Ok(length) => break length as usize,
            }
        };
        let cmsg = libc::CMSG_FIRSTHDR(&header);
        if !cmsg.is_null()
            && (*cmsg).cmsg_level == libc::SOL_SOCKET
            && (*cmsg).cmsg_type == libc::SCM_RIGHTS
        {
            let data = libc::CMSG_DATA(cmsg) as *const libc::c_int;
            let count = ((*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize) / 4;
            for (index, slot) in stdio.iter_mut().enumerate().take(count) {
                *slot = data.add(index).read_unaligned();
            }
            // More than three: not a request; close the rest.
            for index in 3..count {
                let _ = sys(
                    libc::SYS_close,
                    [data.add(index).read_unaligned() as usize, 0, 0, 0],
                );
            }
        }
        Some(length)
    }
}
