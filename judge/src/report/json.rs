//! The report for machines: one JSON document (schema: `judge/report.schema.json`, described
//! in the README), written when the run ends.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::Reporter;
use super::RunSummary;
use crate::compare::diff::{DiffLine, Side};
use crate::error::{Error, Outcome};
use crate::judging::scorecard::{ScoreError, Scorecard};
use crate::judging::{CaseResult, Tally};
use crate::problem::Problem;
use crate::toolchain::program::Program;

/// Bumped when a field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

pub struct JsonReporter {
    problems: Vec<ProblemReport>,
    errors: Vec<String>,
    /// Paths are given relative to this folder.
    base: std::path::PathBuf,
    /// Kept instead of printed, for a command whose own document holds it (`check`).
    kept: Option<Option<serde_json::Value>>,
}

impl JsonReporter {
    pub fn new(base: std::path::PathBuf) -> Self {
        JsonReporter {
            problems: Vec::new(),
            errors: Vec::new(),
            base,
            kept: None,
        }
    }

    /// A reporter that keeps its document for `document` instead of printing it.
    pub fn keeping(base: std::path::PathBuf) -> Self {
        JsonReporter {
            kept: Some(None),
            ..JsonReporter::new(base)
        }
    }

    /// The document of a finished run, when made by `keeping`.
    pub fn document(self) -> Option<serde_json::Value> {
        self.kept.flatten()
    }
}

#[derive(Serialize)]
struct RunDocument<'a> {
    version: u32,
    problems: &'a [ProblemReport],
    errors: &'a [String],
    summary: SummaryReport,
    /// What held the programs judged; null when none ran.
    containment: Option<ContainmentReport>,
}

/// How far the run can be trusted (see `sandbox::Containment`).
#[derive(Serialize)]
struct ContainmentReport {
    /// `cgroup+namespaces` (full), `namespaces`, `cgroup` or `rlimits`.
    level: &'static str,
    memory_cgroup: bool,
    pids_cgroup: bool,
    namespaces: bool,
    view: bool,
    /// What is weaker than at the full level, one phrase each (empty at the full level).
    weaker: Vec<&'static str>,
    /// Why the programs did not get the file system view, if they did not.
    view_refused: Option<String>,
}

#[derive(Serialize)]
struct ProblemReport {
    id: String,
    name: String,
    solution: String,
    /// `judged` or `compile_error`.
    status: &'static str,
    compile_message: Option<String>,
    cases: Vec<CaseReport>,
    summary: Option<TallyReport>,
    /// Only for scored problems, so that others' reports keep their shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<ScoreReport>,
}

#[derive(Serialize)]
struct ScoreReport {
    score: f64,
    max_score: Option<f64>,
    verdict: Option<&'static str>,
    parts: Vec<PartReport>,
    error: Option<String>,
}

#[derive(Serialize)]
struct PartReport {
    name: String,
    score: f64,
    max_score: Option<f64>,
}

#[derive(Serialize)]
struct CaseReport {
    name: String,
    /// The short code: `AC`, `WA`, `TLE`, `MLE`, `OLE`, `RE`, `JE`.
    verdict: &'static str,
    /// The full verdict: `RE (SIGSEGV)`.
    verdict_text: String,
    confirmed: bool,
    cpu_time_ms: f64,
    wall_time_ms: f64,
    peak_memory_bytes: u64,
    message: Option<String>,
    diff: Vec<DiffLineReport>,
    stderr: Option<String>,
}

#[derive(Serialize)]
struct DiffLineReport {
    /// `both`, `expected` or `actual`.
    side: &'static str,
    line: usize,
    text: String,
}

#[derive(Serialize)]
struct TallyReport {
    cases: usize,
    accepted: usize,
    verdicts: std::collections::BTreeMap<&'static str, usize>,
    max_cpu_time_ms: f64,
    max_peak_memory_bytes: u64,
}

#[derive(Serialize)]
struct SummaryReport {
    problems: usize,
    #[serde(flatten)]
    tally: TallyReport,
    compiled: usize,
    cached: usize,
    compile_errors: usize,
    errors: usize,
    skipped: usize,
    wall_time_ms: f64,
    /// `accepted`, `rejected` or `error`: the exit code's meaning.
    outcome: &'static str,
}

