//! Reporting: a `Reporter` is fed events in input order while a run goes on.

mod human;

use std::path::Path;

pub use human::{render_diff, HumanReporter};

use crate::compile::Program;
use crate::error::Error;
use crate::problem::Problem;
use crate::schedule::{CaseResult, RunSummary, Tally};

/// Receives the events of a run, in input order.
pub trait Reporter {
    /// A problem could not be judged at all (bad folder, missing solution, ...).
    fn problem_error(&mut self, error: &Error);
    /// Judging of a problem begins; `program` is `None` when its solution did not compile.
    fn problem_started(&mut self, problem: &Problem, solution: &Path, program: Option<&Program>);
    fn compile_error(&mut self, problem: &Problem, message: &str);
    fn case_finished(&mut self, problem: &Problem, result: &CaseResult);
    fn problem_finished(&mut self, problem: &Problem, tally: &Tally);
    fn run_finished(&mut self, summary: &RunSummary);
}
