//! Every build and case of every task as one pool of jobs, results in input order: a task's
//! cases start once its programs are built while other builds go on, confirmation re-runs
//! near the time limit, `fail_fast`, and stopping when asked. It sees builds and cases only
//! through `CaseJudge`, so that it is tested without processes. The work not started yet
//! waits in a `Queue`: builds first (slowest first), then cases in input order, each task's
//! once its builds are done.

use std::collections::{HashMap, VecDeque};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex, OnceLock};
use std::thread::ScopedJoinHandle;
use std::time::Duration;

use super::Settings;
use crate::judging::verdict::{confirmed, needs_confirmation};
use crate::judging::CaseResult;

/// Which of a task's programs a build makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Solution,
    /// The problem's output validator.
    Checker,
}

/// Cases as the runner sees them: it builds a task's parts, learns what they came to, and
/// judges the task's cases with that.
pub trait CaseJudge: Sync {
    /// What a judgeable task's cases are judged with and its events carry (for a real task,
    /// its problem, solution and programs).
    type Ready<'a>: Send + Sync
    where
        Self: 'a;
    /// Why a task's cases cannot be judged (it failed to load, or to build).
    type Unjudged<'a>: Send + Sync
    where
        Self: 'a;
    /// Built before its cases, each a job of its own.
    fn builds(&self, _task: usize) -> &[Part] {
        &[]
    }
    /// How long a build is likely to take, as a rank (smaller first).
    fn build_rank(&self, _task: usize, _part: Part) -> u8 {
        0
    }
    fn build(&self, _task: usize, _part: Part) {}
    /// Once every one of its builds ran.
    fn readiness(&self, task: usize) -> Result<Self::Ready<'_>, Self::Unjudged<'_>>;
    fn judge(&self, task: &Self::Ready<'_>, case: usize) -> CaseResult;
    /// Results near it are confirmed by a serial re-run.
    fn cpu_time_limit(&self, task: &Self::Ready<'_>) -> Duration;
    /// For a solution expected to fail: `fail_fast` will likely skip its later cases, which
    /// would only slow (and leave to be confirmed) the case that decides.
    fn one_at_a_time(&self, _task: usize) -> bool {
        false
    }
    /// Per case, the ranges of earlier cases any one of whose failure makes it count for
    /// nothing (a scoring group ending at its first rejection): it is not judged. Empty (or
    /// shorter than the cases) where no rule applies.
    fn blockers(&self, _task: usize) -> &[Vec<Range<usize>>] {
        &[]
    }
    fn interrupted(&self) -> Option<i32> {
        crate::runner::interrupt::requested()
    }
}

/// What `run_cases` tells its caller, in input order: `R` is `CaseJudge::Ready`, `U`
/// `CaseJudge::Unjudged`.
#[derive(Debug)]
pub enum Progress<'a, R, U> {
    Unjudged(&'a U),
    /// Its cases follow.
    TaskStarted(&'a R),
    CaseFinished(&'a R, &'a CaseResult),
    TaskFinished(&'a R),
    /// Stopped before task `.0`'s cases from `.1` on were judged.
    Stopped(usize, usize),
}

pub type Event<'a, 'j, J> =
    Progress<'a, <J as CaseJudge>::Ready<'j>, <J as CaseJudge>::Unjudged<'j>>;

#[derive(Debug, Default)]
pub struct CaseTotals {
    /// Not judged because an earlier case of the task failed.
    pub skipped: usize,
    pub interrupted: Option<i32>,
}

enum Attempt {
    Judged(Box<CaseResult>),
    /// An earlier case of the task failed.
    Skipped,
    /// Not started, or ended, once the judge was asked to stop.
    Unfinished,
}

enum Done {
    Built,
    Case((usize, usize), Attempt),
}

/// Judges cases, keeping failures known so far (by a first run, not yet confirmed) for
/// `fail_fast` and `blockers`.
struct Attempts<'j, J> {
    judge: &'j J,
    fail_fast: bool,
    /// Per task.
    first_failure: Vec<AtomicUsize>,
    /// Per task and case.
    failed: Vec<Vec<AtomicBool>>,
}

impl<'j, J: CaseJudge> Attempts<'j, J> {
    fn work(&self, queue: &Queue<'j, J>, job: Job<'_, J::Ready<'j>>) -> Done {
        match job {
            Job::Build { task, part } => {
                queue.built(task, self.build(task, part));
                Done::Built
            }
            Job::Case { task, case, ready } => {
                let attempt = self.attempt(ready, task, case);
                queue.done(task);
                Done::Case((task, case), attempt)
            }
        }
    }

    /// Unless the judge was asked to stop; whether it ran.
    fn build(&self, task: usize, part: Part) -> bool {
        let ran = self.judge.interrupted().is_none();
        if ran {
            self.judge.build(task, part);
        }
        ran
    }

    fn attempt(&self, ready: &J::Ready<'j>, task: usize, case: usize) -> Attempt {
        if self.fail_fast && case > self.first_failure[task].load(Ordering::Relaxed) {
            return Attempt::Skipped;
        }
        let failed = |earlier: usize| self.failed[task][earlier].load(Ordering::Relaxed);
        if blocked(self.judge.blockers(task), case, failed) {
            return Attempt::Skipped;
        }
        match self.judge_now(ready, task, case) {
            Some(result) => Attempt::Judged(Box::new(result)),
            None => Attempt::Unfinished,
        }
    }

    /// Unless the judge was asked to stop. A case ending after the request is not kept
    /// either: the sandbox may have stopped it, so its verdict is not the program's.
    fn judge_now(&self, ready: &J::Ready<'j>, task: usize, case: usize) -> Option<CaseResult> {
        if self.judge.interrupted().is_some() {
            return None;
        }
        let result = self.judge.judge(ready, case);
        if self.judge.interrupted().is_some() {
            return None;
        }
        if !result.verdict.is_accepted() {
            self.first_failure[task].fetch_min(case, Ordering::Relaxed);
            self.failed[task][case].store(true, Ordering::Relaxed);
        }
        Some(result)
    }
}

fn blocked(blockers: &[Vec<Range<usize>>], case: usize, failed: impl Fn(usize) -> bool) -> bool {
    blockers
        .get(case)
        .is_some_and(|ranges| ranges.iter().cloned().flatten().any(failed))
}

/// Builds every task and judges its `cases[task]` cases (`None`: nothing to judge or build,
/// its readiness says why), on `pool` if any, telling `progress` in input order. The calling
/// thread is a worker too: it works while the result it waits for has not arrived (a result
/// from another thread costs a wake-up per case).
pub fn run_cases<'j, J: CaseJudge>(
    judge: &'j J,
    cases: &[Option<usize>],
    settings: &Settings,
    pool: Option<&rayon::ThreadPool>,
    progress: &mut dyn FnMut(Event<'_, 'j, J>),
) -> CaseTotals {
    let attempts = Attempts {
        judge,
        fail_fast: settings.fail_fast,
        first_failure: cases.iter().map(|_| AtomicUsize::new(usize::MAX)).collect(),
        failed: (cases.iter())
            .map(|count| {
                (0..count.unwrap_or(0))
                    .map(|_| AtomicBool::new(false))
                    .collect()
            })
            .collect(),
    };
    let queue = Queue::new(judge, cases);
    let mut totals = CaseTotals::default();
    // The calling thread is pinned while it judges, not after.
    let _unpin = crate::sandbox::Unpin::on_drop();
    let (sender, receiver) = mpsc::channel::<Done>();
    std::thread::scope(|scope| {
        let attempts = &attempts;
        let queue = &queue;
        let workers = pool.map(|pool| {
            scope.spawn(move || {
                pool.scope(|workers| {
                    // The calling thread is one too (see `InOrder::next`).
                    for _ in 1..pool.current_num_threads() {
                        let sender = sender.clone();
                        workers.spawn(move |_| {
                            while let Some(job) = queue.next() {
                                let _ = sender.send(attempts.work(queue, job));
                            }
                        });
                    }
                });
            })
        });
        let mut in_order = InOrder {
            attempts,
            queue,
            pooled: pool.is_some(),
            workers,
            arrived: HashMap::new(),
            receiver,
        };
        // Past a task the stop cut short too: a later one may have cases finished.
        let mut cut_short = false;
        for (task, count) in cases.iter().enumerate() {
            let settings = (settings, cut_short);
            cut_short |= !in_order.task(task, *count, settings, &mut totals, progress);
        }
    });
    totals.interrupted = judge.interrupted();
    totals
}

/// Takes results in input order while the workers judge ahead.
struct InOrder<'q, 'j, 'scope, J: CaseJudge> {
    attempts: &'q Attempts<'j, J>,
    queue: &'q Queue<'j, J>,
    pooled: bool,
    /// Until a confirmation needs them finished.
    workers: Option<ScopedJoinHandle<'scope, ()>>,
    /// Results that came before their turn.
    arrived: HashMap<(usize, usize), Attempt>,
    receiver: mpsc::Receiver<Done>,
}

impl<'q, 'j, J: CaseJudge> InOrder<'q, 'j, '_, J> {
    /// Waits for a task's builds (`None`: one did not run); without workers, builds here.
    fn built(&mut self, task: usize) -> Option<&'q BuildOutcome<'j, J>> {
        if !self.pooled && self.queue.outcome(task).is_none() {
            // Every part, as the workers would: a checker's fault is told before a compile error.
            for &part in self.attempts.judge.builds(task) {
                self.queue.built(task, self.attempts.build(task, part));
            }
        }
        loop {
            if let Some(outcome) = self.queue.outcome(task) {
                return outcome;
            }
            self.work_or_wait();
        }
    }

