//! Errors of the harness itself (never of a solution: those are verdicts), and the exit codes.
//!
//! Every message is a lowercase fragment that names the file, and the key or line where one
//! is known, so that a user can go straight to the fault.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const EXIT_ACCEPTED: u8 = 0;
/// Some case was not accepted (or a solution did not compile).
pub const EXIT_REJECTED: u8 = 1;
/// Usage error or a fault of the harness: a malformed problem folder, a missing file, ...
pub const EXIT_ERROR: u8 = 2;

/// The outcome of a whole command, ordered by severity so that the worst one wins.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Every case was accepted (or the command did all it was asked).
    Accepted,
    /// Some case was not accepted, or a solution did not compile.
    Rejected,
    /// Stopped by a signal before it had judged everything.
    Interrupted,
    /// A fault of the input or of the harness.
    Error,
}

impl Outcome {
    /// As JSON reports name it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Accepted => "accepted",
            Outcome::Rejected => "rejected",
            Outcome::Interrupted => "interrupted",
            Outcome::Error => "error",
        }
    }

    pub fn exit_code(self) -> ExitCode {
        ExitCode::from(match self {
            Outcome::Accepted => EXIT_ACCEPTED,
            Outcome::Rejected => EXIT_REJECTED,
            // Not reached by a stopped command, which ends by its signal (`main`).
            Outcome::Interrupted | Outcome::Error => EXIT_ERROR,
        })
    }
}

/// A fault of the harness or of the user's files, as opposed to a verdict on a solution.
/// Each variant names what the user must look at: a file (with its line when known), a tool,
/// or the command line.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A user's file does not parse, or holds a value the judge cannot take.
    #[error("{}: {}{message}", path.display(), line.map(|line| format!("line {line}: ")).unwrap_or_default())]
    Parse {
        path: PathBuf,
        /// 1-based, where the parser knows it.
        line: Option<usize>,
        /// Names the key where there is one.
        message: String,
    },
    /// A name the judge treats as text (a problem id, a case name) is not valid UTF-8.
    #[error("{}: {what} is not valid UTF-8", path.display())]
    NotUtf8 {
        path: PathBuf,
        /// `problem folder name`, `file name`.
        what: &'static str,
    },
    /// The command would replace a file or folder that it did not make.
    #[error("{}: already exists: refusing to overwrite it", path.display())]
    Exists { path: PathBuf },
    /// A file changed (or appeared) after the command planned to write it.
    #[error("{}: changed while the command ran: left as it is", path.display())]
    Changed { path: PathBuf },
    /// A problem folder is not in a state the command can work with.
    #[error("{}: {fault}", path.display())]
    Corpus { path: PathBuf, fault: CorpusFault },
    #[error("{}: {fault}", path.display())]
    Language { path: PathBuf, fault: LanguageFault },
    /// A program the judge runs for itself (reference, generator) failed.
    #[error("{}: {message}", path.display())]
    ToolFailed {
        /// The program's source.
        path: PathBuf,
        /// With the end of what it wrote to stderr.
        message: String,
    },
    /// A program the judge builds for itself (reference, generator, checker, the solution
    /// under stress) does not compile.
    #[error("{}: does not compile:\n{}", path.display(), message.trim_end())]
    DoesNotCompile {
        /// The program's source.
        path: PathBuf,
        /// The compiler's message.
        message: String,
    },
    /// A compiler or runtime could not be started.
    #[error("cannot run `{tool}` {purpose} ({source}): is the toolchain installed?")]
    Toolchain {
        /// `rustc`, `javac`.
        tool: String,
        /// `to build solutions/p.rs`.
        purpose: String,
        source: std::io::Error,
    },
    /// A program needs a tool that is not installed: it is not judged, the others are.
    #[error(
        "{}: not judged: `{tool}` ({language}) is not installed{}",
        program.display(),
        install.map_or(String::new(), |how| format!("; install it: {how}"))
    )]
    MissingToolchain {
        /// The program's source.
        program: PathBuf,
        /// `kotlinc`.
        tool: String,
        language: &'static str,
        /// How to install it, where we know.
        install: Option<&'static str>,
    },
    /// The problem's validator rejects an input: it is not one the statement allows.
    #[error("{case}: not a legal input: {} says\n    {}", validator.display(), message.replace('\n', "\n    "))]
    InvalidInput {
        /// The case, or how the input was made (`gen 3 count=5`).
        case: String,
        /// The validator's source.
        validator: PathBuf,
        /// What it said (the line and what is wrong).
        message: String,
    },
    #[error("no `problems/` folder in {} or any folder above it", start.display())]
    NoRoot { start: PathBuf },
    /// Outside any repository, a name that is no folder either.
    #[error(
        "no problem `{name}`: no such folder in {}, and no `problems/` folder there or above \
         (run it inside the repository, or give `--root`)",
        start.display()
    )]
    NowhereToFind { name: String, start: PathBuf },
    #[error("no problem named `{name}` in {}{}", problems_dir.display(), suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    UnknownProblem {
        name: String,
        problems_dir: PathBuf,
        /// The known problem closest to the name, when it is close enough to be a typo.
        suggestion: Option<String>,
    },
    #[error("{}: not a problem folder: it holds none of problem.toml, problem.yaml, problem.xml, tests/ or data/", path.display())]
    NotAProblem { path: PathBuf },
    /// `judge verify` on a folder that is not a Kattis package.
    #[error("{}: not a Kattis package: no {missing}", path.display())]
    NotAPackage { path: PathBuf, missing: String },
    /// A package's data breaks its validators, or a validator fails (`run --validate`).
    #[error("{}: {message}", package.display())]
    PackageData {
        package: PathBuf,
        /// The file and what is wrong, as `verify` lists it.
        message: String,
    },
    /// An error a shard's report holds, as it said it (`judge merge`).
    #[error("{message}")]
    Reported {
        message: String,
        /// It stood for a problem that could not be loaded.
        unloaded: bool,
    },
    /// The command line asks for something that cannot be done.
    #[error("{message}")]
    Usage {
        /// What, and how to ask instead.
        message: String,
    },
    /// SIGINT, SIGTERM or SIGHUP arrived while a corpus command was working; what it had
    /// committed is complete, the rest was not started.
    #[error("interrupted")]
    Interrupted,
}

