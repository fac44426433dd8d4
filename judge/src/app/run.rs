//! `judge run` (and `judge` alone): judge problems' cases and report.

use std::sync::Arc;

use crate::cli::{PartitionArg, RunArgs};
use crate::corpus::{group_of, Validator};
use crate::error::{Error, Outcome, Result};
use crate::problem::CasePatterns;
use crate::problem::Problem;
use crate::report::json::{HostRecord, PartitionRecord, RunDocument, RunRecord, LAST_RUN};
use crate::report::print_note;
use crate::report::JsonReporter;
use crate::runner::plan::{self, Dealing, Partition, Plan};
use crate::runner::verify::validation::check_data;
use crate::runner::{self, Settings, Task};

use super::{Context, RunReporters};

pub fn run(context: &Context, args: RunArgs) -> Result<Outcome> {
    // Its supervisor starts while problems are found and builds looked up.
    context.sandbox.prepare();
    if args.solution.is_some() && args.problems.len() != 1 {
        return Err(Error::usage("--solution needs exactly one PROBLEM"));
    }
    let partition = partition_of(&args)?;
    // For the merged report to compare hosts.
    let calibration = partition.map(|_| plan::calibrate());
    let patterns = CasePatterns::new(&args.cases)?;
    let Some(mut tasks) = tasks_of(context, &args)? else {
        return Ok(Outcome::Accepted);
    };
    plan::keep_matching(&mut tasks, &patterns)?;
    let costs = match &args.balance {
        Some(file) => Some(RunDocument::read(&context.path(file))?),
        None => None,
    };
    let mut plan = plan::plan(&context.repository, tasks, partition, costs.as_ref());
    if args.validate {
        let illegal = illegal_inputs(context, &plan::problems_of(&plan.tasks))?;
        plan.tasks.extend(illegal.into_iter().map(Err));
    }
    // Every folder the view names now exists (the builds): the slots make the view while
    // the solutions build.
    let builds = crate::toolchain::builds_dir(&context.repository.cache_dir());
    if std::fs::create_dir_all(&builds).is_ok() {
        context.sandbox.offer_view();
    }
    let Plan {
        tasks,
        order,
        case_list,
        balanced_by,
    } = plan;
    let mut json = JsonReporter::new(context.repository.root.clone()).in_order(Arc::new(order));
    json.run = Some(RunRecord {
        judge_version: env!("CARGO_PKG_VERSION").to_owned(),
        partition: partition.map(|partition| PartitionRecord {
            dealing: partition.dealing,
            shard: partition.shard,
            shards: partition.shards,
            balanced_by,
        }),
        case_list,
        host: HostRecord::this_machine(),
        ..RunRecord::default()
    });
    let mut reporters =
        RunReporters::new(context, json, args.junit.as_deref(), args.html.as_deref());
    let summary = runner::judge_all(
        tasks,
        &context.compiler(),
        &Settings {
            jobs: context.jobs,
            fail_fast: args.fail_fast,
            result_cache: !args.no_cache,
        },
        &mut reporters.all(),
    );
    let mut document = reporters.finish()?;
    if let (Some(run), Some(thread)) = (document.run.as_mut(), calibration) {
        // Joined only now: the loop ran beside the judging.
        run.host.calibration_ms = thread.join().ok();
    }
    context.keep_report(&document, args.json.as_deref())?;
    Ok(summary.outcome())
}

/// `--balance` only cuts count shards.
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

/// An earlier run's failures (`--failed`), or every solution of the problems named; `None`
/// when `--failed` finds nothing to re-run (which is said).
fn tasks_of(context: &Context, args: &RunArgs) -> Result<Option<Vec<Result<Task>>>> {
    let Some(from) = &args.failed else {
        let solution = args.solution.as_ref().map(|file| context.path(file));
        let problems = context.problems(&args.problems)?;
        let tasks = plan::tasks_for(&context.repository, problems, solution.as_deref());
        return Ok(Some(tasks));
    };
    let from = match from {
        Some(file) => context.path(file),
        None => context.repository.cache_dir().join(LAST_RUN),
    };
    if !from.exists() && from.ends_with(LAST_RUN) {
        return Err(Error::usage(format!(
            "--failed: no earlier run to take the failures from ({} does not exist): run \
             `judge run` first, or give a report: --failed REPORT.json",
            context.repository.relative(&from).display()
        )));
    }
    if let Some(name) = (args.failed.as_ref().and_then(Option::as_ref))
        .filter(|name| !from.exists() && context.repository.problems_dir().join(name).is_dir())
    {
        let name = name.display();
        return Err(Error::usage(format!(
            "--failed reads a report, and `{name}` is a problem: `judge run {name} --failed` \
             judges again that problem's failures"
        )));
    }
    let document = RunDocument::read(&from)?;
    let mut tasks = plan::failed_tasks(&context.repository, &document, |dir| {
        context.repository.load_to_judge(&context.problem_dir(dir)?)
    });
    if !args.problems.is_empty() {
        let named: Vec<std::path::PathBuf> = (args.problems.iter())
            .map(|problem| context.problem_dir(problem))
            .collect::<Result<_>>()?;
        tasks.retain(|task| {
            task.as_ref()
                .map_or(true, |task| named.contains(&task.problem.dir))
        });
    }
    if tasks.is_empty() {
        let of = match args.problems.is_empty() {
            true => String::new(),
            false => " of the problems named".to_owned(),
        };
        print_note(&format_args!(
            "nothing to re-run: every case{of} that {} holds was accepted",
            context.repository.relative(&from).display()
        ));
        return Ok(None);
    }
    Ok(Some(tasks))
}

/// `--validate`: an error per input its validator rejects; for a package, every fault its
/// validators find in its data.
fn illegal_inputs(context: &Context, problems: &[Problem]) -> Result<Vec<Error>> {
    use rayon::prelude::*;
    let compiler = context.compiler();
    let mut illegal = Vec::new();
    for problem in problems {
        if problem.package.is_some() {
            // As `verify` runs them.
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
