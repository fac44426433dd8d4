//! Judging one case: run the program on its input, let `verdict::decide` decide from the
//! run's evidence and, when the run leaves it to the output, from the comparison with the
//! expected output or the problem's checker; then say why the case failed.
//!
//! What judging comes to (`CaseResult`: each case's verdict with its evidence, a solution's
//! verdicts, the totals of a problem) is made by the runner and read by the reporters and
//! `judge verify`.

mod calls;
pub(crate) mod checker;
pub(crate) mod grader;
pub(crate) mod interactive;
pub(crate) mod scorecard;
pub(crate) mod verdict;

use std::path::PathBuf;
use std::time::Duration;

use crate::compare::diff::DiffLine;
use crate::compare::{self, FileMismatch, Mismatch};
use crate::judging::checker::{check, Judgement};
use crate::judging::scorecard::{ScoreError, Scorecard, ValidatorScore};
use crate::judging::verdict::{beyond_load, decide, Decision, OutputCheck, Rules};
use crate::judging::verdict::{Verdict, VerdictKind};
use crate::problem::{Problem, TestCase};
use crate::sandbox::{RunOutput, Termination};
use crate::toolchain::Limits;
use crate::toolchain::{Program, RunOptions};

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
        case_files: case.files.as_deref(),
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
        // The check failed, the judge's fault; the run's figures are still the run's.
        Decision::Output(OutputCheck::Failed) => Some(Failure {
            stderr: String::new(),
            ..output_failure.unwrap_or_default()
        }),
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
    // Whole milliseconds, unless they would show a time over its limit as equal to it.
    let used = match cpu_time.as_millis() == limit.as_millis() {
        true => format!("{:.3}", cpu_time.as_secs_f64() * 1000.0),
        false => cpu_time.as_millis().to_string(),
    };
    format!("CPU time {used} ms over the {} ms limit", limit.as_millis())
}

fn limit_failure(verdict: Verdict, run: &RunOutput, limits: &Limits) -> Failure {
    let message = match verdict {
        Verdict::TimeLimitExceeded if run.cpu_time > limits.cpu_time => format!(
            "{}{}",
            over_the_time_limit(run.cpu_time, limits.cpu_time),
            starved_note(run)
        ),
        Verdict::TimeLimitExceeded if !run.wall_timeout => format!(
            "stopped by the kernel's CPU time limit (SIGXCPU), set past the {} ms limit; the {} ms measured count less of its CPU time than the kernel does",
            limits.cpu_time.as_millis(),
            run.cpu_time.as_millis()
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

/// The last lines of stderr: where a panic message or a backtrace ends. Control characters
/// are shown, not obeyed: a `\r` or an escape sequence must not redraw the report's lines.
fn stderr_of(run: &RunOutput) -> String {
    const LINES: usize = 12;
    let text = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = text.trim().lines().collect();
    let last = lines[lines.len().saturating_sub(LINES)..].join("\n");
    (last.chars())
        .map(|c| match c {
            '\r' => '␍',
            '\n' | '\t' => c,
            c if c.is_control() => '�',
            c => c,
        })
        .collect()
}

/// The verdict on one case and the evidence behind it.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// The case's name: its path below the problem folder, without extension.
    pub name: String,
    pub verdict: Verdict,
    /// CPU time (user and system) of the program and every process it started.
    pub cpu_time: Duration,
    pub wall_time: Duration,
    /// Peak memory of the whole process tree.
    pub peak_memory_bytes: u64,
    /// The verdict is the one of a serial re-run near the time limit.
    pub confirmed: bool,
    /// A time limit verdict that the machine's load cannot have caused (`verdict::beyond_load`),
    /// so no re-run is needed to confirm it.
    pub beyond_load: bool,
    pub failure: Option<Failure>,
    /// The score the output validator gave an accepted case (`score.txt`), if any.
    pub score: Option<ValidatorScore>,
    /// The verdict and figures are an earlier run's, kept in the result cache.
    pub cached: bool,
}

/// Why a case was not accepted.
#[derive(Debug, Clone, Default)]
pub struct Failure {
    /// Where and why, in one line.
    pub message: String,
    /// For a wrong answer found by comparing: where, to find the sub-case in the input.
    pub mismatch: Option<WrongAt>,
    /// The outputs around the first difference, for a wrong answer.
    pub diff: Vec<DiffLine>,
    /// The last lines the program wrote to stderr.
    pub stderr: String,
}

/// Where a compared output first differs: what a report needs to find the sub-case.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WrongAt {
    /// 1-based line of the expected output.
    pub line: usize,
    /// The label of the sub-case it belongs to (`#3`, `Case #3:`), if the output has them.
    pub case_label: Option<String>,
}

impl From<&Mismatch> for WrongAt {
    fn from(mismatch: &Mismatch) -> Self {
        WrongAt {
            line: mismatch.line,
            case_label: mismatch.case_label.clone(),
        }
    }
}

/// Totals for one problem or for the whole run.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub cases: usize,
    /// Cases per verdict kind, indexed by the kind's place in `VerdictKind::ALL`.
    counts: [usize; VerdictKind::ALL.len()],
    pub max_cpu_time: Duration,
    pub max_peak_memory_bytes: u64,
}

