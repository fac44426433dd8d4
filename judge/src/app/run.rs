//! `judge run` (and `judge` alone): judge problems' cases and report.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cli::{Format, PartitionArg, RunArgs};
use crate::corpus::{group_of, Validator};
use crate::error::{CorpusFault, Error, Outcome, Result};
use crate::judging::verdict::VerdictKind;
use crate::problem::kattis::time_limit::apply_time_limit;
use crate::problem::CasePatterns;
use crate::problem::Problem;
use crate::report::record::{
    CaseListRecord, PartitionRecord, ProblemReport, ProblemStatus, RunDocument, RunRecord, LAST_RUN,
};
use crate::report::{
    print_document, print_note, CaseOrder, HtmlReporter, HumanReporter, JsonReporter,
    JunitReporter, Reporter, Reporters,
};
use crate::runner::host::{calibrate, this_host};
use crate::runner::shard::{self, Dealing, Partition};
use crate::runner::verify::validation::check_data;
use crate::runner::{self, Settings, Task};

use super::Context;

pub fn run(context: &Context, args: RunArgs) -> Result<Outcome> {
    // The first run's supervisor starts while problems are found and builds looked up.
    context.sandbox.prepare();
    if args.solution.is_some() && args.problems.len() != 1 {
        return Err(Error::usage("--solution needs exactly one PROBLEM"));
    }
    let partition = partition_of(&args)?;
    // A shard's host runs the calibration loop, for the merged report to compare hosts.
    let calibration = partition.map(|_| calibrate());
    let Some(mut tasks) = tasks_to_judge(context, &args)? else {
        return Ok(Outcome::Accepted);
    };
    let (order, case_list, identities) = place_cases(context, &tasks);
    let costs = match &args.balance {
        Some(file) => Some(RunDocument::read(&context.path(file))?),
        None => None,
    };
    let mut balanced_by = None;
    if let Some(partition) = partition {
        let keep;
        (keep, balanced_by) = shard_units(partition, &identities, costs.as_ref());
        cut(&mut tasks, &keep);
    }
    if args.validate {
        let illegal = illegal_inputs(context, &problems_of(&tasks))?;
        tasks.extend(illegal.into_iter().map(Err));
    }
    // Every folder the programs' view hides or keeps is known and made now (the build cache
    // is kept in it): the slots make the view while the solutions are built.
    let cache = context.repository.cache_dir();
    if std::fs::create_dir_all(&cache).is_ok() {
        context.sandbox.offer_view();
    }
    let mut json = JsonReporter::new(context.repository.root.clone()).in_order(Arc::new(order));
    json.run = Some(run_record(partition, balanced_by, case_list));
    let mut outputs = RunReporters::new(context, json, args.junit.as_deref(), args.html.as_deref());
    let summary = runner::judge_all(
        tasks,
        &context.compiler(),
        &Settings {
            jobs: context.jobs,
            fail_fast: args.fail_fast,
        },
        &mut outputs.reporters(),
    );
    let mut document = outputs.finish()?;
    if let (Some(run), Some(thread)) = (document.run.as_mut(), calibration) {
        // Joined only now: the loop ran beside the judging, not before it.
        run.host.calibration_ms = thread.join().ok();
    }
    keep_report(context, &document, args.json.as_deref())?;
    Ok(summary.outcome())
}

/// The shard of the cases this run judges, from `--partition`; `--balance` only with one.
fn partition_of(args: &RunArgs) -> Result<Option<Partition>> {
    let partition = match args.partition {
        None => None,
        Some(PartitionArg::Slice(partition)) => Some(partition),
        Some(PartitionArg::Env) => {
            Some(Partition::from_env(|name| std::env::var(name).ok()).map_err(Error::usage)?)
        }
    };
    if args.balance.is_some() && partition.is_none_or(|p| p.dealing != Dealing::Count) {
        return Err(Error::usage(
            "--balance is for count: shards (--partition count:K/N): hash shards keep each \
             case where its identity puts it",
        ));
    }
    Ok(partition)
}

