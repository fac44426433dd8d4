//! The command line: clap types, turned once into validated settings. Nothing past this
//! module knows about clap.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anstream::ColorChoice;
use clap::{Args, Parser, Subcommand, ValueEnum};

use std::io::{IsTerminal, Write};
use std::time::Duration;

use crate::check;
use crate::compile::{Build, Compiler};
use crate::corpus::{self, Expected};
use crate::discover::Repository;
use crate::error::{Error, Outcome, Result};
use crate::kattis;
use crate::language::Language;
use crate::problem::Problem;
use crate::profile::Profile;
use crate::provenance::Provenance;
use crate::recipe::RECIPE_FILE;
use crate::report::format_bytes;
use crate::report::render_diff;
use crate::report::{HumanReporter, JsonReporter, JunitReporter, Reporter, Reporters};
use crate::runner::{self, Settings, Task};
use crate::scaffold;
use crate::stress::{self, Budget, Found};
use crate::verify;

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
    List {
        /// Also show where each generated or reference-made case came from.
        #[arg(long)]
        provenance: bool,
    },
    /// Scaffold a new problem folder and its solution file (refuses if any exists).
    New {
        /// The problem's id, like `boj_1000`: the folder and solution file name.
        id: String,
        /// The judge whose defaults the problem takes.
        #[arg(long, default_value = "boj", value_parser = parse_profile)]
        profile: Profile,
    },
    /// Add one test case (refuses to overwrite an existing one).
    Add {
        problem: String,
        /// The case's name below tests/ (default: the next free `manual/N`).
        #[arg(long)]
        name: Option<String>,
        /// The input file, or `-` for standard input.
        #[arg(long, value_name = "FILE|-", default_value = "-")]
        input: String,
        /// The expected output, written by you.
        #[arg(
            long,
            value_name = "FILE",
            conflicts_with = "from_reference",
            required_unless_present = "from_reference"
        )]
        expected: Option<PathBuf>,
        /// Take the expected output from the problem's reference.rs.
        #[arg(long)]
        from_reference: bool,
    },
    /// Rebuild the generated cases from the problem's generators.toml (all problems with one
    /// when none is named); hand-written cases are never touched.
    Gen {
        problems: Vec<String>,
        /// Write nothing; exit 1 if the committed cases differ from what the recipe makes.
        #[arg(long)]
        check: bool,
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
    },
    /// Recompute expected outputs from the reference and show what would change.
    Bless {
        problem: String,
        /// Rewrite the changed outputs the judge made itself (hand-written ones are only shown).
        #[arg(long)]
        write: bool,
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
    },
    /// Check that every submission of a Kattis package gets the verdict its folder promises.
    Verify {
        /// The package folder (with problem.yaml and submissions/).
        package: String,
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
    },
    /// Check that one file will work on the online judge as it is: built alone with the
    /// judge's command, std only, within the code-size limit, and passing the problem's cases.
    Check {
        file: PathBuf,
        /// The judge to check against (default: the problem's profile, else boj).
        #[arg(long, value_parser = parse_profile)]
        profile: Option<Profile>,
        /// The problem whose cases to run (default: the one named like the file).
        #[arg(long)]
        problem: Option<String>,
    },
    /// Compare the solution with the reference on generated inputs until they disagree, and
    /// save a minimised counterexample as a new case.
    Stress {
        problem: String,
        /// The file to stress (default: the problem's solution).
        #[arg(long, value_name = "FILE")]
        solution: Option<PathBuf>,
        /// How many inputs to try (default 1000 unless --time is given).
        #[arg(long, value_name = "N", conflicts_with = "time")]
        iterations: Option<u64>,
        /// How long to try, like `30s`, `2m` or `500ms`.
        #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
        time: Option<Duration>,
        /// The first seed (default: taken from the clock; printed so a run can be repeated).
        #[arg(long)]
        seed: Option<u64>,
    },
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
    /// The report on stdout: for people, or one JSON document (schema in the README).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Also write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Stop judging a solution at its first case that is not accepted (as Kattis does).
    #[arg(long)]
    fail_fast: bool,
    /// Judge only slice K of N (1-based) of all cases, for spreading a corpus over a CI matrix.
    #[arg(long, value_name = "K/N", value_parser = parse_partition)]
    partition: Option<(usize, usize)>,
}

