//! A reporter that keeps each solution's verdicts instead of printing them, for commands
//! that judge many solutions and then decide (`judge verify`).

use std::path::Path;

use super::{ProgramOrigin, Reporter};
use crate::error::Error;
use crate::judging::scorecard::{ScoreError, Scorecard};
use crate::judging::{CaseResult, SolutionVerdicts};
use crate::problem::Problem;

/// Each task's verdicts, in the order of the tasks, or why it was not judged.
#[derive(Debug, Default)]
pub struct Collector {
    pub judged: Vec<Result<SolutionVerdicts, ProblemFault>>,
}

/// Why a task was not judged: its problem's error, as the reporters were told it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ProblemFault {
    pub message: String,
}

impl Collector {
    fn current(&mut self) -> Option<&mut SolutionVerdicts> {
        self.judged.last_mut().and_then(|last| last.as_mut().ok())
    }
}

impl Reporter for Collector {
    fn problem_error(&mut self, error: &Error) {
        self.judged.push(Err(ProblemFault {
            message: error.to_string(),
        }));
    }
    fn problem_started(
        &mut self,
        _problem: &Problem,
        solution: &Path,
        _built: Option<ProgramOrigin>,
    ) {
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
    fn problem_scored_at_limit(
        &mut self,
        _problem: &Problem,
        score: &Result<Scorecard, ScoreError>,
    ) {
        if let Some(current) = self.current() {
            current.score_at_limit = Some(score.clone());
        }
    }
    // No problem_stopped: verify tells unfinished submissions by the interruption itself
    // (`Verdicts`' rows).
}
