//! Judging many problems at once: every build and every case as one pool of jobs, each case
//! as soon as its programs are built, results reported in input order as they come.
//!
//! A case whose CPU time ends near or over the limit is run again alone after the parallel
//! pass, and that run decides: a busy machine must not produce a false TLE. With `fail_fast`,
//! a solution's cases after its first failure are skipped. Once asked to stop (`interrupt`),
//! no case starts; finished cases are reported in input order up to the first that did not.
//!
//! `jobs::run_cases` sees cases only through the `CaseJudge` trait, so that it is tested
//! without processes; here `ProcessJudge` builds and judges tasks with real processes, and
//! the runner's events are told to the reporter.

pub mod interrupt;
mod jobs;
pub mod plan;
mod result_cache;
pub(crate) mod verify;

use std::ops::Range;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::judging::checker::{build_checker, build_own_program};
use crate::judging::{judge_case, CaseResult};
use crate::problem::checker_spec::CHECKER_LIMITS;
use crate::problem::Problem;
use crate::report::{ProgramOrigin, Reporter, RunBook, RunEvent, RunSummary};
use crate::toolchain::{build_rank, Build, Compiler, Program};
use result_cache::ResultCache;

pub use jobs::{run_cases, CaseJudge, CaseTotals, Event, Part, Progress};

#[derive(Debug, Clone)]
pub struct Settings {
    /// Worker threads, each running one case at a time.
    pub jobs: usize,
    /// Skip a solution's cases after its first not accepted, as Kattis does.
    pub fail_fast: bool,
    /// Reuse earlier results while nothing that decides them changed (`result_cache`), and
    /// keep this run's for the next.
    pub result_cache: bool,
}

#[derive(Debug, Clone)]
pub struct Task {
    pub problem: Problem,
    pub solution: PathBuf,
    /// See `CaseJudge::one_at_a_time`.
    pub one_at_a_time: bool,
}

/// A task that could not be loaded (its `Err`) is reported in place.
pub fn judge_all(
    tasks: Vec<Result<Task, Error>>,
    compiler: &Compiler,
    settings: &Settings,
    reporter: &mut dyn Reporter,
) -> RunSummary {
    let started = Instant::now();
    // One worker or little to do: the calling thread does it, as hand-offs between threads
    // cost more than a small case.
    let work = tasks.len()
        + tasks
            .iter()
            .flatten()
            .map(|task| task.problem.cases.len())
            .sum::<usize>();
    let pool = (settings.jobs > 1 && work > 2).then(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(settings.jobs)
            .build()
            .expect("a thread pool can be built")
    });
    let mut book = RunBook::default();
    // `JUDGE_NO_RESULT_CACHE=1` is `--no-cache` for every command (benchmarks, scripts).
    let turned_off = std::env::var_os("JUDGE_NO_RESULT_CACHE").is_some_and(|v| v != "0");
    let cache = (settings.result_cache && !turned_off)
        .then(|| result_cache::ResultCache::new(compiler.cache_dir()));
    let judge = ProcessJudge::new(&tasks, compiler, cache.as_ref());
    let cases: Vec<Option<usize>> = (tasks.iter())
        .map(|task| task.as_ref().ok().map(|task| task.problem.cases.len()))
        .collect();
    reporter.run_started(cases.iter().flatten().sum());
    let totals = run_cases(&judge, &cases, settings, pool.as_ref(), &mut |progress| {
        report(&tasks, progress, &mut book, reporter)
    });
    let mut summary = book.summary;
    if let Some(cache) = &cache {
        cache.save();
        // Reported only where it did anything: a first run's report is unchanged.
        let record = cache.record();
        summary.result_cache = (record.reused + record.sampled > 0).then_some(record);
    }
    summary.skipped = totals.skipped;
    summary.interrupted = totals.interrupted;
    summary.wall_time = started.elapsed();
    if let Some((containment, refused)) = compiler.sandbox().containment() {
        summary.containment = Some(containment);
        summary.view_refused = refused;
    }
    reporter.run_finished(&summary);
    summary
}

#[derive(Debug)]
struct Ready<'a> {
    task: &'a Task,
    program: &'a Program,
    judges: &'a Judges,
}

/// What a task's checker job builds, where the problem has each.
#[derive(Debug, Default)]
struct Judges {
    /// Or interactor.
    checker: Option<Program>,
    /// Checks what an interactor wrote.
    tout_checker: Option<Program>,
    grader: Option<Program>,
}

