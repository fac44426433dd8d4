//! A reporter that keeps each solution's verdicts instead of printing them, for commands
//! that judge many solutions and then decide (`judge verify`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Reporter;
use super::{CaseResult, RunSummary, Tally};
use crate::error::Error;
use crate::judging::score::{ScoreError, Scorecard};
use crate::judging::verdict::Verdict;
use crate::problem::Problem;
use crate::toolchain::program::Program;

/// What one solution got.
#[derive(Debug, Clone, Default)]
pub struct SolutionVerdicts {
    pub solution: PathBuf,
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
    /// A scored problem's score.
    pub score: Option<Result<Scorecard, ScoreError>>,
}

impl SolutionVerdicts {
    /// The short code of every case, in case order.
    pub fn codes(&self) -> Vec<&'static str> {
        self.verdicts.iter().map(|verdict| verdict.code()).collect()
    }

    /// What this run, made under a larger time limit, would have got under `limit`: a case
    /// that took longer is too slow. With `first_failure_ends`, the cases after the first
    /// failure are dropped, as a run under `limit` would have stopped there. (A score is
    /// kept as it was: it needs the cases a stop would have skipped.)
    pub fn under_time_limit(&self, limit: Duration, first_failure_ends: bool) -> SolutionVerdicts {
        let mut under = SolutionVerdicts {
            solution: self.solution.clone(),
            compile_error: self.compile_error,
            // The compiler's message stands; a case's is found again below.
            first_failure: match self.compile_error {
                true => self.first_failure.clone(),
                false => None,
            },
            score: self.score.clone(),
            ..SolutionVerdicts::default()
        };
        let cases = self.verdicts.iter().zip(&self.cases).zip(&self.figures);
        for (((&verdict, case), &(cpu_time, memory)), message) in cases.zip(&self.messages) {
            let too_slow = cpu_time > limit && verdict != Verdict::TimeLimitExceeded;
            let (verdict, message) = match too_slow {
                true => (
                    Verdict::TimeLimitExceeded,
                    Some(crate::judging::over_the_time_limit(cpu_time, limit)),
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

/// Each task's verdicts, in the order of the tasks, or why it was not judged.
#[derive(Debug, Default)]
pub struct Collector {
    pub judged: Vec<Result<SolutionVerdicts, String>>,
}

impl Collector {
    fn current(&mut self) -> Option<&mut SolutionVerdicts> {
        self.judged.last_mut().and_then(|last| last.as_mut().ok())
    }
}

impl Reporter for Collector {
    fn problem_error(&mut self, error: &Error) {
        self.judged.push(Err(error.to_string()));
    }
    fn problem_started(&mut self, _problem: &Problem, solution: &Path, _program: Option<&Program>) {
        self.judged.push(Ok(SolutionVerdicts {
            solution: solution.to_path_buf(),
            ..SolutionVerdicts::default()
        }));
    }
    fn compile_error(&mut self, _problem: &Problem, message: &str) {
        if let Some(current) = self.current() {
            current.compile_error = true;
            current.first_failure = Some(message.to_owned());
        }
    }
    fn case_finished(&mut self, _problem: &Problem, result: &CaseResult) {
        if let Some(current) = self.current() {
            current.verdicts.push(result.verdict);
            current.cases.push(result.name.clone());
            current
                .figures
                .push((result.cpu_time, result.peak_memory_bytes));
            let message = result.failure.as_ref().map(|f| f.message.clone());
            current.messages.push(message);
            if current.first_failure.is_none() {
                current.first_failure = result.failure.as_ref().map(|f| f.message.clone());
            }
            current.tally.add(result);
        }
    }
    fn problem_scored(&mut self, _problem: &Problem, score: &Result<Scorecard, ScoreError>) {
        if let Some(current) = self.current() {
            current.score = Some(score.clone());
        }
    }
    fn problem_finished(&mut self, _problem: &Problem, _tally: &Tally) {}
    fn run_finished(&mut self, _summary: &RunSummary) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::verdict::VerdictKind;

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