#[derive(Debug, Clone, Copy, Default, ValueEnum)]
enum Format {
    #[default]
    Human,
    Json,
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
    // Judging a package needs no repository: a Kattis package can be anywhere.
    let judges_packages = matches!(
        cli.command,
        None | Some(Command::Run(_) | Command::Verify { .. } | Command::Check { .. })
    );
    let repository = match Repository::find(&start) {
        Ok(repository) => repository,
        Err(_) if judges_packages => Repository::find_or_standalone(&start),
        Err(error) => return Err(error),
    };
    match cli.command {
        None => judge(&repository, cli.run, color, &current),
        Some(Command::Run(args)) => judge(&repository, args, color, &current),
        Some(Command::List { provenance }) => list(&repository, provenance),
        Some(Command::New { id, profile }) => new(&repository, &id, profile),
        Some(Command::Add {
            problem,
            name,
            input,
            expected,
            from_reference: _,
        }) => add(
            &repository,
            &problem,
            name.as_deref(),
            &input,
            expected.as_deref(),
            &current,
        ),
        Some(Command::Gen {
            problems,
            check,
            jobs,
        }) => gen(&repository, &problems, check, jobs_or_cores(jobs)),
        Some(Command::Bless {
            problem,
            write,
            jobs,
        }) => bless(&repository, &problem, write, jobs_or_cores(jobs), color),
        Some(Command::Verify { package, jobs }) => {
            verify(&repository, &package, jobs_or_cores(jobs), color)
        }
        Some(Command::Check {
            file,
            profile,
            problem,
        }) => check(
            &repository,
            &current.join(file),
            profile,
            problem.as_deref(),
            color,
        ),
        Some(Command::Stress {
            problem,
            solution,
            iterations,
            time,
            seed,
        }) => {
            let budget = match (iterations, time) {
                (_, Some(time)) => Budget::Time(time),
                (iterations, None) => Budget::Iterations(iterations.unwrap_or(1000)),
            };
            stress(
                &repository,
                &problem,
                solution.map(|file| current.join(file)),
                budget,
                seed,
            )
        }
    }
}

fn judge(
    repository: &Repository,
    args: RunArgs,
    color: ColorChoice,
    current: &Path,
) -> Result<Outcome> {
    // The first run's supervisor starts while problems are found and builds looked up.
    crate::sandbox::prepare();
    if args.solution.is_some() && args.problems.len() != 1 {
        return Err(Error::usage("--solution needs exactly one PROBLEM"));
    }
    let jobs = jobs_or_cores(args.jobs);
    let mut problems = load_tasks(repository, &args.problems)?;
    for problem in problems.iter_mut().flatten() {
        kattis::apply_time_limit(problem, &cache_dir(repository));
    }
    if let Some((slice, slices)) = args.partition {
        partition(&mut problems, slice, slices);
    }
    let tasks = problems
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
    let mut human;
    let mut json;
    let mut junit = args
        .junit
        .map(|file| JunitReporter::new(current.join(file)));
    let mut reporters: Vec<&mut dyn Reporter> = match args.format {
        Format::Human => {
            human = HumanReporter::new(color, repository.root.clone());
            vec![&mut human]
        }
        Format::Json => {
            json = JsonReporter::new(repository.root.clone());
            vec![&mut json]
        }
    };
    if let Some(junit) = junit.as_mut() {
        reporters.push(junit);
    }
    let summary = runner::judge_all(
        tasks,
        &compiler,
        &Settings {
            jobs,
            fail_fast: args.fail_fast,
        },
        &mut Reporters(reporters),
    );
    if let Some(error) = junit.and_then(|junit| junit.write_error) {
        return Err(error);
    }
    Ok(summary.outcome())
}

