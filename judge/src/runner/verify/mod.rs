//! `judge verify`: every submission in a Kattis package's `submissions/<verdict>/` must get
//! the verdict its folder promises, and every solution a Polygon package lists the verdict
//! its tag promises.
//!
//! Each row comes from its own submission's result, so that one that cannot be judged stands
//! in its own row and never shifts another's expectation.

mod batch;
pub(crate) mod expectations;
mod plan;
pub mod polygon;
mod promise;
pub mod validation;

use std::path::PathBuf;
use std::time::Duration;

use crate::error::Result;
use crate::problem::kattis::{FormatVersion, Package};
use crate::problem::layout::{ProblemFormat, SUBMISSIONS_DIR};
use crate::problem::Problem;
use crate::runner::verify::expectations::SubmissionsYaml;
use crate::toolchain::compiler::Compiler;
use batch::{judge_batch, Order, SubmissionRun};
use plan::{plan, prebuild, PlannedSubmission};
use promise::Promise;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowOutcome {
    Kept,
    Mismatch,
    /// Not judged, for a reason of the machine or package, not the submission (`no
    /// kotlinc`): shown, not counted as a mismatch.
    Skipped(String),
    /// The harness or the package failed while judging it (exit 2).
    Error(String),
    /// The judge was stopped before its verdict was known: its cases so far are shown, and
    /// it counts as neither kept nor broken.
    Unfinished,
}

