//! `judge stress`: the solution against the reference on fresh inputs; the first
//! disagreement is minimised, saved as a case, and the command that judges it again printed.

use std::io::IsTerminal;

use crate::cli::StressArgs;
use crate::error::{Outcome, Result};
use crate::stress::{self, Budget, Found};

use super::Context;

pub fn stress(context: &Context, args: StressArgs) -> Result<Outcome> {
    let repository = &context.repository;
    let problem = context.metadata(&args.problem)?;
    let solution = args
        .solution
        .as_ref()
        .map_or_else(|| problem.solution.clone(), |file| context.path(file));
    let budget = match (args.iterations, args.time) {
        (_, Some(time)) => Budget::Time(time),
        (iterations, None) => Budget::Iterations(iterations.unwrap_or(1000)),
    };
    let first_seed = args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        now.as_nanos() as u64 % 1_000_000_000
    });
    eprintln!(
        "stress {}: {} against reference.rs, seeds from {first_seed}",
        problem.id,
        repository.relative(&solution).display()
    );
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |runs: u64| {
        if terminal && runs.is_multiple_of(10) {
            eprint!("\r  {runs} runs, no disagreement yet");
        } else if !terminal && runs.is_multiple_of(100) {
            eprintln!("  {runs} runs, no disagreement yet");
        }
    };
    let found = stress::stress(
        &problem,
        &context.compiler(),
        &solution,
        budget,
        first_seed,
        &mut progress,
    )?;
    if terminal {
        eprintln!();
    }
    match found {
        Found::Nothing { runs } => {
            println!("{runs} runs: the solution agrees with the reference on every input");
            Ok(Outcome::Accepted)
        }
        Found::Counterexample(found) => {
            println!(
                "run {}: {} on `gen {}`",
                found.runs, found.verdict, found.args
            );
            println!("saved the minimised counterexample as tests/{} (expected output from reference.rs)", found.case);
            println!("    {}: {}", found.verdict, found.reason);
            println!(
                "reproduce: {}",
                repository.rerun_command(&problem, &solution, Some(&found.case))
            );
            Ok(Outcome::Rejected)
        }
    }
}
