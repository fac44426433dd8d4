//! The report for machines: one JSON document (`RunDocument`, schema:
//! `judge/report.schema.json`), written by `JsonReporter` when the run ends (to stdout, to a
//! file, or kept for a command whose own document holds it), and read back by `judge merge`,
//! `run --failed` and `--balance` with the same types. Verdicts, statuses and the like are
//! enums, so that a value no run writes fails the read instead of passing as some default.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{ProgramOrigin, Reporter, RunSummary, Stopped};
use crate::compare::diff::DiffLine;
use crate::error::{Error, Outcome, Result};
use crate::judging::scorecard::{ScoreError, ScorePart, Scorecard, ValidatorScore};
use crate::judging::verdict::{Verdict, VerdictKind};
use crate::judging::{CaseResult, Failure, Tally, WrongAt};
use crate::problem::Problem;
use crate::sandbox::Termination;

/// Bumped when a field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

/// Where the run keeps its report, below the build cache: what `judge run --failed` reads.
pub const LAST_RUN: &str = "last-run.json";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunDocument {
    pub version: u32,
    pub problems: Vec<ProblemReport>,
    pub errors: Vec<String>,
    pub summary: SummaryReport,
    /// What held the programs judged; null when none ran.
    pub containment: Option<ContainmentReport>,
    /// What the run was: its place in a sharded run, its case list, its host. Absent from
    /// the run that `judge check` reports inside its own document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<RunRecord>,
}

