//! What a slot's runs see of the machine: their namespaces, and the view of its files.
//!
//! The namespaces are made once by the slot's supervisor where the machine allows: as root
//! directly, else in a user namespace mapping the user to itself (files keep their owner).
//!
//! - network: only a loopback that is down. The keeper makes it beside the supervisor's
//!   set-up (it is the slowest to make) and hands it over (`make_network`);
//! - IPC: System V shared memory and message queues of the slot alone;
//! - PID: the supervisor is init, so every process of a run is its descendant or orphan, and
//!   a run sees (and can signal) no process of the machine's;
//! - mount: the PID namespace's `/proc`, a private `/dev/shm`, and for judged programs the
//!   `View`.
//!
//! A PID namespace is entered by a child: the process forks, the child goes on as the
//! supervisor (PID 1), the parent stays outside as its keeper, which sweeps (it sees the
//! machine's processes) and waits for it. What the machine refuses is left out.
//!
//! The view: all of the machine's files read-only but the run folder and the program's own
//! `/tmp` and `/dev/shm`, with what it must not read (the repository and its expected outputs,
//! homes, services) hidden behind empty folders, except toolchains and the build cache in
//! them. Made once per slot, in the mount namespace of the spawner of judged programs (see
//! `supervisor`); builds, references, generators and checkers keep the machine's files.

use std::os::fd::{AsFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use rustix::fs::CWD;
use rustix::mount::{mount, mount_change, move_mount, open_tree, MountFlags};
use rustix::mount::{MountPropagationFlags, MoveMountFlags, OpenTreeFlags};
use rustix::thread::UnshareFlags;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Seen as empty folders.
    pub hidden: Vec<PathBuf>,
    /// Seen, read-only, inside a hidden folder.
    pub kept: Vec<PathBuf>,
    /// A folder of builds inside a hidden one, seen empty but for the builds a run names
    /// (see `Builds`): a program reaches its own build, and no other. Settled: the folder
    /// resolved, then the path it was named by if another (as run commands name it).
    #[serde(default)]
    pub builds: Vec<PathBuf>,
}

/// A program reads no home and reaches no service (a socket in `/run` is reachable from any
/// network namespace).
const ALWAYS_HIDDEN: &[&str] = &["/home", "/root", "/run", "/var/run", "/mnt", "/media"];

/// Where version managers and language tools put themselves under a home.
const TOOLCHAINS_IN_HOME: &[&str] = &[
    ".rustup", ".cargo", ".pyenv", ".sdkman", ".nvm", ".local", ".jdks", ".asdf", ".volta",
    ".deno", ".bun", "go", ".ghcup", ".opam", ".dotnet", ".juliaup", ".konan", ".gradle",
];

impl View {
    /// Hides `hidden` (the repository, problem folders outside it), the homes, `/run` and the
    /// like; keeps `kept` (the build cache) and the toolchains the environment names.
    pub fn hiding(hidden: &[&Path], kept: &[&Path]) -> View {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut view = View {
            hidden: hidden.iter().map(|path| path.to_path_buf()).collect(),
            kept: kept.iter().map(|path| path.to_path_buf()).collect(),
            builds: Vec::new(),
        };
        view.hidden.extend(ALWAYS_HIDDEN.iter().map(PathBuf::from));
        view.hidden.extend(home.clone());
        if let Some(home) = &home {
            view.kept
                .extend(TOOLCHAINS_IN_HOME.iter().map(|name| home.join(name)));
        }
        // Folders the toolchain variables name (`RUSTUP_HOME`, `JAVA_HOME`, ...).
        let not_toolchains = ["HOME", "PATH", "LANG", "USER", "LOGNAME"];
        for (key, value) in super::Environment::Build.variables() {
            if !not_toolchains.contains(&key) && !key.starts_with("XDG_") {
                view.kept.extend(std::env::split_paths(value));
            }
        }
        // A PATH entry keeps its parent (`~/.cargo/bin` keeps `~/.cargo`), or itself alone when
        // the parent would be a hidden folder.
        let path = std::env::var_os("PATH").unwrap_or_default();
        for entry in std::env::split_paths(&path) {
            let kept = match entry.parent() {
                Some(parent) if !view.hidden.iter().any(|hidden| hidden.starts_with(parent)) => {
                    parent.to_path_buf()
                }
                _ => entry,
            };
            view.kept.push(kept);
        }
        view
    }

