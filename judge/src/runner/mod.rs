//! Judging many problems at once: build every solution (in parallel), run every case of every
//! problem as one pool of jobs, and hand results to the reporter in input order as they come.
//!
//! A case whose CPU time ends near or over the limit is run again alone once the parallel
//! pass is over, and that serial run decides: a busy machine must not produce a false TLE.
//! With `fail_fast`, a solution's cases after its first failure are skipped. Once the judge is
//! asked to stop (`interrupt`), no case is started; the cases that finished before are
//! reported, in input order up to the first that did not, and the summary names the signal.
//!
//! That logic (`run_cases`) sees the judging of cases only through the `CaseJudge` trait, so
//! that it is tested without processes.

pub mod interrupt;
pub mod verify;

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::error::Error;
use crate::judging::checker::build_checker;
use crate::judging::judge_case;
use crate::judging::scorecard::CaseScore;
use crate::judging::verdict::Verdict;
use crate::judging::{CaseResult, Tally};
use crate::problem::Problem;
use crate::report::{Reporter, RunSummary};
use crate::toolchain::{Build, Compiler, Program};

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
    /// Its cases run one at a time (see `CaseJudge::one_at_a_time`).
    pub one_at_a_time: bool,
}

/// The judging of cases, as the runner sees it: tasks and cases by their indices.
pub trait CaseJudge: Sync {
    /// Judges case `case` of task `task`.
    fn judge(&self, task: usize, case: usize) -> CaseResult;
    /// The CPU time limit of task `task`: results near it are confirmed by a serial re-run.
    fn cpu_time_limit(&self, task: usize) -> Duration;
    /// Whether task `task`'s cases run one at a time: for a solution that is expected to
    /// fail, whose later cases `fail_fast` will likely skip, and would only slow (and leave
    /// to be confirmed) the case that decides.
    fn one_at_a_time(&self, _task: usize) -> bool {
        false
    }
    /// The signal that asked the judge to stop, if one has.
    fn interrupted(&self) -> Option<i32> {
        crate::runner::interrupt::requested()
    }
}

