//! What the rest of the machine did during a run, from `/proc/stat`: a bound on how much load
//! can have slowed it, so that a time verdict beyond it needs no re-run alone.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Load {
    /// CPU time spent on anything but the run. Load slows a program only while something else
    /// computes, at most one for one: its CPU time alone is at least its time here less this.
    pub others_us: u64,
    /// How long every CPU the run may use was busy at once: the most any process (the run's
    /// or one it talks to) can have waited for a CPU.
    pub all_busy_us: u64,
}

impl Load {
    pub fn others(&self) -> Duration {
        Duration::from_micros(self.others_us)
    }

    pub fn all_busy(&self) -> Duration {
        Duration::from_micros(self.all_busy_us)
    }
}

/// The busy time of each of the programs' CPUs, at one moment.
#[derive(Debug, Clone)]
pub struct LoadMark {
    at: Instant,
    run_cpu: Duration,
    busy: Vec<Duration>,
}

impl LoadMark {
    /// `None` where `/proc/stat` cannot be read.
    pub fn now(run_cpu: Duration) -> Option<LoadMark> {
        Some(LoadMark {
            at: Instant::now(),
            run_cpu,
            busy: busy_per_cpu()?,
        })
    }

    /// The load from `start` (the run's, before this mark) to now, the run's CPU time now
    /// being `run_cpu`. The time before the mark counts as every other CPU busy.
    pub fn load_until_now(&self, start: Instant, run_cpu: Duration) -> Option<Load> {
        let now = busy_per_cpu()?;
        if now.len() != self.busy.len() {
            return None;
        }
        let spent: Vec<Duration> = (now.iter().zip(&self.busy))
            .map(|(now, then)| now.saturating_sub(*then))
            .collect();
        let unmeasured = self.at.saturating_duration_since(start);
        let total: Duration = spent.iter().sum();
        let others = total.saturating_sub(run_cpu.saturating_sub(self.run_cpu))
            + unmeasured * (spent.len().saturating_sub(1) as u32);
        let all_busy = spent.iter().min().copied().unwrap_or_default() + unmeasured;
        Some(Load {
            others_us: others.as_micros() as u64,
            all_busy_us: all_busy.as_micros() as u64,
        })
    }
}

/// Non-idle time of each of the programs' CPUs: `/proc/stat`'s `cpuN` lines (user, nice,
/// system, idle, iowait, irq, softirq, steal, in ticks). Steal counts as busy: the hypervisor
/// gave the CPU to someone else.
fn busy_per_cpu() -> Option<Vec<Duration>> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    let allowed = super::placement::program_cpus();
    let tick = Duration::from_secs(1) / rustix::param::clock_ticks_per_second() as u32;
    let busy = text
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("cpu")?;
            let (number, fields) = rest.split_once(' ')?;
            let cpu: usize = number.parse().ok()?;
            let allowed = allowed.as_ref().is_none_or(|set| set.is_set(cpu));
            let fields: Vec<u64> = fields
                .split_whitespace()
                .take(8)
                .map(|field| field.parse().unwrap_or(0))
                .collect();
            let idle = fields.get(3).copied().unwrap_or(0) + fields.get(4).copied().unwrap_or(0);
            let all: u64 = fields.iter().sum();
            allowed.then(|| tick * (all - idle) as u32)
        })
        .collect::<Vec<_>>();
    (!busy.is_empty()).then_some(busy)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A busy loop on this thread for `time` of CPU.
    fn spin(time: Duration) {
        let start = cpu_time();
        while cpu_time() - start < time {
            std::hint::black_box(0u64.wrapping_add(1));
        }
    }

    fn cpu_time() -> Duration {
        let usage = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Duration::new(usage.tv_sec as u64, usage.tv_nsec as u32)
    }

    #[test]
    fn computing_elsewhere_is_seen_as_load() {
        let start = Instant::now();
        let mark = LoadMark::now(Duration::ZERO).expect("/proc/stat is readable");
        // This thread is not "the run": its 300 ms count as the machine's other load.
        spin(Duration::from_millis(300));
        let load = mark.load_until_now(start, Duration::ZERO).unwrap();
        assert!(
            load.others() >= Duration::from_millis(250),
            "300 ms of CPU elsewhere, seen as {:?}",
            load.others()
        );
    }

    #[test]
    fn every_cpu_computing_at_once_is_seen_as_all_busy() {
        let cpus = rustix::thread::sched_getaffinity(None)
            .map(|set| set.count() as usize)
            .unwrap_or(1);
        let start = Instant::now();
        let mark = LoadMark::now(Duration::ZERO).expect("/proc/stat is readable");
        std::thread::scope(|scope| {
            for _ in 0..cpus {
                scope.spawn(|| spin(Duration::from_millis(300)));
            }
        });
        let load = mark.load_until_now(start, Duration::ZERO).unwrap();
        assert!(
            load.all_busy() >= Duration::from_millis(200),
            "{cpus} CPUs computing for 300 ms, all busy for {:?}",
            load.all_busy()
        );
    }
}