    pub fn hide(&mut self, folder: &Path) {
        self.hidden.push(folder.to_path_buf());
    }

    /// `builds` (in a hidden folder) shows each run the builds its command names.
    pub fn attaching(mut self, builds: &Path) -> View {
        self.builds = vec![builds.to_path_buf()];
        self
    }

    /// The view as the files are now (a folder made since, such as the build cache, counts):
    /// absolute, existing, resolved (a link counts where it leads), each once, and a kept
    /// folder only inside a hidden one.
    pub(super) fn settle(mut self) -> View {
        let resolve = |paths: Vec<PathBuf>| -> Vec<PathBuf> {
            let mut resolved: Vec<PathBuf> = paths
                .into_iter()
                .filter(|path| path.is_absolute())
                .filter_map(|path| path.canonicalize().ok())
                .filter(|path| path.is_dir() && path != Path::new("/"))
                .collect();
            resolved.sort();
            resolved.dedup();
            resolved
        };
        self.hidden = resolve(self.hidden);
        self.kept = resolve(self.kept);
        // `/tmp` and `/dev/shm` are fresh in the view: what is kept in them counts as inside.
        let replaced = [Path::new("/tmp"), Path::new("/dev/shm")];
        let hidden: Vec<&Path> = self.hidden.iter().map(PathBuf::as_path).collect();
        // Outside, a folder is seen whole anyway; one both kept and hidden is hidden.
        let inside_hidden = |path: &Path| {
            !hidden.contains(&path)
                && (hidden.iter().chain(&replaced))
                    .any(|hidden| path.starts_with(hidden) && path != *hidden)
        };
        self.kept.retain(|kept| inside_hidden(kept));
        let named = std::mem::take(&mut self.builds);
        if let Some(resolved) = resolve(named.clone())
            .pop()
            .filter(|path| inside_hidden(path))
        {
            let other: Vec<PathBuf> = named
                .into_iter()
                .filter(|path| path.is_absolute() && *path != resolved)
                .collect();
            self.builds = std::iter::once(resolved).chain(other).collect();
        }
        self
    }
}

enum MountStep {
    Hide,
    Keep(OwnedFd),
    /// Kept writable.
    RunFolder(OwnedFd),
    /// A fresh, writable, sticky tmpfs (`/tmp`, `/dev/shm`).
    Scratch,
}

/// Makes `view` in this process's own mount namespace (made by the caller); `/tmp` and
/// `/dev/shm` hold at most `scratch_bytes` each. The builds folder's, if it has one.
pub(super) fn apply(
    view: &View,
    workdir: &Path,
    scratch_bytes: u64,
) -> std::io::Result<Option<Builds>> {
    let clone = |path: &Path| {
        open_tree(
            CWD,
            path,
            OpenTreeFlags::OPEN_TREE_CLONE
                | OpenTreeFlags::OPEN_TREE_CLOEXEC
                | OpenTreeFlags::AT_RECURSIVE,
        )
    };
    // Taken before anything is hidden or made read-only.
    let mut steps: Vec<(PathBuf, MountStep)> = vec![
        (workdir.to_path_buf(), MountStep::RunFolder(clone(workdir)?)),
        (PathBuf::from("/tmp"), MountStep::Scratch),
        (PathBuf::from("/dev/shm"), MountStep::Scratch),
    ];
    for kept in &view.kept {
        // One that cannot be taken (gone, unreadable) is hidden with the rest.
        if let Ok(fd) = clone(kept) {
            steps.push((kept.clone(), MountStep::Keep(fd)));
        }
    }
    steps.extend(
        view.hidden
            .iter()
            .map(|path| (path.clone(), MountStep::Hide)),
    );
    let builds = Builds::open(&view.builds)?;
    if let Some(path) = view.builds.first() {
        steps.push((path.clone(), MountStep::Hide));
    }
    // A folder before what is in it; of two steps on one path, hiding first.
    steps.sort_by(|(a, x), (b, y)| {
        a.components()
            .count()
            .cmp(&b.components().count())
            .then(matches!(y, MountStep::Hide).cmp(&matches!(x, MountStep::Hide)))
    });
    set_read_only(CWD, "/", true)?;
    // A program may name its threads and raise its OOM score: `/proc` stays writable.
    let _ = clear_read_only("/proc");
    let mut made: Vec<PathBuf> = Vec::new();
    let scratch = format!("mode=1777,size={scratch_bytes}");
    let scratch = std::ffi::CString::new(scratch).expect("no NUL in a number");
    for (path, step) in steps {
        if !path.exists() && std::fs::create_dir_all(&path).is_err() {
            continue;
        }
        let flags = MountFlags::NOSUID | MountFlags::NODEV;
        match step {
            MountStep::Hide => {
                mount(
                    "judge-hidden",
                    &path,
                    "tmpfs",
                    flags,
                    Some(c"mode=0755,size=1m"),
                )?;
                made.push(path);
            }
            MountStep::Scratch => {
                mount("judge-tmp", &path, "tmpfs", flags, Some(scratch.as_c_str()))?
            }
            MountStep::Keep(fd) => {
                set_read_only(fd.as_fd(), "", true)?;
                attach(&fd, &path)?;
            }
            MountStep::RunFolder(fd) => attach(&fd, &path)?,
        }
    }
    // The empty folders are read-only too, once the mount points in them exist.
    for path in made {
        set_read_only(CWD, &path, false)?;
    }
    Ok(builds)
}