/// The tasks `args` name, with only the cases `--case` matches; `None` when `--failed`
/// finds nothing to re-run (it says so).
fn tasks_to_judge(context: &Context, args: &RunArgs) -> Result<Option<Vec<Result<Task>>>> {
    let patterns = CasePatterns::new(&args.cases)?;
    let mut tasks = match &args.failed {
        Some(from) => {
            let from = match from {
                Some(file) => context.path(file),
                None => context.repository.cache_dir().join(LAST_RUN),
            };
            match failed_tasks(context, &from)? {
                Some(tasks) => tasks,
                None => {
                    print_note(&format_args!(
                        "nothing to re-run: every case that {} holds was accepted",
                        context.repository.relative(&from).display()
                    ));
                    return Ok(None);
                }
            }
        }
        None => {
            let solution = args.solution.as_ref().map(|file| context.path(file));
            let mut problems = load_problems(context, &args.problems)?;
            for problem in problems.iter_mut().flatten() {
                apply_time_limit(problem, &context.repository.cache_dir());
            }
            tasks_for(context, problems, solution.as_deref())
        }
    };
    for task in tasks.iter_mut().flatten() {
        task.problem
            .cases
            .retain(|case| patterns.matches(&case.name));
    }
    if !patterns.is_empty() {
        if !tasks
            .iter()
            .flatten()
            .any(|task| !task.problem.cases.is_empty())
        {
            return Err(Error::usage(format!(
                "no case matches {}",
                patterns.describe()
            )));
        }
        tasks.retain(|task| {
            task.as_ref()
                .map_or(true, |task| !task.problem.cases.is_empty())
        });
    }
    Ok(Some(tasks))
}

/// What the kept report says of the run itself: the judge, the shard and the host.
fn run_record(
    partition: Option<Partition>,
    balanced_by: Option<String>,
    case_list: CaseListRecord,
) -> RunRecord {
    RunRecord {
        judge_version: env!("CARGO_PKG_VERSION").to_owned(),
        partition: partition.map(|partition| PartitionRecord {
            dealing: partition.dealing,
            shard: partition.shard,
            shards: partition.shards,
            balanced_by,
        }),
        case_list,
        host: this_host(None),
        ..RunRecord::default()
    }
}

/// The reporters of a run (or of a merge): the JSON document, always (it is kept), the
/// human report unless `--format json`, and the `--junit` and `--html` files.
pub(crate) struct RunReporters {
    json: JsonReporter,
    human: Option<HumanReporter>,
    junit: Option<JunitReporter>,
    html: Option<HtmlReporter>,
}

impl RunReporters {
    pub(crate) fn new(
        context: &Context,
        json: JsonReporter,
        junit: Option<&Path>,
        html: Option<&Path>,
    ) -> Self {
        let root = context.repository.root.clone();
        RunReporters {
            json,
            human: (context.format == Format::Human).then(|| {
                HumanReporter::new(context.color, context.repository.clone(), context.detail)
            }),
            junit: junit.map(|file| JunitReporter::new(context.path(file))),
            html: html.map(|file| HtmlReporter::new(context.path(file), root)),
        }
    }

    pub(crate) fn reporters(&mut self) -> Reporters<'_> {
        let mut all: Vec<&mut dyn Reporter> = vec![&mut self.json];
        if let Some(html) = self.html.as_mut() {
            all.push(html);
        }
        if let Some(human) = self.human.as_mut() {
            all.push(human);
        }
        if let Some(junit) = self.junit.as_mut() {
            all.push(junit);
        }
        Reporters(all)
    }

    /// After the run: the JSON document, or why a file could not be written.
    pub(crate) fn finish(self) -> Result<RunDocument> {
        let failed = [
            self.junit.and_then(|j| j.write_error),
            self.html.and_then(|h| h.write_error),
        ];
        if let Some(error) = failed.into_iter().flatten().next() {
            return Err(error);
        }
        Ok(self
            .json
            .document()
            .expect("a finished run has its document"))
    }
}

/// Writes a finished run's report where it goes: stdout for `--format json`, the `--json`
/// file, and the build cache, for `--failed` (a report that cannot be kept there is said).
pub(crate) fn keep_report(
    context: &Context,
    document: &RunDocument,
    file: Option<&Path>,
) -> Result<()> {
    if context.format == Format::Json {
        print_document(document);
    }
    // Compact: a file is for programs, and a large run's is written and read faster.
    let text = serde_json::to_vec(document).expect("a report is JSON");
    let last = context.repository.cache_dir().join(LAST_RUN);
    if let Err(error) = crate::atomic_write::write_cache_record(&last, &text) {
        print_note(&format_args!(
            "note: `judge run --failed` will not find this run: {error}"
        ));
    }
    match file {
        Some(file) => crate::atomic_write::write_record(&context.path(file), &text),
        None => Ok(()),
    }
}

