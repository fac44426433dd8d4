//! `judge verify`: every submission in a Kattis package's `submissions/<verdict>/` folders
//! must get the verdict its folder promises.
//!
//! Each row is made from its own submission's result, so that a submission that cannot be
//! judged (no toolchain, unknown language, a build fault) stands in its own row and can never
//! shift another's expectation.

pub mod expectations;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::judging::scorecard::format_score;
use crate::judging::verdict::VerdictKind;
use crate::judging::SolutionVerdicts;
use crate::problem::kattis::{submissions_in, FormatVersion, Package};
use crate::problem::layout::SUBMISSIONS_DIR;
use crate::problem::scoring::Scoring;
use crate::problem::Problem;
use crate::report::Collector;
use crate::runner::verify::expectations::{default_for, Requirement, SubmissionsYaml};
use crate::runner::{judge_all, Settings, Task};
use crate::toolchain::compiler::Compiler;
use crate::toolchain::language::{Language, LanguageId};
use crate::toolchain::sources::{Choice, Sources};

/// The verdict folders of the package format, and the verdict each promises.
const FOLDERS: &[(&str, Promise)] = &[
    ("accepted", Promise::Accepted),
    ("wrong_answer", Promise::Some(VerdictKind::WrongAnswer)),
    (
        "time_limit_exceeded",
        Promise::Some(VerdictKind::TimeLimitExceeded),
    ),
    ("run_time_error", Promise::Some(VerdictKind::RuntimeError)),
    // The package format has no memory verdict: exceeding memory is a run-time error there
    // (the case's detail says "memory"); the folder is kept for packages that have it.
    (
        "memory_limit_exceeded",
        Promise::Some(VerdictKind::RuntimeError),
    ),
    (
        "output_limit_exceeded",
        Promise::Some(VerdictKind::OutputLimitExceeded),
    ),
    ("compile_error", Promise::CompileError),
    ("rejected", Promise::Rejected),
    // Legacy, scoring problems only.
    ("partially_accepted", Promise::PartiallyAccepted),
];

#[derive(Debug, Clone, PartialEq)]
enum Promise {
    /// Every case AC (in a legacy scoring package: the grader's verdict AC, as problemtools
    /// checks it).
    Accepted,
    /// A scoring problem's submission that is accepted without the best score: the legacy
    /// grader's verdict AC and a score other than the range's best; in the 2025-09 model
    /// (which has no such folder), a score above 0 and below `secret`'s maximum.
    PartiallyAccepted,
    /// At least one case gets this verdict, and every other case AC or this verdict: no worse
    /// surprise.
    Some(VerdictKind),
    CompileError,
    /// Anything but accepted.
    Rejected,
    /// What `submissions.yaml` asks (with the folder's default), every one of them.
    Requirements(Vec<Requirement>),
}

/// How a row came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowOutcome {
    /// JudgedSubmission, and the promise was kept.
    Kept,
    /// JudgedSubmission, and the promise was broken.
    Mismatch,
    /// Not judged, for a reason of the machine or the package that is not the submission's
    /// fault (`no kotlinc`): shown, not counted as a mismatch.
    Skipped(String),
    /// The harness or the package failed while judging it (exit 2).
    Error(String),
}

/// One row of the verify table.
#[derive(Debug, Clone)]
pub struct Row {
    pub submission: PathBuf,
    /// The folder the submission is in: its promise.
    pub expected: String,
    pub got: String,
    pub outcome: RowOutcome,
    /// What its run shows beside the outcome (its verdicts depend on the time limit).
    pub warning: Option<String>,
}

/// What `verify` found: a row per submission, and what a person should know besides.
#[derive(Debug, Clone, Default)]
pub struct VerifyReport {
    pub rows: Vec<Row>,
    /// The time limit, when the package gives none and it was derived from the accepted
    /// submissions, with how.
    pub derived_time_limit: Option<(Duration, String)>,
    /// Things the rows do not show (a file that is not read).
    pub notes: Vec<String>,
}

/// While the time limit is not known yet, the accepted submissions run under this one, as
/// generous as a person waits for.
const UNKNOWN_TIME_LIMIT: Duration = Duration::from_secs(30);

