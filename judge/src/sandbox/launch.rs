//! Starting a program the way posix_spawn does, plus what posix_spawn cannot do.
//!
//! `clone(CLONE_VM | CLONE_VFORK)` shares the spawner's memory until the child's `execve`, so
//! the child makes only system calls on data prepared beforehand: signals, process group,
//! CPUs (the spawner is kept on one: see `placement`), death with the supervisor, OOM score,
//! rlimits (before exec: the kernel lays out the new program's memory from the stack limit),
//! standard descriptors and working folder, then `execve`.
//!
//! The kernel folds the memory mark left at exec into the program's `ru_maxrss`, so a start
//! decodes no format and calls no library function but `clone` and `syscall`: the spawner's
//! code pages stay few.

use std::ffi::CStr;
use std::os::fd::RawFd;

use super::Rlimit;

/// Everything the child needs, prepared by the parent (the child may not allocate).
pub struct Launch<'a> {
    /// `argv[0]` is the program's path; both lists end with a null pointer.
    pub argv: &'a [*const libc::c_char],
    pub envp: &'a [*const libc::c_char],
    pub cwd: &'a CStr,
    /// Become the child's 0, 1 and 2; the caller keeps them open until `spawn` returns.
    pub stdio: [RawFd; 3],
    pub rlimits: &'a [Rlimit],
    pub fixed: &'a Fixed,
}

/// What every start of one spawner shares, read once when it starts.
pub struct Fixed {
    /// Signals not at their default: the child resets them (an ignored one would stay
    /// ignored across exec, and a handler must not run in the child).
    signals_to_reset: Vec<libc::c_int>,
    /// The supervisor: the programs die with it.
    parent: libc::pid_t,
    /// `/proc/self/clear_refs` open for writing, to reset the spawner's memory mark right
    /// before `execve` to what it holds now, or -1.
    clear_refs: RawFd,
    /// Let go of right before `execve` when the spawner holds more than `MAX_MARK_BYTES`.
    code_regions: Vec<(usize, usize)>,
    /// Made once: a fresh one would be zeroed each time.
    stack: std::cell::UnsafeCell<Vec<u8>>,
    cpus: Option<libc::cpu_set_t>,
    run_as: Option<(u32, u32)>,
}

impl Fixed {
    pub fn new(clear_refs: Option<RawFd>, run_as: Option<(u32, u32)>) -> Fixed {
        Fixed {
            signals_to_reset: signals_not_default(),
            parent: std::os::unix::process::parent_id() as libc::pid_t,
            clear_refs: clear_refs.unwrap_or(-1),
            code_regions: code_regions(),
            stack: std::cell::UnsafeCell::new(vec![0u8; 128 * 1024]),
            cpus: super::placement::raw_program_cpus(),
            run_as,
        }
    }

    /// Drops the pages of the spawner's code: a later access reads them back.
    pub fn let_go_of_code(&self) {
        for &(start, length) in &self.code_regions {
            // SAFETY: the regions are executable file mappings, never written: nothing is lost.
            let _ = unsafe {
                sys(
                    libc::SYS_madvise,
                    [start, length, libc::MADV_DONTNEED as usize, 0],
                )
            };
        }
    }
}

/// The `changeable` signals this process ignores or catches, from the kernel's masks in one
/// read rather than a system call per signal (the spawner's start is on a run's path).
fn signals_not_default() -> Vec<libc::c_int> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let mask = |name: &str| {
        let line = status.lines().find_map(|line| line.strip_prefix(name))?;
        u64::from_str_radix(line.trim(), 16).ok()
    };
    match mask("SigIgn:").zip(mask("SigCgt:")) {
        Some((ignored, caught)) => changeable()
            .filter(|&signal| (ignored | caught) >> (signal - 1) & 1 == 1)
            .collect(),
        None => changeable().filter(|&signal| !is_default(signal)).collect(),
    }
}

