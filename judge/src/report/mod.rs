//! Reporting: a `Reporter` is fed a run's results in input order while the run goes on. The
//! reporters for people (human), machines (JSON, JUnit, HTML) and `judge verify` (the
//! collector), and the pieces of text every command prints (tables, counts, notices).

mod collect;
mod html;
mod human;
pub(crate) mod json;
mod junit;
mod notice;
mod picture;
pub(crate) mod rerun;
mod subcase;
mod table;

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

pub use collect::{Collector, ProblemFault};
pub(crate) use html::{verify_page, HtmlReporter, SubmissionRow};
pub(crate) use human::{counts, render_diff, HumanReporter};
pub(crate) use json::{print_document, CaseOrder, JsonReporter};
pub(crate) use junit::JunitReporter;
pub(crate) use notice::Notices;
pub(crate) use table::Table;

use crate::compare::diff::Side;
use crate::error::{Error, Outcome};
use crate::judging::scorecard::{CaseScore, Grade, ScoreError, Scorecard};
use crate::judging::{CaseResult, Tally};
use crate::problem::Problem;
use crate::sandbox::Containment;
use json::{CacheRecord, MergedRecord};

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
    /// Beside `problem_scored`, when the run went past the limit its verdicts are decided at
    /// (`Limits::decided_at`): the score as the cases too slow for that limit would have made
    /// it, graded again.
    fn problem_scored_at_limit(
        &mut self,
        _problem: &Problem,
        _score: &Result<Scorecard, ScoreError>,
    ) {
    }
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

// What a whole run comes to, and `RunBook`, which counts a run's events into it and tells
// them to the reporters: one bookkeeping for a run judged here and one merged from shards.

#[derive(Debug, Clone, Default)]
pub struct RunSummary {
    /// How many problems were judged (a problem judged with several solutions counts once).
    pub problems: usize,
    pub tally: Tally,
    /// Solutions built in this run.
    pub compiled: usize,
    /// Solutions taken from the build cache.
    pub cached: usize,
    /// Solutions that did not compile.
    pub compile_errors: usize,
    /// Problems that could not be judged (a fault of the problem or the harness).
    pub errors: usize,
    /// Cases not judged because an earlier case of the same solution failed (`fail_fast`).
    pub skipped: usize,
    /// The signal that stopped the run before every case was judged.
    pub interrupted: Option<i32>,
    /// Cases the stop left unjudged (of solutions stopped part way, or never begun).
    pub not_finished: usize,
    pub wall_time: Duration,
    /// What held the programs judged (`None` when none ran).
    pub containment: Option<Containment>,
    /// Why the programs did not get the file system view, if they did not.
    pub view_refused: Option<String>,
    /// For a report merged from shards (`judge merge`): what they were.
    pub merged: Option<MergeNote>,
    /// What the result cache did, where it was used.
    pub result_cache: Option<CacheRecord>,
}

/// What a merged report says of its shards.
#[derive(Debug, Clone, Default)]
pub struct MergeNote {
    pub record: MergedRecord,
    /// Their hosts ran the calibration loop at speeds further apart than timing allows.
    pub hosts_differ: bool,
    /// Each verdict near the time limit, with the host that judged it: `p case TLE on host`.
    pub near_limit: Vec<String>,
}

impl RunSummary {
    /// The run's outcome: an error, else a stop before its end, else any case not accepted,
    /// else accepted.
    pub fn outcome(&self) -> Outcome {
        if self.errors > 0 {
            Outcome::Error
        } else if self.not_finished > 0 {
            Outcome::Interrupted
        } else if self.compile_errors > 0 || self.tally.accepted() < self.tally.cases {
            Outcome::Rejected
        } else {
            Outcome::Accepted
        }
    }
}

