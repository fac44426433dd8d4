//! `judge merge`: a run's shard reports put back together into the report (and exit code)
//! one run would have given, by feeding the shards' results to a run's reporters in the run's
//! order, each problem loaded from the repository as the run loaded it.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::cli::MergeArgs;
use crate::error::{Error, Outcome, Result};
use crate::problem::Problem;
use crate::report::json::{
    CacheRecord, CaseReport, Dealing, HostRecord, MergedRecord, PartitionRecord, ProblemReport,
    ProblemStatus, RunDocument, RunRecord, ShardRecord,
};
use crate::report::{
    agree, CaseOrder, JsonReporter, MergeNote, ProgramOrigin, Reporter, Reporters, RunBook,
    RunEvent, RunSummary,
};
use crate::sandbox::Containment;

use super::{Context, RunReporters};

/// Hosts slower than this many times the fastest judged at a different speed: their
/// verdicts near the time limit may depend on the host.
const SPEED_SPREAD: f64 = 1.25;

struct Shard {
    file: PathBuf,
    document: RunDocument,
    run: RunRecord,
}

pub fn merge(context: &Context, args: MergeArgs) -> Result<Outcome> {
    let mut shards = Vec::new();
    for file in &args.reports {
        let file = context.path(file);
        let mut document = RunDocument::read(&file)?;
        let Some(run) = document.run.take() else {
            return Err(Error::parse(
                &file,
                None,
                "not a shard's report: it has no `run` record (made by `judge run --json FILE`)",
            ));
        };
        shards.push(Shard {
            file,
            document,
            run,
        });
    }
    let missing = check_shards(context, &mut shards, args.allow_partial)?;
    let merged = Merged::of(&shards);
    let record = MergedRecord {
        shards: shards
            .iter()
            .map(|shard| ShardRecord {
                shard: shard.run.partition.as_ref().map_or(1, |p| p.shard),
                file: shard.shown(context),
                host: shard.run.host.clone(),
                wall_time_ms: shard.document.summary.wall_time_ms,
            })
            .collect(),
        missing,
        speed_ratio: speed_ratio(&shards),
    };
    let first = &shards[0].run;
    let run = RunRecord {
        judge_version: first.judge_version.clone(),
        partition: None,
        case_list: first.case_list.clone(),
        host: HostRecord::this_machine(),
        error_places: Vec::new(),
        merged: Some(record.clone()),
    };
    replay(context, &args, &shards, merged, run, record)
}

/// Refuses shards not of one run, doubled, or missing (unless `allow_partial`: then they are
/// returned); sorts them by number.
fn check_shards(
    context: &Context,
    shards: &mut [Shard],
    allow_partial: bool,
) -> Result<Vec<usize>> {
    for other in shards.iter().skip(1) {
        of_one_run(&shards[0], other).map_err(|why| {
            Error::usage(format!(
                "{} and {} are not shards of one run: {why}",
                shards[0].shown(context),
                other.shown(context)
            ))
        })?;
    }
    shards.sort_by_key(|shard| shard.partition().shard);
    for pair in shards.windows(2) {
        let number = pair[0].partition();
        if number.shard == pair[1].partition().shard {
            return Err(Error::usage(format!(
                "shard {}/{} given twice: {} and {}",
                number.shard,
                number.shards,
                pair[0].shown(context),
                pair[1].shown(context)
            )));
        }
    }
    let total = shards[0].partition().shards;
    let missing: Vec<usize> = (1..=total)
        .filter(|k| !shards.iter().any(|shard| shard.partition().shard == *k))
        .collect();
    if !missing.is_empty() && !allow_partial {
        let named: Vec<String> = missing.iter().map(|k| format!("{k}/{total}")).collect();
        return Err(Error::usage(format!(
            "{} {} missing (--allow-partial reports the others, marked partial)",
            agree(named.len(), "shard", "shards"),
            named.join(", ")
        )));
    }
    Ok(missing)
}