/// How far the run can be trusted (see `sandbox::Containment`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContainmentReport {
    /// `cgroup+namespaces` (full), `namespaces`, `cgroup` or `rlimits`.
    pub level: String,
    pub memory_cgroup: bool,
    pub pids_cgroup: bool,
    pub namespaces: bool,
    pub view: bool,
    /// What is weaker than at the full level, one phrase each (empty at the full level).
    pub weaker: Vec<String>,
    /// Why the programs did not get the file system view, if they did not.
    pub view_refused: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProblemReport {
    pub id: String,
    pub name: String,
    pub solution: String,
    /// The problem's folder (or package), relative to the repository root when inside it.
    pub dir: String,
    /// The solution's place among every solution of the run before it was cut into shards.
    pub task: usize,
    pub status: ProblemStatus,
    /// Null for a compile error.
    pub build: Option<ProgramOrigin>,
    pub compile_message: Option<String>,
    pub cases: Vec<CaseReport>,
    pub summary: Option<TallyReport>,
    /// Only for scored problems, so that others' reports keep their shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreReport>,
    /// The cases a stop left unjudged (status `not_finished`); absent from a whole run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_finished: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemStatus {
    Judged,
    CompileError,
    /// Stopped before all its cases were judged: `not_finished` names the rest.
    NotFinished,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreReport {
    pub score: f64,
    pub max_score: Option<f64>,
    pub verdict: Option<VerdictKind>,
    pub parts: Vec<ScorePart>,
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseReport {
    pub name: String,
    /// The case's place among its problem's cases before the run was cut into shards.
    pub index: usize,
    /// Written as its short code: `AC`, `WA`, `TLE`, `MLE`, `OLE`, `RE`, `JE`.
    pub verdict: VerdictKind,
    /// The full verdict: `RE (SIGSEGV)`.
    pub verdict_text: String,
    /// For `RE`: the exit code or the signal that ended the program.
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub confirmed: bool,
    /// A time limit verdict that the machine's load cannot have caused.
    pub beyond_load: bool,
    pub cpu_time_ms: f64,
    pub wall_time_ms: f64,
    pub peak_memory_bytes: u64,
    pub message: Option<String>,
    /// For a wrong answer found by comparing: the expected output's line where it starts.
    pub wrong_at: Option<WrongAt>,
    pub diff: Vec<DiffLine>,
    pub stderr: Option<String>,
    /// The score the output validator gave (`score.txt` or `score_multiplier.txt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validator_score: Option<ValidatorScore>,
    /// In a merged report, the host of a verdict near the time limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged_on: Option<String>,
    /// The verdict and figures are an earlier run's, from the result cache.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
}

/// A duration in milliseconds, to the microsecond, as the reports write them.
pub(crate) fn milliseconds(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1e6).round() / 1e3
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TallyReport {
    pub cases: usize,
    pub accepted: usize,
    #[serde(serialize_with = "by_code")]
    pub verdicts: BTreeMap<VerdictKind, usize>,
    pub max_cpu_time_ms: f64,
    pub max_peak_memory_bytes: u64,
}

/// The counts by code, in the codes' alphabetical order as reports have always listed them
/// (not the kinds' own order).
fn by_code<S: serde::Serializer>(
    counts: &BTreeMap<VerdictKind, usize>,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    let by_code: BTreeMap<&str, usize> = counts
        .iter()
        .map(|(kind, count)| (kind.code(), *count))
        .collect();
    serializer.collect_map(by_code)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryReport {
    pub problems: usize,
    #[serde(flatten)]
    pub tally: TallyReport,
    pub compiled: usize,
    pub cached: usize,
    pub compile_errors: usize,
    pub errors: usize,
    pub skipped: usize,
    /// The signal that stopped the run early, if one did.
    #[serde(default)]
    pub interrupted: Option<i32>,
    /// Cases the stop left unjudged; absent from a whole run.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub not_finished: usize,
    pub wall_time_ms: f64,
    /// The exit code's meaning.
    pub outcome: Outcome,
    /// What the result cache did; absent where it was not used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_cache: Option<CacheRecord>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CacheRecord {
    /// Cases whose kept result was reused.
    pub reused: usize,
    /// Cases with a kept result judged again all the same, as the audit's sample.
    pub sampled: usize,
    /// What drew the sample (`JUDGE_CACHE_SEED` draws the same one again).
    pub seed: u64,
    /// A sample that disagreed with its kept result, each; its problem's results were
    /// dropped.
    pub dropped: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub judge_version: String,
    /// The shard this run judged, when it judged one (`--partition`).
    pub partition: Option<PartitionRecord>,
    /// The whole case list the run was cut from.
    pub case_list: CaseListRecord,
    pub host: HostRecord,
    /// Where each of `errors` stood among the solutions, beside it.
    pub error_places: Vec<ErrorPlace>,
    /// For a merged report: the shards it was made of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<MergedRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionRecord {
    pub dealing: Dealing,
    /// 1-based.
    pub shard: usize,
    pub shards: usize,
    /// For `count` shards balanced by an earlier report's times (`--balance`): the
    /// fingerprint of the costs they were cut by.
    #[serde(default)]
    pub balanced_by: Option<String>,
}

/// How cases are dealt to shards (`runner::shard` deals them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dealing {
    /// The `i`-th case of the run to shard `i mod N`.
    Count,
    /// Each case to the shard its identity's hash names.
    Hash,
}

impl Dealing {
    /// As `--partition` and the report write it.
    pub fn name(self) -> &'static str {
        match self {
            Dealing::Count => "count",
            Dealing::Hash => "hash",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseListRecord {
    /// A hash of every (problem, solution, case) in order: shards of one run agree on it.
    pub fingerprint: String,
    pub solutions: usize,
    pub cases: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HostRecord {
    pub name: String,
    pub cpu_model: Option<String>,
    pub cores: usize,
    /// The containment level its programs ran at, when any ran.
    pub containment: Option<String>,
    /// Milliseconds of CPU time a fixed loop took at the start (shards only): hosts whose
    /// figures differ run programs at different speeds.
    pub calibration_ms: Option<f64>,
}

impl HostRecord {
    /// The machine this judge runs on; a shard adds its calibration when the loop is done
    /// (`runner::plan::calibrate`).
    pub fn this_machine() -> HostRecord {
        HostRecord {
            name: rustix::system::uname()
                .nodename()
                .to_string_lossy()
                .into_owned(),
            cpu_model: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            containment: None,
            calibration_ms: None,
        }
    }
}

/// As `/proc/cpuinfo` names it.
pub fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find_map(|line| line.strip_prefix("model name"))
        .and_then(|rest| rest.split_once(':'))
        .map(|(_, model)| model.trim().to_owned())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorPlace {
    /// The solution (`task`) reported just before it, if any.
    pub after_task: Option<usize>,
    /// It stands for a problem that could not be loaded (and so counts as a problem).
    pub unloaded: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MergedRecord {
    pub shards: Vec<ShardRecord>,
    /// Some shard was missing (`--allow-partial`): these, 1-based.
    pub missing: Vec<usize>,
    /// The shards' hosts ran a fixed loop at speeds this far apart (slowest over fastest).
    pub speed_ratio: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardRecord {
    pub shard: usize,
    pub file: String,
    pub host: HostRecord,
    pub wall_time_ms: f64,
}

impl CaseReport {
    pub fn of(result: &CaseResult, index: usize) -> CaseReport {
        let failure = result.failure.as_ref();
        let (exit_code, signal) = match result.verdict {
            Verdict::RuntimeError(Termination::Exited(code)) => (Some(code), None),
            Verdict::RuntimeError(Termination::Signaled(signal)) => (None, Some(signal)),
            _ => (None, None),
        };
        CaseReport {
            name: result.name.clone(),
            index,
            verdict: result.verdict.kind(),
            verdict_text: result.verdict.to_string(),
            exit_code,
            signal,
            confirmed: result.confirmed,
            beyond_load: result.beyond_load,
            cpu_time_ms: milliseconds(result.cpu_time),
            wall_time_ms: milliseconds(result.wall_time),
            peak_memory_bytes: result.peak_memory_bytes,
            message: failure.map(|f| f.message.clone()),
            wrong_at: failure.and_then(|f| f.mismatch.clone()),
            diff: failure.map_or_else(Vec::new, |f| f.diff.clone()),
            stderr: failure.map(|f| f.stderr.clone()).filter(|s| !s.is_empty()),
            validator_score: result.score,
            judged_on: None,
            cached: result.cached,
        }
    }

    /// The case as the judge found it, for a report read back; `None` for what no run
    /// writes: a compile error as a case's verdict, a runtime error with neither an exit
    /// code nor a signal.
    pub fn result(&self) -> Option<CaseResult> {
        let verdict = match self.verdict {
            VerdictKind::Accepted => Verdict::Accepted,
            VerdictKind::WrongAnswer => Verdict::WrongAnswer,
            VerdictKind::TimeLimitExceeded => Verdict::TimeLimitExceeded,
            VerdictKind::MemoryLimitExceeded => Verdict::MemoryLimitExceeded,
            VerdictKind::OutputLimitExceeded => Verdict::OutputLimitExceeded,
            VerdictKind::JudgeError => Verdict::JudgeError,
            VerdictKind::RuntimeError => {
                Verdict::RuntimeError(match (self.exit_code, self.signal) {
                    (Some(code), _) => Termination::Exited(code),
                    (None, Some(signal)) => Termination::Signaled(signal),
                    (None, None) => return None,
                })
            }
            VerdictKind::CompileError => return None,
        };
        let failure = self.message.as_ref().map(|message| Failure {
            message: message.clone(),
            mismatch: self.wrong_at.clone(),
            diff: self.diff.clone(),
            stderr: self.stderr.clone().unwrap_or_default(),
        });
        let seconds = |ms: f64| Duration::from_secs_f64(ms.max(0.0) / 1e3);
        Some(CaseResult {
            name: self.name.clone(),
            verdict,
            cpu_time: seconds(self.cpu_time_ms),
            wall_time: seconds(self.wall_time_ms),
            peak_memory_bytes: self.peak_memory_bytes,
            confirmed: self.confirmed,
            beyond_load: self.beyond_load,
            failure,
            score: self.validator_score,
            cached: self.cached,
        })
    }
}

impl RunDocument {
    /// A report read from `file`, which must be one of `judge run`'s.
    pub fn read(file: &Path) -> Result<RunDocument> {
        let text =
            crate::atomic_write::read_locked(file).map_err(|error| Error::io(file, error))?;
        let document: RunDocument = serde_json::from_str(&text).map_err(|error| Error::Parse {
            path: file.to_path_buf(),
            line: Some(error.line()),
            message: format!("not a report of `judge run --format json`: {error}"),
        })?;
        if document.version != SCHEMA_VERSION {
            return Err(Error::Parse {
                path: file.to_path_buf(),
                line: None,
                message: format!(
                    "a report of version {}, this judge reads version {SCHEMA_VERSION}",
                    document.version
                ),
            });
        }
        Ok(document)
    }
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

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
                parts: card.parts.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::diff::Side;

    /// A runtime error's case, with every optional part filled in.
    fn case() -> CaseReport {
        CaseReport {
            name: "sample/1".to_owned(),
            index: 0,
            verdict: VerdictKind::RuntimeError,
            verdict_text: "RE (SIGSEGV)".to_owned(),
            exit_code: None,
            signal: Some(11),
            confirmed: true,
            beyond_load: false,
            cpu_time_ms: 1.5,
            wall_time_ms: 2.0,
            peak_memory_bytes: 4096,
            message: Some("killed by SIGSEGV".to_owned()),
            wrong_at: Some(WrongAt {
                line: 2,
                case_label: Some("#2".to_owned()),
            }),
            diff: [Side::Both, Side::Expected, Side::Actual]
                .into_iter()
                .map(|side| DiffLine {
                    side,
                    number: 2,
                    text: "1 2".to_owned(),
                })
                .collect(),
            stderr: Some("panicked".to_owned()),
            cached: false,
            validator_score: Some(ValidatorScore::Multiplier(0.5)),
            judged_on: Some("ci-1".to_owned()),
        }
    }

    /// A document with a value of every kind each typed field takes.
    fn document() -> RunDocument {
        let tally = TallyReport {
            cases: 2,
            accepted: 1,
            verdicts: [(VerdictKind::WrongAnswer, 1), (VerdictKind::JudgeError, 1)].into(),
            max_cpu_time_ms: 1.5,
            max_peak_memory_bytes: 4096,
        };
        let judged = ProblemReport {
            id: "a".to_owned(),
            name: "A".to_owned(),
            solution: "solutions/a.rs".to_owned(),
            dir: "problems/a".to_owned(),
            task: 0,
            status: ProblemStatus::Judged,
            build: Some(ProgramOrigin::Cached),
            compile_message: None,
            cases: vec![case()],
            summary: Some(tally.clone()),
            score: Some(ScoreReport {
                score: 40.0,
                max_score: Some(100.0),
                verdict: Some(VerdictKind::TimeLimitExceeded),
                parts: vec![ScorePart {
                    name: "group1".to_owned(),
                    score: 40.0,
                    max_score: None,
                }],
                error: None,
            }),
            not_finished: Vec::new(),
        };
        let stopped = ProblemReport {
            task: 2,
            status: ProblemStatus::NotFinished,
            score: None,
            not_finished: vec!["random/2".to_owned(), "random/3".to_owned()],
            ..judged.clone()
        };
        let unbuilt = ProblemReport {
            task: 1,
            status: ProblemStatus::CompileError,
            build: None,
            compile_message: Some("error[E0425]".to_owned()),
            cases: Vec::new(),
            summary: None,
            score: None,
            ..judged.clone()
        };
        RunDocument {
            version: SCHEMA_VERSION,
            problems: vec![judged, unbuilt, stopped],
            errors: vec!["problems/b: no problem.toml".to_owned()],
            summary: SummaryReport {
                problems: 2,
                tally,
                compiled: 0,
                cached: 1,
                compile_errors: 1,
                errors: 1,
                skipped: 0,
                interrupted: Some(15),
                not_finished: 2,
                wall_time_ms: 10.0,
                outcome: Outcome::Error,
                result_cache: None,
            },
            containment: None,
            run: Some(RunRecord {
                partition: Some(PartitionRecord {
                    dealing: Dealing::Hash,
                    shard: 2,
                    shards: 3,
                    balanced_by: None,
                }),
                ..RunRecord::default()
            }),
        }
    }

    /// Writes `text` as a report file in `dir`.
    fn report_file(dir: &tempfile::TempDir, text: &str) -> std::path::PathBuf {
        let file = dir.path().join("report.json");
        std::fs::write(&file, text).unwrap();
        file
    }

    #[test]
    fn a_report_read_back_is_the_one_written() {
        let written = document();
        let text = serde_json::to_string(&written).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let read = RunDocument::read(&report_file(&dir, &text)).unwrap();
        assert_eq!(read, written);
        assert_eq!(serde_json::to_string(&read).unwrap(), text);
        let case = &read.problems[0].cases[0];
        let result = case.result().expect("a case a run writes");
        assert_eq!(
            result.verdict,
            Verdict::RuntimeError(Termination::Signaled(11))
        );
        assert_eq!(result.verdict.to_string(), case.verdict_text);
    }

    #[test]
    fn verdict_counts_are_written_in_the_order_of_their_codes() {
        let text = serde_json::to_string(&document().summary).unwrap();
        assert!(text.contains(r#""verdicts":{"JE":1,"WA":1}"#), "{text}");
    }

    #[test]
    fn an_unknown_value_read_back_is_an_error_naming_the_file() {
        let text = serde_json::to_string(&document()).unwrap();
        for (known, unknown) in [
            (r#""verdict":"RE""#, r#""verdict":"XX""#),
            (r#""status":"judged""#, r#""status":"judging""#),
            (r#""side":"expected""#, r#""side":"left""#),
            (r#""kind":"multiplier""#, r#""kind":"bonus""#),
            (r#""outcome":"error""#, r#""outcome":"fine""#),
            (r#""dealing":"hash""#, r#""dealing":"round-robin""#),
        ] {
            assert!(text.contains(known), "{known} in {text}");
            let dir = tempfile::tempdir().unwrap();
            let file = report_file(&dir, &text.replacen(known, unknown, 1));
            let error = RunDocument::read(&file).expect_err(unknown);
            assert!(
                matches!(&error, Error::Parse { path, .. } if *path == file),
                "{unknown}: {error:?}"
            );
            let message = error.to_string();
            assert!(message.contains("report.json"), "{message}");
            let value = unknown.split(':').nth(1).unwrap().trim_matches('"');
            assert!(message.contains(value), "{message}");
        }
    }
}