    /// Waits for a case; without workers, judges it here.
    fn next(&mut self, ready: &J::Ready<'j>, task: usize, case: usize) -> Attempt {
        if !self.pooled {
            return self.attempts.attempt(ready, task, case);
        }
        loop {
            if let Some(attempt) = self.arrived.remove(&(task, case)) {
                return attempt;
            }
            self.work_or_wait();
        }
    }

    /// Does a job here if one is free (its result needs no wake-up), else waits for a worker.
    fn work_or_wait(&mut self) {
        let done = match self.queue.try_next() {
            Some(job) => self.attempts.work(self.queue, job),
            None => self.receiver.recv().expect("every job sends its result"),
        };
        if let Done::Case(key, attempt) = done {
            self.arrived.insert(key, attempt);
        }
    }

    /// Judges a case again alone, once the parallel pass is over.
    fn alone(&mut self, ready: &J::Ready<'j>, task: usize, case: usize) -> Option<CaseResult> {
        if let Some(workers) = self.workers.take() {
            workers.join().expect("worker threads do not panic");
        }
        self.attempts.judge_now(ready, task, case)
    }

    /// Takes a task's cases in order, telling `progress`; false when the run stopped before
    /// its end. After an earlier task was `cut_short`, only cases judged before are told.
    fn task(
        &mut self,
        task: usize,
        count: Option<usize>,
        (settings, cut_short): (&Settings, bool),
        totals: &mut CaseTotals,
        progress: &mut dyn FnMut(Event<'_, 'j, J>),
    ) -> bool {
        let outcome = self.built(task);
        // Once stopped, a failed build may be a stopped compiler: it does not count.
        let stopped = cut_short || count.is_some() && self.attempts.judge.interrupted().is_some();
        match outcome {
            None => {
                progress(Progress::Stopped(task, 0));
                false
            }
            Some(Err(_)) if stopped => {
                progress(Progress::Stopped(task, 0));
                false
            }
            Some(Err(unjudged)) => {
                progress(Progress::Unjudged(unjudged));
                true
            }
            Some(Ok(ready)) => {
                self.cases(ready, task, count.unwrap_or(0), settings, totals, progress)
            }
        }
    }

