//! `judge gen`: rebuild the generated cases from each problem's recipe, or check them; on a
//! Polygon package, make what it lacks from its generators and main solution.

use std::path::{Path, PathBuf};

use crate::cli::GenArgs;
use crate::corpus::{self, generate_package, GenSummary, PackageGen};
use crate::error::{Outcome, Result};
use crate::report::{agree, plural, Notices};

use super::Context;
use crate::problem::layout::{ProblemFormat, RECIPE_FILE};

pub fn gen(context: &Context, args: GenArgs) -> Result<Outcome> {
    let repository = &context.repository;
    let dirs: Vec<PathBuf> = if args.problems.is_empty() {
        repository
            .problem_dirs()?
            .into_iter()
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            // A Polygon package's generators and main solution are its recipe.
            .filter(|dir| {
                dir.join(RECIPE_FILE).is_file() || ProblemFormat::of(dir) == ProblemFormat::Polygon
            })
            .collect()
    } else {
        args.problems
            .iter()
            .map(|name| context.problem_dir(name))
            .collect::<Result<_>>()?
    };
    let compiler = context.compiler();
    let mut notices = context.notices("gen");
    let mut outcome = Outcome::Accepted;
    for dir in dirs {
        if ProblemFormat::of(&dir) == ProblemFormat::Polygon {
            let summary = package_gen(context, &dir, args.check, &mut notices)?;
            if !summary.differing.is_empty() || (args.check && !summary.written.is_empty()) {
                outcome = Outcome::Rejected;
            }
            continue;
        }
        // A generated corpus may not exist yet: only the metadata is needed.
        let problem = repository.load_metadata(&dir)?;
        let summary = corpus::generate(&problem, &compiler, context.jobs, args.check)?;
        let changed = summary.written.len()
            + summary.removed.len()
            + summary.left.len()
            + usize::from(summary.unfinished);
        // Some case not as the recipe makes it: with --check any, else those left alone.
        if (args.check && changed > 0) || !summary.left.is_empty() {
            outcome = Outcome::Rejected;
        }
        if args.check {
            if changed == 0 && summary.planned == 0 {
                notices.result(format_args!(
                    "{}: the recipe has no [[generate]] entry: nothing to check",
                    problem.id
                ));
            } else if changed == 0 {
                notices.result(format_args!(
                    "{}: all {} match the recipe",
                    problem.id,
                    plural(summary.planned, "generated case")
                ));
            } else {
                tell_differences(&mut notices, &problem.id, &summary, changed);
            }
        } else {
            notices.result(format_args!(
                "{}: {} from the recipe: {} written, {} unchanged, {} removed",
                problem.id,
                plural(summary.planned, "case"),
                summary.written.len(),
                summary.unchanged(),
                summary.removed.len()
            ));
        }
        let left_as_it_is = if args.check { "" } else { "left as it is: " };
        for left in summary.left.iter().take(20) {
            notices.problem(format_args!(
                "    {left_as_it_is}{}: {}",
                left.name, left.reason
            ));
        }
    }
    Ok(notices.finish(outcome))
}

/// Tells what it made, and every generated input that differs from the package's.
fn package_gen(
    context: &Context,
    dir: &Path,
    check: bool,
    notices: &mut Notices,
) -> Result<PackageGen> {
    let id = crate::problem::Repository::id_of(dir);
    let summary = generate_package(dir, id.clone(), &context.compiler(), context.jobs, check)?;
    let made = match check {
        true => "missing",
        false => "written",
    };
    notices.result(format_args!(
        "{id}: {}: {} {made}; of the generated inputs it holds, {} the same, {} different",
        plural(summary.tests, "test"),
        plural(summary.written.len(), "file"),
        summary.reproduced,
        summary.differing.len(),
    ));
    for file in summary.written.iter().take(20) {
        notices.problem(format_args!("    {made}: {file}"));
    }
    for difference in &summary.differing {
        notices.problem(format_args!("    {difference}"));
    }
    for why in &summary.not_made {
        notices.problem(format_args!("    not made again: {why}"));
    }
    Ok(summary)
}

fn tell_differences(notices: &mut Notices, id: &str, summary: &GenSummary, changed: usize) {
    notices.problem(format_args!(
        "{}: {} {} from the recipe",
        id,
        plural(changed, "case"),
        agree(changed, "differs", "differ")
    ));
    for name in summary.written.iter().take(20) {
        let how = if summary.missing.contains(name) {
            "missing"
        } else {
            "differs"
        };
        notices.problem(format_args!("    {how}: {name}"));
    }
    for name in summary.removed.iter().take(20) {
        notices.problem(format_args!("    no longer in the recipe: {name}"));
    }
    if summary.unfinished {
        notices.problem(
            "    a corpus command was killed before it finished: `judge gen` completes its change",
        );
    }
}
