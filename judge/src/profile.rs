//! Judge profiles: the defaults a real online judge applies when a problem does not say
//! otherwise (limits, stack size, comparison). `problem.toml` picks one and may override any key.

use std::time::Duration;

use serde::Deserialize;

use crate::compare::CompareMode;

const MIB: u64 = 1024 * 1024;

/// An online judge whose behaviour a problem follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    Boj,
    Swea,
    Programmers,
    Kattis,
}

/// Resource limits for one run of a solution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// CPU time (user + system) allowed per case.
    pub cpu_time: Duration,
    /// Peak resident memory allowed per case.
    pub memory_bytes: u64,
    /// Bytes of standard output kept before the run is stopped as OLE.
    pub output_bytes: u64,
    /// Size of the main thread's stack.
    pub stack_bytes: u64,
}

impl Profile {
    pub const ALL: [Profile; 4] = [
        Profile::Boj,
        Profile::Swea,
        Profile::Programmers,
        Profile::Kattis,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Profile::Boj => "boj",
            Profile::Swea => "swea",
            Profile::Programmers => "programmers",
            Profile::Kattis => "kattis",
        }
    }

    /// Default limits. Per-problem figures on the judges' pages override these in problem.toml;
    /// the README says where each default comes from.
    pub fn limits(self) -> Limits {
        let (time_ms, memory_mib, stack_mib) = match self {
            // Baekjoon: most problems 1 s / 128-256 MB; the stack may use the whole memory limit.
            Profile::Boj => (1000, 256, 256),
            // SW Expert Academy: 256 MB heap, and a famously small 1 MB stack.
            Profile::Swea => (2000, 256, 1),
            // Programmers publishes no limits; generous ones stop only a runaway.
            Profile::Programmers => (10_000, 1024, 8),
            // Kattis problem package format: 2048 MiB default memory; stack = memory.
            Profile::Kattis => (1000, 2048, 2048),
        };
        Limits {
            cpu_time: Duration::from_millis(time_ms),
            memory_bytes: memory_mib * MIB,
            output_bytes: 64 * MIB,
            stack_bytes: stack_mib * MIB,
        }
    }

    pub fn compare(self) -> CompareMode {
        match self {
            Profile::Kattis => CompareMode::Tokens,
            Profile::Boj | Profile::Swea | Profile::Programmers => CompareMode::Lines,
        }
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
