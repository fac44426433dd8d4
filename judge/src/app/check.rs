//! `judge check`: will this one file work on the online judge as it is?

use std::path::Path;

use crate::cli::CheckArgs;
use crate::error::{Error, Outcome, Result};
use crate::judging::format_bytes;
use crate::problem::Problem;
use crate::problem::Profile;
use crate::report::Notices;
use crate::report::{HumanReporter, JsonReporter};
use crate::runner::{self, Settings, Task};
use crate::toolchain::handin;
use crate::toolchain::language::Language;
use crate::toolchain::online_judges::{CallForm, OnlineJudge};
use crate::toolchain::sources::Sources;
use crate::toolchain::{compiler, Build};

use super::Context;

pub fn check(context: &Context, args: CheckArgs) -> Result<Outcome> {
    let file = context.path(&args.file);
    let stem = stem_of(&file);
    let (problem, profile) = target(context, &args, &stem)?;
    let mut notices = context.notices("check");
    let outcome = check_file(context, &mut notices, &file, problem, profile)?;
    if outcome == Outcome::Accepted {
        let text = std::fs::read(&file).map_err(|error| Error::io(&file, error))?;
        say_how_to_hand_in(
            &mut notices,
            profile.online_judge(),
            &file,
            &String::from_utf8_lossy(&text),
        );
    }
    Ok(notices.finish(outcome))
}

/// Accepted when `profile`'s judge would take it as it is (and it passes `problem`'s cases).
pub(crate) fn check_file(
    context: &Context,
    notices: &mut Notices,
    file: &Path,
    problem: ProblemOrWhyNot,
    profile: Profile,
) -> Result<Outcome> {
    let language = Language::for_source(file)?;
    let source = std::fs::read(file).map_err(|error| Error::io(file, error))?;
    let stem = stem_of(file);
    notices.info(format_args!("checking {} for {profile}", file.display()));
    let judge = profile.online_judge();
    if !judge.accepts(language.id) {
        refuse_language(context, notices, judge, language, &stem, profile);
        return Ok(Outcome::Rejected);
    }
    let text = String::from_utf8_lossy(&source);
    let mut outcome = build_as_the_judge(context, notices, judge, file, problem.as_ref().ok())?
        .max(within_code_limit(notices, profile, source.len()))
        .max(no_problems_in(notices, judge, &text, language));
    match problem {
        Ok(problem) => {
            notices.info("");
            outcome = outcome.max(run_cases(context, notices, problem, file));
        }
        Err(why) => notices.result(format_args!("  note      {why}")),
    }
    Ok(outcome)
}

