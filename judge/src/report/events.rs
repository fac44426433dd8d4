//! What a run reports: the verdict on each case with its evidence, and the totals of a
//! problem and of the whole run. The runner produces these; reporters consume them.

use std::time::Duration;

use crate::compare::diff::DiffLine;
use crate::error::Outcome;
use crate::judging::verdict::{Verdict, VerdictKind};

/// The verdict on one case and the evidence behind it.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// The case's name: its path below the problem folder, without extension.
    pub name: String,
    pub verdict: Verdict,
    pub cpu_time: Duration,
    pub wall_time: Duration,
    pub peak_memory_bytes: u64,
    /// The verdict is the one of a serial re-run near the time limit.
    pub confirmed: bool,
    /// A time limit verdict that the machine's load cannot have caused (`verdict::beyond_load`
    /// says when), so no re-run alone is needed to confirm it.
    pub beyond_load: bool,
    /// What a person needs to see when the case is not accepted.
    pub failure: Option<Failure>,
    /// The score the output validator gave an accepted case (`score.txt`), if any.
    pub score: Option<crate::judging::score::ValidatorScore>,
}

/// Why a case was not accepted.
#[derive(Debug, Clone, Default)]
pub struct Failure {
    /// Where and why, in one line.
    pub message: String,
    /// For a wrong answer found by comparing: where, to find the sub-case in the input.
    pub mismatch: Option<crate::compare::Mismatch>,
    /// The outputs around the first difference, for a wrong answer.
    pub diff: Vec<DiffLine>,
    /// The last lines the program wrote to stderr.
    pub stderr: String,
}

/// Totals for one problem or for the whole run.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub cases: usize,
    /// Cases per verdict kind, indexed by the kind's place in `VerdictKind::ALL`.
    counts: [usize; VerdictKind::ALL.len()],
    pub max_cpu_time: Duration,
    pub max_peak_memory_bytes: u64,
}

impl Tally {
    /// Counts one case.
    pub fn add(&mut self, result: &CaseResult) {
        self.add_case(result.verdict, result.cpu_time, result.peak_memory_bytes);
    }

    /// Counts one case from its verdict and figures.
    pub fn add_case(&mut self, verdict: Verdict, cpu_time: Duration, peak_memory_bytes: u64) {
        self.cases += 1;
        self.counts[verdict.kind() as usize] += 1;
        self.max_cpu_time = self.max_cpu_time.max(cpu_time);
        self.max_peak_memory_bytes = self.max_peak_memory_bytes.max(peak_memory_bytes);
    }

    /// How many cases got a verdict of `kind`.
    pub fn count(&self, kind: VerdictKind) -> usize {
        self.counts[kind as usize]
    }

    pub fn accepted(&self) -> usize {
        self.count(VerdictKind::Accepted)
    }

    /// The kinds that some case got, with their counts, in the order of `VerdictKind::ALL`.
    pub fn by_verdict(&self) -> impl Iterator<Item = (VerdictKind, usize)> + '_ {
        VerdictKind::ALL
            .into_iter()
            .map(|kind| (kind, self.count(kind)))
            .filter(|&(_, count)| count > 0)
    }

    /// Adds another tally's cases to this one.
    pub fn merge(&mut self, other: &Tally) {
        self.cases += other.cases;
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
        self.max_cpu_time = self.max_cpu_time.max(other.max_cpu_time);
        self.max_peak_memory_bytes = self.max_peak_memory_bytes.max(other.max_peak_memory_bytes);
    }
}

/// What a whole run came to.
#[derive(Debug, Clone, Default)]
pub struct RunSummary {
    pub problems: usize,
    pub tally: Tally,
    pub compiled: usize,
    pub cached: usize,
    pub compile_errors: usize,
    pub errors: usize,
    /// Cases not judged because an earlier case of the same solution failed (`fail_fast`).
    pub skipped: usize,
    /// The signal that stopped the run before every case was judged: the caller exits with
    /// 128 plus it, as a shell would.
    pub interrupted: Option<i32>,
    pub wall_time: Duration,
}

impl RunSummary {
    pub fn outcome(&self) -> Outcome {
        if self.errors > 0 {
            Outcome::Error
        } else if self.compile_errors > 0 || self.tally.accepted() < self.tally.cases {
            Outcome::Rejected
        } else {
            Outcome::Accepted
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Termination;

    fn result(verdict: Verdict, cpu_ms: u64) -> CaseResult {
        CaseResult {
            name: "1".into(),
            verdict,
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::ZERO,
            peak_memory_bytes: cpu_ms,
            confirmed: false,
            beyond_load: false,
            failure: None,
            score: None,
        }
    }

    #[test]
    fn a_tally_counts_kinds_and_keeps_the_largest_figures() {
        let mut first = Tally::default();
        first.add(&result(Verdict::WrongAnswer, 5));
        first.add(&result(Verdict::Accepted, 9));
        first.add(&result(Verdict::RuntimeError(Termination::Exited(1)), 1));
        let mut second = Tally::default();
        second.add(&result(
            Verdict::RuntimeError(Termination::Signaled(libc::SIGSEGV)),
            20,
        ));
        first.merge(&second);
        assert_eq!(first.cases, 4);
        assert_eq!(first.accepted(), 1);
        let counts: Vec<(&str, usize)> = first
            .by_verdict()
            .map(|(kind, count)| (kind.code(), count))
            .collect();
        assert_eq!(counts, [("AC", 1), ("WA", 1), ("RE", 2)]);
        assert_eq!(first.max_cpu_time, Duration::from_millis(20));
        assert_eq!(first.max_peak_memory_bytes, 20);
    }
}
