//! Starting a program the way posix_spawn does, plus what posix_spawn cannot do.
//!
//! `clone(CLONE_VM | CLONE_VFORK)` shares the supervisor's memory instead of copying its page
//! tables, and the supervisor waits until the child has called `execve`. Until then the child
//! runs on a stack of its own but in the supervisor's memory, so it makes only system calls on
//! data prepared beforehand: default signal handling, its own process group, death with the
//! supervisor, its OOM score, its rlimits (set before exec: the kernel lays out the new
//! program's memory from the stack limit it has then), its three standard descriptors and
//! working folder, then `execve`. The kernel folds the high-water mark of the memory left at
//! exec into the program's `ru_maxrss`: the supervisor is small for that reason.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::Rlimit;

/// Everything the child needs, prepared by the parent (the child may not allocate).
pub struct Launch {
    program: CString,
    argv: Vec<CString>,
    envp: Vec<CString>,
    cwd: CString,
    /// The descriptors that become the child's 0, 1 and 2 (lent: the caller keeps them open
    /// until `spawn` returns).
    stdio: [RawFd; 3],
    rlimits: Vec<Rlimit>,
    /// `/proc/self/oom_score_adj`: the program is the OOM killer's first choice, never its
    /// supervisor (raising one's own score needs no privilege; lowering the supervisor's does)
    /// and the program must not inherit that.
    oom_score_adj: CString,
    signals_to_reset: &'static [libc::c_int],
    /// Regions of the supervisor's memory to drop, and `clear_refs` to reset its high-water
    /// mark with, right before `execve` (see `footprint`).
    drop_regions: Vec<(usize, usize)>,
    clear_refs: RawFd,
}

/// The signals whose disposition in the judge is not the default: the child resets them
/// (an ignored signal would stay ignored across exec, and a handler of the judge must not run
/// in the child before it). Dispositions are set at start-up, so they are read once.
fn signals_to_reset() -> &'static [libc::c_int] {
    static SIGNALS: std::sync::OnceLock<Vec<libc::c_int>> = std::sync::OnceLock::new();
    SIGNALS.get_or_init(|| {
        (1..libc::SIGRTMAX())
            .filter(|&signal| signal != libc::SIGKILL && signal != libc::SIGSTOP)
            .filter(|&signal| {
                // SAFETY: queries a disposition into a zeroed sigaction.
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    libc::sigaction(signal, std::ptr::null(), &mut action) == 0
                        && action.sa_sigaction != libc::SIG_DFL
                }
            })
            .collect()
    })
}

fn c_string(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "a NUL byte in a command, path or variable",
        )
    })
}

impl Launch {
    /// `argv[0]` is the program's path; `env` holds `KEY=VALUE` entries.
    pub fn new(
        argv: &[Vec<u8>],
        env: &[Vec<u8>],
        cwd: &Path,
        stdio: [BorrowedFd; 3],
        rlimits: Vec<Rlimit>,
        footprint: &super::footprint::Footprint,
    ) -> io::Result<Launch> {
        let program = argv
            .first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let envp = env
            .iter()
            .map(|entry| c_string(entry))
            .collect::<io::Result<_>>()?;
        Ok(Launch {
            program: c_string(program)?,
            argv: argv
                .iter()
                .map(|arg| c_string(arg))
                .collect::<io::Result<_>>()?,
            envp,
            cwd: c_string(cwd.as_os_str().as_bytes())?,
            stdio: stdio.map(|fd| fd.as_raw_fd()),
            rlimits,
            oom_score_adj: c_string(b"/proc/self/oom_score_adj")?,
            signals_to_reset: signals_to_reset(),
            drop_regions: footprint.regions().to_vec(),
            clear_refs: footprint.clear_refs().map_or(-1, |fd| fd.as_raw_fd()),
        })
    }

