//! Judging a batch of submissions as one pool of cases, and each one's row.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use super::plan::{with_choice, PlannedSubmission};
use super::promise::{describe, keeps, outcome, Promise};
use super::{Row, RowOutcome};
use crate::judging::verdict::VerdictKind;
use crate::judging::SolutionVerdicts;
use crate::problem::kattis::FormatVersion;
use crate::problem::Problem;
use crate::problem::Scoring;
use crate::report::{Collector, ProblemFault};
use crate::runner::{judge_all, Settings, Task};
use crate::toolchain::compiler::Compiler;

/// Its row is made from its run, with the verdicts decided at the time limit.
pub(super) enum SubmissionRun {
    Skipped(Row),
    JudgedSubmission(Box<JudgedSubmission>),
}

/// Its task's limits say what its run went to, and the limit its verdicts are decided at if
/// below that (`with_tle_margin`).
pub(super) struct JudgedSubmission {
    task: Task,
    folder: String,
    promise: Promise,
    run: Result<SolutionVerdicts, ProblemFault>,
}

impl SubmissionRun {
    pub(super) fn run(&self) -> Option<&SolutionVerdicts> {
        match self {
            SubmissionRun::JudgedSubmission(judged) => judged.run.as_ref().ok(),
            SubmissionRun::Skipped(_) => None,
        }
    }

    /// Whether its verdicts depend on the limit it ran under: a case too slow (CPU time or
    /// the wall backstop), or a validator's failure (its limits follow the problem's); or its
    /// score on the limit it was graded at, a case being past it (graded again at a larger
    /// limit, it needs the grader again). A run that did none of these stands under any
    /// larger limit.
    pub(super) fn met_the_limit(&self) -> bool {
        let SubmissionRun::JudgedSubmission(judged) = self else {
            return false;
        };
        let Ok(run) = &judged.run else {
            return false;
        };
        let graded_at = judged.task.problem.limits.decided_at;
        let too_slow = |verdict: &crate::judging::verdict::Verdict| {
            matches!(
                verdict.kind(),
                VerdictKind::TimeLimitExceeded | VerdictKind::JudgeError
            )
        };
        let past_grading = |&(cpu_time, _): &(Duration, u64)| Some(cpu_time) > graded_at;
        run.verdicts.iter().any(too_slow)
            || (run.score_at_limit.is_some() && run.figures.iter().any(past_grading))
    }

    /// Decided at `limit` where they were decided below the limit it ran under.
    pub(super) fn decided_at(mut self, limit: Duration) -> SubmissionRun {
        if let SubmissionRun::JudgedSubmission(judged) = &mut self {
            let decided_at = &mut judged.task.problem.limits.decided_at;
            if decided_at.is_some() {
                *decided_at = Some(limit);
            }
        }
        self
    }

