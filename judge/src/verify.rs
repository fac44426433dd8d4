//! `judge verify`: every submission in a Kattis package's `submissions/<verdict>/` folders
//! must get the verdict its folder promises.
//!
//! Each submission is judged on its own and its row is made from its own result, so that a
//! submission that cannot be judged (no toolchain, unknown language, a build fault) stands in
//! its own row and can never shift another's expectation.

use std::path::{Path, PathBuf};

use crate::compile::Compiler;
use crate::error::{Error, Result};
use crate::kattis::{submissions_in, SUBMISSIONS_DIR};
use crate::problem::Problem;
use crate::report::{Collector, SolutionVerdicts};
use crate::runner::{judge_all, Settings, Task};
use crate::sources::Sources;
use crate::verdict::VerdictKind;

/// The verdict folders of the package format, and the verdict each promises.
const FOLDERS: &[(&str, Promise)] = &[
    ("accepted", Promise::Accepted),
    ("wrong_answer", Promise::Some(VerdictKind::WrongAnswer)),
    (
        "time_limit_exceeded",
        Promise::Some(VerdictKind::TimeLimitExceeded),
    ),
    ("run_time_error", Promise::Some(VerdictKind::RuntimeError)),
    (
        "memory_limit_exceeded",
        Promise::Some(VerdictKind::MemoryLimitExceeded),
    ),
    (
        "output_limit_exceeded",
        Promise::Some(VerdictKind::OutputLimitExceeded),
    ),
    ("compile_error", Promise::CompileError),
    ("rejected", Promise::Rejected),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Promise {
    /// Every case AC.
    Accepted,
    /// At least one case gets this verdict, and every other case AC or this verdict: no worse
    /// surprise.
    Some(VerdictKind),
    CompileError,
    /// Anything but accepted.
    Rejected,
}

/// How a row came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Judged, and the promise was kept.
    Kept,
    /// Judged, and the promise was broken.
    Mismatch,
    /// Not judged, for a reason of the machine or the package that is not the submission's
    /// fault (`no kotlinc`): shown, not counted as a mismatch.
    Skipped(String),
    /// The harness or the package failed while judging it (exit 2).
    Error(String),
}

/// One row of the verify table.
#[derive(Debug, Clone)]
pub struct Row {
    pub submission: PathBuf,
    /// The folder the submission is in: its promise.
    pub expected: String,
    pub got: String,
    pub outcome: Outcome,
}

