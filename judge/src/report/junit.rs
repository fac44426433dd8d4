//! JUnit XML for CI systems: one testsuite per problem, one testcase per case; a failure
//! carries the one-line reason and the bounded diff. Written when the run ends.

use std::path::{Path, PathBuf};

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use super::Reporter;
use super::RunSummary;
use super::{ProgramOrigin, Stopped};
use crate::error::Error;
use crate::judging::verdict::Verdict;
use crate::judging::{CaseResult, Tally};
use crate::problem::Problem;

pub struct JunitReporter {
    path: PathBuf,
    report: Report,
    suite: Option<TestSuite>,
    pub write_error: Option<Error>,
}

impl JunitReporter {
    pub fn new(path: PathBuf) -> Self {
        JunitReporter {
            path,
            report: Report::new("judge"),
            suite: None,
            write_error: None,
        }
    }

    fn close_suite(&mut self) {
        if let Some(suite) = self.suite.take() {
            self.report.add_test_suite(suite);
        }
    }

    /// To the open suite, classed by its problem.
    fn add(&mut self, problem: &Problem, mut case: TestCase) {
        case.set_classname(problem.id.clone());
        if let Some(suite) = self.suite.as_mut() {
            suite.add_test_case(case);
        }
    }
}

impl Reporter for JunitReporter {
    fn problem_error(&mut self, error: &Error) {
        self.close_suite();
        let mut suite = TestSuite::new("errors");
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
        status.set_message(error.to_string());
        suite.add_test_case(TestCase::new("load", status));
        self.report.add_test_suite(suite);
    }

    fn problem_started(
        &mut self,
        problem: &Problem,
        _solution: &Path,
        _built: Option<ProgramOrigin>,
    ) {
        self.close_suite();
        self.suite = Some(TestSuite::new(problem.id.clone()));
    }

    fn compile_error(&mut self, problem: &Problem, message: &str) {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
        status
            .set_message("compile error")
            .set_type(Verdict::CompileError.code())
            .set_description(message);
        self.add(problem, TestCase::new("compile", status));
    }

    fn case_finished(&mut self, problem: &Problem, result: &CaseResult) {
        let status = match &result.failure {
            None => TestCaseStatus::success(),
            Some(failure) => {
                let kind = match result.verdict {
                    Verdict::JudgeError => NonSuccessKind::Error,
                    _ => NonSuccessKind::Failure,
                };
                let mut status = TestCaseStatus::non_success(kind);
                let mut description = String::new();
                for line in &failure.diff {
                    let (sign, _) = super::diff_mark(line.side);
                    description.push_str(&format!("{sign} {:>5} | {}\n", line.number, line.text));
                }
                if !failure.stderr.is_empty() {
                    description.push_str("stderr:\n");
                    description.push_str(&failure.stderr);
                }
                status
                    .set_message(format!("{}: {}", result.verdict, failure.message))
                    .set_type(result.verdict.code())
                    .set_description(description);
                status
            }
        };
        let mut case = TestCase::new(result.name.clone(), status);
        case.set_time(result.wall_time);
        if result.cached {
            // An earlier run's verdict and time, from the result cache.
            case.add_property(Property::new("cached", "true"));
        }
        self.add(problem, case);
    }

    fn problem_finished(&mut self, _problem: &Problem, _tally: &Tally) {
        self.close_suite();
    }

    fn problem_stopped(&mut self, stopped: &Stopped) {
        if stopped.judged.is_none() {
            self.problem_started(stopped.problem, stopped.solution, None);
        }
        for name in stopped.unfinished {
            let mut status = TestCaseStatus::skipped();
            status.set_message("not finished: the run was stopped before this case was judged");
            self.add(stopped.problem, TestCase::new(*name, status));
        }
        self.close_suite();
    }

    fn run_finished(&mut self, summary: &RunSummary) {
        self.close_suite();
        // JUnit has properties per suite only: every suite says what held its programs.
        if let Some(held) = summary.containment {
            for suite in &mut self.report.test_suites {
                suite.add_property(Property::new("containment", held.level()));
            }
        }
        self.report.set_time(summary.wall_time);
        let written = self
            .report
            .to_string()
            .map_err(|error| {
                let reason = format!("cannot write JUnit XML: {error}");
                Error::io(&self.path, std::io::Error::other(reason))
            })
            .and_then(|xml| crate::atomic_write::write_atomically(&self.path, xml.as_bytes()));
        self.write_error = written.err();
    }
}
