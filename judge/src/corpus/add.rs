//! `judge add`: one case, its two files and (from the reference) its provenance entry
//! committed together; an existing case is never overwritten.

use super::transaction::{Session, Transaction};
use super::{build_tool, case_paths, group_of, run_tool, Validator};
use crate::error::{Error, Result};
use crate::problem::layout::REFERENCE_FILE;
use crate::problem::provenance::{case_file, content_hash, Origin, Provenance};
use crate::problem::Problem;
use crate::toolchain::compiler::Compiler;

/// Where `judge add` takes the expected output from.
pub enum Expected {
    Given(Vec<u8>),
    FromReference,
}

/// How `judge add` names the new case.
pub enum Naming<'a> {
    /// Below `tests/`.
    Given(&'a str),
    /// The first of `candidate(0)`, `candidate(1)`, ... that is free, or that already holds
    /// this very case (an earlier run of the same command).
    Next(&'a dyn Fn(u64) -> String),
}

/// The case `add_case` made, or found.
pub struct AddedCase {
    /// Below `tests/`.
    pub name: String,
    /// Its two files held this input and expected output already: nothing new was added.
    pub already_there: bool,
}

/// Adds one case. An existing case is never overwritten; one that already holds exactly this
/// input and expected output is the case itself (the same case added twice, or a command run
/// again after an interruption), and only its provenance entry is brought up to date.
/// `derived_from` says how the input was made when a command made it.
pub fn add_case(
    problem: &Problem,
    compiler: &Compiler,
    naming: Naming,
    input: &[u8],
    expected: Expected,
    derived_from: Option<String>,
) -> Result<AddedCase> {
    let session = Session::begin(&problem.dir)?;
    let exists = |path: &std::path::Path| path.symlink_metadata().is_ok();
    let name = case_name(problem, naming, input);
    // Also an automatic name: `tests/manual` may be a symlink leading out.
    if let Err(reason) = case_file(&problem.dir, &name, "in") {
        return Err(Error::usage(format!(
            "case name `{name}` must be a relative path below tests/, like `manual/3`: {reason}"
        )));
    }
    if let Some(validator) = Validator::of(compiler, problem)? {
        validator.check(input, problem, "the new case", group_of(&name))?;
    }
    let [input_path, output_path, answer_path] = case_paths(problem, &name);
    if exists(&answer_path) {
        return Err(Error::exists(&answer_path));
    }
    let same_input = std::fs::read(&input_path).is_ok_and(|bytes| bytes == input);
    if exists(&input_path) && !same_input {
        return Err(Error::exists(&input_path));
    }
    let (output, origin) =
        expected_output(expected, compiler, problem, (&name, input), derived_from)?;
    let same_output = std::fs::read(&output_path).is_ok_and(|bytes| bytes == output);
    if exists(&output_path) && !same_output {
        return Err(Error::exists(&output_path));
    }
    let mut provenance = Provenance::load(&problem.dir)?;
    // An entry left by a case deleted by hand must not vouch for the new files.
    provenance.cases.remove(&name);
    if let Some(origin) = origin {
        provenance.cases.insert(name.clone(), origin);
    }
    let mut transaction = Transaction::new(&session);
    if !same_input {
        transaction.write(&input_path, input, None)?;
    }
    if !same_output {
        transaction.write(&output_path, &output, None)?;
    }
    transaction.write_provenance(&problem.dir, &provenance)?;
    if let Some(path) = transaction.commit()?.first() {
        return Err(Error::Changed { path: path.clone() });
    }
    Ok(AddedCase {
        name,
        already_there: same_input && same_output,
    })
}

fn case_name(problem: &Problem, naming: Naming, input: &[u8]) -> String {
    let exists = |path: &std::path::Path| path.symlink_metadata().is_ok();
    match naming {
        Naming::Given(name) => name.to_owned(),
        Naming::Next(candidate) => (0..)
            .map(candidate)
            .find(|name| {
                let [input_path, output_path, answer_path] = case_paths(problem, name);
                let free = ![&input_path, &output_path, &answer_path]
                    .into_iter()
                    .any(|path| exists(path));
                free || std::fs::read(&input_path).is_ok_and(|bytes| bytes == input)
            })
            .expect("some name is free"),
    }
}

/// The new case's expected output, and its provenance when the reference computed it.
fn expected_output(
    expected: Expected,
    compiler: &Compiler,
    problem: &Problem,
    (name, input): (&str, &[u8]),
    derived_from: Option<String>,
) -> Result<(Vec<u8>, Option<Origin>)> {
    Ok(match expected {
        Expected::Given(output) => (output, None),
        Expected::FromReference => {
            let reference = build_tool(compiler, problem, REFERENCE_FILE)?;
            let output = run_tool(
                &reference,
                &[],
                input,
                problem,
                &format!("the new case `{name}`"),
            )?;
            let origin = Origin {
                generator: None,
                generator_hash: None,
                args: None,
                derived_from,
                input_hash: content_hash(input),
                reference: reference.file_name.clone(),
                reference_hash: reference.hash.clone(),
                output_hash: content_hash(&output),
            };
            (output, Some(origin))
        }
    })
}