/// Every solution's and case's place in the run, the run's case list, and the identity of
/// each of its units of work (a case of a solution; a solution with no case is one).
fn place_cases(
    context: &Context,
    tasks: &[Result<Task>],
) -> (CaseOrder, CaseListRecord, Vec<String>) {
    let mut order = CaseOrder::default();
    let mut identities = Vec::new();
    let mut solutions = 0;
    for (index, task) in tasks.iter().enumerate() {
        let Ok(task) = task else { continue };
        solutions += 1;
        let cases = &task.problem.cases;
        order.add(
            &task.problem.dir,
            &task.solution,
            index,
            cases
                .iter()
                .enumerate()
                .map(|(at, case)| (case.name.clone(), at)),
        );
        let (dir, solution) = shown_identity(context, task);
        if cases.is_empty() {
            identities.push(shard::identity(&dir, &solution, ""));
        }
        identities.extend(
            cases
                .iter()
                .map(|case| shard::identity(&dir, &solution, &case.name)),
        );
    }
    let list = CaseListRecord {
        fingerprint: shard::fingerprint(identities.iter().map(String::as_str)),
        solutions,
        cases: tasks
            .iter()
            .flatten()
            .map(|task| task.problem.cases.len())
            .sum(),
    };
    (order, list, identities)
}

/// A task's problem folder and solution file as the report writes them.
fn shown_identity(context: &Context, task: &Task) -> (String, String) {
    let shown = |path: &Path| context.repository.relative(path).display().to_string();
    (shown(&task.problem.dir), shown(&task.solution))
}

/// Which units of work (`identities`, in the run's order) `partition`'s shard judges: by hash
/// or dealt in order, or, with `costs` (an earlier report's times), balanced by them; and the
/// fingerprint of the costs used, which every shard of the run must share.
fn shard_units(
    partition: Partition,
    identities: &[String],
    costs: Option<&RunDocument>,
) -> (Vec<bool>, Option<String>) {
    let Some(report) = costs else {
        let keep = identities
            .iter()
            .enumerate()
            .map(|(ordinal, identity)| partition.keeps(ordinal, identity))
            .collect();
        return (keep, None);
    };
    let mut known = std::collections::HashMap::new();
    for problem in &report.problems {
        for case in &problem.cases {
            let identity = shard::identity(&problem.dir, &problem.solution, &case.name);
            known.insert(identity, case.wall_time_ms);
        }
    }
    // A case the report does not hold is expected to cost what its median case did.
    let mut times: Vec<f64> = identities
        .iter()
        .filter_map(|id| known.get(id).copied())
        .collect();
    times.sort_by(f64::total_cmp);
    let typical = times.get(times.len() / 2).copied().unwrap_or(1.0);
    let costs: Vec<f64> = identities
        .iter()
        .map(|id| known.get(id).copied().unwrap_or(typical))
        .collect();
    let shard_of = shard::balance(&costs, partition.shards);
    let keep = shard_of
        .iter()
        .map(|&shard| shard + 1 == partition.shard)
        .collect();
    let described: Vec<String> = costs.iter().map(|cost| format!("{cost:.3}")).collect();
    (
        keep,
        Some(shard::fingerprint(described.iter().map(String::as_str))),
    )
}

/// Keeps the units of work `keep` says (in the run's order, as `place_cases` numbers them).
/// Tasks left with nothing to judge are dropped; problems that failed to load stay in every
/// shard, to be said.
fn cut(tasks: &mut Vec<Result<Task>>, keep: &[bool]) {
    let mut ordinal = 0;
    let mut next = || {
        ordinal += 1;
        keep[ordinal - 1]
    };
    tasks.retain_mut(|task| {
        let Ok(task) = task else { return true };
        if task.problem.cases.is_empty() {
            return next();
        }
        task.problem.cases.retain(|_| next());
        !task.problem.cases.is_empty()
    });
}

/// Each problem the tasks judge, once, with every case some task of it judges.
fn problems_of(tasks: &[Result<Task>]) -> Vec<Problem> {
    // Each problem with the names of the cases it holds so far: a corpus of thousands of
    // cases is not searched once a case.
    let mut problems: Vec<(Problem, std::collections::HashSet<String>)> = Vec::new();
    for task in tasks.iter().flatten() {
        let at = match problems.iter().position(|(p, _)| p.dir == task.problem.dir) {
            Some(at) => at,
            None => {
                let mut problem = task.problem.clone();
                problem.cases.clear();
                problems.push((problem, Default::default()));
                problems.len() - 1
            }
        };
        let (problem, names) = &mut problems[at];
        for case in &task.problem.cases {
            if names.insert(case.name.clone()) {
                problem.cases.push(case.clone());
            }
        }
    }
    problems.into_iter().map(|(problem, _)| problem).collect()
}

