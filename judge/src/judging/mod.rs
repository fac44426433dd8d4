//! Judging one case: run the program on its input, let `verdict::decide` decide from the
//! run's evidence and, when the run leaves it to the output, from the comparison with the
//! expected output or the problem's checker; then say why the case failed.

mod calls;
pub(crate) mod checker;
pub(crate) mod grader;
pub(crate) mod interactive;
pub(crate) mod result;
pub(crate) mod scorecard;
pub(crate) mod verdict;

use std::time::Duration;

use crate::compare::{self, FileMismatch};
use crate::judging::checker::{check, Judgement};
use crate::judging::scorecard::ValidatorScore;
use crate::judging::verdict::{beyond_load, decide, Decision, OutputCheck, Rules, Verdict};
use crate::problem::{Problem, TestCase};
use crate::sandbox::{RunOutput, Termination};
use crate::toolchain::Limits;
use crate::toolchain::{Program, RunOptions};
pub use result::{format_bytes, CaseResult, Failure, SolutionVerdicts, Tally, WrongAt};

/// Runs one case and decides its verdict: by the problem's checker when it has one, else by
/// comparing with the expected output. `checkers` are the problem's checker (or interactor)
/// and, after an interactor, the checker of what it wrote, as far as they were built.
pub fn judge_case(
    problem: &Problem,
    program: &Program,
    (checker, tout_checker): (Option<&Program>, Option<&Program>),
    case: &TestCase,
) -> CaseResult {
    let limits = problem.limits_for(program.language);
    if let Some(spec) = problem.interaction() {
        let Some(validator) = checker else {
            return judge_error(case, "the problem's validator was not built".into());
        };
        let after = match (&problem.tout_checker, tout_checker) {
            (Some(spec), Some(program)) => Some((program, spec)),
            (Some(_), None) => {
                return judge_error(case, "the problem's checker was not built".into())
            }
            (None, _) => None,
        };
        return match interactive::judge(program, limits, (validator, after), spec, case) {
            Ok(outcome) => judge_interaction(problem, case, &limits, outcome),
            Err(error) => judge_error(case, format!("cannot run the solution: {error}")),
        };
    }
    // Past its output limit a package's submission runs on, its output dropped, as
    // problemtools, BAPCtools and DOMjudge let it: one that writes forever is too slow there.
    // Without a checker the output is compared while it arrives.
    let mut options = RunOptions {
        run_past_output_limit: problem.package.is_some(),
        judged: true,
        files: Some(&problem.files),
        ..RunOptions::default()
    };
    if problem.checker.is_none() {
        options.streams.expected = Some(&case.expected);
    }
    // A function's caller: each call is held to the limits, the run to their sum.
    let calls = program.per_call.then(|| calls::count(&case.input));
    let run_limits = calls.map_or(limits, |calls| calls::whole_run(limits, calls));
    let mut run = match program.run_with(&case.input, run_limits, &case.args, options) {
        Ok(run) => run,
        Err(error) => return judge_error(case, format!("cannot run the solution: {error}")),
    };
    let slowest = calls.and_then(|_| calls::slowest(&mut run));
    let mut output_failure = None;
    let mut score = None;
    let rules = Rules {
        package: problem.package.is_some(),
        validator_decides: false,
    };
    let decision = decide(&run, &limits, rules, || {
        let (check, failure, validator_score) = check_output(problem, checker, case, &run);
        output_failure = failure;
        score = validator_score;
        check
    });
    let mut result = case_result(problem, case, &limits, run, decision, output_failure, score);
    if let (true, Some(failure)) = (program.per_call, result.failure.as_mut()) {
        // Name the call that failed, as the judge's page does: the slowest for a time limit,
        // the one whose result differs for a wrong answer.
        let wrong = failure.mismatch.as_ref().map(|mismatch| mismatch.line);
        let (number, what) = match (result.verdict, slowest) {
            (Verdict::TimeLimitExceeded, Some((number, time))) => (
                Some(number),
                format!("the slowest call, {} ms", time.as_millis()),
            ),
            _ => (wrong, "the call".to_owned()),
        };
        if let Some((line, call)) = number.and_then(|n| calls::call_line(&case.input, n)) {
            let name = problem
                .function
                .as_ref()
                .map_or("solution", |f| f.name.as_str());
            failure
                .message
                .push_str(&format!("; {what}, input line {line}: {name}({call})"));
        }
    }
    result
}

