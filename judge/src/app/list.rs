//! `judge list`: the problems with their case counts, limits, compare mode and solution.

use std::path::Path;

use crate::cli::{Format, ListArgs};
use crate::error::{Outcome, Result};
use crate::judging::format_bytes;
use crate::problem::provenance::Provenance;
use crate::problem::{Problem, Repository};
use crate::report::{print_error, Table};
use crate::runner::plan::solutions_of;

use super::Context;

/// A problem, with (case, origin) for each case when asked for.
type Listed = (Problem, Option<Vec<(String, String)>>);

pub fn list(context: &Context, args: ListArgs) -> Result<Outcome> {
    let repository = &context.repository;
    let mut outcome = Outcome::Accepted;
    let mut listed: Vec<Listed> = Vec::new();
    for problem in repository.problem_dirs()? {
        let problem = match problem.and_then(|dir| load_listed(repository, &dir)) {
            Ok(problem) => problem,
            Err(error) => {
                print_error(&error);
                outcome = Outcome::Error;
                continue;
            }
        };
        let origins = if args.provenance {
            let provenance = Provenance::load(&problem.dir)?;
            let origin = |name: &String| {
                provenance
                    .cases
                    .get(name)
                    .map_or_else(|| "hand-written".to_owned(), |o| o.describe())
            };
            Some(
                problem
                    .cases
                    .iter()
                    .map(|case| (case.name.clone(), origin(&case.name)))
                    .collect(),
            )
        } else {
            None
        };
        listed.push((problem, origins));
    }
    if context.format == Format::Json {
        print_json(context, &listed, outcome);
    } else {
        print_tables(context, &listed);
    }
    Ok(outcome)
}

/// A problem with no cases yet is listed with none: it is on its way, not broken (`judge run`
/// says it cannot judge it).
fn load_listed(repository: &Repository, dir: &Path) -> Result<Problem> {
    match repository.load_problem(dir) {
        Err(error) if error.is_no_cases() => repository.load_metadata(dir),
        loaded => loaded,
    }
}

/// Problems that could not be read were named on stderr, and the outcome says so.
fn print_json(context: &Context, listed: &[Listed], outcome: Outcome) {
    let problems: Vec<serde_json::Value> = listed
        .iter()
        .map(|(problem, origins)| {
            let mut document = serde_json::json!({
                "id": problem.id,
                "name": problem.name,
                "cases": problem.cases.len(),
                "time_limit_ms": problem.limits.cpu_time.as_millis() as u64,
                "memory_limit_bytes": problem.limits.memory_bytes,
                "compare": problem.compare.name(),
                "profile": problem.profile.to_string(),
                "solution": context.repository.relative(&problem.solution),
                "solution_exists": problem.solution.exists(),
                "solutions": solutions_of(&context.repository, problem)
                    .iter()
                    .map(|file| context.repository.relative(file))
                    .collect::<Vec<_>>(),
            });
            if let Some(origins) = origins {
                document["provenance"] = origins
                    .iter()
                    .map(|(case, origin)| serde_json::json!({"case": case, "origin": origin}))
                    .collect();
            }
            document
        })
        .collect();
    let document = serde_json::json!({ "problems": problems, "outcome": outcome.name() });
    crate::report::print_document(&document);
}

fn print_tables(context: &Context, listed: &[Listed]) {
    let mut table = Table::new(&[
        ("problem", false),
        ("cases", true),
        ("time", true),
        ("memory", true),
        ("compare", false),
        ("profile", false),
        ("solution", false),
    ]);
    for (problem, _) in listed {
        let missing = if problem.solution.exists() {
            ""
        } else {
            " (missing)"
        };
        // Every file a run judges (a problem whose judge takes no Rust has one more).
        let files: Vec<String> = solutions_of(&context.repository, problem)
            .iter()
            .map(|file| context.repository.relative(file).display().to_string())
            .collect();
        table.row(vec![
            problem.id.clone(),
            problem.cases.len().to_string(),
            format!("{} ms", problem.limits.cpu_time.as_millis()),
            format_bytes(problem.limits.memory_bytes),
            problem.compare.name().to_owned(),
            problem.profile.to_string(),
            format!("{}{missing}", files.join(", ")),
        ]);
    }
    print!("{}", table.render(""));
    for (problem, _) in listed
        .iter()
        .filter(|(problem, _)| problem.cases.is_empty())
    {
        println!(
            "{}: no cases yet: `judge add {} --input FILE --expected FILE` adds one",
            problem.id, problem.id
        );
    }
    for (problem, origins) in listed {
        if let Some(origins) = origins {
            let mut cases = Table::new(&[("case", false), ("origin", false)]);
            for (case, origin) in origins {
                cases.row(vec![case.clone(), origin.clone()]);
            }
            println!("\n{}:", problem.id);
            print!("{}", cases.render("    "));
        }
    }
}
