//! What a whole run comes to, and `RunBook`, which counts a run's events into it and tells
//! them to the reporters: one bookkeeping for a run judged here and one merged from shards.

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use crate::error::{Error, Outcome};
use crate::judging::scorecard::{CaseScore, Grade};
use crate::judging::{CaseResult, Tally};
use crate::problem::Problem;
use crate::sandbox::Containment;

use super::record::{CacheRecord, MergedRecord};
use super::{ProgramOrigin, Reporter, Stopped};

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
                (self.begun, self.tally, self.scores) = (true, Tally::default(), Vec::new());
            }
            RunEvent::CaseFinished(problem, result) => {
                self.tally.add(result);
                summary.tally.add(result);
                if problem.scoring.is_some() {
                    self.scores.push(CaseScore::of(result));
                }
                reporter.case_finished(problem, result)
            }
            RunEvent::Finished(problem, grade) => {
                self.begun = false;
                if let Some(scoring) = &problem.scoring {
                    let score = match grade {
                        Some(grade) => scoring.score_with(&self.scores, grade),
                        None => scoring.score(&self.scores),
                    };
                    reporter.problem_scored(problem, &score);
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
