//! Reporting: a `Reporter` is fed a run's results in input order while the run goes on. The
//! reporters for people (human), machines (JSON, JUnit, HTML) and `judge verify` (the
//! collector), and the pieces of text every command prints (tables, counts, notices).

mod collect;
mod html;
mod human;
mod json;
mod junit;
mod notice;
mod picture;
pub(crate) mod record;
pub(crate) mod rerun;
mod subcase;
mod summary;
mod table;

use std::path::Path;

pub use collect::{Collector, ProblemFault};
pub(crate) use html::{verify_page, HtmlReporter, SubmissionRow};
pub(crate) use human::{counts, render_diff, HumanReporter};
pub(crate) use json::{print_document, CaseOrder, JsonReporter};
pub(crate) use junit::JunitReporter;
pub(crate) use notice::Notices;
pub use summary::{MergeNote, RunSummary};
pub(crate) use summary::{RunBook, RunEvent};
pub(crate) use table::Table;

use crate::compare::diff::Side;
use crate::error::Error;
use crate::judging::scorecard::{ScoreError, Scorecard};
use crate::judging::{CaseResult, Tally};
use crate::problem::Problem;

/// How much the human report shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Detail {
    /// The failures' one-line reasons and the summary.
    Quiet,
    /// A line per all-accepted problem, every other case in full, then the failures again
    /// with the command that judges each one alone.
    #[default]
    Default,
    /// Also a row per accepted case.
    Verbose,
}

/// `1 case`, `2 cases`, `3 mismatches`.
pub fn plural(count: usize, noun: &str) -> String {
    let suffix = if count == 1 {
        ""
    } else if noun.ends_with("ch") || noun.ends_with('s') || noun.ends_with('x') {
        "es"
    } else {
        "s"
    };
    format!("{count} {noun}{suffix}")
}

/// The verb for a count: `agree(1, "differs", "differ")`.
pub fn agree<'a>(count: usize, singular: &'a str, plural: &'a str) -> &'a str {
    if count == 1 {
        singular
    } else {
        plural
    }
}

/// An error that does not stop the command, on stderr.
pub fn print_error(error: &dyn std::fmt::Display) {
    eprintln!("error: {error}");
}

/// What a command did besides its own work (a change an interrupted command left, completed
/// first), on stderr: beside the command's report, never inside its JSON document.
pub fn print_note(note: &dyn std::fmt::Display) {
    eprintln!("{note}");
}

/// Where a judged solution's program came from, as the reports say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProgramOrigin {
    Compiled,
    Cached,
}

/// How a solution's heading says where its program came from: ` (cached)`, ` (compiled)`,
/// or nothing when it did not build.
fn built_note(built: Option<ProgramOrigin>) -> &'static str {
    match built {
        Some(ProgramOrigin::Cached) => " (cached)",
        Some(ProgramOrigin::Compiled) => " (compiled)",
        None => "",
    }
}

/// How reports mark a diff's line: its sign (` ` on both sides, `-` expected, `+` actual)
/// and its side's name, as the JSON report writes it.
fn diff_mark(side: Side) -> (char, &'static str) {
    match side {
        Side::Both => (' ', "both"),
        Side::Expected => ('-', "expected"),
        Side::Actual => ('+', "actual"),
    }
}

/// A solution the run was stopped in, or before.
pub struct Stopped<'a> {
    pub problem: &'a Problem,
    pub solution: &'a Path,
    /// The totals of the cases told before the stop, when `problem_started` came first;
    /// `None` when the solution was never begun.
    pub judged: Option<&'a Tally>,
    /// The cases not judged, in the problem's order.
    pub unfinished: &'a [&'a str],
}

/// Receives the events of a run, in input order.
pub trait Reporter {
    fn run_started(&mut self, _cases: usize) {}
    /// Cases counted in `run_started` that will not be judged: their solution did not build.
    fn cases_unjudged(&mut self, _cases: usize) {}
    /// A problem could not be judged at all (bad folder, missing solution, ...).
    fn problem_error(&mut self, _error: &Error) {}
    /// Judging of a problem begins; `built` is `None` when its solution did not compile.
    fn problem_started(
        &mut self,
        _problem: &Problem,
        _solution: &Path,
        _built: Option<ProgramOrigin>,
    ) {
    }
    fn compile_error(&mut self, _problem: &Problem, _message: &str) {}
    /// A case was judged (in case order).
    fn case_finished(&mut self, _problem: &Problem, _result: &CaseResult) {}
    /// A scored problem's score, after its last case and before `problem_finished`; `Err` is
    /// a judge error in the scoring (a validator that broke its rules).
    fn problem_scored(&mut self, _problem: &Problem, _score: &Result<Scorecard, ScoreError>) {}
    /// Every case of the problem was judged (or the rest skipped), with their totals.
    fn problem_finished(&mut self, _problem: &Problem, _tally: &Tally) {}
    /// The run was stopped before some cases of a problem were judged; this ends the problem
    /// in place of `problem_finished` (see `Stopped`).
    fn problem_stopped(&mut self, _stopped: &Stopped) {}
    fn run_finished(&mut self, _summary: &RunSummary) {}
}

/// Several reporters fed the same events: the human or JSON report, plus JUnit.
pub struct Reporters<'a>(pub Vec<&'a mut dyn Reporter>);

/// Each event, as the trait names it, told to every reporter in turn.
macro_rules! to_each {
    ($($event:ident($($arg:ident: $type:ty),*);)*) => {$(
        fn $event(&mut self, $($arg: $type),*) {
            self.0.iter_mut().for_each(|r| r.$event($($arg),*));
        }
    )*};
}

impl Reporter for Reporters<'_> {
    to_each! {
        run_started(cases: usize);
        cases_unjudged(cases: usize);
        problem_error(error: &Error);
        problem_started(problem: &Problem, solution: &Path, built: Option<ProgramOrigin>);
        compile_error(problem: &Problem, message: &str);
        case_finished(problem: &Problem, result: &CaseResult);
        problem_scored(problem: &Problem, score: &Result<Scorecard, ScoreError>);
        problem_finished(problem: &Problem, tally: &Tally);
        problem_stopped(stopped: &Stopped);
        run_finished(summary: &RunSummary);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(plural(1, "problem"), "1 problem");
        assert_eq!(plural(0, "case"), "0 cases");
        assert_eq!(plural(2, "mismatch"), "2 mismatches");
        assert_eq!(agree(1, "differs", "differ"), "differs");
        assert_eq!(agree(3, "differs", "differ"), "differ");
    }
}
