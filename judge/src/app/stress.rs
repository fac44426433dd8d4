//! `judge stress`: the solution against the reference on fresh inputs; the first
//! disagreement is minimised, saved as a case, and the command that judges it again printed.

use std::io::IsTerminal;

use crate::cli::StressArgs;
use crate::corpus::stress::{self, Budget, Found};
use crate::error::{Outcome, Result};

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
    let mut notices = context.notices("stress");
    notices.info(format_args!(
        "stress {}: {} against reference.rs, seeds from {first_seed}",
        problem.id,
        repository.relative(&solution).display()
    ));
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |runs: u64| {
        if terminal && runs.is_multiple_of(10) {
            notices.progress(format_args!("\r  {runs} runs, no disagreement yet"), "");
        } else if !terminal && runs.is_multiple_of(100) {
            notices.progress(format_args!("  {runs} runs, no disagreement yet"), "\n");
        }
    };
    let found = stress::stress(
        &problem,
        &context.compiler(),
        context.jobs,
        &solution,
        budget,
        first_seed,
        &mut progress,
    )?;
    if terminal {
        notices.progress("", "\n");
    }
    match found {
        Found::Nothing { runs } => {
            notices.result(format_args!(
                "{runs} runs: the solution agrees with the reference on every input"
            ));
            Ok(notices.finish(Outcome::Accepted))
        }
        Found::Counterexample(found) => {
            notices.problem(format_args!(
                "run {}: {} on `gen {}`",
                found.runs, found.verdict, found.args
            ));
            notices.result(format_args!("saved the minimised counterexample as tests/{} (expected output from reference.rs)", found.case));
            notices.problem(format_args!("    {}: {}", found.verdict, found.reason));
            notices.result(format_args!(
                "reproduce: {}",
                crate::report::rerun::rerun_command(
                    repository,
                    &problem,
                    &solution,
                    Some(&found.case)
                )
            ));
            Ok(notices.finish(Outcome::Rejected))
        }
    }
}