    /// As `task`, for a ready task.
    fn cases(
        &mut self,
        ready: &J::Ready<'j>,
        task: usize,
        count: usize,
        settings: &Settings,
        totals: &mut CaseTotals,
        progress: &mut dyn FnMut(Event<'_, 'j, J>),
    ) -> bool {
        // Told only once a case finished (or when it has none).
        let mut started = false;
        let mut stopped = false;
        // The first case the stop left unjudged.
        let mut unfinished = None;
        // Confirmed failures: what the blockers are held to here.
        let mut failed = vec![false; count];
        let blockers = self.attempts.judge.blockers(task);
        for case in 0..count {
            let attempt = self.next(ready, task, case);
            if stopped || blocked(blockers, case, |earlier| failed[earlier]) {
                totals.skipped += 1;
                continue;
            }
            let result = match attempt {
                Attempt::Judged(result) => Some(*result),
                // Skipped for a failure that its confirmation then overturned.
                Attempt::Skipped => self.attempts.judge_now(ready, task, case),
                Attempt::Unfinished => None,
            };
            let Some(mut result) = result else {
                unfinished = Some(case);
                break;
            };
            let limit = self.attempts.judge.cpu_time_limit(ready);
            if needs_confirmation(&result, limit) {
                let Some(again) = self.alone(ready, task, case) else {
                    unfinished = Some(case);
                    break;
                };
                result = confirmed(again);
            }
            if !started {
                progress(Progress::TaskStarted(ready));
                started = true;
            }
            progress(Progress::CaseFinished(ready, &result));
            failed[case] = !result.verdict.is_accepted();
            stopped = settings.fail_fast && failed[case];
        }
        if let Some(case) = unfinished {
            progress(Progress::Stopped(task, case));
            return false;
        }
        if !started {
            progress(Progress::TaskStarted(ready));
        }
        progress(Progress::TaskFinished(ready));
        true
    }
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum Job<'q, R> {
    Build {
        task: usize,
        part: Part,
    },
    /// With what the task's builds made.
    Case {
        task: usize,
        case: usize,
        ready: &'q R,
    },
}