/// Every signal but SIGKILL, SIGSTOP and the C library's own (32 up to SIGRTMIN).
fn changeable() -> impl Iterator<Item = libc::c_int> {
    (1..=libc::SIGRTMAX()).filter(|&signal| {
        signal != libc::SIGKILL
            && signal != libc::SIGSTOP
            && !(32..libc::SIGRTMIN()).contains(&signal)
    })
}

fn is_default(signal: libc::c_int) -> bool {
    // SAFETY: queries a disposition into a zeroed sigaction.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut action) != 0
            || action.sa_sigaction == libc::SIG_DFL
    }
}

/// Executable file mappings: code, never written, so dropping its pages loses nothing.
fn code_regions() -> Vec<(usize, usize)> {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    maps.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (range, permissions) = (fields.next()?, fields.next()?);
            let path = fields.nth(3)?;
            if permissions != "r-xp" || !path.starts_with('/') {
                return None;
            }
            let (start, end) = range.split_once('-')?;
            let start = usize::from_str_radix(start, 16).ok()?;
            Some((start, usize::from_str_radix(end, 16).ok()? - start))
        })
        .collect()
}

/// The most the spawner may hold (the floor of a program's memory figure) before it lets go
/// of its code at every start. (In the child, `RUSAGE_SELF`'s peak is what the shared memory
/// holds: the spawner's mark was reset to that.) The bound stands clear of what a release
/// build's loop holds as the page cache maps its code (a fault maps a whole window of the
/// file; figures in docs/performance.md), so that no release build lets go at every start.
const MAX_MARK_BYTES: u64 = 2 << 20;

/// The program, never its supervisor, is the OOM killer's first choice (raising one's own
/// score needs no privilege; lowering the supervisor's does).
const OOM_SCORE_ADJ: &CStr = c"/proc/self/oom_score_adj";

/// A system call's result: `Err(errno)` for the kernel's negative answers.
pub(super) type Sys = Result<libc::c_long, libc::c_int>;

/// A raw system call through libc's `syscall` (errno is the calling thread's).
///
/// # Safety
/// `args` must be what system call `number` takes: every address among them valid for what
/// the call reads or writes there, for as long as it runs.
#[inline(never)]
pub(super) unsafe fn sys(number: libc::c_long, args: [usize; 4]) -> Sys {
    let result = libc::syscall(number, args[0], args[1], args[2], args[3]);
    if result < 0 {
        Err(*libc::__errno_location())
    } else {
        Ok(result)
    }
}

/// The system call's `struct sigaction`.
#[repr(C)]
struct KernelSigaction {
    handler: usize,
    flags: libc::c_ulong,
    restorer: usize,
    mask: u64,
}

/// Sets the calling thread's signal mask (a 64-bit kernel set); returns the old.
///
/// # Safety
/// The caller must be ready for the signals it unblocks to be delivered at once, and must
/// restore the mask before any code that relies on the old one runs.
pub(super) unsafe fn set_signal_mask(mask: u64) -> u64 {
    let mut previous: u64 = 0;
    let _ = sys(
        libc::SYS_rt_sigprocmask,
        [
            libc::SIG_SETMASK as usize,
            &mask as *const u64 as usize,
            &mut previous as *mut u64 as usize,
            8,
        ],
    );
    previous
}

