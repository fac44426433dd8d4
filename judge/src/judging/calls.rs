//! A function-form case (`toolchain::harness`): one call per input line, each under the
//! problem's limit, as the judge that calls the function gives it. The run as a whole gets
//! the sum and the start-up's allowance; the caller reports each call's CPU time on its last
//! line of standard error, and the run counts as its slowest call.

use std::path::Path;
use std::time::Duration;

use crate::sandbox::RunOutput;
use crate::toolchain::harness::CALL_TIMES;
use crate::toolchain::Limits;

/// What a runtime spends before its first call (a JVM's start), beside the calls' sum.
const START_UP: Duration = Duration::from_secs(2);

/// The calls in a case's input: its non-blank lines.
pub(super) fn count(input: &Path) -> u32 {
    let text = std::fs::read(input).unwrap_or_default();
    let calls = text
        .split(|&b| b == b'\n')
        .filter(|line| line.iter().any(|b| !b.is_ascii_whitespace()))
        .count();
    calls.try_into().unwrap_or(u32::MAX)
}

/// The limits of the whole run of `calls` calls, each held to `limits`.
pub(super) fn whole_run(limits: Limits, calls: u32) -> Limits {
    Limits {
        cpu_time: limits.cpu_time.saturating_mul(calls.max(1)) + START_UP,
        ..limits
    }
}

/// Takes the caller's report off the run's standard error and makes the run's CPU time its
/// slowest call's: the call's number (from 1) and time, when the caller got to report. The
/// report is a line of its own, last unless a failed call's error follows it.
pub(super) fn slowest(run: &mut RunOutput) -> Option<(usize, Duration)> {
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    let at = stderr.rfind(CALL_TIMES)?;
    let end = stderr[at..]
        .find('\n')
        .map_or(stderr.len(), |line| at + line + 1);
    let times: Vec<u64> = stderr[at + CALL_TIMES.len()..end]
        .trim()
        .split(',')
        .filter_map(|time| time.parse().ok())
        .collect();
    let (before, after) = (&stderr[..at], &stderr[end..]);
    // The newline the caller wrote before its report stays only to end a line before an error.
    let before = match after.is_empty() {
        true => before.strip_suffix('\n').unwrap_or(before),
        false => before,
    };
    run.stderr = [before, after].concat().into_bytes();
    let (index, micros) = times
        .iter()
        .enumerate()
        .max_by_key(|(_, micros)| **micros)?;
    run.cpu_time = Duration::from_micros(*micros);
    Some((index + 1, run.cpu_time))
}

/// The input line of call `number` (from 1), and the line's number, for a message.
pub(super) fn call_line(input: &Path, number: usize) -> Option<(usize, String)> {
    let text = std::fs::read_to_string(input).ok()?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .nth(number - 1)
        .map(|(index, line)| (index + 1, line.trim().to_owned()))
}
