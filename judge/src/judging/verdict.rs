//! Verdicts, and `decide`: the one place that turns the evidence of a run into a verdict,
//! with the problem's rules, its validator's judgement, and a serial re-run's say.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::CaseResult;
use crate::sandbox::{RunOutput, Termination, BACKSTOP_SLACK};
use crate::toolchain::Limits;

/// What a real judge would answer for one case (or, for `CompileError`, a whole solution).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    WrongAnswer,
    TimeLimitExceeded,
    MemoryLimitExceeded,
    OutputLimitExceeded,
    RuntimeError(Termination),
    CompileError,
    /// A fault of the harness, not of the solution (a checker crashed, a file vanished, ...).
    JudgeError,
}

/// A verdict without its details: what a tally counts. Reports write it and read it back
/// by its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum VerdictKind {
    Accepted,
    WrongAnswer,
    TimeLimitExceeded,
    MemoryLimitExceeded,
    OutputLimitExceeded,
    RuntimeError,
    CompileError,
    JudgeError,
}

impl VerdictKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [VerdictKind; 8] = [
        VerdictKind::Accepted,
        VerdictKind::WrongAnswer,
        VerdictKind::TimeLimitExceeded,
        VerdictKind::MemoryLimitExceeded,
        VerdictKind::OutputLimitExceeded,
        VerdictKind::RuntimeError,
        VerdictKind::CompileError,
        VerdictKind::JudgeError,
    ];

    /// The short code judges print.
    pub fn code(self) -> &'static str {
        match self {
            VerdictKind::Accepted => "AC",
            VerdictKind::WrongAnswer => "WA",
            VerdictKind::TimeLimitExceeded => "TLE",
            VerdictKind::MemoryLimitExceeded => "MLE",
            VerdictKind::OutputLimitExceeded => "OLE",
            VerdictKind::RuntimeError => "RE",
            VerdictKind::CompileError => "CE",
            VerdictKind::JudgeError => "JE",
        }
    }
}

impl fmt::Display for VerdictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A code that is none of `VerdictKind::code`'s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVerdict(pub String);

impl fmt::Display for UnknownVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let codes: Vec<&str> = VerdictKind::ALL.iter().map(|kind| kind.code()).collect();
        write!(
            f,
            "unknown verdict `{}` (expected one of {})",
            self.0,
            codes.join(", ")
        )
    }
}

impl std::error::Error for UnknownVerdict {}

impl FromStr for VerdictKind {
    type Err = UnknownVerdict;

    fn from_str(code: &str) -> Result<Self, Self::Err> {
        VerdictKind::ALL
            .into_iter()
            .find(|kind| kind.code() == code)
            .ok_or_else(|| UnknownVerdict(code.to_owned()))
    }
}

impl TryFrom<String> for VerdictKind {
    type Error = UnknownVerdict;

    fn try_from(code: String) -> Result<Self, Self::Error> {
        code.parse()
    }
}

impl From<VerdictKind> for &'static str {
    fn from(kind: VerdictKind) -> Self {
        kind.code()
    }
}

impl Verdict {
    pub fn kind(self) -> VerdictKind {
        match self {
            Verdict::Accepted => VerdictKind::Accepted,
            Verdict::WrongAnswer => VerdictKind::WrongAnswer,
            Verdict::TimeLimitExceeded => VerdictKind::TimeLimitExceeded,
            Verdict::MemoryLimitExceeded => VerdictKind::MemoryLimitExceeded,
            Verdict::OutputLimitExceeded => VerdictKind::OutputLimitExceeded,
            Verdict::RuntimeError(_) => VerdictKind::RuntimeError,
            Verdict::CompileError => VerdictKind::CompileError,
            Verdict::JudgeError => VerdictKind::JudgeError,
        }
    }

    pub fn code(self) -> &'static str {
        self.kind().code()
    }

    pub fn is_accepted(self) -> bool {
        self == Verdict::Accepted
    }
}

/// `AC`, `WA`, ... and, for a runtime error, how the program ended: `RE (SIGSEGV)`, `RE (exit 101)`.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::RuntimeError(termination) => write!(f, "RE ({termination})"),
            verdict => f.write_str(verdict.code()),
        }
    }
}

/// Cases at or above this share of the time limit are confirmed by a serial re-run.
const CONFIRM_SHARE: f64 = 0.9;