/// Judges every submission of the package and checks each against its folder, as one pool
/// of cases, so that a submission waiting out its time limit holds one worker, not the run.
///
/// When the package gives no time limit, the accepted submissions are judged first, under
/// a limit that does not bind them, and the limit they imply decides the others' verdicts.
/// Beside them (on the workers they leave idle: their cases are handed out first), the
/// others run under the least limit the package can derive, one resolution step: a verdict
/// reached within it stands under any larger limit, and only a submission that met that
/// limit runs again under the derived one (most packages derive that least limit, and their
/// too slow submissions then run once). (Judging the others
/// under the limit an earlier `verify` derived was tried: their load moved the new limit,
/// and their verdicts with it.)
pub fn verify(problem: &Problem, compiler: &Compiler, jobs: usize) -> Result<VerifyReport> {
    let root = problem.dir.join(SUBMISSIONS_DIR);
    let mut report = VerifyReport::default();
    let yaml = SubmissionsYaml::read(&root)?;
    let entries = plan(&root, &yaml, problem, compiler);
    prebuild(&entries, problem, compiler, jobs);
    let all: Vec<&PlannedSubmission> = entries.iter().collect();
    let rows_of = |judged: Vec<SubmissionRun>| judged.iter().map(SubmissionRun::row).collect();
    let Some(package) = problem.package.as_ref().filter(|p| !p.time_limit_given) else {
        report.rows = rows_of(judge_batch(&all, &|_| problem.clone(), compiler, jobs));
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
    let mut judged = judge_batch(&first, &problem_for, compiler, jobs);
    let judged_others = judged.split_off(accepted.len());
    report.rows = judged.iter().map(SubmissionRun::row).collect();
    let slowest_accepted = (judged.iter().zip(&report.rows))
        .filter(|(_, row)| row.outcome == RowOutcome::Kept)
        .filter_map(|(judgement, _)| judgement.run())
        .map(|run| run.tally.max_cpu_time)
        .max();
    report.derived_time_limit = derived_limit(package, slowest_accepted);
    let limit = match &report.derived_time_limit {
        Some((limit, _)) => *limit,
        None => {
            report.notes.push(
                "no time limit in the package, and no accepted submission to derive one from"
                    .into(),
            );
            UNKNOWN_TIME_LIMIT
        }
    };
    // Each of the others: its first run decided at the limit if that run stands, else
    // judged again.
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
    let judged = judge_batch(&entries, &|_| under(limit), compiler, jobs);
    for ((index, _), judgement) in again.into_iter().zip(judged) {
        rows[index] = Some(judgement.row());
    }
    report.rows.extend(rows.into_iter().flatten());
    Ok(report)
}

/// A submission as judged, or why not: its row is made from its run, with the verdicts
/// decided at the time limit.
enum SubmissionRun {
    Skipped(Row),
    JudgedSubmission(Box<JudgedSubmission>),
}

/// Its task's limits say what its run went to, and the limit its verdicts are decided at when
/// that is below it (`with_tle_margin`).
struct JudgedSubmission {
    task: Task,
    folder: String,
    promise: Promise,
    run: std::result::Result<SolutionVerdicts, String>,
}

impl SubmissionRun {
    fn run(&self) -> Option<&SolutionVerdicts> {
        match self {
            SubmissionRun::JudgedSubmission(judged) => judged.run.as_ref().ok(),
            SubmissionRun::Skipped(_) => None,
        }
    }

    /// Whether its run's verdicts depend on the limit it ran under: a case too slow (CPU
    /// time or the wall-clock backstop, both set by the limit), or a validator's failure (its
    /// own limits follow the problem's). A run that did not meet it stands under any larger
    /// limit.
    fn met_the_limit(&self) -> bool {
        self.run().is_some_and(|run| {
            run.verdicts.iter().any(|verdict| {
                matches!(
                    verdict.kind(),
                    VerdictKind::TimeLimitExceeded | VerdictKind::JudgeError
                )
            })
        })
    }

    /// The same run, its verdicts decided at `limit` where they were decided at a limit
    /// below the one it ran under.
    fn decided_at(mut self, limit: Duration) -> SubmissionRun {
        if let SubmissionRun::JudgedSubmission(judged) = &mut self {
            let decided_at = &mut judged.task.problem.limits.decided_at;
            if decided_at.is_some() {
                *decided_at = Some(limit);
            }
        }
        self
    }

    fn row(&self) -> Row {
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
        };
        let error = |error: String| Row {
            outcome: RowOutcome::Error(error),
            ..row("error".into(), false, None)
        };
        let run = match run {
            Err(message) => return error(message.clone()),
            Ok(SolutionVerdicts {
                score: Some(Err(message)),
                ..
            }) => return error(format!("judge error in scoring: {message}")),
            Ok(run) => run,
        };
        let problem = &task.problem;
        let keeps =
            |verdicts: &SolutionVerdicts| keeps(promise, verdicts, problem.scoring.as_ref());
        let (Some(limit), Some(package)) = (problem.limits.decided_at, &problem.package) else {
            return row(describe(run), keeps(run), None);
        };
        // It ran beyond the limit: its verdicts are those under it, and a warning says when
        // the longer run got something else.
        let under = run.under_time_limit(limit, task.one_at_a_time);
        let (got, got_beyond) = (describe(&under), describe(run));
        let kept = keeps(&under);
        if got == got_beyond {
            return row(got, kept, None);
        }
        let margin = limit.mul_f64(package.timing.time_limit_to_tle);
        let mut warning = format!(
            "sensitive to the time limit: {got} under {} s, {got_beyond} under {} s",
            limit.as_secs_f64(),
            margin.as_secs_f64()
        );
        // problemtools keeps a legacy package's promise kept only with the extra time ("OK
        // with extra time"); BAPCtools, the 2025-09 tool, decides at the limit alone.
        let with_extra_time = !kept && package.version == FormatVersion::Legacy && keeps(run);
        if with_extra_time {
            warning.push_str(" (kept with the extra time, as problemtools keeps it)");
        }
        row(got, kept || with_extra_time, Some(warning))
    }
}

