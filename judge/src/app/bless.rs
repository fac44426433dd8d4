//! `judge bless`: recompute expected outputs from the reference, show the differences, and
//! with `--write` rewrite the ones the judge made.

use std::io::Write;

use crate::cli::BlessArgs;
use crate::corpus;
use crate::error::{Error, Outcome, Result};
use crate::report::{agree, plural, render_diff};

use super::Context;

pub fn bless(context: &Context, args: BlessArgs) -> Result<Outcome> {
    if std::env::var_os("CI").is_some_and(|value| !value.is_empty()) {
        return Err(Error::usage(
            "judge bless does not run on CI (CI is set): expected outputs are changed on purpose, by a person",
        ));
    }
    let repository = &context.repository;
    // Metadata only: bless finds the cases once an interrupted change is completed.
    let problem = context.metadata(&args.problem)?;
    let blessed = corpus::bless(&problem, &context.compiler(), context.jobs, args.write)?;
    let changes = blessed.changes;
    let mut out = anstream::AutoStream::new(std::io::stdout(), context.color);
    for change in &changes {
        let status = if change.written {
            "rewritten"
        } else if change.writable {
            "would change"
        } else {
            "hand-written, differs from the reference (left as it is)"
        };
        let _ = writeln!(
            out,
            "{}: {status}",
            repository.relative(&change.path).display()
        );
        let _ = writeln!(out, "      {}", change.message);
        let _ = out.write_all(render_diff(&change.diff, "current", "reference").as_bytes());
    }
    let pending = changes.iter().filter(|change| !change.written).count();
    let writable = changes
        .iter()
        .filter(|change| change.writable && !change.written)
        .count();
    let _ = writeln!(
        out,
        "{}: {}, {} {} from the reference, {} rewritten{}",
        problem.id,
        plural(blessed.cases, "case"),
        plural(changes.len(), "expected output"),
        agree(changes.len(), "differs", "differ"),
        changes.len() - pending,
        if writable > 0 {
            "; run with --write to rewrite the ones the judge made"
        } else {
            ""
        }
    );
    Ok(if pending == 0 {
        Outcome::Accepted
    } else {
        Outcome::Rejected
    })
}