impl Judges {
    fn build(compiler: &Compiler, task: &Task) -> Result<Judges, Error> {
        let problem = &task.problem;
        let own = |source: &std::path::Path| build_own_program(compiler, problem, source);
        Ok(Judges {
            checker: build_checker(compiler, problem)?,
            grader: grader_of(task).map(own).transpose()?,
            tout_checker: (problem.tout_checker.as_ref())
                .map(|spec| own(&spec.source))
                .transpose()?,
        })
    }

    fn of_cases(&self) -> (Option<&Program>, Option<&Program>) {
        (self.checker.as_ref(), self.tout_checker.as_ref())
    }
}

#[derive(Debug)]
enum Unjudged<'a> {
    /// It could not be loaded (no task then), or its solution or checker could not be built.
    Error(Option<&'a Task>, &'a Error),
    /// The compiler's message.
    CompileError(&'a Task, &'a str),
}

/// Through `book`, the bookkeeping `judge merge` shares: only a task's program and grader
/// are the runner's own.
fn report<'j>(
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
                true => ProgramOrigin::Cached,
                false => ProgramOrigin::Compiled,
            };
            RunEvent::Started(&task.problem, &task.solution, built)
        }
        Progress::CaseFinished(Ready { task, .. }, result) => {
            RunEvent::CaseFinished(&task.problem, result)
        }
        Progress::TaskFinished(Ready { task, judges, .. }) => {
            let problem = &task.problem;
            let limits = (problem.checker.as_ref()).map_or(CHECKER_LIMITS, |spec| spec.limits);
            let mut grade = |items: &[_], flags: &[String]| match &judges.grader {
                Some(grader) => crate::judging::grader::grade(grader, limits, items, flags),
                None => Err("it was not built".to_owned()),
            };
            return book.tell(RunEvent::Finished(problem, Some(&mut grade)), reporter);
        }
        // The book knows whether the task was begun.
        Progress::Stopped(index, from) => {
            let task = match &tasks[index] {
                Ok(task) => task,
                // It failed to load whatever the stop.
                Err(error) => return book.tell(RunEvent::Error(error, None), reporter),
            };
            let unfinished = task.problem.cases[from..].iter();
            let unfinished = unfinished.map(|case| case.name.as_str()).collect();
            RunEvent::Stopped(&task.problem, &task.solution, unfinished)
        }
    };
    book.tell(event, reporter)
}

fn grader_of(task: &Task) -> Option<&std::path::Path> {
    task.problem.scoring.as_ref()?.grader()
}

struct ProcessJudge<'a> {
    tasks: &'a [Result<Task, Error>],
    compiler: &'a Compiler,
    cache: Option<&'a ResultCache>,
    solutions: Vec<OnceLock<Result<Build, Error>>>,
    judges: Vec<OnceLock<Result<Judges, Error>>>,
    /// Per task, the cases whose failure ends each case's scoring group (`Scoring::blockers`).
    blockers: Vec<Vec<Vec<Range<usize>>>>,
}

impl<'a> ProcessJudge<'a> {
    fn new(
        tasks: &'a [Result<Task, Error>],
        compiler: &'a Compiler,
        cache: Option<&'a ResultCache>,
    ) -> Self {
        ProcessJudge {
            tasks,
            compiler,
            cache,
            solutions: tasks.iter().map(|_| OnceLock::new()).collect(),
            judges: tasks.iter().map(|_| OnceLock::new()).collect(),
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
                let judges = Judges::build(self.compiler, task);
                self.judges[index].get_or_init(|| judges);
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
        static NONE: Judges = Judges {
            checker: None,
            tout_checker: None,
            grader: None,
        };
        let judges = match self.judges[index].get() {
            Some(Ok(judges)) => judges,
            Some(Err(error)) => return Err(Unjudged::Error(Some(task), error)),
            None => &NONE,
        };
        let solution = self.solutions[index].get();
        match solution.expect("readiness is asked once every build ran") {
            Err(error) => Err(Unjudged::Error(Some(task), error)),
            Ok(Build::CompileError(message)) => Err(Unjudged::CompileError(task, message)),
            Ok(Build::Ready(program)) => Ok(Ready {
                task,
                program,
                judges,
            }),
        }
    }

    fn judge(&self, ready: &Ready<'_>, case: usize) -> CaseResult {
        let problem = &ready.task.problem;
        let case = &problem.cases[case];
        let checkers = ready.judges.of_cases();
        let judge = || judge_case(problem, ready.program, checkers, case);
        let Some(cache) = self.cache else {
            return judge();
        };
        cache.judge(
            (problem, &ready.task.solution),
            (ready.program, checkers),
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