impl Launch<'_> {
    /// Starts the program as a child of this process's parent (`CLONE_PARENT`); its pid once
    /// it has called `execve`. A child that failed before has exited: its errno comes back
    /// with its pid, for the parent to reap.
    pub fn spawn(&self) -> Result<libc::pid_t, (libc::c_int, Option<libc::pid_t>)> {
        let mut child = Child {
            launch: self,
            error: 0,
        };
        // SAFETY: only this (single-threaded) spawner uses the stack, one start at a time.
        let stack = unsafe { &mut *self.fixed.stack.get() };
        let top = stack.as_mut_ptr_range().end as usize & !15;
        // No handler may run on the child's stack: signals stay blocked until it resets them.
        // SAFETY: the child runs on `stack`, which outlives its use (CLONE_VFORK suspends
        // this thread until the child execs or exits), and `child` lives on this frame as
        // long; the mask is restored right after.
        unsafe {
            let previous = set_signal_mask(!0);
            let pid = libc::clone(
                run_child,
                top as *mut libc::c_void,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PARENT,
                (&mut child as *mut Child).cast(),
            );
            let clone_error = *libc::__errno_location();
            set_signal_mask(previous);
            if pid < 0 {
                return Err((clone_error, None));
            }
            // Written by the child (CLONE_VM), unseen by the compiler: volatile.
            let error = std::ptr::read_volatile(&child.error);
            if error != 0 {
                return Err((error, Some(pid)));
            }
            Ok(pid)
        }
    }
}

struct Child<'a> {
    launch: &'a Launch<'a>,
    error: libc::c_int,
}

/// The child, between clone and exec: system calls only.
extern "C" fn run_child(context: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `context` is the parent's `Child`, alive until this process execs or exits;
    // only system calls on data prepared by the parent follow.
    unsafe {
        let child = &mut *(context as *mut Child);
        if let Err(errno) = prepare_and_exec(child.launch) {
            child.error = if errno == 0 { libc::EINVAL } else { errno };
        }
        let _ = sys(libc::SYS_exit, [127, 0, 0, 0]);
        127
    }
}

/// The child's steps; returns only when one failed.
///
/// # Safety
/// Only in the child between `clone` and `exec`, which shares the parent's memory: it may
/// make system calls on data `launch` prepared, and nothing that allocates or takes a lock.
unsafe fn prepare_and_exec(launch: &Launch) -> Sys {
    let fixed = launch.fixed;
    reset_signals(fixed);
    sys(libc::SYS_setpgid, [0, 0, 0, 0])?;
    // If refused (the judge's CPUs changed), it stays on the spawner's CPU: judged alike.
    if let Some(cpus) = &fixed.cpus {
        let size = std::mem::size_of::<libc::cpu_set_t>();
        let cpus = cpus as *const libc::cpu_set_t as usize;
        let _ = sys(libc::SYS_sched_setaffinity, [0, size, cpus, 0]);
    }
    become_first_oom_victim();
    become_user(fixed.run_as)?;
    // If the supervisor is already gone, the signal was missed: end here.
    sys(
        libc::SYS_prctl,
        [
            libc::PR_SET_PDEATHSIG as usize,
            libc::SIGKILL as usize,
            0,
            0,
        ],
    )?;
    if sys(libc::SYS_getppid, [0; 4])? != fixed.parent as libc::c_long {
        return Err(libc::ESRCH);
    }
    for &(resource, (soft, hard)) in launch.rlimits {
        let value = libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        let value = &value as *const libc::rlimit as usize;
        sys(libc::SYS_prlimit64, [0, resource as usize, value, 0])?;
    }
    take_stdio(launch)?;
    pass_on_mark(fixed);
    let (argv, envp) = (launch.argv.as_ptr() as usize, launch.envp.as_ptr() as usize);
    sys(libc::SYS_execve, [launch.argv[0] as usize, argv, envp, 0])
}

/// # Safety
/// As `prepare_and_exec`: only in the child between `clone` and `exec`.
unsafe fn reset_signals(fixed: &Fixed) {
    let default = KernelSigaction {
        handler: libc::SIG_DFL,
        flags: 0,
        restorer: 0,
        mask: 0,
    };
    for &signal in &fixed.signals_to_reset {
        let action = &default as *const KernelSigaction as usize;
        let _ = sys(libc::SYS_rt_sigaction, [signal as usize, action, 0, 8]);
    }
    set_signal_mask(0);
}

