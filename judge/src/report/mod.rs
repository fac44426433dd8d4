//! Reporting: the result types of a run (`events`), and the `Reporter`s that are fed them in
//! input order while the run goes on.

mod collect;
mod events;
mod human;
mod json;
mod junit;

use std::path::Path;

pub use collect::{Collector, SolutionVerdicts};
pub use events::{CaseResult, Failure, RunSummary, Tally};
pub use human::{render_diff, HumanReporter};
pub use json::JsonReporter;
pub use junit::JunitReporter;

use crate::compile::Program;
use crate::error::Error;
use crate::problem::Problem;

/// Receives the events of a run, in input order.
pub trait Reporter {
    /// The run begins with this many cases to judge.
    fn run_started(&mut self, _cases: usize) {}
    /// A problem could not be judged at all (bad folder, missing solution, ...).
    fn problem_error(&mut self, error: &Error);
    /// Judging of a problem begins; `program` is `None` when its solution did not compile.
    fn problem_started(&mut self, problem: &Problem, solution: &Path, program: Option<&Program>);
    fn compile_error(&mut self, problem: &Problem, message: &str);
    fn case_finished(&mut self, problem: &Problem, result: &CaseResult);
    fn problem_finished(&mut self, problem: &Problem, tally: &Tally);
    fn run_finished(&mut self, summary: &RunSummary);
}

/// Several reporters fed the same events: the human or JSON report, plus JUnit.
pub struct Reporters<'a>(pub Vec<&'a mut dyn Reporter>);

impl Reporter for Reporters<'_> {
    fn run_started(&mut self, cases: usize) {
        self.0.iter_mut().for_each(|r| r.run_started(cases));
    }
    fn problem_error(&mut self, error: &Error) {
        self.0.iter_mut().for_each(|r| r.problem_error(error));
    }
    fn problem_started(&mut self, problem: &Problem, solution: &Path, program: Option<&Program>) {
        self.0
            .iter_mut()
            .for_each(|r| r.problem_started(problem, solution, program));
    }
    fn compile_error(&mut self, problem: &Problem, message: &str) {
        self.0
            .iter_mut()
            .for_each(|r| r.compile_error(problem, message));
    }
    fn case_finished(&mut self, problem: &Problem, result: &CaseResult) {
        self.0
            .iter_mut()
            .for_each(|r| r.case_finished(problem, result));
    }
    fn problem_finished(&mut self, problem: &Problem, tally: &Tally) {
        self.0
            .iter_mut()
            .for_each(|r| r.problem_finished(problem, tally));
    }
    fn run_finished(&mut self, summary: &RunSummary) {
        self.0.iter_mut().for_each(|r| r.run_finished(summary));
    }
}

/// `1.9 MiB`, `256.0 MiB`, `512 KiB`.
pub fn format_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let value = bytes as f64;
    if value >= KIB * KIB * KIB {
        format!("{:.1} GiB", value / (KIB * KIB * KIB))
    } else if value >= KIB * KIB {
        format!("{:.1} MiB", value / (KIB * KIB))
    } else {
        format!("{:.0} KiB", value / KIB)
    }
}