/// Judges every submission of the package and checks each against its folder.
pub fn verify(problem: &Problem, compiler: &Compiler, jobs: usize) -> Result<Vec<Row>> {
    let root = problem.dir.join(SUBMISSIONS_DIR);
    let mut rows = Vec::new();
    for folder in submissions_in(&root)
        .into_iter()
        .filter(|path| path.is_dir())
    {
        let name = file_name(&folder);
        let Some(&(_, promise)) = FOLDERS.iter().find(|(known, _)| *known == name) else {
            rows.push(Row {
                submission: folder,
                expected: name,
                got: "not judged".into(),
                outcome: Outcome::Skipped("no verdict is known for this folder".into()),
            });
            continue;
        };
        for submission in submissions_in(&folder) {
            let outcome = judge_one(problem, &submission, promise, compiler, jobs);
            rows.push(Row {
                submission,
                expected: name.clone(),
                got: outcome.0,
                outcome: outcome.1,
            });
        }
    }
    Ok(rows)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// What one submission got, and whether that keeps its promise.
fn judge_one(
    problem: &Problem,
    submission: &Path,
    promise: Promise,
    compiler: &Compiler,
    jobs: usize,
) -> (String, Outcome) {
    if let Some(reason) = unjudgeable(submission) {
        return ("not judged".into(), Outcome::Skipped(reason));
    }
    let mut collector = Collector::default();
    let task = Task {
        problem: problem.clone(),
        solution: submission.to_path_buf(),
    };
    judge_all(
        vec![Ok(task)],
        compiler,
        &Settings {
            jobs,
            fail_fast: true,
        },
        &mut collector,
    );
    if let Some(error) = collector.errors.into_iter().next() {
        return ("error".into(), Outcome::Error(error));
    }
    match collector.solutions.first() {
        Some(verdicts) if keeps(promise, verdicts) => (describe(verdicts), Outcome::Kept),
        Some(verdicts) => (describe(verdicts), Outcome::Mismatch),
        None => (
            "error".into(),
            Outcome::Error("the submission was not judged".into()),
        ),
    }
}

/// Why a submission cannot be judged on this machine, if it cannot.
fn unjudgeable(submission: &Path) -> Option<String> {
    let sources = match Sources::read(submission) {
        Ok(sources) => sources,
        // The reason without the path: the row already names the submission.
        Err(Error::Invalid { message, .. }) => {
            return Some(message.split(':').next().unwrap_or_default().to_owned())
        }
        Err(error) => return Some(error.to_string()),
    };
    sources
        .language
        .missing_tool()
        .map(|tool| format!("no {tool}"))
}

fn keeps(promise: Promise, verdicts: &SolutionVerdicts) -> bool {
    let kinds: Vec<VerdictKind> = verdicts.verdicts.iter().map(|v| v.kind()).collect();
    let accepted = |kind: &VerdictKind| *kind == VerdictKind::Accepted;
    match promise {
        Promise::CompileError => verdicts.compile_error,
        _ if verdicts.compile_error || kinds.is_empty() => false,
        Promise::Accepted => kinds.iter().all(accepted),
        Promise::Rejected => !kinds.iter().all(accepted),
        Promise::Some(verdict) => {
            kinds.contains(&verdict) && kinds.iter().all(|kind| accepted(kind) || *kind == verdict)
        }
    }
}

fn describe(verdicts: &SolutionVerdicts) -> String {
    if verdicts.compile_error {
        return "CE".into();
    }
    verdicts
        .tally
        .by_verdict()
        .map(|(kind, count)| format!("{kind} {count}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Termination;
    use crate::verdict::Verdict;

    const AC: Verdict = Verdict::Accepted;
    const WA: Verdict = Verdict::WrongAnswer;
    const TLE: Verdict = Verdict::TimeLimitExceeded;
    const MLE: Verdict = Verdict::MemoryLimitExceeded;
    const RE: Verdict = Verdict::RuntimeError(Termination::Exited(1));
    const SOME_WA: Promise = Promise::Some(VerdictKind::WrongAnswer);

    fn got(verdicts: &[Verdict]) -> SolutionVerdicts {
        SolutionVerdicts {
            verdicts: verdicts.to_vec(),
            ..SolutionVerdicts::default()
        }
    }

    #[test]
    fn promises_are_kept_only_without_surprises() {
        assert!(keeps(Promise::Accepted, &got(&[AC, AC])));
        assert!(!keeps(Promise::Accepted, &got(&[AC, WA])));
        assert!(keeps(SOME_WA, &got(&[AC, WA])));
        assert!(
            !keeps(SOME_WA, &got(&[AC, AC])),
            "a wrong answer must fail somewhere"
        );
        assert!(!keeps(SOME_WA, &got(&[WA, RE])), "no worse surprise");
        assert!(!keeps(
            Promise::Some(VerdictKind::TimeLimitExceeded),
            &got(&[WA, TLE])
        ));
        assert!(keeps(
            Promise::Some(VerdictKind::RuntimeError),
            &got(&[AC, RE])
        ));
        assert!(keeps(Promise::Rejected, &got(&[AC, MLE])));
        let compile_error = SolutionVerdicts {
            compile_error: true,
            ..SolutionVerdicts::default()
        };
        assert!(keeps(Promise::CompileError, &compile_error));
        assert!(!keeps(Promise::Accepted, &compile_error));
        assert!(
            !keeps(Promise::Accepted, &got(&[])),
            "judging nothing proves nothing"
        );
    }

    #[test]
    fn what_cannot_be_judged_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let unknown = dir.path().join("notes.txt");
        std::fs::write(&unknown, "").unwrap();
        assert_eq!(unjudgeable(&unknown).as_deref(), Some("unknown language"));
        let folder = dir.path().join("mixed");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("a.py"), "").unwrap();
        std::fs::write(folder.join("b.c"), "").unwrap();
        assert_eq!(
            unjudgeable(&folder).as_deref(),
            Some("cannot tell this folder's language")
        );
    }
}
