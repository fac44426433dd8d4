//! The tasks built and judged with real processes (`ProcessJudge`), and what the runner's
//! progress tells the reporter.

use std::sync::OnceLock;
use std::time::Duration;

use super::{CaseJudge, Progress, Task};
use crate::error::Error;
use crate::judging::checker::build_checker;
use crate::judging::judge_case;
use crate::judging::scorecard::CaseScore;
use crate::judging::CaseResult;
use crate::report::{Built, Reporter, RunSummary};
use crate::toolchain::{build_rank, Build, Compiler, Program};

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
    /// A task with its solution's build (there once it was built) and its checker's (`None`
    /// when it has none).
    fn of(
        task: &'a Result<Task, Error>,
        build: Option<&'a Result<Build, Error>>,
        checker: Option<&'a Result<Option<Program>, Error>>,
    ) -> Self {
        let task = match task {
            Ok(task) => task,
            Err(error) => return Readiness::Error(error),
        };
        let checker = match checker {
            Some(Ok(checker)) => checker.as_ref(),
            Some(Err(error)) => return Readiness::Error(error),
            None => None,
        };
        match build.expect("a task is told of once built") {
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
    judge: &ProcessJudge,
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
    let (task, program) = match judge.readiness(index) {
        Readiness::Error(error) => {
            summary.errors += 1;
            if let Ok(task) = &judge.tasks[index] {
                reporter.cases_unjudged(task.problem.cases.len());
            }
            reporter.problem_error(error);
            return;
        }
        Readiness::CompileError(task, message) => {
            summary.compile_errors += 1;
            reporter.cases_unjudged(task.problem.cases.len());
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

/// The building and judging of real tasks: each case runs the task's program in the sandbox.
pub(super) struct ProcessJudge<'a> {
    tasks: &'a [Result<Task, Error>],
    compiler: &'a Compiler,
    solutions: Vec<OnceLock<Result<Build, Error>>>,
    checkers: Vec<OnceLock<Result<Option<Program>, Error>>>,
}

impl<'a> ProcessJudge<'a> {
    pub(super) fn new(tasks: &'a [Result<Task, Error>], compiler: &'a Compiler) -> Self {
        ProcessJudge {
            tasks,
            compiler,
            solutions: tasks.iter().map(|_| OnceLock::new()).collect(),
            checkers: tasks.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// How far task `task` got, once built.
    fn readiness(&self, task: usize) -> Readiness<'_> {
        Readiness::of(
            &self.tasks[task],
            self.solutions[task].get(),
            self.checkers[task].get(),
        )
    }

    fn ready(&self, task: usize) -> (&Task, &Program, Option<&Program>) {
        match self.readiness(task) {
            Readiness::Ready {
                task,
                program,
                checker,
            } => (task, program, checker),
            _ => unreachable!("only ready tasks have cases"),
        }
    }

    fn loaded(&self, task: usize) -> &Task {
        self.tasks[task]
            .as_ref()
            .expect("only loaded tasks are built")
    }
}

/// Part 0 of a task is its solution's build, part 1 its checker's.
impl CaseJudge for ProcessJudge<'_> {
    fn builds(&self, task: usize) -> usize {
        self.tasks[task]
            .as_ref()
            .map_or(0, |task| 1 + usize::from(task.problem.checker.is_some()))
    }

    fn build_rank(&self, task: usize, part: usize) -> u8 {
        let task = self.loaded(task);
        match (part, &task.problem.checker) {
            (1, Some(checker)) => build_rank(&checker.source),
            _ => build_rank(&task.solution),
        }
    }

    fn build(&self, index: usize, part: usize) -> bool {
        let task = self.loaded(index);
        if part == 1 {
            let checker = build_checker(self.compiler, &task.problem);
            return self.checkers[index].get_or_init(|| checker).is_ok();
        }
        let built = task
            .problem
            .solution_sources(&task.solution)
            .and_then(|sources| self.compiler.build_from(&task.solution, sources));
        matches!(
            self.solutions[index].get_or_init(|| built),
            Ok(Build::Ready(_))
        )
    }

    fn judge(&self, task: usize, case: usize) -> CaseResult {
        let (task, program, checker) = self.ready(task);
        judge_case(&task.problem, program, checker, &task.problem.cases[case])
    }

    fn cpu_time_limit(&self, task: usize) -> Duration {
        let (task, program, _) = self.ready(task);
        task.problem.limits_for(program.language).cpu_time
    }

    fn one_at_a_time(&self, task: usize) -> bool {
        self.tasks[task]
            .as_ref()
            .is_ok_and(|task| task.one_at_a_time)
    }
}