/// What is wrong with a problem folder (or a package) for the command at hand; the message
/// follows the path it concerns.
/// A folder walk's error as the I/O error it is, naming its path; a link whose target is
/// missing says so, where the kernel's "no such file" would leave the reader to find why.
impl From<walkdir::Error> for Error {
    fn from(error: walkdir::Error) -> Error {
        let path = error.path().map(Path::to_path_buf).unwrap_or_default();
        let said = error.to_string();
        let source = match std::fs::read_link(&path).ok().filter(|_| !path.exists()) {
            Some(target) => std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("a link to {}, which does not exist", target.display()),
            ),
            None => error
                .into_io_error()
                .unwrap_or_else(|| std::io::Error::other(said)),
        };
        Error::Io { path, source }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CorpusFault {
    #[error("no [stress] section: `judge stress` needs one")]
    NoStressSection,
    /// A counterexample that no longer fails when run again.
    #[error("the saved counterexample passes when run again: the solution is not deterministic")]
    NotDeterministic,
    #[error("no recipe: nothing to generate")]
    NoRecipe,
    /// Another judge command holds the problem's lock.
    #[error("another judge command is changing this problem: wait until it ends")]
    Locked,
    #[error("is not inside the problem folder")]
    OutsideProblem,
    #[error(
        "is the solution under test: expected outputs must come from an independent reference"
    )]
    ReferenceIsSolution,
    #[error("solution of `{problem}` not found (create it, or name another file with --solution)")]
    NoSolution { problem: String },
    /// A corpus command was killed mid-change; its journal is still there.
    #[error(
        "a corpus command was killed before it finished: run `judge gen` (or `add`, \
         `bless --write`, `stress`) on this problem to complete its change"
    )]
    Unfinished,
    #[error("no test cases: expected a `tests/` folder holding NAME.in and NAME.out files")]
    NoTestsFolder,
    #[error(
        "no test cases: expected NAME.in and NAME.out files (`judge add` makes one, \
         `judge listen` takes a page's samples)"
    )]
    NoCases,
    #[error("no test cases: expected NAME.in and NAME.ans files in data/sample/ or data/secret/")]
    NoPackageCases,
    #[error("input has no expected output (add a .out file beside it)")]
    NoExpectedOutput,
    #[error("input has no answer (add a .ans file beside it)")]
    NoAnswer,
    #[error("expected output has no input (add a .in file beside it)")]
    NoInput,
    #[error("answer has no input (add a .in file beside it)")]
    AnswerWithoutInput,
    /// A case's file (`NAME.in`, `NAME.out`, `NAME.ans`) that is a folder.
    #[error("is a folder, not a file")]
    FolderNotFile,
    #[error("both a .out and an .ans file: keep one of them")]
    TwoAnswers,
    /// In a case's `NAME.files`: a pipe, socket or device, which cannot be copied.
    #[error("is in a case's .files folder and is no file, folder or link: it cannot be given to the submission")]
    NotCopyable,
    #[error("no problem folders")]
    NoProblems,
    /// A program of the problem a corpus command needs (`reference.rs`, `gen.rs`).
    #[error("does not exist: this command needs {purpose}; write it there")]
    NoSuchTool { purpose: &'static str },
    /// A checker or interactor the problem names, not written yet (an imported interactive
    /// problem's `interactor.cpp`).
    #[error("does not exist: the problem names it as its {role}; write it, or take the name out")]
    NotWritten { role: &'static str },
    #[error("the package has a custom output validator, but neither output_validator/ nor output_validators/ holds one")]
    NoValidator,
}

/// Why the judge cannot tell (or take) a source's language; the message follows the
/// source's path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LanguageFault {
    #[error("unknown language: no compiler for this file extension")]
    UnknownExtension,
    /// A language of the package format's table that this judge does not build.
    #[error("{0} is not a language this judge runs")]
    NotRunHere(&'static str),
    #[error("unknown language: no compiler for this file extension (known: .{known})")]
    UnknownExtensionAmong {
        /// `, .` between them.
        known: String,
    },
    #[error("is a folder, not a source file")]
    Folder,
    /// A submission set aside as `*.disabled`.
    #[error("disabled by its `.disabled` ending")]
    Disabled,
    #[error("unknown language: no file in this folder has a known extension")]
    NoKnownFile,
    #[error("cannot tell this folder's language: it holds {languages}")]
    Mixed {
        /// ` and ` between them.
        languages: String,
    },
    /// A folder named to be in a language none of its files is in.
    #[error("no file in this folder is in {language}")]
    NotIn { language: &'static str },
    #[error("its entrypoint `{entrypoint}` (submissions.yaml) is not one of its files")]
    NoEntrypoint { entrypoint: String },
}

impl LanguageFault {
    /// The message up to its first `:`, for a row that names the source already.
    pub fn summary(&self) -> String {
        let message = self.to_string();
        match message.split_once(':') {
            Some((summary, _)) => summary.to_owned(),
            None => message,
        }
    }
}

impl Error {
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    pub fn parse(path: impl AsRef<Path>, line: Option<usize>, message: impl Into<String>) -> Self {
        Error::Parse {
            path: path.as_ref().to_path_buf(),
            line,
            message: message.into(),
        }
    }

    pub fn corpus(path: impl AsRef<Path>, fault: CorpusFault) -> Self {
        Error::Corpus {
            path: path.as_ref().to_path_buf(),
            fault,
        }
    }

    pub fn language(path: impl AsRef<Path>, fault: LanguageFault) -> Self {
        Error::Language {
            path: path.as_ref().to_path_buf(),
            fault,
        }
    }

    pub fn not_utf8(path: impl AsRef<Path>, what: &'static str) -> Self {
        Error::NotUtf8 {
            path: path.as_ref().to_path_buf(),
            what,
        }
    }

    pub fn exists(path: impl AsRef<Path>) -> Self {
        Error::Exists {
            path: path.as_ref().to_path_buf(),
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage {
            message: message.into(),
        }
    }

    /// Exit 2 (a fault of the input or of the harness, told apart from 1, a case not
    /// accepted), but 1 for an input the problem's validator rejects. Listed so that a new
    /// variant decides.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::InvalidInput { .. } => 1,
            Error::Usage { .. }
            | Error::NoRoot { .. }
            | Error::NowhereToFind { .. }
            | Error::UnknownProblem { .. }
            | Error::NotAProblem { .. }
            | Error::NotAPackage { .. }
            | Error::PackageData { .. }
            | Error::Reported { .. }
            | Error::Parse { .. }
            | Error::NotUtf8 { .. }
            | Error::Exists { .. }
            | Error::Changed { .. }
            | Error::Corpus { .. }
            | Error::Language { .. }
            | Error::DoesNotCompile { .. }
            | Error::ToolFailed { .. }
            | Error::Toolchain { .. }
            | Error::MissingToolchain { .. }
            | Error::Io { .. } => EXIT_ERROR,
            // `main` ends by the signal instead, as a shell expects.
            Error::Interrupted => EXIT_ERROR,
        }
    }

    /// The problem has no cases yet (made by `judge new`, or imported from a page without
    /// samples): it can be listed, not judged.
    pub fn is_no_cases(&self) -> bool {
        matches!(
            self,
            Error::Corpus {
                fault: CorpusFault::NoTestsFolder
                    | CorpusFault::NoCases
                    | CorpusFault::NoPackageCases,
                ..
            }
        )
    }

    /// It is about a problem that was loaded (an input its validator rejects, its package's
    /// data), not one that could not be: such a problem is counted among those judged.
    pub fn is_of_a_loaded_problem(&self) -> bool {
        match self {
            Error::InvalidInput { .. } | Error::PackageData { .. } => true,
            Error::Reported { unloaded, .. } => !unloaded,
            _ => false,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What `read` gets from `path`, `None` where nothing is there; any other failure is an
/// error naming the path.
pub fn if_exists<'a, T>(
    path: &'a Path,
    read: impl FnOnce(&'a Path) -> std::io::Result<T>,
) -> Result<Option<T>> {
    match read(path) {
        Ok(value) => Ok(Some(value)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(Error::io(path, error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_file_and_line() {
        let error = Error::parse("p/problem.toml", Some(2), "unknown field `x`");
        assert_eq!(
            error.to_string(),
            "p/problem.toml: line 2: unknown field `x`"
        );
        let error = Error::parse("p/problem.toml", None, "bad");
        assert_eq!(error.to_string(), "p/problem.toml: bad");
    }

    #[test]
    fn a_walk_error_names_its_path_once() {
        let missing = std::env::temp_dir().join("judge-no-such-folder-for-this-test");
        let walk = walkdir::WalkDir::new(&missing).into_iter().next().unwrap();
        let message = Error::from(walk.unwrap_err()).to_string();
        assert_eq!(
            message
                .matches("judge-no-such-folder-for-this-test")
                .count(),
            1,
            "{message}"
        );
    }
}