/// The time limit the slowest accepted run implies, and how it was found.
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

/// A package's submission that must be too slow runs beyond its time limit, to the limit ×
/// `time_limit_to_tle` (legacy `time_safety_margin`), as problemtools and BAPCtools run it:
/// its verdicts are still those under the limit (`Limits::decided_at`, see `SubmissionRun::row`),
/// and the longer run tells whether they depend on the limit. In a legacy pass-fail package so
/// does every submission promised a rejection, since problemtools keeps a promise that holds
/// only with the extra time; in a later one that could only warn, so they run under the limit.
fn with_tle_margin(problem: &Problem, promise: &Promise) -> Problem {
    let must_time_out = match promise {
        Promise::Some(kind) => *kind == VerdictKind::TimeLimitExceeded,
        Promise::Requirements(requirements) => requirements.iter().any(|r| {
            r.required
                .as_ref()
                .is_some_and(|set| set.len() == 1 && set.contains(&VerdictKind::TimeLimitExceeded))
        }),
        _ => false,
    };
    let rejected = !matches!(
        promise,
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

/// A folder whose requirement the package format defines (and `submissions.yaml` may change).
fn is_format_folder(name: &str) -> bool {
    default_for(name).is_some()
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// Judges `entries` as one pool of cases (skipped ones pass through), in order.
fn judge_batch(
    entries: &[&PlannedSubmission],
    problem_for: &dyn Fn(&PlannedSubmission) -> Problem,
    compiler: &Compiler,
    jobs: usize,
) -> Vec<SubmissionRun> {
    let mut judged: Vec<Option<SubmissionRun>> = Vec::new();
    // A score needs every case, and so does a requirement on some cases only or on a
    // message; a verdict over all cases needs only the first failure. Each kind is a pool.
    let mut pools: [Vec<Pooled>; 2] = Default::default();
    for &entry in entries {
        match entry {
            PlannedSubmission::Skipped(row) => {
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
                let every_case = problem.scoring.is_some()
                    || matches!(&promise, Promise::Requirements(requirements)
                        if requirements.iter().any(|r| r.cases.is_some() || r.message.is_some()));
                // Expected to fail at some case, after which the rest is skipped.
                let fails = matches!(promise, Promise::Some(_) | Promise::Rejected);
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
    // The pool of the first entry first: the entries come in the order they are wanted.
    let mut pools: Vec<(bool, Vec<_>)> = (pools.into_iter().enumerate())
        .map(|(every_case, pool)| (every_case == 1, pool))
        .filter(|(_, pool)| !pool.is_empty())
        .collect();
    pools.sort_by_key(|(_, pool)| pool[0].0);
    for (every_case, pool) in pools {
        let tasks = pool.iter().map(|(_, task, ..)| Ok(task.clone())).collect();
        let mut collector = Collector::default();
        let settings = Settings {
            jobs,
            fail_fast: !every_case,
        };
        judge_all(tasks, compiler, &settings, &mut collector);
        let mut runs = collector.judged.into_iter();
        for (index, task, promise, folder) in pool {
            let run = (runs.next()).unwrap_or_else(|| Err("the submission was not judged".into()));
            judged[index] = Some(SubmissionRun::JudgedSubmission(Box::new(
                JudgedSubmission {
                    task,
                    folder,
                    promise,
                    run,
                },
            )));
        }
    }
    judged.into_iter().flatten().collect()
}

/// A submission in a pool: its place, its task, its promise and its folder.
type Pooled = (usize, Task, Promise, String);

/// A row of the report as decided before anything runs: skipped, or to be judged.
enum PlannedSubmission {
    Skipped(Row),
    Judge {
        submission: PathBuf,
        folder: String,
        promise: Promise,
        language: &'static Language,
        /// The language and entry point submissions.yaml names.
        choice: Choice,
    },
}

impl PlannedSubmission {
    fn skipped(submission: PathBuf, folder: &str, reason: String) -> PlannedSubmission {
        PlannedSubmission::Skipped(Row {
            submission,
            expected: folder.to_owned(),
            got: "not judged".into(),
            outcome: RowOutcome::Skipped(reason),
            warning: None,
        })
    }

    /// The verdict folder the submission is in.
    fn folder(&self) -> &str {
        match self {
            PlannedSubmission::Skipped(row) => &row.expected,
            PlannedSubmission::Judge { folder, .. } => folder,
        }
    }
}

/// Every submission, accepted ones first, with what it must get, or why it is not judged.
fn plan(
    root: &Path,
    yaml: &SubmissionsYaml,
    problem: &Problem,
    compiler: &Compiler,
) -> Vec<PlannedSubmission> {
    let mut folders: Vec<PathBuf> = submissions_in(root)
        .into_iter()
        .filter(|path| path.is_dir())
        .collect();
    // Accepted first (a stable sort keeps the others in order).
    folders.sort_by_key(|folder| file_name(folder) != "accepted");
    let mut entries = Vec::new();
    for folder in folders {
        let name = file_name(&folder);
        let folder_promise = FOLDERS
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, promise)| promise.clone());
        if folder_promise.is_none() && yaml.is_empty() {
            let reason = "no verdict is known for this folder".into();
            entries.push(PlannedSubmission::skipped(folder, &name, reason));
            continue;
        }
        for submission in submissions_in(&folder) {
            let relative = format!("{name}/{}", file_name(&submission));
            let (requirements, unchecked) = yaml.requirements(&relative);
            let choice = choice_of(yaml.program(&relative));
            let promise = match &folder_promise {
                // Ours, beyond the format's folders: submissions.yaml does not speak of them.
                Some(promise) if yaml.is_empty() || !is_format_folder(&name) => {
                    Some(promise.clone())
                }
                _ if requirements.is_empty() => None,
                _ => Some(Promise::Requirements(requirements)),
            };
            let judged = match (promise, unchecked.first()) {
                (None, _) => {
                    Err("neither its folder nor submissions.yaml says what it must get".into())
                }
                (Some(_), Some(key)) => Err(format!(
                    "submissions.yaml asks `{key}` of it, which is not checked"
                )),
                (Some(Promise::PartiallyAccepted), None) if problem.scoring.is_none() => Err(
                    "partially_accepted/ is for scoring problems, and this one is pass-fail".into(),
                ),
                (Some(promise), None) => choice.and_then(|choice| {
                    language_of(&submission, &choice).map(|language| (promise, language, choice))
                }),
            };
            entries.push(match judged {
                Ok((promise, language, choice)) => PlannedSubmission::Judge {
                    submission,
                    folder: name.clone(),
                    promise,
                    language,
                    choice,
                },
                Err(reason) => PlannedSubmission::skipped(submission, &name, reason),
            });
        }
    }
    skip_unavailable(entries, compiler)
}

/// Skips the submissions whose toolchain this machine lacks, asking every language at once:
/// a cold start (`javac -version` starts a JVM) waits for the slowest, not for their sum.
fn skip_unavailable(
    entries: Vec<PlannedSubmission>,
    compiler: &Compiler,
) -> Vec<PlannedSubmission> {
    let mut languages = HashMap::new();
    for entry in &entries {
        if let PlannedSubmission::Judge { language, .. } = entry {
            languages.insert(language.id, *language);
        }
    }
    let lacking: HashMap<LanguageId, Option<String>> = std::thread::scope(|scope| {
        let asked: Vec<_> = languages
            .into_iter()
            .map(|(id, language)| (id, scope.spawn(move || compiler.unavailable(language))))
            .collect();
        asked
            .into_iter()
            .map(|(id, asked)| (id, asked.join().unwrap_or(Some("the check failed".into()))))
            .collect()
    });
    entries
        .into_iter()
        .map(|entry| {
            let lacks = match &entry {
                PlannedSubmission::Judge { language, .. } => lacking[&language.id].clone(),
                PlannedSubmission::Skipped(_) => None,
            };
            match (entry, lacks) {
                (
                    PlannedSubmission::Judge {
                        submission, folder, ..
                    },
                    Some(reason),
                ) => PlannedSubmission::skipped(submission, &folder, reason),
                (entry, _) => entry,
            }
        })
        .collect()
}

/// Builds the submissions to judge, `jobs` at a time, before any is judged: the accepted ones
/// may be judged first (to decide a derived time limit), and the others then find their
/// builds in the cache. A failure is left for its row to report.
fn prebuild(entries: &[PlannedSubmission], problem: &Problem, compiler: &Compiler, jobs: usize) {
    use rayon::prelude::*;
    let sources: Vec<(&Path, Problem)> = entries
        .iter()
        .filter_map(|entry| match entry {
            PlannedSubmission::Judge {
                submission, choice, ..
            } => Some((submission.as_path(), with_choice(problem.clone(), choice))),
            PlannedSubmission::Skipped(_) => None,
        })
        .collect();
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(jobs).build() else {
        return;
    };
    pool.install(|| {
        sources.par_iter().for_each(|(source, problem)| {
            let _ = problem
                .solution_sources(source)
                .and_then(|sources| compiler.build_from(source, sources));
        })
    });
}

/// `problem` judging a submission in the language and from the entry point `choice` names.
fn with_choice(mut problem: Problem, choice: &Choice) -> Problem {
    if let Some(package) = problem.package.as_mut() {
        package.choice = choice.clone();
    }
    problem
}

/// `language` and `entrypoint` of submissions.yaml as the judge follows them, or why it
/// cannot.
fn choice_of(
    (language, entrypoint): (Option<String>, Option<String>),
) -> std::result::Result<Choice, String> {
    let language = match language {
        Some(code) => Some(Language::by_code(&code).ok_or_else(|| {
            format!("submissions.yaml names its language `{code}`, which this judge does not run")
        })?),
        None => None,
    };
    Ok(Choice {
        language,
        entrypoint,
    })
}

/// The language a submission is in, or why it has none that can be told.
fn language_of(
    submission: &Path,
    choice: &Choice,
) -> std::result::Result<&'static Language, String> {
    match Sources::read_as(submission, choice) {
        Ok(sources) => Ok(sources.language),
        // The reason without the path: the row already names the submission.
        Err(Error::Language { reason, .. }) => {
            Err(reason.split(':').next().unwrap_or_default().to_owned())
        }
        Err(error) => Err(error.to_string()),
    }
}

fn keeps(promise: &Promise, verdicts: &SolutionVerdicts, scoring: Option<&Scoring>) -> bool {
    let kinds: Vec<VerdictKind> = verdicts.verdicts.iter().map(|v| v.kind()).collect();
    let accepted = |kind: &VerdictKind| *kind == VerdictKind::Accepted;
    let card = match &verdicts.score {
        Some(Ok(card)) => Some(card),
        _ => None,
    };
    let plan = match scoring {
        Some(Scoring::Package(plan)) => Some(plan),
        _ => None,
    };
    match promise {
        Promise::CompileError => verdicts.compile_error,
        _ if verdicts.compile_error || kinds.is_empty() => false,
        Promise::Accepted => match card.and_then(|card| card.verdict) {
            Some(verdict) => accepted(&verdict),
            None => kinds.iter().all(accepted),
        },
        Promise::PartiallyAccepted => match (plan, card) {
            (Some(plan), Some(card)) => {
                let accepted_whole = card.verdict.is_none_or(|verdict| accepted(&verdict));
                let some_score = card.verdict.is_some() || card.score > 0.0;
                accepted_whole && some_score && !plan.is_best(card)
            }
            _ => false,
        },
        Promise::Rejected => !kinds.iter().all(accepted),
        Promise::Some(verdict) => {
            kinds.contains(verdict) && kinds.iter().all(|kind| accepted(kind) || kind == verdict)
        }
        Promise::Requirements(requirements) => requirements.iter().all(|r| {
            let cases = || {
                let messages = verdicts.messages.iter().map(Option::as_deref);
                (verdicts.verdicts.iter().zip(&verdicts.cases).zip(messages))
                    .filter(|((_, case), _)| r.applies_to_case(case))
            };
            let kinds: Vec<VerdictKind> = cases().map(|((v, _), _)| v.kind()).collect();
            let message_kept = r.message.as_deref().is_none_or(|wanted| {
                cases().any(|(_, message)| message.is_some_and(|m| m.contains(wanted)))
            });
            r.kept_by(&kinds) && message_kept && r.score_kept_by(card.map(|card| card.score))
        }),
    }
}

fn describe(verdicts: &SolutionVerdicts) -> String {
    if verdicts.compile_error {
        return "CE".into();
    }
    let counts = crate::report::counts(&verdicts.tally);
    match &verdicts.score {
        Some(Ok(card)) => {
            let max = card
                .max_score
                .map(|max| format!("/{}", format_score(max)))
                .unwrap_or_default();
            let verdict = card
                .verdict
                .map(|verdict| format!(" · grader {}", verdict.code()))
                .unwrap_or_default();
            format!(
                "{counts} · score {}{max}{verdict}",
                format_score(card.score)
            )
        }
        _ => counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::verdict::Verdict;
    use crate::sandbox::Termination;

    const AC: Verdict = Verdict::Accepted;
    const WA: Verdict = Verdict::WrongAnswer;
    const TLE: Verdict = Verdict::TimeLimitExceeded;
    const MLE: Verdict = Verdict::MemoryLimitExceeded;
    const RE: Verdict = Verdict::RuntimeError(Termination::Exited(1));
    const SOME_WA: Promise = Promise::Some(VerdictKind::WrongAnswer);

    /// A pass-fail problem's promise.
    fn keeps_(promise: &Promise, verdicts: &SolutionVerdicts) -> bool {
        keeps(promise, verdicts, None)
    }

    fn got(verdicts: &[Verdict]) -> SolutionVerdicts {
        SolutionVerdicts {
            verdicts: verdicts.to_vec(),
            cases: (1..=verdicts.len())
                .map(|i| format!("secret/{i}"))
                .collect(),
            messages: vec![None; verdicts.len()],
            ..SolutionVerdicts::default()
        }
    }

    #[test]
    fn promises_are_kept_only_without_surprises() {
        assert!(keeps_(&Promise::Accepted, &got(&[AC, AC])));
        assert!(!keeps_(&Promise::Accepted, &got(&[AC, WA])));
        assert!(keeps_(&SOME_WA, &got(&[AC, WA])));
        assert!(
            !keeps_(&SOME_WA, &got(&[AC, AC])),
            "a wrong answer must fail somewhere"
        );
        assert!(!keeps_(&SOME_WA, &got(&[WA, RE])), "no worse surprise");
        assert!(!keeps_(
            &Promise::Some(VerdictKind::TimeLimitExceeded),
            &got(&[WA, TLE])
        ));
        assert!(keeps_(
            &Promise::Some(VerdictKind::RuntimeError),
            &got(&[AC, RE])
        ));
        assert!(keeps_(&Promise::Rejected, &got(&[AC, MLE])));
        let compile_error = SolutionVerdicts {
            compile_error: true,
            ..SolutionVerdicts::default()
        };
        assert!(keeps_(&Promise::CompileError, &compile_error));
        assert!(!keeps_(&Promise::Accepted, &compile_error));
        assert!(
            !keeps_(&Promise::Accepted, &got(&[])),
            "judging nothing proves nothing"
        );
    }

    #[test]
    fn what_cannot_be_judged_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let unknown = dir.path().join("notes.txt");
        std::fs::write(&unknown, "").unwrap();
        assert_eq!(
            language_of(&unknown, &Choice::default()).err().as_deref(),
            Some("unknown language")
        );
        let folder = dir.path().join("mixed");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("a.py"), "").unwrap();
        std::fs::write(folder.join("b.c"), "").unwrap();
        assert_eq!(
            language_of(&folder, &Choice::default()).err().as_deref(),
            Some("cannot tell this folder's language")
        );
    }
}
