//! The tasks built and judged with real processes (`ProcessJudge`), and what the runner's
//! events tell the reporter.

use std::ops::Range;
use std::sync::OnceLock;
use std::time::Duration;

use super::result_cache::ResultCache;
use super::{CaseJudge, Event, Part, Progress, Task};
use crate::error::Error;
use crate::judging::checker::{build_checker, build_own_program};
use crate::judging::judge_case;
use crate::judging::CaseResult;
use crate::problem::checker_spec::CHECKER_LIMITS;
use crate::report::{Built, Reporter, RunBook, RunEvent};
use crate::toolchain::{build_rank, Build, Compiler, Program};

/// A task whose cases can be judged: its solution's program and its checker, if it has one.
#[derive(Debug)]
pub(super) struct Ready<'a> {
    task: &'a Task,
    program: &'a Program,
    checker: Option<&'a Program>,
    /// A package's custom grader, built with the checker.
    grader: Option<&'a Program>,
    /// The checker of what an interactor wrote, built with it.
    tout_checker: Option<&'a Program>,
}

/// Why a task's cases cannot be judged.
#[derive(Debug)]
pub(super) enum Unjudged<'a> {
    /// It could not be loaded (no task then), or its solution or checker could not be built.
    Error(Option<&'a Task>, &'a Error),
    /// Its solution did not compile: the compiler's message.
    CompileError(&'a Task, &'a str),
}

/// Tells the runner's events to the reporters through `book`, the bookkeeping `judge merge`
/// shares: only a task's program and grader are the runner's own.
pub(super) fn report<'j>(
    tasks: &[Result<Task, Error>],
    progress: Event<'_, 'j, ProcessJudge<'j>>,
    book: &mut RunBook,
    reporter: &mut dyn Reporter,
) {
    let event = match progress {
        Progress::Unjudged(Unjudged::Error(task, error)) => {
            RunEvent::Error(error, task.map(|task| &task.problem))
        }
        Progress::Unjudged(Unjudged::CompileError(task, message)) => {
            let cases = task.problem.cases.len();
            RunEvent::CompileError(&task.problem, &task.solution, message, cases)
        }
        Progress::TaskStarted(Ready { task, program, .. }) => {
            let built = match program.cached {
                true => Built::Cached,
                false => Built::Compiled,
            };
            RunEvent::Started(&task.problem, &task.solution, built)
        }
        Progress::CaseFinished(Ready { task, .. }, result) => {
            RunEvent::CaseFinished(&task.problem, result)
        }
        Progress::TaskFinished(Ready { task, grader, .. }, _) => {
            let problem = &task.problem;
            let limits = (problem.checker.as_ref()).map_or(CHECKER_LIMITS, |spec| spec.limits);
            let mut grade = |items: &[_], flags: &[String]| match grader {
                Some(grader) => crate::judging::grader::grade(grader, limits, items, flags),
                None => Err("it was not built".to_owned()),
            };
            return book.tell(RunEvent::Finished(problem, Some(&mut grade)), reporter);
        }
        // The book knows whether the task was begun.
        Progress::Stopped(index, _, from) => {
            let task = match &tasks[index] {
                Ok(task) => task,
                // A problem that failed to load did so whatever the stop.
                Err(error) => return book.tell(RunEvent::Error(error, None), reporter),
            };
            let unfinished = task.problem.cases[from..].iter();
            let unfinished = unfinished.map(|case| case.name.as_str()).collect();
            RunEvent::Stopped(&task.problem, &task.solution, unfinished)
        }
    };
    book.tell(event, reporter)
}

/// The custom grader `task`'s package scores with, if it has one.
fn grader_of(task: &Task) -> Option<&std::path::Path> {
    task.problem.scoring.as_ref()?.grader()
}

/// The building and judging of real tasks: each case runs the task's program in the sandbox.
pub(super) struct ProcessJudge<'a> {
    tasks: &'a [Result<Task, Error>],
    compiler: &'a Compiler,
    /// Results kept from earlier runs, where they are used.
    cache: Option<&'a ResultCache>,
    solutions: Vec<OnceLock<Result<Build, Error>>>,
    checkers: Vec<OnceLock<Result<Option<Program>, Error>>>,
    graders: Vec<OnceLock<Result<Option<Program>, Error>>>,
    tout_checkers: Vec<OnceLock<Result<Option<Program>, Error>>>,
    /// Per task, the cases whose failure ends each case's scoring group (`Scoring::blockers`).
    blockers: Vec<Vec<Vec<Range<usize>>>>,
}