/// The builds folder in a view: an empty, read-only tmpfs over the real one, in which each
/// run's own builds (those its command or environment names) are attached, read-only, as it
/// starts, and detached when a run names others. So a program lists, reads and runs its own
/// build alone: not the builds of other solutions, nor of references, generators and
/// checkers, which run outside the view.
pub(super) struct Builds {
    /// The real folder, beneath the tmpfs.
    real: OwnedFd,
    /// Where the tmpfs is.
    folder: PathBuf,
    /// The keys (folder names) attached now.
    attached: Vec<Vec<u8>>,
}

impl Builds {
    /// Opened before a folder hides it: builds are attached from it, run by run.
    fn open(paths: &[PathBuf]) -> std::io::Result<Option<Builds>> {
        use rustix::fs::{Mode, OFlags};
        let Some(folder) = paths.first() else {
            return Ok(None);
        };
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let real = rustix::fs::open(folder, flags, Mode::empty())?;
        Ok(Some(Builds {
            real,
            folder: folder.clone(),
            attached: Vec::new(),
        }))
    }

    /// Shows the builds of these keys (`ShownBuilds` names them), and only those.
    pub(super) fn show<'k>(&mut self, keys: impl Iterator<Item = &'k [u8]>) -> std::io::Result<()> {
        let wanted: Vec<&[u8]> = keys.collect();
        if let Some(bad) = wanted.iter().find(|key| !is_key(key)) {
            let bad = String::from_utf8_lossy(bad);
            return Err(std::io::Error::other(format!("`{bad}` names no build")));
        }
        // Writable while its mount points come and go.
        clear_read_only(&self.folder)?;
        let mut shown = Ok(());
        for key in std::mem::take(&mut self.attached) {
            if wanted.contains(&key.as_slice()) {
                self.attached.push(key);
            } else {
                // Lazily: nothing of the last run is left to hold it.
                let path = self.folder.join(as_path(&key));
                let _ = rustix::mount::unmount(&path, rustix::mount::UnmountFlags::DETACH);
                let _ = std::fs::remove_dir(&path);
            }
        }
        for key in wanted {
            if self.attached.iter().any(|held| held == key) {
                continue;
            }
            if let Err(error) = self.attach(key) {
                shown = Err(error);
                break;
            }
            self.attached.push(key.to_vec());
        }
        set_read_only(CWD, &self.folder, false)?;
        shown
    }

    fn attach(&self, key: &[u8]) -> std::io::Result<()> {
        let path = self.folder.join(as_path(key));
        let tree = open_tree(
            self.real.as_fd(),
            as_path(key),
            OpenTreeFlags::OPEN_TREE_CLONE
                | OpenTreeFlags::OPEN_TREE_CLOEXEC
                | OpenTreeFlags::AT_RECURSIVE,
        )?;
        set_read_only(tree.as_fd(), "", true)?;
        if !path.exists() {
            std::fs::create_dir(&path)?;
        }
        attach(&tree, &path)
    }
}

/// What a spawner's `Builds` shows, as the supervisor keeps track of it: the supervisor finds
/// the builds a run's arguments and environment name, and sends their keys only when they
/// change, so the spawner's loop runs no scan (code it runs at every start counts in every
/// program's memory mark).
pub(super) struct ShownBuilds {
    /// The folder's paths (`View::builds`), each with a `/` at its end: how a run's strings
    /// name a build.
    prefixes: Vec<Vec<u8>>,
    /// The keys the last request named; `None` when unknown (none yet, or a start failed).
    shown: Option<Vec<Vec<u8>>>,
}

