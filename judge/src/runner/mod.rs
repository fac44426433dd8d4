//! Judging many problems at once: every build and every case as one pool of jobs, each case
//! as soon as its programs are built, results reported in input order as they come.
//!
//! A case whose CPU time ends near or over the limit is run again alone after the parallel
//! pass, and that run decides: a busy machine must not produce a false TLE. With `fail_fast`,
//! a solution's cases after its first failure are skipped. Once asked to stop (`interrupt`),
//! no case starts; finished cases are reported in input order up to the first that did not.
//!
//! `jobs::run_cases` sees cases only through the `CaseJudge` trait, so that it is tested
//! without processes.

pub mod interrupt;
mod jobs;
pub mod plan;
mod result_cache;
mod tasks;
pub(crate) mod verify;

use std::path::PathBuf;
use std::time::Instant;

use crate::error::Error;
use crate::problem::Problem;
use crate::report::{Reporter, RunBook, RunSummary};
use crate::toolchain::Compiler;

pub use jobs::{run_cases, CaseJudge, CaseTotals, Event, Part, Progress};
use tasks::{report, ProcessJudge};

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
