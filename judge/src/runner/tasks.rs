//! The tasks as they were built, judged with real processes (`ProcessJudge`), and what the
//! runner's progress tells the reporter.

use std::time::Duration;

use super::{CaseJudge, Progress, Task};
use crate::error::Error;
use crate::judging::judge_case;
use crate::judging::scorecard::CaseScore;
use crate::judging::CaseResult;
use crate::report::{Built, Reporter, RunSummary};
use crate::toolchain::{Build, Program};

/// How far a task got before its cases.
pub(super) enum Readiness<'a> {
    /// It could not be loaded, or its solution or checker could not be built.
    Error(&'a Error),
    /// Its solution did not compile: the compiler's message.
    CompileError(&'a Task, &'a str),
    Ready {
        task: &'a Task,
        program: &'a Program,
        checker: Option<&'a Program>,
    },
}

impl<'a> Readiness<'a> {
    pub(super) fn of(
        task: &'a Result<Task, Error>,
        build: &'a Option<Result<Build, Error>>,
        checker: &'a Option<Result<Option<Program>, Error>>,
    ) -> Self {
        let task = match task {
            Ok(task) => task,
            Err(error) => return Readiness::Error(error),
        };
        let checker = match checker.as_ref().expect("loaded tasks were built") {
            Ok(checker) => checker.as_ref(),
            Err(error) => return Readiness::Error(error),
        };
        match build.as_ref().expect("loaded tasks were built") {
            Err(error) => Readiness::Error(error),
            Ok(Build::CompileError(message)) => Readiness::CompileError(task, message),
            Ok(Build::Ready(program)) => Readiness::Ready {
                task,
                program,
                checker,
            },
        }
    }
}

/// Feeds the reporter and the summary's build counts from the runner's progress; for a
/// scored problem, keeps each task's case results (`scored`) to score it when it ends.
pub(super) fn report(
    readiness: &[Readiness],
    progress: Progress,
    summary: &mut RunSummary,
    scored: &mut [Vec<CaseScore>],
    reporter: &mut dyn Reporter,
) {
    let index = match progress {
        Progress::Unjudged(index)
        | Progress::TaskStarted(index)
        | Progress::CaseFinished(index, _)
        | Progress::TaskFinished(index, _) => index,
    };
    let (task, program) = match &readiness[index] {
        Readiness::Error(error) => {
            summary.errors += 1;
            reporter.problem_error(error);
            return;
        }
        Readiness::CompileError(task, message) => {
            summary.compile_errors += 1;
            reporter.problem_started(&task.problem, &task.solution, None);
            reporter.compile_error(&task.problem, message);
            return;
        }
        Readiness::Ready { task, program, .. } => (task, program),
    };
    let problem = &task.problem;
    match progress {
        Progress::Unjudged(_) => unreachable!("ready tasks are judged"),
        Progress::TaskStarted(_) => {
            let built = match program.cached {
                true => Built::Cached,
                false => Built::Compiled,
            };
            reporter.problem_started(problem, &task.solution, Some(built));
            if program.cached {
                summary.cached += 1;
            } else {
                summary.compiled += 1;
            }
        }
        Progress::CaseFinished(index, result) => {
            if problem.scoring.is_some() {
                scored[index].push(CaseScore::of(result));
            }
            reporter.case_finished(problem, result)
        }
        Progress::TaskFinished(index, tally) => {
            if let Some(scoring) = &problem.scoring {
                reporter.problem_scored(problem, &scoring.score(&scored[index]));
            }
            reporter.problem_finished(problem, tally)
        }
    }
}

/// The judging of real cases: each runs the task's program in the sandbox.
pub(super) struct ProcessJudge<'a>(pub(super) &'a [Readiness<'a>]);

impl ProcessJudge<'_> {
    fn ready(&self, task: usize) -> (&Task, &Program, Option<&Program>) {
        match &self.0[task] {
            Readiness::Ready {
                task,
                program,
                checker,
            } => (task, program, *checker),
            _ => unreachable!("only ready tasks have cases"),
        }
    }
}

impl CaseJudge for ProcessJudge<'_> {
    fn judge(&self, task: usize, case: usize) -> CaseResult {
        let (task, program, checker) = self.ready(task);
        judge_case(&task.problem, program, checker, &task.problem.cases[case])
    }

    fn cpu_time_limit(&self, task: usize) -> Duration {
        let (task, program, _) = self.ready(task);
        task.problem.limits_for(program.language).cpu_time
    }

    fn one_at_a_time(&self, task: usize) -> bool {
        matches!(&self.0[task], Readiness::Ready { task, .. } if task.one_at_a_time)
    }
}
