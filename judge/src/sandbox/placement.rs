//! Where a slot's helpers run. Once the judge has two slots, each slot's supervisor, its
//! spawner and the judge thread that talks to them stay on one CPU, the slots taking the
//! judge's CPUs in turn: each hand-over of a run (the request, the start, the report) then
//! wakes a process on the CPU it is on, and two slots never crowd one CPU while another
//! idles (`tiny -j2` 1.27-1.33x -> 1.08-1.13x the floor in paired rounds; the supervisors
//! alone pinned gave 2%). A judge with one slot pins nothing: its helpers then overlap on
//! two CPUs (`tiny -j1` went 1.19x -> 1.26x pinned). Programs are never pinned: each gets
//! back every CPU the judge may use right before its `execve`.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use rustix::thread::CpuSet;

/// A slot's CPU, and the CPUs its programs may use.
#[derive(Debug)]
pub struct Placement {
    pub cpu: usize,
    pub allowed: Vec<usize>,
}

/// The environment variable that tells a supervisor started from the binary its programs'
/// CPUs (its own CPU comes with each request, once the judge has two slots).
pub const VARIABLE: &str = "JUDGE_PROGRAM_CPUS";

/// The judge's CPUs, read when its first slot was placed (before any of its threads was
/// pinned), and where its slots start taking them.
static JUDGE_CPUS: OnceLock<Option<(Vec<usize>, usize)>> = OnceLock::new();
static SLOTS_PLACED: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// The CPU this thread was pinned to, if any.
    static PINNED: Cell<Option<usize>> = const { Cell::new(None) };
}

impl Placement {
    /// The next slot's place: the judge's CPUs in turn, from the one it started on (so that
    /// judges started side by side do not all crowd the first CPU). `None` where the
    /// machine will not say which CPUs this process may use.
    pub fn next() -> Option<Placement> {
        let (allowed, first) = JUDGE_CPUS
            .get_or_init(|| {
                let allowed = cpus_of(&rustix::thread::sched_getaffinity(None).ok()?);
                let here = rustix::thread::sched_getcpu();
                let first = allowed.iter().position(|&cpu| cpu == here).unwrap_or(0);
                (!allowed.is_empty()).then_some((allowed, first))
            })
            .as_ref()?;
        let slot = SLOTS_PLACED.fetch_add(1, Ordering::Relaxed);
        Some(Placement::nth(allowed, *first, slot))
    }

    /// Slot `slot`'s place when slots take `allowed` in turn from its `first`.
    fn nth(allowed: &[usize], first: usize, slot: usize) -> Placement {
        Placement {
            cpu: allowed[(first + slot) % allowed.len()],
            allowed: allowed.to_vec(),
        }
    }

    /// The programs' CPUs as `VARIABLE` says them: separated by commas.
    pub fn allowed_variable(&self) -> String {
        let allowed: Vec<String> = self.allowed.iter().map(usize::to_string).collect();
        allowed.join(",")
    }
}

/// The CPUs `VARIABLE` names, or `None` for a value that does not parse.
pub fn cpus_from_variable(value: &str) -> Option<Vec<usize>> {
    (value.split(','))
        .map(|cpu| cpu.parse().ok())
        .collect::<Option<Vec<usize>>>()
        .filter(|cpus| !cpus.is_empty())
}

/// In a supervisor: the CPUs its programs may use, once it was placed. The load over a run is
/// measured on these, not on the supervisor's own one.
static PROGRAM_CPUS: OnceLock<CpuSet> = OnceLock::new();

/// In a supervisor, before it forks its spawner: remembers the programs' CPUs.
pub fn remember_program_cpus(cpus: &[usize]) {
    let _ = PROGRAM_CPUS.set(set_of(cpus));
}

/// The CPU to keep a slot's helpers on, for the slot placed on `cpu`: none while the judge
/// has a single slot.
pub fn slot_cpu(cpu: Option<usize>) -> Option<usize> {
    cpu.filter(|_| SLOTS_PLACED.load(Ordering::Relaxed) >= 2)
}

