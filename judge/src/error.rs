//! Errors of the harness itself (never of a solution: those are verdicts), and the exit codes.
//!
//! Every message is a lowercase fragment that names the file, and the key or line where one
//! is known, so that a user can go straight to the fault.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Everything was accepted.
pub const EXIT_ACCEPTED: u8 = 0;
/// Some case was not accepted (or a solution did not compile).
pub const EXIT_REJECTED: u8 = 1;
/// Usage error or a fault of the harness: a malformed problem folder, a missing file, ...
pub const EXIT_ERROR: u8 = 2;

/// The outcome of a whole command, ordered by severity so that the worst one wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Accepted,
    Rejected,
    Error,
}

impl Outcome {
    /// As JSON reports name it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Accepted => "accepted",
            Outcome::Rejected => "rejected",
            Outcome::Error => "error",
        }
    }

    pub fn exit_code(self) -> ExitCode {
        ExitCode::from(match self {
            Outcome::Accepted => EXIT_ACCEPTED,
            Outcome::Rejected => EXIT_REJECTED,
            Outcome::Error => EXIT_ERROR,
        })
    }
}

/// A fault of the harness or of the user's files, as opposed to a verdict on a solution.
/// Each variant names what the user must look at: a file (with its line when known), a tool,
/// or the command line.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Walking a folder failed; walkdir's message names the path itself.
    #[error("{0}")]
    Walk(#[from] walkdir::Error),
    /// A user's file does not parse, or holds a value the judge cannot take.
    #[error("{}: {}{message}", path.display(), line.map(|line| format!("line {line}: ")).unwrap_or_default())]
    Parse {
        path: PathBuf,
        /// 1-based, where the parser knows it.
        line: Option<usize>,
        message: String,
    },
    /// A name the judge treats as text (a problem id, a case name) is not valid UTF-8.
    #[error("{}: {what} is not valid UTF-8", path.display())]
    NotUtf8 { path: PathBuf, what: &'static str },
    /// The command would replace a file or folder that it did not make.
    #[error("{}: already exists: refusing to overwrite it", path.display())]
    Exists { path: PathBuf },
    /// A file changed (or appeared) after the command planned to write it: left as it is.
    #[error("{}: changed while the command ran: left as it is", path.display())]
    Changed { path: PathBuf },
    /// A problem folder is not in a state the command can work with: an unpaired or missing
    /// case, no recipe, a missing solution, a change another command left unfinished, ...
    #[error("{}: {reason}", path.display())]
    Corpus { path: PathBuf, reason: String },
    /// The judge cannot tell what language a source file or folder is in.
    #[error("{}: {reason}", path.display())]
    Language { path: PathBuf, reason: String },
    /// A program the judge runs for itself (reference, generator) failed.
    #[error("{}: {message}", path.display())]
    ToolFailed { path: PathBuf, message: String },
    /// A program the judge builds for itself (reference, generator, checker, the solution
    /// under stress) does not compile.
    #[error("{}: does not compile:\n{}", path.display(), message.trim_end())]
    DoesNotCompile { path: PathBuf, message: String },
    /// A compiler or runtime could not be started.
    #[error("cannot run `{tool}` {purpose} ({source}): is the toolchain installed?")]
    Toolchain {
        tool: String,
        /// What it was run for: `to build solutions/p.rs`.
        purpose: String,
        source: std::io::Error,
    },
    #[error("no `problems/` folder in {} or any folder above it", start.display())]
    NoRoot { start: PathBuf },
    #[error("no problem named `{name}` in {}{}", problems_dir.display(), suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    UnknownProblem {
        name: String,
        problems_dir: PathBuf,
        suggestion: Option<String>,
    },
    /// A folder named as a problem holds none of a problem's files.
    #[error("{}: not a problem folder: it holds none of problem.toml, problem.yaml, tests/ or data/", path.display())]
    NotAProblem { path: PathBuf },
    /// `judge verify` on a folder that is not a Kattis package.
    #[error("{}: not a Kattis package: no {missing}", path.display())]
    NotAPackage { path: PathBuf, missing: String },
    /// The command line asks for something that cannot be done.
    #[error("{message}")]
    Usage { message: String },
    /// SIGINT, SIGTERM or SIGHUP arrived while a corpus command was working; what it had
    /// committed is complete, the rest was not started.
    #[error("interrupted")]
    Interrupted,
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

    pub fn corpus(path: impl AsRef<Path>, reason: impl Into<String>) -> Self {
        Error::Corpus {
            path: path.as_ref().to_path_buf(),
            reason: reason.into(),
        }
    }

    pub fn language(path: impl AsRef<Path>, reason: impl Into<String>) -> Self {
        Error::Language {
            path: path.as_ref().to_path_buf(),
            reason: reason.into(),
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
}

impl Error {
    /// The process's exit code for this error. Every one is a fault of the input (the command
    /// line, a problem folder, a package) or of the harness, never a verdict on a solution:
    /// exit 2, told apart from 1 (a case not accepted). Listed so that a new variant decides.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage { .. }
            | Error::NoRoot { .. }
            | Error::UnknownProblem { .. }
            | Error::NotAProblem { .. }
            | Error::NotAPackage { .. }
            | Error::Parse { .. }
            | Error::NotUtf8 { .. }
            | Error::Exists { .. }
            | Error::Changed { .. }
            | Error::Corpus { .. }
            | Error::Language { .. }
            | Error::DoesNotCompile { .. }
            | Error::ToolFailed { .. }
            | Error::Toolchain { .. }
            | Error::Io { .. }
            | Error::Walk(_) => EXIT_ERROR,
            // `main` ends by the signal instead, as a shell expects.
            Error::Interrupted => EXIT_ERROR,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

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
