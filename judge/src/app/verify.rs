//! `judge verify`: every submission of a Kattis package against its folder's promise, every
//! solution of a Polygon package against its tag.

use std::io::Write;
use std::path::{Path, PathBuf};

use anstyle::{AnsiColor, Style};

use crate::cli::VerifyArgs;
use crate::corpus::{generate_package, PackageGen};
use crate::error::{Error, Outcome, Result};
use crate::problem::{kattis, polygon, Problem};
use crate::report::{plural, verify_page, SubmissionRow, Table};
use crate::runner::verify::validation::{check_data, DataReport};
use crate::runner::verify::{self, Row, RowOutcome};

use super::Context;
use crate::problem::layout::{ProblemFormat, PACKAGE_FILE, SUBMISSIONS_DIR};

pub fn verify(context: &Context, args: VerifyArgs) -> Result<Outcome> {
    let dir = context.problem_dir(&args.package)?;
    let shown = context.repository.relative(&dir).to_path_buf();
    let format = ProblemFormat::of(&dir);
    let polygon = format == ProblemFormat::Polygon;
    if format == ProblemFormat::Folder {
        return Err(Error::NotAPackage {
            path: shown,
            missing: PACKAGE_FILE.to_owned(),
        });
    }
    let mut out = anstream::AutoStream::new(std::io::stdout(), context.color);
    // The scratch copy of a package that lacks files, kept while the verify runs.
    let scratch = match polygon {
        true => with_missing_made(context, &dir, &mut out)?,
        false => None,
    };
    let copy = scratch.as_ref().map(|(_, copy, _)| copy.clone());
    let named = Renamed {
        copy: copy.as_deref(),
        dir: &dir,
    };
    let told = |error| named.error(error);
    let problem = (context.repository)
        .load_problem(copy.as_ref().unwrap_or(&dir))
        .map_err(told)?;
    if args.validate {
        let made = scratch.as_ref().map(|(_, _, made)| made);
        return validate_only(context, &problem, made, &mut out).map_err(told);
    }
    // Rows name a submission below `submissions/`, a Polygon solution below the package.
    let base = match polygon {
        true => problem.dir.clone(),
        false => problem.dir.join(SUBMISSIONS_DIR),
    };
    if !base.is_dir() {
        // problemtools checks such a package's data and validators all the same.
        let _ = writeln!(
            out,
            "note: {}: no {SUBMISSIONS_DIR}/ folder: its data is checked alone, as with --validate",
            shown.display()
        );
        return validate_only(context, &problem, None, &mut out);
    }
    let mut report = verify::verify(&problem, &context.compiler(), context.jobs).map_err(told)?;
    for row in &mut report.rows {
        if let RowOutcome::Error(message) = &mut row.outcome {
            *message = named.text(std::mem::take(message));
        }
    }
    let rows = &report.rows;
    print_table(&mut out, rows, &base);
    let (summary, counts) = summary_of(&problem.id, rows);
    let _ = writeln!(out, "{summary}");
    print_time_limit(&mut out, &report, context, &problem);
    let data = &report.data;
    // A Polygon package's data is checked by its own validators, below.
    if !polygon {
        print_data(&mut out, data, &report.notes);
    }
    let findings = match polygon {
        true => {
            let made = scratch.as_ref().map(|(_, _, made)| made);
            package_findings(context, &problem, made, &mut out).map_err(told)?
        }
        false => 0,
    };
    print_failures_and_warnings(&mut out, rows, &base);
    if let Some(file) = &args.html {
        let page = verify_page(
            &problem.id,
            &summary,
            &page_rows(rows, &base),
            &data_lines(data),
        );
        crate::atomic_write::write_atomically(&context.path(file), page.as_bytes())?;
    }
    Ok(outcome_of(&counts, &report, findings))
}

/// The limit derived (kept for `run`), or the given limit's fault.
fn print_time_limit(
    out: &mut impl Write,
    report: &verify::VerifyReport,
    context: &Context,
    problem: &Problem,
) {
    // A stopped run's accepted submissions may not all have run: its limit is not kept.
    let stopped = crate::runner::interrupt::requested().is_some();
    if let Some((limit, how)) = report.derived_time_limit.as_ref().filter(|_| !stopped) {
        let cache_dir = context.repository.cache_dir();
        kattis::time_limit::remember_time_limit(&cache_dir, &problem.dir, *limit);
        let _ = writeln!(out, "time limit: {} s, derived: {how}", limit.as_secs_f64());
    }
    if let Some(fault) = &report.time_limit_too_tight {
        let _ = writeln!(out, "error: {fault}");
    }
}