/// Whether the machine's load cannot have caused a time limit verdict of `run`, so that no
/// re-run is needed to trust it:
/// - a stop at the wall-clock backstop while the program slept or blocked (one that computes
///   is waited for), with nothing to wait for, or (`talks`) waiting on a validator that cannot
///   have been kept from a CPU for as long as the backstop's slack;
/// - CPU time over the limit by more than all the CPU time the rest of the machine spent
///   meanwhile, the most that load can have added to it.
pub fn beyond_load(run: &RunOutput, limits: &Limits, talks: bool) -> bool {
    if run.wall_timeout && run.starved.is_zero() {
        return !talks
            || run
                .load
                .is_some_and(|load| load.all_busy() < BACKSTOP_SLACK);
    }
    let limit = limits.decided_at.unwrap_or(limits.cpu_time);
    run.load
        .is_some_and(|load| run.cpu_time > limit + load.others())
}

/// The verdict a run earns before its output is looked at, in the documented order TLE, MLE,
/// OLE, RE (a program killed for a limit also ends by a signal, which is not a runtime error);
/// `None` when the output decides.
pub fn classify_run(run: &RunOutput, limits: &Limits) -> Option<Verdict> {
    // SIGXCPU is the kernel's answer to the CPU limit we set (a second past the limit); it
    // counts CPU time more fully than rusage does, so a program it stops may show a time under
    // the limit. problemtools counts SIGXCPU as TLE too.
    let cpu_signal = run.termination == Termination::Signaled(libc::SIGXCPU);
    if run.cpu_time > limits.cpu_time || run.wall_timeout || cpu_signal {
        Some(Verdict::TimeLimitExceeded)
    } else if run.out_of_memory
        || run.memory_limit_seen
        || run.peak_memory_bytes > limits.memory_bytes
    {
        Some(Verdict::MemoryLimitExceeded)
    } else if run.output_limit_exceeded {
        Some(Verdict::OutputLimitExceeded)
    } else if run.termination != Termination::Exited(0) {
        Some(Verdict::RuntimeError(run.termination))
    } else {
        None
    }
}

/// What the output of a run that ended cleanly within its limits came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputCheck {
    Matches,
    Differs,
    /// The check itself could not be made (the checker failed, the expected file vanished).
    Failed,
}

impl OutputCheck {
    fn verdict(self) -> Verdict {
        match self {
            OutputCheck::Matches => Verdict::Accepted,
            OutputCheck::Differs => Verdict::WrongAnswer,
            OutputCheck::Failed => Verdict::JudgeError,
        }
    }
}

/// The full verdict: the run's, or else its output's, checked only when the run leaves the
/// verdict to it: `decide` for a problem without rules of its own, as the tests of the
/// documented order state it.
#[cfg(test)]
pub fn classify(
    run: &RunOutput,
    limits: &Limits,
    check_output: impl FnOnce() -> OutputCheck,
) -> Verdict {
    decide(run, limits, Rules::default(), check_output).verdict()
}

/// What a case's verdict depends on besides its run's evidence and its output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rules {
    /// The problem is a package (Kattis, ICPC), whose format has no memory verdict.
    pub package: bool,
    /// The validator's judgement decides whatever the run says: it failed, or rejected the
    /// interaction before the run's end could (see `interactive::Interaction`).
    pub validator_decides: bool,
}

/// What decided a case, and so what its failure has to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The run's evidence: a limit, or how it ended (never `Accepted`).
    Run(Verdict),
    /// The output, compared or checked.
    Output(OutputCheck),
    /// Memory past the limit in a package: a judge that applies its memory limit refuses the
    /// allocation that passes it, so the program fails then, a run-time error, even when the
    /// run also went on past its time.
    MemoryInPackage(Termination),
}

impl Decision {
    pub fn verdict(self) -> Verdict {
        match self {
            Decision::Run(verdict) => verdict,
            Decision::Output(check) => check.verdict(),
            Decision::MemoryInPackage(termination) => Verdict::RuntimeError(termination),
        }
    }
}

/// The one decision on a case: the validator's when `rules` leave it to it, else the run's
/// (as a package's format has it), else its output's, checked only when needed.
pub fn decide(
    run: &RunOutput,
    limits: &Limits,
    rules: Rules,
    check_output: impl FnOnce() -> OutputCheck,
) -> Decision {
    if rules.validator_decides {
        return Decision::Output(check_output());
    }
    let Some(verdict) = classify_run(run, limits) else {
        return Decision::Output(check_output());
    };
    let over_memory = verdict == Verdict::MemoryLimitExceeded
        || (verdict == Verdict::TimeLimitExceeded && run.peak_memory_bytes > limits.memory_bytes);
    if rules.package && over_memory {
        return Decision::MemoryInPackage(run.termination);
    }
    Decision::Run(verdict)
}