/// Keeps case `i` (counting every loaded problem's cases in order) when `i % slices` is
/// `slice - 1`: the slices are disjoint and together hold every case once.
/// Problems left with no case in the slice are not judged in it.
fn partition(problems: &mut Vec<Result<Problem>>, slice: usize, slices: usize) {
    let mut index = 0;
    for problem in problems.iter_mut().flatten() {
        problem.cases.retain(|_| {
            let keep = index % slices == slice - 1;
            index += 1;
            keep
        });
    }
    problems.retain(|problem| {
        problem
            .as_ref()
            .map_or(true, |problem| !problem.cases.is_empty())
    });
}

fn parse_partition(text: &str) -> std::result::Result<(usize, usize), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    match parsed {
        Some((k, n)) if 1 <= k && k <= n => Ok((k, n)),
        _ => Err(format!(
            "`{text}` is not a slice K/N with 1 <= K <= N, like 2/4"
        )),
    }
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

fn cache_dir(repository: &Repository) -> PathBuf {
    repository.cache_dir()
}

fn jobs_or_cores(jobs: Option<u16>) -> usize {
    match jobs {
        Some(jobs) => usize::from(jobs),
        None => std::thread::available_parallelism().map_or(1, usize::from),
    }
}

fn parse_profile(name: &str) -> std::result::Result<Profile, String> {
    Profile::ALL
        .into_iter()
        .find(|profile| profile.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
            format!("expected one of {}", names.join(", "))
        })
}

/// `30s`, `2m`, `500ms`, or a plain number of seconds.
fn parse_duration(text: &str) -> std::result::Result<Duration, String> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let value: f64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a duration like 30s, 2m or 500ms"))?;
    let seconds = match &text[digits.len()..] {
        "" | "s" => value,
        "ms" => value / 1000.0,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        unit => return Err(format!("unknown unit `{unit}`: use ms, s, m or h")),
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("`{text}` is not a valid duration"))
}

fn compiler(repository: &Repository) -> Compiler {
    Compiler::new(cache_dir(repository))
}

fn load_one(repository: &Repository, name: &str) -> Result<Problem> {
    repository.load_problem(&repository.resolve(name)?)
}

fn list(repository: &Repository, provenance: bool) -> Result<Outcome> {
    let mut outcome = Outcome::Accepted;
    println!(
        "{:<22} {:>6} {:>8} {:>10}  {:<8} {:<12} solution",
        "problem", "cases", "time", "memory", "compare", "profile"
    );
    for problem in load_tasks(repository, &[])? {
        let problem = match problem {
            Ok(problem) => problem,
            Err(error) => {
                eprintln!("error: {error}");
                outcome = Outcome::Error;
                continue;
            }
        };
        let missing = if problem.solution.exists() {
            ""
        } else {
            " (missing)"
        };
        println!(
            "{:<22} {:>6} {:>5} ms {:>10}  {:<8} {:<12} {}{missing}",
            problem.id,
            problem.cases.len(),
            problem.limits.cpu_time.as_millis(),
            format_bytes(problem.limits.memory_bytes),
            problem.compare.name(),
            problem.profile,
            repository.relative(&problem.solution).display(),
        );
        if provenance {
            let origins = Provenance::load(&problem.dir)?;
            for case in &problem.cases {
                let origin = origins
                    .cases
                    .get(&case.name)
                    .map_or_else(|| "hand-written".to_owned(), |o| o.describe());
                println!("    {:<28} {origin}", case.name);
            }
        }
    }
    Ok(outcome)
}

fn new(repository: &Repository, id: &str, profile: Profile) -> Result<Outcome> {
    let made = scaffold::new_problem(repository, id, profile)?;
    for file in &made.files {
        println!("created {file}");
    }
    if made.registered_bin {
        println!("added [[bin]] `{id}` to solutions/Cargo.toml");
    }
    println!("next: write the statement, reference.rs and the solution, then `judge add {id} --from-reference`");
    Ok(Outcome::Accepted)
}