/// What a task's builds came to: `Ok` to judge its cases with, or `Err`, why not.
pub(super) type BuildOutcome<'j, J> =
    Result<<J as CaseJudge>::Ready<'j>, <J as CaseJudge>::Unjudged<'j>>;

/// A task's cases wait for its builds; a task whose cases run one at a time
/// (`CaseJudge::one_at_a_time`) is passed over while one of them runs.
pub(super) struct Queue<'j, J: CaseJudge> {
    judge: &'j J,
    state: Mutex<QueueState>,
    changed: Condvar,
    /// Per task, once every build ran; never set if one did not (the judge was stopped).
    outcomes: Vec<OnceLock<BuildOutcome<'j, J>>>,
}

struct QueueState {
    /// Likely slowest first, so that the longest does not start last, alone on one core.
    builds: VecDeque<(usize, Part)>,
    tasks: Vec<TaskState>,
    /// Tasks before this one have no case left to hand out.
    first_open: usize,
}

struct TaskState {
    /// The next case to hand out.
    next: usize,
    count: usize,
    /// Builds not done yet; its cases wait for them.
    unbuilt: usize,
    /// Every build done so far ran.
    ran: bool,
    one_at_a_time: bool,
    /// One of its cases is running.
    running: bool,
}

impl QueueState {
    fn is_empty(&self) -> bool {
        let open = &self.tasks[self.first_open..];
        self.builds.is_empty() && open.iter().all(|task| task.next == task.count)
    }
}