/// Whether a case's first run may not stand, but a serial re-run must decide it: a time
/// verdict that the machine's load may have caused (unless it cannot have,
/// `CaseResult::beyond_load`), or a time near or over the limit for a verdict of the output.
pub fn needs_confirmation(result: &CaseResult, cpu_time_limit: Duration) -> bool {
    let near = cpu_time_limit.mul_f64(CONFIRM_SHARE);
    match result.verdict {
        Verdict::TimeLimitExceeded => !result.beyond_load,
        Verdict::Accepted | Verdict::WrongAnswer => result.cpu_time >= near,
        // Load does not make a program use more memory or output, crash, or fail to build;
        // nor does it break the judge.
        Verdict::MemoryLimitExceeded
        | Verdict::OutputLimitExceeded
        | Verdict::RuntimeError(_)
        | Verdict::CompileError
        | Verdict::JudgeError => false,
    }
}

/// A case confirmed by its serial re-run: that run decides, verdict and figures, since load
/// cannot have skewed it the way it may have skewed the first.
pub fn confirmed(rerun: CaseResult) -> CaseResult {
    CaseResult {
        confirmed: true,
        ..rerun
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            cpu_time: Duration::from_secs(1),
            memory_bytes: 100,
            output_bytes: 100,
            decided_at: None,
            stack_bytes: 100,
        }
    }

    pub(crate) fn clean_run() -> RunOutput {
        RunOutput {
            termination: Termination::Exited(0),
            cpu_time: Duration::from_millis(10),
            wall_time: Duration::from_millis(10),
            peak_memory_bytes: 10,
            stdout: Vec::new(),
            matched_expected: false,
            stdout_matched: Default::default(),
            stderr: Vec::new(),
            output_limit_exceeded: false,
            wall_timeout: false,
            memory_limit_seen: false,
            out_of_memory: false,
            starved: Duration::ZERO,
            load: None,
        }
    }

    #[test]
    fn the_kernels_cpu_limit_signal_is_a_time_limit_whatever_time_was_measured() {
        let run = RunOutput {
            termination: Termination::Signaled(libc::SIGXCPU),
            ..clean_run()
        };
        assert_eq!(
            classify_run(&run, &limits()),
            Some(Verdict::TimeLimitExceeded)
        );
    }

    #[test]
    fn clean_run_is_decided_by_the_output() {
        assert_eq!(
            classify(&clean_run(), &limits(), || OutputCheck::Matches),
            Verdict::Accepted
        );
        assert_eq!(
            classify(&clean_run(), &limits(), || OutputCheck::Differs),
            Verdict::WrongAnswer
        );
    }

    #[test]
    fn a_failed_check_is_the_judges_error_and_is_not_made_for_a_failed_run() {
        assert_eq!(
            classify(&clean_run(), &limits(), || OutputCheck::Failed),
            Verdict::JudgeError
        );
        let crashed = RunOutput {
            termination: Termination::Exited(1),
            ..clean_run()
        };
        let verdict = classify(&crashed, &limits(), || {
            panic!("the output of a failed run is not checked")
        });
        assert_eq!(verdict, Verdict::RuntimeError(Termination::Exited(1)));
    }

    #[test]
    fn kinds_group_verdicts_under_their_codes() {
        for (verdict, kind) in [
            (Verdict::Accepted, VerdictKind::Accepted),
            (
                Verdict::RuntimeError(Termination::Signaled(libc::SIGSEGV)),
                VerdictKind::RuntimeError,
            ),
            (Verdict::JudgeError, VerdictKind::JudgeError),
        ] {
            assert_eq!(verdict.kind(), kind);
        }
        let codes: Vec<&str> = VerdictKind::ALL.iter().map(|kind| kind.code()).collect();
        assert_eq!(codes, ["AC", "WA", "TLE", "MLE", "OLE", "RE", "CE", "JE"]);
    }

    #[test]
    fn limits_come_before_the_signal_that_enforced_them() {
        let killed = RunOutput {
            termination: Termination::Signaled(libc::SIGKILL),
            ..clean_run()
        };
        let cases = [
            (
                RunOutput {
                    cpu_time: Duration::from_millis(1001),
                    ..killed.clone()
                },
                "TLE",
            ),
            (
                RunOutput {
                    wall_timeout: true,
                    ..killed.clone()
                },
                "TLE",
            ),
            (
                RunOutput {
                    peak_memory_bytes: 101,
                    ..killed.clone()
                },
                "MLE",
            ),
            (
                RunOutput {
                    out_of_memory: true,
                    ..killed.clone()
                },
                "MLE",
            ),
            (
                RunOutput {
                    output_limit_exceeded: true,
                    ..killed.clone()
                },
                "OLE",
            ),
            (killed.clone(), "RE (SIGKILL)"),
            (
                RunOutput {
                    termination: Termination::Exited(101),
                    ..clean_run()
                },
                "RE (exit 101)",
            ),
            (
                RunOutput {
                    termination: Termination::Signaled(libc::SIGSEGV),
                    ..clean_run()
                },
                "RE (SIGSEGV)",
            ),
        ];
        for (run, expected) in cases {
            assert_eq!(
                classify(&run, &limits(), || OutputCheck::Matches).to_string(),
                expected,
                "{run:?}"
            );
        }
    }

    #[test]
    fn documented_order_when_several_limits_are_exceeded() {
        let everything = RunOutput {
            termination: Termination::Exited(1),
            cpu_time: Duration::from_secs(2),
            peak_memory_bytes: 1000,
            output_limit_exceeded: true,
            ..clean_run()
        };
        assert_eq!(
            classify_run(&everything, &limits()),
            Some(Verdict::TimeLimitExceeded)
        );
        let no_time = RunOutput {
            cpu_time: Duration::ZERO,
            ..everything.clone()
        };
        assert_eq!(
            classify_run(&no_time, &limits()),
            Some(Verdict::MemoryLimitExceeded)
        );
        let no_memory = RunOutput {
            peak_memory_bytes: 0,
            ..no_time
        };
        assert_eq!(
            classify_run(&no_memory, &limits()),
            Some(Verdict::OutputLimitExceeded)
        );
    }

    #[test]
    fn cpu_time_exactly_at_the_limit_is_accepted() {
        let run = RunOutput {
            cpu_time: Duration::from_secs(1),
            ..clean_run()
        };
        assert_eq!(
            classify(&run, &limits(), || OutputCheck::Matches),
            Verdict::Accepted
        );
    }

    #[test]
    fn only_a_time_verdict_past_what_load_can_explain_stands_without_a_rerun() {
        let load = |others_ms: u64, all_busy_ms: u64| {
            Some(crate::sandbox::Load {
                others_us: others_ms * 1000,
                all_busy_us: all_busy_ms * 1000,
            })
        };
        let over = |cpu_ms: u64, load| RunOutput {
            cpu_time: Duration::from_millis(cpu_ms),
            load,
            ..clean_run()
        };
        let limits = limits();
        // 1000 ms limit: 1200 ms of CPU with 100 ms elsewhere stands; with 300 ms it may not.
        assert!(beyond_load(&over(1200, load(100, 0)), &limits, false));
        assert!(!beyond_load(&over(1200, load(300, 0)), &limits, false));
        assert!(
            !beyond_load(&over(1200, None), &limits, false),
            "unmeasured"
        );
        let idle = |load| RunOutput {
            wall_timeout: true,
            load,
            ..clean_run()
        };
        assert!(beyond_load(&idle(None), &limits, false), "asleep, alone");
        assert!(beyond_load(&idle(load(5000, 200)), &limits, true));
        assert!(
            !beyond_load(&idle(load(5000, 2000)), &limits, true),
            "its validator may have waited for a CPU"
        );
        let starved = RunOutput {
            starved: Duration::from_millis(500),
            ..idle(load(0, 0))
        };
        assert!(
            !beyond_load(&starved, &limits, false),
            "CPU time under the limit"
        );
        // A run to 4 × the limit its verdicts are decided at: 4400 ms with 2000 ms elsewhere is
        // far past that limit, though not past the one it ran to.
        let beyond = Limits {
            cpu_time: Duration::from_secs(4),
            decided_at: Some(limits.cpu_time),
            ..limits
        };
        assert!(beyond_load(&over(4400, load(2000, 0)), &beyond, false));
        let to_the_end = Limits {
            decided_at: None,
            ..beyond
        };
        assert!(!beyond_load(&over(4400, load(2000, 0)), &to_the_end, false));
        assert_eq!(
            crate::sandbox::wall_backstop(&beyond),
            Duration::from_secs(3)
        );
        assert_eq!(
            crate::sandbox::wall_backstop(&to_the_end),
            Duration::from_secs(9)
        );
    }

    #[test]
    fn every_code_reads_back_as_its_kind() {
        for kind in VerdictKind::ALL {
            assert_eq!(kind.code().parse(), Ok(kind));
        }
        assert_eq!(
            "RTE".parse::<VerdictKind>(),
            Err(UnknownVerdict("RTE".to_owned()))
        );
    }

    #[test]
    fn in_a_package_memory_past_the_limit_is_a_runtime_error_even_past_the_time_limit() {
        let package = Rules {
            package: true,
            validator_decides: false,
        };
        let killed = RunOutput {
            termination: Termination::Signaled(libc::SIGKILL),
            peak_memory_bytes: 101,
            ..clean_run()
        };
        let unchecked = || -> OutputCheck { panic!("a failed run's output is not checked") };
        assert_eq!(
            decide(&killed, &limits(), package, unchecked),
            Decision::MemoryInPackage(Termination::Signaled(libc::SIGKILL))
        );
        let slow_and_big = RunOutput {
            wall_timeout: true,
            ..killed.clone()
        };
        let verdict = decide(&slow_and_big, &limits(), package, unchecked).verdict();
        assert_eq!(verdict.to_string(), "RE (SIGKILL)");
        assert_eq!(
            decide(&slow_and_big, &limits(), Rules::default(), unchecked),
            Decision::Run(Verdict::TimeLimitExceeded),
            "outside a package"
        );
        let only_slow = RunOutput {
            peak_memory_bytes: 10,
            ..slow_and_big
        };
        assert_eq!(
            decide(&only_slow, &limits(), package, unchecked),
            Decision::Run(Verdict::TimeLimitExceeded)
        );
    }

    #[test]
    fn a_validator_that_decides_overrules_the_run() {
        let rules = Rules {
            package: true,
            validator_decides: true,
        };
        let crashed = RunOutput {
            termination: Termination::Exited(1),
            peak_memory_bytes: 1000,
            ..clean_run()
        };
        for (check, verdict) in [
            (OutputCheck::Matches, Verdict::Accepted),
            (OutputCheck::Differs, Verdict::WrongAnswer),
            (OutputCheck::Failed, Verdict::JudgeError),
        ] {
            let decision = decide(&crashed, &limits(), rules, || check);
            assert_eq!(decision, Decision::Output(check));
            assert_eq!(decision.verdict(), verdict);
        }
    }

    fn result(verdict: Verdict, cpu_ms: u64, beyond_load: bool) -> CaseResult {
        CaseResult {
            name: "1".into(),
            verdict,
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::ZERO,
            peak_memory_bytes: 0,
            confirmed: false,
            beyond_load,
            failure: None,
            score: None,
            cached: false,
        }
    }

    #[test]
    fn time_verdicts_load_may_explain_and_outputs_near_the_limit_are_run_again() {
        let limit = Duration::from_secs(1);
        let rerun =
            |verdict, cpu_ms, beyond| needs_confirmation(&result(verdict, cpu_ms, beyond), limit);
        assert!(rerun(Verdict::TimeLimitExceeded, 1100, false));
        assert!(
            !rerun(Verdict::TimeLimitExceeded, 1100, true),
            "beyond load"
        );
        assert!(rerun(Verdict::Accepted, 900, false));
        assert!(!rerun(Verdict::Accepted, 899, false));
        assert!(rerun(Verdict::WrongAnswer, 950, false));
        let exited = Verdict::RuntimeError(Termination::Exited(1));
        for verdict in [
            Verdict::MemoryLimitExceeded,
            Verdict::OutputLimitExceeded,
            exited,
            Verdict::CompileError,
            Verdict::JudgeError,
        ] {
            assert!(!rerun(verdict, 1100, false), "{verdict}");
        }
        let again = confirmed(result(Verdict::Accepted, 700, false));
        assert!(again.confirmed);
        assert_eq!(
            (again.verdict, again.cpu_time),
            (Verdict::Accepted, Duration::from_millis(700))
        );
    }
}
