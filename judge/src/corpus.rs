//! Growing a problem's corpus: generated cases (`judge gen`), one case at a time
//! (`judge add`), and expected outputs recomputed (`judge bless`). Expected outputs always
//! come from the problem's `reference.rs`, never from the solution under test, and no file a
//! user wrote is ever overwritten or removed.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::compare::{self, CompareMode};
use crate::compile::{Build, Compiler, Program};
use crate::diff::{self, DiffLine};
use crate::error::{Error, Result};
use crate::problem::Problem;
use crate::provenance::{content_hash, Origin, Provenance};
use crate::recipe::{split_args, Recipe, RECIPE_FILE};
use crate::verdict::classify_run;
use crate::write::{write_case, CaseFiles};

pub const REFERENCE_FILE: &str = "reference.rs";
pub const GENERATOR_FILE: &str = "gen.rs";
/// The folder below the problem that new cases go into.
pub const TESTS_DIR: &str = "tests";

/// A problem's reference or generator, built and ready.
pub struct Tool {
    pub path: PathBuf,
    /// As recorded in provenance: the file name within the problem folder.
    pub file_name: String,
    pub hash: String,
    pub program: Program,
}

/// Builds `file` of the problem folder (its reference or generator) through the same cache
/// as solutions.
pub fn build_tool(compiler: &Compiler, problem: &Problem, file: &str) -> Result<Tool> {
    let path = problem.dir.join(file);
    let source = std::fs::read(&path).map_err(|error| Error::io(&path, error))?;
    if same_file(&path, &problem.solution) {
        return Err(Error::invalid(
            &path,
            "is the solution under test: expected outputs must come from an independent reference",
        ));
    }
    match compiler.build(&path)? {
        Build::Ready(program) => Ok(Tool {
            file_name: file.to_owned(),
            hash: content_hash(&source),
            path,
            program,
        }),
        Build::CompileError(message) => Err(Error::DoesNotCompile { path, message }),
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Lines of a failing tool's stderr shown in the error (its last ones).
const TOOL_STDERR_LINES: usize = 20;

/// Runs a tool on `input` with the problem's limits; anything but a clean exit is an error
/// naming the tool and `context` (the case or the generator arguments).
pub fn run_tool(
    tool: &Tool,
    args: &[String],
    input: &[u8],
    problem: &Problem,
    context: &str,
) -> Result<Vec<u8>> {
    let stdin =
        tempfile::NamedTempFile::new().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    std::fs::write(stdin.path(), input).map_err(|error| Error::io(stdin.path(), error))?;
    let limits = problem.limits_for(tool.program.language);
    let run = tool
        .program
        .run(stdin.path(), limits, args)
        .map_err(|error| Error::invalid(&tool.path, format!("cannot run: {error}")))?;
    if let Some(verdict) = classify_run(&run, &limits) {
        // The tool's own message is what says why; Rust's hint about backtraces is not.
        let stderr = String::from_utf8_lossy(&run.stderr);
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|line| !line.starts_with("note: run with `RUST_BACKTRACE"))
            .collect();
        let shown = &lines[lines.len().saturating_sub(TOOL_STDERR_LINES)..];
        let detail: String = shown.iter().map(|line| format!("\n    {line}")).collect();
        return Err(Error::invalid(
            &tool.path,
            format!("{verdict} on {context}{detail}"),
        ));
    }
    Ok(run.stdout)
}

/// The two files of a case named `name` (below `tests/`).
fn case_paths(problem: &Problem, name: &str) -> (PathBuf, PathBuf) {
    let base = problem.dir.join(TESTS_DIR).join(name);
    (path_with(&base, "in"), path_with(&base, "out"))
}

/// `base` + `.extension` (case names may contain dots, so `with_extension` will not do).
fn path_with(base: &Path, extension: &str) -> PathBuf {
    let mut path = base.as_os_str().to_owned();
    path.push(".");
    path.push(extension);
    PathBuf::from(path)
}

/// How a file on disk stands against what the judge would write there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OnDisk {
    Missing,
    /// Already holds exactly the new contents.
    Same,
    /// Holds what the judge wrote before (its recorded hash): may be replaced.
    Ours,
    /// Written or edited by someone else: never touched.
    Foreign,
}

fn on_disk(path: &Path, new: Option<&[u8]>, recorded: Option<&str>) -> Result<OnDisk> {
    let current = match std::fs::read(path) {
        Ok(current) => current,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(OnDisk::Missing),
        Err(error) => return Err(Error::io(path, error)),
    };
    Ok(if new == Some(current.as_slice()) {
        OnDisk::Same
    } else if recorded == Some(content_hash(&current).as_str()) {
        OnDisk::Ours
    } else {
        OnDisk::Foreign
    })
}

