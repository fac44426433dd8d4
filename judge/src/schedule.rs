//! Judging many problems at once: build every solution (in parallel), run every case of every
//! problem as one pool of jobs, and hand results to the reporter in input order as they come.
//!
//! A case whose CPU time ends near or over the limit is run again alone once the parallel
//! pass is over, and that serial run decides: a busy machine must not produce a false TLE.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::checker::{build_checker, check, Judgement};
use crate::compare::{self, FileMismatch};
use crate::compile::{Build, Compiler, Program};
use crate::diff::{self, DiffLine};
use crate::error::{Error, Outcome};
use crate::problem::{Problem, TestCase};
use crate::profile::Limits;
use crate::report::Reporter;
use crate::sandbox::RunOutput;
use crate::verdict::{classify_run, Verdict};

/// Cases at or above this share of the time limit, or over it, are confirmed by a serial
/// re-run.
const CONFIRM_SHARE: f64 = 0.9;

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
    pub problem: Problem,
    pub solution: PathBuf,
}

/// The verdict on one case and the evidence behind it.
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub name: String,
    pub verdict: Verdict,
    pub cpu_time: Duration,
    pub wall_time: Duration,
    pub peak_memory_bytes: u64,
    /// The verdict is the one of a serial re-run near the time limit.
    pub confirmed: bool,
    /// What a person needs to see when the case is not accepted.
    pub failure: Option<Failure>,
}

#[derive(Debug, Clone, Default)]
pub struct Failure {
    /// Where and why, in one line.
    pub message: String,
    /// For a wrong answer found by comparing: where, to find the sub-case in the input.
    pub mismatch: Option<compare::Mismatch>,
    pub diff: Vec<DiffLine>,
    pub stderr: String,
}

/// Totals for one problem or for the whole run.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub cases: usize,
    pub by_verdict: Vec<(&'static str, usize)>,
    pub max_cpu_time: Duration,
    pub max_peak_memory_bytes: u64,
}

impl Tally {
    pub fn add(&mut self, result: &CaseResult) {
        self.cases += 1;
        self.count(result.verdict.code(), 1);
        self.max_cpu_time = self.max_cpu_time.max(result.cpu_time);
        self.max_peak_memory_bytes = self.max_peak_memory_bytes.max(result.peak_memory_bytes);
    }