fn milliseconds(duration: std::time::Duration) -> f64 {
    (duration.as_secs_f64() * 1e6).round() / 1e3
}

fn tally_report(tally: &Tally) -> TallyReport {
    TallyReport {
        cases: tally.cases,
        accepted: tally.accepted(),
        verdicts: tally
            .by_verdict()
            .map(|(kind, count)| (kind.code(), count))
            .collect(),
        max_cpu_time_ms: milliseconds(tally.max_cpu_time),
        max_peak_memory_bytes: tally.max_peak_memory_bytes,
    }
}

fn diff_line(line: &DiffLine) -> DiffLineReport {
    DiffLineReport {
        side: match line.side {
            Side::Both => "both",
            Side::Expected => "expected",
            Side::Actual => "actual",
        },
        line: line.number,
        text: line.text.clone(),
    }
}

impl Reporter for JsonReporter {
    fn problem_error(&mut self, error: &Error) {
        self.errors.push(error.to_string());
    }

    fn problem_started(&mut self, problem: &Problem, solution: &Path, _program: Option<&Program>) {
        self.problems.push(ProblemReport {
            id: problem.id.clone(),
            name: problem.name.clone(),
            solution: solution
                .strip_prefix(&self.base)
                .unwrap_or(solution)
                .display()
                .to_string(),
            status: "judged",
            compile_message: None,
            cases: Vec::new(),
            summary: None,
            score: None,
        });
    }

    fn compile_error(&mut self, _problem: &Problem, message: &str) {
        if let Some(report) = self.problems.last_mut() {
            report.status = "compile_error";
            report.compile_message = Some(message.to_owned());
        }
    }

    fn case_finished(&mut self, _problem: &Problem, result: &CaseResult) {
        let failure = result.failure.as_ref();
        let case = CaseReport {
            name: result.name.clone(),
            verdict: result.verdict.code(),
            verdict_text: result.verdict.to_string(),
            confirmed: result.confirmed,
            cpu_time_ms: milliseconds(result.cpu_time),
            wall_time_ms: milliseconds(result.wall_time),
            peak_memory_bytes: result.peak_memory_bytes,
            message: failure.map(|f| f.message.clone()),
            diff: failure.map_or_else(Vec::new, |f| f.diff.iter().map(diff_line).collect()),
            stderr: failure.map(|f| f.stderr.clone()).filter(|s| !s.is_empty()),
        };
        if let Some(report) = self.problems.last_mut() {
            report.cases.push(case);
        }
    }

    fn problem_scored(&mut self, _problem: &Problem, score: &Result<Scorecard, ScoreError>) {
        let report = match score {
            Ok(card) => ScoreReport {
                score: card.score,
                max_score: card.max_score,
                verdict: card.verdict.map(|kind| kind.code()),
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

    fn run_finished(&mut self, summary: &RunSummary) {
        let document = RunDocument {
            version: SCHEMA_VERSION,
            problems: &self.problems,
            errors: &self.errors,
            summary: SummaryReport {
                problems: summary.problems,
                tally: tally_report(&summary.tally),
                compiled: summary.compiled,
                cached: summary.cached,
                compile_errors: summary.compile_errors,
                errors: summary.errors,
                skipped: summary.skipped,
                wall_time_ms: milliseconds(summary.wall_time),
                outcome: match summary.outcome() {
                    Outcome::Accepted => "accepted",
                    Outcome::Rejected => "rejected",
                    Outcome::Error => "error",
                },
            },
            containment: summary.containment.map(|held| ContainmentReport {
                level: held.level(),
                memory_cgroup: held.memory_cgroup,
                pids_cgroup: held.pids_cgroup,
                namespaces: held.namespaces,
                view: held.view,
                weaker: held.weaker(),
                view_refused: summary.view_refused.clone(),
            }),
        };
        if let Some(kept) = &mut self.kept {
            *kept = serde_json::to_value(&document).ok();
            return;
        }
        let mut out = std::io::stdout().lock();
        let _ = serde_json::to_writer_pretty(&mut out, &document);
        let _ = writeln!(out);
    }
}
