//! What judging comes to: each case's verdict with its evidence, a solution's verdicts, the
//! totals of a problem. The runner makes these; the reporters and `judge verify` read them.

use std::path::PathBuf;
use std::time::Duration;

use super::scorecard::{ScoreError, Scorecard, ValidatorScore};
use super::verdict::{Verdict, VerdictKind};
use crate::compare::diff::DiffLine;
use crate::compare::Mismatch;

/// The verdict on one case and the evidence behind it.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// The case's name: its path below the problem folder, without extension.
    pub name: String,
    pub verdict: Verdict,
    /// CPU time (user and system) of the program and every process it started.
    pub cpu_time: Duration,
    pub wall_time: Duration,
    /// Peak memory of the whole process tree.
    pub peak_memory_bytes: u64,
    /// The verdict is the one of a serial re-run near the time limit.
    pub confirmed: bool,
    /// A time limit verdict that the machine's load cannot have caused (`verdict::beyond_load`),
    /// so no re-run is needed to confirm it.
    pub beyond_load: bool,
    pub failure: Option<Failure>,
    /// The score the output validator gave an accepted case (`score.txt`), if any.
    pub score: Option<ValidatorScore>,
    /// The verdict and figures are an earlier run's, kept in the result cache.
    pub cached: bool,
}

/// Why a case was not accepted.
#[derive(Debug, Clone, Default)]
pub struct Failure {
    /// Where and why, in one line.
    pub message: String,
    /// For a wrong answer found by comparing: where, to find the sub-case in the input.
    pub mismatch: Option<WrongAt>,
    /// The outputs around the first difference, for a wrong answer.
    pub diff: Vec<DiffLine>,
    /// The last lines the program wrote to stderr.
    pub stderr: String,
}

/// Where a compared output first differs: what a report needs to find the sub-case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrongAt {
    /// 1-based line of the expected output.
    pub line: usize,
    /// The label of the sub-case it belongs to (`#3`, `Case #3:`), if the output has them.
    pub case_label: Option<String>,
}

impl From<&Mismatch> for WrongAt {
    fn from(mismatch: &Mismatch) -> Self {
        WrongAt {
            line: mismatch.line,
            case_label: mismatch.case_label.clone(),
        }
    }
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
    pub fn add(&mut self, result: &CaseResult) {
        self.add_case(result.verdict, result.cpu_time, result.peak_memory_bytes);
    }

    pub fn add_case(&mut self, verdict: Verdict, cpu_time: Duration, peak_memory_bytes: u64) {
        self.cases += 1;
        self.counts[verdict.kind() as usize] += 1;
        self.max_cpu_time = self.max_cpu_time.max(cpu_time);
        self.max_peak_memory_bytes = self.max_peak_memory_bytes.max(peak_memory_bytes);
    }

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
}

#[derive(Debug, Clone, Default)]
pub struct SolutionVerdicts {
    pub solution: PathBuf,
    /// It did not compile: no case was run.
    pub compile_error: bool,
    /// Every case's verdict, in case order.
    pub verdicts: Vec<Verdict>,
    /// Every judged case's name (`secret/12`), beside its verdict.
    pub cases: Vec<String>,
    /// Every judged case's CPU time and peak memory, beside its verdict.
    pub figures: Vec<(Duration, u64)>,
    /// Every judged case's reason for not being accepted (the validator's message), if any.
    pub messages: Vec<Option<String>>,
    /// Why the first case that failed did (or the compiler's message).
    pub first_failure: Option<String>,
    pub tally: Tally,
    pub score: Option<Result<Scorecard, ScoreError>>,
    /// The score graded again with the cases too slow for the limit the verdicts are decided
    /// at rejected (`Limits::decided_at`), for a run that went past it.
    pub score_at_limit: Option<Result<Scorecard, ScoreError>>,
}