impl ShownBuilds {
    pub(super) fn of(view: &View) -> Option<ShownBuilds> {
        use std::os::unix::ffi::OsStrExt;
        let prefixes = (view.builds.iter())
            .map(|path| [path.as_os_str().as_bytes(), b"/"].concat())
            .collect();
        (!view.builds.is_empty()).then_some(ShownBuilds {
            prefixes,
            shown: None,
        })
    }

    /// The keys of the builds a run with these NUL-terminated strings names, where they are
    /// not the last run's.
    pub(super) fn change_for(&mut self, strings: &[u8]) -> Option<&[Vec<u8>]> {
        let strings = strings.split(|&byte| byte == 0).filter(|s| !s.is_empty());
        let wanted = keys_named(&self.prefixes, strings);
        let same = (self.shown.as_ref())
            .is_some_and(|shown| shown.iter().map(Vec::as_slice).eq(wanted.iter().copied()));
        if same {
            return None;
        }
        let shown = self
            .shown
            .insert(wanted.into_iter().map(<[u8]>::to_vec).collect());
        Some(shown)
    }

    /// After a start that failed: the spawner may show anything.
    pub(super) fn forget(&mut self) {
        self.shown = None;
    }
}

/// A build's folder name: one path component, below the folder.
fn is_key(key: &[u8]) -> bool {
    !key.is_empty() && key != b"." && key != b".." && !key.contains(&b'/')
}

/// The builds (folder names) `strings` name below any of `prefixes`, each once.
fn keys_named<'s>(prefixes: &[Vec<u8>], strings: impl Iterator<Item = &'s [u8]>) -> Vec<&'s [u8]> {
    let mut keys: Vec<&[u8]> = Vec::new();
    for string in strings {
        for prefix in prefixes {
            let mut rest = string;
            while let Some(at) = find(rest, prefix) {
                rest = &rest[at + prefix.len()..];
                // A class path goes on after a `:`.
                let end = rest
                    .iter()
                    .position(|&byte| byte == b'/' || byte == b':')
                    .unwrap_or(rest.len());
                let key = &rest[..end];
                if is_key(key) && !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
    }
    keys
}

/// Where `needle` (a path, starting with `/`) first is in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at + needle.len() <= haystack.len() {
        if haystack[at] == needle[0] && haystack[at..].starts_with(needle) {
            return Some(at);
        }
        at += 1;
    }
    None
}

fn as_path(bytes: &[u8]) -> &Path {
    Path::new(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(bytes))
}

fn attach(tree: &OwnedFd, path: &Path) -> std::io::Result<()> {
    Ok(move_mount(
        tree.as_fd(),
        "",
        CWD,
        path,
        MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
    )?)
}

/// The machine's files as a detached read-only tree, to open cases' inputs through: a
/// program that runs as the input's owner (the `namespaces` level) can then neither open its
/// stdin again for writing (`/proc/self/fd/0`) nor change its mode. `None` where the kernel
/// refuses (no mount namespace to clone in, before Linux 5.12).
pub(super) fn read_only_root() -> Option<OwnedFd> {
    let flags = OpenTreeFlags::OPEN_TREE_CLONE
        | OpenTreeFlags::OPEN_TREE_CLOEXEC
        | OpenTreeFlags::AT_RECURSIVE;
    let tree = open_tree(CWD, "/", flags).ok()?;
    set_read_only(&tree, "", true).ok()?;
    Some(tree)
}

/// Opens the input at `path` (absolute) through `root` (see `read_only_root`), its links
/// resolved inside it; where that fails (a mount made since), as it is.
pub(super) fn open_input(root: Option<&OwnedFd>, path: &Path) -> std::io::Result<OwnedFd> {
    use rustix::fs::{Mode, OFlags, ResolveFlags};
    let relative = path.strip_prefix("/").unwrap_or(path);
    let flags = OFlags::RDONLY | OFlags::CLOEXEC;
    let through_root = root.map(|root| {
        rustix::fs::openat2(root, relative, flags, Mode::empty(), ResolveFlags::IN_ROOT)
    });
    match through_root {
        Some(Ok(input)) => Ok(input),
        _ => Ok(std::fs::File::open(path)?.into()),
    }
}

