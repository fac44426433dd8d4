//! `judge run` (and `judge` alone): judge problems' cases and report.

use std::path::{Path, PathBuf};

use crate::cli::{Format, RunArgs};
use crate::corpus::{group_of, Validator};
use crate::error::{CorpusFault, Error, Outcome, Result};
use crate::problem::CasePatterns;
use crate::problem::Problem;
use crate::report::{HumanReporter, JsonReporter, JunitReporter, Reporter, Reporters};
use crate::runner::verify::validation::check_data;
use crate::runner::{self, Settings, Task};

use super::Context;

pub fn run(context: &Context, args: RunArgs) -> Result<Outcome> {
    // The first run's supervisor starts while problems are found and builds looked up.
    context.sandbox.prepare();
    if args.solution.is_some() && args.problems.len() != 1 {
        return Err(Error::usage("--solution needs exactly one PROBLEM"));
    }
    let patterns = CasePatterns::new(&args.cases)?;
    let mut problems = load_problems(context, &args.problems)?;
    for problem in problems.iter_mut().flatten() {
        crate::problem::kattis::time_limit::apply_time_limit(
            problem,
            &context.repository.cache_dir(),
        );
    }
    for problem in problems.iter_mut().flatten() {
        problem.cases.retain(|case| patterns.matches(&case.name));
    }
    if !patterns.is_empty() {
        let any = problems
            .iter()
            .flatten()
            .any(|problem| !problem.cases.is_empty());
        if !any {
            return Err(Error::usage(format!(
                "no case matches {}",
                patterns.describe()
            )));
        }
        drop_empty(&mut problems);
    }
    if let Some((slice, slices)) = args.partition {
        partition(&mut problems, slice, slices);
    }
    let solution = args.solution.as_ref().map(|file| context.path(file));
    let illegal = match args.validate {
        true => illegal_inputs(context, &problems)?,
        false => Vec::new(),
    };
    let mut tasks = tasks_for(context, problems, solution.as_deref());
    tasks.extend(illegal.into_iter().map(Err));
    // Every folder the programs' view hides or keeps is known and made now (the build cache
    // is kept in it): the slots make the view while the solutions are built.
    let cache = context.repository.cache_dir();
    if std::fs::create_dir_all(&cache).is_ok() {
        context.sandbox.offer_view();
    }
    let root = context.repository.root.clone();
    let mut human;
    let mut json;
    let mut junit = args
        .junit
        .map(|file| JunitReporter::new(context.path(&file)));
    let mut reporters: Vec<&mut dyn Reporter> = match context.format {
        Format::Human => {
            human = HumanReporter::new(context.color, context.repository.clone(), context.detail);
            vec![&mut human]
        }
        Format::Json => {
            json = JsonReporter::new(root);
            vec![&mut json]
        }
    };
    if let Some(junit) = junit.as_mut() {
        reporters.push(junit);
    }
    let summary = runner::judge_all(
        tasks,
        &context.compiler(),
        &Settings {
            jobs: context.jobs,
            fail_fast: args.fail_fast,
        },
        &mut Reporters(reporters),
    );
    if let Some(error) = junit.and_then(|junit| junit.write_error) {
        return Err(error);
    }
    Ok(summary.outcome())
}

/// The inputs of `problems` that their validators reject, one error each (`--validate`);
/// for a package, every fault its validators find in its data.
fn illegal_inputs(context: &Context, problems: &[Result<Problem>]) -> Result<Vec<Error>> {
    use rayon::prelude::*;
    let compiler = context.compiler();
    let mut illegal = Vec::new();
    for problem in problems.iter().flatten() {
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

/// Keeps case `i` (counting every loaded problem's cases in order) when `i % slices` is
/// `slice - 1`: the slices are disjoint and together hold every case once.
fn partition(problems: &mut Vec<Result<Problem>>, slice: usize, slices: usize) {
    let mut index = 0;
    for problem in problems.iter_mut().flatten() {
        problem.cases.retain(|_| {
            let keep = index % slices == slice - 1;
            index += 1;
            keep
        });
    }
    drop_empty(problems);
}

/// Problems left with no case to judge are not judged (those that failed to load stay, to be
/// reported).
fn drop_empty(problems: &mut Vec<Result<Problem>>) {
    problems.retain(|problem| {
        problem
            .as_ref()
            .map_or(true, |problem| !problem.cases.is_empty())
    });
}
