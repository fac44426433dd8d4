//! Where a slot's helpers run. With two slots or more, each slot's supervisor, spawner and
//! judge thread stay on one CPU, the slots taking the judge's CPUs in turn: each hand-over
//! wakes a process on its own CPU, and two slots never crowd one CPU while another idles.
//! With one slot nothing is pinned: its helpers overlap better on two CPUs. Programs are
//! never pinned: each gets every CPU the judge may use back right before `execve`.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use rustix::thread::CpuSet;

#[derive(Debug)]
pub struct Placement {
    pub cpu: usize,
    /// For its programs.
    pub allowed: Vec<usize>,
}

/// Tells a supervisor started from the binary its programs' CPUs (its own comes with each
/// request).
pub const VARIABLE: &str = "JUDGE_PROGRAM_CPUS";

/// The judge's CPUs, read before any thread was pinned, and where its slots start taking them.
static JUDGE_CPUS: OnceLock<Option<(Vec<usize>, usize)>> = OnceLock::new();
static SLOTS_PLACED: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static PINNED: Cell<Option<usize>> = const { Cell::new(None) };
}

impl Placement {
    /// The judge's CPUs in turn, from the one it started on (so that judges started side by
    /// side do not crowd the first). `None` where the machine will not say them.
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

    fn nth(allowed: &[usize], first: usize, slot: usize) -> Placement {
        Placement {
            cpu: allowed[(first + slot) % allowed.len()],
            allowed: allowed.to_vec(),
        }
    }

    pub fn allowed_variable(&self) -> String {
        let allowed: Vec<String> = self.allowed.iter().map(usize::to_string).collect();
        allowed.join(",")
    }
}

pub fn cpus_from_variable(value: &str) -> Option<Vec<usize>> {
    (value.split(','))
        .map(|cpu| cpu.parse().ok())
        .collect::<Option<Vec<usize>>>()
        .filter(|cpus| !cpus.is_empty())
}

/// In a placed supervisor: its programs' CPUs, on which a run's load is measured.
static PROGRAM_CPUS: OnceLock<CpuSet> = OnceLock::new();

/// In a supervisor, before it forks its spawner.
pub fn remember_program_cpus(cpus: &[usize]) {
    let _ = PROGRAM_CPUS.set(set_of(cpus));
}

/// None while the judge has a single slot.
pub fn slot_cpu(cpu: Option<usize>) -> Option<usize> {
    cpu.filter(|_| SLOTS_PLACED.load(Ordering::Relaxed) >= 2)
}

pub fn pin_process(pid: u32, cpu: usize) {
    let pid = rustix::process::Pid::from_raw(pid as i32);
    let _ = rustix::thread::sched_setaffinity(pid, &set_of(&[cpu]));
}

/// Moves the calling process off `cpu` (its parent's or fresh child's, kept busy) to another
/// of `allowed`, then allows all of `allowed` again: it stays where it went, and what it
/// starts is not held to one CPU.
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

pub fn program_cpus() -> Option<CpuSet> {
    match PROGRAM_CPUS.get() {
        Some(set) => Some(*set),
        None => rustix::thread::sched_getaffinity(None).ok(),
    }
}

/// For a child between clone and exec (raw system calls only); `None` in a supervisor not
/// placed, whose programs inherit its CPUs.
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

fn set_of(cpus: &[usize]) -> CpuSet {
    let mut set = CpuSet::new();
    for &cpu in cpus {
        set.set(cpu);
    }
    set
}

fn cpus_of(set: &CpuSet) -> Vec<usize> {
    (0..CpuSet::MAX_CPU)
        .filter(|&cpu| set.is_set(cpu))
        .collect()
}

/// True when that moved it (false when already there or refused: only speed depends on it).
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

/// Gives the calling thread its CPUs back when dropped: threads it starts later (a pool, a
/// watch loop) inherit its affinity and must not crowd one CPU.
pub struct Unpin(Option<CpuSet>);

impl Unpin {
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
