//! A problem's checker as its metadata declares it (`problem.toml`'s `checker` or
//! `interactor`, a package's output validator); `judging::checker` runs it.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use crate::toolchain::Limits;

/// Checkers are trusted code: limits only stop one that hangs. Their stack is unlimited
/// (`RLIM_INFINITY`), as problemtools runs every program: a validator's `std::regex` over a
/// line of a million characters recurses past any fixed stack.
pub const CHECKER_LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(30),
    memory_bytes: 2 << 30,
    output_bytes: 1 << 20,
    decided_at: None,
    stack_bytes: u64::MAX,
};

/// How a checker is called and how it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// `checker input output answer`; exit 0 accepted, 1 wrong answer, 2 presentation error
    /// and 4 (testlib's "dirt") wrong answers, 3 checker failure, 7 accepted with points.
    Testlib,
    /// `validator input answer feedback_dir [flags] < output`; exit 42 accepted, 43 wrong
    /// answer; the reason in `feedback_dir/judgemessage.txt`.
    Kattis,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CheckerSpec {
    /// Inside the problem folder.
    pub source: PathBuf,
    pub protocol: Protocol,
    /// Extra arguments (Kattis' `validator_flags`).
    pub flags: Vec<String>,
    /// A scoring package's validator: its `score.txt` (or `score_multiplier.txt`) is read and
    /// held to the format's rules; elsewhere such files are not the judge's business.
    pub reads_scores: bool,
    /// A package's `validation_time` and `validation_memory`.
    pub limits: Limits,
    pub mode: Mode,
    /// A testlib checker called `input output answer report -appes`, its result read from the
    /// XML it writes to `report`, as Polygon and Codeforces read it (exit codes alone cannot
    /// tell a partially correct answer from a wrong one).
    pub appes: bool,
}

impl CheckerSpec {
    /// A testlib checker (or interactor) with no flags and the checkers' limits.
    pub fn testlib(source: PathBuf, mode: Mode) -> CheckerSpec {
        CheckerSpec {
            source,
            protocol: Protocol::Testlib,
            flags: Vec::new(),
            reads_scores: false,
            limits: CHECKER_LIMITS,
            mode,
            appes: false,
        }
    }
}

/// How a checker meets the submission (see `judging::interactive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// An interactor, talking with the running submission.
    pub interactive: bool,
    /// How many times the submission may run, each pass on the `nextpass.in` the checker
    /// left (a multi-pass problem's `validation_passes`); else 1.
    pub passes: u32,
    /// A Polygon run-twice problem (`run-count="2"`, two passes): what writes the second
    /// run's input and who judges it.
    pub twice: Option<RunTwice>,
}

/// The three kinds of Polygon's run-twice problems, as Polygon's default judging strategy
/// runs them; the second run's input is written by the first pass's checker or interactor,
/// which tells the two runs apart by what it finds in its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunTwice {
    /// No interactor: after the first run the checker judges it and prints the second run's
    /// input; after the second it judges that (`checker run2_input run2_output answer`).
    Checked,
    /// The interactor talks with the first run and writes the second run's input as its
    /// output file; the checker judges the second run's output.
    FirstInteractive,
    /// The interactor lists both runs (`<runs>`): it talks with each, and the checker judges
    /// what it wrote in the second (`checker run2_input tout answer`).
    BothInteractive,
}

impl Mode {
    /// The checker reads the output of one run.
    pub const AFTER_RUN: Mode = Mode {
        interactive: false,
        passes: 1,
        twice: None,
    };

    /// Whether `judging::interactive` judges the case instead of the usual run then check.
    pub fn is_plain(self) -> bool {
        self == Mode::AFTER_RUN
    }
}
