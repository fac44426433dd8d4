//! The command line: clap types, turned once into validated settings. Nothing past this
//! module knows about clap.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anstream::ColorChoice;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::compile::Compiler;
use crate::discover::Repository;
use crate::error::{Error, Outcome, Result};
use crate::report::HumanReporter;
use crate::schedule::{self, format_bytes, Settings, Task};

#[derive(Debug, Parser)]
#[command(
    name = "judge",
    version,
    about = "Compile, run and judge solutions against every problem's test cases",
    long_about = "Compile, run and judge solutions against every problem's test cases.\n\n\
                  With no command, judges every problem under problems/.",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    color: Color,
    /// The repository (default: the nearest folder above the current one holding problems/).
    #[arg(long, value_name = "DIR", global = true)]
    root: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Judge some problems (all of them when none is named).
    Run(RunArgs),
    /// Show the problems with their case counts, limits and solution.
    List,
}

#[derive(Debug, Args, Default)]
struct RunArgs {
    /// Problem ids under problems/, or paths to problem folders.
    #[arg(value_name = "PROBLEM")]
    problems: Vec<String>,
    /// Judge this file instead of the problem's own solution (one problem only).
    #[arg(long, value_name = "FILE")]
    solution: Option<PathBuf>,
    /// Cases run at once (default: the number of cores).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// Runs the command line `args` (program name first) and returns the process exit code.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { 2 } else { 0 });
        }
    };
    match execute(cli) {
        Ok(outcome) => outcome.exit_code(),
        Err(error) => {
            eprintln!("error: {error}");
            Outcome::Error.exit_code()
        }
    }
}

fn execute(cli: Cli) -> Result<Outcome> {
    let color = match cli.color {
        Color::Auto => ColorChoice::Auto,
        Color::Always => ColorChoice::Always,
        Color::Never => ColorChoice::Never,
    };
    let current = std::env::current_dir().map_err(|error| Error::io(".", error))?;
    let start = match &cli.root {
        Some(root) => current.join(root),
        None => current.clone(),
    };
    let repository = Repository::find(&start)?;
    match cli.command {
        None => judge(&repository, cli.run, color, &current),
        Some(Command::Run(args)) => judge(&repository, args, color, &current),
        Some(Command::List) => list(&repository),
    }
}

fn judge(
    repository: &Repository,
    args: RunArgs,
    color: ColorChoice,
    current: &Path,
) -> Result<Outcome> {
    if args.solution.is_some() && args.problems.len() != 1 {
        return Err(Error::usage("--solution needs exactly one PROBLEM"));
    }
    let jobs = match args.jobs {
        Some(jobs) => usize::from(jobs),
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let tasks = load_tasks(repository, &args.problems)?
        .into_iter()
        .map(|problem| {
            let problem = problem?;
            let solution = match &args.solution {
                Some(file) => current.join(file),
                None => problem.solution.clone(),
            };
            if !solution.exists() {
                return Err(Error::invalid(
                    &solution,
                    format!(
                        "solution of `{}` not found (create it, or name another file with --solution)",
                        problem.id
                    ),
                ));
            }
            Ok(Task { problem, solution })
        })
        .collect();
    let compiler = Compiler::new(cache_dir(repository));
    let mut reporter = HumanReporter::new(color, repository.root.clone());
    let summary = schedule::judge_all(tasks, &compiler, &Settings { jobs }, &mut reporter);
    Ok(summary.outcome())
}

/// Every named problem (all when none is named), each loaded or failed on its own.
fn load_tasks(
    repository: &Repository,
    names: &[String],
) -> Result<Vec<Result<crate::problem::Problem>>> {
    let dirs: Vec<Result<PathBuf>> = if names.is_empty() {
        repository.problem_dirs()?
    } else {
        names.iter().map(|name| repository.resolve(name)).collect()
    };
    Ok(dirs
        .into_iter()
        .map(|dir| repository.load_problem(&dir?))
        .collect())
}

/// Built programs live under the repository's `target/`, beside Cargo's own artifacts.
fn cache_dir(repository: &Repository) -> PathBuf {
    std::env::var_os("JUDGE_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repository.root.join("target").join("judge"))
}

fn list(repository: &Repository) -> Result<Outcome> {
    let mut outcome = Outcome::Accepted;
    println!(
        "{:<22} {:>6} {:>8} {:>8}  {:<8} {:<12} solution",
        "problem", "cases", "time", "memory", "compare", "profile"
    );
    for problem in load_tasks(repository, &[])? {
        match problem {
            Ok(problem) => {
                let solution = problem
                    .solution
                    .strip_prefix(&repository.root)
                    .unwrap_or(&problem.solution);
                let missing = if problem.solution.exists() {
                    ""
                } else {
                    " (missing)"
                };
                println!(
                    "{:<22} {:>6} {:>6} ms {:>8}  {:<8} {:<12} {}{missing}",
                    problem.id,
                    problem.cases.len(),
                    problem.limits.cpu_time.as_millis(),
                    format_bytes(problem.limits.memory_bytes),
                    problem.compare.name(),
                    problem.profile,
                    solution.display(),
                );
            }
            Err(error) => {
                eprintln!("error: {error}");
                outcome = Outcome::Error;
            }
        }
    }
    Ok(outcome)
}
