//! The JSON report's document (schema: `judge/report.schema.json`), as written by
//! `JsonReporter` and read back by `judge merge` and `judge run --failed`: one set of types
//! serves both, so that what is read is what was written.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Bumped when a field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

/// Where the run keeps its report, below the build cache: what `judge run --failed` reads.
pub const LAST_RUN: &str = "last-run.json";

/// One run's report.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Serialize, Deserialize)]
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

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProblemReport {
    pub id: String,
    pub name: String,
    pub solution: String,
    /// The problem's folder (or package), relative to the repository root when inside it.
    pub dir: String,
    /// The solution's place among every solution of the run before it was cut into shards.
    pub task: usize,
    /// `judged` or `compile_error`.
    pub status: String,
    /// `compiled` or `cached`; null for a compile error.
    pub build: Option<String>,
    pub compile_message: Option<String>,
    pub cases: Vec<CaseReport>,
    pub summary: Option<TallyReport>,
    /// Only for scored problems, so that others' reports keep their shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreReport>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScoreReport {
    pub score: f64,
    pub max_score: Option<f64>,
    pub verdict: Option<String>,
    pub parts: Vec<PartReport>,
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PartReport {
    pub name: String,
    pub score: f64,
    pub max_score: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CaseReport {
    pub name: String,
    /// The case's place among its problem's cases before the run was cut into shards.
    pub index: usize,
    /// The short code: `AC`, `WA`, `TLE`, `MLE`, `OLE`, `RE`, `JE`.
    pub verdict: String,
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
    pub wrong_at: Option<WrongAtReport>,
    pub diff: Vec<DiffLineReport>,
    pub stderr: Option<String>,
    /// The score the output validator gave (`score.txt` or `score_multiplier.txt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validator_score: Option<ValidatorScoreReport>,
    /// In a merged report, the host of a verdict near the time limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged_on: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WrongAtReport {
    pub line: usize,
    pub case_label: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ValidatorScoreReport {
    /// `score` or `multiplier`.
    pub kind: String,
    pub value: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DiffLineReport {
    /// `both`, `expected` or `actual`.
    pub side: String,
    pub line: usize,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TallyReport {
    pub cases: usize,
    pub accepted: usize,
    pub verdicts: BTreeMap<String, usize>,
    pub max_cpu_time_ms: f64,
    pub max_peak_memory_bytes: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
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
    pub wall_time_ms: f64,
    /// `accepted`, `rejected` or `error`: the exit code's meaning.
    pub outcome: String,
}

/// What a run was, beyond its results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The judge's version (`judge --version`).
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
    /// `count` (cases dealt in order) or `hash` (by each case's identity).
    pub dealing: String,
    /// 1-based.
    pub shard: usize,
    pub shards: usize,
    /// For `count` shards balanced by an earlier report's times (`--balance`): the
    /// fingerprint of the costs they were cut by.
    #[serde(default)]
    pub balanced_by: Option<String>,
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
