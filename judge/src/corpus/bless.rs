//! `judge bless`: every expected output recomputed from the reference and shown as a diff;
//! with `--write`, the outputs the judge wrote (and nobody edited since) are rewritten with
//! their provenance entries, in one transaction.

use std::path::PathBuf;

use super::transaction::{Session, Transaction};
use super::{build_tool, group_of, in_parallel, run_tool, Validator};
use crate::compare::diff::{self, DiffLine};
use crate::compare::{self, CompareMode};
use crate::error::{Error, Result};
use crate::problem::layout::REFERENCE_FILE;
use crate::problem::provenance::{content_hash, Provenance};
use crate::problem::Problem;
use crate::toolchain::compiler::Compiler;

/// One expected output the reference disagrees with.
#[derive(Debug)]
pub struct BlessChange {
    pub path: PathBuf,
    /// Where and why, as for a wrong answer.
    pub message: String,
    pub diff: Vec<DiffLine>,
    /// The judge wrote the current file (from a reference) and nobody edited it since: it may
    /// be rewritten. Otherwise it is hand-written and only shown.
    pub writable: bool,
    pub written: bool,
}

#[derive(Debug)]
pub struct Blessed {
    pub cases: usize,
    pub changes: Vec<BlessChange>,
}

/// Recomputes every case's expected output from the reference and returns those that would
/// change, with diffs; with `write`, rewrites the ones the judge wrote itself. `problem` needs
/// only its metadata: the cases are found here, after an interrupted change is completed.
pub fn bless(problem: &Problem, compiler: &Compiler, jobs: usize, write: bool) -> Result<Blessed> {
    let session = if write {
        Some(Session::begin(&problem.dir)?)
    } else {
        None
    };
    let cases = crate::problem::cases::find_cases(&problem.dir)?;
    let reference = build_tool(compiler, problem, REFERENCE_FILE)?;
    let validator = Validator::of(compiler, problem)?;
    let outputs = in_parallel(jobs, &cases, |case| {
        let input = std::fs::read(&case.input).map_err(|error| Error::io(&case.input, error))?;
        if let Some(validator) = &validator {
            validator.check(
                &input,
                problem,
                &format!("case `{}`", case.name),
                group_of(&case.name),
            )?;
        }
        let current =
            std::fs::read(&case.expected).map_err(|error| Error::io(&case.expected, error))?;
        let context = format!("case `{}`", case.name);
        Ok((
            current,
            run_tool(&reference, &[], &input, problem, &context)?,
        ))
    })?;
    let mut provenance = Provenance::load(&problem.dir)?;
    let mut changes = Vec::new();
    let mut transaction = session.as_ref().map(Transaction::new);
    for (case, (current, new)) in cases.iter().zip(outputs) {
        let Err(mismatch) = compare::compare(CompareMode::Exact, &current, &new) else {
            continue;
        };
        let current_hash = content_hash(&current);
        let recorded = provenance.cases.get_mut(&case.name);
        let writable = recorded
            .as_ref()
            .is_some_and(|origin| origin.output_hash == current_hash);
        if let (Some(transaction), Some(origin)) = (&mut transaction, recorded) {
            if writable {
                transaction.write(&case.expected, &new, Some(current_hash))?;
                origin.output_hash = content_hash(&new);
                origin.reference = reference.file_name.clone();
                origin.reference_hash = reference.hash.clone();
            }
        }
        changes.push(BlessChange {
            path: case.expected.clone(),
            message: mismatch.to_string(),
            diff: diff::window(&current, &new, mismatch.line),
            writable,
            written: false,
        });
    }
    let writing = changes.iter().any(|change| change.writable);
    if let (Some(mut transaction), true) = (transaction, writing) {
        transaction.write_provenance(&problem.dir, &provenance)?;
        let left = transaction.commit()?;
        for change in &mut changes {
            change.written = change.writable && !left.contains(&change.path);
        }
    }
    Ok(Blessed {
        cases: cases.len(),
        changes,
    })
}