fn add(
    repository: &Repository,
    problem: &str,
    name: Option<&str>,
    input: &str,
    expected: Option<&Path>,
    current: &Path,
) -> Result<Outcome> {
    let problem = repository.load_metadata(&repository.resolve(problem)?)?;
    let input_bytes = if input == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|error| Error::io("<stdin>", error))?;
        bytes
    } else {
        let path = current.join(input);
        std::fs::read(&path).map_err(|error| Error::io(&path, error))?
    };
    let source = match expected {
        Some(file) => {
            let path = current.join(file);
            Expected::Given(std::fs::read(&path).map_err(|error| Error::io(&path, error))?)
        }
        None => Expected::FromReference,
    };
    let from_reference = matches!(source, Expected::FromReference);
    let manual = |n: u64| format!("manual/{}", n + 1);
    let naming = match name {
        Some(name) => corpus::Naming::Given(name),
        None => corpus::Naming::Next(&manual),
    };
    let name = corpus::add_case(
        &problem,
        &compiler(repository),
        naming,
        &input_bytes,
        source,
        None,
    )?;
    let base = problem.dir.join(corpus::TESTS_DIR).join(&name);
    println!(
        "added {}.in and .out{}",
        repository.relative(&base).display(),
        if from_reference {
            " (expected output from reference.rs)"
        } else {
            ""
        }
    );
    Ok(Outcome::Accepted)
}

fn gen(repository: &Repository, names: &[String], check: bool, jobs: usize) -> Result<Outcome> {
    let dirs: Vec<PathBuf> = if names.is_empty() {
        repository
            .problem_dirs()?
            .into_iter()
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .filter(|dir| dir.join(RECIPE_FILE).is_file())
            .collect()
    } else {
        names
            .iter()
            .map(|name| repository.resolve(name))
            .collect::<Result<_>>()?
    };
    let compiler = compiler(repository);
    let mut outcome = Outcome::Accepted;
    for dir in dirs {
        // A generated corpus may not exist yet: only the metadata is needed.
        let problem = repository.load_metadata(&dir)?;
        let summary = corpus::generate(&problem, &compiler, jobs, check)?;
        let changed = summary.written.len()
            + summary.removed.len()
            + summary.left.len()
            + usize::from(summary.unfinished);
        // Some case not as the recipe makes it: with --check any, else those left alone.
        if (check && changed > 0) || !summary.left.is_empty() {
            outcome = Outcome::Rejected;
        }
        if check {
            if changed == 0 {
                println!(
                    "{}: all {} generated cases match the recipe",
                    problem.id, summary.planned
                );
            } else {
                println!("{}: {changed} cases differ from the recipe", problem.id);
                for name in summary.written.iter().take(20) {
                    let how = if summary.missing.contains(name) {
                        "missing"
                    } else {
                        "differs"
                    };
                    println!("    {how}: {name}");
                }
                for name in summary.removed.iter().take(20) {
                    println!("    no longer in the recipe: {name}");
                }
                if summary.unfinished {
                    println!("    a corpus command was killed before it finished: `judge gen` completes its change");
                }
            }
        } else {
            println!(
                "{}: {} cases from the recipe: {} written, {} unchanged, {} removed",
                problem.id,
                summary.planned,
                summary.written.len(),
                summary.unchanged(),
                summary.removed.len()
            );
        }
        let left_as_it_is = if check { "" } else { "left as it is: " };
        for left in summary.left.iter().take(20) {
            println!("    {left_as_it_is}{}: {}", left.name, left.reason);
        }
    }
    Ok(outcome)
}