impl Shard {
    /// Its file, as messages name it.
    fn shown(&self, context: &Context) -> String {
        context
            .repository
            .relative(&self.file)
            .display()
            .to_string()
    }

    /// A whole run's report is the one shard of one.
    fn partition(&self) -> PartitionRecord {
        self.run.partition.clone().unwrap_or(PartitionRecord {
            dealing: Dealing::Count,
            shard: 1,
            shards: 1,
            balanced_by: None,
        })
    }
}

fn of_one_run(first: &Shard, other: &Shard) -> std::result::Result<(), String> {
    if other.run.judge_version != first.run.judge_version {
        return Err(format!(
            "judged by judge {} and {}",
            first.run.judge_version, other.run.judge_version
        ));
    }
    if other.run.case_list.fingerprint != first.run.case_list.fingerprint {
        return Err(format!(
            "cut from different case lists ({} and {}): run every shard on the same \
             commit with the same arguments",
            first.run.case_list.fingerprint, other.run.case_list.fingerprint
        ));
    }
    let (mine, theirs) = (first.partition(), other.partition());
    if (mine.dealing, mine.shards) != (theirs.dealing, theirs.shards) {
        return Err(format!(
            "cut as {}:K/{} and {}:K/{}",
            mine.dealing.name(),
            mine.shards,
            theirs.dealing.name(),
            theirs.shards
        ));
    }
    if mine.balanced_by != theirs.balanced_by {
        return Err(
            "balanced by different case times (--balance): give every shard the same report"
                .to_owned(),
        );
    }
    Ok(())
}

/// The slowest host's calibration time over the fastest's.
fn speed_ratio(shards: &[Shard]) -> Option<f64> {
    let times: Vec<f64> = shards
        .iter()
        .filter_map(|shard| shard.run.host.calibration_ms)
        .filter(|ms| *ms > 0.0)
        .collect();
    let fastest = times.iter().copied().reduce(f64::min)?;
    let slowest = times.iter().copied().reduce(f64::max)?;
    Some((slowest / fastest * 100.0).round() / 100.0)
}

/// Every shard's results, each solution once, in the run's order.
struct Merged<'a> {
    /// By solution (`task`).
    tasks: BTreeMap<usize, MergedTask<'a>>,
    /// Each as often as the shard that said it most often did, with the solution it follows
    /// (`None`: before every solution).
    errors: Vec<(Option<usize>, &'a str, bool)>,
}

struct MergedTask<'a> {
    report: &'a ProblemReport,
    built: ProgramOrigin,
    /// By place, with the shard that judged it.
    cases: BTreeMap<usize, (&'a CaseReport, &'a Shard)>,
    /// Left unjudged by a stop, in any shard.
    not_finished: Vec<&'a str>,
}

impl<'a> Merged<'a> {
    fn of(shards: &'a [Shard]) -> Self {
        let mut tasks: BTreeMap<usize, MergedTask> = BTreeMap::new();
        let mut errors: Vec<(Option<usize>, &str, bool)> = Vec::new();
        for shard in shards {
            for report in &shard.document.problems {
                let built = report.build.unwrap_or(ProgramOrigin::Cached);
                let task = tasks.entry(report.task).or_insert(MergedTask {
                    report,
                    built,
                    cases: BTreeMap::new(),
                    not_finished: Vec::new(),
                });
                task.not_finished
                    .extend(report.not_finished.iter().map(String::as_str));
                if built == ProgramOrigin::Compiled {
                    task.built = built;
                }
                for case in &report.cases {
                    task.cases.entry(case.index).or_insert((case, shard));
                }
            }
            // An error every shard says (a problem that failed to load) is said once; one a
            // shard alone says (an illegal input) is its own.
            let mut seen: HashMap<&str, usize> = HashMap::new();
            for (message, place) in shard.document.errors.iter().zip(&shard.run.error_places) {
                let nth = seen.entry(message).or_default();
                *nth += 1;
                let same = errors
                    .iter_mut()
                    .filter(|(_, said, _)| *said == message.as_str())
                    .nth(*nth - 1);
                match same {
                    // After the latest solution any shard saw before it.
                    Some(error) => error.0 = error.0.max(place.after_task),
                    None => errors.push((place.after_task, message, place.unloaded)),
                }
            }
        }
        Merged { tasks, errors }
    }
}