/// `mount_setattr(2)`'s argument (Linux 5.12 on; rustix has no wrapper yet).
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// `path` is relative to `dir` (empty: `dir` itself).
fn set_read_only(dir: impl AsFd, path: impl AsRef<Path>, recursive: bool) -> std::io::Result<()> {
    let mut flags = if recursive { libc::AT_RECURSIVE } else { 0 };
    if path.as_ref().as_os_str().is_empty() {
        flags |= libc::AT_EMPTY_PATH;
    }
    mount_setattr(dir, path.as_ref(), flags, libc::MOUNT_ATTR_RDONLY, 0)
}

fn clear_read_only(path: impl AsRef<Path>) -> std::io::Result<()> {
    mount_setattr(CWD, path.as_ref(), 0, 0, libc::MOUNT_ATTR_RDONLY)
}

fn mount_setattr(
    dir: impl AsFd,
    path: &Path,
    flags: libc::c_int,
    set: u64,
    clear: u64,
) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(path.as_os_str().as_bytes())?;
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: the path and the attribute live through the call, whose size argument is the
    // attribute's.
    let result = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            dir.as_fd().as_raw_fd(),
            path.as_ptr(),
            flags,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if result < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

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
    use super::*;

    #[test]
    fn a_kept_folder_counts_only_inside_a_hidden_one_or_a_fresh_tmp() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        let cache = repo.join("target/judge");
        std::fs::create_dir_all(&cache).unwrap();
        let view = View {
            hidden: vec![repo.clone(), root.path().join("missing")],
            // `/usr` is seen anyway; `/tmp` is a fresh folder in the view.
            kept: vec![
                cache.clone(),
                PathBuf::from("/usr"),
                repo.clone(),
                root.path().into(),
            ],
            builds: Vec::new(),
        }
        .settle();
        let (repo, root) = (
            repo.canonicalize().unwrap(),
            root.path().canonicalize().unwrap(),
        );
        assert_eq!(view.hidden, std::slice::from_ref(&repo));
        let mut expected = vec![repo.join("target/judge")];
        if root.starts_with("/tmp") {
            expected.insert(0, root);
        }
        assert_eq!(view.kept, expected);
    }

    #[test]
    fn builds_are_attached_only_inside_a_hidden_folder_and_by_both_their_names() {
        let root = tempfile::tempdir().unwrap();
        let cache = root.path().join("cache");
        std::fs::create_dir_all(cache.join("builds")).unwrap();
        let link = root.path().join("link");
        std::os::unix::fs::symlink(&cache, &link).unwrap();
        let settled = |hidden: Vec<PathBuf>| {
            View {
                hidden,
                kept: Vec::new(),
                builds: vec![link.join("builds")],
            }
            .settle()
            .builds
        };
        let resolved = cache.canonicalize().unwrap().join("builds");
        assert_eq!(
            settled(vec![cache.clone()]),
            [resolved.clone(), link.join("builds")]
        );
        // Seen whole where nothing hides it (but in a fresh `/tmp`); hidden with a folder it
        // is itself.
        assert_eq!(
            settled(Vec::new()).is_empty(),
            !resolved.starts_with("/tmp")
        );
        assert!(settled(vec![cache.join("builds")]).is_empty());
    }

    #[test]
    fn a_run_names_its_builds_by_the_folder_they_are_in() {
        let prefixes = [b"/c/builds/".to_vec(), b"/l/builds/".to_vec()];
        let strings: [&[u8]; 5] = [
            b"/c/builds/aa/main",
            b"-cp",
            b"/c/builds/bb:/usr/share/java/x.jar:/l/builds/cc/lib",
            b"CLASSPATH=/c/builds/aa/",
            b"/c/builds/../secret /c/builds/",
        ];
        let keys = keys_named(&prefixes, strings.into_iter());
        assert_eq!(keys, [&b"aa"[..], b"bb", b"cc"]);
    }

    /// `Builds::show` in a forked child with a mount namespace of its own (and a user
    /// namespace, unless root): how many mounts each build's folder has once runs naming
    /// `[x, y]`, `[x]`, `[x, y]` and `[y]` started, one number a build, each 0 or 1.
    fn mounts_after_runs() -> Option<[usize; 2]> {
        let base = tempfile::tempdir().unwrap();
        let folder = base.path().join("builds");
        for key in ["x", "y"] {
            std::fs::create_dir_all(folder.join(key)).unwrap();
        }
        let (read, write) = rustix::pipe::pipe().unwrap();
        // SAFETY: the child makes system calls and small allocations (glibc's fork leaves its
        // allocator usable), writes its answer and ends with `_exit`.
        match unsafe { libc::fork() } {
            0 => {
                let counts = (|| -> Option<[u8; 2]> {
                    let uid = rustix::process::getuid().as_raw();
                    let gid = rustix::process::getgid().as_raw();
                    let root = uid == 0;
                    let user = if root { 0 } else { libc::CLONE_NEWUSER };
                    // SAFETY: a single-threaded child.
                    if unsafe { libc::unshare(libc::CLONE_NEWNS | user) } != 0 {
                        return None;
                    }
                    if !root {
                        std::fs::write("/proc/self/setgroups", "deny").ok()?;
                        std::fs::write("/proc/self/uid_map", format!("0 {uid} 1")).ok()?;
                        std::fs::write("/proc/self/gid_map", format!("0 {gid} 1")).ok()?;
                    }
                    use rustix::mount::MountPropagationFlags as Propagation;
                    let private = Propagation::REC | Propagation::PRIVATE;
                    rustix::mount::mount_change("/", private).ok()?;
                    let mut builds = Builds::open(std::slice::from_ref(&folder)).ok()??;
                    mount("judge-hidden", &folder, "tmpfs", MountFlags::empty(), None).ok()?;
                    for keys in [&[b"x", b"y"][..], &[b"x"], &[b"x", b"y"], &[b"y"]] {
                        builds.show(keys.iter().map(|key| &key[..])).ok()?;
                    }
                    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
                    let count = |key: &str| {
                        let point = folder.join(key);
                        let point = point.to_str().unwrap();
                        let on = |line: &&str| line.split(' ').nth(4) == Some(point);
                        mounts.lines().filter(on).count() as u8
                    };
                    Some([count("x"), count("y")])
                })();
                let answer = counts.unwrap_or([u8::MAX; 2]);
                let _ = rustix::io::write(&write, &answer);
                // SAFETY: ends the forked child at once.
                unsafe { libc::_exit(0) }
            }
            child => {
                drop(write);
                let mut answer = [0u8; 2];
                let read_all = rustix::io::read(&read, &mut answer);
                // SAFETY: reaps the child forked above.
                unsafe { libc::waitpid(child, std::ptr::null_mut(), 0) };
                (read_all == Ok(2) && answer != [u8::MAX; 2]).then(|| answer.map(usize::from))
            }
        }
    }

    #[test]
    fn a_build_shown_again_is_mounted_once_and_one_no_longer_named_is_taken_away() {
        match mounts_after_runs() {
            Some(counts) => assert_eq!(counts, [0, 1], "mounts of x and y"),
            None => assert!(
                std::env::var_os("CI").is_none(),
                "no mount namespace could be made here"
            ),
        }
    }

    #[test]
    fn the_spawner_is_sent_a_runs_builds_only_when_they_change() {
        let view = View {
            builds: vec![PathBuf::from("/c/builds")],
            ..View::default()
        };
        let mut shown = ShownBuilds::of(&view).unwrap();
        let mut sent = |strings: &[u8]| shown.change_for(strings).map(<[Vec<u8>]>::to_vec);
        let first = b"/c/builds/aa/main\0-x\0PATH=/usr/bin\0";
        assert_eq!(
            sent(first),
            Some(vec![b"aa".to_vec()]),
            "nothing is known before the first run"
        );
        assert_eq!(sent(first), None);
        // Other flags, the same build.
        assert_eq!(sent(b"/c/builds/aa/main\0-y\0"), None);
        assert_eq!(
            sent(b"/c/builds/bb/main\0CLASSPATH=/c/builds/aa\0"),
            Some(vec![b"bb".to_vec(), b"aa".to_vec()])
        );
        assert_eq!(
            sent(b"/usr/bin/python3\0"),
            Some(Vec::new()),
            "no build at all is a change too"
        );
        assert_eq!(sent(b"/usr/bin/python3\0"), None);
        shown.forget();
        assert_eq!(shown.change_for(b"/usr/bin/python3\0"), Some(&[][..]));
        assert!(ShownBuilds::of(&View::default()).is_none());
    }

    use super::super::protocol;

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
