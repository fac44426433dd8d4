//! `judge list`: the problems with their case counts, limits, compare mode and solution.

use crate::cli::{Format, ListArgs};
use crate::error::{Outcome, Result};
use crate::provenance::Provenance;
use crate::report::{format_bytes, print_error, Table};

use super::Context;

pub fn list(context: &Context, args: ListArgs) -> Result<Outcome> {
    let repository = &context.repository;
    let mut outcome = Outcome::Accepted;
    let mut table = Table::new(&[
        ("problem", false),
        ("cases", true),
        ("time", true),
        ("memory", true),
        ("compare", false),
        ("profile", false),
        ("solution", false),
    ]);
    let mut origins = Vec::new();
    let mut documents = Vec::new();
    for problem in repository.problem_dirs()? {
        let problem = match problem.and_then(|dir| repository.load_problem(&dir)) {
            Ok(problem) => problem,
            Err(error) => {
                print_error(&error);
                outcome = Outcome::Error;
                continue;
            }
        };
        let missing = if problem.solution.exists() {
            ""
        } else {
            " (missing)"
        };
        table.row(vec![
            problem.id.clone(),
            problem.cases.len().to_string(),
            format!("{} ms", problem.limits.cpu_time.as_millis()),
            format_bytes(problem.limits.memory_bytes),
            problem.compare.name().to_owned(),
            problem.profile.to_string(),
            format!(
                "{}{missing}",
                repository.relative(&problem.solution).display()
            ),
        ]);
        let mut provenance_rows = Vec::new();
        if args.provenance {
            let provenance = Provenance::load(&problem.dir)?;
            let mut cases = Table::new(&[("case", false), ("origin", false)]);
            for case in &problem.cases {
                let origin = provenance
                    .cases
                    .get(&case.name)
                    .map_or_else(|| "hand-written".to_owned(), |o| o.describe());
                provenance_rows.push(serde_json::json!({"case": case.name, "origin": origin}));
                cases.row(vec![case.name.clone(), origin]);
            }
            origins.push((problem.id.clone(), cases));
        }
        let mut document = serde_json::json!({
            "id": problem.id,
            "name": problem.name,
            "cases": problem.cases.len(),
            "time_limit_ms": problem.limits.cpu_time.as_millis() as u64,
            "memory_limit_bytes": problem.limits.memory_bytes,
            "compare": problem.compare.name(),
            "profile": problem.profile.to_string(),
            "solution": repository.relative(&problem.solution),
            "solution_exists": problem.solution.exists(),
        });
        if args.provenance {
            document["provenance"] = provenance_rows.into();
        }
        documents.push(document);
    }
    if context.format == Format::Json {
        // Problems that could not be read were named on stderr; the outcome says so.
        let document = serde_json::json!({ "problems": documents, "outcome": outcome.name() });
        println!("{document:#}");
        return Ok(outcome);
    }
    print!("{}", table.render(""));
    for (id, cases) in origins {
        println!("\n{id}:");
        print!("{}", cases.render("    "));
    }
    Ok(outcome)
}
