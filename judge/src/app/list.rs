//! `judge list`: the problems with their case counts, limits, compare mode and solution.

use crate::cli::ListArgs;
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
        if args.provenance {
            let provenance = Provenance::load(&problem.dir)?;
            let mut cases = Table::new(&[("case", false), ("origin", false)]);
            for case in &problem.cases {
                let origin = provenance
                    .cases
                    .get(&case.name)
                    .map_or_else(|| "hand-written".to_owned(), |o| o.describe());
                cases.row(vec![case.name.clone(), origin]);
            }
            origins.push((problem.id, cases));
        }
    }
    print!("{}", table.render(""));
    for (id, cases) in origins {
        println!("\n{id}:");
        print!("{}", cases.render("    "));
    }
    Ok(outcome)
}