/// The name a problem of the file's would have.
fn stem_of(file: &Path) -> String {
    file.file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// The problem, or why there are no cases to run.
type ProblemOrWhyNot = std::result::Result<Problem, String>;

/// The problem (--problem, else the one the file's name names) and the judge: --profile,
/// else the problem's; a problem with no cases yet still says which judge it is for.
fn target(context: &Context, args: &CheckArgs, stem: &str) -> Result<(ProblemOrWhyNot, Profile)> {
    let named = context
        .repository
        .resolve(stem.as_ref(), &context.current)
        .ok();
    let problem = match (&args.problem, &named) {
        (Some(name), _) => Ok(context.problem(name)?),
        // The file is still checked; the note says why its cases are not run.
        (None, Some(dir)) => (context.repository.load_problem(dir))
            .map_err(|error| format!("no cases run: problem `{stem}` cannot be judged: {error}")),
        (None, None) => Err(format!(
            "no problem named `{stem}`: no cases run (name one with --problem)"
        )),
    };
    let profile = args
        .profile
        .or(problem.as_ref().ok().map(|p| p.profile))
        .or_else(|| Some(context.repository.load_metadata(&named?).ok()?.profile))
        .unwrap_or(Profile::Boj);
    Ok((problem, profile))
}

/// Says what the judge takes, and the problem's files it would take.
fn refuse_language(
    context: &Context,
    notices: &mut Notices,
    judge: &OnlineJudge,
    language: &Language,
    stem: &str,
    profile: Profile,
) {
    notices.problem(format_args!(
        "  PROBLEM   {} does not take {}: it takes {}",
        judge.name,
        language.name,
        judge.menu()
    ));
    for other in context.repository.solution_files(stem) {
        if Language::of(&other).is_some_and(|l| judge.accepts(l.id)) {
            notices.result(format_args!(
                "  use       {} (check it with `judge check {0} --profile {profile}`)",
                context.repository.relative(&other).display()
            ));
        }
    }
}

/// Built from an empty cache with each of the judge's rows for the language (Baekjoon: both
/// Rust editions), its published commands, a Java file as the class the problem names, a
/// function with the caller the problem's signature makes: one of them must build it.
fn build_as_the_judge(
    context: &Context,
    notices: &mut Notices,
    judge: &'static OnlineJudge,
    file: &Path,
    problem: Option<&Problem>,
) -> Result<Outcome> {
    let sources = Sources::read(file)?;
    let offers = judge.offers(sources.language.id);
    let alone = tempfile::tempdir().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    let compiler = context.compiler_in(alone.path().to_path_buf());
    let mut builds = Vec::new();
    for offer in &offers {
        let mut judged = sources.clone().judged_as(judge, offer);
        if let Some(class) = problem.and_then(|problem| problem.java_class.as_deref()) {
            judged = judged.run_as(class);
        }
        // The judge's command for the file; the build adds the caller.
        let shown = compiler::shown_command(&judged);
        if let Some(signature) = problem.and_then(|problem| problem.function.as_ref()) {
            judged = judged.with_caller(signature);
        }
        let why_not = match compiler.build_from(file, judged) {
            Ok(Build::Ready(_)) => {
                notices.result(format_args!(
                    "  ok        builds as {} with `{shown}`",
                    offer.label
                ));
                builds.push(offer.label);
                continue;
            }
            Ok(Build::CompileError(message)) => message,
            Err(error @ Error::MissingToolchain { .. }) => error.to_string(),
            Err(error) => return Err(error),
        };
        let (lines, label) = match offers.len() {
            1 => (30, "PROBLEM"),
            _ => (10, "note"),
        };
        notices.problem(format_args!(
            "  {label:<10}does not build as {} with `{shown}`:",
            offer.label
        ));
        for line in why_not.trim_end().lines().take(lines) {
            notices.problem(format_args!("            {line}"));
        }
    }
    if builds.is_empty() {
        if offers.len() > 1 {
            notices.problem(format_args!(
                "  PROBLEM   builds with none of {}'s commands for {}",
                judge.name, sources.language.name
            ));
        }
        return Ok(Outcome::Rejected);
    }
    if offers.len() > 1 {
        notices.result(format_args!(
            "  ok        submit as: {}",
            builds.join(" or ")
        ));
    }
    Ok(Outcome::Accepted)
}

fn within_code_limit(notices: &mut Notices, profile: Profile, bytes: usize) -> Outcome {
    let limit = profile.online_judge().code_limit_bytes;
    if bytes as u64 > limit {
        notices.problem(format_args!(
            "  PROBLEM   {bytes} bytes: over the {} code-size limit",
            format_bytes(limit)
        ));
        return Outcome::Rejected;
    }
    notices.result(format_args!(
        "  ok        {bytes} bytes, within the {} code-size limit",
        format_bytes(limit)
    ));
    Outcome::Accepted
}

/// Crates the judge lacks, a missing entry point, a function-form file's faults.
fn no_problems_in(
    notices: &mut Notices,
    judge: &OnlineJudge,
    text: &str,
    language: &Language,
) -> Outcome {
    let found = handin::problems_with(text, language, judge);
    if found.is_empty() {
        let entry = match judge.entry {
            CallForm::Program => ", has an entry point",
            CallForm::Function { .. } => "",
        };
        notices.result(format_args!("  ok        standard library only{entry}"));
    }
    let found: Vec<String> = found
        .into_iter()
        .chain(handin::function_form_problems(text, language, judge.entry))
        .collect();
    for problem in &found {
        notices.problem(format_args!("  PROBLEM   {problem}"));
    }
    match found.is_empty() {
        true => Outcome::Accepted,
        false => Outcome::Rejected,
    }
}

fn run_cases(context: &Context, notices: &mut Notices, problem: Problem, file: &Path) -> Outcome {
    let task = Task {
        solution: file.to_path_buf(),
        problem,
        one_at_a_time: false,
    };
    let settings = Settings {
        jobs: context.jobs,
        fail_fast: false,
        result_cache: false,
    };
    let compiler = context.compiler();
    let summary = if notices.json() {
        let mut reporter = JsonReporter::new(context.repository.root.clone());
        let summary = runner::judge_all(vec![Ok(task)], &compiler, &settings, &mut reporter);
        if let Some(report) = reporter
            .document()
            .and_then(|d| serde_json::to_value(d).ok())
        {
            notices.attach_run(report);
        }
        summary
    } else {
        let mut reporter =
            HumanReporter::new(context.color, context.repository.clone(), context.detail);
        runner::judge_all(vec![Ok(task)], &compiler, &settings, &mut reporter)
    };
    summary.outcome()
}

/// The file, or the function to paste into the judge's editor.
fn say_how_to_hand_in(notices: &mut Notices, judge: &OnlineJudge, file: &Path, text: &str) {
    match judge.entry {
        CallForm::Program => notices.result(format_args!("submit: {}", file.display())),
        CallForm::Function { name } => {
            // Paste the file without its stdin adapter.
            let adapted = text.contains(handin::ADAPTER_MARKER);
            let what = match adapted {
                true => "the stdin adapter below it stays here",
                false => "the whole file: the judge calls it as it is",
            };
            notices.result(format_args!(
                "paste into the editor of {} (the `{name}` function; {what}):",
                judge.name
            ));
            notices.result("----8<----");
            notices.result(handin::pasted_part(text).trim_end_matches('\n'));
            notices.result("----8<----");
        }
    }
}