/// What `judge gen` did, or with `check`, would do.
#[derive(Debug, Default)]
pub struct GenSummary {
    pub planned: usize,
    /// Cases written (or, with `check`, that differ from the recipe).
    pub written: Vec<String>,
    /// Generated cases no longer in the recipe, removed (or, with `check`, to remove).
    pub removed: Vec<String>,
}

/// Rebuilds the generated cases from the recipe: runs the generator and the reference for
/// every case, then writes what changed. With `check`, writes nothing and reports what
/// differs. Hand-written cases are never touched: a recipe entry that would overwrite one is
/// an error, raised before anything is written.
pub fn generate(
    problem: &Problem,
    compiler: &Compiler,
    jobs: usize,
    check: bool,
) -> Result<GenSummary> {
    let recipe = Recipe::load(&problem.dir)?.ok_or_else(|| {
        Error::invalid(
            problem.dir.join(RECIPE_FILE),
            "no recipe: nothing to generate",
        )
    })?;
    let planned = recipe.cases();
    let generator = build_tool(compiler, problem, GENERATOR_FILE)?;
    let reference = build_tool(compiler, problem, REFERENCE_FILE)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .expect("a thread pool can be built");
    let produced: Vec<(String, String, Vec<u8>, Vec<u8>)> = pool.install(|| {
        planned
            .par_iter()
            .map(|case| {
                let context = format!("`gen {}` ({})", case.args, case.name);
                let input = run_tool(&generator, &split_args(&case.args), b"", problem, &context)?;
                let output = run_tool(&reference, &[], &input, problem, &context)?;
                Ok((case.name.clone(), case.args.clone(), input, output))
            })
            .collect::<Result<_>>()
    })?;

    let mut provenance = Provenance::load(&problem.dir)?;
    let mut summary = GenSummary {
        planned: planned.len(),
        ..GenSummary::default()
    };
    let mut writes = Vec::new();
    for (name, args, input, output) in produced {
        let (input_path, output_path) = case_paths(problem, &name);
        let recorded = provenance
            .cases
            .get(&name)
            .filter(|origin| origin.is_generated());
        let input_state = on_disk(
            &input_path,
            Some(&input),
            recorded.map(|o| o.input_hash.as_str()),
        )?;
        let output_state = on_disk(
            &output_path,
            Some(&output),
            recorded.map(|o| o.output_hash.as_str()),
        )?;
        let answer = path_with(&problem.dir.join(TESTS_DIR).join(&name), "ans");
        if input_state == OnDisk::Foreign || output_state == OnDisk::Foreign || answer.exists() {
            return Err(Error::invalid(
                &input_path,
                format!(
                    "case `{name}` exists and was not written by `judge gen` (or was edited since): \
                     refusing to overwrite it; rename it, or change the recipe's name for it"
                ),
            ));
        }
        let origin = Origin {
            generator: Some(generator.file_name.clone()),
            generator_hash: Some(generator.hash.clone()),
            args: Some(args),
            derived_from: None,
            input_hash: content_hash(&input),
            reference: reference.file_name.clone(),
            reference_hash: reference.hash.clone(),
            output_hash: content_hash(&output),
        };
        if input_state != OnDisk::Same || output_state != OnDisk::Same {
            summary.written.push(name.clone());
            writes.push((input_path, input, output_path, output));
        }
        provenance.cases.insert(name, origin);
    }
    let planned_names: std::collections::HashSet<&str> =
        planned.iter().map(|c| c.name.as_str()).collect();
    let stale: Vec<(String, Origin)> = provenance
        .cases
        .iter()
        .filter(|(name, origin)| origin.is_generated() && !planned_names.contains(name.as_str()))
        .map(|(name, origin)| (name.clone(), origin.clone()))
        .collect();
    for (name, origin) in &stale {
        let (input_path, output_path) = case_paths(problem, name);
        for (path, hash) in [
            (&input_path, &origin.input_hash),
            (&output_path, &origin.output_hash),
        ] {
            if on_disk(path, None, Some(hash))? == OnDisk::Foreign {
                return Err(Error::invalid(
                    path,
                    format!("case `{name}` is no longer in the recipe but was edited by hand: move it out of the way, or delete it yourself"),
                ));
            }
        }
        summary.removed.push(name.clone());
    }
    if check {
        return Ok(summary);
    }
    for (input_path, input, output_path, output) in &writes {
        write_case(CaseFiles {
            input: (input_path, input),
            expected: (output_path, output),
            overwrite: true,
        })?;
    }
    for (name, _) in &stale {
        let (input_path, output_path) = case_paths(problem, name);
        for path in [&input_path, &output_path] {
            match std::fs::remove_file(path) {
                Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                    return Err(Error::io(path, error))
                }
                _ => {}
            }
        }
        provenance.cases.remove(name);
    }
    // Cases deleted by hand leave nothing to record.
    provenance
        .cases
        .retain(|name, _| case_paths(problem, name).0.exists());
    provenance.save(&problem.dir)?;
    Ok(summary)
}