/// What `run_cases` tells its caller, in input order.
#[derive(Debug)]
pub enum Progress<'a> {
    /// A task that has no cases to judge (it failed to load or to build).
    Unjudged(usize),
    /// A task whose cases follow.
    TaskStarted(usize),
    CaseFinished(usize, &'a CaseResult),
    /// The end of a task's cases, with their totals.
    TaskFinished(usize, &'a Tally),
}

/// What `run_cases` came to.
#[derive(Debug, Default)]
pub struct CaseTotals {
    pub tally: Tally,
    /// Cases not judged because an earlier case of the same task failed (`fail_fast`).
    pub skipped: usize,
    /// The signal that stopped the run, if one did.
    pub interrupted: Option<i32>,
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
    let builds = map_tasks(pool.as_ref(), &tasks, |task| {
        compiler.build_from(
            &task.solution,
            task.problem.solution_sources(&task.solution)?,
        )
    });
    let checkers = map_tasks(pool.as_ref(), &tasks, |task| {
        build_checker(compiler, &task.problem)
    });
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
    let mut summary = RunSummary {
        problems: ids.len() + tasks.iter().filter(|task| task.is_err()).count(),
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
    reporter.run_finished(&summary);
    summary
}

/// How far a task got before its cases.
enum Readiness<'a> {
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
    fn of(
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
fn report(
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
            reporter.problem_started(problem, &task.solution, Some(program));
            if program.cached {
                summary.cached += 1;
            } else {
                summary.compiled += 1;
            }
        }
        Progress::CaseFinished(index, result) => {
            if problem.scoring.is_some() {
                scored[index].push(CaseScore {
                    name: result.name.clone(),
                    verdict: result.verdict.kind(),
                    validator: result.score,
                });
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
struct ProcessJudge<'a>(&'a [Readiness<'a>]);

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

/// What became of a case given to the pool.
enum Attempt {
    Judged(Box<CaseResult>),
    /// Not started: an earlier case of the same task failed, with `fail_fast`.
    Skipped,
    /// Not started, or ended, once the judge was asked to stop.
    Unfinished,
}

/// Judges cases, keeping each task's first known failure for `fail_fast`.
struct Attempts<'a> {
    judge: &'a dyn CaseJudge,
    fail_fast: bool,
    /// Per task, the first case known to fail.
    first_failure: Vec<AtomicUsize>,
}

impl Attempts<'_> {
    /// A case as the pool takes it: skipped when `fail_fast` and an earlier case failed.
    fn attempt(&self, task: usize, case: usize) -> Attempt {
        if self.fail_fast && case > self.first_failure[task].load(Ordering::Relaxed) {
            return Attempt::Skipped;
        }
        match self.judge_now(task, case) {
            Some(result) => Attempt::Judged(Box::new(result)),
            None => Attempt::Unfinished,
        }
    }

    /// Judges a case unless the judge was asked to stop. A case that ends after the request
    /// is not kept either: the sandbox may have stopped it, so its verdict is not the
    /// program's.
    fn judge_now(&self, task: usize, case: usize) -> Option<CaseResult> {
        if self.judge.interrupted().is_some() {
            return None;
        }
        let result = self.judge.judge(task, case);
        if self.judge.interrupted().is_some() {
            return None;
        }
        if !result.verdict.is_accepted() {
            self.first_failure[task].fetch_min(case, Ordering::Relaxed);
        }
        Some(result)
    }
}

/// The cases not started yet, handed to workers in input order, except that a task whose
/// cases run one at a time (`CaseJudge::one_at_a_time`) is passed over while one of them runs.
struct Queue {
    state: Mutex<QueueState>,
    changed: Condvar,
}

struct QueueState {
    waiting: VecDeque<(usize, usize)>,
    /// Per task: its cases run one at a time.
    one_at_a_time: Vec<bool>,
    /// Per task: one of its cases is running.
    running: Vec<bool>,
}

impl QueueState {
    /// The first waiting case that may start now, marked running.
    fn take(&mut self) -> Option<(usize, usize)> {
        let free = |&(task, _): &(usize, usize)| !(self.one_at_a_time[task] && self.running[task]);
        let index = self.waiting.iter().position(free)?;
        let (task, case) = self.waiting.remove(index).expect("found above");
        self.running[task] = true;
        Some((task, case))
    }
}

impl Queue {
    fn new(judge: &dyn CaseJudge, cases: &[Option<usize>]) -> Queue {
        let waiting = cases
            .iter()
            .enumerate()
            .flat_map(|(task, count)| (0..count.unwrap_or(0)).map(move |case| (task, case)))
            .collect();
        Queue {
            state: Mutex::new(QueueState {
                waiting,
                one_at_a_time: (0..cases.len())
                    .map(|task| judge.one_at_a_time(task))
                    .collect(),
                running: vec![false; cases.len()],
            }),
            changed: Condvar::new(),
        }
    }

    /// The next case to judge, waiting while only held-back ones are left; `None` at the end.
    fn next(&self) -> Option<(usize, usize)> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if state.waiting.is_empty() {
                return None;
            }
            if let Some(next) = state.take() {
                return Some(next);
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The next case to judge if one is free now, without waiting.
    fn try_next(&self) -> Option<(usize, usize)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// Marks that `task` runs no case any more.
    fn done(&self, task: usize) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.running[task] = false;
        // Only a task held back makes a worker wait.
        if state.one_at_a_time[task] {
            self.changed.notify_all();
        }
    }
}

/// Judges `cases[task]` cases of every task (`None` for a task with none to judge), on
/// `pool` when there is one, and tells `progress` in input order. The calling thread is one
/// of the pool's workers: it judges a case whenever the result it waits for has not arrived
/// (a result handed over from another thread costs a wake-up per case).
pub fn run_cases(
    judge: &dyn CaseJudge,
    cases: &[Option<usize>],
    settings: &Settings,
    pool: Option<&rayon::ThreadPool>,
    progress: &mut dyn FnMut(Progress),
) -> CaseTotals {
    let attempts = Attempts {
        judge,
        fail_fast: settings.fail_fast,
        first_failure: cases.iter().map(|_| AtomicUsize::new(usize::MAX)).collect(),
    };
    let queue = Queue::new(judge, cases);
    let mut totals = CaseTotals::default();
    // The calling thread judges too, and is kept on a CPU meanwhile: not after.
    let _unpin = crate::sandbox::Unpin::on_drop();
    let (sender, receiver) = mpsc::channel::<((usize, usize), Attempt)>();
    std::thread::scope(|scope| {
        let attempts = &attempts;
        let queue = &queue;
        let mut workers = pool.map(|pool| {
            scope.spawn(move || {
                pool.scope(|workers| {
                    // The calling thread is one of the workers too (see `next`).
                    for _ in 1..pool.current_num_threads() {
                        let sender = sender.clone();
                        workers.spawn(move |_| {
                            while let Some((task, case)) = queue.next() {
                                let attempt = attempts.attempt(task, case);
                                queue.done(task);
                                let _ = sender.send(((task, case), attempt));
                            }
                        });
                    }
                });
            })
        });
        let mut arrived: HashMap<(usize, usize), Attempt> = HashMap::new();
        // Without workers, the case is judged right here.
        let mut next = |task: usize, case: usize| {
            if pool.is_none() {
                return attempts.attempt(task, case);
            }
            loop {
                if let Some(attempt) = arrived.remove(&(task, case)) {
                    return attempt;
                }
                // Rather than wait for a worker, judge a case here while one is free: its
                // result needs no wake-up to arrive, and a worker's waits for this loop.
                if let Some(key) = queue.try_next() {
                    let attempt = attempts.attempt(key.0, key.1);
                    queue.done(key.0);
                    arrived.insert(key, attempt);
                    continue;
                }
                let (key, attempt) = receiver.recv().expect("every job sends its result");
                arrived.insert(key, attempt);
            }
        };
        // Asked to stop while building: a compiler may have been stopped, so no build counts.
        let walk = if judge.interrupted().is_some() {
            &cases[..0]
        } else {
            cases
        };
        for (task, count) in walk.iter().enumerate() {
            let Some(count) = *count else {
                progress(Progress::Unjudged(task));
                continue;
            };
            let mut tally = Tally::default();
            // A task is told only once one of its cases finished (or when it has none).
            let mut started = false;
            let mut stopped = false;
            let mut unfinished = false;
            for case in 0..count {
                let attempt = next(task, case);
                if stopped {
                    totals.skipped += 1;
                    continue;
                }
                let result = match attempt {
                    Attempt::Judged(result) => Some(*result),
                    // Skipped for a failure that its confirmation then overturned.
                    Attempt::Skipped => attempts.judge_now(task, case),
                    Attempt::Unfinished => None,
                };
                let Some(mut result) = result else {
                    unfinished = true;
                    break;
                };
                if needs_confirmation(&result, judge.cpu_time_limit(task)) {
                    // Let the parallel pass finish, then re-run this case alone.
                    if let Some(workers) = workers.take() {
                        workers.join().expect("worker threads do not panic");
                    }
                    let Some(again) = attempts.judge_now(task, case) else {
                        unfinished = true;
                        break;
                    };
                    result = CaseResult {
                        confirmed: true,
                        ..again
                    };
                }
                if !started {
                    progress(Progress::TaskStarted(task));
                    started = true;
                }
                tally.add(&result);
                progress(Progress::CaseFinished(task, &result));
                stopped = settings.fail_fast && !result.verdict.is_accepted();
            }
            if !started && !unfinished {
                progress(Progress::TaskStarted(task));
                started = true;
            }
            if started {
                progress(Progress::TaskFinished(task, &tally));
                totals.tally.merge(&tally);
            }
            if unfinished {
                break;
            }
        }
    });
    totals.interrupted = judge.interrupted();
    totals
}

/// A time verdict that the machine's load may have caused: CPU time near or over the limit,
/// or a stop at the wall-clock backstop, unless load cannot have caused it
/// (`CaseResult::beyond_load`).
fn needs_confirmation(result: &CaseResult, cpu_time_limit: Duration) -> bool {
    let near = cpu_time_limit.mul_f64(CONFIRM_SHARE);
    match result.verdict {
        Verdict::TimeLimitExceeded => !result.beyond_load,
        Verdict::Accepted | Verdict::WrongAnswer => result.cpu_time >= near,
        _ => false,
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Mutex;

    use super::*;
    use crate::sandbox::Termination;

    const LIMIT: Duration = Duration::from_secs(1);
    const AC: Verdict = Verdict::Accepted;
    const WA: Verdict = Verdict::WrongAnswer;
    const TLE: Verdict = Verdict::TimeLimitExceeded;

    /// What a test judge gives for case `case` of task `task`.
    fn case_result(task: usize, case: usize, verdict: Verdict, cpu_ms: u64) -> CaseResult {
        CaseResult {
            name: format!("{task}/{case}"),
            verdict,
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::ZERO,
            peak_memory_bytes: 0,
            confirmed: false,
            // A time limit with almost no CPU time: stopped while it slept.
            beyond_load: verdict == Verdict::TimeLimitExceeded && cpu_ms < 100,
            failure: None,
            score: None,
        }
    }

    /// A judge that answers from a script: per task, per case, the verdict and CPU time of
    /// each run in turn (the last one repeats). It can be asked to stop during a run.
    struct Scripted {
        script: Vec<Vec<Vec<(Verdict, u64)>>>,
        runs: Mutex<Vec<(usize, usize)>>,
        /// The run (counted from 1) during which the judge is asked to stop.
        interrupt_during_run: Option<usize>,
        interrupted: AtomicBool,
        started_after_interrupt: AtomicBool,
    }

    impl Scripted {
        fn new(script: Vec<Vec<Vec<(Verdict, u64)>>>) -> Self {
            Scripted {
                script,
                runs: Mutex::new(Vec::new()),
                interrupt_during_run: None,
                interrupted: AtomicBool::new(false),
                started_after_interrupt: AtomicBool::new(false),
            }
        }

        fn runs_of(&self, task: usize, case: usize) -> usize {
            let runs = self.runs.lock().unwrap();
            runs.iter().filter(|&&run| run == (task, case)).count()
        }
    }

    impl CaseJudge for Scripted {
        fn judge(&self, task: usize, case: usize) -> CaseResult {
            if self.interrupted.load(Ordering::SeqCst) {
                self.started_after_interrupt.store(true, Ordering::SeqCst);
            }
            // Later cases finish sooner, so that workers deliver out of order.
            let cases = self.script[task].len();
            std::thread::sleep(Duration::from_millis(2 * (cases - case) as u64));
            let (run, total) = {
                let mut runs = self.runs.lock().unwrap();
                runs.push((task, case));
                let run = runs.iter().filter(|&&run| run == (task, case)).count();
                (run, runs.len())
            };
            if self.interrupt_during_run == Some(total) {
                self.interrupted.store(true, Ordering::SeqCst);
            }
            let runs = &self.script[task][case];
            let (verdict, cpu_ms) = runs[(run - 1).min(runs.len() - 1)];
            case_result(task, case, verdict, cpu_ms)
        }

        fn cpu_time_limit(&self, _task: usize) -> Duration {
            LIMIT
        }

        fn interrupted(&self) -> Option<i32> {
            self.interrupted
                .load(Ordering::SeqCst)
                .then_some(libc::SIGINT)
        }
    }

    /// Runs the script with and without workers; both must tell the same story, given back
    /// as lines such as `case 0/1 AC confirmed`.
    fn run(judge: impl Fn() -> Scripted, cases: &[Option<usize>], fail_fast: bool) -> Vec<String> {
        let serial = run_on(&judge(), cases, fail_fast, None);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let parallel = run_on(&judge(), cases, fail_fast, Some(&pool));
        assert_eq!(serial, parallel, "with and without workers");
        serial
    }

    fn run_on(
        judge: &Scripted,
        cases: &[Option<usize>],
        fail_fast: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<String> {
        let settings = Settings { jobs: 3, fail_fast };
        let mut told = Vec::new();
        let totals = run_cases(judge, cases, &settings, pool, &mut |progress| {
            told.push(match progress {
                Progress::Unjudged(task) => format!("unjudged {task}"),
                Progress::TaskStarted(task) => format!("start {task}"),
                Progress::CaseFinished(_, result) => format!(
                    "case {} {}{}",
                    result.name,
                    result.verdict,
                    if result.confirmed { " confirmed" } else { "" }
                ),
                Progress::TaskFinished(task, tally) => {
                    format!("finish {task}: {}/{}", tally.accepted(), tally.cases)
                }
            })
        });
        told.push(format!(
            "skipped {}, interrupted {:?}",
            totals.skipped, totals.interrupted
        ));
        told
    }

    fn all(verdict: Verdict, cases: usize) -> Vec<Vec<(Verdict, u64)>> {
        vec![vec![(verdict, 10)]; cases]
    }

    #[test]
    fn results_are_told_in_input_order() {
        let judge = || Scripted::new(vec![all(AC, 4), Vec::new(), all(WA, 3)]);
        assert_eq!(
            run(judge, &[Some(4), None, Some(3)], false),
            [
                "start 0",
                "case 0/0 AC",
                "case 0/1 AC",
                "case 0/2 AC",
                "case 0/3 AC",
                "finish 0: 4/4",
                "unjudged 1",
                "start 2",
                "case 2/0 WA",
                "case 2/1 WA",
                "case 2/2 WA",
                "finish 2: 0/3",
                "skipped 0, interrupted None",
            ]
        );
    }

    #[test]
    fn fail_fast_skips_the_cases_after_a_failure() {
        let judge = || {
            Scripted::new(vec![
                vec![
                    vec![(AC, 10)],
                    vec![(WA, 10)],
                    vec![(AC, 10)],
                    vec![(AC, 10)],
                ],
                all(AC, 2),
            ])
        };
        assert_eq!(
            run(judge, &[Some(4), Some(2)], true),
            [
                "start 0",
                "case 0/0 AC",
                "case 0/1 WA",
                "finish 0: 1/2",
                "start 1",
                "case 1/0 AC",
                "case 1/1 AC",
                "finish 1: 2/2",
                "skipped 2, interrupted None",
            ]
        );
        // Alone, a case after the failure is never started.
        let judge = judge();
        run_on(&judge, &[Some(4), Some(2)], true, None);
        assert_eq!(judge.runs_of(0, 2) + judge.runs_of(0, 3), 0);
    }

    #[test]
    fn time_verdicts_and_times_near_the_limit_are_confirmed_by_a_second_run() {
        let judge = || {
            Scripted::new(vec![vec![
                vec![(TLE, 1100), (AC, 700)],
                vec![(AC, 950), (TLE, 1200)],
                vec![(AC, 899)],
                vec![(RE, 950)],
            ]])
        };
        const RE: Verdict = Verdict::RuntimeError(Termination::Exited(1));
        assert_eq!(
            run(judge, &[Some(4)], false),
            [
                "start 0",
                "case 0/0 AC confirmed",
                "case 0/1 TLE confirmed",
                "case 0/2 AC",
                "case 0/3 RE (exit 1)",
                "finish 0: 2/4",
                "skipped 0, interrupted None",
            ]
        );
        let judge = judge();
        run_on(&judge, &[Some(4)], false, None);
        let runs: Vec<usize> = (0..4).map(|case| judge.runs_of(0, case)).collect();
        assert_eq!(runs, [2, 2, 1, 1], "runs per case");
    }

    #[test]
    fn a_program_stopped_while_it_slept_is_not_run_again() {
        let judge = || Scripted::new(vec![vec![vec![(TLE, 5), (AC, 5)], vec![(AC, 10)]]]);
        assert_eq!(
            run(judge, &[Some(2)], false),
            [
                "start 0",
                "case 0/0 TLE",
                "case 0/1 AC",
                "finish 0: 1/2",
                "skipped 0, interrupted None",
            ]
        );
    }

    #[test]
    fn a_failure_that_its_confirmation_overturns_skips_nothing() {
        let judge = || {
            Scripted::new(vec![vec![
                vec![(AC, 10)],
                vec![(TLE, 1100), (AC, 500)],
                vec![(AC, 10)],
                vec![(AC, 10)],
            ]])
        };
        assert_eq!(
            run(judge, &[Some(4)], true),
            [
                "start 0",
                "case 0/0 AC",
                "case 0/1 AC confirmed",
                "case 0/2 AC",
                "case 0/3 AC",
                "finish 0: 4/4",
                "skipped 0, interrupted None",
            ]
        );
    }

    #[test]
    fn once_asked_to_stop_no_case_starts_and_the_finished_ones_are_told() {
        // Stopped during the third run: the two before it are told, nothing after starts.
        let judge = Scripted {
            interrupt_during_run: Some(3),
            ..Scripted::new(vec![all(AC, 2), all(AC, 3), all(AC, 2)])
        };
        assert_eq!(
            run_on(&judge, &[Some(2), Some(3), Some(2)], false, None),
            [
                "start 0",
                "case 0/0 AC",
                "case 0/1 AC",
                "finish 0: 2/2",
                "skipped 0, interrupted Some(2)",
            ]
        );
        assert_eq!(judge.runs.lock().unwrap().len(), 3);
        assert!(!judge.started_after_interrupt.load(Ordering::SeqCst));

        // With workers, the cases already running may finish, but none starts after the
        // request and what is told is a prefix of the input order.
        let judge = Scripted {
            interrupt_during_run: Some(3),
            ..Scripted::new(vec![all(AC, 20)])
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let told = run_on(&judge, &[Some(20)], false, Some(&pool));
        assert!(!judge.started_after_interrupt.load(Ordering::SeqCst));
        assert!(judge.runs.lock().unwrap().len() <= 5, "{told:?}");
        assert_eq!(told.last().unwrap(), "skipped 0, interrupted Some(2)");
        for (index, line) in told
            .iter()
            .skip(1)
            .take_while(|l| l.starts_with("case"))
            .enumerate()
        {
            assert_eq!(line, &format!("case 0/{index} AC"));
        }
    }

    #[test]
    fn asked_to_stop_before_any_case_tells_nothing() {
        let judge = Scripted::new(vec![all(AC, 2), Vec::new()]);
        judge.interrupted.store(true, Ordering::SeqCst);
        assert_eq!(
            run_on(&judge, &[Some(2), None], false, None),
            ["skipped 0, interrupted Some(2)"]
        );
        assert!(judge.runs.lock().unwrap().is_empty());
    }

    /// A judge that notes, per task, whether two of its cases ran at once.
    struct Overlaps {
        one_at_a_time: Vec<bool>,
        running: Mutex<Vec<usize>>,
        overlapped: Mutex<Vec<bool>>,
    }

    impl CaseJudge for Overlaps {
        fn judge(&self, task: usize, case: usize) -> CaseResult {
            {
                let mut running = self.running.lock().unwrap();
                running[task] += 1;
                if running[task] > 1 {
                    self.overlapped.lock().unwrap()[task] = true;
                }
            }
            std::thread::sleep(Duration::from_millis(5));
            self.running.lock().unwrap()[task] -= 1;
            case_result(task, case, AC, 0)
        }

        fn cpu_time_limit(&self, _task: usize) -> Duration {
            LIMIT
        }

        fn one_at_a_time(&self, task: usize) -> bool {
            self.one_at_a_time[task]
        }

        fn interrupted(&self) -> Option<i32> {
            None
        }
    }

    #[test]
    fn a_task_judged_one_case_at_a_time_never_runs_two_and_all_are_judged() {
        let judge = Overlaps {
            one_at_a_time: vec![true, false, true],
            running: Mutex::new(vec![0; 3]),
            overlapped: Mutex::new(vec![false; 3]),
        };
        let mut finished = Vec::new();
        let cases = [Some(6), Some(6), Some(6)];
        run_on_three_threads(&judge, &cases, &mut |progress| {
            if let Progress::CaseFinished(_, result) = progress {
                finished.push(result.name.clone());
            }
        });
        let expected: Vec<String> = (0..3)
            .flat_map(|task| (0..6).map(move |case| format!("{task}/{case}")))
            .collect();
        assert_eq!(finished, expected);
        let overlapped = judge.overlapped.lock().unwrap();
        assert!(!overlapped[0] && !overlapped[2], "{overlapped:?}");
    }

    /// Counts the cases running at once.
    #[derive(Default)]
    struct Concurrency {
        running: Mutex<(usize, usize)>,
    }

    impl CaseJudge for Concurrency {
        fn judge(&self, task: usize, case: usize) -> CaseResult {
            {
                let mut running = self.running.lock().unwrap();
                running.0 += 1;
                running.1 = running.1.max(running.0);
            }
            std::thread::sleep(Duration::from_millis(10));
            self.running.lock().unwrap().0 -= 1;
            case_result(task, case, AC, 0)
        }

        fn cpu_time_limit(&self, _task: usize) -> Duration {
            LIMIT
        }

        fn interrupted(&self) -> Option<i32> {
            None
        }
    }

    #[test]
    fn a_pool_of_n_threads_runs_n_cases_at_once_the_calling_thread_among_them() {
        let judge = Concurrency::default();
        let mut finished = 0;
        run_on_three_threads(&judge, &[Some(20), Some(20)], &mut |progress| {
            finished += usize::from(matches!(progress, Progress::CaseFinished(..)));
        });
        assert_eq!(finished, 40);
        let peak = judge.running.lock().unwrap().1;
        assert!((2..=3).contains(&peak), "{peak} cases at once on 3 threads");
    }

    /// `run_cases` on a pool of three threads, every case judged.
    fn run_on_three_threads(
        judge: &dyn CaseJudge,
        cases: &[Option<usize>],
        progress: &mut dyn FnMut(Progress),
    ) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let settings = Settings {
            jobs: 3,
            fail_fast: false,
        };
        run_cases(judge, cases, &settings, Some(&pool), progress);
    }
}
