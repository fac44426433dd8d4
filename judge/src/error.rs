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
    pub fn exit_code(self) -> ExitCode {
        ExitCode::from(match self {
            Outcome::Accepted => EXIT_ACCEPTED,
            Outcome::Rejected => EXIT_REJECTED,
            Outcome::Error => EXIT_ERROR,
        })
    }
}

/// A fault of the harness or of the user's files, as opposed to a verdict on a solution.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
    #[error("no `problems/` folder in {} or any folder above it", start.display())]
    NoRoot { start: PathBuf },
    #[error("no problem named `{name}` in {}{}", problems_dir.display(), suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    UnknownProblem {
        name: String,
        problems_dir: PathBuf,
        suggestion: Option<String>,
    },
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

    pub fn invalid(path: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Error::Invalid {
            path: path.as_ref().to_path_buf(),
            message: message.into(),
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage {
            message: message.into(),
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
