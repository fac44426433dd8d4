//! One run of a program, made by a supervisor process (see `supervisor`): stdin from a file,
//! stdout and stderr into capped buffers, limits enforced over the whole process tree, and
//! nothing left when it ends. It gathers evidence and decides nothing: verdicts are
//! `judging::verdict::decide`'s job.
//!
//! Limits (docs/limits-and-sandbox.md, "Limits and safety"):
//! - CPU time: the whole tree's, from `wait4` of every process, and of processes the kernel
//!   reaped, the slot cgroup's count or else what each had at the watchdog's last reading;
//!   the watchdog reads `/proc` each tick and stops it past `cpu_cutoff`; RLIMIT_CPU per
//!   process as a backstop.
//! - Memory: the larger of the largest process's `ru_maxrss` (the figure online judges show)
//!   and, with a memory cgroup, its peak charge (shared memory, memfd and tmpfs included),
//!   enforced by its hard limit; without one, the tree's resident sum read each tick, and a
//!   loose address-space cap.
//! - Processes: a pids cgroup, else RLIMIT_NPROC (which does not bind root).
//! - Wall time: a backstop for a program that waits instead of computing; a starved one still
//!   computing is waited for, and its CPU time decides.

mod capture;
mod cgroup;
mod handle;
mod held;
mod isolation;
mod launch;
mod load;
mod placement;
mod protocol;
mod run;
mod spawner;
pub mod supervisor;
mod tree;

pub use capture::recycle;
pub use cgroup::enter_scope;
pub use handle::Sandbox;
pub use isolation::View;
pub use load::Load;
pub use placement::Unpin;
pub use run::{
    cpu_cutoff, diagnose, find_on_path, inherited_env, wall_backstop, Containment, Environment,
    Limits, RunOutput, RunSpec, Streams, Termination, BACKSTOP_SLACK,
};

/// Kept to show when a case fails.
pub const STDERR_CAP_BYTES: usize = 64 * 1024;

/// As `setrlimit` takes it: the resource, then its soft and hard values.
pub(crate) type Rlimit = (libc::__rlimit_resource_t, (libc::rlim_t, libc::rlim_t));

/// Whether the running kernel is `major.minor` or later.
pub(crate) fn kernel_at_least(major: u32, minor: u32) -> bool {
    let release = rustix::system::uname()
        .release()
        .to_string_lossy()
        .into_owned();
    let mut numbers = release
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|part| part.parse::<u32>().ok());
    (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0)) >= (major, minor)
}
