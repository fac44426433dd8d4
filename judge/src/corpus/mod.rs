//! Growing a problem's corpus: `judge gen`, `add`, `bless` and the like. Expected outputs
//! always come from the problem's `reference.rs`, never from the solution under test, and no
//! file a user wrote is ever overwritten or removed. Every command that writes does so in one
//! `transaction`, which the next command completes after an interruption.

mod add;
mod bless;
mod from_polygon;
mod gen;
pub(crate) mod import;
mod package_gen;
pub(crate) mod scaffold;
pub(crate) mod stress;
pub(crate) mod transaction;
pub(crate) mod validate;

use std::path::{Path, PathBuf};

use crate::error::{if_exists, CorpusFault, Error, Result};
use crate::judging::verdict::classify_run;
use crate::problem::layout::{GENERATOR_FILE, REFERENCE_FILE, TESTS_DIR};
use crate::problem::provenance::content_hash;
use crate::problem::{FileIo, Problem};
use crate::sandbox::RunOutput;
use crate::toolchain::{Build, Compiler, Program, RunOptions, Sources};

pub use add::{add_case, Expected, Naming};
pub use bless::bless;
pub use from_polygon::from_polygon;
pub use gen::{generate, GenSummary};
pub use package_gen::{generate_package, PackageGen};
pub use validate::{group_of, Validator};

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
    if same_file(&path, &problem.solution) {
        return Err(Error::corpus(&path, CorpusFault::ReferenceIsSolution));
    }
    if path.symlink_metadata().is_err() {
        let purpose = match file {
            REFERENCE_FILE => {
                "the problem's independent brute force, which writes expected outputs"
            }
            GENERATOR_FILE => "the problem's generator, which prints an input for a seed",
            _ => "this program of the problem",
        };
        return Err(Error::corpus(&path, CorpusFault::NoSuchTool { purpose }));
    }
    let sources = problem.own_program_sources(&path)?;
    tool_built_from(compiler, path, file.to_owned(), sources)
}

/// The program at `path`, built from `sources` (a problem's own program's, or a solution's
/// as the judge builds it); `file_name` as provenance records it.
fn tool_built_from(
    compiler: &Compiler,
    path: PathBuf,
    file_name: String,
    sources: Sources,
) -> Result<Tool> {
    let source = std::fs::read(&path).map_err(|error| Error::io(&path, error))?;
    match compiler.build_from(&path, sources)? {
        Build::Ready(program) => Ok(Tool {
            file_name,
            hash: content_hash(&source),
            path,
            program,
        }),
        Build::CompileError(message) => Err(Error::DoesNotCompile { path, message }),
    }
}

/// Builds the programs of the problem folder that a command runs (its generator, reference
/// and validator, where there), with `also`, `jobs` at a time, for the builds that follow to
/// find them done; a fault is left for them to report.
fn prebuild_tools(
    compiler: &Compiler,
    problem: &Problem,
    also: Vec<(PathBuf, Result<Sources>)>,
    jobs: usize,
) {
    let validator = validate::validator_file(problem).ok().flatten();
    let tools = [GENERATOR_FILE, REFERENCE_FILE]
        .map(|file| problem.dir.join(file))
        .into_iter()
        .chain(validator)
        .filter(|path| path.is_file())
        .map(|path| {
            let sources = problem.own_program_sources(&path);
            (path, sources)
        });
    compiler.prebuild(tools.chain(also).collect(), jobs);
}

fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
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
    run_tool_with(tool, args, input, problem, context, None).map(|run| run.stdout)
}

/// `run_tool`, its standard output replaced by the file `files` names where it does: the
/// whole run is returned, for its standard error to say whether that file was written.
pub fn run_tool_with(
    tool: &Tool,
    args: &[String],
    input: &[u8],
    problem: &Problem,
    context: &str,
    files: Option<&FileIo>,
) -> Result<RunOutput> {
    let stdin =
        tempfile::NamedTempFile::new().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    std::fs::write(stdin.path(), input).map_err(|error| Error::io(stdin.path(), error))?;
    let limits = problem.limits_for(tool.program.language);
    let options = RunOptions {
        files,
        ..RunOptions::default()
    };
    let run = (tool.program.run_with(stdin.path(), limits, args, options)).map_err(|error| {
        Error::ToolFailed {
            path: tool.path.clone(),
            message: format!("cannot run: {error}"),
        }
    })?;
    if let Some(verdict) = classify_run(&run, &limits) {
        // The tool's own message is what says why; Rust's hint about backtraces is not.
        let stderr = String::from_utf8_lossy(&run.stderr);
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|line| !line.starts_with("note: run with `RUST_BACKTRACE"))
            .collect();
        let shown = &lines[lines.len().saturating_sub(TOOL_STDERR_LINES)..];
        let detail: String = shown.iter().map(|line| format!("\n    {line}")).collect();
        return Err(Error::ToolFailed {
            path: tool.path.clone(),
            message: format!("{verdict} on {context}{detail}"),
        });
    }
    Ok(run)
}

/// `work` on every item with `jobs` threads, results in item order. Once an interrupting
/// signal is noted no new item starts: the command stops with `Error::Interrupted`.
fn in_parallel<T: Sync, R: Send>(
    jobs: usize,
    items: &[T],
    work: impl Fn(&T) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|error| Error::usage(format!("cannot start worker threads: {error}")))?;
    pool.install(|| {
        items
            .par_iter()
            .map(|item| {
                if crate::runner::interrupt::pending() {
                    return Err(Error::Interrupted);
                }
                work(item)
            })
            .collect()
    })
}

/// The `.in`, `.out` and (Kattis) `.ans` file of case `name` below `tests/`. Names come from
/// checked places (the recipe, provenance, `add`), so this only joins them.
fn case_paths(problem: &Problem, name: &str) -> [PathBuf; 3] {
    ["in", "out", "ans"]
        .map(|extension| problem.dir.join(format!("{TESTS_DIR}/{name}.{extension}")))
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

/// Where `path` stands against `new` contents and the hash the judge `recorded` for it.
fn on_disk(path: &Path, new: Option<&[u8]>, recorded: Option<&str>) -> Result<OnDisk> {
    let Some(current) = if_exists(path, std::fs::read)? else {
        return Ok(OnDisk::Missing);
    };
    Ok(if new == Some(current.as_slice()) {
        OnDisk::Same
    } else if recorded == Some(content_hash(&current).as_str()) {
        OnDisk::Ours
    } else {
        OnDisk::Foreign
    })
}