/// The tasks that re-judge what the report `from` holds that was not accepted: each such
/// case with the same solution, a solution that did not compile with all its cases; `None`
/// when there is nothing to re-run.
fn failed_tasks(context: &Context, from: &Path) -> Result<Option<Vec<Result<Task>>>> {
    if !from.exists() && from.ends_with(LAST_RUN) {
        return Err(Error::usage(format!(
            "--failed: no earlier run to take the failures from ({} does not exist): run \
             `judge run` first, or give a report: --failed REPORT.json",
            context.repository.relative(from).display()
        )));
    }
    let document = RunDocument::read(from)?;
    let mut reports: Vec<&ProblemReport> = document.problems.iter().collect();
    reports.sort_by_key(|report| report.task);
    let mut tasks = Vec::new();
    for report in reports {
        let failed: Vec<&str> = report
            .cases
            .iter()
            .filter(|case| case.verdict != VerdictKind::Accepted)
            .map(|case| case.name.as_str())
            .collect();
        let compile_error = report.status == ProblemStatus::CompileError;
        if failed.is_empty() && !compile_error {
            continue;
        }
        let root = &context.repository.root;
        let task = context.problem(&root.join(&report.dir)).map(|mut problem| {
            apply_time_limit(&mut problem, &context.repository.cache_dir());
            if !compile_error {
                problem
                    .cases
                    .retain(|case| failed.contains(&case.name.as_str()));
            }
            Task {
                problem,
                solution: root.join(&report.solution),
                one_at_a_time: false,
            }
        });
        tasks.push(task);
    }
    Ok((!tasks.is_empty()).then_some(tasks))
}

/// The inputs of `problems` that their validators reject, one error each (`--validate`);
/// for a package, every fault its validators find in its data.
fn illegal_inputs(context: &Context, problems: &[Problem]) -> Result<Vec<Error>> {
    use rayon::prelude::*;
    let compiler = context.compiler();
    let mut illegal = Vec::new();
    for problem in problems {
        if problem.package.is_some() {
            // A package's own validators, as `verify` runs them.
            let data = check_data(problem, &compiler, context.jobs)?;
            let package = context.repository.relative(&problem.dir).to_path_buf();
            illegal.extend(data.errors.into_iter().map(|message| Error::PackageData {
                package: package.clone(),
                message,
            }));
            continue;
        }
        let Some(validator) = Validator::of(&compiler, problem)? else {
            continue;
        };
        let found: Vec<Error> = problem
            .cases
            .par_iter()
            .filter_map(|case| {
                let input = match std::fs::read(&case.input) {
                    Ok(input) => input,
                    Err(error) => return Some(Error::io(&case.input, error)),
                };
                let shown = context
                    .repository
                    .relative(&case.input)
                    .display()
                    .to_string();
                validator
                    .check(&input, problem, &shown, group_of(&case.name))
                    .err()
            })
            .collect();
        illegal.extend(found);
    }
    Ok(illegal)
}

/// Every named problem (all when none is named), each loaded or failed on its own.
pub(crate) fn load_problems(context: &Context, names: &[PathBuf]) -> Result<Vec<Result<Problem>>> {
    let repository = &context.repository;
    let dirs: Vec<Result<_>> = if names.is_empty() {
        repository.problem_dirs()?
    } else {
        names.iter().map(|name| context.problem_dir(name)).collect()
    };
    Ok(dirs
        .into_iter()
        .map(|dir| repository.load_problem(&dir?))
        .collect())
}

/// A task per solution file of each problem (`solution` instead, when given); a problem
/// that failed to load, or whose file is missing, is an error in its place.
pub(crate) fn tasks_for(
    context: &Context,
    problems: Vec<Result<Problem>>,
    solution: Option<&Path>,
) -> Vec<Result<Task>> {
    problems
        .into_iter()
        .flat_map(|problem| {
            let problem = match problem {
                Ok(problem) => problem,
                Err(error) => return vec![Err(error)],
            };
            let solutions = match solution {
                Some(file) => vec![file.to_path_buf()],
                None => solutions_of(context, &problem),
            };
            if let Some(missing) = solutions.iter().find(|solution| !solution.exists()) {
                return vec![Err(Error::corpus(
                    missing,
                    CorpusFault::NoSolution {
                        problem: problem.id.clone(),
                    },
                ))];
            }
            solutions
                .into_iter()
                .map(|solution| {
                    Ok(Task {
                        problem: problem.clone(),
                        solution,
                        one_at_a_time: false,
                    })
                })
                .collect()
        })
        .collect()
}

/// The files judged for a problem: the one its `problem.toml` names, else every
/// `solutions/<id>.<ext>` (one per language, for the judges that take no Rust).
fn solutions_of(context: &Context, problem: &Problem) -> Vec<PathBuf> {
    let found = context.repository.solution_files(&problem.id);
    if found.contains(&problem.solution) {
        found
    } else {
        vec![problem.solution.clone()]
    }
}