fn replay(
    context: &Context,
    args: &MergeArgs,
    shards: &[Shard],
    merged: Merged,
    run: RunRecord,
    record: MergedRecord,
) -> Result<Outcome> {
    let root = &context.repository.root;
    let (problems, order) = load_problems(context, &merged)?;
    let mut json = JsonReporter::new(root.clone()).in_order(Arc::new(order));
    json.run = Some(run);
    let mut outputs = RunReporters::new(context, json, args.junit.as_deref(), args.html.as_deref());
    let mut reporter = outputs.all();
    let mut book = RunBook::default();
    let mut near_limit = Vec::new();
    reporter.run_started(merged.tasks.values().map(|task| task.cases.len()).sum());
    let mut errors = merged.errors.iter().peekable();
    let mut say_errors_through = |through: Option<usize>,
                                  reporter: &mut Reporters,
                                  book: &mut RunBook| {
        while let Some((_, message, unloaded)) = errors.next_if(|(after, _, _)| *after <= through) {
            let error = Error::Reported {
                message: (*message).to_owned(),
                unloaded: *unloaded,
            };
            book.tell(RunEvent::Error(&error, None), reporter);
        }
    };
    say_errors_through(None, &mut reporter, &mut book);
    for (index, task) in &merged.tasks {
        let problem = &problems[task.report.dir.as_str()];
        let solution = root.join(&task.report.solution);
        let replayed = replay_task(problem, &solution, task, &mut reporter, &mut book)?;
        near_limit.extend(replayed.into_iter().map(|near| (*index, near)));
        say_errors_through(Some(*index), &mut reporter, &mut book);
    }
    say_errors_through(Some(usize::MAX), &mut reporter, &mut book);
    let mut summary = book.summary;
    add_shards_figures(shards, &mut summary);
    summary.merged = Some(MergeNote {
        near_limit: near_limit
            .iter()
            .map(|(_, near)| near.line.clone())
            .collect(),
        hosts_differ: record.speed_ratio.is_some_and(|ratio| ratio > SPEED_SPREAD),
        record,
    });
    reporter.run_finished(&summary);
    drop(reporter);
    let mut document = outputs.finish()?;
    mark_hosts(&mut document, near_limit);
    context.keep_report(&document, args.json.as_deref())?;
    Ok(summary.outcome())
}

/// Each problem the shards judged, and every solution's and case's place in the run.
fn load_problems<'a>(
    context: &Context,
    merged: &Merged<'a>,
) -> Result<(HashMap<&'a str, Problem>, CaseOrder)> {
    let root = &context.repository.root;
    let mut order = CaseOrder::default();
    let mut problems: HashMap<&str, Problem> = HashMap::new();
    for task in merged.tasks.values() {
        let dir = task.report.dir.as_str();
        if !problems.contains_key(dir) {
            let problem = context.problem(&root.join(dir)).map_err(|error| {
                Error::usage(format!(
                    "merge reads the problems the shards judged, in the checkout they \
                     judged: {error}"
                ))
            })?;
            problems.insert(dir, problem);
        }
        // The place its shard recorded: the run's, whatever the checkout holds now.
        let places = task
            .cases
            .iter()
            .map(|(&index, (case, _))| (case.name.clone(), index));
        order.add(
            &problems[dir].dir,
            &root.join(&task.report.solution),
            task.report.task,
            places,
        );
    }
    Ok((problems, order))
}

