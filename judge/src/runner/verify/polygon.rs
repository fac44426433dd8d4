//! What `verify` checks of a Polygon package beside its solutions, as Polygon checks it: every
//! test through every validator (`validator --testset tests [--group G] < input`, exit 0 is
//! valid), and the self-tests `problem.xml` marks for each validator (`valid`, `invalid`) and
//! for the checker (`ok`, `wrong-answer`, ...). Each one that does not hold is a finding with
//! its evidence; the rest is still checked.

use std::path::Path;

use crate::error::Result;
use crate::judging::checker::build_own_program;
use crate::problem::checker_spec::CHECKER_LIMITS;
use crate::problem::polygon::{self, SelfTest};
use crate::problem::Problem;
use crate::sandbox::{RunOutput, Termination};
use crate::toolchain::compiler::Compiler;
use crate::toolchain::Program;

/// What the checks came to: a line for each program checked, and every finding.
#[derive(Debug, Default)]
pub struct ProgramChecks {
    pub lines: Vec<String>,
    pub findings: Vec<String>,
}

/// Checks the package `problem` was loaded from.
pub fn check_programs(problem: &Problem, compiler: &Compiler) -> Result<ProgramChecks> {
    let checks = polygon::self_checks(&problem.dir)?;
    let shown = |path: &Path| {
        let relative = path.strip_prefix(&problem.dir).unwrap_or(path);
        relative.display().to_string()
    };
    let mut report = ProgramChecks::default();
    for (source, self_tests) in &checks.validators {
        let validator = match build_own_program(compiler, problem, source) {
            Ok(validator) => validator,
            Err(error) => {
                report.findings.push(format!("{}: {error}", shown(source)));
                continue;
            }
        };
        let mut accepted = 0;
        for test in &checks.tests {
            let mut args = vec!["--testset".to_owned(), "tests".to_owned()];
            if let Some(group) = &test.group {
                args.extend(["--group".to_owned(), group.clone()]);
            }
            match verdict_of(&validator, &test.input, &args, validator_verdict) {
                Ok((verdict, _)) if verdict == "valid" => accepted += 1,
                Ok((_, said)) => report.findings.push(format!(
                    "test {} (`{}`): {} rejects it: {said}",
                    test.number,
                    shown(&test.input),
                    shown(source)
                )),
                Err(why) => report.findings.push(format!("test {}: {why}", test.number)),
            }
        }
        let (kept, findings) = self_tested(self_tests, &shown, |test| {
            verdict_of(&validator, &test.input, &[], validator_verdict)
        });
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
            let files = [&test.input, output, answer].map(|path| {
                let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
                absolute.display().to_string()
            });
            verdict_of(&checker, Path::new("/dev/null"), &files, checker_verdict)
        });
        report.findings.extend(findings);
        report.lines.push(format!(
            "checker {}: {kept} of {} self-tests as marked",
            shown(&spec.source),
            checks.checker_tests.len()
        ));
    }
    Ok(report)
}

/// Runs each self-test whose files are there: how many got the verdict they are marked with,
/// and a finding for each other one (missing files too).
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

/// `program`'s verdict on `stdin` with `args`, by `read`, with the first line it wrote to
/// standard error; `Err` when it could not run. A file with CRLF line ends (a package
/// downloaded for Windows) is given with LF ones: Polygon's validators read it on Windows,
/// where CRLF is the line end testlib's strict reading expects.
fn verdict_of(
    program: &Program,
    stdin: &Path,
    args: &[String],
    read: fn(&RunOutput) -> &'static str,
) -> Result<(String, String), String> {
    let bytes = std::fs::read(stdin).unwrap_or_default();
    let lf_copy = match memchr::memmem::find(&bytes, b"\r\n") {
        Some(_) => {
            let copy = tempfile::NamedTempFile::new().map_err(|error| error.to_string())?;
            let mut lf = bytes.clone();
            lf.dedup_by(|next, before| {
                *before == b'\r' && *next == b'\n' && {
                    *before = b'\n';
                    true
                }
            });
            std::fs::write(copy.path(), lf).map_err(|error| error.to_string())?;
            Some(copy)
        }
        None => None,
    };
    let stdin = lf_copy.as_ref().map_or(stdin, |copy| copy.path());
    let run = program
        .run(stdin, CHECKER_LIMITS, args)
        .map_err(|error| format!("cannot run: {error}"))?;
    let said = String::from_utf8_lossy(&run.stderr);
    let said = said
        .lines()
        .next()
        .unwrap_or("(nothing on stderr)")
        .to_owned();
    Ok((read(&run).to_owned(), said))
}

/// A validator's verdict: exit 0 is valid, anything else invalid.
fn validator_verdict(run: &RunOutput) -> &'static str {
    match run.termination {
        Termination::Exited(0) => "valid",
        _ => "invalid",
    }
}

/// A checker's verdict, by testlib's exit codes, as `problem.xml` names them.
fn checker_verdict(run: &RunOutput) -> &'static str {
    match run.termination {
        Termination::Exited(0) => "ok",
        Termination::Exited(1) => "wrong-answer",
        Termination::Exited(2 | 4) => "presentation-error",
        Termination::Exited(3) => "fail",
        Termination::Exited(7) => "points",
        _ => "crashed",
    }
}