/// Keeps the process `pid` (a supervisor's spawner) on `cpu`; see `pin_this_thread`.
pub fn pin_process(pid: u32, cpu: usize) {
    let pid = rustix::process::Pid::from_raw(pid as i32);
    let _ = rustix::thread::sched_setaffinity(pid, &set_of(&[cpu]));
}

/// Moves the calling process off `cpu` (one that another process keeps busy: its parent's,
/// or the child's it has just forked) when it is there, to another of `allowed`, and then
/// gives it every CPU of `allowed` back: it stays where it went, and what it starts is not
/// held to one CPU.
pub fn leave_cpu(cpu: usize, allowed: &[usize]) {
    if rustix::thread::sched_getcpu() != cpu || allowed.len() < 2 {
        return;
    }
    let others: Vec<usize> = allowed
        .iter()
        .copied()
        .filter(|&other| other != cpu)
        .collect();
    let _ = rustix::thread::sched_setaffinity(None, &set_of(&others));
    let _ = rustix::thread::sched_setaffinity(None, &set_of(allowed));
}

/// The CPUs a program of this process may use.
pub fn program_cpus() -> Option<CpuSet> {
    match PROGRAM_CPUS.get() {
        Some(set) => Some(*set),
        None => rustix::thread::sched_getaffinity(None).ok(),
    }
}

/// The programs' CPUs as `sched_setaffinity` takes them, for a child between clone and exec
/// (which makes raw system calls only); `None` in a supervisor that was not placed, whose
/// programs inherit its own CPUs.
pub fn raw_program_cpus() -> Option<libc::cpu_set_t> {
    let cpus = cpus_of(PROGRAM_CPUS.get()?);
    // SAFETY: a zeroed cpu_set_t is the empty set; CPU_SET writes within it (every CPU
    // number here is below CpuSet::MAX_CPU, which is CPU_SETSIZE).
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for cpu in cpus {
            libc::CPU_SET(cpu, &mut set);
        }
        Some(set)
    }
}

/// The set of `cpus`.
fn set_of(cpus: &[usize]) -> CpuSet {
    let mut set = CpuSet::new();
    for &cpu in cpus {
        set.set(cpu);
    }
    set
}

/// The CPUs in `set`.
fn cpus_of(set: &CpuSet) -> Vec<usize> {
    (0..CpuSet::MAX_CPU)
        .filter(|&cpu| set.is_set(cpu))
        .collect()
}

/// Keeps the calling thread on `cpu`; true when that moved it (false when it already was
/// there, or the kernel refused: only speed depends on it).
pub fn pin_this_thread(cpu: usize) -> bool {
    if PINNED.get() == Some(cpu) {
        return false;
    }
    let moved = rustix::thread::sched_setaffinity(None, &set_of(&[cpu])).is_ok();
    if moved {
        PINNED.set(Some(cpu));
    }
    moved
}

/// Gives the calling thread back the CPUs it had when made, when dropped: threads it starts
/// later (a pool, a watch loop) inherit its affinity and must not all crowd one CPU.
pub struct Unpin(Option<CpuSet>);

impl Unpin {
    /// Frees the calling thread from its CPU when the guard is dropped.
    pub fn on_drop() -> Unpin {
        Unpin(rustix::thread::sched_getaffinity(None).ok())
    }
}

impl Drop for Unpin {
    fn drop(&mut self) {
        if let Some(set) = &self.0 {
            if PINNED.get().is_some() && rustix::thread::sched_setaffinity(None, set).is_ok() {
                PINNED.set(None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_programs_cpus_survive_their_variable() {
        let placement = Placement::nth(&[1, 3, 8], 0, 0);
        let back = cpus_from_variable(&placement.allowed_variable());
        assert_eq!(back, Some(vec![1, 3, 8]));
        // A malformed or empty list names none.
        assert_eq!(cpus_from_variable("1,x"), None);
        assert_eq!(cpus_from_variable(""), None);
    }

    #[test]
    fn slots_take_the_cpus_in_turn_from_the_first() {
        // The judge started on CPU 8, the last of its three.
        let cpus: Vec<usize> = (0..4)
            .map(|slot| Placement::nth(&[1, 3, 8], 2, slot).cpu)
            .collect();
        assert_eq!(cpus, [8, 1, 3, 8]);
    }
}