/// Makes the program the OOM killer's first pick.
///
/// # Safety
/// As `prepare_and_exec`: only in the child between `clone` and `exec`.
unsafe fn become_first_oom_victim() {
    // Failure is ignored: the score only picks a victim.
    let flags = (libc::O_WRONLY | libc::O_CLOEXEC) as usize;
    let at = libc::AT_FDCWD as usize;
    if let Ok(fd) = sys(
        libc::SYS_openat,
        [at, OOM_SCORE_ADJ.as_ptr() as usize, flags, 0],
    ) {
        let _ = sys(
            libc::SYS_write,
            [fd as usize, b"1000".as_ptr() as usize, 4, 0],
        );
        let _ = sys(libc::SYS_close, [fd as usize, 0, 0, 0]);
    }
}

/// After the OOM score (its file is the old user's) and before the death signal (a change of
/// user clears it).
///
/// # Safety
/// As `prepare_and_exec`: only in the child between `clone` and `exec`.
unsafe fn become_user(run_as: Option<(u32, u32)>) -> Sys {
    if let Some((uid, gid)) = run_as {
        sys(libc::SYS_setgroups, [0, 0, 0, 0])?;
        sys(
            libc::SYS_setresgid,
            [gid as usize, gid as usize, gid as usize, 0],
        )?;
        sys(
            libc::SYS_setresuid,
            [uid as usize, uid as usize, uid as usize, 0],
        )?;
    }
    Ok(0)
}

/// A judged program may make no user namespace: in one of its own it could make IPC and
/// network namespaces whose queues and buffers no reading of the slot's sees, and mount
/// what it likes. The judged programs' spawner puts itself under it once its view is made,
/// and its programs inherit it (one filter made per slot, not per run). `unshare` and `clone` with `CLONE_NEWUSER` fail with EPERM; `clone3`,
/// whose flags a filter cannot read, with ENOSYS (the C library then uses `clone`); and so
/// does every system call of another architecture's table (`int 0x80` on x86-64). Empty
/// where the architecture is not known here.
pub(super) fn confinement() -> Vec<libc::sock_filter> {
    #[cfg(target_arch = "x86_64")]
    const NATIVE: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
    #[cfg(target_arch = "aarch64")]
    const NATIVE: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    return Vec::new();
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        const LOAD: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
        const AND: u16 = (libc::BPF_ALU | libc::BPF_AND | libc::BPF_K) as u16;
        const EQUALS: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
        const HAS_BITS: u16 = (libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K) as u16;
        const RETURN: u16 = (libc::BPF_RET | libc::BPF_K) as u16;
        // `struct seccomp_data`: the call's number, the architecture, the first argument's
        // low half (little-endian).
        const NUMBER: u32 = 0;
        const ARCH: u32 = 4;
        const FIRST_ARGUMENT: u32 = 16;
        let step = |code, jt, jf, k| libc::sock_filter { code, jt, jf, k };
        let fail = |errno: i32| libc::SECCOMP_RET_ERRNO | errno as u32;
        vec![
            step(LOAD, 0, 0, ARCH),
            step(EQUALS, 0, 9, NATIVE), // else: 11
            step(LOAD, 0, 0, NUMBER),
            step(AND, 0, 0, !0x4000_0000), // x32's calls are x86-64's
            step(EQUALS, 6, 0, libc::SYS_clone3 as u32), // 11
            step(EQUALS, 1, 0, libc::SYS_unshare as u32), // 7
            step(EQUALS, 0, 2, libc::SYS_clone as u32), // 7, else 9
            step(LOAD, 0, 0, FIRST_ARGUMENT),
            step(HAS_BITS, 1, 0, libc::CLONE_NEWUSER as u32), // 10, else 9
            step(RETURN, 0, 0, libc::SECCOMP_RET_ALLOW),
            step(RETURN, 0, 0, fail(libc::EPERM)),
            step(RETURN, 0, 0, fail(libc::ENOSYS)),
        ]
    }
}