/// Errors first, then any promise or rule of the package broken.
fn outcome_of(counts: &Counts, report: &verify::VerifyReport, findings: usize) -> Outcome {
    let judged = report.rows.len() - counts.skipped;
    if counts.errors > 0 || !report.data.errors.is_empty() {
        Outcome::Error
    } else if counts.mismatches > 0
        || judged == 0
        || findings > 0
        || report.time_limit_too_tight.is_some()
    {
        Outcome::Rejected
    } else {
        Outcome::Accepted
    }
}

/// What is met in the scratch copy (`copy`) of the package at `dir` told with the package's
/// own paths; with no copy, as it is.
struct Renamed<'a> {
    copy: Option<&'a Path>,
    dir: &'a Path,
}

impl Renamed<'_> {
    fn text(&self, text: String) -> String {
        match self.copy {
            Some(copy) => text.replace(
                &format!("{}/", copy.display()),
                &format!("{}/", self.dir.display()),
            ),
            None => text,
        }
    }

    fn path(&self, path: PathBuf) -> PathBuf {
        match self.copy.and_then(|copy| path.strip_prefix(copy).ok()) {
            Some(inside) => self.dir.join(inside),
            None => path,
        }
    }

    /// The package's files, where the error names the scratch copy's.
    fn error(&self, mut error: Error) -> Error {
        match &mut error {
            Error::DoesNotCompile { path, message }
            | Error::ToolFailed { path, message }
            | Error::Parse { path, message, .. }
            | Error::PackageData {
                package: path,
                message,
            } => {
                *path = self.path(std::mem::take(path));
                *message = self.text(std::mem::take(message));
            }
            Error::Io { path, .. }
            | Error::NotUtf8 { path, .. }
            | Error::Corpus { path, .. }
            | Error::Language { path, .. } => *path = self.path(std::mem::take(path)),
            Error::Usage { message } | Error::Reported { message, .. } => {
                *message = self.text(std::mem::take(message));
            }
            _ => {}
        }
        error
    }
}

/// `--validate`: the package's data alone, no submission run; a Polygon package's validators
/// over its tests and their self-tests, as a full verify checks them (`made`: what was made
/// in a scratch copy).
fn validate_only(
    context: &Context,
    problem: &Problem,
    made: Option<&PackageGen>,
    out: &mut impl Write,
) -> Result<Outcome> {
    if ProblemFormat::of(&problem.dir) == ProblemFormat::Polygon {
        return Ok(match package_findings(context, problem, made, out)? {
            0 => Outcome::Accepted,
            _ => Outcome::Rejected,
        });
    }
    let data = check_data(problem, &context.compiler(), context.jobs)?;
    print_data(out, &data, &[]);
    Ok(match data.errors.is_empty() {
        true => Outcome::Accepted,
        false => Outcome::Error,
    })
}

/// Each mismatch's first failure (its first lines), then each row's warning.
fn print_failures_and_warnings(out: &mut impl Write, rows: &[Row], base: &Path) {
    const SHOWN_LINES: usize = 8;
    for row in rows {
        let (RowOutcome::Mismatch, Some(failure)) = (&row.outcome, &row.failure) else {
            continue;
        };
        let mut lines = failure.trim_end().lines();
        let first = lines.next().unwrap_or_default();
        let _ = writeln!(out, "{}: {first}", name_of(row, base));
        for line in lines.by_ref().take(SHOWN_LINES - 1) {
            let _ = writeln!(out, "    {line}");
        }
        if lines.next().is_some() {
            let _ = writeln!(out, "    ...");
        }
    }
    for row in rows {
        if let Some(warning) = &row.warning {
            let _ = writeln!(out, "warning: {}: {warning}", name_of(row, base));
        }
    }
}

