//! What `verify` checks of a Polygon package beside its solutions, as Polygon does: every test
//! through every validator (`validator --testset tests [--group G] < input`, exit 0 is valid),
//! and the self-tests `problem.xml` marks for each validator and for the checker. Each that
//! does not hold is a finding with its evidence; the rest is still checked.

use std::path::Path;

use crate::error::{Error, Result};
use crate::judging::checker::{self, build_own_program, Judgement, PRESENTATION_ERROR};
use crate::problem::checker_spec::CHECKER_LIMITS;
use crate::problem::polygon::{self, SelfTest};
use crate::problem::{CheckerSpec, Problem, TestCase};
use crate::runner::interrupt;
use crate::sandbox::{RunOutput, Termination};
use crate::toolchain::compiler::Compiler;
use crate::toolchain::Program;

/// A line for each program checked, and every finding.
#[derive(Debug, Default)]
pub struct ProgramChecks {
    pub lines: Vec<String>,
    pub findings: Vec<String>,
}

pub fn check_programs(problem: &Problem, compiler: &Compiler) -> Result<ProgramChecks> {
    let checks = polygon::self_checks(&problem.dir)?;
    let shown = |path: &Path| {
        let relative = path.strip_prefix(&problem.dir).unwrap_or(path);
        relative.display().to_string()
    };
    let mut report = ProgramChecks::default();
    // A build or run cut off by a signal says nothing of the package.
    let stopped = || match interrupt::pending() {
        true => Err(Error::Interrupted),
        false => Ok(()),
    };
    for (source, self_tests) in &checks.validators {
        let validator = match build_own_program(compiler, problem, source) {
            Ok(validator) => validator,
            Err(error) => {
                stopped()?;
                report
                    .lines
                    .push(format!("validator {}: not built", shown(source)));
                // Its paths within the package: `verify` may judge a scratch copy of it.
                let inside = format!("{}/", problem.dir.display());
                report.findings.push(error.to_string().replace(&inside, ""));
                continue;
            }
        };
        let mut accepted = 0;
        for test in &checks.tests {
            let mut args = vec!["--testset".to_owned(), "tests".to_owned()];
            if let Some(group) = &test.group {
                args.extend(["--group".to_owned(), group.clone()]);
            }
            match validated(&validator, &test.input, &args) {
                Ok((true, _)) => accepted += 1,
                Ok((false, said)) => report.findings.push(format!(
                    "test {} (`{}`): {} rejects it: {said}",
                    test.number,
                    shown(&test.input),
                    shown(source)
                )),
                Err(why) => report.findings.push(format!("test {}: {why}", test.number)),
            }
        }
        let (kept, findings) = self_tested(self_tests, &shown, |test| {
            let (valid, said) = validated(&validator, &test.input, &[])?;
            Ok((if valid { "valid" } else { "invalid" }.to_owned(), said))
        });
        stopped()?;
        report.findings.extend(findings);
        report.lines.push(format!(
            "validator {}: {accepted} of {} tests valid; {kept} of {} self-tests as marked",
            shown(source),
            checks.tests.len(),
            self_tests.len()
        ));
    }
    if !checks.checker_tests.is_empty() {
        let Some(spec) = &problem.tout_checker.as_ref().or(problem.checker.as_ref()) else {
            return Ok(report);
        };
        let checker = build_own_program(compiler, problem, &spec.source)?;
        let (kept, findings) = self_tested(&checks.checker_tests, &shown, |test| {
            let Some((output, answer)) = &test.output_and_answer else {
                return Err("the checker's testset names no output or answer files".into());
            };
            checker_verdict(&checker, spec, test, output, answer).map_err(|e| e.to_string())
        });
        stopped()?;
        report.findings.extend(findings);
        report.lines.push(format!(
            "checker {}: {kept} of {} self-tests as marked",
            shown(&spec.source),
            checks.checker_tests.len()
        ));
    }
    Ok(report)
}

/// How many self-tests got the verdict they are marked with, and a finding for each other
/// (missing files too).
fn self_tested(
    tests: &[SelfTest],
    shown: &dyn Fn(&Path) -> String,
    verdict: impl Fn(&SelfTest) -> Result<(String, String), String>,
) -> (usize, Vec<String>) {
    let mut kept = 0;
    let mut findings = Vec::new();
    for test in tests {
        let files = std::iter::once(&test.input)
            .chain(test.output_and_answer.iter().flat_map(|(o, a)| [o, a]));
        if let Some(missing) = files.into_iter().find(|path| !path.is_file()) {
            findings.push(format!(
                "self-test {} (marked {}): `{}` is not in the package",
                test.number,
                test.verdict,
                shown(missing)
            ));
            continue;
        }
        match verdict(test) {
            Ok((got, _)) if got == test.verdict => kept += 1,
            Ok((got, said)) => findings.push(format!(
                "self-test {} (`{}`): marked {}, got {got}: {said}",
                test.number,
                shown(&test.input),
                test.verdict
            )),
            Err(why) => findings.push(format!("self-test {}: {why}", test.number)),
        }
    }
    (kept, findings)
}

/// Whether `validator` takes `input`, and the first line of its stderr; `Err` when it could
/// not run. CRLF input (a package downloaded for Windows) is given with LF ends: Polygon runs
/// validators on Windows, where CRLF is what testlib's strict reading expects.
fn validated(validator: &Program, input: &Path, args: &[String]) -> Result<(bool, String), String> {
    let bytes = std::fs::read(input).map_err(|error| format!("cannot read it: {error}"))?;
    let lf_copy = match memchr::memmem::find(&bytes, b"\r\n") {
        Some(_) => {
            let copy = tempfile::NamedTempFile::new().map_err(|error| error.to_string())?;
            std::fs::write(copy.path(), polygon::with_lf_ends(&bytes))
                .map_err(|error| error.to_string())?;
            Some(copy)
        }
        None => None,
    };
    let input = lf_copy.as_ref().map_or(input, |copy| copy.path());
    let run = (validator.run(input, CHECKER_LIMITS, args))
        .map_err(|error| format!("cannot run: {error}"))?;
    Ok((run.termination == Termination::Exited(0), first_line(&run)))
}

/// Of stderr.
fn first_line(run: &RunOutput) -> String {
    let said = String::from_utf8_lossy(&run.stderr);
    said.lines()
        .next()
        .unwrap_or("(nothing on stderr)")
        .to_owned()
}

/// Read as on a case (exit code, -appes report), named as `problem.xml` marks it; with the
/// first line of its stderr.
fn checker_verdict(
    checker: &Program,
    spec: &CheckerSpec,
    test: &SelfTest,
    output: &Path,
    answer: &Path,
) -> std::io::Result<(String, String)> {
    let case = TestCase::new(
        test.number.to_string(),
        test.input.clone(),
        answer.to_path_buf(),
    );
    let feedback = tempfile::tempdir()?;
    let args = checker::arguments(spec, &case, &test.input, output, feedback.path());
    let run = checker.run(Path::new("/dev/null"), spec.limits, &args)?;
    let verdict = match checker::judgement(spec, &run, feedback.path()) {
        Judgement::Accepted(None) => "ok",
        Judgement::Accepted(Some(_)) => "points",
        Judgement::Wrong(message) if message.starts_with(PRESENTATION_ERROR) => {
            "presentation-error"
        }
        Judgement::Wrong(_) => "wrong-answer",
        Judgement::Fault(_) => "fail",
    };
    Ok((verdict.to_owned(), first_line(&run)))
}