/// Puts this process under `filter` (none when empty), with no new privileges from then on
/// (a filter needs them, as the user; set-user-ID programs then run as the user).
///
/// # Safety
/// System calls only, on the filter given.
pub(super) unsafe fn confine(filter: &[libc::sock_filter]) -> Sys {
    if filter.is_empty() {
        return Ok(0);
    }
    let program = libc::sock_fprog {
        len: filter.len() as u16,
        filter: filter.as_ptr() as *mut libc::sock_filter,
    };
    // Its three other arguments must be 0: `sys` passes four.
    let no_new_privileges = libc::PR_SET_NO_NEW_PRIVS as usize;
    if libc::syscall(
        libc::SYS_prctl,
        no_new_privileges,
        1usize,
        0usize,
        0usize,
        0usize,
    ) < 0
    {
        return Err(*libc::__errno_location());
    }
    let program = &program as *const libc::sock_fprog as usize;
    let mode = libc::SECCOMP_SET_MODE_FILTER as usize;
    sys(libc::SYS_seccomp, [mode, 0, program, 0])
}

/// # Safety
/// As `prepare_and_exec`: only in the child between `clone` and `exec`.
unsafe fn take_stdio(launch: &Launch) -> Sys {
    for (target, &fd) in launch.stdio.iter().enumerate() {
        if fd as usize == target {
            sys(libc::SYS_fcntl, [target, libc::F_SETFD as usize, 0, 0])?;
        } else {
            sys(libc::SYS_dup3, [fd as usize, target, 0, 0])?;
        }
    }
    sys(libc::SYS_chdir, [launch.cwd.as_ptr() as usize, 0, 0, 0])?;
    // Nothing but the three streams crosses the exec. Marked, not closed: `clear_refs` is
    // still written. CLOEXEC is Linux 5.11 on; before, one by one over the usual range.
    let cloexec = libc::CLOSE_RANGE_CLOEXEC as usize;
    if sys(libc::SYS_close_range, [3, u32::MAX as usize, cloexec, 0]).is_err() {
        for fd in 3..4096 {
            let _ = sys(
                libc::SYS_fcntl,
                [fd, libc::F_SETFD as usize, libc::FD_CLOEXEC as usize, 0],
            );
        }
    }
    Ok(0)
}

/// Sets the memory mark the program's figure starts from to what the spawner holds now: the
/// last step before `execve`.
///
/// # Safety
/// As `prepare_and_exec`: only in the child between `clone` and `exec`.
unsafe fn pass_on_mark(fixed: &Fixed) {
    // A build whose code is spread out (debug) holds more, and lets go of its code here, to
    // read it back after (a cost on every start).
    let mut usage: libc::rusage = std::mem::zeroed();
    let usage_at = &mut usage as *mut libc::rusage as usize;
    let holds = sys(
        libc::SYS_getrusage,
        [libc::RUSAGE_SELF as usize, usage_at, 0, 0],
    )
    .map_or(0, |_| usage.ru_maxrss as u64 * 1024);
    if holds > MAX_MARK_BYTES {
        fixed.let_go_of_code();
    }
    if fixed.clear_refs >= 0 {
        let _ = sys(
            libc::SYS_write,
            [fixed.clear_refs as usize, b"5".as_ptr() as usize, 1, 0],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernels_masks_name_the_signals_the_c_library_sees_changed() {
        let queried =
            || -> Vec<libc::c_int> { changeable().filter(|&signal| !is_default(signal)).collect() };
        // SAFETY: ignores a signal nothing in the tests sends, and puts its disposition back.
        let before = unsafe { libc::signal(libc::SIGUSR2, libc::SIG_IGN) };
        let (first, masks, second) = (queried(), signals_not_default(), queried());
        // SAFETY: as above.
        unsafe { libc::signal(libc::SIGUSR2, before) };
        assert!(masks.contains(&libc::SIGUSR2), "{masks:?}");
        // Unless another test changed a disposition meanwhile, both ways agree on every signal.
        if first == second {
            assert_eq!(masks, first);
        }
    }
}