fn bless(
    repository: &Repository,
    problem: &str,
    write: bool,
    jobs: usize,
    color: ColorChoice,
) -> Result<Outcome> {
    if std::env::var_os("CI").is_some_and(|value| !value.is_empty()) {
        return Err(Error::usage(
            "judge bless does not run on CI (CI is set): expected outputs are changed on purpose, by a person",
        ));
    }
    // Metadata only: bless finds the cases once an interrupted change is completed.
    let problem = repository.load_metadata(&repository.resolve(problem)?)?;
    let blessed = corpus::bless(&problem, &compiler(repository), jobs, write)?;
    let changes = blessed.changes;
    let mut out = anstream::AutoStream::new(std::io::stdout(), color);
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
        "{}: {} cases, {} expected outputs differ from the reference, {} rewritten{}",
        problem.id,
        blessed.cases,
        changes.len(),
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

fn stress(
    repository: &Repository,
    problem: &str,
    solution: Option<PathBuf>,
    budget: Budget,
    seed: Option<u64>,
) -> Result<Outcome> {
    let problem = repository.load_metadata(&repository.resolve(problem)?)?;
    let solution = solution.unwrap_or_else(|| problem.solution.clone());
    let first_seed = seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        now.as_nanos() as u64 % 1_000_000_000
    });
    eprintln!(
        "stress {}: {} against reference.rs, seeds from {first_seed}",
        problem.id,
        repository.relative(&solution).display()
    );
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |runs: u64| {
        if terminal && runs.is_multiple_of(10) {
            eprint!("\r  {runs} runs, no disagreement yet");
        } else if !terminal && runs.is_multiple_of(100) {
            eprintln!("  {runs} runs, no disagreement yet");
        }
    };
    let found = stress::stress(
        &problem,
        &compiler(repository),
        &solution,
        budget,
        first_seed,
        &mut progress,
    )?;
    if terminal {
        eprintln!();
    }
    match found {
        Found::Nothing { runs } => {
            println!("{runs} runs: the solution agrees with the reference on every input");
            Ok(Outcome::Accepted)
        }
        Found::Counterexample(found) => {
            println!(
                "run {}: {} on `gen {}`",
                found.runs, found.verdict, found.args
            );
            println!("saved the minimised counterexample as tests/{} (expected output from reference.rs)", found.case);
            println!("    {}: {}", found.verdict, found.reason);
            let relative = repository.relative(&solution);
            println!(
                "reproduce: judge run {} --solution {}",
                problem.id,
                relative.display()
            );
            Ok(Outcome::Rejected)
        }
    }
}

fn verify(
    repository: &Repository,
    package: &str,
    jobs: usize,
    color: ColorChoice,
) -> Result<Outcome> {
    let problem = load_one(repository, package)?;
    let report = verify::verify(&problem, &compiler(repository), jobs)?;
    let rows = report.rows;
    let mut out = anstream::AutoStream::new(std::io::stdout(), color);
    let base = problem.dir.join(kattis::SUBMISSIONS_DIR);
    let _ = writeln!(
        out,
        "{:<44} {:<22} {:<26} result",
        "submission", "expected", "got"
    );
    for row in &rows {
        let name = row
            .submission
            .strip_prefix(&base)
            .unwrap_or(&row.submission)
            .display()
            .to_string();
        let (color, result) = match &row.outcome {
            verify::Outcome::Kept => (anstyle::AnsiColor::Green, "ok".to_owned()),
            verify::Outcome::Mismatch => (anstyle::AnsiColor::Red, "MISMATCH".to_owned()),
            verify::Outcome::Skipped(why) => {
                (anstyle::AnsiColor::Yellow, format!("skipped ({why})"))
            }
            verify::Outcome::Error(why) => (anstyle::AnsiColor::Red, format!("ERROR: {why}")),
        };
        let style = color.on_default();
        let _ = writeln!(
            out,
            "{name:<44} {:<22} {:<26} {style}{result}{style:#}",
            row.expected, row.got
        );
    }
    let count = |wanted: fn(&verify::Outcome) -> bool| {
        rows.iter().filter(|row| wanted(&row.outcome)).count()
    };
    let mismatches = count(|outcome| *outcome == verify::Outcome::Mismatch);
    let skipped = count(|outcome| matches!(outcome, verify::Outcome::Skipped(_)));
    let errors = count(|outcome| matches!(outcome, verify::Outcome::Error(_)));
    let _ = writeln!(
        out,
        "{}: {} submissions, {mismatches} mismatches, {skipped} skipped, {errors} errors",
        problem.id,
        rows.len()
    );
    if let Some((limit, how)) = &report.derived_time_limit {
        kattis::remember_time_limit(&cache_dir(repository), &problem.dir, *limit);
        let _ = writeln!(out, "time limit: {} s, derived: {how}", limit.as_secs_f64());
    }
    for note in &report.notes {
        let _ = writeln!(out, "note: {note}");
    }
    let judged = rows.len() - skipped;
    Ok(if errors > 0 {
        Outcome::Error
    } else if mismatches > 0 || judged == 0 {
        Outcome::Rejected
    } else {
        Outcome::Accepted
    })
}

