//! Judging many problems at once: build every solution (in parallel), run every case of every
//! problem as one pool of jobs, and hand results to the reporter in input order as they come.
//!
//! A case whose CPU time ends near or over the limit is run again alone once the parallel
//! pass is over, and that serial run decides: a busy machine must not produce a false TLE.
//! With `fail_fast`, a solution's cases after its first failure are skipped. Once the judge is
//! asked to stop (`interrupt`), no case is started; the cases that finished before are
//! reported, in input order up to the first that did not, and the summary names the signal.
//!
//! That logic (`cases::run_cases`) sees the judging of cases only through the `CaseJudge` trait, so
//! that it is tested without processes.

mod cases;
pub mod host;
pub mod interrupt;
mod queue;
pub mod shard;
mod tasks;
pub(crate) mod verify;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use crate::error::Error;
use crate::judging::checker::build_checker;
use crate::problem::Problem;
use crate::report::{Reporter, RunSummary};
use crate::toolchain::language::{Language, LanguageId};
use crate::toolchain::{Build, Compiler, Program};

pub use cases::{run_cases, CaseJudge, CaseTotals, Progress};
use tasks::{report, ProcessJudge, Readiness};

/// How to judge.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Worker threads, each running one case at a time.
    pub jobs: usize,
    /// Stop judging a solution at its first case that is not accepted, as Kattis does; the
    /// cases after it are skipped.
    pub fail_fast: bool,
}

/// A problem to judge with the solution to judge it with.
#[derive(Debug, Clone)]
pub struct Task {
    /// The problem, with its cases.
    pub problem: Problem,
    /// The solution to judge it with.
    pub solution: PathBuf,
    /// Its cases run one at a time (see `CaseJudge::one_at_a_time`).
    pub one_at_a_time: bool,
}

/// Judges every task; `failed` are problems that could not be loaded, reported in place.
pub fn judge_all(
    tasks: Vec<Result<Task, Error>>,
    compiler: &Compiler,
    settings: &Settings,
    reporter: &mut dyn Reporter,
) -> RunSummary {
    let started = Instant::now();
    // One worker, or one thing to do: the calling thread does it. Handing work to another
    // thread and back costs wake-ups, which on an idle machine cost more than a small case.
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
    let (builds, checkers) = build_all(pool.as_ref(), &tasks, compiler);
    let readiness: Vec<Readiness> = tasks
        .iter()
        .zip(&builds)
        .zip(&checkers)
        .map(|((task, build), checker)| Readiness::of(task, build, checker))
        .collect();
    // A problem judged with several solution files (one per language) counts once.
    let mut ids: Vec<&str> = tasks
        .iter()
        .flatten()
        .map(|task| task.problem.id.as_str())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    // A problem that failed to load counts; an illegal input (`--validate`) is a loaded one's.
    let unloaded = tasks
        .iter()
        .filter(|task| matches!(task, Err(error) if !error.is_of_a_loaded_problem()))
        .count();
    let mut summary = RunSummary {
        problems: ids.len() + unloaded,
        ..RunSummary::default()
    };
    let judge = ProcessJudge(&readiness);
    let cases: Vec<Option<usize>> = readiness
        .iter()
        .map(|ready| match ready {
            Readiness::Ready { task, .. } => Some(task.problem.cases.len()),
            _ => None,
        })
        .collect();
    reporter.run_started(cases.iter().flatten().sum());
    let mut scored = vec![Vec::new(); readiness.len()];
    let totals = run_cases(&judge, &cases, settings, pool.as_ref(), &mut |progress| {
        report(&readiness, progress, &mut summary, &mut scored, reporter)
    });
    summary.tally = totals.tally;
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

/// A loaded task's solution build, and its checker's (`None` for a task that failed to load).
type Builds = (
    Vec<Option<Result<Build, Error>>>,
    Vec<Option<Result<Option<Program>, Error>>>,
);

/// Builds every loaded task's solution and checker, on the pool's threads when there is one,
/// each thread taking the next build from one list with the slowest first (a JVM compiler,
/// then other compilers, then the checks of interpreted languages): the longest build then
/// starts at once instead of last, alone on one core while the others wait.
fn build_all(
    pool: Option<&rayon::ThreadPool>,
    tasks: &[Result<Task, Error>],
    compiler: &Compiler,
) -> Builds {
    let solutions: Vec<OnceLock<Result<Build, Error>>> =
        tasks.iter().map(|_| OnceLock::new()).collect();
    let checkers: Vec<OnceLock<Result<Option<Program>, Error>>> =
        tasks.iter().map(|_| OnceLock::new()).collect();
    // (how slow, which task, its checker rather than its solution)
    let mut jobs: Vec<(u8, usize, &Task, bool)> = Vec::new();
    for (index, task) in tasks.iter().enumerate() {
        let Ok(task) = task else { continue };
        jobs.push((build_cost(&task.solution), index, task, false));
        if let Some(checker) = &task.problem.checker {
            jobs.push((build_cost(&checker.source), index, task, true));
        }
    }
    jobs.sort_by_key(|&(cost, ..)| cost);
    let next = AtomicUsize::new(0);
    let work = || {
        while let Some(&(_, index, task, checker)) = jobs.get(next.fetch_add(1, Ordering::Relaxed))
        {
            if checker {
                let _ = checkers[index].set(build_checker(compiler, &task.problem));
            } else {
                let built = task
                    .problem
                    .solution_sources(&task.solution)
                    .and_then(|sources| compiler.build_from(&task.solution, sources));
                let _ = solutions[index].set(built);
            }
        }
    };
    match pool {
        Some(pool) => pool.scope(|scope| {
            for _ in 0..pool.current_num_threads() {
                scope.spawn(|_| work());
            }
        }),
        None => work(),
    }
    let loaded = |index: usize| tasks[index].is_ok();
    (
        solutions
            .into_iter()
            .enumerate()
            .map(|(index, built)| loaded(index).then(|| built.into_inner().expect("built above")))
            .collect(),
        checkers
            .into_iter()
            .enumerate()
            .map(|(index, built)| loaded(index).then(|| built.into_inner().unwrap_or(Ok(None))))
            .collect(),
    )
}

/// How long a program's build is likely to take, as a rank (smaller first): a compiler that
/// starts a JVM, another compiler, a syntax check of an interpreted language.
fn build_cost(source: &std::path::Path) -> u8 {
    match Language::of(source).map(|language| language.id) {
        Some(LanguageId::Java | LanguageId::Kotlin) => 0,
        Some(LanguageId::Python3 | LanguageId::Python2 | LanguageId::JavaScript)
        | Some(LanguageId::Bash | LanguageId::Scripts) => 2,
        _ => 1,
    }
}