/// A case of an interactive or multi-pass problem: the validator's judgement decides when it
/// failed or rejected first; else the run, then the judgement, as for any case.
fn judge_interaction(
    problem: &Problem,
    case: &TestCase,
    limits: &Limits,
    outcome: interactive::Interaction,
) -> CaseResult {
    let run = outcome.run;
    // Polygon calls a run-twice problem's passes runs.
    let in_pass = |message: String| match problem.checker.as_ref() {
        Some(spec) if spec.mode.twice.is_some() => format!("run {}: {message}", outcome.pass),
        Some(spec) if spec.mode.passes > 1 => format!("pass {}: {message}", outcome.pass),
        _ => message,
    };
    let mut output_failure = None;
    let score = match &outcome.judgement {
        Some(Judgement::Accepted(score)) => *score,
        _ => None,
    };
    let checked = || match &outcome.judgement {
        Some(Judgement::Accepted(_)) => OutputCheck::Matches,
        Some(Judgement::Wrong(message)) => {
            output_failure = Some(Failure {
                message: in_pass(message.clone()),
                stderr: stderr_of(&run),
                ..Failure::default()
            });
            OutputCheck::Differs
        }
        Some(Judgement::Fault(message)) => {
            output_failure = Some(Failure {
                message: in_pass(message.clone()),
                ..Failure::default()
            });
            OutputCheck::Failed
        }
        None => OutputCheck::Failed,
    };
    let rules = Rules {
        package: problem.package.is_some(),
        validator_decides: outcome.validator_decides,
    };
    let decision = decide(&run, limits, rules, checked);
    case_result(problem, case, limits, run, decision, output_failure, score)
}

fn case_result(
    problem: &Problem,
    case: &TestCase,
    limits: &Limits,
    run: RunOutput,
    decision: Decision,
    output_failure: Option<Failure>,
    score: Option<ValidatorScore>,
) -> CaseResult {
    let limits = *limits;
    let verdict = decision.verdict();
    let failure = match decision {
        Decision::Output(OutputCheck::Matches) => None,
        Decision::Output(OutputCheck::Differs) => output_failure,
        // The check failed: the judge's fault, and no figure of the run means anything.
        Decision::Output(OutputCheck::Failed) => {
            return judge_error(case, output_failure.unwrap_or_default().message)
        }
        Decision::MemoryInPackage(_) => {
            let failure = limit_failure(Verdict::MemoryLimitExceeded, &run, &limits);
            let message = format!("run-time error: memory limit: {}", failure.message);
            Some(Failure { message, ..failure })
        }
        Decision::Run(verdict) => Some(limit_failure(verdict, &run, &limits)),
    };
    let result = CaseResult {
        name: case.name.clone(),
        verdict,
        cpu_time: run.cpu_time,
        wall_time: run.wall_time,
        peak_memory_bytes: run.peak_memory_bytes,
        confirmed: false,
        beyond_load: verdict == Verdict::TimeLimitExceeded
            && beyond_load(&run, &limits, problem.interaction().is_some()),
        failure,
        score: score.filter(|_| verdict == Verdict::Accepted),
        cached: false,
    };
    crate::sandbox::recycle(run.stdout);
    result
}

/// For a run that ended cleanly.
fn check_output(
    problem: &Problem,
    checker: Option<&Program>,
    case: &TestCase,
    run: &RunOutput,
) -> (OutputCheck, Option<Failure>, Option<ValidatorScore>) {
    let failed = |message: String| Failure {
        message,
        stderr: stderr_of(run),
        ..Failure::default()
    };
    if let (Some(checker), Some(spec)) = (checker, &problem.checker) {
        return match check(checker, spec, case, &run.stdout) {
            Judgement::Accepted(score) => (OutputCheck::Matches, None, score),
            Judgement::Wrong(message) => (OutputCheck::Differs, Some(failed(message)), None),
            Judgement::Fault(message) => (OutputCheck::Failed, Some(failed(message)), None),
        };
    }
    if run.matched_expected {
        // Identical outputs match in every mode.
        return (OutputCheck::Matches, None, None);
    }
    match compare::compare_file(
        case.compare.unwrap_or(problem.compare),
        &case.expected,
        &run.stdout,
        run.stdout_matched,
    ) {
        Ok(Ok(())) => (OutputCheck::Matches, None, None),
        Ok(Err(found)) => (OutputCheck::Differs, Some(wrong_answer(&found, run)), None),
        Err(error) => (
            OutputCheck::Failed,
            Some(failed(format!("{}: {error}", case.expected.display()))),
            None,
        ),
    }
}