/// Most Polygon downloads ship neither the generated inputs nor any answer: what `judge gen`
/// would make is made in a scratch copy, which this verify judges, leaving the package as it
/// is. `None` when nothing is missing; else the copy and what making the files found.
fn with_missing_made(
    context: &Context,
    dir: &Path,
    out: &mut impl Write,
) -> Result<Option<(tempfile::TempDir, std::path::PathBuf, PackageGen)>> {
    let id = crate::problem::Repository::id_of(dir);
    let generation = polygon::generation(dir, id.clone())?;
    let files = generation
        .tests
        .iter()
        .flat_map(|test| [&test.input, &test.answer]);
    let missing: Vec<&std::path::PathBuf> = files.filter(|file| !file.is_file()).collect();
    let Some(first) = missing.first() else {
        return Ok(None);
    };
    let shown = first
        .strip_prefix(dir)
        .unwrap_or(first)
        .display()
        .to_string();
    let others = match missing.len() {
        1 => String::new(),
        more => format!(" and {}", plural(more - 1, "more file")),
    };
    let _ = writeln!(
        out,
        "note: `{shown}`{others} not in the package: made in a scratch copy for this verify, \
         as `judge gen` makes them (which writes them into the package)"
    );
    let scratch = tempfile::tempdir().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    let copy = scratch.path().join(&id);
    copy_folder(dir, &copy)?;
    // Its answers are as hidden from the judged programs as the package's.
    context.sandbox.hide(&copy);
    let named = Renamed {
        copy: Some(&copy),
        dir,
    };
    let made = generate_package(&copy, id, &context.compiler(), context.jobs, false)
        .map_err(|error| named.error(error))?;
    Ok(Some((scratch, copy, made)))
}

/// Links are copied as the files they point to.
fn copy_folder(from: &Path, to: &Path) -> Result<()> {
    for entry in walkdir::WalkDir::new(from).follow_links(true) {
        let entry = entry?;
        let target = to.join(entry.path().strip_prefix(from).unwrap_or(entry.path()));
        let copied = match entry.file_type().is_dir() {
            true => std::fs::create_dir_all(&target),
            false => std::fs::copy(entry.path(), &target).map(drop),
        };
        copied.map_err(|error| Error::io(&target, error))?;
    }
    Ok(())
}

/// What a Polygon package's validators, self-tests and generators make of it, told as they
/// come; the number of findings. `made`: what making the missing files in a scratch copy
/// found (it already compared the inputs the package holds).
fn package_findings(
    context: &Context,
    problem: &crate::problem::Problem,
    made: Option<&PackageGen>,
    out: &mut impl Write,
) -> Result<usize> {
    let checks = verify::polygon::check_programs(problem, &context.compiler())?;
    for line in &checks.lines {
        let _ = writeln!(out, "{line}");
    }
    for finding in &checks.findings {
        let _ = writeln!(out, "    {finding}");
    }
    let regenerated = match made {
        Some(made) => regenerated(made, out),
        None => {
            let (dir, id) = (&problem.dir, problem.id.clone());
            let checked = generate_package(dir, id, &context.compiler(), context.jobs, true)?;
            regenerated(&checked, out)
        }
    };
    Ok(checks.findings.len() + regenerated)
}

/// Tells the generated inputs made again and compared, as `judge gen --check` does; the
/// number that differ.
fn regenerated(summary: &PackageGen, out: &mut impl Write) -> usize {
    let generated = summary.reproduced + summary.differing.len();
    let _ = writeln!(
        out,
        "tests: {} made again by their generators: {} the same as the package's, {} different",
        plural(generated, "generated input"),
        summary.reproduced,
        summary.differing.len()
    );
    for difference in &summary.differing {
        let _ = writeln!(out, "    {difference}");
    }
    for why in &summary.not_made {
        let _ = writeln!(out, "note: not made again: {why}");
    }
    summary.differing.len()
}

/// The rows that decide the exit code.
struct Counts {
    mismatches: usize,
    skipped: usize,
    errors: usize,
}

