//! The report for machines: one JSON document (`record::RunDocument`), written when the run
//! ends to stdout, to a file, or kept for a command whose own document holds it.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::record::*;
use super::Reporter;
use super::RunSummary;
use super::{ProgramOrigin, Stopped};
use crate::error::Error;
use crate::judging::scorecard::{ScoreError, Scorecard};
use crate::judging::{CaseResult, Tally};
use crate::problem::Problem;

#[derive(Default)]
pub struct JsonReporter {
    problems: Vec<ProblemReport>,
    errors: Vec<String>,
    error_places: Vec<ErrorPlace>,
    base: PathBuf,
    /// Each solution's and case's place in the whole run (before a cut into shards).
    order: Option<Arc<CaseOrder>>,
    /// The case names of the problem being reported, with their places.
    places: Option<Arc<CasePlaces>>,
    pub run: Option<RunRecord>,
    document: Option<RunDocument>,
}

/// Each solution's place in the whole run, and its cases', keyed by problem folder and
/// solution file: what lets shards' reports be put back in the order of one run.
#[derive(Debug, Default)]
pub struct CaseOrder {
    places: HashMap<(PathBuf, PathBuf), (usize, Arc<CasePlaces>)>,
}

/// Each case name's place among its problem's cases.
type CasePlaces = HashMap<String, usize>;

impl CaseOrder {
    /// Says that the solution `solution` of the problem in `dir` is the run's `task`-th, with
    /// these cases at these places.
    pub fn add(
        &mut self,
        dir: &Path,
        solution: &Path,
        task: usize,
        cases: impl IntoIterator<Item = (String, usize)>,
    ) {
        let key = (dir.to_path_buf(), solution.to_path_buf());
        let cases = Arc::new(cases.into_iter().collect());
        self.places.entry(key).or_insert((task, cases));
    }
}

impl JsonReporter {
    /// Paths are written relative to `base`; the document is kept for `document`.
    pub fn new(base: PathBuf) -> Self {
        JsonReporter {
            base,
            ..JsonReporter::default()
        }
    }

    /// Numbers solutions and cases by their places in `order`.
    pub fn in_order(mut self, order: Arc<CaseOrder>) -> Self {
        self.order = Some(order);
        self
    }

    pub fn document(self) -> Option<RunDocument> {
        self.document
    }

    fn relative(&self, path: &Path) -> String {
        path.strip_prefix(&self.base)
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

/// Writes a command's JSON document to stdout, as `--format json` does: made whole first, as
/// stdout writes each line it is given at once.
pub fn print_document(document: &impl serde::Serialize) {
    if let Ok(mut text) = serde_json::to_vec_pretty(document) {
        text.push(b'\n');
        let _ = std::io::stdout().lock().write_all(&text);
    }
}

fn tally_report(tally: &Tally) -> TallyReport {
    TallyReport {
        cases: tally.cases,
        accepted: tally.accepted(),
        verdicts: tally.by_verdict().collect(),
        max_cpu_time_ms: milliseconds(tally.max_cpu_time),
        max_peak_memory_bytes: tally.max_peak_memory_bytes,
    }
}

impl Reporter for JsonReporter {
    fn problem_error(&mut self, error: &Error) {
        self.errors.push(error.to_string());
        self.error_places.push(ErrorPlace {
            after_task: self.problems.last().map(|problem| problem.task),
            unloaded: !error.is_of_a_loaded_problem(),
        });
    }

    fn problem_started(
        &mut self,
        problem: &Problem,
        solution: &Path,
        built: Option<ProgramOrigin>,
    ) {
        let place = self.order.as_ref().and_then(|order| {
            order
                .places
                .get(&(problem.dir.clone(), solution.to_path_buf()))
        });
        let task = place.map_or(self.problems.len(), |(task, _)| *task);
        self.places = place.map(|(_, cases)| Arc::clone(cases));
        self.problems.push(ProblemReport {
            id: problem.id.clone(),
            name: problem.name.clone(),
            solution: self.relative(solution),
            dir: self.relative(&problem.dir),
            task,
            status: ProblemStatus::Judged,
            build: built,
            compile_message: None,
            cases: Vec::new(),
            summary: None,
            score: None,
            not_finished: Vec::new(),
        });
    }

    fn compile_error(&mut self, _problem: &Problem, message: &str) {
        if let Some(report) = self.problems.last_mut() {
            report.status = ProblemStatus::CompileError;
            report.compile_message = Some(message.to_owned());
        }
    }

    fn case_finished(&mut self, _problem: &Problem, result: &CaseResult) {
        let Some(report) = self.problems.last_mut() else {
            return;
        };
        let index = self
            .places
            .as_ref()
            .and_then(|places| places.get(&result.name).copied())
            .unwrap_or(report.cases.len());
        report.cases.push(CaseReport::of(result, index));
    }

    fn problem_scored(&mut self, _problem: &Problem, score: &Result<Scorecard, ScoreError>) {
        let report = match score {
            Ok(card) => ScoreReport {
                score: card.score,
                max_score: card.max_score,
                verdict: card.verdict,
                parts: card
                    .parts
                    .iter()
                    .map(|part| PartReport {
                        name: part.name.clone(),
                        score: part.score,
                        max_score: part.max_score,
                    })
                    .collect(),
                error: None,
            },
            Err(error) => ScoreReport {
                score: 0.0,
                max_score: None,
                verdict: None,
                parts: Vec::new(),
                error: Some(error.to_string()),
            },
        };
        if let Some(problem) = self.problems.last_mut() {
            problem.score = Some(report);
        }
    }

    fn problem_finished(&mut self, _problem: &Problem, tally: &Tally) {
        if let Some(report) = self.problems.last_mut() {
            report.summary = Some(tally_report(tally));
        }
    }

    fn problem_stopped(&mut self, stopped: &Stopped) {
        if stopped.judged.is_none() {
            self.problem_started(stopped.problem, stopped.solution, None);
        }
        if let Some(report) = self.problems.last_mut() {
            report.status = ProblemStatus::NotFinished;
            report.summary = stopped.judged.map(tally_report);
            report.not_finished = stopped
                .unfinished
                .iter()
                .map(|&name| name.to_owned())
                .collect();
        }
    }

    fn run_finished(&mut self, summary: &RunSummary) {
        let run = self.run.take().map(|mut run| {
            run.error_places = std::mem::take(&mut self.error_places);
            run.host.containment = summary.containment.map(|held| held.level().to_owned());
            run
        });
        self.document = Some(RunDocument {
            version: SCHEMA_VERSION,
            problems: std::mem::take(&mut self.problems),
            errors: std::mem::take(&mut self.errors),
            summary: SummaryReport {
                problems: summary.problems,
                tally: tally_report(&summary.tally),
                compiled: summary.compiled,
                cached: summary.cached,
                compile_errors: summary.compile_errors,
                errors: summary.errors,
                skipped: summary.skipped,
                interrupted: summary.interrupted,
                not_finished: summary.not_finished,
                wall_time_ms: milliseconds(summary.wall_time),
                outcome: summary.outcome(),
                result_cache: summary.result_cache.clone(),
            },
            containment: summary.containment.map(|held| ContainmentReport {
                level: held.level().to_owned(),
                memory_cgroup: held.memory_cgroup,
                pids_cgroup: held.pids_cgroup,
                namespaces: held.namespaces,
                view: held.view,
                weaker: held.weaker().into_iter().map(str::to_owned).collect(),
                view_refused: summary.view_refused.clone(),
            }),
            run,
        });
    }
}