fn wrong_answer(found: &FileMismatch, run: &RunOutput) -> Failure {
    Failure {
        message: found.mismatch.to_string(),
        mismatch: Some(WrongAt::from(&found.mismatch)),
        diff: found.diff(),
        stderr: stderr_of(run),
    }
}

fn starved_note(run: &RunOutput) -> String {
    if run.starved.is_zero() {
        return String::new();
    }
    format!(
        " (the machine was busy: waited {} ms past the wall-clock backstop, as it was still computing or waiting for the judge to read its output)",
        run.starved.as_millis()
    )
}

pub fn over_the_time_limit(cpu_time: Duration, limit: Duration) -> String {
    format!(
        "CPU time {} ms over the {} ms limit",
        cpu_time.as_millis(),
        limit.as_millis()
    )
}

fn limit_failure(verdict: Verdict, run: &RunOutput, limits: &Limits) -> Failure {
    let message = match verdict {
        Verdict::TimeLimitExceeded if run.cpu_time > limits.cpu_time => format!(
            "{}{}",
            over_the_time_limit(run.cpu_time, limits.cpu_time),
            starved_note(run)
        ),
        Verdict::TimeLimitExceeded if !run.wall_timeout => format!(
            "stopped by the kernel's CPU time limit (SIGXCPU) with {} ms of CPU time measured over the {} ms limit",
            run.cpu_time.as_millis(),
            limits.cpu_time.as_millis()
        ),
        Verdict::TimeLimitExceeded => format!(
            "idle: stopped by the wall-clock backstop after {} ms with {} ms of CPU time (waiting instead of computing?)",
            run.wall_time.as_millis(),
            run.cpu_time.as_millis()
        ),
        Verdict::MemoryLimitExceeded if run.peak_memory_bytes > limits.memory_bytes => format!(
            "peak memory {} over the {} limit",
            format_bytes(run.peak_memory_bytes),
            format_bytes(limits.memory_bytes)
        ),
        Verdict::MemoryLimitExceeded if run.memory_limit_seen => format!(
            "resident memory passed the {} limit",
            format_bytes(limits.memory_bytes)
        ),
        Verdict::MemoryLimitExceeded => format!(
            "an allocation failed (memory limit {})",
            format_bytes(limits.memory_bytes)
        ),
        Verdict::OutputLimitExceeded => format!(
            "more than {} of output",
            format_bytes(limits.output_bytes)
        ),
        Verdict::RuntimeError(termination) => match termination {
            Termination::Exited(code) => format!("exited with code {code}"),
            Termination::Signaled(_) => format!("killed by {termination}"),
        },
        // Never asked for.
        Verdict::Accepted | Verdict::WrongAnswer | Verdict::CompileError | Verdict::JudgeError => {
            verdict.to_string()
        }
    };
    Failure {
        message,
        stderr: stderr_of(run),
        ..Failure::default()
    }
}

fn judge_error(case: &TestCase, message: String) -> CaseResult {
    CaseResult {
        name: case.name.clone(),
        verdict: Verdict::JudgeError,
        cpu_time: Duration::ZERO,
        wall_time: Duration::ZERO,
        peak_memory_bytes: 0,
        confirmed: false,
        beyond_load: false,
        failure: Some(Failure {
            message,
            ..Failure::default()
        }),
        score: None,
        cached: false,
    }
}

/// The last lines of stderr: where a panic message or a backtrace ends.
fn stderr_of(run: &RunOutput) -> String {
    const LINES: usize = 12;
    let text = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = text.trim().lines().collect();
    lines[lines.len().saturating_sub(LINES)..].join("\n")
}