impl Tally {
    pub fn add(&mut self, result: &CaseResult) {
        self.add_case(result.verdict, result.cpu_time, result.peak_memory_bytes);
    }

    pub fn add_case(&mut self, verdict: Verdict, cpu_time: Duration, peak_memory_bytes: u64) {
        self.cases += 1;
        self.counts[verdict.kind() as usize] += 1;
        self.max_cpu_time = self.max_cpu_time.max(cpu_time);
        self.max_peak_memory_bytes = self.max_peak_memory_bytes.max(peak_memory_bytes);
    }

    pub fn count(&self, kind: VerdictKind) -> usize {
        self.counts[kind as usize]
    }

    pub fn accepted(&self) -> usize {
        self.count(VerdictKind::Accepted)
    }

    /// The kinds that some case got, with their counts, in the order of `VerdictKind::ALL`.
    pub fn by_verdict(&self) -> impl Iterator<Item = (VerdictKind, usize)> + '_ {
        VerdictKind::ALL
            .into_iter()
            .map(|kind| (kind, self.count(kind)))
            .filter(|&(_, count)| count > 0)
    }
}

#[derive(Debug, Clone, Default)]
pub struct SolutionVerdicts {
    pub solution: PathBuf,
    /// It did not compile: no case was run.
    pub compile_error: bool,
    /// Every case's verdict, in case order.
    pub verdicts: Vec<Verdict>,
    /// Every judged case's name (`secret/12`), beside its verdict.
    pub cases: Vec<String>,
    /// Every judged case's CPU time and peak memory, beside its verdict.
    pub figures: Vec<(Duration, u64)>,
    /// Every judged case's reason for not being accepted (the validator's message), if any.
    pub messages: Vec<Option<String>>,
    /// Why the first case that failed did (or the compiler's message).
    pub first_failure: Option<String>,
    pub tally: Tally,
    pub score: Option<Result<Scorecard, ScoreError>>,
    /// The score graded again with the cases too slow for the limit the verdicts are decided
    /// at rejected (`Limits::decided_at`), for a run that went past it.
    pub score_at_limit: Option<Result<Scorecard, ScoreError>>,
}

impl SolutionVerdicts {
    /// What this run, made under a larger time limit, would have got under `limit`. With
    /// `first_failure_ends`, the cases after the first failure are dropped, as a run under
    /// `limit` would have stopped there. The score is the one graded at the limit, where the
    /// run has one.
    pub fn under_time_limit(&self, limit: Duration, first_failure_ends: bool) -> SolutionVerdicts {
        let mut under = SolutionVerdicts {
            solution: self.solution.clone(),
            compile_error: self.compile_error,
            // The compiler's message stands; a case's is found again below.
            first_failure: self.first_failure.clone().filter(|_| self.compile_error),
            score: (self.score_at_limit.clone()).or_else(|| self.score.clone()),
            ..SolutionVerdicts::default()
        };
        let cases = self.verdicts.iter().zip(&self.cases).zip(&self.figures);
        for (((&verdict, case), &(cpu_time, memory)), message) in cases.zip(&self.messages) {
            let too_slow = cpu_time > limit && verdict != Verdict::TimeLimitExceeded;
            let (verdict, message) = match too_slow {
                true => (
                    Verdict::TimeLimitExceeded,
                    Some(over_the_time_limit(cpu_time, limit)),
                ),
                false => (verdict, message.clone()),
            };
            if under.first_failure.is_none() {
                under.first_failure = message.clone();
            }
            under.verdicts.push(verdict);
            under.cases.push(case.clone());
            under.figures.push((cpu_time, memory));
            under.messages.push(message);
            under.tally.add_case(verdict, cpu_time.min(limit), memory);
            if first_failure_ends && verdict != Verdict::Accepted {
                break;
            }
        }
        under
    }
}

