//! `judge add`: one case, its expected output written by a person or made by the reference.

use std::io::Read;
use std::path::Path;

use crate::cli::AddArgs;
use crate::corpus::{self, Expected};
use crate::error::{Error, Outcome, Result};

use super::Context;
use crate::problem::layout::TESTS_DIR;

pub fn add(context: &Context, args: AddArgs) -> Result<Outcome> {
    let repository = &context.repository;
    let problem = context.metadata(&args.problem)?;
    let input = if args.input == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|error| Error::io("<stdin>", error))?;
        bytes
    } else {
        read(&context.path(&args.input))?
    };
    refuse_empty(&input, "the input", &args)?;
    let source = match &args.expected {
        Some(file) => {
            let expected = read(&context.path(file))?;
            refuse_empty(&expected, "the expected output", &args)?;
            Expected::Given(expected)
        }
        None => Expected::FromReference,
    };
    let manual = |n: u64| format!("manual/{}", n + 1);
    let naming = match args.name.as_deref() {
        Some(name) => corpus::Naming::Given(name),
        None => corpus::Naming::Next(&manual),
    };
    let added = corpus::add_case(&problem, &context.compiler(), naming, &input, source, None)?;
    let base = problem.dir.join(TESTS_DIR).join(&added.name);
    let base = repository.relative(&base);
    let mut notices = context.notices("add");
    if added.already_there {
        notices.result(format_args!(
            "{}.in and .out already hold this input and expected output: nothing added",
            base.display()
        ));
    } else {
        notices.result(format_args!(
            "added {}.in and .out{}",
            base.display(),
            if args.from_reference {
                " (expected output from reference.rs)"
            } else {
                ""
            }
        ));
    }
    Ok(notices.finish(Outcome::Accepted))
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|error| Error::io(path, error))
}

/// An empty file is nearly always a mistake (a failed redirection, a file not yet saved), and
/// a case made of one passes or fails for the wrong reason.
fn refuse_empty(bytes: &[u8], what: &str, args: &AddArgs) -> Result<()> {
    if bytes.is_empty() && !args.allow_empty {
        return Err(Error::usage(format!(
            "{what} is empty: refused (pass --allow-empty if an empty case is meant)"
        )));
    }
    Ok(())
}
