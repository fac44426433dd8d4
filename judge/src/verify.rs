//! `judge verify`: every submission in a Kattis package's `submissions/<verdict>/` folders
//! must get the verdict its folder promises.

use std::path::PathBuf;

use crate::compile::Compiler;
use crate::error::Result;
use crate::kattis::{submissions_in, SUBMISSIONS_DIR};
use crate::problem::Problem;
use crate::report::{Collector, SolutionVerdicts};
use crate::runner::{judge_all, Settings, Task};

/// The verdict folders of the package format, and the verdict each promises.
const FOLDERS: &[(&str, Promise)] = &[
    ("accepted", Promise::Accepted),
    ("wrong_answer", Promise::Some("WA")),
    ("time_limit_exceeded", Promise::Some("TLE")),
    ("run_time_error", Promise::Some("RE")),
    ("memory_limit_exceeded", Promise::Some("MLE")),
    ("output_limit_exceeded", Promise::Some("OLE")),
    ("compile_error", Promise::CompileError),
    ("rejected", Promise::Rejected),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Promise {
    /// Every case AC.
    Accepted,
    /// At least one case gets this verdict, and every other case AC or this verdict: no worse
    /// surprise.
    Some(&'static str),
    CompileError,
    /// Anything but accepted.
    Rejected,
}

/// One row of the verify table.
#[derive(Debug, Clone)]
pub struct Row {
    pub submission: PathBuf,
    pub expected: String,
    pub got: String,
    pub ok: bool,
}

/// Judges every submission of the package and checks each against its folder.
pub fn verify(
    problem: &Problem,
    compiler: &Compiler,
    jobs: usize,
) -> Result<(Vec<Row>, Vec<String>)> {
    let root = problem.dir.join(SUBMISSIONS_DIR);
    let mut rows = Vec::new();
    let mut tasks = Vec::new();
    let mut promises = Vec::new();
    for folder in submissions_in(&root)
        .into_iter()
        .filter(|path| path.is_dir())
    {
        let name = folder
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let Some(&(_, promise)) = FOLDERS.iter().find(|(known, _)| *known == name) else {
            rows.push(Row {
                submission: folder,
                expected: name,
                got: "not judged".into(),
                ok: false,
            });
            continue;
        };
        for submission in submissions_in(&folder) {
            tasks.push(Ok(Task {
                problem: problem.clone(),
                solution: submission,
            }));
            promises.push((name.clone(), promise));
        }
    }
    let mut collector = Collector::default();
    judge_all(
        tasks,
        compiler,
        &Settings {
            jobs,
            fail_fast: true,
        },
        &mut collector,
    );
    for (verdicts, (folder, promise)) in collector.solutions.iter().zip(promises) {
        rows.push(Row {
            submission: verdicts.solution.clone(),
            expected: folder,
            got: describe(verdicts),
            ok: keeps(promise, verdicts),
        });
    }
    Ok((rows, collector.errors))
}

fn keeps(promise: Promise, verdicts: &SolutionVerdicts) -> bool {
    let codes = &verdicts.codes();
    match promise {
        Promise::CompileError => verdicts.compile_error,
        _ if verdicts.compile_error || codes.is_empty() => false,
        Promise::Accepted => codes.iter().all(|code| *code == "AC"),
        Promise::Rejected => codes.iter().any(|code| *code != "AC"),
        Promise::Some(verdict) => {
            codes.contains(&verdict) && codes.iter().all(|code| *code == "AC" || *code == verdict)
        }
    }
}

fn describe(verdicts: &SolutionVerdicts) -> String {
    if verdicts.compile_error {
        return "CE".into();
    }
    crate::report::counts(&verdicts.tally)
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
        assert!(keeps(Promise::Some("WA"), &got(&[AC, WA])));
        assert!(
            !keeps(Promise::Some("WA"), &got(&[AC, AC])),
            "a wrong answer must fail somewhere"
        );
        assert!(
            !keeps(Promise::Some("WA"), &got(&[WA, RE])),
            "no worse surprise"
        );
        assert!(!keeps(Promise::Some("TLE"), &got(&[WA, TLE])));
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
}