/// `ID: 5 submissions, 1 mismatch, ...`, and what a stop left unfinished.
fn summary_of(id: &str, rows: &[Row]) -> (String, Counts) {
    let count =
        |wanted: fn(&RowOutcome) -> bool| rows.iter().filter(|row| wanted(&row.outcome)).count();
    let counts = Counts {
        mismatches: count(|outcome| *outcome == RowOutcome::Mismatch),
        skipped: count(|outcome| matches!(outcome, RowOutcome::Skipped(_))),
        errors: count(|outcome| matches!(outcome, RowOutcome::Error(_))),
    };
    let mut summary = format!(
        "{id}: {}, {}, {} skipped, {}",
        plural(rows.len(), "submission"),
        plural(counts.mismatches, "mismatch"),
        counts.skipped,
        plural(counts.errors, "error")
    );
    if let Some(signal) = crate::runner::interrupt::requested() {
        let unfinished = count(|outcome| *outcome == RowOutcome::Unfinished);
        summary.push_str(&format!(
            "; stopped by {}: {unfinished} not finished",
            crate::sandbox::Termination::Signaled(signal)
        ));
    }
    (summary, counts)
}

/// Below `base`, as the table, the warnings and the page name it.
fn name_of(row: &Row, base: &Path) -> String {
    let name = row.submission.strip_prefix(base).unwrap_or(&row.submission);
    name.display().to_string()
}

fn page_rows(rows: &[Row], base: &Path) -> Vec<SubmissionRow> {
    rows.iter()
        .map(|row| SubmissionRow {
            submission: name_of(row, base),
            expected: row.expected.clone(),
            got: row.got.clone(),
            outcome: match &row.outcome {
                RowOutcome::Kept => "kept".to_owned(),
                RowOutcome::Mismatch => "mismatch".to_owned(),
                RowOutcome::Skipped(why) => format!("skipped: {why}"),
                RowOutcome::Error(why) => format!("error: {why}"),
                RowOutcome::Unfinished => "not finished".to_owned(),
            },
            cases: row.cases.clone(),
        })
        .collect()
}

/// For the page.
fn data_lines(data: &DataReport) -> Vec<String> {
    let errors = data.errors.iter().map(|error| format!("error: {error}"));
    let warnings = data
        .warnings
        .iter()
        .map(|warning| format!("warning: {warning}"));
    errors.chain(warnings).collect()
}

fn print_data(out: &mut impl Write, data: &DataReport, notes: &[String]) {
    let _ = writeln!(
        out,
        "data: {} checked by {}: {}, {}",
        plural(data.cases, "case"),
        plural(data.validators, "validator"),
        plural(data.errors.len(), "error"),
        plural(data.warnings.len(), "warning")
    );
    let red = AnsiColor::Red.on_default();
    for error in &data.errors {
        let _ = writeln!(out, "{red}error{red:#}: {error}");
    }
    for warning in &data.warnings {
        let _ = writeln!(out, "warning: {warning}");
    }
    for note in data.notes.iter().chain(notes) {
        let _ = writeln!(out, "note: {note}");
    }
}

/// Result words are coloured once the columns are laid out.
fn print_table(out: &mut impl Write, rows: &[Row], base: &Path) {
    let mut table = Table::new(&[
        ("submission", false),
        ("expected", false),
        ("got", false),
        ("result", false),
    ]);
    for row in rows {
        let result = match &row.outcome {
            RowOutcome::Kept => "ok".to_owned(),
            RowOutcome::Mismatch => "MISMATCH".to_owned(),
            RowOutcome::Skipped(why) => format!("skipped ({why})"),
            RowOutcome::Error(why) => format!("ERROR: {why}"),
            RowOutcome::Unfinished => "not finished".to_owned(),
        };
        table.row(vec![
            name_of(row, base),
            row.expected.to_string(),
            row.got.clone(),
            result,
        ]);
    }
    for line in table.render("").lines() {
        let (head, style, word) = if let Some(head) = line.strip_suffix("MISMATCH") {
            (head, AnsiColor::Red.on_default(), "MISMATCH")
        } else if let Some(head) = line.strip_suffix("ok") {
            (head, AnsiColor::Green.on_default(), "ok")
        } else if let Some(at) = line.find("skipped (") {
            let (head, word) = line.split_at(at);
            (head, AnsiColor::Yellow.on_default(), word)
        } else if let Some(at) = line.find("ERROR: ") {
            let (head, word) = line.split_at(at);
            (head, AnsiColor::Red.on_default(), word)
        } else {
            (line, Style::new(), "")
        };
        let _ = writeln!(out, "{head}{style}{word}{style:#}");
    }
}