    pub(super) fn row(&self) -> Row {
        let JudgedSubmission {
            task,
            folder,
            promise,
            run,
        } = match self {
            SubmissionRun::Skipped(row) => return row.clone(),
            SubmissionRun::JudgedSubmission(judged) => judged.as_ref(),
        };
        let row = |got: String, kept: bool, warning| Row {
            submission: task.solution.clone(),
            expected: folder.clone(),
            got,
            outcome: if kept {
                RowOutcome::Kept
            } else {
                RowOutcome::Mismatch
            },
            warning,
            cases: Vec::new(),
            failure: None,
        };
        let error = |error: String| Row {
            outcome: RowOutcome::Error(error),
            ..row("error".into(), false, None)
        };
        let run = match run {
            Err(fault) => return error(fault.to_string()),
            Ok(SolutionVerdicts {
                score: Some(Err(message)),
                ..
            }) => return error(format!("judge error in scoring: {message}")),
            Ok(run) => run,
        };
        let problem = &task.problem;
        let cases: Vec<(String, &'static str)> = (run.cases.iter().cloned())
            .zip(run.verdicts.iter().map(|verdict| verdict.code()))
            .collect();
        if crate::runner::interrupt::requested().is_some() && !finished(run, task) {
            return Row {
                outcome: RowOutcome::Unfinished,
                cases,
                ..row(format!("{} so far", describe(run)), false, None)
            };
        }
        let row = |got, kept, warning| Row {
            cases: cases.clone(),
            failure: first_failure(run),
            ..row(got, kept, warning)
        };
        let keeps =
            |verdicts: &SolutionVerdicts| keeps(promise, verdicts, problem.scoring.as_ref());
        let (Some(limit), Some(package)) = (problem.limits.decided_at, &problem.package) else {
            let kept = keeps(run);
            let warning = short_of_best(kept, promise, run, problem);
            return row(describe(run), kept, warning);
        };
        // It ran beyond the limit: its verdicts are those under it, with a warning when the
        // longer run got something else.
        let under = run.under_time_limit(limit, task.one_at_a_time);
        let (got, got_beyond) = (describe(&under), describe(run));
        let kept = keeps(&under);
        // problemtools warns when the verdict or the score differs, not the cases judged.
        if got == got_beyond || (outcome(&under) == outcome(run) && kept == keeps(run)) {
            return row(got, kept, None);
        }
        let (kept, warning) = sensitive(limit, package, [&got, &got_beyond], [kept, keeps(run)]);
        row(got, kept, Some(warning))
    }
}

/// A submission whose verdict under the limit (`got[0]`, promise `kept[0]`) and beyond it
/// differ: whether its promise stands, and the warning.
fn sensitive(
    limit: Duration,
    package: &crate::problem::kattis::Package,
    got: [&str; 2],
    kept: [bool; 2],
) -> (bool, String) {
    let margin = limit.mul_f64(package.timing.time_limit_to_tle);
    let mut warning = format!(
        "sensitive to the time limit: {} under {} s, {} under {} s",
        got[0],
        limit.as_secs_f64(),
        got[1],
        margin.as_secs_f64()
    );
    // problemtools keeps a legacy package's promise kept only with the extra time ("OK with
    // extra time"); BAPCtools, the 2025-09 tool, decides at the limit alone.
    let with_extra_time = !kept[0] && package.version == FormatVersion::Legacy && kept[1];
    if with_extra_time {
        warning.push_str(" (kept with the extra time, as problemtools keeps it)");
    }
    (kept[0] || with_extra_time, warning)
}

/// A warning for a submission promised and given acceptance in a package whose score has a
/// finite best, below it, as problemtools warns.
fn short_of_best(
    kept: bool,
    promise: &Promise,
    run: &SolutionVerdicts,
    problem: &Problem,
) -> Option<String> {
    let (Some(Scoring::Package(plan)), Some(Ok(card))) = (&problem.scoring, &run.score) else {
        return None;
    };
    (kept && *promise == Promise::Accepted && plan.short_of_best(card)).then(|| {
        "did not attain the full score (partially_accepted/ is the folder for that), as \
         problemtools warns"
            .to_owned()
    })
}

/// Whether `run` is all that judging `task` would give: it did not compile, every case was
/// judged, or (one at a time, to its first failure) its cases are the first in order and the
/// last failed. A run the judge was stopped in may be none of these.
fn finished(run: &SolutionVerdicts, task: &Task) -> bool {
    let cases = &task.problem.cases;
    if run.compile_error || run.cases.len() == cases.len() {
        return true;
    }
    let in_order = (run.cases.iter())
        .zip(cases)
        .all(|(judged, case)| *judged == case.name);
    let ends_failed = run.verdicts.last().is_some_and(|last| !last.is_accepted());
    task.one_at_a_time && in_order && ends_failed
}

/// A submission that must be too slow runs to the limit × `time_limit_to_tle` (legacy
/// `time_safety_margin`), as problemtools and BAPCtools run it: its verdicts are still those
/// under the limit (`Limits::decided_at`, see `SubmissionRun::row`), and the longer run tells
/// whether they depend on it. In a legacy pass-fail package so does every submission promised
/// a rejection, as problemtools keeps a promise that holds only with the extra time; in a
/// later one that could only warn, so they run under the limit.
pub(super) fn with_tle_margin(problem: &Problem, promise: &Promise) -> Problem {
    let must_time_out = must_time_out(promise);
    let rejected = !matches!(
        promise.own(),
        Promise::Accepted | Promise::PartiallyAccepted | Promise::CompileError
    );
    let mut problem = problem.clone();
    let Some(package) = &problem.package else {
        return problem;
    };
    let legacy_pass_fail = package.version == FormatVersion::Legacy && problem.scoring.is_none();
    if must_time_out || (rejected && legacy_pass_fail) {
        let limit = problem.limits.cpu_time;
        problem.limits.cpu_time = limit.mul_f64(package.timing.time_limit_to_tle);
        problem.limits.decided_at = Some(limit);
    }
    problem
}

/// Whether `promise` is kept only by a run that is too slow.
fn must_time_out(promise: &Promise) -> bool {
    let required = promise.requirements().iter().any(|r| {
        r.required
            .as_ref()
            .is_some_and(|set| set.len() == 1 && set.contains(&VerdictKind::TimeLimitExceeded))
    });
    required || *promise.own() == Promise::Some(VerdictKind::TimeLimitExceeded)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// The accepted submissions first, when the time limit is derived from them: a too slow
    /// one beside them could move the derived limit up a step (it did for problemtools'
    /// `different` example).
    AsGiven,
    /// What must time out first, where no limit is derived: started last, it would run out
    /// its limit and margin alone while the other cores idle.
    SlowFirst,
}

/// Whether the submission runs every case, not stopping at its first failure: for its score,
/// its groups, or a requirement on some cases or on a message.
fn runs_every_case(problem: &Problem, promise: &Promise) -> bool {
    // A Polygon solution promised to fail stops at its first failed test, as Codeforces reads
    // its tag, and is scored all the same: points short of the full ones fail it too.
    let scored_whole = match (&problem.scoring, promise) {
        (Some(Scoring::Subtasks(_)), Promise::Rejected) => false,
        (scoring, _) => scoring.is_some(),
    };
    scored_whole
        || matches!(promise, Promise::Grouped { .. })
        || (promise.requirements().iter()).any(|r| r.cases.is_some() || r.message.is_some())
}

/// Judges `entries` as pools of cases (skipped ones pass through); results in `entries`' order.
pub(super) fn judge_batch(
    entries: &[&PlannedSubmission],
    problem_for: &dyn Fn(&PlannedSubmission) -> Problem,
    compiler: &Compiler,
    jobs: usize,
    order: Order,
) -> Vec<SubmissionRun> {
    let mut judged: Vec<Option<SubmissionRun>> = Vec::new();
    // A score, or a requirement on some cases or on a message, needs every case; a verdict
    // over all cases only the first failure. Each kind is a pool.
    let mut pools: [Vec<Pooled>; 2] = Default::default();
    for &entry in entries {
        match entry {
            PlannedSubmission::Settled(row) => {
                judged.push(Some(SubmissionRun::Skipped(row.clone())))
            }
            PlannedSubmission::Judge {
                submission,
                folder,
                promise,
                choice,
                ..
            } => {
                let problem = with_choice(problem_for(entry), choice);
                let every_case = runs_every_case(&problem, promise);
                let fails = matches!(
                    promise.own(),
                    Promise::Some(_) | Promise::Rejected | Promise::Tagged { .. }
                );
                let task = Task {
                    problem: with_tle_margin(&problem, promise),
                    solution: submission.clone(),
                    one_at_a_time: fails && !every_case,
                };
                let pooled = (judged.len(), task, promise.clone(), folder.clone());
                pools[usize::from(every_case)].push(pooled);
                judged.push(None);
            }
        }
    }
    // The first entry's pool first: entries come in the order wanted.
    let mut pools: Vec<(bool, Vec<_>)> = (pools.into_iter().enumerate())
        .map(|(every_case, pool)| (every_case == 1, pool))
        .filter(|(_, pool)| !pool.is_empty())
        .collect();
    pools.sort_by_key(|(_, pool)| pool[0].0);
    for (every_case, mut pool) in pools {
        if order == Order::SlowFirst {
            pool.sort_by_key(|(_, _, promise, _)| !must_time_out(promise));
        }
        let tasks = pool.iter().map(|(_, task, ..)| Ok(task.clone())).collect();
        let mut collector = Collector::default();
        let settings = Settings {
            jobs,
            fail_fast: !every_case,
            // A submission is judged against what its folder promises, every time.
            result_cache: false,
        };
        judge_all(tasks, compiler, &settings, &mut collector);
        let runs = runs_by_task(&pool, collector.judged);
        for ((index, task, promise, folder), run) in pool.into_iter().zip(runs) {
            judged[index] = Some(match run {
                Some(run) => SubmissionRun::JudgedSubmission(Box::new(JudgedSubmission {
                    task,
                    folder,
                    promise,
                    run,
                })),
                None => SubmissionRun::Skipped(untold(&task, folder)),
            });
        }
    }
    judged.into_iter().flatten().collect()
}

/// In order; or, when the judge was stopped (it may then leave a task out), by solution.
fn runs_by_task(
    pool: &[Pooled],
    told: Vec<Result<SolutionVerdicts, ProblemFault>>,
) -> Vec<Option<Result<SolutionVerdicts, ProblemFault>>> {
    if crate::runner::interrupt::requested().is_none() {
        let mut told = told.into_iter();
        return pool.iter().map(|_| told.next()).collect();
    }
    let mut by_solution: HashMap<PathBuf, SolutionVerdicts> = (told.into_iter().flatten())
        .map(|run| (run.solution.clone(), run))
        .collect();
    (pool.iter())
        .map(|(_, task, ..)| by_solution.remove(&task.solution).map(Ok))
        .collect()
}

/// The compiler's message, or the first failed case's name, verdict and reason.
fn first_failure(run: &SolutionVerdicts) -> Option<String> {
    if run.compile_error {
        return run.first_failure.clone();
    }
    let failed =
        (run.verdicts.iter()).position(|verdict| verdict.kind() != VerdictKind::Accepted)?;
    let reason =
        (run.messages.get(failed).cloned().flatten()).map(|message| format!(": {message}"));
    let case = run.cases.get(failed)?;
    Some(format!(
        "{case} {}{}",
        run.verdicts[failed],
        reason.unwrap_or_default()
    ))
}

/// For a submission the runner told nothing of: stopped before it started, else a fault of
/// the judge's.
fn untold(task: &Task, folder: String) -> Row {
    let stopped = crate::runner::interrupt::requested().is_some();
    Row {
        submission: task.solution.clone(),
        expected: folder,
        got: if stopped { "no verdict" } else { "error" }.into(),
        outcome: match stopped {
            true => RowOutcome::Unfinished,
            false => RowOutcome::Error("the submission was not judged".into()),
        },
        warning: None,
        cases: Vec::new(),
        failure: None,
    }
}

/// Its place, task, promise and folder.
pub(super) type Pooled = (usize, Task, Promise, String);
