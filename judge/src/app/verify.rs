//! `judge verify`: every submission of a Kattis package against its folder's promise.

use std::io::Write;

use anstyle::{AnsiColor, Style};

use crate::cli::VerifyArgs;
use crate::error::{Error, Outcome, Result};
use crate::kattis;
use crate::report::{plural, print_error, Table};

use super::Context;

pub fn verify(context: &Context, args: VerifyArgs) -> Result<Outcome> {
    let dir = context.problem_dir(&args.package)?;
    let shown = context.repository.relative(&dir).to_path_buf();
    if !kattis::is_package(&dir) {
        return Err(Error::NotAPackage {
            path: shown,
            missing: kattis::PACKAGE_FILE.to_owned(),
        });
    }
    let problem = context.repository.load_problem(&dir)?;
    let base = problem.dir.join(kattis::SUBMISSIONS_DIR);
    if !base.is_dir() {
        return Err(Error::NotAPackage {
            path: shown,
            missing: format!("{}/ folder: nothing to verify", kattis::SUBMISSIONS_DIR),
        });
    }
    let (rows, errors) = crate::verify::verify(&problem, &context.compiler(), context.jobs)?;
    let mut table = Table::new(&[
        ("submission", false),
        ("expected", false),
        ("got", false),
        ("result", false),
    ]);
    for row in &rows {
        let name = row
            .submission
            .strip_prefix(&base)
            .unwrap_or(&row.submission);
        let result = if row.ok { "ok" } else { "MISMATCH" };
        table.row(vec![
            name.display().to_string(),
            row.expected.clone(),
            row.got.clone(),
            result.to_owned(),
        ]);
    }
    let mut out = anstream::AutoStream::new(std::io::stdout(), context.color);
    // The result is the last column: its word is coloured once the columns are laid out.
    for line in table.render("").lines() {
        let (head, style, word) = if let Some(head) = line.strip_suffix("MISMATCH") {
            (head, AnsiColor::Red.on_default(), "MISMATCH")
        } else if let Some(head) = line.strip_suffix("ok") {
            (head, AnsiColor::Green.on_default(), "ok")
        } else {
            (line, Style::new(), "")
        };
        let _ = writeln!(out, "{head}{style}{word}{style:#}");
    }
    for error in &errors {
        print_error(error);
    }
    let mismatches = rows.iter().filter(|row| !row.ok).count();
    let _ = writeln!(
        out,
        "{}: {}, {}",
        problem.id,
        plural(rows.len(), "submission"),
        plural(mismatches, "mismatch")
    );
    Ok(if !errors.is_empty() {
        Outcome::Error
    } else if mismatches > 0 || rows.is_empty() {
        Outcome::Rejected
    } else {
        Outcome::Accepted
    })
}