    pub fn count(&mut self, code: &'static str, count: usize) {
        match self.by_verdict.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => *n += count,
            None => self.by_verdict.push((code, count)),
        }
    }

    pub fn accepted(&self) -> usize {
        self.by_verdict
            .iter()
            .find(|(code, _)| *code == "AC")
            .map_or(0, |(_, n)| *n)
    }

    pub fn merge(&mut self, other: &Tally) {
        self.cases += other.cases;
        for &(code, count) in &other.by_verdict {
            self.count(code, count);
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
    let builds = map_tasks(pool.as_ref(), &tasks, |task| compiler.build(&task.solution));
    let checkers: Vec<Result<Option<Program>, Error>> = map_tasks(pool.as_ref(), &tasks, |task| {
        build_checker(compiler, &task.problem)
    })
    .into_iter()
    .map(|checker| checker.unwrap_or(Ok(None)))
    .collect();
    let programs: Vec<Option<&Program>> = builds
        .iter()
        .zip(&checkers)
        .map(|(build, checker)| match (build, checker) {
            (Some(Ok(Build::Ready(program))), Ok(_)) => Some(program),
            _ => None,
        })
        .collect();
    let jobs: Vec<(usize, usize)> = tasks
        .iter()
        .enumerate()
        .filter(|(index, _)| programs[*index].is_some())
        .flat_map(|(index, task)| {
            let cases = task.as_ref().map_or(0, |task| task.problem.cases.len());
            (0..cases).map(move |case| (index, case))
        })
        .collect();

    reporter.run_started(jobs.len());
    let mut summary = RunSummary {
        problems: tasks.len(),
        ..RunSummary::default()
    };
    // Per task, the first case known to fail: with `fail_fast`, later cases are not started.
    let first_failure: Vec<AtomicUsize> =
        tasks.iter().map(|_| AtomicUsize::new(usize::MAX)).collect();
    let (sender, receiver) = mpsc::channel::<((usize, usize), Option<CaseResult>)>();
    std::thread::scope(|scope| {
        let tasks = &tasks;
        let programs = &programs;
        let jobs = &jobs;
        let checkers = &checkers;
        let first_failure = &first_failure;
        let mut workers = pool.as_ref().map(|pool| {
            scope.spawn(move || {
                pool.scope_fifo(|fifo| {
                    for &(task, case) in jobs {
                        let sender = sender.clone();
                        fifo.spawn_fifo(move |_| {
                            let task_ref =
                                tasks[task].as_ref().expect("jobs come from loaded tasks");
                            let program = programs[task].expect("jobs come from built programs");
                            let problem = &task_ref.problem;
                            let checker = checkers[task].as_ref().ok().and_then(Option::as_ref);
                            let skip = settings.fail_fast
                                && case > first_failure[task].load(Ordering::Relaxed);
                            let result = (!skip).then(|| {
                                judge_case(problem, program, checker, &problem.cases[case])
                            });
                            if result
                                .as_ref()
                                .is_some_and(|result| !result.verdict.is_accepted())
                            {
                                first_failure[task].fetch_min(case, Ordering::Relaxed);
                            }
                            let _ = sender.send(((task, case), result));
                        });
                    }
                });
            })
        });
        let mut arrived: HashMap<(usize, usize), Option<CaseResult>> = HashMap::new();
        for (index, task) in tasks.iter().enumerate() {
            let task = match task {
                Ok(task) => task,
                Err(error) => {
                    summary.errors += 1;
                    reporter.problem_error(error);
                    continue;
                }
            };
            let problem = &task.problem;
            let checker = match &checkers[index] {
                Ok(checker) => checker.as_ref(),
                Err(error) => {
                    summary.errors += 1;
                    reporter.problem_error(error);
                    continue;
                }
            };
            let program = match builds[index].as_ref().expect("loaded tasks were built") {
                Err(error) => {
                    summary.errors += 1;
                    reporter.problem_error(error);
                    continue;
                }
                Ok(Build::CompileError(message)) => {
                    summary.compile_errors += 1;
                    reporter.problem_started(problem, &task.solution, None);
                    reporter.compile_error(problem, message);
                    continue;
                }
                Ok(Build::Ready(program)) => program,
            };
            reporter.problem_started(problem, &task.solution, Some(program));
            if program.cached {
                summary.cached += 1;
            } else {
                summary.compiled += 1;
            }
            let mut tally = Tally::default();
            let mut stopped = false;
            for case in 0..problem.cases.len() {
                // Without workers, `None` has the case judged right here, below.
                let result = loop {
                    if pool.is_none() {
                        break None;
                    }
                    if let Some(result) = arrived.remove(&(index, case)) {
                        break result;
                    }
                    let (key, result) = receiver.recv().expect("every job sends its result");
                    arrived.insert(key, result);
                };
                if stopped {
                    summary.skipped += 1;
                    continue;
                }
                // Skipped for a failure that its confirmation then overturned: judge it now.
                let mut result = result
                    .unwrap_or_else(|| judge_case(problem, program, checker, &problem.cases[case]));
                if needs_confirmation(&result, &problem.limits_for(program.language)) {
                    // Let the parallel pass finish, then re-run this case alone.
                    if let Some(workers) = workers.take() {
                        workers.join().expect("worker threads do not panic");
                    }
                    result = judge_case(problem, program, checker, &problem.cases[case]);
                    result.confirmed = true;
                }
                tally.add(&result);
                reporter.case_finished(problem, &result);
                stopped = settings.fail_fast && !result.verdict.is_accepted();
            }
            reporter.problem_finished(problem, &tally);
            summary.tally.merge(&tally);
        }
    });
    crate::sandbox::release_idle_slots();
    summary.wall_time = started.elapsed();
    reporter.run_finished(&summary);
    summary
}

/// A time verdict that the machine's load may have caused: CPU time near or over the limit,
/// or a stop at the wall-clock backstop (a starved program also waits).
fn needs_confirmation(result: &CaseResult, limits: &Limits) -> bool {
    let near = limits.cpu_time.mul_f64(CONFIRM_SHARE);
    let timing = match result.verdict {
        Verdict::TimeLimitExceeded => true,
        Verdict::Accepted | Verdict::WrongAnswer => result.cpu_time >= near,
        _ => false,
    };
    timing && !result.confirmed
}

/// Runs one case and decides its verdict: by the problem's checker when it has one, else by
/// comparing with the expected output.
pub fn judge_case(
    problem: &Problem,
    program: &Program,
    checker: Option<&Program>,
    case: &TestCase,
) -> CaseResult {
    let limits = problem.limits_for(program.language);
    let run = match program.run(&case.input, limits, &[]) {
        Ok(run) => run,
        Err(error) => return judge_error(case, format!("cannot run the solution: {error}")),
    };
    let (verdict, failure) = match classify_run(&run, &limits) {
        Some(verdict) => (verdict, Some(limit_failure(verdict, &run, &limits))),
        None if checker.is_some() => {
            let spec = problem
                .checker
                .as_ref()
                .expect("a built checker has a spec");
            let checker = checker.expect("checked above");
            match check(checker, spec, &case.input, &case.expected, &run.stdout) {
                Judgement::Accepted => (Verdict::Accepted, None),
                Judgement::Wrong(message) => (
                    Verdict::WrongAnswer,
                    Some(Failure {
                        message,
                        stderr: stderr_of(&run),
                        ..Failure::default()
                    }),
                ),
                Judgement::Fault(message) => return judge_error(case, message),
            }
        }
        None => match compare::compare_file(problem.compare, &case.expected, &run.stdout) {
            Err(error) => {
                return judge_error(case, format!("{}: {error}", case.expected.display()));
            }
            Ok(Ok(())) => (Verdict::Accepted, None),
            Ok(Err(found)) => (Verdict::WrongAnswer, Some(wrong_answer(&found, &run))),
        },
    };
    CaseResult {
        name: case.name.clone(),
        verdict,
        cpu_time: run.cpu_time,
        wall_time: run.wall_time,
        peak_memory_bytes: run.peak_memory_bytes,
        confirmed: false,
        failure,
    }
}

fn wrong_answer(found: &FileMismatch, run: &RunOutput) -> Failure {
    let offset = found.first_line - 1;
    let mut diff = diff::window(
        &found.expected_rest,
        found.actual_rest,
        found.mismatch.line - offset,
    );
    for line in &mut diff {
        line.number += offset;
    }
    Failure {
        message: found.mismatch.to_string(),
        mismatch: Some(found.mismatch.clone()),
        diff,
        stderr: stderr_of(run),
    }
}

fn limit_failure(verdict: Verdict, run: &RunOutput, limits: &Limits) -> Failure {
    let message = match verdict {
        Verdict::TimeLimitExceeded if run.cpu_time > limits.cpu_time => format!(
            "CPU time {} ms over the {} ms limit",
            run.cpu_time.as_millis(),
            limits.cpu_time.as_millis()
        ),
        Verdict::TimeLimitExceeded => format!(
            "stopped by the wall-clock backstop after {} ms (CPU {} ms): waiting instead of computing?",
            run.wall_time.as_millis(),
            run.cpu_time.as_millis()
        ),
        Verdict::MemoryLimitExceeded if run.peak_memory_bytes > limits.memory_bytes => format!(
            "peak memory {} over the {} limit",
            format_bytes(run.peak_memory_bytes),
            format_bytes(limits.memory_bytes)
        ),
        Verdict::MemoryLimitExceeded if run.memory_limit_seen => format!(
            "resident memory passed the {} limit",
            format_bytes(limits.memory_bytes)
        ),
        Verdict::MemoryLimitExceeded => format!(
            "an allocation failed (memory limit {})",
            format_bytes(limits.memory_bytes)
        ),
        Verdict::OutputLimitExceeded => format!(
            "more than {} of output",
            format_bytes(limits.output_bytes)
        ),
        Verdict::RuntimeError(termination) => match termination {
            crate::sandbox::Termination::Exited(code) => format!("exited with code {code}"),
            crate::sandbox::Termination::Signaled(_) => format!("killed by {termination}"),
        },
        other => other.to_string(),
    };
    Failure {
        message,
        stderr: stderr_of(run),
        ..Failure::default()
    }
}

fn judge_error(case: &TestCase, message: String) -> CaseResult {
    CaseResult {
        name: case.name.clone(),
        verdict: Verdict::JudgeError,
        cpu_time: Duration::ZERO,
        wall_time: Duration::ZERO,
        peak_memory_bytes: 0,
        confirmed: false,
        failure: Some(Failure {
            message,
            ..Failure::default()
        }),
    }
}

/// The last lines of stderr: where a panic message or a backtrace ends.
fn stderr_of(run: &RunOutput) -> String {
    const LINES: usize = 12;
    let text = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = text.trim().lines().collect();
    lines[lines.len().saturating_sub(LINES)..].join("\n")
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

/// `f` over every loaded task (`None` for those that failed to load), on the pool if any.
fn map_tasks<T: Send>(
    pool: Option<&rayon::ThreadPool>,
    tasks: &[Result<Task, Error>],
    f: impl Fn(&Task) -> T + Sync,
) -> Vec<Option<T>> {
    let one = |task: &Result<Task, Error>| task.as_ref().ok().map(&f);
    match pool {
        Some(pool) => pool.install(|| tasks.par_iter().map(one).collect()),
        None => tasks.iter().map(one).collect(),
    }
}
