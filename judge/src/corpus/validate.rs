//! A problem's input validator, `validator.<ext>` in its folder: it reads one input on stdin
//! and exits 0 when the statement allows it, else non-zero with the line and what is wrong on
//! stderr. Every command that makes a case asks it first, so that no input the statement
//! forbids enters the corpus.

use std::path::PathBuf;

use super::{build_tool, Tool};
use crate::error::{Error, Result};
use crate::judging::verdict::classify_run;
use crate::problem::layout::VALIDATOR_STEM;
use crate::problem::Problem;
use crate::sandbox::Termination;
use crate::toolchain::language::Language;
use crate::toolchain::Compiler;

/// Lines of a validator's message kept in the error.
const MESSAGE_LINES: usize = 10;

pub struct Validator(Tool);

impl Validator {
    /// The problem's validator, built, or `None` when it has none. Two validators (say
    /// `validator.rs` and `validator.cpp`) are an error: which one rules would be a guess.
    pub fn of(compiler: &Compiler, problem: &Problem) -> Result<Option<Validator>> {
        let Some(file) = validator_file(problem)? else {
            return Ok(None);
        };
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        Ok(Some(Validator(build_tool(compiler, problem, &name)?)))
    }

    /// Whether the validator takes `input`, a case of `group` (with that group's
    /// `validator_args`); `case` names it in the error (the case, or the generator's
    /// arguments that made it). A validator that crashes or runs out of time is an error of
    /// its own, never a pass.
    pub fn check(
        &self,
        input: &[u8],
        problem: &Problem,
        case: &str,
        group: Option<&str>,
    ) -> Result<()> {
        let tool = &self.0;
        let stdin = tempfile::NamedTempFile::new()
            .map_err(|error| Error::io(std::env::temp_dir(), error))?;
        std::fs::write(stdin.path(), input).map_err(|error| Error::io(stdin.path(), error))?;
        let limits = problem.limits_for(tool.program.language);
        let run = tool
            .program
            .run(stdin.path(), limits, problem.validator_args(group))
            .map_err(|error| Error::ToolFailed {
                path: tool.path.clone(),
                message: format!("cannot run: {error}"),
            })?;
        let rejected = matches!(run.termination, Termination::Exited(code) if code != 0);
        if rejected && !run.out_of_memory && run.cpu_time <= limits.cpu_time {
            let stderr = String::from_utf8_lossy(&run.stderr);
            let message: Vec<&str> = stderr.lines().take(MESSAGE_LINES).collect();
            return Err(Error::InvalidInput {
                case: case.to_owned(),
                validator: tool.path.clone(),
                message: message.join("\n"),
            });
        }
        if let Some(verdict) = classify_run(&run, &limits) {
            return Err(Error::ToolFailed {
                path: tool.path.clone(),
                message: format!("{verdict} on {case}"),
            });
        }
        Ok(())
    }
}

/// The group of the case named `name` (`small/3`): its first folder.
pub fn group_of(name: &str) -> Option<&str> {
    name.split_once('/').map(|(group, _)| group)
}

/// The problem's `validator.<ext>`, where it has one in a language the judge knows.
pub(super) fn validator_file(problem: &Problem) -> Result<Option<PathBuf>> {
    let entries =
        std::fs::read_dir(&problem.dir).map_err(|error| Error::io(&problem.dir, error))?;
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_stem().is_some_and(|stem| stem == VALIDATOR_STEM)
                && path.is_file()
                && Language::of(path).is_some()
        })
        .collect();
    found.sort();
    match found.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.clone())),
        [first, second, ..] => Err(Error::usage(format!(
            "{} and {}: a problem has one validator",
            first.display(),
            second.display()
        ))),
    }
}
