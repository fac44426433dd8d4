//! `judge check`: will this one file work on the online judge as it is?

use crate::cli::CheckArgs;
use crate::error::{Error, Outcome, Result};
use crate::judging::format_bytes;
use crate::problem::profile::Profile;
use crate::report::{HumanReporter, JsonReporter};
use crate::runner::{self, Settings, Task};
use crate::toolchain::handin;
use crate::toolchain::language::Language;
use crate::toolchain::{compiler, Build};

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
    let named = context
        .repository
        .resolve(stem.as_ref(), &context.current)
        .ok();
    let problem = match &args.problem {
        Some(name) => Some(context.problem(name)?),
        None => named
            .as_ref()
            .and_then(|dir| context.repository.load_problem(dir).ok()),
    };
    // A problem with no cases yet still says which judge it is for.
    let profile = args
        .profile
        .or(problem.as_ref().map(|p| p.profile))
        .or_else(|| Some(context.repository.load_metadata(&named?).ok()?.profile))
        .unwrap_or(Profile::Boj);
    let mut outcome = Outcome::Accepted;
    let mut notices = context.notices("check");
    notices.info(format_args!("checking {} for {profile}", file.display()));
    let judge = profile.online_judge();
    if !judge.accepts(language.name) {
        notices.problem(format_args!(
            "  PROBLEM   {} does not take {}: it takes {}",
            judge.name,
            language.name,
            judge.menu()
        ));
        for other in context.repository.solution_files(&stem) {
            if Language::of(&other).is_some_and(|l| judge.accepts(l.name)) {
                notices.result(format_args!(
                    "  use       {} (check it with `judge check {0} --profile {profile}`)",
                    context.repository.relative(&other).display()
                ));
            }
        }
        return Ok(notices.finish(Outcome::Rejected));
    }

    // Built alone, from an empty folder, with nothing cached: exactly the judge's build.
    let alone = tempfile::tempdir().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    let file_name = file.file_name().unwrap_or_default().to_string_lossy();
    let command = compiler::shown_command(language, &file_name);
    match context
        .compiler_in(alone.path().to_path_buf())
        .build(&file)?
    {
        Build::Ready(_) => {
            notices.result(format_args!("  ok        builds alone with `{command}`"))
        }
        Build::CompileError(message) => {
            outcome = Outcome::Rejected;
            notices.problem(format_args!("  PROBLEM   does not build with `{command}`:"));
            for line in message.trim_end().lines().take(30) {
                notices.problem(format_args!("            {line}"));
            }
        }
    }
    // The judge's own commands, where it publishes them (Baekjoon: both Rust editions).
    let offers = judge.offers(language.name);
    let mut builds = Vec::new();
    for offer in offers.iter().filter(|offer| offer.compile.is_some()) {
        let shown = handin::shown_command(offer, language);
        match handin::build_as(offer, &file, language)? {
            Ok(()) => {
                notices.result(format_args!(
                    "  ok        builds as {} (`{shown}`)",
                    offer.label
                ));
                builds.push(offer.label);
            }
            Err(message) => {
                notices.result(format_args!(
                    "  note      does not build as {} (`{shown}`):",
                    offer.label
                ));
                for line in message.trim_end().lines().take(10) {
                    notices.result(format_args!("            {line}"));
                }
            }
        }
    }
    if offers.iter().any(|offer| offer.compile.is_some()) {
        if builds.is_empty() {
            outcome = Outcome::Rejected;
            notices.problem(format_args!(
                "  PROBLEM   builds with none of {}'s commands for {}",
                judge.name, language.name
            ));
        } else {
            notices.result(format_args!(
                "  ok        submit as: {}",
                builds.join(" or ")
            ));
        }
    }
    let limit = profile.code_limit_bytes();
    if source.len() as u64 > limit {
        outcome = Outcome::Rejected;
        notices.problem(format_args!(
            "  PROBLEM   {} bytes: over the {} code-size limit",
            source.len(),
            format_bytes(limit)
        ));
    } else {
        notices.result(format_args!(
            "  ok        {} bytes, within the {} code-size limit",
            source.len(),
            format_bytes(limit)
        ));
    }
    let text = String::from_utf8_lossy(&source);
    let found = handin::problems_with(&text, language, judge);
    if found.is_empty() {
        notices.result("  ok        standard library only, has an entry point");
    }
    let found: Vec<String> = found
        .into_iter()
        .chain(handin::function_form_problems(&text, language, judge.entry))
        .collect();
    for problem in &found {
        outcome = Outcome::Rejected;
        notices.problem(format_args!("  PROBLEM   {problem}"));
    }
    match problem {
        Some(problem) => {
            notices.info("");
            let task = Task {
                solution: file.clone(),
                problem,
                one_at_a_time: false,
            };
            let settings = Settings {
                jobs: context.jobs,
                fail_fast: false,
            };
            let compiler = context.compiler();
            let summary = if notices.json() {
                let mut reporter = JsonReporter::keeping(context.repository.root.clone());
                let summary =
                    runner::judge_all(vec![Ok(task)], &compiler, &settings, &mut reporter);
                if let Some(report) = reporter.document() {
                    notices.attach_run(report);
                }
                summary
            } else {
                let mut reporter =
                    HumanReporter::new(context.color, context.repository.clone(), context.detail);
                runner::judge_all(vec![Ok(task)], &compiler, &settings, &mut reporter)
            };
            outcome = outcome.max(summary.outcome());
        }
        None => notices.result(format_args!(
            "  note      no problem named `{stem}`: no cases run (name one with --problem)"
        )),
    }
    match judge.entry {
        _ if outcome != Outcome::Accepted => {}
        crate::toolchain::online_judges::CallForm::Program => {
            notices.result(format_args!("submit: {}", file.display()))
        }
        crate::toolchain::online_judges::CallForm::Function { name } => {
            // The judge calls `name`: what to paste is the file without its stdin adapter.
            notices.result(format_args!(
                "paste into the editor of {} (the `{name}` function; the stdin adapter below it stays here):",
                judge.name
            ));
            notices.result("----8<----");
            notices.result(handin::pasted_part(&text).trim_end_matches('\n'));
            notices.result("----8<----");
        }
    }
    Ok(notices.finish(outcome))
}