    /// Starts the program; returns its pid once it has called `execve`.
    pub fn spawn(&self) -> io::Result<libc::pid_t> {
        let argv: Vec<*const libc::c_char> = self
            .argv
            .iter()
            .map(|a| a.as_ptr())
            .chain(std::iter::once(std::ptr::null()))
            .collect();
        let envp: Vec<*const libc::c_char> = self
            .envp
            .iter()
            .map(|e| e.as_ptr())
            .chain(std::iter::once(std::ptr::null()))
            .collect();
        let mut child = Child {
            launch: self,
            argv: argv.as_ptr(),
            envp: envp.as_ptr(),
            parent: std::process::id() as libc::pid_t,
            error: 0,
        };
        // The child's stack, made once per thread: a fresh one per start would be zeroed
        // each time (glibc serves it from the heap once a freed mapping raised its threshold).
        thread_local! {
            static STACK: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; 128 * 1024]);
        }
        STACK.with_borrow_mut(|stack| self.spawn_on(stack, &mut child))
    }

    fn spawn_on(&self, stack: &mut [u8], child: &mut Child) -> io::Result<libc::pid_t> {
        let top = stack.as_mut_ptr_range().end as usize & !15;
        // No handler of the supervisor may run on the child's stack: signals stay blocked
        // from before clone until the child has reset them.
        let previous = block_all_signals();
        // SAFETY: the child runs on `stack`, which outlives its use (CLONE_VFORK suspends this
        // thread until the child execs or exits), and `child` lives on this frame as long.
        let pid = unsafe {
            libc::clone(
                run_child,
                top as *mut libc::c_void,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                (child as *mut Child).cast(),
            )
        };
        let clone_error = io::Error::last_os_error();
        restore_signals(&previous);
        if pid < 0 {
            return Err(clone_error);
        }
        // SAFETY: the child wrote `error` in this memory (CLONE_VM) before it exec'd or
        // exited, and is done with it now; volatile, as the compiler cannot see that write.
        let error = unsafe { std::ptr::read_volatile(&child.error) };
        if error != 0 {
            let _ = rustix::process::waitpid(
                rustix::process::Pid::from_raw(pid),
                rustix::process::WaitOptions::empty(),
            );
            return Err(io::Error::from_raw_os_error(error));
        }
        Ok(pid)
    }
}

fn block_all_signals() -> libc::sigset_t {
    // SAFETY: sigset_t is plain data, filled by sigfillset; pthread_sigmask writes the
    // previous mask into `previous`.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut previous: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut previous);
        previous
    }
}

fn restore_signals(previous: &libc::sigset_t) {
    // SAFETY: restores a mask that pthread_sigmask returned.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, previous, std::ptr::null_mut());
    }
}

struct Child<'a> {
    launch: &'a Launch,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
    /// The supervisor: the program dies with it.
    parent: libc::pid_t,
    /// errno of the step that failed, for the parent.
    error: libc::c_int,
}

/// The child, between clone and exec: system calls only.
extern "C" fn run_child(context: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `context` is the parent's `Child`, alive until this process execs or exits; only
    // system calls on data prepared by the parent follow. The regions dropped are private,
    // read-only file mappings with no written page (see `footprint`): nothing is lost, a
    // later access reads them back.
    unsafe {
        let child = &mut *(context as *mut Child);
        let launch = child.launch;
        for &signal in launch.signals_to_reset {
            libc::signal(signal, libc::SIG_DFL);
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::pthread_sigmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        if libc::setpgid(0, 0) != 0 {
            fail(child);
        }
        // Dies with the supervisor, even one killed with SIGKILL; if the supervisor is
        // already gone, the signal was missed: end here.
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0
            || libc::getppid() != child.parent
        {
            fail(child);
        }
        // Where /proc cannot say it, the run goes on: the score only picks a victim.
        let fd = libc::open(
            launch.oom_score_adj.as_ptr(),
            libc::O_WRONLY | libc::O_CLOEXEC,
        );
        if fd >= 0 {
            libc::write(fd, b"1000".as_ptr().cast(), 4);
            libc::close(fd);
        }
        for &(resource, (soft, hard)) in &launch.rlimits {
            let value = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if libc::setrlimit(resource, &value) != 0 {
                fail(child);
            }
        }
        for (target, &fd) in launch.stdio.iter().enumerate() {
            if libc::dup2(fd, target as libc::c_int) < 0 {
                fail(child);
            }
        }
        if libc::chdir(launch.cwd.as_ptr()) != 0 {
            fail(child);
        }
        // Nothing but its three streams crosses the exec: not the supervisor's socket, not
        // what whoever started the judge left open. Marked rather than closed, as the
        // descriptor of `clear_refs` is still written below. Linux 5.11 on; before, one by one
        // over the range descriptors are usually found in.
        if libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        ) != 0
        {
            for fd in 3..4096 {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
        // Last: nothing may touch more of the supervisor's pages before the exec.
        for &(start, length) in &launch.drop_regions {
            libc::madvise(start as *mut libc::c_void, length, libc::MADV_DONTNEED);
        }
        if launch.clear_refs >= 0 {
            libc::write(launch.clear_refs, b"5".as_ptr().cast(), 1);
        }
        libc::execve(launch.program.as_ptr(), child.argv, child.envp);
        fail(child)
    }
}

/// Hands the failing step's errno to the parent and ends the child.
unsafe fn fail(child: &mut Child) -> ! {
    child.error = *libc::__errno_location();
    if child.error == 0 {
        child.error = libc::EINVAL;
    }
    libc::_exit(127)
}