#[derive(Debug, Clone)]
pub struct Row {
    pub submission: PathBuf,
    /// Its folder: its promise.
    pub expected: String,
    pub got: String,
    pub outcome: RowOutcome,
    /// Shown beside the outcome (its verdicts depend on the time limit).
    pub warning: Option<String>,
    /// Each case with the verdict's short code, in case order.
    pub cases: Vec<(String, &'static str)>,
    /// Why it first failed: the compiler's message, or its first failed case's reason.
    pub failure: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct VerifyReport {
    pub rows: Vec<Row>,
    /// When the package gives none, derived from the accepted submissions, with how.
    pub derived_time_limit: Option<(Duration, String)>,
    /// A `limits.time_limit` the slowest accepted submission does not fit in, × its
    /// `ac_to_time_limit`: the package's fault, as the format and problemtools hold it.
    pub time_limit_too_tight: Option<String>,
    /// Things the rows do not show (a file that is not read).
    pub notes: Vec<String>,
    pub data: validation::DataReport,
}

/// The accepted submissions' limit while none is known: as generous as a person waits for.
const UNKNOWN_TIME_LIMIT: Duration = Duration::from_secs(30);

/// Judges every submission as one pool of cases, so that one waiting out its time limit
/// holds one worker, not the run.
///
/// Without a package time limit, the accepted submissions run first under a limit that does
/// not bind them, and the limit they imply decides the others. Beside them the others run
/// under the least limit the package can derive: a verdict reached within it stands under any
/// larger one, so only a submission that met it runs again under the derived limit. (The
/// limit of an earlier `verify` was tried instead: their load moved the new limit, and their
/// verdicts with it.)
pub fn verify(problem: &Problem, compiler: &Compiler, jobs: usize) -> Result<VerifyReport> {
    if ProblemFormat::of(&problem.dir) == ProblemFormat::Polygon {
        return verify_tagged(problem, compiler, jobs);
    }
    let root = problem.dir.join(SUBMISSIONS_DIR);
    let yaml = SubmissionsYaml::read(&root);
    let entries = match &yaml {
        Ok(yaml) => plan(&root, yaml, problem),
        Err(_) => Vec::new(),
    };
    let programs = validation::programs(problem);
    let entries = prebuild(&programs, entries, problem, compiler, jobs);
    let mut report = VerifyReport {
        data: validation::check_data(problem, compiler, jobs)?,
        ..VerifyReport::default()
    };
    yaml?;
    if report.data.judges_unbuilt {
        let why = RowOutcome::Skipped("the package's judging programs do not build".into());
        report.rows = entries.into_iter().map(|e| e.unjudged(&why)).collect();
        return Ok(report);
    }
    let all: Vec<&PlannedSubmission> = entries.iter().collect();
    let Some(package) = problem.package.as_ref().filter(|p| !p.time_limit_given) else {
        let judged = judge_batch(&all, &|_| problem.clone(), compiler, jobs, Order::SlowFirst);
        report.rows = judged.iter().map(SubmissionRun::row).collect();
        report.time_limit_too_tight = (problem.package.as_ref())
            .filter(|package| package.time_limit_fixed)
            .and_then(|package| {
                let slowest = slowest_accepted(&judged, &report.rows)?;
                too_tight(package, slowest, problem.limits.cpu_time)
            });
        return Ok(report);
    };
    let under = |limit: Duration| {
        let mut problem = problem.clone();
        problem.limits.cpu_time = limit;
        problem
    };
    let least_limit = package.timing.limit_from(Duration::ZERO);
    let (accepted, others): (Vec<&PlannedSubmission>, Vec<&PlannedSubmission>) = all
        .into_iter()
        .partition(|entry| entry.folder() == "accepted");
    let first: Vec<&PlannedSubmission> = accepted.iter().chain(&others).copied().collect();
    let (unbound, least) = (under(UNKNOWN_TIME_LIMIT), under(least_limit));
    let problem_for = |entry: &PlannedSubmission| match entry.folder() {
        "accepted" => unbound.clone(),
        _ => least.clone(),
    };
    let mut judged = judge_batch(&first, &problem_for, compiler, jobs, Order::AsGiven);
    let judged_others = judged.split_off(accepted.len());
    report.rows = judged.iter().map(SubmissionRun::row).collect();
    report.derived_time_limit = derived_limit(package, slowest_accepted(&judged, &report.rows));
    let limit = match &report.derived_time_limit {
        Some((limit, _)) => *limit,
        None => {
            let note = match accepted.len() {
                0 => "no accepted submission to derive one from".to_owned(),
                n => format!("none of its {n} accepted submissions kept its promise"),
            };
            // A stop is told by the rows; what it cut short proves nothing here.
            if crate::runner::interrupt::requested().is_none() {
                report
                    .notes
                    .push(format!("no time limit in the package, and {note}"));
            }
            UNKNOWN_TIME_LIMIT
        }
    };
    let limits = (limit, least_limit);
    let others = rejudge_others(&others, judged_others, limits, &under, (compiler, jobs));
    report.rows.extend(others);
    Ok(report)
}

/// Every solution a Polygon package lists against its tag, under its own limits. A tag is
/// read at the first failed test, so a solution promised to fail stops there even where the
/// package scores tests (one with extra tags runs every test, for its groups); a `rejected`
/// one is scored up to there, as a checker's partial points fail it too.
fn verify_tagged(problem: &Problem, compiler: &Compiler, jobs: usize) -> Result<VerifyReport> {
    let entries = prebuild(&[], plan::polygon_plan(problem)?, problem, compiler, jobs);
    // Polygon's verify has no data section: each row says why, in a line.
    if let Some(fault) = validation::unbuilt_judges(problem, compiler).first() {
        let why = RowOutcome::Error(fault.clone());
        let rows = entries.into_iter().map(|e| e.unjudged(&why)).collect();
        return Ok(VerifyReport {
            rows,
            ..VerifyReport::default()
        });
    }
    let all: Vec<&PlannedSubmission> = entries.iter().collect();
    let unscored = Problem {
        scoring: None,
        ..problem.clone()
    };
    let problem_for = |entry: &PlannedSubmission| match entry {
        PlannedSubmission::Judge {
            promise: Promise::Accepted | Promise::Grouped { .. } | Promise::Rejected,
            ..
        } => problem.clone(),
        _ => unscored.clone(),
    };
    let judged = judge_batch(&all, &problem_for, compiler, jobs, Order::SlowFirst);
    Ok(VerifyReport {
        rows: judged.iter().map(SubmissionRun::row).collect(),
        ..VerifyReport::default()
    })
}

/// The others, first judged under `least_limit`: decided at `limit` if that run stands, else
/// judged again under it.
fn rejudge_others(
    others: &[&PlannedSubmission],
    judged_others: Vec<SubmissionRun>,
    (limit, least_limit): (Duration, Duration),
    under: &dyn Fn(Duration) -> Problem,
    (compiler, jobs): (&Compiler, usize),
) -> Vec<Row> {
    let mut rows: Vec<Option<Row>> = vec![None; others.len()];
    let mut again: Vec<(usize, &PlannedSubmission)> = Vec::new();
    for (index, (&entry, judgement)) in others.iter().zip(judged_others).enumerate() {
        if limit > least_limit && judgement.met_the_limit() {
            again.push((index, entry));
        } else {
            rows[index] = Some(judgement.decided_at(limit).row());
        }
    }
    let entries: Vec<&PlannedSubmission> = again.iter().map(|(_, entry)| *entry).collect();
    let judged = judge_batch(
        &entries,
        &|_| under(limit),
        compiler,
        jobs,
        Order::SlowFirst,
    );
    for ((index, _), judgement) in again.into_iter().zip(judged) {
        rows[index] = Some(judgement.row());
    }
    rows.into_iter().flatten().collect()
}

/// The slowest case of the `accepted/` submissions that kept their promise.
fn slowest_accepted(judged: &[SubmissionRun], rows: &[Row]) -> Option<Duration> {
    (judged.iter().zip(rows))
        .filter(|(_, row)| row.expected == "accepted" && row.outcome == RowOutcome::Kept)
        .filter_map(|(judgement, _)| judgement.run())
        .map(|run| run.tally.max_cpu_time)
        .max()
}

/// Why `limit` is too tight for `slowest`, if it is.
fn too_tight(package: &Package, slowest: Duration, limit: Duration) -> Option<String> {
    let multiplier = package.timing.ac_to_time_limit;
    (slowest.mul_f64(multiplier) > limit).then(|| {
        format!(
            "limits.time_limit ({} s) is tighter than the slowest accepted submission allows: \
             {} ms × {multiplier} (ac_to_time_limit)",
            limit.as_secs_f64(),
            slowest.as_millis()
        )
    })
}

/// With how it was found.
fn derived_limit(package: &Package, slowest: Option<Duration>) -> Option<(Duration, String)> {
    let slowest = slowest?;
    let timing = package.timing;
    let legacy = package.version == FormatVersion::Legacy;
    let how = format!(
        "the slowest accepted submission took {} ms; × {} (ac_to_time_limit{}), rounded up to a multiple of {} s",
        slowest.as_millis(),
        timing.ac_to_time_limit,
        if legacy { ", legacy time_multiplier" } else { "" },
        timing.time_resolution,
    );
    Some((timing.limit_from(slowest), how))
}