/// Where `judge add` takes the expected output from.
pub enum Expected {
    /// A file the user wrote.
    Given(Vec<u8>),
    /// The problem's reference, run on the input.
    FromReference,
}

/// Adds one case; refuses to overwrite an existing one. Returns the case's name.
/// `derived_from` says how the input was made when a command made it.
pub fn add_case(
    problem: &Problem,
    compiler: &Compiler,
    name: Option<&str>,
    input: &[u8],
    expected: Expected,
    derived_from: Option<String>,
) -> Result<String> {
    let tests = problem.dir.join(TESTS_DIR);
    let name = match name {
        Some(name) => {
            let safe = name
                .split('/')
                .all(|part| !part.is_empty() && part != "." && part != "..");
            if !safe {
                return Err(Error::usage(format!(
                    "case name `{name}` must be a relative path below tests/, like `manual/3`"
                )));
            }
            name.to_owned()
        }
        None => (1..)
            .map(|n| format!("manual/{n}"))
            .find(|name| {
                !["in", "out", "ans"]
                    .iter()
                    .any(|ext| path_with(&tests.join(name), ext).exists())
            })
            .expect("some number is free"),
    };
    let (input_path, output_path) = case_paths(problem, &name);
    for ext in ["in", "out", "ans"] {
        let path = path_with(&tests.join(&name), ext);
        if path.exists() {
            return Err(Error::invalid(
                &path,
                format!("case `{name}` already exists: refusing to overwrite it"),
            ));
        }
    }
    let (output, origin) = match expected {
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
    };
    write_case(CaseFiles {
        input: (&input_path, input),
        expected: (&output_path, &output),
        overwrite: false,
    })?;
    if let Some(origin) = origin {
        let mut provenance = Provenance::load(&problem.dir)?;
        provenance.cases.insert(name.clone(), origin);
        provenance.save(&problem.dir)?;
    }
    Ok(name)
}

/// One expected output the reference disagrees with.
#[derive(Debug)]
pub struct BlessChange {
    pub name: String,
    pub path: PathBuf,
    /// Where and why, as for a wrong answer.
    pub message: String,
    pub diff: Vec<DiffLine>,
    /// The judge wrote the current file (from a reference) and nobody edited it since: it may
    /// be rewritten. Otherwise it is hand-written and only shown.
    pub writable: bool,
    pub written: bool,
}

/// Recomputes every case's expected output from the reference and returns those that would
/// change, with diffs; with `write`, rewrites the ones the judge wrote itself.
pub fn bless(
    problem: &Problem,
    compiler: &Compiler,
    jobs: usize,
    write: bool,
) -> Result<Vec<BlessChange>> {
    let reference = build_tool(compiler, problem, REFERENCE_FILE)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .expect("a thread pool can be built");
    let outputs: Vec<(Vec<u8>, Vec<u8>)> = pool.install(|| {
        problem
            .cases
            .par_iter()
            .map(|case| {
                let input =
                    std::fs::read(&case.input).map_err(|error| Error::io(&case.input, error))?;
                let current = std::fs::read(&case.expected)
                    .map_err(|error| Error::io(&case.expected, error))?;
                let context = format!("case `{}`", case.name);
                Ok((
                    current,
                    run_tool(&reference, &[], &input, problem, &context)?,
                ))
            })
            .collect::<Result<_>>()
    })?;
    let mut provenance = Provenance::load(&problem.dir)?;
    let mut changes = Vec::new();
    for (case, (current, new)) in problem.cases.iter().zip(outputs) {
        let Err(mismatch) = compare::compare(CompareMode::Exact, &current, &new) else {
            continue;
        };
        let recorded = provenance.cases.get_mut(&case.name);
        let writable = recorded
            .as_ref()
            .is_some_and(|origin| origin.output_hash == content_hash(&current));
        let mut change = BlessChange {
            name: case.name.clone(),
            path: case.expected.clone(),
            message: mismatch.to_string(),
            diff: diff::window(&current, &new, mismatch.line),
            writable,
            written: false,
        };
        if write && writable {
            crate::write::write_atomically(&case.expected, &new)?;
            let origin = recorded.expect("writable cases have provenance");
            origin.output_hash = content_hash(&new);
            origin.reference = reference.file_name.clone();
            origin.reference_hash = reference.hash.clone();
            change.written = true;
        }
        changes.push(change);
    }
    if changes.iter().any(|change| change.written) {
        provenance.save(&problem.dir)?;
    }
    Ok(changes)
}