impl SolutionVerdicts {
    /// What this run, made under a larger time limit, would have got under `limit`. With
    /// `first_failure_ends`, the cases after the first failure are dropped, as a run under
    /// `limit` would have stopped there. The score is the one graded at the limit, where the
    /// run has one.
    pub fn under_time_limit(&self, limit: Duration, first_failure_ends: bool) -> SolutionVerdicts {
        let mut under = SolutionVerdicts {
            solution: self.solution.clone(),
            compile_error: self.compile_error,
            // The compiler's message stands; a case's is found again below.
            first_failure: self.first_failure.clone().filter(|_| self.compile_error),
            score: (self.score_at_limit.clone()).or_else(|| self.score.clone()),
            ..SolutionVerdicts::default()
        };
        let cases = self.verdicts.iter().zip(&self.cases).zip(&self.figures);
        for (((&verdict, case), &(cpu_time, memory)), message) in cases.zip(&self.messages) {
            let too_slow = cpu_time > limit && verdict != Verdict::TimeLimitExceeded;
            let (verdict, message) = match too_slow {
                true => (
                    Verdict::TimeLimitExceeded,
                    Some(super::over_the_time_limit(cpu_time, limit)),
                ),
                false => (verdict, message.clone()),
            };
            if under.first_failure.is_none() {
                under.first_failure = message.clone();
            }
            under.verdicts.push(verdict);
            under.cases.push(case.clone());
            under.figures.push((cpu_time, memory));
            under.messages.push(message);
            under.tally.add_case(verdict, cpu_time.min(limit), memory);
            if first_failure_ends && verdict != Verdict::Accepted {
                break;
            }
        }
        under
    }
}

/// `1.9 MiB`, `256.0 MiB`, `512 KiB`.
pub fn format_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let value = bytes as f64;
    if value >= KIB * KIB * KIB {
        format!("{:.1} GiB", value / (KIB * KIB * KIB))
    } else if value >= KIB * KIB {
        format!("{:.1} MiB", value / (KIB * KIB))
    } else {
        format!("{:.0} KiB", value / KIB)
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
            cached: false,
        }
    }

    #[test]
    fn a_tally_counts_kinds_and_keeps_the_largest_figures() {
        let mut first = Tally::default();
        first.add(&result(Verdict::WrongAnswer, 5));
        first.add(&result(Verdict::Accepted, 9));
        first.add(&result(Verdict::RuntimeError(Termination::Exited(1)), 1));
        first.add(&result(
            Verdict::RuntimeError(Termination::Signaled(libc::SIGSEGV)),
            20,
        ));
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

    const AC: Verdict = Verdict::Accepted;
    const WA: Verdict = Verdict::WrongAnswer;
    const TLE: Verdict = Verdict::TimeLimitExceeded;

    /// A run of cases with these verdicts and CPU times in milliseconds.
    fn run(cases: &[(Verdict, u64)]) -> SolutionVerdicts {
        let mut verdicts = SolutionVerdicts::default();
        for (i, &(verdict, ms)) in cases.iter().enumerate() {
            let cpu_time = Duration::from_millis(ms);
            verdicts.verdicts.push(verdict);
            verdicts.cases.push(format!("secret/{i}"));
            verdicts.figures.push((cpu_time, 1 << 20));
            verdicts
                .messages
                .push((verdict != AC).then(|| "wrong".to_owned()));
            verdicts.tally.add_case(verdict, cpu_time, 1 << 20);
        }
        verdicts
    }

    #[test]
    fn a_case_slower_than_the_limit_is_too_slow_under_it_and_ends_the_run() {
        let limit = Duration::from_secs(1);
        let beyond = run(&[(AC, 200), (AC, 1300), (WA, 1500), (TLE, 2000)]);
        let under = beyond.under_time_limit(limit, true);
        assert_eq!(under.verdicts, [AC, TLE], "the first failure ends it");
        assert_eq!(under.tally.cases, 2);
        assert_eq!(under.tally.count(VerdictKind::TimeLimitExceeded), 1);
        assert_eq!(under.tally.max_cpu_time, limit, "stopped at the limit");
        let message = under.first_failure.as_deref().unwrap();
        assert!(
            message.contains("CPU time 1300 ms over the 1000 ms limit"),
            "{message}"
        );
        let every_case = beyond.under_time_limit(limit, false);
        assert_eq!(every_case.verdicts, [AC, TLE, TLE, TLE]);
        let quick = run(&[(AC, 200), (WA, 900)]);
        assert_eq!(quick.under_time_limit(limit, true).verdicts, [AC, WA]);
    }
}