impl<'j, J: CaseJudge> Queue<'j, J> {
    /// `cases[task]` is `None` for a task with no case and nothing to build; a task without
    /// builds is settled at once.
    pub(super) fn new(judge: &'j J, cases: &[Option<usize>]) -> Self {
        let tasks: Vec<TaskState> = (cases.iter().enumerate())
            .map(|(task, count)| TaskState {
                next: 0,
                count: count.unwrap_or(0),
                unbuilt: count.map_or(0, |_| judge.builds(task).len()),
                ran: true,
                one_at_a_time: judge.one_at_a_time(task),
                running: false,
            })
            .collect();
        let mut builds: Vec<(usize, Part)> = (tasks.iter().enumerate())
            .filter(|(_, state)| state.unbuilt > 0)
            .flat_map(|(task, _)| judge.builds(task).iter().map(move |&part| (task, part)))
            .collect();
        builds.sort_by_key(|&(task, part)| judge.build_rank(task, part));
        let queue = Queue {
            judge,
            state: Mutex::new(QueueState {
                builds: builds.into(),
                tasks,
                first_open: 0,
            }),
            changed: Condvar::new(),
            outcomes: cases.iter().map(|_| OnceLock::new()).collect(),
        };
        let mut state = queue.lock();
        for task in 0..cases.len() {
            if state.tasks[task].unbuilt == 0 {
                queue.settle(&mut state, task);
            }
        }
        drop(state);
        queue
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A build, else the first case that may start now, marked running.
    fn take(&self, state: &mut QueueState) -> Option<Job<'_, J::Ready<'j>>> {
        if let Some((task, part)) = state.builds.pop_front() {
            return Some(Job::Build { task, part });
        }
        while (state.tasks.get(state.first_open)).is_some_and(|task| task.next == task.count) {
            state.first_open += 1;
        }
        let (task, state, ready) = (state.tasks.iter_mut().enumerate())
            .skip(state.first_open)
            .filter(|(_, task)| task.next < task.count && !(task.one_at_a_time && task.running))
            .find_map(|(task, state)| match self.outcomes[task].get() {
                Some(Ok(ready)) => Some((task, state, ready)),
                Some(Err(_)) | None => None,
            })?;
        state.next += 1;
        state.running = true;
        Some(Job::Case {
            task,
            case: state.next - 1,
            ready,
        })
    }

    /// Waits while only cases held back or not yet built are left; `None` at the end.
    pub(super) fn next(&self) -> Option<Job<'_, J::Ready<'j>>> {
        let mut state = self.lock();
        loop {
            if state.is_empty() {
                return None;
            }
            if let Some(next) = self.take(&mut state) {
                return Some(next);
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    pub(super) fn try_next(&self) -> Option<Job<'_, J::Ready<'j>>> {
        self.take(&mut self.lock())
    }

    pub(super) fn done(&self, task: usize) {
        let mut state = self.lock();
        state.tasks[task].running = false;
        // Only a task held back makes a worker wait.
        if state.tasks[task].one_at_a_time {
            self.changed.notify_all();
        }
    }

    /// `ran` is false for a build not started (the judge was stopped). After a task's last
    /// build its cases may start, or are dropped.
    pub(super) fn built(&self, task: usize, ran: bool) {
        let mut state = self.lock();
        let entry = &mut state.tasks[task];
        entry.unbuilt -= 1;
        entry.ran &= ran;
        if entry.unbuilt == 0 {
            self.settle(&mut state, task);
            self.changed.notify_all();
        }
    }

    /// Once every build of `task` is done: its outcome, unless one did not run; its cases are
    /// dropped unless they can be judged.
    fn settle(&self, state: &mut QueueState, task: usize) {
        let entry = &mut state.tasks[task];
        let judgeable = entry.ran
            && self.outcomes[task]
                .get_or_init(|| self.judge.readiness(task))
                .is_ok();
        if !judgeable {
            entry.count = entry.next;
        }
    }

    /// `None` while builds are not all done, `Some(None)` when one did not run.
    pub(super) fn outcome(&self, task: usize) -> Option<Option<&BuildOutcome<'j, J>>> {
        let done = self.lock().tasks[task].unbuilt == 0;
        done.then(|| self.outcomes[task].get())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Mutex;

    use super::*;
    use crate::judging::verdict::Verdict;
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
            cached: false,
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
        /// Per task, whether its one build succeeds; empty: no task has a build.
        builds: Vec<bool>,
        built: Mutex<Vec<usize>>,
    }

    impl Scripted {
        fn new(script: Vec<Vec<Vec<(Verdict, u64)>>>) -> Self {
            Scripted {
                script,
                runs: Mutex::new(Vec::new()),
                interrupt_during_run: None,
                interrupted: AtomicBool::new(false),
                started_after_interrupt: AtomicBool::new(false),
                builds: Vec::new(),
                built: Mutex::new(Vec::new()),
            }
        }

        fn runs_of(&self, task: usize, case: usize) -> usize {
            let runs = self.runs.lock().unwrap();
            runs.iter().filter(|&&run| run == (task, case)).count()
        }
    }

    impl CaseJudge for Scripted {
        type Ready<'a> = usize;
        type Unjudged<'a> = usize;

        fn builds(&self, _task: usize) -> &[Part] {
            match self.builds.is_empty() {
                true => &[],
                false => &[Part::Solution],
            }
        }

        fn build(&self, task: usize, _part: Part) {
            self.built.lock().unwrap().push(task);
        }

        /// A task without a script has no cases to judge.
        fn readiness(&self, task: usize) -> Result<usize, usize> {
            let builds = self.builds.get(task).copied().unwrap_or(true);
            match builds && !self.script[task].is_empty() {
                true => Ok(task),
                false => Err(task),
            }
        }

        fn judge(&self, &task: &usize, case: usize) -> CaseResult {
            if self.interrupted.load(Ordering::SeqCst) {
                self.started_after_interrupt.store(true, Ordering::SeqCst);
            }
            assert!(
                self.builds.is_empty() || self.built.lock().unwrap().contains(&task),
                "case {task}/{case} judged before its task was built"
            );
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

        fn cpu_time_limit(&self, _task: &usize) -> Duration {
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
        let settings = Settings {
            jobs: 3,
            fail_fast,
            result_cache: false,
        };
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
                Progress::TaskFinished(task) => format!("finish {task}"),
                Progress::Stopped(task, case) => format!("stopped {task} at {case}"),
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
                "finish 0",
                "unjudged 1",
                "start 2",
                "case 2/0 WA",
                "case 2/1 WA",
                "case 2/2 WA",
                "finish 2",
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
                "finish 0",
                "start 1",
                "case 1/0 AC",
                "case 1/1 AC",
                "finish 1",
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
                "finish 0",
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
                "finish 0",
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
                "finish 0",
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
                "finish 0",
                "stopped 1 at 0",
                "stopped 2 at 0",
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
        // The task ends as stopped where its told cases end.
        let told_cases = told.iter().filter(|line| line.starts_with("case")).count();
        let stopped = &told[told.len() - 2];
        assert!(
            stopped.starts_with(&format!("stopped 0 at {told_cases}")),
            "{told:?}"
        );
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
    fn asked_to_stop_before_any_case_tells_each_task_unfinished() {
        let judge = Scripted::new(vec![all(AC, 2), Vec::new()]);
        judge.interrupted.store(true, Ordering::SeqCst);
        assert_eq!(
            run_on(&judge, &[Some(2), None], false, None),
            [
                "stopped 0 at 0",
                "stopped 1 at 0",
                "skipped 0, interrupted Some(2)"
            ]
        );
        assert!(judge.runs.lock().unwrap().is_empty());
    }

    #[test]
    fn asked_to_stop_before_the_builds_builds_nothing_and_tells_each_task_unfinished() {
        let judge = || Scripted {
            builds: vec![true, true],
            ..Scripted::new(vec![all(AC, 2), all(AC, 1)])
        };
        for threads in [None, Some(3)] {
            let judge = judge();
            judge.interrupted.store(true, Ordering::SeqCst);
            let pool = threads.map(|threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
            });
            assert_eq!(
                run_on(&judge, &[Some(2), Some(1)], false, pool.as_ref()),
                [
                    "stopped 0 at 0",
                    "stopped 1 at 0",
                    "skipped 0, interrupted Some(2)"
                ]
            );
            assert!(judge.built.lock().unwrap().is_empty());
        }
    }

    #[test]
    fn a_task_that_does_not_build_is_told_in_its_place_and_its_cases_never_run() {
        let judge = || Scripted {
            builds: vec![true, false, true],
            ..Scripted::new(vec![all(AC, 2), all(AC, 3), all(WA, 1)])
        };
        assert_eq!(
            run(judge, &[Some(2), Some(3), Some(1)], false),
            [
                "start 0",
                "case 0/0 AC",
                "case 0/1 AC",
                "finish 0",
                "unjudged 1",
                "start 2",
                "case 2/0 WA",
                "finish 2",
                "skipped 0, interrupted None",
            ]
        );
        let judge = judge();
        run_on(&judge, &[Some(2), Some(3), Some(1)], false, None);
        assert_eq!((0..3).map(|case| judge.runs_of(1, case)).sum::<usize>(), 0);
        assert_eq!(
            *judge.built.lock().unwrap(),
            [0, 1, 2],
            "each task built once"
        );
    }

    /// A judge whose second task's build is the slow one, and finishes only once a case of
    /// the first was judged (or after a long wait, noted).
    struct BuildsBeside {
        first_case_judged: Mutex<bool>,
        judged: std::sync::Condvar,
        waited_in_vain: AtomicBool,
        built: Mutex<Vec<usize>>,
    }

    impl CaseJudge for BuildsBeside {
        type Ready<'a> = usize;
        type Unjudged<'a> = usize;

        fn builds(&self, _task: usize) -> &[Part] {
            &[Part::Solution]
        }

        fn build_rank(&self, task: usize, _part: Part) -> u8 {
            u8::from(task == 0)
        }

        fn build(&self, task: usize, _part: Part) {
            self.built.lock().unwrap().push(task);
            if task == 1 {
                let judged = self.first_case_judged.lock().unwrap();
                let (judged, _) = (self.judged)
                    .wait_timeout_while(judged, Duration::from_secs(20), |judged| !*judged)
                    .unwrap();
                if !*judged {
                    self.waited_in_vain.store(true, Ordering::SeqCst);
                }
            }
        }

        fn readiness(&self, task: usize) -> Result<usize, usize> {
            Ok(task)
        }

        fn judge(&self, &task: &usize, case: usize) -> CaseResult {
            if task == 0 {
                *self.first_case_judged.lock().unwrap() = true;
                self.judged.notify_all();
            }
            case_result(task, case, AC, 0)
        }

        fn cpu_time_limit(&self, _task: &usize) -> Duration {
            LIMIT
        }
    }

    #[test]
    fn a_task_is_judged_while_another_still_builds() {
        let judge = BuildsBeside {
            first_case_judged: Mutex::new(false),
            judged: std::sync::Condvar::new(),
            waited_in_vain: AtomicBool::new(false),
            built: Mutex::new(Vec::new()),
        };
        let mut finished = 0;
        run_on_threads(2, &judge, &[Some(3), Some(2)], &mut |progress| {
            finished += usize::from(matches!(progress, Progress::CaseFinished(..)));
        });
        assert_eq!(finished, 5);
        assert!(
            !judge.waited_in_vain.load(Ordering::SeqCst),
            "no case of the built task ran while the other built"
        );
        assert_eq!(judge.built.lock().unwrap().len(), 2);
    }

    /// A judge that notes, per task, whether two of its cases ran at once, and the most cases
    /// that ran at once in all.
    struct Overlaps {
        one_at_a_time: Vec<bool>,
        /// Per task, then in all.
        running: Mutex<(Vec<usize>, usize)>,
        overlapped: Mutex<Vec<bool>>,
        peak: Mutex<usize>,
    }

    impl Overlaps {
        fn new(one_at_a_time: Vec<bool>) -> Overlaps {
            let tasks = one_at_a_time.len();
            Overlaps {
                one_at_a_time,
                running: Mutex::new((vec![0; tasks], 0)),
                overlapped: Mutex::new(vec![false; tasks]),
                peak: Mutex::new(0),
            }
        }
    }

    impl CaseJudge for Overlaps {
        type Ready<'a> = usize;
        type Unjudged<'a> = usize;

        fn readiness(&self, task: usize) -> Result<usize, usize> {
            Ok(task)
        }

        fn judge(&self, &task: &usize, case: usize) -> CaseResult {
            {
                let (per_task, all) = &mut *self.running.lock().unwrap();
                per_task[task] += 1;
                *all += 1;
                if per_task[task] > 1 {
                    self.overlapped.lock().unwrap()[task] = true;
                }
                let mut peak = self.peak.lock().unwrap();
                *peak = (*peak).max(*all);
            }
            std::thread::sleep(Duration::from_millis(5));
            let (per_task, all) = &mut *self.running.lock().unwrap();
            per_task[task] -= 1;
            *all -= 1;
            case_result(task, case, AC, 0)
        }

        fn cpu_time_limit(&self, _task: &usize) -> Duration {
            LIMIT
        }

        fn one_at_a_time(&self, task: usize) -> bool {
            self.one_at_a_time[task]
        }
    }

    #[test]
    fn a_task_judged_one_case_at_a_time_never_runs_two_and_all_are_judged() {
        let judge = Overlaps::new(vec![true, false, true]);
        let mut finished = Vec::new();
        let cases = [Some(6), Some(6), Some(6)];
        run_on_threads(3, &judge, &cases, &mut |progress| {
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

    #[test]
    fn a_pool_of_n_threads_runs_n_cases_at_once_the_calling_thread_among_them() {
        let judge = Overlaps::new(vec![false, false]);
        let mut finished = 0;
        run_on_threads(3, &judge, &[Some(20), Some(20)], &mut |progress| {
            finished += usize::from(matches!(progress, Progress::CaseFinished(..)));
        });
        assert_eq!(finished, 40);
        let peak = *judge.peak.lock().unwrap();
        assert!((2..=3).contains(&peak), "{peak} cases at once on 3 threads");
    }

    /// `run_cases` on a pool of `threads` threads, every case judged.
    fn run_on_threads<'j, J: CaseJudge>(
        threads: usize,
        judge: &'j J,
        cases: &[Option<usize>],
        progress: &mut dyn FnMut(Event<'_, 'j, J>),
    ) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let settings = Settings {
            jobs: threads,
            fail_fast: false,
            result_cache: false,
        };
        run_cases(judge, cases, &settings, Some(&pool), progress);
    }

    use crate::judging::CaseResult;

    /// Tasks with `builds[task]` builds each, ranked by `ranks[task]`; nothing is judged.
    struct Planned {
        builds: Vec<usize>,
        ranks: Vec<u8>,
    }

    impl CaseJudge for Planned {
        type Ready<'a> = ();
        type Unjudged<'a> = ();
        fn builds(&self, task: usize) -> &[Part] {
            &[Part::Solution, Part::Checker][..self.builds[task]]
        }
        fn build_rank(&self, task: usize, _part: Part) -> u8 {
            self.ranks[task]
        }
        fn readiness(&self, _task: usize) -> Result<(), ()> {
            Ok(())
        }
        fn judge(&self, _task: &(), _case: usize) -> CaseResult {
            unreachable!("the queue only hands out work")
        }
        fn cpu_time_limit(&self, _task: &()) -> std::time::Duration {
            std::time::Duration::ZERO
        }
    }

    #[test]
    fn builds_go_first_slowest_first_and_a_tasks_cases_wait_for_all_of_its_builds() {
        let judge = Planned {
            builds: vec![2, 1, 1],
            ranks: vec![1, 2, 0],
        };
        let queue = Queue::new(&judge, &[Some(2), Some(1), None]);
        let build = |task, part| Some(Job::Build { task, part });
        let case = |task, case| {
            Some(Job::Case {
                task,
                case,
                ready: &(),
            })
        };
        // What a task's builds came to, once done: judgeable or not.
        let readiness = |task| {
            queue
                .outcome(task)
                .map(|outcome| outcome.is_some_and(|o| o.is_ok()))
        };
        // The task without cases has nothing to build.
        assert_eq!(queue.try_next(), build(0, Part::Solution));
        assert_eq!(queue.try_next(), build(0, Part::Checker));
        assert_eq!(queue.try_next(), build(1, Part::Solution));
        assert_eq!(queue.try_next(), None, "no case before its task is built");
        queue.built(1, true);
        assert_eq!(readiness(1), Some(true));
        assert_eq!(queue.try_next(), case(1, 0));
        queue.built(0, true);
        assert_eq!(readiness(0), None, "one build of task 0 is not done");
        assert_eq!(queue.try_next(), None);
        queue.built(0, false);
        assert_eq!(readiness(0), Some(false));
        assert_eq!(
            queue.try_next(),
            None,
            "a task that failed to build has no cases"
        );
        assert_eq!(queue.next(), None, "and the queue is then empty");
    }
}