impl<'a> ProcessJudge<'a> {
    pub(super) fn new(
        tasks: &'a [Result<Task, Error>],
        compiler: &'a Compiler,
        cache: Option<&'a ResultCache>,
    ) -> Self {
        ProcessJudge {
            tasks,
            compiler,
            cache,
            solutions: tasks.iter().map(|_| OnceLock::new()).collect(),
            checkers: tasks.iter().map(|_| OnceLock::new()).collect(),
            graders: tasks.iter().map(|_| OnceLock::new()).collect(),
            tout_checkers: tasks.iter().map(|_| OnceLock::new()).collect(),
            blockers: (tasks.iter())
                .map(|task| match task {
                    Ok(Task { problem, .. }) => problem.scoring.as_ref().map(|scoring| {
                        let names: Vec<String> =
                            problem.cases.iter().map(|case| case.name.clone()).collect();
                        scoring.blockers(&names)
                    }),
                    Err(_) => None,
                })
                .map(Option::unwrap_or_default)
                .collect(),
        }
    }
}

impl CaseJudge for ProcessJudge<'_> {
    type Ready<'a>
        = Ready<'a>
    where
        Self: 'a;
    type Unjudged<'a>
        = Unjudged<'a>
    where
        Self: 'a;

    /// A task that did not load has nothing to build.
    fn builds(&self, task: usize) -> &[Part] {
        match &self.tasks[task] {
            Err(_) => &[],
            // A custom grader is built as a checker is, in the same job.
            Ok(task) if task.problem.checker.is_some() || grader_of(task).is_some() => {
                &[Part::Solution, Part::Checker]
            }
            Ok(_) => &[Part::Solution],
        }
    }

    fn build_rank(&self, task: usize, part: Part) -> u8 {
        let Ok(task) = &self.tasks[task] else {
            return 0;
        };
        match (part, &task.problem.checker) {
            (Part::Checker, Some(checker)) => build_rank(&checker.source),
            (Part::Checker, None) | (Part::Solution, _) => build_rank(&task.solution),
        }
    }

    fn build(&self, index: usize, part: Part) {
        let Ok(task) = &self.tasks[index] else {
            return;
        };
        match part {
            Part::Checker => {
                let checker = build_checker(self.compiler, &task.problem);
                self.checkers[index].get_or_init(|| checker);
                let grader = grader_of(task)
                    .map(|source| build_own_program(self.compiler, &task.problem, source))
                    .transpose();
                self.graders[index].get_or_init(|| grader);
                let tout_checker = (task.problem.tout_checker.as_ref())
                    .map(|spec| build_own_program(self.compiler, &task.problem, &spec.source))
                    .transpose();
                self.tout_checkers[index].get_or_init(|| tout_checker);
            }
            Part::Solution => {
                let built = (task.problem)
                    .solution_sources(&task.solution)
                    .and_then(|sources| self.compiler.build_from(&task.solution, sources));
                self.solutions[index].get_or_init(|| built);
            }
        }
    }

    /// A checker's fault is told before a compile error.
    fn readiness(&self, index: usize) -> Result<Ready<'_>, Unjudged<'_>> {
        let task = match &self.tasks[index] {
            Ok(task) => task,
            Err(error) => return Err(Unjudged::Error(None, error)),
        };
        let checker = match self.checkers[index].get() {
            Some(Ok(checker)) => checker.as_ref(),
            Some(Err(error)) => return Err(Unjudged::Error(Some(task), error)),
            None => None,
        };
        let grader = match self.graders[index].get() {
            Some(Ok(grader)) => grader.as_ref(),
            Some(Err(error)) => return Err(Unjudged::Error(Some(task), error)),
            None => None,
        };
        let tout_checker = match self.tout_checkers[index].get() {
            Some(Ok(tout_checker)) => tout_checker.as_ref(),
            Some(Err(error)) => return Err(Unjudged::Error(Some(task), error)),
            None => None,
        };
        let solution = self.solutions[index].get();
        match solution.expect("readiness is asked once every build ran") {
            Err(error) => Err(Unjudged::Error(Some(task), error)),
            Ok(Build::CompileError(message)) => Err(Unjudged::CompileError(task, message)),
            Ok(Build::Ready(program)) => Ok(Ready {
                task,
                program,
                checker,
                grader,
                tout_checker,
            }),
        }
    }

    fn judge(&self, ready: &Ready<'_>, case: usize) -> CaseResult {
        let problem = &ready.task.problem;
        let case = &problem.cases[case];
        let checkers = (ready.checker, ready.tout_checker);
        let judge = || judge_case(problem, ready.program, checkers, case);
        // A kept result names one checker: a problem judged by two is judged every time.
        let Some(cache) = self.cache.filter(|_| problem.tout_checker.is_none()) else {
            return judge();
        };
        cache.judge(
            (problem, &ready.task.solution),
            (ready.program, ready.checker),
            case,
            self.compiler.sandbox(),
            judge,
        )
    }

    fn cpu_time_limit(&self, ready: &Ready<'_>) -> Duration {
        let limits = ready.task.problem.limits_for(ready.program.language);
        limits.cpu_time
    }

    fn blockers(&self, task: usize) -> &[Vec<Range<usize>>] {
        &self.blockers[task]
    }

    fn one_at_a_time(&self, task: usize) -> bool {
        self.tasks[task]
            .as_ref()
            .is_ok_and(|task| task.one_at_a_time)
    }
}