/// `1.9 MiB`, `256.0 MiB`, `512 KiB`.
pub fn format_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let value = bytes as f64;
    if value >= KIB * KIB * KIB {
        format!("{:.1} GiB", value / (KIB * KIB * KIB))
    } else if value >= KIB * KIB {
        format!("{:.1} MiB", value / (KIB * KIB))
    } else {
        format!("{:.0} KiB", value / KIB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Termination;

    fn result(verdict: Verdict, cpu_ms: u64) -> CaseResult {
        CaseResult {
            name: "1".into(),
            verdict,
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::ZERO,
            peak_memory_bytes: cpu_ms,
            confirmed: false,
            beyond_load: false,
            failure: None,
            score: None,
            cached: false,
        }
    }

    #[test]
    fn a_tally_counts_kinds_and_keeps_the_largest_figures() {
        let mut first = Tally::default();
        first.add(&result(Verdict::WrongAnswer, 5));
        first.add(&result(Verdict::Accepted, 9));
        first.add(&result(Verdict::RuntimeError(Termination::Exited(1)), 1));
        first.add(&result(
            Verdict::RuntimeError(Termination::Signaled(libc::SIGSEGV)),
            20,
        ));
        assert_eq!(first.cases, 4);
        assert_eq!(first.accepted(), 1);
        let counts: Vec<(&str, usize)> = first
            .by_verdict()
            .map(|(kind, count)| (kind.code(), count))
            .collect();
        assert_eq!(counts, [("AC", 1), ("WA", 1), ("RE", 2)]);
        assert_eq!(first.max_cpu_time, Duration::from_millis(20));
        assert_eq!(first.max_peak_memory_bytes, 20);
    }

    const AC: Verdict = Verdict::Accepted;
    const WA: Verdict = Verdict::WrongAnswer;
    const TLE: Verdict = Verdict::TimeLimitExceeded;

    /// A run of cases with these verdicts and CPU times in milliseconds.
    fn run(cases: &[(Verdict, u64)]) -> SolutionVerdicts {
        let mut verdicts = SolutionVerdicts::default();
        for (i, &(verdict, ms)) in cases.iter().enumerate() {
            let cpu_time = Duration::from_millis(ms);
            verdicts.verdicts.push(verdict);
            verdicts.cases.push(format!("secret/{i}"));
            verdicts.figures.push((cpu_time, 1 << 20));
            verdicts
                .messages
                .push((verdict != AC).then(|| "wrong".to_owned()));
            verdicts.tally.add_case(verdict, cpu_time, 1 << 20);
        }
        verdicts
    }

    #[test]
    fn a_case_slower_than_the_limit_is_too_slow_under_it_and_ends_the_run() {
        let limit = Duration::from_secs(1);
        let beyond = run(&[(AC, 200), (AC, 1300), (WA, 1500), (TLE, 2000)]);
        let under = beyond.under_time_limit(limit, true);
        assert_eq!(under.verdicts, [AC, TLE], "the first failure ends it");
        assert_eq!(under.tally.cases, 2);
        assert_eq!(under.tally.count(VerdictKind::TimeLimitExceeded), 1);
        assert_eq!(under.tally.max_cpu_time, limit, "stopped at the limit");
        let message = under.first_failure.as_deref().unwrap();
        assert!(
            message.contains("CPU time 1300 ms over the 1000 ms limit"),
            "{message}"
        );
        let every_case = beyond.under_time_limit(limit, false);
        assert_eq!(every_case.verdicts, [AC, TLE, TLE, TLE]);
        let quick = run(&[(AC, 200), (WA, 900)]);
        assert_eq!(quick.under_time_limit(limit, true).verdicts, [AC, WA]);
    }

    #[test]
    fn stderr_is_shown_with_its_control_characters_made_visible() {
        let run = RunOutput {
            stderr: b"fine\n\rAC  forged\x1b[2Kline\tend\n".to_vec(),
            ..crate::judging::verdict::tests::clean_run()
        };
        assert_eq!(stderr_of(&run), "fine\n␍AC  forged�[2Kline\tend");
    }

    #[test]
    fn a_time_over_its_limit_never_reads_as_equal_to_it() {
        let limit = Duration::from_millis(1);
        assert_eq!(
            over_the_time_limit(Duration::from_micros(1400), limit),
            "CPU time 1.400 ms over the 1 ms limit"
        );
        assert_eq!(
            over_the_time_limit(Duration::from_micros(2400), limit),
            "CPU time 2 ms over the 1 ms limit"
        );
    }
}
