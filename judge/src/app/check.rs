//! `judge check`: will this one file work on the online judge as it is?

use crate::check;
use crate::cli::CheckArgs;
use crate::compile::{self, Build, Compiler};
use crate::error::{Error, Outcome, Result};
use crate::language::Language;
use crate::profile::Profile;
use crate::report::{format_bytes, HumanReporter};
use crate::runner::{self, Settings, Task};

use super::Context;

pub fn check(context: &Context, args: CheckArgs) -> Result<Outcome> {
    let file = context.path(&args.file);
    let language = Language::for_source(&file)?;
    let source = std::fs::read(&file).map_err(|error| Error::io(&file, error))?;
    let stem = file
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let problem = match &args.problem {
        Some(name) => Some(context.problem(name)?),
        None => context
            .repository
            .resolve(stem.as_ref(), &context.current)
            .ok()
            .and_then(|dir| context.repository.load_problem(&dir).ok()),
    };
    let profile = args
        .profile
        .or(problem.as_ref().map(|p| p.profile))
        .unwrap_or(Profile::Boj);
    let mut outcome = Outcome::Accepted;
    println!("checking {} for {profile}", file.display());

    // Built alone, from an empty folder, with nothing cached: exactly the judge's build.
    let alone = tempfile::tempdir().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    let file_name = file.file_name().unwrap_or_default().to_string_lossy();
    let command = compile::shown_command(language, &file_name);
    match Compiler::new(alone.path().to_path_buf()).build(&file)? {
        Build::Ready(_) => println!("  ok        builds alone with `{command}`"),
        Build::CompileError(message) => {
            outcome = Outcome::Rejected;
            println!("  PROBLEM   does not build with `{command}`:");
            for line in message.trim_end().lines().take(30) {
                println!("            {line}");
            }
        }
    }
    let limit = profile.code_limit_bytes();
    if source.len() as u64 > limit {
        outcome = Outcome::Rejected;
        println!(
            "  PROBLEM   {} bytes: over the {} code-size limit",
            source.len(),
            format_bytes(limit)
        );
    } else {
        println!(
            "  ok        {} bytes, within the {} code-size limit",
            source.len(),
            format_bytes(limit)
        );
    }
    let found = check::problems_with(&String::from_utf8_lossy(&source), language, profile);
    if found.is_empty() {
        println!("  ok        standard library only, has an entry point");
    }
    for problem in &found {
        outcome = Outcome::Rejected;
        println!("  PROBLEM   {problem}");
    }
    match problem {
        Some(problem) => {
            println!();
            let task = Task {
                solution: file.clone(),
                problem,
            };
            let mut reporter =
                HumanReporter::new(context.color, context.repository.clone(), context.detail);
            let summary = runner::judge_all(
                vec![Ok(task)],
                &context.compiler(),
                &Settings {
                    jobs: context.jobs,
                    fail_fast: false,
                },
                &mut reporter,
            );
            outcome = outcome.max(summary.outcome());
        }
        None => println!(
            "  note      no problem named `{stem}`: no cases run (name one with --problem)"
        ),
    }
    if outcome == Outcome::Accepted {
        println!("submit: {}", file.display());
    }
    Ok(outcome)
}
