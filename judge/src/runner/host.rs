//! The judging machine, for a shard's report: name, CPU, and the speed of a fixed loop, so
//! that a merged report can say when its shards' hosts differ in speed.

use std::time::Duration;

use crate::report::record::HostRecord;

/// Long enough to rise above the clock's resolution, short enough to cost a run nothing.
const CALIBRATION_ROUNDS: u64 = 1_000_000;

pub fn this_host(calibration_ms: Option<f64>) -> HostRecord {
    HostRecord {
        name: host_name(),
        cpu_model: cpu_model(),
        cores: std::thread::available_parallelism().map_or(1, usize::from),
        containment: None,
        calibration_ms,
    }
}

/// The fastest of three calibration loops, in CPU time (so that the run it overlaps does not
/// change it), on a thread of its own.
pub fn calibrate() -> std::thread::JoinHandle<f64> {
    std::thread::spawn(|| {
        let fastest = (0..3).map(|_| calibration_loop()).min().unwrap_or_default();
        (fastest.as_secs_f64() * 1e6).round() / 1e3
    })
}

fn host_name() -> String {
    rustix::system::uname()
        .nodename()
        .to_string_lossy()
        .into_owned()
}

fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find_map(|line| line.strip_prefix("model name"))
        .and_then(|rest| rest.split_once(':'))
        .map(|(_, model)| model.trim().to_owned())
}

/// The thread's CPU time for integer work the compiler must keep.
fn calibration_loop() -> Duration {
    let started = thread_cpu_time();
    let mut state = std::hint::black_box(0x9e37_79b9_7f4a_7c15_u64);
    for _ in 0..std::hint::black_box(CALIBRATION_ROUNDS) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
    }
    std::hint::black_box(state);
    thread_cpu_time().saturating_sub(started)
}

fn thread_cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}