fn check(
    repository: &Repository,
    file: &Path,
    profile: Option<Profile>,
    problem: Option<&str>,
    color: ColorChoice,
) -> Result<Outcome> {
    let language = Language::of(file).ok_or_else(|| {
        Error::invalid(
            file,
            "unknown language: no compiler for this file extension",
        )
    })?;
    let source = std::fs::read(file).map_err(|error| Error::io(file, error))?;
    let stem = file
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let problem = match problem {
        Some(name) => Some(load_one(repository, name)?),
        None => repository
            .resolve(&stem)
            .ok()
            .and_then(|dir| repository.load_problem(&dir).ok()),
    };
    let profile = profile
        .or(problem.as_ref().map(|p| p.profile))
        .unwrap_or(Profile::Boj);
    let mut outcome = Outcome::Accepted;
    println!("checking {} for {profile}", file.display());

    // Built alone, from an empty folder, with nothing cached: exactly the judge's build.
    let alone = tempfile::tempdir().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    let file_name = file.file_name().unwrap_or_default().to_string_lossy();
    let command = language.compile.map_or_else(
        || "(no build step)".to_owned(),
        |command| {
            let command = command
                .join(" ")
                .replace("{source}", &file_name)
                .replace("{exe}", "main")
                .replace("{crate}", &crate::language::crate_name(&file_name));
            command.replace("{dir}", ".")
        },
    );
    match Compiler::new(alone.path().to_path_buf()).build(file)? {
        Build::Ready(_) => println!("  ok        builds alone with `{command}`"),
        Build::CompileError(message) => {
            outcome = Outcome::Rejected;
            println!("  PROBLEM   does not build with `{command}`:");
            for line in message.trim_end().lines().take(30) {
                println!("            {line}");
            }
        }
    }
    let limit = profile.code_limit_bytes();
    if source.len() as u64 > limit {
        outcome = Outcome::Rejected;
        println!(
            "  PROBLEM   {} bytes: over the {} code-size limit",
            source.len(),
            format_bytes(limit)
        );
    } else {
        println!(
            "  ok        {} bytes, within the {} code-size limit",
            source.len(),
            format_bytes(limit)
        );
    }
    let found = check::problems_with(&String::from_utf8_lossy(&source), language, profile);
    if found.is_empty() {
        println!("  ok        standard library only, has an entry point");
    }
    for problem in &found {
        outcome = Outcome::Rejected;
        println!("  PROBLEM   {problem}");
    }
    match problem {
        Some(problem) => {
            println!();
            let task = Task {
                solution: file.to_path_buf(),
                problem,
            };
            let mut reporter = HumanReporter::new(color, repository.root.clone());
            let summary = runner::judge_all(
                vec![Ok(task)],
                &compiler(repository),
                &Settings {
                    jobs: jobs_or_cores(None),
                    fail_fast: false,
                },
                &mut reporter,
            );
            outcome = outcome.max(summary.outcome());
        }
        None => println!(
            "  note      no problem named `{stem}`: no cases run (name one with --problem)"
        ),
    }
    if outcome == Outcome::Accepted {
        println!("submit: {}", file.display());
    }
    Ok(outcome)
}