/// A case confirmed near the time limit, with the host that judged it.
struct NearLimit {
    /// Among its problem's cases.
    index: usize,
    host: String,
    /// As the human report says it.
    line: String,
}

/// Through the runner's bookkeeping (`RunBook`); returns the cases confirmed near the time
/// limit.
fn replay_task(
    problem: &Problem,
    solution: &Path,
    task: &MergedTask,
    reporter: &mut Reporters,
    book: &mut RunBook,
) -> Result<Vec<NearLimit>> {
    if task.report.status == ProblemStatus::CompileError {
        let message = task.report.compile_message.as_deref().unwrap_or_default();
        let event = RunEvent::CompileError(problem, solution, message, 0);
        book.tell(event, reporter);
        return Ok(Vec::new());
    }
    book.tell(RunEvent::Started(problem, solution, task.built), reporter);
    let mut near_limit = Vec::new();
    for (case, shard) in task.cases.values() {
        let result = case.result().ok_or_else(|| {
            Error::parse(
                &shard.file,
                None,
                format!(
                    "a shard's report holds a case it cannot have: {} {} got `{}`",
                    problem.id, case.name, case.verdict
                ),
            )
        })?;
        if result.confirmed {
            let host = &shard.run.host.name;
            near_limit.push(NearLimit {
                index: case.index,
                host: host.clone(),
                line: format!("{} {} {} on {host}", problem.id, case.name, result.verdict),
            });
        }
        book.tell(RunEvent::CaseFinished(problem, &result), reporter);
    }
    let event = match task.not_finished.is_empty() {
        true => RunEvent::Finished(problem, None),
        // In the problem's order, as a run tells them.
        false => RunEvent::Stopped(
            problem,
            solution,
            (problem.cases.iter())
                .map(|case| case.name.as_str())
                .filter(|name| task.not_finished.contains(name))
                .collect(),
        ),
    };
    book.tell(event, reporter);
    Ok(near_limit)
}

/// Cases skipped, the signal that stopped one, the longest wall time, the result cache's
/// figures, and the weakest containment.
fn add_shards_figures(shards: &[Shard], summary: &mut RunSummary) {
    summary.skipped = shards.iter().map(|s| s.document.summary.skipped).sum();
    summary.interrupted = shards.iter().find_map(|s| s.document.summary.interrupted);
    summary.wall_time = shards
        .iter()
        .map(|s| Duration::from_secs_f64(s.document.summary.wall_time_ms / 1e3))
        .max()
        .unwrap_or_default();
    for cache in shards
        .iter()
        .filter_map(|s| s.document.summary.result_cache.as_ref())
    {
        let merged = summary.result_cache.get_or_insert_with(|| CacheRecord {
            seed: cache.seed,
            ..CacheRecord::default()
        });
        merged.reused += cache.reused;
        merged.sampled += cache.sampled;
        merged.dropped.extend(cache.dropped.iter().cloned());
    }
    for held in shards
        .iter()
        .filter_map(|s| s.document.containment.as_ref())
    {
        let held_here = Containment {
            memory_cgroup: held.memory_cgroup,
            pids_cgroup: held.pids_cgroup,
            namespaces: held.namespaces,
            view: held.view,
        };
        summary.containment = Some(summary.containment.map_or(held_here, |c| c.meet(held_here)));
        summary.view_refused = summary.view_refused.take().or(held.view_refused.clone());
    }
}

/// Names the host of each case confirmed near the time limit (keyed by `task`).
fn mark_hosts(document: &mut RunDocument, near_limit: Vec<(usize, NearLimit)>) {
    for (task, near) in near_limit {
        let case = document
            .problems
            .iter_mut()
            .filter(|problem| problem.task == task)
            .flat_map(|problem| problem.cases.iter_mut())
            .find(|case| case.index == near.index);
        if let Some(case) = case {
            case.judged_on = Some(near.host);
        }
    }
}