/// A run's event, in input order: told by the runner, or read back from shards by `merge`.
pub(crate) enum RunEvent<'a> {
    /// A problem not judged; with it when it was loaded (its cases counted at the start).
    Error(&'a Error, Option<&'a Problem>),
    /// A solution did not compile: the message, and its cases counted at the start.
    CompileError(&'a Problem, &'a Path, &'a str, usize),
    /// A solution's cases follow.
    Started(&'a Problem, &'a Path, ProgramOrigin),
    CaseFinished(&'a Problem, &'a CaseResult),
    /// All its cases told; with the custom grader the runner built (a merge cannot run one).
    Finished(&'a Problem, Option<&'a mut Grade<'a>>),
    /// The run stopped before these cases of a solution (in the problem's order) were judged.
    Stopped(&'a Problem, &'a Path, Vec<&'a str>),
}

/// The summary of a run as its events are told to the reporters, with what the solution
/// being told needs at its end: whether it was begun, its totals, its cases' scores.
#[derive(Default)]
pub(crate) struct RunBook {
    pub summary: RunSummary,
    ids: HashSet<String>,
    begun: bool,
    tally: Tally,
    scores: Vec<CaseScore>,
    /// `scores` with the cases too slow for `Limits::decided_at` rejected, when it is set.
    scores_at_limit: Vec<CaseScore>,
}

impl RunBook {
    pub fn tell(&mut self, event: RunEvent<'_>, reporter: &mut dyn Reporter) {
        if let RunEvent::Error(_, Some(problem))
        | RunEvent::CompileError(problem, ..)
        | RunEvent::Started(problem, ..)
        | RunEvent::Stopped(problem, ..) = &event
        {
            self.summary.problems += usize::from(self.ids.insert(problem.id.clone()));
        }
        let summary = &mut self.summary;
        match event {
            RunEvent::Error(error, problem) => {
                summary.errors += 1;
                match problem {
                    Some(problem) => reporter.cases_unjudged(problem.cases.len()),
                    // A problem that failed to load counts; an illegal input is a loaded one's.
                    None => summary.problems += usize::from(!error.is_of_a_loaded_problem()),
                }
                reporter.problem_error(error);
            }
            RunEvent::CompileError(problem, solution, message, cases) => {
                summary.compile_errors += 1;
                reporter.cases_unjudged(cases);
                reporter.problem_started(problem, solution, None);
                reporter.compile_error(problem, message);
            }
            RunEvent::Started(problem, solution, built) => {
                reporter.problem_started(problem, solution, Some(built));
                match built {
                    ProgramOrigin::Compiled => summary.compiled += 1,
                    ProgramOrigin::Cached => summary.cached += 1,
                }
                (self.begun, self.tally) = (true, Tally::default());
                (self.scores, self.scores_at_limit) = (Vec::new(), Vec::new());
            }
            RunEvent::CaseFinished(problem, result) => {
                self.tally.add(result);
                summary.tally.add(result);
                if problem.scoring.is_some() {
                    if let Some(limit) = problem.limits.decided_at {
                        (self.scores_at_limit).push(CaseScore::at_limit(result, limit));
                    }
                    self.scores.push(CaseScore::of(result));
                }
                reporter.case_finished(problem, result)
            }
            RunEvent::Finished(problem, mut grade) => {
                self.begun = false;
                if let Some(scoring) = &problem.scoring {
                    let mut score = |cases: &[CaseScore]| match grade.as_deref_mut() {
                        Some(grade) => scoring.score_with(cases, grade),
                        None => scoring.score(cases),
                    };
                    reporter.problem_scored(problem, &score(&self.scores));
                    if problem.limits.decided_at.is_some() {
                        let at_limit = score(&self.scores_at_limit);
                        reporter.problem_scored_at_limit(problem, &at_limit);
                    }
                }
                reporter.problem_finished(problem, &self.tally)
            }
            RunEvent::Stopped(problem, solution, unfinished) => {
                summary.not_finished += unfinished.len();
                reporter.problem_stopped(&Stopped {
                    problem,
                    solution,
                    judged: std::mem::take(&mut self.begun).then_some(&self.tally),
                    unfinished: &unfinished,
                });
            }
        }
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
